"""``quakemodels convert IN... OUT``: MD2 → glTF/OBJ, and glTF or an OBJ sequence → MD2."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

from ..errors import ModelFormatError
from ..formats.md2.write import FORMAT_LIMITS, VANILLA

HELP = "convert MD2 to glTF/OBJ, or a glTF with morph targets or OBJ frames to MD2"
EXAMPLES = """\
  quakemodels convert tris.md2 tris.glb           # every frame as a morph target, clips
  quakemodels convert tris.md2 tris.obj --frame 40
  quakemodels convert tris.glb tris.md2 --skin models/players/guy/skin.pcx
  quakemodels convert tris.md2 frames/ --clip run  # one OBJ per frame of a clip
  quakemodels convert frames/*.obj run.md2 --frame-prefix run --skin-size 256x256
"""

_GLTF = (".glb", ".gltf")


def add_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "inputs", nargs="+", metavar="IN", help="an .md2, a .glb/.gltf, or OBJ files (one a frame)"
    )
    parser.add_argument("output", metavar="OUT", help="the .md2, .glb, .gltf or .obj to write")
    parser.add_argument(
        "--skin",
        action="append",
        default=[],
        metavar="NAME",
        help="→ MD2: a skin name to store (repeatable; at most 63 bytes)",
    )
    parser.add_argument(
        "--skin-size",
        metavar="WxH",
        help="→ MD2: skin size in pixels (default: the embedded image's, else 256x256)",
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
        " frames and 32 skins (only the format's own 16-bit limits remain)",
    )
    parser.add_argument(
        "--frame", type=int, default=0, help="MD2 → OBJ: the frame to write (default 0)"
    )
    parser.add_argument(
        "--clip",
        metavar="NAME",
        help="MD2 → OBJ: write every frame of this clip as its own OBJ into the folder OUT",
    )
    parser.add_argument(
        "--skin-dir", metavar="DIR", help="MD2 → glTF/OBJ: where to look for the skin image"
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


def _to_md2(args: argparse.Namespace, inputs: list[Path], out: Path) -> int:
    from ..formats.md2 import Md2
    from ..interchange.gltf_read import read_gltf
    from ..interchange.imported import DEFAULT_LIMITS
    from ..interchange.obj_read import read_obj_sequence

    limits = FORMAT_LIMITS if args.no_limits else VANILLA
    skin_size = _skin_size(args.skin_size)
    # The engine's frame limit is checked by the readers before they decode any frame.
    read_limits = replace(
        DEFAULT_LIMITS, max_frames=min(DEFAULT_LIMITS.max_frames, limits.max_frames)
    )
    suffixes = {p.suffix.lower() for p in inputs}
    if suffixes <= set(_GLTF) and len(inputs) == 1:
        mesh = read_gltf(inputs[0], limits=read_limits)
    elif suffixes == {".obj"}:
        names = args.frame_names.split(",") if args.frame_names else None
        if args.frame_prefix:
            names = [f"{args.frame_prefix}{k}" for k in range(1, len(inputs) + 1)]
        mesh = read_obj_sequence(inputs, names, limits=read_limits)
    else:
        print("error: → MD2 takes one .glb/.gltf or one or more .obj files", file=sys.stderr)
        return 2
    result = Md2.from_imported(mesh, skins=args.skin, skin_size=skin_size, limits=limits)
    result.model.save(out)
    worst = (result.errors / result.steps.clip(min=1e-30)).max()
    m = result.model
    print(
        f"{out}: {m.num_frames} frames, {m.num_vertices} vertices, {m.num_triangles} triangles,"
        f" {len(m.gl_commands)} GL commands; largest error {result.errors.max():.6g} units"
        f" ({min(worst, 0.5):.3f} of a step)"
    )
    return 0


def _from_md2(args: argparse.Namespace, source: Path, out: Path) -> int:
    from ..formats.md2 import Md2
    from ..registry import load, scene

    model = load(source)
    if not isinstance(model, Md2):
        print(f"error: {source} is not an MD2", file=sys.stderr)
        return 1
    view = scene(model, skin_dir=args.skin_dir)
    suffix = out.suffix.lower()
    if args.clip is not None:
        from ..interchange.obj_write import export_obj_clip

        out.mkdir(parents=True, exist_ok=True)
        written = export_obj_clip(view, out, args.clip)
        print(f"{out}: {len(written)} OBJ files of clip {args.clip!r}")
        return 0
    if suffix in _GLTF:
        from ..interchange.gltf_write import export_gltf

        export_gltf(view, out)
    else:
        from ..interchange.obj_write import export_obj

        export_obj(view, out, frame=args.frame)
    print(f"{out}: {model.num_frames} frames, {model.num_triangles} triangles")
    return 0


def run(args: argparse.Namespace) -> int:
    inputs = [Path(p) for p in args.inputs]
    out = Path(args.output)
    suffix = out.suffix.lower()
    try:
        if suffix == ".md2":
            return _to_md2(args, inputs, out)
        if args.clip is not None and suffix not in (*_GLTF, ".obj"):
            if len(inputs) != 1 or inputs[0].suffix.lower() != ".md2":
                print("error: --clip takes one .md2 input", file=sys.stderr)
                return 2
            return _from_md2(args, inputs[0], out)
        if suffix in (*_GLTF, ".obj"):
            if len(inputs) != 1 or inputs[0].suffix.lower() != ".md2":
                print(f"error: → {suffix} takes one .md2 input", file=sys.stderr)
                return 2
            return _from_md2(args, inputs[0], out)
        print(f"error: cannot write {suffix or 'a file without extension'}", file=sys.stderr)
        return 2
    except ModelFormatError as e:
        # Bad input: exit 1, and the message names the file (the readers' messages start
        # with it; a writer's limit does not know it).
        named = any(str(p) in str(e) for p in inputs)
        print(
            f"error: {e}" if named else f"error: {', '.join(map(str, inputs))}: {e}",
            file=sys.stderr,
        )
        return 1
    except (IndexError, KeyError, ValueError) as e:  # --frame, --clip or --skin-size wrong
        print(f"error: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"error: {e.filename or ''}: {e.strerror or e}", file=sys.stderr)
        return 1
