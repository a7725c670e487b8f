"""glTF 2.0 export of a skeletal scene as a real skin: joints, inverse bind matrices, and each
clip an animation of joint TRS (not baked morph targets).

Layout (the container, materials and images are :mod:`.gltf_write`'s :class:`GltfBuilder`):

* one node per joint, in the scene's joint order (node ``j`` is joint ``j``), named as the
  joint, with its rest local TRS (defaults omitted) or its ``matrix`` for a ``fixed`` joint,
  children as the hierarchy says; every root joint under the scene's root node (``name``),
  the one common root every skin's joints share. ``tag_*`` joints are nodes like the others.
* a mesh per :class:`~quakemodels.core.skeletal.SkinnedMesh`, one primitive: POSITION (bind
  space, with bounds), NORMAL (area-weighted, from the bind pose), TEXCOORD_0 when it has uvs,
  uint16/uint32 indices, its morph targets (POSITION deltas) with the rest weights as the
  mesh's ``weights``, and a material with its skin as base-colour texture when one is given.
* a mesh bound to more than one joint is skinned: a node at the scene's top (the validator
  wants skinned mesh nodes to be roots without a transform) with a skin whose ``joints`` are
  the mesh's slots and whose ``inverseBindMatrices`` are the mesh's (one skin for the meshes
  bound alike), and JOINTS_0/WEIGHTS_0:
  each vertex's 4 largest influences (a slot named twice counts once), renormalized. One set
  of 4: three.js reads JOINTS_0 only, so a fifth influence would play in Blender and not in
  three.js; a scene with more loses them (:func:`top_influences` says what is kept).
* a mesh whose vertices all follow one joint (weight 1) is not skinned: it rides that joint,
  on the joint's own node when it is named as the joint, its inverse bind matrix is the
  identity (a glTF mesh node read back) and no skin binds the joint (three.js makes a skin
  joint a bone, and a bone plays no morph weights), else on a child node named as the mesh
  carrying the inverse bind matrix. A rigid hierarchy exports as nodes, as Blender makes one.
* one animation per clip, keyed LINEAR at the clip's own times (shifted to start at 0 when
  they start before it: glTF times are not negative): a translation, rotation or scale channel
  for each joint whose track leaves its rest value, a weights channel for each mesh whose morph
  weights move, in some clip (:func:`moving`); every clip keys all of them, at rest where it
  does not move them, so that Blender, which keeps a bone where the last action left it,
  plays each clip alone. glTF slerps rotations between keys, as the clips' resampling does.

Coordinates: glTF is Y up. A scene in another space is turned (and scaled) on the way out by
``axes`` (3,3), a rotation from the scene's space to glTF's: every root joint, inverse bind
matrix, bind position and morph delta is moved, so the file's bind space is Y up too.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ..core.build import vertex_normals
from ..core.mesh import flip_winding
from ..core.records import replace
from ..core.scene import OPAQUE, Material
from ..core.skeletal import F64, SkeletalClip, SkeletalScene, SkinnedMesh
from ..core.skins import Skin
from ..errors import BadValueError
from .gltf_write import (
    ARRAY_BUFFER,
    ELEMENT_ARRAY_BUFFER,
    FLOAT,
    UNSIGNED_INT,
    UNSIGNED_SHORT,
    Doc,
    GltfBuilder,
    Piece,
    json_floats,
    write_gltf,
)

UNSIGNED_BYTE = 5121
INFLUENCES = 4
"""Joint influences kept per vertex: one JOINTS_0/WEIGHTS_0 set (see the module doc)."""

# A track within this of its rest value does not change (float64 noise of a resampled clip).
_STILL = 1e-9


def export_skinned_gltf(
    scene: SkeletalScene,
    path: str | os.PathLike[str],
    *,
    skins: Sequence[Skin | None] = (),
    materials: Sequence[Material] = (),
    name: str = "model",
    axes: npt.ArrayLike | None = None,
    scale: float = 1.0,
    binary: bool | None = None,
) -> None:
    """Write ``scene`` to ``path`` (``.glb`` unless ``binary`` or a ``.gltf`` suffix says
    otherwise) as the module doc lays out, atomically.

    ``skins`` and ``materials``: per mesh of ``scene.meshes`` (shorter: the rest have none),
    the image shown as base colour and how it is drawn (sides, alpha test). ``name``: the
    scene and its root node. ``axes``: (3,3) rotation from the scene's space to glTF's Y up
    (None: the scene is Y up, as one read from a glTF; ``core.scene.Y_UP`` for a Quake-space,
    Z-up scene such as MD5's and IQM's); ``scale`` multiplies every length.
    A BadValueError names the first array that is not finite or a mesh that names a joint
    twice; ValueError for a scene with no joints or ``axes`` that is no rotation.
    """
    doc, pieces, builder = build_skinned_gltf(
        scene, skins=skins, materials=materials, name=name, axes=axes, scale=scale
    )
    write_gltf(path, doc, pieces, builder, binary=binary)


def build_skinned_gltf(
    scene: SkeletalScene,
    *,
    skins: Sequence[Skin | None] = (),
    materials: Sequence[Material] = (),
    name: str = "model",
    axes: npt.ArrayLike | None = None,
    scale: float = 1.0,
) -> tuple[Doc, list[Piece], GltfBuilder]:
    """The document, its buffer's pieces and the builder (for :func:`write_gltf`) of
    :func:`export_skinned_gltf`."""
    if not scene.names:
        raise ValueError("a skeletal scene with no joints has nothing to export")
    _require_finite(scene)
    if axes is not None or scale != 1.0:
        rotation = np.eye(3) if axes is None else np.asarray(axes, np.float64)
        scene = reframed(scene, rotation, scale)
    b = GltfBuilder()
    nodes = [_joint_node(scene, j) for j in range(len(scene.names))]
    for node in nodes:
        b.add("nodes", node)
    children: dict[int, list[int]] = {}
    for j, p in enumerate(scene.parents.tolist()):
        if p >= 0:
            children.setdefault(p, []).append(j)
    roots = [j for j, p in enumerate(scene.parents.tolist()) if p < 0]
    carriers: dict[int, int] = {}  # mesh index → the node showing it
    rigid = [rigid_slot(mesh) for mesh in scene.meshes]
    # joints of a skin become bones in three.js, which animates no morph weights on a bone
    # (GLTFLoader looks for them on the node itself): a mesh never rides a skin joint's node
    bones = {
        int(j) for mesh, r in zip(scene.meshes, rigid, strict=True) if r is None for j in mesh.slots
    }
    top: list[int] = []  # skinned mesh nodes: scene roots
    shared: dict[tuple[bytes, bytes], int] = {}  # (slots, inverse binds) → skin
    for i, mesh in enumerate(scene.meshes):
        if mesh.indices.size == 0 or mesh.positions.shape[0] == 0:
            continue  # glTF accessors cannot be empty
        skin = skins[i] if i < len(skins) else None
        material = materials[i] if i < len(materials) else OPAQUE
        slot = rigid[i]
        m = _mesh(b, mesh, skin, material, skinned=slot is None)
        if slot is not None:
            joint = int(mesh.slots[slot])
            bind = mesh.inverse_bind[slot]
            own = mesh.name == scene.names[joint] and "mesh" not in nodes[joint]
            own = own and joint not in bones
            if own and np.array_equal(bind, np.eye(4)):
                nodes[joint]["mesh"] = m
                carriers[i] = joint
                continue
            child = b.add("nodes", {**_transform(bind), "mesh": m, "name": mesh.name})
            children.setdefault(joint, []).append(child)
            carriers[i] = child
            continue
        key = (mesh.slots.tobytes(), np.ascontiguousarray(mesh.inverse_bind).tobytes())
        skin_index = shared.get(key)
        if skin_index is None:  # meshes bound alike share a skin (MD5's all do)
            skin_index = shared[key] = b.add("skins", _skin(b, mesh))
        skinned = b.add("nodes", {"mesh": m, "name": mesh.name, "skin": skin_index})
        carriers[i] = skinned
        top.append(skinned)
    for j, kids in children.items():
        b.doc["nodes"][j]["children"] = kids
    tracks = moving(scene)
    for clip in scene.clips:
        _animation(b, scene, clip, carriers, tracks)
    doc, pieces = b.finish_pieces(name, roots, roots=top)
    return doc, pieces, b


# -- joints ---------------------------------------------------------------------------------------


def _joint_node(scene: SkeletalScene, j: int) -> dict[str, Any]:
    """Joint ``j``'s node: its rest TRS (defaults omitted) or its fixed matrix."""
    node: dict[str, Any] = {"name": scene.names[j]}
    if j in scene.fixed:
        node["matrix"] = _column_major(scene.fixed[j])
        return node
    t, r, s = scene.translation[j], scene.rotation[j], scene.scale[j]
    r = r / np.linalg.norm(r)
    if np.any(t != 0):
        node["translation"] = t.tolist()
    if not np.array_equal(r, [0.0, 0.0, 0.0, 1.0]):
        node["rotation"] = r.tolist()
    if np.any(s != 1):
        node["scale"] = s.tolist()
    return node


def _column_major(matrix: F64) -> list[float]:
    out: list[float] = np.asarray(matrix, np.float64).T.reshape(-1).tolist()
    return out


def _transform(matrix: F64) -> dict[str, Any]:
    """A node's TRS for an affine (4,4) ``matrix``; its ``matrix`` when TRS cannot hold it
    exactly (a shear)."""
    if np.array_equal(matrix, np.eye(4)):
        return {}
    linear = matrix[:3, :3]
    scale = np.linalg.norm(linear, axis=0)
    if np.linalg.det(linear) > 0 and np.all(scale > 0):
        rotation = linear / scale
        if np.abs(rotation.T @ rotation - np.eye(3)).max() < 1e-9:
            q = quaternion(rotation)
            return {
                "translation": matrix[:3, 3].tolist(),
                "rotation": q.tolist(),
                "scale": scale.tolist(),
            }
    return {"matrix": _column_major(matrix)}


def quaternion(rotation: F64) -> F64:
    """(4,) unit quaternion (x, y, z, w) of a (3,3) rotation matrix (column vectors), w ≥ 0."""
    m = np.asarray(rotation, np.float64)
    trace = m[0, 0] + m[1, 1] + m[2, 2]
    if trace > 0:
        s = np.sqrt(trace + 1.0) * 2
        q = [(m[2, 1] - m[1, 2]) / s, (m[0, 2] - m[2, 0]) / s, (m[1, 0] - m[0, 1]) / s, s / 4]
    else:
        i = int(np.argmax(np.diagonal(m)))
        j, k = (i + 1) % 3, (i + 2) % 3
        s = np.sqrt(1.0 + m[i, i] - m[j, j] - m[k, k]) * 2
        q = [0.0, 0.0, 0.0, (m[k, j] - m[j, k]) / s]
        q[i] = s / 4
        q[j] = (m[j, i] + m[i, j]) / s
        q[k] = (m[k, i] + m[i, k]) / s
    out = np.asarray(q, np.float64)
    out /= np.linalg.norm(out)
    return out if out[3] >= 0 else -out


def _product(a: F64, b: F64) -> F64:
    """(...,4) Hamilton products a·b of (x, y, z, w) quaternions."""
    ax, ay, az, aw = np.moveaxis(a, -1, 0)
    bx, by, bz, bw = np.moveaxis(b, -1, 0)
    return np.stack(
        [
            aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw,
            aw * bw - ax * bx - ay * by - az * bz,
        ],
        axis=-1,
    )


def reframed(scene: SkeletalScene, rotation: F64, scale: float = 1.0) -> SkeletalScene:
    """``scene`` turned by the (3,3) ``rotation`` and scaled by ``scale`` as a whole, so
    that each posed vertex is the old one turned and scaled: every root joint's local
    transform (rest, fixed and every clip frame) and every mesh's bind space (positions, morph
    deltas, inverse bind matrices) move. A tag joint's own axes turn too (its world matrix is
    conjugated, as :func:`~quakemodels.core.skeletal.bake` turns tags, so that a model
    exported into the same axes sits on it): its local rotation gains the inverse turn on the
    right, its children the turn on the left. ValueError when ``rotation`` is not one.

    Exact for TRS joints except a tag with a non-uniform scale under a turn that is not an
    axis permutation (the Z-up to Y-up turn is one)."""
    r = np.asarray(rotation, np.float64)
    if r.shape != (3, 3) or np.abs(r.T @ r - np.eye(3)).max() > 1e-6 or np.linalg.det(r) < 0:
        raise ValueError(f"axes {r.tolist()} are not a rotation")
    if not (np.isfinite(scale) and scale > 0):
        raise ValueError(f"scale {scale} is not a positive number")
    count = len(scene.names)
    tags = np.zeros(count, bool)
    tags[list(scene.tags)] = True
    roots = scene.parents < 0
    under_tag = ~roots & tags[np.maximum(scene.parents, 0)]
    q0 = quaternion(r)
    q0_inverse = q0 * [-1.0, -1.0, -1.0, 1.0]
    # world'_j = move · world_j · C_j, C_j the inverse turn for a tag, else the identity;
    # so local'_j = A_j · local_j · C_j with A_j = move (a root), turn (under a tag), else I
    after_q = np.where(tags[:, None], q0_inverse, [0.0, 0.0, 0.0, 1.0])  # C_j
    before_q = np.where((roots | under_tag)[:, None], q0, [0.0, 0.0, 0.0, 1.0])
    before = np.broadcast_to(np.eye(3), (count, 3, 3)).copy()
    before[roots | under_tag] = r
    before[roots] *= scale
    after = np.broadcast_to(np.eye(3), (count, 3, 3)).copy()
    after[tags] = r.T
    # C^T S C is diagonal, (C∘C)^T s, when C permutes axes (or s is uniform)
    spread = after**2
    grow = np.where(roots, scale, 1.0)[:, None]

    def turned(t: F64, q: F64, s: F64) -> tuple[F64, F64, F64]:
        t = np.einsum("jab,...jb->...ja", before, t)
        q = _product(_product(np.broadcast_to(before_q, q.shape), q), after_q)
        s = np.einsum("jba,...jb->...ja", spread, s) * grow
        return t, q, s

    def matrix4(linear: F64) -> F64:
        out = np.eye(4)
        out[:3, :3] = linear
        return out

    t, q, s = turned(scene.translation, scene.rotation, scene.scale)
    fixed = {j: matrix4(before[j]) @ m @ matrix4(after[j]) for j, m in scene.fixed.items()}
    clips = []
    for clip in scene.clips:
        ct, cq, cs = turned(clip.translation, clip.rotation, clip.scale)
        clips.append(replace(clip, translation=ct, rotation=cq, scale=cs))
    linear = r * scale
    unmove = np.linalg.inv(matrix4(linear))
    meshes = [
        replace(
            m,
            positions=m.positions @ linear.T,
            targets=m.targets @ linear.T,
            inverse_bind=np.stack([matrix4(after[j].T) for j in m.slots.tolist()])
            @ m.inverse_bind
            @ unmove,
        )
        for m in scene.meshes
    ]
    return replace(
        scene, translation=t, rotation=q, scale=s, fixed=fixed, clips=clips, meshes=meshes
    )


# -- meshes ---------------------------------------------------------------------------------------


def rigid_slot(mesh: SkinnedMesh) -> int | None:
    """The slot every vertex of ``mesh`` follows with all its weight, or None (skinned)."""
    used = np.unique(mesh.joints[mesh.weights > 0])
    if len(used) == 1:
        return int(used[0])
    if len(used) == 0 and len(mesh.slots) == 1:
        return 0
    return None


def top_influences(
    joints: npt.NDArray[np.intp], weights: F64, keep: int = INFLUENCES
) -> tuple[npt.NDArray[np.intp], F64]:
    """(N,keep) slots and (N,keep) weights: each vertex's largest influences (a slot listed
    twice counted once with its weights summed), largest first, renormalized to sum 1; unused
    places are slot 0 with weight 0. A vertex with no weight follows its first slot."""
    n, k = joints.shape
    order = np.argsort(joints, axis=1, kind="stable")
    j = np.take_along_axis(joints, order, axis=1)
    sorted_w = np.take_along_axis(weights, order, axis=1)
    # fold each run of one slot into the run's first place
    rows = np.arange(n)
    first = np.zeros(n, np.intp)
    w = np.zeros_like(sorted_w)
    for c in range(k):
        if c:
            first = np.where(j[:, c] == j[:, c - 1], first, c)
        w[rows, first] += sorted_w[:, c]
    pick = np.argsort(-w, axis=1, kind="stable")[:, :keep]
    j = np.take_along_axis(j, pick, axis=1)
    w = np.take_along_axis(w, pick, axis=1)
    if k < keep:
        j = np.concatenate([j, np.zeros((n, keep - k), np.intp)], axis=1)
        w = np.concatenate([w, np.zeros((n, keep - k))], axis=1)
    total = w.sum(axis=1, keepdims=True)
    empty = total[:, 0] <= 0
    w = np.divide(w, total, out=np.zeros_like(w), where=total > 0)
    w[empty, 0] = 1.0
    j[empty, 0] = joints[empty, 0]
    j = np.where(w > 0, j, 0)
    return j.astype(np.intp), w


def _weights32(weights: F64) -> npt.NDArray[np.float32]:
    """(N,4) float32 weights whose float32 sum is 1 as nearly as float32 allows (the largest,
    first, takes the rounding), as the validator checks them."""
    w = weights.astype(np.float32)
    w[:, 0] = np.float32(1) - w[:, 1:].sum(axis=1, dtype=np.float32)
    return w


def _normals(mesh: SkinnedMesh) -> npt.NDArray[np.float32]:
    """(N,3) float32 unit vertex normals of the bind pose; (0, 1, 0) for a vertex on no
    triangle (glTF normals must be unit vectors)."""
    normals = vertex_normals(mesh.positions[None], flip_winding(mesh.indices))[0]
    flat = np.linalg.norm(normals, axis=1) < 0.5
    normals[flat] = [0.0, 1.0, 0.0]
    out: npt.NDArray[np.float32] = normals.astype(np.float32)
    return out


def _mesh(
    b: GltfBuilder, mesh: SkinnedMesh, skin: Skin | None, material: Material, *, skinned: bool
) -> int:
    """The glTF mesh of ``mesh`` (see the module doc); returns its index."""
    n = mesh.positions.shape[0]
    attributes: dict[str, int] = {
        "POSITION": b.data(mesh.positions, "VEC3", target=ARRAY_BUFFER, minmax=True),
        "NORMAL": b.data(_normals(mesh), "VEC3", target=ARRAY_BUFFER),
    }
    if mesh.uvs is not None and mesh.uvs.shape[0] == n:
        attributes["TEXCOORD_0"] = b.data(mesh.uvs, "VEC2", target=ARRAY_BUFFER)
    if skinned:
        joints, weights = top_influences(mesh.joints, mesh.weights)
        small = len(mesh.slots) <= 256
        j = joints.astype(np.uint8 if small else np.uint16)
        view = b.view(np.ascontiguousarray(j), target=ARRAY_BUFFER)
        attributes["JOINTS_0"] = b.accessor(
            view, n, "VEC4", UNSIGNED_BYTE if small else UNSIGNED_SHORT
        )
        view = b.view(np.ascontiguousarray(_weights32(weights)), target=ARRAY_BUFFER)
        attributes["WEIGHTS_0"] = b.accessor(view, n, "VEC4", FLOAT)
    idx = np.asarray(mesh.indices).reshape(-1)
    wide = int(idx.max()) >= 65535  # 65535 is the uint16 primitive-restart value
    view = b.view(idx.astype(np.uint32 if wide else np.uint16), target=ELEMENT_ARRAY_BUFFER)
    primitive: dict[str, Any] = {
        "attributes": attributes,
        "indices": b.accessor(
            view, int(idx.size), "SCALAR", UNSIGNED_INT if wide else UNSIGNED_SHORT
        ),
        "mode": 4,
    }
    index = b.material(skin, material)
    if index is not None:
        primitive["material"] = index
    out: dict[str, Any] = {"primitives": [primitive], "name": mesh.name}
    if mesh.targets.shape[0]:
        primitive["targets"] = [
            {"POSITION": b.data(d, "VEC3", target=ARRAY_BUFFER, minmax=True)} for d in mesh.targets
        ]
        rest = mesh.rest_weights if len(mesh.rest_weights) else np.zeros(mesh.targets.shape[0])
        out["weights"] = json_floats(rest)
    return b.add("meshes", out)


def _skin(b: GltfBuilder, mesh: SkinnedMesh) -> dict[str, Any]:
    """The skin of a skinned mesh: its slots' nodes (node j is joint j) and their inverse bind
    matrices (column-major float32, the last row exactly 0, 0, 0, 1)."""
    slots = mesh.slots.tolist()
    if len(set(slots)) != len(slots):
        raise BadValueError(
            f"mesh {mesh.name!r} binds a joint twice (slots {slots})", field="slots"
        )
    bind = np.array(mesh.inverse_bind, np.float64)
    bind[:, 3] = [0.0, 0.0, 0.0, 1.0]
    data = np.ascontiguousarray(bind.transpose(0, 2, 1), dtype=np.float32)
    acc = b.accessor(b.view(data), len(slots), "MAT4")
    return {"inverseBindMatrices": acc, "joints": slots}


# -- animations -----------------------------------------------------------------------------------


def _continuous(q: F64) -> F64:
    """(F,4) quaternions with signs flipped so that each is in the hemisphere of the one
    before (LINEAR then slerps the short way in every player)."""
    dots = np.sum(q[1:] * q[:-1], axis=1)
    sign = np.cumprod(np.where(dots < 0, -1.0, 1.0))
    out = q.copy()
    out[1:] *= sign[:, None]
    return out


def _rest_weights(mesh: SkinnedMesh) -> F64:
    return mesh.rest_weights if len(mesh.rest_weights) else np.zeros(mesh.targets.shape[0])


def _unit(q: F64) -> F64:
    out: F64 = q / np.linalg.norm(q, axis=-1, keepdims=True)
    return out


def moving(scene: SkeletalScene) -> list[tuple[int, str]]:
    """The (joint, path) TRS tracks and (mesh, "weights") morph tracks that leave their rest
    values in some clip of ``scene``: what every animation keys (see :func:`_animation`)."""
    found: set[tuple[int, str]] = set()
    free = np.ones(len(scene.names), bool)
    free[list(scene.fixed)] = False  # a matrix joint is never animated (glTF: TRS channels)
    for clip in scene.clips:
        dots = np.sum(_unit(clip.rotation) * _unit(scene.rotation)[None], axis=-1)
        for path, moves in (
            ("translation", np.abs(clip.translation - scene.translation).max(axis=(0, 2))),
            ("rotation", (1 - np.abs(dots)).max(axis=0)),
            ("scale", np.abs(clip.scale - scene.scale).max(axis=(0, 2))),
        ):
            found.update((int(j), path) for j in np.flatnonzero((moves > _STILL) & free))
        for i, w in clip.morph.items():
            if w.shape[1] and np.abs(w - _rest_weights(scene.meshes[i])).max() > _STILL:
                found.add((i, "weights"))
    order = {"translation": 0, "rotation": 1, "scale": 2, "weights": 3}
    return sorted(found, key=lambda item: (item[1] == "weights", item[0], order[item[1]]))


def _animation(
    b: GltfBuilder,
    scene: SkeletalScene,
    clip: SkeletalClip,
    carriers: dict[int, int],
    tracks_moving: list[tuple[int, str]],
) -> None:
    """One animation for ``clip`` keying every track of ``tracks_moving`` (:func:`moving`),
    all on one accessor of its key times. A track this clip leaves at rest is keyed at rest:
    Blender (and any player that switches actions without resetting) otherwise keeps it where
    the clip before left it."""
    times = np.asarray(clip.times, np.float64)
    if times[0] < 0:
        times = times - times[0]
    keys = times.astype(np.float32)
    if np.any(np.diff(keys) <= 0):
        raise BadValueError(
            f"clip {clip.name!r}: key times are not increasing in float32", field="times"
        )
    frames = len(keys)
    tracks: list[tuple[int, str, npt.NDArray[np.float32]]] = []
    for index, path in tracks_moving:
        if path == "weights":
            if index not in carriers:
                continue  # a mesh with no triangles is not in the file
            w = clip.morph.get(index)
            if w is None:
                rest = _rest_weights(scene.meshes[index])
                w = np.broadcast_to(rest, (frames, len(rest)))
            tracks.append((carriers[index], path, w.astype(np.float32)))
        elif path == "rotation":
            r = _continuous(_unit(clip.rotation[:, index]))
            tracks.append((index, path, r.astype(np.float32)))
        else:
            track = clip.translation if path == "translation" else clip.scale
            tracks.append((index, path, track[:, index].astype(np.float32)))
    if not tracks:
        # an animation needs a channel: the first root joint held where it rests, which
        # keeps the clip's length
        j = int(np.flatnonzero(scene.parents < 0)[0])
        if j in scene.fixed:
            return
        tracks.append((j, "translation", clip.translation[:, j].astype(np.float32)))
    key_acc = b.accessor(
        b.view(np.ascontiguousarray(keys)),
        len(keys),
        "SCALAR",
        minmax=(json_floats(keys[:1]), json_floats(keys[-1:])),
    )
    samplers: list[dict[str, Any]] = []
    channels: list[dict[str, Any]] = []
    kinds = {"translation": "VEC3", "rotation": "VEC4", "scale": "VEC3", "weights": "SCALAR"}
    for node, path, values in tracks:
        data = np.ascontiguousarray(values)
        count = len(keys) * (values.shape[1] if path == "weights" else 1)
        acc = b.accessor(b.view(data), count, kinds[path])
        samplers.append({"input": key_acc, "interpolation": "LINEAR", "output": acc})
        channels.append({"sampler": len(samplers) - 1, "target": {"node": node, "path": path}})
    b.add("animations", {"name": clip.name, "channels": channels, "samplers": samplers})


def skin_summary(scene: SkeletalScene) -> str:
    """What the export of ``scene`` holds, for a command's output line: ``6 joints, 2 meshes
    (1 skinned), 2 clips``."""
    skinned = sum(
        rigid_slot(m) is None for m in scene.meshes if m.indices.size and len(m.positions)
    )
    joints = "joint" if len(scene.names) == 1 else "joints"
    meshes = "mesh" if len(scene.meshes) == 1 else "meshes"
    clips = "clip" if len(scene.clips) == 1 else "clips"
    return (
        f"{len(scene.names)} {joints}, {len(scene.meshes)} {meshes} ({skinned} skinned),"
        f" {len(scene.clips)} {clips}"
    )


# -- checks ---------------------------------------------------------------------------------------


def _require_finite(scene: SkeletalScene) -> None:
    """BadValueError naming the first array of ``scene`` that is NaN or infinite."""
    arrays: list[tuple[str, npt.NDArray[Any]]] = [
        ("translation", scene.translation),
        ("rotation", scene.rotation),
        ("scale", scene.scale),
        *((f"fixed[{j}]", m) for j, m in scene.fixed.items()),
    ]
    for mesh in scene.meshes:
        arrays += [
            (f"{mesh.name}.positions", mesh.positions),
            (f"{mesh.name}.targets", mesh.targets),
            (f"{mesh.name}.inverse_bind", mesh.inverse_bind),
            (f"{mesh.name}.weights", mesh.weights),
        ]
        if mesh.uvs is not None:
            arrays.append((f"{mesh.name}.uvs", mesh.uvs))
    for clip in scene.clips:
        arrays += [
            (f"{clip.name}.times", clip.times),
            (f"{clip.name}.translation", clip.translation),
            (f"{clip.name}.rotation", clip.rotation),
            (f"{clip.name}.scale", clip.scale),
            *((f"{clip.name}.morph[{i}]", w) for i, w in clip.morph.items()),
        ]
    for label, values in arrays:
        if not np.isfinite(values).all():
            raise BadValueError(f"{label} holds values that are not finite", field=label)


__all__ = [
    "INFLUENCES",
    "build_skinned_gltf",
    "export_skinned_gltf",
    "moving",
    "quaternion",
    "reframed",
    "rigid_slot",
    "skin_summary",
    "top_influences",
]
