"""Per-frame decoding shared by every animated format: decode only the frames asked for.

A model's ``positions`` and ``normals`` (F,V,3) decode every frame at once: right for a full
load or an export of every frame, wasteful when a viewer wants frame 0 (a 198-frame MD2 decodes
198 frames to show one). :class:`PerFrame` gives a format's reader (or an MD3 surface) the
per-frame API on top of two methods it implements, decoding a list of frames through the same
layouts as the full arrays so the values are identical:

* ``_decode_positions(frames)`` and ``_decode_normals(frames)``: (k,V,3) float32 for ``frames``,
  a (k,) intp array of valid indices in any order, repeats allowed.

When the full array is already decoded (a cached ``positions`` or ``normals``), it is sliced
instead.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float32]
IndexArray = npt.NDArray[np.intp]


def rows(array: npt.NDArray[Any], frames: IndexArray) -> npt.NDArray[Any]:
    """``array[frames]`` along the first axis; for one frame a view (a slice, no copy)."""
    if frames.size == 1:
        f = int(frames[0])
        return array[f : f + 1]
    return array[frames]


def decode_axes(
    records: npt.NDArray[np.uint8],
    axes: Iterable[int],
    scale: npt.NDArray[np.float64],
    offset: npt.NDArray[np.float64],
) -> FloatArray:
    """(...,3) float32 ``v * scale + offset`` of the compressed bytes ``records[..., axes]``
    (one column of ``records``' last axis per x, y, z), in double as the specs evaluate it
    (two roundings, no fused multiply-add) and then rounded once to float32. ``scale[..., i]``
    and ``offset[..., i]`` broadcast against one axis's plane (``records.shape[:-1]``): a
    (F,1,3) per-frame scale for (F,V,4) records, a (3,) one for all. One axis at a time over
    the long planes: numpy runs them several times faster than rows of three."""
    out: FloatArray = np.empty((*records.shape[:-1], 3), np.float32)
    plane = np.empty(records.shape[:-1], np.float64)
    # A scale or offset that is not finite, or one that takes a vertex past float32's range,
    # gives inf or NaN there as the engine's float math does (no numpy warning text): check
    # reports it and the exporters refuse it, naming the field.
    with np.errstate(over="ignore", invalid="ignore"):
        for axis, column in enumerate(axes):
            np.multiply(records[..., column], scale[..., axis], out=plane)
            plane += offset[..., axis]
            out[..., axis] = plane
    return out


def lerp_between(pa: FloatArray, pb: FloatArray, t: float) -> FloatArray:
    """(V,3) float32 between ``pa`` (t=0) and ``pb`` (t=1): ``pa + (pb - pa) * t`` in float32."""
    out: FloatArray = (pa + (pb - pa) * np.float32(t)).astype(np.float32)
    return out


class PerFrame:
    """Per-frame positions and normals, and lerp between two frames, for a class that has
    ``_frame_index(frame)``, cached ``positions``/``normals`` properties and the two decoders
    above."""

    def _frame_index(self, frame: int) -> int:
        """``frame`` as an index in 0..F-1 (see :func:`~quakemodels.core.facade.frame_index`)."""
        raise NotImplementedError  # pragma: no cover - every format defines its own

    def _decode_positions(self, frames: IndexArray) -> FloatArray:
        raise NotImplementedError  # pragma: no cover - every format defines its own

    def _decode_normals(self, frames: IndexArray) -> FloatArray:
        raise NotImplementedError  # pragma: no cover - every format defines its own

    def _frames(self, name: str, frames: Iterable[int]) -> FloatArray:
        idx = np.array([self._frame_index(f) for f in frames], dtype=np.intp).reshape(-1)
        full = self.__dict__.get(name)  # set once the full array has been decoded
        if full is not None:
            out: FloatArray = full[idx]
            return out
        if name == "positions":
            return self._decode_positions(idx)
        return self._decode_normals(idx)

    def frames_positions(self, frames: Iterable[int]) -> FloatArray:
        """(k,V,3) float32 positions of ``frames`` (in that order), decoding only those."""
        return self._frames("positions", frames)

    def frames_normals(self, frames: Iterable[int]) -> FloatArray:
        """(k,V,3) float32 unit normals of ``frames`` (in that order), decoding only those."""
        return self._frames("normals", frames)

    def frame_positions(self, frame: int) -> FloatArray:
        """(V,3) float32 positions of one frame, decoding only that frame unless all are."""
        f = self._frame_index(frame)
        full = self.__dict__.get("positions")
        if full is not None:
            out: FloatArray = full[f]
            return out
        return self._decode_frame_positions(f)

    def frame_normals(self, frame: int) -> FloatArray:
        """(V,3) float32 unit normals of one frame, decoding only that frame unless all are."""
        f = self._frame_index(frame)
        full = self.__dict__.get("normals")
        if full is not None:
            out: FloatArray = full[f]
            return out
        return self._decode_frame_normals(f)

    def _decode_frame_positions(self, frame: int) -> FloatArray:
        """(V,3) float32 positions of one valid frame index: the one-frame case of
        ``_decode_positions`` (a format may give it a path with fewer array operations)."""
        out: FloatArray = self._decode_positions(np.array([frame], dtype=np.intp))[0]
        return out

    def _decode_frame_normals(self, frame: int) -> FloatArray:
        """(V,3) float32 normals of one valid frame index (see ``_decode_frame_positions``)."""
        out: FloatArray = self._decode_normals(np.array([frame], dtype=np.intp))[0]
        return out

    def lerp(self, a: int, b: int, t: float) -> FloatArray:
        """(V,3) float32 positions between frames ``a`` (t=0) and ``b`` (t=1), decoding only
        those two frames."""
        pa, pb = self._frames("positions", (a, b))
        return lerp_between(pa, pb, t)
