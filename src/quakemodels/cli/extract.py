"""``quakemodels extract ARCHIVE -o DIR [PATTERN]``: files out of a .pak/.pk3, safely."""

from __future__ import annotations

import argparse
import sys

from .. import archive
from ..archive.extract import extract
from ..errors import ModelFormatError

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
    try:
        with archive.open(args.archive) as a:
            written = extract(a, args.output, args.pattern)
    except (ModelFormatError, OSError) as e:
        print(f"quakemodels extract: error: {e}", file=sys.stderr)
        return 1
    for path in written:
        print(path)
    print(f"{len(written)} files written under {args.output}", file=sys.stderr)
    return 0 if written or args.pattern is None else 1
