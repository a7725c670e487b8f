"""Reading vertex-animated meshes back from glTF 2.0 (morph targets) into an ImportedMesh.

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
