"""``quakemodels export FILES... -o OUT --format glb|gltf|obj``: models for today's tools."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from .batch import add_batch_args, expand, prepare_output, run_batch

HELP = "export models to glTF 2.0 (.glb/.gltf, every frame a morph target, clips) or OBJ + MTL"
EXAMPLES = """\
  quakemodels export tris.md2 -o tris.glb
  quakemodels export models/ -o out/ --format glb        # every .md2/.md3 below models/
  quakemodels export 'players/**/*.md2' -o out/ --format gltf -j 2
  quakemodels export tris.md2 -o tris.obj --frame 40     # one frame as OBJ + MTL
  quakemodels export tris.md2 -o run/ --format obj --clip run   # one OBJ per frame
  quakemodels export weapon.md2 -o weapon.glb --skin-dir baseq2/
  quakemodels export baseq3/models/players/sarge -o sarge.glb --skin blue   # a whole player
  quakemodels export baseq3/models/players/ -o players/     # one .glb per player folder
"""

FORMATS = ("glb", "gltf", "obj")


def add_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="model files, folders or globs")
    parser.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="OUT",
        help="output folder, or output file (.glb/.gltf/.obj) when exporting one model",
    )
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default=None,
        help="output format (default: from the output file's suffix, else glb)",
    )
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--frame", type=int, default=None, metavar="N", help="export frame N only")
    which.add_argument(
        "--clip", default=None, metavar="NAME", help="export one clip only (OBJ: a file per frame)"
    )
    parser.add_argument(
        "--skin-dir",
        default=None,
        metavar="DIR",
        help="look skins up under DIR (default: the model's own folder)",
    )
    parser.add_argument(
        "--skin",
        default="default",
        metavar="NAME",
        help="player folders: the .skin set to texture with (<part>_NAME.skin; default: default)",
    )
    add_batch_args(parser)


def export_one(path: str, opts: dict[str, Any]) -> list[str]:
    """Export one model file as ``opts`` say; returns the lines to print."""
    from ..formats.q3player.gltf import export_player_gltf
    from ..interchange.gltf_write import export_gltf
    from ..interchange.obj_write import export_obj, export_obj_clip
    from ..registry import Player, load, scene

    model = load(path)
    fmt: str = opts["format"]
    clip: str | None = opts["clip"]
    frame: int | None = opts["frame"]
    target = Path(opts["file"]) if opts["file"] else Path(opts["dir"]) / f"{opts['names'][path]}"
    if isinstance(model, Player) and fmt != "obj":
        if clip is not None or frame is not None:
            raise ValueError(
                "a player's glTF holds every clip of its animation.cfg; --clip and --frame"
                " apply to OBJ output"
            )
        out = target if opts["file"] else target.with_suffix(f".{fmt}")
        export_player_gltf(model, out, skin=opts["skin"], binary=fmt == "glb")
        return [
            f"{path} -> {out} (player: legs {model.lower.num_frames}, torso"
            f" {model.upper.num_frames}, head {model.head.num_frames} morph targets,"
            f" {len(model.animations)} clips, skin: {opts['skin']})"
        ]
    em = scene(model, skin_dir=opts["skin_dir"], skin=opts["skin"])
    if clip is not None and clip not in em.clips:
        raise KeyError(f"no clip {clip!r}; clips: {', '.join(em.clips)}")
    if frame is not None and not -em.num_frames <= frame < em.num_frames:
        raise IndexError(f"frame {frame} out of range for {em.num_frames} frames")
    skin = next((s.skin.path.name for s in em.surfaces if s.skin is not None), "none")
    if fmt == "obj":
        if clip is not None:
            folder = target.parent if opts["file"] else Path(opts["dir"])
            written = export_obj_clip(em, folder, clip)
            return [f"{path} -> {folder}/ ({len(written)} OBJ files of clip {clip}, skin: {skin})"]
        out = target if opts["file"] else target.with_suffix(".obj")
        export_obj(em, out, frame or 0)
        return [f"{path} -> {out} (frame {frame or 0}, skin: {skin})"]
    out = target if opts["file"] else target.with_suffix(f".{fmt}")
    if clip is not None:
        frames = em.clips[clip]
        em = em.select(list(frames), {clip: range(len(frames))})
    elif frame is not None:
        em = em.select([frame % em.num_frames], {})
    export_gltf(em, out, binary=fmt == "glb")
    return [f"{path} -> {out} ({em.num_frames} morph targets, {len(em.clips)} clips, skin: {skin})"]


def output_names(files: list[str]) -> dict[str, str]:
    """Output stem per input: the input's stem, with _2, _3... when two inputs share one."""
    names: dict[str, str] = {}
    used: set[str] = set()
    for f in files:
        stem = Path(f).stem
        name, k = stem, 2
        while name.lower() in used:
            name = f"{stem}_{k}"
            k += 1
        used.add(name.lower())
        names[f] = name
    return names


def run(args: argparse.Namespace) -> int:
    out = Path(args.output)
    suffix = out.suffix.lower().lstrip(".")
    as_file = suffix in FORMATS and not out.is_dir()
    fmt = args.format or (suffix if as_file else "glb")
    files, _ = expand(args.files)
    if as_file and suffix != fmt and not (fmt == "obj" and args.clip):
        print(
            f"quakemodels export: error: -o {args.output} does not match --format {fmt}",
            file=sys.stderr,
        )
        return 2
    if (code := prepare_output("export", args.output, as_file, len(files))) is not None:
        return code
    opts = {
        "format": fmt,
        "clip": args.clip,
        "frame": args.frame,
        "skin_dir": args.skin_dir,
        "skin": args.skin,
        "file": str(out) if as_file else None,
        "dir": str(out),
        "names": output_names(files),
    }
    return run_batch(args.files, export_one, opts, args.jobs)
