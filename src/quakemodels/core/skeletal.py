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

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

F64 = npt.NDArray[np.float64]

# Posing works through frames in chunks of at most this many (frame, vertex) pairs: the blended
# (F,N,3,4) matrices take 96 bytes each, so a chunk holds about 100 MB at most.
_CHUNK = 1 << 20


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


@dataclass(frozen=True)
class SkeletalClip:
    """A clip sampled at its frame times: ``times`` (F,) float64 seconds, ``local`` (F,J,4,4)
    float64 every joint's local matrix at every frame, ``morph`` mesh index → (F,M) float64
    morph weights (meshes whose weights it does not animate show their rest weights)."""

    name: str
    times: F64
    local: F64
    morph: dict[int, F64] = field(default_factory=dict)

    @property
    def num_frames(self) -> int:
        return int(self.times.shape[0])


@dataclass(frozen=True)
class SkeletalScene:
    """Joints ``names`` (J,) with ``parents`` (J,) intp (-1 for a root; a parent always comes
    before its children), their rest local matrices ``rest`` (J,4,4) float64, the meshes
    bound to them, and the clips (empty: the rest pose is the only pose)."""

    names: tuple[str, ...]
    parents: npt.NDArray[np.intp]
    rest: F64
    meshes: list[SkinnedMesh]
    clips: list[SkeletalClip]

    def rest_clip(self) -> SkeletalClip:
        """The rest pose as a one-frame clip named ``rest``."""
        return SkeletalClip("rest", np.zeros(1), self.rest[None])


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
    world = world_matrices(clip.local, scene.parents)
    meshes = [pose_mesh(m, world, clip.morph.get(i)) for i, m in enumerate(scene.meshes)]
    return meshes, world


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


__all__ = [
    "SkeletalClip",
    "SkeletalScene",
    "SkinnedMesh",
    "depth_levels",
    "pose",
    "pose_mesh",
    "rotation_part",
    "trs_matrices",
    "world_matrices",
]
