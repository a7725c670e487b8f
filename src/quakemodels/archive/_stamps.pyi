"""Types of the compiled ``_stamps`` module (``_stamps.c``); see :func:`..vpath.compiled_stamps`."""

def stamps(paths: tuple[bytes, ...]) -> bytes | None:
    """Each folder's (device, inode, mode, size, mtime_ns, ctime_ns) as os.stat gives them,
    six native 8-byte words a folder (struct's ``=QQQqqq``); None when one cannot be stat'ed."""
