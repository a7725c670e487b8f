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

import base64
import binascii
import json
import os
import re
import struct
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import numpy as np
import numpy.typing as npt

from ..core.build import vertex_normals
from ..core.files import read_regular
from ..core.mesh import flip_winding
from ..core.scene import Y_UP, ExportModel, Surface, Tag
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
    normal: _Plan | None = None
    normal_targets: list[_Plan | None] | None = None
    material: Any = None


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


def read_gltf(
    path: str | os.PathLike[str], *, limits: ImportLimits = DEFAULT_LIMITS
) -> ImportedMesh:
    """Read every triangle primitive of every mesh in a ``.glb`` / ``.gltf`` (see module doc).

    ``limits`` bound the result (frames, vertices, frames × vertices) and are checked before
    the morph targets are decoded.
    """
    g, size = _open(path)
    p = g.path
    prims = _primitives(g)
    layouts = [_frames(g, prim) for prim in prims]
    counts = {len(targets) + base for targets, base in layouts}
    if len(counts) > 1:
        raise g.error("meshes", f"have different frame counts {sorted(counts)}")
    frames = counts.pop()
    corners = sum(prim.position.count for prim in prims)
    check_shape(str(p), frames, corners, limits.for_input(size + g.external_bytes))
    positions = np.empty((frames, corners, 3), np.float32)
    uvs: list[FloatArray | None] = []
    indices = []
    base = 0
    for prim, (targets, base_is_frame) in zip(prims, layouts, strict=True):
        n = prim.position.count
        _fill_frames(g, prim.position, targets, base_is_frame, positions[:, base : base + n])
        uvs.append(None if prim.uv is None else _decode(g, prim.uv).astype(np.float32))
        indices.append(_triangles(g, prim) + base)
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
    seconds, weights (K,F) float64, one column per morph target)."""

    name: str
    extras: dict[str, Any]
    weights: dict[str, tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]] = field(
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
    colour image of each surface that has one (surface name → (image name, bytes))."""

    scenes: dict[str, ExportModel]
    animations: list[GltfAnimation]
    extras: dict[str, Any]
    images: dict[str, dict[str, tuple[str, bytes]]]


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


def _numbers(g: _Document, value: Any, where: str, width: int, default: list[float]) -> FloatArray:
    """A node's translation or rotation: ``width`` finite numbers (``default`` if absent)."""
    if value is None:
        return np.asarray(default, np.float32)
    items = g.array(value, where)
    if len(items) != width or not all(
        isinstance(v, (int, float)) and not isinstance(v, bool) for v in items
    ):
        raise g.error(where, f"is not {width} numbers")
    out = np.asarray(items, np.float64)
    if not np.isfinite(out).all():
        raise g.error(where, "holds values that are not finite numbers")
    return out.astype(np.float32)


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
) -> ExportModel:
    """The surfaces and tags of ``nodes`` as one scene (see the comment above); each
    surface's embedded image into ``images`` when given."""
    source = g.path
    found: list[tuple[str, list[_Primitive]]] = []
    for n in nodes:
        if n.node.get("mesh") is None:
            continue
        m, mesh = g.item("meshes", n.node["mesh"], f"nodes[{n.index}].mesh")
        prims = _mesh_primitives(g, m, mesh, normals=True)
        mesh_name = mesh.get("name")
        label = n.name or (mesh_name if isinstance(mesh_name, str) else "") or f"surface{m}"
        found.append((label, prims))
    flat = [prim for _, prims in found for prim in prims]
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
    for label, prims in found:
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
        for c, cvalue in enumerate(g.array(anim.get("channels", []), f"animations[{a}].channels")):
            channel = g.obj(cvalue, f"animations[{a}].channels[{c}]")
            target = g.obj(channel.get("target"), f"animations[{a}].channels[{c}].target")
            node = target.get("node")
            owner = meshes.get(node) if type(node) is int else None
            if target.get("path") != "weights" or owner is None or owner in weights:
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
    return GltfScenes(scenes, animations, extras, images)


def read_gltf_scene(
    path: str | os.PathLike[str], *, limits: ImportLimits = DEFAULT_LIMITS
) -> ExportModel:
    """The surfaces, frames and tags of every node of a ``.glb`` / ``.gltf`` (see the comment
    above read_gltf_scenes); ``limits`` bound its shape before morph targets are decoded."""
    g, size = _open(path)
    return _scene(g, g.path.stem, _nodes(g), limits.for_input(size))
