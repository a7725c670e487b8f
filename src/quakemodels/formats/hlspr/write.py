"""The writer behind the ``build`` service (:mod:`.build`): a Half-Life sprite from
:class:`~quakemodels.core.sprite.SpriteFrames`, with its own 256-colour palette.

The palette is the one given, else made from the pictures
(:func:`quakemodels.core.palette.median_cut`: 255 colours, index 255 black and free for the
alpha-test transparency); pixels
whose alpha is below half become index 255 with the alpha-test format. With
``tex_format="index_alpha"`` a pixel's index is its alpha (and index 255 the colour, the
pictures' mean opaque colour unless a palette is given), as Half-Life draws it.
"""

from __future__ import annotations

import math

import numpy as np

from ...core.palette import PaletteLike, as_palette, median_cut, quantize
from ...core.sprite import SpriteFrames, records_from_frames
from ...errors import BadValueError
from .layout import ALPHA_TEST, HEADER, INDEX_ALPHA, MAGIC, TEX_FORMATS, TRANSPARENT, VERSION
from .limits import MAX_ORIENTATION, MAX_TEX_FORMAT
from .reader import HlSpr

ALPHA_CUT = 128


def from_frames(
    frames: SpriteFrames,
    *,
    name: str | None = None,
    palette: PaletteLike | None = None,
    tex_format: int | str = ALPHA_TEST,
    type: int = 2,
    sync_type: int = 0,
    beam_length: float = 0.0,
) -> HlSpr:
    """A Half-Life sprite of ``frames``; BadValueError naming the field for what the
    format cannot hold."""
    if isinstance(tex_format, str):
        codes = {v: k for k, v in TEX_FORMATS.items()}
        if tex_format not in codes:
            raise BadValueError(
                f"tex_format {tex_format!r} is not one of {', '.join(codes)}", field="tex_format"
            )
        tex_format = codes[tex_format]
    if not 0 <= tex_format <= MAX_TEX_FORMAT:
        raise BadValueError(
            f"tex_format={tex_format} is not 0..{MAX_TEX_FORMAT}", field="tex_format"
        )
    if not 0 <= type <= MAX_ORIENTATION:
        raise BadValueError(f"type={type} is no orientation 0..{MAX_ORIENTATION}", field="type")
    if not frames.frames:
        raise BadValueError("a sprite needs at least one frame", field="num_frames")
    if tex_format == INDEX_ALPHA:
        pal = np.zeros((256, 3), np.uint8) if palette is None else np.array(as_palette(palette))
        if palette is None:
            pal[:] = np.arange(256, dtype=np.uint8)[:, None]  # the grey ramp sprgen's art has
            opaque = [f.rgba[f.rgba[..., 3] > 0][:, :3] for f in frames.frames]
            pixels = np.concatenate([o for o in opaque if len(o)] or [np.full((1, 3), 255)])
            pal[TRANSPARENT] = np.round(pixels.mean(axis=0)).astype(np.uint8)
        indices = [np.ascontiguousarray(f.rgba[..., 3]) for f in frames.frames]
    else:
        pal = (
            median_cut([f.rgba for f in frames.frames])
            if palette is None
            else np.array(as_palette(palette))
        )
        indices = []
        for i, f in enumerate(frames.frames):
            # index 255 stays free for transparency in every format but index-alpha
            idx = quantize(f.rgba, pal, usable=TRANSPARENT, field=f"frames[{i}]")
            if tex_format == ALPHA_TEST:
                idx[f.rgba[..., 3] < ALPHA_CUT] = TRANSPARENT
            indices.append(idx)
    records = records_from_frames(frames, indices)
    width = max(f.size[0] for f in frames.frames)
    height = max(f.size[1] for f in frames.frames)
    header = np.zeros(1, HEADER)
    header["ident"] = np.frombuffer(MAGIC, HEADER["ident"])
    header["version"] = VERSION
    header["type"] = type
    header["tex_format"] = tex_format
    header["radius"] = math.sqrt((width >> 1) ** 2 + (height >> 1) ** 2)  # as sprgen
    header["max_width"], header["max_height"] = width, height
    header["num_frames"] = len(records)
    header["beam_length"] = beam_length
    header["sync_type"] = sync_type
    sprite = HlSpr(header, records, b"", name)
    sprite.colors = pal
    return sprite
