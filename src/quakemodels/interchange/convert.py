"""The neutral middle of ``quakemodels convert``: what a target format's ``build`` service is
given (:class:`Source`, :class:`BuildOptions`) and what it returns (:class:`Built`).

Convert reads its input (a registered model, a ``.glb``/``.gltf``, OBJ frames) into a
:class:`Source`, asks the target format for ``build(source, options)`` and writes what comes
back. A build reads the neutral forms the source offers (:meth:`Source.scene`,
:meth:`Source.quantized`, :meth:`Source.imported`, :meth:`Source.gltf_scene`) and never asks
for a source format by name.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ..core.embed import PNG_SIGNATURE
from ..core.gamepaths import _unsafe_reason, game_path
from ..core.names import plural
from ..core.quantized import QuantizedMesh
from ..core.rasters import encode_tga
from ..core.scene import FPS, ExportModel
from ..errors import BadValueError
from .gltf_images import GltfTexture, decode_image
from .gltf_read import read_gltf, read_gltf_scene
from .imported import DEFAULT_LIMITS, ImportedMesh, frame_limited
from .obj_read import read_obj_sequence

GLTF_SUFFIXES = (".glb", ".gltf")


class OptionError(ValueError):
    """What was asked does not fit the input (a player to one mesh, several surfaces without
    ``--merge-surfaces``, a stored name that is no game path): a usage error (exit 2)."""


@dataclass(frozen=True)
class BuildOptions:
    """Convert's options as a target's build reads them (each build uses the ones it serves).
    ``out`` is the path being written (skin files go beside it and are named from it)."""

    out: Path
    skins: tuple[str, ...] = ()
    """→ MD2: skin names to store; → MDL: the image (or model skin N / NAME) to quantize."""
    skin_size: tuple[int, int] | None = None
    frame_names: tuple[str, ...] | None = None
    """Names of OBJ frames (None: the file stems)."""
    no_limits: bool = False
    merge_surfaces: bool = False
    shaders: tuple[str, ...] = ()
    palette: str | None = None
    fullbrights: bool = False
    skin_dir: str | None = None
    sprite_type: int | None = None
    """→ a sprite: its orientation type (``--type``; None: the format's default)."""
    sync_type: int | None = None
    """→ a sprite: 0 synchronised, 1 random (``--sync``; None: the format's default)."""
    tex_format: str | None = None
    """→ a Half-Life sprite: how its palette's last colour draws (``--tex-format``)."""
    fps: float = FPS
    """glTF → any target: the rate a skinned or moved glTF's animations are sampled at (every
    target engine here animates models at 10 frames per second: Quake, Quake II, and Quake
    III outside a player's animation.cfg rows)."""
    up: str = "y"
    """glTF → any target: ``z`` reads a file exported Z-up (Blender's "+Y Up" off) upright."""

    @property
    def skin(self) -> str | None:
        """The last ``--skin`` (the one an embedding target uses), or None."""
        return self.skins[-1] if self.skins else None

    def refuse_sprite_options(self, name: str, title: str, takes: Sequence[str]) -> None:
        """An OptionError naming the flags given for sprite fields a target (``name``,
        ``title``) has none of; ``takes`` are the fields it writes."""
        flags = {"palette": "--palette", "sprite_type": "--type", "sync_type": "--sync"}
        flags["tex_format"] = "--tex-format"
        given = [f for f in flags if getattr(self, f) is not None and f not in takes]
        if given:
            raise OptionError(f"{name} ({title}) takes no {', '.join(flags[f] for f in given)}")

    def sprite_fields(self, takes: Sequence[str]) -> dict[str, Any]:
        """The sprite writer's keywords (``type``, ``sync_type``, ``tex_format``) of the options
        given among ``takes``: a field not given keeps the writer's own default."""
        keyword = {"sprite_type": "type", "sync_type": "sync_type", "tex_format": "tex_format"}
        return {
            keyword[f]: getattr(self, f)
            for f in takes
            if f in keyword and getattr(self, f) is not None
        }


@dataclass(frozen=True)
class Source:
    """A convert's input: ``paths`` (one model, one glTF, OBJ frames, or pictures); ``model``
    the loaded model of a registered format (None for glTF/OBJ/pictures), ``folder_set`` when
    it is a folder set (a player: three parts on tags). What the registry found for it, as
    callables that read it only when asked: ``scener(skin, skin_dir)`` its scene (a skin
    found by image name or the model's skin number N), ``framer(palette)`` its image frames,
    ``quantizer(palette)`` its byte-compressed frames as stored (None when its format stores
    none)."""

    paths: tuple[Path, ...]
    model: Any = None
    folder_set: bool = False
    scener: Callable[[str | None, str | None], ExportModel] | None = field(default=None, repr=False)
    framer: Callable[[str | None], Any] | None = field(default=None, repr=False)
    """``framer(palette)``: the image frames (``SpriteFrames``) of a sprite or of pictures."""
    quantizer: Callable[[str | None], QuantizedMesh | None] | None = field(default=None, repr=False)

    @property
    def path(self) -> Path:
        return self.paths[0]

    @property
    def is_gltf(self) -> bool:
        """One ``.glb``/``.gltf`` file."""
        return len(self.paths) == 1 and self.path.suffix.lower() in GLTF_SUFFIXES

    @property
    def is_obj(self) -> bool:
        """One or more ``.obj`` files, one a frame."""
        return all(p.suffix.lower() == ".obj" for p in self.paths)

    def scene(self, skin: str | None = None, skin_dir: str | None = None) -> ExportModel:
        """The model's scene (its skin ``skin`` found in ``skin_dir`` when given)."""
        if self.scener is None:
            raise OptionError(f"{self.path} is not a model quakemodels reads")
        return self.scener(skin, skin_dir)

    def quantized(self, palette: str | None = None) -> QuantizedMesh | None:
        """The model's byte-compressed frames as stored (skin images through ``palette`` when
        the model holds 8-bit ones) when its format stores them (MD2, MDL): what an exact
        conversion between such formats reads; None for any other source."""
        return None if self.quantizer is None else self.quantizer(palette)

    def frames(self, palette: str | None = None) -> Any:
        """The model's image frames (an IMAGE target's neutral input); an OptionError when
        the source has none (a mesh)."""
        if self.framer is None:
            raise OptionError(f"{self.path} has no image frames")
        return self.framer(palette)

    def imported(self, options: BuildOptions, max_frames: int | None = None) -> ImportedMesh:
        """The glTF's morph targets or the OBJ frames as one mesh (at most ``max_frames``
        frames: the target's limit, refused before they are decoded)."""
        limits = DEFAULT_LIMITS if max_frames is None else frame_limited(max_frames)
        if self.is_gltf:
            return read_gltf(self.path, limits=limits, fps=options.fps, up=options.up)
        names = list(options.frame_names) if options.frame_names is not None else None
        return read_obj_sequence(self.paths, names, limits=limits)

    def gltf_scene(self, options: BuildOptions, max_frames: int) -> ExportModel:
        """Every node of the glTF as a surface of one scene (tags included)."""
        try:
            limits = frame_limited(max_frames)
            return read_gltf_scene(self.path, limits=limits, fps=options.fps, up=options.up)
        except BadValueError as e:
            if e.field != "meshes" or "frame counts" not in str(e):
                raise
            # the usual cause: a whole player (three parts with their own frames)
            raise BadValueError(
                f"{e} (a player glTF converts to a folder: give OUT/)", field="meshes"
            ) from e


@dataclass(frozen=True)
class Built:
    """What a build returns: ``model`` (``to_bytes()``, written at ``options.out``; None for a
    folder target), ``files`` (more files by name: beside ``out``, or in the folder ``out``
    for a folder target), all written as one, and the ``summary`` line convert prints."""

    model: Any
    files: dict[str, bytes]
    summary: str


def game_names(names: Sequence[str]) -> tuple[str, ...]:
    """The game paths among a model's untrusted skin or shader ``names`` (one leading slash
    dropped, ``/`` separators), for a model file we write: a name that is no game path
    (absolute, a drive letter, ``..``) is left out, so that no written model names a file
    outside the game folder (or a path of the machine it was made on)."""
    return tuple(g for n in names if n and (g := game_path(n)) is not None)


def stored_names(names: Sequence[str], option: str) -> None:
    """An OptionError when a name the user gives to store in a model (``--skin`` → MD2,
    ``--shader``) is no game path: the engine opens it relative to its game folder."""
    for name in names:
        reason = "is an absolute path" if name[:1] in ("/", "\\") else _unsafe_reason(name)
        if reason:
            raise OptionError(
                f"{option} {name!r} {reason}: the engine opens it relative to the game folder;"
                " give a game path such as models/thing/skin.pcx"
            )


QUAKE2_ROOTS = ("models", "players")
"""Folders Quake II keeps models in, below its game folder (``baseq2/players/male``)."""
QUAKE3_ROOTS = ("models",)
"""Quake III's (``baseq3/models/players/sarge``: ``players`` is below ``models``)."""


def skin_file_name(out: Path, file: str, roots: Sequence[str] = QUAKE2_ROOTS) -> str:
    """The name a model stores for the image ``file`` written beside ``out``: its path from
    the game folder above (the parent of the nearest folder named in ``roots``, where the
    engine keeps models), else the file name alone (the engine finds it once the model is
    moved into its game folder and the name fixed; our tools find it beside the model)."""
    folder = Path(os.path.abspath(out.parent))
    wanted = {r.lower() for r in roots}
    for k, parent in enumerate((folder, *folder.parents)):
        if parent.name.lower() in wanted and parent.parent != parent:
            parts = [*folder.parts[len(folder.parts) - k - 1 :], file]
            name = "/".join(parts)
            return name if len(name.encode()) <= 63 else file
    return file


@dataclass(frozen=True)
class SkinOut:
    """A texture as a built model carries it: ``names`` to store (game paths, the first the
    one ``files`` serves), ``files`` to write beside the model (file name → bytes, empty
    when there is no image), ``pixels`` (H,W,3|4) uint8 of the image (None: none),
    ``note`` for the summary, ``missing`` why there is no image (None when there is)."""

    names: tuple[str, ...]
    files: dict[str, bytes]
    pixels: npt.NDArray[np.uint8] | None
    note: str
    missing: str | None


_RAW_KINDS = {".png": PNG_SIGNATURE, ".jpg": b"\xff\xd8", ".jpeg": b"\xff\xd8"}


def skin_out(
    texture: GltfTexture | None,
    out: Path,
    stem: str,
    *,
    given: Sequence[str] = (),
    roots: Sequence[str] = QUAKE2_ROOTS,
    raw: bool = False,
) -> SkinOut:
    """What a target stores and writes for a glTF surface's ``texture``: the names given
    (``given``: ``--skin``), else the names the glTF carries, else the game path of the image
    written beside ``out`` (``stem.tga``). The image file is named after the last part of the
    first name: as TGA (what every Quake II and III renderer reads), or, with ``raw``, as the
    PNG or JPEG bytes the glTF holds when the name's extension says that kind (ioquake3 reads
    both)."""
    names = tuple(given) or (texture.names if texture is not None else ())
    pixels = None
    if texture is None or (texture.image is None and texture.problem is None):
        missing = "has no base-colour texture"
    elif texture.data is None:
        missing = f"has an image {texture.image!r} that cannot be read: {texture.problem}"
    else:
        pixels = decode_image(texture.data)
        missing = f"has an image {texture.image!r} that cannot be decoded"
    if pixels is None or texture is None or texture.data is None:
        return SkinOut(names, {}, None, "", missing)
    base = names[0].rsplit("/", 1)[-1] if names else ""
    if base in ("", ".", ".."):
        base = f"{stem}.tga"
    front, ext = os.path.splitext(base)
    kind = _RAW_KINDS.get(ext.lower())
    if raw and kind is not None and texture.data.startswith(kind):
        file, data = base, texture.data
    else:
        file, data = f"{front or stem}.tga", encode_tga(pixels)
    if not names:
        names = (skin_file_name(out, file, roots),)
    note = f"skin {texture.image} written as {file}, named {names[0]}"
    return SkinOut(names, {file: data}, pixels, note, None)


def player_refusal(source: Path, target: str, out: Path) -> OptionError:
    """Why a player folder does not convert to one model file of ``target`` (``MD2``)."""
    holds = "one mesh" if target != "MD3" else "one model, not three parts on tags"
    merge = " --merge-surfaces" if target != "MD3" else ""
    return OptionError(
        f"{source} is a player (three MD3s joined by tags); {target} holds {holds}:"
        f" convert one part (…/upper.md3 {out.name}{merge}) or export the player to glTF"
    )


def one_mesh_scene(source: Source, options: BuildOptions, target: str, skin: str | None) -> Any:
    """A multi-surface model's scene for a target of one mesh (MD2, MDL): a player is refused,
    a scene without surfaces is bad input, several surfaces need ``--merge-surfaces``."""
    if source.folder_set:
        raise player_refusal(source.path, target, options.out)
    view = source.scene(skin, options.skin_dir)
    if not view.surfaces:
        raise BadValueError(f"{source.path} has no surfaces: nothing to convert", field="surfaces")
    if len(view.surfaces) > 1 and not options.merge_surfaces:
        names = ", ".join(s.name for s in view.surfaces)
        raise OptionError(
            f"{source.path} has {len(view.surfaces)} surfaces ({names}) and {target} holds one"
            " mesh with one skin: give --merge-surfaces to merge them (texcoords kept as they"
            " are, on the first surface's skin)"
        )
    return view


def sprite_built(
    options: BuildOptions, title: str, pictures: int, model: Any, files: dict[str, bytes]
) -> Built:
    """What a sprite target's build returns: ``model`` (a ``title``, made of ``pictures``
    pictures) and the ``files`` written beside it, with the one summary line every sprite
    target prints."""
    extra = f", {plural(len(files), 'frame image')} beside it" if files else ""
    return Built(model, files, f"{options.out}: {title}, {plural(pictures, 'picture')}{extra}")


@dataclass(frozen=True)
class OneMeshRoutes:
    """What a target of one mesh (MD2, MDL) builds from each kind of source, for
    :func:`build_one_mesh`: ``imported(source, options)`` from glTF/OBJ frames,
    ``quantized(source, frames, options)`` from byte-compressed frames as stored (exact),
    ``scene(source, view, options)`` from any other model's one-mesh scene."""

    own: type
    """The target's model class: a source of it is copied as it is."""
    title: str
    """The target as a refusal names it (``MD2``)."""
    imported: Callable[[Source, BuildOptions], Built]
    quantized: Callable[[Source, QuantizedMesh, BuildOptions], Built]
    scene: Callable[[Source, ExportModel, BuildOptions], Built]
    scene_skin: Callable[[BuildOptions], str | None] = lambda options: None
    """The ``--skin`` the source's scene is found with (MDL embeds it; MD2 stores names)."""


def build_one_mesh(source: Source, options: BuildOptions, routes: OneMeshRoutes) -> Built:
    """The one routing of a one-mesh target's build: glTF/OBJ → ``imported``; the target's
    own format → a copy; stored byte-compressed frames → ``quantized``; else the source's
    scene, one mesh (:func:`one_mesh_scene`) → ``scene``."""
    model = source.model
    if model is None:
        return routes.imported(source, options)
    if isinstance(model, routes.own):  # the same format: an exact copy
        names: list[str] = source.model.frame_names  # one a frame (an MDL's: a pose)
        count = plural(len(names), "frame")
        return Built(model, {}, f"{options.out}: a copy of {source.path} ({count})")
    frames = source.quantized(options.palette)
    if frames is not None:
        return routes.quantized(source, frames, options)
    view = one_mesh_scene(source, options, routes.title, routes.scene_skin(options))
    return routes.scene(source, view, options)


def merged_summary(view: ExportModel) -> tuple[str, str]:
    """The `` (N surfaces merged)`` note and the ``tags dropped: …`` / ``no tags`` note of a
    scene converted to one mesh."""
    tags = ", ".join(t.name for t in view.tags)
    merged = f" ({plural(len(view.surfaces), 'surface')} merged)" if len(view.surfaces) > 1 else ""
    return merged, ("tags dropped: " + tags if tags else "no tags")


__all__ = [
    "GLTF_SUFFIXES",
    "QUAKE2_ROOTS",
    "QUAKE3_ROOTS",
    "BuildOptions",
    "Built",
    "OneMeshRoutes",
    "OptionError",
    "SkinOut",
    "Source",
    "build_one_mesh",
    "game_names",
    "merged_summary",
    "one_mesh_scene",
    "player_refusal",
    "skin_file_name",
    "skin_out",
    "sprite_built",
    "stored_names",
]
