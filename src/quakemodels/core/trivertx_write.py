"""Writing the byte-compressed vertices (``trivertx_t``) of Quake 1 (MDL) and Quake II (MD2).

Both formats store a frame's vertex positions on a 256-step grid per axis (a float32 scale and
translate, or MDL's scale and origin) and its normal as an index into the 162-entry table of
:data:`~quakemodels.core.trivertx.ANORMS`, and both hold one mesh whose vertices are shared by
texcoords on a pixel grid. The writers of both share these encoders (:func:`quantize`,
:func:`anorm_indices`) and the welding of an imported mesh or a scene into that one mesh
(:func:`weld`, :func:`scene_arrays`); reading a model never imports this module.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Protocol

import numpy as np
import numpy.typing as npt

from ..errors import BadValueError
from .build import as_array, scene_frame_names, vertex_normals
from .mesh import flip_winding
from .scene import ExportModel, Surface
from .sections import first_bad_index
from .trivertx import ANORMS, NUM_ANORMS


class CornerMesh(Protocol):
    """What :func:`weld` reads of an imported mesh (``interchange.imported.ImportedMesh``):
    (F,N,3) ``positions``, (N,2) ``uvs`` or None, (T,3) counter-clockwise ``indices``."""

    @property
    def positions(self) -> Any: ...

    @property
    def uvs(self) -> Any: ...

    @property
    def indices(self) -> Any: ...


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


# -- one mesh from an imported mesh or from any model's scene -------------------------------------


def weld(
    mesh: CornerMesh, skin_size: tuple[int, int]
) -> tuple[
    npt.NDArray[np.float32], npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]
]:
    """MD2/MDL vertices and texcoords from corners.

    Corners whose positions are equal in every frame become one MD2 vertex, corners whose UVs
    round to the same skin pixel one texcoord. Returns positions (F,V,3), triangles (T,3),
    texcoords_px (S,2) and triangle_texcoords (T,3).
    """
    mesh_positions, uvs, indices = _corners("mesh", mesh.positions, mesh.uvs, mesh.indices)
    f, n, _ = mesh_positions.shape
    track = np.ascontiguousarray(mesh_positions.transpose(1, 0, 2)).reshape(n, f * 3)
    # numbered in first-use order, so a file we exported keeps its vertex order
    first, vertex_of = _first_use_unique(track)
    positions = mesh_positions[:, first]
    px = np.zeros((n, 2), np.int64) if uvs is None else _pixels(uvs, skin_size)
    st_first, st_of = _first_use_unique(px)
    texcoords_px = px[st_first]
    return positions, vertex_of[indices], texcoords_px, st_of[indices]


def _pixels(uvs: npt.NDArray[np.float64], skin_size: tuple[int, int]) -> npt.NDArray[np.int64]:
    """(N,2) int64 skin pixels of finite (N,2) uvs on a (w, h) grid, held to 32 bits (past
    them, the formats' own range checks refuse them; unclipped, the cast would wrap)."""
    px = np.rint(uvs * np.array(skin_size, np.float64))
    return px.clip(-(1 << 31), 1 << 31).astype(np.int64)


def _corners(
    where: str, positions: Any, uvs: Any, indices: Any
) -> tuple[npt.NDArray[Any], npt.NDArray[np.float64] | None, npt.NDArray[np.int64]]:
    """A surface's or an imported mesh's per-vertex arrays checked (BadValueError naming
    ``where`` and the array): ``positions`` (F,N,3) finite numbers, as given; ``uvs`` (N,2)
    finite float64, or None; ``indices`` (T,3) int64 in 0..N-1, given counter-clockwise (a
    scene's, glTF's and OBJ's order) and returned in Quake's clockwise order."""
    pos = as_array(positions, f"{where}.positions", None, 3)
    if pos.shape[2] != 3:
        raise BadValueError(
            f"{where}.positions must be (F,N,3), got {pos.shape}", field="positions"
        )
    if not np.isfinite(pos).all():
        raise BadValueError(f"{where}.positions contain NaN or infinity", field="positions")
    n = pos.shape[1]
    uv = None if uvs is None else as_array(uvs, f"{where}.uvs", np.float64, 2)
    if uv is not None and uv.shape != (n, 2):
        raise BadValueError(
            f"{where}.uvs must be (N,2) = ({n},2), got {uv.shape}", field="texcoords"
        )
    if uv is not None and not np.isfinite(uv).all():
        raise BadValueError("texcoords contain NaN or infinity", field="texcoords")
    idx = as_array(indices, f"{where}.indices", np.int64, 2)
    if idx.shape[1:] != (3,):
        raise BadValueError(f"{where}.indices must be (T,3), got {idx.shape}", field="triangles")
    bad = first_bad_index(idx, n)
    if bad is not None:
        raise BadValueError(
            f"{where}.indices[{bad.row}][{bad.column}]={bad.value} is outside 0..{n - 1}",
            field="triangles",
        )
    return pos, uv, flip_winding(idx)


class SingleSurface(NamedTuple):
    """A scene as one mesh in the arrays ``build`` takes (F frames, V vertices, T triangles, S
    texcoords): ``positions`` (F,V,3) float32, ``triangles`` (T,3) int64, ``texcoords_px``
    (S,2) int64 pixels, ``triangle_texcoords`` (T,3) int64, ``normals`` (F,V) uint8 anorm
    indices and F ``frame_names`` (bytes, at most 15)."""

    positions: npt.NDArray[np.float32]
    triangles: npt.NDArray[np.int64]
    texcoords_px: npt.NDArray[np.int64]
    triangle_texcoords: npt.NDArray[np.int64]
    normals: npt.NDArray[np.uint8]
    frame_names: list[bytes]


def _first_use_unique(rows: npt.NDArray[Any]) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """(first (U,), inverse (N,)) of the distinct ``rows``, numbered in first-use order."""
    _, first, inverse = np.unique(rows, axis=0, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    return first[order], rank[inverse.reshape(-1)]


def _one_tile(uvs: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """(N,2) texcoords moved by whole tiles into 0..1 when they all lie in one tile outside it
    (Quake III repeats textures, so the picture is the same; MD2's software renderer and MDL
    read only the skin's own pixels). Raises :class:`BadValueError` for NaN or infinity."""
    uv = np.asarray(uvs, np.float64)
    if not np.isfinite(uv).all():
        raise BadValueError("texcoords contain NaN or infinity", field="texcoords")
    if not uv.size:
        return uv
    lo, hi = np.floor(uv.min(axis=0)), uv.max(axis=0)
    inside = hi <= lo + 1  # one tile: [k, k + 1] on that axis
    return uv - np.where(inside, lo, 0.0)


def _surface_arrays(
    i: int, s: Surface
) -> tuple[npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[np.float64], npt.NDArray[np.int64]]:
    """Scene surface ``i``'s (F,N,3) positions and normals (finite, as given), (N,2) float64
    uvs and (T,3) int64 indices into its vertices; BadValueError naming the array."""
    positions, uvs, indices = _corners(f"surfaces[{i}]", s.positions, s.uvs, s.indices)
    normals = as_array(s.normals, f"surfaces[{i}].normals", None, 3)
    if normals.shape != positions.shape:
        raise BadValueError(
            f"surfaces[{i}].normals must be (F,N,3) = {positions.shape}, got {normals.shape}",
            field="normals",
        )
    if not np.isfinite(normals).all():  # the nearest anorm of NaN would be a random one
        raise BadValueError(f"surfaces[{i}].normals contain NaN or infinity", field="normals")
    if uvs is None:
        raise BadValueError(f"surfaces[{i}].uvs are missing", field="texcoords")
    return positions, normals, uvs, indices


def scene_arrays(scene: ExportModel, skin_size: tuple[int, int]) -> SingleSurface:
    """Every surface of ``scene`` merged into one mesh, in surface order (one skin: each
    surface's texcoords are kept, on the ``skin_size`` (w, h) pixel grid; a surface whose
    texcoords lie in one tile outside 0..1 is moved into 0..1, the same picture in Quake III).

    Normals are snapped to the nearest anorm; vertices whose positions and anorms are equal in
    every frame become one vertex (an MD3 splits its vertices where texcoords differ, MD2 and
    MDL do not need to), texcoords that round to the same pixel one texcoord. Frame names are
    cut to 15 bytes (``frame0``, ``frame1``... when the scene has none). Tags are not part of
    it. Raises :class:`BadValueError` for a scene without surfaces or with non-finite
    texcoords.
    """
    if not scene.surfaces:
        raise BadValueError("the model has no surfaces", field="surfaces")
    checked = [_surface_arrays(i, s) for i, s in enumerate(scene.surfaces)]
    frames = {c[0].shape[0] for c in checked}
    if len(frames) > 1:
        raise BadValueError(
            f"the surfaces have {sorted(frames)} frames; every surface needs the same",
            field="num_frames",
        )
    positions = np.concatenate([c[0] for c in checked], axis=1)
    normals = nearest_anorms(np.concatenate([c[1] for c in checked], axis=1))
    uvs = np.concatenate([_one_tile(c[2]) for c in checked])
    starts = np.cumsum([0] + [c[0].shape[1] for c in checked])[:-1]
    corners = np.concatenate([c[3] + start for c, start in zip(checked, starts, strict=True)])
    f, n, _ = positions.shape
    track = np.concatenate(
        [
            np.ascontiguousarray(positions.transpose(1, 0, 2)).reshape(n, f * 3),
            normals.T.astype(np.float32),
        ],
        axis=1,
    )
    first, vertex_of = _first_use_unique(track)
    px = _pixels(uvs, skin_size)
    st_first, st_of = _first_use_unique(px)
    names = scene_frame_names(scene.frame_names)
    if len(names) != f:
        names = [f"frame{k}".encode() for k in range(f)]
    return SingleSurface(
        positions=np.ascontiguousarray(positions[:, first]),
        triangles=vertex_of[corners].astype(np.int64),
        texcoords_px=px[st_first],
        triangle_texcoords=st_of[corners].astype(np.int64),
        normals=np.ascontiguousarray(normals[:, first]),
        frame_names=names,
    )


def scene_skin_size(scene: ExportModel) -> tuple[int, int] | None:
    """(w, h) of the skin image found for the scene's first surface, None without one."""
    skin = scene.surfaces[0].skin if scene.surfaces else None
    if skin is None:
        return None
    if skin.pixels.ndim < 2:
        raise BadValueError(
            f"surfaces[0].skin is no image: its pixels are {skin.pixels.shape}", field="skins"
        )
    h, w = skin.pixels.shape[:2]
    return int(w), int(h)
