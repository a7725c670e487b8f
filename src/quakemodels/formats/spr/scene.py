"""The ``frames`` service: a Quake 1 sprite's pictures as RGBA
:class:`~quakemodels.core.sprite.SpriteFrames`, in the game's palette.

The palette is the one given, else the game's own ``gfx/palette.lmp`` when the sprite sits
in a game folder or a pak (looked up through its search path, as the engine finds it), else
the bundled Quake palette. Index 255 is transparent, as in both renderers.
"""

from __future__ import annotations

import functools
import os
import weakref

import numpy as np
import numpy.typing as npt

from ...archive.vpath import game_fs
from ...core.palette import (
    Palette,
    PaletteLike,
    as_palette,
    default_palette,
    palette_from_bytes,
)
from ...core.sprite import SpriteFrames, looked_up, rgba_lut, transparent_index
from ...errors import ModelFormatError
from .layout import PALETTE_PATH, TRANSPARENT
from .reader import Spr

TYPE_CHECKING = False  # typing is not imported at run time (see core/records.py)
if TYPE_CHECKING:
    from ...archive.gamefs import GameFS  # the archive readers: loaded with a game's search path


# Each game's palette by its search path (one GameFS a game while its archives are unchanged:
# vpath.game_fs), when it comes from an archive (GameFS.settled): read and parsed once for all
# the sprites of a game, not once a sprite. Weak keys: kept as long as the GameFS.
_GAME_PALETTES: weakref.WeakKeyDictionary[GameFS, Palette] = weakref.WeakKeyDictionary()


def game_palette(
    name: str | os.PathLike[str] | None, game_dir: str | os.PathLike[str] | None = None
) -> Palette | None:
    """The ``gfx/palette.lmp`` of the game folder the sprite ``name`` belongs to (or of
    ``game_dir``), or None when there is none or it is not a 768-byte palette. Read-only."""
    try:
        fs = game_fs(name, game_dir)
        if fs is None:
            return None
        kept = _GAME_PALETTES.get(fs)
        if kept is not None:
            return kept
        found = fs.find(PALETTE_PATH)
        if found is None:
            return None
        palette = palette_from_bytes(fs.read_found(found))
    except (OSError, ModelFormatError):
        return None
    if fs.settled(found):
        _GAME_PALETTES[fs] = palette
    return palette


@functools.lru_cache(maxsize=8)
def _lut(palette: bytes) -> npt.NDArray[np.uint32]:
    """The (256,) uint32 RGBA words of a palette's 768 bytes, index 255 transparent."""
    pal = np.frombuffer(palette, np.uint8).reshape(256, 3)
    lut = rgba_lut(pal, transparent_index(TRANSPARENT))
    lut.flags.writeable = False  # shared by every call
    return lut


def frames(
    model: Spr,
    *,
    palette: PaletteLike | None = None,
    skin_dir: str | os.PathLike[str] | None = None,
    game_dir: str | os.PathLike[str] | None = None,
) -> SpriteFrames:
    """Every picture as (H,W,4) uint8 RGBA with its origin; a group's pictures carry their
    intervals and the group's index (``skin_dir`` is unused: the pictures are inside)."""
    del skin_dir
    pal = as_palette(palette) if palette is not None else game_palette(model.name, game_dir)
    # once for every picture (and sprite) of a palette: the game's is the same for a batch
    lut = _default_lut() if pal is None else _lut(pal.tobytes())
    return looked_up(model.records, model.name, lut)


@functools.cache
def _default_lut() -> npt.NDArray[np.uint32]:
    """:func:`_lut` of the bundled palette (a sprite of no game: most of them), without
    hashing its 768 bytes on every call."""
    return _lut(default_palette().tobytes())
