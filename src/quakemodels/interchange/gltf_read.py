"""Reading vertex-animated meshes back from glTF 2.0 (morph targets) into an ImportedMesh.

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

import base64
import binascii
import json
import os
import re
import struct
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import numpy as np
import numpy.typing as npt

from ..core.files import read_regular
from ..errors import BadValueError, ModelFormatError, QuakeModelsWarning
from .imported import DEFAULT_LIMITS, FloatArray, ImportedMesh, ImportLimits, check_shape, from_y_up

_COMPONENTS = {
    5120: np.int8,
    5121: np.uint8,
    5122: np.int16,
    5123: np.uint16,
    5125: np.uint32,
    5126: np.float32,
}
_INDEX_COMPONENTS = (5121, 5123, 5125)
_WIDTH = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4}
_TRIANGLES = 4
_MAX_STRIDE = 252  # glTF 2.0, bufferView.byteStride
_MAX_BUFFER = 2**32 - 1  # a GLB chunk length is a uint32: no buffer is longer

# GLB container (glTF 2.0 §4.4): a 12-byte header, then 8-byte chunk headers.
_GLB_HEADER = struct.Struct("<4sII")
_CHUNK_HEADER = struct.Struct("<II")
_JSON_CHUNK = 0x4E4F534A
_BIN_CHUNK = 0x004E4942
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


@dataclass(frozen=True)
class _Plan:
    """A validated accessor: ``count`` elements of ``width`` ``dtype`` values, the first at
    ``start`` in buffer ``buffer``, ``stride`` bytes apart."""

    where: str
    buffer: int
    start: int
    count: int
    width: int
    dtype: Any
    stride: int
    normalized: bool


class _Document:
    """A parsed glTF document and its file: typed lookups that raise ModelFormatErrors."""

    def __init__(self, path: Path, doc: dict[str, Any], blob: bytes | None) -> None:
        self.path = path
        self.doc = doc
        self.blob = blob
        self.buffers: dict[int, bytes] = {}
        self.decoded: dict[str, FloatArray] = {}
        self.external_bytes = 0  # bytes read from buffer files beside the glTF

    def error(self, where: str, message: str) -> BadValueError:
        gap = "" if message.startswith("=") else " "
        return BadValueError(f"{self.path}: {where}{gap}{message}", field=where)

    def obj(self, value: Any, where: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.error(where, f"is {_kind(value)}, not a JSON object")
        return value

    def array(self, value: Any, where: str) -> list[Any]:
        if not isinstance(value, list):
            raise self.error(where, f"is {_kind(value)}, not a JSON array")
        return value

    def integer(self, value: Any, where: str, low: int = 0, high: int | None = None) -> int:
        """``value`` as an int in low..high (an integral float is accepted; bool is not)."""
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.error(where, f"is {_kind(value)}, not an integer")
        if value < low or (high is not None and value > high):
            bound = f"{low}..{high}" if high is not None else f"≥ {low}"
            raise self.error(where, f"={value} is outside {bound}")
        return value

    def item(self, key: str, index: Any, where: str) -> tuple[int, dict[str, Any]]:
        """(index, object) of ``doc[key][index]``; ``where`` is the field holding the index."""
        items = self.array(self.doc.get(key, []), key)
        i = self.integer(index, where)
        if i >= len(items):
            raise self.error(where, f"={i} names no item: {key} has {len(items)}")
        return i, self.obj(items[i], f"{key}[{i}]")


def _kind(value: Any) -> str:
    """What a JSON value is, for a message (``missing``, ``a string``, ``the number 1.5``)."""
    if value is None:
        return "missing"
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return f"the number {value!r}"
    names = {bool: "a boolean", str: "a string", list: "an array", dict: "an object"}
    return names.get(type(value), "a " + type(value).__name__)


# -- container ------------------------------------------------------------------------------------


def _parse(path: Path, data: bytes) -> tuple[dict[str, Any], bytes | None]:
    """The JSON document and the GLB BIN chunk (None for a .gltf or a GLB without one)."""
    blob = None
    text = data
    if data[:4] == b"glTF":
        if len(data) < _GLB_HEADER.size:
            raise BadValueError(f"{path}: GLB header cut at {len(data)} bytes", field="header")
        _, version, length = _GLB_HEADER.unpack_from(data)
        if version != 2:
            raise BadValueError(f"{path}: GLB version {version} (only 2 is read)", field="version")
        if length > len(data):
            raise BadValueError(
                f"{path}: GLB header length={length} is past the end of the file"
                f" ({len(data)} bytes)",
                field="length",
                offset=8,
            )
        chunks: list[tuple[int, bytes]] = []
        pos = _GLB_HEADER.size
        while pos + _CHUNK_HEADER.size <= length:
            size, kind = _CHUNK_HEADER.unpack_from(data, pos)
            if size > length - pos - _CHUNK_HEADER.size:
                raise BadValueError(
                    f"{path}: GLB chunk {len(chunks)} at offset {pos} claims {size} bytes;"
                    f" {length - pos - _CHUNK_HEADER.size} remain",
                    field="chunkLength",
                    offset=pos,
                )
            start = pos + _CHUNK_HEADER.size
            chunks.append((kind, data[start : start + size]))
            pos = start + size
        if not chunks or chunks[0][0] != _JSON_CHUNK:
            raise BadValueError(f"{path}: the first GLB chunk is not JSON", field="chunkType")
        text = chunks[0][1]
        if len(chunks) > 1 and chunks[1][0] == _BIN_CHUNK:
            blob = chunks[1][1]
    try:
        doc = json.loads(text)
    except RecursionError as e:
        raise BadValueError(f"{path}: the JSON is nested too deeply", field="json") from e
    except (ValueError, UnicodeDecodeError) as e:
        raise BadValueError(f"{path}: not a readable glTF: {e}", field="json") from e
    if not isinstance(doc, dict):
        raise BadValueError(f"{path}: the glTF JSON is not an object", field="json")
    return doc, blob


def _buffer(g: _Document, index: int) -> bytes:
    """The bytes of ``buffers[index]``, exactly ``byteLength`` of them (cached)."""
    if index in g.buffers:
        return g.buffers[index]
    where = f"buffers[{index}]"
    _, buffer = g.item("buffers", index, where)
    length = g.integer(buffer.get("byteLength"), f"{where}.byteLength", 1, _MAX_BUFFER)
    uri = buffer.get("uri")
    if uri is None:
        if index != 0 or g.blob is None:
            raise g.error(where, "has no uri and there is no GLB BIN chunk for it")
        data = g.blob
    elif not isinstance(uri, str):
        raise g.error(f"{where}.uri", f"is {_kind(uri)}, not a string")
    elif uri.startswith("data:"):
        head, _, payload = uri.partition(",")
        if not head.endswith(";base64"):
            raise g.error(f"{where}.uri", "is a data URI without ;base64")
        try:
            data = base64.b64decode(payload, validate=True)
        except (binascii.Error, ValueError) as e:
            raise g.error(f"{where}.uri", f"is a bad data URI: {e}") from e
    else:
        data = _external(g, f"{where}.uri", uri)
        g.external_bytes += len(data)
    if len(data) < length:
        raise g.error(f"{where}.byteLength", f"={length} but the buffer holds {len(data)} bytes")
    g.buffers[index] = data[:length]
    return g.buffers[index]


def _external(g: _Document, where: str, uri: str) -> bytes:
    """A relative URI's file, inside the glTF's folder and regular (never a FIFO or device)."""
    if _SCHEME.match(uri):
        scheme = uri.split(":", 1)[0]
        raise g.error(where, f"{uri!r}: unsupported URI scheme {scheme!r} (relative paths only)")
    name = unquote(uri)
    if not name or name.startswith(("/", "\\")) or "\0" in name:
        raise g.error(where, f"{uri!r} is not a relative path")
    # An external buffer is an untrusted name: it must stay inside the glTF's folder.
    folder = g.path.resolve().parent
    target = (folder / name).resolve()
    if folder not in target.parents:
        raise g.error(where, f"{uri!r} points outside {folder}")
    try:
        return read_regular(target, f"{where} {uri!r}:")
    except OSError as e:
        raise g.error(where, f"{uri!r} cannot be read: {e.strerror or e}") from e


# -- accessors ------------------------------------------------------------------------------------


def _plan(
    g: _Document,
    index: Any,
    where: str,
    types: tuple[str, ...],
    components: tuple[int, ...] = tuple(_COMPONENTS),
) -> _Plan:
    """Validate accessor ``index`` (named by the field ``where``), its view and buffer range,
    without decoding anything. ``types`` and ``components`` are what the use allows."""
    i, acc = g.item("accessors", index, where)
    at = f"accessors[{i}]"
    if acc.get("sparse") is not None:
        raise g.error(at, "is sparse (not supported)")
    kind = acc.get("type")
    if kind not in types:
        raise g.error(f"{at}.type", f"is {kind!r}; {where} needs {' or '.join(types)}")
    component = acc.get("componentType")
    if isinstance(component, bool) or component not in components:
        raise g.error(
            f"{at}.componentType",
            f"={component!r} is not one of {', '.join(map(str, components))} for {where}",
        )
    count = g.integer(acc.get("count"), f"{at}.count", 1)
    if acc.get("bufferView") is None:
        raise g.error(f"{at}.bufferView", "is missing (accessors without data are not supported)")
    v, view = g.item("bufferViews", acc["bufferView"], f"{at}.bufferView")
    vat = f"bufferViews[{v}]"
    buffer = g.integer(view.get("buffer"), f"{vat}.buffer")
    view_offset = g.integer(view.get("byteOffset", 0), f"{vat}.byteOffset")
    view_length = g.integer(view.get("byteLength"), f"{vat}.byteLength", 1)
    offset = g.integer(acc.get("byteOffset", 0), f"{at}.byteOffset")
    dtype = np.dtype(_COMPONENTS[component]).newbyteorder("<")
    width = _WIDTH[kind]
    element = dtype.itemsize * width
    stride = g.integer(view.get("byteStride", 0), f"{vat}.byteStride", 0, _MAX_STRIDE)
    if stride and (stride < element or stride % dtype.itemsize):
        raise g.error(
            f"{vat}.byteStride",
            f"={stride} must be a multiple of {dtype.itemsize} from the element size {element}"
            f" to {_MAX_STRIDE}",
        )
    stride = stride or element
    need = offset + stride * (count - 1) + element
    if need > view_length:
        raise g.error(
            at,
            f"needs {need} bytes of {vat} ({count} × stride {stride} from byteOffset {offset});"
            f" its byteLength is {view_length}",
        )
    data = _buffer(g, buffer)
    if view_offset + view_length > len(data):
        raise g.error(
            vat,
            f"runs to byte {view_offset + view_length} of buffers[{buffer}], which has {len(data)}",
        )
    normalized = acc.get("normalized", False) is True
    return _Plan(at, buffer, view_offset + offset, count, width, dtype, stride, normalized)


def _decode(g: _Document, plan: _Plan) -> npt.NDArray[Any]:
    """(count, width) array of a validated accessor (a copy; integers normalized if flagged)."""
    data = g.buffers[plan.buffer]
    item = plan.dtype.itemsize * plan.width
    if plan.stride == item:
        out = np.frombuffer(data, plan.dtype, plan.count * plan.width, plan.start)
    else:
        # Every row start is start + k·stride ≤ the validated end: strided reads stay inside.
        raw = np.frombuffer(data, np.uint8, plan.stride * (plan.count - 1) + item, plan.start)
        rows = np.lib.stride_tricks.as_strided(raw, (plan.count, item), (plan.stride, 1))
        out = np.ascontiguousarray(rows).view(plan.dtype)
    out = out.reshape(plan.count, plan.width)
    if plan.normalized and plan.dtype.kind in "iu":
        bits = 8 * plan.dtype.itemsize - (1 if plan.dtype.kind == "i" else 0)
        return out.astype(np.float64) / float(2**bits - 1)
    return np.array(out)


def _positions(g: _Document, plan: _Plan) -> FloatArray:
    """(N,3) float32 of a validated VEC3 accessor, decoded once per accessor (morph targets
    may share one); finite values only."""
    cached = g.decoded.get(plan.where)
    if cached is None:
        cached = _decode(g, plan).astype(np.float32)
        if not np.isfinite(cached).all():
            raise g.error(plan.where, "holds values that are not finite numbers")
        g.decoded[plan.where] = cached
    return cached


# -- meshes ---------------------------------------------------------------------------------------


@dataclass
class _Primitive:
    where: str
    position: _Plan
    targets: list[_Plan | None]
    uv: _Plan | None
    indices: _Plan | None
    names: list[str]


def _primitives(g: _Document) -> list[_Primitive]:
    """Every triangle primitive, validated (accessors planned, nothing decoded)."""
    meshes = g.array(g.doc.get("meshes"), "meshes")
    if not meshes:
        raise g.error("meshes", "is empty: the file has no meshes")
    out = []
    for m, value in enumerate(meshes):
        mesh = g.obj(value, f"meshes[{m}]")
        extras = mesh.get("extras")
        names = extras.get("targetNames") if isinstance(extras, dict) else None
        names = [str(n) for n in names] if isinstance(names, list) else []
        prims = g.array(mesh.get("primitives"), f"meshes[{m}].primitives")
        for k, pvalue in enumerate(prims):
            at = f"meshes[{m}].primitives[{k}]"
            prim = g.obj(pvalue, at)
            mode = prim.get("mode", _TRIANGLES)
            if mode != _TRIANGLES or isinstance(mode, bool):
                raise g.error(f"{at}.mode", f"={mode!r} is not triangles ({_TRIANGLES})")
            attributes = g.obj(prim.get("attributes"), f"{at}.attributes")
            if attributes.get("POSITION") is None:
                raise g.error(f"{at}.attributes", "has no POSITION")
            position = _plan(g, attributes["POSITION"], f"{at}.attributes.POSITION", ("VEC3",))
            targets: list[_Plan | None] = []
            for t, tvalue in enumerate(g.array(prim.get("targets", []), f"{at}.targets")):
                target = g.obj(tvalue, f"{at}.targets[{t}]")
                if target.get("POSITION") is None:
                    targets.append(None)
                    continue
                plan = _plan(g, target["POSITION"], f"{at}.targets[{t}].POSITION", ("VEC3",))
                if plan.count != position.count:
                    raise g.error(
                        f"{at}.targets[{t}].POSITION",
                        f"has {plan.count} rows; POSITION has {position.count}",
                    )
                targets.append(plan)
            uv = None
            if attributes.get("TEXCOORD_0") is not None:
                uv = _plan(g, attributes["TEXCOORD_0"], f"{at}.attributes.TEXCOORD_0", ("VEC2",))
                if uv.count != position.count:
                    raise g.error(
                        f"{at}.attributes.TEXCOORD_0",
                        f"has {uv.count} rows; POSITION has {position.count}",
                    )
            indices = None
            if prim.get("indices") is not None:
                indices = _plan(g, prim["indices"], f"{at}.indices", ("SCALAR",), _INDEX_COMPONENTS)
                if indices.count % 3:
                    raise g.error(f"{at}.indices", f"has {indices.count} entries, not triangles")
            elif position.count % 3:
                raise g.error(at, f"has {position.count} vertices and no indices: not triangles")
            out.append(_Primitive(at, position, targets, uv, indices, names))
    return out


def _frames(g: _Document, prim: _Primitive) -> tuple[list[_Plan | None], bool]:
    """The targets that make frames, and whether the base mesh is a frame too: decodes only
    the first target (our exporter's all-zero first target means one frame per target)."""
    if not prim.targets:
        return [], True
    first = prim.targets[0]
    base_is_frame = first is not None and bool(np.any(_positions(g, first)))
    return prim.targets, base_is_frame


def read_gltf(
    path: str | os.PathLike[str], *, limits: ImportLimits = DEFAULT_LIMITS
) -> ImportedMesh:
    """Read every triangle primitive of every mesh in a ``.glb`` / ``.gltf`` (see module doc).

    ``limits`` bound the result (frames, vertices, frames × vertices) and are checked before
    the morph targets are decoded.
    """
    p = Path(path)
    data = read_regular(p, "glTF")  # a missing file is an OSError, a FIFO a format error
    doc, blob = _parse(p, data)
    g = _Document(p, doc, blob)
    prims = _primitives(g)
    layouts = [_frames(g, prim) for prim in prims]
    counts = {len(targets) + base for targets, base in layouts}
    if len(counts) > 1:
        raise g.error("meshes", f"have different frame counts {sorted(counts)}")
    frames = counts.pop()
    corners = sum(prim.position.count for prim in prims)
    check_shape(str(p), frames, corners, limits.for_input(len(data) + g.external_bytes))
    positions = np.empty((frames, corners, 3), np.float32)
    uvs: list[FloatArray | None] = []
    indices = []
    base = 0
    for prim, (targets, base_is_frame) in zip(prims, layouts, strict=True):
        n = prim.position.count
        rest = _positions(g, prim.position)
        out = positions[:, base : base + n]
        f0 = 0
        if base_is_frame:
            out[0] = rest
            f0 = 1
        for f, target in enumerate(targets, f0):
            out[f] = rest if target is None else rest + _positions(g, target)
        uvs.append(None if prim.uv is None else _decode(g, prim.uv).astype(np.float32))
        if prim.indices is not None:
            idx = _decode(g, prim.indices).reshape(-1).astype(np.int64)
            if idx.max() >= n:
                raise g.error(prim.indices.where, f"holds index {int(idx.max())} ≥ {n} vertices")
        else:
            idx = np.arange(n, dtype=np.int64)
        indices.append(idx.reshape(-1, 3) + base)
        base += n
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


def _image_size(g: _Document) -> tuple[int, int] | None:
    """Width and height of the first embedded image, if Pillow can read its header. A
    decompression bomb (an image too large for Pillow's limit) is a warning and no size."""
    images = g.doc.get("images")
    if not isinstance(images, list) or not images or not isinstance(images[0], dict):
        return None
    if images[0].get("bufferView") is None:
        return None
    import io

    from PIL import Image

    try:
        v, view = g.item("bufferViews", images[0]["bufferView"], "images[0].bufferView")
        where = f"bufferViews[{v}]"
        data = _buffer(g, g.integer(view.get("buffer"), f"{where}.buffer"))
        start = g.integer(view.get("byteOffset", 0), f"{where}.byteOffset")
        length = g.integer(view.get("byteLength"), f"{where}.byteLength", 1)
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data[start : start + length])) as image:
                return int(image.width), int(image.height)
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as e:
        warnings.warn(f"{g.path}: images[0] ignored: {e}", QuakeModelsWarning, stacklevel=3)
        return None
    except (ModelFormatError, OSError, ValueError):
        return None
