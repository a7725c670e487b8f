"""An MDL in the neutral forms: the exporters' :class:`~quakemodels.core.scene.ExportModel`
and its poses as stored (:class:`~quakemodels.core.quantized.QuantizedMesh`)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from ...core.scene import OPAQUE, ExportModel, Surface, model_stem
from ...core.skins import Skin
from ...errors import BadValueError
from .layout import HEADER_OFFSETS
from .reader import MdlReader

FloatArray = npt.NDArray[np.float32]


def skin_image(m: MdlReader, index: int = 0) -> Skin | None:
    """Skin image ``index`` (every image of every skin group counts) as an RGB skin, or None
    when the model has no skin images or they have no pixels."""
    if index >= m.num_skin_images or m.skin_width <= 0 or m.skin_height <= 0:
        return None
    stem = model_stem(m.name)
    pixels = np.take(m.palette, m.skin_indices[index], axis=0)  # RGB: an MDL skin is opaque
    return Skin(Path(f"{stem}_skin{index}.png"), pixels=pixels)


def group_times(m: MdlReader) -> dict[str, FloatArray]:
    """Keyframe times of the clips that are frame groups: pose k of a group starts when pose
    k - 1's interval ends (intervals are daliasinterval_t end times, as Quake's software
    renderer reads them), so the times are 0 and every interval but the last. A group whose
    intervals are not positive, finite and increasing (the checker reports it) gets none and
    plays at the fixed fps."""
    out: dict[str, FloatArray] = {}
    clip_of = {(r.start, r.stop): name for name, r in m.animations.items()}
    for g in m.frame_groups:
        name = clip_of.get((g.first_pose, g.first_pose + g.num_poses))
        ivals = g.intervals
        if name is None or ivals is None or not len(ivals):
            continue
        if not (np.all(np.isfinite(ivals)) and ivals[0] > 0 and np.all(np.diff(ivals) > 0)):
            continue
        out[name] = np.concatenate([np.zeros(1, np.float32), ivals[:-1]]).astype(np.float32)
    return out


def scene(
    m: MdlReader,
    *,
    skin_dir: str | os.PathLike[str] | None = None,
    frames: Sequence[int] | None = None,
) -> ExportModel:
    """One surface over every pose, seam vertices duplicated; clips from ``animations`` (each
    frame group is a clip timed by its intervals, see :func:`group_times`); the first skin
    image, decoded through the model's palette (MDL skins are inside the file: ``skin_dir`` is
    not used). With ``frames``, only those poses (decoding only those), in that order and
    without clips."""
    if m.num_poses < 1:
        offset = HEADER_OFFSETS["num_frames"]
        raise BadValueError(
            f"the model has no poses: nothing to export (num_frames={m.num_header_frames} at"
            f" offset {offset})",
            field="num_frames",
            offset=offset,
        )
    positions = m.positions if frames is None else m.frames_positions(frames)
    normals = m.normals if frames is None else m.frames_normals(frames)
    mesh = m.mesh(0 if frames is None else frames[0])
    vids = mesh.vertex_ids
    surface = Surface(
        name="mesh",
        positions=np.take(positions, vids, axis=1),  # take: ~10x faster than [:, vids]
        normals=np.take(normals, vids, axis=1),
        uvs=mesh.uvs,
        indices=mesh.indices,
        skin=skin_image(m, 0),
        # Quake's skins are palette indices without alpha (GLQuake uploads them opaque) and
        # every engine culls one side: single-sided, every texel drawn
        material=OPAQUE,
    )
    return ExportModel(
        name=model_stem(m.name),
        surfaces=[surface],
        clips=dict(m.animations) if frames is None else {},
        clip_times=group_times(m),
        source=Path(m.name) if m.name else None,
        frame_names=list(m.frame_names) if frames is None else [m.frame_names[f] for f in frames],
    )


def frame_names(m: MdlReader) -> tuple[bytes, ...]:
    """One name per pose for a format that names every frame: the stored name up to its NUL
    (at most 15 bytes); an empty one becomes its clip's name and the pose's place in the clip
    (``flame3``)."""
    clip_of = {p: (name, k) for name, r in m.animations.items() for k, p in enumerate(r)}
    out = []
    for p, raw in enumerate(m.frame_names_raw):
        name = raw.split(b"\0", 1)[0][:15]
        if not name:
            clip, k = clip_of.get(p, ("frame", p))
            label = clip.encode("ascii", "replace")
            number = str(k + 1).encode()
            name = label[: 15 - len(number)] + number
        out.append(name)
    return tuple(out)
