"""Winding: what renderers show as the front, both ways, every format.

Quake's files (MD2, MD3, MDL) store triangles clockwise seen from outside; glTF, OBJ, OpenGL's
default, three.js and Blender take counter-clockwise triangles as front faces. The exports and
the render-ready meshes must be counter-clockwise, the imports must be stored clockwise, and
both are measured here from the files themselves (not through the package's readers of them):
a triangle "agrees" when its counter-clockwise normal points the way its vertex normals do,
and a closed mesh's signed volume is positive when counter-clockwise.
"""

from __future__ import annotations

import base64
import json
import struct
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from conftest import CORPUS, IN_CI, corpus_params
from md2builder import Md2Spec, build

import quakemodels
from quakemodels import Md2, Md3, Mdl
from quakemodels.cli import main
from quakemodels.core.mesh import FLIP_BY_COLUMNS, flip_winding

F64 = npt.NDArray[np.float64]

_COMPONENTS = {5120: "i1", 5121: "u1", 5122: "<i2", 5123: "<u2", 5125: "<u4", 5126: "<f4"}
_WIDTHS = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4}


def _glb(path: Path) -> tuple[dict[str, Any], bytes]:
    """The JSON and BIN chunk of a .glb, or the JSON and data-URI buffer of a .gltf."""
    data = path.read_bytes()
    if data[:4] == b"glTF":
        (json_len,) = struct.unpack_from("<I", data, 12)
        doc = json.loads(data[20 : 20 + json_len])
        return doc, data[20 + json_len + 8 :]
    doc = json.loads(data)
    uri = doc["buffers"][0]["uri"]
    return doc, base64.b64decode(uri.split(",", 1)[1])


def _accessor(doc: dict[str, Any], blob: bytes, index: int) -> F64:
    acc = doc["accessors"][index]
    view = doc["bufferViews"][acc["bufferView"]]
    width = _WIDTHS[acc["type"]]
    dtype = np.dtype(_COMPONENTS[acc["componentType"]])
    start = view.get("byteOffset", 0) + acc.get("byteOffset", 0)
    stride = view.get("byteStride", width * dtype.itemsize)
    rows = np.ndarray((acc["count"], width), dtype, blob, start, strides=(stride, dtype.itemsize))
    return rows.astype(np.float64)


def gltf_primitives(path: Path) -> list[tuple[F64, F64, npt.NDArray[np.int64]]]:
    """(positions (N,3), normals (N,3), triangles (T,3)) of every primitive of a glTF, as
    stored (the base pose)."""
    doc, blob = _glb(path)
    out = []
    for mesh in doc["meshes"]:
        for prim in mesh["primitives"]:
            positions = _accessor(doc, blob, prim["attributes"]["POSITION"])
            normals = _accessor(doc, blob, prim["attributes"]["NORMAL"])
            tri = _accessor(doc, blob, prim["indices"]).astype(np.int64).reshape(-1, 3)
            out.append((positions, normals, tri))
    return out


def obj_primitives(path: Path) -> list[tuple[F64, F64, npt.NDArray[np.int64]]]:
    """One (positions, normals, triangles) per OBJ file, corners made one per v/vt/vn triple."""
    v: list[list[float]] = []
    vn: list[list[float]] = []
    corners: list[tuple[int, int]] = []
    for line in path.read_text().splitlines():
        words = line.split()
        if not words:
            continue
        if words[0] == "v":
            v.append([float(x) for x in words[1:4]])
        elif words[0] == "vn":
            vn.append([float(x) for x in words[1:4]])
        elif words[0] == "f":
            face = [w.split("/") for w in words[1:]]
            for k in range(1, len(face) - 1):  # a fan, as OBJ readers triangulate
                for c in (face[0], face[k], face[k + 1]):
                    corners.append((int(c[0]) - 1, int(c[2]) - 1))
    pos, nor = np.array(v), np.array(vn)
    pairs = np.array(corners)
    return [(pos[pairs[:, 0]], nor[pairs[:, 1]], np.arange(len(pairs)).reshape(-1, 3))]


def agreement(prims: list[tuple[F64, F64, npt.NDArray[np.int64]]]) -> tuple[int, int]:
    """(agreeing, counted): triangles whose counter-clockwise normal points within 90° of the
    sum of their corners' normals, among those with an area and a normal sum and without a
    back-to-back twin (a triangle over the same three points: a double-sided plate, whose
    shared vertex normals cannot agree with both sides; assimp's stegosaur has 34 pairs)."""
    agree = counted = 0
    for positions, normals, tri in prims:
        p0, p1, p2 = (positions[tri[:, k]] for k in range(3))
        face = np.cross(p1 - p0, p2 - p0)
        corner_sum = normals[tri].sum(axis=1)
        dot = (face * corner_sum).sum(axis=1)
        corners = np.sort(positions[tri].view([("", positions.dtype, 3)])[..., 0], axis=1)
        _, first, count = np.unique(corners, axis=0, return_inverse=True, return_counts=True)
        single = count[first.reshape(-1)] == 1
        valid = (np.linalg.norm(face, axis=1) > 1e-9) & (np.linalg.norm(corner_sum, axis=1) > 1e-6)
        valid &= single
        agree += int((dot[valid] > 0).sum())
        counted += int(valid.sum())
    return agree, counted


def signed_volume(positions: npt.ArrayLike, triangles: npt.ArrayLike) -> float:
    """The signed volume of a closed mesh: positive when its triangles wind counter-clockwise
    seen from outside."""
    p = np.asarray(positions, np.float64)
    t = np.asarray(triangles, np.int64)
    p0, p1, p2 = p[t[:, 0]], p[t[:, 1]], p[t[:, 2]]
    return float((p0 * np.cross(p1, p2)).sum() / 6.0)


def _corpus_inputs() -> list[object]:
    """Every corpus model and both Quake III players, as pytest parameters."""
    params = corpus_params("md2") + corpus_params("md3") + corpus_params("mdl")
    players = CORPUS / "q3" / "models" / "players"
    folders = sorted(p for p in players.glob("*") if p.is_dir()) if players.is_dir() else []
    if IN_CI and len(folders) < 2:
        raise RuntimeError(f"CI=true but {players} has no players")
    params += [pytest.param(p, id=f"player-{p.name}") for p in folders]
    return params


SHARE = 0.9


@pytest.mark.parametrize("path", _corpus_inputs())
def test_exports_wind_counter_clockwise(path: Path, tmp_path: Path) -> None:
    """glTF (binary and text) and OBJ exports of every corpus model: the share of triangles
    whose counter-clockwise normal agrees with the exported vertex normals is ≥ 0.9 (it was
    0.01 when the indices were written in Quake's order)."""
    glb, gltf, obj = tmp_path / "m.glb", tmp_path / "m.gltf", tmp_path / "m.obj"
    for out in (glb, gltf, obj):
        assert main(["export", str(path), "-o", str(out), "--quiet"]) == 0
    for prims in (gltf_primitives(glb), gltf_primitives(gltf), obj_primitives(obj)):
        agree, counted = agreement(prims)
        assert counted > 0
        assert agree / counted >= SHARE, f"{path.name}: {agree}/{counted}"


@pytest.mark.parametrize("path", corpus_params("md2") + corpus_params("mdl"))
def test_one_frame_and_clip_exports_wind_counter_clockwise(path: Path, tmp_path: Path) -> None:
    model = quakemodels.load(path)
    frame, clip = tmp_path / "frame.glb", tmp_path / "clip.glb"
    last = model.num_frames - 1
    assert main(["export", str(path), "-o", str(frame), "--frame", str(last), "--quiet"]) == 0
    name = next(iter(model.animations))
    assert main(["export", str(path), "-o", str(clip), "--clip", name, "--quiet"]) == 0
    for out in (frame, clip):
        agree, counted = agreement(gltf_primitives(out))
        assert agree / counted >= SHARE, f"{out.name}: {agree}/{counted}"


@pytest.mark.parametrize("path", corpus_params("md2") + corpus_params("md3") + corpus_params("mdl"))
def test_api_meshes_wind_like_the_exports(path: Path) -> None:
    """``meshes()`` is render-ready: counter-clockwise, the file's ``triangles`` flipped."""
    model = quakemodels.load(path)
    meshes = model.meshes(0)
    agree, counted = agreement(
        [(m.positions.astype(np.float64), m.normals.astype(np.float64), m.indices) for m in meshes]
    )
    assert agree / counted >= SHARE, f"{path.name}: {agree}/{counted}"
    if isinstance(model, Md3):
        for surface, mesh in zip(model.surfaces, meshes, strict=True):
            np.testing.assert_array_equal(mesh.indices, flip_winding(surface.triangles))
    else:  # the mesh's corners are (vertex, texcoord) pairs: map back to stored vertices
        stored = np.asarray(model.triangles)
        np.testing.assert_array_equal(meshes[0].vertex_ids[meshes[0].indices], flip_winding(stored))


# -- a correct box, converted into every format -------------------------------------------------

# A 40 x 30 x 20 box centred off the origin, 24 vertices (4 per face), 12 triangles
# counter-clockwise seen from outside, outward normals: a file any glTF tool would write.
_CENTRE = np.array([3.0, -2.0, 12.0])
_HALF = np.array([20.0, 15.0, 10.0])


def _box() -> tuple[F64, F64, npt.NDArray[np.int64], F64]:
    positions, normals, uvs, tris = [], [], [], []
    for axis in range(3):
        for sign in (1.0, -1.0):
            n = np.zeros(3)
            n[axis] = sign
            u = np.zeros(3)
            u[(axis + 1) % 3] = 1.0
            v = np.cross(n, u)  # (u, v, n) right-handed: u → v turns counter-clockwise
            base = len(positions)
            for a, b in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
                positions.append(_CENTRE + _HALF * (n + a * u + b * v))
                normals.append(n)
                uvs.append([(a + 1) / 4 + (axis / 4), (b + 1) / 4])
            tris += [[base, base + 1, base + 2], [base, base + 2, base + 3]]
    return np.array(positions), np.array(normals), np.array(tris), np.array(uvs)


def _box_gltf(path: Path) -> None:
    """The box as a .gltf in glTF's Y-up axes (glTF (x, y, z) = Quake (y, z, x))."""
    positions, normals, tris, uvs = _box()
    to_gltf = [1, 2, 0]
    parts = [
        positions[:, to_gltf].astype("<f4").tobytes(),
        normals[:, to_gltf].astype("<f4").tobytes(),
        uvs.astype("<f4").tobytes(),
        tris.astype("<u2").tobytes(),
    ]
    views, offset = [], 0
    for part in parts:
        views.append({"buffer": 0, "byteOffset": offset, "byteLength": len(part)})
        offset += len(part)
    blob = b"".join(parts)
    p = positions[:, to_gltf]
    doc = {
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": [{"mesh": 0, "name": "box"}],
        "meshes": [
            {"primitives": [{"attributes": {"POSITION": 0, "NORMAL": 1, "TEXCOORD_0": 2},
                             "indices": 3}]}
        ],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": 24, "type": "VEC3",
             "min": p.min(axis=0).tolist(), "max": p.max(axis=0).tolist()},
            {"bufferView": 1, "componentType": 5126, "count": 24, "type": "VEC3"},
            {"bufferView": 2, "componentType": 5126, "count": 24, "type": "VEC2"},
            {"bufferView": 3, "componentType": 5123, "count": 36, "type": "SCALAR"},
        ],
        "bufferViews": views,
        "buffers": [
            {"byteLength": len(blob),
             "uri": "data:application/octet-stream;base64," + base64.b64encode(blob).decode()}
        ],
    }  # fmt: skip
    path.write_text(json.dumps(doc))


def _box_obj(path: Path) -> None:
    positions, normals, tris, uvs = _box()
    lines = [f"v {p[1]:.6f} {p[2]:.6f} {p[0]:.6f}" for p in positions]
    lines += [f"vt {u:.6f} {1 - v:.6f}" for u, v in uvs]
    lines += [f"vn {n[1]:.6f} {n[2]:.6f} {n[0]:.6f}" for n in normals]
    lines += ["f " + " ".join(f"{i + 1}/{i + 1}/{i + 1}" for i in t) for t in tris]
    path.write_text("\n".join(lines) + "\n")


def test_the_box_is_what_it_claims() -> None:
    positions, normals, tris, _ = _box()
    volume = 40 * 30 * 20
    assert signed_volume(positions, tris) == pytest.approx(volume)
    agree, counted = agreement([(positions, normals, tris)])
    assert (agree, counted) == (12, 12)


@pytest.mark.parametrize("source", ["gltf", "obj"])
@pytest.mark.parametrize("suffix", [".md2", ".md3", ".mdl"])
def test_a_correct_box_is_stored_clockwise(source: str, suffix: str, tmp_path: Path) -> None:
    """A counter-clockwise box from glTF or OBJ converted to each format: the file stores it
    clockwise (negative signed volume over ``triangles``, as Quake draws it), its stored
    normals point out, and exporting it again gives counter-clockwise triangles."""
    src = tmp_path / f"box.{source}"
    (_box_gltf if source == "gltf" else _box_obj)(src)
    out = tmp_path / f"box{suffix}"
    assert main(["convert", str(src), str(out)]) == 0
    model = quakemodels.load(out)
    volume = 40 * 30 * 20
    if isinstance(model, Md3):
        surface = model.surfaces[0]
        positions, stored, normals = surface.positions[0], surface.triangles, surface.normals[0]
    else:
        assert isinstance(model, Md2 | Mdl)
        positions, stored, normals = model.positions[0], model.triangles, model.normals[0]
    # quantized positions: MD2/MDL to a 255-step grid, MD3 to 1/64 unit
    assert signed_volume(positions, stored) == pytest.approx(-volume, rel=0.02)
    outward = positions - _CENTRE
    assert ((normals * outward).sum(axis=1) > 0).all()
    again = tmp_path / "again.glb"
    assert main(["export", str(out), "-o", str(again), "--quiet"]) == 0
    (p, n, t), *_ = gltf_primitives(again)
    assert signed_volume(p, t) == pytest.approx(volume, rel=0.02)
    assert agreement([(p, n, t)]) == (12, 12)


def test_md2_mesh_flips_the_stored_order() -> None:
    """The raw ``triangles`` stay as stored; ``mesh().indices`` are the same corners 0, 2, 1."""
    spec = Md2Spec(triangles=[(0, 1, 2, 0, 1, 2), (0, 2, 3, 0, 2, 3)])
    m = Md2.from_bytes(build(spec))
    assert m.triangles.tolist() == [[0, 1, 2], [0, 2, 3]]
    mesh = m.mesh(0)
    assert mesh.vertex_ids[mesh.indices].tolist() == [[0, 2, 1], [0, 3, 2]]


def test_flip_winding_is_its_own_inverse() -> None:
    t = np.arange(12, dtype=np.uint32).reshape(4, 3)
    assert flip_winding(t).tolist() == [[0, 2, 1], [3, 5, 4], [6, 8, 7], [9, 11, 10]]
    np.testing.assert_array_equal(flip_winding(flip_winding(t)), t)
    assert flip_winding(t).dtype == np.uint32


@pytest.mark.parametrize("count", [0, FLIP_BY_COLUMNS - 1, FLIP_BY_COLUMNS, 5000])
@pytest.mark.parametrize("dtype", [np.uint32, np.int32, np.int16])
def test_flip_winding_by_rows_and_by_columns_agree(count: int, dtype: type) -> None:
    """Both ways of flipping (a take below FLIP_BY_COLUMNS rows, column copies from it on)
    swap corners 1 and 2 of every row, and give a new C-ordered array of the same dtype."""
    t = np.random.default_rng(count).integers(0, 30000, (count, 3)).astype(dtype)
    t.setflags(write=False)  # the cached triangles are read-only: the flip makes a new array
    flipped = flip_winding(t)
    assert flipped.dtype == t.dtype and flipped.shape == t.shape and flipped.flags.c_contiguous
    assert flipped.flags.writeable and not np.shares_memory(flipped, t)
    np.testing.assert_array_equal(flipped, t[:, [0, 2, 1]])
