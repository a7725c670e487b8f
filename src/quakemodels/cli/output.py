"""Where a verb writes: ``-o`` as a file, a folder or ``-`` (stdout), and output failures.

The rules every writing verb follows (README, "Command-line conventions"):

* ``-o`` with a suffix the verb writes (``.glb``, ``.png``...) is a file; ``-o`` that is an
  existing folder, ends with ``/`` or has no suffix is a folder, created (with its parents)
  when missing; any other suffix is a usage error listing the suffixes the verb writes.
* ``-o -`` writes to stdout where one stream makes sense, else it is a usage error.
* A failure to write (permission, full disk, a file where a folder should be) exits 3 with a
  message naming the user's path, never the hidden temporary file beside it.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import sys
import warnings
from collections.abc import Iterable, Iterator, Sequence

from ..errors import ItemWarning

# Every command imports this module, `--help` included: it imports neither typing, dataclasses
# nor pathlib (with urllib and ipaddress), which together cost as much as Python's start-up.
# Type checkers treat any name TYPE_CHECKING as true; pathlib loads when a verb resolves -o.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path

    from _typeshed import ReadableBuffer

EXIT_OK = 0
EXIT_BAD_INPUT = 1
EXIT_USAGE = 2
EXIT_OUTPUT = 3
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE, what a shell reports for a tool killed by the pipe
EXIT_INTERRUPTED = 130  # 128 + SIGINT


class UsageError(Exception):
    """A command line that cannot run (exit 2); the message says why."""


class OutputError(Exception):
    """An output that cannot be written (exit 3); the message names the user's path."""


class StdoutError(OutputError):
    """Stdout refused what was written (``> /dev/full``): exit 3 with one line."""


class _GuardedStdout(io.RawIOBase):
    """The descriptor of stdout as a raw stream whose write failures are :class:`StdoutError`.

    ``print`` and ``sys.stdout.write`` fail with a bare OSError that names no file, which
    cannot be told from a bug; under this stream they say it was stdout. A closed pipe stays
    a BrokenPipeError (exit 141, quietly)."""

    def __init__(self, fd: int) -> None:
        super().__init__()
        self._fd = fd

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._fd

    def isatty(self) -> bool:
        return os.isatty(self._fd)

    def write(self, data: ReadableBuffer) -> int:
        try:
            return os.write(self._fd, data)
        except BrokenPipeError:
            raise
        except OSError as e:
            raise StdoutError(f"cannot write stdout: {e.strerror or e}") from e


def guard_stdout() -> None:
    """Put a stdout whose write failures are :class:`StdoutError` in place of ``sys.stdout``
    (same descriptor, encoding and buffering); left alone when stdout is not a real file."""
    out = sys.stdout
    try:
        fd = out.fileno()
        out.flush()
    except (AttributeError, OSError, ValueError):
        return
    buffered = io.BufferedWriter(_GuardedStdout(fd))
    sys.stdout = io.TextIOWrapper(
        buffered,
        encoding=out.encoding,
        errors=out.errors,
        line_buffering=bool(out.line_buffering),
        write_through=getattr(out, "write_through", False),
    )


def output_error(path: str | os.PathLike[str], e: OSError) -> OutputError:
    """The message for ``e`` raised while writing ``path``: the user's path and the reason."""
    reason = e.strerror or str(e)
    if isinstance(e, (FileNotFoundError, NotADirectoryError)):
        reason += f" (is {os.path.dirname(path) or '.'} a folder?)"
    return OutputError(f"cannot write {os.fspath(path)}: {reason}")


@contextlib.contextmanager
def writing(path: str | os.PathLike[str]) -> Iterator[None]:
    """Make ``path``'s folder, and turn an OSError raised while writing ``path`` into an
    :class:`OutputError`."""
    try:
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        yield
    except OSError as e:
        if isinstance(e, BrokenPipeError):
            raise
        raise output_error(path, e) from e


class Target:
    """What ``-o`` names: ``kind`` is ``"file"``, ``"folder"`` or ``"stdout"``."""

    __slots__ = ("kind", "path")

    def __init__(self, kind: str, path: Path) -> None:
        self.kind = kind
        self.path = path

    @property
    def is_file(self) -> bool:
        return self.kind == "file"


def resolve(
    verb: str,
    output: str,
    suffixes: Sequence[str],
    num_models: int,
    *,
    stdout_ok: bool = False,
    no_clobber: bool = False,
) -> Target:
    """The :class:`Target` ``-o output`` names, its folder created; UsageError (exit 2) for an
    unknown suffix, ``-`` where stdout makes no sense or one file for several models;
    OutputError (exit 3) when the folder cannot be made or, with ``no_clobber``, the file
    exists."""
    from pathlib import Path  # only here: see TYPE_CHECKING above

    if output == "-":
        if not stdout_ok:
            raise UsageError(f"-o -: {verb} cannot write this to stdout; give a file or folder")
        if num_models > 1:
            raise UsageError(f"-o - takes one model, {num_models} were given")
        return Target("stdout", Path("-"))
    out = Path(output)
    suffix = out.suffix.lower()
    folder = out.is_dir() or output.endswith(("/", os.sep)) or not suffix
    if not folder and suffix not in suffixes:
        raise UsageError(
            f"-o {output}: {verb} does not write {suffix} files; it writes"
            f" {', '.join(suffixes)}, or into a folder (a path ending with /)"
        )
    if not folder and num_models > 1:
        raise UsageError(f"-o {output} is a file but {num_models} models were given; pass a folder")
    where = out if folder else out.parent
    try:
        where.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise OutputError(f"cannot create folder {where}: {e.strerror or e}") from e
    if not folder and no_clobber and out.exists():
        raise OutputError(f"{output} exists (--no-clobber)")
    return Target("folder" if folder else "file", out)


def refuse_existing(paths: Sequence[Path], no_clobber: bool) -> None:
    """With ``no_clobber``, an OutputError when any of ``paths`` exists."""
    if no_clobber:
        for p in paths:
            if p.exists():
                raise OutputError(f"{p} exists (--no-clobber)")


def refuse_inputs(out: Path, inputs: Sequence[Path]) -> None:
    """A UsageError when ``out`` is one of ``inputs``, by whatever path (``./a.md2``, a
    symlink, a hard link): an output never goes over an input."""
    try:
        if not out.exists():
            return  # a new file cannot be an input
        for given in inputs:
            if given.exists() and os.path.samefile(out, given):
                raise UsageError(
                    f"{out} is the input {given}: an output never goes over an input;"
                    " give another name"
                )
    except OSError:
        return  # not comparable (permissions): the write itself reports what fails


def write_stdout(data: bytes) -> None:
    """Write all of ``data`` to stdout and flush; BrokenPipeError when the reader has gone.

    A buffered write to a pipe whose reader closes part way returns the count it wrote instead
    of raising (the EPIPE is only seen by the next write), so a single ``write`` would end a
    truncated output with exit 0; the rest is written until it is all out or the pipe fails.
    """
    out = sys.stdout.buffer
    view = memoryview(data)
    while view:
        n = out.write(view)
        if not n:
            raise BrokenPipeError(errno.EPIPE, "stdout accepted no more bytes")
        view = view[n:]
    out.flush()


def missing_dependency(e: ImportError) -> str:
    """The message for a dependency that cannot be imported: its name and the fix."""
    name = (e.name or str(e)).split(".")[0]
    package = {"PIL": "Pillow"}.get(name, name)
    return (
        f"the {package} package is missing ({e}); it comes with quakemodels:"
        f" reinstall it (pip install --force-reinstall . in its checkout), or pip install"
        f" {package}"
    )


def error(verb: str, message: str) -> None:
    """Print ``quakemodels VERB: error: message`` on stderr."""
    print(f"quakemodels {verb}: error: {message}", file=sys.stderr)


def warning_lines(messages: Iterable[Warning | str]) -> list[str]:
    """One line per cause, in order of first occurrence: a repeated message once, and the
    :class:`~quakemodels.errors.ItemWarning` messages of one cause as one line naming their items
    (its own message when there is one item)."""
    causes: dict[str, list[Warning | str]] = {}
    for m in messages:
        key = m.group if isinstance(m, ItemWarning) else str(m)
        same = causes.setdefault(key, [])
        if not any(str(m) == str(seen) for seen in same):
            same.append(m)
    lines = []
    for key, same in causes.items():
        first = same[0]
        if isinstance(first, ItemWarning) and len(same) > 1:
            items = ", ".join(m.item for m in same if isinstance(m, ItemWarning))
            lines.append(f"{key.format(n=len(same))}: {items}")
        else:
            lines.append(str(first))
    return lines


@contextlib.contextmanager
def reported_warnings(label: str) -> Iterator[None]:
    """Print each warning raised in the block as ``label: warning: message`` on stderr, as a
    batch reports a file's warnings (a broken pk3 skipped while a game folder is searched)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            yield
        finally:
            for message in warning_lines(w.message for w in caught):  # once per cause
                print(f"{label}: warning: {message}", file=sys.stderr)
