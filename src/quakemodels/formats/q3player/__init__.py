"""Quake III player folders: three MD3 parts, their tags, animation.cfg and .skin files."""

from ...errors import AnimationConfigError, PlayerFolderError
from .animcfg import AnimationConfig, Clip
from .player import Placement, Player, PlayerPose, is_player_folder
from .skinfile import SkinFile, parse_skin

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
