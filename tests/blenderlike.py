"""What Blender 3.4 does to a glTF it imports and exports again with default settings,
reproduced in Python, so that the way back from Blender is tested without Blender.

Observed on our player exports (Debian's blender 3.4.1, ``import_scene.gltf`` then
``export_scene.gltf`` with defaults; tools/blender_roundtrip.py):

* every ``extras`` is dropped (``export_extras`` is off), except the ``targetNames`` Blender
  writes itself on each mesh; the scene is renamed ``Scene``, the generator is Blender's;
* animations come sorted by name, and every channel is resampled at the scene's 24 fps,
  LINEAR, from 0 up to the last whole frame before the clip ends (``export_force_sampling``);
  a one-key channel stays one STEP key;
* nodes are written in another order (children before parents, siblings reordered);
* vertices are renumbered, and a vertex is split where Blender's loop normals differ (the
  copies keep the position, uv and morph targets, the normals differ).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt
from gltfbuilder import glb as pack_glb
from gltfbuilder import split_glb

FPS = 24.0
_WIDTH = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4}
_DTYPE = {5121: np.uint8, 5123: np.uint16, 5125: np.uint32, 5126: np.float32}


class _Buffer:
    """The document's accessors read, and new ones appended to a copy of its BIN chunk."""

    def __init__(self, doc: dict[str, Any], blob: bytes) -> None:
        self.doc = doc
        self.blob = bytearray(blob)

    def read(self, index: int) -> npt.NDArray[Any]:
        """(count, width) values of accessor ``index`` (byteStride honoured)."""
        a = self.doc["accessors"][index]
        view = self.doc["bufferViews"][a["bufferView"]]
        dtype = np.dtype(_DTYPE[a["componentType"]])
        width = _WIDTH[a["type"]]
        start = view.get("byteOffset", 0) + a.get("byteOffset", 0)
        stride = view.get("byteStride") or dtype.itemsize * width
        rows = [
            np.frombuffer(self.blob, dtype, width, start + k * stride) for k in range(a["count"])
        ]
        return np.array(rows, dtype).reshape(a["count"], width)

    def add(self, values: npt.ArrayLike, kind: str, component: int = 5126) -> int:
        """A new accessor holding ``values`` as ``kind``; its index."""
        array = np.ascontiguousarray(values, dtype=_DTYPE[component])
        self.blob += b"\0" * (-len(self.blob) % 4)
        views = self.doc["bufferViews"]
        views.append({"buffer": 0, "byteOffset": len(self.blob), "byteLength": array.nbytes})
        self.blob += array.tobytes()
        accessor: dict[str, Any] = {
            "bufferView": len(views) - 1,
            "componentType": component,
            "count": len(array),
            "type": kind,
        }
        if component == 5126 and kind == "SCALAR":
            accessor["min"] = [float(array.min())]
            accessor["max"] = [float(array.max())]
        self.doc["accessors"].append(accessor)
        return len(self.doc["accessors"]) - 1


def _resample(times: npt.NDArray[Any], values: npt.NDArray[Any]) -> tuple[Any, Any, str]:
    """A LINEAR channel sampled at every whole frame of 24 fps from 0 to the last one
    before its end, as Blender's exporter bakes it; one key stays a STEP key."""
    if len(times) == 1:
        return times, values, "STEP"
    t = times.reshape(-1).astype(np.float64)
    count = math.floor(float(t[-1]) * FPS + 1e-9) + 1
    at = np.arange(count) / FPS
    out = np.stack(
        [np.interp(at, t, values[:, c].astype(np.float64)) for c in range(values.shape[1])],
        axis=1,
    )
    return at.astype(np.float32), out.astype(np.float32), "LINEAR"


def _remesh(buf: _Buffer, prim: dict[str, Any], splits: int, turn: float) -> None:
    """Renumber the primitive's vertices (reversed) and split ``splits`` of them: the copy of
    each takes over the triangles after the vertex's first, with its normal turned by
    ``turn`` radians about x (in every frame, as Blender's per-loop normals)."""
    attributes = prim["attributes"]
    position = buf.read(attributes["POSITION"])
    n = len(position)
    tri = buf.read(prim["indices"]).reshape(-1, 3).astype(np.int64)
    order = np.arange(n)[::-1]  # new vertex k is old vertex order[k]
    new_of = np.empty(n, np.int64)
    new_of[order] = np.arange(n)
    tri = new_of[tri]
    copies: list[int] = []
    for v in range(min(splits, n)):
        uses = np.argwhere(tri == v)
        if len(uses) < 2:
            continue
        copy = n + len(copies)
        for t, c in uses[1:]:
            tri[t, c] = copy
        copies.append(v)
    rows = np.concatenate([order, order[copies]]) if copies else order
    c, s = math.cos(turn), math.sin(turn)
    spin = np.array([[1, 0, 0], [0, c, -s], [0, s, c]], np.float32)

    def moved(index: int, normal: bool) -> int:
        values = buf.read(index)[rows]
        if normal and copies:
            values[n:] = values[n:] @ spin.T
        return buf.add(values, buf.doc["accessors"][index]["type"])

    for key in list(attributes):
        attributes[key] = moved(attributes[key], key == "NORMAL")
    for target in prim.get("targets", []):
        for key in list(target):
            target[key] = moved(target[key], False)  # deltas: the copies share them
    prim["indices"] = buf.add(tri.reshape(-1), "SCALAR", 5125)


def blender_roundtrip(data: bytes, *, splits: dict[str, int] | None = None) -> bytes:
    """``data`` (a GLB) as Blender 3.4 writes it back after importing it (module doc);
    ``splits`` names meshes (by node name) and how many of their vertices Blender splits."""
    doc, blob = split_glb(data)
    buf = _Buffer(doc, blob)
    splits = splits or {}
    nodes = doc["nodes"]
    for node in nodes:
        if "mesh" in node:
            mesh = doc["meshes"][node["mesh"]]
            for prim in mesh["primitives"]:
                _remesh(buf, prim, splits.get(node.get("name", ""), 0), 0.6)
    for anim in doc.get("animations", []):
        samplers = []
        for channel in anim["channels"]:
            sampler = anim["samplers"][channel["sampler"]]
            times = buf.read(sampler["input"])
            values = buf.read(sampler["output"]).astype(np.float64)
            values = values.reshape(len(times), -1)  # weights: one column per target
            at, out, how = _resample(times, values)
            kind = {"translation": "VEC3", "rotation": "VEC4"}.get(
                channel["target"]["path"], "SCALAR"
            )
            samplers.append(
                {
                    "input": buf.add(at.reshape(-1), "SCALAR"),
                    "output": buf.add(out if kind != "SCALAR" else out.reshape(-1, 1), kind),
                    "interpolation": how,
                }
            )
            channel["sampler"] = len(samplers) - 1
        anim["samplers"] = samplers
    doc["animations"] = sorted(doc.get("animations", []), key=lambda a: a["name"])
    # every extras goes, but the morph target names Blender writes itself
    for key in ("nodes", "animations", "scenes", "materials", "images", "textures"):
        for item in doc.get(key, []):
            item.pop("extras", None)
    for mesh in doc["meshes"]:
        names = mesh.get("extras", {}).get("targetNames")
        mesh.pop("extras", None)
        if names is not None:
            mesh["extras"] = {"targetNames": names}
    doc.pop("extras", None)
    doc["scenes"][0]["name"] = "Scene"
    doc["asset"] = {"generator": "Khronos glTF Blender I/O v3.4.50", "version": "2.0"}
    # nodes in reverse order, siblings reversed
    old = list(range(len(nodes)))[::-1]
    new_of = {o: k for k, o in enumerate(old)}
    doc["nodes"] = [nodes[o] for o in old]
    for node in doc["nodes"]:
        if "children" in node:
            node["children"] = [new_of[c] for c in reversed(node["children"])]
    for scene in doc["scenes"]:
        scene["nodes"] = [new_of[c] for c in scene["nodes"]]
    for anim in doc.get("animations", []):
        for channel in anim["channels"]:
            channel["target"]["node"] = new_of[channel["target"]["node"]]
    doc["buffers"] = [{"byteLength": len(buf.blob) + (-len(buf.blob) % 4)}]
    return pack_glb(doc, bytes(buf.blob))
