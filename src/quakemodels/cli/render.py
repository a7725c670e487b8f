"""``quakemodels render FILE... -o OUT``: PNG of a frame, GIF of a clip, contact sheet of clips."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from .batch import add_batch_args, expand, parse_size, prepare_output, run_batch
from .export import output_names

HELP = "render a frame (PNG), a clip (animated GIF) or every clip (contact sheet) in software"
EXAMPLES = """\
  quakemodels render tris.md2 -o tris.png
  quakemodels render tris.md2 -o run.gif --clip run --size 320x320
  quakemodels render tris.md2 -o sheet.png --sheet
  quakemodels render models/ -o previews/ --clip stand     # one GIF per model
"""


def add_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="model files, folders or globs")
    parser.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="OUT",
        help="output folder, or output file (.png/.gif) when rendering one model",
    )
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--frame", type=int, default=None, metavar="N", help="frame to render (0)")
    which.add_argument("--clip", default=None, metavar="NAME", help="render a clip as a GIF")
    which.add_argument("--sheet", action="store_true", help="contact sheet of every clip")
    parser.add_argument(
        "--size",
        type=parse_size,
        default=None,
        metavar="WxH",
        help="image size (default 256x256; for --sheet the cell size, default 160x160)",
    )
    parser.add_argument("--skin-dir", default=None, metavar="DIR", help="look skins up under DIR")
    add_batch_args(parser)


def render_one(path: str, opts: dict[str, Any]) -> list[str]:
    """Render one model file as ``opts`` say; returns the lines to print."""
    from ..core.facade import clip_frames, frame_index
    from ..core.scene import safe_name
    from ..interchange import render as r
    from ..registry import load, scene

    model = load(path)
    stem = opts["names"][path]
    folder = Path(opts["dir"])
    if opts["sheet"]:
        em = scene(model, skin_dir=opts["skin_dir"])
        out = Path(opts["file"]) if opts["file"] else folder / f"{stem}_sheet.png"
        r.save_png(r.contact_sheet(em, opts["size"] or (160, 160)), out)
        return [f"{path} -> {out} (contact sheet of {len(em.clips)} clips)"]
    size = opts["size"] or (256, 256)
    if opts["clip"] is not None:
        clip = opts["clip"]
        out = Path(opts["file"]) if opts["file"] else folder / f"{stem}_{safe_name(clip)}.gif"
        # only the clip's frames are decoded
        indices = list(clip_frames(model.animations, clip))
        em = replace(
            scene(model, skin_dir=opts["skin_dir"], frames=indices),
            clips={clip: range(len(indices))},
        )
        frames = r.render_clip(em, clip, size)
        r.save_gif(frames, out)
        return [f"{path} -> {out} ({len(frames)} frames of clip {clip})"]
    frame = opts["frame"] or 0
    out = Path(opts["file"]) if opts["file"] else folder / f"{stem}.png"
    em = scene(model, skin_dir=opts["skin_dir"], frames=[frame_index(frame, model.num_frames)])
    r.save_png(r.render_frame(em, 0, size), out)
    return [f"{path} -> {out} (frame {frame})"]


def run(args: argparse.Namespace) -> int:
    out = Path(args.output)
    suffix = out.suffix.lower()
    as_file = suffix in (".png", ".gif") and not out.is_dir()
    files, _ = expand(args.files)
    wanted = ".gif" if args.clip is not None else ".png"
    if as_file and suffix != wanted:
        print(
            f"quakemodels render: error: -o {args.output}: this picture is written as {wanted}",
            file=sys.stderr,
        )
        return 2
    if (code := prepare_output("render", args.output, as_file, len(files))) is not None:
        return code
    opts = {
        "clip": args.clip,
        "frame": args.frame,
        "sheet": args.sheet,
        "size": args.size,
        "skin_dir": args.skin_dir,
        "file": str(out) if as_file else None,
        "dir": str(out),
        "names": output_names(files),
    }
    return run_batch(args.files, render_one, opts, args.jobs)
