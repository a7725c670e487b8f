"""The format-neutral scene every exporter reads (glTF 2.0, OBJ + MTL, PNG/GIF previews).

An :class:`ExportModel` holds surfaces of indexed vertex-animated geometry (MD2 has one, MD3
one per surface), the clip table, and tags (MD3 attachment points). Each format's ``scene``
module builds one from a loaded model, so the writers in :mod:`quakemodels.interchange` know
nothing about bytes.

Coordinates stay in Quake's model space here (right-handed, +X forward, +Y left, +Z up);
:func:`to_y_up` is the one conversion the file writers apply (see its docstring).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from .skins import Skin

FloatArray = npt.NDArray[np.float32]

FPS = 10.0  # Quake II and III animate their models at 10 frames per second

# Quake (x forward, y left, z up) → glTF (+Z front, +X left, +Y up): (x, y, z) → (y, z, x).
# A cyclic permutation of the axes: a proper rotation (determinant +1), never a mirror, and
# it puts the model's front on glTF's front (+Z) and its left on glTF's left (+X).
Y_UP_AXES = [1, 2, 0]  # the Quake axis each glTF axis takes its values from
Y_UP = np.eye(3, dtype=np.float32)[Y_UP_AXES]  # the same as a matrix on column vectors


def to_y_up(v: npt.NDArray[Any]) -> FloatArray:
    """(..., 3) Quake Z-up vectors as glTF Y-up vectors: (x, y, z) → (y, z, x), float32."""
    out: FloatArray = np.take(np.asarray(v, dtype=np.float32), Y_UP_AXES, axis=-1)  # 2x [..., i]
    return out


@dataclass(frozen=True)
class Surface:
    """One piece of vertex-animated geometry sharing one skin.

    ``positions`` and ``normals`` (F,N,3) float32 in Quake space, ``uvs`` (N,2) float32 (t
    down, as glTF), ``indices`` (T,3) uint32, counter-clockwise seen from outside as glTF,
    OBJ and renderers expect (Quake's files wind the other way; the formats' scene builders
    and writers turn them with ``core.mesh.flip_winding``); ``skin_names`` the untrusted
    names it refers to.
    The arrays may have any memory layout (an MD2's positions are a view of (F,3,N) rows).
    """

    name: str
    positions: FloatArray
    normals: FloatArray
    uvs: FloatArray
    indices: npt.NDArray[np.uint32]
    skin_names: tuple[str, ...] = ()
    skin: Skin | None = None


@dataclass(frozen=True)
class Tag:
    """An attachment point: ``origins`` (F,3) float32 and ``axes`` (F,3,3) float32 (rows)."""

    name: str
    origins: FloatArray
    axes: FloatArray


@dataclass(frozen=True)
class ExportModel:
    """Everything an exporter needs: surfaces, clips (name → frame range) and tags."""

    name: str
    surfaces: list[Surface]
    clips: dict[str, range]
    tags: list[Tag] = field(default_factory=list)
    source: Path | None = None
    frame_names: list[str] = field(default_factory=list)
    fps: float = FPS
    """Frames per second of every clip (animation timing in glTF and GIF)."""
    clip_times: dict[str, FloatArray] = field(default_factory=dict)
    """Keyframe times in seconds, (n,) float32 increasing, of the clips that are not played at
    ``fps`` (an MDL frame group: each pose starts when the one before it ends)."""

    def key_times(self, clip: str, count: int) -> FloatArray:
        """(count,) float32 keyframe times of ``clip``: its ``clip_times`` when it has
        ``count`` of them, else ``k / fps``."""
        times = self.clip_times.get(clip)
        if times is not None and len(times) == count:
            return times
        return np.arange(count, dtype=np.float32) / np.float32(self.fps)

    @property
    def num_frames(self) -> int:
        """F, the frames every surface and tag has."""
        if self.surfaces:
            return int(self.surfaces[0].positions.shape[0])
        return int(self.tags[0].origins.shape[0]) if self.tags else 0

    def select(self, frames: Sequence[int], clips: dict[str, range] | None = None) -> ExportModel:
        """A model with only ``frames`` (in that order), and ``clips`` over the new indices."""
        idx = np.asarray(frames, dtype=np.intp)
        surfaces = [
            replace(s, positions=s.positions[idx], normals=s.normals[idx]) for s in self.surfaces
        ]
        tags = [replace(t, origins=t.origins[idx], axes=t.axes[idx]) for t in self.tags]
        names = [self.frame_names[i] for i in frames] if self.frame_names else []
        return replace(self, surfaces=surfaces, tags=tags, clips=clips or {}, frame_names=names)

    def scaled(self, factor: float) -> ExportModel:
        """A model with every position and tag origin multiplied by ``factor`` (units: Quake
        units are about an inch, so 0.0254 gives metres); normals and axes are unchanged."""
        if factor == 1.0:
            return self
        k = np.float32(factor)
        surfaces = [replace(s, positions=s.positions * k) for s in self.surfaces]
        tags = [replace(t, origins=t.origins * k) for t in self.tags]
        return replace(self, surfaces=surfaces, tags=tags)


def model_stem(name: str | None) -> str:
    """The stem of a model's source path, ``model`` when it has none."""
    return Path(name).stem if name else "model"


def safe_name(text: str, default: str = "unnamed") -> str:
    """An untrusted name (clip, frame, surface) made safe for a file name: [A-Za-z0-9_-] only."""
    out = "".join(c if c.isascii() and (c.isalnum() or c in "-_") else "_" for c in text)
    return out.strip("_") or default


__all__ = ["FPS", "ExportModel", "Surface", "Tag", "model_stem", "safe_name", "to_y_up"]
