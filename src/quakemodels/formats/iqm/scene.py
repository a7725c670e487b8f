"""An IQM as the exporters' scene: its skeletal scene posed (:func:`core.skeletal.bake`) at
every frame of every anim, one surface per mesh skinned from its material name, the ``tag_*``
joints as tags. IQM is Z up like Quake, so no change of axes."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from ...archive.vpath import model_game
from ...core.gamepaths import Listings
from ...core.records import replace
from ...core.scene import ExportModel, model_stem
from ...core.skeletal import SkeletalClip, SkeletalScene, bake, baked_model, frame_name
from ...core.skins import SkinImage, find_skin, skin_rgba
from .reader import IqmReader


def clip_table(skel: SkeletalScene) -> tuple[dict[str, range], list[str]]:
    """The frame ranges and frame names :func:`bake` gives ``skel``, without posing."""
    ranges: dict[str, range] = {}
    names: list[str] = []
    start = 0
    for clip in skel.clips or [skel.rest_clip()]:
        label = clip.name
        while label in ranges:
            label += "_"
        ranges[label] = range(start, start + clip.num_frames)
        names += [frame_name(label, k, clip.num_frames) for k in range(clip.num_frames)]
        start += clip.num_frames
    return ranges, names


def picked(skel: SkeletalScene, frames: Sequence[int]) -> SkeletalScene:
    """``skel`` with one clip holding only ``frames`` (indices over all clips in order)."""
    clips = skel.clips or [skel.rest_clip()]
    idx = np.asarray(frames, dtype=np.intp)
    joined = SkeletalClip(
        "frames",
        np.arange(len(idx), dtype=np.float64),
        np.concatenate([c.translation for c in clips])[idx],
        np.concatenate([c.rotation for c in clips])[idx],
        np.concatenate([c.scale for c in clips])[idx],
    )
    return replace(skel, clips=[joined])


def frame_scene(m: IqmReader, frame: int) -> SkeletalScene:
    """``picked(m.skeletal(), [frame])`` read as a first pose needs it: the rest scene and
    the channels of ``frame`` alone (no other frame decoded, no other section checked)."""
    rest = m.rest_scene()  # first, as skeletal() reads it: the same first fault
    clip = m.frame_clip(frame)
    return picked(rest, [frame]) if clip is None else replace(rest, clips=[clip])


def skin_images(m: IqmReader) -> list[SkinImage | None]:
    """Each IQM mesh's picture, found by its material name as :func:`scene` finds it (see
    ``Iqm.skin_images``)."""
    listings = Listings()
    with model_game(m.name):
        return [
            skin_rgba(find_skin([r.material] if r.material else [], m.name, None, listings))
            for r in m.mesh_records
        ]


def scene(
    m: IqmReader,
    *,
    skin_dir: str | os.PathLike[str] | None = None,
    frames: Sequence[int] | None = None,
    fps: float | None = None,
) -> ExportModel:
    """Every frame of every anim (only ``frames``, posing only those, when given; every
    anim resampled at ``fps`` frames per second first, when given), each surface skinned from
    its mesh's material name found beside the model or in ``skin_dir``."""
    skel = m.skeletal() if fps is None else m.skeletal().resampled(fps)
    ranges, names = clip_table(skel)
    posed = skel if frames is None else picked(skel, frames)
    model = baked_model(posed, bake(posed), model_stem(m.name), Path(m.name) if m.name else None)
    listings = Listings()
    surfaces = []
    for mesh, s in zip(skel.meshes, model.surfaces, strict=True):
        material = mesh.material_name or ""
        skins = (material,) if material else ()
        surfaces.append(
            replace(s, skin_names=skins, skin=find_skin(list(skins), m.name, skin_dir, listings))
        )
    clip_times = {}
    fps = m.fps if fps is None else fps
    if frames is not None:
        ranges, names = {}, [names[f] for f in frames]
    elif fps is None:
        clip_times = {
            label: (c.times - c.times[0]).astype(np.float32)
            for label, c in zip(ranges, skel.clips, strict=False)
        }
    return replace(
        model,
        surfaces=surfaces,
        clips=ranges,
        frame_names=names,
        fps=fps if fps is not None else model.fps,
        clip_times=clip_times,
    )


__all__ = ["clip_table", "frame_scene", "picked", "scene", "skin_images"]
