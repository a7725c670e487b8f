"""Sprites, format-neutral: a sequence of RGBA pictures with origins and intervals
(:class:`SpriteFrames`), and the frame walk id's sprite layouts share.

A sprite format's ``frames`` service turns its file into :class:`SpriteFrames` (the renderer,
the exporters and ``convert`` read them) and its ``build`` service turns them back into a file.
Format-level facts (orientation, sync type, texture format) are the model's, not the
frames': ``build`` takes them as options.

Quake's and Half-Life's ``.spr`` store their frames the same way (``spritegn.h``): a type word,
then either one picture (``dspriteframe_t``: origin, width, height, then width × height
palette indices) or a group (a count, one cumulative interval per picture, the pictures).
:func:`walk_frames` walks them through the dtypes each spec generates, so both formats read
and write them with their own generated layouts and the same code.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

import numpy as np
import numpy.typing as npt

from ..errors import BadMagicError, BadValueError, BadVersionError, ModelFormatError, TruncatedError
from .facade import read_source
from .findings import Finding, Report
from .pcx import MAX_PIXELS
from .sections import offset_of

DEFAULT_INTERVAL = 0.1
"""Seconds a single frame shows in an animation (Quake steps an entity's frame at 10 Hz)."""


PLACED_PIXELS = 4 * MAX_PIXELS
"""The most pixels :meth:`SpriteFrames.placed` gives in all (256 MiB of RGBA): every frame on
its own canvas, for an animation."""


@dataclass(frozen=True)
class SpriteFrame:
    """One picture: ``rgba`` (H,W,4) uint8, top row first; ``origin`` (x, y) the position of
    its top-left corner relative to the sprite's point, in pixels, y up (as Quake and
    Half-Life store it; Quake II's origin_x/origin_y, the point inside the picture from its
    left and bottom edges, is (-origin_x, height - origin_y) here);
    ``interval`` the cumulative end time in seconds inside its group (None for a single
    frame); ``group`` the index of the file frame it belongs to."""

    rgba: npt.NDArray[np.uint8]
    origin: tuple[int, int]
    interval: float | None
    group: int

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) in pixels."""
        return int(self.rgba.shape[1]), int(self.rgba.shape[0])


@dataclass(frozen=True)
class SpriteFrames:
    """A sprite's pictures in file order (the pictures of a group one after another)."""

    name: str
    frames: tuple[SpriteFrame, ...]

    def __len__(self) -> int:
        return len(self.frames)

    def durations(self, default: float = DEFAULT_INTERVAL) -> list[float]:
        """Seconds each picture shows: a group's intervals are cumulative end times, so a
        picture shows from the previous one's end to its own; single frames ``default``.
        A group whose intervals do not increase (some tools store each picture's own time:
        the engine would show its first picture only, and ``check`` warns) shows each
        picture for its stored interval."""
        out: list[float] = []
        groups: dict[int, list[float]] = {}
        for f in self.frames:
            if f.interval is not None:
                groups.setdefault(f.group, []).append(f.interval)
        cumulative = {
            g: all(b > a for a, b in itertools.pairwise(v)) and v[0] > 0 for g, v in groups.items()
        }
        previous: dict[int, float] = {}
        for f in self.frames:
            if f.interval is None:
                out.append(default)
            elif not cumulative[f.group]:
                out.append(max(f.interval, 0.0))
            else:
                out.append(f.interval - previous.get(f.group, 0.0))
                previous[f.group] = f.interval
        return out

    def bounds(self) -> tuple[int, int, int, int]:
        """(left, top, right, bottom) around every picture placed at its origin, in pixels
        with y down (top = -max origin y); (0, 0, 0, 0) with no frames."""
        if not self.frames:
            return (0, 0, 0, 0)
        left = min(f.origin[0] for f in self.frames)
        top = min(-f.origin[1] for f in self.frames)
        right = max(f.origin[0] + f.size[0] for f in self.frames)
        bottom = max(-f.origin[1] + f.size[1] for f in self.frames)
        return (left, top, right, bottom)

    def placed(self) -> list[npt.NDArray[np.uint8]]:
        """Every picture on one canvas (:meth:`bounds`), (H,W,4) uint8 each, transparent
        around it, so that an animation of pictures of different sizes does not jump.
        BadValueError when the canvas would hold more than ``MAX_PIXELS`` pixels, or all the
        canvases more than ``PLACED_PIXELS`` (origins far apart make a canvas of any size)."""
        left, top, right, bottom = self.bounds()
        width, height = right - left, bottom - top
        if width * height > MAX_PIXELS or width * height * len(self.frames) > PLACED_PIXELS:
            raise BadValueError(
                f"the {len(self.frames)} pictures placed at their origins span {width}x"
                f"{height} pixels: too many for one animation (at most {MAX_PIXELS}"
                f" pixels a frame, {PLACED_PIXELS} in all)",
                field="frames",
            )
        out = []
        for f in self.frames:
            canvas = np.zeros((bottom - top, right - left, 4), np.uint8)
            x, y = f.origin[0] - left, -f.origin[1] - top
            w, h = f.size
            canvas[y : y + h, x : x + w] = f.rgba
            out.append(canvas)
        return out


def indexed_rgba(
    indices: npt.NDArray[np.uint8],
    palette: npt.NDArray[np.uint8],
    alpha: npt.NDArray[np.uint8] | None = None,
) -> npt.NDArray[np.uint8]:
    """(H,W,4) uint8 of (H,W) uint8 palette ``indices`` through a (256,3) ``palette`` and a
    (256,) per-index ``alpha`` (opaque when None)."""
    return lookup_rgba(indices, rgba_lut(palette, alpha))


def rgba_lut(
    palette: npt.NDArray[np.uint8], alpha: npt.NDArray[np.uint8] | None = None
) -> npt.NDArray[np.uint32]:
    """(256,) uint32: each index's RGBA bytes as one word (``palette`` (256,3) uint8, ``alpha``
    (256,) uint8 or None: opaque), made once for every picture of a sprite."""
    lut = np.empty((256, 4), np.uint8)
    lut[:, :3] = palette
    lut[:, 3] = 255 if alpha is None else alpha
    words: npt.NDArray[np.uint32] = lut.view(np.uint32).reshape(256)
    return words


def lookup_rgba(
    indices: npt.NDArray[np.uint8], lut: npt.NDArray[np.uint32]
) -> npt.NDArray[np.uint8]:
    """(H,W,4) uint8 of (H,W) uint8 ``indices`` through an :func:`rgba_lut`."""
    # one 32-bit lookup per pixel instead of one per channel
    words = np.take(lut, indices)
    rgba: npt.NDArray[np.uint8] = words.view(np.uint8).reshape(*indices.shape, 4)
    return rgba


def looked_up(
    records: Sequence[FrameRecord], name: str | None, lut: npt.NDArray[np.uint32]
) -> SpriteFrames:
    """Quake's and Half-Life's ``frames``: every picture of ``records`` as (H,W,4) uint8 RGBA
    through ``lut`` (an :func:`rgba_lut`) with its origin; a group's pictures carry their
    intervals and the group's index. Named after the file ``name`` ("sprite" without one)."""
    out: list[SpriteFrame] = []
    for g, record in enumerate(records):
        intervals = record.intervals
        for k, p in enumerate(record.pictures):
            interval = None if intervals is None else float(intervals[k])
            pixels = p.pixels  # lookup_rgba inlined: the call cost a small sprite a tenth
            rgba = np.take(lut, pixels).view(np.uint8).reshape(*pixels.shape, 4)
            out.append(sprite_frame(rgba, (p.origin_x, p.origin_y), interval, g))
    frames = object.__new__(SpriteFrames)  # as sprite_frame: one frozen dataclass less
    frames.__dict__["name"] = file_stem(name)
    frames.__dict__["frames"] = tuple(out)
    return frames


def sprite_frame(
    rgba: npt.NDArray[np.uint8], origin: tuple[int, int], interval: float | None, group: int
) -> SpriteFrame:
    """``SpriteFrame(rgba, origin, interval, group)`` made without the frozen dataclass's
    generated ``__init__``, which sets each field through ``object.__setattr__``: made once
    per picture, it cost a small sprite's frames a tenth of their time. Every field of
    SpriteFrame, by name (tests/test_sprite_core.py holds them to the dataclass's)."""
    frame = object.__new__(SpriteFrame)
    fields = frame.__dict__
    fields["rgba"] = rgba
    fields["origin"] = origin
    fields["interval"] = interval
    fields["group"] = group
    return frame


def file_stem(name: str | None) -> str:
    """A sprite's name from its file's: the base name without its extension, as
    ``os.path.splitext(os.path.basename(name))[0]`` (leading dots are no extension);
    ``sprite`` without one."""
    if not name:
        return "sprite"
    # posixpath.basename's rule without its checks where one separator is all there is, and
    # splitext's in two string calls (it walks the name in Python): a small sprite's frames
    # spent a tenth of their time here
    base = name[name.rfind(os.sep) + 1 :] if os.altsep is None else os.path.basename(name)
    head, dot, _ = base.rpartition(".")
    return head if dot and head.strip(".") else base


def transparent_index(index: int = 255) -> npt.NDArray[np.uint8]:
    """(256,) uint8 alpha: opaque except ``index`` (Quake's sprites and alpha-tested
    pictures leave index 255 out)."""
    alpha = np.full(256, 255, np.uint8)
    alpha[index] = 0
    return alpha


def read_header(data: bytes, magic: bytes, version: int, header: np.dtype[Any]) -> npt.NDArray[Any]:
    """A sprite's (1,) ``header`` record (fields ``version`` and ``num_frames`` among them)
    after the magic, size, version and frame count tests; ModelFormatError naming the
    field and its offset otherwise."""
    if data[: len(magic)] != magic:
        raise BadMagicError(
            f"ident={data[: len(magic)]!r} at offset 0 is not {magic!r}", field="ident", offset=0
        )
    if len(data) < header.itemsize:
        raise TruncatedError(
            f"the header needs {header.itemsize} bytes, the file has {len(data)}",
            field="header",
            offset=0,
        )
    rec = np.frombuffer(data, header, 1, 0).copy()
    found = int(rec["version"][0])
    if found != version:
        at = offset_of(header, "version")
        raise BadVersionError(
            f"version={found} at offset {at} is not {version}", field="version", offset=at
        )
    count = int(rec["num_frames"][0])
    if count < 0:
        at = offset_of(header, "num_frames")
        raise BadValueError(
            f"num_frames={count} at offset {at} is negative", field="num_frames", offset=at
        )
    return rec


# -- the frame walk of id's sprite layouts (Quake 1 and Half-Life .spr) ---------------------


@dataclass(frozen=True)
class Picture:
    """One stored picture: its ``dspriteframe_t`` record (origin_x, origin_y, width, height,
    as the spec's dtype holds them) and ``pixels`` (height, width) uint8 palette indices."""

    origin_x: int
    origin_y: int
    pixels: npt.NDArray[np.uint8]

    @property
    def width(self) -> int:
        return int(self.pixels.shape[1])

    @property
    def height(self) -> int:
        return int(self.pixels.shape[0])


@dataclass(frozen=True)
class FrameRecord:
    """One stored frame: its type word (0 single; any other value a group, kept as stored
    so the file writes back byte for byte), its pictures (one for a single frame) and, for
    a group, its intervals (float32, cumulative end times)."""

    type: int
    pictures: tuple[Picture, ...]
    intervals: npt.NDArray[np.float32] | None = None

    @property
    def is_group(self) -> bool:
        return self.type != 0


@dataclass(frozen=True)
class FrameLayout:
    """The generated dtypes a walk reads: the frame's type word, a group's count, one
    interval, and a picture's fixed prefix (origin_x, origin_y, width, height)."""

    frame: np.dtype[Any]
    group: np.dtype[Any]
    interval: np.dtype[Any]
    picture: np.dtype[Any]


def _record(data: bytes, dtype: np.dtype[Any], at: int, field: str) -> np.void:
    if at + dtype.itemsize > len(data):
        raise TruncatedError(
            f"{field} at offset {at} needs {dtype.itemsize} bytes, the file ends at {len(data)}",
            field=field,
            offset=at,
        )
    rec: np.void = np.frombuffer(data, dtype, 1, at)[0]
    return rec


def _picture(data: bytes, layout: FrameLayout, at: int, label: str) -> tuple[Picture, int]:
    rec = _record(data, layout.picture, at, f"{label}.origin_x")
    width, height = int(rec["width"]), int(rec["height"])
    size_at = at + offset_of(layout.picture, "width")
    for name, value in (("width", width), ("height", height)):
        if value < 0:
            raise BadValueError(
                f"{label}.{name}={value} at offset {size_at} is negative",
                field=f"{label}.{name}",
                offset=size_at,
            )
    start = at + layout.picture.itemsize
    if start + width * height > len(data):
        raise TruncatedError(
            f"{label}.pixels at offset {start}: {width}x{height} pixels need"
            f" {width * height} bytes, the file ends at {len(data)}",
            field=f"{label}.pixels",
            offset=start,
        )
    pixels = np.frombuffer(data, np.uint8, width * height, start).reshape(height, width)
    return Picture(int(rec["origin_x"]), int(rec["origin_y"]), pixels), start + width * height


def walk_frames(
    data: bytes, at: int, num_frames: int, layout: FrameLayout
) -> tuple[list[FrameRecord], int]:
    """The ``num_frames`` frames stored from offset ``at`` and the offset after them;
    ModelFormatError naming the field and its offset when one does not fit the data."""
    frames: list[FrameRecord] = []
    for i in range(num_frames):
        label = f"frames[{i}]"
        kind = int(_record(data, layout.frame, at, f"{label}.type")[0])
        at += layout.frame.itemsize
        if kind == 0:
            picture, at = _picture(data, layout, at, f"{label}.single")
            frames.append(FrameRecord(kind, (picture,)))
            continue
        count_at = at
        count = int(_record(data, layout.group, at, f"{label}.group.num_intervals")[0])
        at += layout.group.itemsize
        if count < 0 or at + count * layout.interval.itemsize > len(data):
            what = "is negative" if count < 0 else "intervals run past the end of the file"
            raise (BadValueError if count < 0 else TruncatedError)(
                f"{label}.group.num_intervals={count} at offset {count_at} {what}",
                field=f"{label}.group.num_intervals",
                offset=count_at,
            )
        intervals = np.frombuffer(data, layout.interval, count, at).astype(np.float32)
        at += count * layout.interval.itemsize
        pictures = []
        for k in range(count):
            picture, at = _picture(data, layout, at, f"{label}.group.pictures[{k}]")
            pictures.append(picture)
        frames.append(FrameRecord(kind, tuple(pictures), intervals))
    return frames, at


def frame_offsets(records: Sequence[FrameRecord], layout: FrameLayout, start: int) -> list[int]:
    """The offset of each stored frame's type word when the frames begin at ``start``."""
    out = []
    at = start
    for r in records:
        out.append(at)
        at += layout.frame.itemsize + sum(
            layout.picture.itemsize + p.pixels.size for p in r.pictures
        )
        if r.is_group:
            at += layout.group.itemsize + len(r.pictures) * layout.interval.itemsize
    return out


def encode_frames(frames: Sequence[FrameRecord], layout: FrameLayout) -> bytes:
    """The stored bytes of ``frames`` (the inverse of :func:`walk_frames`)."""
    parts: list[bytes] = []

    def word(dtype: np.dtype[Any], value: int) -> bytes:
        return np.array([(value,)], dtype).tobytes()

    def picture(p: Picture) -> bytes:
        rec = np.zeros(1, layout.picture)
        rec["origin_x"], rec["origin_y"] = p.origin_x, p.origin_y
        rec["width"], rec["height"] = p.width, p.height
        return rec.tobytes() + np.ascontiguousarray(p.pixels, np.uint8).tobytes()

    for f in frames:
        parts.append(word(layout.frame, f.type))
        if not f.is_group:
            parts.append(picture(f.pictures[0]))
            continue
        assert f.intervals is not None
        parts.append(word(layout.group, len(f.pictures)))
        parts.append(np.asarray(f.intervals, layout.interval).tobytes())
        parts.extend(picture(p) for p in f.pictures)
    return b"".join(parts)


def records_from_frames(
    frames: SpriteFrames, indices: Sequence[npt.NDArray[np.uint8]]
) -> list[FrameRecord]:
    """File frames for ``frames`` whose pictures are the (H,W) uint8 palette ``indices``
    (one per picture): consecutive pictures of one ``group`` with intervals form a group;
    BadValueError when a group's interval is not a finite number above 0 (Quake's
    ``Mod_LoadSpriteGroup`` refuses ``interval<=0``). Intervals that do not increase load (a
    real sprite has them; ``check`` reports them) and are kept as given."""
    out: list[FrameRecord] = []
    k = 0
    while k < len(frames.frames):
        first = frames.frames[k]
        end = k + 1
        if first.interval is not None:
            while (
                end < len(frames.frames)
                and frames.frames[end].group == first.group
                and frames.frames[end].interval is not None
            ):
                end += 1
        pictures = tuple(
            Picture(frames.frames[j].origin[0], frames.frames[j].origin[1], indices[j])
            for j in range(k, end)
        )
        if first.interval is None:
            out.append(FrameRecord(0, pictures))
        else:
            ivals = np.array([frames.frames[j].interval for j in range(k, end)], np.float64)
            if not (np.all(ivals > 0) and np.all(np.isfinite(ivals))):
                raise BadValueError(
                    f"frames[{k}]: a group's intervals are times above 0 (Quake refuses"
                    f" interval<=0), got {ivals.tolist()}",
                    field="interval",
                )
            out.append(FrameRecord(1, pictures, ivals.astype(np.float32)))
        k = end
    return out


_S = TypeVar("_S", bound="IdspSprite")


class IdspSprite:
    """The shape Quake's and Half-Life's ``.spr`` share: a ``dsprite_t`` header, format
    data between it and the frames (Half-Life's palette; none in Quake), the frames as
    stored, and whatever follows them. A format subclasses it with its generated layout
    (:attr:`MAGIC`, :attr:`VERSION`, :attr:`HEADER`, :attr:`FRAMES`, :attr:`ORIENTATIONS`)
    and, when it has any, reads and writes the data between (:meth:`_read_between`,
    :meth:`_between_bytes`).

    ``header`` is the (1,) header record as stored (its floats keep their bits);
    ``records`` the stored frames (:class:`FrameRecord`); ``trailing`` the bytes after them.
    Pictures are (H,W) uint8 palette indices.
    """

    MAGIC: ClassVar[bytes]
    VERSION: ClassVar[int]
    HEADER: ClassVar[np.dtype[Any]]
    FRAMES: ClassVar[FrameLayout]
    ORIENTATIONS: ClassVar[dict[int, str]]

    def __init__(
        self,
        header: npt.NDArray[Any],
        records: Sequence[FrameRecord],
        trailing: bytes = b"",
        name: str | None = None,
    ) -> None:
        self.header = header
        self.records = list(records)
        self.trailing = trailing
        self.name = name

    @classmethod
    def from_bytes(cls: type[_S], data: bytes, name: str | None = None) -> _S:
        """The sprite in ``data``; ModelFormatError naming the field and offset else."""
        data = bytes(data)
        header = read_header(data, cls.MAGIC, cls.VERSION, cls.HEADER)
        between, at = cls._read_between(data, cls.HEADER.itemsize)
        records, end = walk_frames(data, at, int(header["num_frames"][0]), cls.FRAMES)
        sprite = cls(header, records, data[end:], name)
        sprite._set_between(between)
        return sprite

    @classmethod
    def _read_between(cls, data: bytes, at: int) -> tuple[object, int]:
        """What lies between the header at ``at`` and the frames, and where the frames
        start; nothing in Quake."""
        return None, at

    def _set_between(self, between: object) -> None:
        """Keep what :meth:`_read_between` read."""

    def _between_bytes(self) -> bytes:
        """The stored bytes between the header and the frames."""
        return b""

    @property
    def frames_offset(self) -> int:
        """Where the frames start."""
        return self.HEADER.itemsize + len(self._between_bytes())

    def to_bytes(self) -> bytes:
        """The file's bytes: the header (its frame count from :attr:`records`), the data
        between, the frames and the trailing bytes, as stored."""
        header = self.header.copy()
        header["num_frames"] = len(self.records)
        return (
            header.tobytes()
            + self._between_bytes()
            + encode_frames(self.records, self.FRAMES)
            + self.trailing
        )

    def _value(self, field: str) -> Any:
        return self.header[field].item(0)  # one indexing less than [0].item(): every frames()

    @property
    def type(self) -> int:
        """Orientation, 0..4 (:attr:`orientation` names it)."""
        return int(self._value("type"))

    @property
    def orientation(self) -> str:
        """``vp_parallel_upright``, ``facing_upright``, ``vp_parallel``, ``oriented`` or
        ``vp_parallel_oriented``; ``unknown(N)`` for another type."""
        return self.ORIENTATIONS.get(self.type, f"unknown({self.type})")

    @property
    def radius(self) -> float:
        """``boundingradius``."""
        return float(self._value("radius"))

    @property
    def max_width(self) -> int:
        """The widest frame's width in pixels (header ``max_width``, dsprite_t ``width``)."""
        return int(self._value("max_width"))

    @property
    def max_height(self) -> int:
        """The tallest frame's height in pixels (header ``max_height``, dsprite_t
        ``height``)."""
        return int(self._value("max_height"))

    @property
    def beam_length(self) -> float:
        """Header ``beam_length`` (dsprite_t ``beamlength``), unused by the engines."""
        return float(self._value("beam_length"))

    @property
    def sync_type(self) -> int:
        """0 ST_SYNC, 1 ST_RAND."""
        return int(self._value("sync_type"))

    @property
    def num_frames(self) -> int:
        """Stored frames (a group counts once)."""
        return len(self.records)

    @property
    def pictures(self) -> list[Picture]:
        """Every picture in file order (a group's one after another)."""
        return [p for r in self.records for p in r.pictures]

    def header_values(self) -> dict[str, Any]:
        """The header's fields by the spec's names (``ident`` as text)."""
        out = {name: self._value(name) for name in self.HEADER.names or ()}
        out["ident"] = self.MAGIC.decode("latin-1")
        return out

    @property
    def animations(self) -> dict[str, range]:
        """Picture ranges by clip name: ``all``, and ``frame<N>`` for each group (stored
        frame N), as ``render --clip`` names them."""
        out = {"all": range(len(self.pictures))}
        first = 0
        for i, r in enumerate(self.records):
            if r.is_group:
                out[f"frame{i}"] = range(first, first + len(r.pictures))
            first += len(r.pictures)
        return out

    def load_all(self) -> None:
        """Nothing to do: a sprite is decoded whole when it is read."""

    def summary(self) -> dict[str, Any]:
        """What ``info --json`` prints: sizes, header, pictures (size, origin, interval)."""
        return {
            "bytes": len(self.to_bytes()),
            "header": self.header_values(),
            "frames": self.num_frames,
            "pictures": [
                {
                    "frame": i,
                    "width": p.width,
                    "height": p.height,
                    "origin": [p.origin_x, p.origin_y],
                    "interval": None if r.intervals is None else float(r.intervals[k]),
                }
                for i, r in enumerate(self.records)
                for k, p in enumerate(r.pictures)
            ],
            "clips": {c: [v.start, len(v)] for c, v in self.animations.items()},
            "trailing": len(self.trailing),
        }

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} {self.name or '<bytes>'}: {self.orientation},"
            f" {self.num_frames} frames, {len(self.pictures)} pictures>"
        )


def describe_idsp(
    m: IdspSprite, title: str, sync_types: Mapping[int, str], own: Sequence[str] = ()
) -> str:
    """``quakemodels info`` text of a Quake or Half-Life ``.spr``: ``title`` (what the file
    is) with its size, the orientation, the format's ``own`` lines, the sync type named by
    ``sync_types``, radius, sizes, each frame (a group with its intervals) and any trailing
    bytes."""
    lines = [f"{m.name or '<bytes>'}: {title}, {len(m.to_bytes())} bytes"]
    lines.append(f"orientation: {m.type} ({m.orientation})")
    lines.extend(own)
    lines.append(f"sync type: {m.sync_type} ({sync_types.get(m.sync_type, 'unknown')})")
    lines.append(f"radius: {m.radius:g}, max size: {m.max_width} x {m.max_height}")
    lines.append(f"beam length: {m.beam_length:g}")
    groups = sum(r.is_group for r in m.records)
    lines.append(f"frames: {m.num_frames} ({groups} groups, {len(m.pictures)} pictures)")
    for i, r in enumerate(m.records):
        sizes = ", ".join(
            f"{p.width}x{p.height} at ({p.origin_x}, {p.origin_y})" for p in r.pictures
        )
        if r.is_group and r.intervals is not None:
            ivals = [round(float(x), 4) for x in r.intervals]
            lines.append(f"  frame {i}: group of {len(r.pictures)}, intervals {ivals}: {sizes}")
        else:
            lines.append(f"  frame {i}: {sizes}")
    if m.trailing:
        lines.append(f"trailing: {len(m.trailing)} bytes after the frames")
    return "\n".join(lines)


def check_idsp_bounds(r: Report, m: IdspSprite, offsets: Mapping[str, int]) -> None:
    """The findings every ``.spr`` shares about its bounds: a radius that is not finite, and
    a max size smaller than a picture (the engine sizes the sprite's bounds from it);
    ``offsets`` the header fields' offsets."""
    if not np.isfinite(m.radius):
        r.warning("not-finite", "radius", offsets["radius"], f"radius={m.radius} is not finite")
    widest = max((p.width for p in m.pictures), default=0)
    tallest = max((p.height for p in m.pictures), default=0)
    if widest > m.max_width or tallest > m.max_height:
        r.warning(
            "max-size",
            "max_width",
            offsets["max_width"],
            f"max size {m.max_width}x{m.max_height} is smaller than a frame ({widest}x{tallest}):"
            " the engine sizes the sprite's bounds from it",
        )


def check_idsp_trailing(r: Report, m: IdspSprite) -> None:
    """A warning for bytes after the frames of a ``.spr``, which no engine reads."""
    if m.trailing:
        r.warning(
            "trailing",
            None,
            len(m.to_bytes()) - len(m.trailing),
            f"{len(m.trailing)} bytes after the frames, which the engine never reads",
        )


_M = TypeVar("_M")


def check_sprite(
    source: object,
    engine: str,
    cls: type[_M],
    name: str | None,
    checks: Callable[[Report, _M], None],
    *,
    other_engines: Mapping[str, str],
    where: tuple[str, int],
    what: str,
) -> list[Finding]:
    """A sprite format's ``check``: ``source`` (a loaded ``cls``, bytes, a path or a binary
    file) read, an ``engine-format`` error at ``where`` (field, offset) for an engine of
    ``other_engines`` (engine -> which sprites it loads instead, "not ``what``"), the file
    parsed (its ModelFormatError a finding), then ``checks(report, model)``; never raises."""
    r = Report(engine)
    model: _M | None = None
    data = b""
    if isinstance(source, cls):
        model, label = source, name or getattr(source, "name", None)
    else:
        try:
            data, source_name = read_source(source)  # type: ignore[arg-type]
        except (OSError, TypeError) as e:
            r.error("io", None, None, f"cannot read {source!s}: {e}")
            return r.findings
        label = name or source_name

    def run(r: Report) -> None:
        if r.engine in other_engines:
            r.error("engine-format", where[0], where[1], f"{other_engines[r.engine]}, not {what}")
        m = model
        if m is None:
            try:
                m = cls.from_bytes(data, label)  # type: ignore[attr-defined]
            except ModelFormatError as e:
                r.from_error(e)
                return
        checks(r, m)

    return r.run(run)
