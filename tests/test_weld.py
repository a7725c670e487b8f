"""The compiled corner table (``core/_weld.c``) against the numpy path it replaces.

``welded_corners`` must give, array for array and dtype for dtype, what
``flip_winding(corner_table(...))`` gives, for every integer type and stride a reader hands
it, and refuse (None) exactly where an index is out of range, so that the checked decode
names it. Its first-mesh decodes (``seam_rows``, ``trivertx``, ``texcoords``) must give, bit
for bit, what numpy's double arithmetic gives, and decline what the plain decode names. The
package works without the compiled module; under CI=true it must be built.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import md2builder
import numpy as np
import pytest
from conftest import IN_CI, corpus_params

import quakemodels
from quakemodels.core import mesh as mesh_module
from quakemodels.core import trivertx as trivertx_module
from quakemodels.core.mesh import corner_table, flip_winding, welded_corners
from quakemodels.core.trivertx import ANORMS, NUM_ANORMS, corner_texcoords, corner_trivertx
from quakemodels.formats.md2.reader import TRI_TEXCOORDS, TRI_VERTICES, TRIANGLE_WORDS

MESH_FIELDS = ("positions", "normals", "uvs", "indices", "vertex_ids", "texcoord_ids")

if mesh_module.WELD is None:
    if IN_CI and not os.environ.get("QUAKEMODELS_PURE_PYTHON"):
        raise RuntimeError("CI=true but quakemodels.core._weld is not built (pip install -e .)")
    pytest.skip(
        "quakemodels.core._weld is not built (no C compiler at install) or turned off",
        allow_module_level=True,
    )
WELD = mesh_module.WELD
weld_module = sys.modules[WELD.__module__]


def numpy_corners(
    v: np.ndarray, t: np.ndarray, num_texcoords: int, num_vertices: int
) -> tuple[np.ndarray, ...]:
    """The numpy path: the corner table of the checked arrays, in render order."""
    ids, tcs, tris = corner_table(
        v.astype(np.int64), t.astype(np.int64), num_texcoords, num_vertices
    )
    return ids, tcs, flip_winding(tris)


def assert_same(got: tuple[np.ndarray, ...] | None, want: tuple[np.ndarray, ...]) -> None:
    assert got is not None
    for a, b in zip(got, want, strict=True):
        assert a.dtype == b.dtype and a.shape == b.shape
        assert np.array_equal(a, b)


@pytest.mark.parametrize("path", corpus_params("md2"))
def test_corpus_md2_welds_as_numpy(path: Path) -> None:
    data = path.read_bytes()
    m = quakemodels.load(data)
    h = m._h
    words = np.frombuffer(data, np.uint16, h.num_triangles * TRIANGLE_WORDS, h.ofs_triangles)
    words = words.reshape(-1, TRIANGLE_WORDS)
    got = welded_corners(
        words[:, TRI_VERTICES], words[:, TRI_TEXCOORDS], h.num_tex_coords, h.vertices_per_frame
    )
    want = numpy_corners(m.triangles, m.triangle_texcoords, m.num_texcoords, m.num_vertices)
    assert_same(got, want)
    assert len(want[0]) > 0


@pytest.mark.parametrize("path", corpus_params("md2"))
def test_corpus_md2_mesh_with_and_without_the_weld(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert_mesh_same_without_the_weld(path.read_bytes(), monkeypatch)


def assert_mesh_same_without_the_weld(data: bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    """A fresh model's first mesh is the same, array for array, with the weld and without."""
    welded = quakemodels.load(data).meshes(0)[0]
    monkeypatch.setattr(mesh_module, "WELD", None)
    plain = quakemodels.load(data).meshes(0)[0]
    for name in MESH_FIELDS:
        a, b = getattr(welded, name), getattr(plain, name)
        assert a.dtype == b.dtype and np.array_equal(a, b), name


@pytest.mark.parametrize(
    "dtype", [np.uint8, np.int8, np.uint16, np.int16, np.int32, np.uint32, np.int64, np.uint64]
)
def test_random_triangles_of_every_integer_type(dtype: type) -> None:
    rng = np.random.default_rng(np.dtype(dtype).num)
    top = min(int(np.iinfo(dtype).max), 90)
    for _ in range(150):
        nv, ns = (int(x) for x in rng.integers(1, top, 2))
        nt = int(rng.integers(1, 300))
        v = rng.integers(0, nv, (nt, 3)).astype(dtype)
        t = rng.integers(0, ns, (nt, 3)).astype(dtype)
        assert_same(welded_corners(v, t, ns, nv), numpy_corners(v, t, ns, nv))


@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.uint16, np.int16, np.int32, np.int64])
def test_random_indices_refused_exactly_when_out_of_range(dtype: type) -> None:
    # any stored value, bounds below and above it: refused iff one index is negative or not
    # below its bound, as the checked decode would find
    rng = np.random.default_rng(100 + np.dtype(dtype).num)
    info = np.iinfo(dtype)
    welded = 0
    for _ in range(300):
        nt = int(rng.integers(1, 40))
        v = rng.integers(info.min, int(info.max) + 1, (nt, 3), dtype=np.int64).astype(dtype)
        t = rng.integers(info.min, int(info.max) + 1, (nt, 3), dtype=np.int64).astype(dtype)
        nv, ns = (int(x) for x in rng.integers(0, 12, 2))
        if rng.random() < 0.6:  # in range, or one stray at a random corner
            v = np.abs(v.astype(np.int64)) % 8
            t = np.abs(t.astype(np.int64)) % 8
            nv, ns = (int(x) for x in rng.integers(8, 12, 2))
            if rng.random() < 0.5:
                stray = rng.choice([-1, nv, ns, 11, int(info.max)])
                (v if rng.random() < 0.5 else t)[rng.integers(nt), rng.integers(3)] = stray
            v, t = v.astype(dtype), t.astype(dtype)
        wide_v, wide_t = v.astype(np.int64), t.astype(np.int64)
        bad = bool((wide_v < 0).any() or (wide_v >= nv).any() or (wide_t < 0).any())
        bad = bad or bool((wide_t >= ns).any())
        got = welded_corners(v, t, ns, nv)
        if bad:
            assert got is None
        else:
            assert_same(got, numpy_corners(v, t, ns, nv))
            welded += 1
    assert welded > 50  # both outcomes are exercised


def test_strided_views_need_no_copy() -> None:
    rng = np.random.default_rng(5)
    words = rng.integers(0, 40, (500, 6)).astype(np.uint16)
    v, t = words[:, 0:3], words[:, 3:6]  # column slices of a (T,6) array, as MD2 stores them
    assert not v.flags.c_contiguous
    assert_same(welded_corners(v, t, 40, 40), numpy_corners(v, t, 40, 40))
    transposed = np.ascontiguousarray(words.T)[:3].T  # a (T,3) view with (2, 1000) strides
    assert_same(welded_corners(transposed, t, 40, 40), numpy_corners(transposed, t, 40, 40))


def test_first_use_order_and_the_flip() -> None:
    # pair (2, 0) is used first, then (0, 1), then (1, 0); the flip swaps corners 1 and 2
    v = np.array([[2, 0, 1], [0, 2, 1]], np.int32)
    t = np.array([[0, 1, 0], [1, 0, 0]], np.int32)
    ids, tcs, tris = welded_corners(v, t, 2, 3) or (None, None, None)
    assert ids is not None and tcs is not None and tris is not None
    assert ids.tolist() == [2, 0, 1] and tcs.tolist() == [0, 1, 0]
    assert tris.tolist() == [[0, 2, 1], [1, 2, 0]]
    out = np.empty(6, np.int32), np.empty(6, np.int32), np.empty((2, 3), np.uint32)
    assert WELD(v, t, 2, 3, (0, 1, 2), *out) == 3  # the stored order
    assert out[2].tolist() == [[0, 1, 2], [1, 0, 2]]


@pytest.mark.parametrize(
    ("v", "t", "nv", "ns"),
    [
        ([[0, 1, 4]], [[0, 1, 2]], 4, 3),  # vertex index 4 of 4 vertices
        ([[0, 1, 2]], [[0, 3, 2]], 4, 3),  # texcoord index 3 of 3 texcoords
        ([[0, -1, 2]], [[0, 1, 2]], 4, 3),  # a negative vertex index
        ([[0, 1, 2]], [[0, 1, -2]], 4, 3),  # a negative texcoord index
        ([[0, 1, 2]], [[0, 0, 0]], 4, 0),  # no texcoords at all
        ([[0, 1, 2], [0, 1, 9]], [[0, 0, 0], [0, 0, 0]], 4, 1),  # the last corner
    ],
)
def test_out_of_range_is_refused(v: list[list[int]], t: list[list[int]], nv: int, ns: int) -> None:
    for dtype in (np.int16, np.int32, np.int64):
        assert welded_corners(np.array(v, dtype), np.array(t, dtype), ns, nv) is None
    stored_v = np.array(v, np.int16).view(np.uint16)  # as MD2 stores them: -1 reads 65535
    stored_t = np.array(t, np.int16).view(np.uint16)
    assert welded_corners(stored_v, stored_t, ns, nv) is None


def test_no_triangles_is_left_to_the_numpy_path() -> None:
    # (the bad-index errors through a whole model: test_first_mesh's
    # test_md2_mesh_names_a_bad_triangle_index, which runs with the weld)
    empty = np.zeros((0, 3), np.uint16)
    assert welded_corners(empty, empty, 3, 3) is None


def test_huge_claimed_counts_cost_memory_by_corners_only() -> None:
    # 2**31 - 1 vertices and texcoords claimed: the numpy table path would need 2**62
    # entries; the weld's table follows the 6 corners
    v = np.array([[0, 1, 2_000_000_000], [2_000_000_000, 1, 0]], np.int64)
    t = np.array([[5, 2_147_483_646, 0], [0, 5, 5]], np.int64)
    big = 2**31 - 1
    assert_same(welded_corners(v, t, big, big), numpy_corners(v, t, big, big))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((np.zeros((2, 4), np.int32),), "vertices: expected a (T,3) array of integers"),
        ((np.zeros((2, 3), np.float32),), "vertices: expected a (T,3) array of integers"),
        ((np.zeros(6, np.int32),), "vertices: expected a (T,3) array of integers"),
        ((np.zeros((2, 3), np.int32), np.zeros((3, 3), np.int32)), "differ in length"),
    ],
)
def test_bad_arguments_raise(args: tuple[np.ndarray, ...], message: str) -> None:
    v = args[0]
    t = args[1] if len(args) > 1 else np.zeros((2, 3), np.int32)
    out = np.empty(9, np.int32), np.empty(9, np.int32), np.empty(9, np.uint32)
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        WELD(v, t, 4, 4, (0, 2, 1), *out)


def test_outputs_too_small_raise() -> None:
    v = np.zeros((2, 3), np.int32)
    small = np.empty(5, np.int32)
    with pytest.raises(ValueError, match="vertex_ids: expected 6 writable items"):
        WELD(v, v, 4, 4, (0, 2, 1), small, np.empty(6, np.int32), np.empty(6, np.uint32))
    with pytest.raises(ValueError, match="indices: expected 6 writable items"):
        WELD(
            v,
            v,
            4,
            4,
            (0, 2, 1),
            np.empty(6, np.int32),
            np.empty(6, np.int32),
            np.empty(6, np.int64),
        )
    read_only = np.empty(6, np.int32)
    read_only.flags.writeable = False
    with pytest.raises((ValueError, BufferError)):
        WELD(v, v, 4, 4, (0, 2, 1), read_only, np.empty(6, np.int32), np.empty(6, np.uint32))
    with pytest.raises(ValueError, match="bounds"):
        WELD(v, v, 4, -1, (0, 2, 1), *(np.empty(6, t) for t in (np.int32, np.int32, np.uint32)))
    for order in ((0, 1, 1), (0, 1, 3), (-1, 0, 1)):
        with pytest.raises(ValueError, match="permutation"):
            WELD(v, v, 4, 4, order, *(np.empty(6, t) for t in (np.int32, np.int32, np.uint32)))


def test_pure_python_switch_turns_the_weld_off() -> None:
    code = "from quakemodels.core import mesh; print(mesh.WELD is None)"
    env = {**os.environ, "QUAKEMODELS_PURE_PYTHON": "1"}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert done.stdout.strip() == "True"
    version = [sys.executable, "-m", "quakemodels", "--version"]
    off = subprocess.run(version, capture_output=True, text=True, env=env, check=True)
    assert off.stdout.strip().endswith("(numpy only: QUAKEMODELS_PURE_PYTHON is set)")
    env.pop("QUAKEMODELS_PURE_PYTHON")
    on = subprocess.run(version, capture_output=True, text=True, env=env, check=True)
    assert on.stdout.strip().endswith("(compiled weld)")


@pytest.mark.parametrize("path", corpus_params("mdl"))
def test_corpus_mdl_mesh_with_and_without_the_weld(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = path.read_bytes()
    welded = quakemodels.load(data)
    corners = welded._mesh_corners
    mesh = welded.meshes(0)[0]
    monkeypatch.setattr(mesh_module, "WELD", None)
    plain = quakemodels.load(data)
    assert_same(corners, plain._plain_corners())
    for name in MESH_FIELDS:
        a, b = getattr(mesh, name), getattr(plain.meshes(0)[0], name)
        assert a.dtype == b.dtype and np.array_equal(a, b), name


def colliding_triangles(rows: int, side: int = 1024) -> tuple[np.ndarray, np.ndarray]:
    """(rows,3) vertex and texcoord indices below ``side`` whose distinct pairs all hash to
    the first slots of the weld's table for 3 x ``rows`` corners: a file built so that every
    lookup walks one long run."""
    bits = 4
    while (1 << bits) < 6 * rows:
        bits += 1
    v, t = (a.ravel() for a in np.indices((side, side), dtype=np.uint64))
    with np.errstate(over="ignore"):  # the multiply wraps, as in C
        slot = ((v << np.uint64(32)) | t) * np.uint64(weld_module.HASH_MULTIPLIER)
    slot >>= np.uint64(64 - bits)
    first = np.argsort(slot, kind="stable")[: 3 * rows]  # the pairs of the lowest slots
    return v[first].reshape(rows, 3).astype(np.int32), t[first].reshape(rows, 3).astype(np.int32)


def test_pairs_built_to_collide_are_left_to_the_sorting_path() -> None:
    v, t = colliding_triangles(2000)
    out = np.empty(6000, np.int32), np.empty(6000, np.int32), np.empty((2000, 3), np.uint32)
    assert WELD(v, t, 1024, 1024, (0, 2, 1), *out) == -2  # gave up within its budget
    assert welded_corners(v, t, 1024, 1024) is None
    # the same pairs, spread over the table: welded as usual
    rng = np.random.default_rng(9)
    spread = rng.permutation(v.ravel()).reshape(v.shape), rng.permutation(t.ravel())
    assert_same(
        welded_corners(spread[0], spread[1].reshape(t.shape), 1024, 1024),
        numpy_corners(spread[0], spread[1].reshape(t.shape), 1024, 1024),
    )


def test_a_colliding_md2_gives_the_numpy_mesh(monkeypatch: pytest.MonkeyPatch) -> None:
    v, t = colliding_triangles(700, side=512)
    assert welded_corners(v, t, 512, 512) is None  # the weld gives up on these
    triangles = [(*a, *b) for a, b in zip(v.tolist(), t.tolist(), strict=True)]
    verts = np.zeros((512, 4), np.uint8)
    verts[:, :3] = np.arange(512)[:, None] % 256
    data = md2builder.build(
        md2builder.Md2Spec(
            skin_width=512,
            skin_height=512,
            texcoords=[(k, k) for k in range(512)],
            triangles=triangles,
            frames=[((1.0, 1.0, 1.0), (0.0, 0.0, 0.0), b"f", verts)],
            gl_dwords=[0],
        )
    )
    assert_mesh_same_without_the_weld(data, monkeypatch)


# -- the first mesh's compiled decodes: trivertx() and texcoords() -----------------------------


def numpy_trivertx(
    stored: np.ndarray, ids: np.ndarray, scale: tuple[float, ...], translate: tuple[float, ...]
) -> tuple[np.ndarray, np.ndarray]:
    """The numpy decode: v * scale + translate in double, then float32; the table's rows."""
    with np.errstate(over="ignore", invalid="ignore"):
        xyz = stored[ids, :3].astype(np.float64) * np.array(scale) + np.array(translate)
    return xyz.astype(np.float32), ANORMS[stored[ids, 3]]


def test_trivertx_equals_the_numpy_decode() -> None:
    """Random frames, scales and origins (odd magnitudes, signs, inf and NaN): bit for bit
    what numpy computes, each product and sum rounded on its own (no fused multiply-add)."""
    rng = np.random.default_rng(7)
    for k in range(300):
        nv = int(rng.integers(1, 400))
        stored = rng.integers(0, 256, (nv, 4)).astype(np.uint8)
        stored[:, 3] %= NUM_ANORMS
        ids = rng.integers(0, nv, int(rng.integers(0, 600))).astype(np.int32)
        scale = tuple(float(x) for x in rng.normal(0, 10.0 ** rng.integers(-6, 6), 3))
        translate = tuple(float(x) for x in rng.normal(0, 10.0 ** rng.integers(-6, 6), 3))
        if k % 50 == 0:
            scale, translate = (np.inf, 1e-30, np.nan), (-np.inf, -0.0, 3.0)
        got = corner_trivertx(stored, ids, scale, translate)  # type: ignore[arg-type]
        want = numpy_trivertx(stored, ids, scale, translate)
        assert got is not None
        for a, b in zip(got, want, strict=True):
            assert a.dtype == b.dtype == np.float32 and a.shape == b.shape
            assert a.tobytes() == b.tobytes()


def test_trivertx_declines_what_the_plain_decode_names() -> None:
    """A vertex id out of range, or a normal index past the table on any vertex of the frame
    (used or not: the plain decode reads the whole frame): None, and the caller's checked
    decode names it."""
    stored = np.zeros((4, 4), np.uint8)
    ids = np.array([0, 1, 2], np.int32)
    one, zero = (1.0, 1.0, 1.0), (0.0, 0.0, 0.0)
    assert corner_trivertx(stored, ids, one, zero) is not None
    for bad in ([0, 4], [-1]):
        assert corner_trivertx(stored, np.array(bad, np.int32), one, zero) is None
    stored[3, 3] = NUM_ANORMS  # vertex 3 is not among the ids
    assert corner_trivertx(stored, ids, one, zero) is None
    # ids that are not C-contiguous int32 are left to the numpy path, not refused
    assert corner_trivertx(stored, ids.astype(np.int64), one, zero) is None
    assert corner_trivertx(stored, np.repeat(ids, 2)[::2], one, zero) is None


@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.uint16, np.int32, np.int64])
def test_texcoords_equal_the_numpy_decode(dtype: type) -> None:
    """Every integer type and stride a reader hands it (MD2's int16 columns of a word array,
    MDL's int32 columns): (s [+ shift on the back of a seam]) / width, t / height, each in
    double then float32."""
    rng = np.random.default_rng(np.dtype(dtype).num)
    top = min(int(np.iinfo(dtype).max), 1 << 20)
    for _ in range(100):
        rows = int(rng.integers(1, 300))
        words = rng.integers(np.iinfo(dtype).min // 2, top, (rows, 3)).astype(dtype)
        st = words[:, 1:]  # a strided (S,2) view, as the readers pass
        width, height = (int(x) for x in rng.integers(1, 1 << 25, 2))
        shift = int(rng.integers(0, 1 << 12))
        ids = rng.integers(0, 2 * rows, int(rng.integers(0, 500))).astype(np.int32)
        got = corner_texcoords(st, ids, width, height, rows, shift)
        back = ids >= rows
        s = st[ids % rows, 0].astype(np.float64) + np.where(back, shift, 0)
        t = st[ids % rows, 1].astype(np.float64)
        want = np.stack([s / width, t / height], axis=1).astype(np.float32)
        assert got is not None and got.dtype == np.float32 and got.shape == want.shape
        assert got.tobytes() == want.tobytes()
        assert corner_texcoords(st, ids[ids < rows], width, height, 1 << 31) is not None


def test_texcoords_decline_a_row_out_of_range() -> None:
    st = np.zeros((3, 2), np.int16)
    assert corner_texcoords(st, np.array([0, 2], np.int32), 8, 8, 1 << 31) is not None
    assert corner_texcoords(st, np.array([3], np.int32), 8, 8, 1 << 31) is None
    assert corner_texcoords(st, np.array([-1], np.int32), 8, 8, 1 << 31) is None
    assert corner_texcoords(st, np.array([6], np.int32), 8, 8, 3) is None  # row 3 of the back


def test_the_decodes_refuse_arrays_of_the_wrong_kind() -> None:
    """Arguments the Python side never passes are a ValueError, never a read out of bounds."""
    decode = weld_module.trivertx
    ids = np.zeros(2, np.int32)
    out = np.empty((2, 3), np.float32)
    args = ((1.0, 1.0, 1.0), (0.0, 0.0, 0.0), ANORMS)
    with pytest.raises(ValueError, match="stored"):
        decode(np.zeros((2, 4), np.int16), ids, *args, out, out.copy())
    with pytest.raises(ValueError, match="partial row"):
        decode(np.zeros(7, np.uint8), ids, *args, out, out.copy())
    with pytest.raises(ValueError, match="positions"):
        decode(np.zeros((2, 4), np.uint8), ids, *args, out[:1], out.copy())
    with pytest.raises(ValueError, match="st"):
        weld_module.texcoords(np.zeros((2, 3), np.int16), ids, 2, 0.0, 1.0, 1.0, out)
    with pytest.raises(ValueError, match="uvs"):
        weld_module.texcoords(np.zeros((2, 2), np.int16), ids, 2, 0.0, 1.0, 1.0, out[:0])


@pytest.mark.parametrize("dtype", [np.uint32, np.int32, np.int16, np.int64])
def test_seam_rows_equal_the_numpy_rows(dtype: type) -> None:
    """An MDL corner's texcoord row: v, or V + v where v is on the seam and the triangle
    faces back; from the word columns of the stored sections (any type and stride)."""
    rng = np.random.default_rng(np.dtype(dtype).num)
    for _ in range(100):
        nv, nt = int(rng.integers(1, 200)), int(rng.integers(1, 300))
        words = rng.integers(0, nv, (nt, 4)).astype(dtype)
        words[:, 0] = rng.integers(0, 2, nt)  # faces_front before the vertices, as stored
        seam = rng.integers(0, 3, (nv, 3)).astype(dtype)
        rows = np.empty((nt, 3), np.int32)
        assert weld_module.seam_rows(words[:, 1:], seam[:, 0], words[:, 0], rows) == 0
        v = words[:, 1:].astype(np.int64)
        back = (seam[:, 0] != 0)[v] & (words[:, 0] == 0)[:, None]
        assert np.array_equal(rows, v + nv * back)


def test_seam_rows_decline_a_vertex_out_of_range() -> None:
    rows = np.empty((1, 3), np.int32)
    seam, front = np.zeros(4, np.int32), np.zeros(1, np.int32)
    for bad in (4, -1):
        v = np.array([[0, 1, bad]], np.int32)
        assert weld_module.seam_rows(v, seam, front, rows) == -1
    with pytest.raises(ValueError, match="faces_front"):
        weld_module.seam_rows(np.zeros((2, 3), np.int32), seam, front, rows)
    with pytest.raises(ValueError, match="on_seam"):
        weld_module.seam_rows(np.zeros((1, 3), np.int32), seam.reshape(2, 2), front, rows)


def test_pure_python_switch_turns_the_decodes_off() -> None:
    code = "from quakemodels.core import trivertx; print(trivertx.COMPILED is None)"
    env = {**os.environ, "QUAKEMODELS_PURE_PYTHON": "1"}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert done.stdout.strip() == "True"
    assert trivertx_module.COMPILED is weld_module
    assert corner_trivertx.__module__ == "quakemodels.core.trivertx"
