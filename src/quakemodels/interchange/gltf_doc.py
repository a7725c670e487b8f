"""The glTF 2.0 document as an untrusted file: the GLB container, the JSON, and every
accessor, buffer view, buffer, node and animation sampler an import uses, validated before a
byte is decoded.

Indices are non-negative integers naming an existing item, counts ≥ 1, offsets ≥ 0, a stride
is 0 or a multiple of the component size from the element size to 252, and every range lies
inside its view and buffer (Python ints: nothing wraps or overflows). Every problem is a
:class:`ModelFormatError` naming the file and the JSON path (``accessors[3].byteStride``).
External buffers are relative URIs (percent-decoded) to regular files inside the glTF's
folder; other URI schemes are refused. The readers (:mod:`.gltf_read`, :mod:`.gltf_eval`)
build on these lookups.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
import re
import struct
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import numpy as np
import numpy.typing as npt

from ..core.files import read_regular
from ..errors import BadValueError
from .imported import FloatArray

_COMPONENTS = {
    5120: np.int8,
    5121: np.uint8,
    5122: np.int16,
    5123: np.uint16,
    5125: np.uint32,
    5126: np.float32,
}
_INDEX_COMPONENTS = (5121, 5123, 5125)
_WIDTH = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT4": 16}
_TRIANGLES = 4
_MAX_STRIDE = 252  # glTF 2.0, bufferView.byteStride
_MAX_BUFFER = 2**32 - 1  # a GLB chunk length is a uint32: no buffer is longer
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


@dataclass
class _Primitive:
    where: str
    position: _Plan
    targets: list[_Plan | None]
    uv: _Plan | None
    indices: _Plan | None
    names: list[str]
    normal: _Plan | None = None
    normal_targets: list[_Plan | None] | None = None
    material: Any = None
    attributes: dict[str, Any] = field(default_factory=dict)


def _primitives(g: _Document) -> list[_Primitive]:
    """Every triangle primitive, validated (accessors planned, nothing decoded)."""
    meshes = g.array(g.doc.get("meshes"), "meshes")
    if not meshes:
        raise g.error("meshes", "is empty: the file has no meshes")
    return [prim for m, value in enumerate(meshes) for prim in _mesh_primitives(g, m, value)]


def _vec3_targets(
    g: _Document, prim: dict[str, Any], at: str, attribute: str, rows: int
) -> list[_Plan | None]:
    """The planned ``attribute`` (POSITION or NORMAL) of every morph target of a primitive."""
    targets: list[_Plan | None] = []
    for t, tvalue in enumerate(g.array(prim.get("targets", []), f"{at}.targets")):
        target = g.obj(tvalue, f"{at}.targets[{t}]")
        if target.get(attribute) is None:
            targets.append(None)
            continue
        plan = _plan(g, target[attribute], f"{at}.targets[{t}].{attribute}", ("VEC3",))
        if plan.count != rows:
            raise g.error(
                f"{at}.targets[{t}].{attribute}", f"has {plan.count} rows; POSITION has {rows}"
            )
        targets.append(plan)
    return targets


def _mesh_primitives(
    g: _Document, m: int, value: Any, *, normals: bool = False
) -> list[_Primitive]:
    """The triangle primitives of ``meshes[m]``, validated; with their NORMALs if asked."""
    mesh = g.obj(value, f"meshes[{m}]")
    extras = mesh.get("extras")
    names = extras.get("targetNames") if isinstance(extras, dict) else None
    names = [str(n) for n in names] if isinstance(names, list) else []
    prims = g.array(mesh.get("primitives"), f"meshes[{m}].primitives")
    out = []
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
        targets = _vec3_targets(g, prim, at, "POSITION", position.count)
        normal, normal_targets = None, None
        if normals and attributes.get("NORMAL") is not None:
            normal = _plan(g, attributes["NORMAL"], f"{at}.attributes.NORMAL", ("VEC3",))
            if normal.count != position.count:
                raise g.error(
                    f"{at}.attributes.NORMAL",
                    f"has {normal.count} rows; POSITION has {position.count}",
                )
            normal_targets = _vec3_targets(g, prim, at, "NORMAL", position.count)
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
        out.append(
            _Primitive(
                at,
                position,
                targets,
                uv,
                indices,
                names,
                normal,
                normal_targets,
                prim.get("material"),
                attributes,
            )
        )
    return out


def _frames(g: _Document, prim: _Primitive) -> tuple[list[_Plan | None], bool]:
    """The targets that make frames, and whether the base mesh is a frame too: decodes only
    the first target (our exporter's all-zero first target means one frame per target)."""
    if not prim.targets:
        return [], True
    first = prim.targets[0]
    base_is_frame = first is not None and bool(np.any(_positions(g, first)))
    return prim.targets, base_is_frame


def _fill_frames(
    g: _Document,
    rest: _Plan,
    targets: list[_Plan | None],
    base_is_frame: bool,
    out: npt.NDArray[np.float32],
) -> None:
    """Write the (F,n,3) frames of a base accessor and its morph target deltas into ``out``."""
    base = _positions(g, rest)
    f0 = 0
    if base_is_frame:
        out[0] = base
        f0 = 1
    for f, target in enumerate(targets, f0):
        out[f] = base if target is None else base + _positions(g, target)


def _triangles(g: _Document, prim: _Primitive) -> npt.NDArray[np.int64]:
    """(T,3) int64 triangles of a primitive (its indices, checked, or 0..n-1)."""
    n = prim.position.count
    if prim.indices is not None:
        idx = _decode(g, prim.indices).reshape(-1).astype(np.int64)
        if idx.max() >= n:
            raise g.error(prim.indices.where, f"holds index {int(idx.max())} ≥ {n} vertices")
    else:
        idx = np.arange(n, dtype=np.int64)
    return idx.reshape(-1, 3)


def _open(path: str | os.PathLike[str]) -> tuple[_Document, int]:
    """The parsed, unvalidated document of a glTF file and the bytes it took to read."""
    p = Path(path)
    data = read_regular(p, "glTF")  # a missing file is an OSError, a FIFO a format error
    doc, blob = _parse(p, data)
    return _Document(p, doc, blob), len(data)


@dataclass
class _Node:
    index: int
    name: str
    node: dict[str, Any]


def _nodes(g: _Document) -> list[_Node]:
    """Every node (validated as objects), with its name ('' when it has none)."""
    out = []
    for i, value in enumerate(g.array(g.doc.get("nodes", []), "nodes")):
        node = g.obj(value, f"nodes[{i}]")
        name = node.get("name", "")
        if not isinstance(name, str):
            raise g.error(f"nodes[{i}].name", f"is {_kind(name)}, not a string")
        out.append(_Node(i, name, node))
    return out


def _floats(g: _Document, value: Any, where: str, width: int) -> npt.NDArray[np.float64] | None:
    """``width`` finite numbers as (width,) float64, None when absent."""
    if value is None:
        return None
    items = g.array(value, where)
    if len(items) != width or not all(
        isinstance(v, (int, float)) and not isinstance(v, bool) for v in items
    ):
        raise g.error(where, f"is not {width} numbers")
    out = np.asarray(items, np.float64)
    if not np.isfinite(out).all():
        raise g.error(where, "holds values that are not finite numbers")
    return out


def _numbers(g: _Document, value: Any, where: str, width: int, default: list[float]) -> FloatArray:
    """A node's translation or rotation: ``width`` finite numbers (``default`` if absent)."""
    out = _floats(g, value, where, width)
    return np.asarray(default if out is None else out, np.float32)


def _sampler(
    g: _Document, anim: dict[str, Any], a: int, index: Any, kinds: tuple[str, ...]
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """(times (K,), values (K, width)) of sampler ``index`` of ``animations[a]``; finite."""
    samplers = g.array(anim.get("samplers", []), f"animations[{a}].samplers")
    if not samplers:
        raise g.error(f"animations[{a}].samplers", "is empty")
    s = g.integer(index, f"animations[{a}].channels.sampler", 0, len(samplers) - 1)
    at = f"animations[{a}].samplers[{s}]"
    sampler = g.obj(samplers[s], at)
    times = _decode(g, _plan(g, sampler.get("input"), f"{at}.input", ("SCALAR",), (5126,)))
    values = _decode(g, _plan(g, sampler.get("output"), f"{at}.output", kinds))
    times, values = times.reshape(-1).astype(np.float64), values.astype(np.float64)
    if values.size % len(times):
        raise g.error(f"{at}.output", f"has {values.size} values for {len(times)} keys")
    if not (np.isfinite(times).all() and np.isfinite(values).all()):
        raise g.error(at, "holds values that are not finite numbers")
    return times, values.reshape(len(times), -1)
