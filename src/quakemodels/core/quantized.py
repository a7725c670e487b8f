"""Byte-compressed frames as MD2 and MDL both store them: the neutral source of an exact
conversion between formats of one mesh on a 256-step grid (``trivertx_t``).

A format whose files hold these serves them as the ``quantized`` capability
(``quantized(model, *, palette=None) -> QuantizedMesh``); a target's ``build`` reads
:class:`QuantizedMesh` (``Source.quantized()``) and never the other format's model. What
both formats store exactly travels as it is: the vertex bytes with each frame's scale and
translate, the normal indices, the triangles and their texcoord rows on the skin's pixel grid,
frame names, the skin size and skin images.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt


@dataclass(frozen=True, eq=False)
class QuantizedMesh:
    """One mesh of F frames, V vertices, T triangles and S texcoords, as stored.

    ``vertices`` (F,V,3) uint8 grid steps and ``scales``, ``translates`` (F,3) float32 each
    frame's grid (MD2's own per frame; MDL's one grid repeated); ``positions`` (F,V,3)
    float32 their ``vertices * scale + translate`` as the source's reader decodes them (in
    double, rounded once; a grid past float32's range is refused there); ``normal_indices``
    (F,V) uint8 into the 162-entry anorm table; ``triangles`` (T,3) int32 vertex indices as
    stored (clockwise seen from outside); ``texcoords_px`` (S,2) int32 skin pixels and
    ``triangle_texcoords`` (T,3) int32 their rows per corner; ``frame_names`` F names (the
    bytes before the NUL; an MDL names an empty one after its clip); ``skin_size`` (width,
    height); ``skin_images`` (K,H,W,3) uint8 RGB (K = 0 when the source names its skins'
    files instead); ``num_source_frames`` the source's own frame entries before they were
    flattened into F frames (a frame group of an MDL counts once).
    """

    vertices: npt.NDArray[np.uint8]
    positions: npt.NDArray[np.float32]
    scales: npt.NDArray[np.float32]
    translates: npt.NDArray[np.float32]
    normal_indices: npt.NDArray[np.uint8]
    triangles: npt.NDArray[np.int32]
    texcoords_px: npt.NDArray[np.int32]
    triangle_texcoords: npt.NDArray[np.int32]
    frame_names: tuple[bytes, ...]
    skin_size: tuple[int, int]
    skin_images: npt.NDArray[np.uint8] = field(
        default_factory=lambda: np.zeros((0, 0, 0, 3), np.uint8)
    )
    num_source_frames: int | None = None
    """None: the same as :attr:`num_frames` (no frame was part of a group)."""

    @property
    def num_frames(self) -> int:
        """F, the frames (every pose of a frame group one of them)."""
        return int(self.vertices.shape[0])

    @property
    def num_vertices(self) -> int:
        """V, the vertices of each frame."""
        return int(self.vertices.shape[1])

    @property
    def source_frames(self) -> int:
        """The source's own frame entries (:attr:`num_source_frames`, else F)."""
        return self.num_frames if self.num_source_frames is None else self.num_source_frames


__all__ = ["QuantizedMesh"]
