"""A Half-Life sprite (``.spr``, IDSP version 2): Quake's layout plus a texture format and
the sprite's own palette, read from and written back to the same bytes."""

from __future__ import annotations

import os
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from ...core.atomic import write_bytes_atomic
from ...core.facade import Readable, read_source
from ...core.sprite import FrameLayout, IdspSprite
from ...errors import BadValueError, TruncatedError
from .layout import FRAMES, HEADER, MAGIC, ORIENTATIONS, PALETTE_COUNT, TEX_FORMATS, VERSION


class HlSpr(IdspSprite):
    """A Half-Life sprite: ``header``, ``colors`` (its palette, (N,3) uint8 as stored, N
    usually 256), ``records`` (single frames and groups), ``trailing`` bytes. Pictures are
    (H,W) uint8 indices into :attr:`colors`; what an index shows depends on
    :attr:`tex_format`."""

    MAGIC: ClassVar[bytes] = MAGIC
    VERSION: ClassVar[int] = VERSION
    HEADER: ClassVar[np.dtype[Any]] = HEADER
    FRAMES: ClassVar[FrameLayout] = FRAMES
    ORIENTATIONS: ClassVar[dict[int, str]] = ORIENTATIONS

    colors: npt.NDArray[np.uint8] = np.zeros((0, 3), np.uint8)

    @classmethod
    def _read_between(cls, data: bytes, at: int) -> tuple[object, int]:
        if at + PALETTE_COUNT.itemsize > len(data):
            raise TruncatedError(
                f"palette.num_colors at offset {at} needs {PALETTE_COUNT.itemsize} bytes,"
                f" the file ends at {len(data)}",
                field="palette.num_colors",
                offset=at,
            )
        count = int(np.frombuffer(data, PALETTE_COUNT, 1, at)[0][0])
        if count < 0:
            raise BadValueError(
                f"palette.num_colors={count} at offset {at} is negative",
                field="palette.num_colors",
                offset=at,
            )
        start = at + PALETTE_COUNT.itemsize
        if start + 3 * count > len(data):
            raise TruncatedError(
                f"palette.colors at offset {start}: {count} colours need {3 * count} bytes,"
                f" the file ends at {len(data)}",
                field="palette.colors",
                offset=start,
            )
        colors = np.frombuffer(data, np.uint8, 3 * count, start).reshape(count, 3)
        return colors, start + 3 * count

    def _set_between(self, between: object) -> None:
        assert isinstance(between, np.ndarray)
        self.colors = between

    def _between_bytes(self) -> bytes:
        count = np.array([(len(self.colors),)], PALETTE_COUNT)
        return count.tobytes() + np.ascontiguousarray(self.colors, np.uint8).tobytes()

    @classmethod
    def from_file(cls, source: Readable) -> HlSpr:
        """The sprite in a path, bytes or binary file."""
        data, name = read_source(source)
        return cls.from_bytes(data, name)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write :meth:`to_bytes` to ``path`` atomically."""
        write_bytes_atomic(path, self.to_bytes())

    @property
    def tex_format(self) -> int:
        """0 normal, 1 additive, 2 index-alpha, 3 alpha-test (:attr:`blend` names it)."""
        # _value's read without its call: every frames() reads it
        return int(self.header["tex_format"].item(0))

    @property
    def blend(self) -> str:
        """``normal``, ``additive``, ``index_alpha``, ``alpha_test`` or ``unknown(N)``."""
        return TEX_FORMATS.get(self.tex_format, f"unknown({self.tex_format})")

    @property
    def palette(self) -> npt.NDArray[np.uint8]:
        """(256,3) uint8: :attr:`colors`, cut or padded with black to 256 colours."""
        out = np.zeros((256, 3), np.uint8)
        n = min(256, len(self.colors))
        out[:n] = self.colors[:n]
        return out
