"""``quakemodels convert IN... OUT``: every model format to every model format (MD2, MD3, MDL),
models → glTF/OBJ, glTF or an OBJ sequence → MD2/MD3/MDL, a player glTF → a player folder."""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import sys
import warnings
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.scene import FPS
from ..errors import BadValueError, LimitExceededError, ModelFormatError, QuakeModelsWarning
from ..formats.md2.write import FORMAT_LIMITS, VANILLA
from .options import folder, frame_number, load_scene, plural, positive
from .sprites import is_sprite_output

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from ..formats.mdl import Mdl
    from ..formats.q3player import Player

from .output import (
    EXIT_BAD_INPUT,
    EXIT_OK,
    EXIT_USAGE,
    OutputError,
    UsageError,
    output_error,
    refuse_existing,
    writing,
)

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
"""

_GLTF = (".glb", ".gltf")


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
        help="→ MD2: a skin name to store (repeatable; at most 63 bytes); model → glTF/OBJ"
        " and MD2/MD3 → MDL: the skin to embed, the model's skin number N or an image NAME;"
        " glTF/OBJ → MDL: the image file to quantize into the MDL",
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
        help="→ MD3: a shader name for every surface that has none (repeatable; ≤ 63 bytes)",
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
        help="model → glTF/OBJ: multiply positions by K (default 1: Quake units, about an"
        " inch; 0.0254 gives metres)",
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
        "--no-clobber", action="store_true", help="never replace an existing file (exit 3)"
    )


def game_names(names: Sequence[str]) -> tuple[str, ...]:
    """The game paths among a model's untrusted skin or shader ``names`` (one leading slash
    dropped, ``/`` separators), for a model file we write: a name that is no game path
    (absolute, a drive letter, ``..``) is left out, so that no written model names a file
    outside the game folder (or a path of the machine it was made on)."""
    from ..core.skins import game_path

    return tuple(g for n in names if n and (g := game_path(n)) is not None)


def stored_names(names: Sequence[str], option: str) -> None:
    """A UsageError when a name the user gives to store in a model (``--skin`` → MD2,
    ``--shader``) is no game path: the engine opens it relative to its game folder."""
    from ..core.skins import _unsafe_reason

    for name in names:
        reason = "is an absolute path" if name[:1] in ("/", "\\") else _unsafe_reason(name)
        if reason:
            raise UsageError(
                f"{option} {name!r} {reason}: the engine opens it relative to the game folder;"
                " give a game path such as models/thing/skin.pcx"
            )


def skin_file_name(out: Path, file: str) -> str:
    """The name a model stores for the image ``file`` written beside ``out``: its path from
    the game folder above (the parent of the nearest folder named ``models`` or ``players``,
    where Quake II keeps models), else the file name alone (the engine finds it once the model
    is moved into its game folder and the name fixed; our tools find it beside the model)."""
    folder = Path(os.path.abspath(out.parent))
    for k, parent in enumerate((folder, *folder.parents)):
        if parent.name.lower() in ("models", "players") and parent.parent != parent:
            parts = [*folder.parts[len(folder.parts) - k - 1 :], file]
            name = "/".join(parts)
            return name if len(name.encode()) <= 63 else file
    return file


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


def _obj_frame_names(args: argparse.Namespace, count: int) -> list[str] | None:
    """--frame-names or --frame-prefix for ``count`` OBJ frames (None: the file stems)."""
    if args.frame_prefix:
        return [f"{args.frame_prefix}{k}" for k in range(1, count + 1)]
    return args.frame_names.split(",") if args.frame_names else None


def _to_md2(args: argparse.Namespace, inputs: list[Path], out: Path) -> int:
    from ..formats.md2 import Md2
    from ..interchange.gltf_read import read_gltf
    from ..interchange.imported import frame_limited
    from ..interchange.obj_read import read_obj_sequence

    limits = FORMAT_LIMITS if args.no_limits else VANILLA
    skin_size = _skin_size(args.skin_size)
    read_limits = frame_limited(limits.max_frames)
    suffixes = {p.suffix.lower() for p in inputs}
    if suffixes <= set(_GLTF) and len(inputs) == 1:
        mesh = read_gltf(inputs[0], limits=read_limits)
    elif suffixes == {".obj"}:
        mesh = read_obj_sequence(inputs, _obj_frame_names(args, len(inputs)), limits=read_limits)
    elif len(inputs) == 1:
        return _model_to_one_mesh(args, inputs[0], out, ".md2")
    else:
        raise UsageError("→ MD2 takes one model, one .glb/.gltf or one or more .obj files")
    stored_names(args.skin, "--skin")
    skin = None
    if not args.skin and suffixes <= set(_GLTF):
        skin = _gltf_skin(inputs[0], out)
    names = args.skin or ([skin[0]] if skin else [])
    size = skin_size or mesh.skin_size
    if size is None and skin is not None:
        size = (int(skin[2].shape[1]), int(skin[2].shape[0]))
    result = Md2.from_imported(mesh, skins=names, skin_size=size, limits=limits)
    written = [out.with_name(f"{out.stem}.tga")] if skin else []
    refuse_existing([out, *written], args.no_clobber)
    if skin:
        _write_tga(written[0], skin[2])
    with writing(out):
        result.model.save(out)
    worst = (result.errors / result.steps.clip(min=1e-30)).max()
    m = result.model
    print(
        f"{out}: {plural(m.num_frames, 'frame')}, {plural(m.num_vertices, 'vertex', 'vertices')},"
        f" {plural(m.num_triangles, 'triangle')}, {plural(len(m.gl_commands), 'GL command')};"
        f" largest error {result.errors.max():.6g} units"
        f" ({min(worst, 0.5):.3f} of a step)"
        + (f"; skin {skin[1]} written as {written[0].name}, named {skin[0]}" if skin else "")
    )
    return 0


def _gltf_skin(source: Path, out: Path) -> tuple[str, str, npt.NDArray[np.uint8]] | None:
    """The glTF's embedded skin for an MD2 at ``out``: (the game path the MD2 stores, the
    image's name in the glTF, its (H,W,3|4) uint8 pixels), or None, with a warning saying
    why when the glTF has an image that cannot be carried over.

    The skin goes beside the MD2 as ``<stem>.tga`` (24 or 32-bit, uncompressed): Quake II's
    GL renderer loads TGA skins (``GL_FindImage``: ``.pcx``, ``.wal``, ``.tga``), as Yamagi
    Quake II and Q2PRO do. An 8-bit PCX would need Quake II's own palette (the engine maps a
    skin's indices through its palette, not the file's), which the project does not have;
    the software renderer reads only PCX and WAL.
    """
    from ..interchange.gltf_read import embedded_image

    found = embedded_image(source)
    if found is None:
        return None
    label, data = found
    if data is None:
        warnings.warn(
            f"{source}: its image {label!r} is a file beside the glTF, not embedded: the MD2"
            " gets no skin (give --skin NAME and put the image there as PCX or TGA)",
            QuakeModelsWarning,
            stacklevel=2,
        )
        return None
    pixels = _decoded_image(data)
    if pixels is None:
        warnings.warn(
            f"{source}: images[0] ({label}) cannot be decoded: the MD2 gets no skin",
            QuakeModelsWarning,
            stacklevel=2,
        )
        return None
    return skin_file_name(out, f"{out.stem}.tga"), label, pixels


def _decoded_image(data: bytes) -> npt.NDArray[np.uint8] | None:
    """An image file's pixels, (H,W,3) or (H,W,4) when it has transparency; None when Pillow
    cannot decode it (or it is over Pillow's decompression-bomb limit)."""
    import io

    import numpy
    from PIL import Image, UnidentifiedImageError

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as image:
                image.load()
                alpha = image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info
                rgb = image.convert("RGBA" if alpha else "RGB")
    except (OSError, UnidentifiedImageError, ValueError, Image.DecompressionBombError,
            Image.DecompressionBombWarning):  # fmt: skip
        return None
    return numpy.asarray(rgb, dtype=numpy.uint8)


def _write_tga(path: Path, pixels: npt.NDArray[np.uint8]) -> None:
    """``pixels`` as a TGA file at ``path`` (atomically; an OutputError when it cannot be)."""
    from ..core.atomic import atomic_output
    from ..core.rasters import encode_tga

    data = encode_tga(pixels)
    with writing(path), atomic_output(path) as f:
        f.write(data)


def _to_md3(args: argparse.Namespace, inputs: list[Path], out: Path) -> int:
    from ..core.build import vertex_normals
    from ..core.mesh import flip_winding
    from ..core.scene import ExportModel, Surface
    from ..formats.md3 import Md3
    from ..formats.md3 import write as md3_write
    from ..interchange.gltf_read import read_gltf_scene
    from ..interchange.imported import frame_limited
    from ..interchange.obj_read import read_obj_sequence
    from ..registry import scene

    limits = md3_write.FORMAT_LIMITS if args.no_limits else md3_write.VANILLA
    read_limits = frame_limited(limits.max_frames)
    suffixes = {p.suffix.lower() for p in inputs}
    if suffixes <= set(_GLTF) and len(inputs) == 1:
        try:
            view = read_gltf_scene(inputs[0], limits=read_limits)
        except BadValueError as e:
            if e.field != "meshes" or "frame counts" not in str(e):
                raise
            # the usual cause: a whole player (three parts with their own frames)
            raise BadValueError(
                f"{e} (a player glTF converts to a folder: give OUT/)", field="meshes"
            ) from e
    elif suffixes == {".obj"}:
        names = _obj_frame_names(args, len(inputs))
        mesh = read_obj_sequence(inputs, names, limits=read_limits)
        positions, uvs, triangles = md3_write.weld_corners(mesh.positions, mesh.uvs, mesh.indices)
        # OBJ winds counter-clockwise, as the scene does; vertex_normals takes Quake's order
        normals = vertex_normals(positions, flip_winding(triangles)).astype("float32")
        surface = Surface("mesh", positions, normals, uvs, triangles.astype("uint32"))
        view = ExportModel(out.stem, [surface], {}, frame_names=list(mesh.frame_names))
    elif len(inputs) == 1:
        model = _load_model(inputs[0])
        if _is_folder_set(model):
            raise UsageError(_player_refusal(inputs[0], ".md3", out))
        view = scene(model)
        # names carried over from the model are untrusted: only game paths go into the MD3
        view = replace(
            view,
            surfaces=[replace(s, skin_names=game_names(s.skin_names)) for s in view.surfaces],
        )
    else:
        raise UsageError("→ MD3 takes one model, one .glb/.gltf or one or more .obj files")
    stored_names(args.shader, "--shader")
    if args.shader:
        view = replace(
            view,
            surfaces=[s if any(s.skin_names) else replace(s, skin_names=tuple(args.shader))
                      for s in view.surfaces],
        )  # fmt: skip
    result = Md3.from_scene(view, limits=limits)
    refuse_existing([out], args.no_clobber)
    with writing(out):
        result.model.save(out)
    m = result.model
    vertices = sum(s.num_vertices for s in m.surfaces)
    print(
        f"{out}: {plural(m.num_frames, 'frame')}, {plural(m.num_surfaces, 'surface')},"
        f" {plural(vertices, 'vertex', 'vertices')}, {plural(m.num_tags, 'tag')};"
        f" largest error {result.errors.max():.6g} units (step 1/64)"
    )
    return EXIT_OK


def _to_player(args: argparse.Namespace, source: Path, out: Path) -> int:
    """A player glTF (``quakemodels export <player folder> -o x.glb``) → a player folder."""
    from ..formats.md3.write import FORMAT_LIMITS as MD3_FORMAT_LIMITS
    from ..formats.md3.write import VANILLA as MD3_VANILLA
    from ..formats.q3player.fromgltf import player_from_gltf, save_player

    limits = MD3_FORMAT_LIMITS if args.no_limits else MD3_VANILLA
    built = player_from_gltf(source, out.resolve().name, limits=limits)
    refuse_existing([out / name for name in built.files], args.no_clobber)
    try:
        save_player(built, out)  # all files or none; a folder it made is removed on failure
    except OSError as e:
        raise output_error(out, e) from e
    parts = ", ".join(
        f"{part}.md3 ({plural(m.num_frames, 'frame')}, {plural(m.num_surfaces, 'surface')},"
        f" {plural(m.num_tags, 'tag')})"
        for part, m in built.parts.items()
    )
    skins = sum(name.endswith(".skin") for name in built.files)
    images = len(built.files) - 3 - skins - (1 if built.clips else 0)
    print(
        f"{out}: {parts}; animation.cfg ({plural(len(built.clips), 'clip')}),"
        f" {plural(skins, 'skin file')}, {plural(images, 'image')};"
        f" largest error {max(built.errors.values()):.6g} units (step 1/64)"
    )
    return EXIT_OK


def _model_format(path: Path) -> str | None:
    """The registered format of the file at ``path`` by its magic (None: not a model file;
    a player folder, on disk or in an archive, is None too). Archive entries are read through
    their archive (``pak0.pak/progs/armor.mdl``)."""
    from ..registry import by_magic, read_any

    if path.suffix.lower() in (*_GLTF, ".obj") or path.is_dir():
        return None
    try:
        data, _ = read_any(path)
    except (IsADirectoryError, NotADirectoryError, FileNotFoundError):
        return None  # a player folder inside an archive, or nothing: load() says which
    fmt = by_magic(data[:4])
    return None if fmt is None else fmt.name


def _load_model(source: Path) -> Any:
    """The model (or player) at ``source``: a UsageError when it is a file no format reads."""
    from ..registry import load, read_any

    if not source.is_dir() and _model_format(source) is None:
        try:
            read_any(source)
        except (IsADirectoryError, NotADirectoryError, FileNotFoundError):
            pass  # a player folder in an archive, or a missing file: load() says which
        else:
            raise UsageError(
                f"{source} is not a model quakemodels reads (see `quakemodels formats`)"
            )
    return load(source)


def _is_folder_set(model: object) -> bool:
    """True for a model read from a folder (a Quake III player), not from one file."""
    from ..core.format import Kind
    from ..registry import for_model

    return for_model(model).kind is Kind.FOLDER


def _player_refusal(source: Path, suffix: str, out: Path) -> str:
    """Why a player folder does not convert to one model file of ``suffix`` (a usage error)."""
    target = suffix[1:].upper()
    holds = "one mesh" if suffix != ".md3" else "one model, not three parts on tags"
    merge = " --merge-surfaces" if suffix != ".md3" else ""
    return (
        f"{source} is a player (three MD3s joined by tags); {target} holds {holds}:"
        f" convert one part (…/upper.md3 {out.name}{merge}) or export the player to glTF"
    )


def _model_to_one_mesh(args: argparse.Namespace, source: Path, out: Path, suffix: str) -> int:
    """A model → MD2 or MDL (``suffix``), the formats of one mesh: an MD2 or MDL of the same
    format is copied exactly; an MD3 goes through its scene, its surfaces merged (only with
    --merge-surfaces when it has several), its tags dropped. A player is a usage error."""
    from ..formats.md2 import Md2
    from ..formats.md3 import Md3

    target = suffix[1:].upper()
    model = _load_model(source)
    if _is_folder_set(model):
        raise UsageError(_player_refusal(source, suffix, out))
    if isinstance(model, Md2) and suffix == ".md2":  # the same format: an exact copy
        refuse_existing([out], args.no_clobber)
        with writing(out):
            model.save(out)
        print(f"{out}: a copy of {source} ({plural(model.num_frames, 'frame')})")
        return EXIT_OK
    if not isinstance(model, Md3):
        raise UsageError(f"→ {target} takes an MD2, MD3 or MDL model, a glTF or OBJ frames")
    if model.num_surfaces == 0:
        raise BadValueError(f"{source} has no surfaces: nothing to convert", field="surfaces")
    if model.num_surfaces > 1 and not args.merge_surfaces:
        names = ", ".join(s.name for s in model.surfaces)
        raise UsageError(
            f"{source} has {model.num_surfaces} surfaces ({names}) and {target} holds one mesh"
            " with one skin: give --merge-surfaces to merge them (texcoords kept as they are,"
            " on the first surface's skin)"
        )
    view = load_scene(
        source,
        {"skin": args.skin[-1] if args.skin and suffix == ".mdl" else None,
         "skin_dir": args.skin_dir},
        model,
    )  # fmt: skip
    size = _skin_size(args.skin_size)
    if suffix == ".md2":
        result: Any = _md3_to_md2(args, view, size, out)
        step = (result.errors / result.steps.clip(min=1e-30)).max()
        skin = ", ".join(s for s in result.model.skins) or "no skin name"
        skin += f" ({result.model.skin_width}x{result.model.skin_height})"
        grid = f"{min(step, 0.5):.3f} of a step"
    else:
        result, skin = _md3_to_mdl(args, view, size, out)
        grid = "one grid for every pose"
    m = result.model
    tags = ", ".join(t.name for t in view.tags)
    merged = f" ({plural(len(view.surfaces), 'surface')} merged)" if len(view.surfaces) > 1 else ""
    print(
        f"{out}: {plural(m.num_frames, 'frame')}, {plural(m.num_vertices, 'vertex', 'vertices')},"
        f" {plural(m.num_triangles, 'triangle')}{merged}, {skin};"
        f" {'tags dropped: ' + tags if tags else 'no tags'};"
        f" largest error {result.errors.max():.6g} units ({grid})"
    )
    return EXIT_OK


def _md3_to_md2(
    args: argparse.Namespace, view: Any, size: tuple[int, int] | None, out: Path
) -> Any:
    """An MD3's scene → ``out`` (MD2): skin names from --skin, else the first surface's
    shaders; skin size from --skin-size, else its skin image's, else 256 × 256."""
    from ..formats.md2 import Md2

    # the MD3's shader names are untrusted: only game paths ([A-Za-z0-9_./-], at most 63
    # bytes: what an MD2 skin field holds) are carried over; they are stored, never opened
    stored_names(args.skin, "--skin")
    shaders = game_names(view.surfaces[0].skin_names)
    names = args.skin or [n for n in shaders if re.fullmatch(r"[A-Za-z0-9_./-]{1,63}", n)]
    result = Md2.from_scene(
        view, skins=names, skin_size=size, limits=FORMAT_LIMITS if args.no_limits else VANILLA
    )
    refuse_existing([out], args.no_clobber)
    with writing(out):
        result.model.save(out)
    return result


def _md3_to_mdl(
    args: argparse.Namespace, view: Any, size: tuple[int, int] | None, out: Path
) -> tuple[Any, str]:
    """An MD3's scene → ``out`` (MDL): the first surface's skin image (or --skin), resized
    to --skin-size when given, quantized to the palette; returns the result and what the skin
    came from."""
    from ..formats.mdl import Mdl
    from ..formats.mdl.write import FORMAT_LIMITS as MDL_FORMAT_LIMITS
    from ..formats.mdl.write import VANILLA as MDL_VANILLA

    found = view.surfaces[0].skin
    skins = []
    if found is not None:
        h, w = found.pixels.shape[:2]
        skins.append(_skin_pixels(found.image, size or (w, h)))
    try:
        result = Mdl.from_scene(
            view,
            skins=skins,
            skin_size=size,
            palette=args.palette,
            fullbrights=args.fullbrights,
            limits=MDL_FORMAT_LIMITS if args.no_limits else MDL_VANILLA,
        )
    except LimitExceededError as e:
        if e.field != "skin_height":
            raise
        tall = size[1] if size else found.pixels.shape[0] if found is not None else 0
        raise LimitExceededError(
            f"the skin is {tall} pixels tall and Quake's MDL skins at most"
            f" {MDL_VANILLA.max_skin_height}: --skin-size WxH resizes it, --no-limits keeps it",
            field=e.field,
        ) from e
    refuse_existing([out], args.no_clobber)
    with writing(out):
        result.model.save(out)
    skin = f"skin from {found.path.name}" if found is not None else "a blank skin (none found)"
    return result, skin


def _open_mdl(path: Path, palette: str | None) -> Mdl:
    """The MDL at ``path`` (a file or an archive entry) with ``palette``."""
    from ..formats.mdl import Mdl
    from ..registry import read_any

    data, name = read_any(path)
    return Mdl(data, name=name, palette=palette)


def _mdl_to_md2(args: argparse.Namespace, source: Path, out: Path) -> int:
    """MDL → MD2 through ``Md2.build``; each skin image is written beside ``out`` as
    ``<stem>_skin<k>.tga`` (decoded through the palette; TGA as for a glTF's skin, see
    :func:`_gltf_skin`) and named in the MD2 by its game path (:func:`skin_file_name`)."""
    model = _open_mdl(source, args.palette)
    limits = FORMAT_LIMITS if args.no_limits else VANILLA
    files = [out.with_name(f"{out.stem}_skin{k}.tga") for k in range(model.num_skin_images)]
    names = [skin_file_name(out, f.name) for f in files]
    result = model.to_md2(skins=names, limits=limits)
    refuse_existing([out, *files], args.no_clobber)
    for k, file in enumerate(files):
        _write_tga(file, model.skin_images[k])
    with writing(out):
        result.model.save(out)
    m = result.model
    print(
        f"{out}: {plural(m.num_frames, 'frame')} ({plural(model.num_header_frames, 'MDL frame')}"
        f" flattened), {plural(m.num_vertices, 'vertex', 'vertices')},"
        f" {plural(m.num_triangles, 'triangle')}, {plural(len(names), 'skin')};"
        f" largest error {result.errors.max():.6g} units"
    )
    return EXIT_OK


def _skin_pixels(image: object, size: tuple[int, int]) -> npt.NDArray[np.uint8]:
    """A found skin image as an (H,W,3) uint8 array of the model's skin ``size`` (resized
    bilinearly when the file's size differs from the header's)."""
    import numpy
    from PIL import Image

    assert isinstance(image, Image.Image)
    rgb = image.convert("RGB")
    if rgb.size != size:
        rgb = rgb.resize(size, Image.Resampling.BILINEAR)
    return numpy.asarray(rgb, dtype=numpy.uint8)


def _to_mdl(args: argparse.Namespace, inputs: list[Path], out: Path) -> int:
    """An MD2 (or an MDL, copied exactly) → MDL through ``Mdl.build``; the skin is the image
    the glTF export would embed (``--skin``, ``--skin-dir``), quantized to the palette."""
    from ..formats.mdl import Mdl
    from ..formats.mdl.write import FORMAT_LIMITS as MDL_FORMAT_LIMITS
    from ..formats.mdl.write import VANILLA as MDL_VANILLA
    from ..registry import load

    kind = _model_format(inputs[0]) if len(inputs) == 1 else None
    if kind is None and {p.suffix.lower() for p in inputs} <= {*_GLTF, ".obj"}:
        return _imported_to_mdl(args, inputs, out)
    if len(inputs) != 1:
        raise UsageError("→ MDL takes one model, one .glb/.gltf or .obj frames")
    if kind not in ("md2", "mdl"):
        return _model_to_one_mesh(args, inputs[0], out, ".mdl")
    source = inputs[0]
    if kind == "mdl":
        model = _open_mdl(source, args.palette)
        refuse_existing([out], args.no_clobber)
        with writing(out):
            model.save(out)
        print(f"{out}: a copy of {source} ({plural(model.num_poses, 'pose')})")
        return EXIT_OK
    md2 = load(source)
    opts = {"skin": args.skin[-1] if args.skin else None, "skin_dir": args.skin_dir}
    found = load_scene(source, opts).surfaces[0].skin
    size = (md2.skin_width, md2.skin_height)
    skins = [] if found is None or min(size) <= 0 else [_skin_pixels(found.image, size)]
    result = Mdl.from_model(
        md2,
        skins=skins,
        palette=args.palette,
        fullbrights=args.fullbrights,
        limits=MDL_FORMAT_LIMITS if args.no_limits else MDL_VANILLA,
    )
    refuse_existing([out], args.no_clobber)
    with writing(out):
        result.model.save(out)
    m = result.model
    seams = int((m.on_seam != 0).sum())
    skin = f"skin from {found.path.name}" if found is not None else "a blank skin (none found)"
    print(
        f"{out}: {plural(m.num_poses, 'pose')}, {plural(m.num_vertices, 'vertex', 'vertices')}"
        f" ({seams} on the seam, {m.num_vertices - md2.num_vertices} split),"
        f" {plural(m.num_triangles, 'triangle')}, {skin};"
        f" largest error {result.errors.max():.6g} units"
    )
    return EXIT_OK


def _imported_to_mdl(args: argparse.Namespace, inputs: list[Path], out: Path) -> int:
    """A glTF with morph targets or OBJ frames → MDL (welded as for MD2); the skin is the
    image file ``--skin`` names, quantized to the palette (a blank skin without one)."""
    from PIL import Image

    from ..formats.mdl import Mdl
    from ..formats.mdl.write import FORMAT_LIMITS as MDL_FORMAT_LIMITS
    from ..formats.mdl.write import VANILLA as MDL_VANILLA
    from ..interchange.gltf_read import read_gltf
    from ..interchange.obj_read import read_obj_sequence

    limits = MDL_FORMAT_LIMITS if args.no_limits else MDL_VANILLA
    if inputs[0].suffix.lower() in _GLTF:
        if len(inputs) != 1:
            raise UsageError("→ MDL takes one .glb/.gltf")
        mesh = read_gltf(inputs[0])
    else:
        names = args.frame_names.split(",") if args.frame_names else None
        if args.frame_prefix:
            names = [f"{args.frame_prefix}{k}" for k in range(1, len(inputs) + 1)]
        mesh = read_obj_sequence(inputs, names)
    size = _skin_size(args.skin_size)
    skins = []
    if args.skin:
        with Image.open(args.skin[-1]) as image:
            size = size or mesh.skin_size or image.size
            skins.append(_skin_pixels(image, size))
    result = Mdl.from_imported(
        mesh,
        skins=skins,
        skin_size=size,
        palette=args.palette,
        fullbrights=args.fullbrights,
        limits=limits,
    )
    refuse_existing([out], args.no_clobber)
    with writing(out):
        result.model.save(out)
    m = result.model
    print(
        f"{out}: {plural(m.num_poses, 'pose')}, {plural(m.num_vertices, 'vertex', 'vertices')}"
        f" ({int((m.on_seam != 0).sum())} on the seam), {plural(m.num_triangles, 'triangle')},"
        f" {'skin from ' + args.skin[-1] if skins else 'a blank skin'};"
        f" largest error {result.errors.max():.6g} units"
    )
    return EXIT_OK


def _player_gltf(args: argparse.Namespace, player: Player, out: Path) -> int:
    """A player folder → the same glTF ``export`` writes (parts on their tags, cfg clips)."""
    from ..formats.q3player.gltf import export_player_gltf

    if args.scale != 1.0:
        raise UsageError("--scale applies to single models and a player's OBJ output")
    skin = args.skin[-1] if args.skin else "default"
    refuse_existing([out], args.no_clobber)
    with writing(out):
        export_player_gltf(player, out, skin=skin, binary=out.suffix.lower() == ".glb")
    print(
        f"{out}: player, {plural(len(player.animations), 'clip')}, parts on their tags, skin {skin}"
    )
    return EXIT_OK


def _from_model(args: argparse.Namespace, source: Path, out: Path) -> int:
    """MD2 or MD3 (any format the registry reads) → glTF, OBJ, or a folder of OBJ frames."""
    from ..interchange.export import check_frame

    model = _load_model(source)
    opts = {
        "skin": args.skin[-1] if args.skin else None,
        "skin_dir": args.skin_dir,
        "scale": args.scale,
        "fps": FPS,
    }
    suffix = out.suffix.lower()
    if _is_folder_set(model) and suffix in _GLTF and args.clip is None:
        return _player_gltf(args, model, out)
    view = load_scene(source, opts, model)
    if args.clip is not None:
        from ..interchange.obj_write import export_obj_clip

        with writing(out):
            out.mkdir(parents=True, exist_ok=True)
            written = export_obj_clip(view, out, args.clip)
        print(f"{out}: {plural(len(written), 'OBJ file')} of clip {args.clip!r}")
        return EXIT_OK
    refuse_existing([out], args.no_clobber)
    surfaces = plural(len(view.surfaces), "surface")
    triangles = plural(sum(len(s.indices) for s in view.surfaces), "triangle")
    if suffix in _GLTF:
        from ..interchange.gltf_write import export_gltf

        with writing(out):
            export_gltf(view, out)
        frames = plural(view.num_frames, "frame")
        print(f"{out}: {frames}, {plural(len(view.clips), 'clip')}, {surfaces}, {triangles}")
        return EXIT_OK
    from ..interchange.obj_write import export_obj

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
        from .build import build_files

        sprite_opts = {"build": {"palette": args.palette}, "palette": args.palette}
        return build_files(inputs, out, {**sprite_opts, "no_clobber": args.no_clobber})
    folder = args.output.endswith(("/", os.sep)) or out.is_dir() or not suffix
    to_player = args.clip is None and folder and {p.suffix.lower() for p in inputs} <= set(_GLTF)
    writes = (*_GLTF, ".obj", ".md2", ".md3", ".mdl")
    if args.clip is None and not to_player and suffix not in writes:
        raise UsageError(
            f"cannot write {suffix or 'a file without a suffix'}: convert writes"
            " .md2, .md3, .mdl, .glb, .gltf, .obj, a player folder from a player glTF, or a"
            " folder of OBJ frames with --clip"
        )
    try:
        if to_player:
            if len(inputs) != 1:
                raise UsageError("→ a player folder takes one player .glb/.gltf")
            return _to_player(args, inputs[0], out)
        if suffix == ".mdl":
            with writing_parent(out):
                return _to_mdl(args, inputs, out)
        if suffix == ".md2" and len(inputs) == 1 and _model_format(inputs[0]) == "mdl":
            with writing_parent(out):
                return _mdl_to_md2(args, inputs[0], out)
        if suffix == ".md2":
            with writing_parent(out):
                return _to_md2(args, inputs, out)
        if suffix == ".md3":
            with writing_parent(out):
                return _to_md3(args, inputs, out)
        if len(inputs) != 1 or inputs[0].suffix.lower() in (*_GLTF, ".obj"):
            raise UsageError(f"→ {suffix or 'OBJ frames'} takes one model (.md2, .md3 or .mdl)")
        if suffix not in (".obj", "") and args.clip is not None:
            raise UsageError("--clip writes one OBJ per frame into a folder: give a folder")
        with writing_parent(out):
            return _from_model(args, inputs[0], out)
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
