"""``quakemodels export FILES... -o OUT --format glb|gltf|obj``: models for today's tools."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from .batch import (
    MODEL_SUFFIXES,
    add_batch_args,
    add_game_dir_arg,
    expand_tree,
    inner_name,
    run_batch,
    safe_relative,
)
from .gltf import gltf_out
from .options import (
    add_scene_args,
    frame_number,
    load_scene,
    plural,
    scene_options,
    skin_label,
)
from .output import (
    EXIT_BAD_INPUT,
    EXIT_OK,
    UsageError,
    refuse_existing,
    resolve,
    write_stdout,
    writing,
)

FORMATS = ("glb", "gltf", "obj", "html")


def add_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="model files, folders or globs")
    parser.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="OUT",
        help="output folder (created when missing), an output file (.glb/.gltf/.obj/.html) when"
        " exporting one model, or - for stdout (.glb/.gltf)",
    )
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default=None,
        help="output format (default: from the output file's suffix, else glb)",
    )
    which = parser.add_mutually_exclusive_group()
    which.add_argument(
        "--frame", type=frame_number, default=None, metavar="N", help="export frame N only"
    )
    which.add_argument(
        "--clip", default=None, metavar="NAME", help="export one clip only (OBJ: a file per frame)"
    )
    add_scene_args(parser)
    add_game_dir_arg(parser)
    add_batch_args(parser)


def export_one(path: str, opts: dict[str, Any]) -> list[str]:
    """Export one model file as ``opts`` say; returns the lines to print."""
    from ..registry import load
    from .sprites import SPRITE_OUTPUTS, export_sprite, image_format

    model = load(path, game_dir=opts.get("game_dir"))
    sprite = image_format(model)
    if sprite is not None:  # before the page: a sprite has no mesh to show in it
        return export_sprite(path, model, sprite, opts)
    if fmt_of(opts) == "html":
        return _export_html(path, opts)
    if f".{opts['format']}" in SPRITE_OUTPUTS:
        raise UsageError(
            f"-o {opts['file']}: PNG and GIF are what a sprite exports; a model"
            f" exports to {', '.join(FORMATS)}"
        )
    fmt: str = opts["format"]
    clip: str | None = opts["clip"]
    frame: int | None = opts["frame"]
    if fmt != "obj":  # the one road to glTF (convert takes it too)
        made = gltf_out(path, model, opts)
        out = _out_path(path, opts, fmt)
        out.parent.mkdir(parents=True, exist_ok=True)
        refuse_existing([out], opts["no_clobber"])
        with writing(out):
            made.write(out, fmt == "glb")
        return [f"{path} -> {out} ({made.what})"]
    target = Path(opts["file"]) if opts["file"] else Path(opts["dir"]) / f"{opts['names'][path]}"
    # One frame or one clip: the scene holds (and the reader decodes) only those frames. An
    # OBJ holds one frame, 0 unless --frame says.
    if frame is None and clip is None and fmt == "obj":
        em = load_scene(path, opts, model, frame=0)
    else:
        em = load_scene(path, opts, model, frame=frame, clip=clip)
    target.parent.mkdir(parents=True, exist_ok=True)
    skin = skin_label(em)
    from ..interchange.obj_write import export_obj, export_obj_clip

    if clip is not None:
        folder = target.parent if opts["file"] else Path(opts["dir"])
        with writing(folder):
            written = export_obj_clip(em, folder, clip)
        what = plural(len(written), "OBJ file")
        return [f"{path} -> {folder}/ ({what} of clip {clip}, skin: {skin})"]
    out = target if opts["file"] else target.with_suffix(".obj")
    refuse_existing([out], opts["no_clobber"])
    with writing(out):
        export_obj(em, out, 0, number=frame or 0)  # the scene holds that frame only
    return [f"{path} -> {out} (frame {frame or 0}, skin: {skin})"]


def _out_path(path: str, opts: dict[str, Any], fmt: str) -> Path:
    """The file ``-o`` names, or the model's own name with ``fmt``'s suffix in the folder."""
    if opts["file"]:
        return Path(opts["file"])
    return (Path(opts["dir"]) / f"{opts['names'][path]}").with_suffix(f".{fmt}")


def _export_html(path: str, opts: dict[str, Any]) -> list[str]:
    """The viewer page with the model in it, one file that opens offline (cli/view.py)."""
    from ..core.atomic import write_bytes_atomic
    from .view import standalone_page

    if opts["clip"] is not None or opts["frame"] is not None:
        raise ValueError("an HTML page holds every clip; --clip and --frame apply to OBJ/glTF")
    target = Path(opts["file"]) if opts["file"] else Path(opts["dir"]) / f"{opts['names'][path]}"
    out = target if opts["file"] else target.with_suffix(".html")
    refuse_existing([out], opts["no_clobber"])
    html, entry = standalone_page(path, opts)
    with writing(out):
        write_bytes_atomic(out, html)
    skins = ", ".join(s["name"] for s in entry["skins"])
    return [f"{path} -> {out} (viewer page, {plural(len(entry['clips']), 'clip')}, skins: {skins})"]


def fmt_of(opts: dict[str, Any]) -> str:
    fmt: str = opts["format"]
    return fmt


def output_names(files: list[str], places: dict[str, str] | None = None) -> dict[str, str]:
    """Output name per input, relative to the output folder, without a suffix: the input's
    place in the tree it was found in (:func:`~.batch.expand_tree`: ``tank/tris`` for
    ``tree/tank/tris.md2`` in ``tree/``, ``models/a/tris`` inside an archive or game folder),
    made safe by :func:`~.batch.safe_relative` (never outside the folder); without
    ``places``, the inner name of a model in an archive, else the stem. _2, _3... are added
    when two collide (ignoring case)."""
    names: dict[str, str] = {}
    used: set[str] = set()
    for f in files:
        place = (places or {}).get(f)
        if place is None:
            place = inner_name(f) or Path(f).name
        rel = safe_relative(place)
        # a model file loses its suffix; a player folder's name is kept whole
        stem = (rel.with_suffix("") if rel.suffix.lower() in MODEL_SUFFIXES else rel).as_posix()
        name, k = stem, 2
        while name.lower() in used:
            name = f"{stem}_{k}"
            k += 1
        used.add(name.lower())
        names[f] = name
    return names


def _to_stdout(path: str, fmt: str, opts: dict[str, Any]) -> int:
    """``-o -``: one model as .glb (or .gltf text) on stdout; messages on stderr only."""
    from ..errors import ModelFormatError
    from ..registry import load

    try:
        data = gltf_out(path, load(path, game_dir=opts.get("game_dir")), opts).to_bytes(
            fmt == "glb"
        )
    except ModelFormatError as e:
        print(f"{path}: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except OSError as e:
        print(f"{path}: error: {e.strerror or e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except (KeyError, IndexError, ValueError) as e:
        print(f"{path}: error: {e.args[0] if e.args else e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if sys.stdout.isatty() and fmt == "glb":
        raise UsageError("-o -: stdout is a terminal; redirect it to a file or a pipe")
    write_stdout(data)
    return EXIT_OK


def run(args: argparse.Namespace) -> int:
    files, unmatched, places = expand_tree(args.files)
    suffixes = (*(f".{f}" for f in FORMATS), ".png", ".gif")  # a sprite's frames, animation
    target = resolve(
        "export",
        args.output,
        suffixes,
        len(files),
        stdout_ok=True,
        no_clobber=args.no_clobber,
    )
    suffix = target.path.suffix.lower().lstrip(".")
    fmt = args.format or (suffix if target.is_file else "glb")
    if target.is_file and suffix != fmt and not (fmt == "obj" and args.clip):
        raise UsageError(f"-o {args.output} does not match --format {fmt}")
    opts = {
        **scene_options(args),
        "format": fmt,
        "clip": args.clip,
        "frame": args.frame,
        "file": str(target.path) if target.is_file else None,
        "dir": str(target.path),
        "names": output_names(files, places),
    }
    if target.kind == "stdout":
        if fmt == "obj":
            raise UsageError("-o -: OBJ needs its .mtl beside it; write .glb or .gltf to stdout")
        if fmt == "html":
            raise UsageError("-o -: write the HTML page to a file")
        if not files:
            return run_batch(
                args.files, export_one, opts, args.jobs, args.quiet, expanded=(files, unmatched)
            )
        return _to_stdout(files[0], fmt, opts)
    return run_batch(
        args.files, export_one, opts, args.jobs, args.quiet, expanded=(files, unmatched)
    )
