"""The ``frames`` service: a Quake II sprite's pictures as RGBA
:class:`~quakemodels.core.sprite.SpriteFrames`, its images found as the engine finds them
(:mod:`.images`).

A frame's picture is its image at the frame's stored size (an image of another size is
used as it is, with a warning); a missing image gives a transparent picture of the stored
size and a warning, up to the largest picture the package decodes (``core.pcx.MAX_PIXELS``;
a larger stored size is a BadValueError naming the frame's width). ``origin_x`` and
``origin_y`` are the sprite's point inside the picture, from its left and its bottom edge
(``R_DrawSpriteModel`` puts the bottom-left corner at -origin_x right and -origin_y up), so
the picture's top-left corner is at (-origin_x, height - origin_y), y up.
"""

from __future__ import annotations

import os
import warnings

import numpy as np
import numpy.typing as npt

from ...core.palette import PaletteLike
from ...core.pcx import MAX_PIXELS
from ...core.sprite import SpriteFrame, SpriteFrames, file_stem, sprite_frame
from ...errors import BadValueError, QuakeModelsWarning
from .layout import FRAME, FRAME_OFFSETS, HEADER_SIZE
from .reader import ImageSearch, Sp2, decode_image

_CLEAR = np.zeros((1, 1, 4), np.uint8)
_CLEAR.setflags(write=False)


def stand_in(index: int, width: int, height: int, image: str) -> npt.NDArray[np.uint8]:
    """The transparent (H,W,4) uint8 picture of frame ``index`` whose ``image`` is missing:
    a read-only view of one clear pixel, so it costs no memory whatever the stored size.
    A size over ``MAX_PIXELS`` raises BadValueError naming the frame's width: what draws it
    (a PNG, a contact sheet) would need that many pixels."""
    width, height = max(width, 0), max(height, 0)
    if width * height > MAX_PIXELS:
        at = HEADER_SIZE + index * FRAME.itemsize + FRAME_OFFSETS["width"]
        raise BadValueError(
            f"frames[{index}].width at offset {at}: the frame is {width}x{height} and its image"
            f" {image!r} is missing; a transparent stand-in that size would have more than"
            f" {MAX_PIXELS} pixels",
            field=f"frames[{index}].width",
            offset=at,
        )
    return np.broadcast_to(_CLEAR, (height, width, 4))


def frames(
    model: Sp2,
    *,
    palette: PaletteLike | None = None,
    skin_dir: str | os.PathLike[str] | None = None,
    game_dir: str | os.PathLike[str] | None = None,
) -> SpriteFrames:
    """Every frame's picture as (H,W,4) uint8 RGBA (``palette`` is unused: each image
    carries its own)."""
    del palette  # PCX frames carry their palette
    search = ImageSearch(model.name, skin_dir=skin_dir, game_dir=game_dir)
    out: list[SpriteFrame] = []
    names = model.image_names
    pictures = model.pictures
    # each record's fields (width, height, origin_x, origin_y, name) in one call: a field
    # at a time cost a small sprite's frames a twentieth
    for i, (w, h, ox, oy, _) in enumerate(model.records.tolist()):
        rgba = None
        if pictures is not None and i < len(pictures):
            rgba = pictures[i]
        else:
            hit = search.find(names[i], i)
            if hit is None:
                warnings.warn(
                    f"frames[{i}]: image {names[i]!r} not found; drawn transparent",
                    QuakeModelsWarning,
                    stacklevel=2,
                )
            else:
                rgba = decode_image(hit[1], hit[0])
        if rgba is None:
            rgba = stand_in(i, w, h, names[i])
        elif rgba.shape[:2] != (h, w):
            warnings.warn(
                f"frames[{i}]: image {names[i]!r} is {rgba.shape[1]}x{rgba.shape[0]}, the frame"
                f" says {w}x{h}",
                QuakeModelsWarning,
                stacklevel=2,
            )
        out.append(sprite_frame(rgba, (-ox, h - oy), None, i))
    return SpriteFrames(file_stem(model.name), tuple(out))
