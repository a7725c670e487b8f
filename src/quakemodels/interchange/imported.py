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

from ..core.records import replace
from ..errors import BadValueError

FloatArray = npt.NDArray[np.float32]


def from_y_up(v: npt.ArrayLike) -> FloatArray:
    """(..., 3) Y-up vectors back to Quake's Z-up: (a, b, c) → (c, a, b), float32."""
    return np.ascontiguousarray(np.asarray(v, dtype=np.float32)[..., [2, 0, 1]])


@dataclass(frozen=True)
class ImportedMesh:
    """Per-corner animated geometry (F frames, N corners, T triangles) in Quake space.

    ``positions`` (F,N,3) float32; ``uvs`` (N,2) float32 (t down) or None; ``indices``
    (T,3) int64 into the corners, counter-clockwise seen from outside as glTF and OBJ store
    them (the writers turn them to Quake's clockwise order); ``frame_names`` F names;
    ``skin_size`` (w, h) of an embedded image when the file has one.
    """

    positions: FloatArray
    uvs: FloatArray | None
    indices: npt.NDArray[np.int64]
    frame_names: list[str]
    skin_size: tuple[int, int] | None = None


@dataclass(frozen=True)
class ImportLimits:
    """What an import may produce, checked before anything is decoded or allocated.

    ``max_frames`` F and ``max_corners`` N bound the result's shape; ``max_positions`` bounds
    F × N (the (F,N,3) float32 positions take 12 bytes each, and welding holds a few copies).
    The defaults keep the largest import near 100 MB of positions; a writer passes its
    engine's frame limit so that a file with too many frames is refused before it is read.

    F × N is also held to the input's size (:meth:`for_input`): a real file stores every
    position it yields (3 bytes at least), so a file whose frames share one block of data
    (glTF morph targets naming one accessor) cannot decode to more than ``min_positions`` or
    one position per ``bytes_per_position`` bytes read.
    """

    max_frames: int = 1 << 16
    max_corners: int = 1 << 20
    max_positions: int = 1 << 23
    min_positions: int = 1 << 16
    bytes_per_position: int = 3

    def for_input(self, size: int) -> ImportLimits:
        """These limits with ``max_positions`` lowered to what ``size`` bytes can hold."""
        held = max(self.min_positions, size // max(self.bytes_per_position, 1))
        return replace(self, max_positions=min(self.max_positions, held))


DEFAULT_LIMITS = ImportLimits()


def frame_limited(max_frames: int, limits: ImportLimits = DEFAULT_LIMITS) -> ImportLimits:
    """``limits`` with at most ``max_frames`` frames: a writer's engine limit, which the readers
    then check before they decode any frame."""
    return replace(limits, max_frames=min(limits.max_frames, max_frames))


def check_shape(where: str, frames: int, corners: int, limits: ImportLimits) -> None:
    """Refuse an import of ``frames`` × ``corners`` over ``limits`` (a BadValueError naming
    ``where``, the file)."""
    if frames > limits.max_frames:
        raise BadValueError(
            f"{where}: {frames} frames exceed the limit of {limits.max_frames}", field="frames"
        )
    if corners > limits.max_corners:
        raise BadValueError(
            f"{where}: {corners} vertices exceed the import limit of {limits.max_corners}",
            field="vertices",
        )
    if frames * corners > limits.max_positions:
        raise BadValueError(
            f"{where}: {frames} frames × {corners} vertices = {frames * corners} positions"
            f" exceed the import limit of {limits.max_positions}",
            field="frames",
        )
