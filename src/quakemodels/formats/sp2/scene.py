"""The ``frames`` service: a Quake II sprite's pictures as RGBA
:class:`~quakemodels.core.sprite.SpriteFrames`, its images found as the engine finds them
(:mod:`.images`).

A frame's picture is its image at the frame's stored size (an image of another size is
used as it is, with a warning); a missing image gives a transparent picture of the stored
size and a warning. ``origin_x``/``origin_y`` are the sprite's point inside the picture,
from its left and its bottom edge (``R_DrawSpriteModel`` puts the bottom-left corner at
-origin_x right and -origin_y up), so the picture's top-left corner is at
(-origin_x, height - origin_y), y up.
"""

from __future__ import annotations

import os
import warnings

import numpy as np

from ...core.palette import PaletteLike
from ...core.skins import Listings
from ...core.sprite import SpriteFrame, SpriteFrames
from ...errors import QuakeModelsWarning
from .reader import Sp2, decode_image, find_image


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
    listings = Listings()
    out: list[SpriteFrame] = []
    names = model.image_names
    for i, ((w, h), (ox, oy)) in enumerate(zip(model.sizes, model.origins, strict=True)):
        rgba = None
        if model.pictures is not None and i < len(model.pictures):
            rgba = model.pictures[i]
        else:
            hit = find_image(
                names[i], i, model.name, skin_dir=skin_dir, game_dir=game_dir, listings=listings
            )
            if hit is None:
                warnings.warn(
                    f"frames[{i}]: image {names[i]!r} not found; drawn transparent",
                    QuakeModelsWarning,
                    stacklevel=2,
                )
            else:
                rgba = decode_image(hit[1], hit[0])
        if rgba is None:
            rgba = np.zeros((max(h, 0), max(w, 0), 4), np.uint8)
        elif rgba.shape[:2] != (h, w):
            warnings.warn(
                f"frames[{i}]: image {names[i]!r} is {rgba.shape[1]}x{rgba.shape[0]}, the frame"
                f" says {w}x{h}",
                QuakeModelsWarning,
                stacklevel=2,
            )
        out.append(SpriteFrame(rgba, (-ox, h - oy), None, i))
    base = os.path.basename(model.name) if model.name else "sprite"
    return SpriteFrames(os.path.splitext(base)[0], tuple(out))
