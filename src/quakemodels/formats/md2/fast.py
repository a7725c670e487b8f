"""Fast paths of the MD2 reader, kept apart from its plain decode (``reader.py``).

Each function computes what a plain method of :class:`~.reader.Md2Reader` gives, value for
value, straight from the file's bytes in fewer, larger numpy operations; each returns None
when the data holds something the plain path must name (a normal index past the table, a skin
size that is not positive), so that errors are raised in one place only. ``tests/test_md2_fast.py``
proves each equal to the plain path on the corpus and on synthetic files.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from ...core.mesh import Mesh
from ...core.trivertx import ANORMS, NUM_ANORMS, corner_texcoords, corner_trivertx, trivertx_columns
from .layout import (
    FLOAT,
    FRAME_HEADER_SIZE,
    NORMAL_INDEX,
    POSITION,
    TEX_POINT_WORD,
    VERTEX_SIZE,
)

FloatArray = npt.NDArray[np.float32]
IntArray = npt.NDArray[np.int32]

EXACT_FLOAT32 = 1 << 24
"""Every integer up to this is exact in float32."""

BLOCK_CORNERS = 8192
"""Frame corners decoded per step by :func:`corner_frames` (a 192 KiB scratch)."""

_COMPILED_LAYOUT = trivertx_columns(POSITION, NORMAL_INDEX, VERTEX_SIZE)
"""The spec's vertex is the layout the compiled decode reads (x, y, z, normal index)."""


def first_mesh(
    data: bytes,
    h: Any,
    frame: int,
    corners: tuple[IntArray, IntArray, npt.NDArray[np.uint32]],
    prefix_words: int,
    scale_words: Any,
    translate_words: Any,
    tex_point_words: int,
    st_words: Any,
) -> Mesh | None:
    """``Md2Reader.mesh(frame)`` from the bytes of that frame and of the texcoords only (no
    (F,V,3) array, no texcoord array of the model): ``h`` the header record, ``corners`` the
    reader's ``_mesh_corners``, the word columns those of the reader. None when the frame has
    a normal index past the table or the skin size is not positive."""
    vertex_ids, texcoord_ids, indices = corners
    at = h.ofs_frames + frame * h.bytes_per_frame
    stored = np.ndarray((h.vertices_per_frame, VERTEX_SIZE), np.uint8, data, at + FRAME_HEADER_SIZE)
    if h.num_tex_coords and (h.skin_width_px <= 0 or h.skin_height_px <= 0):
        return None
    stored_st = np.frombuffer(
        data, TEX_POINT_WORD, h.num_tex_coords * tex_point_words, h.ofs_tex_coords
    ).reshape(-1, tex_point_words)
    width, height = h.skin_width_px or 1, h.skin_height_px or 1
    # scale and translate as the plain decode has them: float32 widened to double
    with np.errstate(invalid="ignore"):  # a signalling NaN turns quiet: no warning
        prefix = np.frombuffer(data, FLOAT, prefix_words, at).astype(np.float64)
    if _COMPILED_LAYOUT:  # the compiled decode, when built (the same arrays)
        decoded = corner_trivertx(
            stored, vertex_ids, prefix[scale_words].tolist(), prefix[translate_words].tolist()
        )
        st = stored_st[:, st_words]
        uvs = (
            None if decoded is None else corner_texcoords(st, texcoord_ids, width, height, 1 << 31)
        )
        if decoded is not None and uvs is not None:
            return Mesh.of_new_arrays(*decoded, uvs, indices, vertex_ids, texcoord_ids)
    normal_indices = stored[:, NORMAL_INDEX]
    if normal_indices.size and normal_indices.max() >= NUM_ANORMS:
        return None
    if max(h.skin_width_px, h.skin_height_px) > EXACT_FLOAT32:
        return None  # a side not exact in float32: the plain path divides in double
    # Positions as the plain decode computes them (x * scale, then + translate, in double;
    # then float32), laid out (3,V) so each operation runs along V, not along 3.
    positions = np.array(stored[:, POSITION].T, dtype=np.float64, order="C")
    # inf/NaN as decode_axes gives
    with np.errstate(over="ignore", invalid="ignore"):
        positions *= prefix[scale_words, None]
        positions += prefix[translate_words, None]
        positions32 = positions.astype(np.float32)
    # Each texcoord once, then gathered. s / width in float32 rounds like the double
    # quotient rounded to float32 (the double has over 2 x 24 + 2 bits, so rounding twice
    # is exact for a quotient): the values `texcoords` gives.
    uvs = stored_st[:, st_words].astype(np.float32)
    if width == height:  # a square skin: one scalar divisor runs many times faster
        uvs /= np.float32(width)
    else:
        uvs /= np.array([width, height], dtype=np.float32)
    return Mesh.of_new_arrays(
        positions32.T.take(vertex_ids, axis=0),
        ANORMS.take(normal_indices.take(vertex_ids), axis=0),
        uvs.take(texcoord_ids, axis=0),
        indices,
        vertex_ids,
        texcoord_ids,
    )


def corner_frames(
    vertex_ids: IntArray,
    stored: npt.NDArray[np.uint8],
    scale: npt.NDArray[np.float64],
    translate: npt.NDArray[np.float64],
) -> tuple[FloatArray, FloatArray] | None:
    """``Md2Reader.corner_frames``: (k,N,3) float32 positions (a view of a C-contiguous
    (k,3,N) array) and C-contiguous (k,N,3) float32 normals at the N corners ``vertex_ids``,
    from the picked frames' (k,V,4) ``stored`` vertices and their (k,3) ``scale`` and
    ``translate`` in double; only the used vertices are decoded. None when a normal index is
    past the table."""
    normal_indices = stored[:, :, NORMAL_INDEX]
    if normal_indices.size and normal_indices.max() >= NUM_ANORMS:
        return None
    scale, translate = scale[:, :, None], translate[:, :, None]
    words = stored.view(np.uint32)[:, :, 0]  # (k,V): each stored vertex's 4 bytes
    k, n = words.shape[0], len(vertex_ids)
    positions = np.empty((k, 3, n), np.float32)
    normals = np.empty((k, n, 3), np.float32)
    # A few frames at a time: the double-precision scratch and the gathered words stay
    # small and in cache, instead of whole (k,3,N) temporaries in fresh memory.
    step = max(1, BLOCK_CORNERS // max(n, 1))
    scratch = np.empty((min(step, k), 3, n), np.float64)
    for start in range(0, k, step):
        stop = min(start + step, k)
        # Each used vertex's 4 bytes gathered as one word, then decoded where they landed.
        used = words[start:stop].take(vertex_ids, axis=1).view(np.uint8)
        used = used.reshape(stop - start, n, VERTEX_SIZE)
        # (b,3,N): each operation runs along N (see first_mesh), as the plain decode computes
        block = scratch[: stop - start]
        np.copyto(block, used[:, :, POSITION].transpose(0, 2, 1))
        with np.errstate(over="ignore", invalid="ignore"):  # inf/NaN as decode_axes
            block *= scale[start:stop]
            block += translate[start:stop]
            positions[start:stop] = block  # one rounding to float32, as astype
        # indices checked above: "clip" changes none and lets take write into `out`
        ANORMS.take(used[:, :, NORMAL_INDEX], axis=0, out=normals[start:stop], mode="clip")
    return positions.transpose(0, 2, 1), normals
