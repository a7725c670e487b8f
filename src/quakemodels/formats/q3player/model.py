"""A Quake III player as a model like every other (:class:`~quakemodels.AnimatedModel`).

Its frames are the frames of its assembled scene, as ``export --format obj`` and ``render``
see it: frame 0 standing (the first frames of ``LEGS_IDLE`` and ``TORSO_STAND``), then every
cfg clip played once with the other part standing; :attr:`Player.animations` names them,
``mesh(frame)``, ``meshes(frame)``, ``bounds``, ``skin_images``, ``check`` and ``export``
work as for an MD3. What only a player has stays beside: its parts, its ``animation.cfg``
(:attr:`~.player.PlayerFolder.config`), its skin sets and :meth:`~.player.PlayerFolder.pose`.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from functools import cached_property
from pathlib import Path

import numpy as np
import numpy.typing as npt

from ...core.facade import read_only
from ...core.findings import Finding
from ...core.mesh import Mesh, merge_meshes
from ...core.records import replace
from ...core.scene import ExportModel
from ...core.skins import SkinImage, skin_rgba
from ...errors import PlayerFolderError
from ...interchange.export import export_scene, select_frames
from ...interchange.gltf_write import write_gltf_parts
from .check import check_player_model
from .gltf import gltf_parts
from .player import PlayerFolder
from .scene import player_clips
from .scene import scene as posed_scene

FloatArray = npt.NDArray[np.float32]


class Player(PlayerFolder):
    """A Quake III player folder, read: the three :class:`~quakemodels.Md3` parts joined by
    their tags, animated by ``animation.cfg`` (:attr:`config`), textured by ``.skin`` sets.

    As a model (the same API as :class:`~quakemodels.Md2` and :class:`~quakemodels.Md3`):

    * ``animations``: clip name → range of frames of the assembled scene (``stand``, then
      every cfg clip); ``num_frames``, ``frame_names``
    * ``meshes(frame)``: one :class:`~quakemodels.Mesh` per surface of the three parts in
      world space, as the engine draws the pose; ``mesh(frame)`` them merged
    * ``skin_images``: the default skin set's pictures, one per surface in ``mesh`` order
    * ``bounds``, ``check(engine)``, ``export(path)`` (a glTF keeps the parts on their tags
      and plays every clip on them)

    And as a player: ``lower``, ``upper``, ``head``, ``parts``, ``config`` (the cfg's clips),
    ``skins``/``skin(name)``, ``pose(legs, t, torso, t)``, ``clip_pair``.
    """

    @property
    def animations(self) -> dict[str, range]:
        """Clip name → range of frames of the assembled scene: ``stand`` (frame 0), then
        each cfg clip in row order."""
        return player_clips(self)[0]

    @property
    def num_frames(self) -> int:
        """F, the frames of the assembled scene (1 + every cfg clip's frames)."""
        return player_clips(self)[1]

    @property
    def frame_names(self) -> list[str]:
        """The F frame names: ``pose0``, ``pose1``... (the scene's, as exports name them)."""
        return [f"pose{i}" for i in range(self.num_frames)]

    def scene(self, *, skin: str = "default", frames: Sequence[int] | None = None) -> ExportModel:
        """The assembled scene (every frame, or only ``frames``) textured from the ``.skin``
        set ``skin``: what ``export`` and ``render`` read."""
        return posed_scene(self, skin=skin, frames=frames)

    def meshes(self, frame: int = 0) -> list[Mesh]:
        """One render-ready :class:`~quakemodels.Mesh` per surface (lower's, upper's, head's,
        in order) for ``frame`` of the assembled scene, in world space; IndexError for a frame
        outside ``0..num_frames-1`` (negative counts from the end)."""
        count = self.num_frames
        if not -count <= frame < count:
            raise IndexError(f"frame {frame} out of range (frames: 0..{count - 1})")
        em = self.scene(frames=[frame % count])
        out = []
        for s in em.surfaces:
            ids = np.arange(len(s.uvs), dtype=np.int32)
            out.append(Mesh(s.positions[0], s.normals[0], s.uvs, s.indices, ids, ids))
        return out

    def mesh(self, frame: int = 0) -> Mesh:
        """Every surface of ``frame`` (see :meth:`meshes`) as one :class:`~quakemodels.Mesh`,
        with each surface's rows in its ``surfaces``."""
        names = [s.name for _, part in self for s in part.surfaces]
        return merge_meshes(self.meshes(frame), names)

    @cached_property
    def bounds(self) -> tuple[FloatArray, FloatArray]:
        """(mins, maxs), each (3,) float32, over every vertex of every frame of the scene."""
        points = [s.positions.reshape(-1, 3) for s in self.scene().surfaces if s.positions.size]
        p = np.concatenate(points) if points else np.zeros((1, 3), np.float32)
        return read_only(p.min(axis=0)), read_only(p.max(axis=0))

    @cached_property
    def skin_images(self) -> list[SkinImage | None]:
        """The ``default`` skin set's pictures, each (H,W,4) uint8 RGBA, one per surface in
        :meth:`mesh` order; None for a surface whose picture cannot be found (or decoded:
        :func:`quakemodels.core.skins.skin_rgba`)."""
        return [skin_rgba(s.skin) for s in self.scene(frames=[0]).surfaces]

    def check(self, engine: str = "any") -> list[Finding]:
        """Engine-compatibility findings for the parts, tags, cfg and skins; never raises."""
        return check_player_model(self, engine)

    def export(
        self,
        path: str | os.PathLike[str],
        *,
        frame: int | None = None,
        clip: str | None = None,
        skin_dir: str | os.PathLike[str] | None = None,
        skin: str = "default",
    ) -> list[Path]:
        """Write the player by ``path``'s suffix, atomically: ``.glb``/``.gltf`` the parts on
        their tags with every cfg clip (or, with ``frame``/``clip``, the assembled scene's
        frames), ``.obj`` one assembled frame; textures from the ``.skin`` set ``skin``
        (``skin_dir`` is for single models and unused). Returns the files written."""
        del skin_dir
        target = Path(path)
        if target.suffix.lower() in (".glb", ".gltf") and frame is None and clip is None:
            write_gltf_parts(target, *gltf_parts(self, skin))
            return [target]
        if frame is None and clip is None:
            return export_scene(self.scene(skin=skin, frames=[0]), target, frame=0)
        picked, clips = select_frames(self.animations, self.num_frames, frame, clip)
        em = self.scene(skin=skin, frames=picked)
        em = em if frame is not None else replace(em, clips=clips)
        return export_scene(em, target, frame=0 if frame is not None else None)


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
