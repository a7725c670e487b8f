"""Fast paths of the MDL reader, kept apart from its plain decode (``reader.py``).

Each function computes what a plain part of :class:`~.reader.MdlReader` gives, value for
value, straight from the file's bytes in fewer, larger operations; each returns None (or
False) when the data holds something the plain path must name (a frame group or a truncated
frame, a vertex index out of range, a normal index past the table, a skin size that is not
positive, a texcoord that leaves 32 bits), so that errors are raised in one place only.
``tests/test_mdl_fast.py`` proves each equal to the plain path on the corpus and on synthetic
files.
"""

from __future__ import annotations

from itertools import repeat
from typing import Any

import numpy as np

from ...core import trivertx
from ...core.mesh import Corners, Mesh, dense_first_use, flip_winding, welded_corners
from ...core.sections import columns, offset_of, word_columns
from ...core.trivertx import ANORMS, NUM_ANORMS, corner_texcoords, corner_trivertx, trivertx_columns
from .layout import NORMAL_INDEX, POSE_HEADER_SIZE, POSITION, TEXCOORD, TRIANGLE, TYPE_SIZE, VERTEX

FrameEntry = tuple[int, int, int, int, int | None]
"""One header frame as the section walk records it: the offset of its type word, the type,
its first pose, its number of poses and the offset of its intervals (None: a single pose)."""

# Triangles and texcoords read as rows of 4-byte words (every field of both is one).
_TRIANGLE_WORDS = TRIANGLE.itemsize // 4
_TRI_VERTICES = word_columns(TRIANGLE, "vertices", np.int32)
_FACES_FRONT_WORD = offset_of(TRIANGLE, "faces_front") // 4
_TEXCOORD_WORDS = TEXCOORD.itemsize // 4
_ON_SEAM_WORD = offset_of(TEXCOORD, "on_seam") // 4
_S_WORD = offset_of(TEXCOORD, "s") // 4
_ST_WORDS = columns([offset_of(TEXCOORD, name) // 4 for name in ("s", "t")])
_HALF_FLOAT32_MAX = float(np.finfo(np.float32).max) / 2
_COMPILED_LAYOUT = trivertx_columns(POSITION, NORMAL_INDEX, VERTEX.itemsize)
"""The spec's vertex is the layout the compiled decode reads (x, y, z, normal index)."""


def single_frames(
    data: bytes, ofs_frames: int, num_frames: int, pose_size: int
) -> tuple[tuple[FrameEntry, ...], tuple[int, ...], int] | None:
    """The frame walk's (frames, pose offsets, end) for the common model of ``num_frames``
    single frames of ``pose_size`` bytes each after their type word, found without a step per
    frame: the type words are checked a byte column at a time (a strided slice of the bytes,
    counted in C). None when the frames would pass the end of ``data`` or a type word is not
    zero (a frame group, or a word out of place): the walk then names any error."""
    step = TYPE_SIZE + pose_size
    end = ofs_frames + num_frames * step
    if not num_frames or end > len(data):
        return None
    for at in range(ofs_frames, ofs_frames + TYPE_SIZE):
        if data[at:end:step].count(0) != num_frames:
            return None
    frames = tuple(
        zip(range(ofs_frames, end, step), repeat(0), range(num_frames), repeat(1), repeat(None))
    )
    return frames, tuple(range(ofs_frames + TYPE_SIZE, end, step)), end


def grid_fits(scale: tuple[float, float, float], origin: tuple[float, float, float]) -> bool:
    """True when every ``v * scale + origin`` (v in 0..255) is a finite float32, so a decode
    needs no pass over its result to find one that is not (Python floats are doubles: the
    bound is computed in double; a NaN compares false)."""
    (sx, sy, sz), (ox, oy, oz) = scale, origin
    # unrolled: a generator over the three axes costs four times as much, on every decode
    return (
        255.0 * abs(sx) + abs(ox) < _HALF_FLOAT32_MAX
        and 255.0 * abs(sy) + abs(oy) < _HALF_FLOAT32_MAX
        and 255.0 * abs(sz) + abs(oz) < _HALF_FLOAT32_MAX
    )


def stored_corners(
    data: bytes, ofs_texcoords: int, ofs_triangles: int, num_verts: int, num_tris: int
) -> Corners | None:
    """``MdlReader._mesh_corners`` straight from the stored triangles and texcoords (no
    (T,3) array decoded): vertex_ids (N,) int32, texcoord_ids (N,) int32 rows of
    ``texcoords`` and (T,3) uint32 indices in render order. None when a vertex index is out
    of range or there are no vertices or no triangles.

    A corner's texcoord row is ``v`` or ``V + v``, so the row alone decides the (vertex, row)
    pair: the table of first uses is over the 2V rows (not the V x 2V pairs), and the vertex
    is the row modulo V.
    """
    nv, nt = num_verts, num_tris
    if not nv or not nt:
        return None
    words = np.frombuffer(data, np.uint32, nt * _TRIANGLE_WORDS, ofs_triangles)
    words = words.reshape(nt, _TRIANGLE_WORDS)
    stverts = np.frombuffer(data, np.int32, nv * _TEXCOORD_WORDS, ofs_texcoords)
    compiled = trivertx.COMPILED
    if compiled is not None:  # the compiled rows and weld, when built (the same arrays)
        vertices = words[:, _TRI_VERTICES]
        rows = np.empty((nt, 3), np.int32)
        on_seam, front = stverts[_ON_SEAM_WORD::_TEXCOORD_WORDS], words[:, _FACES_FRONT_WORD]
        if compiled.seam_rows(vertices, on_seam, front, rows) == 0:
            welded = welded_corners(vertices, rows, 2 * nv, nv)
            if welded is not None:
                return welded
    # (3,T) rows: numpy runs long rows many times faster than rows of 3. A negative index
    # reads as 2**31 or more, so one maximum checks both ends.
    v_rows = np.ascontiguousarray(words[:, _TRI_VERTICES].T)
    if v_rows.max() >= nv:
        return None
    back = (stverts[_ON_SEAM_WORD::_TEXCOORD_WORDS] != 0).take(v_rows)
    back &= words[:, _FACES_FRONT_WORD] == 0
    key_rows = np.multiply(back, nv, dtype=np.intp)
    key_rows += v_rows
    welded = welded_corners(v_rows.T, key_rows.T, 2 * nv, nv)
    if welded is not None:  # the compiled weld, when built (the same arrays)
        return welded
    rows_used, indices = dense_first_use(key_rows.T.ravel(), 2 * nv)
    vertex_ids = np.remainder(rows_used, nv, dtype=np.int32)
    return vertex_ids, rows_used.astype(np.int32), flip_winding(indices)


def first_mesh(
    data: bytes, h: Any, ofs_pose: int, ofs_texcoords: int, corners: Corners
) -> Mesh | None:
    """``MdlReader.mesh`` of the pose whose daliasframe_t is at ``ofs_pose``, from the bytes
    of its used vertices and texcoords only: ``h`` the header record, ``corners`` the
    reader's ``_mesh_corners``. None when the skin size is not positive, a vertex can leave
    float32's range, a normal index is past the table or a shifted texcoord leaves 32 bits."""
    nv, width, height = h.num_verts, h.skin_width, h.skin_height
    if width <= 0 or height <= 0 or not grid_fits(h.scale, h.origin):
        return None
    vertex_ids, texcoord_ids, indices = corners
    stored = np.ndarray((nv, VERTEX.itemsize), np.uint8, data, ofs_pose + POSE_HEADER_SIZE)
    stverts = np.frombuffer(data, np.int32, nv * _TEXCOORD_WORDS, ofs_texcoords)
    half = width // 2
    if int(stverts[_S_WORD::_TEXCOORD_WORDS].max()) + half >= 1 << 31:
        return None
    if _COMPILED_LAYOUT:  # the compiled decode, when built (the same arrays)
        decoded = corner_trivertx(stored, vertex_ids, h.scale, h.origin)
        st = stverts.reshape(nv, _TEXCOORD_WORDS)[:, _ST_WORDS]
        uvs = (
            None if decoded is None else corner_texcoords(st, texcoord_ids, width, height, nv, half)
        )
        if decoded is not None and uvs is not None:
            return Mesh.of_new_arrays(*decoded, uvs, indices, vertex_ids, texcoord_ids)
    if stored[:, NORMAL_INDEX].max() >= NUM_ANORMS:
        return None
    used = stored.take(vertex_ids, axis=0)
    # One (5,N) double array, rows x, y, z, s, t, so that each operation runs along N (not
    # along 3) and serves positions and texcoords at once. Positions as the plain decode
    # computes them (v * scale, then + origin; then float32); texcoords as ``texcoords``
    # does (pixels, + half the width on the back of the seam, over the skin size; then
    # float32). The rows' other factors are * 1, + 0 and / 1: exact on these finite values.
    values = np.empty((5, len(vertex_ids)))
    values[:3] = used[:, POSITION].T
    values[3:] = stverts.reshape(nv, _TEXCOORD_WORDS).take(vertex_ids, axis=0)[:, _ST_WORDS].T
    np.add(values[3], half, out=values[3], where=texcoord_ids >= nv)
    sx, sy, sz = h.scale
    ox, oy, oz = h.origin
    factors = np.array(
        ((sx, sy, sz, 1.0, 1.0), (ox, oy, oz, 0.0, 0.0), (1.0, 1.0, 1.0, width, height))
    )[:, :, None]
    values *= factors[0]
    values += factors[1]
    values /= factors[2]
    single = values.astype(np.float32)
    return Mesh.of_new_arrays(
        np.ascontiguousarray(single[:3].T),
        ANORMS.take(used[:, NORMAL_INDEX], axis=0),
        np.ascontiguousarray(single[3:].T),
        indices,
        vertex_ids,
        texcoord_ids,
    )
