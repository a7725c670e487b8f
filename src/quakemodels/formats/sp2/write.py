"""The writer behind the ``build`` service (:mod:`.build`): a Quake II sprite from
:class:`~quakemodels.core.sprite.SpriteFrames`, and its frame images as PCX files.

Each frame names ``sprites/<name>_<index>.pcx`` (or the given ``image_names``) and keeps its
picture (:attr:`Sp2.pictures`); :func:`image_files` encodes them as 8-bit PCX images with a
palette made from the pictures (:func:`quakemodels.core.palette.median_cut`; index 255, the
transparent one, where alpha is below half), which the writer puts beside the sprite as
``<stem>__<index>.pcx`` (the names the frame lookup tries first).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ...core.palette import PaletteLike, as_palette, median_cut, quantize
from ...core.pcx import encode_pcx
from ...core.sprite import SpriteFrames
from ...errors import BadValueError, LimitExceededError
from .layout import FRAME, HEADER, MAGIC, NAME_SIZE, TRANSPARENT, VERSION
from .limits import MAX_FRAMES
from .reader import Sp2

ALPHA_CUT = 128


def from_frames(
    frames: SpriteFrames,
    *,
    name: str | None = None,
    image_names: Sequence[str] | None = None,
    limits: bool = True,
) -> Sp2:
    """A Quake II sprite of ``frames`` (each picture one frame; a group's intervals are not
    kept: Quake II animates sprites by the entity's frame). LimitExceededError above 32
    frames unless ``limits`` is False; BadValueError for names that do not fit 63 bytes."""
    count = len(frames.frames)
    if count == 0:
        raise BadValueError("a sprite needs at least one frame", field="num_frames")
    if limits and count > MAX_FRAMES:
        raise LimitExceededError(
            f"{count} frames are above {MAX_FRAMES} (MAX_MD2SKINS)",
            field="num_frames",
            liftable=True,
        )
    stem = name or frames.name or "sprite"
    names = (
        list(image_names)
        if image_names is not None
        else [f"sprites/{stem}_{i}.pcx" for i in range(count)]
    )
    if len(names) != count:
        raise BadValueError(f"{len(names)} image names for {count} frames", field="name")
    records = np.zeros(count, FRAME)
    for i, (f, image) in enumerate(zip(frames.frames, names, strict=True)):
        raw = image.encode("latin-1", errors="replace")
        if len(raw) >= NAME_SIZE:
            raise BadValueError(
                f"frames[{i}].name {image!r} is longer than {NAME_SIZE - 1} bytes",
                field=f"frames[{i}].name",
            )
        w, h = f.size
        records[i]["width"], records[i]["height"] = w, h
        # the sprite's point inside the picture, from its left and bottom edges
        records[i]["origin_x"], records[i]["origin_y"] = -f.origin[0], h - f.origin[1]
        records[i]["name"] = raw.ljust(NAME_SIZE, b"\0")
    header = np.zeros(1, HEADER)
    header["ident"] = np.frombuffer(MAGIC, HEADER["ident"])
    header["version"] = VERSION
    header["num_frames"] = count
    return Sp2(header, records, b"", stem, [f.rgba for f in frames.frames])


def image_files(model: Sp2, stem: str, palette: PaletteLike | None = None) -> dict[str, bytes]:
    """``{"<stem>__<index>.pcx": PCX bytes}`` for the pictures :func:`from_frames` attached
    (none for a sprite read from a file)."""
    if model.pictures is None:
        return {}
    pal = median_cut(model.pictures) if palette is None else np.array(as_palette(palette))
    out = {}
    for i, rgba in enumerate(model.pictures):
        indices = quantize(rgba, pal, usable=TRANSPARENT, field=f"frames[{i}]")
        indices[rgba[..., 3] < ALPHA_CUT] = TRANSPARENT
        out[f"{stem}__{i}.pcx"] = encode_pcx(indices, pal)
    return out
