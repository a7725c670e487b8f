"""Fast paths of the MD3 reader, kept apart from its plain decode (``reader.py``).

Each function computes what a plain method of :class:`~.reader.Md3Surface` gives, value for
value, straight from the file's bytes; each returns None when the data holds something the
plain path must name (a triangle index out of range), so that errors are raised in one place
only. ``tests/test_md3_fast.py`` proves each equal to the plain path on the corpus and on
synthetic files.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ...core.mesh import Mesh, flip_winding
from .layout import (
    INDEX,
    NORMAL_WORD,
    POSITION_WORDS,
    TEX_COORD_ITEM,
    VERTEX,
    VERTEX_WORD,
    VERTEX_WORDS,
    XYZ_SCALE,
)

FloatArray = npt.NDArray[np.float32]


def first_mesh(
    data: bytes,
    base: int,
    ofs_triangles: int,
    num_triangles: int,
    ofs_vertices: int,
    ofs_tex_coords: int,
    num_vertices: int,
    frame: int,
    normal_table: FloatArray,
) -> Mesh | None:
    """``Md3Surface.mesh(frame)`` of the surface at ``base`` from the bytes of that frame,
    the stored indices and texcoords, read in place (no other frame decoded, nothing copied
    that needs no change): the surface header's offsets and counts as given, ``normal_table``
    the reader's (65536,3) table of packed normals. None when a triangle index is outside
    0..N-1."""
    n = num_vertices
    ids = np.arange(n, dtype=np.int32)
    indices = np.frombuffer(data, INDEX, 3 * num_triangles, base + ofs_triangles)
    indices = indices.view(np.uint32).reshape(-1, 3)  # a negative index reads as 2**31 or more
    if indices.size and indices.max() >= n:
        return None
    words = np.frombuffer(
        data, VERTEX_WORD, VERTEX_WORDS * n, base + ofs_vertices + frame * n * VERTEX.itemsize
    ).reshape(n, VERTEX_WORDS)
    # int16 → float32 is exact and so is scaling by a power of two: the plain decode's values
    positions = np.empty((n, 3), np.float32)
    np.multiply(words[:, POSITION_WORDS], np.float32(XYZ_SCALE), out=positions)
    return Mesh.of_new_arrays(
        positions,
        normal_table.take(words[:, NORMAL_WORD].view(np.uint16), axis=0, mode="clip"),
        np.frombuffer(data, TEX_COORD_ITEM, 2 * n, base + ofs_tex_coords).reshape(-1, 2),
        flip_winding(indices),
        ids,
        ids,
    )
