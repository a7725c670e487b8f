"""``quakemodels extract ARCHIVE -o DIR [PATTERN]``: files out of a .pak/.pk3, safely."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .. import archive
from ..archive.extract import plan, select
from ..core.atomic import write_bytes_atomic
from ..core.names import plural
from ..errors import ModelFormatError
from .output import EXIT_BAD_INPUT, EXIT_OK, OutputError, writing

HELP = "extract a .pak/.pk3's files (all, or those matching PATTERN) under DIR"
EXAMPLES = """\
  quakemodels extract baseq2/pak0.pak -o unpacked/
  quakemodels extract baseq2/pak0.pak -o out/ 'models/monsters/*'
"""


def add_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("archive", metavar="ARCHIVE", help="a .pak or .pk3 file")
    parser.add_argument("pattern", nargs="?", default=None, help="shell pattern (case ignored)")
    parser.add_argument("-o", "--output", required=True, metavar="DIR", help="output folder")
    parser.set_defaults(_late_positional="pattern")


def run(args: argparse.Namespace) -> int:
    """Exit 1 for a bad archive (or a pattern matching nothing), 3 when a file cannot be
    written (``cannot write PATH: reason``, as every writing verb says)."""
    folder = Path(args.output)
    written: list[Path] = []
    try:
        with archive.open(args.archive) as a:
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise OutputError(f"cannot create folder {folder}: {e.strerror or e}") from e
            # archive.extract.extract's steps, each write named by the file it makes
            for entry, target in plan(a, folder, select(a, args.pattern)):
                data = a.read(entry)
                with writing(target):
                    write_bytes_atomic(target, data)
                written.append(target)
                print(target)  # as it is written: after a failure, the list says how far
    except (ModelFormatError, OSError) as e:  # the archive: unreadable or unsafe to extract
        print(f"quakemodels extract: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(f"{plural(len(written), 'file')} written under {args.output}", file=sys.stderr)
    return EXIT_OK if written or args.pattern is None else EXIT_BAD_INPUT
