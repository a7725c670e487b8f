"""An MD3 as the exporters' scene: one surface per MD3 surface, tags as tags, one clip."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from ...archive.vpath import model_game
from ...core.gamepaths import Listings
from ...core.mesh import flip_winding
from ...core.scene import OPAQUE, ExportModel, Surface, Tag, model_stem
from ...core.shaders import ShaderDef, ShaderScripts, scripts_for
from ...core.skins import SkinImage, find_skin, skin_rgba
from .reader import Md3Reader, Md3Surface


def _scripts(m: Md3Reader, skin_dir: str | os.PathLike[str] | None) -> ShaderScripts | None:
    """The shader scripts the surfaces' shader names are looked up in (none to read when no
    surface names a shader)."""
    return scripts_for(m.name, skin_dir) if any(s.num_shaders for s in m.surfaces) else None


def _skin_lookup(
    s: Md3Surface, scripts: ShaderScripts | None
) -> tuple[list[str], ShaderDef | None]:
    """The names a surface's picture is looked up by, and the script defining its shader: the
    engine draws the first shader (skinNum 0); a script defining it gives the surface's sides,
    alpha test and texture (its stage's image, looked up before the names)."""
    shaders = [sh.name for sh in s.shaders]
    found = scripts.find(shaders[0]) if scripts is not None and shaders else None
    names = [n for n in shaders if n]
    if found is not None and found.texture is not None:
        names.insert(0, found.texture)
    return names, found


def skin_images(m: Md3Reader) -> list[SkinImage | None]:
    """Each surface's picture, as :func:`scene` textures it (see ``Md3.skin_images``)."""
    listings = Listings()
    with model_game(m.name):  # its game's images and shader scripts, as registry.scene's
        scripts = _scripts(m, None)
        return [
            skin_rgba(find_skin(_skin_lookup(s, scripts)[0], m.name, None, listings))
            for s in m.surfaces
        ]


def scene(
    m: Md3Reader,
    *,
    skin_dir: str | os.PathLike[str] | None = None,
    frames: Sequence[int] | None = None,
) -> ExportModel:
    """An MD3: one surface per MD3 surface (skin from its shader names; sides, alpha test and
    texture from the shader script defining its first one, when a game or the game root above
    the model has one), tags as tags (only ``frames``, decoding only those, in that order and
    without clips, when given)."""
    surfaces = []
    listings = Listings()  # one directory listing per folder for every surface's lookup
    scripts = _scripts(m, skin_dir)
    for s in m.surfaces:
        names, found = _skin_lookup(s, scripts)
        surfaces.append(
            Surface(
                name=s.name,
                positions=np.ascontiguousarray(
                    s.positions if frames is None else s.frames_positions(frames), np.float32
                ),
                normals=np.ascontiguousarray(
                    s.normals if frames is None else s.frames_normals(frames), np.float32
                ),
                uvs=np.ascontiguousarray(s.texcoords, dtype=np.float32),
                indices=flip_winding(np.asarray(s.triangles, dtype=np.uint32)),
                skin_names=tuple(sh.name for sh in s.shaders),
                skin=find_skin(names, m.name, skin_dir, listings),
                material=found.material if found is not None else OPAQUE,
            )
        )
    pick = slice(None) if frames is None else [m._frame_index(f) for f in frames]
    tags = [
        Tag(name=name, origins=m.tags.origins[pick, k], axes=m.tags.axes[pick, k])
        for k, name in enumerate(m.tags.names)
    ]
    return ExportModel(
        name=model_stem(m.name),
        surfaces=surfaces,
        clips=dict(m.animations) if frames is None else {},
        tags=tags,
        source=Path(m.name) if m.name else None,
        frame_names=list(m.frame_names) if frames is None else [m.frame_names[f] for f in frames],
    )
