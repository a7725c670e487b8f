"""A Quake 1 sprite (``.spr``, IDSP version 1): its header, its frames as stored, and any
bytes after them, read from and written back to the same bytes."""

from __future__ import annotations

import os
from typing import Any, ClassVar

import numpy as np

from ...core.atomic import write_bytes_atomic
from ...core.facade import Readable, read_source
from ...core.sprite import FrameLayout, IdspSprite
from .layout import FRAMES, HEADER, MAGIC, ORIENTATIONS, VERSION


class Spr(IdspSprite):
    """A Quake 1 sprite: ``header`` (the stored ``dsprite_t``), ``records`` (single frames
    and groups with their intervals), ``trailing`` bytes. Pictures are (H,W) uint8 indices
    into the game's palette; index 255 is transparent."""

    MAGIC: ClassVar[bytes] = MAGIC
    VERSION: ClassVar[int] = VERSION
    HEADER: ClassVar[np.dtype[Any]] = HEADER
    FRAMES: ClassVar[FrameLayout] = FRAMES
    ORIENTATIONS: ClassVar[dict[int, str]] = ORIENTATIONS

    @classmethod
    def from_file(cls, source: Readable) -> Spr:
        """The sprite in a path, bytes or binary file."""
        data, name = read_source(source)
        return cls.from_bytes(data, name)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write :meth:`to_bytes` to ``path`` atomically."""
        write_bytes_atomic(path, self.to_bytes())
