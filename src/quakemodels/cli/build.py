"""``quakemodels build FRAMES... -o OUT``: a sprite (.spr, .sp2) from PNG/GIF pictures or from
another sprite, through the target format's ``build`` service."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..errors import LimitExceededError, ModelFormatError
from .options import folder
from .output import EXIT_BAD_INPUT, EXIT_OK, EXIT_USAGE

ORIENTATIONS = (
    "vp_parallel_upright",
    "facing_upright",
    "vp_parallel",
    "oriented",
    "vp_parallel_oriented",
)


def _orientation(text: str) -> int:
    if text.isdigit():
        return int(text)
    if text not in ORIENTATIONS:
        raise argparse.ArgumentTypeError(f"one of {', '.join(ORIENTATIONS)} or 0..4")
    return ORIENTATIONS.index(text)


def add_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "inputs",
        nargs="+",
        metavar="FRAME",
        help="PNG (or any picture Pillow reads) and animated GIF files, in order, or a folder"
        " of them; or one sprite file",
    )
    parser.add_argument(
        "-o", "--output", required=True, metavar="OUT", help="the sprite to write (.spr, .sp2)"
    )
    parser.add_argument(
        "--to",
        metavar="FORMAT",
        help="the sprite format (default by suffix: .spr is Quake's; hlspr for Half-Life)",
    )
    parser.add_argument(
        "--type", type=_orientation, metavar="T", help="orientation (default vp_parallel)"
    )
    parser.add_argument(
        "--sync", choices=("sync", "rand"), help="whether groups animate in step (default sync)"
    )
    parser.add_argument(
        "--tex-format",
        choices=("normal", "additive", "index_alpha", "alpha_test"),
        help="Half-Life: how the pictures blend (default alpha_test)",
    )
    parser.add_argument(
        "--palette",
        metavar="FILE",
        help="the palette.lmp to quantize to (Quake: default the bundled one; Half-Life and"
        " Quake II: default one made from the pictures)",
    )
    parser.add_argument(
        "--group", action="store_true", help="all pictures one frame group (an animation)"
    )
    parser.add_argument(
        "--interval", type=float, default=None, metavar="S", help="seconds per picture (0.1)"
    )
    parser.add_argument(
        "--skin-dir", type=folder, metavar="DIR", help="a Quake II sprite's frame images"
    )
    parser.add_argument(
        "--no-clobber", action="store_true", help="never replace an existing file (exit 3)"
    )


def _pictures(inputs: list[Path]) -> list[Path]:
    """The inputs, a folder replaced by its PNG/GIF files in name order."""
    out: list[Path] = []
    for p in inputs:
        if p.is_dir():
            out += sorted(q for q in p.iterdir() if q.suffix.lower() in (".png", ".gif"))
        else:
            out.append(p)
    return out


def build_files(inputs: list[Path], out: Path, opts: dict[str, Any]) -> int:
    """Build ``out`` from ``inputs`` (see :func:`quakemodels.cli.sprites.build_sprite`),
    printing what was written; exit 1 for bad input, 2 for a wrong option."""
    from .sprites import build_sprite

    try:
        for line in build_sprite(_pictures(inputs), out, opts):
            print(line)
    except ModelFormatError as e:
        text = e.reason if isinstance(e, LimitExceededError) else str(e)
        print(f"error: {', '.join(map(str, inputs))}: {text}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except (IndexError, KeyError, ValueError) as e:
        print(f"error: {e.args[0] if e.args else e}", file=sys.stderr)
        return EXIT_USAGE
    except OSError as e:
        name = e.filename or ", ".join(map(str, inputs))
        print(f"error: {name}: {e.strerror or e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    return EXIT_OK


def run(args: argparse.Namespace) -> int:
    options = {
        "type": args.type,
        "sync_type": None if args.sync is None else ("sync", "rand").index(args.sync),
        "tex_format": args.tex_format,
        "palette": args.palette,
    }
    opts = {
        "to": args.to,
        "build": options,
        "palette": args.palette,
        "skin_dir": args.skin_dir,
        "group": args.group,
        "interval": args.interval,
        "no_clobber": args.no_clobber,
    }
    return build_files([Path(p) for p in args.inputs], Path(args.output), opts)
