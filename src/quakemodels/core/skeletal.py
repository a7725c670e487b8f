"""The skeletal scene: joints in a hierarchy, meshes bound to them by weights, and clips of
joint poses and morph weights, posed into vertex frames in one vectorised pass.

It is the neutral form of anything that animates by transforms rather than stored frames: a
glTF's node hierarchy, skins and animations (``interchange/gltf_eval.py``), and the skeletal
formats. A mesh that is not skinned is bound to the one joint that carries it (its node) with
weight 1, so a rigid hierarchy, a skin and a morph-weights animation are posed by the same sum.

Coordinates are the source's (glTF: Y up); matrices act on column vectors (``M @ [x, y, z,
1]``). Posing a clip of F frames is: the local matrices of every joint at every frame (F,J,4,4),
their world matrices by hierarchy level, each mesh's skinning matrices (world @ inverse bind),
then one weighted sum per vertex.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from .build import vertex_normals
from .mesh import flip_winding
from .records import replace
from .scene import ExportModel, Surface, Tag

F64 = npt.NDArray[np.float64]

# Posing works through frames in chunks of at most this many (frame, vertex) pairs: the blended
# (F,N,3,4) matrices take 96 bytes each, so a chunk holds about 6 MB.
_CHUNK = 1 << 16


@dataclass(frozen=True)
class SkinnedMesh:
    """One triangle mesh bound to joints.

    ``positions`` (N,3) float64 in bind space (the space the inverse bind matrices map from);
    ``targets`` (M,N,3) float64 morph-target deltas (M may be 0); ``slots`` (S,) intp the
    joints this mesh is bound to, ``inverse_bind`` (S,4,4) float64 their inverse bind
    matrices; ``joints`` (N,K) intp slot of each vertex influence, ``weights`` (N,K) float64
    (each row sums to 1); ``uvs`` (N,2) float32 or None; ``indices`` (T,3) int64,
    counter-clockwise seen from outside; ``material`` the source's material index or None.
    """

    name: str
    positions: F64
    targets: F64
    slots: npt.NDArray[np.intp]
    inverse_bind: F64
    joints: npt.NDArray[np.intp]
    weights: F64
    uvs: npt.NDArray[np.float32] | None
    indices: npt.NDArray[np.int64]
    material: int | None = None
    rest_weights: F64 = field(default_factory=lambda: np.zeros(0))
    """(M,) the morph weights shown when no clip plays."""
    material_name: str | None = None
    """The source's material (texture or shader) name, when it names one (IQM, MD5)."""


@dataclass(frozen=True)
class SkeletalClip:
    """A clip sampled at its frame times: ``times`` (F,) float64 seconds; every joint's local
    ``translation`` (F,J,3), ``rotation`` (F,J,4) unit quaternions (x, y, z, w) and ``scale``
    (F,J,3), float64; ``morph`` mesh index → (F,M) float64 morph weights (meshes whose weights
    it does not animate show their rest weights)."""

    name: str
    times: F64
    translation: F64
    rotation: F64
    scale: F64
    morph: dict[int, F64] = field(default_factory=dict)

    @property
    def num_frames(self) -> int:
        return int(self.times.shape[0])

    def resampled(self, fps: float) -> SkeletalClip:
        """This clip at ``fps`` frames per second from its first time to its last
        (``round(duration · fps) + 1`` frames): translations, scales and weights lerped,
        rotations slerped between the frames around each new time."""
        t0, t1 = float(self.times[0]), float(self.times[-1])
        at = t0 + np.arange(round((t1 - t0) * fps) + 1) / fps
        if np.array_equal(at, self.times):
            return self

        def track(values: F64, rotation: bool = False) -> F64:
            flat = values.reshape(len(self.times), -1)
            if rotation:  # slerp each joint's quaternion track on its own
                joints = values.shape[1]
                out = [sample(self.times, values[:, j], "LINEAR", at, True) for j in range(joints)]
                return np.stack(out, axis=1) if out else np.zeros((len(at), 0, 4))
            return sample(self.times, flat, "LINEAR", at).reshape(len(at), *values.shape[1:])

        morph = {i: track(w) for i, w in self.morph.items()}
        return SkeletalClip(
            self.name,
            at,
            track(self.translation),
            track(self.rotation, True),
            track(self.scale),
            morph,
        )


@dataclass(frozen=True)
class SkeletalScene:
    """Joints ``names`` (J,) with ``parents`` (J,) intp (-1 for a root; a parent always comes
    before its children); their rest pose as local ``translation`` (J,3), ``rotation`` (J,4)
    and ``scale`` (J,3) float64, except the joints in ``fixed`` (joint → (4,4) local matrix, a
    transform TRS cannot hold, never animated); the meshes bound to them; the clips (empty: the
    rest pose is the only pose); and ``tags``, the joints that are attachment points."""

    names: tuple[str, ...]
    parents: npt.NDArray[np.intp]
    translation: F64
    rotation: F64
    scale: F64
    meshes: list[SkinnedMesh]
    clips: list[SkeletalClip]
    fixed: dict[int, F64] = field(default_factory=dict)
    tags: tuple[int, ...] = ()

    def rest_clip(self) -> SkeletalClip:
        """The rest pose as a one-frame clip named ``rest``."""
        return SkeletalClip(
            "rest", np.zeros(1), self.translation[None], self.rotation[None], self.scale[None]
        )

    def local(self, clip: SkeletalClip) -> F64:
        """(F,J,4,4) float64 local matrices of every joint in every frame of ``clip``."""
        out = trs_matrices(clip.translation, clip.rotation, clip.scale)
        for j, matrix in self.fixed.items():
            out[:, j] = matrix
        return out

    def resampled(self, fps: float) -> SkeletalScene:
        """This scene with every clip at ``fps`` frames per second
        (:meth:`SkeletalClip.resampled`): what a bake "at a chosen fps" poses."""
        return replace(self, clips=[c.resampled(fps) for c in self.clips])

    def rest_world(self) -> F64:
        """(J,4,4) float64 world matrices of the rest pose."""
        world: F64 = world_matrices(self.local(self.rest_clip()), self.parents)[0]
        return world


@runtime_checkable
class Skeletal(Protocol):
    """A model that animates by joints (MD5, IQM): ``skeletal()`` gives its scene in Quake
    space (Z up, x forward, as those formats store it; the glTF export turns it Y up).
    ``quakemodels export`` and ``convert`` to glTF write such a model as a real skin
    (:mod:`quakemodels.interchange.gltf_skin_write`) instead of baked morph targets."""

    def skeletal(self) -> SkeletalScene: ...


def trs_matrices(translation: F64, rotation: F64, scale: F64) -> F64:
    """(...,4,4) float64 matrices T·R·S from (...,3) translations, (...,4) unit quaternions
    (x, y, z, w; normalised here) and (...,3) scales."""
    q = rotation / np.linalg.norm(rotation, axis=-1, keepdims=True)
    x, y, z, w = q[..., 0], q[..., 1], q[..., 2], q[..., 3]
    out = np.zeros((*translation.shape[:-1], 4, 4))
    out[..., 0, 0] = 1 - 2 * (y * y + z * z)
    out[..., 0, 1] = 2 * (x * y - z * w)
    out[..., 0, 2] = 2 * (x * z + y * w)
    out[..., 1, 0] = 2 * (x * y + z * w)
    out[..., 1, 1] = 1 - 2 * (x * x + z * z)
    out[..., 1, 2] = 2 * (y * z - x * w)
    out[..., 2, 0] = 2 * (x * z - y * w)
    out[..., 2, 1] = 2 * (y * z + x * w)
    out[..., 2, 2] = 1 - 2 * (x * x + y * y)
    out[..., :3, :3] *= scale[..., None, :]  # R·S: column j scaled by s_j
    out[..., :3, 3] = translation
    out[..., 3, 3] = 1.0
    return out


def depth_levels(parents: npt.NDArray[np.intp]) -> list[npt.NDArray[np.intp]]:
    """The joints grouped by depth (roots first): each group's parents are in earlier ones."""
    depth = np.zeros(len(parents), np.intp)
    for j, p in enumerate(parents.tolist()):
        depth[j] = 0 if p < 0 else depth[p] + 1
    return [np.flatnonzero(depth == d) for d in range(int(depth.max(initial=-1)) + 1)]


def world_matrices(local: F64, parents: npt.NDArray[np.intp]) -> F64:
    """(F,J,4,4) world matrices from (F,J,4,4) local ones: one batched product per depth."""
    world = local.copy()
    for level in depth_levels(parents)[1:]:
        world[:, level] = world[:, parents[level]] @ local[:, level]
    return world


def pose_mesh(mesh: SkinnedMesh, world: F64, morph: F64 | None) -> F64:
    """(F,N,3) float64 posed positions of ``mesh`` under (F,J,4,4) ``world`` joint matrices and
    (F,M) ``morph`` weights (None: the mesh's rest weights): morph targets first, then the
    weighted sum of the skinning matrices (world @ inverse bind) of each vertex's joints."""
    frames = world.shape[0]
    n = mesh.positions.shape[0]
    skin = (world[:, mesh.slots] @ mesh.inverse_bind)[:, :, :3, :]  # (F,S,3,4)
    weights = morph
    if weights is None and mesh.targets.shape[0]:
        weights = np.broadcast_to(mesh.rest_weights, (frames, mesh.targets.shape[0]))
    out = np.empty((frames, n, 3))
    step = max(1, _CHUNK // max(n, 1))
    for f0 in range(0, frames, step):
        f1 = min(frames, f0 + step)
        base = np.broadcast_to(mesh.positions, (f1 - f0, n, 3))
        if weights is not None and mesh.targets.shape[0]:
            base = base + np.einsum("fm,mnd->fnd", weights[f0:f1], mesh.targets)
        blended = np.zeros((f1 - f0, n, 3, 4))
        for k in range(mesh.joints.shape[1]):
            blended += mesh.weights[None, :, k, None, None] * skin[f0:f1, mesh.joints[:, k]]
        out[f0:f1] = np.einsum("fnij,fnj->fni", blended[..., :3], base) + blended[..., 3]
    return out


def pose(scene: SkeletalScene, clip: SkeletalClip) -> tuple[list[F64], F64]:
    """Every mesh's (F,N,3) positions in ``clip`` and the (F,J,4,4) world matrices of every
    joint (what tags follow)."""
    world = world_matrices(scene.local(clip), scene.parents)
    meshes = [pose_mesh(m, world, clip.morph.get(i)) for i, m in enumerate(scene.meshes)]
    return meshes, world


def sample(times: F64, values: F64, interpolation: str, at: F64, rotation: bool = False) -> F64:
    """(len(at), W) values of a sampler at the times ``at``.

    ``times`` (K,) increasing key times; ``values`` (K, W), or (K, 3, W) in-tangent, value,
    out-tangent for CUBICSPLINE. Outside the keys the end value holds; ``rotation`` slerps
    (LINEAR) and normalises quaternions.
    """
    if interpolation == "CUBICSPLINE":
        tangent_in, value, tangent_out = values[:, 0], values[:, 1], values[:, 2]
    else:
        value = values
    k = len(times)
    t = np.clip(at, times[0], times[-1])
    # key times are float32 in a glTF (0.1 is 0.10000000149): a frame time within a few of
    # its ulps of a key is that key, or a STEP track would show the key before it
    near = np.clip(np.searchsorted(times, t), 1, max(k - 1, 1))
    for cand in (near - 1, np.minimum(near, k - 1)):
        close = np.abs(times[cand] - t) <= 1e-6 * np.maximum(1.0, np.abs(t))
        t = np.where(close, times[cand], t)
    if k == 1:
        return np.repeat(value[:1], len(at), axis=0)
    i = np.clip(np.searchsorted(times, t, side="right") - 1, 0, k - 2)
    dt = times[i + 1] - times[i]
    s = np.divide(t - times[i], dt, out=np.ones_like(t), where=dt > 0)[:, None]
    a, b = value[i], value[i + 1]
    if interpolation == "STEP":
        out = np.where(s >= 1.0, b, a)
    elif interpolation == "CUBICSPLINE":
        s2, s3 = s * s, s * s * s
        d = dt[:, None]
        out = (
            (2 * s3 - 3 * s2 + 1) * a
            + (s3 - 2 * s2 + s) * d * tangent_out[i]
            + (-2 * s3 + 3 * s2) * b
            + (s3 - s2) * d * tangent_in[i + 1]
        )
    elif rotation:
        out = _slerp(a, b, s)
    else:
        out = a + (b - a) * s
    if rotation:
        out = out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-12)
    return np.asarray(out, dtype=np.float64)


def _slerp(a: F64, b: F64, s: F64) -> F64:
    """(n,4) spherical interpolation of unit quaternions, the shorter way round."""
    a = a / np.linalg.norm(a, axis=1, keepdims=True)
    b = b / np.linalg.norm(b, axis=1, keepdims=True)
    dot = np.sum(a * b, axis=1, keepdims=True)
    b = np.where(dot < 0, -b, b)
    dot = np.abs(dot)
    theta = np.arccos(np.clip(dot, -1.0, 1.0))
    sin = np.sin(theta)
    near = sin < 1e-6  # nearly the same rotation: a lerp is exact enough and has no 0/0
    safe = np.where(near, 1.0, sin)
    wa = np.where(near, 1 - s, np.sin((1 - s) * theta) / safe)
    wb = np.where(near, s, np.sin(s * theta) / safe)
    return np.asarray(wa * a + wb * b, dtype=np.float64)


def frame_name(clip: str, k: int, frames: int) -> str:
    """The name of frame ``k`` of ``clip`` as Quake names frames (letters, then the number the
    engines strip to find the clip), at most 15 characters: ``wave01``."""
    digits = max(2, len(str(frames)))
    return f"{_frame_base(clip)[: 15 - digits]}{k + 1:0{digits}d}"


@functools.lru_cache(maxsize=256)
def _frame_base(clip: str) -> str:
    """``clip`` as the letters of a frame name (made once per clip, not once per frame)."""
    base = "".join(c if c.isascii() and (c.isalnum() or c == "_") else "_" for c in clip)
    base = base.strip("_") or "frame"
    if base[-1].isdigit():
        base += "_"  # the frame number must not run into a digit of the name
    return base


def rotation_part(world: F64) -> F64:
    """(...,3,3) the nearest rotation to each (...,4,4) matrix's upper 3×3 (scale and shear
    removed by the polar decomposition), the axes a tag keeps."""
    u, _, vt = np.linalg.svd(world[..., :3, :3])
    r = u @ vt
    flip = np.linalg.det(r) < 0  # a mirrored joint: keep a proper rotation
    if flip.any():
        u[flip, :, 2] *= -1
        r = u @ vt
    return np.asarray(r, dtype=np.float64)


@dataclass(frozen=True)
class Baked:
    """A skeletal scene posed into vertex frames: every mesh's ``positions`` (F,N,3) float64
    over all clips one after another, the ``clips`` (name → frame range), F ``frame_names``,
    each tag joint's (F,4,4) ``tags`` world matrices, all in the space ``bake`` was given,
    and the ``fps`` of the frames (None: each clip at its own times)."""

    positions: list[F64]
    clips: dict[str, range]
    frame_names: list[str]
    tags: dict[str, F64]
    fps: float | None


def bake(
    scene: SkeletalScene,
    fps: float | None = None,
    root: F64 | None = None,
    poser: Callable[[int, SkinnedMesh, F64, F64 | None], F64] | None = None,
) -> Baked:
    """Every clip of ``scene`` (its rest pose when it has none) posed, resampled at ``fps``
    when given, and moved by the (4,4) ``root`` matrix (a change of axes) when given. The
    caller bounds frames × vertices first (:func:`baked_shape`). ``poser(i, mesh, world,
    morph)`` poses mesh ``i`` in a format's own faster way (default :func:`pose_mesh`)."""
    clips = [c if fps is None else c.resampled(fps) for c in scene.clips or [scene.rest_clip()]]
    unroot = np.eye(4) if root is None else np.linalg.inv(root)
    per_mesh: list[list[F64]] = [[] for _ in scene.meshes]
    tags: dict[str, list[F64]] = {scene.names[j]: [] for j in scene.tags}
    ranges: dict[str, range] = {}
    names: list[str] = []
    start = 0
    for clip in clips:
        world = world_matrices(scene.local(clip), scene.parents)
        for i, mesh in enumerate(scene.meshes):
            morph = clip.morph.get(i)
            p = pose_mesh(mesh, world, morph) if poser is None else poser(i, mesh, world, morph)
            per_mesh[i].append(p if root is None else p @ root[:3, :3].T + root[:3, 3])
        for j in scene.tags:
            # a change of axes turns the tag's own axes too: conjugate, not only move
            move = world[:, j] if root is None else root @ world[:, j] @ unroot
            tags[scene.names[j]].append(move)
        label = clip.name
        while label in ranges:
            label += "_"
        ranges[label] = range(start, start + clip.num_frames)
        names += [frame_name(label, k, clip.num_frames) for k in range(clip.num_frames)]
        start += clip.num_frames
    return Baked(
        [np.concatenate(p) for p in per_mesh],
        ranges,
        names,
        {k: np.concatenate(v) for k, v in tags.items()},
        fps,
    )


def baked_shape(scene: SkeletalScene, fps: float | None = None) -> tuple[int, int]:
    """(frames, vertices) that :func:`bake` gives, without posing anything."""
    clips = scene.clips or [scene.rest_clip()]
    if fps is None:
        frames = sum(c.num_frames for c in clips)
    else:
        frames = sum(round((float(c.times[-1]) - float(c.times[0])) * fps) + 1 for c in clips)
    return frames, sum(m.positions.shape[0] for m in scene.meshes)


def baked_model(
    scene: SkeletalScene, baked: Baked, name: str, source: Path | None = None
) -> ExportModel:
    """A scene baked into Quake space (``bake`` with the source's change of axes) as the
    neutral vertex-animated model every format builds from: a surface per mesh (normals from
    the posed triangles), a tag per tag joint (origin its translation, axes the rows forward,
    left, up of its rotation with scale removed)."""
    surfaces = []
    for mesh, posed in zip(scene.meshes, baked.positions, strict=True):
        positions = posed.astype(np.float32)
        normals = vertex_normals(positions, flip_winding(mesh.indices)).astype(np.float32)
        uvs = mesh.uvs if mesh.uvs is not None else np.zeros((len(mesh.positions), 2), np.float32)
        surfaces.append(Surface(mesh.name, positions, normals, uvs, mesh.indices.astype(np.uint32)))
    tags = [
        Tag(
            name=tag,
            origins=world[:, :3, 3].astype(np.float32),
            axes=np.swapaxes(rotation_part(world), -1, -2).astype(np.float32),
        )
        for tag, world in baked.tags.items()
    ]
    return ExportModel(
        name=name,
        surfaces=surfaces,
        clips=baked.clips,
        tags=tags,
        source=source,
        frame_names=baked.frame_names,
        fps=baked.fps if baked.fps is not None else ExportModel.fps,
    )


__all__ = [
    "Baked",
    "Skeletal",
    "SkeletalClip",
    "SkeletalScene",
    "SkinnedMesh",
    "bake",
    "baked_model",
    "baked_shape",
    "depth_levels",
    "frame_name",
    "pose",
    "pose_mesh",
    "rotation_part",
    "sample",
    "trs_matrices",
    "world_matrices",
]
