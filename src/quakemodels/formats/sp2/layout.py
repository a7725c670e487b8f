"""The Quake II sprite byte layout, as ``ksy/quake2_sp2.ksy`` gives it: constants and
dtypes, from the generated ``quake2_sp2_layout`` (``make generate``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.sections import field_type, offset_of
from ...kaitai import quake2_sp2_layout as spec

MAGIC: bytes = spec.CONTENTS["SP2_HEADER"]["ident"]
VERSION: int = int(spec.VALID["SP2_HEADER"]["version"])  # type: ignore[call-overload,unused-ignore]
HEADER: np.dtype[Any] = spec.SP2_HEADER
HEADER_SIZE = HEADER.itemsize
HEADER_OFFSETS: dict[str, int] = {name: offset_of(HEADER, name) for name in HEADER.names or ()}
FRAME: np.dtype[Any] = spec.SP2_FRAME  # dsprframe_t
FRAME_OFFSETS: dict[str, int] = {name: offset_of(FRAME, name) for name in FRAME.names or ()}
NAME_SIZE: int = field_type(FRAME, "name").itemsize  # MAX_SKINNAME
TRANSPARENT = 255  # 8-bit images: index 255 is not drawn (GL_LoadPic's it_sprite)
