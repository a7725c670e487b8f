"""An MDL's poses as stored, for exact conversions (the ``quantized`` capability:
:class:`~quakemodels.core.quantized.QuantizedMesh`); imported when a conversion asks."""

from __future__ import annotations

import numpy as np

from ...core.palette import PaletteLike
from ...core.quantized import QuantizedMesh
from .layout import POSITION
from .reader import MdlReader
from .scene import frame_names


def quantized(m: MdlReader, *, palette: PaletteLike | None = None) -> QuantizedMesh:
    """The MDL's poses as stored (the ``quantized`` capability): every pose a frame (frame
    groups flattened in order) on the model's one grid, normal indices, triangles, the
    texcoord rows the triangles use (a seam vertex's back copy among them, as its own row),
    :func:`frame_names`, the skin size and every skin image (groups flattened) through
    ``palette`` (default: the model's)."""
    used, rows = np.unique(m.triangle_texcoords, return_inverse=True)
    num_poses = m.num_poses
    return QuantizedMesh(
        vertices=m._frame_vertices[:, :, POSITION],
        positions=m.positions,
        scales=np.tile(m.scale.astype(np.float32), (num_poses, 1)),
        translates=np.tile(m.origin.astype(np.float32), (num_poses, 1)),
        normal_indices=m.normal_indices,
        triangles=m.triangles.astype(np.int32),
        texcoords_px=m.texcoords_px[used].astype(np.int32),
        triangle_texcoords=rows.reshape(m.triangle_texcoords.shape).astype(np.int32),
        frame_names=frame_names(m),
        skin_size=(m.skin_width, m.skin_height),
        skin_images=m.skin_rgb(palette),
        num_source_frames=m.num_header_frames,
    )
