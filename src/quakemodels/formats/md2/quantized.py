"""An MD2's frames as stored, for exact conversions (the ``quantized`` capability:
:class:`~quakemodels.core.quantized.QuantizedMesh`); imported when a conversion asks."""

from __future__ import annotations

import numpy as np

from ...core.quantized import QuantizedMesh
from .layout import POSITION
from .reader import Md2Reader


def quantized(m: Md2Reader, *, palette: object = None) -> QuantizedMesh:
    """The MD2's frames as stored (the ``quantized`` capability): vertex bytes with each
    frame's scale and translate, normal indices, triangles and texcoords, frame names, the
    skin size; no skin images (an MD2 names its skins' files). ``palette`` is unused (an MD2
    holds no 8-bit image)."""
    return QuantizedMesh(
        vertices=m._frame_vertices[:, :, POSITION],
        positions=m.positions,
        scales=m.scales,
        translates=m.translates,
        normal_indices=m.normal_indices,
        triangles=m.triangles.astype(np.int32),
        texcoords_px=m.texcoords_px.astype(np.int32),
        triangle_texcoords=m.triangle_texcoords.astype(np.int32),
        # the names as the reader gives them (ASCII, other bytes as escapes), encoded back
        frame_names=tuple(name.encode("ascii") for name in m.frame_names),
        skin_size=(m.skin_width, m.skin_height),
    )
