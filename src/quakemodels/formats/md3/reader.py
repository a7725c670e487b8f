"""Quake III MD3 models: a fast numpy facade over the generated Kaitai parser.

Opening a model parses its 108-byte header with the generated ``Quake3Md3`` class, walks the
chain of surface headers (each surface starts ``ofs_end`` bytes after the previous one) and
checks every count, offset and size with Python integers, so no header value can overflow or
point outside the data. Arrays are decoded with numpy on first use, validated and cached; a
decode that fails raises and caches nothing. ``m.spec`` is the generated object.

This module is the plain decode; the fast path of a fresh surface's ``mesh`` (one frame read
in place) lives beside it in ``fast.py``, proven equal by ``tests/test_md3_fast.py``.

Conventions:

* Positions are Quake's model space (Z up), ``float32`` of the spec's ``x_compressed / 64.0``
  (exact: a 16-bit integer over a power of two).
* Normals follow Quake III's renderer: the vertex's two angle bytes ``lng`` (file byte 6) and
  ``lat`` (file byte 7) are angles of ``byte * 2π / 256``; ``normal = (cos lat · sin lng,
  sin lat · sin lng, cos lng)``, computed in double from the spec's angle instances and
  rounded once to ``float32``.
* ``texcoords`` are the file's float (s, t), t growing downwards as the image is stored (no V
  flip): glTF's convention; OpenGL-style consumers use 1 - t.

Load errors versus engine findings. A :class:`ModelFormatError` is raised for everything
Q2PRO's MD3 loader (``src/refresh/models.c``) rejects, and for a few things it should:

* ``num_frames`` 1..1024 (MD3_MAX_FRAMES); ``num_surfaces`` 0..32 (MD3_MAX_SURFACES; Q2PRO
  wants at least one, but a model of tags only, as weapons' hand models are, is valid here);
  ``num_tags`` not negative;
* per surface: ``num_frames`` equal to the header's; ``num_shaders`` 0..256
  (MD3_MAX_SHADERS); ``num_vertices`` 3..4096 (Q2PRO's minimum, MD3_MAX_VERTS); ``num_triangles``
  1..6144 (Q2PRO's minimum and its TESS_MAX_INDICES / 3, below MD3_MAX_TRIANGLES = 8192);
* every section (frames, tags, surfaces and each surface's shaders, triangles, texcoords and
  vertices) inside the file, not inside the header it follows, and aligned as Q2PRO requires
  (4 bytes; 2 for vertices); ``ofs_end`` at least a surface header and a multiple of 4;
  ``ofs_end`` not past the end of the file (ioquake3 copies that many bytes);
* no two sections sharing bytes: the surfaces' headers and sections, frames and tags are
  pairwise disjoint. id's tools write each surface's data after its own header; a file whose
  surfaces point at one shared block would decode to many times its size (32 surfaces × one
  vertex block), so the decoded size stays proportional to the file's;
* triangle indices below the surface's vertex count (checked when ``triangles`` is decoded);
* every name (model, frame, tag, surface, shader) NUL-terminated within its field.

Engine-specific limits are findings for a ``check`` command, not load errors: more than 16 tags
(MD3_MAX_TAGS, a limit of id's tools only); ioquake3's renderer dropping surfaces with 1000 or
more vertices or 2000 or more triangles (SHADER_MAX_VERTEXES); a surface magic other than IDP3
(no engine reads it); ``ofs_end`` short of the file's size; tag names that differ between
frames; a nonzero ``num_skins``.
"""

from __future__ import annotations

import itertools
import math
from collections import namedtuple
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt

from ...core.facade import (
    ModelFile,
    check_header,
    decoded,
    frame_index,
    parse_spec,
    read_only,
)
from ...core.frames import PerFrame, rows
from ...core.mesh import Mesh, flip_winding, merge_meshes
from ...core.names import plural, terminated_name, terminated_names
from ...core.sections import (
    Span,
    first_bad_index,
    fits,
    offset_of,
    read_record,
    read_section,
    span_error,
)
from ...errors import BadValueError, TruncatedError
from ...kaitai.quake3_md3 import Quake3Md3
from .fast import first_mesh as fast_first_mesh
from .layout import (
    FLOAT,
    FRAME,
    FRAME_MAXS,
    FRAME_MINS,
    FRAME_NAME_BYTES,
    FRAME_NAME_COLUMNS,
    FRAME_NAME_OFFSET,
    FRAME_ORIGIN,
    FRAME_RADIUS,
    FRAME_WIDTH,
    HEADER,
    HEADER_FIELDS,
    HEADER_OFFSETS,
    HEADER_SIZE,
    INDEX,
    MAGIC,
    NAME_SIZE,
    NORMAL_WORD,
    POSITION_COLUMNS,
    POSITION_WORDS,
    SHADER,
    SHADER_INDEX,
    SHADER_NAME,
    SURFACE_FIELDS,
    SURFACE_HEADER,
    SURFACE_HEADER_SIZE,
    SURFACE_OFFSETS,
    TAG,
    TAG_AXES,
    TAG_NAME_BYTES,
    TAG_NAME_COLUMNS,
    TAG_NAME_OFFSET,
    TAG_ORIGIN,
    TAG_WIDTH,
    TEX_COORD,
    TEX_COORD_ITEM,
    TRIANGLE,
    VERSION,
    VERTEX,
    VERTEX_WORD,
    VERTEX_WORDS,
    XYZ_SCALE,
)

# What the reader refuses and the engine limits checks report (re-exported: check.py,
# write.py and users import them from here)
from .limits import MAX_FRAMES as MAX_FRAMES
from .limits import MAX_SHADERS as MAX_SHADERS
from .limits import MAX_SURFACES as MAX_SURFACES
from .limits import MAX_TRIANGLES as MAX_TRIANGLES
from .limits import MAX_VERTICES as MAX_VERTICES
from .limits import MD3_MAX_TAGS as MD3_MAX_TAGS
from .limits import MIN_TRIANGLES as MIN_TRIANGLES
from .limits import MIN_VERTICES as MIN_VERTICES
from .limits import Q3_MAX_SURFACE_TRIANGLES as Q3_MAX_SURFACE_TRIANGLES
from .limits import Q3_MAX_SURFACE_VERTS as Q3_MAX_SURFACE_VERTS

# The header's values by their spec names (a record read through the generated layout).
_Header = namedtuple("_Header", HEADER_FIELDS)  # type: ignore[misc]


FloatArray = npt.NDArray[np.float32]
IntArray = npt.NDArray[np.int32]

# cos and sin of the 256 angles a normal byte encodes, from the spec's own expression
# (byte * 2 * pi / 256, evaluated left to right in double) so results match it bit for bit.
_ANGLES = [b * 2 * 3.141592653589793 / 256 for b in range(256)]
_COS = np.array([math.cos(a) for a in _ANGLES], dtype=np.float64)
_SIN = np.array([math.sin(a) for a in _ANGLES], dtype=np.float64)

_NORMAL_TABLE: FloatArray | None = None

# Below this many vertices (all frames), positions decode in one multiply of the vertex words'
# x, y, z slice; above, word by word (faster from about 700 on).
_FEW_VERTICES = 768


# Md3Surface.__init__ unpacks its header's values in this order (one record read).
_SURFACE_ORDER = (
    "magic name flags num_frames num_shaders num_vertices num_triangles"
    " ofs_triangles ofs_shaders ofs_tex_coords ofs_vertices ofs_end"
)
if tuple(_SURFACE_ORDER.split()) != SURFACE_FIELDS:  # pragma: no cover
    raise ImportError("quake3_md3.ksy: the surface header's fields moved")


# One byte per vertex a surface may have: triangles check their indices by a lookup in these.
_VERTEX_SLOTS = read_only(np.zeros(MAX_VERTICES, dtype=np.uint8))


def _plain_name(raw: bytes) -> str | None:
    """The text before the first NUL of a name field when there is a NUL and the text is ASCII
    (what :func:`terminated_name` returns for it, without building its messages); None for
    anything else, which ``terminated_name`` reports."""
    end = raw.find(b"\0")
    text = raw[:end]
    return text.decode("ascii") if end >= 0 and text.isascii() else None


def normal_table() -> FloatArray:
    """(65536,3) float32: the unit normal of every stored 16-bit normal ``lng | lat << 8``.

    Each entry is ``(cos lat · sin lng, sin lat · sin lng, cos lng)`` in double, rounded once to
    float32, so a lookup equals decoding each vertex on its own; built once, on first use.
    """
    global _NORMAL_TABLE
    if _NORMAL_TABLE is None:
        code = np.arange(65536)
        lng, lat = code & 0xFF, code >> 8
        table = np.empty((65536, 3), dtype=np.float64)
        table[:, 0] = _COS[lat] * _SIN[lng]
        table[:, 1] = _SIN[lat] * _SIN[lng]
        table[:, 2] = _COS[lng]
        _NORMAL_TABLE = read_only(table.astype(np.float32))
    return _NORMAL_TABLE


@dataclass(frozen=True)
class Md3Frames:
    """Per-frame records. ``names`` (F) str; ``mins``, ``maxs``, ``origins`` (F,3) float32;
    ``radii`` (F,) float32; ``names_raw`` the 16 stored bytes of each name."""

    names: list[str]
    names_raw: list[bytes]
    mins: FloatArray
    maxs: FloatArray
    origins: FloatArray
    radii: FloatArray


@dataclass(frozen=True)
class Md3Tags:
    """Attachment points. ``names`` (K) str as in frame 0 (bytes past ASCII as escapes),
    ``names_raw`` (K) their 64 stored bytes; ``names_per_frame`` (F lists of K);
    ``origins`` (F,K,3) float32; ``axes`` (F,K,3,3) float32, ``axes[f, k, i]`` the i-th axis
    vector (forward, left, up) of tag k in frame f, as stored."""

    names: list[str]
    origins: FloatArray
    axes: FloatArray
    varying: list[list[str]] | None = None
    """Each frame's names when some frame's differ from frame 0's; None when all are alike."""
    names_raw: list[bytes] | None = None
    """Frame 0's name fields as stored (64 bytes each); None when built without them."""

    @cached_property
    def names_per_frame(self) -> list[list[str]]:
        """F lists of K names (a list per frame, built on first use when all are alike)."""
        if self.varying is not None:
            return self.varying
        return [list(self.names) for _ in range(len(self.origins))]

    def index(self, name: str) -> int:
        """The index of the tag called ``name`` (KeyError when there is none)."""
        try:
            return self.names.index(name)
        except ValueError:
            raise KeyError(f"no tag {name!r}; tags: {', '.join(self.names)}") from None


@dataclass(frozen=True)
class Md3Shader:
    """One shader of a surface: its ``name`` (may be empty; bytes past ASCII as escapes), the
    stored ``shader_index`` and ``name_raw``, the name's 64 bytes as stored."""

    name: str
    shader_index: int
    name_raw: bytes = b""


class Md3Surface(PerFrame):
    """One MD3 surface: a mesh with its own vertices, animated by frames.

    ``N`` vertices, ``T`` triangles, ``F`` frames. Arrays (decoded on first use, cached):

    * ``triangles`` (T,3) int32 vertex indices, checked below N
    * ``texcoords`` (N,2) float32 (s, t), t down, no V flip
    * ``positions`` (F,N,3) float32; ``positions_raw`` (F,N,3) int16 (units of 1/64)
    * ``normals`` (F,N,3) float32; ``normal_angles`` (F,N,2) uint8 (lng, lat) as stored

    Per frame, decoding only the frames asked for: ``frame_positions``, ``frame_normals``,
    ``frames_positions``, ``frames_normals``, ``lerp`` and ``mesh``.

    ``offset`` is the surface's absolute start; ``ofs_*`` are relative to it, as in the file.
    """

    ARRAYS: tuple[str, ...] = ("shaders", "triangles", "texcoords", "positions", "normals")
    """Every lazily decoded array, in the order :meth:`load_all` decodes them."""

    magic: bytes
    name_raw: bytes
    flags: int
    num_frames: int
    num_shaders: int
    num_vertices: int
    num_triangles: int
    ofs_triangles: int
    ofs_shaders: int
    ofs_tex_coords: int
    ofs_vertices: int
    ofs_end: int

    def __init__(self, data: bytes, index: int, offset: int) -> None:
        self._data = data
        self.index = index
        self.offset = offset
        # One read of the whole header as Python values (ints; bytes for the V fields), in the
        # spec's field order (checked at import): a numpy scalar per field would cost a call each.
        (
            self.magic,
            self.name_raw,
            self.flags,
            self.num_frames,
            self.num_shaders,
            self.num_vertices,
            self.num_triangles,
            self.ofs_triangles,
            self.ofs_shaders,
            self.ofs_tex_coords,
            self.ofs_vertices,
            self.ofs_end,
        ) = read_record(data, SURFACE_HEADER, offset)
        name = _plain_name(self.name_raw)
        if name is None:  # no NUL, or non-ASCII bytes: the error, or the warning and escapes
            at = offset + SURFACE_OFFSETS["name"]
            name = terminated_name(self.name_raw, f"surfaces[{index}].name", "name", at)
        self.name = name

    @property
    def header(self) -> dict[str, Any]:
        """The surface header's fields by their spec names, in file order."""
        values = {name: getattr(self, name) for name in SURFACE_FIELDS if name != "name"}
        values["name"] = self.name
        return {name: values[name] for name in SURFACE_FIELDS}

    def _where(self, field: str) -> str:
        return f"surfaces[{self.index}].{field}"

    @decoded
    def shaders(self) -> list[Md3Shader]:
        """The surface's shaders, names NUL-terminated."""
        base = self.offset + self.ofs_shaders
        n = self.num_shaders
        if n == 1:
            # The usual one shader with an ASCII name: one record read and the text before its
            # NUL, what terminated_name gives (anything else takes the general path below).
            item = read_record(self._data, SHADER, base)
            name = _plain_name(item[SHADER_NAME])
            if name is not None:
                return [
                    Md3Shader(
                        name=name, shader_index=item[SHADER_INDEX], name_raw=item[SHADER_NAME]
                    )
                ]
        # Every shader as (name bytes, index) Python values: a record read each for the few a
        # surface usually has, one call for many.
        if n <= 4:
            items = [read_record(self._data, SHADER, base + SHADER.itemsize * i) for i in range(n)]
        else:
            items = read_section(self._data, SHADER, n, base).tolist()
        at = base + offset_of(SHADER, "name")
        where = self._where("shaders")
        raws = [item[SHADER_NAME] for item in items]
        for i, raw in enumerate(raws):  # every NUL checked before any name is decoded
            if b"\0" not in raw:
                terminated_name(raw, f"{where}[{i}].name", "name", at + SHADER.itemsize * i)
        return [
            Md3Shader(
                name=terminated_name(raw, f"{where}[{i}].name", "name", at + SHADER.itemsize * i),
                shader_index=item[SHADER_INDEX],
                name_raw=raw,
            )
            for i, (raw, item) in enumerate(zip(raws, items, strict=True))
        ]

    @decoded
    def triangles(self) -> IntArray:
        """(T,3) int32 vertex indices, each checked to be in 0..N-1."""
        base = self.offset + self.ofs_triangles
        # T is 1 or more (checked at open): a plain view, no empty case (as for the texcoords,
        # vertices and frames below, never empty either).
        values = np.frombuffer(self._data, INDEX, 3 * self.num_triangles, base).reshape(-1, 3)
        out = values.astype(np.int32)
        # Checked on the copy by a lookup in N slots, which raises for any index past them:
        # read as unsigned, a negative index is 2**31 or more. (A lookup, not a reduction:
        # the normals run take on every load anyway, a first reduction costs several µs.)
        try:
            _VERTEX_SLOTS[: self.num_vertices].take(out.view(np.uint32), mode="raise")
        except IndexError:
            pass
        else:
            return out
        bad = first_bad_index(values, self.num_vertices)
        if bad is not None:
            offset = base + TRIANGLE.itemsize * bad.row + 4 * bad.column
            raise BadValueError(
                f"{self._where(f'triangles[{bad.row}].vertex_indices[{bad.column}]')}="
                f"{bad.value} at offset {offset} is outside 0..{self.num_vertices - 1}"
                f" ({bad.number} bad {'index' if bad.number == 1 else 'indices'})",
                field="vertex_indices",
                offset=offset,
            )
        return out  # pragma: no cover - the reduction above and first_bad_index agree

    @decoded
    def texcoords(self) -> FloatArray:
        """(N,2) float32 (s, t) as stored: t grows downwards in the image."""
        base = self.offset + self.ofs_tex_coords
        st = np.frombuffer(self._data, TEX_COORD_ITEM, 2 * self.num_vertices, base)
        return st.reshape(-1, 2).astype(np.float32)

    @decoded
    def _vertex_words(self) -> npt.NDArray[np.int16]:
        """(F,N,W) int16 view of the vertex section (the spec's vertex as 16-bit words: x, y,
        z, and the packed normal at the word offsets layout.py derives from it)."""
        return np.frombuffer(
            self._data,
            VERTEX_WORD,
            VERTEX_WORDS * self.num_frames * self.num_vertices,
            self.offset + self.ofs_vertices,
        ).reshape(self.num_frames, self.num_vertices, VERTEX_WORDS)

    @decoded
    def positions_raw(self) -> npt.NDArray[np.int16]:
        """(F,N,3) int16 positions as stored, in units of 1/64."""
        return self._xyz_of(self._vertex_words)

    @decoded
    def positions(self) -> FloatArray:
        """(F,N,3) float32 positions in model units (stored value / 64, exact)."""
        return self._positions_of(self._vertex_words)

    def _decode_positions(self, frames: npt.NDArray[np.intp]) -> FloatArray:
        """(k,N,3) float32 positions of ``frames`` only (see :class:`PerFrame`)."""
        return self._positions_of(rows(self._vertex_words, frames))

    @staticmethod
    def _xyz_of(words: npt.NDArray[np.int16]) -> npt.NDArray[np.int16]:
        """(F,N,3) int16 x, y, z of (F,N,W) vertex words, a new C-contiguous array."""
        # Sliced to (F,N,3) in one go, numpy would loop over runs of 3 words (a few ns per
        # run, most of the cost); copied word by word, each copy is one long strided loop.
        xyz = np.empty((*words.shape[:2], 3), dtype=np.int16)
        for column, word in enumerate(POSITION_COLUMNS):
            xyz[:, :, column] = words[:, :, word]
        return xyz

    @classmethod
    def _positions_of(cls, words: npt.NDArray[np.int16]) -> FloatArray:
        # int16 → float32 is exact and so is scaling by a power of two: no double needed.
        scale = np.float32(XYZ_SCALE)
        if words.shape[0] * words.shape[1] < _FEW_VERTICES:
            # One frame of a small surface (a mesh): one multiply of the (F,N,3) slice costs
            # less than the three calls below.
            out = np.empty((*words.shape[:2], 3), dtype=np.float32)
            np.multiply(words[:, :, POSITION_WORDS], scale, out=out)
            return out
        # Many: the cast and the scale run over contiguous memory (about 3x faster than one
        # multiply of the (F,N,3) slice, see _xyz_of).
        out = cls._xyz_of(words).astype(np.float32)
        out *= scale
        return out

    @decoded
    def normal_angles(self) -> npt.NDArray[np.uint8]:
        """(F,N,2) uint8 normal angle bytes as stored: (lng, lat)."""
        packed = self._vertex_words[:, :, NORMAL_WORD].view(np.uint16)  # the code's bits
        return np.stack([packed & 0xFF, packed >> 8], axis=-1).astype(np.uint8)

    @decoded
    def normals(self) -> FloatArray:
        """(F,N,3) float32 unit normals decoded as Quake III's renderer does."""
        return self._normals_of(self._vertex_words)

    def _decode_normals(self, frames: npt.NDArray[np.intp]) -> FloatArray:
        """(k,N,3) float32 normals of ``frames`` only (see :class:`PerFrame`)."""
        return self._normals_of(rows(self._vertex_words, frames))

    @staticmethod
    def _normals_of(words: npt.NDArray[np.int16]) -> FloatArray:
        packed = words[:, :, NORMAL_WORD].view(np.uint16)
        # Every 16-bit code has its row, so clipping never moves an index: it only spares
        # take's bounds check (about 5% of the lookup).
        out: FloatArray = np.take(normal_table(), packed, axis=0, mode="clip")
        return out

    def _frame_index(self, frame: int) -> int:
        return frame_index(frame, self.num_frames)

    def mesh(self, frame: int = 0) -> Mesh:
        """Render-ready indexed arrays for ``frame`` (decoding that frame only): MD3 vertices
        already carry one texcoord each, so vertices, uvs and indices are the surface's own
        (``vertex_ids`` and ``texcoord_ids`` are both 0..N-1); the triangles in render order
        (counter-clockwise: :func:`flip_winding` of ``triangles``)."""
        f = frame_index(frame, self.num_frames)
        cached = self.__dict__
        if not ("_vertex_words" in cached or "triangles" in cached or "texcoords" in cached):
            mesh = fast_first_mesh(
                self._data,
                self.offset,
                self.ofs_triangles,
                self.num_triangles,
                self.ofs_vertices,
                self.ofs_tex_coords,
                self.num_vertices,
                f,
                normal_table(),
            )
            if mesh is not None:
                return mesh
        return self._plain_mesh(f)

    def _plain_mesh(self, frame: int) -> Mesh:
        """:meth:`mesh` by the plain decode (raises for what :func:`.fast.first_mesh` leaves)."""
        ids = np.arange(self.num_vertices, dtype=np.int32)
        return Mesh(
            positions=self.frame_positions(frame),
            normals=self.frame_normals(frame),
            uvs=self.texcoords,
            indices=flip_winding(self.triangles.astype(np.uint32)),
            vertex_ids=ids,
            texcoord_ids=ids.copy(),
        )

    def load_all(self) -> Md3Surface:
        """Decode and validate every array of this surface now; returns self."""
        for name in self.ARRAYS:
            getattr(self, name)
        return self

    def __repr__(self) -> str:
        return (
            f"<Md3Surface {self.name!r}: {self.num_vertices} vertices,"
            f" {self.num_triangles} triangles, {self.num_frames} frames>"
        )


class Md3Reader(ModelFile):
    """A Quake III MD3 model (IDP3 version 15).

    * ``frames`` :class:`Md3Frames`: names, mins, maxs, origins (F,3), radii (F,)
    * ``tags`` :class:`Md3Tags`: names (K), origins (F,K,3), axes (F,K,3,3)
    * ``surfaces`` list of :class:`Md3Surface`, each with triangles (T,3), texcoords (N,2),
      positions and normals (F,N,3) and ``mesh(frame)``
    * ``meshes(frame)`` one :class:`~quakemodels.core.mesh.Mesh` per surface, ``mesh(frame)``
      the surfaces merged into one

    The header's values are attributes: ``num_frames`` (F, 1..1024), ``num_tags`` (K),
    ``num_surfaces``, ``num_skins`` (unused), ``flags``, ``ofs_frames``, ``ofs_tags``,
    ``ofs_surfaces``, ``ofs_end``. ``name`` is where the model came from (a path, or None);
    ``model_name`` the header's name (``model_name_raw`` its 64 bytes).
    """

    HEADER_FIELDS = HEADER_FIELDS
    ARRAYS: tuple[str, ...] = ("frames", "tags", "animations")
    """The model's own lazily decoded parts (each surface has its own ``ARRAYS``)."""

    def __init__(self, data: bytes, *, name: str | None = None) -> None:
        """Wrap ``data``; prefer the ``from_*`` constructors. Parses and checks the layout."""
        self._data = data
        self.name = name
        self._h = _Header._make(
            check_header(
                data,
                magic=MAGIC,
                version=VERSION,
                layout=HEADER,
                format_name="MD3",
                field_offsets=HEADER_OFFSETS,
            )
        )
        at = HEADER_OFFSETS["name"]
        raw_name = data[at : at + NAME_SIZE]
        model_name = _plain_name(raw_name)
        if model_name is None:  # bytes past ASCII load as escapes (ioquake3 reads bytes)
            model_name = terminated_name(raw_name, "name", "name", at)
        self.model_name_raw = raw_name
        """The header's 64 name bytes as stored (NUL and any junk after it included)."""
        self.model_name = model_name
        # The header's counts and offsets as plain attributes.
        spec = self._h
        self.flags: int = spec.flags
        """Header flags (unused)."""
        self.num_frames: int = spec.num_frames
        """F."""
        self.num_tags: int = spec.num_tags
        """K, tags per frame."""
        self.num_surfaces: int = spec.num_surfaces
        """Surfaces."""
        self.num_skins: int = spec.num_skins
        """Unused skin count."""
        self.ofs_frames: int = spec.ofs_frames
        """Offset of frames."""
        self.ofs_tags: int = spec.ofs_tags
        """Offset of tags."""
        self.ofs_surfaces: int = spec.ofs_surfaces
        """Offset of the first surface."""
        self.ofs_end: int = spec.ofs_end
        """The header's end offset."""
        self._check_header()
        self._surfaces = self._walk_surfaces()

    # -- header -------------------------------------------------------------------------------

    def _parse_spec(self) -> Quake3Md3:
        return parse_spec(Quake3Md3.from_bytes, self._data)

    @property
    def spec(self) -> Quake3Md3:
        """The generated Kaitai object (spec names, lazy per-item instances)."""
        return self._spec

    def _bad(self, field: str, message: str) -> BadValueError:
        offset = HEADER_OFFSETS[field]
        value = getattr(self._h, field)
        return BadValueError(
            f"{field}={value} at offset {offset} {message}", field=field, offset=offset
        )

    def _require(self, span: Span, align: int, header_size: int) -> None:
        """The section inside the data, after the ``header_size``-byte header at its base,
        aligned to ``align`` (Python ints throughout)."""
        error = span_error(span, len(self._data), header_size, align)
        if error is not None:
            raise error

    def _check_header(self) -> None:
        """Counts within limits and the frames, tags and first surface inside the data."""
        s = self._h
        size = len(self._data)
        if not 1 <= s.num_frames <= MAX_FRAMES:
            raise self._bad("num_frames", f"is outside 1..{MAX_FRAMES}")
        if s.num_tags < 0:
            raise self._bad("num_tags", "is negative")
        if not 0 <= s.num_surfaces <= MAX_SURFACES:
            raise self._bad("num_surfaces", f"is outside 0..{MAX_SURFACES}")
        if not 0 <= s.ofs_end <= size:
            raise TruncatedError(
                f"ofs_end={s.ofs_end} at offset {HEADER_OFFSETS['ofs_end']} is outside the file"
                f" ({size} bytes)",
                field="ofs_end",
                offset=HEADER_OFFSETS["ofs_end"],
            )
        for field, what, count, item in (
            ("ofs_frames", "frames", s.num_frames, FRAME.itemsize),
            ("ofs_tags", "tags", s.num_frames * s.num_tags, TAG.itemsize),
            ("ofs_surfaces", "surface headers", s.num_surfaces, SURFACE_HEADER_SIZE),
        ):
            if fits(getattr(s, field), count, item, size, HEADER_SIZE, 0, 4):
                continue
            span = Span(
                field, HEADER_OFFSETS[field], what, getattr(s, field), count, item, at_field=True
            )
            self._require(span, 4, HEADER_SIZE)

    def _walk_surfaces(self) -> list[Md3Surface]:
        """Follow the chain of surfaces, checking each header and its sections."""
        size = len(self._data)
        surfaces: list[Md3Surface] = []
        pos = self.ofs_surfaces
        link_field, link_offset = "ofs_surfaces", HEADER_OFFSETS["ofs_surfaces"]
        for i in range(self.num_surfaces):
            if pos + SURFACE_HEADER_SIZE > size:
                raise TruncatedError(
                    f"surfaces[{i}] at offset {pos} (from {link_field} at offset {link_offset})"
                    f" needs a {SURFACE_HEADER_SIZE}-byte header; the file has {size} bytes",
                    field=link_field,
                    offset=link_offset,
                )
            surface = Md3Surface(self._data, i, pos)
            self._check_surface(surface)
            surfaces.append(surface)
            link_field, link_offset = "ofs_end", pos + SURFACE_OFFSETS["ofs_end"]
            pos += surface.ofs_end
        self._check_disjoint(surfaces)
        return surfaces

    def _check_disjoint(self, surfaces: list[Md3Surface]) -> None:
        """No two non-empty sections (frames, tags, surface headers and every surface's
        shaders, triangles, texcoords, vertices) share a byte: a BadValueError at the offset
        field of the later-starting one (:meth:`_raise_overlap`)."""
        # The common case with bare (start, end) pairs; labels only once a fault is found.
        f, k = self.num_frames, self.num_tags
        spans = [
            (self.ofs_frames, self.ofs_frames + f * FRAME.itemsize),
            (self.ofs_tags, self.ofs_tags + f * k * TAG.itemsize),
        ]
        for surf in surfaces:
            base = surf.offset
            at = base + surf.ofs_shaders, base + surf.ofs_triangles
            uv, xyz = base + surf.ofs_tex_coords, base + surf.ofs_vertices
            spans += (
                (base, base + SURFACE_HEADER_SIZE),
                (at[0], at[0] + surf.num_shaders * SHADER.itemsize),
                (at[1], at[1] + surf.num_triangles * TRIANGLE.itemsize),
                (uv, uv + surf.num_vertices * TEX_COORD.itemsize),
                (xyz, xyz + surf.num_vertices * surf.num_frames * VERTEX.itemsize),
            )
        # Sorted by start, the non-empty spans are disjoint when each starts at or after the
        # end of the one before (then the ends grow too).
        spans.sort()
        end = 0
        for start, stop in spans:
            if stop > start:
                if start < end:
                    self._raise_overlap(surfaces)
                end = stop

    def _raise_overlap(self, surfaces: list[Md3Surface]) -> None:
        """The BadValueError of :meth:`_check_disjoint`, at the offset field of the
        later-starting section of the first overlapping pair (labels break ties)."""
        s = self._h
        # (start, end, label, field, the field's offset)
        spans: list[tuple[int, int, str, str, int]] = [
            (s.ofs_frames, s.ofs_frames + s.num_frames * FRAME.itemsize, "frames", "ofs_frames",
             HEADER_OFFSETS["ofs_frames"]),
            (s.ofs_tags, s.ofs_tags + s.num_frames * s.num_tags * TAG.itemsize, "tags",
             "ofs_tags", HEADER_OFFSETS["ofs_tags"]),
        ]  # fmt: skip
        for surf in surfaces:
            what = f"surfaces[{surf.index}]"
            link = HEADER_OFFSETS["ofs_surfaces"] if surf.index == 0 else -1
            spans.append(
                (surf.offset, surf.offset + SURFACE_HEADER_SIZE, f"{what} header", "ofs_end", link)
            )
            for field, count, item in (
                ("ofs_shaders", surf.num_shaders, SHADER.itemsize),
                ("ofs_triangles", surf.num_triangles, TRIANGLE.itemsize),
                ("ofs_tex_coords", surf.num_vertices, TEX_COORD.itemsize),
                ("ofs_vertices", surf.num_vertices * surf.num_frames, VERTEX.itemsize),
            ):
                start = surf.offset + getattr(surf, field)
                at = surf.offset + SURFACE_OFFSETS[field]
                spans.append((start, start + count * item, f"{what}.{field}", field, at))
        spans = sorted(span for span in spans if span[1] > span[0])
        for (a0, a1, a_label, _, _), (b0, b1, b_label, field, at) in itertools.pairwise(spans):
            if b0 < a1:
                where = f" at offset {at}" if at >= 0 else ""
                raise BadValueError(
                    f"{b_label}{where}: bytes {b0}..{b1 - 1} overlap {a_label}'s bytes"
                    f" {a0}..{a1 - 1} (sections may not share data)",
                    field=field,
                    offset=at if at >= 0 else b0,
                )

    def _surface_bad(self, surf: Md3Surface, field: str, message: str) -> BadValueError:
        at = surf.offset + SURFACE_OFFSETS[field]
        return BadValueError(
            f"surfaces[{surf.index}].{field}={getattr(surf, field)} at offset {at} {message}",
            field=field,
            offset=at,
        )

    def _check_surface(self, surf: Md3Surface) -> None:
        if surf.num_frames != self.num_frames:
            raise self._surface_bad(
                surf, "num_frames", f"is not the header's num_frames={self.num_frames}"
            )
        if not 0 <= surf.num_shaders <= MAX_SHADERS:
            raise self._surface_bad(surf, "num_shaders", f"is outside 0..{MAX_SHADERS}")
        if not MIN_VERTICES <= surf.num_vertices <= MAX_VERTICES:
            raise self._surface_bad(
                surf, "num_vertices", f"is outside {MIN_VERTICES}..{MAX_VERTICES}"
            )
        if not MIN_TRIANGLES <= surf.num_triangles <= MAX_TRIANGLES:
            raise self._surface_bad(
                surf, "num_triangles", f"is outside {MIN_TRIANGLES}..{MAX_TRIANGLES}"
            )
        size = len(self._data)
        if surf.ofs_end < SURFACE_HEADER_SIZE:
            raise self._surface_bad(
                surf, "ofs_end", f"is smaller than the {SURFACE_HEADER_SIZE}-byte surface header"
            )
        if surf.offset + surf.ofs_end > size:
            at = surf.offset + SURFACE_OFFSETS["ofs_end"]
            raise TruncatedError(
                f"surfaces[{surf.index}].ofs_end={surf.ofs_end} at offset {at}: the surface from"
                f" offset {surf.offset} runs past the end of the file ({size} bytes)",
                field="ofs_end",
                offset=at,
            )
        if surf.ofs_end % 4:
            raise self._surface_bad(surf, "ofs_end", "is not a multiple of 4")
        base, header = surf.offset, SURFACE_HEADER_SIZE
        if (
            fits(surf.ofs_shaders, surf.num_shaders, SHADER.itemsize, size, header, base, 4)
            and fits(
                surf.ofs_triangles, surf.num_triangles, TRIANGLE.itemsize, size, header, base, 4
            )
            and fits(
                surf.ofs_tex_coords, surf.num_vertices, TEX_COORD.itemsize, size, header, base, 4
            )
            and fits(
                surf.ofs_vertices,
                surf.num_vertices * surf.num_frames,
                VERTEX.itemsize,
                size,
                header,
                base,
                2,
            )
        ):
            return
        sections = (
            ("ofs_shaders", "shaders", surf.num_shaders, SHADER.itemsize, 4),
            ("ofs_triangles", "triangles", surf.num_triangles, TRIANGLE.itemsize, 4),
            ("ofs_tex_coords", "texcoords", surf.num_vertices, TEX_COORD.itemsize, 4),
            ("ofs_vertices", "vertices", surf.num_vertices * surf.num_frames, VERTEX.itemsize, 2),
        )
        for field, items, count, item, align in sections:
            span = Span(
                field,
                base + SURFACE_OFFSETS[field],
                items,
                getattr(surf, field),
                count,
                item,
                base,
                f"surfaces[{surf.index}].",
                at_field=True,
            )
            self._require(span, align, SURFACE_HEADER_SIZE)

    # -- frames and tags ----------------------------------------------------------------------

    @decoded
    def frames(self) -> Md3Frames:
        """Per-frame bounds, origins, radii and names (see :class:`Md3Frames`)."""
        f = self.num_frames  # 1 or more: checked at open
        # The section as rows of floats, one view (a name's bytes are its float columns').
        floats = np.frombuffer(self._data, FLOAT, f * FRAME_WIDTH, self.ofs_frames)
        floats = floats.reshape(f, FRAME_WIDTH)
        # One frame, or one name in every frame (the exporter's, as id's tools write it): one
        # comparison of all the name bytes; terminated_names reads names that differ (and 2 to
        # 4 alike: it checks and warns about those one by one).
        block = floats[:, FRAME_NAME_COLUMNS].tobytes()
        raw = block[: len(block) // f]
        name = _plain_name(raw)
        if (f == 1 or f > 4) and name is not None and block == raw * f:
            names, names_raw = [name] * f, [raw] * f
        else:
            names, names_raw = terminated_names(
                floats.view(np.uint8)[:, FRAME_NAME_BYTES],
                "frames",
                self.ofs_frames + FRAME_NAME_OFFSET,
                FRAME.itemsize,
            )
        return Md3Frames(
            names=names,
            names_raw=names_raw,
            mins=floats[:, FRAME_MINS].copy(),
            maxs=floats[:, FRAME_MAXS].copy(),
            origins=floats[:, FRAME_ORIGIN].copy(),
            radii=floats[:, FRAME_RADIUS].copy().reshape(-1),
        )

    @property
    def frame_names(self) -> list[str]:
        """Frame names (often the exporter's name, not an animation's), as ``frames.names``."""
        return list(self.frames.names)

    @decoded
    def tags(self) -> Md3Tags:
        """Tags of every frame (see :class:`Md3Tags`)."""
        f, k = self.num_frames, self.num_tags
        floats = read_section(self._data, FLOAT, f * k * TAG_WIDTH, self.ofs_tags)
        floats = floats.reshape(f * k, TAG_WIDTH)
        at = self.ofs_tags + TAG_NAME_OFFSET
        # Frame 0's names, each NUL-terminated ASCII (the usual case: no messages built), else
        # as terminated_names reads them (the first bad one raises; non-ASCII ones warn).
        size = TAG_NAME_BYTES.stop - TAG_NAME_BYTES.start
        head = floats[:k, TAG_NAME_COLUMNS].tobytes()
        plain = [_plain_name(head[i : i + size]) for i in range(0, len(head), size)]
        first = [name for name in plain if name is not None]
        if len(first) < k:
            names = floats.view(np.uint8)[:, TAG_NAME_BYTES]
            first, _ = terminated_names(names[:k], "tags", at, TAG.itemsize, raws=False)
        # Every frame names its tags alike (id's tools write them so): one comparison of all
        # the name bytes, and the first frame's names serve every frame.
        varying = None
        if f > 1 and floats[:, TAG_NAME_COLUMNS].tobytes() != head * f:
            names = floats.view(np.uint8)[:, TAG_NAME_BYTES]
            flat_names, _ = terminated_names(names, "tags", at, TAG.itemsize, raws=False)
            varying = [flat_names[i * k : (i + 1) * k] for i in range(f)]
        return Md3Tags(
            names=first,
            origins=floats[:, TAG_ORIGIN].copy().reshape(f, k, 3),
            axes=floats[:, TAG_AXES].copy().reshape(f, k, 3, 3),
            varying=varying,
            names_raw=[head[i : i + size] for i in range(0, len(head), size)],
        )

    # -- surfaces -----------------------------------------------------------------------------

    @property
    def surfaces(self) -> list[Md3Surface]:
        """The surfaces in file order (headers checked at open; arrays decoded on use)."""
        return list(self._surfaces)

    def surface(self, name: str) -> Md3Surface:
        """The first surface called ``name`` (KeyError when there is none)."""
        for s in self._surfaces:
            if s.name == name:
                return s
        raise KeyError(
            f"no surface {name!r}; surfaces: {', '.join(s.name for s in self._surfaces)}"
        )

    def _frame_index(self, frame: int) -> int:
        return frame_index(frame, self.num_frames)

    @decoded
    def animations(self) -> dict[str, range]:
        """One clip, ``all``, over every frame: MD3 clip names live in a player's
        ``animation.cfg``, and frame names are tool junk (``(from 3DSMax)``)."""
        return {"all": range(self.num_frames)}

    def meshes(self, frame: int = 0) -> list[Mesh]:
        """One render-ready :class:`Mesh` per surface for ``frame``."""
        f = self._frame_index(frame)
        return [s.mesh(f) for s in self._surfaces]

    def mesh(self, frame: int = 0) -> Mesh:
        """Every surface's render-ready mesh for ``frame`` merged into one (what code written
        for MD2's one mesh reads): positions, normals and uvs concatenated in surface order,
        indices, ``vertex_ids`` and ``texcoord_ids`` offset by the vertices before them, and
        ``Mesh.surfaces`` each surface's name and rows. Geometry only: surface k's picture is
        ``skin_images[k]``, its shader names ``surfaces[k].shaders``. A model of tags only
        gives an empty mesh; a frame outside the model's is an IndexError."""
        return merge_meshes(self.meshes(frame), [s.name for s in self._surfaces])

    @property
    def bounds(self) -> tuple[FloatArray, FloatArray]:
        """(mins, maxs), each (3,) float32, over every vertex of every surface and frame."""
        points = [s.positions.reshape(-1, 3) for s in self._surfaces if s.num_vertices]
        if not points:
            zero = np.zeros(3, np.float32)
            return zero, zero.copy()
        p = np.concatenate(points)
        return p.min(axis=0), p.max(axis=0)

    def load_all(self) -> Md3Reader:
        """Decode and validate every array now (a full load); returns self."""
        self.frames  # noqa: B018 - decoding is the point
        self.tags  # noqa: B018
        # The small sections of every surface first, then the vertices: decoding a surface's
        # vertices (megabytes of arrays and a 768 KB normal table) evicts the Python and numpy
        # state the small decoders run on, which then cost several times more.
        for s in self._surfaces:
            s.shaders  # noqa: B018
            s.triangles  # noqa: B018
            s.texcoords  # noqa: B018
        for s in self._surfaces:  # the rest of Md3Surface.ARRAYS
            s.positions  # noqa: B018
            s.normals  # noqa: B018
        return self

    def __repr__(self) -> str:
        label = f" {self.name!r}" if self.name else ""
        return (
            f"<Md3{label}: {plural(self.num_frames, 'frame')}, {plural(self.num_tags, 'tag')},"
            f" {plural(self.num_surfaces, 'surface')}>"
        )
