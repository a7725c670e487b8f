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
from pathlib import Path
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from ..errors import BadValueError
from .records import Frozen, field, replace
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


AlphaOp = Literal["gt", "lt", "ge"]


class AlphaTest(Frozen):
    """An engine's alpha test: a texel is drawn when ``alpha <op> ref`` (alpha 0..1).

    ioquake3's ``alphaFunc GT0`` is ``("gt", 0.0)``, ``LT128`` ``("lt", 0.5)`` and ``GE128``
    ``("ge", 0.5)`` (``GL_State`` in ``tr_backend.c``: ``glAlphaFunc`` with these values);
    Quake II's OpenGL refresh draws every alias model with ``("gt", 0.666)``. ``name`` says
    where it came from (``GE128``), for messages.
    """

    op: AlphaOp
    ref: float
    name: str = ""

    def passes(self, alpha: npt.NDArray[np.uint8]) -> npt.NDArray[np.bool_]:
        """Which 8-bit ``alpha`` values (any shape) are drawn, as the engine compares them
        (``alpha / 255`` against ``ref``)."""
        a = np.asarray(alpha, dtype=np.float32) / np.float32(255)
        ref = np.float32(self.ref)
        if self.op == "gt":
            return a > ref
        if self.op == "ge":
            return a >= ref
        return a < ref

    @property
    def cutoff(self) -> float | None:
        """The glTF ``alphaCutoff`` (drawn when alpha ≥ cutoff) that keeps exactly the 8-bit
        alphas this test keeps: half a step below the first one kept (``GE128`` → 0.5,
        ``GT0`` → 0.5/255), so rounding either way cannot move a texel across it. None for
        ``lt``, which keeps the low alphas: glTF has no inverted test."""
        if self.op == "lt":
            return None
        kept = np.flatnonzero(self.passes(np.arange(256, dtype=np.uint8)))
        first = int(kept[0]) if kept.size else 256
        return max(first - 0.5, 0.0) / 255.0


Sides = Literal["front", "back", "both"]


class Material(Frozen):
    """How the engine draws a surface, beyond its texture.

    ``sides``: the faces drawn: ``"front"`` (the default of every engine: faces seen from
    behind are culled), ``"both"`` (Quake III ``cull none``, ``cull disable``, ``cull
    twosided``) or ``"back"`` (``cull back``: only the faces seen from behind).
    ``alpha_test``: texels failing it are not drawn (None: every texel is, alpha ignored).
    ``shader``: the shader script that said so (``scripts/oak.shader: models/x/leaf``).
    """

    sides: Sides = "front"
    alpha_test: AlphaTest | None = None
    shader: str | None = None

    @property
    def double_sided(self) -> bool:
        """True when faces seen from behind are drawn too (glTF ``doubleSided``)."""
        return self.sides != "front"


OPAQUE = Material()
"""Single-sided, every texel drawn: an MDL's and a Quake III surface without a shader script."""


class Surface(Frozen):
    """One piece of vertex-animated geometry sharing one skin.

    ``positions`` and ``normals`` (F,N,3) float32 in Quake space, ``uvs`` (N,2) float32 (t
    down, as glTF), ``indices`` (T,3) uint32, counter-clockwise seen from outside as glTF,
    OBJ and renderers expect (Quake's files wind the other way; the formats' scene builders
    and writers turn them with ``core.mesh.flip_winding``); ``skin_names`` the untrusted
    names it refers to; ``material`` how the engine draws it (sides, alpha test).
    The arrays may have any memory layout (an MD2's positions are a view of (F,3,N) rows).
    """

    name: str
    positions: FloatArray
    normals: FloatArray
    uvs: FloatArray
    indices: npt.NDArray[np.uint32]
    skin_names: tuple[str, ...] = ()
    skin: Skin | None = None
    material: Material = OPAQUE


class Tag(Frozen):
    """An attachment point: ``origins`` (F,3) float32 and ``axes`` (F,3,3) float32 (rows)."""

    name: str
    origins: FloatArray
    axes: FloatArray


class ExportModel(Frozen):
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


__all__ = [
    "FPS",
    "OPAQUE",
    "AlphaTest",
    "ExportModel",
    "Material",
    "Surface",
    "Tag",
    "model_stem",
    "safe_name",
    "to_y_up",
]


def require_finite(model: ExportModel, target: str) -> None:
    """BadValueError naming the first surface, array, frame and vertex that is NaN or infinite
    (``field`` the array: ``positions``, ``normals``, ``uvs``; tags as ``tags``): ``target``
    (glTF, OBJ, a picture) cannot hold or draw them. A frame scale or translate that is not
    finite, or one whose vertices decode past float32's range, makes such positions."""
    for s in model.surfaces:
        for what, values in (("positions", s.positions), ("normals", s.normals), ("uvs", s.uvs)):
            if not values.size:
                continue
            finite = np.isfinite(values)
            if finite.all():
                continue
            first = np.argwhere(~finite)[0]
            where = "".join(f"[{int(i)}]" for i in first[:-1])
            frame = f" frame {int(first[0])}" if what != "uvs" else ""
            raise BadValueError(
                f"surface {s.name!r}{frame}: {what}{where}={values[tuple(first[:-1])].tolist()}"
                " is not finite (NaN or infinite frame scale, translate or texcoords, or a"
                f" vertex past float32's range): {target} cannot hold them",
                field=what,
            )
    for t in model.tags:
        if not (np.isfinite(t.origins).all() and np.isfinite(t.axes).all()):
            raise BadValueError(f"tag {t.name!r} has a non-finite origin or axis", field="tags")
