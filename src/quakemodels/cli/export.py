"""``quakemodels export FILES... -o OUT --format glb|gltf|obj``: models for today's tools."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..core.scene import Material, model_stem
from ..core.skeletal import SkeletalScene
from ..core.skins import Skin
from .batch import (
    MODEL_SUFFIXES,
    add_batch_args,
    add_game_dir_arg,
    expand_tree,
    inner_name,
    run_batch,
    safe_relative,
)
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

HELP = "export models to glTF 2.0 (.glb/.gltf, every frame a morph target, clips) or OBJ + MTL"
EXAMPLES = """\
  quakemodels export tris.md2 -o tris.glb
  quakemodels export models/ -o out/ --format glb        # every .md2/.md3 below models/
  quakemodels export 'players/**/*.md2' -o out/ --format gltf -j 2
  quakemodels export tris.md2 -o tris.obj --frame 40     # one frame as OBJ + MTL
  quakemodels export tris.md2 -o run/ --format obj --clip run   # one OBJ per frame
  quakemodels export weapon.md2 -o weapon.glb --skin-dir baseq2/
  quakemodels export tris.md2 -o tris.glb --skin 2 --scale 0.0254   # third skin, metres
  quakemodels export tris.md2 -o - | gltf-validator --stdin          # .glb to stdout
  quakemodels export baseq2/ -o out/             # every model in pak0..pak9 and loose files
  quakemodels export baseq3/models/players/sarge -o sarge.glb --skin blue   # a whole player
  quakemodels export baseq3/models/players/ -o players/     # one .glb per player folder
  quakemodels export tris.md2 -o tris.html       # the viewer and the model in one page
  quakemodels export s_explod.spr -o explod.gif     # a sprite: GIF (or .png: one per frame)
"""

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
    from ..registry import for_model, load, skeletal
    from .sprites import SPRITE_OUTPUTS, export_sprite, image_format

    if fmt_of(opts) == "html":
        return _export_html(path, opts)
    model = load(path, game_dir=opts.get("game_dir"))
    sprite = image_format(model)
    if sprite is not None:
        return export_sprite(path, model, sprite, opts)
    if f".{opts['format']}" in SPRITE_OUTPUTS:
        raise UsageError(
            f"-o {opts['file']}: PNG and GIF are what a sprite exports; a model"
            f" exports to {', '.join(FORMATS)}"
        )
    own_gltf = for_model(model).service("gltf") if for_model(model).has("gltf") else None
    if own_gltf is not None and fmt_of(opts) != "obj":  # a player's own glTF (parts on tags)
        return _export_player(path, model, own_gltf, opts)
    fmt: str = opts["format"]
    clip: str | None = opts["clip"]
    frame: int | None = opts["frame"]
    if fmt != "obj" and frame is None:
        scene = skeletal(model)
        if scene is not None:  # joints: a real skin, not baked morph targets
            return _export_skeletal(path, model, scene, opts)
    target = Path(opts["file"]) if opts["file"] else Path(opts["dir"]) / f"{opts['names'][path]}"
    # One frame or one clip: the scene holds (and the reader decodes) only those frames. An
    # OBJ holds one frame, 0 unless --frame says.
    if frame is None and clip is None and fmt == "obj":
        em = load_scene(path, opts, model, frame=0)
    else:
        em = load_scene(path, opts, model, frame=frame, clip=clip)
    target.parent.mkdir(parents=True, exist_ok=True)
    skin = skin_label(em)
    if fmt == "obj":
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
    from ..interchange.gltf_write import export_gltf

    out = target if opts["file"] else target.with_suffix(f".{fmt}")
    refuse_existing([out], opts["no_clobber"])
    with writing(out):
        export_gltf(em, out, binary=fmt == "glb")
    targets = plural(em.num_frames, "morph target")
    return [f"{path} -> {out} ({targets}, {plural(len(em.clips), 'clip')}, skin: {skin})"]


def skeletal_skins(
    path: str, model: Any, scene: SkeletalScene, opts: dict[str, Any]
) -> tuple[list[Skin | None], list[Material]]:
    """Each mesh's skin and material as the model's format finds them for its (baked) scene:
    its frame 0, one surface per mesh in order (as ``core.skeletal.baked_model`` makes them);
    none when the surfaces do not match the meshes."""
    em = load_scene(path, {**opts, "scale": 1.0}, model, frame=0)
    if len(em.surfaces) != len(scene.meshes):
        return [], []
    return [s.skin for s in em.surfaces], [s.material for s in em.surfaces]


def _export_skeletal(
    path: str, model: Any, scene: SkeletalScene, opts: dict[str, Any]
) -> list[str]:
    """A model that animates by joints as a glTF with a real skin (see
    :mod:`..interchange.gltf_skin_write`): joints, inverse bind matrices, TRS clips."""
    from ..interchange.export import export_skeletal, skeletal_clip
    from ..interchange.gltf_skin_write import skin_summary

    fmt = fmt_of(opts)
    target = Path(opts["file"]) if opts["file"] else Path(opts["dir"]) / f"{opts['names'][path]}"
    out = target if opts["file"] else target.with_suffix(f".{fmt}")
    out.parent.mkdir(parents=True, exist_ok=True)
    refuse_existing([out], opts["no_clobber"])
    skins, materials = skeletal_skins(path, model, scene, opts)
    name = model_stem(getattr(model, "name", None))
    with writing(out):
        export_skeletal(
            scene,
            out,
            skins=skins,
            materials=materials,
            name=name,
            clip=opts["clip"],
            scale=float(opts.get("scale", 1.0)),
        )
    skin = next((s.path.name for s in skins if s is not None), "none")
    shown = skeletal_clip(scene, opts["clip"])
    return [f"{path} -> {out} (real skin: {skin_summary(shown)}, skin: {skin})"]


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


def _export_player(
    path: str, model: Any, export_player_gltf: Any, opts: dict[str, Any]
) -> list[str]:
    """A player folder's glTF (its format's ``gltf`` service): the three parts on their
    tags, every cfg clip."""
    fmt = fmt_of(opts)
    if opts["clip"] is not None or opts["frame"] is not None:
        raise ValueError(
            "a player's glTF holds every clip of its animation.cfg; --clip and --frame"
            " apply to OBJ output"
        )
    if float(opts.get("scale", 1.0)) != 1.0:
        raise ValueError("--scale applies to single models and a player's OBJ output")
    skin = opts["skin"] or "default"
    target = Path(opts["file"]) if opts["file"] else Path(opts["dir"]) / f"{opts['names'][path]}"
    out = target if opts["file"] else target.with_suffix(f".{fmt}")
    out.parent.mkdir(parents=True, exist_ok=True)
    refuse_existing([out], opts["no_clobber"])
    with writing(out):
        export_player_gltf(model, out, skin=skin, binary=fmt == "glb")
    return [
        f"{path} -> {out} (player: legs {model.lower.num_frames}, torso"
        f" {model.upper.num_frames}, head {model.head.num_frames} morph targets,"
        f" {plural(len(model.animations), 'clip')}, skin: {skin})"
    ]


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


def _skeletal_bytes(path: str, fmt: str, opts: dict[str, Any]) -> bytes | None:
    """The .glb (or .gltf text) of a model that animates by joints, a real skin; None for
    a vertex-animated model (or with --frame: one baked frame)."""
    from ..core.scene import Y_UP
    from ..interchange.export import skeletal_clip
    from ..interchange.gltf_skin_write import build_skinned_gltf
    from ..interchange.gltf_write import glb_pieces, gltf_bytes
    from ..registry import load, skeletal

    if opts["frame"] is not None:
        return None
    model = load(path, game_dir=opts.get("game_dir"))
    scene = skeletal(model)
    if scene is None:
        return None
    skins, materials = skeletal_skins(path, model, scene, opts)
    doc, pieces, builder = build_skinned_gltf(
        skeletal_clip(scene, opts["clip"]),
        skins=skins,
        materials=materials,
        name=model_stem(getattr(model, "name", None)),
        axes=Y_UP,
        scale=float(opts.get("scale", 1.0)),
    )
    if fmt == "glb":
        return b"".join(glb_pieces(doc, pieces, builder.json_bytes))
    return gltf_bytes(doc, b"".join(pieces), builder.json_bytes)


def _to_stdout(path: str, fmt: str, opts: dict[str, Any]) -> int:
    """``-o -``: one model as .glb (or .gltf text) on stdout; messages on stderr only."""
    from ..errors import ModelFormatError
    from ..interchange.gltf_write import build_gltf, glb_bytes, gltf_bytes

    try:
        data = _skeletal_bytes(path, fmt, opts)
        if data is None:
            em = load_scene(path, opts, frame=opts["frame"], clip=opts["clip"])
            doc, blob = build_gltf(em)
            data = glb_bytes(doc, blob) if fmt == "glb" else gltf_bytes(doc, blob)
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
