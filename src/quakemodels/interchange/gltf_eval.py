"""A glTF evaluated as a viewer evaluates it: the node hierarchy (TRS and matrices), skins
(joints, weights, inverse bind matrices), morph weights, and every animation sampled into
vertex frames.

:func:`read_skeletal` reads a validated document (:mod:`.gltf_doc`) into the neutral
:class:`~quakemodels.core.skeletal.SkeletalScene`: every node is a joint (a mesh that is not
skinned is bound to its own node), every animation a clip sampled at ``fps`` frames per second
from its first key time ``t0`` to its last ``t1``: ``round((t1 - t0) · fps) + 1`` frames at
``t0 + k / fps``. Samplers interpolate as glTF 2.0 §3.11 defines: STEP holds a key, LINEAR
lerps translations, scales and weights and slerps rotations (the shorter way), CUBICSPLINE
takes a Hermite spline over each key's in-tangent, value and out-tangent (scaled by the key
interval), rotations normalised after; before the first key and after the last a channel holds
its end value. A skinned mesh's own node transform is ignored (glTF 2.0 §3.7.3.1).

:func:`needs_evaluation` says when a file must go this way: when a mesh is skinned, when an
animation moves a mesh's node or one of its ancestors, or when morph weights are animated
over targets that are not frames (the first target holds a real shape: a Blender shape-key
action). Our own exports, whose morph targets are the frames (the first one all zero), read
exactly as stored by :mod:`.gltf_read` instead.

Every count is bounded before an array is made: frames per clip by ``limits.max_frames``,
frames × joints by :data:`MAX_JOINT_FRAMES`, frames × vertices by ``limits.max_positions``.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ..core.records import replace
from ..core.scene import Y_UP, to_y_up
from ..core.skeletal import (
    F64,
    Baked,
    SkeletalClip,
    SkeletalScene,
    SkinnedMesh,
    bake,
    baked_shape,
    sample,
    trs_matrices,
)
from ..errors import QuakeModelsWarning
from .gltf_doc import (
    _decode,
    _Document,
    _floats,
    _mesh_primitives,
    _Node,
    _nodes,
    _plan,
    _positions,
    _Primitive,
    _sampler,
    _triangles,
)
from .imported import ImportLimits

MAX_JOINT_FRAMES = 1 << 20
"""Frames × nodes a clip may pose: its (F,J,4,4) float64 matrices take 128 bytes each. A
small file gets half its import limit's positions (``ImportLimits.for_input``) at most."""

_PATHS = {"translation": 3, "rotation": 4, "scale": 3}
_INTERPOLATIONS = ("LINEAR", "STEP", "CUBICSPLINE")
_JOINT_COMPONENTS = (5121, 5123)
_WEIGHT_COMPONENTS = (5126, 5121, 5123)

# A Z-up file's (x, y, z) seen as Y-up, (x, z, -y): what Blender's exporter does with "+Y Up"
# on, applied to a file exported with it off (``up="z"``).
Z_UP_TO_Y_UP = np.array([[1, 0, 0, 0], [0, 0, 1, 0], [0, -1, 0, 0], [0, 0, 0, 1]], np.float64)


@dataclass(frozen=True)
class Hierarchy:
    """The nodes of a document as a tree: ``parent`` node index per node (-1 for a root),
    ``order`` every node once, parents before children, and ``shown`` the nodes of the default
    scene (all of them when the file has no scenes)."""

    nodes: list[_Node]
    parent: list[int]
    order: list[int]
    shown: set[int]

    def mesh_nodes(self) -> list[_Node]:
        """The shown nodes with a mesh, in tree order."""
        return [
            self.nodes[i] for i in self.order if i in self.shown and _has(self.nodes[i], "mesh")
        ]

    def ancestors(self, i: int) -> list[int]:
        """Node ``i`` and every node above it."""
        return _chain(self.parent, i)


def _has(n: _Node, key: str) -> bool:
    return n.node.get(key) is not None


def hierarchy(g: _Document) -> Hierarchy:
    """The node tree, validated: every child index names a node, no node has two parents, and
    there is no cycle."""
    nodes = _nodes(g)
    parent = [-1] * len(nodes)
    for n in nodes:
        at = f"nodes[{n.index}].children"
        for k, c in enumerate(g.array(n.node.get("children", []), at)):
            child = g.integer(c, f"{at}[{k}]", 0, max(len(nodes) - 1, 0))
            if parent[child] >= 0 or child == n.index:
                raise g.error(f"{at}[{k}]", f"={child}: node {child} has two parents")
            parent[child] = n.index
    order: list[int] = []
    todo = [i for i in range(len(nodes)) if parent[i] < 0][::-1]
    while todo:
        i = todo.pop()
        order.append(i)
        kids = g.array(nodes[i].node.get("children", []), f"nodes[{i}].children")
        todo.extend(int(c) for c in reversed(kids))
    if len(order) != len(nodes):
        lost = sorted(set(range(len(nodes))) - set(order))
        raise g.error(f"nodes[{lost[0]}]", "is in a cycle of children")
    shown = set(range(len(nodes)))
    scenes = g.doc.get("scenes")
    if isinstance(scenes, list) and scenes:
        s = g.integer(g.doc.get("scene", 0), "scene", 0, len(scenes) - 1)
        scene = g.obj(scenes[s], f"scenes[{s}]")
        roots = [
            g.integer(r, f"scenes[{s}].nodes[{k}]", 0, max(len(nodes) - 1, 0))
            for k, r in enumerate(g.array(scene.get("nodes", []), f"scenes[{s}].nodes"))
        ]
        shown = {i for i in order if any(a in roots for a in _chain(parent, i))}
    return Hierarchy(nodes, parent, order, shown)


def _chain(parent: list[int], i: int) -> list[int]:
    """Node ``i`` and every node above it, by the ``parent`` of each node (-1 at a root)."""
    out = [i]
    while parent[out[-1]] >= 0:
        out.append(parent[out[-1]])
    return out


def _rest(g: _Document, n: _Node) -> tuple[F64, F64, F64, F64 | None]:
    """A node's rest translation (3,), rotation (4,), scale (3,) and its matrix (4,4) when it
    has one instead (column-major in the file)."""
    at = f"nodes[{n.index}]"
    matrix = _floats(g, n.node.get("matrix"), f"{at}.matrix", 16)
    t = _floats(g, n.node.get("translation"), f"{at}.translation", 3)
    r = _floats(g, n.node.get("rotation"), f"{at}.rotation", 4)
    s = _floats(g, n.node.get("scale"), f"{at}.scale", 3)
    if r is not None and np.linalg.norm(r) < 1e-6:
        raise g.error(f"{at}.rotation", "is a zero quaternion")
    t = np.zeros(3) if t is None else t
    r = np.array([0.0, 0.0, 0.0, 1.0]) if r is None else r / np.linalg.norm(r)
    s = np.ones(3) if s is None else s
    return t, r, s, None if matrix is None else matrix.reshape(4, 4).T


def needs_evaluation(g: _Document, tree: Hierarchy | None = None) -> bool:
    """True when the file animates or binds its meshes in ways only evaluation reproduces (a
    skin, a moved node above a mesh, shape-key weights over real shapes); False for a static
    file and for meshes whose morph targets are their frames (see the module doc), which
    read exactly as stored, at their nodes' rest positions. ``tree``: the document's
    :func:`hierarchy` when the caller has it."""
    tree = hierarchy(g) if tree is None else tree
    meshes = tree.mesh_nodes()
    if any(_has(n, "skin") for n in meshes):
        return True
    # our own exports (a player's parts on animated tag nodes included) keep their frames
    posed = [n for n in meshes if not _frames_layout(g, n)]
    above = {a for n in posed for a in tree.ancestors(n.index)}
    by_node = {n.index: n for n in posed}
    for a, value in enumerate(g.array(g.doc.get("animations", []), "animations")):
        anim = g.obj(value, f"animations[{a}]")
        for c, cvalue in enumerate(g.array(anim.get("channels", []), f"animations[{a}].channels")):
            target = g.obj(g.obj(cvalue, f"animations[{a}].channels[{c}]").get("target"), "target")
            node, path = target.get("node"), target.get("path")
            if type(node) is not int:
                continue
            if path in _PATHS and node in above:
                return True
            if path == "weights" and node in by_node:
                return True
    return False


def _frames_layout(g: _Document, n: _Node) -> bool:
    """Whether a mesh node's morph targets are frames as our exporters write them: the first
    target of its first primitive moves nothing."""
    m, mesh = g.item("meshes", n.node["mesh"], f"nodes[{n.index}].mesh")
    prims = _mesh_primitives(g, m, mesh)
    first = prims[0].targets[0] if prims and prims[0].targets else None
    return first is not None and not np.any(_positions(g, first))


# -- sampling -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Channel:
    node: int
    path: str
    times: F64
    values: F64
    interpolation: str


def _channels(g: _Document, a: int, anim: dict[str, Any], count: int) -> list[_Channel]:
    """The channels of ``animations[a]`` that move nodes or weights, samplers decoded."""
    samplers = g.array(anim.get("samplers", []), f"animations[{a}].samplers")
    out = []
    for c, cvalue in enumerate(g.array(anim.get("channels", []), f"animations[{a}].channels")):
        at = f"animations[{a}].channels[{c}]"
        channel = g.obj(cvalue, at)
        target = g.obj(channel.get("target"), f"{at}.target")
        path = target.get("path")
        if target.get("node") is None or path not in (*_PATHS, "weights"):
            continue  # an extension's target (KHR_animation_pointer): not a node's
        node = g.integer(target["node"], f"{at}.target.node", 0, max(count - 1, 0))
        s = g.integer(channel.get("sampler"), f"{at}.sampler", 0, max(len(samplers) - 1, 0))
        sat = f"animations[{a}].samplers[{s}]"
        interpolation = g.obj(samplers[s], sat).get("interpolation", "LINEAR")
        if interpolation not in _INTERPOLATIONS:
            raise g.error(
                f"{sat}.interpolation",
                f"={interpolation!r} is not one of LINEAR, STEP, CUBICSPLINE",
            )
        kind = (
            ("SCALAR",) if path == "weights" else (("VEC4",) if path == "rotation" else ("VEC3",))
        )
        times, values = _sampler(g, anim, a, s, kind)
        if np.any(np.diff(times) < 0):
            raise g.error(f"{sat}.input", "key times are not increasing")
        cubic = interpolation == "CUBICSPLINE"
        if path == "weights":
            values = values.reshape(len(times), -1)
        if cubic:
            if values.shape[1] % 3:
                raise g.error(f"{sat}.output", "a CUBICSPLINE output needs 3 values per key")
            values = values.reshape(len(times), 3, -1)
        out.append(_Channel(node, path, times, values, interpolation))
    return out


# -- the skeletal scene ---------------------------------------------------------------------------


def _skin(
    g: _Document, n: _Node, prim: _Primitive, joint_of: dict[int, int], count: int
) -> tuple[npt.NDArray[np.intp], F64, npt.NDArray[np.intp], F64]:
    """(slots, inverse_bind, joints, weights) of a primitive on node ``n``: its skin's joints
    when the node has one, else its own node with weight 1."""
    rows = prim.position.count
    if not _has(n, "skin"):
        return (
            np.array([joint_of[n.index]], np.intp),
            np.eye(4)[None],
            np.zeros((rows, 1), np.intp),
            np.ones((rows, 1)),
        )
    k, skin = g.item("skins", n.node["skin"], f"nodes[{n.index}].skin")
    at = f"skins[{k}]"
    joint_nodes = [
        g.integer(j, f"{at}.joints[{i}]", 0, max(count - 1, 0))
        for i, j in enumerate(g.array(skin.get("joints"), f"{at}.joints"))
    ]
    if not joint_nodes:
        raise g.error(f"{at}.joints", "is empty")
    if skin.get("inverseBindMatrices") is None:
        bind = np.broadcast_to(np.eye(4), (len(joint_nodes), 4, 4)).copy()
    else:
        plan = _plan(
            g, skin["inverseBindMatrices"], f"{at}.inverseBindMatrices", ("MAT4",), (5126,)
        )
        if plan.count != len(joint_nodes):
            raise g.error(plan.where, f"has {plan.count} matrices for {len(joint_nodes)} joints")
        bind = _decode(g, plan).astype(np.float64).reshape(-1, 4, 4).transpose(0, 2, 1)
        if not np.isfinite(bind).all():
            raise g.error(plan.where, "holds values that are not finite numbers")
    joints, weights = _influences(g, prim, len(joint_nodes))
    slots = np.array([joint_of[j] for j in joint_nodes], np.intp)
    return slots, bind, joints, weights


def _influences(g: _Document, prim: _Primitive, slots: int) -> tuple[npt.NDArray[np.intp], F64]:
    """(N,K) joint slots and (N,K) weights (rows normalised) of every JOINTS_n/WEIGHTS_n set."""
    attributes = prim.attributes
    joints, weights = [], []
    for k in range(8):
        if attributes.get(f"JOINTS_{k}") is None:
            break
        where = f"{prim.where}.attributes"
        jp = _plan(
            g, attributes[f"JOINTS_{k}"], f"{where}.JOINTS_{k}", ("VEC4",), _JOINT_COMPONENTS
        )
        if attributes.get(f"WEIGHTS_{k}") is None:
            raise g.error(where, f"has JOINTS_{k} without WEIGHTS_{k}")
        wp = _plan(
            g, attributes[f"WEIGHTS_{k}"], f"{where}.WEIGHTS_{k}", ("VEC4",), _WEIGHT_COMPONENTS
        )
        for plan in (jp, wp):
            if plan.count != prim.position.count:
                raise g.error(
                    plan.where, f"has {plan.count} rows; POSITION has {prim.position.count}"
                )
        j = _decode(g, jp).astype(np.intp)
        w = _decode(g, wp).astype(np.float64)
        if wp.dtype.kind != "f" and not wp.normalized:
            raise g.error(wp.where, "integer weights must be normalized")
        if j.max(initial=0) >= slots:
            raise g.error(jp.where, f"names joint {int(j.max())} of a skin of {slots}")
        if not np.isfinite(w).all() or (w < 0).any():
            raise g.error(wp.where, "holds weights that are negative or not finite")
        joints.append(j)
        weights.append(w)
    if not joints:
        raise g.error(prim.where, "is skinned but has no JOINTS_0")
    jj, ww = np.concatenate(joints, axis=1), np.concatenate(weights, axis=1)
    total = ww.sum(axis=1, keepdims=True)
    # a vertex without weight follows its first joint (as three.js's and Blender's do not
    # agree on what it does, the nearest sensible thing)
    ww = np.where(total > 0, ww / np.where(total > 0, total, 1.0), np.eye(ww.shape[1])[0])
    return jj, ww


def read_skeletal(g: _Document, fps: float, limits: ImportLimits) -> SkeletalScene:
    """Every node as a joint, every shown mesh primitive bound to its joints, every animation a
    clip sampled at ``fps`` (see the module doc)."""
    if not (math.isfinite(fps) and 0 < fps <= 1000):
        raise g.error("fps", f"={fps} is not a frame rate from 0 to 1000")
    tree = hierarchy(g)
    count = len(tree.nodes)
    joint_of = {node: j for j, node in enumerate(tree.order)}
    parents = np.array(
        [joint_of[tree.parent[i]] if tree.parent[i] >= 0 else -1 for i in tree.order], np.intp
    )
    rests = [_rest(g, tree.nodes[i]) for i in tree.order]
    rest_t = np.stack([r[0] for r in rests]) if rests else np.zeros((0, 3))
    rest_r = np.stack([r[1] for r in rests]) if rests else np.zeros((0, 4))
    rest_s = np.stack([r[2] for r in rests]) if rests else np.zeros((0, 3))
    fixed = {j: r[3] for j, r in enumerate(rests) if r[3] is not None}
    meshes: list[SkinnedMesh] = []
    mesh_of_node: dict[int, list[int]] = {}
    for n in tree.mesh_nodes():
        m, mesh = g.item("meshes", n.node["mesh"], f"nodes[{n.index}].mesh")
        prims = _mesh_primitives(g, m, mesh)
        default = _floats(
            g,
            n.node.get("weights", mesh.get("weights")),
            f"meshes[{m}].weights",
            len(prims[0].targets) if prims else 0,
        )
        label = (
            n.name or (mesh.get("name") if isinstance(mesh.get("name"), str) else "") or f"mesh{m}"
        )
        for p, prim in enumerate(prims):
            slots, bind, joints, weights = _skin(g, n, prim, joint_of, count)
            targets = (
                np.stack(
                    [
                        np.zeros((prim.position.count, 3))
                        if t is None
                        else _positions(g, t).astype(np.float64)
                        for t in prim.targets
                    ]
                )
                if prim.targets
                else np.zeros((0, prim.position.count, 3))
            )
            uv = None if prim.uv is None else _decode(g, prim.uv).astype(np.float32)
            if prim.uv is not None and uv is not None and not np.isfinite(uv).all():
                raise g.error(prim.uv.where, "holds values that are not finite numbers")
            mesh_of_node.setdefault(n.index, []).append(len(meshes))
            meshes.append(
                SkinnedMesh(
                    name=label if len(prims) == 1 else f"{label}_{p + 1:02d}",
                    positions=_positions(g, prim.position).astype(np.float64),
                    targets=targets,
                    slots=slots,
                    inverse_bind=bind,
                    joints=joints,
                    weights=weights,
                    uvs=uv,
                    indices=_triangles(g, prim),
                    material=prim.material if type(prim.material) is int else None,
                    rest_weights=np.zeros(len(prim.targets)) if default is None else default,
                )
            )
    clips = []
    joint_frames = min(MAX_JOINT_FRAMES, limits.max_positions // 2)
    spent = 0
    for a, value in enumerate(g.array(g.doc.get("animations", []), "animations")):
        anim = g.obj(value, f"animations[{a}]")
        channels = _channels(g, a, anim, count)
        if not channels:
            continue
        t0 = min(float(c.times[0]) for c in channels)
        t1 = max(float(c.times[-1]) for c in channels)
        frames = round((t1 - t0) * fps) + 1
        spent += frames * max(count, 1)  # held over every clip: each keeps its tracks
        if frames > limits.max_frames or spent > joint_frames:
            raise g.error(
                f"animations[{a}]",
                f"runs {t1 - t0:g} s: {frames} frames at {fps:g} fps × {count} nodes take the"
                f" animations past the import limit ({limits.max_frames} frames a clip,"
                f" {joint_frames} node frames in all)",
            )
        at = t0 + np.arange(frames) / fps
        trs = {"translation": rest_t, "rotation": rest_r, "scale": rest_s}
        track = {k: np.repeat(v[None], frames, axis=0) for k, v in trs.items()}
        morph: dict[int, F64] = {}
        for c in channels:
            j = joint_of[c.node]
            if c.path == "weights":
                for i in mesh_of_node.get(c.node, []):
                    w = sample(c.times, c.values, c.interpolation, at)
                    if w.shape[1] != meshes[i].targets.shape[0]:
                        raise g.error(
                            f"animations[{a}]",
                            f"keys {w.shape[1]} weights; nodes[{c.node}]'s mesh has"
                            f" {meshes[i].targets.shape[0]} targets",
                        )
                    morph[i] = w
                continue
            if j in fixed:
                raise g.error(
                    f"animations[{a}]",
                    f"moves nodes[{c.node}], which has a matrix (glTF allows TRS only there)",
                )
            track[c.path][:, j] = sample(
                c.times, c.values, c.interpolation, at, c.path == "rotation"
            )
        name = anim.get("name")
        label = name if isinstance(name, str) and name else f"animation{a}"
        clips.append(
            SkeletalClip(label, at, track["translation"], track["rotation"], track["scale"], morph)
        )
    names = tuple(tree.nodes[i].name for i in tree.order)
    # tags: the tag_* nodes that carry no mesh (an empty, or a joint's child)
    carriers = {joint_of[n.index] for n in tree.mesh_nodes()}
    tags = tuple(j for j, n in enumerate(names) if n.startswith("tag_") and j not in carriers)
    return SkeletalScene(
        names, parents, rest_t, rest_r, rest_s, meshes, clips, fixed=fixed, tags=tags
    )


# -- posed into frames ----------------------------------------------------------------------------


# Y-up glTF (a, b, c) → Quake (c, a, b): the inverse of the exporters' change of axes
QUAKE_FROM_Y_UP = np.eye(4)
QUAKE_FROM_Y_UP[:3, :3] = Y_UP.T


def evaluate(
    g: _Document, fps: float, limits: ImportLimits, up: str = "y"
) -> tuple[SkeletalScene, Baked]:
    """Every clip of the file posed (the rest pose when it has none) into Quake space;
    ``up="z"`` turns a Z-up file (Blender's "+Y Up" off) to Y up first. Shapes are checked
    before posing; a model lying on its side warns (:func:`warn_if_lying`)."""
    scene = read_skeletal(g, fps, limits)
    total, corners = baked_shape(scene)
    if total > limits.max_frames or total * corners > limits.max_positions:
        raise g.error(
            "animations",
            f"{total} frames × {corners} vertices at {fps:g} fps exceed the import limit"
            f" ({limits.max_frames} frames, {limits.max_positions} positions)",
        )
    root = QUAKE_FROM_Y_UP @ Z_UP_TO_Y_UP if up == "z" else QUAKE_FROM_Y_UP
    baked = bake(scene, root=root)
    baked = replace(baked, fps=fps)
    if up == "y" and baked.positions:
        first = np.concatenate([p[0] for p in baked.positions])
        warn_if_lying(g, to_y_up(first).astype(np.float64))
    return scene, baked


def lying(points: F64) -> tuple[float, float] | None:
    """(depth, height) when Y-up ``points`` (N,3) look like a Z-up export: deeper along glTF
    Z than tall along Y (by 1.2×), standing on the Z = 0 plane (as a figure made with its feet
    on Blender's ground and exported with "+Y Up" off does), and no wider than deep; else
    None. A long model made Y-up (a dog) is centred along Z, not standing on its plane."""
    if len(points) < 3:
        return None
    low, high = points.min(axis=0), points.max(axis=0)
    width, height, depth = high - low
    on_plane = abs(low[2]) <= 0.02 * depth or abs(high[2]) <= 0.02 * depth
    if depth > 1.2 * height and depth >= width and on_plane:
        return float(depth), float(height)
    return None


def warn_if_lying(g: _Document, points: F64) -> None:
    found = lying(points)
    if found is not None:
        warnings.warn(
            f"{g.path}: the model lies on its side: it is {found[0]:.4g} deep along glTF's Z and"
            f" {found[1]:.4g} tall along Y, and stands on the Z = 0 plane, as a Z-up export does"
            " (Blender: '+Y Up' unchecked); re-export with +Y Up, or give --up z",
            QuakeModelsWarning,
            stacklevel=4,
        )


def rest_world(g: _Document, tree: Hierarchy) -> dict[int, F64]:
    """Node index → (4,4) world matrix at rest, of every node of ``tree`` (the document's
    :func:`hierarchy`; animations not applied)."""
    world: dict[int, F64] = {}
    for i in tree.order:
        t, r, s, m = _rest(g, tree.nodes[i])
        local = trs_matrices(t, r, s) if m is None else m
        p = tree.parent[i]
        world[i] = local if p < 0 else world[p] @ local
    return world
