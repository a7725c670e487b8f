"""``quakemodels extract ARCHIVE -o DIR [PATTERN]``: files out of a .pak/.pk3, safely."""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

from .. import archive
from ..archive.base import MAX_RATIO, MAX_TOTAL
from ..archive.extract import extract, make_folders, remove_empty
from ..core.names import plural
from ..errors import ModelFormatError
from .output import EXIT_BAD_INPUT, EXIT_OK, OutputError, output_error

_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def byte_count(text: str) -> int:
    """``4096``, ``512M``, ``16G`` (binary units) as a number of bytes."""
    t = text.strip().upper().removesuffix("B").removesuffix("I")
    unit = t[-1:] if t[-1:] in _UNITS else ""
    try:
        value = float(t[: len(t) - len(unit)]) * _UNITS[unit]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a size (4096, 512M, 16G)") from None
    if not value >= 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive size")
    return int(value)


def ratio(text: str) -> int:
    """A compression ratio limit (a whole number ≥ 1)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a ratio of 1 or more")
    return value


def add_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("archive", metavar="ARCHIVE", help="a .pak or .pk3 file")
    parser.add_argument("pattern", nargs="?", default=None, help="shell pattern (case ignored)")
    parser.add_argument("-o", "--output", required=True, metavar="DIR", help="output folder")
    parser.add_argument(
        "--max-total",
        type=byte_count,
        default=MAX_TOTAL,
        metavar="SIZE",
        help=f"refuse to write more than SIZE bytes in all (default {MAX_TOTAL >> 30}G)",
    )
    parser.add_argument(
        "--max-ratio",
        type=ratio,
        default=MAX_RATIO,
        metavar="N",
        help=f"refuse an entry over 16M inflating more than N:1 (default {MAX_RATIO})",
    )
    parser.set_defaults(_late_positional="pattern")


@contextlib.contextmanager
def _naming(path: Path) -> Iterator[None]:
    """An OSError while writing ``path`` becomes "cannot write PATH: reason"."""
    try:
        yield
    except OSError as e:
        if isinstance(e, BrokenPipeError):
            raise
        raise output_error(path, e) from e


def run(args: argparse.Namespace) -> int:
    """Exit 1 for a bad archive (or a pattern matching nothing), 3 when a file cannot be
    written (``cannot write PATH: reason``, as every writing verb says). All or nothing: after
    a failure the output folder is as it was."""
    folder = Path(args.output)
    written: Sequence[Path] = ()
    try:
        with archive.open(args.archive) as a:
            a.max_ratio = args.max_ratio
            try:
                created = make_folders(folder)
            except OSError as e:
                raise OutputError(f"cannot create folder {folder}: {e.strerror or e}") from e
            try:
                written = extract(
                    a,
                    folder,
                    args.pattern,
                    max_total=args.max_total,
                    writing=_naming,
                    on_written=print,
                )
            except BaseException:
                remove_empty(created)
                raise
            if not written:
                remove_empty(created)
    except (ModelFormatError, OSError) as e:  # the archive: unreadable or unsafe to extract
        print(f"quakemodels extract: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(f"{plural(len(written), 'file')} written under {args.output}", file=sys.stderr)
    return EXIT_OK if written or args.pattern is None else EXIT_BAD_INPUT
