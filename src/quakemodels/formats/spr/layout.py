"""The Quake 1 sprite byte layout, as ``ksy/quake_spr.ksy`` gives it: constants and dtypes.

Everything comes from the generated ``quake_spr_layout`` (``make generate``); the frame walk
itself is :func:`quakemodels.core.sprite.walk_frames`, driven by these dtypes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.sections import field_type, offset_of
from ...core.sprite import FrameLayout
from ...kaitai import quake_spr_layout as spec

MAGIC: bytes = spec.CONTENTS["SPR_HEADER"]["ident"]
VERSION: int = int(spec.VALID["SPR_HEADER"]["version"])  # type: ignore[call-overload,unused-ignore]
HEADER: np.dtype[Any] = spec.SPR_HEADER  # dsprite_t
HEADER_SIZE = HEADER.itemsize
HEADER_FIELDS: tuple[str, ...] = tuple(HEADER.names or ())
HEADER_OFFSETS: dict[str, int] = {name: offset_of(HEADER, name) for name in HEADER_FIELDS}
# (offset, size, value) of the version word: IDSP v1 (Quake) and v2 (Half-Life) share a magic
VERSION_TEST = (
    HEADER_OFFSETS["version"],
    field_type(HEADER, "version").itemsize,
    VERSION,
)
FRAMES = FrameLayout(
    frame=spec.SPR_FRAME_PREFIX,
    group=spec.SPR_GROUP_PREFIX,
    interval=np.dtype(str(spec.TAIL["SPR_GROUP"]["element"])),
    picture=spec.SPR_PICTURE_PREFIX,
)
ORIENTATIONS: dict[int, str] = spec.ENUMS["orientation"]
SYNC_TYPES: dict[int, str] = spec.ENUMS["sync"]
TRANSPARENT = 255  # TRANSPARENT_COLOR (r_sprite.c, gl_model.c): index 255 is not drawn
PALETTE_PATH = "gfx/palette.lmp"  # where the game keeps its palette
