"""Writing the byte-compressed vertices (``trivertx_t``) of Quake 1 (MDL) and Quake II (MD2).

Both formats store a frame's vertex positions on a 256-step grid per axis (a float32 scale and
translate, or MDL's scale and origin) and its normal as an index into the 162-entry table of
:data:`~quakemodels.core.trivertx.ANORMS`. The writers of both share these encoders; reading a
model never imports this module.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from ..errors import BadValueError
from .build import as_array, vertex_normals
from .trivertx import ANORMS, NUM_ANORMS


def quantize(
    positions: npt.ArrayLike,
) -> tuple[
    npt.NDArray[np.uint8], npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.float64]
]:
    """Compress (F,V,3) positions as modelgen does; returns (compressed (F,V,3) uint8,
    scales (F,3) float32, translates (F,3) float32, errors (F,3) float64).

    translate is the frame's minimum and scale (max − min) / 255, stored as float32 rounded
    outwards (translate down, scale up) so that every input lies inside the 256-step grid;
    each coordinate is then the nearest step, so the error is at most half a step.
    """
    p = np.asarray(positions, dtype=np.float64)
    lo = p.min(axis=1)
    hi = p.max(axis=1)
    with np.errstate(over="ignore"):  # past float32 is infinity, refused below
        translate = lo.astype(np.float32)
    down = translate.astype(np.float64) > lo
    translate[down] = np.nextafter(translate[down], np.float32(-np.inf))
    t = translate.astype(np.float64)
    with np.errstate(over="ignore", invalid="ignore"):  # the same
        scale = ((hi - t) / 255.0).astype(np.float32)
    # Round the step up until the grid reaches the maximum in double arithmetic (one float32
    # ulp is already more than the rounding can have lost; the bound is only a safety net).
    for _ in range(64):
        short = t + 255.0 * scale.astype(np.float64) < hi
        if not short.any():
            break
        scale[short] = np.nextafter(scale[short], np.float32(np.inf))
    s = scale.astype(np.float64)
    if not (np.isfinite(s).all() and np.isfinite(t).all()):
        raise BadValueError("positions span a range too large for float32 scales", field="scale")
    safe = np.where(s > 0, s, 1.0)[:, None, :]
    # Distances to the grid as step * scale - (p - translate): translate is the minimum rounded
    # down, so p - translate is exact (the two are close), and so is a step times a float32
    # scale; adding translate first would round at translate's magnitude (a 32768-unit model
    # with a 1e-5 step mistook which neighbour is nearest by 1e-7 of a step).
    offset = p - t[:, None, :]
    q = offset / safe
    base = np.clip(np.floor(q), 0, 255)
    best = base
    best_err = np.abs(base * s[:, None, :] - offset)
    other = np.clip(base + 1, 0, 255)
    other_err = np.abs(other * s[:, None, :] - offset)
    better = other_err < best_err
    best = np.where(better, other, best)
    best_err = np.where(better, other_err, best_err)
    errors = best_err.max(axis=1) if p.shape[1] else np.zeros_like(s)
    return best.astype(np.uint8), scale, translate, errors


def nearest_anorms(normals: npt.ArrayLike) -> npt.NDArray[np.uint8]:
    """Indices (...,) uint8 of the nearest of the 162 anorms to each (...,3) vector.

    Nearest means largest dot product; a zero vector maps to the anorm nearest +Z (up).
    """
    n = np.asarray(normals, dtype=np.float64)
    table = ANORMS.astype(np.float64)
    flat = n.reshape(-1, 3)
    out = np.empty(len(flat), np.uint8)
    up = int(np.argmax(table[:, 2]))
    for start in range(0, len(flat), 65536):
        chunk = flat[start : start + 65536]
        out[start : start + len(chunk)] = np.argmax(chunk @ table.T, axis=1)
        zero = ~np.any(chunk != 0, axis=1)
        out[start : start + len(chunk)][zero] = up
    return out.reshape(n.shape[:-1])


def anorm_indices(
    normals: npt.ArrayLike | None, positions: npt.NDArray[Any], triangles: npt.NDArray[Any]
) -> npt.NDArray[np.uint8]:
    """(F,V) uint8 anorm indices for (F,V,3) ``positions``: ``normals`` given as (F,V) indices
    (checked below 162) or (F,V,3) vectors (the nearest anorm), or None for area-weighted
    vertex normals of ``triangles`` snapped to the nearest anorm."""
    if normals is None:
        return nearest_anorms(vertex_normals(positions, triangles))
    given = as_array(normals, "normals", None, None)
    shape = positions.shape[:2]
    if given.shape == shape and given.dtype.kind in "iu":
        if np.any((given < 0) | (given >= NUM_ANORMS)):
            raise BadValueError("normal indices must be below 162", field="normal_index")
        return given.astype(np.uint8)
    if given.shape == (*shape, 3):
        if not np.isfinite(given).all():  # the nearest anorm of NaN would be a random one
            raise BadValueError("normals contain NaN or infinity", field="normals")
        return nearest_anorms(given)
    raise BadValueError(
        f"normals must be (F,V,3) vectors or (F,V) indices, got {given.shape}", field="normals"
    )
