"""``quakemodels convert IN... OUT``: every model format to every model format (MD2, MD3, MDL),
models → glTF/OBJ, glTF or an OBJ sequence → MD2/MD3/MDL, a player glTF → a player folder."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.atomic import write_bytes_atomic, write_files_atomic
from ..core.format import Format, Kind
from ..core.scene import FPS, Y_UP, Material
from ..core.skeletal import SkeletalScene
from ..core.skins import Skin
from ..errors import BadMagicError, LimitExceededError, ModelFormatError
from ..formats import FORMATS
from ..interchange.convert import GLTF_SUFFIXES, BuildOptions, Built, OptionError, Source
from ..interchange.export import check_frame, export_skeletal, gltf_skeletal
from ..interchange.gltf_skin_write import skin_summary
from ..interchange.gltf_write import export_gltf
from ..interchange.obj_write import export_obj, export_obj_clip
from ..registry import by_magic, for_model, load, read_any, skeletal
from .build import build_files
from .export import skeletal_skins
from .options import folder, frame_number, load_scene, plural, positive
from .output import (
    EXIT_BAD_INPUT,
    EXIT_OK,
    EXIT_USAGE,
    OutputError,
    UsageError,
    refuse_existing,
    writing,
)
from .sprites import is_sprite_output

if TYPE_CHECKING:
    import numpy.typing as npt

HELP = (
    "convert any model (MD2/MD3/MDL) to any model format or glTF/OBJ; a glTF or OBJ frames"
    " to MD2/MD3/MDL; a player glTF back to a player folder"
)
EXAMPLES = """\
  quakemodels convert tris.md2 tris.glb           # every frame as a morph target, clips
  quakemodels convert upper.md3 upper.glb         # MD3: a mesh per surface, tags as nodes
  quakemodels convert tris.md2 tris.obj --frame 40
  quakemodels convert tris.glb tris.md2 --skin models/players/guy/skin.pcx
  quakemodels convert tris.md2 frames/ --clip run  # one OBJ per frame of a clip
  quakemodels convert frames/*.obj run.md2 --frame-prefix run --skin-size 256x256
  quakemodels convert model.glb model.md3 --shader models/mapobjects/thing/thing.tga
  quakemodels convert tris.md2 tris.md3           # any model to MD3 (positions within 1/64)
  quakemodels export models/players/guy -o guy.glb  # a player: one glTF, clips, tags
  quakemodels convert guy.glb models/players/guy2/  # ... and back to a player folder
  quakemodels convert armor.mdl armor.md2         # skins written beside it as armor_skin0.tga...
  quakemodels convert tris.md2 tris.mdl --skin-dir skins/   # skin quantized to the palette
  quakemodels convert tris.glb tris.mdl --skin skin.png     # glTF or OBJ frames → MDL
  quakemodels convert rifle.md3 rifle.md2         # one surface: positions requantized, tags dropped
  quakemodels convert upper.md3 upper.mdl --merge-surfaces --skin-size 256x256
  quakemodels convert rigged.glb again.glb        # a rigged glTF stays a real skin (--fps)
"""

_GLTF = GLTF_SUFFIXES
# Enough of a file's start for every format's magic and version test (IQM: 16 + 4 bytes).
HEAD = 64


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


def _options(args: argparse.Namespace, out: Path) -> BuildOptions:
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


def _builders() -> list[Format]:
    return [f for f in FORMATS if f.has("build")]


def _target(suffix: str, to_folder: bool) -> Format | None:
    """The format ``OUT`` names: a folder format with "build" for a folder, else the format
    owning the suffix (UnsupportedError later when it cannot build); None: glTF/OBJ export."""
    if to_folder:
        return next((f for f in _builders() if f.kind is Kind.FOLDER), None)
    return next((f for f in FORMATS if suffix in f.suffixes), None)


def _source(inputs: list[Path], fps: float | None = None) -> Source:
    """The input as a build reads it: glTF/OBJ paths, or the one model read by the registry
    (a skeletal model's clips baked at ``fps`` when given, else at their own frames)."""
    if all(p.suffix.lower() in (*_GLTF, ".obj") for p in inputs):
        return Source(tuple(inputs))
    if len(inputs) != 1:
        raise UsageError("convert takes one model, one .glb/.gltf or one or more .obj files")
    path = inputs[0]
    model = _load_model(path)

    def scener(skin: str | None, skin_dir: str | None) -> Any:
        return load_scene(path, {"skin": skin, "skin_dir": skin_dir, "bake_fps": fps}, model)

    fmt = for_model(model)

    def framer(palette: str | None) -> Any:
        return fmt.service("frames")(model, palette=palette)

    return Source((path,), model, fmt.kind, scener, framer if fmt.has("frames") else None)


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
    build = fmt.service("build")
    if not to_folder and len(inputs) > 1 and {p.suffix.lower() for p in inputs} != {".obj"}:
        target = fmt.name.upper()
        raise UsageError(f"→ {target} takes one model, one .glb/.gltf or one or more .obj files")
    built = build(_source(inputs, args.fps), _options(args, out))
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


def _player_gltf(args: argparse.Namespace, player: Any, out: Path) -> int:
    """A folder set (a player) → the same glTF ``export`` writes (parts on their tags, clips)."""
    if args.scale != 1.0:
        raise UsageError("--scale applies to single models and a player's OBJ output")
    skin = args.skin[-1] if args.skin else "default"
    refuse_existing([out], args.no_clobber)
    with writing(out):
        for_model(player).service("gltf")(
            player, out, skin=skin, binary=out.suffix.lower() == ".glb"
        )
    print(
        f"{out}: player, {plural(len(player.animations), 'clip')}, parts on their tags, skin {skin}"
    )
    return EXIT_OK


def _gltf_to_gltf(args: argparse.Namespace, source: Path, out: Path) -> int:
    """A glTF → a glTF with a real skin: its node hierarchy as joints, its skins, its
    animations sampled at --fps as TRS clips, its meshes' embedded images (a rigged or moved
    glTF comes out rigged, not baked; ``--up z`` stands a Z-up file up, ``--scale``
    multiplies every length)."""
    fps = args.fps if args.fps is not None else FPS
    scene, skins, materials, axes = gltf_skeletal(source, fps=fps, up=args.up)
    return _write_skin(args, source, out, scene, skins, materials, axes)


def _write_skin(
    args: argparse.Namespace,
    source: Path,
    out: Path,
    scene: SkeletalScene,
    skins: Sequence[Skin | None],
    materials: Sequence[Material],
    axes: npt.ArrayLike | None = Y_UP,
) -> int:
    """``scene`` written to ``out`` as a glTF real skin (never over an existing file with
    --no-clobber), and its summary line. ``axes``: the scene's space into glTF's (a model's
    Quake space by default; None for a scene read from a glTF)."""
    refuse_existing([out], args.no_clobber)
    with writing(out):
        export_skeletal(
            scene,
            out,
            skins=skins,
            materials=materials,
            name=source.stem,
            axes=axes,
            scale=args.scale,
        )
    print(f"{out}: {skin_summary(scene)}")
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
    folder_set = for_model(model).kind is Kind.FOLDER
    if folder_set and suffix in _GLTF and args.clip is None:
        return _player_gltf(args, model, out)
    scene = skeletal(model) if suffix in _GLTF and args.clip is None else None
    if scene is not None:  # joints: a real skin, not baked morph targets
        skins, materials = skeletal_skins(str(source), model, scene, opts)
        return _write_skin(args, source, out, scene, skins, materials)
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
    if suffix in _GLTF:
        with writing(out):
            export_gltf(view, out)
        frames = plural(view.num_frames, "frame")
        print(f"{out}: {frames}, {plural(len(view.clips), 'clip')}, {surfaces}, {triangles}")
        return EXIT_OK
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
    if is_sprite_output(out, None):  # a sprite: read frames, the target's build (cli/build)
        sprite_opts = {"build": {"palette": args.palette}, "palette": args.palette}
        return build_files(inputs, out, {**sprite_opts, "no_clobber": args.no_clobber})
    folder = args.output.endswith(("/", os.sep)) or out.is_dir() or not suffix
    to_folder = args.clip is None and folder and {p.suffix.lower() for p in inputs} <= set(_GLTF)
    fmt = _target(suffix, to_folder) if args.clip is None else None
    if fmt is None and args.clip is None and suffix not in (*_GLTF, ".obj"):
        writes = ", ".join(dict.fromkeys(s for f in _builders() for s in f.suffixes))
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
