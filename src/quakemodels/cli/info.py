"""``quakemodels info FILE...``: header, counts, skins, clips and bounds."""

from __future__ import annotations

import argparse
import sys

from ..errors import ModelFormatError
from ..registry import describe, load

HELP = "print a model's header, counts, skins, clip table and bounds"
EXAMPLES = """\
  quakemodels info tris.md2
  quakemodels info models/*.md2
"""


def add_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="model files")


def run(args: argparse.Namespace) -> int:
    status = 0
    for path in args.files:
        try:
            print(describe(load(path)))
        except ModelFormatError as e:
            print(f"{path}: error: {e}", file=sys.stderr)
            status = 1
        except OSError as e:
            print(f"{path}: error: {e.strerror or e}", file=sys.stderr)
            status = 1
    return status
