"""Reading vertex-animated meshes back from glTF 2.0 (morph targets): :func:`read_gltf` gives
one merged :class:`ImportedMesh` (→ MD2), :func:`read_gltf_scene` a scene of surfaces and tags
(→ MD3, see the comment above it).

glTF frames: when the first morph target's POSITION is all zeros (our exporter's layout, where
target f holds frame f minus the base), there is one frame per target; otherwise the base mesh
is frame 0 (named ``base``) and every target adds a frame. Frame names come from
``mesh.extras.targetNames``. Node transforms are not applied. glTF UV and Quake share the
t-down convention.
"""

from __future__ import annotations

import base64
import os
import struct
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ..core.build import vertex_normals
from ..core.scene import ExportModel, Surface, Tag
from ..errors import BadValueError, ModelFormatError
from .imported import FloatArray, ImportedMesh, from_y_up

_COMPONENTS = {
    5120: np.int8,
    5121: np.uint8,
    5122: np.int16,
    5123: np.uint16,
    5125: np.uint32,
    5126: np.float32,
}
_WIDTH = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4}
_TRIANGLES = 4


# -- glTF -----------------------------------------------------------------------------------------


def _gltf_error(path: Path, message: str, field: str = "gltf") -> ModelFormatError:
    return BadValueError(f"{path}: {message}", field=field)


def _buffer_bytes(doc: Any, path: Path, index: int) -> bytes:
    buffer = doc.buffers[index]
    uri = buffer.uri
    if uri is None:
        blob = doc.binary_blob()
        if blob is None:
            raise _gltf_error(path, f"buffers[{index}] has no uri and there is no GLB chunk")
        return bytes(blob)
    if uri.startswith("data:"):
        try:
            return bytes(base64.b64decode(uri.split(",", 1)[1], validate=True))
        except (IndexError, ValueError) as e:
            raise _gltf_error(path, f"buffers[{index}] has a bad data uri: {e}") from e
    # An external buffer is an untrusted name: it must stay inside the glTF's folder.
    folder = path.resolve().parent
    target = (folder / str(uri)).resolve()
    if folder not in target.parents:
        raise _gltf_error(path, f"buffers[{index}].uri {uri!r} points outside {folder}")
    return target.read_bytes()


def _accessor(doc: Any, path: Path, buffers: dict[int, bytes], index: int) -> npt.NDArray[Any]:
    """(count, width) array of accessor ``index`` (sparse accessors are not supported)."""
    try:
        acc = doc.accessors[index]
    except (IndexError, TypeError) as e:
        raise _gltf_error(path, f"accessor {index} does not exist") from e
    if acc.sparse is not None:
        raise _gltf_error(path, f"accessors[{index}] is sparse (not supported)")
    dtype = _COMPONENTS.get(acc.componentType)
    width = _WIDTH.get(acc.type)
    if dtype is None or width is None or acc.bufferView is None:
        raise _gltf_error(path, f"accessors[{index}] has an unsupported type or no bufferView")
    view = doc.bufferViews[acc.bufferView]
    if view.buffer not in buffers:
        buffers[view.buffer] = _buffer_bytes(doc, path, view.buffer)
    data = buffers[view.buffer]
    item = np.dtype(dtype).itemsize * width
    stride = view.byteStride or item
    start = (view.byteOffset or 0) + (acc.byteOffset or 0)
    count = int(acc.count)
    end = start + stride * (count - 1) + item if count else start
    if end > (view.byteOffset or 0) + view.byteLength or end > len(data):
        raise _gltf_error(path, f"accessors[{index}] runs past its bufferView")
    raw = np.frombuffer(data, np.uint8, end - start, start)
    if stride == item:
        out = raw.view(np.dtype(dtype).newbyteorder("<")).reshape(count, width)
    else:
        rows = np.lib.stride_tricks.as_strided(raw, (count, item), (stride, 1))
        out = np.ascontiguousarray(rows).view(np.dtype(dtype).newbyteorder("<"))
        out = out.reshape(count, width)
    if acc.normalized and np.dtype(dtype).kind in "iu":
        bits = 8 * out.dtype.itemsize - (1 if out.dtype.kind == "i" else 0)
        out = out.astype(np.float64) / float(2**bits - 1)
    return np.asarray(out)


def load_gltf(p: Path) -> Any:
    """The pygltflib document of ``p``; a file that is not glTF is a ModelFormatError."""
    import pygltflib

    p.read_bytes()  # a missing or unreadable file is an OSError, not a format error
    try:
        doc = pygltflib.GLTF2().load(os.fspath(p))
    except (
        ValueError,
        KeyError,
        TypeError,
        AttributeError,
        IndexError,
        OSError,
        struct.error,
    ) as e:
        raise _gltf_error(p, f"not a readable glTF: {e}") from e
    return doc


def primitive_triangles(
    doc: Any, p: Path, buffers: dict[int, bytes], prim: Any, n: int, where: str
) -> npt.NDArray[np.int64]:
    """(T,3) int64 triangles of a primitive with ``n`` vertices (its indices, or 0..n-1)."""
    if prim.indices is not None:
        idx = _accessor(doc, p, buffers, prim.indices).reshape(-1).astype(np.int64)
    else:
        idx = np.arange(n, dtype=np.int64)
    if idx.size % 3 or (idx.size and (idx.min() < 0 or idx.max() >= n)):
        raise _gltf_error(p, f"{where} has bad indices", "indices")
    return idx.reshape(-1, 3)


def read_gltf(path: str | os.PathLike[str]) -> ImportedMesh:
    """Read every triangle primitive of every mesh in a ``.glb`` / ``.gltf`` (see module doc)."""
    p = Path(path)
    doc = load_gltf(p)
    if doc is None or not doc.meshes:
        raise _gltf_error(p, "has no meshes", "meshes")
    buffers: dict[int, bytes] = {}
    frames_per_prim: list[FloatArray] = []
    uvs_per_prim: list[FloatArray | None] = []
    indices_per_prim: list[npt.NDArray[np.int64]] = []
    names: list[str] | None = None
    base = 0
    for m, mesh in enumerate(doc.meshes):
        target_names = (mesh.extras or {}).get("targetNames") if mesh.extras else None
        for k, prim in enumerate(mesh.primitives):
            if prim.mode not in (None, _TRIANGLES):
                raise _gltf_error(p, f"meshes[{m}].primitives[{k}] is not triangles", "mode")
            if prim.attributes.POSITION is None:
                raise _gltf_error(p, f"meshes[{m}].primitives[{k}] has no POSITION", "POSITION")
            position = _accessor(doc, p, buffers, prim.attributes.POSITION).astype(np.float32)
            n = len(position)
            deltas = []
            for t, target in enumerate(prim.targets or []):
                index = target.get("POSITION") if isinstance(target, dict) else None
                if index is None:
                    deltas.append(np.zeros_like(position))
                    continue
                delta = _accessor(doc, p, buffers, index).astype(np.float32)
                if delta.shape != position.shape:
                    raise _gltf_error(p, f"meshes[{m}] target {t} has {len(delta)} rows, not {n}")
                deltas.append(delta)
            if deltas and not np.any(deltas[0]):
                frames = [position + d for d in deltas]
                frame_names = list(target_names or [])
            else:
                frames = [position] + [position + d for d in deltas]
                frame_names = ["base", *(target_names or [])] if target_names else []
            if len(frame_names) != len(frames):
                frame_names = [f"frame{f + 1}" for f in range(len(frames))]
            if names is None:
                names = [str(s) for s in frame_names]
            elif len(frames) != len(names):
                raise _gltf_error(
                    p, f"meshes[{m}] has {len(frames)} frames, an earlier mesh {len(names)}"
                )
            frames_per_prim.append(np.stack(frames))
            uv = None
            if prim.attributes.TEXCOORD_0 is not None:
                uv = _accessor(doc, p, buffers, prim.attributes.TEXCOORD_0).astype(np.float32)
            uvs_per_prim.append(uv)
            idx = primitive_triangles(doc, p, buffers, prim, n, f"meshes[{m}].primitives[{k}]")
            indices_per_prim.append(idx + base)
            base += n
    if not frames_per_prim or names is None:
        raise _gltf_error(p, "has no triangle primitives", "meshes")
    has_uv = all(u is not None for u in uvs_per_prim)
    uvs = np.concatenate([u for u in uvs_per_prim if u is not None]) if has_uv else None
    return ImportedMesh(
        positions=from_y_up(np.concatenate(frames_per_prim, axis=1)),
        uvs=uvs,
        indices=np.concatenate(indices_per_prim),
        frame_names=names,
        skin_size=_gltf_image_size(doc, p, buffers),
    )


def _gltf_image_size(doc: Any, path: Path, buffers: dict[int, bytes]) -> tuple[int, int] | None:
    """Width and height of the first embedded image, if Pillow can read it."""
    if not doc.images or doc.images[0].bufferView is None:
        return None
    try:
        import io

        from PIL import Image

        view = doc.bufferViews[doc.images[0].bufferView]
        if view.buffer not in buffers:
            buffers[view.buffer] = _buffer_bytes(doc, path, view.buffer)
        start = view.byteOffset or 0
        data = buffers[view.buffer][start : start + view.byteLength]
        with Image.open(io.BytesIO(data)) as image:
            return int(image.width), int(image.height)
    except (ImportError, OSError, ValueError, IndexError):
        return None


# -- a glTF as a scene (→ MD3) ---------------------------------------------------------------------
# Reading a glTF 2.0 file as a format-neutral scene (surfaces, frames, tags), for → MD3.
#
# The inverse of gltf_write.py, so that MD3 → glTF → MD3 keeps every surface,
# frame and tag:
#
# * every triangle primitive of every node with a mesh is a surface, named as the node (or the
#   mesh; ``_01``, ``_02``... added when a mesh has several primitives: ioquake3's R_LoadMD3
#   cuts a two-character ``_X`` suffix off surface names, so ``_1`` and ``_2`` would collide);
#   node transforms are not applied (as in read_gltf);
# * frames are morph targets: when the first target's POSITION is all zeros (the exporter's
#   layout) there is one frame per target, otherwise the base mesh is frame 0 and every target
#   adds one; NORMAL targets are applied the same way (normals are recomputed from the geometry
#   when the file has none); frame names come from ``mesh.extras.targetNames``;
# * nodes named ``tag_*`` without a mesh are tags: at frame f a tag has the translation and
#   rotation of the animation key whose morph weights are one-hot on frame f (how the exporter
#   keys them), else the node's own. A file with tags and no mesh has one frame per key.
#
# Y-up glTF becomes Quake's Z-up by the inverse of the exporter's rotation.

# Quake (x, y, z) → glTF (y, z, x) as a matrix acting on column vectors (gltf_write.py's P).
_P = np.array([[0, 1, 0], [0, 0, 1], [1, 0, 0]], dtype=np.float64)


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


def _frames(base: FloatArray, targets: list[FloatArray | None]) -> tuple[FloatArray, bool]:
    """(F,n,3) frames from a base and its target deltas, and whether the base is its own frame."""
    deltas = [np.zeros_like(base) if d is None else d for d in targets]
    if deltas and not np.any(deltas[0]):
        return np.stack([base + d for d in deltas]), False
    return np.stack([base] + [base + d for d in deltas]), True


def read_gltf_scene(path: str | os.PathLike[str]) -> ExportModel:
    """The surfaces, frames and tags of a ``.glb`` / ``.gltf`` (see the comment above)."""
    p = Path(path)
    doc = load_gltf(p)
    buffers: dict[int, bytes] = {}

    def attribute(index: int | None, rows: int, what: str) -> FloatArray | None:
        if index is None:
            return None
        values = _accessor(doc, p, buffers, index).astype(np.float32)
        if values.shape != (rows, 3):
            raise _gltf_error(p, f"{what} has shape {values.shape}, not ({rows}, 3)")
        return values

    surfaces: list[Surface] = []
    frame_names: list[str] = []
    nodes = list(doc.nodes or [])
    meshes = list(doc.meshes or [])
    for node in nodes:
        if node.mesh is None:
            continue
        if not 0 <= node.mesh < len(meshes):
            raise _gltf_error(p, f"node {node.name!r} names mesh {node.mesh}", "mesh")
        mesh = meshes[node.mesh]
        label = node.name or mesh.name or f"surface{len(surfaces)}"
        for k, prim in enumerate(mesh.primitives):
            where = f"mesh {mesh.name or node.mesh!r} primitive {k}"
            if prim.mode not in (None, _TRIANGLES) or prim.attributes.POSITION is None:
                raise _gltf_error(p, f"{where} is not triangles with POSITION", "mode")
            base = _accessor(doc, p, buffers, prim.attributes.POSITION).astype(np.float32)
            n = len(base)
            targets = [t if isinstance(t, dict) else {} for t in (prim.targets or [])]
            positions, base_is_frame = _frames(
                base, [attribute(t.get("POSITION"), n, f"{where} target") for t in targets]
            )
            if surfaces and len(positions) != len(surfaces[0].positions):
                raise _gltf_error(
                    p, f"{where} has {len(positions)} frames, an earlier one"
                    f" {len(surfaces[0].positions)}",
                )  # fmt: skip
            idx = primitive_triangles(doc, p, buffers, prim, n, where)
            normal = attribute(prim.attributes.NORMAL, n, f"{where} NORMAL")
            quake = from_y_up(positions)
            if normal is None:
                normals = vertex_normals(quake, idx).astype(np.float32)
            else:
                normals = from_y_up(
                    _frames(normal, [attribute(t.get("NORMAL"), n, where) for t in targets])[0]
                )
            uv = None
            if prim.attributes.TEXCOORD_0 is not None:
                uv = _accessor(doc, p, buffers, prim.attributes.TEXCOORD_0).astype(np.float32)
            surfaces.append(
                Surface(
                    name=label if len(mesh.primitives) == 1 else f"{label}_{k + 1:02d}",
                    positions=quake,
                    normals=normals,
                    uvs=uv
                    if uv is not None and uv.shape == (n, 2)
                    else np.zeros((n, 2), np.float32),
                    indices=idx.astype(np.uint32),
                )
            )
            if not frame_names:
                names = list((mesh.extras or {}).get("targetNames") or [])
                frame_names = (["base"] if base_is_frame else []) + [str(s) for s in names]
    num_frames = len(surfaces[0].positions) if surfaces else 0
    tags = _read_tags(doc, p, buffers, nodes, num_frames)
    if not surfaces and not tags:
        raise _gltf_error(p, "has no triangle meshes and no tag_* nodes", "meshes")
    num_frames = num_frames or (len(tags[0].origins) if tags else 0)
    if len(frame_names) != num_frames:
        frame_names = []
    return ExportModel(
        name=p.stem,
        surfaces=surfaces,
        clips={"all": range(num_frames)},
        tags=tags,
        source=p,
        frame_names=frame_names,
    )


def _keys(
    doc: Any, p: Path, buffers: dict[int, bytes], anim: Any, sampler: int
) -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:
    """(times (K,), values (K*..., ...)) of ``anim``'s sampler ``sampler``."""
    samplers = anim.samplers or []
    if not 0 <= sampler < len(samplers):
        raise _gltf_error(p, f"animation {anim.name!r} names sampler {sampler}", "sampler")
    s = samplers[sampler]
    times = _accessor(doc, p, buffers, s.input).reshape(-1)
    return times, _accessor(doc, p, buffers, s.output)


def _read_tags(
    doc: Any, p: Path, buffers: dict[int, bytes], nodes: list[Any], num_frames: int
) -> list[Tag]:
    """Tags from ``tag_*`` nodes, per frame (see the comment above read_gltf_scene)."""
    tag_nodes = [
        i for i, n in enumerate(nodes) if n.mesh is None and (n.name or "").startswith("tag_")
    ]
    if not tag_nodes:
        return []
    keys: dict[tuple[int, str], dict[int, npt.NDArray[np.float32]]] = {}
    for anim in doc.animations or []:
        # which frame each key time shows: where the morph weights are one-hot
        frame_at: dict[float, int] = {}
        for ch in anim.channels or []:
            if ch.target.path == "weights":
                times, w = _keys(doc, p, buffers, anim, ch.sampler)
                w = w.reshape(len(times), -1)
                for t, row in zip(times.tolist(), w, strict=True):
                    if row.size and row.max() > 0.999 and np.sum(row > 1e-6) == 1:
                        frame_at[t] = int(np.argmax(row))
                break
        for ch in anim.channels or []:
            if ch.target.node in tag_nodes and ch.target.path in ("translation", "rotation"):
                times, v = _keys(doc, p, buffers, anim, ch.sampler)
                v = v.reshape(len(times), -1).astype(np.float32)
                slot = keys.setdefault((ch.target.node, ch.target.path), {})
                for i, t in enumerate(times.tolist()):
                    frame = frame_at.get(t, i) if num_frames else i
                    slot.setdefault(frame, v[i])
    if not num_frames:
        num_frames = max((max(s) + 1 for s in keys.values() if s), default=1)
    tags = []
    for i in tag_nodes:
        node = nodes[i]
        t0 = np.asarray(node.translation or [0, 0, 0], np.float32)
        r0 = np.asarray(node.rotation or [0, 0, 0, 1], np.float32)
        if node.matrix is not None or node.scale not in (None, [1, 1, 1], [1.0, 1.0, 1.0]):
            raise BadValueError(f"tag node {node.name!r} has a matrix or a scale", field="tags")
        moves = keys.get((i, "translation"), {})
        turns = keys.get((i, "rotation"), {})
        origins = np.stack([moves.get(f, t0) for f in range(num_frames)])
        rotations = np.stack([turns.get(f, r0) for f in range(num_frames)])
        tags.append(Tag(name=node.name, origins=from_y_up(origins), axes=tag_axes(rotations)))
    return tags
