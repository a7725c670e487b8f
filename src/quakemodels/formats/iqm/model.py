"""The :class:`Iqm` users get: the reader plus its scene, description, checks and writer."""

from __future__ import annotations

import os
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from ...core.facade import decoded, frame_index
from ...core.mesh import Mesh, merge_meshes
from ...core.scene import ExportModel
from ...core.skeletal import SkeletalScene, bake, baked_model
from ...interchange.export import export_scene
from .fast import compiled_meshes
from .reader import IqmReader
from .scene import clip_table, frame_scene, scene
from .scene import skin_images as _skin_images

if TYPE_CHECKING:
    from ...core.findings import Finding
    from ...core.skins import SkinImage


def posed_meshes(skel: SkeletalScene) -> list[tuple[str, Mesh]]:
    """(name, mesh) of every mesh of ``skel`` posed at its one clip's first frame."""
    out = []
    for s in baked_model(skel, bake(skel), "").surfaces:
        ids = np.arange(len(s.uvs), dtype=np.int32)
        mesh = Mesh.of_new_arrays(
            np.ascontiguousarray(s.positions[0]),
            np.ascontiguousarray(s.normals[0]),
            np.array(s.uvs, dtype=np.float32),
            np.array(s.indices, dtype=np.uint32),
            ids,
            ids.copy(),
        )
        out.append((s.name, mesh))
    return out


class Iqm(IqmReader):
    """An Inter-Quake Model (IQM version 2): see :class:`IqmReader` for its arrays and
    :meth:`skeletal` for the neutral skeletal scene.

    Lazy, as MD3's model is: loading checks the header; each section is checked
    (its bounds, then every index against what it indexes) when first read, so a first pose
    reads and checks only what that frame needs; :meth:`load_all` and :meth:`check` read and
    check every section and every frame."""

    @decoded
    def _table(self) -> tuple[dict[str, range], list[str]]:
        return clip_table(self.skeletal())

    @property
    def num_frames(self) -> int:
        """F, the frames of the scene: every frame of every anim (1, the base pose, when
        there are none)."""
        return self.num_scene_frames

    @decoded
    def _posed(self) -> ExportModel:
        return scene(self)

    def meshes(self, frame: int = 0) -> list[Mesh]:
        """One render-ready :class:`Mesh` per IQM mesh, posed at ``frame``: through the
        compiled kernel where it is built and takes the file (:mod:`.fast`), else by the
        numpy path, which also names every fault."""
        fast = compiled_meshes(self.data, frame)
        if fast is not None:
            return fast
        return [mesh for _, mesh in self._posed_meshes(frame)]

    def mesh(self, frame: int = 0) -> Mesh:
        """Every IQM mesh posed at ``frame``, merged into one :class:`Mesh` (see
        :func:`~quakemodels.core.mesh.merge_meshes`; ``Mesh.surfaces`` names each mesh's
        rows). Geometry only: mesh k's picture is ``skin_images[k]``."""
        meshes = self.meshes(frame)
        return merge_meshes(meshes, [r.name for r in self.mesh_records])

    def _posed_meshes(self, frame: int) -> list[tuple[str, Mesh]]:
        """(name, mesh) of every IQM mesh posed at ``frame`` by the numpy path (IndexError
        past the frames)."""
        return posed_meshes(frame_scene(self, frame_index(frame, self.num_frames)))

    @property
    def bounds(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """(mins, maxs), each (3,) float32: over the file's per-frame bounds records (what
        the engines cull with; the writer stores every posed frame's box there), or over the
        vertices in the base pose when the file has none. Posing every frame to find them
        would make loading cost as much as an export."""
        fb = self.frame_bounds
        if fb is not None and len(fb):
            return fb[:, 0:3].min(axis=0), fb[:, 3:6].max(axis=0)
        if not len(self.positions):
            zero = np.zeros(3, np.float32)
            return zero, zero.copy()
        p = self.positions.astype(np.float32)
        return p.min(axis=0), p.max(axis=0)

    @property
    def animations(self) -> dict[str, range]:
        """Clip name → range of the scene's frames (anims one after another)."""
        return self._table[0]

    @property
    def frame_names(self) -> list[str]:
        """One name per frame of the scene (``idle001``...)."""
        return self._table[1]

    def scene(self, *, skin_dir: str | os.PathLike[str] | None = None) -> ExportModel:
        """The exporters' scene (every frame posed; see :func:`.scene.scene`)."""
        return self._posed if skin_dir is None else scene(self, skin_dir=skin_dir)

    @cached_property
    def skin_images(self) -> list[SkinImage | None]:
        """One picture per IQM mesh, in the order of ``mesh_records`` (and of
        ``mesh(frame).surfaces``): (H,W,4) uint8 RGBA, top row first, or None where none is
        found (a mesh without a material finds only the pictures beside the model named after
        it, or the folder's only image). Each mesh's material name is looked up as
        :meth:`export` does: under the model's folder, names matched case-insensitively and with
        the other image extensions (``.pcx``, ``.tga``, ``.png``, ``.jpg``, ``.bmp``), then
        beside the model (``<stem>__<name>``, ``<stem>.<ext>``, the folder's only image); unsafe
        names (``..``, absolute) are refused with a warning
        (:func:`quakemodels.core.skins.find_skin`). A model inside a pak or pk3, or in a game
        folder, has its names looked up through that game first, as the engine finds files
        (:func:`quakemodels.archive.vpath.model_game`). Computed on first access and cached; a
        model from bytes, with no path, finds none."""
        return _skin_images(self)

    def check(self, engine: str = "any") -> list[Finding]:
        """Engine-compatibility findings; never raises."""
        from .check import check

        return check(self, engine)

    def to_bytes(self) -> bytes:
        """The model's bytes as loaded."""
        return self.data

    @classmethod
    def from_skeletal(cls, scene: SkeletalScene, **kwargs: Any) -> Iqm:
        """A new IQM from any skeletal scene (see :func:`.write.write`)."""
        from .write import write

        return cls(write(scene, **kwargs))

    def export(
        self,
        path: str | os.PathLike[str],
        *,
        frame: int | None = None,
        clip: str | None = None,
        skin_dir: str | os.PathLike[str] | None = None,
    ) -> list[Path]:
        """Write the model as glTF 2.0 or OBJ by ``path``'s suffix (every frame posed)."""
        return export_scene(scene(self, skin_dir=skin_dir), path, frame=frame, clip=clip)


__all__ = ["Iqm"]
