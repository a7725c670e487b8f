"""Types of the compiled ``_weld`` module (``_weld.c``); see :func:`..mesh.welded_corners`."""

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
