"""Quake II MD2 models: a fast numpy facade over the generated Kaitai parser.

Opening a model parses only its 68-byte header with the generated ``Quake2Md2`` class and checks
that every section the header describes lies inside the data. Each array is then decoded on
first use with numpy, at the offsets that header gives, validated, and cached. ``m.spec`` is the
generated object for spec-driven access (its per-vertex objects are slow; the arrays are not).

Conventions:

* Positions are Quake's model space (Z up), ``float32`` of the spec's value
  ``x_compressed * scale.x + translate.x`` computed in double: bit-identical to the spec.
* ``texcoords`` are ``s / skin_width, t / skin_height`` with t growing downwards, as the skin
  image is stored (no V flip). glTF uses the same convention; OpenGL-style consumers use 1 - t.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, Literal, overload

import numpy as np
import numpy.typing as npt

from ._facade import ModelFile, decoded, frame_index, lerp, parse_header
from .animations import grouped_clips, table_clips
from .errors import (
    BadValueError,
    QuakeModelsWarning,
    TruncatedError,
)
from .kaitai.quake2_md2 import Quake2Md2

if TYPE_CHECKING:
    from . import writer as _writer

if TYPE_CHECKING:
    from .check import Finding

MAGIC = b"IDP2"
VERSION = 8
HEADER_SIZE = 68
FRAME_HEADER_SIZE = 40  # scale (3 f4), translate (3 f4), name (16 bytes)
SKIN_NAME_SIZE = 64
FRAME_NAME_SIZE = 16
NUM_ANORMS = 162

# The spec's seq order of the header, and where each field sits: error messages name both.
HEADER_FIELDS = (
    "magic",
    "version",
    "skin_width_px",
    "skin_height_px",
    "bytes_per_frame",
    "num_skins",
    "vertices_per_frame",
    "num_tex_coords",
    "num_triangles",
    "num_gl_cmds",
    "num_frames",
    "ofs_skins",
    "ofs_tex_coords",
    "ofs_triangles",
    "ofs_frames",
    "ofs_gl_cmds",
    "ofs_eof",
)
HEADER_OFFSETS = {name: 4 * i for i, name in enumerate(HEADER_FIELDS)}

FloatArray = npt.NDArray[np.float32]
IntArray = npt.NDArray[np.int32]


@dataclass(frozen=True, slots=True, eq=False)
class GlCommand:
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
        offsets: npt.NDArray[np.int64],
        fans: npt.NDArray[np.bool_],
        bounds: npt.NDArray[np.int64],
        indices: IntArray,
        texcoords: FloatArray,
    ) -> None:
        self._offsets = offsets
        self._fans = fans
        self._bounds = bounds
        self._indices = indices
        self._texcoords = texcoords

    def __len__(self) -> int:
        return len(self._offsets)

    def _make(self, k: int) -> GlCommand:
        lo, hi = int(self._bounds[k]), int(self._bounds[k + 1])
        return GlCommand(
            "fan" if self._fans[k] else "strip",
            self._indices[lo:hi],
            self._texcoords[lo:hi],
            int(self._offsets[k]),
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


@dataclass(frozen=True)
class Mesh:
    """Render-ready indexed arrays for one frame; each distinct (vertex, texcoord) pair once.

    ``positions`` (N,3) float32, ``normals`` (N,3) float32, ``uvs`` (N,2) float32 (texcoords,
    no V flip), ``indices`` (T,3) uint32 into those, ``vertex_ids`` (N,) int32 the MD2 vertex
    each corner came from and ``texcoord_ids`` (N,) int32 its MD2 texcoord.
    """

    positions: FloatArray
    normals: FloatArray
    uvs: FloatArray
    indices: npt.NDArray[np.uint32]
    vertex_ids: IntArray
    texcoord_ids: IntArray


def _anorms_from_spec(spec: Quake2Md2) -> FloatArray:
    table = np.asarray(spec.anorms_table, dtype=np.float64)
    if table.shape != (NUM_ANORMS, 3):  # pragma: no cover - guards a wrong ksy edit
        raise RuntimeError(f"spec anorms_table has shape {table.shape}")
    return table.astype(np.float32)


_ANORMS: FloatArray | None = None


def anorms(spec: Quake2Md2 | None = None) -> FloatArray:
    """The spec's table of 162 vertex normals, (162,3) float32.

    The table is a value instance of the spec; without a parsed model at hand, an empty valid
    header gives access to it.
    """
    global _ANORMS
    if _ANORMS is None:
        if spec is None:
            empty = MAGIC + VERSION.to_bytes(4, "little") + bytes(HEADER_SIZE - 8)
            spec = Quake2Md2.from_bytes(empty)
        _ANORMS = _anorms_from_spec(spec)
    return _ANORMS


def _decode_names(raws: list[bytes], what: str, offset_of: Callable[[int], int]) -> list[str]:
    """Text up to the first NUL of each name; non-ASCII bytes are kept as escapes, with one
    warning that names the first such name and its offset."""
    texts = [raw.partition(b"\0")[0] for raw in raws]
    if b"".join(texts).isascii():
        return [t.decode("ascii") for t in texts]
    bad = [i for i, t in enumerate(texts) if not t.isascii()]
    warnings.warn(
        f"{what}[{bad[0]}] at offset {offset_of(bad[0])} has non-ASCII bytes {texts[bad[0]]!r}"
        f" ({len(bad)} such names); kept as escapes",
        QuakeModelsWarning,
        stacklevel=4,
    )
    return [t.decode("ascii", errors="backslashreplace") for t in texts]


def _section(data: bytes, dtype: Any, count: int, offset: int) -> np.ndarray[Any, Any]:
    """``count`` items of ``dtype`` at ``offset``; an empty section is empty wherever its offset
    points (the header check skips offsets of empty sections, as the engines do)."""
    if count == 0:
        return np.empty(0, dtype=dtype)
    return np.frombuffer(data, dtype=dtype, count=count, offset=offset)


class Md2(ModelFile):
    """A Quake II MD2 model (IDP2 version 8).

    Arrays (decoded on first use, cached; F frames, V vertices, T triangles, S texcoords):

    * ``positions`` (F,V,3) float32; ``normal_indices`` (F,V) uint8; ``normals`` (F,V,3) float32
    * ``scales``, ``translates`` (F,3) float32
    * ``triangles`` (T,3) int32 vertex indices; ``triangle_texcoords`` (T,3) int32 texcoord indices
    * ``texcoords_px`` (S,2) int16 pixels; ``texcoords`` (S,2) float32 normalized, no V flip

    Lists: ``frame_names``, ``skins``, ``gl_commands``; ``animations`` maps clip → frame range.
    """

    HEADER_FIELDS = HEADER_FIELDS

    def __init__(self, data: bytes, *, name: str | None = None) -> None:
        """Wrap ``data``; prefer the ``from_*`` constructors. Parses and checks the header."""
        self._data = data
        self.name = name
        self._spec = parse_header(
            Quake2Md2.from_bytes,
            data,
            magic=MAGIC,
            version=VERSION,
            header_size=HEADER_SIZE,
            format_name="MD2",
            field_offsets=HEADER_OFFSETS,
        )
        self._check_layout()

    # -- header -------------------------------------------------------------------------------

    @property
    def spec(self) -> Quake2Md2:
        """The generated Kaitai object (spec names, lazy per-item instances)."""
        return self._spec

    @property
    def skin_width(self) -> int:
        """Skin width, pixels (header ``skin_width_px``)."""
        return int(self._spec.skin_width_px)

    @property
    def skin_height(self) -> int:
        """Skin height, pixels (header ``skin_height_px``)."""
        return int(self._spec.skin_height_px)

    @property
    def framesize(self) -> int:
        """Bytes per frame (header ``bytes_per_frame``)."""
        return int(self._spec.bytes_per_frame)

    @property
    def num_skins(self) -> int:
        """Number of skin names (header ``num_skins``)."""
        return int(self._spec.num_skins)

    @property
    def num_vertices(self) -> int:
        """Vertices per frame, V (header ``vertices_per_frame``)."""
        return int(self._spec.vertices_per_frame)

    @property
    def num_texcoords(self) -> int:
        """Texcoords, S (header ``num_tex_coords``)."""
        return int(self._spec.num_tex_coords)

    @property
    def num_triangles(self) -> int:
        """Triangles, T (header ``num_triangles``)."""
        return int(self._spec.num_triangles)

    @property
    def num_gl_dwords(self) -> int:
        """GL command dwords (header ``num_gl_cmds``)."""
        return int(self._spec.num_gl_cmds)

    @property
    def num_frames(self) -> int:
        """Frames, F (header ``num_frames``)."""
        return int(self._spec.num_frames)

    @property
    def ofs_skins(self) -> int:
        """Offset of skin names (header ``ofs_skins``)."""
        return int(self._spec.ofs_skins)

    @property
    def ofs_texcoords(self) -> int:
        """Offset of st (header ``ofs_tex_coords``)."""
        return int(self._spec.ofs_tex_coords)

    @property
    def ofs_triangles(self) -> int:
        """Offset of tris (header ``ofs_triangles``)."""
        return int(self._spec.ofs_triangles)

    @property
    def ofs_frames(self) -> int:
        """Offset of frames (header ``ofs_frames``)."""
        return int(self._spec.ofs_frames)

    @property
    def ofs_gl_commands(self) -> int:
        """Offset of glcmds (header ``ofs_gl_cmds``)."""
        return int(self._spec.ofs_gl_cmds)

    @property
    def ofs_end(self) -> int:
        """The header's end offset (header ``ofs_eof``)."""
        return int(self._spec.ofs_eof)

    def _check_layout(self) -> None:
        """Every count and offset non-negative and every section inside the data.

        Pure integer arithmetic on the header (Python ints cannot overflow), so a header that
        claims 2**31 frames in a 1 KB file fails here, before anything is allocated.
        """
        size = len(self._data)
        s = self._spec
        for name in HEADER_FIELDS[2:]:
            value = getattr(s, name)
            if value < 0:
                raise BadValueError(
                    f"{name}={value} at offset {HEADER_OFFSETS[name]} is negative",
                    field=name,
                    offset=HEADER_OFFSETS[name],
                )
        minimum = FRAME_HEADER_SIZE + 4 * s.vertices_per_frame
        if s.num_frames > 0 and s.bytes_per_frame < minimum:
            raise BadValueError(
                f"bytes_per_frame={s.bytes_per_frame} at offset {HEADER_OFFSETS['bytes_per_frame']}"
                f" is below 40 + 4 × {s.vertices_per_frame} vertices = {minimum}",
                field="bytes_per_frame",
                offset=HEADER_OFFSETS["bytes_per_frame"],
            )
        sections = (
            ("ofs_skins", "num_skins", "skins", SKIN_NAME_SIZE),
            ("ofs_tex_coords", "num_tex_coords", "texcoords", 4),
            ("ofs_triangles", "num_triangles", "triangles", 12),
            ("ofs_frames", "num_frames", "frames", s.bytes_per_frame),
            ("ofs_gl_cmds", "num_gl_cmds", "GL command dwords", 4),
        )
        for ofs_name, num_name, what, item in sections:
            ofs, num = getattr(s, ofs_name), getattr(s, num_name)
            if num and ofs + num * item > size:
                raise TruncatedError(
                    f"{ofs_name}={ofs} + {num} {what} × {item} bytes runs past the end of the"
                    f" file ({size} bytes)",
                    field=ofs_name,
                    offset=ofs,
                )
            if num and ofs < HEADER_SIZE:
                raise BadValueError(
                    f"{ofs_name}={ofs} points into the {HEADER_SIZE}-byte header",
                    field=ofs_name,
                    offset=HEADER_OFFSETS[ofs_name],
                )

    # -- frames -------------------------------------------------------------------------------

    @cached_property
    def _frame_records(self) -> np.ndarray[Any, np.dtype[np.void]]:
        """(F,) structured view of the frame section: scale, translate, name, verts (V,4) u1."""
        s = self._spec
        dtype = np.dtype(
            {
                "names": ["scale", "translate", "name", "verts"],
                "formats": ["<3f4", "<3f4", "S16", ("u1", (s.vertices_per_frame, 4))],
                "offsets": [0, 12, 24, 40],
                "itemsize": max(s.bytes_per_frame, FRAME_HEADER_SIZE),
            }
        )
        return _section(self._data, dtype=dtype, count=s.num_frames, offset=s.ofs_frames)

    @decoded
    def scales(self) -> FloatArray:
        """(F,3) float32 per-frame scale."""
        return np.ascontiguousarray(self._frame_records["scale"])

    @decoded
    def translates(self) -> FloatArray:
        """(F,3) float32 per-frame translate."""
        return np.ascontiguousarray(self._frame_records["translate"])

    @decoded
    def positions(self) -> FloatArray:
        """(F,V,3) float32 vertex positions, bit-identical to the spec's double-precision value."""
        rec = self._frame_records
        compressed = rec["verts"][:, :, :3].astype(np.float64)
        scale = rec["scale"].astype(np.float64)[:, None, :]
        translate = rec["translate"].astype(np.float64)[:, None, :]
        # Two separate double operations, as the spec's expression evaluates (no fused
        # multiply-add), then one rounding to float32.
        compressed *= scale
        compressed += translate
        return compressed.astype(np.float32)

    def frame_positions(self, frame: int) -> FloatArray:
        """(V,3) float32 positions of one frame, decoding only that frame unless all are cached."""
        f = self._frame_index(frame)
        cached = self.__dict__.get("positions")
        if cached is not None:
            return cached[f]  # type: ignore[no-any-return]
        rec = self._frame_records[f]
        compressed = rec["verts"][:, :3].astype(np.float64)
        compressed *= rec["scale"].astype(np.float64)
        compressed += rec["translate"].astype(np.float64)
        out: FloatArray = compressed.astype(np.float32)
        return out

    @decoded
    def normal_indices(self) -> npt.NDArray[np.uint8]:
        """(F,V) uint8 indices into the 162-entry normal table (not range-checked)."""
        return np.ascontiguousarray(self._frame_records["verts"][:, :, 3])

    @decoded
    def normals(self) -> FloatArray:
        """(F,V,3) float32 unit normals from the spec's anorms table."""
        idx = self.normal_indices
        bad = np.flatnonzero(idx >= NUM_ANORMS)
        if bad.size:
            frame, vertex = divmod(int(bad[0]), max(self.num_vertices, 1))
            offset = self.ofs_frames + frame * self.framesize + FRAME_HEADER_SIZE + 4 * vertex + 3
            raise BadValueError(
                f"frames[{frame}].vertices[{vertex}].normal_index={int(idx.flat[bad[0]])} at"
                f" offset {offset} is not below {NUM_ANORMS} ({bad.size} such vertices)",
                field="normal_index",
                offset=offset,
            )
        return np.take(anorms(self._spec), idx, axis=0)  # take: ~4x faster than indexing

    @decoded
    def frame_names_raw(self) -> list[bytes]:
        """The 16 name bytes of each frame as stored, junk after the NUL included."""
        # numpy's S16 items drop trailing NULs; put them back.
        return [n.ljust(FRAME_NAME_SIZE, b"\0") for n in self._frame_records["name"].tolist()]

    @decoded
    def frame_names(self) -> list[str]:
        """Frame names: text up to the first NUL."""
        return _decode_names(
            self._frame_records["name"].tolist(),
            "frames.name",
            lambda i: self.ofs_frames + i * self.framesize + 24,
        )

    # -- skins --------------------------------------------------------------------------------

    @decoded
    def skins_raw(self) -> list[bytes]:
        """The 64 bytes of each skin name as stored."""
        o = self.ofs_skins
        return [self._data[o + 64 * i : o + 64 * (i + 1)] for i in range(self.num_skins)]

    @decoded
    def skins(self) -> list[str]:
        """Skin names: text up to the first NUL (untrusted paths; see quakemodels.skins)."""
        return _decode_names(self.skins_raw, "skins", lambda i: self.ofs_skins + 64 * i)

    # -- texcoords and triangles --------------------------------------------------------------

    @decoded
    def texcoords_px(self) -> npt.NDArray[np.int16]:
        """(S,2) int16 texcoords in skin pixels (signed, as Quake II's dstvert_t)."""
        return (
            _section(
                self._data, dtype="<i2", count=2 * self.num_texcoords, offset=self.ofs_texcoords
            )
            .reshape(-1, 2)
            .astype(np.int16)
        )

    @decoded
    def texcoords(self) -> FloatArray:
        """(S,2) float32 texcoords: s / skin_width, t / skin_height (t down, no V flip)."""
        for field in ("skin_width_px", "skin_height_px"):
            value = getattr(self._spec, field)
            if value <= 0 and self.num_texcoords:
                raise BadValueError(
                    f"{field}={value} at offset {HEADER_OFFSETS[field]}: texcoords cannot be"
                    " normalized by a skin size that is not positive",
                    field=field,
                    offset=HEADER_OFFSETS[field],
                )
        size = np.array([self.skin_width or 1, self.skin_height or 1], dtype=np.float64)
        return (self.texcoords_px.astype(np.float64) / size).astype(np.float32)

    @cached_property
    def _triangle_records(self) -> npt.NDArray[np.int16]:
        return _section(
            self._data, dtype="<i2", count=6 * self.num_triangles, offset=self.ofs_triangles
        ).reshape(-1, 6)

    def _checked_indices(self, columns: slice, limit: int, what: str, field: str) -> IntArray:
        values = self._triangle_records[:, columns].astype(np.int32)
        bad = np.flatnonzero((values < 0) | (values >= limit))
        if bad.size:
            tri, corner = divmod(int(bad[0]), 3)
            start = 0 if columns.start is None else columns.start
            offset = self.ofs_triangles + 12 * tri + 2 * (start + corner)
            raise BadValueError(
                f"triangles[{tri}].{field}[{corner}]={int(values.flat[bad[0]])} at offset"
                f" {offset} is outside 0..{limit - 1} ({limit} {what}; {bad.size} bad indices)",
                field=field,
                offset=offset,
            )
        return np.ascontiguousarray(values)

    @decoded
    def triangles(self) -> IntArray:
        """(T,3) int32 vertex indices, checked to be below V."""
        return self._checked_indices(slice(0, 3), self.num_vertices, "vertices", "vertex_indices")

    @decoded
    def triangle_texcoords(self) -> IntArray:
        """(T,3) int32 texcoord indices, checked to be below S."""
        return self._checked_indices(
            slice(3, 6), self.num_texcoords, "texcoords", "tex_point_indices"
        )

    # -- GL commands --------------------------------------------------------------------------

    @decoded
    def gl_dwords(self) -> npt.NDArray[np.int32]:
        """The GL command section as stored: (num_gl_cmds,) int32."""
        return _section(
            self._data, dtype="<i4", count=self.num_gl_dwords, offset=self.ofs_gl_commands
        ).astype(np.int32)

    @decoded
    def gl_commands(self) -> GlCommands:
        """The strips and fans, up to the terminating zero count; indices checked below V."""
        words = self.gl_dwords
        n = len(words)
        base = self.ofs_gl_commands
        # Walk the counts in Python (one step per command, no per-dword list), then gather
        # every command's texcoords and indices with one numpy operation each.
        starts: list[int] = []
        pos = 0
        while pos < n and words.item(pos) != 0:
            length = abs(words.item(pos))
            if pos + 1 + 3 * length > n:
                raise TruncatedError(
                    f"gl_cmds[{len(starts)}] at offset {base + 4 * pos} has {length} vertices"
                    f" ({3 * length} dwords) but only {n - pos - 1} dwords remain of"
                    f" num_gl_cmds={n}",
                    field="gl_cmds",
                    offset=base + 4 * pos,
                )
            starts.append(pos)
            pos += 1 + 3 * length
        if pos >= n and n:
            raise TruncatedError(
                f"gl_cmds at offset {base}: no terminating zero count within"
                f" num_gl_cmds={n} dwords",
                field="gl_cmds",
                offset=base + 4 * n,
            )
        empty = np.zeros(0, np.int64)
        if not starts:
            return GlCommands(
                empty,
                np.zeros(0, bool),
                np.zeros(1, np.int64),
                np.zeros(0, np.int32),
                np.zeros((0, 2), np.float32),
            )
        start_at = np.asarray(starts, np.int64)
        del starts
        counts = words[start_at]
        lengths = np.abs(counts).astype(np.int64)
        first = start_at + 1
        # Dword index of each corner's s: first[k] + 3 * j for j < lengths[k].
        ends = np.cumsum(lengths)
        corner = np.arange(int(ends[-1])) - np.repeat(ends - lengths, lengths)
        at = np.repeat(first, lengths) + 3 * corner
        indices = words[at + 2]
        bad = np.flatnonzero((indices < 0) | (indices >= self.num_vertices))
        if bad.size:
            k = int(np.searchsorted(ends, bad[0], side="right"))
            offset = base + 4 * int(at[bad[0]] + 2)
            raise BadValueError(
                f"gl_cmds[{k}].vertices[{int(corner[bad[0]])}].vertex_index="
                f"{int(indices[bad[0]])} at offset {offset} is outside"
                f" 0..{self.num_vertices - 1}",
                field="vertex_index",
                offset=offset,
            )
        floats = words.view(np.float32)
        texcoords = np.stack([floats[at], floats[at + 1]], axis=1)
        bounds = np.concatenate([np.zeros(1, np.int64), ends])
        return GlCommands(base + 4 * start_at, counts < 0, bounds, indices, texcoords)

    # -- animation ----------------------------------------------------------------------------

    @decoded
    def animations(self) -> dict[str, range]:
        """Clip name → range of frame indices; every frame is in exactly one clip, in order.

        The spec's 20-clip table when the model has the player (198 frames) or weapon (173
        frames, first 16 clips) layout and its names fit; else consecutive frames grouped by
        name with the trailing number removed.
        """
        s = self._spec
        clips = table_clips(self.frame_names, s.anim_names, s.anim_start_indices, s.anim_num_frames)
        return clips if clips is not None else grouped_clips(self.frame_names)

    def _frame_index(self, frame: int) -> int:
        return frame_index(frame, self.num_frames)

    def lerp(self, a: int, b: int, t: float) -> FloatArray:
        """(V,3) float32 positions between frames ``a`` (t=0) and ``b`` (t=1)."""
        return lerp(self.positions, a, b, t)

    def sample(self, clip: str, seconds: float, fps: float = 10.0, loop: bool = True) -> FloatArray:
        """(V,3) float32 positions of ``clip`` at ``seconds``, interpolated between frames.

        Looping clips wrap from the last frame back to the first; otherwise the clip holds its
        last frame.
        """
        try:
            frames = self.animations[clip]
        except KeyError:
            raise KeyError(f"no clip {clip!r}; clips: {', '.join(self.animations)}") from None
        position = max(seconds, 0.0) * fps
        n = len(frames)
        if loop:
            position %= n
            i = int(position)
            return self.lerp(frames[i], frames[(i + 1) % n], position - i)
        if position >= n - 1:
            last: FloatArray = self.positions[frames[-1]].copy()
            return last
        i = int(position)
        return self.lerp(frames[i], frames[i + 1], position - i)

    # -- geometry helpers ---------------------------------------------------------------------

    @cached_property
    def _mesh_corners(self) -> tuple[IntArray, IntArray, npt.NDArray[np.uint32]]:
        """Distinct (vertex, texcoord) pairs in first-use order, and triangles over them."""
        tri_v = self.triangles.reshape(-1)
        tri_t = self.triangle_texcoords.reshape(-1)
        key = tri_v.astype(np.int64) * max(self.num_texcoords, 1) + tri_t
        _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
        order = np.argsort(first, kind="stable")
        rank = np.empty_like(order)
        rank[order] = np.arange(order.size)
        corners = first[order]
        indices = rank[inverse.reshape(-1)].astype(np.uint32).reshape(-1, 3)
        return tri_v[corners].astype(np.int32), tri_t[corners].astype(np.int32), indices

    def mesh(self, frame: int = 0) -> Mesh:
        """Render-ready indexed arrays for ``frame`` (see :class:`Mesh`)."""
        f = self._frame_index(frame)
        vertex_ids, texcoord_ids, indices = self._mesh_corners
        uvs = self.texcoords[texcoord_ids] if texcoord_ids.size else np.zeros((0, 2), np.float32)
        return Mesh(
            positions=self.positions[f][vertex_ids],
            normals=self.normals[f][vertex_ids],
            uvs=uvs,
            indices=indices,
            vertex_ids=vertex_ids,
            texcoord_ids=texcoord_ids,
        )

    @property
    def bounds(self) -> tuple[FloatArray, FloatArray]:
        """(mins, maxs), each (3,) float32, over every vertex of every frame."""
        p = self.positions.reshape(-1, 3)
        if p.size == 0:
            zero = np.zeros(3, np.float32)
            return zero, zero.copy()
        return p.min(axis=0), p.max(axis=0)

    def load_all(self) -> Md2:
        """Decode and validate every array now (a full load); returns self."""
        for name in _ARRAYS:
            getattr(self, name)
        return self

    def check(self, engine: str = "any") -> list[Finding]:
        """Engine-compatibility findings ('quake2', 'q2pro', 'quake3' or 'any'); never raises."""
        from .check import check_md2

        return check_md2(self, engine=engine)

    # -- writing (quakemodels.writer) -------------------------------------------------------------

    def to_bytes(self) -> bytes:
        """The model re-encoded from its parsed content: byte-exact for a loaded file."""
        from .writer import to_bytes

        return to_bytes(self)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the model to ``path`` atomically (see :meth:`to_bytes`)."""
        from .writer import save

        save(self, path)

    @classmethod
    def build(cls, *args: Any, **kwargs: Any) -> _writer.BuildResult:
        """Encode a new model from arrays; see :func:`quakemodels.writer.build`."""
        from .writer import build

        return build(*args, **kwargs)

    def __repr__(self) -> str:
        label = f" {self.name!r}" if self.name else ""
        return (
            f"<Md2{label}: {self.num_frames} frames, {self.num_vertices} vertices,"
            f" {self.num_triangles} triangles, {self.num_skins} skins>"
        )


_ARRAYS = (
    "positions",
    "normals",
    "scales",
    "translates",
    "frame_names",
    "skins",
    "texcoords_px",
    "texcoords",
    "triangles",
    "triangle_texcoords",
    "gl_commands",
    "animations",
)
