"""Structure-aware generators: hostile glTF fields, multi-surface MD3s and many-skin MD2s.

Byte mutation of real files rarely produces these shapes (a valid GLB whose accessor fields are
negative, an MD3 whose surfaces share one block, a model naming thousands of skins), so they
are built here from a random generator and held to the same invariants and budgets as every
fuzz input (see fuzz/harness.py and fuzz/README.md):

* only :class:`quakemodels.ModelFormatError` escapes (or a clean import);
* the model parsing path (load, every array, check): time ≤ 100 ms per MB of input + 30 ms,
  peak traced memory ≤ 20 × the input + 256 KB (``harness.check_budgets``);
* a glTF import: peak traced memory ≤ 20 × the input + 16 MB (``ImportLimits.min_positions``
  lets any file decode 65,536 positions), time ≤ 4 × the parsing budget + 0.5 s (traced).

    python fuzz/structured.py [--seconds N] [--seed S]   # exit 1 on a failure
"""

from __future__ import annotations

import argparse
import copy
import random
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))

import harness  # noqa: E402
import hostile  # noqa: E402
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


def gltf_case(rng: random.Random) -> tuple[str, bytes]:
    """A GLB: the one-triangle document (with 0-40 targets, some shared) with 1-4 accessor,
    view, buffer or primitive fields set to hostile values."""
    targets = rng.choice((0, 0, 1, 3, 40))
    document, blob = doc(targets=targets, vertices=rng.choice((3, 3, 6, 300)))
    labels = []
    for _ in range(rng.randint(1, 4)):
        kind = rng.randrange(5)
        value = rng.choice(JSON_SPECIAL)
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


GENERATORS: tuple[Callable[[random.Random], tuple[str, bytes]], ...] = (
    gltf_case,
    md3_case,
    md2_case,
    md2_amplifier_case,
)


def cases(seed: int, count: int) -> Iterator[tuple[str, bytes]]:
    """``count`` inputs from every generator in turn, deterministic for ``seed``."""
    rng = random.Random(seed)
    for k in range(count):
        yield GENERATORS[k % len(GENERATORS)](rng)


def run_case(label: str, data: bytes, *, budgets: bool = True) -> None:
    """One structured input through the harness; raises on an escape or a budget overrun."""
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
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    deadline = time.monotonic() + args.seconds
    runs = failures = 0
    for label, data in cases(args.seed, 10**9):
        if time.monotonic() >= deadline:
            break
        runs += 1
        try:
            run_case(label, data)
        except Exception:
            failures += 1
            print(f"{label} ({len(data)} bytes):", file=sys.stderr)
            traceback.print_exc()
    print(f"structured: {runs} inputs, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
