"""Types of the compiled ``_stamps`` module (``_stamps.c``); see :func:`..vpath.compiled_stamps`."""

def stamps(paths: tuple[bytes, ...]) -> bytes | None:
    """Each folder's (device, inode, mode, size, mtime_ns) as os.stat gives them, five native
    8-byte words a folder (struct's ``=QQQqq``); None when one cannot be stat'ed."""
