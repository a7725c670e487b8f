"""``quakemodels dump FILE``: the generated parser's whole tree as JSON (Web IDE or ksdump)."""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile

from ..core.atomic import atomic_output
from ..core.dump import FORMATS, dump
from ..errors import ModelFormatError
from ..formats.q3player.player import find_parts
from ..registry import explain, spec_id

HELP = "write a model's whole parse tree as JSON, as the Kaitai Web IDE or ksdump exports it"
EXAMPLES = """\
  quakemodels dump tris.md2 -o tris.json               # Web IDE "Export to JSON"
  quakemodels dump tris.md2 --format ksdump            # like `ksdump -f json`, to stdout
  quakemodels dump broken.md2 --partial -o part.json   # what parsed, marked incomplete
  quakemodels dump players/sarge -o sarge/             # a player: lower/upper/head.json
"""


def add_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "file", metavar="FILE", help="model file (any spec in ksy/), or a player folder"
    )
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default="webide",
        help="webide: the Web IDE's Export to JSON (default); ksdump: ksdump -f json",
    )
    parser.add_argument(
        "-o", "--output", metavar="OUT", help="write here (atomically) instead of stdout"
    )
    parser.add_argument(
        "--partial",
        action="store_true",
        help="on a parse failure still write what parsed, under "
        '{"$incomplete": true, "$error": ..., "tree": ...} (exit status stays 1)',
    )


def run(args: argparse.Namespace) -> int:
    if os.path.isdir(args.file):
        return _dump_player(args)
    return _dump_file(args)


def _dump_player(args: argparse.Namespace) -> int:
    """One dump per part of a player folder, as ``<part>.json`` in the ``-o`` folder."""
    parts = find_parts(args.file)
    if parts is None:
        print(
            f"{args.file}: error: not a player folder (lower.md3, upper.md3, head.md3)",
            file=sys.stderr,
        )
        return 1
    if not args.output or args.output == "-" or os.path.isfile(args.output):
        print(
            f"{args.file}: error: a player folder dumps one file per part: -o a folder",
            file=sys.stderr,
        )
        return 2
    os.makedirs(args.output, exist_ok=True)
    status = 0
    for part, path in parts.items():
        out = os.path.join(args.output, f"{part}.json")
        status = max(
            status,
            _dump_file(argparse.Namespace(**{**vars(args), "file": str(path), "output": out})),
        )
        if status == 0:
            print(f"{path} -> {out}")
    return status


def _dump_file(args: argparse.Namespace) -> int:
    try:
        with open(args.file, "rb") as f:
            data = f.read()
    except OSError as e:
        print(f"{args.file}: error: {e.strerror or e}", file=sys.stderr)
        return 1
    try:
        if args.output and args.output != "-":
            with atomic_output(args.output, "w") as out:
                tree = dump(
                    data,
                    out,  # type: ignore[arg-type]
                    args.format,
                    partial=args.partial,
                    spec_id=spec_id(data),
                    explain=explain,
                )
        else:
            # Spool first so that a failure half-way leaves nothing on stdout either.
            with tempfile.TemporaryFile("w+", encoding="utf-8") as spool:
                tree = dump(
                    data,
                    spool,
                    args.format,
                    partial=args.partial,
                    spec_id=spec_id(data),
                    explain=explain,
                )
                spool.seek(0)
                shutil.copyfileobj(spool, sys.stdout)
                if sys.stdout.isatty() and args.format == "webide":
                    sys.stdout.write("\n")
    except ModelFormatError as e:
        print(f"{args.file}: error: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"{args.output}: error: {e.strerror or e}", file=sys.stderr)
        return 1
    if tree.error is not None:
        print(f"{args.file}: error: {tree.error} (partial tree written)", file=sys.stderr)
        return 1
    return 0
