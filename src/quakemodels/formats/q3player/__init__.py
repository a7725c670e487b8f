"""Quake III player folders: three MD3 parts, their tags, animation.cfg and .skin files.

Importing this package is light: whether a folder is a player folder (which every folder a
batch searches is asked) needs only :mod:`.files`; the Player class, and MD3's reader,
writer and checker behind it, load the first time one of the names below is used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.lazy import lazy_attribute
from ...errors import AnimationConfigError, PlayerFolderError
from .files import is_player_folder

if TYPE_CHECKING:
    from .animcfg import AnimationConfig, Clip
    from .player import Placement, Player, PlayerPose
    from .skinfile import SkinFile, parse_skin


_LAZY = {
    **dict.fromkeys(("AnimationConfig", "Clip"), ".animcfg"),
    **dict.fromkeys(("Placement", "Player", "PlayerPose"), ".player"),
    **dict.fromkeys(("SkinFile", "parse_skin"), ".skinfile"),
}


def __getattr__(name: str) -> Any:
    # The public names load their module on first use (see the module docstring).
    return lazy_attribute(__name__, _LAZY, name)


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
