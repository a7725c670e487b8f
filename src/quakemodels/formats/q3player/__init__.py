"""Quake III player folders: three MD3 parts, their tags, animation.cfg and .skin files.

Importing this package is light: whether a folder is a player folder (which every folder a
batch searches is asked) needs only :mod:`.files`; the Player class, and MD3's reader,
writer and checker behind it, load the first time one of the names below is used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...errors import AnimationConfigError, PlayerFolderError
from .files import is_player_folder

if TYPE_CHECKING:
    from .animcfg import AnimationConfig, Clip
    from .player import Placement, Player, PlayerPose
    from .skinfile import SkinFile, parse_skin


def __getattr__(name: str) -> Any:
    # The public names load their module on first use (see the module docstring).
    if name in ("AnimationConfig", "Clip"):
        from . import animcfg

        return getattr(animcfg, name)
    if name in ("Placement", "Player", "PlayerPose"):
        from . import player

        return getattr(player, name)
    if name in ("SkinFile", "parse_skin"):
        from . import skinfile

        return getattr(skinfile, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "AnimationConfig",
    "AnimationConfigError",
    "Clip",
    "Placement",
    "Player",
    "PlayerFolderError",
    "PlayerPose",
    "SkinFile",
    "is_player_folder",
    "parse_skin",
]
