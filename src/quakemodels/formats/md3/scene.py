"""An MD3 as the exporters' scene: one surface per MD3 surface, tags as tags, one clip."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from ...core.scene import ExportModel, Surface, Tag, model_stem
from ...core.skins import Listings, find_skin
from .reader import Md3Reader


def scene(m: Md3Reader, *, skin_dir: str | os.PathLike[str] | None = None) -> ExportModel:
    """An MD3: one surface per MD3 surface (skin from its shader names), tags as tags."""
    surfaces = []
    listings = Listings()  # one directory listing per folder for every surface's lookup
    for s in m.surfaces:
        shaders = tuple(sh.name for sh in s.shaders)
        surfaces.append(
            Surface(
                name=s.name,
                positions=np.ascontiguousarray(s.positions, dtype=np.float32),
                normals=np.ascontiguousarray(s.normals, dtype=np.float32),
                uvs=np.ascontiguousarray(s.texcoords, dtype=np.float32),
                indices=np.ascontiguousarray(s.triangles, dtype=np.uint32),
                skin_names=shaders,
                skin=find_skin([n for n in shaders if n], m.name, skin_dir, listings),
            )
        )
    tags = [
        Tag(name=name, origins=m.tags.origins[:, k], axes=m.tags.axes[:, k])
        for k, name in enumerate(m.tags.names)
    ]
    return ExportModel(
        name=model_stem(m.name),
        surfaces=surfaces,
        clips=dict(m.animations),
        tags=tags,
        source=Path(m.name) if m.name else None,
        frame_names=list(m.frame_names),
    )
