"""``quakemodels render FILE... -o OUT``: PNG of a frame, GIF of a clip, contact sheet of clips."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from .batch import add_batch_args, add_game_dir_arg, expand, parse_size, run_batch
from .export import output_names
from .options import add_scene_args, frame_number, load_scene, plural, scene_options
from .output import refuse_existing, resolve, writing

HELP = "render a frame (PNG), a clip (animated GIF) or every clip (contact sheet) in software"
EXAMPLES = """\
  quakemodels render tris.md2 -o tris.png
  quakemodels render tris.md2 -o run.gif --clip run --size 320x320
  quakemodels render tris.md2 -o sheet.png --sheet
  quakemodels render models/ -o previews/ --clip stand     # one GIF per model
  quakemodels render tris.md2 -o tris.jpg --skin 1 --frame 40
"""


IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg")


def add_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="model files, folders or globs")
    parser.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="OUT",
        help="output folder (created when missing), or one picture (.png/.jpg; .gif for"
        " --clip) when rendering one model",
    )
    which = parser.add_mutually_exclusive_group()
    which.add_argument(
        "--frame", type=frame_number, default=None, metavar="N", help="frame to render (0)"
    )
    which.add_argument("--clip", default=None, metavar="NAME", help="render a clip as a GIF")
    which.add_argument("--sheet", action="store_true", help="contact sheet of every clip")
    parser.add_argument(
        "--size",
        type=parse_size,
        default=None,
        metavar="WxH",
        help="image size (default 256x256; for --sheet the cell size, default 160x160)",
    )
    add_scene_args(parser)
    add_game_dir_arg(parser)
    add_batch_args(parser)


def render_one(path: str, opts: dict[str, Any]) -> list[str]:
    """Render one model file as ``opts`` say; returns the lines to print."""
    from ..core.scene import safe_name
    from ..interchange import render as r
    from ..interchange.export import check_frame

    em = load_scene(path, opts)
    stem = opts["names"][path]
    folder = Path(opts["dir"])
    if opts["sheet"]:
        out = Path(opts["file"]) if opts["file"] else folder / f"{stem}_sheet.png"
        refuse_existing([out], opts["no_clobber"])
        sheet = r.contact_sheet(em, opts["size"] or (160, 160))
        with writing(out):
            r.save_image(sheet, out)
        return [f"{path} -> {out} (contact sheet of {plural(len(em.clips), 'clip')})"]
    size = opts["size"] or (256, 256)
    if opts["clip"] is not None:
        clip = opts["clip"]
        out = Path(opts["file"]) if opts["file"] else folder / f"{stem}_{safe_name(clip)}.gif"
        refuse_existing([out], opts["no_clobber"])
        frames = r.render_clip(em, clip, size)
        with writing(out):
            r.save_gif(frames, out, em.fps)
        return [f"{path} -> {out} ({plural(len(frames), 'frame')} of clip {clip})"]
    frame = check_frame(opts["frame"] or 0, em.num_frames)
    out = Path(opts["file"]) if opts["file"] else folder / f"{stem}.png"
    refuse_existing([out], opts["no_clobber"])
    picture = r.render_frame(em, frame, size)
    with writing(out):
        r.save_image(picture, out)
    return [f"{path} -> {out} (frame {frame})"]


def run(args: argparse.Namespace) -> int:
    files, _ = expand(args.files)
    suffixes = (".gif",) if args.clip is not None else IMAGE_SUFFIXES
    target = resolve("render", args.output, suffixes, len(files), no_clobber=args.no_clobber)
    opts = {
        **scene_options(args),
        "clip": args.clip,
        "frame": args.frame,
        "sheet": args.sheet,
        "size": args.size,
        "file": str(target.path) if target.is_file else None,
        "dir": str(target.path),
        "names": output_names(files),
    }
    return run_batch(args.files, render_one, opts, args.jobs, args.quiet)
