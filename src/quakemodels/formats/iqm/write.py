"""IQM from any :class:`~quakemodels.core.skeletal.SkeletalScene` (an IQM's, an MD5's, a
glTF's read by ``interchange.gltf_eval.read_skeletal``).

What is written, as the reference ``iqm`` tool (lsalzman/iqm, ``iqm.cpp``) writes it:

- the text (the empty string first, every name once), one mesh per skinned mesh (its
  ``material_name``, else its name, as the material), vertex arrays position, texcoord and
  normal (float), blend indexes (ubyte, or int past 256 joints) and blend weights (ubyte,
  summing to 255), triangles clockwise seen from outside (Quake's order), joints, poses,
  anims, frames and one bounds record per frame;
- each joint's base pose: its bind matrix (the inverse of a mesh's inverse bind matrix for
  that joint; the rest pose for a joint no mesh binds to), relative to its parent, as TRS;
  the vertices in that pose (a mesh bound otherwise is posed into it first: the weighted sum
  of its skinning matrices, exact where every joint of a vertex agrees);
- the animation as the tool's ``calcanimdata`` quantizes it: per pose and channel the
  smallest value over all frames is the offset; when the largest differs from it by 1e-10 or
  more the channel is masked, its scale ``(max - min) / 65535`` and each frame's value
  ``ushort(0.5 + (v - offset) / scale)`` (float32 arithmetic); otherwise the channel is its
  offset. The error of a masked channel is at most half a scale step.

``root`` (4,4) turns the scene into IQM's space (Z up) first: ``gltf_eval.QUAKE_FROM_Y_UP``
for a glTF. Clips are resampled to ``fps`` (default: each clip's own even spacing, else 10).
Morph targets are not carried (IQM has none): each mesh keeps its rest weights' shape.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from ...core.build import vertex_normals
from ...core.mesh import flip_winding
from ...core.records import replace
from ...core.scene import FPS
from ...core.skeletal import (
    SkeletalClip,
    SkeletalScene,
    SkinnedMesh,
    bake,
    pose_mesh,
)
from ...errors import BadValueError
from .layout import (
    ANIM,
    BOUNDS,
    CHANNEL,
    CHANNELS,
    COMPONENT,
    FORMATS,
    HEADER,
    HEADER_SIZE,
    JOINT,
    LOOP,
    MAGIC,
    MESH,
    POSE,
    TRIANGLE,
    TYPES,
    VERSION,
    VERTEX_ARRAY,
)

F64 = npt.NDArray[np.float64]
INFLUENCES = 4
"""Blend influences per vertex, as the format's standard arrays hold."""


def decompose(m: F64) -> tuple[F64, F64, F64]:
    """(...,4,4) matrices T·R·S as (...,3) translations, (...,4) unit quaternions (x, y, z, w,
    w ≥ 0) and (...,3) scales (a mirror is a negative x scale); shear is dropped."""
    t = m[..., :3, 3].copy()
    a = m[..., :3, :3]
    s = np.linalg.norm(a, axis=-2)  # column norms: R·S scales column j by s_j
    s = np.where(s > 1e-300, s, 1.0)
    r = a / s[..., None, :]
    flip = np.linalg.det(r) < 0
    s[..., 0] = np.where(flip, -s[..., 0], s[..., 0])
    r[..., :, 0] = np.where(flip[..., None], -r[..., :, 0], r[..., :, 0])
    return t, quaternion(r), s


def quaternion(r: F64) -> F64:
    """(...,4) unit quaternions (x, y, z, w), w ≥ 0, of (...,3,3) rotation matrices."""
    m00, m11, m22 = r[..., 0, 0], r[..., 1, 1], r[..., 2, 2]
    q = np.empty((*r.shape[:-2], 4))
    # the four candidates' magnitudes; each component from the largest for stability
    q[..., 3] = np.sqrt(np.maximum(0.0, 1 + m00 + m11 + m22)) / 2
    q[..., 0] = np.sqrt(np.maximum(0.0, 1 + m00 - m11 - m22)) / 2
    q[..., 1] = np.sqrt(np.maximum(0.0, 1 - m00 + m11 - m22)) / 2
    q[..., 2] = np.sqrt(np.maximum(0.0, 1 - m00 - m11 + m22)) / 2
    big = np.argmax(q, axis=-1)
    x = np.empty_like(q)
    d21, d02, d10 = (
        r[..., 2, 1] - r[..., 1, 2],
        r[..., 0, 2] - r[..., 2, 0],
        r[..., 1, 0] - r[..., 0, 1],
    )
    s21, s02, s10 = (
        r[..., 2, 1] + r[..., 1, 2],
        r[..., 0, 2] + r[..., 2, 0],
        r[..., 1, 0] + r[..., 0, 1],
    )
    for k, (cx, cy, cz, cw) in enumerate(
        (
            (None, s10, s02, d21),  # x largest
            (s10, None, s21, d02),  # y largest
            (s02, s21, None, d10),  # z largest
            (d21, d02, d10, None),  # w largest
        )
    ):
        pick = big == k
        if not pick.any():
            continue
        lead = q[..., k][pick]
        parts = [cx, cy, cz, cw]
        for c in range(4):
            x[..., c][pick] = lead if c == k else parts[c][pick] / (4 * lead)  # type: ignore[index]
    x = np.where(x[..., 3:4] < 0, -x, x)
    out: F64 = x / np.linalg.norm(x, axis=-1, keepdims=True)
    return out


def _even_fps(clip: SkeletalClip) -> float | None:
    """The clip's frame rate when its times are evenly spaced, else None."""
    if clip.num_frames < 2:
        return None
    dt = np.diff(clip.times)
    if dt[0] > 0 and np.allclose(dt, dt[0], rtol=1e-6, atol=1e-9):
        return float(1.0 / dt[0])
    return None


def _bind_world(scene: SkeletalScene) -> F64:
    """(J,4,4) each joint's bind matrix: the inverse of the first inverse bind matrix a mesh
    gives it (a joint that carries weight), else its rest world matrix relative to its
    parent's bind."""
    count = len(scene.names)
    found: list[F64 | None] = [None] * count
    for mesh in scene.meshes:
        weighted = np.zeros(len(mesh.slots), bool)
        for k in range(mesh.joints.shape[1]):
            weighted[mesh.joints[mesh.weights[:, k] > 0, k]] = True
        for s in np.flatnonzero(weighted):
            j = int(mesh.slots[s])
            if found[j] is None:
                found[j] = np.linalg.inv(mesh.inverse_bind[s])
    local = scene.local(scene.rest_clip())[0]
    world = np.empty((count, 4, 4))
    for j in range(count):
        p = int(scene.parents[j])
        got = found[j]
        if got is not None:
            world[j] = got
        else:
            world[j] = local[j] if p < 0 else world[p] @ local[j]
    return world


def _relative(world: F64, parents: npt.NDArray[np.intp]) -> F64:
    """(...,J,4,4) local matrices from world ones (the inverse of ``world_matrices``)."""
    out = world.copy()
    has = parents >= 0
    out[..., has, :, :] = np.linalg.inv(world[..., parents[has], :, :]) @ world[..., has, :, :]
    return out


class _Text:
    """The string table: the empty string first, each string once."""

    def __init__(self) -> None:
        self.data = bytearray(b"\0")
        self.at: dict[str, int] = {"": 0}

    def add(self, text: str) -> int:
        if text not in self.at:
            self.at[text] = len(self.data)
            self.data += text.encode("latin-1", errors="replace") + b"\0"
        return self.at[text]


def quantize(values: F64) -> tuple[npt.NDArray[np.uint32], F64, F64, npt.NDArray[np.uint16]]:
    """(F,P,10) channel values → per pose masks (P,), offsets and scales (P,10) and the
    frames' (F,C) uint16 channels, as ``iqm.cpp``'s ``calcanimdata`` does (module doc)."""
    v = values.astype(np.float32)
    low = v.min(axis=0)
    span = v.max(axis=0) - low
    masked = span >= np.float32(1e-10)
    scale = np.where(masked, span / np.float32(0xFFFF), np.float32(0))
    bits = (masked * (1 << np.arange(CHANNELS))).sum(axis=1).astype(np.uint32)
    flat = np.flatnonzero(masked.reshape(-1))
    vv = v.reshape(len(v), -1)[:, flat]
    q = np.float32(0.5) + (vv - low.reshape(-1)[flat]) / scale.reshape(-1)[flat]
    frames = np.clip(np.floor(q), 0, 0xFFFF).astype(np.uint16)
    return bits, low.astype(np.float64), scale.astype(np.float64), frames


def _influences(mesh: SkinnedMesh) -> tuple[npt.NDArray[np.intp], F64]:
    """(N,4) joint indices and (N,4) weights: the four heaviest influences, renormalised."""
    joints = mesh.slots[mesh.joints]
    weights = mesh.weights
    if weights.shape[1] > INFLUENCES:
        order = np.argsort(-weights, axis=1, kind="stable")[:, :INFLUENCES]
        joints = np.take_along_axis(joints, order, axis=1)
        weights = np.take_along_axis(weights, order, axis=1)
    pad = INFLUENCES - weights.shape[1]
    if pad > 0:
        joints = np.pad(joints, ((0, 0), (0, pad)))
        weights = np.pad(weights, ((0, 0), (0, pad)))
    total = weights.sum(axis=1, keepdims=True)
    weights = np.where(total > 0, weights / np.where(total > 0, total, 1), [1.0, 0, 0, 0])
    return joints, weights


def byte_weights(weights: F64) -> npt.NDArray[np.uint8]:
    """(N,4) weights summing to 1 as ubytes summing to 255 (the rounding error given to the
    largest)."""
    b = np.rint(weights * 255).astype(np.int64)
    heaviest = np.argmax(weights, axis=1)
    rows = np.arange(len(b))
    b[rows, heaviest] += 255 - b.sum(axis=1)
    return np.clip(b, 0, 255).astype(np.uint8)


def write(
    scene: SkeletalScene,
    *,
    root: F64 | None = None,
    fps: float | None = None,
    loop: bool = True,
    comment: bytes = b"",
) -> bytes:
    """The IQM bytes of ``scene`` (see the module doc); ``loop`` sets every anim's IQM_LOOP."""
    root = np.eye(4) if root is None else np.asarray(root, dtype=np.float64)
    count = len(scene.names)
    if count == 0:
        raise BadValueError("the scene has no joints", field="joints")
    parents = np.asarray(scene.parents, dtype=np.intp)
    roots = parents < 0
    bind = root @ _bind_world(scene)
    bind_local = _relative(bind, parents)
    bt, br, bs = decompose(bind_local)

    # clips at one even rate each: their own, ``fps``, or Quake's 10
    clips = []
    for c in scene.clips:
        rate = fps if fps is not None else (_even_fps(c) or FPS)
        clips.append((c if _even_fps(c) == rate else c.resampled(rate), rate))
    # the posed vertices of every frame in IQM's space, for the bounds
    text = _Text()
    meshes = []
    positions, uvs, normals, bidx, bwts, tris = [], [], [], [], [], []
    first_vertex = first_triangle = 0
    for mesh in scene.meshes:
        # the mesh in the joints' bind pose (module doc), then into IQM's space
        p = pose_mesh(mesh, (np.linalg.inv(root) @ bind)[None], None)[0]
        p = p @ root[:3, :3].T + root[:3, 3]
        n = len(p)
        positions.append(p)
        uv = mesh.uvs if mesh.uvs is not None else np.zeros((n, 2), np.float32)
        uvs.append(np.asarray(uv, np.float64))
        quake = flip_winding(np.asarray(mesh.indices, dtype=np.int64))
        normals.append(vertex_normals(p[None], quake)[0])
        j, w = _influences(mesh)
        bidx.append(j)
        bwts.append(w)
        tris.append(quake + first_vertex)
        name = text.add(mesh.name)
        material = text.add(mesh.material_name or mesh.name)
        meshes.append((name, material, first_vertex, n, first_triangle, len(quake)))
        first_vertex += n
        first_triangle += len(quake)
    joint_names = [text.add(n) for n in scene.names]
    anim_names = [text.add(c.name) for c, _ in clips]

    # frames: every joint's local TRS (roots turned by ``root``), quantized
    frame_values = []
    for c, _ in clips:
        local = scene.local(c)
        local[:, roots] = root @ local[:, roots]
        t, r, s = decompose(local)
        frame_values.append(np.concatenate([t, r, s], axis=-1))
    has_frames = bool(frame_values)
    values = np.concatenate(frame_values) if has_frames else np.zeros((0, count, CHANNELS))
    num_frames = len(values)

    # bounds: the posed vertices of every frame
    bounds = np.zeros(num_frames, BOUNDS)
    if num_frames and scene.meshes:
        resampled = replace(scene, clips=[c for c, _ in clips])
        baked = bake(resampled, root=root)
        allp = np.concatenate(baked.positions, axis=1)  # (F, V, 3)
        bounds["bb_min"] = _vec(allp.min(axis=1))
        bounds["bb_max"] = _vec(allp.max(axis=1))
        bounds["xy_radius"] = np.sqrt((allp[..., :2] ** 2).sum(axis=-1)).max(axis=1)
        bounds["radius"] = np.sqrt((allp**2).sum(axis=-1)).max(axis=1)

    # -- layout: header, text, meshes, arrays, vertex data, triangles, joints, poses, anims,
    # frames, bounds, comment; every section 4-aligned
    out = bytearray(HEADER_SIZE)
    head: dict[str, int] = {}

    def place(blob: bytes) -> int:
        while len(out) % 4:
            out.append(0)
        at = len(out)
        out.extend(blob)
        return at

    pos = np.concatenate(positions) if positions else np.zeros((0, 3))
    vertex_count = len(pos)
    joints_all = np.concatenate(bidx) if bidx else np.zeros((0, 4), np.intp)
    wide = count > 256
    arrays: list[tuple[str, str, int, bytes]] = [
        ("position", "float", 3, pos.astype(COMPONENT[FORMATS["float"]]).tobytes()),
        ("texcoord", "float", 2, _cat(uvs, 2).astype(COMPONENT[FORMATS["float"]]).tobytes()),
        ("normal", "float", 3, _cat(normals, 3).astype(COMPONENT[FORMATS["float"]]).tobytes()),
        (
            "blend_indexes",
            "int" if wide else "ubyte",
            4,
            joints_all.astype(COMPONENT[FORMATS["int" if wide else "ubyte"]]).tobytes(),
        ),
        ("blend_weights", "ubyte", 4, byte_weights(_cat(bwts, 4)).tobytes()),
    ]
    head["len_text"] = len(text.data)
    head["ofs_text"] = place(bytes(text.data))
    mrec = np.zeros(len(meshes), MESH)
    for i, m in enumerate(meshes):
        for key, value in zip(
            ("ofs_name", "ofs_material", "first_vertex", "num_vertices", "first_triangle",
             "num_triangles"),
            m,
            strict=True,
        ):  # fmt: skip
            mrec[i][key] = value
    head["num_meshes"] = len(meshes)
    head["ofs_meshes"] = place(mrec.tobytes()) if len(meshes) else 0
    varec = np.zeros(len(arrays), VERTEX_ARRAY)
    head["num_vertex_arrays"] = len(arrays)
    head["num_vertices"] = vertex_count
    head["ofs_vertex_arrays"] = place(varec.tobytes())
    for i, (kind, fmt, size, blob) in enumerate(arrays):
        varec[i]["type"] = TYPES[kind]
        varec[i]["format"] = FORMATS[fmt]
        varec[i]["size"] = size
        varec[i]["offset"] = place(blob)
    at = head["ofs_vertex_arrays"]
    out[at : at + varec.nbytes] = varec.tobytes()
    tri = np.concatenate(tris) if tris else np.zeros((0, 3), np.int64)
    trec = np.zeros(len(tri), TRIANGLE)
    trec["vertices"] = tri
    head["num_triangles"] = len(tri)
    head["ofs_triangles"] = place(trec.tobytes()) if len(tri) else 0
    jrec = np.zeros(count, JOINT)
    jrec["ofs_name"] = joint_names
    jrec["parent"] = np.where(roots, -1, parents)
    jrec["translate"] = _vec(bt)
    jrec["rotate"] = _quat(br)
    jrec["scale"] = _vec(bs)
    head["num_joints"] = count
    head["ofs_joints"] = place(jrec.tobytes())
    if has_frames:
        masks, offsets, scales, channels = quantize(values)
        prec = np.zeros(count, POSE)
        prec["parent"] = jrec["parent"]
        prec["channel_mask"] = masks
        prec["channel_offsets"] = offsets
        prec["channel_scales"] = scales
        head["num_poses"] = count
        head["ofs_poses"] = place(prec.tobytes())
        arec = np.zeros(len(clips), ANIM)
        start = 0
        for i, (c, rate) in enumerate(clips):
            arec[i]["ofs_name"] = anim_names[i]
            arec[i]["first_frame"] = start
            arec[i]["num_frames"] = c.num_frames
            arec[i]["framerate"] = rate
            arec[i]["flags"] = LOOP if loop else 0
            start += c.num_frames
        head["num_anims"] = len(clips)
        head["ofs_anims"] = place(arec.tobytes())
        head["num_frames"] = num_frames
        head["num_frame_channels"] = channels.shape[1]
        head["ofs_frames"] = place(channels.astype(CHANNEL).tobytes()) if channels.size else 0
        head["ofs_bounds"] = place(bounds.tobytes()) if scene.meshes else 0
    if comment:
        head["len_comment"] = len(comment)
        head["ofs_comment"] = place(comment)
    while len(out) % 4:
        out.append(0)
    rec = np.zeros(1, HEADER)
    rec["magic"] = MAGIC
    rec["version"] = VERSION
    rec["len_file"] = len(out)
    for key, value in head.items():
        rec[key] = value
    out[:HEADER_SIZE] = rec.tobytes()
    return bytes(out)


def _cat(parts: list[Any], width: int) -> F64:
    return np.concatenate(parts) if parts else np.zeros((0, width))


def _vec(values: F64) -> Any:
    """(N,3) floats as the spec's vec3f records."""
    out = np.zeros(len(values), JOINT["translate"])
    for k, name in enumerate(JOINT["translate"].names or ()):
        out[name] = values[:, k]
    return out


def _quat(values: F64) -> Any:
    """(N,4) floats as the spec's quat records."""
    out = np.zeros(len(values), JOINT["rotate"])
    for k, name in enumerate(JOINT["rotate"].names or ()):
        out[name] = values[:, k]
    return out


__all__ = ["byte_weights", "decompose", "quantize", "quaternion", "write"]
