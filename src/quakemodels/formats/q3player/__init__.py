"""Quake III player folders: three MD3 parts, their tags, animation.cfg and .skin files.

A folder format (:attr:`~quakemodels.formats.contract.Kind.FOLDER`): opened from a folder, not from
bytes. Declarative: :data:`FORMAT` names the services (each imported on first use, see
:mod:`quakemodels.formats.contract`), and the public names below load their module the same way, so
asking whether a folder is a player's needs only :mod:`.files`, not the Player class or MD3's
reader, writer and checker.
"""

from __future__ import annotations

from ...errors import AnimationConfigError, PlayerFolderError
from ..contract import Format, Kind, Services, lazy_names

TYPE_CHECKING = False  # typing is not imported at run time (see formats/contract.py)
if TYPE_CHECKING:
    from .animcfg import AnimationConfig, Clip
    from .files import is_player_folder
    from .model import Player
    from .player import Placement, PlayerPose
    from .skinfile import SkinFile, parse_skin

FORMAT = Format(
    name="q3player",
    title="Quake III player",
    kind=Kind.FOLDER,
    package=__name__,
    services=Services(
        model="model:Player",
        detect="files:is_player_folder",  # light: no Player or MD3 code to ask
        open="model:open_folder",
        check="folder:check",
        describe="describe:describe_player",
        scene="folder:scene",
        clips="folder:clips",
        build="build:build",
        members="files:find_parts",
        folders="parts:player_folders",
        gltf="folder:gltf",
        pose="folder:pose",
        facts="folder:facts",
        clip_lines="folder:clip_lines",
    ),
    exports=("Player",),
)

__getattr__ = lazy_names(
    __name__,
    {
        "AnimationConfig": "animcfg",
        "Clip": "animcfg",
        "is_player_folder": "files",
        "Placement": "player",
        "Player": "model",
        "PlayerPose": "player",
        "SkinFile": "skinfile",
        "parse_skin": "skinfile",
    },
)

__all__ = [
    "FORMAT",
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
