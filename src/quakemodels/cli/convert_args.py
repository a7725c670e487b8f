"""``quakemodels convert``'s command line: its help, examples and options, and the
:class:`~quakemodels.interchange.convert.BuildOptions` a target's build reads from them."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..core.scene import FPS
from ..interchange.convert import BuildOptions
from .options import folder, frame_number, positive


def add_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "inputs",
        nargs="+",
        metavar="IN",
        help="a model (.md2, .md3, .mdl; a player folder; an entry of a .pak/.pk3), a"
        " .glb/.gltf, or OBJ files (one a frame)",
    )
    parser.add_argument(
        "output",
        metavar="OUT",
        help="the .md2, .md3, .glb, .gltf or .obj to write; or a folder (ending with /): a player"
        " folder from a player glTF, OBJ frames with --clip",
    )
    parser.add_argument(
        "--skin",
        action="append",
        default=[],
        metavar="NAME",
        help="→ MD2: a skin name to store (repeatable; at most 63 bytes; default: the names"
        " a glTF's material carries); model → glTF/OBJ and MD2/MD3 → MDL: the skin to embed,"
        " the model's skin number N or an image NAME; glTF/OBJ → MDL: the image file to"
        " quantize into the MDL, or a glTF's image number N (default: the glTF's base colour"
        " texture)",
    )
    parser.add_argument(
        "--skin-size",
        metavar="WxH",
        help="→ MD2/MDL: skin size in pixels (default: the embedded or found image's, else"
        " 256x256)",
    )
    parser.add_argument(
        "--frame-names",
        metavar="A,B,...",
        help="→ MD2 from OBJ: frame names (default: the file names without extension)",
    )
    parser.add_argument(
        "--frame-prefix",
        metavar="NAME",
        help="→ MD2 from OBJ: name the frames NAME1, NAME2, ... instead",
    )
    parser.add_argument(
        "--no-limits",
        action="store_true",
        help="→ MD2: allow more than vanilla Quake II's 2048 vertices, 4096 triangles, 512"
        " frames and 32 skins (only the format's own 16-bit limits remain); → MD3: more than"
        " ioquake3's 999 vertices and 1999 triangles per surface and 16 tags",
    )
    parser.add_argument(
        "--merge-surfaces",
        action="store_true",
        help="MD3 → MD2/MDL: merge every surface into the one mesh MD2/MDL hold (texcoords as"
        " they are, on the first surface's skin); without it an MD3 must have one surface",
    )
    parser.add_argument(
        "--shader",
        action="append",
        default=[],
        metavar="NAME",
        help="→ MD3: a shader name for every surface that has none (repeatable; ≤ 63 bytes;"
        " a glTF surface has the name its material carries, else its texture's game path)",
    )
    parser.add_argument(
        "--frame",
        type=frame_number,
        default=0,
        metavar="N",
        help="model → OBJ: the frame to write (default 0)",
    )
    parser.add_argument(
        "--clip",
        metavar="NAME",
        help="model → OBJ: write every frame of this clip as its own OBJ into the folder OUT",
    )
    parser.add_argument(
        "--skin-dir",
        type=folder,
        metavar="DIR",
        help="model → glTF/OBJ: where to look for the skin image",
    )
    parser.add_argument(
        "--scale",
        type=positive,
        default=1.0,
        metavar="K",
        help="model or glTF → glTF/OBJ: multiply positions by K (default 1: Quake units,"
        " about an inch; 0.0254 gives metres)",
    )
    parser.add_argument(
        "--palette",
        metavar="FILE",
        help="MDL: the palette.lmp its skins use (default: the bundled LibreQuake palette)",
    )
    parser.add_argument(
        "--fullbrights",
        action="store_true",
        help="→ MDL: let skin colours map to the fullbright palette rows 224..254 (they glow"
        " in the dark in Quake; avoided by default)",
    )
    parser.add_argument(
        "--fps",
        type=positive,
        default=None,
        metavar="N",
        help="glTF → MD2/MD3/MDL: sample a rigged or moved glTF's animations at N frames per"
        f" second (default {FPS:g}, the rate Quake, Quake II and Quake III animate models at);"
        " each animation becomes a clip of frames named after it; glTF → glTF: each"
        " animation's keys, N a second; MD5/IQM → MD2/MD3/MDL: bake each animation at N frames"
        " per second (default: its own frames, at the rate the file gives; the engines play"
        f" frames at {FPS:g} a second, so --fps {FPS:g} keeps an animation's speed)",
    )
    parser.add_argument(
        "--up",
        choices=("y", "z"),
        default="y",
        help="glTF → MD2/MD3/MDL/glTF: the file's up axis (default y, as glTF defines it); z"
        " reads a model exported Z-up (Blender's '+Y Up' unchecked) upright",
    )
    parser.add_argument(
        "--no-clobber", action="store_true", help="never replace an existing file (exit 3)"
    )


def _skin_size(text: str | None) -> tuple[int, int] | None:
    if text is None:
        return None
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise ValueError(f"--skin-size {text!r} is not WxH (e.g. 256x256)") from None
    if w <= 0 or h <= 0:
        raise ValueError(f"--skin-size {text!r} must be positive")
    return w, h


def build_options(args: argparse.Namespace, out: Path) -> BuildOptions:
    """The options a target's build reads, from the command line."""
    names = None
    if args.frame_prefix:
        names = tuple(f"{args.frame_prefix}{k}" for k in range(1, len(args.inputs) + 1))
    elif args.frame_names:
        names = tuple(args.frame_names.split(","))
    return BuildOptions(
        out=out,
        skins=tuple(args.skin),
        skin_size=_skin_size(args.skin_size),
        frame_names=names,
        no_limits=args.no_limits,
        merge_surfaces=args.merge_surfaces,
        shaders=tuple(args.shader),
        palette=args.palette,
        fullbrights=args.fullbrights,
        skin_dir=args.skin_dir,
        fps=args.fps if args.fps is not None else FPS,
        up=args.up,
    )
