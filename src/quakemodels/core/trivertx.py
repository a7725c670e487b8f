"""Vertex normals of the byte-compressed frames of Quake 1 (MDL) and Quake II (MD2).

Both formats store a frame's vertices as the engines' ``trivertx_t``: three bytes of position on
a grid and one byte that indexes the same 162-entry table of unit normals (Quake II kept
Quake 1's ``anorms.h``). What differs is only where a frame's vertices sit in the file (MD2:
a fixed frame size after ``ofs_frames``; MDL: the offsets its section walk found) and what an
error calls a frame (MD2's frames, MDL's poses), so :class:`TrivertxNormals` decodes the
normals for both from those few facts.

The table itself is the one home of that fact: :data:`ANORMS`, read from the value instance
``anorms_table`` of ``ksy/quake2_md2.ksy`` as ``make generate`` lays it out (the generated
``CONSTANTS``), without parsing any file. Encoding (positions onto the byte grid, vectors to
the nearest table entry) is in :mod:`.trivertx_write`, so that reading a model loads none of it.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np
import numpy.typing as npt

from ..errors import BadValueError
from ..kaitai.quake2_md2_layout import CONSTANTS
from .compiled import compiled
from .facade import decoded, read_only
from .frames import rows

FloatArray = npt.NDArray[np.float32]

ANORMS: FloatArray = read_only(
    np.asarray(CONSTANTS["ROOT"]["anorms_table"], np.float64).astype(np.float32)
)
"""(162,3) float32 unit normals (id's ``anorms.h``), read-only: each value the spec's literal
rounded once to float32, as the generated parser's double value would be."""
NUM_ANORMS = len(ANORMS)
if ANORMS.shape != (162, 3):  # pragma: no cover - guards a wrong ksy edit
    raise RuntimeError(f"the spec's anorms_table has shape {ANORMS.shape}, not (162, 3)")


def _compiled() -> ModuleType | None:
    weld = compiled("quakemodels.core._weld")  # without it the numpy paths serve
    # a build from before these decodes (an editable install not rebuilt) has the weld only
    new = weld is not None and all(
        hasattr(weld, name) for name in ("trivertx", "texcoords", "seam_rows")
    )
    return weld if new else None


COMPILED = _compiled()
"""The compiled decodes (``_weld.c``: ``trivertx``, ``texcoords``, and MDL's ``seam_rows``),
or None when the install had no C compiler or ``QUAKEMODELS_PURE_PYTHON`` is set (to any
non-empty value)."""


def _int32_row(ids: npt.NDArray[Any]) -> bool:
    """True for the ids the compiled decodes take: C-contiguous int32 (every corner table's)."""
    return ids.dtype == np.int32 and ids.flags.c_contiguous


def trivertx_columns(position: Any, normal_index: int, size: int) -> bool:
    """True when a stored vertex of ``size`` bytes is x, y, z then the normal index (a spec's
    ``position`` columns and ``normal_index`` byte): the layout the compiled decode reads."""
    return size == 4 and normal_index == 3 and np.arange(size)[position].tolist() == [0, 1, 2]


def corner_trivertx(
    stored: npt.NDArray[np.uint8],
    vertex_ids: npt.NDArray[np.int32],
    scale: tuple[float, float, float],
    translate: tuple[float, float, float],
) -> tuple[FloatArray, FloatArray] | None:
    """One frame's (V,4) uint8 ``stored`` vertices (x, y, z, normal index; C-contiguous) at
    the N corners ``vertex_ids`` (int32, C-contiguous) by the compiled decode: (N,3) float32
    positions ``v * scale + translate`` (in double, then float32, as the plain decode) and
    (N,3) float32 normals from :data:`ANORMS`. None when the module is not built, a vertex id
    is out of range or any of the V normal indices is past the table (the caller's checked
    decode names it)."""
    if COMPILED is None or not _int32_row(vertex_ids):
        return None
    n = len(vertex_ids)
    positions = np.empty((n, 3), np.float32)
    normals = np.empty((n, 3), np.float32)
    if COMPILED.trivertx(stored, vertex_ids, scale, translate, ANORMS, positions, normals):
        return None
    return positions, normals


def corner_texcoords(
    st: npt.NDArray[np.integer[Any]],
    texcoord_ids: npt.NDArray[np.int32],
    width: int,
    height: int,
    shift_from: int,
    shift: int = 0,
) -> FloatArray | None:
    """The (S,2) integer pixel texcoords ``st`` (any strides) at the N corners
    ``texcoord_ids`` (int32, C-contiguous) by the compiled decode: (N,2) float32
    ``s / width, t / height`` of row id, each in double then float32, as the plain decode;
    an id at ``shift_from`` or more (an MDL's row V + v, the back of a seam) reads row
    id - shift_from and adds ``shift`` to s. None when the module is not built or a row is
    out of range."""
    if COMPILED is None or not _int32_row(texcoord_ids):
        return None
    uvs = np.empty((len(texcoord_ids), 2), np.float32)
    if COMPILED.texcoords(st, texcoord_ids, shift_from, shift, width, height, uvs):
        return None
    return uvs


def anorms() -> FloatArray:
    """The table of 162 vertex normals Quake 1 and II share, (162,3) float32, read-only."""
    return ANORMS


class TrivertxNormals:
    """``normal_indices``, ``normals`` and the per-frame ``_decode_normals`` of
    :class:`~quakemodels.core.frames.PerFrame`, for a reader whose frames hold ``trivertx_t``
    vertices (F frames: an MDL's poses). The reader gives:

    * ``_frame_vertices``: (F,V,4) uint8 view of every frame's stored vertices;
    * ``_NORMAL_INDEX``: the normal index's byte column in a stored vertex (the spec's);
    * ``_FRAMES_FIELD``: what an error message calls the frames (``frames``, ``poses``);
    * ``_normal_index_offset(frame, vertex)``: the file offset of that vertex's normal index.
    """

    _NORMAL_INDEX: int
    _FRAMES_FIELD: str

    @property
    def _frame_vertices(self) -> npt.NDArray[np.uint8]:
        raise NotImplementedError  # pragma: no cover - every format defines its own

    def _normal_index_offset(self, frame: int, vertex: int) -> int:
        raise NotImplementedError  # pragma: no cover - every format defines its own

    @decoded
    def normal_indices(self) -> npt.NDArray[np.uint8]:
        """(F,V) uint8 indices into the 162-entry normal table (not range-checked)."""
        return np.ascontiguousarray(self._frame_vertices[:, :, self._NORMAL_INDEX])

    @decoded
    def normals(self) -> FloatArray:
        """(F,V,3) float32 unit normals from the 162-entry normal table Quake 1 and II share."""
        return self._normals_of(self.normal_indices, None)

    def _decode_normals(self, frames: npt.NDArray[np.intp]) -> FloatArray:
        """(k,V,3) float32 normals of ``frames`` only (see :class:`PerFrame`)."""
        cached = self.__dict__.get("normal_indices")
        if cached is not None:
            return self._normals_of(rows(cached, frames), frames)
        return self._normals_of(
            rows(self._frame_vertices, frames)[:, :, self._NORMAL_INDEX], frames
        )

    def _normals_of(
        self, idx: npt.NDArray[np.uint8], frames: npt.NDArray[np.intp] | None
    ) -> FloatArray:
        """(k,V,3) float32 normals of (k,V) uint8 normal indices, each checked to be in the
        table; ``frames`` the frame of each row (None: row k is frame k), for the error's
        field and offset."""
        table = ANORMS
        # one reduction in the common case; the search for the first bad one only on error
        if idx.size and idx.max() >= len(table):
            bad = np.flatnonzero(idx >= len(table))
            row, vertex = divmod(int(bad[0]), idx.shape[-1])
            frame = row if frames is None else int(frames[row])
            offset = self._normal_index_offset(frame, vertex)
            raise BadValueError(
                f"{self._FRAMES_FIELD}[{frame}].vertices[{vertex}].normal_index="
                f"{int(idx.flat[bad[0]])} at offset {offset} is not below {len(table)}"
                f" ({bad.size} such vertices)",
                field="normal_index",
                offset=offset,
            )
        # take: ~4x faster than indexing; "clip" skips the bounds check made just above
        out: FloatArray = np.take(table, idx, axis=0, mode="clip")
        return out
