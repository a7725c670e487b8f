"""``quakemodels ls ARCHIVE|GAMEDIR [--models]``: what the engine sees, and which source wins."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..archive import GameFS
from ..archive.names import type_by_magic
from ..core.names import plural
from ..errors import ModelFormatError
from ..formats.q3player.files import player_folders
from ..registry import by_magic
from .output import reported_warnings

HELP = "list a .pak/.pk3 or a game folder: size, type by magic, and which archive wins"
EXAMPLES = """\
  quakemodels ls baseq2/pak0.pak
  quakemodels ls baseq2/ --models        # models in pak0..pak9 and loose files
  quakemodels ls baseq3/ --engine quake3   # player folders last: `player models/players/x/`
"""


def add_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("source", metavar="ARCHIVE|GAMEDIR", help="a .pak/.pk3 or a game folder")
    parser.add_argument("--models", action="store_true", help="list only models (by magic)")
    parser.add_argument(
        "--engine",
        choices=("quake", "quake2", "quake3"),
        default=None,
        help="search order and name rules (default: quake3 for pk3s, else quake2)",
    )


def run(args: argparse.Namespace) -> int:
    try:
        with reported_warnings(args.source):
            fs = GameFS(args.source, engine=args.engine)
    except (ModelFormatError, OSError) as e:
        print(f"quakemodels ls: error: {e}", file=sys.stderr)
        return 1
    base = Path(args.source)
    with fs:
        rows = 0
        models = 0
        everything = fs.listing()
        for found, shadowed in everything:
            try:
                if found.entry is not None and found.source.archive is not None:
                    head = found.source.archive.read_head(found.entry)
                else:
                    assert found.file is not None
                    with open(found.file, "rb") as f:
                        head = f.read(16)
            except (ModelFormatError, OSError) as e:
                print(f"quakemodels ls: error: {found.name}: {e}", file=sys.stderr)
                return 1
            fmt = by_magic(head)
            is_model = fmt is not None
            kind = fmt.name if fmt is not None else type_by_magic(head, found.name)
            models += is_model
            if args.models and not is_model:
                continue
            rows += 1
            where = _label(found.source.path, base)
            over = (
                f"  (over {', '.join(_label(s.path, base) for s in shadowed)})" if shadowed else ""
            )
            print(f"{found.size:>10}  {kind:<5} {found.name}  [{where}]{over}")
        # Quake III player folders: one line each, naming where each part comes from
        listing = {found.name: found for found, _ in everything}
        players = player_folders(listing)
        for folder, parts in players.items():
            size = sum(listing[name].size for name in parts.values())
            wheres = sorted({_label(listing[name].source.path, base) for name in parts.values()})
            print(f"{size:>10}  {'player':<5} {folder}/  [{', '.join(wheres)}]")
        # `18 files (6 models, 2 players)`; with --models every row is a model: `6 models`
        counts = [plural(models, "model")] if not args.models else []
        if players:
            counts.append(plural(len(players), "player"))
        what = plural(rows, "model" if args.models else "file")
        if counts:
            what += f" ({', '.join(counts)})"
        print(
            f"{what} from {plural(len(fs.sources), 'source')}, {fs.engine} order",
            file=sys.stderr,
        )
    return 0


def _label(path: Path, base: Path) -> str:
    """A source's path relative to the listed folder (``pak0.pak``, ``.``), else its name."""
    if path == base:
        return "." if base.is_dir() else path.name
    try:
        rel = path.relative_to(base)
    except ValueError:
        return str(path)
    return str(rel) if str(rel) != "." else "."
