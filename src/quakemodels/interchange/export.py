"""Write a scene to the file its suffix names: glTF 2.0 (``.glb``/``.gltf``) or OBJ + MTL.

The writers (and so pygltflib and Pillow) are imported when a file is written, not when this
module is, so that importing :mod:`quakemodels` stays fast.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from ..core.embed import PNG_SIGNATURE
from ..core.records import replace
from ..core.scene import FPS, Y_UP, ExportModel, Material, Sides
from ..core.skins import Skin

if TYPE_CHECKING:
    from ..core.skeletal import SkeletalScene

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


def skeletal_clip(scene: SkeletalScene, clip: str | None) -> SkeletalScene:
    """``scene`` with only its clip named ``clip`` (KeyError naming the clips there are);
    unchanged for None."""
    if clip is None:
        return scene
    kept = [c for c in scene.clips if c.name == clip]
    if not kept:
        raise KeyError(f"no clip {clip!r}; clips: {', '.join(c.name for c in scene.clips)}")
    return replace(scene, clips=kept[:1])


def export_skeletal(
    scene: SkeletalScene,
    path: str | os.PathLike[str],
    *,
    skins: Sequence[Skin | None] = (),
    materials: Sequence[Material] = (),
    name: str = "model",
    clip: str | None = None,
    scale: float = 1.0,
    axes: npt.ArrayLike | None = Y_UP,
) -> list[Path]:
    """Write a skeletal ``scene`` to the ``.glb``/``.gltf`` ``path`` as a real skin (only
    ``clip`` when given); returns the files written. ``axes`` turn the scene into glTF's Y
    up: the default, Quake space (a :class:`~quakemodels.core.skeletal.Skeletal` model's),
    None for a scene read from a glTF. ValueError for another suffix (an OBJ holds one frame:
    bake it first)."""
    target = Path(path)
    suffix = target.suffix.lower()
    if suffix not in (".glb", ".gltf"):
        raise ValueError(f"a skin exports to .glb or .gltf, not {suffix or 'no suffix'}")
    from .gltf_skin_write import export_skinned_gltf

    export_skinned_gltf(
        skeletal_clip(scene, clip),
        target,
        skins=skins,
        materials=materials,
        name=name,
        axes=axes,
        scale=scale,
        binary=suffix == ".glb",
    )
    return [target]


def gltf_skeletal(
    path: str | os.PathLike[str], *, fps: float = FPS, up: str = "y"
) -> tuple[SkeletalScene, list[Skin | None], list[Material], npt.NDArray[np.float64] | None]:
    """A glTF read as a skeletal scene (every animation sampled at ``fps``), with each mesh's
    embedded base colour image as a skin and its sides, and the axes that turn it Y up
    (``up="z"``: a file exported Z up; None: it is Y up): what ``convert x.glb y.glb``
    re-exports as a real skin."""
    from .gltf_doc import _open
    from .gltf_eval import Z_UP_TO_Y_UP, read_skeletal
    from .gltf_read import _image
    from .imported import DEFAULT_LIMITS

    g, size = _open(path)
    scene = read_skeletal(g, fps, DEFAULT_LIMITS.for_input(size + g.external_bytes))
    skins: list[Skin | None] = []
    materials: list[Material] = []
    for mesh in scene.meshes:
        image = _image(g, mesh.material)
        skins.append(None if image is None else _skin(*image))
        sides: Sides = "front"
        if mesh.material is not None:
            _, material = g.item("materials", mesh.material, "material")
            sides = "both" if material.get("doubleSided") is True else "front"
        materials.append(Material(sides=sides))
    axes = None if up == "y" else Z_UP_TO_Y_UP[:3, :3].copy()
    return scene, skins, materials, axes


def _skin(name: str, data: bytes) -> Skin | None:
    """A glTF's embedded image as a skin: carried as it is when a glTF can hold it so,
    else decoded (None, with a warning, when it cannot be)."""
    import io

    from ..core.skins import _open as open_skin

    path = Path(name)
    if path.suffix.lower() not in (".png", ".jpg", ".jpeg"):
        path = Path(name + (".png" if data.startswith(PNG_SIGNATURE) else ".jpg"))
    return open_skin(path, io.BytesIO(data))
