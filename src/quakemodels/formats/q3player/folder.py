"""The Quake III player's services to the registry, in the shapes every folder format offers
(see :mod:`quakemodels.core.format`): ``detect``, ``open``, ``check``, ``scene`` and ``clips``."""

from __future__ import annotations

import os
from collections.abc import Sequence

from ...core.findings import Finding
from ...core.scene import ExportModel
from ...errors import PlayerFolderError
from .check import check_player, check_player_model
from .files import is_player_folder
from .player import Player
from .scene import player_clips
from .scene import scene as player_scene


def detect(path: str | os.PathLike[str], game_dir: str | os.PathLike[str] | None = None) -> bool:
    """True when ``path`` names a player folder (on disk, through an archive or in a game's
    search path); never raises."""
    return is_player_folder(path, game_dir)


def open_folder(
    path: str | os.PathLike[str], game_dir: str | os.PathLike[str] | None = None
) -> Player | None:
    """The player at ``path``; None when nothing there is a folder (on disk, in an archive or a
    game's search path). PlayerFolderError when a folder lacks a part, ModelFormatError for a
    broken part."""
    try:
        return Player.from_folder(path, game_dir=game_dir)
    except PlayerFolderError as e:
        if e.reason == "no-folder":
            return None
        raise


def check(
    source: object,
    engine: str = "any",
    *,
    name: str | None = None,
    game_dir: str | os.PathLike[str] | None = None,
) -> list[Finding]:
    """Findings for a loaded :class:`Player` or a player folder's path; never raises."""
    if isinstance(source, Player):
        return check_player_model(source, engine)
    if isinstance(source, (str, os.PathLike)):
        return check_player(source, engine, game_dir)
    return [Finding("error", None, None, f"not a player folder: {source!r}", "io")]


def scene(
    player: Player,
    *,
    skin_dir: str | os.PathLike[str] | None = None,
    frames: Sequence[int] | None = None,
    skin: str = "default",
    game_dir: str | os.PathLike[str] | None = None,
) -> ExportModel:
    """The player's scene (:func:`.scene.scene`) with its skins and images found through
    ``game_dir`` when given; a player's textures come from its ``.skin`` set ``skin``, so
    ``skin_dir`` (a single model's skin folder) is not used."""
    del skin_dir
    if game_dir is not None:
        player = player.with_game_dir(game_dir)
    return player_scene(player, skin=skin, frames=frames)


def clips(player: Player) -> tuple[dict[str, range], int]:
    """The clip table and frame count of the player's scene, without decoding a frame."""
    return player_clips(player)
