"""Reading vertex-animated meshes back from glTF 2.0 (morph targets) and OBJ sequences.

What comes out is an :class:`ImportedMesh` of per-corner arrays in Quake's model space (Z up);
:func:`to_md2` welds it into MD2 vertices and texcoords and encodes it with
:func:`quakemodels.writer.build`.

Axes: the exporters (:mod:`quakemodels.export`) turn Quake (x, y, z) into Y-up (y, z, x); these
readers apply the inverse, (a, b, c) → (c, a, b), so our own exports come back unchanged.

glTF frames: when the first morph target's POSITION is all zeros (our exporter's layout, where
target f holds frame f minus the base), there is one frame per target; otherwise the base mesh
is frame 0 (named ``base``) and every target adds a frame. Frame names come from
``mesh.extras.targetNames``. Node transforms are not applied. Texcoords: glTF UV and MD2 share
the t-down convention; OBJ ``vt`` has v up, so t = 1 − v.
"""

from __future__ import annotations

import base64
import os
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from .errors import BadValueError, ModelFormatError
from .writer import VANILLA, BuildResult, Limits, build

FloatArray = npt.NDArray[np.float32]

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


def from_y_up(v: npt.ArrayLike) -> FloatArray:
    """(..., 3) Y-up vectors back to Quake's Z-up: (a, b, c) → (c, a, b), float32."""
    return np.ascontiguousarray(np.asarray(v, dtype=np.float32)[..., [2, 0, 1]])


@dataclass(frozen=True)
class ImportedMesh:
    """Per-corner animated geometry (F frames, N corners, T triangles) in Quake space.

    ``positions`` (F,N,3) float32; ``uvs`` (N,2) float32 (t down) or None; ``indices``
    (T,3) int64 into the corners; ``frame_names`` F names; ``skin_size`` (w, h) of an embedded
    image when the file has one.
    """

    positions: FloatArray
    uvs: FloatArray | None
    indices: npt.NDArray[np.int64]
    frame_names: list[str]
    skin_size: tuple[int, int] | None = None


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


def read_gltf(path: str | os.PathLike[str]) -> ImportedMesh:
    """Read every triangle primitive of every mesh in a ``.glb`` / ``.gltf`` (see module doc)."""
    import pygltflib

    p = Path(path)
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
            if prim.indices is not None:
                idx = _accessor(doc, p, buffers, prim.indices).reshape(-1).astype(np.int64)
            else:
                idx = np.arange(n, dtype=np.int64)
            if idx.size % 3 or (idx.size and (idx.min() < 0 or idx.max() >= n)):
                raise _gltf_error(p, f"meshes[{m}].primitives[{k}] has bad indices", "indices")
            indices_per_prim.append(idx.reshape(-1, 3) + base)
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


# -- OBJ ------------------------------------------------------------------------------------------


def _obj_index(token: str, count: int, what: str, where: str) -> int:
    try:
        i = int(token)
    except ValueError as e:
        raise BadValueError(f"{where}: bad {what} index {token!r}", field="f") from e
    i = i - 1 if i > 0 else count + i  # OBJ counts from 1; negative counts back from the end
    if not 0 <= i < count:
        raise BadValueError(f"{where}: {what} index {token} outside 1..{count}", field="f")
    return i


def read_obj(path: str | os.PathLike[str]) -> tuple[FloatArray, FloatArray | None, list[list[int]]]:
    """One OBJ: corner positions (N,3) float32 Y-up as in the file, uvs (N,2) or None, and
    triangles (fans of polygons) as corner index lists, where corner = (v, vt) pair."""
    p = Path(path)
    vs: list[list[float]] = []
    vts: list[list[float]] = []
    faces: list[list[tuple[int, int]]] = []
    with open(p, encoding="utf-8", errors="replace") as f:
        for number, line in enumerate(f, 1):
            parts = line.split()
            if not parts or parts[0].startswith("#"):
                continue
            where = f"{p}:{number}"
            try:
                if parts[0] == "v":
                    vs.append([float(x) for x in parts[1:4]])
                elif parts[0] == "vt":
                    vts.append([float(x) for x in parts[1:3]])
                elif parts[0] == "f":
                    corners = []
                    for token in parts[1:]:
                        fields = token.split("/")
                        v = _obj_index(fields[0], len(vs), "v", where)
                        t = -1
                        if len(fields) > 1 and fields[1]:
                            t = _obj_index(fields[1], len(vts), "vt", where)
                        corners.append((v, t))
                    if len(corners) < 3:
                        raise BadValueError(f"{where}: a face needs 3 corners", field="f")
                    faces.append(corners)
            except ValueError as e:
                if isinstance(e, ModelFormatError):
                    raise
                raise BadValueError(f"{where}: bad number in {line.strip()!r}", field="v") from e
            if parts[0] == "v" and len(vs[-1]) != 3:
                raise BadValueError(f"{where}: a vertex needs 3 coordinates", field="v")
    keys: dict[tuple[int, int], int] = {}
    triangles: list[list[int]] = []
    for face in faces:
        ids = [keys.setdefault(c, len(keys)) for c in face]
        triangles.extend([ids[0], ids[i], ids[i + 1]] for i in range(1, len(ids) - 1))
    corners = list(keys)
    positions = np.array([vs[v] for v, _ in corners], np.float32).reshape(-1, 3)
    uvs = None
    if corners and all(t >= 0 for _, t in corners):
        uv = np.array([vts[t] for _, t in corners], np.float64)
        uvs = np.column_stack([uv[:, 0], 1.0 - uv[:, 1]]).astype(np.float32)
    return positions, uvs, triangles


def read_obj_sequence(
    paths: Sequence[str | os.PathLike[str]], frame_names: Sequence[str] | None = None
) -> ImportedMesh:
    """One frame per OBJ file (same faces in every file); names default to the file stems."""
    if not paths:
        raise BadValueError("no OBJ files given", field="frames")
    first_pos, uvs, triangles = read_obj(paths[0])
    frames = [first_pos]
    for path in paths[1:]:
        pos, _, tris = read_obj(path)
        if tris != triangles or pos.shape != first_pos.shape:
            raise BadValueError(
                f"{path}: faces differ from {paths[0]} (every frame needs the same mesh)",
                field="f",
            )
        frames.append(pos)
    names = list(frame_names) if frame_names else [Path(p).stem for p in paths]
    if len(names) != len(paths):
        raise BadValueError(f"{len(names)} frame names for {len(paths)} files", field="frames")
    return ImportedMesh(
        positions=from_y_up(np.stack(frames)),
        uvs=uvs,
        indices=np.array(triangles, np.int64).reshape(-1, 3),
        frame_names=names,
    )


# -- to MD2 ---------------------------------------------------------------------------------------


def weld(
    mesh: ImportedMesh, skin_size: tuple[int, int]
) -> tuple[FloatArray, npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """MD2 vertices and texcoords from corners.

    Corners whose positions are equal in every frame become one MD2 vertex, corners whose UVs
    round to the same skin pixel one texcoord. Returns positions (F,V,3), triangles (T,3),
    texcoords_px (S,2) and triangle_texcoords (T,3).
    """
    f, n, _ = mesh.positions.shape
    track = np.ascontiguousarray(mesh.positions.transpose(1, 0, 2)).reshape(n, f * 3)
    _, first, vertex_of = np.unique(track, axis=0, return_index=True, return_inverse=True)
    # number vertices in first-use order, so a file we exported keeps its vertex order
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    vertex_of = rank[vertex_of.reshape(-1)]
    positions = mesh.positions[:, first[order]]
    if mesh.uvs is None:
        px = np.zeros((n, 2), np.int64)
    else:
        size = np.array(skin_size, np.float64)
        px = np.rint(mesh.uvs.astype(np.float64) * size).astype(np.int64)
    _, st_first, st_of = np.unique(px, axis=0, return_index=True, return_inverse=True)
    st_order = np.argsort(st_first, kind="stable")
    st_rank = np.empty_like(st_order)
    st_rank[st_order] = np.arange(st_order.size)
    st_of = st_rank[st_of.reshape(-1)]
    texcoords_px = px[st_first[st_order]]
    return positions, vertex_of[mesh.indices], texcoords_px, st_of[mesh.indices]


def to_md2(
    mesh: ImportedMesh,
    *,
    skins: Sequence[str] = (),
    skin_size: tuple[int, int] | None = None,
    limits: Limits = VANILLA,
) -> BuildResult:
    """Weld ``mesh`` and encode it as MD2; skin size from the argument, the file's embedded
    image, or 256 × 256."""
    size = skin_size or mesh.skin_size or (256, 256)
    positions, triangles, texcoords_px, triangle_texcoords = weld(mesh, size)
    return build(
        positions,
        triangles,
        texcoords_px,
        triangle_texcoords,
        mesh.frame_names,
        skins=skins,
        skin_size=size,
        limits=limits,
    )
