"""The first render-ready mesh: opening reads the header through the generated layout (the
generated parser only when asked for), and ``mesh(frame)`` on a fresh model takes a path of
its own (stored indices read in place, one frame decoded). Both must give exactly what the
generated parser and the full arrays give, and the same errors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import md2builder
import md3builder
import numpy as np
import pytest
from conftest import corpus_params

import quakemodels
from quakemodels.core import mesh as mesh_module
from quakemodels.core.mesh import Mesh, corner_table, stored_corner_table
from quakemodels.core.sections import read_record
from quakemodels.errors import BadValueError
from quakemodels.formats.md2 import layout as md2_layout
from quakemodels.formats.md3 import layout as md3_layout
from quakemodels.formats.mdl import layout as mdl_layout

MESH_FIELDS = ("positions", "normals", "uvs", "indices", "vertex_ids", "texcoord_ids")
ALL_MODELS = corpus_params("md2") + corpus_params("md3") + corpus_params("mdl")


def _spec_value(value: Any) -> Any:
    if hasattr(value, "x"):  # a generated vec3
        return (value.x, value.y, value.z)
    if isinstance(value, str):
        return value
    return value


@pytest.mark.parametrize("path", ALL_MODELS)
def test_header_record_equals_the_generated_parser(path: Path) -> None:
    m = quakemodels.load(path)
    assert "_spec_object" not in m.__dict__  # opening did not run the generated parser
    record = m._h._asdict()
    spec = m.spec
    assert "_spec_object" in m.__dict__ or path.suffix == ".mdl"
    header = getattr(spec, "header", spec)  # the MDL spec nests its header
    compared = 0
    for name, value in record.items():
        expected = _spec_value(getattr(header, name))
        if isinstance(expected, str):  # the MD3 model name: text up to the NUL
            assert value.partition(b"\0")[0].decode("ascii") == expected
        else:
            assert value == expected, name
            assert type(value) is type(expected), name
        compared += 1
    assert compared == len(m.HEADER_FIELDS) >= 12


@pytest.mark.parametrize("path", corpus_params("md2") + corpus_params("md3"))
def test_fresh_mesh_equals_the_full_arrays_mesh(path: Path) -> None:
    data = path.read_bytes()
    last = quakemodels.load(data).num_frames - 1
    for frame in (0, last, -1):
        fresh = quakemodels.load(data).meshes(frame)
        full = quakemodels.load(data).load_all()
        if path.suffix == ".md3":
            for s in full.surfaces:
                s.load_all()
        decoded = full.meshes(frame)
        assert len(fresh) == len(decoded) >= 1
        for a, b in zip(fresh, decoded, strict=True):
            for name in MESH_FIELDS:
                x, y = getattr(a, name), getattr(b, name)
                assert x.dtype == y.dtype and x.shape == y.shape, name
                assert x.tobytes() == y.tobytes(), name
                assert not x.flags.writeable, name


def test_header_records_read_like_numpy() -> None:
    rng = np.random.default_rng(7)
    for dtype in (md2_layout.HEADER, md3_layout.HEADER, md3_layout.SURFACE_HEADER):
        data = rng.integers(0, 256, dtype.itemsize * 3, dtype=np.uint8).tobytes()
        for offset in (0, 3, dtype.itemsize):
            got = read_record(data, dtype, offset)
            want = np.frombuffer(data, dtype, 1, offset).tolist()[0]
            assert got == want
            assert [type(v) for v in got] == [type(v) for v in want]
    # nested records (the MDL header's vectors) keep numpy's nested tuples
    data = bytes(range(mdl_layout.HEADER.itemsize))
    assert read_record(data, mdl_layout.HEADER, 0)[2] == tuple(
        np.frombuffer(data, mdl_layout.HEADER, 1)["scale"][0].tolist()
    )


def _sort_path(v: np.ndarray, t: np.ndarray, s: int, n: int) -> Any:
    # no table allowed (dense_pairs=-1), and proven not to be used: the corners are sorted
    saved = mesh_module._dense_corners

    def refuse(*args: object) -> Any:
        raise AssertionError("the sort path used the pair table")

    mesh_module._dense_corners = refuse  # type: ignore[assignment]
    try:
        return corner_table(v, t, s, n, dense_pairs=-1)
    finally:
        mesh_module._dense_corners = saved


def test_dense_and_sorted_corner_tables_agree() -> None:
    rng = np.random.default_rng(3)
    for _ in range(200):
        nv, ns, nt = (int(x) for x in rng.integers(1, 60, 3))
        v = rng.integers(0, nv, (nt, 3)).astype(np.int32)
        t = rng.integers(0, ns, (nt, 3)).astype(np.int32)
        dense = corner_table(v, t, ns, nv)
        stored = stored_corner_table(v.astype(np.uint16), t.astype(np.uint16), ns, nv)
        assert stored is not None
        for a, b, c in zip(dense, _sort_path(v, t, ns, nv), stored, strict=True):
            assert a.dtype == b.dtype == c.dtype
            assert np.array_equal(a, b) and np.array_equal(a, c)
    # first use decides the order: pair (2, 0) first, then (0, 1), then (1, 0)
    v = np.array([[2, 0, 1], [0, 2, 1]], np.int32)
    t = np.array([[0, 1, 0], [1, 0, 0]], np.int32)
    ids, tcs, tris = corner_table(v, t, 2, 3)
    assert ids.tolist() == [2, 0, 1] and tcs.tolist() == [0, 1, 0]
    assert tris.tolist() == [[0, 1, 2], [1, 0, 2]]


@pytest.mark.parametrize(
    ("v", "t"),
    [
        ([[0, 1, 4]], [[0, 1, 2]]),  # vertex index 4 of 4 vertices
        ([[0, 1, 2]], [[0, 3, 2]]),  # texcoord index 3 of 3 texcoords
        ([[0, -1, 2]], [[0, 1, 2]]),  # a negative vertex index
        ([[0, 1, 2]], [[0, 1, -2]]),  # a negative texcoord index
    ],
)
def test_stored_corner_table_refuses_out_of_range(v: list[list[int]], t: list[list[int]]) -> None:
    stored_v = np.array(v, np.int16).view(np.uint16)
    stored_t = np.array(t, np.int16).view(np.uint16)
    assert stored_corner_table(stored_v, stored_t, 3, 4) is None


@pytest.mark.parametrize(
    ("row", "field", "column", "value"),
    [(1, "vertex_indices", 2, 9), (0, "tex_point_indices", 1, -3)],
)
def test_md2_mesh_names_a_bad_triangle_index(row: int, field: str, column: int, value: int) -> None:
    spec = md2builder.Md2Spec()
    tri = list(spec.triangles[row])
    tri[column + (3 if field == "tex_point_indices" else 0)] = value
    spec.triangles[row] = (tri[0], tri[1], tri[2], tri[3], tri[4], tri[5])
    data = md2builder.build(spec)
    with pytest.raises(BadValueError) as fresh:
        quakemodels.load(data).mesh(0)
    with pytest.raises(BadValueError) as decoded:
        getattr(
            quakemodels.load(data),
            "triangles" if field == "vertex_indices" else "triangle_texcoords",
        )
    assert str(fresh.value) == str(decoded.value)
    assert fresh.value.field == field
    assert f"triangles[{row}].{field}[{column}]={value}" in str(fresh.value)


def test_md2_mesh_names_a_bad_normal_index() -> None:
    spec = md2builder.Md2Spec()
    spec.frames[1][3][2, 3] = 200  # frame 1, vertex 2: no such normal
    data = md2builder.build(spec)
    assert isinstance(quakemodels.load(data).mesh(0), Mesh)  # frame 0 is fine
    with pytest.raises(BadValueError, match=r"frames\[1\]\.vertices\[2\]\.normal_index=200"):
        quakemodels.load(data).mesh(1)


def test_md3_mesh_names_a_bad_triangle_index() -> None:
    spec = md3builder.Md3Spec()
    spec.surfaces[0].triangles = [(0, 1, 2), (0, 2, 7)]
    data = md3builder.build(spec)
    with pytest.raises(
        BadValueError, match=r"surfaces\[0\]\.triangles\[1\]\.vertex_indices\[2\]=7"
    ):
        quakemodels.load(data).meshes(0)


def test_md3_model_name_with_bytes_past_ascii_loads_as_escapes() -> None:
    # ioquake3 reads the name as bytes; it loads, shown escaped, raw bytes kept.
    data = bytearray(md3builder.build())
    at = md3_layout.HEADER_OFFSETS["name"]
    data[at : at + 3] = b"\xe9t\0"
    with pytest.warns(quakemodels.QuakeModelsWarning, match=r"name at offset 8 has non-ASCII"):
        m = quakemodels.load(bytes(data))
    assert m.model_name == "\\xe9t"
    assert m.model_name_raw == bytes(data[at : at + 64])


def test_fresh_mesh_arrays_are_read_only_and_do_not_reach_the_model() -> None:
    m = quakemodels.load(md2builder.build())
    first = m.mesh(0)
    with pytest.raises(ValueError):
        first.positions[0, 0] = 1.0
    with pytest.raises(ValueError):
        first.indices[0, 0] = 1
    assert np.array_equal(m.mesh(0).positions, first.positions)
    assert np.array_equal(first.positions, m.positions[0][first.vertex_ids])


@pytest.mark.parametrize("path", corpus_params("md2"))
def test_md2_corner_frames_equal_the_gathered_arrays(path: Path) -> None:
    data = path.read_bytes()
    full = quakemodels.load(data)
    vids = full.mesh(0).vertex_ids
    positions, normals = quakemodels.load(data).corner_frames()
    # one method, one layout: the positions a view of the (k,3,N) they are computed in
    assert normals.flags.c_contiguous and positions.transpose(0, 2, 1).flags.c_contiguous
    assert positions.tobytes() == full.positions.take(vids, axis=1).tobytes()
    assert normals.tobytes() == full.normals.take(vids, axis=1).tobytes()
    picked = [full.num_frames - 1, 0, -1]
    some = quakemodels.load(data)
    p, n = some.corner_frames(picked)
    assert "positions" not in some.__dict__  # only the picked frames were decoded
    assert p.tobytes() == full.positions[[full.num_frames - 1, 0, -1]].take(vids, axis=1).tobytes()
    assert n.tobytes() == full.normals[[full.num_frames - 1, 0, -1]].take(vids, axis=1).tobytes()


def test_md2_corner_frames_name_a_bad_normal_index() -> None:
    spec = md2builder.Md2Spec()
    spec.frames[1][3][0, 3] = 170
    data = md2builder.build(spec)
    assert quakemodels.load(data).corner_frames([0])[0].shape == (1, 4, 3)
    for frames in (None, [1]):
        with pytest.raises(BadValueError, match=r"frames\[1\]\.vertices\[0\]\.normal_index=170"):
            quakemodels.load(data).corner_frames(frames)
