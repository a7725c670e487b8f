"""Write a scene to the file its suffix names: glTF 2.0 (``.glb``/``.gltf``) or OBJ + MTL.

The writers (and so pygltflib and Pillow) are imported when a file is written, not when this
module is, so that importing :mod:`quakemodels` stays fast.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from ..core.scene import ExportModel

EXPORT_SUFFIXES = (".glb", ".gltf", ".obj")
"""What :func:`export_scene` writes, by the output's suffix."""


def select_frames(
    clips: Mapping[str, range], num_frames: int, frame: int | None, clip: str | None
) -> tuple[list[int], dict[str, range]]:
    """The frames ``frame`` (0..F-1; negative numbers are an IndexError, not "from the end")
    or ``clip`` (KeyError naming the clips there are) stand for, and the clip table over
    them: ``[frame], {}`` or the clip's frames and ``{clip: range(len(frames))}``."""
    if frame is not None and clip is not None:
        raise ValueError("give a frame or a clip, not both")
    if clip is not None:
        if clip not in clips:
            raise KeyError(f"no clip {clip!r}; clips: {', '.join(clips)}")
        frames = list(clips[clip])
        return frames, {clip: range(len(frames))}
    if frame is None:
        raise ValueError("give a frame or a clip")
    check_frame(frame, num_frames)
    return [frame], {}


def pick_frames(model: ExportModel, frame: int | None, clip: str | None) -> ExportModel:
    """``model`` cut to one ``frame`` or one ``clip`` (see :func:`select_frames`); unchanged
    when both are None."""
    if frame is None and clip is None:
        return model
    frames, clips = select_frames(model.clips, model.num_frames, frame, clip)
    return model.select(frames, clips)


def check_frame(frame: int, num_frames: int) -> int:
    """``frame`` when it is in 0..num_frames-1, else IndexError naming the range."""
    if not 0 <= frame < num_frames:
        last = f"0..{num_frames - 1}" if num_frames else "none: the model has no frames"
        raise IndexError(f"frame {frame} out of range (frames: {last})")
    return frame


def export_scene(
    model: ExportModel,
    path: str | os.PathLike[str],
    *,
    frame: int | None = None,
    clip: str | None = None,
) -> list[Path]:
    """Write ``model`` to ``path`` atomically, as its suffix says; returns the files written.

    glTF: every frame a morph target and every clip an animation (or only ``frame`` /
    ``clip``). OBJ: one frame (``frame``, default 0) with its ``.mtl`` and skin PNGs beside it.
    ValueError for any other suffix.
    """
    target = Path(path)
    suffix = target.suffix.lower()
    if suffix not in EXPORT_SUFFIXES:
        raise ValueError(
            f"cannot export to {suffix or 'a file without a suffix'}:"
            f" use {', '.join(EXPORT_SUFFIXES)}"
        )
    if suffix == ".obj":
        if clip is not None:
            raise ValueError("an OBJ holds one frame: give a frame, or export the clip as glTF")
        from .obj_write import export_obj

        return export_obj(model, target, check_frame(frame or 0, model.num_frames))
    from .gltf_write import export_gltf

    export_gltf(pick_frames(model, frame, clip), target, binary=suffix == ".glb")
    return [target]
