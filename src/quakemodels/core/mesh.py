"""Render-ready meshes, and the typed protocol every animated model format implements."""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, TypeVar, runtime_checkable

import numpy as np
import numpy.typing as npt

from .compiled import compiled
from .records import Frozen

if TYPE_CHECKING:
    from .findings import Finding

FloatArray = npt.NDArray[np.float32]
IntArray = npt.NDArray[np.int32]
T = TypeVar("T", bound=np.generic)


class SurfaceRange(NamedTuple):
    """Where one surface lies in a merged :class:`Mesh`: its ``name``, its rows of the mesh's
    vertex arrays (``vertices``: positions, normals, uvs, ids) and of its ``indices``
    (``triangles``)."""

    name: str
    vertices: range
    triangles: range


_ARRAY_FIELDS = ("positions", "normals", "uvs", "indices", "vertex_ids", "texcoord_ids")
"""The array fields of :class:`Mesh`, in its order."""


class Mesh(Frozen):
    """Render-ready indexed arrays for one frame; each distinct (vertex, texcoord) pair once.

    ``positions`` (N,3) float32, ``normals`` (N,3) float32, ``uvs`` (N,2) float32 (texcoords,
    no V flip), ``indices`` (T,3) uint32 into those, counter-clockwise seen from outside as
    glTF, OpenGL and three.js expect (the file's ``triangles`` wind the other way: see
    :func:`flip_winding`), ``vertex_ids`` (N,) int32 the model vertex
    each corner came from and ``texcoord_ids`` (N,) int32 its texcoord. The arrays are
    read-only views (copy one to edit it).

    ``surfaces`` is empty for the mesh of a single-surface format (MD2, MDL) or of one MD3
    surface; a model's merged mesh (:func:`merge_meshes`: an MD3's, IQM's or MD5's
    ``mesh(frame)``) lists each surface's rows as a :class:`SurfaceRange`, one or many, in
    the order of the model's surfaces and of its ``skin_images``.
    """

    positions: FloatArray
    normals: FloatArray
    uvs: FloatArray
    indices: npt.NDArray[np.uint32]
    vertex_ids: IntArray
    texcoord_ids: IntArray
    surfaces: tuple[SurfaceRange, ...] = ()

    def __post_init__(self) -> None:
        # Read-only views: a mesh shares arrays with its model's caches (vertex_ids, indices),
        # so an edit through one mesh must not reach the model or the next mesh.
        for name in _ARRAY_FIELDS:
            view = np.asarray(getattr(self, name)).view()
            view.flags.writeable = False
            object.__setattr__(self, name, view)

    @classmethod
    def of_new_arrays(
        cls,
        positions: FloatArray,
        normals: FloatArray,
        uvs: FloatArray,
        indices: npt.NDArray[np.uint32],
        vertex_ids: IntArray,
        texcoord_ids: IntArray,
        surfaces: tuple[SurfaceRange, ...] = (),
    ) -> Mesh:
        """A mesh of arrays that no one else holds writable (a reader's fresh per-frame
        arrays and its read-only caches, another mesh's arrays): made read-only in place,
        without the views the constructor takes to leave a caller's own arrays alone."""
        mesh = cls.__new__(cls)
        arrays = (positions, normals, uvs, indices, vertex_ids, texcoord_ids)
        for array in arrays:
            array.setflags(write=False)
        # The fields in one update of the instance's dict (frozen only guards __setattr__):
        # a call of object.__setattr__ per field cost 2 us more, on every first mesh.
        fields = mesh.__dict__
        fields.update(zip(_ARRAY_FIELDS, arrays, strict=True))
        fields["surfaces"] = surfaces
        return mesh

    def __repr__(self) -> str:
        parts = f", {len(self.surfaces)} surfaces" if self.surfaces else ""
        return f"<Mesh: {len(self.positions)} vertices, {len(self.indices)} triangles{parts}>"


def merge_meshes(meshes: Sequence[Mesh], names: Sequence[str]) -> Mesh:
    """One :class:`Mesh` of several surfaces' meshes (called ``names``), in order: positions,
    normals, uvs and ids concatenated, each surface's ``indices``, ``vertex_ids`` and
    ``texcoord_ids`` offset by the vertices before it, and ``surfaces`` their ranges. Geometry
    only: each surface's skin is the model's ``skin_images[k]``. No meshes: an empty mesh."""
    vertex_starts = [0, *itertools.accumulate(len(m.positions) for m in meshes)]
    triangle_starts = [0, *itertools.accumulate(len(m.indices) for m in meshes)]
    ranges = tuple(
        SurfaceRange(name, range(*vertex_starts[k : k + 2]), range(*triangle_starts[k : k + 2]))
        for k, name in enumerate(names)
    )
    if len(meshes) == 1:  # one surface: its own read-only arrays, nothing to offset or copy
        one = meshes[0]
        arrays = (one.positions, one.normals, one.uvs, one.indices)
        ids = (one.vertex_ids, one.texcoord_ids)
    elif meshes:
        base = vertex_starts[:-1]
        arrays = (
            np.concatenate([m.positions for m in meshes]),
            np.concatenate([m.normals for m in meshes]),
            np.concatenate([m.uvs for m in meshes]),
            np.concatenate([m.indices + np.uint32(b) for m, b in zip(meshes, base, strict=True)]),
        )
        ids = (
            np.concatenate([m.vertex_ids + np.int32(b) for m, b in zip(meshes, base, strict=True)]),
            np.concatenate(
                [m.texcoord_ids + np.int32(b) for m, b in zip(meshes, base, strict=True)]
            ),
        )
    else:
        arrays = (
            np.zeros((0, 3), np.float32),
            np.zeros((0, 3), np.float32),
            np.zeros((0, 2), np.float32),
            np.zeros((0, 3), np.uint32),
        )
        ids = (np.zeros(0, np.int32), np.zeros(0, np.int32))
    return Mesh.of_new_arrays(*arrays, *ids, surfaces=ranges)


@runtime_checkable
class AnimatedModel(Protocol):
    """What every mesh model offers (MD2, MD3, MDL, MD5, IQM): frames, clips, meshes, skin
    pictures, bounds, checks and export.

    Positions are Quake's model space (Z up); ``meshes(frame)`` gives one :class:`Mesh` per
    surface (one for single-surface formats), ``mesh(frame)`` the one mesh of every surface
    (merged, with their ranges in :attr:`Mesh.surfaces`). A model has at least one frame (a
    file with none is refused at load); ``frame`` counts from 0, negative from the end, and a
    frame past the model's is an IndexError, as for a list.
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

    def mesh(self, frame: int = 0) -> Mesh:
        """The render-ready mesh of every surface for ``frame``, as one (see :class:`Mesh`)."""
        ...

    @property
    def skin_images(self) -> Sequence[npt.NDArray[np.uint8] | None]:
        """The skin pictures, each (H,W,4) uint8 RGBA, top row first; None for a skin that
        cannot be found: one per stored skin name (MD2), per surface (MD3, MD5, IQM: the
        order of ``mesh(frame).surfaces``) or per skin image in the file (MDL). Looked up
        on first access as the model's ``export`` finds its skins (beside it, or through the
        game it belongs to), and cached."""
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


Corners = tuple[IntArray, IntArray, npt.NDArray[np.uint32]]
"""(vertex_ids (N,) int32, texcoord_ids (N,) int32, indices (T,3) uint32)."""


DENSE_PAIRS = 1 << 21
"""Up to this many possible (vertex, texcoord) pairs, :func:`corner_table` finds each pair's
first corner in a table over every pair (8 MB at most, touched only where pairs occur) instead
of sorting the corners: a handful of array operations, no sort."""

DENSE_PAIRS_FLOOR = 1 << 15
DENSE_PAIRS_PER_BYTE = 4


def dense_pairs_for(size: int) -> int:
    """The most possible pairs the table path may cover for a file of ``size`` bytes:
    :data:`DENSE_PAIRS`, and no more than 4 table entries (16 bytes) per byte of the file
    beyond the first 32,768, so that a small file naming many vertices and texcoords cannot
    make a table dozens of times its size (the parsing memory budget in fuzz/README.md)."""
    return min(DENSE_PAIRS, max(DENSE_PAIRS_FLOOR, DENSE_PAIRS_PER_BYTE * size))


def corner_table(
    triangles: npt.NDArray[np.integer[Any]],
    triangle_texcoords: npt.NDArray[np.integer[Any]],
    num_texcoords: int,
    num_vertices: int | None = None,
    dense_pairs: int = DENSE_PAIRS,
) -> Corners:
    """Distinct (vertex, texcoord) pairs of (T,3) triangles in first-use order, and the
    triangles over them: what a format with separate vertex and texcoord indices (MD2, MDL)
    needs to become one indexed mesh. ``num_vertices``, when the caller has checked every
    vertex index below it, bounds the pair keys without a pass over them; up to
    ``dense_pairs`` possible pairs (see :func:`dense_pairs_for`) take the table path."""
    tri_v = triangles.reshape(-1)
    tri_t = triangle_texcoords.reshape(-1)
    n = tri_v.size
    if n == 0:
        return np.zeros(0, np.int32), np.zeros(0, np.int32), np.zeros((0, 3), np.uint32)
    width = max(num_texcoords, 1)
    if num_vertices is not None and num_vertices * width <= dense_pairs:
        pair_key = tri_v.astype(np.intp)
        pair_key *= width
        pair_key += tri_t
        return _dense_corners(pair_key, width, num_vertices * width)
    shift = max(n - 1, 1).bit_length()
    # int32 keys when the packed (pair, corner) fits: half the bytes to sort, and numpy's
    # vectorised sort of 32-bit integers is about twice as fast.
    narrow = num_vertices is not None and num_vertices * width < 1 << (31 - shift)
    key: npt.NDArray[np.signedinteger[Any]] = tri_v.astype(np.int32 if narrow else np.int64)
    key *= width
    key += tri_t
    # Sort the corners by pair, ties in corner order, so that each pair's run starts at its
    # first use. Packing (pair, corner) into one integer and sorting the integers is several
    # times faster than a stable argsort; pairs too wide to pack take the argsort.
    largest = num_vertices * width if num_vertices is not None else int(key.max())
    if largest < 1 << (63 - shift):
        key <<= shift
        key |= np.arange(n, dtype=key.dtype)
        key.sort()
        order = key & ((1 << shift) - 1)
        key >>= shift
    else:
        order = np.argsort(key, kind="stable")
        key = key[order]
    is_start = np.empty(n, dtype=bool)
    is_start[0] = True
    np.not_equal(key[1:], key[:-1], out=is_start[1:])
    first = order.take(is_start.nonzero()[0])  # each pair's first corner, in pair order
    corners = np.sort(first)  # ... in first-use order: the new vertices
    # Each pair's new vertex: its first corner's place among the sorted first corners, read
    # from a table over the corners (a scatter and a gather cost less than a binary search).
    new_id = np.empty(n, dtype=np.uint32)
    new_id[corners] = np.arange(corners.size, dtype=np.uint32)
    pair = is_start.astype(np.intp).cumsum()  # 1 + the pair of each sorted corner
    pair -= 1
    indices = np.empty(n, dtype=np.uint32)
    indices[order] = new_id.take(first).take(pair)
    vertex_ids: IntArray = tri_v.take(corners).astype(np.int32, copy=False)
    texcoord_ids: IntArray = tri_t.take(corners).astype(np.int32, copy=False)
    return vertex_ids, texcoord_ids, indices.reshape(-1, 3)


def stored_corner_table(
    stored_v: npt.NDArray[np.uint16],
    stored_t: npt.NDArray[np.uint16],
    num_texcoords: int,
    num_vertices: int,
    dense_pairs: int = DENSE_PAIRS,
) -> Corners | None:
    """:func:`corner_table` of (T,3) vertex and texcoord indices as stored in a file, read
    as uint16 (a negative int16 reads as 32768 or more) and not yet checked: None when an
    index is out of range (the caller decodes the checked arrays to name it).

    One check instead of a pass over each array: a bad texcoord index shows in one maximum,
    and a bad vertex index makes its pair key reach past the table of every valid pair.
    """
    width, pairs = max(num_texcoords, 1), num_vertices * max(num_texcoords, 1)
    if stored_v.size == 0 or pairs > dense_pairs or max(num_vertices, width) > 1 << 15:
        if stored_v.size and (stored_v.max() >= num_vertices or stored_t.max() >= num_texcoords):
            return None
        return corner_table(stored_v, stored_t, num_texcoords, num_vertices, dense_pairs)
    # Work on (3,T) copies: numpy runs long rows of a row-major array many times faster than
    # rows of 3, and the keys return to corner order in one transposing copy.
    v_rows, t_rows = np.ascontiguousarray(stored_v.T), np.ascontiguousarray(stored_t.T)
    if t_rows.max() >= num_texcoords:
        return None
    key_rows = np.multiply(v_rows, width, dtype=np.intp)
    key_rows += t_rows
    try:
        return _dense_corners(key_rows.T.ravel(), width, pairs)
    except IndexError:  # a vertex index at or past num_vertices
        return None


def _compiled_weld() -> Callable[..., int] | None:
    module = compiled("quakemodels.core._weld")  # without it the numpy path serves
    weld: Callable[..., int] | None = None if module is None else module.weld
    return weld


WELD = _compiled_weld()
"""The compiled corner table (``_weld.c``, :func:`welded_corners`), or None when the install
had no C compiler or ``QUAKEMODELS_PURE_PYTHON`` is set (to any non-empty value)."""


def welded_corners(
    vertices: npt.NDArray[np.integer[Any]],
    texcoords: npt.NDArray[np.integer[Any]],
    num_texcoords: int,
    num_vertices: int,
) -> Corners | None:
    """:func:`corner_table` of (T,3) ``vertices`` and ``texcoords`` (integers, any strides,
    not yet checked) with the triangles in render order (:func:`flip_winding`),
    by the compiled weld: one pass over the corners, through a hash table of their pairs,
    instead of a few dozen numpy operations. None when the weld is not built, there are no
    triangles, an index is out of range (the caller's checked decode names it) or the pairs
    collide past the weld's budget (a file built for that: the sorting path is faster)."""
    rows = vertices.shape[0]
    if WELD is None or not rows or not (vertices.dtype.isnative and texcoords.dtype.isnative):
        return None
    vertex_ids = np.empty(3 * rows, np.int32)
    texcoord_ids = np.empty(3 * rows, np.int32)
    indices = np.empty((rows, 3), np.uint32)
    count: int = WELD(
        vertices,
        texcoords,
        num_texcoords,
        num_vertices,
        RENDER_ORDER,
        vertex_ids,
        texcoord_ids,
        indices,
    )
    if count < 0:
        return None
    # copies of the used part: the model keeps these, not the 3T-long scratch
    return vertex_ids[:count].copy(), texcoord_ids[:count].copy(), indices


def _dense_corners(key: npt.NDArray[np.intp], width: int, pairs: int) -> Corners:
    """:func:`corner_table` of the corners' pair keys ``vertex * width + texcoord`` (all
    below ``pairs``; IndexError else), through a table over every possible key. The keys are
    intp, numpy's index type: int32 keys would be converted by every scatter and gather."""
    pair_keys, indices = dense_first_use(key, pairs)
    vertex_ids = np.floor_divide(pair_keys, width, dtype=np.int32)
    texcoord_ids = np.subtract(pair_keys, vertex_ids * width, dtype=np.int32)
    return vertex_ids, texcoord_ids, indices


def dense_first_use(
    key: npt.NDArray[np.intp], size: int
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.uint32]]:
    """The distinct values of the corners' (3T,) ``key`` (each below ``size``; IndexError
    else) in first-use order, and (T,3) uint32 triangles over them: a table over every
    possible key, no sort."""
    n = key.size
    corner = _CORNERS[:n] if n <= _CORNERS.size else np.arange(n, dtype=np.int32)
    # Each key's first corner: its slots start above every corner, then the least corner
    # (ufunc.at applies every pair, so repeated keys are defined, unlike a fancy assignment).
    table = np.empty(size, np.int32)
    table[key] = n
    np.minimum.at(table, key, corner)
    first = table.take(key)
    is_first = first == corner
    corners = is_first.nonzero()[0]  # the first corners in corner order: first-use order
    new_id = np.empty(n, np.uint32)
    new_id[corners] = corner[: corners.size]  # int32 numbers below n: exact as uint32
    return key.take(corners), new_id.take(first).reshape(-1, 3)


_CORNERS = np.arange(1 << 16, dtype=np.int32)
"""0, 1, ... as int32, sliced by :func:`dense_first_use` for models of up to 65,536 corners:
a slice of a made array costs less than making one, on a path of a few dozen array operations
(read-only: every caller shares it)."""
_CORNERS.setflags(write=False)


def corner_mesh(
    positions: FloatArray, normals: FloatArray, texcoords: FloatArray, corners: Corners
) -> Mesh:
    """One frame's (V,3) ``positions`` and ``normals`` and the (S,2) ``texcoords`` gathered
    through a :func:`corner_table`."""
    vertex_ids, texcoord_ids, indices = corners
    # take: a few times faster than fancy indexing on these small gathers
    uvs = (
        np.take(texcoords, texcoord_ids, axis=0)
        if texcoord_ids.size
        else np.zeros((0, 2), np.float32)
    )
    return Mesh(
        positions=np.take(positions, vertex_ids, axis=0),
        normals=np.take(normals, vertex_ids, axis=0),
        uvs=uvs,
        indices=indices,
        vertex_ids=vertex_ids,
        texcoord_ids=texcoord_ids,
    )


RENDER_ORDER = (0, 2, 1)
"""The corner order that turns Quake's triangles into glTF's, and back: Quake stores them
clockwise seen from outside (the engines cull with ``glCullFace(GL_FRONT)``), glTF, OBJ,
OpenGL's default, three.js and Blender counter-clockwise. Swapping the last two corners turns
one into the other without moving the first corner or any vertex."""


FLIP_BY_COLUMNS = 256
"""From this many triangles on, :func:`flip_winding` copies columns instead of taking rows."""


def flip_winding(triangles: npt.NDArray[T]) -> npt.NDArray[T]:
    """(T,3) triangles with the other winding: corners 0, 2, 1 (a new array, same dtype).

    The one conversion between what the files store (MD2, MD3 and MDL ``triangles``,
    clockwise) and what renderers and interchange files expect (:class:`Mesh` and scene
    ``indices``, counter-clockwise); applied twice it gives the triangles back."""
    if len(triangles) < FLIP_BY_COLUMNS:
        return triangles.take(RENDER_ORDER, axis=1)
    # Three column copies: take along axis 1 pays a step per row of three (666 triangles:
    # 2.5 against 4.0 us; 5,000: 7.1 against 24.9), but costs less below a few hundred rows.
    flipped = np.empty(triangles.shape, triangles.dtype)
    for to, source in enumerate(RENDER_ORDER):
        flipped[:, to] = triangles[:, source]
    return flipped


def bounds_of(points: FloatArray) -> tuple[FloatArray, FloatArray]:
    """(mins, maxs), each (3,) float32, of (...,3) points; zeros when there are none."""
    p = points.reshape(-1, 3)
    if p.size == 0:
        zero = np.zeros(3, np.float32)
        return zero, zero.copy()
    return p.min(axis=0), p.max(axis=0)
