"""What the glTF and OBJ readers give back: per-corner animated geometry in Quake's space.

Axes: the writers (:mod:`quakemodels.interchange.gltf_write`) turn Quake (x, y, z) into Y-up
(y, z, x); the readers apply the inverse, (a, b, c) → (c, a, b), so our own exports come back
unchanged. Format writers (``formats/<f>/write.py``) weld an :class:`ImportedMesh` into their
own vertices and texcoords.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float32]


def from_y_up(v: npt.ArrayLike) -> FloatArray:
    """(..., 3) Y-up vectors back to Quake's Z-up: (a, b, c) → (c, a, b), float32."""
    return np.ascontiguousarray(np.asarray(v, dtype=np.float32)[..., [2, 0, 1]])


@dataclass(frozen=True)
class ImportedMesh:
    """Per-corner animated geometry (F frames, N corners, T triangles) in Quake space.

    ``positions`` (F,N,3) float32; ``uvs`` (N,2) float32 (t down) or None; ``indices``
    (T,3) int64 into the corners; ``frame_names`` F names; ``skin_size`` (w, h) of an embedded
    image when the file has one.
    """

    positions: FloatArray
    uvs: FloatArray | None
    indices: npt.NDArray[np.int64]
    frame_names: list[str]
    skin_size: tuple[int, int] | None = None
