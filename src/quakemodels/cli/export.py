"""``quakemodels export FILES... -o OUT --format glb|gltf|obj``: models for today's tools."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
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
    add_batch_args(parser)


def export_one(path: str, opts: dict[str, Any]) -> list[str]:
    """Export one model file as ``opts`` say; returns the lines to print."""
    from ..core.facade import clip_frames, frame_index
    from ..interchange.gltf_write import export_gltf
    from ..interchange.obj_write import export_obj, export_obj_clip
    from ..registry import load, scene

    model = load(path)
    fmt: str = opts["format"]
    clip: str | None = opts["clip"]
    frame: int | None = opts["frame"]
    target = Path(opts["file"]) if opts["file"] else Path(opts["dir"]) / f"{opts['names'][path]}"
    # A clip or one frame: the scene holds (and the reader decodes) only those frames.
    if clip is not None:
        frames = list(clip_frames(model.animations, clip))
        em = replace(
            scene(model, skin_dir=opts["skin_dir"], frames=frames), clips={clip: range(len(frames))}
        )
    elif frame is not None or fmt == "obj":
        em = scene(
            model, skin_dir=opts["skin_dir"], frames=[frame_index(frame or 0, model.num_frames)]
        )
    else:
        em = scene(model, skin_dir=opts["skin_dir"])
    skin = next((s.skin.path.name for s in em.surfaces if s.skin is not None), "none")
    if fmt == "obj":
        if clip is not None:
            folder = target.parent if opts["file"] else Path(opts["dir"])
            written = export_obj_clip(em, folder, clip)
            return [f"{path} -> {folder}/ ({len(written)} OBJ files of clip {clip}, skin: {skin})"]
        out = target if opts["file"] else target.with_suffix(".obj")
        export_obj(em, out, 0)
        return [f"{path} -> {out} (frame {frame or 0}, skin: {skin})"]
    out = target if opts["file"] else target.with_suffix(f".{fmt}")
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
        "file": str(out) if as_file else None,
        "dir": str(out),
        "names": output_names(files),
    }
    return run_batch(args.files, export_one, opts, args.jobs)
