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

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ..errors import BadValueError, TruncatedError
from .sections import offset_of

DEFAULT_INTERVAL = 0.1
"""Seconds a single frame shows in an animation (Quake steps an entity's frame at 10 Hz)."""


@dataclass(frozen=True)
class SpriteFrame:
    """One picture: ``rgba`` (H,W,4) uint8, top row first; ``origin`` (x, y) the position of
    its top-left corner relative to the sprite's point, in pixels, y up (as Quake and
    Half-Life store it; Quake II's origin, the point inside the picture, is (-x, y));
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
        picture shows from the previous one's end to its own; single frames ``default``."""
        out: list[float] = []
        previous: dict[int, float] = {}
        for f in self.frames:
            if f.interval is None:
                out.append(default)
                continue
            start = previous.get(f.group, 0.0)
            out.append(max(f.interval - start, 0.0))
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
        around it, so that an animation of pictures of different sizes does not jump."""
        left, top, right, bottom = self.bounds()
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
    rgba = np.empty((*indices.shape, 4), np.uint8)
    rgba[..., :3] = palette[indices]
    rgba[..., 3] = 255 if alpha is None else alpha[indices]
    return rgba


def transparent_index(index: int = 255) -> npt.NDArray[np.uint8]:
    """(256,) uint8 alpha: opaque except ``index`` (Quake's sprites and alpha-tested
    pictures leave index 255 out)."""
    alpha = np.full(256, 255, np.uint8)
    alpha[index] = 0
    return alpha


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
    BadValueError when a group's intervals do not increase from above 0."""
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
            if not (ivals[0] > 0 and np.all(np.diff(ivals) > 0) and np.all(np.isfinite(ivals))):
                raise BadValueError(
                    f"frames[{k}]: a group's intervals are cumulative end times above 0 that"
                    f" increase, got {ivals.tolist()}",
                    field="interval",
                )
            out.append(FrameRecord(1, pictures, ivals.astype(np.float32)))
        k = end
    return out
