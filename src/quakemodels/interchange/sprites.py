"""Sprites as pictures: PNG frames, a contact sheet and an animated GIF out of
:class:`~quakemodels.core.sprite.SpriteFrames`, and frames read back from PNG or GIF files
(what ``build``/``convert`` turn into a sprite).

Pictures keep their alpha (each format's ``frames`` service decides it: Quake's index 255,
Half-Life's texture formats); a GIF holds one transparent colour only, so its frames are
composited over ``background`` (or keep fully transparent pixels transparent when it is
None) and each shows for its own duration (:meth:`SpriteFrames.durations`).
"""

from __future__ import annotations

import io
import math
import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt
from PIL import Image, ImageDraw, ImageSequence

from ..core.atomic import write_bytes_atomic
from ..core.png import encode_png
from ..core.sprite import DEFAULT_INTERVAL, PLACED_PIXELS, SpriteFrame, SpriteFrames
from ..errors import BadValueError
from . import render

BACKGROUND = (0, 0, 0)
"""What additive and index-alpha sprites are drawn over in previews: black, where an
additive picture shows exactly its own colours."""
MIN_CELL_WIDTH = 64
"""A contact sheet's cells are at least this wide, so labels do not run into each other."""
GIF_TICK = 0.01
"""A GIF frame's delay is stored in hundredths of a second."""


def composite(rgba: npt.NDArray[np.uint8], background: tuple[int, int, int]) -> Image.Image:
    """(H,W,4) uint8 ``rgba`` blended over an opaque ``background`` colour, as RGB."""
    if not rgba.size:
        return Image.new("RGB", (0, 0))  # see _image
    alpha = rgba[..., 3:4].astype(np.float32) / 255.0
    bg = np.array(background, np.float32)
    rgb = rgba[..., :3].astype(np.float32) * alpha + bg * (1.0 - alpha)
    return Image.fromarray(np.round(rgb).astype(np.uint8), "RGB")


def png_frames(frames: SpriteFrames) -> list[bytes]:
    """Each picture as a PNG (RGBA, its own size); BadValueError naming a picture with no
    pixels (a stored width or height of 0), which PNG cannot hold."""
    for i, f in enumerate(frames.frames):
        if not f.rgba.size:
            width, height = f.size
            raise BadValueError(
                f"frames[{i}] is {width}x{height}: a PNG cannot hold a picture with no pixels",
                field=f"frames[{i}]",
            )
    return [encode_png(np.ascontiguousarray(f.rgba)) for f in frames.frames]


def save_png_frames(frames: SpriteFrames, folder: str | os.PathLike[str], stem: str) -> list[Path]:
    """Write ``<stem>_<index>.png`` per picture into ``folder`` (each atomically); the
    paths written."""
    out = []
    for i, data in enumerate(png_frames(frames)):
        path = Path(folder) / f"{stem}_{i}.png"
        write_bytes_atomic(path, data)
        out.append(path)
    return out


def frame_image(
    frames: SpriteFrames,
    index: int,
    *,
    scale: int = 1,
    background: tuple[int, int, int] | None = None,
) -> Image.Image:
    """Picture ``index`` (IndexError outside the frames), ``scale`` times larger (nearest),
    RGBA, or RGB over ``background`` when given."""
    count = len(frames.frames)
    if not -count <= index < count:
        raise IndexError(f"frame {index} out of range for {count} frames")
    rgba = frames.frames[index].rgba
    img = _image(rgba) if background is None else composite(rgba, background)
    return _scaled(img, scale)


def _image(rgba: npt.NDArray[np.uint8]) -> Image.Image:
    """(H,W,4) uint8 ``rgba`` as an RGBA image; a picture of no pixels as a 0x0 one, since a
    stored size such as 642739065x0 makes Pillow allocate for its 642 million columns."""
    if not rgba.size:
        return Image.new("RGBA", (0, 0))
    return Image.fromarray(rgba, "RGBA")


def fitted(
    img: Image.Image, size: tuple[int, int], background: tuple[int, int, int] | None = None
) -> Image.Image:
    """``img`` zoomed to fit ``size`` (W, H) and centred on a canvas of exactly that size:
    a whole-number zoom (nearest, square pixels) when it fits at least once, else shrunk
    (Lanczos); transparent around it, or over ``background`` as RGB."""
    w, h = size
    if not (img.width and img.height):  # a picture of no pixels: the canvas alone
        img = Image.new("RGBA", (1, 1), (0, 0, 0, 0))
    zoom = min(w / img.width, h / img.height)
    if zoom >= 1:
        k = int(zoom)
        scaled = _scaled(img, k)
    else:
        new = (max(1, round(img.width * zoom)), max(1, round(img.height * zoom)))
        scaled = img.convert("RGBA").resize(new, Image.Resampling.LANCZOS)
    canvas = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    canvas.alpha_composite(
        scaled.convert("RGBA"), ((w - scaled.width) // 2, (h - scaled.height) // 2)
    )
    if background is None:
        return canvas
    return composite(np.asarray(canvas), background)


def _scaled(img: Image.Image, scale: int) -> Image.Image:
    if scale == 1 or not (img.width and img.height):  # Pillow refuses to resize 0 pixels
        return img
    return img.resize((img.width * scale, img.height * scale), Image.Resampling.NEAREST)


def contact_sheet(
    frames: SpriteFrames,
    *,
    scale: int = 2,
    background: tuple[int, int, int] = BACKGROUND,
) -> Image.Image:
    """Every picture on one sheet, in a grid of equal cells (the largest picture's size ×
    ``scale``, at least :data:`MIN_CELL_WIDTH` wide), each labelled with its index and, in a
    group, its interval."""
    count = max(1, len(frames.frames))
    cols = max(1, math.ceil(math.sqrt(count)))
    rows = math.ceil(count / cols)
    # cells fit the largest picture and a label ("14 0.05s"): at least 16 pixels of picture
    cell_w = max(max([f.size[0] for f in frames.frames] + [16]) * scale + 8, MIN_CELL_WIDTH)
    cell_h = max([f.size[1] for f in frames.frames] + [16]) * scale + 8
    label_h = 14
    size = (cols * cell_w, rows * (cell_h + label_h))
    if size[0] * size[1] > PLACED_PIXELS:  # pictures of stored sizes near the limit, many
        raise BadValueError(
            f"a contact sheet of {len(frames.frames)} pictures in cells of {cell_w}x{cell_h}"
            f" would be {size[0]}x{size[1]} pixels, more than {PLACED_PIXELS}: render them"
            " one at a time (--frame)",
            field="frames",
        )
    sheet = Image.new("RGB", size, (40, 40, 48))
    draw = ImageDraw.Draw(sheet)
    for k, f in enumerate(frames.frames):
        x, y = (k % cols) * cell_w, (k // cols) * (cell_h + label_h)
        img = _scaled(composite(f.rgba, background), scale)
        sheet.paste(img, (x + (cell_w - img.width) // 2, y + (cell_h - img.height) // 2))
        label = f"{k}" if f.interval is None else f"{k} {f.interval:.3g}s"
        draw.text((x + 4, y + cell_h), label, fill=(230, 230, 230))
    return sheet


def gif_durations(frames: SpriteFrames, default_interval: float = DEFAULT_INTERVAL) -> list[int]:
    """Milliseconds each picture shows in a GIF: its duration rounded to the GIF's
    hundredths, at least one (a delay of 0 plays as fast as the viewer can)."""
    tick = round(GIF_TICK * 1000)
    return [max(1, round(d / GIF_TICK)) * tick for d in frames.durations(default_interval)]


def gif_bytes(
    frames: SpriteFrames,
    *,
    scale: int = 1,
    background: tuple[int, int, int] | None = BACKGROUND,
    default_interval: float = DEFAULT_INTERVAL,
) -> bytes:
    """An endlessly looping GIF of every picture placed on one canvas (so frames of
    different sizes stay put), each shown for its duration (:func:`gif_durations`); over
    ``background``, or with fully transparent pixels left transparent when it is None.
    BadValueError with no frames."""
    if not frames.frames:
        raise BadValueError("a sprite with no frames has no animation", field="frames")
    durations = gif_durations(frames, default_interval)
    placed = frames.placed()
    if not placed[0].size:
        raise BadValueError(
            "the sprite's pictures have no pixels (a stored width or height of 0): a GIF"
            " cannot hold them",
            field="frames",
        )
    height, width = placed[0].shape[0] * scale, placed[0].shape[1] * scale
    if max(width, height) > render.GIF_MAX_SIDE:
        raise BadValueError(
            f"the sprite's pictures placed at their origins span {width}x{height} pixels: a GIF"
            f" is at most {render.GIF_MAX_SIDE} on a side",
            field="frames",
        )
    if background is not None:
        images = [_scaled(composite(rgba, background), scale) for rgba in placed]
        return render.gif_bytes(images, durations=durations)
    # One transparent colour: index 255 of each frame's palette, the other 255 adaptive.
    paletted: list[Image.Image] = []
    for rgba in placed:
        img = composite(rgba, (0, 0, 0)).convert("P", palette=Image.Palette.ADAPTIVE, colors=255)
        indices = np.array(img)
        indices[rgba[..., 3] == 0] = 255
        colours = (img.getpalette() or [])[: 255 * 3]
        out = Image.fromarray(indices, "P")
        out.putpalette(colours + [0] * (768 - len(colours)))
        paletted.append(_scaled(out, scale))
    buf = io.BytesIO()
    first, *rest = paletted
    first.save(
        buf,
        format="GIF",
        save_all=True,
        append_images=rest,
        loop=0,
        duration=durations,
        transparency=255,
        disposal=2,  # clear to transparent between frames, or the previous one shows through
        optimize=False,
    )
    return buf.getvalue()


def save_gif(frames: SpriteFrames, path: str | os.PathLike[str], **options: object) -> None:
    """Write :func:`gif_bytes` atomically."""
    write_bytes_atomic(path, gif_bytes(frames, **options))  # type: ignore[arg-type]


# -- reading pictures back -------------------------------------------------------------------


def _rgba(img: Image.Image) -> npt.NDArray[np.uint8]:
    return np.array(img.convert("RGBA"), np.uint8)


def read_frames(
    paths: Sequence[str | os.PathLike[str]],
    *,
    name: str = "sprite",
    group: bool = False,
    interval: float = DEFAULT_INTERVAL,
) -> SpriteFrames:
    """Frames from PNG (or any still picture Pillow opens) and animated GIF files, in
    order, each centred on the sprite's point (origin (-w/2, h/2), as Quake's sprgen
    places them). A GIF's frames keep their delays as a group's cumulative intervals; with
    ``group`` all pictures form one group shown ``interval`` seconds each. ModelFormatError
    (BadValueError) naming the file when one cannot be read."""
    pictures: list[tuple[npt.NDArray[np.uint8], float | None]] = []
    for p in paths:
        try:
            with Image.open(p) as img:
                if getattr(img, "is_animated", False):
                    for frame in ImageSequence.Iterator(img):
                        delay = frame.info.get("duration", interval * 1000) / 1000.0
                        pictures.append((_rgba(frame), float(delay) or interval))
                else:
                    pictures.append((_rgba(img), None))
        except (OSError, Image.DecompressionBombError, SyntaxError, ValueError) as e:
            raise BadValueError(
                f"cannot read frame picture {os.fspath(p)}: {e}", field="frames"
            ) from e
    out: list[SpriteFrame] = []
    animated = len(pictures) > 1 and any(d is not None for _, d in pictures)
    elapsed = 0.0
    for k, (rgba, delay) in enumerate(pictures):
        h, w = rgba.shape[:2]
        origin = (-(w // 2), h // 2)
        if group or animated:
            elapsed += delay if delay is not None else interval
            out.append(SpriteFrame(rgba, origin, round(elapsed, 6), 0))
        else:
            out.append(SpriteFrame(rgba, origin, None, k))
    return SpriteFrames(name, tuple(out))
