"""``quakemodels info FILE...``: header, counts, skins, clips and bounds."""

from __future__ import annotations

import argparse
import sys

from ..errors import ModelFormatError
from ..registry import describe, load
from .batch import expand

HELP = "print a model's header, counts, skins, clip table and bounds"
EXAMPLES = """\
  quakemodels info tris.md2
  quakemodels info models/*.md2
  quakemodels info baseq2/pak0.pak          # every model in the pak
"""


def add_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "files", nargs="+", metavar="FILE", help="model files, folders, archives or game folders"
    )


def run(args: argparse.Namespace) -> int:
    files, unmatched = expand(args.files)
    status = 1 if unmatched else 0
    for outcome in unmatched:
        print(f"{outcome.path}: error: {outcome.error}", file=sys.stderr)
    for path in files:
        try:
            print(describe(load(path)))
        except ModelFormatError as e:
            print(f"{path}: error: {e}", file=sys.stderr)
            status = 1
        except OSError as e:
            print(f"{path}: error: {e.strerror or e}", file=sys.stderr)
            status = 1
    return status
