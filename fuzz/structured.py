"""Structure-aware generators: hostile glTF fields, multi-surface MD3s, many-skin MD2s and
hostile MD3 builder inputs.

Byte mutation of real files rarely produces these shapes (a valid GLB whose accessor fields are
negative, an MD3 whose surfaces share one block, a model naming thousands of skins), so they
are built here from a random generator and held to the same invariants and budgets as every
fuzz input (see fuzz/harness.py and fuzz/README.md):

* only :class:`quakemodels.ModelFormatError` escapes (or a clean import);
* ``Md3.build`` either raises a ModelFormatError or gives a model that reads back the same
  (facade and the independent qfiles.h reader, positions within 1/128) and checks cleanly;
* the model parsing path (load, every array, check): time ≤ 100 ms per MB of input + 30 ms,
  peak traced memory ≤ 20 × the input + 256 KB (``harness.check_budgets``);
* a glTF import: peak traced memory ≤ 20 × the input + 16 MB (``ImportLimits.min_positions``
  lets any file decode 65,536 positions), time ≤ 4 × the parsing budget + 0.5 s (traced).

    python fuzz/structured.py [--seconds N] [--seed S]   # exit 1 on a failure
"""

from __future__ import annotations

import copy
import io
import json
import random
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))

import harness  # noqa: E402
import hostile  # noqa: E402
import md3ref  # noqa: E402
from gltfbuilder import doc, glb  # noqa: E402
from md2builder import Md2Spec, build  # noqa: E402

# JSON values that break naive readers: signs, zero, the int32/uint32/float edges, wrong types.
JSON_SPECIAL: tuple[Any, ...] = (
    -1, -4096, 0, 1, 3, 4, 5, 6, 12, 24, 252, 256, 2**31, 2**32, 2**40, -(2**63),
    1.5, 1e400, float("nan"), None, True, "0", [], {},
)  # fmt: skip
ACCESSOR_FIELDS = ("bufferView", "byteOffset", "componentType", "count", "type", "normalized")
VIEW_FIELDS = ("buffer", "byteOffset", "byteLength", "byteStride")
URIS = ("x.bin", "http://h/x", "file:///etc/passwd", "../x", "%2e%2e/x", "data:,x",
        "data:application/octet-stream;base64,AAAA")  # fmt: skip
TYPES = ("SCALAR", "VEC2", "VEC3", "VEC4", "MAT4", "vec3")
NODE_FIELDS = ("mesh", "children", "translation", "rotation", "scale", "name", "extras")


def gltf_case(rng: random.Random) -> tuple[str, bytes]:
    """A GLB: the one-triangle document (with 0-40 targets, some shared) with 1-4 accessor,
    view, buffer or primitive fields set to hostile values."""
    targets = rng.choice((0, 0, 1, 3, 40))
    document, blob = doc(targets=targets, vertices=rng.choice((3, 3, 6, 300)))
    # a node tree for read_gltf_scene (read_gltf ignores nodes): a mesh node, a tag node with
    # per-frame extras, and a part node holding the tag
    document["nodes"] = [
        {"name": "body", "mesh": 0},
        {"name": "tag_x", "translation": [0, 0, 1], "rotation": [0, 0, 0, 1],
         "extras": {"frames": {"translation": [[0, 0, 1]] * max(targets, 1),
                               "rotation": [[0, 0, 0, 1]] * max(targets, 1)}}},
        {"name": "part", "children": [0, 1]},
    ]  # fmt: skip
    document["scenes"] = [{"nodes": [2]}]
    labels = []
    for _ in range(rng.randint(1, 4)):
        kind = rng.randrange(6)
        value = rng.choice(JSON_SPECIAL)
        if kind == 5:
            node = rng.choice(document["nodes"])
            field = rng.choice(NODE_FIELDS)
            # an earlier change may have made the extras, or their frames, a hostile value
            extras = node.get("extras")
            frames = extras.get("frames") if isinstance(extras, dict) else None
            target = frames if field == "rotation" and isinstance(frames, dict) else node
            target[field] = copy.deepcopy(value)
            labels.append(f"node {field}={value!r}")
            continue
        if kind == 0:
            field = rng.choice(ACCESSOR_FIELDS)
            value = rng.choice(TYPES) if field == "type" and rng.random() < 0.5 else value
            target = rng.choice(document["accessors"])
        elif kind == 1:
            field = rng.choice(VIEW_FIELDS)
            target = rng.choice(document["bufferViews"])
        elif kind == 2:
            field = rng.choice(("byteLength", "uri"))
            if field == "uri":
                value = rng.choice(URIS)
            target = document["buffers"][0]
        elif kind == 3:
            field = rng.choice(("POSITION", "TEXCOORD_0"))
            target = document["meshes"][0]["primitives"][0]["attributes"]
        else:
            field = rng.choice(("indices", "mode", "targets"))
            target = document["meshes"][0]["primitives"][0]
        target[field] = copy.deepcopy(value)
        labels.append(f"{field}={value!r}")
    try:
        data = glb(document, blob)
    except ValueError:  # json.dumps refuses nothing we pass, but keep the generator total
        data = glb({}, blob)
    if rng.random() < 0.1:  # the container: a chunk length or the total length
        at = rng.choice((8, 12, 20 + len(data[20:]) // 2))
        value = rng.choice((0, 2**31, 2**32 - 1, len(data) + 1))
        data = data[:at] + value.to_bytes(4, "little") + data[at + 4 :]
        labels.append(f"word@{at}={value}")
    return "gltf " + ", ".join(labels), data


def md3_case(rng: random.Random) -> tuple[str, bytes]:
    """A multi-surface MD3 whose surfaces share or overlap their sections (or do not)."""
    surfaces = rng.randint(1, 8)
    vertices = rng.choice((3, 8, 64))
    frames = rng.choice((1, 2, 5))
    data = bytearray(hostile.shared_sections_md3(surfaces, vertices, frames))
    label = f"md3 shared {surfaces}×{vertices}×{frames}"
    if rng.random() < 0.5:  # move one surface's section field somewhere else
        k = rng.randrange(surfaces)
        field = rng.choice((84, 88, 92, 96, 100, 104))  # ofs_triangles .. ofs_end
        at = 108 + frames * 56 + k * 108 + field
        value = rng.choice((0, 108, -108, 4, 2**31 - 1, rng.randrange(-4096, 4096)))
        data[at : at + 4] = value.to_bytes(4, "little", signed=True)
        label += f" surface {k} +{field}={value}"
    return label, bytes(data)


def md2_case(rng: random.Random) -> tuple[str, bytes]:
    """An MD2 with many skin names: deep, repeated, unsafe, high-byte, empty."""
    count = rng.choice((1, 33, 200, 2000))
    pool = [b"a/" * rng.randint(0, 30) + b"x.pcx", b"/etc/passwd", b"..\\..\\x.pcx", b"C:x",
            b"sk\xe9n.pcx", b"", b"skin.pcx", b"SKIN.PCX", b"x" * 64]  # fmt: skip
    names = [rng.choice(pool)[-63:] for _ in range(count)]
    return f"md2 {count} skins", build(Md2Spec(skins=names))


def md2_amplifier_case(rng: random.Random) -> tuple[str, bytes]:
    """The corner-explosion and flat-triangle shapes at random small sizes."""
    if rng.random() < 0.5:
        v, t, f = rng.choice((4, 16, 64)), rng.choice((4, 16, 64)), rng.choice((1, 10, 50))
        return f"md2 corners {v}×{t}×{f}", hostile.corner_explosion_md2(v, t, f)
    f, n = rng.choice((1, 100, 1000)), rng.choice((1, 100, 1000))
    return f"md2 flat {f}×{n}", hostile.flat_md2(f, n)


# -- the MD3 builder's inputs ---------------------------------------------------------------------

BAD_FLOATS = (float("nan"), float("inf"), -float("inf"), 1e6, 512.0, -512.0078125, 1e39, -0.0)
BAD_INDICES = (-1, 3, 8, 1000, 2**31, 2**40)
BAD_NAMES = ("x" * 64, "x" * 63, "é", "\0", "", "a,b", "../../x")


def md3_build_case(rng: random.Random) -> tuple[str, bytes]:
    """Arrays and names for ``Md3.build``, one to three of them hostile: non-finite or
    out-of-range positions, triangle indices out of range, too many vertices, triangles, tags
    or surfaces, bad normals, singular or non-finite tag axes, names too long or not ASCII.
    Stored as an ``.npz`` (names as one JSON string) so the case is bytes like the others."""
    f, n = rng.choice((1, 2, 3)), rng.choice((3, 4, 8, 999, 1000))
    t = rng.choice((1, 2, 5, 1999, 2000)) if n > 8 else rng.choice((1, 2, 5))
    np_rng = np.random.default_rng(rng.randrange(2**32))
    arrays: dict[str, Any] = {
        "positions": np_rng.uniform(-100, 100, (f, n, 3)),
        "triangles": np_rng.integers(0, n, (t, 3)),
        "texcoords": np_rng.uniform(0, 1, (n, 2)),
        "normals": np_rng.normal(size=(f, n, 3)),
        "origins": np_rng.uniform(-50, 50, (f, 1, 3)),
        "axes": np.broadcast_to(np.eye(3), (f, 1, 3, 3)).copy(),
    }
    meta: dict[str, Any] = {"name": "models/x.md3", "surface": "s", "shader": "models/x/s",
                            "tag": "tag_x", "frames": [f"f{i}" for i in range(f)],
                            "surfaces": 1, "tags": 1}  # fmt: skip
    labels = []
    short: set[str] = set()
    for _ in range(rng.randint(1, 3)):
        kind = rng.randrange(9)
        if kind == 0:
            value = rng.choice(BAD_FLOATS)
            arrays["positions"][rng.randrange(f), rng.randrange(n), rng.randrange(3)] = value
            labels.append(f"position={value}")
        elif kind == 1:
            value = rng.choice(BAD_INDICES)
            arrays["triangles"][rng.randrange(t), rng.randrange(3)] = value
            labels.append(f"index={value}")
        elif kind == 2:
            value = rng.choice(BAD_FLOATS)
            arrays["texcoords"][rng.randrange(n), rng.randrange(2)] = value
            labels.append(f"texcoord={value}")
        elif kind == 3:
            value = rng.choice((0.0, float("nan")))
            arrays["normals"][rng.randrange(f), rng.randrange(n)] = value
            labels.append(f"normal={value}")
        elif kind == 4:
            axes = arrays["axes"][rng.randrange(f), 0]
            change = rng.choice(("zero", "nan", "flat", "row"))
            if change == "zero":
                axes[:] = 0
            elif change == "nan":
                axes[rng.randrange(3), rng.randrange(3)] = float("nan")
            elif change == "flat":
                axes[2] = axes[0]  # two equal rows: singular
            else:
                axes[rng.randrange(3)] = 0
            labels.append(f"axes {change}")
        elif kind == 5:
            key = rng.choice(("name", "surface", "shader", "tag"))
            meta[key] = rng.choice(BAD_NAMES)
            labels.append(f"{key}={meta[key][:8]!r}")
        elif kind == 6:
            meta["frames"][rng.randrange(f)] = rng.choice(("x" * 16, "x" * 15, "é"))
            labels.append("frame name")
        elif kind == 7:
            key, value = rng.choice((("tags", 17), ("tags", 16), ("surfaces", 33)))
            meta[key] = value
            labels.append(f"{key}={value}")
        else:
            short.add(rng.choice(("positions", "triangles", "texcoords", "normals", "axes")))
    for key in sorted(short):  # last: the other changes index the full shapes
        arrays[key] = arrays[key][..., :-1]
        labels.append(f"{key} short")
    out = io.BytesIO()
    np.savez(out, meta=np.array(json.dumps(meta)), **arrays)
    return "md3build " + ", ".join(labels), out.getvalue()


def run_build(data: bytes) -> None:
    """One builder case: a clean ModelFormatError, or a model that reads back the same through
    the facade and the independent qfiles.h reader and checks without an internal finding."""
    from quakemodels import Md3, ModelFormatError
    from quakemodels.formats.md3.write import SurfaceData, TagData

    z = np.load(io.BytesIO(data), allow_pickle=False)
    meta = json.loads(str(z["meta"]))
    surface = SurfaceData(meta["surface"], z["positions"], z["triangles"], z["texcoords"],
                          normals=z["normals"], shaders=[meta["shader"]])  # fmt: skip
    tags = [TagData(meta["tag"] if k == 0 else f"tag_{k}", z["origins"][:, 0], z["axes"][:, 0])
            for k in range(meta["tags"])]  # fmt: skip
    try:
        result = Md3.build([surface] * meta["surfaces"], tags=tags, frame_names=meta["frames"],
                           name=meta["name"])  # fmt: skip
    except ModelFormatError:
        return
    m = result.model
    assert Md3.from_bytes(m.data).to_bytes() == m.data
    assert "internal" not in {x.code for x in m.check("quake3")}
    ref = md3ref.read(m.data)
    for s in ref.surfaces:
        assert np.abs(s.positions() - z["positions"]).max() <= 1 / 128 + 1e-9


GENERATORS: tuple[Callable[[random.Random], tuple[str, bytes]], ...] = (
    gltf_case,
    md3_case,
    md2_case,
    md2_amplifier_case,
    md3_build_case,
)


def cases(seed: int, count: int) -> Iterator[tuple[str, bytes]]:
    """``count`` inputs from every generator in turn, deterministic for ``seed``."""
    rng = random.Random(seed)
    for k in range(count):
        yield GENERATORS[k % len(GENERATORS)](rng)


def run_case(label: str, data: bytes, *, budgets: bool = True) -> None:
    """One structured input through the harness; raises on an escape or a budget overrun."""
    if label.startswith("md3build"):
        run_build(data)
        return
    if label.startswith("gltf"):
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "in.glb"
            path.write_bytes(data)
            harness.exercise_import(path, budgets=budgets)
        return
    harness.exercise(data, heavy=len(data) <= harness.HEAVY_LIMIT)
    if budgets:
        harness.check_budgets(data)


def main(argv: list[str] | None = None) -> int:
    return harness.drive_cases("structured", __doc__, cases, run_case, argv)


if __name__ == "__main__":
    raise SystemExit(main())
