"""The writer behind the ``build`` service (:mod:`.build`): a Quake 1 sprite from
:class:`~quakemodels.core.sprite.SpriteFrames` (what ``convert`` and ``build`` give from PNG
or GIF frames).

Pixels whose alpha is below half become index 255 (transparent); the others the nearest of
the palette's colours 0..254 (:func:`quakemodels.core.palette.quantize`, as MDL skins are
quantized). Consecutive pictures of one group with intervals become a frame group. The
header's max size and radius are computed as id's sprgen computes them.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from ...core.palette import PaletteLike, quantize
from ...core.sprite import SpriteFrames, records_from_frames
from ...errors import BadValueError, LimitExceededError
from .layout import HEADER, MAGIC, TRANSPARENT, VERSION
from .limits import MAX_FRAME_SIDE, MAX_ORIENTATION, MAX_SYNC, MIN_FRAMES
from .reader import Spr

ALPHA_CUT = 128
"""Alpha below this is transparent (index 255)."""


def frame_indices(
    frames: SpriteFrames, palette: PaletteLike | None, transparent: int | None = TRANSPARENT
) -> list[npt.NDArray[np.uint8]]:
    """(H,W) uint8 palette indices per picture: nearest colour among the palette's first
    255 (or all 256 when ``transparent`` is None), ``transparent`` where alpha < half."""
    out = []
    usable = 256 if transparent is None else transparent
    for i, f in enumerate(frames.frames):
        w, h = f.size
        if max(w, h) > MAX_FRAME_SIDE:
            raise LimitExceededError(
                f"frames[{i}] is {w}x{h}: larger than {MAX_FRAME_SIDE}",
                field="width",
            )
        indices = quantize(f.rgba, palette, usable=usable, field=f"frames[{i}]")
        if transparent is not None:
            indices[f.rgba[..., 3] < ALPHA_CUT] = transparent
        out.append(indices)
    return out


def header_for(
    frames: SpriteFrames, num_frames: int, *, type: int, sync_type: int, beam_length: float
) -> np.ndarray:
    """A (1,) header record: the max size over the pictures and sprgen's radius."""
    if num_frames < MIN_FRAMES:
        raise BadValueError("a sprite needs at least one frame", field="num_frames")
    if not 0 <= type <= MAX_ORIENTATION:
        raise BadValueError(f"type={type} is no orientation 0..{MAX_ORIENTATION}", field="type")
    if not 0 <= sync_type <= MAX_SYNC:
        raise BadValueError(f"sync_type={sync_type} is neither 0 nor 1", field="sync_type")
    width = max(f.size[0] for f in frames.frames)
    height = max(f.size[1] for f in frames.frames)
    header = np.zeros(1, HEADER)
    header["ident"] = np.frombuffer(MAGIC, HEADER["ident"])
    header["version"] = VERSION
    header["type"] = type
    # sprgen: sqrt((w/2)^2 + (h/2)^2) with integer halves
    header["radius"] = math.sqrt((width >> 1) ** 2 + (height >> 1) ** 2)
    header["max_width"], header["max_height"] = width, height
    header["num_frames"] = num_frames
    header["beam_length"] = beam_length
    header["sync_type"] = sync_type
    return header


def from_frames(
    frames: SpriteFrames,
    *,
    name: str | None = None,
    palette: PaletteLike | None = None,
    type: int = 2,
    sync_type: int = 0,
    beam_length: float = 0.0,
) -> Spr:
    """A Quake 1 sprite of ``frames`` (``type`` 2 is SPR_VP_PARALLEL, what most game
    sprites use; ``sync_type`` 0 ST_SYNC) in ``palette`` (the bundled Quake palette when
    None). BadValueError naming the field for what the format cannot hold."""
    if not frames.frames:
        raise BadValueError("a sprite needs at least one frame", field="num_frames")
    records = records_from_frames(frames, frame_indices(frames, palette))
    header = header_for(
        frames, len(records), type=type, sync_type=sync_type, beam_length=beam_length
    )
    return Spr(header, records, b"", name)
