"""Quake II MD2 models: a fast numpy facade over the generated Kaitai parser.

Opening a model parses only its 68-byte header with the generated ``Quake2Md2`` class and checks
that every section the header describes lies inside the data. Each array is then decoded on
first use with numpy, at the offsets that header gives, validated, and cached. ``m.spec`` is the
generated object for spec-driven access (its per-vertex objects are slow; the arrays are not).

This module is the plain decode, read top to bottom; the fast paths of ``mesh`` and
``corner_frames`` (straight from the bytes of one frame, or of the used vertices) live beside
it in ``fast.py``, each proven equal to the plain path by ``tests/test_md2_fast.py``.

Conventions:

* Positions are Quake's model space (Z up), ``float32`` of the spec's value
  ``x_compressed * scale.x + translate.x`` computed in double: bit-identical to the spec.
* ``texcoords`` are ``s / skin_width, t / skin_height`` with t growing downwards, as the skin
  image is stored (no V flip). glTF uses the same convention; OpenGL-style consumers use 1 - t.
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Iterator, Mapping, Sequence
from functools import cached_property
from typing import Any, Literal, NamedTuple, overload

import numpy as np
import numpy.typing as npt

from ...core.animations import grouped_clips, table_clips
from ...core.facade import (
    SingleSurface,
    check_header,
    check_skin_size,
    decoded,
    frame_index,
    parse_spec,
)
from ...core.frames import decode_axes, rows
from ...core.mesh import (
    Mesh,
    corner_mesh,
    corner_table,
    dense_pairs_for,
    flip_winding,
    stored_corner_table,
    welded_corners,
)
from ...core.names import lenient_names, plural
from ...core.records import Frozen
from ...core.sections import (
    Span,
    columns,
    first_bad_index,
    offset_of,
    read_record,
    read_section,
    span_error,
    unstructured,
    word_columns,
)
from ...core.trivertx import TrivertxNormals
from ...core.trivertx import anorms as anorms
from ...errors import BadValueError, TruncatedError
from ...kaitai.quake2_md2 import Quake2Md2
from .fast import EXACT_FLOAT32 as _EXACT_FLOAT32
from .fast import corner_frames as fast_corner_frames
from .fast import first_mesh as fast_first_mesh
from .layout import (
    ANIM_NAMES,
    ANIM_NUM_FRAMES,
    ANIM_START_INDICES,
    FLOAT,
    FRAME_HEADER_SIZE,
    FRAME_NAME_OFFSET,
    FRAME_NAME_SIZE,
    FRAME_PREFIX,
    GL_DWORD,
    GL_TEXCOORD,
    GL_TEXCOORD_DWORDS,
    GL_VERTEX_DWORDS,
    GL_VERTEX_INDEX_DWORD,
    HEADER,
    HEADER_FIELDS,
    HEADER_OFFSETS,
    HEADER_SIZE,
    MAGIC,
    NORMAL_INDEX,
    POSITION,
    POSITION_COLUMNS,
    SKIN_NAME_SIZE,
    TEX_POINT,
    TEX_POINT_WORD,
    TRIANGLE,
    VERSION,
    VERTEX_SIZE,
    frame_dtype,
)

FloatArray = npt.NDArray[np.float32]
IntArray = npt.NDArray[np.int32]

# The header's values by their spec names (a record read through the generated layout).
_Header = namedtuple("_Header", HEADER_FIELDS)  # type: ignore[misc]

# A triangle as int16 words, and the words of its vertex and texcoord indices.
TRIANGLE_WORDS = TRIANGLE.itemsize // 2
TRI_VERTICES = word_columns(TRIANGLE, "vertex_indices", np.int16)
TRI_TEXCOORDS = word_columns(TRIANGLE, "tex_point_indices", np.int16)
# A frame's prefix as float32 words (the name's words unused), and those of scale and translate.
PREFIX_WORDS = FRAME_PREFIX.itemsize // 4
SCALE_WORDS = word_columns(FRAME_PREFIX, "scale", np.float32)
TRANSLATE_WORDS = word_columns(FRAME_PREFIX, "translate", np.float32)
# A texcoord as int16 words, and its s and t words in that order.
TEX_POINT_WORDS = TEX_POINT.itemsize // 2
ST_WORDS = columns([offset_of(TEX_POINT, name) // 2 for name in ("s_px", "t_px")])

# Where a frame's scale and translate sit in the tuple of its prefix's values.
_SCALE = (FRAME_PREFIX.names or ()).index("scale")
_TRANSLATE = (FRAME_PREFIX.names or ()).index("translate")


class GlCommand(Frozen):
    """One OpenGL command: a triangle strip or fan.

    ``vertex_indices`` (n,) int32 index the frame vertices; ``texcoords`` (n,2) float32 are the
    normalized (s, t) the command carries. ``offset`` is the command's byte offset in the file.
    """

    primitive: Literal["strip", "fan"]
    vertex_indices: IntArray
    texcoords: FloatArray
    offset: int

    def __eq__(self, other: object) -> bool:
        """Equal primitive, offset and arrays (arrays compared whole, not element-wise)."""
        if not isinstance(other, GlCommand):
            return NotImplemented
        return (
            self.primitive == other.primitive
            and self.offset == other.offset
            and np.array_equal(self.vertex_indices, other.vertex_indices)
            and np.array_equal(self.texcoords, other.texcoords)
        )

    __hash__ = None  # type: ignore[assignment]


class GlCommands(Sequence[GlCommand]):
    """The model's GL commands as a read-only sequence of :class:`GlCommand`.

    The corners of every command sit in shared arrays and a GlCommand is made when it is
    asked for: a file of many tiny commands costs a few bytes per command, not a Python object
    per command (found by fuzzing: a list of objects took 30× the file's size and 250 ms/MB).
    """

    def __init__(
        self,
        words: npt.NDArray[np.int32],
        base: int,
        starts: npt.NDArray[np.int64],
        bounds: npt.NDArray[np.int64],
        indices: IntArray,
        texcoords: FloatArray,
    ) -> None:
        # The section's dwords (at byte offset ``base``) and each command's count index in
        # them: a command's primitive and offset are read when it is made, not for all.
        self._words = words
        self._base = base
        self._starts = starts
        self._bounds = bounds
        self._indices = indices
        self._texcoords = texcoords

    def __len__(self) -> int:
        return len(self._starts)

    def _make(self, k: int) -> GlCommand:
        lo, hi = int(self._bounds[k]), int(self._bounds[k + 1])
        start = int(self._starts[k])
        return GlCommand(
            "fan" if self._words.item(start) < 0 else "strip",
            self._indices[lo:hi],
            self._texcoords[lo:hi],
            self._base + 4 * start,
        )

    @overload
    def __getitem__(self, index: int) -> GlCommand: ...

    @overload
    def __getitem__(self, index: slice) -> list[GlCommand]: ...

    def __getitem__(self, index: int | slice) -> GlCommand | list[GlCommand]:
        if isinstance(index, slice):
            return [self._make(k) for k in range(*index.indices(len(self)))]
        n = len(self)
        if not -n <= index < n:
            raise IndexError(f"GL command {index} out of range for {n} commands")
        return self._make(index % n)

    def __iter__(self) -> Iterator[GlCommand]:
        return (self._make(k) for k in range(len(self)))

    def __eq__(self, other: object) -> bool:
        """Compares like the list it stands for (``m.gl_commands == []``)."""
        if isinstance(other, (GlCommands, list, tuple)):
            return len(self) == len(other) and (len(self) == 0 or list(self) == list(other))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<GlCommands: {len(self)} commands>"


_NAME_ITEM = np.dtype((np.void, FRAME_NAME_SIZE))
_NAME_TEXT = np.dtype((np.bytes_, FRAME_NAME_SIZE))


def ascii_names(fields: npt.NDArray[Any]) -> list[str] | None:
    """The text up to the first NUL of each of (F,) 16-byte name fields, or None when any
    is not ASCII (for :func:`lenient_names` to escape and report): one bytes item per field
    (trailing NULs dropped by numpy), checked in one join."""
    items: list[bytes] = np.ascontiguousarray(fields).view(_NAME_TEXT).tolist()
    joined = b"".join(items)
    if b"\0" in joined:  # junk after some name's NUL: cut those names there
        items = [item.partition(b"\0")[0] for item in items]
        joined = b"".join(items)
    if not joined.isascii():
        return None
    return list(map(bytes.decode, items))


class GlWalk(NamedTuple):
    """The GL command section walked by its counts: ``starts`` the dword index of each whole
    command's count, ``end`` where the walk stopped, ``terminated`` whether it stopped at a
    zero count and ``cut`` the dword index of a command that runs past the section, if any."""

    starts: list[int]
    end: int
    terminated: bool
    cut: int | None


def walk_gl_commands(words: npt.NDArray[np.int32]) -> GlWalk:
    """Walk the counts of a GL command section (one Python step per command, no per-dword
    list); the corners are gathered afterwards with numpy by whoever needs them."""
    n = len(words)
    starts: list[int] = []
    pos = 0
    # Python ints from a memoryview of the native int32s: half the cost of ``words.item``.
    counts = np.ascontiguousarray(words, np.int32).data
    append = starts.append
    while pos < n:
        count = counts[pos]
        if count == 0:
            return GlWalk(starts, pos, True, None)
        after = pos + 1 + GL_VERTEX_DWORDS * (count if count > 0 else -count)
        if after > n:
            return GlWalk(starts, pos, False, pos)
        append(pos)
        pos = after
    return GlWalk(starts, pos, False, None)


def gl_corners(
    words: npt.NDArray[np.int32], starts: Sequence[int]
) -> tuple[
    npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]
]:
    """For commands whose counts sit at ``starts``: their counts (K,) int64, corner counts
    (K,) int64, cumulative corner ends (K,) int64 and each corner's dword index of its ``s``
    (N,) int64 (``t`` follows it, then the vertex index)."""
    start_at = np.asarray(starts, np.int64)
    counts = words[start_at].astype(np.int64)
    lengths = np.abs(counts)
    ends = np.cumsum(lengths)
    corner = np.arange(int(ends[-1]) if len(ends) else 0, dtype=np.int64) - np.repeat(
        ends - lengths, lengths
    )
    at = np.repeat(start_at + 1, lengths) + GL_VERTEX_DWORDS * corner
    return counts, lengths, ends, at


# Each section: its offset field, count field, what it holds, and its item size (0: the frame
# size, from the header's bytes_per_frame), in header order.
_SECTIONS = (
    ("ofs_skins", "num_skins", "skins", SKIN_NAME_SIZE),
    ("ofs_tex_coords", "num_tex_coords", "texcoords", TEX_POINT.itemsize),
    ("ofs_triangles", "num_triangles", "triangles", TRIANGLE.itemsize),
    ("ofs_frames", "num_frames", "frames", 0),
    ("ofs_gl_cmds", "num_gl_cmds", "GL command dwords", 4),
)


# The header's indices of each section's offset and count fields and its item size (0: the
# frame size, at _FRAME_SIZE), and of the first count: the fast path of the layout check.
_SECTION_FIELDS = tuple(
    (HEADER_FIELDS.index(ofs), HEADER_FIELDS.index(num), item) for ofs, num, _, item in _SECTIONS
)
_FRAME_SIZE = HEADER_FIELDS.index("bytes_per_frame")
_FIRST_COUNT = 2  # every field after the magic and the version is a count or an offset
_SKIN_SIZE = ("skin_width_px", "skin_height_px")  # what texcoords are normalized by


def spans(header: Mapping[str, Any]) -> list[Span]:
    """Where ``header`` (field name → value) puts each section: skins, texcoords, triangles,
    frames and GL command dwords, in header order. The reader and the checker walk this list."""
    frame_size = max(int(header["bytes_per_frame"]), 0)
    return [
        Span(ofs, HEADER_OFFSETS[ofs], what, int(header[ofs]), int(header[num]), item or frame_size)
        for ofs, num, what, item in _SECTIONS
    ]


class Md2Reader(TrivertxNormals, SingleSurface):
    """A Quake II MD2 model (IDP2 version 8).

    Arrays (decoded on first use, cached; F frames, V vertices, T triangles, S texcoords):

    * ``positions`` (F,V,3) float32; ``normal_indices`` (F,V) uint8; ``normals`` (F,V,3) float32
    * ``scales``, ``translates`` (F,3) float32
    * ``triangles`` (T,3) int32 vertex indices; ``triangle_texcoords`` (T,3) int32 texcoord indices
    * ``texcoords_px`` (S,2) int16 pixels; ``texcoords`` (S,2) float32 normalized, no V flip

    Lists: ``frame_names``, ``skins``, ``gl_commands``; ``animations`` maps clip → frame range.
    Per frame (decoding only the frames asked for): ``frame_positions``, ``frame_normals``,
    ``frames_positions``, ``frames_normals``, ``lerp``, ``sample`` and ``mesh``.
    """

    HEADER_FIELDS = HEADER_FIELDS
    ARRAYS: tuple[str, ...] = (
        "positions",
        "normal_indices",
        "normals",
        "scales",
        "translates",
        "texcoords_px",
        "texcoords",
        "triangles",
        "triangle_texcoords",
        "gl_dwords",
        "gl_commands",
        "frame_names",
        "frame_names_raw",
        "skins",
        "skins_raw",
        "animations",
    )
    """Every lazily decoded array and list, in the order :meth:`load_all` decodes them."""

    def __init__(self, data: bytes, *, name: str | None = None) -> None:
        """Wrap ``data``; prefer the ``from_*`` constructors. Reads and checks the header."""
        self._data = data
        self.name = name
        self._h = _Header._make(
            check_header(
                data,
                magic=MAGIC,
                version=VERSION,
                layout=HEADER,
                format_name="MD2",
                field_offsets=HEADER_OFFSETS,
            )
        )
        self._check_layout()

    def _parse_spec(self) -> Quake2Md2:
        return parse_spec(Quake2Md2.from_bytes, self._data)

    # -- header -------------------------------------------------------------------------------

    @property
    def spec(self) -> Quake2Md2:
        """The generated Kaitai object (spec names, lazy per-item instances)."""
        return self._spec

    @property
    def skin_width(self) -> int:
        """Skin width, pixels (header ``skin_width_px``)."""
        return int(self._h.skin_width_px)

    @property
    def skin_height(self) -> int:
        """Skin height, pixels (header ``skin_height_px``)."""
        return int(self._h.skin_height_px)

    @property
    def framesize(self) -> int:
        """Bytes per frame (header ``bytes_per_frame``)."""
        return int(self._h.bytes_per_frame)

    @property
    def num_skins(self) -> int:
        """Number of skin names (header ``num_skins``)."""
        return int(self._h.num_skins)

    @property
    def num_vertices(self) -> int:
        """Vertices per frame, V (header ``vertices_per_frame``)."""
        return int(self._h.vertices_per_frame)

    @property
    def num_texcoords(self) -> int:
        """Texcoords, S (header ``num_tex_coords``)."""
        return int(self._h.num_tex_coords)

    @property
    def num_triangles(self) -> int:
        """Triangles, T (header ``num_triangles``)."""
        return int(self._h.num_triangles)

    @property
    def num_gl_dwords(self) -> int:
        """GL command dwords (header ``num_gl_cmds``)."""
        return int(self._h.num_gl_cmds)

    @property
    def num_frames(self) -> int:
        """Frames, F (header ``num_frames``)."""
        return int(self._h.num_frames)

    @property
    def ofs_skins(self) -> int:
        """Offset of skin names (header ``ofs_skins``)."""
        return int(self._h.ofs_skins)

    @property
    def ofs_texcoords(self) -> int:
        """Offset of st (header ``ofs_tex_coords``)."""
        return int(self._h.ofs_tex_coords)

    @property
    def ofs_triangles(self) -> int:
        """Offset of tris (header ``ofs_triangles``)."""
        return int(self._h.ofs_triangles)

    @property
    def ofs_frames(self) -> int:
        """Offset of frames (header ``ofs_frames``)."""
        return int(self._h.ofs_frames)

    @property
    def ofs_gl_commands(self) -> int:
        """Offset of glcmds (header ``ofs_gl_cmds``)."""
        return int(self._h.ofs_gl_cmds)

    @property
    def ofs_end(self) -> int:
        """The header's end offset (header ``ofs_end``)."""
        return int(self._h.ofs_end)

    def _check_layout(self) -> None:
        """At least one frame, every count and offset non-negative and every section inside
        the data.

        Pure integer arithmetic on the header (Python ints cannot overflow), so a header that
        claims 2**31 frames in a 1 KB file fails here, before anything is allocated.
        """
        s = self._h
        size = len(self._data)
        if s.num_frames == 0:
            # Quake II's Mod_LoadAliasModel (ref_gl/gl_model.c) drops such a model with
            # "model %s has no frames": there is no pose to draw, and mesh(0) none to give.
            offset = HEADER_OFFSETS["num_frames"]
            raise BadValueError(
                f"num_frames=0 at offset {offset}: the model has no frames (Quake II refuses it:"
                ' "has no frames")',
                field="num_frames",
                offset=offset,
            )
        if min(s[_FIRST_COUNT:]) >= 0 and (
            s.bytes_per_frame >= FRAME_HEADER_SIZE + VERTEX_SIZE * s.vertices_per_frame
        ):
            for ofs, num, item in _SECTION_FIELDS:
                count = s[num]
                if count and not HEADER_SIZE <= s[ofs] <= size - count * (item or s[_FRAME_SIZE]):
                    break
            else:
                return  # every check below passes: the common case, without building the spans
        for name in HEADER_FIELDS[2:]:
            value = getattr(s, name)
            if value < 0:
                raise BadValueError(
                    f"{name}={value} at offset {HEADER_OFFSETS[name]} is negative",
                    field=name,
                    offset=HEADER_OFFSETS[name],
                )
        minimum = FRAME_HEADER_SIZE + VERTEX_SIZE * s.vertices_per_frame
        if s.num_frames > 0 and s.bytes_per_frame < minimum:
            raise BadValueError(
                f"bytes_per_frame={s.bytes_per_frame} at offset {HEADER_OFFSETS['bytes_per_frame']}"
                f" is below {FRAME_HEADER_SIZE} + {VERTEX_SIZE} × {s.vertices_per_frame} vertices"
                f" = {minimum}",
                field="bytes_per_frame",
                offset=HEADER_OFFSETS["bytes_per_frame"],
            )
        for span in spans(s._asdict()):
            error = span_error(span, len(self._data), HEADER_SIZE)
            if error is not None:
                raise error

    def spans(self) -> list[Span]:
        """Where the header puts each section (see :func:`spans`)."""
        return spans(self._h._asdict())

    # -- frames -------------------------------------------------------------------------------

    @cached_property
    def frame_records(self) -> npt.NDArray[np.void]:
        """(F,) read-only structured view of the frame section, as stored: the spec's
        ``scale``, ``translate``, ``name`` and ``vertices`` (V,4) uint8 (x, y, z compressed and
        the normal index)."""
        s = self._h
        dtype = frame_dtype(s.vertices_per_frame, s.bytes_per_frame)
        return read_section(self._data, dtype=dtype, count=s.num_frames, offset=s.ofs_frames)

    @cached_property
    def _frame_prefixes(self) -> npt.NDArray[np.void]:
        """(F,) read-only view of each frame's fixed prefix (the spec's ``scale``,
        ``translate``, ``name``), strided by the frame size: no per-file dtype to build."""
        s = self._h
        if s.num_frames == 0:
            return np.empty(0, dtype=FRAME_PREFIX)
        return np.ndarray(
            (s.num_frames,), FRAME_PREFIX, self._data, s.ofs_frames, (s.bytes_per_frame,)
        )

    @cached_property
    def _frame_vertices(self) -> npt.NDArray[np.uint8]:
        """(F,V,4) read-only uint8 view of every frame's vertices (x, y, z compressed and the
        normal index); the layout check keeps it inside the data."""
        s = self._h
        if s.num_frames == 0:
            return np.zeros((0, s.vertices_per_frame, VERTEX_SIZE), np.uint8)
        return np.ndarray(
            (s.num_frames, s.vertices_per_frame, VERTEX_SIZE),
            np.uint8,
            self._data,
            s.ofs_frames + FRAME_HEADER_SIZE,
            (s.bytes_per_frame, VERTEX_SIZE, 1),
        )

    @decoded
    def scales(self) -> FloatArray:
        """(F,3) float32 per-frame scale."""
        return self._frame_words[:, SCALE_WORDS].astype(np.float32)

    @decoded
    def translates(self) -> FloatArray:
        """(F,3) float32 per-frame translate."""
        return self._frame_words[:, TRANSLATE_WORDS].astype(np.float32)

    @cached_property
    def _frame_words(self) -> FloatArray:
        """(F,PREFIX_WORDS) read-only view of each frame's prefix as float32 words (the
        name's words unused), strided by the frame size: scale and translate in one cast each,
        not the field-by-field reads of a record view (a full load's many small reads cost
        more for their calls than for their bytes)."""
        s = self._h
        if s.num_frames == 0:
            return np.zeros((0, PREFIX_WORDS), np.float32)
        return np.ndarray(
            (s.num_frames, PREFIX_WORDS),
            FLOAT,
            self._data,
            s.ofs_frames,
            (s.bytes_per_frame, FLOAT.itemsize),
        )

    @decoded
    def positions(self) -> FloatArray:
        """(F,V,3) float32 vertex positions, bit-identical to the spec's double-precision value."""
        words = self._frame_words
        with np.errstate(invalid="ignore"):  # a signalling NaN turns quiet: no warning
            scale = words[:, SCALE_WORDS].astype(np.float64)
            translate = words[:, TRANSLATE_WORDS].astype(np.float64)
        return self._positions_of(scale, translate, self._frame_vertices)

    def _decode_positions(self, frames: npt.NDArray[np.intp]) -> FloatArray:
        """(k,V,3) float32 positions of ``frames`` only (see :class:`PerFrame`)."""
        scale, translate = self._grids(frames)
        return self._positions_of(scale, translate, rows(self._frame_vertices, frames))

    def _grids(
        self, frames: npt.NDArray[np.intp]
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """(k,3) float64 scale and translate of ``frames`` (a signalling NaN stored in the
        file turns quiet in the cast, without numpy's "invalid value" warning)."""
        prefixes = rows(self._frame_prefixes, frames)
        with np.errstate(invalid="ignore"):
            return (
                unstructured(prefixes["scale"], np.float64),
                unstructured(prefixes["translate"], np.float64),
            )

    def _decode_frame_positions(self, frame: int) -> FloatArray:
        """(V,3) float32 positions of one frame: the same double operations as
        :meth:`_positions_of`, with the frame's scale and translate read as Python floats
        (exact: float32 values) in one record read instead of two field conversions."""
        prefix = read_record(
            self._data, FRAME_PREFIX, self.ofs_frames + frame * self._h.bytes_per_frame
        )
        compressed = self._frame_vertices[frame, :, POSITION].astype(np.float64)
        with np.errstate(over="ignore", invalid="ignore"):  # inf/NaN as decode_axes gives
            compressed *= prefix[_SCALE]
            compressed += prefix[_TRANSLATE]
            out: FloatArray = compressed.astype(np.float32)
        return out

    @staticmethod
    def _positions_of(
        scale: npt.NDArray[np.float64],
        translate: npt.NDArray[np.float64],
        vertices: npt.NDArray[np.uint8],
    ) -> FloatArray:
        # (F,3) scale and translate in double, (F,V,4) stored vertices.
        return decode_axes(vertices, POSITION_COLUMNS, scale[:, None, :], translate[:, None, :])

    _NORMAL_INDEX = NORMAL_INDEX
    _FRAMES_FIELD = "frames"

    def _normal_index_offset(self, frame: int, vertex: int) -> int:
        """The file offset of ``frame``'s ``vertex``'s normal index (for errors)."""
        return (
            self.ofs_frames
            + frame * self.framesize
            + FRAME_HEADER_SIZE
            + VERTEX_SIZE * vertex
            + NORMAL_INDEX
        )

    @decoded
    def frame_names_raw(self) -> list[bytes]:
        """The 16 name bytes of each frame as stored, junk after the NUL included."""
        # Read as raw 16-byte items: numpy's S16 items would drop trailing NULs.
        raws: list[bytes] = (
            np.ascontiguousarray(self._frame_prefixes["name"]).view(_NAME_ITEM).tolist()
        )
        return raws

    @decoded
    def frame_names(self) -> list[str]:
        """Frame names: text up to the first NUL."""
        names = ascii_names(self._frame_prefixes["name"])
        if names is not None:
            return names
        return lenient_names(
            self._frame_prefixes["name"].tolist(),
            "frames.name",
            lambda i: self.ofs_frames + i * self.framesize + FRAME_NAME_OFFSET,
        )

    # -- skins --------------------------------------------------------------------------------

    @decoded
    def skins_raw(self) -> list[bytes]:
        """The 64 bytes of each skin name as stored."""
        o, n = self.ofs_skins, SKIN_NAME_SIZE
        return [self._data[o + n * i : o + n * (i + 1)] for i in range(self.num_skins)]

    @decoded
    def skins(self) -> list[str]:
        """Skin names: text up to the first NUL. Untrusted paths, looked up only inside the
        model's folder tree (:func:`quakemodels.core.skins.find_skin`); ``Md2.skin_images``
        gives their pictures."""
        return lenient_names(self.skins_raw, "skins", lambda i: self.ofs_skins + SKIN_NAME_SIZE * i)

    # -- texcoords and triangles --------------------------------------------------------------

    @decoded
    def texcoords_px(self) -> npt.NDArray[np.int16]:
        """(S,2) int16 texcoords in skin pixels (signed, as Quake II's dstvert_t)."""
        h = self._h
        words = read_section(
            self._data, TEX_POINT_WORD, h.num_tex_coords * TEX_POINT_WORDS, h.ofs_tex_coords
        )
        return words.reshape(-1, TEX_POINT_WORDS)[:, ST_WORDS].astype(np.int16)

    @decoded
    def texcoords(self) -> FloatArray:
        """(S,2) float32 texcoords: s / skin_width, t / skin_height (t down, no V flip)."""
        self._check_skin_size()
        width, height = self._h.skin_width_px or 1, self._h.skin_height_px or 1
        if max(width, height) > _EXACT_FLOAT32:
            size = np.array([width, height], dtype=np.float64)
            return np.divide(self.texcoords_px, size).astype(np.float32)  # int16 / float64
        # Both sides exact in float32, whose quotient rounds as the double one rounded to
        # float32 (the double holds over 2 x 24 + 2 bits): the same values, two calls fewer.
        texcoords = self.texcoords_px.astype(np.float32)
        texcoords /= np.float32(width) if width == height else np.array([width, height], np.float32)
        return texcoords

    def _check_skin_size(self) -> None:
        """Texcoords need a positive skin size to be normalized by (BadValueError else)."""
        check_skin_size(self._h, _SKIN_SIZE, HEADER_OFFSETS, self._h.num_tex_coords)

    @cached_property
    def triangle_records(self) -> npt.NDArray[np.void]:
        """(T,) read-only structured view of the triangle section, as stored (the spec's
        ``vertex_indices`` and ``tex_point_indices``, (3,) int16 each; not range-checked)."""
        return read_section(self._data, TRIANGLE, self.num_triangles, self.ofs_triangles)

    def _checked_indices(self, field: str, limit: int, what: str) -> IntArray:
        values = self.triangle_records[field].astype(np.int32).reshape(-1, 3)
        bad = first_bad_index(values, limit)
        if bad is not None:
            offset = (
                self.ofs_triangles
                + TRIANGLE.itemsize * bad.row
                + offset_of(TRIANGLE, field)
                + 2 * bad.column
            )
            count = f"{bad.number} bad {'index' if bad.number == 1 else 'indices'}"
            where = f"triangles[{bad.row}].{field}[{bad.column}]={bad.value} at offset {offset}"
            raise BadValueError(
                f"{where}: the model has no {what}, so no index is valid ({count})"
                if limit == 0
                else f"{where} is outside 0..{limit - 1} ({limit} {what}; {count})",
                field=field,
                offset=offset,
            )
        return np.ascontiguousarray(values)

    @decoded
    def triangles(self) -> IntArray:
        """(T,3) int32 vertex indices, checked to be below V."""
        return self._checked_indices("vertex_indices", self.num_vertices, "vertices")

    @decoded
    def triangle_texcoords(self) -> IntArray:
        """(T,3) int32 texcoord indices, checked to be below S."""
        return self._checked_indices("tex_point_indices", self.num_texcoords, "texcoords")

    # -- GL commands --------------------------------------------------------------------------

    @decoded
    def gl_dwords(self) -> npt.NDArray[np.int32]:
        """The GL command section as stored: (num_gl_cmds,) int32."""
        return read_section(self._data, GL_DWORD, self.num_gl_dwords, self.ofs_gl_commands).astype(
            np.int32
        )

    @decoded
    def gl_commands(self) -> GlCommands:
        """The strips and fans, up to the terminating zero count; indices checked below V."""
        words = self.gl_dwords
        n = len(words)
        base = self.ofs_gl_commands
        walk = walk_gl_commands(words)
        if walk.cut is not None:
            length = abs(words.item(walk.cut))
            raise TruncatedError(
                f"gl_cmds[{len(walk.starts)}] at offset {base + 4 * walk.cut} has {length}"
                f" vertices ({GL_VERTEX_DWORDS * length} dwords) but only"
                f" {n - walk.cut - 1} dwords remain of num_gl_cmds={n}",
                field="gl_cmds",
                offset=base + 4 * walk.cut,
            )
        if not walk.terminated and n:
            raise TruncatedError(
                f"gl_cmds at offset {base}: no terminating zero count within"
                f" num_gl_cmds={n} dwords",
                field="gl_cmds",
                offset=base + 4 * n,
            )
        if not walk.starts:
            return GlCommands(
                words,
                base,
                np.zeros(0, np.int64),
                np.zeros(1, np.int64),
                np.zeros(0, np.int32),
                np.zeros((0, 2), np.float32),
            )
        # The counts' dword indices, then the terminator's: command k's count sits after k
        # counts and GL_VERTEX_DWORDS per earlier corner, so the corner bounds follow from them.
        chain = np.array([*walk.starts, walk.end], np.int64)
        bounds = (chain - np.arange(len(chain))) // GL_VERTEX_DWORDS
        start_at = chain[:-1]
        # The whole commands fill dwords 0..end: every dword but their counts is a corner's
        # (s, t, vertex index), so one mask gathers them all in order, as (N,3) rows.
        body = np.ones(walk.end, bool)
        body[start_at] = False
        corners = words[: walk.end][body].reshape(-1, GL_VERTEX_DWORDS)
        indices = np.ascontiguousarray(corners[:, GL_VERTEX_INDEX_DWORD])
        bad = first_bad_index(indices, self.num_vertices)
        if bad is not None:
            k = int(np.searchsorted(bounds[1:], bad.row, side="right"))
            corner = bad.row - int(bounds[k])
            dword = walk.starts[k] + 1 + GL_VERTEX_DWORDS * corner + GL_VERTEX_INDEX_DWORD
            offset = base + GL_DWORD.itemsize * dword
            raise BadValueError(
                f"gl_cmds[{k}].vertices[{corner}].vertex_index={bad.value} at offset {offset} is"
                f" outside 0..{self.num_vertices - 1}",
                field="vertex_index",
                offset=offset,
            )
        texcoords = np.ascontiguousarray(corners.view(GL_TEXCOORD)[:, GL_TEXCOORD_DWORDS])
        return GlCommands(words, base, start_at, bounds, indices, texcoords)

    # -- animation ----------------------------------------------------------------------------

    @decoded
    def animations(self) -> dict[str, range]:
        """Clip name → range of frame indices; every frame is in exactly one clip, in order.

        The spec's 20-clip table when the model has the player (198 frames) or weapon (173
        frames, first 16 clips) layout and its names fit; else consecutive frames grouped by
        name with the trailing number removed.
        """
        clips = table_clips(self.frame_names, ANIM_NAMES, ANIM_START_INDICES, ANIM_NUM_FRAMES)
        return clips if clips is not None else grouped_clips(self.frame_names)

    def _frame_index(self, frame: int) -> int:
        return frame_index(frame, self.num_frames)

    # -- geometry helpers ---------------------------------------------------------------------

    @decoded
    def _mesh_corners(self) -> tuple[IntArray, IntArray, npt.NDArray[np.uint32]]:
        """Distinct (vertex, texcoord) pairs in first-use order, and triangles over them in
        render order (counter-clockwise: :func:`flip_winding` of the stored order)."""
        h = self._h
        corners = None
        if h.num_triangles and "triangles" not in self.__dict__:
            # Straight from the stored indices (no decode of the two (T,3) arrays) when every
            # one is in range; else the arrays' decode names the bad one.
            words = np.frombuffer(
                self._data, np.uint16, h.num_triangles * TRIANGLE_WORDS, h.ofs_triangles
            ).reshape(-1, TRIANGLE_WORDS)
            stored_v, stored_t = words[:, TRI_VERTICES], words[:, TRI_TEXCOORDS]
            welded = welded_corners(stored_v, stored_t, h.num_tex_coords, h.vertices_per_frame)
            if welded is not None:  # the compiled weld, when built: in render order already
                return welded
            corners = stored_corner_table(
                stored_v,
                stored_t,
                h.num_tex_coords,
                h.vertices_per_frame,
                dense_pairs_for(len(self._data)),
            )
        if corners is None:
            corners = corner_table(
                self.triangles,
                self.triangle_texcoords,
                self.num_texcoords,
                self.num_vertices,
                dense_pairs_for(len(self._data)),
            )
        vertex_ids, texcoord_ids, indices = corners
        return vertex_ids, texcoord_ids, flip_winding(indices)

    def mesh(self, frame: int = 0) -> Mesh:
        """Render-ready indexed arrays for ``frame`` (see :class:`Mesh`); decodes that frame
        only."""
        f = frame_index(frame, self.num_frames)
        cached = self.__dict__
        if not ("positions" in cached or "normals" in cached or "texcoords" in cached):
            mesh = fast_first_mesh(
                self._data,
                self._h,
                f,
                self._mesh_corners,
                PREFIX_WORDS,
                SCALE_WORDS,
                TRANSLATE_WORDS,
                TEX_POINT_WORDS,
                ST_WORDS,
            )
            if mesh is not None:
                return mesh
        return self._plain_mesh(f)

    def _plain_mesh(self, frame: int) -> Mesh:
        """:meth:`mesh` by the plain decode: the frame's positions and normals and the
        texcoords, gathered at the corners (raises for what :func:`.fast.first_mesh` leaves)."""
        return corner_mesh(
            self.frame_positions(frame),
            self.frame_normals(frame),
            self.texcoords,
            self._mesh_corners,
        )

    def corner_frames(self, frames: Sequence[int] | None = None) -> tuple[FloatArray, FloatArray]:
        """(k,N,3) float32 positions and normals of ``frames`` (every frame when None) at the
        mesh's N corners (``mesh().vertex_ids``): what an export writes per frame. Decodes the
        used vertices only, with the operations of ``positions`` and ``normals`` (equal to
        gathering those arrays), and decodes no other frame when ``frames`` is given.

        The positions decoded from the file are a (k,N,3) view of a C-contiguous (k,3,N) array
        (the layout they are computed in, and the one the glTF writer's per-axis passes want;
        ``np.ascontiguousarray`` interleaves them); the normals are C-contiguous (k,N,3)."""
        vertex_ids = self._mesh_corners[0]
        cached = self.__dict__
        if not ("positions" in cached or "normals" in cached or self.num_frames == 0):
            if frames is None:
                picked = np.arange(self.num_frames, dtype=np.intp)
                stored = self._frame_vertices
            else:
                picked = np.array([self._frame_index(f) for f in frames], dtype=np.intp)
                stored = rows(self._frame_vertices, picked)
            found = fast_corner_frames(vertex_ids, stored, *self._grids(picked))
            if found is not None:
                return found
        return self._plain_corner_frames(frames)

    def _plain_corner_frames(
        self, frames: Sequence[int] | None = None
    ) -> tuple[FloatArray, FloatArray]:
        """:meth:`corner_frames` by the plain decode: the frames' positions and normals
        gathered at the mesh's corners."""
        vertex_ids = self._mesh_corners[0]
        if frames is None:
            return self.positions.take(vertex_ids, axis=1), self.normals.take(vertex_ids, axis=1)
        return (
            self.frames_positions(frames).take(vertex_ids, axis=1),
            self.frames_normals(frames).take(vertex_ids, axis=1),
        )

    def __repr__(self) -> str:
        label = f" {self.name!r}" if self.name else ""
        return (
            f"<Md2{label}: {plural(self.num_frames, 'frame')},"
            f" {plural(self.num_vertices, 'vertex', 'vertices')},"
            f" {plural(self.num_triangles, 'triangle')}, {plural(self.num_skins, 'skin')}>"
        )
