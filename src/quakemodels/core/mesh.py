"""Render-ready meshes, and the typed protocol every animated model format implements."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from .findings import Finding

FloatArray = npt.NDArray[np.float32]
IntArray = npt.NDArray[np.int32]


@dataclass(frozen=True, repr=False)
class Mesh:
    """Render-ready indexed arrays for one frame; each distinct (vertex, texcoord) pair once.

    ``positions`` (N,3) float32, ``normals`` (N,3) float32, ``uvs`` (N,2) float32 (texcoords,
    no V flip), ``indices`` (T,3) uint32 into those, ``vertex_ids`` (N,) int32 the model vertex
    each corner came from and ``texcoord_ids`` (N,) int32 its texcoord. The arrays are
    read-only views (copy one to edit it).
    """

    positions: FloatArray
    normals: FloatArray
    uvs: FloatArray
    indices: npt.NDArray[np.uint32]
    vertex_ids: IntArray
    texcoord_ids: IntArray

    def __post_init__(self) -> None:
        # Read-only views: a mesh shares arrays with its model's caches (vertex_ids, indices),
        # so an edit through one mesh must not reach the model or the next mesh.
        for name in ("positions", "normals", "uvs", "indices", "vertex_ids", "texcoord_ids"):
            view = np.asarray(getattr(self, name)).view()
            view.flags.writeable = False
            object.__setattr__(self, name, view)

    def __repr__(self) -> str:
        return f"<Mesh: {len(self.positions)} vertices, {len(self.indices)} triangles>"


@runtime_checkable
class AnimatedModel(Protocol):
    """What every model format offers (MD2, MD3, MDL): frames, clips, meshes and sampling.

    Positions are Quake's model space (Z up), float32; ``meshes(frame)`` gives one
    :class:`Mesh` per surface (one for single-surface formats).
    """

    name: str | None

    @property
    def num_frames(self) -> int:
        """F, the number of frames (poses)."""
        ...

    @property
    def frame_names(self) -> list[str]:
        """The F frame names."""
        ...

    @property
    def animations(self) -> dict[str, range]:
        """Clip name → range of frame indices."""
        ...

    def meshes(self, frame: int = 0) -> Sequence[Mesh]:
        """One render-ready mesh per surface for ``frame``."""
        ...

    @property
    def bounds(self) -> tuple[FloatArray, FloatArray]:
        """(mins, maxs), each (3,) float32, over every vertex of every frame."""
        ...

    def check(self, engine: str = "any") -> list[Finding]:
        """Engine-compatibility findings; never raises."""
        ...

    def export(
        self,
        path: str | os.PathLike[str],
        *,
        frame: int | None = None,
        clip: str | None = None,
        skin_dir: str | os.PathLike[str] | None = None,
    ) -> list[Path]:
        """Write glTF 2.0 or OBJ by ``path``'s suffix; the files written."""
        ...
