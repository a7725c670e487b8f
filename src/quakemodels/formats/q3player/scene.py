"""A player's assembled poses as one exporter model (renders, OBJ of a pose, previews).

:func:`player_scene` turns a list of poses into an :class:`~quakemodels.core.scene.ExportModel`
whose frame ``i`` is pose ``i`` in world space: every surface of the three parts, placed by
the tags as :meth:`PlayerFolder.pose_frames` places them, normals turned by each part's axis, skins
from the chosen ``.skin``. The software renderer and the OBJ writer then draw an assembled
player with no code of their own for players.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from ...core.gamepaths import game_path
from ...core.mesh import flip_winding
from ...core.records import replace
from ...core.scene import OPAQUE, ExportModel, Surface
from ...core.skins import Skin
from .animcfg import Clip
from .materials import part_materials
from .player import FrameLerp, PlayerFolder

Pose = tuple[FrameLerp, FrameLerp]  # (legs, torso)


def player_scene(
    player: PlayerFolder,
    poses: Sequence[Pose],
    *,
    skin: str = "default",
    name: str | None = None,
    frame_names: Sequence[str] | None = None,
) -> ExportModel:
    """An ExportModel with one frame per pose (named ``frame_names``, default ``pose<i>``);
    one clip ``"pose"`` over all of them. Only the part frames the poses show are decoded,
    unless they are many (then each part's arrays are decoded whole, once)."""
    textures = player.skin_textures(skin)
    materials = part_materials(player, skin)
    names = _game_names(player, skin)
    images: dict[Path, Skin | None] = {}
    for part, model in player.parts.items():
        shown = {f for legs, torso in poses for f in _part_frames(part, legs, torso)}
        if 4 * len(shown) >= model.num_frames:  # most frames: one decode of each array
            for s in model.surfaces:
                s.positions, s.normals  # noqa: B018 - decoded and cached for the poses
    per_pose = [player.pose_frames(legs, torso) for legs, torso in poses]
    surfaces = []
    for part, model in player.parts.items():
        for i, s in enumerate(model.surfaces):
            positions = np.stack([p.surfaces[part][i] for p in per_pose])
            normals = []
            for p in per_pose:
                a, b, frac = p.frames[part]
                na, nb = s.frames_normals((a, b))
                n = na.astype(np.float64) * (1 - frac) + nb * frac
                n = n @ p.placements[part].axis
                n /= np.maximum(np.linalg.norm(n, axis=1, keepdims=True), 1e-12)
                normals.append(n)
            path = textures[part].get(s.name)
            if path is not None and path not in images:
                images[path] = player.texture(path)
            surfaces.append(
                Surface(
                    name=s.name,
                    positions=positions.astype(np.float32),
                    normals=np.stack(normals).astype(np.float32),
                    uvs=np.ascontiguousarray(s.texcoords, dtype=np.float32),
                    indices=flip_winding(np.asarray(s.triangles, dtype=np.uint32)),
                    skin_names=names[part].get(s.name.lower(), ()) if path else (),
                    skin=images.get(path) if path else None,
                    material=materials.get(part, {}).get(s.name, OPAQUE),
                )
            )
    return ExportModel(
        name=name or player.name,
        surfaces=surfaces,
        clips={"pose": range(len(poses))},
        source=player.folder,
        frame_names=list(frame_names or (f"pose{i}" for i in range(len(poses)))),
    )


def _game_names(player: PlayerFolder, skin: str) -> dict[str, dict[str, tuple[str, ...]]]:
    """The names the engine opens each surface's texture by, per part (lower-case surface
    name → names): the ``.skin`` file's path for the surface, else the MD3's shader names.
    Game paths, never the path of the file found on this machine, so that a model written
    from this scene names nothing outside the game folder."""
    out: dict[str, dict[str, tuple[str, ...]]] = {}
    for part, model in player.parts.items():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # skin_textures has read (and warned about) it
            parsed = player.skin_file(part, skin)
        named = parsed.surfaces if parsed is not None else {}
        out[part] = {}
        for s in model.surfaces:
            from_skin = named.get(s.name.lower())
            found = (from_skin,) if from_skin else tuple(sh.name for sh in s.shaders)
            out[part][s.name.lower()] = tuple(g for n in found if (g := game_path(n)))
    return out


def _part_frames(part: str, legs: FrameLerp, torso: FrameLerp) -> tuple[int, ...]:
    """The frames of ``part`` a pose with ``legs`` and ``torso`` blends."""
    a, b, _ = {"lower": legs, "upper": torso}.get(part, (0, 0, 0.0))
    return (a, b)


def clip_pair_poses(
    player: PlayerFolder, legs: Clip | None, torso: Clip | None
) -> tuple[list[Pose], float]:
    """Poses sampling a legs clip and a torso clip played together, and their rate (fps).

    Sampled every ``frame_lerp`` ms of the faster clip, over the longer clip's duration
    (a looping clip's duration covers one full loop).
    """
    clips = [c for c in (legs, torso) if c is not None]
    if not clips:
        return [((0, 0, 0.0), (0, 0, 0.0))], 10.0
    step = min(c.frame_lerp for c in clips) / 1000.0
    duration = max(c.duration for c in clips)
    count = max(1, math.ceil(duration / step - 1e-9))
    poses = []
    for k in range(count):
        t = k * step
        poses.append((player.part_frames("lower", legs, t), player.part_frames("upper", torso, t)))
    return poses, 1.0 / step


def stand_pose(player: PlayerFolder) -> Pose:
    """The engine's idle state: the first frames of ``LEGS_IDLE`` and ``TORSO_STAND`` (frame 0
    of a part whose cfg lacks its clip)."""
    legs, torso = player.config.get("LEGS_IDLE"), player.config.get("TORSO_STAND")
    return player.part_frames("lower", legs, 0.0), player.part_frames("upper", torso, 0.0)


def clip_poses(player: PlayerFolder, clip: Clip) -> list[Pose]:
    """One pose per frame of ``clip`` played once; the other part stands (:func:`stand_pose`),
    and a ``BOTH_`` clip plays on both."""
    stand_legs, stand_torso = stand_pose(player)
    poses = []
    for k in range(clip.num_frames):
        t = k * clip.frame_lerp / 1000.0
        legs = player.part_frames("lower", clip, t) if clip.kind != "torso" else stand_legs
        torso = player.part_frames("upper", clip, t) if clip.kind != "legs" else stand_torso
        poses.append((legs, torso))
    return poses


def scene_poses(player: PlayerFolder) -> tuple[list[Pose], dict[str, range]]:
    """The poses of a player's scene: frame 0 standing (clip ``stand``), then every cfg
    clip's frames (one clip each, named as in the cfg). Only frame numbers: nothing decoded."""
    poses = [stand_pose(player)]
    clips = {"stand": range(1)}
    for clip in player.config:
        frames = clip_poses(player, clip)
        clips[clip.name] = range(len(poses), len(poses) + len(frames))
        poses += frames
    return poses, clips


def player_clips(player: PlayerFolder) -> tuple[dict[str, range], int]:
    """The clip table and frame count of :func:`scene`'s model, without decoding a frame."""
    poses, clips = scene_poses(player)
    return clips, len(poses)


def scene(
    player: PlayerFolder, *, skin: str = "default", frames: Sequence[int] | None = None
) -> ExportModel:
    """The exporters' view of a player: frame 0 standing (clip ``stand``), then every cfg
    clip's frames assembled, one clip each (named as in the cfg). With ``frames``, only those
    frames of it, in that order and without clips (decoding only the part frames they show)."""
    poses, clips = scene_poses(player)
    if frames is not None:
        picked = [poses[f] for f in frames]
        names = [f"pose{f}" for f in frames]
        return replace(player_scene(player, picked, skin=skin, frame_names=names), clips={})
    return replace(player_scene(player, poses, skin=skin), clips=clips)
