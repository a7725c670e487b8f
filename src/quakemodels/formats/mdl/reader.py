"""Quake 1 MDL models: a fast numpy facade over the generated Kaitai parser (``quake_mdl.ksy``).

MDL has no offset table: skins, texcoords, triangles and frames follow the 84-byte header in
that order, and a skin or frame group's size depends on its own counts. Opening a model parses
the header with the generated ``QuakeMdl.MdlHeader`` class and walks the sections the way
Quake's loader does (``Mod_LoadAliasModel``), with Python integers: every count is checked
against the bytes that remain before anything is allocated, and the walk records where each
skin, frame group and pose starts. Arrays are then decoded with numpy on first use at those
offsets, validated and cached; a decode that fails raises and caches nothing. ``m.spec`` is the
whole generated object (slow, for spec-driven access).

This module is the plain decode, read top to bottom; the fast paths (the frames of a model of
single frames found in one step, the finite check skipped when every byte decodes inside
float32, the corner table and the first mesh straight from the stored bytes) live beside it in
``fast.py``, each proven equal to the plain path by ``tests/test_mdl_fast.py``.

Vocabulary: a *frame* is one of the header's ``num_frames`` entries, either a single pose or a
frame group of several poses that the engine animates on its own; a *pose* is one set of vertex
positions. Arrays over frames use every pose in file order (P poses): ``positions`` is (P,V,3).

Conventions:

* Positions are Quake's model space (Z up), ``float32`` of the spec's value
  ``v * scale + origin`` computed in double: bit-identical to the spec's instances.
* Texcoords follow the engine's seam rule: a vertex flagged ``on_seam`` used by a triangle that
  does not face front takes ``s + skin_width // 2`` (GLQuake ``BuildTris``). ``texcoords_px``
  and ``texcoords`` therefore hold 2V rows: row ``v`` is vertex ``v`` as stored, row ``V + v``
  the same vertex shifted onto the back half of the skin; ``triangle_texcoords`` picks one per
  triangle corner, so ``texcoords[triangle_texcoords]`` are the corners' UVs, as for MD2.
  Texcoords are ``s / skin_width, t / skin_height``, t growing downwards (no V flip); GLQuake
  adds half a texel, ``(s + 0.5) / skin_width``, which is not applied here.
* Data after the last frame (Quake ME's ``QMEX`` block) is ignored, as the engine ignores it;
  ``ofs_end`` is where the model ends and ``trailer`` holds the rest.
"""

from __future__ import annotations

import os
from collections import namedtuple
from dataclasses import dataclass
from functools import cached_property
from typing import IO, Any, NamedTuple, TypeVar

import kaitaistruct
import numpy as np
import numpy.typing as npt
from kaitaistruct import BytesIO, KaitaiStream

from ...core.animations import grouped_clips, split_name
from ...core.facade import (
    SingleSurface,
    check_header,
    check_skin_size,
    decoded,
    frame_index,
    parse_spec,
)
from ...core.files import read_regular
from ...core.frames import decode_axes, rows
from ...core.mesh import (
    Corners,
    Mesh,
    corner_mesh,
    corner_table,
    dense_pairs_for,
    flip_winding,
)
from ...core.names import lenient_names
from ...core.sections import field_type, offset_of, read_record
from ...core.skins import SkinImage, rgba
from ...core.trivertx import TrivertxNormals
from ...errors import BadValueError, ModelFormatError, TruncatedError
from ...kaitai.quake_mdl import QuakeMdl
from .fast import FrameEntry
from .fast import first_mesh as fast_first_mesh
from .fast import grid_fits as fast_grid_fits
from .fast import single_frames as fast_single_frames
from .fast import stored_corners as fast_stored_corners
from .layout import (
    COUNT_FIELDS,
    FRAME_NAME_OFFSET,
    GROUP_HEADER_SIZE,
    HEADER,
    HEADER_FIELDS,
    HEADER_OFFSETS,
    HEADER_SIZE,
    INTERVAL,
    MAGIC,
    NORMAL_INDEX,
    POSE_HEADER_SIZE,
    POSITION,
    TEXCOORD,
    TRIANGLE,
    TYPE_RECORD,
    TYPE_SIZE,
    VERSION,
    VERTEX,
    pose_dtype,
)
from .palette import Palette, PaletteLike, as_palette

# The header's values by their spec names (a record read through the generated layout).
_Header = namedtuple("_Header", HEADER_FIELDS)  # type: ignore[misc]

FloatArray = npt.NDArray[np.float32]
IntArray = npt.NDArray[np.int32]
_R = TypeVar("_R", bound="MdlReader")
_CORNER_AT = offset_of(TRIANGLE, "vertices")
_CORNER_SIZE = field_type(TRIANGLE, "vertices").base.itemsize


@dataclass(frozen=True, eq=False)
class FrameGroup:
    """One of the header's frames: a single pose or a frame group.

    ``first_pose`` and ``num_poses`` index ``positions``; ``intervals`` (num_poses,) float32 are
    the group's stored intervals (``None`` for a single pose): Quake's software renderer reads
    them as the time each pose ends, GLQuake uses the first as every pose's duration.
    ``offset`` is the byte offset of the frame's type word.
    """

    index: int
    offset: int
    is_group: bool
    first_pose: int
    num_poses: int
    intervals: FloatArray | None

    @property
    def poses(self) -> range:
        """The pose indices of this frame."""
        return range(self.first_pose, self.first_pose + self.num_poses)


@dataclass(frozen=True, eq=False)
class SkinGroup:
    """One of the header's skins: a single image or a skin group.

    ``first_image`` and ``num_images`` index ``skin_indices`` / ``skin_images``;
    ``intervals`` (num_images,) float32 as stored (``None`` for a single skin). ``offset`` is
    the byte offset of the skin's type word.
    """

    index: int
    offset: int
    is_group: bool
    first_image: int
    num_images: int
    intervals: FloatArray | None

    @property
    def images(self) -> range:
        """The image indices of this skin."""
        return range(self.first_image, self.first_image + self.num_images)


class _Layout(NamedTuple):
    """Where everything is, from the section walk (Python ints throughout); a named tuple,
    made on every open: a frozen dataclass's field-by-field set-up cost twice as much."""

    skins: tuple[tuple[int, int, int, int | None, int], ...]  # offset, group, n, ofs_ivals, pix
    ofs_texcoords: int
    ofs_triangles: int
    ofs_frames: int
    frames: tuple[FrameEntry, ...]
    pose_offsets: tuple[int, ...]  # each daliasframe_t
    ofs_end: int


def _truncated(what: str, field: str, offset: int, need: int, size: int) -> TruncatedError:
    return TruncatedError(
        f"{what} at offset {offset} needs {need} bytes but the file ends at {size}",
        field=field,
        offset=offset,
    )


def _read_word(data: bytes, offset: int, what: str, field: str) -> int:
    if offset + 4 > len(data):
        raise _truncated(what, field, offset, 4, len(data))
    word: int = read_record(data, TYPE_RECORD, offset)[0]  # the spec's s4 type word
    return word


def _walk(data: bytes, header: Any) -> _Layout:
    """The sections' offsets, as Quake's loader walks them; every count checked against size."""
    size = len(data)
    for name in COUNT_FIELDS:
        value = getattr(header, name)
        if value < 0:
            raise BadValueError(
                f"{name}={value} at offset {HEADER_OFFSETS[name]} is negative",
                field=name,
                offset=HEADER_OFFSETS[name],
            )
    if header.num_frames == 0:
        # Quake's Mod_LoadAliasModel (model.c): "Invalid # of frames" below 1, a Sys_Error
        offset = HEADER_OFFSETS["num_frames"]
        raise BadValueError(
            f"num_frames=0 at offset {offset}: the model has no frames (Quake refuses it:"
            ' "Invalid # of frames")',
            field="num_frames",
            offset=offset,
        )
    skin_size = header.skin_width * header.skin_height
    pos = HEADER_SIZE
    skins: list[tuple[int, int, int, int | None, int]] = []
    # Each skin takes at least its 4-byte type word, so the loop ends within size / 4 steps.
    for i in range(header.num_skins):
        group = _read_word(data, pos, f"skins[{i}].group", "group")
        if group == 0:
            if pos + TYPE_SIZE + skin_size > size:
                raise _truncated(
                    f"skins[{i}].single_texture_data ({header.skin_width} x"
                    f" {header.skin_height} pixels)",
                    "single_texture_data",
                    pos + TYPE_SIZE,
                    skin_size,
                    size,
                )
            skins.append((pos, 0, 1, None, pos + TYPE_SIZE))
            pos += TYPE_SIZE + skin_size
            continue
        at = pos + TYPE_SIZE  # daliasskingroup_t.numskins
        n = _read_word(data, at, f"skins[{i}].num_frames", "num_frames")
        if n < 0:
            raise BadValueError(
                f"skins[{i}].num_frames={n} at offset {at} is negative",
                field="num_frames",
                offset=at,
            )
        ivals = at + TYPE_SIZE
        need = INTERVAL.itemsize * n + n * skin_size
        if ivals + need > size:
            raise _truncated(
                f"skins[{i}]: a group of {n} skins (intervals and {header.skin_width} x"
                f" {header.skin_height} pixels each)",
                "group_texture_data",
                ivals,
                need,
                size,
            )
        skins.append((pos, group, n, ivals, ivals + INTERVAL.itemsize * n))
        pos = ivals + need
    ofs_texcoords = pos
    for what, field, count, item in (
        ("texture_coordinates", "texture_coordinates", header.num_verts, TEXCOORD.itemsize),
        ("triangles", "triangles", header.num_tris, TRIANGLE.itemsize),
    ):
        if pos + count * item > size:
            raise _truncated(f"{what} ({count} × {item} bytes)", field, pos, count * item, size)
        pos += count * item
    ofs_triangles = ofs_texcoords + TEXCOORD.itemsize * header.num_verts
    ofs_frames = pos
    pose_size = POSE_HEADER_SIZE + VERTEX.itemsize * header.num_verts
    frames = fast_single_frames(data, ofs_frames, header.num_frames, pose_size)
    if frames is None:
        frames = _walk_frames(data, header, ofs_frames, pose_size)
    if not frames[1]:
        # every frame a group of no poses: nothing to draw (Quake's renderer would read the
        # interval and pose before the group's first)
        at = frames[0][0][0] + TYPE_SIZE
        raise BadValueError(
            f"frames[0].num_time=0 at offset {at}: every frame is a group of no poses, so the"
            " model has no pose",
            field="num_time",
            offset=at,
        )
    return _Layout(
        skins=tuple(skins),
        ofs_texcoords=ofs_texcoords,
        ofs_triangles=ofs_triangles,
        ofs_frames=ofs_frames,
        frames=frames[0],
        pose_offsets=frames[1],
        ofs_end=frames[2],
    )


def _walk_frames(
    data: bytes, header: Any, pos: int, pose_size: int
) -> tuple[tuple[FrameEntry, ...], tuple[int, ...], int]:
    """The frames from ``pos`` on, one at a time as Quake's loader walks them: (frames, the
    offset of each pose's daliasframe_t, the end of the last frame)."""
    size = len(data)
    frames: list[FrameEntry] = []
    poses: list[int] = []
    # Each frame takes at least 4 + 12 bytes (a group of no poses): the loop is bounded.
    for i in range(header.num_frames):
        kind = _read_word(data, pos, f"frames[{i}].type", "type")
        if kind == 0:
            if pos + TYPE_SIZE + pose_size > size:
                raise _truncated(
                    f"frames[{i}] (one pose of {header.num_verts} vertices)",
                    "frames",
                    pos + TYPE_SIZE,
                    pose_size,
                    size,
                )
            frames.append((pos, 0, len(poses), 1, None))
            poses.append(pos + TYPE_SIZE)
            pos += TYPE_SIZE + pose_size
            continue
        at = pos + TYPE_SIZE  # daliasgroup_t.numframes, the spec's num_time
        n = _read_word(data, at, f"frames[{i}].num_time", "num_time")
        if n < 0:
            raise BadValueError(
                f"frames[{i}].num_time={n} at offset {at} is negative",
                field="num_time",
                offset=at,
            )
        need = GROUP_HEADER_SIZE + INTERVAL.itemsize * n + n * pose_size
        if at + need > size:
            raise _truncated(
                f"frames[{i}]: a group of {n} poses of {header.num_verts} vertices",
                "frames",
                at,
                need,
                size,
            )
        ivals = at + GROUP_HEADER_SIZE
        first = ivals + INTERVAL.itemsize * n
        frames.append((pos, kind, len(poses), n, ivals))
        poses.extend(range(first, first + n * pose_size, pose_size))
        pos = at + need
    return tuple(frames), tuple(poses), pos


def _records(data: bytes, dtype: np.dtype[Any], offsets: tuple[int, ...]) -> np.ndarray[Any, Any]:
    """(len(offsets),) records of ``dtype`` at ``offsets``: strided views over runs of equally
    spaced records (all single frames are one run; each frame group another), joined."""
    if not offsets:
        return np.empty(0, dtype=dtype)
    runs: list[np.ndarray[Any, Any]] = []
    start = 0
    n = len(offsets)
    while start < n:
        stop = start + 1
        step = offsets[stop] - offsets[start] if stop < n else dtype.itemsize
        while stop < n and offsets[stop] - offsets[stop - 1] == step:
            stop += 1
        runs.append(
            np.ndarray(
                shape=(stop - start,),
                dtype=dtype,
                buffer=data,
                offset=offsets[start],
                strides=(step,),
            )
        )
        start = stop
    return runs[0] if len(runs) == 1 else np.concatenate(runs)


def _parse_header(data: bytes) -> Any:
    return QuakeMdl.MdlHeader(KaitaiStream(BytesIO(data)))


class MdlReader(TrivertxNormals, SingleSurface):
    """A Quake 1 MDL model (IDPO version 6).

    Arrays (decoded on first use, cached; P poses, V vertices, T triangles, K skin images):

    * ``positions`` (P,V,3) float32; ``normal_indices`` (P,V) uint8; ``normals`` (P,V,3) float32
    * ``triangles`` (T,3) int32; ``faces_front`` (T,) int32 as stored
    * ``on_seam`` (V,) int32 as stored; ``texcoords_px`` (2V,2) int32; ``texcoords`` (2V,2)
      float32; ``triangle_texcoords`` (T,3) int32 rows of those (see the module docstring)
    * ``skin_indices`` (K,H,W) uint8 palette indices; ``skin_images`` K (H,W,4) uint8 RGBA;
      ``skin_rgb()`` (K,H,W,3) uint8 RGB

    Lists: ``frame_names`` (P), ``frame_groups``, ``skin_groups``; ``animations`` maps clip →
    pose range.
    """

    HEADER_FIELDS = HEADER_FIELDS
    ARRAYS: tuple[str, ...] = (
        "positions",
        "normals",
        "bboxes",
        "frame_names",
        "frame_groups",
        "skin_groups",
        "skin_indices",
        "skin_images",
        "texcoords_px",
        "texcoords",
        "triangles",
        "triangle_texcoords",
        "animations",
    )

    def __init__(
        self, data: bytes, *, name: str | None = None, palette: PaletteLike | None = None
    ) -> None:
        """Wrap ``data``; prefer the ``from_*`` constructors. Parses and walks the sections."""
        self._data = data
        self.name = name
        self._palette_arg = palette
        self._h = _Header._make(
            check_header(
                data,
                magic=MAGIC,
                version=VERSION,
                layout=HEADER,
                format_name="MDL",
                field_offsets=HEADER_OFFSETS,
            )
        )
        self._layout = _walk(data, self._h)

    # -- constructors with a palette ---------------------------------------------------------

    @classmethod
    def from_bytes(
        cls: type[_R],
        data: bytes | bytearray | memoryview,
        *,
        name: str | None = None,
        palette: PaletteLike | None = None,
    ) -> _R:
        """Open a model held in memory; ``palette`` decodes its skins (default: LibreQuake's)."""
        return cls(bytes(data), name=name, palette=palette)

    @classmethod
    def from_io(
        cls: type[_R],
        fileobj: IO[bytes],
        *,
        name: str | None = None,
        palette: PaletteLike | None = None,
    ) -> _R:
        """Open a model from a binary file object (read to its end)."""
        return cls(fileobj.read(), name=name or getattr(fileobj, "name", None), palette=palette)

    @classmethod
    def from_file(
        cls: type[_R], path: str | os.PathLike[str], *, palette: PaletteLike | None = None
    ) -> _R:
        """Open a model file (a regular file: BadValueError for a FIFO or a device)."""
        return cls(read_regular(path), name=os.fspath(path), palette=palette)

    # -- header -------------------------------------------------------------------------------

    @property
    def header(self) -> dict[str, Any]:
        """The header's fields by their spec names, in file order (vectors as 3-tuples)."""
        out: dict[str, Any] = {}
        for name in HEADER_FIELDS:
            value = getattr(self._spec, name)
            if isinstance(value, QuakeMdl.Vec3):
                value = (value.x, value.y, value.z)
            out[name] = value
        return out

    @cached_property
    def spec(self) -> QuakeMdl:
        """The whole generated Kaitai object (parses every section; slow for big models)."""
        try:
            return QuakeMdl.from_bytes(self._data)
        except (kaitaistruct.KaitaiStructError, EOFError, ValueError) as e:
            raise ModelFormatError(f"the generated parser cannot read the model: {e}") from e

    def _parse_spec(self) -> Any:
        return parse_spec(_parse_header, self._data)

    def _vec(self, field: str) -> FloatArray:
        return np.array(getattr(self._h, field), dtype=np.float32)

    @property
    def scale(self) -> FloatArray:
        """(3,) float32 vertex scale (header ``scale``)."""
        return self._vec("scale")

    @property
    def origin(self) -> FloatArray:
        """(3,) float32 vertex origin (header ``origin``, mdl_t ``scale_origin``)."""
        return self._vec("origin")

    @property
    def eye_position(self) -> FloatArray:
        """(3,) float32 eye position (header ``eye_position``)."""
        return self._vec("eye_position")

    @property
    def radius(self) -> float:
        """Bounding radius (header ``radius``)."""
        return float(self._h.radius)

    @property
    def synctype(self) -> int:
        """0: animate in step (ST_SYNC), 1: at a random phase (ST_RAND)."""
        return int(self._h.synctype)

    @property
    def flags(self) -> int:
        """Entity effect flags (header ``flags``)."""
        return int(self._h.flags)

    @property
    def size(self) -> float:
        """Average triangle size (header ``size``)."""
        return float(self._h.size)

    @property
    def skin_width(self) -> int:
        """Skin width, pixels (header ``skin_width``)."""
        return int(self._h.skin_width)

    @property
    def skin_height(self) -> int:
        """Skin height, pixels (header ``skin_height``)."""
        return int(self._h.skin_height)

    @property
    def num_skins(self) -> int:
        """Skins in the header (a skin group counts once)."""
        return int(self._h.num_skins)

    @property
    def num_vertices(self) -> int:
        """Vertices, V (header ``num_verts``); also the number of stored texcoords."""
        return int(self._h.num_verts)

    @property
    def num_triangles(self) -> int:
        """Triangles, T (header ``num_tris``)."""
        return int(self._h.num_tris)

    @property
    def num_frames(self) -> int:
        """Poses, P: every single frame and every pose of every frame group (what
        ``positions``, ``frame_names``, ``lerp`` and ``mesh`` count)."""
        return len(self._layout.pose_offsets)

    @property
    def num_poses(self) -> int:
        """Poses, P (the same as ``num_frames``)."""
        return len(self._layout.pose_offsets)

    @property
    def num_header_frames(self) -> int:
        """Frames in the header (header ``num_frames``: a frame group counts once)."""
        return int(self._h.num_frames)

    @property
    def num_skin_images(self) -> int:
        """Skin images, K: every single skin and every image of every skin group."""
        return sum(n for _, _, n, _, _ in self._layout.skins)

    @property
    def ofs_texcoords(self) -> int:
        """Offset of the texture coordinates (from the section walk)."""
        return self._layout.ofs_texcoords

    @property
    def ofs_triangles(self) -> int:
        """Offset of the triangles (from the section walk)."""
        return self._layout.ofs_triangles

    @property
    def ofs_frames(self) -> int:
        """Offset of the first frame (from the section walk)."""
        return self._layout.ofs_frames

    @property
    def ofs_end(self) -> int:
        """Where the model data ends: the engine reads nothing after it."""
        return self._layout.ofs_end

    @property
    def trailer(self) -> bytes:
        """Bytes after the model data (e.g. Quake ME's ``QMEX`` block); usually empty."""
        return self._data[self._layout.ofs_end :]

    @property
    def pose_offsets(self) -> tuple[int, ...]:
        """Byte offset of each pose's daliasframe_t (bounding box, name, vertices)."""
        return self._layout.pose_offsets

    # -- frames -------------------------------------------------------------------------------

    @cached_property
    def _pose_records(self) -> np.ndarray[Any, np.dtype[np.void]]:
        """(P,) records of the spec's daliasframe_t (bbox_min, bbox_max, name) and the pose's
        vertices as raw bytes (V,4) u1."""
        dtype = pose_dtype(self.num_vertices)
        return _records(self._data, dtype, self._layout.pose_offsets)

    def _decode(self, compressed: npt.NDArray[np.uint8]) -> FloatArray:
        """(...,3) float32 of ``v * scale + origin`` in double of (...,3) bytes (two roundings
        in double, as the spec's expression evaluates, then one to float32:
        :func:`~quakemodels.core.frames.decode_axes`), checked to be finite."""
        scale, origin = self._vec("scale"), self._vec("origin")
        result = decode_axes(
            compressed, range(3), scale.astype(np.float64), origin.astype(np.float64)
        )
        # No value can be inf or NaN when the whole byte grid maps inside float32's range.
        if not fast_grid_fits(self._h.scale, self._h.origin) and not np.isfinite(result).all():
            raise BadValueError(
                f"scale={tuple(scale.tolist())} at offset {HEADER_OFFSETS['scale']} and"
                f" origin={tuple(origin.tolist())} at"
                f" offset {HEADER_OFFSETS['origin']} put vertices at values that are not finite"
                " in float32",
                field="scale",
                offset=HEADER_OFFSETS["scale"],
            )
        return result

    @decoded
    def positions(self) -> FloatArray:
        """(P,V,3) float32 vertex positions of every pose, bit-identical to the spec's value."""
        return self._decode(self._pose_records["vertices"][:, :, POSITION])

    def _decode_positions(self, poses: npt.NDArray[np.intp]) -> FloatArray:
        """(k,V,3) float32 positions of ``poses`` only (see :class:`PerFrame`)."""
        return self._decode(rows(self._pose_records, poses)["vertices"][:, :, POSITION])

    _NORMAL_INDEX = NORMAL_INDEX
    _FRAMES_FIELD = "poses"

    @cached_property
    def _frame_vertices(self) -> npt.NDArray[np.uint8]:
        """(P,V,4) uint8 view of every pose's stored vertices (x, y, z and the normal index)."""
        vertices: npt.NDArray[np.uint8] = self._pose_records["vertices"]
        return vertices

    def _normal_index_offset(self, pose: int, vertex: int) -> int:
        """The file offset of ``pose``'s ``vertex``'s normal index (for errors)."""
        return (
            self._layout.pose_offsets[pose]
            + POSE_HEADER_SIZE  # a pose's vertices follow its daliasframe_t
            + VERTEX.itemsize * vertex
            + NORMAL_INDEX
        )

    @decoded
    def bboxes(self) -> FloatArray:
        """(P,2,3) float32 each pose's stored bounding box (min, max), decoded like vertices."""
        rec = self._pose_records
        packed = np.stack([rec["bbox_min"]["values"], rec["bbox_max"]["values"]], axis=1)
        return self._decode(packed)

    @decoded
    def frame_names_raw(self) -> list[bytes]:
        """The 16 name bytes of each pose as stored, junk after the NUL included."""
        return [bytes(n) for n in self._pose_records["name"].tolist()]

    @decoded
    def frame_names(self) -> list[str]:
        """Each pose's name: text up to the first NUL."""
        offsets = self._layout.pose_offsets
        return lenient_names(
            self.frame_names_raw, "frames.name", lambda i: offsets[i] + FRAME_NAME_OFFSET
        )

    @decoded
    def frame_groups(self) -> list[FrameGroup]:
        """Every header frame in order: its first pose, pose count and intervals."""
        out = []
        for i, (offset, kind, first, n, ofs_ivals) in enumerate(self._layout.frames):
            intervals = None
            if ofs_ivals is not None:
                intervals = np.frombuffer(self._data, INTERVAL, n, ofs_ivals).astype(np.float32)
            out.append(FrameGroup(i, offset, kind != 0, first, n, intervals))
        return out

    # -- skins --------------------------------------------------------------------------------

    @decoded
    def skin_groups(self) -> list[SkinGroup]:
        """Every header skin in order: its first image, image count and intervals."""
        out = []
        first = 0
        for i, (offset, group, n, ofs_ivals, _) in enumerate(self._layout.skins):
            intervals = None
            if ofs_ivals is not None:
                intervals = np.frombuffer(self._data, INTERVAL, n, ofs_ivals).astype(np.float32)
            out.append(SkinGroup(i, offset, group != 0, first, n, intervals))
            first += n
        return out

    @decoded
    def skin_indices(self) -> npt.NDArray[np.uint8]:
        """(K,H,W) uint8 palette indices of every skin image in file order."""
        h, w = self.skin_height, self.skin_width
        images = [
            np.frombuffer(self._data, np.uint8, n * w * h, pixels).reshape(n, h, w)
            for _, _, n, _, pixels in self._layout.skins
        ]
        if not images:
            return np.zeros((0, h, w), np.uint8)
        return np.concatenate(images) if len(images) > 1 else images[0].copy()

    @property
    def palette(self) -> Palette:
        """The (256,3) uint8 palette the skins decode through (the ``palette=`` argument)."""
        return as_palette(self._palette_arg)

    @decoded
    def skin_images(self) -> list[SkinImage | None]:
        """Every skin image (each image of every skin group counts, in file order) through
        ``palette``: K read-only (H,W,4) uint8 RGBA arrays, alpha 255 (Quake draws alias skins
        opaque), never None (the skins are in the file). :meth:`skin_rgb` gives them as one
        (K,H,W,3) RGB array."""
        return [rgba(image) for image in self.skin_rgb()]

    def skin_rgb(self, palette: PaletteLike | None = None) -> npt.NDArray[np.uint8]:
        """(K,H,W,3) uint8 RGB of every skin image through ``palette`` (default: the model's)."""
        pal = self.palette if palette is None else as_palette(palette)
        return np.take(pal, self.skin_indices, axis=0)

    # -- texcoords and triangles --------------------------------------------------------------

    @cached_property
    def _stverts(self) -> np.ndarray[Any, np.dtype[np.void]]:
        """(V,) records of the spec's stvert_t: on_seam, s, t."""
        return np.frombuffer(self._data, TEXCOORD, self.num_vertices, self._layout.ofs_texcoords)

    @cached_property
    def _triangle_records(self) -> np.ndarray[Any, np.dtype[np.void]]:
        """(T,) records of the spec's dtriangle_t: faces_front, vertices (3,)."""
        return np.frombuffer(self._data, TRIANGLE, self.num_triangles, self._layout.ofs_triangles)

    @decoded
    def on_seam(self) -> IntArray:
        """(V,) int32 on_seam as stored (ALIAS_ONSEAM = 0x20; the engine tests non-zero)."""
        return self._stverts["on_seam"].astype(np.int32)

    @decoded
    def faces_front(self) -> IntArray:
        """(T,) int32 faces_front as stored (DT_FACES_FRONT = 0x10; 0 = back-facing)."""
        return self._triangle_records["faces_front"].astype(np.int32)

    @decoded
    def texcoords_px(self) -> IntArray:
        """(2V,2) int32 skin pixels: rows 0..V-1 as stored, rows V..2V-1 shifted by
        ``skin_width // 2`` (the back-of-seam copy)."""
        st = np.stack([self._stverts["s"], self._stverts["t"]], axis=1).astype(np.int64)
        back = st.copy()
        back[:, 0] += self.skin_width // 2
        both = np.concatenate([st, back])
        if both.size and (both.min() < -(2**31) or both.max() >= 2**31):
            # only a shifted s can leave int32: the stored values are int32
            raise BadValueError(
                f"texture_coordinates: s + skin_width // 2 overflows 32 bits (skin_width="
                f"{self.skin_width} at offset {HEADER_OFFSETS['skin_width']})",
                field="skin_width",
                offset=HEADER_OFFSETS["skin_width"],
            )
        return both.astype(np.int32)

    @decoded
    def texcoords(self) -> FloatArray:
        """(2V,2) float32 ``s / skin_width, t / skin_height`` of ``texcoords_px`` (t down)."""
        check_skin_size(self._h, ("skin_width", "skin_height"), HEADER_OFFSETS, self._h.num_verts)
        size = np.array([self.skin_width or 1, self.skin_height or 1], dtype=np.float64)
        return (self.texcoords_px.astype(np.float64) / size).astype(np.float32)

    @decoded
    def triangles(self) -> IntArray:
        """(T,3) int32 vertex indices, checked to be in 0..V-1."""
        values = self._triangle_records["vertices"].astype(np.int32)
        bad = np.flatnonzero((values < 0) | (values >= self.num_vertices))
        if bad.size:
            tri, corner = divmod(int(bad[0]), 3)
            offset = (
                self._layout.ofs_triangles
                + TRIANGLE.itemsize * tri
                + _CORNER_AT
                + _CORNER_SIZE * corner
            )
            raise BadValueError(
                f"triangles[{tri}].vertices[{corner}]={int(values.flat[bad[0]])} at offset"
                f" {offset} is outside 0..{self.num_vertices - 1} ({self.num_vertices}"
                f" vertices; {bad.size} bad indices)",
                field="vertices",
                offset=offset,
            )
        return np.ascontiguousarray(values)

    @decoded
    def triangle_texcoords(self) -> IntArray:
        """(T,3) int32 rows of ``texcoords`` per corner: the vertex itself, or V + vertex when
        the vertex is on the seam and the triangle does not face front (the engine's rule)."""
        tris = self.triangles
        back = (self.on_seam[tris] != 0) & (self.faces_front[:, None] == 0)
        out: IntArray = np.where(back, tris + np.int32(self.num_vertices), tris).astype(np.int32)
        return out

    # -- animation ----------------------------------------------------------------------------

    @decoded
    def animations(self) -> dict[str, range]:
        """Clip name → range of pose indices; every pose is in exactly one clip, in order.

        Runs of single frames are grouped by name as MD2's frames are (trailing number
        removed, split where the numbering breaks); every frame group is a clip of its own,
        named after its poses.
        """
        names = self.frame_names
        clips: dict[str, range] = {}

        def add(label: str, poses: range) -> None:
            unique, k = label, 2
            while unique in clips:
                unique, k = f"{label}_{k}", k + 1
            clips[unique] = poses

        run: list[int] = []

        def flush() -> None:
            if run:
                start = run[0]
                for label, r in grouped_clips([names[p] for p in run]).items():
                    add(label, range(start + r.start, start + r.stop))
                run.clear()

        for g in self.frame_groups:
            if not g.is_group:
                run.append(g.first_pose)
                continue
            flush()
            if g.num_poses:
                bases = {split_name(names[p])[0] for p in g.poses}
                label = bases.pop() if len(bases) == 1 else split_name(names[g.first_pose])[0]
                add((label.rstrip("_") or "group") if label else f"group{g.index}", g.poses)
        flush()
        return clips

    def _frame_index(self, pose: int) -> int:
        return frame_index(pose, self.num_poses)

    # -- geometry helpers ---------------------------------------------------------------------

    @cached_property
    def _mesh_corners(self) -> Corners:
        """Distinct (vertex, texcoord row) pairs in first-use order, and triangles over them:
        a seam vertex used from both sides appears twice. The triangles are in render order
        (counter-clockwise: :func:`flip_winding` of the stored order)."""
        if "triangle_texcoords" not in self.__dict__:
            corners = self._fast_corners()
            if corners is not None:
                return corners
        return self._plain_corners()

    def _plain_corners(self) -> Corners:
        """``_mesh_corners`` by the plain decode: the pair table of the decoded ``triangles``
        and ``triangle_texcoords`` (raises for what :func:`.fast.stored_corners` leaves)."""
        vertex_ids, texcoord_ids, indices = corner_table(
            self.triangles,
            self.triangle_texcoords,
            2 * self.num_vertices,
            self.num_vertices,
            dense_pairs_for(len(self._data)),
        )
        return vertex_ids, texcoord_ids, flip_winding(indices)

    def _fast_corners(self) -> Corners | None:
        """:func:`.fast.stored_corners` of this model (None where the plain path must raise)."""
        layout, h = self._layout, self._h
        return fast_stored_corners(
            self._data, layout.ofs_texcoords, layout.ofs_triangles, h.num_verts, h.num_tris
        )

    def mesh(self, pose: int = 0) -> Mesh:
        """Render-ready indexed arrays for ``pose``; ``texcoord_ids`` are rows of ``texcoords``.
        Decodes that pose only, and on a fresh model only the vertices and texcoords the
        mesh uses."""
        p = self._frame_index(pose)
        cached = self.__dict__
        if not ("positions" in cached or "normals" in cached or "texcoords" in cached):
            mesh = self._fast_mesh(p)
            if mesh is not None:
                return mesh
        return self._plain_mesh(p)

    def _fast_mesh(self, pose: int) -> Mesh | None:
        """:func:`.fast.first_mesh` over the corner table of the stored triangles (kept for
        the next pose). None where the plain path must raise: it then decodes the arrays in
        its own order and names the first error (a bad triangle only after the pose)."""
        corners = self.__dict__.get("_mesh_corners")
        if corners is None:
            corners = self._fast_corners()
            if corners is None:
                return None
            self.__dict__["_mesh_corners"] = corners
        return fast_first_mesh(
            self._data, self._h, self._layout.pose_offsets[pose], self.ofs_texcoords, corners
        )

    def _plain_mesh(self, pose: int) -> Mesh:
        """:meth:`mesh` by the plain decode: the pose's positions and normals and the
        texcoords, gathered at the corners (raises for what :func:`.fast.first_mesh` leaves)."""
        return corner_mesh(
            self.frame_positions(pose),
            self.frame_normals(pose),
            self.texcoords,
            self._mesh_corners,
        )

    def __repr__(self) -> str:
        label = f" {self.name!r}" if self.name else ""
        return (
            f"<Mdl{label}: {self.num_header_frames} frames ({self.num_poses} poses),"
            f" {self.num_vertices}"
            f" vertices, {self.num_triangles} triangles, {self.num_skins} skins>"
        )


__all__ = ["FrameGroup", "MdlReader", "SkinGroup"]
