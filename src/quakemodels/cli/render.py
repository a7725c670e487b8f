"""``quakemodels render FILE... -o OUT``: PNG of a frame, GIF of a clip, contact sheet of clips."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..core.scene import ExportModel
from .batch import add_batch_args, add_game_dir_arg, expand_tree, parse_size, run_batch
from .export import output_names
from .options import add_scene_args, frame_number, load_scene, plural, scene_options
from .output import refuse_existing, resolve, writing

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
    player = parser.add_argument_group(
        "player folders (--skin NAME: the .skin set, default: default)"
    )
    player.add_argument("--legs", default=None, metavar="CLIP", help="the legs' clip")
    player.add_argument("--torso", default=None, metavar="CLIP", help="the torso's clip")
    player.add_argument(
        "--time",
        type=float,
        default=None,
        metavar="S",
        help="seconds into both clips: a PNG of that moment (without it: a GIF of the pair)",
    )
    add_batch_args(parser)


def _render_pair(path: str, model: Any, opts: dict[str, Any]) -> list[str]:
    """A model whose parts play clips at once (a player's legs and torso): a PNG at
    ``--time``, else a GIF over the longer clip."""
    from ..core.scene import safe_name
    from ..interchange import render as r
    from ..registry import pose

    skin = opts["skin"] or "default"
    size = opts["size"] or (256, 256)
    clips = {"legs": opts["legs"], "torso": opts["torso"]}
    em, fps, label = pose(model, clips, opts["time"], skin=skin, game_dir=opts.get("game_dir"))
    stem = f"{opts['names'][path]}_{safe_name(label)}"
    folder = Path(opts["dir"])
    if opts["time"] is not None:
        out = Path(opts["file"]) if opts["file"] else folder / f"{stem}.png"
        refuse_existing([out], opts["no_clobber"])
        picture = r.render_frame(em, 0, size)
        with writing(out):
            r.save_image(picture, out)
        return [f"{path} -> {out} ({label} at {opts['time']:g} s)"]
    renderer = r.Renderer(em, size)
    out = Path(opts["file"]) if opts["file"] else folder / f"{stem}.gif"
    refuse_existing([out], opts["no_clobber"])
    frames = [renderer.frame(i) for i in range(em.num_frames)]
    with writing(out):
        r.save_gif(frames, out, fps)
    return [f"{path} -> {out} ({plural(em.num_frames, 'frame')} of {label} at {fps:.3g} fps)"]


def _drawable(em: ExportModel) -> ExportModel:
    """``em``, or a ValueError when it has no triangle to draw (an MD3 of tags only): a
    blank picture said nothing of why it was blank."""
    if not any(len(s.indices) for s in em.surfaces):
        tags = f" ({plural(len(em.tags), 'tag')} only)" if em.tags else ""
        raise ValueError(f"nothing to draw: the model has no surfaces with triangles{tags}")
    return em


def render_one(path: str, opts: dict[str, Any]) -> list[str]:
    """Render one model file as ``opts`` say; returns the lines to print."""
    from ..core.scene import safe_name
    from ..interchange import render as r
    from ..registry import is_folder_set_model, load

    pair = opts["legs"] is not None or opts["torso"] is not None
    if pair or opts["time"] is not None:
        model = load(path, game_dir=opts.get("game_dir"))
        if not is_folder_set_model(model):
            raise ValueError("--legs, --torso and --time apply to Quake III player folders")
        return _render_pair(path, model, opts)
    from .sprites import image_format, render_sprite

    model = load(path, game_dir=opts.get("game_dir"))
    sprite = image_format(model)
    if sprite is not None:
        return render_sprite(path, model, sprite, opts)
    stem = opts["names"][path]
    folder = Path(opts["dir"])
    if opts["sheet"]:
        em = _drawable(load_scene(path, opts, model))
        out = Path(opts["file"]) if opts["file"] else folder / f"{stem}_sheet.png"
        refuse_existing([out], opts["no_clobber"])
        sheet = r.contact_sheet(em, opts["size"] or (160, 160))
        with writing(out):
            r.save_image(sheet, out)
        return [f"{path} -> {out} (contact sheet of {plural(len(em.clips), 'clip')})"]
    size = opts["size"] or (256, 256)
    if opts["clip"] is not None:
        clip = opts["clip"]
        # only the clip's frames are decoded
        em = _drawable(load_scene(path, opts, model, clip=clip))
        out = Path(opts["file"]) if opts["file"] else folder / f"{stem}_{safe_name(clip)}.gif"
        refuse_existing([out], opts["no_clobber"])
        frames = r.render_clip(em, clip, size)
        with writing(out):
            r.save_gif(frames, out, em.fps)
        return [f"{path} -> {out} ({plural(len(frames), 'frame')} of clip {clip})"]
    frame = opts["frame"] or 0
    em = _drawable(load_scene(path, opts, model, frame=frame))  # that frame only
    out = Path(opts["file"]) if opts["file"] else folder / f"{stem}.png"
    refuse_existing([out], opts["no_clobber"])
    picture = r.render_frame(em, 0, size)
    with writing(out):
        r.save_image(picture, out)
    return [f"{path} -> {out} (frame {frame})"]


def run(args: argparse.Namespace) -> int:
    files, unmatched, places = expand_tree(args.files)
    pair = args.legs is not None or args.torso is not None
    gif = args.clip is not None or (pair and args.time is None)
    suffixes = (".gif",) if gif else IMAGE_SUFFIXES
    target = resolve("render", args.output, suffixes, len(files), no_clobber=args.no_clobber)
    opts = {
        **scene_options(args),
        "clip": args.clip,
        "frame": args.frame,
        "sheet": args.sheet,
        "size": args.size,
        "legs": args.legs,
        "torso": args.torso,
        "time": args.time,
        "file": str(target.path) if target.is_file else None,
        "dir": str(target.path),
        "names": output_names(files, places),
    }
    return run_batch(
        args.files, render_one, opts, args.jobs, args.quiet, expanded=(files, unmatched)
    )
