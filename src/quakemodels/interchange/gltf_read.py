"""Reading vertex-animated meshes back from glTF 2.0 (morph targets): :func:`read_gltf` gives
one merged :class:`ImportedMesh` (→ MD2), :func:`read_gltf_scene` a scene of surfaces and tags
(→ MD3, see the comment above it) and :func:`read_gltf_scenes` one per node subtree (a player's
parts).

glTF frames: when the first morph target's POSITION is all zeros (our exporter's layout, where
target f holds frame f minus the base), there is one frame per target; otherwise the base mesh
is frame 0 (named ``base``) and every target adds a frame. Frame names come from
``mesh.extras.targetNames``. Node transforms are not applied. glTF UV and Quake share the
t-down convention.

The file is untrusted. The GLB container and the JSON are parsed here (not by a library), and
every accessor, buffer view and buffer an import uses is validated before a byte is decoded:
indices are non-negative integers naming an existing item, counts ≥ 1, offsets ≥ 0, a stride
is 0 or a multiple of the component size from the element size to 252, and every range lies
inside its view and buffer (Python ints: nothing wraps or overflows). The result's shape
(frames, vertices, frames × vertices, also held to the bytes read: :class:`ImportLimits`) is
checked before the morph targets are decoded. Every problem is a :class:`ModelFormatError`
naming the file and the JSON path (``accessors[3].byteStride``). External buffers are
relative URIs (percent-decoded) to regular files inside the glTF's folder; other URI schemes
are refused.
"""

from __future__ import annotations

import os
import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from ..core.build import vertex_normals
from ..core.mesh import flip_winding
from ..core.scene import FPS, Y_UP, ExportModel, Surface, Tag, to_y_up
from ..core.skeletal import Baked, SkeletalScene, baked_model
from ..errors import ModelFormatError, QuakeModelsWarning
from .gltf_doc import (
    _WIDTH,
    _buffer,
    _decode,
    _Document,
    _fill_frames,
    _frames,
    _mesh_primitives,
    _Node,
    _nodes,
    _numbers,
    _open,
    _Primitive,
    _primitives,
    _sampler,
    _triangles,
)
from .gltf_eval import (
    Z_UP_TO_Y_UP,
    Hierarchy,
    evaluate,
    hierarchy,
    needs_evaluation,
    rest_world,
    warn_if_lying,
)
from .imported import DEFAULT_LIMITS, FloatArray, ImportedMesh, ImportLimits, check_shape, from_y_up

# GLB container (glTF 2.0 §4.4): a 12-byte header, then 8-byte chunk headers.


# -- container ------------------------------------------------------------------------------------


# -- accessors ------------------------------------------------------------------------------------


# -- meshes ---------------------------------------------------------------------------------------


def read_gltf(
    path: str | os.PathLike[str],
    *,
    limits: ImportLimits = DEFAULT_LIMITS,
    fps: float = FPS,
    up: str = "y",
) -> ImportedMesh:
    """Read every triangle primitive of every shown mesh in a ``.glb`` / ``.gltf`` as one mesh
    in its world position (see the module doc).

    A file that skins or moves its meshes, or animates shape keys, is evaluated as a viewer
    plays it (:mod:`.gltf_eval`): each animation sampled at ``fps`` becomes a clip whose
    frames are named after it. ``up="z"`` reads a Z-up file (Blender's "+Y Up" off) upright.
    ``limits`` bound the result and are checked before anything is decoded or posed.
    """
    g, size = _open(path)
    p = g.path
    limits = limits.for_input(size + g.external_bytes)
    tree = hierarchy(g)
    if needs_evaluation(g, tree):
        return _evaluated_mesh(g, *evaluate(g, fps, limits, up))
    placed = _placed(g, tree, up)
    prims = [prim for prim, _ in placed]
    layouts = [_frames(g, prim) for prim in prims]
    counts = {len(targets) + base for targets, base in layouts}
    if len(counts) > 1:
        raise g.error("meshes", f"have different frame counts {sorted(counts)}")
    frames = counts.pop()
    corners = sum(prim.position.count for prim in prims)
    check_shape(str(p), frames, corners, limits)
    positions = np.empty((frames, corners, 3), np.float32)
    uvs: list[FloatArray | None] = []
    indices = []
    base = 0
    for (prim, world), (targets, base_is_frame) in zip(placed, layouts, strict=True):
        n = prim.position.count
        rows = positions[:, base : base + n]
        _fill_frames(g, prim.position, targets, base_is_frame, rows)
        if world is not None:
            rows[:] = rows @ world[:3, :3].T + world[:3, 3]
        uvs.append(None if prim.uv is None else _decode(g, prim.uv).astype(np.float32))
        indices.append(_triangles(g, prim) + base)
        base += n
    if up == "y":
        warn_if_lying(g, positions[0].astype(np.float64))
    first_names = prims[0].names
    _, base_is_frame = layouts[0]
    names = ["base", *first_names] if base_is_frame and first_names else list(first_names)
    if len(names) != frames:
        names = [f"frame{f + 1}" for f in range(frames)]
    has_uv = all(u is not None for u in uvs)
    return ImportedMesh(
        positions=from_y_up(positions),
        uvs=np.concatenate([u for u in uvs if u is not None]) if has_uv else None,
        indices=np.concatenate(indices),
        frame_names=names,
        skin_size=_image_size(g),
    )


def _placed(
    g: _Document, tree: Hierarchy, up: str
) -> list[tuple[_Primitive, npt.NDArray[np.float64] | None]]:
    """Every primitive of every shown mesh node with the node's world matrix at rest (None for
    the identity); every primitive of every mesh when no node names a mesh (a bare file)."""
    root = Z_UP_TO_Y_UP if up == "z" else np.eye(4)
    nodes = tree.mesh_nodes()
    if not nodes:
        bare = None if up == "y" else root
        return [(prim, bare) for prim in _primitives(g)]
    world = rest_world(g, tree)
    out: list[tuple[_Primitive, npt.NDArray[np.float64] | None]] = []
    for n in nodes:
        m, mesh = g.item("meshes", n.node["mesh"], f"nodes[{n.index}].mesh")
        matrix = root @ world[n.index]
        placed = None if np.array_equal(matrix, np.eye(4)) else matrix
        out += [(prim, placed) for prim in _mesh_primitives(g, m, mesh)]
    return out


def _evaluated_mesh(g: _Document, scene: SkeletalScene, baked: Baked) -> ImportedMesh:
    """An evaluated glTF (baked into Quake space) as one merged mesh."""
    offsets = np.cumsum([0] + [m.positions.shape[0] for m in scene.meshes])
    has_uv = all(m.uvs is not None for m in scene.meshes)
    return ImportedMesh(
        positions=np.concatenate(baked.positions, axis=1).astype(np.float32),
        uvs=np.concatenate([m.uvs for m in scene.meshes if m.uvs is not None]) if has_uv else None,
        indices=np.concatenate(
            [m.indices + o for m, o in zip(scene.meshes, offsets, strict=False)]
        ),
        frame_names=baked.frame_names,
        skin_size=_image_size(g),
    )


def _first_image(g: _Document) -> tuple[str, bytes] | None:
    """(name, bytes) of ``images[0]`` when it is embedded (in a buffer view), else None (what
    :func:`read_gltf`'s ``skin_size`` measures; a build reads each surface's own texture
    through :mod:`quakemodels.interchange.gltf_images`); a ModelFormatError when its buffer
    view is broken."""
    images = g.doc.get("images")
    if not isinstance(images, list) or not images or not isinstance(images[0], dict):
        return None
    return _embedded(g, 0, images[0])


def _embedded(g: _Document, i: int, image: dict[str, Any]) -> tuple[str, bytes] | None:
    """(name, bytes) of ``images[i]`` when it lies in a buffer view, else None; a
    ModelFormatError naming the view when the view runs past its buffer."""
    if image.get("bufferView") is None:
        return None
    v, view = g.item("bufferViews", image["bufferView"], f"images[{i}].bufferView")
    at = f"bufferViews[{v}]"
    data = _buffer(g, g.integer(view.get("buffer"), f"{at}.buffer"))
    start = g.integer(view.get("byteOffset", 0), f"{at}.byteOffset")
    length = g.integer(view.get("byteLength"), f"{at}.byteLength", 1)
    if start + length > len(data):
        raise g.error(at, f"runs to byte {start + length} of a {len(data)}-byte buffer")
    name = image.get("name")
    return (name if isinstance(name, str) else f"image{i}"), data[start : start + length]


def _image_size(g: _Document) -> tuple[int, int] | None:
    """Width and height of the first embedded image, if Pillow can read its header. A
    decompression bomb (an image too large for Pillow's limit) is a warning and no size."""
    import io

    from PIL import Image

    try:
        found = _first_image(g)
        if found is None:
            return None
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(found[1])) as image:
                return int(image.width), int(image.height)
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as e:
        warnings.warn(f"{g.path}: images[0] ignored: {e}", QuakeModelsWarning, stacklevel=3)
        return None
    except (ModelFormatError, OSError, ValueError):
        return None


# -- a glTF as scenes (→ MD3) ---------------------------------------------------------------------
# Reading a glTF 2.0 file as format-neutral scenes (surfaces, frames, tags), for → MD3: the
# inverse of gltf_write.py and of the player exporter, so that MD3 → glTF → MD3 keeps every
# surface, frame and tag.
#
# * every triangle primitive of every node with a mesh is a surface, named as the node (or the
#   mesh; ``_01``, ``_02``... added when a mesh has several primitives: ioquake3's R_LoadMD3
#   cuts a two-character ``_X`` suffix off surface names, so ``_1`` and ``_2`` would collide);
#   node transforms are not applied (as in read_gltf);
# * frames are morph targets, laid out as read_gltf reads them; NORMAL targets are applied the
#   same way (normals are recomputed from the geometry when the file has none); frame names
#   come from ``mesh.extras.targetNames``;
# * nodes named ``tag_*`` without a mesh are tags: at frame f a tag has the translation and
#   rotation of the animation key at which the scene's own meshes' morph weights are one-hot on
#   frame f (how both exporters key them), else the node's own. A scene with tags and no mesh
#   has one frame per key.
#
# A player file holds three scenes: the subtree of the node ``lower`` (without ``upper``'s),
# of ``upper`` (without ``head``'s) and of ``head``: :func:`read_gltf_scenes` reads each from
# one parse. Every index, accessor and value is validated as for read_gltf, and the shape of
# each scene is checked against the limits before its morph targets are decoded.
#
# Y-up glTF becomes Quake's Z-up by the inverse of the exporters' rotation.

# Quake (x, y, z) → glTF (y, z, x) as a matrix acting on column vectors (gltf_write.py's P).
_P = Y_UP.astype(np.float64)


def _quat_matrix(q: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """(..., 4) unit quaternions (x, y, z, w) → (..., 3, 3) rotation matrices."""
    q = q / np.linalg.norm(q, axis=-1, keepdims=True)
    x, y, z, w = q[..., 0], q[..., 1], q[..., 2], q[..., 3]
    return np.stack(
        [
            np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)], -1),
            np.stack([2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)], -1),
            np.stack([2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)], -1),
        ],
        -2,
    )


def tag_axes(rotations: npt.ArrayLike) -> FloatArray:
    """(F,4) glTF rotations (Y-up) → (F,3,3) MD3 tag axes (rows forward, left, up; Quake)."""
    r = _quat_matrix(np.asarray(rotations, dtype=np.float64).reshape(-1, 4))
    return np.ascontiguousarray(_P.T @ np.swapaxes(r, -1, -2) @ _P, dtype=np.float32)


@dataclass(frozen=True)
class GltfAnimation:
    """An animation's name and its ``extras`` (untrusted JSON: validate before use), and per
    scene the first morph-weights channel keying one of its meshes: (times (K,) float64
    seconds, weights (K,F) float64, one column per morph target); ``tags`` the translation
    and rotation channels of ``tag_*`` nodes: (node name, path) → (times (K,), values (K,3)
    or (K,4) float64, as the file keys them, Y-up)."""

    name: str
    extras: dict[str, Any]
    weights: dict[str, tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]] = field(
        default_factory=dict
    )
    tags: dict[tuple[str, str], tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]] = field(
        default_factory=dict
    )


def frame_positions(weights: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """(K,) float64: the frame that each row of (K,F) morph weights shows, as a position.

    A one-hot row shows its frame ``f``; a blend of two neighbouring frames ``f`` and ``f+1``
    is ``f`` plus the share of ``f+1`` (where a LINEAR animation stands between two keys: what
    an exporter that resamples every animation at its own frame rate, as Blender's does,
    writes between our keys). Any other row is NaN: nothing, a jump back to an earlier frame
    (a looping clip's last step) or a mix of more frames.
    """
    w = np.asarray(weights, dtype=np.float64)
    w = w.reshape(len(w), -1)
    out = np.full(len(w), np.nan)
    active = w > 1e-6
    count = active.sum(axis=1)
    one = count == 1
    out[one] = w[one].argmax(axis=1)
    two = np.flatnonzero(count == 2)
    if two.size:
        pairs = np.nonzero(active[two])[1].reshape(-1, 2)  # column indices, ascending
        near = pairs[:, 1] - pairs[:, 0] == 1
        rows, low = two[near], pairs[near, 0]
        share = w[rows, low + 1] / (w[rows, low] + w[rows, low + 1])
        out[rows] = low + share
    return out


def frame_times(
    times: npt.ArrayLike, weights: npt.ArrayLike
) -> tuple[dict[int, float], dict[int, float]]:
    """When an animation shows each whole frame, from its (K,) key times and (K,F) morph
    weights: ``exact`` (frame → time of a key whose weights are one-hot on it) and ``between``
    (frame → the time, interpolated between two keys, at which the frame position of
    :func:`frame_positions` passes it). The first time a frame is found wins.

    Resampled keys rarely fall on a frame. A looping clip's last frame is passed on the way
    to the key that blends it with the frame it loops back to; a clip's last frame, when no
    key reaches it (the resampling stops at the last whole step of its rate), is found by
    going on at the rate of the last two keys.
    """
    t = np.asarray(times, dtype=np.float64).reshape(-1)
    w = np.asarray(weights, dtype=np.float64).reshape(len(t), -1)
    pos = frame_positions(w)
    active = w > 1e-6
    exact: dict[int, float] = {}
    between: dict[int, float] = {}
    whole = np.isfinite(pos) & (pos == np.round(pos))
    for k in np.flatnonzero(whole).tolist():
        exact.setdefault(int(pos[k]), float(t[k]))

    def cross(k: int, p0: float, p1: float, frames: range) -> None:
        for f in frames:
            if min(p0, p1) <= f <= max(p0, p1) and p0 != p1:
                between.setdefault(f, float(t[k] + (f - p0) / (p1 - p0) * (t[k + 1] - t[k])))

    for k in range(len(pos) - 1):
        p0, p1 = float(pos[k]), float(pos[k + 1])
        if not np.isfinite(p0):
            continue
        if np.isfinite(p1):
            if abs(p1 - p0) <= 2:
                cross(k, p0, p1, range(int(np.ceil(min(p0, p1))), int(max(p0, p1)) + 1))
            continue
        pair = np.flatnonzero(active[k + 1])
        if len(pair) != 2:
            continue
        # a jump back: the frame it leaves is the one of the two next to where it was
        leave = int(pair[np.argmin(np.abs(pair - p0))])
        to = int(pair[0] + pair[1]) - leave
        ahead = leave > p0 or (leave == p0 and k > 0 and p0 >= pos[k - 1])
        share = w[k + 1, to] / (w[k + 1, to] + w[k + 1, leave])
        cross(k, p0, leave + share if ahead else leave - share, range(leave, leave + 1))
    # the last frame a run of keys heads for and never reaches
    for k in range(1, len(pos)):
        p0, p1 = pos[k - 1], pos[k]
        last_of_run = k == len(pos) - 1 or not np.isfinite(pos[k + 1])
        if not (last_of_run and np.isfinite(p0) and np.isfinite(p1)) or p0 == p1:
            continue
        f = int(np.ceil(p1)) if p1 > p0 else int(np.floor(p1))
        if f != p1 and f < active.shape[1] and active[k, f] and f not in between:
            between[f] = float(t[k] + (f - p1) / (p1 - p0) * (t[k] - t[k - 1]))
    return exact, between


def solve_frames(
    weights: npt.ArrayLike, values: npt.ArrayLike, guess: dict[int, npt.NDArray[Any]]
) -> dict[int, npt.NDArray[np.float64]]:
    """Each frame's value of a channel keyed with the morph weights: frame → (C,) float64.

    At a key, a LINEAR channel resampled from one that had a key per frame (as Blender's
    exporter resamples ours) holds the frames' values blended as the (K,F) ``weights`` blend
    the frames: ``values`` (K,C) = weights @ frame values. Solved by least squares over the
    frames the weights show, each also held (weakly, 1e-3) to its ``guess`` (the channel at
    the time the frame shows) for the frames the keys leave undetermined.
    """
    w = np.asarray(weights, dtype=np.float64)
    v = np.asarray(values, dtype=np.float64).reshape(len(w), -1)
    frames = np.flatnonzero((w > 1e-6).any(axis=0))
    if not frames.size:
        return {}
    hold = 1e-3
    estimate = np.stack(
        [
            np.asarray(guess[f], np.float64) if f in guess else v[int(np.argmax(w[:, f]))]
            for f in frames.tolist()
        ]
    )
    system = np.concatenate([w[:, frames], hold * np.eye(len(frames))])
    target = np.concatenate([v, hold * estimate])
    solved = np.linalg.lstsq(system, target, rcond=None)[0]
    return {int(f): solved[k] for k, f in enumerate(frames.tolist())}


def _value_at(
    times: npt.NDArray[np.float64], values: npt.NDArray[np.float64], t: float, rotation: bool
) -> FloatArray:
    """A LINEAR channel's value at time ``t``: a key's own value at its time, else the two
    keys around ``t`` (or the nearest two) blended (quaternions on the same side and
    normalised)."""
    k = int(np.searchsorted(times, t))
    if k < len(times) and times[k] == t:
        return np.asarray(values[k], dtype=np.float32)
    if len(times) == 1:
        return np.asarray(values[0], dtype=np.float32)
    # before the first key or past the last: on along the nearest two (frame_times looks
    # at most one key step past the last key)
    k = min(max(k, 1), len(times) - 1)
    a, b = values[k - 1], values[k]
    if rotation and float(np.dot(a, b)) < 0:
        b = -b
    s = (t - times[k - 1]) / (times[k] - times[k - 1])
    out = a + (b - a) * s
    if rotation:
        out = out / (np.linalg.norm(out) or 1.0)
    return np.asarray(out, dtype=np.float32)


@dataclass(frozen=True)
class GltfScenes:
    """What :func:`read_gltf_scenes` reads: a scene per part; every animation's name and
    extras; the default scene's ``extras`` (untrusted JSON); and per part, the embedded base
    colour image of each surface that has one (surface name → (image name, bytes)); every
    node's name (what a file that went through Blender carries: see q3player/carry.py)."""

    scenes: dict[str, ExportModel]
    animations: list[GltfAnimation]
    extras: dict[str, Any]
    images: dict[str, dict[str, tuple[str, bytes]]]
    names: tuple[str, ...] = ()  # every node's name, in node order


def _subtree(g: _Document, nodes: list[_Node], root: str, stop: tuple[str, ...]) -> list[_Node]:
    """The node named ``root`` and its descendants in depth-first order, not entering nodes
    named in ``stop`` (a cycle or a node reached twice is an error)."""
    start = [n for n in nodes if n.name == root]
    if not start:
        raise g.error("nodes", f"have no node named {root!r}")
    out: list[_Node] = []
    seen: set[int] = set()
    todo = [start[0]]
    while todo:
        node = todo.pop()
        if node.index in seen:
            raise g.error(f"nodes[{node.index}]", "is reached twice (the nodes are not a tree)")
        seen.add(node.index)
        out.append(node)
        children = g.array(node.node.get("children", []), f"nodes[{node.index}].children")
        kids = [
            nodes[g.integer(c, f"nodes[{node.index}].children[{k}]", 0, len(nodes) - 1)]
            for k, c in enumerate(children)
        ]
        todo.extend(reversed([k for k in kids if k.name not in stop]))
    return out


def _read_tags(
    g: _Document,
    tag_nodes: list[_Node],
    mesh_nodes: set[int],
    num_frames: int,
    limits: ImportLimits,
) -> list[Tag]:
    """Tags from ``tag_*`` nodes, per frame (see the comment above read_gltf_scene)."""
    if not tag_nodes:
        return []
    wanted = {n.index for n in tag_nodes}
    keys: dict[tuple[int, str], dict[int, FloatArray]] = {}  # at keys that show the frame
    near: dict[tuple[int, str], dict[int, FloatArray]] = {}  # between two keys
    # keys read in all, held to the import limit: channels sharing one large accessor must not
    # multiply the work
    budget = limits.max_positions

    def sampled(
        anim: dict[str, Any], a: int, sampler: Any, kind: str
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        nonlocal budget
        times, values = _sampler(g, anim, a, sampler, (kind,))
        budget -= values.size
        if budget < 0:
            raise g.error(
                "animations", f"key more than {limits.max_positions} values (the import limit)"
            )
        return times, values

    for a, value in enumerate(g.array(g.doc.get("animations", []), "animations")):
        anim = g.obj(value, f"animations[{a}]")
        channels = []
        for c, cvalue in enumerate(g.array(anim.get("channels", []), f"animations[{a}].channels")):
            channel = g.obj(cvalue, f"animations[{a}].channels[{c}]")
            where = f"animations[{a}].channels[{c}].target"
            target = g.obj(channel.get("target"), where)
            node = target.get("node")
            node = -1 if node is None else g.integer(node, f"{where}.node")
            channels.append((channel.get("sampler"), node, target.get("path")))
        # when each frame shows: at keys where this scene's morph weights are one-hot on it
        # (how both exporters key them), else where the weights pass it between two keys
        # (an animation resampled at another rate, as Blender's exporter writes every one)
        exact: dict[int, float] = {}
        between: dict[int, float] = {}
        weight_times, w = np.zeros(0), np.zeros((0, 0))
        for sampler, node, path in channels:
            if path == "weights" and node in mesh_nodes:
                weight_times, w = sampled(anim, a, sampler, "SCALAR")
                w = w.reshape(len(weight_times), -1)
                exact, between = frame_times(weight_times, w)
                break
        # frames shown only between keys (resampled): solved from the keys' blends
        solve = any(f not in exact for f in between)
        for sampler, node, path in channels:
            if node not in wanted or path not in ("translation", "rotation"):
                continue
            kind = "VEC3" if path == "translation" else "VEC4"
            times, v = sampled(anim, a, sampler, kind)
            if v.shape[1] != _WIDTH[kind]:
                raise g.error(f"animations[{a}]", f"{path} keys are not {kind}")
            if not num_frames:
                slot = keys.setdefault((node, path), {})
                for i in range(min(len(times), limits.max_frames)):
                    slot.setdefault(i, v[i].astype(np.float32))
                continue
            order = np.argsort(times, kind="stable")
            times, v = times[order], v[order]
            rotation = path == "rotation"
            slot = keys.setdefault((node, path), {})
            for frame, t in exact.items():
                if 0 <= frame < num_frames:
                    slot.setdefault(frame, _value_at(times, v, t, rotation))
            if not solve:
                continue
            guess = {f: _value_at(times, v, t, rotation) for f, t in between.items()}
            at_keys = np.stack([_value_at(times, v, t, rotation) for t in weight_times])
            slot = near.setdefault((node, path), {})
            for frame, found in solve_frames(w, at_keys, guess).items():
                if 0 <= frame < num_frames:
                    if rotation:
                        found = found / (np.linalg.norm(found) or 1.0)
                    slot.setdefault(frame, found.astype(np.float32))
    if not num_frames:
        num_frames = max((max(s) + 1 for s in keys.values() if s), default=1)
    tags = []
    for n in tag_nodes:
        at = f"nodes[{n.index}]"
        if n.node.get("matrix") is not None or n.node.get("scale") not in (None, [1, 1, 1]):
            raise g.error(at, f"tag {n.name!r} has a matrix or a scale (not supported)")
        t0 = _numbers(g, n.node.get("translation"), f"{at}.translation", 3, [0, 0, 0])
        r0 = _numbers(g, n.node.get("rotation"), f"{at}.rotation", 4, [0, 0, 0, 1])
        moves = keys.get((n.index, "translation"), {})
        turns = keys.get((n.index, "rotation"), {})
        extras = n.node.get("extras")
        track = None
        if isinstance(extras, dict) and extras.get("frames") is not None:
            track = _track(g, extras["frames"], f"{at}.extras.frames", num_frames)
        # a frame keyed where it shows wins over the extras (an edited animation is newer than
        # they are), the extras over a frame found between keys (exact against interpolated),
        # and that over the node's own transform
        if track is None:
            t_near = near.get((n.index, "translation"), {})
            r_near = near.get((n.index, "rotation"), {})
            t_rest = [t_near.get(f, t0) for f in range(num_frames)]
            r_rest = [r_near.get(f, r0) for f in range(num_frames)]
        else:
            t_rest, r_rest = list(track[0]), list(track[1])
        origins = np.stack([moves.get(f, t_rest[f]) for f in range(num_frames)])
        rotations = np.stack([turns.get(f, r_rest[f]) for f in range(num_frames)])
        tags.append(_tag(g, at, n.name, origins, rotations))
    return tags


def _tag(g: _Document, at: str, name: str, origins: FloatArray, rotations: FloatArray) -> Tag:
    """A Tag from (F,3) Y-up translations and (F,4) rotations (no zero quaternion)."""
    if (np.linalg.norm(rotations, axis=1) < 1e-6).any():
        raise g.error(at, f"tag {name!r} has a zero rotation quaternion")
    return Tag(name=name, origins=from_y_up(origins), axes=tag_axes(rotations))


def _track(
    g: _Document, value: Any, where: str, num_frames: int
) -> tuple[FloatArray, FloatArray] | None:
    """(F,3) translations and (F,4) rotations of a tag's every frame, kept in ``extras`` by
    the player exporter; None when they are for another number of frames (a stale copy)."""
    track = g.obj(value, where)
    out = []
    for key, width in (("translation", 3), ("rotation", 4)):
        rows = g.array(track.get(key), f"{where}.{key}")
        if len(rows) != num_frames:
            return None
        values = np.zeros((num_frames, width), np.float32)
        for f, row in enumerate(rows):
            if row is None:
                raise g.error(f"{where}.{key}[{f}]", "is missing")
            values[f] = _numbers(g, row, f"{where}.{key}[{f}]", width, [])
        out.append(values)
    return out[0], out[1]


def _extra_tags(g: _Document, nodes: list[_Node], num_frames: int, have: set[str]) -> list[Tag]:
    """Tags kept in a node's ``extras.tags`` (name → every frame's translation and rotation):
    a part's tags that place nothing, which the player exporter does not make nodes of."""
    tags = []
    for n in nodes:
        extras = n.node.get("extras")
        if not isinstance(extras, dict) or extras.get("tags") is None:
            continue
        at = f"nodes[{n.index}].extras.tags"
        for name, value in g.obj(extras["tags"], at).items():
            track = _track(g, value, f"{at}.{name}", num_frames)
            if track is not None and name not in have and num_frames:
                have.add(name)
                tags.append(_tag(g, at, name, *track))
    return tags


def _scene(
    g: _Document,
    name: str,
    nodes: list[_Node],
    limits: ImportLimits,
    images: dict[str, tuple[str, bytes]] | None = None,
    world: dict[int, npt.NDArray[np.float64]] | None = None,
) -> ExportModel:
    """The surfaces and tags of ``nodes`` as one scene (see the comment above); each
    surface's embedded image into ``images`` when given."""
    source = g.path
    found: list[tuple[str, list[_Primitive], npt.NDArray[np.float64] | None]] = []
    for n in nodes:
        if n.node.get("mesh") is None:
            continue
        m, mesh = g.item("meshes", n.node["mesh"], f"nodes[{n.index}].mesh")
        prims = _mesh_primitives(g, m, mesh, normals=True)
        mesh_name = mesh.get("name")
        label = n.name or (mesh_name if isinstance(mesh_name, str) else "") or f"surface{m}"
        matrix = None if world is None else world.get(n.index)
        found.append((label, prims, matrix))
    flat = [prim for _, prims, _ in found for prim in prims]
    layouts = [_frames(g, prim) for prim in flat]
    counts = {len(targets) + base for targets, base in layouts}
    if len(counts) > 1:
        raise g.error(
            "meshes",
            f"of {name or 'the scene'} have different frame counts {sorted(counts)}; one MD3"
            " needs the same frames in every surface",
        )
    num_frames = counts.pop() if counts else 0
    corners = sum(prim.position.count for prim in flat)
    check_shape(str(g.path), num_frames, corners, limits)
    surfaces: list[Surface] = []
    k = 0
    for label, prims, matrix in found:
        for j, prim in enumerate(prims):
            targets, base_is_frame = layouts[k]
            k += 1
            rows = prim.position.count
            positions = np.empty((num_frames, rows, 3), np.float32)
            _fill_frames(g, prim.position, targets, base_is_frame, positions)
            idx = _triangles(g, prim)
            quake = from_y_up(positions)
            if prim.normal is None or prim.normal_targets is None:
                # glTF winds counter-clockwise; vertex_normals takes Quake's clockwise order
                normals = vertex_normals(quake, flip_winding(idx)).astype(np.float32)
            else:
                normal = np.empty((num_frames, rows, 3), np.float32)
                _fill_frames(g, prim.normal, prim.normal_targets, base_is_frame, normal)
                normals = from_y_up(normal)
            if matrix is not None:
                quake, normals = _placed_frames(quake, normals, matrix)
            uv = np.zeros((rows, 2), np.float32)
            if prim.uv is not None:
                uv = _decode(g, prim.uv).astype(np.float32)
                if not np.isfinite(uv).all():
                    raise g.error(prim.uv.where, "holds values that are not finite numbers")
            surfaces.append(
                Surface(
                    name=label if len(prims) == 1 else f"{label}_{j + 1:02d}",
                    positions=quake,
                    normals=normals,
                    uvs=uv,
                    indices=idx.astype(np.uint32),
                )
            )
    mesh_nodes = {n.index for n in nodes if n.node.get("mesh") is not None}
    if images is not None:
        for surface, prim in zip(surfaces, flat, strict=True):
            image = _image(g, prim.material)
            if image is not None:
                images[surface.name] = image
    tag_nodes = [n for n in nodes if n.node.get("mesh") is None and n.name.startswith("tag_")]
    tags = _read_tags(g, tag_nodes, mesh_nodes, num_frames, limits)
    tags += _extra_tags(g, nodes, num_frames, {t.name for t in tags})
    if not surfaces and not tags:
        raise g.error("meshes", f"{name or 'the file'} has no triangle meshes and no tag_* nodes")
    num_frames = num_frames or (len(tags[0].origins) if tags else 0)
    frame_names: list[str] = []
    if flat:
        _, base_is_frame = layouts[0]
        first = flat[0].names
        frame_names = ["base", *first] if base_is_frame and first else list(first)
    return ExportModel(
        name=name,
        surfaces=surfaces,
        clips={"all": range(num_frames)},
        tags=tags,
        source=source,
        frame_names=frame_names if len(frame_names) == num_frames else [],
    )


def _placed_frames(
    positions: FloatArray, normals: FloatArray, matrix: npt.NDArray[np.float64]
) -> tuple[FloatArray, FloatArray]:
    """(F,N,3) Quake-space positions and normals moved by a Y-up world ``matrix`` (normals by
    its inverse transpose, renormalised)."""
    quake = np.asarray(Y_UP.T, np.float64) @ matrix[:3, :3] @ np.asarray(Y_UP, np.float64)
    shift = np.asarray(Y_UP.T, np.float64) @ matrix[:3, 3]
    moved = (positions @ quake.T + shift).astype(np.float32)
    turned = normals @ np.linalg.inv(quake)
    length = np.linalg.norm(turned, axis=-1, keepdims=True)
    turned = np.divide(turned, length, out=np.zeros_like(turned), where=length > 0)
    return moved, turned.astype(np.float32)


def _image(g: _Document, material: Any) -> tuple[str, bytes] | None:
    """(name, bytes) of a material's embedded base colour image, None when it has none."""
    if material is None:
        return None
    _, mat = g.item("materials", material, "material")
    pbr = mat.get("pbrMetallicRoughness")
    color = pbr.get("baseColorTexture") if isinstance(pbr, dict) else None
    if not isinstance(color, dict) or color.get("index") is None:
        return None
    t, texture = g.item("textures", color["index"], "baseColorTexture.index")
    if texture.get("source") is None:
        return None
    i, image = g.item("images", texture["source"], f"textures[{t}].source")
    return _embedded(g, i, image)


def read_gltf_scenes(
    path: str | os.PathLike[str],
    parts: dict[str, tuple[str, ...]],
    *,
    limits: ImportLimits = DEFAULT_LIMITS,
) -> GltfScenes:
    """One scene per entry of ``parts`` (node name → names of nodes whose subtrees belong to
    another part) with their images, every animation's name and extras, and the scene's
    extras, from one parse of the file."""
    g, size = _open(path)
    limits = limits.for_input(size)
    nodes = _nodes(g)
    images: dict[str, dict[str, tuple[str, bytes]]] = {}
    scenes = {}
    meshes: dict[int, str] = {}  # mesh node → its part
    for part, stop in parts.items():
        images[part] = {}
        subtree = _subtree(g, nodes, part, stop)
        scenes[part] = _scene(g, part, subtree, limits, images[part])
        meshes |= {n.index: part for n in subtree if n.node.get("mesh") is not None}
    animations = []
    budget = limits.max_positions  # weights read in all, held to the import limit
    for a, value in enumerate(g.array(g.doc.get("animations", []), "animations")):
        anim = g.obj(value, f"animations[{a}]")
        name, more = anim.get("name", ""), anim.get("extras")
        weights: dict[str, tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]] = {}
        tags: dict[tuple[str, str], tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]] = {}
        for c, cvalue in enumerate(g.array(anim.get("channels", []), f"animations[{a}].channels")):
            channel = g.obj(cvalue, f"animations[{a}].channels[{c}]")
            target = g.obj(channel.get("target"), f"animations[{a}].channels[{c}].target")
            node = target.get("node")
            channel_path = target.get("path")
            tag = nodes[node].name if type(node) is int and 0 <= node < len(nodes) else ""
            if tag.startswith("tag_") and channel_path in ("translation", "rotation"):
                kind = "VEC3" if channel_path == "translation" else "VEC4"
                times, v = _sampler(g, anim, a, channel.get("sampler"), (kind,))
                budget -= v.size
                if budget < 0:
                    raise g.error(
                        "animations",
                        f"key more than {limits.max_positions} values (the import limit)",
                    )
                if v.shape[1] != _WIDTH[kind]:
                    raise g.error(
                        f"animations[{a}]", f"{channel_path} keys of {tag!r} are not {kind}"
                    )
                tags.setdefault((tag, channel_path), (times, v))
                continue
            owner = meshes.get(node) if type(node) is int else None
            if channel_path != "weights" or owner is None or owner in weights:
                continue
            times, w = _sampler(g, anim, a, channel.get("sampler"), ("SCALAR",))
            budget -= w.size
            if budget < 0:
                raise g.error(
                    "animations", f"key more than {limits.max_positions} values (the import limit)"
                )
            weights[owner] = (times, w)
        animations.append(
            GltfAnimation(
                name if isinstance(name, str) else "",
                more if isinstance(more, dict) else {},
                weights,
                tags,
            )
        )
    extras: dict[str, Any] = {}
    all_scenes = g.doc.get("scenes")
    if isinstance(all_scenes, list) and all_scenes:
        default = g.doc.get("scene", 0)
        if isinstance(default, int) and 0 <= default < len(all_scenes):
            found = all_scenes[default]
            if isinstance(found, dict) and isinstance(found.get("extras"), dict):
                extras = found["extras"]
    return GltfScenes(scenes, animations, extras, images, tuple(n.name for n in nodes))


def read_gltf_scene(
    path: str | os.PathLike[str],
    *,
    limits: ImportLimits = DEFAULT_LIMITS,
    fps: float = FPS,
    up: str = "y",
) -> ExportModel:
    """The surfaces, frames and tags of every node of a ``.glb`` / ``.gltf`` in their world
    positions (see the comment above read_gltf_scenes); a file that skins or moves its
    meshes, or animates shape keys, is evaluated at ``fps`` as in :func:`read_gltf`, and its
    ``tag_*`` nodes follow their parents frame by frame. ``limits`` bound its shape before
    anything is decoded or posed."""
    g, size = _open(path)
    limits = limits.for_input(size)
    tree = hierarchy(g)
    if needs_evaluation(g, tree):
        skeletal, baked = evaluate(g, fps, limits, up)
        return baked_model(skeletal, baked, g.path.stem, g.path)
    root = Z_UP_TO_Y_UP if up == "z" else np.eye(4)
    world = {i: root @ m for i, m in rest_world(g, tree).items()}
    moved = {i: m for i, m in world.items() if not np.array_equal(m, np.eye(4))}
    scene = _scene(g, g.path.stem, _nodes(g), limits, world=moved)
    if up == "y" and scene.surfaces:
        points = np.concatenate([s.positions[0] for s in scene.surfaces])
        warn_if_lying(g, to_y_up(points).astype(np.float64))
    return scene
