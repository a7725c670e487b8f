"""The Half-Life sprite byte layout, as ``ksy/halflife_spr.ksy`` gives it: constants and
dtypes, all from the generated ``halflife_spr_layout`` (``make generate``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.sections import field_type, offset_of
from ...core.sprite import FrameLayout
from ...kaitai import halflife_spr_layout as spec

MAGIC: bytes = spec.CONTENTS["HL_SPR_HEADER"]["ident"]
VERSION: int = int(spec.VALID["HL_SPR_HEADER"]["version"])  # type: ignore[call-overload,unused-ignore]
HEADER: np.dtype[Any] = spec.HL_SPR_HEADER  # dsprite_t of Half-Life
HEADER_SIZE = HEADER.itemsize
HEADER_OFFSETS: dict[str, int] = {name: offset_of(HEADER, name) for name in HEADER.names or ()}
# (offset, size, value) of the version word: IDSP v1 (Quake) and v2 (Half-Life) share a magic
VERSION_TEST = (HEADER_OFFSETS["version"], field_type(HEADER, "version").itemsize, VERSION)
PALETTE_COUNT: np.dtype[Any] = spec.HL_SPR_PALETTE_PREFIX  # the u2 colour count
FRAMES = FrameLayout(
    frame=spec.HL_SPR_FRAME_PREFIX,
    group=spec.HL_SPR_GROUP_PREFIX,
    interval=np.dtype(str(spec.TAIL["HL_SPR_GROUP"]["element"])),
    picture=spec.HL_SPR_PICTURE_PREFIX,
)
ORIENTATIONS: dict[int, str] = spec.ENUMS["orientation"]
TEX_FORMATS: dict[int, str] = spec.ENUMS["tex_format"]
SYNC_TYPES: dict[int, str] = spec.ENUMS["sync"]
NORMAL, ADDITIVE, INDEX_ALPHA, ALPHA_TEST = (
    next(k for k, v in TEX_FORMATS.items() if v == name)
    for name in ("normal", "additive", "index_alpha", "alpha_test")
)
TRANSPARENT = 255  # alpha-test: index 255 is not drawn
