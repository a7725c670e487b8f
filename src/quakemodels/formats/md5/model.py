"""The :class:`Md5` users get: an ``.md5mesh`` with its animations (found as
:mod:`.files` says) as a skeletal scene and as the vertex-animated scene every exporter reads.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from functools import cached_property
from pathlib import Path, PurePosixPath

import numpy as np
import numpy.typing as npt

from ...archive.vpath import model_game
from ...core.build import vertex_normals
from ...core.facade import frame_index
from ...core.findings import Finding
from ...core.gamepaths import Listings
from ...core.mesh import Mesh, SurfaceRange, flip_winding
from ...core.scene import ExportModel, Surface, model_stem
from ...core.skeletal import SkeletalClip, SkeletalScene, baked_model, pose, world_matrices
from ...core.skins import SkinImage, find_skin, skin_rgba
from ...interchange.export import export_scene
from .files import gather, read_file
from .reader import F64, CalcW, Md5Files, Md5MeshBlock
from .scene import baked, clip, pose_grouped, skeletal


class Md5(Md5Files):
    """An MD5 model (Doom 3 version 10): the ``.md5mesh`` and its animations (see
    :class:`Md5Files`); :meth:`skeletal` gives the skeletal scene, :meth:`scene` the baked
    one."""

    # -- loading ---------------------------------------------------------------------------------

    @classmethod
    def from_bytes(
        cls,
        data: bytes,
        name: str | None = None,
        *,
        anims: Sequence[str | os.PathLike[str]] | None = None,
    ) -> Md5:
        """The model in ``data`` (an ``.md5mesh``, or an ``.md5anim`` whose folder has the
        mesh), with its animations: ``anims`` (paths) when given, else the ones beside
        ``name`` (none for bytes without a name)."""
        f = gather(data, name, anims)
        return cls(f.mesh_file, f.anims, f.name, f.data, f.tag_names, f.scales)

    @classmethod
    def open(
        cls, path: str | os.PathLike[str], anims: Sequence[str | os.PathLike[str]] | None = None
    ) -> Md5:
        """The model at ``path`` (see :meth:`from_bytes`)."""
        return cls.from_bytes(read_file(path), os.fspath(path), anims=anims)

    ARRAYS: tuple[str, ...] = ()
    """The lazily decoded arrays (none: the text is parsed whole on load)."""

    def load_all(self) -> Md5:
        """Compute every mesh's bind-pose vertices now (the text was parsed and checked
        whole on load); returns self."""
        _ = self.bound
        return self

    # -- what the verbs read -----------------------------------------------------------------

    def skeletal(self, calc_w: CalcW = "doom3") -> SkeletalScene:
        """The skeletal scene: joints, one skinned mesh per mesh block, one clip per
        animation (at its frame rate), the tag joints; ``calc_w`` how each quaternion's w is
        recomputed (Doom 3's rule, or ``clamp`` as Q2PRO: :data:`.reader.CalcW`)."""
        parents = self.mesh_file.parents
        clips = [clip(n, a, parents, self.scales.get(n), calc_w) for n, a in self.anims.items()]
        bound = self.bound if calc_w == "doom3" else None
        return skeletal(self.mesh_file, clips, self.tags, bound, calc_w)

    @property
    def animations(self) -> dict[str, range]:
        """Clip name → its frames in :meth:`scene` (the rest pose alone without clips)."""
        out: dict[str, range] = {}
        start = 0
        for n, a in self.anims.items():
            label = n
            while label in out:
                label += "_"
            out[label] = range(start, start + a.num_frames)
            start += a.num_frames
        return out or {"rest": range(1)}

    @property
    def num_frames(self) -> int:
        """Frames of :meth:`scene`: every animation's, one after another (1: the rest pose)."""
        return sum(a.num_frames for a in self.anims.values()) or 1

    @property
    def frame_names(self) -> list[str]:
        """The F frame names of :meth:`scene` (``rest`` alone without animations)."""
        return self.scene().frame_names

    def scene(self, fps: float | None = None) -> ExportModel:
        """Every animation baked into vertex frames (surfaces per mesh block, tags): each at
        its own ``frameRate`` (its frames as stored), or resampled at ``fps`` frames per
        second when given (:meth:`quakemodels.core.skeletal.SkeletalScene.resampled`)."""
        return self._scene if fps is None else self._baked(fps)

    @cached_property
    def _scene(self) -> ExportModel:
        return self._baked(None)

    def _baked(self, fps: float | None) -> ExportModel:
        scene = self.skeletal()
        if fps is not None:
            scene = scene.resampled(fps)
        source = Path(self.name) if self.name else None
        em = baked_model(scene, baked(scene, self.tag_names), model_stem(self.name), source)
        surfaces = []
        for s, block in zip(em.surfaces, self.mesh_file.meshes, strict=True):
            names = _skin_names(block)
            surfaces.append(Surface(s.name, s.positions, s.normals, s.uvs, s.indices, names))
        if fps is not None:
            return ExportModel(em.name, surfaces, em.clips, em.tags, em.source, em.frame_names, fps)
        # each clip plays at its animation's frameRate: one fps when they share it, and
        # every clip's own times (glTF keys, GIF delays) either way
        rates = {a.frame_rate for a in self.anims.values()}
        rate = float(rates.pop()) if len(rates) == 1 else em.fps
        times = {
            label: (np.arange(len(frames)) / a.frame_rate).astype(np.float32)
            for (label, frames), a in zip(em.clips.items(), self.anims.values(), strict=False)
        }
        return ExportModel(
            em.name, surfaces, em.clips, em.tags, em.source, em.frame_names, rate, times
        )

    def mesh(self, frame: int = 0) -> Mesh:
        """Frame ``frame`` of :meth:`scene` as one render-ready :class:`Mesh`: every mesh
        block's vertices one after another (``vertex_ids`` and ``texcoord_ids`` their places
        there, ``Mesh.surfaces`` each block's rows), triangles counter-clockwise, normals from
        the posed triangles. Geometry only: block k's picture is ``skin_images[k]``."""
        frame = frame_index(frame, self.num_frames)
        blocks = self.mesh_file.meshes
        posed = self.frame_positions(frame)
        base = np.cumsum([0] + [len(b.uvs) for b in blocks])
        tri_base = np.cumsum([0] + [len(b.triangles) for b in blocks])
        ids = np.arange(int(base[-1]), dtype=np.int32)
        # turned counter-clockwise once: the normals (Quake's clockwise rule) take the stored
        triangles = [flip_winding(b.triangles) + o for b, o in zip(blocks, base, strict=False)]
        # a mesh file may hold no mesh (numMeshes 0): an empty mesh then
        positions = np.concatenate([np.zeros((0, 3)), *posed]).astype(np.float32)
        stored = np.concatenate([np.zeros((0, 3), np.int64)] + [flip_winding(t) for t in triangles])
        normals = vertex_normals(positions[None], stored)[0].astype(np.float32)
        return Mesh(
            positions,
            normals,
            np.concatenate([np.zeros((0, 2)), *(b.uvs for b in blocks)]).astype(np.float32),
            np.concatenate([np.zeros((0, 3), np.int64), *triangles]).astype(np.uint32),
            ids,
            ids.copy(),
            tuple(
                SurfaceRange(
                    b.name or f"mesh{k}",
                    range(int(base[k]), int(base[k + 1])),
                    range(int(tri_base[k]), int(tri_base[k + 1])),
                )
                for k, b in enumerate(blocks)
            ),
        )

    def frame_positions(self, frame: int) -> list[F64]:
        """Every mesh block's (N,3) positions in frame ``frame`` of :meth:`scene`, posing
        that frame only, from the clip of its animation alone (the bind pose itself when
        there is no animation)."""
        if not self.anims:
            return [b.positions for b in self.bound]
        scene = skeletal(self.mesh_file, (), self.tags, self.bound)
        parents = self.mesh_file.parents
        for (name, anim), frames in zip(self.anims.items(), self.animations.values(), strict=True):
            if frame in frames:
                c = clip(name, anim, parents, self.scales.get(name))
                k = slice(frame - frames.start, frame - frames.start + 1)
                one = SkeletalClip(c.name, c.times[k], c.translation[k], c.rotation[k], c.scale[k])
                world = world_matrices(scene.local(one), scene.parents)
                return [pose_grouped(m, world)[0] for m in scene.meshes]
        raise IndexError(f"frame {frame} is outside 0..{self.num_frames - 1}")

    def meshes(self, frame: int = 0) -> list[Mesh]:
        """:meth:`mesh` as a one-item list (the multi-surface formats' accessor)."""
        return [self.mesh(frame)]

    @property
    def bounds(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """(mins, maxs), each (3,) float32 as every model's, over every vertex of every frame
        of :meth:`scene` (whose positions are float32)."""
        points = [s.positions.reshape(-1, 3) for s in self.scene().surfaces if s.positions.size]
        if not points:
            return np.zeros(3, np.float32), np.zeros(3, np.float32)
        p = np.concatenate(points).astype(np.float32, copy=False)
        return p.min(axis=0), p.max(axis=0)

    def pose(self, clip_name: str | None = None) -> list[F64]:
        """Every mesh's (F,N,3) posed positions in clip ``clip_name`` (default: the rest)."""
        scene = self.skeletal()
        if clip_name is None:
            return pose(scene, scene.rest_clip())[0]
        for c in scene.clips:
            if c.name == clip_name:
                return pose(scene, c)[0]
        raise KeyError(f"no clip {clip_name!r}; clips: {', '.join(self.anims) or '(none)'}")

    def export(
        self,
        path: str | os.PathLike[str],
        *,
        frame: int | None = None,
        clip: str | None = None,
        skin_dir: str | os.PathLike[str] | None = None,
    ) -> list[Path]:
        """Write the model as glTF 2.0 (``.glb``/``.gltf``: every animation baked into frames,
        each clip an animation) or OBJ + MTL (``.obj``: one frame), by ``path``'s suffix,
        atomically; ``frame`` or ``clip`` keeps only that part. Skins are looked up beside
        the model or under ``skin_dir``. Returns the files written."""
        return export_scene(scene(self, skin_dir=skin_dir), path, frame=frame, clip=clip)

    @cached_property
    def skin_images(self) -> list[SkinImage | None]:
        """One picture per mesh block, in the order of ``mesh_file.meshes`` (and of
        ``mesh(frame).surfaces``): (H,W,4) uint8 RGBA, top row first, or None where none is
        found. A block's shader (material) name is looked up whole, then by its last path part,
        as :meth:`export` does: under the model's folder, names matched case-insensitively and
        with the other image extensions (``.pcx``, ``.tga``, ``.png``, ``.jpg``, ``.bmp``), then
        beside the model (``<stem>__<name>``, ``<stem>.<ext>``, the folder's only image); unsafe
        names (``..``, absolute) are refused with a warning
        (:func:`quakemodels.core.skins.find_skin`). A model inside a pak or pk3, or in a game
        folder, has its names looked up through that game first, as the engine finds files
        (:func:`quakemodels.archive.vpath.model_game`). Computed on first access and cached; a
        model from bytes, with no path, finds none."""
        listings = Listings()
        with model_game(self.name):
            return [
                skin_rgba(find_skin(list(_skin_names(b)), self.name, None, listings))
                for b in self.mesh_file.meshes
            ]

    def check(self, engine: str = "any") -> list[Finding]:
        """Engine-compatibility findings; never raises."""
        from .check import check_md5

        return check_md5(self, engine)

    def skin_for(self, surface: Surface, skin_dir: str | os.PathLike[str] | None) -> Surface:
        """``surface`` with the skin its names find (beside the model or in ``skin_dir``)."""
        skin = find_skin(surface.skin_names, self.name, skin_dir)
        return (
            surface
            if skin is None
            else Surface(
                surface.name,
                surface.positions,
                surface.normals,
                surface.uvs,
                surface.indices,
                surface.skin_names,
                skin,
            )
        )


def _skin_names(block: Md5MeshBlock) -> tuple[str, ...]:
    """The names a mesh block's picture is looked up by: its shader, then the shader's last
    path part (a material named ``models/monsters/imp/imp`` beside the model as ``imp.tga``)."""
    return tuple(dict.fromkeys([block.shader, PurePosixPath(block.shader).name]))


def scene(
    model: Md5,
    *,
    skin_dir: str | os.PathLike[str] | None = None,
    frames: Sequence[int] | None = None,
    fps: float | None = None,
) -> ExportModel:
    """The exporters' scene (the ``scene`` service): every clip baked (at ``fps`` when
    given, else at its own frame rate), skins looked up; ``frames``: only those frames,
    without clips."""
    em = model.scene(fps)
    em = ExportModel(
        em.name,
        [model.skin_for(s, skin_dir) for s in em.surfaces],
        em.clips,
        em.tags,
        em.source,
        em.frame_names,
        em.fps,
        em.clip_times,
    )
    return em if frames is None else em.select(list(frames))


__all__ = ["Md5", "scene"]
