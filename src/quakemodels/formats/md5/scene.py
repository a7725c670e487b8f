"""An MD5 mesh and its animations as a :class:`~quakemodels.core.skeletal.SkeletalScene`, and
that scene baked into the exporters' :class:`~quakemodels.core.scene.ExportModel`.

MD5 is Z up like Quake (x forward, y left): the scene's root is the identity. The mesh's joints
are in object space (each joint's absolute bind position and orientation); the scene keeps
them parent-relative. A vertex is the sum over its weights of bias · (joint orientation rotates
offset + joint position), computed for every vertex in one pass; the scene binds it with the
weights as linear-blend skinning does (inverse bind = the inverse of each joint's bind world
matrix), which reproduces Doom 3's sum wherever each weight's offset is the vertex seen from its
joint (every exporter writes them so; ``check`` reports the vertices where not).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ...core.mesh import flip_winding
from ...core.records import replace
from ...core.skeletal import (
    Baked,
    SkeletalClip,
    SkeletalScene,
    SkinnedMesh,
    bake,
    pose_mesh,
    trs_matrices,
)
from .reader import (
    F64,
    BoundMesh,
    CalcW,
    Md5AnimFile,
    Md5MeshBlock,
    Md5MeshFile,
    bind_vertices,
    quaternions,
    rotate,
)


def quat_multiply(a: F64, b: F64) -> F64:
    """(...,4) Hamilton products a·b of (...,4) quaternions (x, y, z, w)."""
    ax, ay, az, aw = np.moveaxis(a, -1, 0)
    bx, by, bz, bw = np.moveaxis(b, -1, 0)
    out: F64 = np.stack(
        [
            aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw,
            aw * bw - ax * bx - ay * by - az * bz,
        ],
        axis=-1,
    )
    return out


def conjugate(q: F64) -> F64:
    """(...,4) the inverse rotations of (...,4) unit quaternions."""
    out: F64 = q * np.array([-1.0, -1.0, -1.0, 1.0])
    return out


def local_pose(
    parents: npt.NDArray[np.integer], position: F64, orientation: F64
) -> tuple[F64, F64]:
    """Parent-relative (J,3) translations and (J,4) rotations of joints whose object-space
    ``position`` (J,3) and ``orientation`` (J,4) are given (roots keep theirs)."""
    parent = np.where(parents >= 0, parents, 0)
    root = (parents < 0)[:, None]
    inverse = conjugate(orientation[parent])
    rotation = np.where(root, orientation, quat_multiply(inverse, orientation))
    translation = np.where(root, position, rotate(inverse, position - position[parent]))
    return translation, rotation


def skinned(block: Md5MeshBlock, bound: BoundMesh, world: F64, index: int) -> SkinnedMesh:
    """The :class:`SkinnedMesh` of one mesh block: bound to the joints its weights name, with
    the weights of each vertex scaled to sum to 1 (a vertex whose biases sum to 0 follows its
    first joint), triangles turned counter-clockwise."""
    slots = np.unique(bound.joint)
    joints = np.searchsorted(slots, bound.joint).astype(np.intp)
    total = bound.bias.sum(axis=1, keepdims=True)
    weights = np.where(total > 0, bound.bias / np.where(total > 0, total, 1.0), 0.0)
    if weights.size:
        weights[total[:, 0] <= 0, 0] = 1.0
    return SkinnedMesh(
        name=block.name or f"mesh{index}",
        positions=bound.positions,
        targets=np.zeros((0, len(bound.positions), 3)),
        slots=slots.astype(np.intp),
        inverse_bind=np.linalg.inv(world[slots]).astype(np.float64),
        joints=joints,
        weights=weights,
        uvs=block.uvs.astype(np.float32),
        # Doom 3 draws the triangles as stored clockwise seen from outside (its front faces
        # are clockwise); the scene's are counter-clockwise
        indices=flip_winding(block.triangles),
        material=index,
    )


def clip(
    name: str,
    anim: Md5AnimFile,
    parents: npt.NDArray[np.integer] | None = None,
    scales: F64 | None = None,
    calc_w: CalcW = "doom3",
) -> SkeletalClip:
    """An animation as a clip of its frames at its frame rate: every joint's parent-relative
    TRS per frame.

    ``scales`` (F,J) are an ``.md5scale``'s per-frame joint scales (negative where the file
    says ``scale_positions``). Q2PRO (``MD5_BuildFrameSkeleton``, ``src/refresh/models.c``)
    multiplies a ``scale_positions`` joint's animated position by its scale, composes
    positions and orientations down the hierarchy without scale, and scales each joint's
    weight offsets by its own scale when skinning (``src/refresh/shader.c``: ``joint.pos.xyz +
    (weight.xyz * joint.axis) * joint.pos.w``, the scale in ``pos.w``): a scale no child
    inherits. A TRS hierarchy
    passes a parent's scale on, so each joint's local translation and scale are divided by
    its parent's scale here, which gives every joint Q2PRO's world position, orientation and
    (own) scale. ``calc_w``: how w is recomputed (:data:`.reader.CalcW`)."""
    translation, rotation = anim.local(calc_w)
    frames, joints = translation.shape[:2]
    scale = np.ones((frames, joints, 3))
    if scales is not None and parents is not None:
        own = np.abs(scales)
        translation = np.where((scales < 0)[..., None], translation * own[..., None], translation)
        parent_scale = np.where(parents >= 0, own[:, np.where(parents >= 0, parents, 0)], 1.0)
        translation = translation / parent_scale[..., None]
        scale = np.repeat((own / parent_scale)[..., None], 3, axis=2)
    return SkeletalClip(
        name,
        np.arange(frames, dtype=np.float64) / anim.frame_rate,
        translation,
        rotation,
        scale,
    )


def skeletal(
    mesh: Md5MeshFile,
    clips: Sequence[SkeletalClip] = (),
    tags: Sequence[int] = (),
    bound: Sequence[BoundMesh] | None = None,
    calc_w: CalcW = "doom3",
) -> SkeletalScene:
    """The scene of ``mesh`` with ``clips`` and the tag joints ``tags`` (``bound``: the mesh
    blocks' vertices when computed already, by the same ``calc_w``)."""
    orientation = mesh.orientation
    if calc_w != "doom3":
        orientation = quaternions(mesh.orientation_xyz, calc_w)
    translation, rotation = local_pose(mesh.parents, mesh.position, orientation)
    world = trs_matrices(mesh.position, orientation, np.ones_like(mesh.position))
    if bound is None:
        bound = [bind_vertices(b, mesh.position, orientation) for b in mesh.meshes]
    meshes = [
        skinned(b, v, world, i) for i, (b, v) in enumerate(zip(mesh.meshes, bound, strict=True))
    ]
    return SkeletalScene(
        names=mesh.names,
        parents=mesh.parents.astype(np.intp),
        translation=translation,
        rotation=rotation,
        scale=np.ones_like(translation),
        meshes=meshes,
        clips=list(clips),
        tags=tuple(tags),
    )


def baked(scene: SkeletalScene, tag_names: dict[str, str]) -> Baked:
    """Every clip posed at its own frame rate (the rest pose without clips), tags renamed by
    ``tag_names`` (joint name → tag name): :func:`quakemodels.core.skeletal.bake` with no
    root (MD5 is Quake's axes), each mesh posed by :func:`pose_grouped` (the same positions,
    a test holds them equal, in a quarter of the time)."""
    grouped = [influences(m) if not m.targets.shape[0] else None for m in scene.meshes]

    def poser(i: int, mesh: SkinnedMesh, world: F64, morph: F64 | None) -> F64:
        g = grouped[i]
        return pose_mesh(mesh, world, morph) if g is None else pose_grouped(mesh, world, g)

    found = bake(scene, poser=poser)
    return replace(found, tags={tag_names.get(k, k): v for k, v in found.tags.items()})


@dataclass(frozen=True)
class Influences:
    """A skinned mesh's weights grouped by joint, for :func:`pose_grouped`: ``slot`` (W,)
    the joint slot of every nonzero weight, sorted; ``points`` (W,3) the vertex in that
    joint's bind space (inverse bind · position); ``weight`` (W,); ``back`` (W,) where each
    sorted weight goes in vertex order; ``starts`` (N,) each vertex's first weight there;
    ``groups`` (S+1,) where each slot's run begins in the sorted order."""

    slot: npt.NDArray[np.intp]
    points: F64
    weight: F64
    back: npt.NDArray[np.intp]
    starts: npt.NDArray[np.intp]
    groups: npt.NDArray[np.intp]


def influences(mesh: SkinnedMesh) -> Influences:
    """The grouping of ``mesh``'s weights that :func:`pose_grouped` runs on."""
    vertex, k = np.nonzero(mesh.weights > 0)  # vertex-major: each vertex's weights together
    slot = mesh.joints[vertex, k]
    order = np.argsort(slot, kind="stable")
    back = np.empty_like(order)
    back[order] = np.arange(len(order))
    bind = mesh.inverse_bind[slot[order]]
    p = mesh.positions[vertex[order]]
    points = np.einsum("wij,wj->wi", bind[:, :3, :3], p) + bind[:, :3, 3]
    starts = np.searchsorted(vertex, np.arange(len(mesh.positions)))
    groups = np.searchsorted(slot[order], np.arange(len(mesh.slots) + 1))
    return Influences(
        slot[order].astype(np.intp),
        points,
        mesh.weights[vertex, k][order],
        back.astype(np.intp),
        starts.astype(np.intp),
        groups.astype(np.intp),
    )


def pose_grouped(mesh: SkinnedMesh, world: F64, grouped: Influences | None = None) -> F64:
    """(F,N,3) positions of ``mesh`` (no morph targets) under (F,J,4,4) ``world`` matrices:
    :func:`quakemodels.core.skeletal.pose_mesh`'s sum, computed joint by joint — every
    weight's bind-space point moved by its joint's (F,3,4) matrices in one matrix product per
    joint, weighted, then summed per vertex — instead of gathering each vertex's K (F,3,4)
    matrices (12 numbers a weight and frame against 3 here)."""
    g = influences(mesh) if grouped is None else grouped
    frames = world.shape[0]
    moved = np.empty((frames, len(g.slot), 3))
    joints = world[:, mesh.slots]  # (F,S,4,4)
    for s in range(len(mesh.slots)):
        a, b = int(g.groups[s]), int(g.groups[s + 1])
        if a == b:
            continue
        m = joints[:, s]
        # (F,3,3) @ (3,P) + (F,3,1): every frame at once, the weights after
        block = m[:, :3, :3] @ g.points[a:b].T + m[:, :3, 3:]
        moved[:, a:b] = np.swapaxes(block, 1, 2) * g.weight[a:b, None]
    if not len(g.slot):
        return np.zeros((frames, len(mesh.positions), 3))
    out: F64 = np.add.reduceat(moved[:, g.back], g.starts, axis=1)
    return out
