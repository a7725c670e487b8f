"""Types of the compiled ``_weld`` module (``_weld.c``); see :func:`..mesh.welded_corners`,
:func:`..trivertx.corner_trivertx` and :func:`..trivertx.corner_texcoords`."""

from typing import Any

import numpy as np
import numpy.typing as npt

def weld(
    vertices: npt.NDArray[np.integer[Any]],
    texcoords: npt.NDArray[np.integer[Any]],
    num_texcoords: int,
    num_vertices: int,
    order: tuple[int, int, int],
    vertex_ids: npt.NDArray[np.int32],
    texcoord_ids: npt.NDArray[np.int32],
    indices: npt.NDArray[np.uint32],
) -> int:
    """Distinct (vertex, texcoord) pairs in first-use order into ``vertex_ids`` and
    ``texcoord_ids``, triangles over them (corners taken in ``order``) into ``indices``;
    their count, -1 when an index is out of range, -2 when the pairs collide past a budget."""

def trivertx(
    stored: npt.NDArray[np.uint8],
    vertex_ids: npt.NDArray[np.int32],
    scale: tuple[float, float, float],
    translate: tuple[float, float, float],
    anorms: npt.NDArray[np.float32],
    positions: npt.NDArray[np.float32],
    normals: npt.NDArray[np.float32],
) -> int:
    """Stored vertices at the corners into ``positions`` and ``normals``; 0, or -1 when a
    vertex id is out of range or a normal index is past the table."""

def texcoords(
    st: npt.NDArray[np.integer[Any]],
    texcoord_ids: npt.NDArray[np.int32],
    shift_from: int,
    shift: float,
    width: float,
    height: float,
    uvs: npt.NDArray[np.float32],
) -> int:
    """Pixel texcoords at the corners over the skin size into ``uvs``; 0, or -1 when an id
    is out of range."""

def seam_rows(
    vertices: npt.NDArray[np.integer[Any]],
    on_seam: npt.NDArray[np.integer[Any]],
    faces_front: npt.NDArray[np.integer[Any]],
    rows: npt.NDArray[np.int32],
) -> int:
    """Each corner's MDL texcoord row (v, or V + v on the back of a seam) into ``rows``; 0,
    or -1 when a vertex is out of range."""
