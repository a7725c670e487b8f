"""Blender's own answers for the authoring fixtures, and the tools to compare with them.

The fixtures (tests/fixtures/authoring/<name>.glb) are made by tools/blender_fixtures.py in
Blender 3.4; beside each, ``<name>.blender.npz`` holds the positions Blender evaluated (armature
deform and shape keys applied) at every frame of every clip, in glTF world space (Y up; the
``zup`` fixture keeps the glb's own Z-up axes). :func:`blender_oracle` loads one;
:func:`set_distance` compares point sets whose vertices need not correspond (the exporter
splits vertices at uv seams, a converter may weld or reorder them).

:func:`glb_key_positions` is a small, independent reading of what a glb says at its own key
times (node TRS channels, skins, morph weights; no interpolation needed at a key): the check
that the oracle and the glb agree, not the package's importer.
"""

from __future__ import annotations

import json
import struct
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "authoring"
NAMES = ("rigged", "shapekeys", "zup", "hierarchy")

F64 = NDArray[np.float64]
F32 = NDArray[np.float32]


def blender_oracle(name: str) -> dict[str, Any]:
    """The committed oracle of fixture ``name`` as

    - ``clips``: {clip: (times (F,) float64 glTF seconds, positions (F, N, 3) float32)}, in the
      glb's animation order;
    - ``tags``: {clip: {tag name: (F, 4, 4) float64 world matrices, column vectors}};
    - ``rest``: (N, 3) float32, no action (the rig in its bind pose);
    - ``rest_tags``: {tag name: (4, 4) float64};
    - ``objects``: mesh object names (sorted) and ``counts``: their vertex counts; the N
      positions are theirs, concatenated in that order.
    """
    with np.load(FIXTURES / f"{name}.blender.npz") as npz:
        arrays = {key: npz[key] for key in npz.files}
    clips = [str(c) for c in arrays["clips"]]
    tags: dict[str, dict[str, F64]] = {clip: {} for clip in clips}
    rest_tags: dict[str, F64] = {}
    for key, value in arrays.items():
        if key.startswith("tag:"):
            _, clip, tag = key.split(":", 2)
            tags[clip][tag] = value
        elif key.startswith("tagrest:"):
            rest_tags[key.split(":", 1)[1]] = value
    return {
        "clips": {c: (arrays[f"times:{c}"], arrays[f"pos:{c}"]) for c in clips},
        "tags": tags,
        "rest": arrays["rest"],
        "rest_tags": rest_tags,
        "objects": [str(o) for o in arrays["objects"]],
        "counts": [int(c) for c in arrays["counts"]],
    }


def set_distance(a: NDArray[Any], b: NDArray[Any], chunk: int = 1024) -> float:
    """The symmetric Hausdorff distance between point sets ``a`` (N, 3) and ``b`` (M, 3): the
    farthest any point of either lies from the other set. Brute force in float64, ``chunk``
    rows at a time (5000 x 5000 points stays a few tens of MB)."""
    p, q = np.asarray(a, np.float64), np.asarray(b, np.float64)
    if len(p) == 0 or len(q) == 0:
        raise ValueError(f"set_distance of an empty set ({len(p)} and {len(q)} points)")

    def directed(x: F64, y: F64) -> float:
        worst = 0.0
        y2 = (y * y).sum(1)
        for start in range(0, len(x), chunk):
            part = x[start : start + chunk]
            # |x - y|^2 by expansion, floored at 0 against rounding, then the nearest per row
            d2 = (part * part).sum(1)[:, None] - 2.0 * part @ y.T + y2[None, :]
            worst = max(worst, float(np.maximum(d2.min(1), 0.0).max()))
        return worst

    return float(np.sqrt(max(directed(p, q), directed(q, p))))


# -- a glb read at its key times ---------------------------------------------------------------

_COMPONENTS = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT4": 16}
_TYPES = {5120: "<i1", 5121: "<u1", 5122: "<i2", 5123: "<u2", 5125: "<u4", 5126: "<f4"}


def read_glb(path: Path) -> tuple[dict[str, Any], bytes]:
    """The JSON document and the BIN chunk (b"" when absent) of a .glb file."""
    data = path.read_bytes()
    magic, version, _ = struct.unpack_from("<4sII", data)
    assert magic == b"glTF" and version == 2, path
    length, kind = struct.unpack_from("<I4s", data, 12)
    assert kind == b"JSON", path
    doc: dict[str, Any] = json.loads(data[20 : 20 + length])
    rest = data[20 + length :]
    blob = rest[8 : 8 + struct.unpack_from("<I", rest)[0]] if len(rest) >= 8 else b""
    return doc, blob


def accessor(doc: dict[str, Any], blob: bytes, index: int) -> F64:
    """Accessor ``index`` as float64, (count,) or (count, components); normalized integers
    scaled to [0, 1] (no sparse accessors: Blender writes none)."""
    acc = doc["accessors"][index]
    view = doc["bufferViews"][acc["bufferView"]]
    n = _COMPONENTS[acc["type"]]
    dtype = np.dtype(_TYPES[acc["componentType"]])
    start = view.get("byteOffset", 0) + acc.get("byteOffset", 0)
    stride = view.get("byteStride", n * dtype.itemsize)
    raw = np.frombuffer(blob, np.uint8, stride * (acc["count"] - 1) + n * dtype.itemsize, start)
    rows = np.lib.stride_tricks.as_strided(raw, (acc["count"], n * dtype.itemsize), (stride, 1))
    values = np.ascontiguousarray(rows).view(dtype).astype(np.float64)
    if acc.get("normalized"):
        values /= np.iinfo(dtype).max
    return values[:, 0] if n == 1 else values


def _trs(translation: F64, rotation: F64, scale: F64) -> F64:
    """Local matrix (4, 4) of a node from T (3,), R (x, y, z, w), S (3,)."""
    x, y, z, w = rotation / np.linalg.norm(rotation)
    m = np.eye(4)
    m[:3, :3] = np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
    ]) * scale  # fmt: skip
    m[:3, 3] = translation
    return m


def glb_key_positions(path: Path, clip: str | None) -> dict[str, Any]:
    """What the glb at ``path`` places where at each key of animation ``clip`` (every sampler
    of the clip must share one input, as Blender writes them), or once with no animation
    (``clip`` None): {"times": (K,) float64, "meshes": {node name: (K, V, 3) float64 world
    positions of its primitives' vertices, concatenated}, "nodes": {node name: (K, 4, 4)
    float64 world matrices}}. Skinned meshes by their joints (the mesh node's own transform
    ignored, as the spec says), morph targets by the mesh's weights or the weights channel."""
    doc, blob = read_glb(path)
    nodes = doc["nodes"]
    times = np.zeros(1)
    channels: list[tuple[int, str, F64]] = []
    if clip is not None:
        [animation] = [a for a in doc.get("animations", []) if a.get("name") == clip]
        inputs = {s["input"] for s in animation["samplers"]}
        assert len(inputs) == 1, f"{clip}: samplers on {len(inputs)} different inputs"
        times = accessor(doc, blob, inputs.pop())
        for channel in animation["channels"]:
            sampler = animation["samplers"][channel["sampler"]]
            assert sampler.get("interpolation", "LINEAR") != "CUBICSPLINE", clip
            values = accessor(doc, blob, sampler["output"]).reshape(len(times), -1)
            target = channel["target"]
            channels.append((target["node"], target["path"], values))
    parents = {c: i for i, n in enumerate(nodes) for c in n.get("children", [])}
    keys = len(times)
    # per node per key: T, R, S, morph weights
    trs = []
    for node in nodes:
        if "matrix" in node:
            trs.append({"matrix": np.array(node["matrix"], np.float64).reshape(4, 4).T})
            continue
        mesh = doc["meshes"][node["mesh"]] if "mesh" in node else {}
        trs.append({
            "translation": np.tile(node.get("translation", [0.0, 0, 0]), (keys, 1)),
            "rotation": np.tile(node.get("rotation", [0.0, 0, 0, 1]), (keys, 1)),
            "scale": np.tile(node.get("scale", [1.0, 1, 1]), (keys, 1)),
            "weights": np.tile(node.get("weights", mesh.get("weights", [])), (keys, 1)),
        })  # fmt: skip
    for node, path_name, values in channels:
        trs[node][path_name] = values
    worlds = np.zeros((len(nodes), keys, 4, 4))
    done: set[int] = set()

    def world(i: int) -> F64:
        if i not in done:
            local = trs[i].get("matrix")
            if local is not None:
                local = np.broadcast_to(local, (keys, 4, 4))
            else:
                local = np.stack([
                    _trs(trs[i]["translation"][k], trs[i]["rotation"][k], trs[i]["scale"][k])
                    for k in range(keys)
                ])  # fmt: skip
            worlds[i] = local if i not in parents else world(parents[i]) @ local
            done.add(i)
        return worlds[i]

    for i in range(len(nodes)):
        world(i)
    meshes: dict[str, F64] = {}
    for i, node in enumerate(nodes):
        if "mesh" not in node:
            continue
        parts = []
        for prim in doc["meshes"][node["mesh"]]["primitives"]:
            base = accessor(doc, blob, prim["attributes"]["POSITION"])
            pts = np.broadcast_to(base, (keys, *base.shape)).copy()
            for t, target in enumerate(prim.get("targets", [])):
                delta = accessor(doc, blob, target["POSITION"])
                pts += trs[i]["weights"][:, t, None, None] * delta[None]
            homo = np.concatenate([pts, np.ones((*pts.shape[:2], 1))], -1)
            if "skin" in node:
                skin = doc["skins"][node["skin"]]
                joints = np.array(skin["joints"])
                ibm = accessor(doc, blob, skin["inverseBindMatrices"]).reshape(-1, 4, 4)
                mats = worlds[joints].transpose(1, 0, 2, 3) @ ibm.transpose(0, 2, 1)  # (K, J, 4, 4)
                j = accessor(doc, blob, prim["attributes"]["JOINTS_0"]).astype(np.int64)
                w = accessor(doc, blob, prim["attributes"]["WEIGHTS_0"])
                blend = np.einsum("vi,kvirc->kvrc", w, mats[:, j])
                out = np.einsum("kvrc,kvc->kvr", blend, homo)
            else:
                out = np.einsum("krc,kvc->kvr", worlds[i], homo)
            parts.append(out[..., :3])
        meshes[node["name"]] = np.concatenate(parts, 1)
    names = {node.get("name", str(i)): worlds[i] for i, node in enumerate(nodes)}
    return {"times": times, "meshes": meshes, "nodes": names}
