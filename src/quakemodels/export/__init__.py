"""Exporters (glTF 2.0, OBJ + MTL, PNG/GIF previews) over one small format-neutral interface.

An :class:`ExportModel` is what every exporter reads: surfaces of indexed vertex-animated
geometry (MD2 has one, MD3 one per surface), the clip table, and tags (MD3 attachment points).
:func:`from_model` builds it from an :class:`~quakemodels.md2.Md2` (or an MD3 model when
``quakemodels.md3`` provides one), so the writers know nothing about bytes.

Coordinates stay in Quake's model space here (right-handed, +X forward, +Y left, +Z up);
:func:`to_y_up` is the one conversion the file writers apply (see its docstring).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ..errors import BadValueError
from ..md2 import HEADER_OFFSETS, Md2
from ..md3 import Md3
from ..skins import Skin, find_skin

FloatArray = npt.NDArray[np.float32]

FPS = 10.0  # Quake II and III animate their models at 10 frames per second

# Quake (x forward, y left, z up) → glTF (+Z front, +X left, +Y up): (x, y, z) → (y, z, x).
# A cyclic permutation of the axes: a proper rotation (determinant +1), never a mirror, and
# it puts the model's front on glTF's front (+Z) and its left on glTF's left (+X).
Y_UP = np.array([[0, 1, 0], [0, 0, 1], [1, 0, 0]], dtype=np.float32)


def to_y_up(v: npt.NDArray[Any]) -> FloatArray:
    """(..., 3) Quake Z-up vectors as glTF Y-up vectors: (x, y, z) → (y, z, x), float32."""
    return np.ascontiguousarray(np.asarray(v, dtype=np.float32)[..., [1, 2, 0]])


@dataclass(frozen=True)
class Surface:
    """One piece of vertex-animated geometry sharing one skin.

    ``positions`` and ``normals`` (F,N,3) float32 in Quake space, ``uvs`` (N,2) float32 (t
    down, as glTF), ``indices`` (T,3) uint32; ``skin_names`` the untrusted names it refers to.
    """

    name: str
    positions: FloatArray
    normals: FloatArray
    uvs: FloatArray
    indices: npt.NDArray[np.uint32]
    skin_names: tuple[str, ...] = ()
    skin: Skin | None = None


@dataclass(frozen=True)
class Tag:
    """An attachment point: ``origins`` (F,3) float32 and ``axes`` (F,3,3) float32 (rows)."""

    name: str
    origins: FloatArray
    axes: FloatArray


@dataclass(frozen=True)
class ExportModel:
    """Everything an exporter needs: surfaces, clips (name → frame range) and tags."""

    name: str
    surfaces: list[Surface]
    clips: dict[str, range]
    tags: list[Tag] = field(default_factory=list)
    source: Path | None = None
    frame_names: list[str] = field(default_factory=list)

    @property
    def num_frames(self) -> int:
        """F, the frames every surface and tag has."""
        if self.surfaces:
            return int(self.surfaces[0].positions.shape[0])
        return int(self.tags[0].origins.shape[0]) if self.tags else 0

    def select(self, frames: Sequence[int], clips: dict[str, range] | None = None) -> ExportModel:
        """A model with only ``frames`` (in that order), and ``clips`` over the new indices."""
        idx = np.asarray(frames, dtype=np.intp)
        surfaces = [
            replace(s, positions=s.positions[idx], normals=s.normals[idx]) for s in self.surfaces
        ]
        tags = [replace(t, origins=t.origins[idx], axes=t.axes[idx]) for t in self.tags]
        names = [self.frame_names[i] for i in frames] if self.frame_names else []
        return replace(self, surfaces=surfaces, tags=tags, clips=clips or {}, frame_names=names)


def _model_stem(model: Any) -> str:
    name = getattr(model, "name", None)
    return Path(name).stem if name else "model"


def from_md2(m: Md2, *, skin_dir: str | os.PathLike[str] | None = None) -> ExportModel:
    """An MD2 as one surface; every frame's positions and normals over its unique corners."""
    if m.num_frames < 1:  # a ModelFormatError (a ValueError): found by fuzzing
        offset = HEADER_OFFSETS["num_frames"]
        raise BadValueError(
            f"the model has no frames: nothing to export (num_frames={m.num_frames} at"
            f" offset {offset})",
            field="num_frames",
            offset=offset,
        )
    mesh = m.mesh(0)
    vids = mesh.vertex_ids
    skin = find_skin(m.skins, m.name, skin_dir)
    surface = Surface(
        name="mesh",
        positions=np.ascontiguousarray(m.positions[:, vids]),
        normals=np.ascontiguousarray(m.normals[:, vids]),
        uvs=mesh.uvs,
        indices=mesh.indices,
        skin_names=tuple(m.skins),
        skin=skin,
    )
    return ExportModel(
        name=_model_stem(m),
        surfaces=[surface],
        clips=dict(m.animations),
        source=Path(m.name) if m.name else None,
        frame_names=list(m.frame_names),
    )


def from_md3(m: Md3, *, skin_dir: str | os.PathLike[str] | None = None) -> ExportModel:
    """An MD3: one surface per MD3 surface (skin from its shader names), tags as tags."""
    surfaces = []
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
                skin=find_skin([n for n in shaders if n], m.name, skin_dir),
            )
        )
    tags = [
        Tag(name=name, origins=m.tags.origins[:, k], axes=m.tags.axes[:, k])
        for k, name in enumerate(m.tags.names)
    ]
    # MD3 clips live in a separate animation.cfg, and frame names are tool junk
    # ("(from 3DSMax)"): the whole animation is one clip, "all".
    return ExportModel(
        name=_model_stem(m),
        surfaces=surfaces,
        clips={"all": range(m.num_frames)},
        tags=tags,
        source=Path(m.name) if m.name else None,
        frame_names=list(m.frame_names),
    )


def safe_name(text: str, default: str = "unnamed") -> str:
    """An untrusted name (clip, frame, surface) made safe for a file name: [A-Za-z0-9_-] only."""
    out = "".join(c if c.isascii() and (c.isalnum() or c in "-_") else "_" for c in text)
    return out.strip("_") or default


def from_model(model: Any, *, skin_dir: str | os.PathLike[str] | None = None) -> ExportModel:
    """The exporter view of a loaded MD2 or MD3 model."""
    if isinstance(model, Md2):
        return from_md2(model, skin_dir=skin_dir)
    if isinstance(model, Md3):
        return from_md3(model, skin_dir=skin_dir)
    raise TypeError(f"cannot export {type(model).__name__}")


__all__ = ["FPS", "ExportModel", "Surface", "Tag", "from_model", "safe_name", "to_y_up"]
