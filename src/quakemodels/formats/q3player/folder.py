"""The Quake III player's services to the registry, in the shapes every folder format offers
(see :mod:`quakemodels.formats.contract`; ``detect`` is :func:`.files.is_player_folder`):
``open``, ``check``, ``scene`` and ``clips``,
and what ``info --json`` and ``info --clips`` print of a player (``facts``, ``clip_lines``)."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ...core.findings import Finding
from ...core.names import plural
from ...core.scene import ExportModel
from ...interchange.gltf_write import Doc, Encoder, Piece
from .check import check_player, check_player_model
from .gltf import gltf_parts
from .player import PlayerFolder
from .scene import clip_pair_poses, player_clips, player_scene
from .scene import scene as posed_scene


def check(
    source: object,
    engine: str = "any",
    *,
    name: str | None = None,
    game_dir: str | os.PathLike[str] | None = None,
) -> list[Finding]:
    """Findings for a loaded :class:`PlayerFolder` or a player folder's path; never raises."""
    if isinstance(source, PlayerFolder):
        return check_player_model(source, engine)
    if isinstance(source, (str, os.PathLike)):
        return check_player(source, engine, game_dir)
    return [Finding("error", None, None, f"not a player folder: {source!r}", "io")]


def scene(
    player: PlayerFolder,
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
    return posed_scene(player, skin=skin, frames=frames)


def gltf(
    player: PlayerFolder, skin: str, game_dir: str | os.PathLike[str] | None
) -> tuple[Doc, list[Piece], Encoder]:
    """The player's own glTF (parts on their tags, every cfg clip) textured from its
    ``.skin`` set ``skin``, images found through ``game_dir`` when given."""
    if game_dir is not None:
        player = player.with_game_dir(game_dir)
    return gltf_parts(player, skin)


def pose(
    player: PlayerFolder,
    clips: Mapping[str, str | None],
    time: float | None,
    skin: str,
    game_dir: str | os.PathLike[str] | None,
) -> tuple[ExportModel, float, str]:
    """The player showing a legs clip and a torso clip at once (``clips``: ``legs``,
    ``torso``, each a clip name or None): one frame ``time`` seconds in, or every step over
    the longer clip (None); with the rate and a label (``LEGS_RUN+TORSO_ATTACK``)."""
    unknown = sorted(set(clips) - {"legs", "torso"})
    if unknown:
        raise ValueError(f"a player's clips play on legs and torso, not {', '.join(unknown)}")
    if game_dir is not None:
        player = player.with_game_dir(game_dir)
    legs, torso = player.clip_pair(clips.get("legs"), clips.get("torso"))
    label = "+".join(c.name for c in (legs, torso) if c is not None) or "rest"
    if time is not None:
        frames = (player.part_frames("lower", legs, time), player.part_frames("upper", torso, time))
        return player_scene(player, [frames], skin=skin), 0.0, label
    poses, fps = clip_pair_poses(player, legs, torso)
    return player_scene(player, poses, skin=skin), fps, label


def clips(player: PlayerFolder) -> tuple[dict[str, range], int]:
    """The clip table and frame count of the player's scene, without decoding a frame."""
    return player_clips(player)


def facts(
    player: PlayerFolder, name: str, part_facts: Callable[[Any, str], dict[str, Any]]
) -> dict[str, Any]:
    """``info --json`` of a player: each part's facts (``part_facts(part, name)``, the single
    models' JSON), its cfg clips and its skin sets."""
    return {
        "file": name,
        "format": "q3player",
        "parts": {part: part_facts(m, str(m.name)) for part, m in player},
        "clips": {
            c.name: {
                "part": c.kind,
                "first_frame": c.first_frame,
                "num_frames": c.num_frames,
                "loop_frames": c.loop_frames,
                "fps": c.fps,
            }
            for c in player.config
        },
        "skins": list(player.skins),
    }


def clip_lines(player: PlayerFolder, name: str) -> list[str]:
    """``info --clips`` of a player: one line per cfg clip with its part and fps."""
    lines = [f"{name}: {plural(len(player.config), 'clip')}"]
    # padded to 14 or the longest name (Team Arena names run to 21), as for single models
    width = max([14, *(len(c.name) for c in player.config)])
    for c in player.config:
        span = f"{c.first_frame}-{c.first_frame + c.num_frames - 1}"
        lines.append(
            f"  {c.name:<{width}} {c.kind:<5} frames {span:<9}"
            f" ({plural(c.num_frames, 'frame')}, {c.fps:g} fps)"
        )
    return lines
