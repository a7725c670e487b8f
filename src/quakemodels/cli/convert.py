"""``quakemodels convert IN... OUT``: every model format to every model format (MD2, MD3, MDL,
IQM), models → glTF/OBJ, glTF or an OBJ sequence → MD2/MD3/MDL, a player glTF → a player
folder, pictures or sprites → sprites. Its options are in :mod:`.convert_args`."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..core.atomic import write_bytes_atomic, write_files_atomic
from ..core.scene import FPS
from ..errors import BadMagicError, LimitExceededError, ModelFormatError
from ..formats.contract import Format, Kind
from ..interchange.convert import GLTF_SUFFIXES, Built, OptionError, Source
from ..interchange.export import check_frame, gltf_skeletal
from ..interchange.obj_write import export_obj, export_obj_clip
from ..registry import (
    FORMATS,
    builders,
    by_magic,
    load,
    model_source,
    read_any,
)
from .build import build_files
from .convert_args import add_args, build_options
from .gltf import gltf_out, scene_gltf
from .options import load_scene, plural
from .output import (
    EXIT_BAD_INPUT,
    EXIT_OK,
    EXIT_USAGE,
    OutputError,
    UsageError,
    refuse_existing,
    refuse_inputs,
    writing,
)
from .sprites import is_sprite_output

__all__ = ["add_args", "run"]

_GLTF = GLTF_SUFFIXES
# Enough of a file's start for every format's magic and version test (IQM: 16 + 4 bytes).
HEAD = 64


def _target(suffix: str, to_folder: bool) -> Format | None:
    """The format ``OUT`` names: a folder format with "build" for a folder, else the format
    owning the suffix (UnsupportedError later when it cannot build); None: glTF/OBJ export."""
    if to_folder:
        return next((f for f in builders() if f.kind is Kind.FOLDER), None)
    return next((f for f in FORMATS if suffix in f.suffixes), None)


def _source(inputs: list[Path], fps: float | None = None) -> Source:
    """The input as a build reads it: glTF/OBJ paths, or the one model the registry reads,
    with what the registry finds for it (its scene, frames, stored frames) read on demand (a
    skeletal model's clips baked at ``fps`` when given, else at their own frames)."""
    if all(p.suffix.lower() in (*_GLTF, ".obj") for p in inputs):
        return Source(tuple(inputs))
    if len(inputs) != 1:
        raise UsageError("convert takes one model, one .glb/.gltf or one or more .obj files")
    path = inputs[0]
    model = _load_model(path)

    def scener(skin: str | None, skin_dir: str | None) -> Any:
        return load_scene(path, {"skin": skin, "skin_dir": skin_dir, "bake_fps": fps}, model)

    return model_source(path, model, scener)


def _write(built: Built, out: Path, to_folder: bool, no_clobber: bool) -> None:
    """The built model at ``out`` and its files beside it (in ``out`` for a folder target),
    all or none."""
    where = out if to_folder else out.parent
    files = dict(built.files)
    if built.model is not None:
        files = {out.name: built.model.to_bytes(), **files}
    refuse_existing([where / name for name in files], no_clobber)
    with writing(out):
        if len(files) == 1:
            write_bytes_atomic(where / next(iter(files)), next(iter(files.values())))
        else:  # a folder it made is removed on failure
            write_files_atomic(where, files)


def _convert(args: argparse.Namespace, inputs: list[Path], out: Path, fmt: Format) -> int:
    """read → neutral source → the target format's build → to_bytes → atomic write."""
    to_folder = fmt.kind is Kind.FOLDER
    if not to_folder and len(inputs) > 1 and {p.suffix.lower() for p in inputs} != {".obj"}:
        target = fmt.name.upper()
        raise UsageError(f"→ {target} takes one model, one .glb/.gltf or one or more .obj files")
    built = fmt.build(_source(inputs, args.fps), build_options(args, out))
    _write(built, out, to_folder, args.no_clobber)
    print(built.summary)
    return EXIT_OK


def _load_model(source: Path) -> Any:
    """The model (or player) at ``source``: a UsageError when it is a file no format reads."""
    if not source.is_dir():
        try:
            data, _ = read_any(source)
        except (IsADirectoryError, NotADirectoryError, FileNotFoundError):
            data = None  # a player folder in an archive, or a missing file: load() says which
        except BadMagicError:
            data = b""  # an archive entry that is no model (refused before it is inflated)
        if data is not None and by_magic(data[:HEAD]) is None:
            raise UsageError(
                f"{source} is not a model quakemodels reads (see `quakemodels formats`)"
            )
    return load(source)


def _gltf_to_gltf(args: argparse.Namespace, source: Path, out: Path) -> int:
    """A glTF → a glTF with a real skin: its node hierarchy as joints, its skins, its
    animations sampled at --fps as TRS clips, its meshes' embedded images (a rigged or moved
    glTF comes out rigged, not baked; ``--up z`` stands a Z-up file up, ``--scale``
    multiplies every length)."""
    fps = args.fps if args.fps is not None else FPS
    scene, skins, materials, axes = gltf_skeletal(source, fps=fps, up=args.up)
    made = scene_gltf(
        scene, {"scale": args.scale}, skins=skins, materials=materials, name=source.stem, axes=axes
    )
    refuse_existing([out], args.no_clobber)
    with writing(out):
        made.write(out, out.suffix.lower() == ".glb")
    print(f"{out}: {made.what}")
    return EXIT_OK


def _from_model(args: argparse.Namespace, source: Path, out: Path) -> int:
    """Any model the registry reads → glTF, OBJ, or a folder of OBJ frames."""
    model = _load_model(source)
    opts = {
        "skin": args.skin[-1] if args.skin else None,
        "skin_dir": args.skin_dir,
        "scale": args.scale,
        "fps": FPS,
    }
    suffix = out.suffix.lower()
    if suffix in _GLTF and args.clip is None:  # the one road to glTF, as export takes it
        made = gltf_out(source, model, opts)
        refuse_existing([out], args.no_clobber)
        with writing(out):
            made.write(out, suffix == ".glb")
        print(f"{out}: {made.what}")
        return EXIT_OK
    view = load_scene(source, opts, model)
    if args.clip is not None:
        with writing(out):
            out.mkdir(parents=True, exist_ok=True)
            written = export_obj_clip(view, out, args.clip)
        print(f"{out}: {plural(len(written), 'OBJ file')} of clip {args.clip!r}")
        return EXIT_OK
    refuse_existing([out], args.no_clobber)
    surfaces = plural(len(view.surfaces), "surface")
    triangles = plural(sum(len(s.indices) for s in view.surfaces), "triangle")
    frame = check_frame(args.frame, view.num_frames)
    with writing(out):
        export_obj(view, out, frame=frame)
    print(f"{out}: 1 frame (frame {frame} of {view.num_frames}), {surfaces}, {triangles}")
    return EXIT_OK


def run(args: argparse.Namespace) -> int:
    inputs = [Path(p) for p in args.inputs]
    out = Path(args.output)
    suffix = out.suffix.lower()
    if args.output == "-":
        raise UsageError("convert writes files; for stdout use `export -o -` or `dump -o -`")
    refuse_inputs(out, inputs)
    if is_sprite_output(out, None):  # a sprite: read frames, the target's build (cli/build)
        sprite_opts = {"build": {"palette": args.palette}, "palette": args.palette}
        return build_files(inputs, out, {**sprite_opts, "no_clobber": args.no_clobber})
    folder = args.output.endswith(("/", os.sep)) or out.is_dir() or not suffix
    to_folder = args.clip is None and folder and {p.suffix.lower() for p in inputs} <= set(_GLTF)
    fmt = _target(suffix, to_folder) if args.clip is None else None
    if fmt is None and args.clip is None and suffix not in (*_GLTF, ".obj"):
        writes = ", ".join(dict.fromkeys(s for f in builders() for s in f.suffixes))
        raise UsageError(
            f"cannot write {suffix or 'a file without a suffix'}: convert writes"
            f" {writes}, .glb, .gltf, .obj, a player folder from a player glTF, or a"
            " folder of OBJ frames with --clip"
        )
    try:
        if fmt is not None:
            with writing_parent(out):
                return _convert(args, inputs, out, fmt)
        if len(inputs) == 1 and inputs[0].suffix.lower() in _GLTF and suffix in _GLTF:
            with writing_parent(out):
                return _gltf_to_gltf(args, inputs[0], out)
        if len(inputs) != 1 or inputs[0].suffix.lower() in (*_GLTF, ".obj"):
            raise UsageError(f"→ {suffix or 'OBJ frames'} takes one model (.md2, .md3 or .mdl)")
        if suffix not in (".obj", "") and args.clip is not None:
            raise UsageError("--clip writes one OBJ per frame into a folder: give a folder")
        with writing_parent(out):
            return _from_model(args, inputs[0], out)
    except OptionError as e:  # the input does not fit what was asked: a usage error
        raise UsageError(str(e)) from e
    except ModelFormatError as e:
        # Bad input: exit 1, and the message names the file (the readers' messages start
        # with it; a writer's limit does not know it).
        text = str(e)
        if isinstance(e, LimitExceededError) and e.liftable:
            # the writer's hint names its Python argument; here the flag does the same
            text = (
                f"{e.reason} (--no-limits allows more, up to the format's own limits)"
                if not args.no_limits
                else e.reason
            )
        named = any(str(p) in text for p in inputs)
        print(
            f"error: {text}" if named else f"error: {', '.join(map(str, inputs))}: {text}",
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT
    except (IndexError, KeyError, ValueError) as e:  # --frame, --clip or --skin-size wrong
        print(f"error: {e.args[0] if e.args else e}", file=sys.stderr)
        return EXIT_USAGE
    except OSError as e:  # reading an input (writes are OutputErrors)
        name = e.filename or ", ".join(map(str, inputs))
        print(f"error: {name}: {e.strerror or e}", file=sys.stderr)
        return EXIT_BAD_INPUT


@contextlib.contextmanager
def writing_parent(out: Path) -> Iterator[None]:
    """Create ``out``'s folder (an OutputError when it cannot be made)."""
    folder = out.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise OutputError(f"cannot create folder {folder}: {e.strerror or e}") from e
    yield
