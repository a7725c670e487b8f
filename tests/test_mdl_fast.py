"""MDL's fast paths (``formats/mdl/fast.py``) give the plain decode's values exactly, on every
corpus file and on synthetic ones (frame groups, skin groups, seams), and leave every error to
the plain path: where the plain path raises, the fast path returns None."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import mdlbuilder
import numpy as np
import pytest
from conftest import corpus_params
from mdlbuilder import Group, MdlSpec, Pose, build

from quakemodels.core.frames import decode_axes
from quakemodels.core.mesh import Corners, Mesh
from quakemodels.errors import BadValueError, TruncatedError
from quakemodels.formats.mdl import Mdl, fast, reader
from quakemodels.formats.mdl.layout import POSE_HEADER_SIZE, VERTEX

MESH_FIELDS = ("positions", "normals", "uvs", "indices", "vertex_ids", "texcoord_ids")


# every test twice: the compiled decode of the first mesh and the numpy path (conftest.py)
pytestmark = pytest.mark.usefixtures("first_mesh_decode")


def _same_arrays(a: Any, b: Any, what: str) -> None:
    assert a.dtype == b.dtype and a.shape == b.shape, what
    assert a.tobytes() == b.tobytes(), what  # bit for bit (NaN and -0.0 included)


def _same_mesh(a: Mesh, b: Mesh) -> None:
    for name in MESH_FIELDS:
        _same_arrays(getattr(a, name), getattr(b, name), name)


def _pose_size(m: Mdl) -> int:
    return POSE_HEADER_SIZE + VERTEX.itemsize * m.num_vertices


def _fast_frames(m: Mdl) -> Any:
    return fast.single_frames(m.data, m.ofs_frames, m.num_header_frames, _pose_size(m))


def _plain_frames(m: Mdl) -> Any:
    return reader._walk_frames(m.data, m._h, m.ofs_frames, _pose_size(m))


def _fast_corners(m: Mdl) -> Corners | None:
    return fast.stored_corners(
        m.data, m.ofs_texcoords, m.ofs_triangles, m.num_vertices, m.num_triangles
    )


def _fast_mesh(m: Mdl, pose: int, corners: Corners) -> Mesh | None:
    return fast.first_mesh(m.data, m._h, m.pose_offsets[pose], m.ofs_texcoords, corners)


def _check_equal(data: bytes) -> None:
    """Each fast path of fresh models against the plain path of other fresh models."""
    m = Mdl.from_bytes(data)
    # The frame walk: the same frames, pose offsets and end; declined only for a group.
    plain = _plain_frames(m)
    quick = _fast_frames(m)
    has_group = any(kind != 0 for _, kind, *_ in plain[0])
    assert (quick is None) == (has_group or m.num_header_frames == 0)
    if quick is not None:
        assert quick == plain
        assert all(type(x) is tuple for x in quick[:2]) and type(quick[2]) is int
    assert (m.frame_groups[-1].offset if m.frame_groups else m.ofs_frames) <= m.ofs_end
    assert (m.pose_offsets, m.ofs_end) == (plain[1], plain[2])
    # The corner table.
    corners = _fast_corners(Mdl.from_bytes(data))
    assert corners is not None
    for name, a, b in zip(
        ("vertex_ids", "texcoord_ids", "indices"),
        corners,
        Mdl.from_bytes(data)._plain_corners(),
        strict=True,
    ):
        _same_arrays(a, b, name)
    # The mesh of a pose: first, middle and last.
    for pose in sorted({0, m.num_poses // 2, m.num_poses - 1}):
        quick_mesh = _fast_mesh(Mdl.from_bytes(data), pose, corners)
        assert quick_mesh is not None
        plain_mesh = Mdl.from_bytes(data)._plain_mesh(pose)
        _same_mesh(quick_mesh, plain_mesh)
        _same_mesh(Mdl.from_bytes(data).mesh(pose), plain_mesh)


@pytest.mark.parametrize("path", corpus_params("mdl"))
def test_fast_paths_equal_the_plain_decode_on_the_corpus(path: Path) -> None:
    _check_equal(path.read_bytes())


def _random_spec(seed: int) -> MdlSpec:
    """Many seam vertices, back and front triangles, and shared corners."""
    rng = np.random.default_rng(seed)
    nv, nt = int(rng.integers(3, 40)), int(rng.integers(1, 60))
    return mdlbuilder.random_seam_spec(rng, nv, nt, poses=3)


def _verts(k: int) -> np.ndarray:
    return (mdlbuilder._default_verts() + np.array([k, 2 * k, 3 * k, 0])).astype(np.uint8)


SYNTHETIC = {
    "seams": MdlSpec(),  # a seam vertex used from the back: a texcoord row V + v
    "frame-groups": MdlSpec(
        frames=[
            Pose(b"stand1", _verts(0)),
            Group([0.1, 0.2, 0.3], [Pose(b"run%d" % k, _verts(k)) for k in (1, 2, 3)]),
            Pose(b"stand2", _verts(4)),
        ]
    ),
    "skin-groups": MdlSpec(
        skins=[mdlbuilder.SkinGroup([0.1, 0.2], [bytes(72), bytes(range(72))]), bytes(72)]
    ),
    "odd-skin": MdlSpec(
        skin_width=7,
        skin_height=3,
        skins=[bytes(21)],
        stverts=[(0x20, 6, 2), (0x20, 3, 1), (0, 5, 0), (0x20, 1, 2)],
    ),  # quotients that round; every vertex but one on the seam
    "square-skin": MdlSpec(skin_width=8, skin_height=8, skins=[bytes(64)]),
    "trailer": MdlSpec(trailer=b"QMEX" + bytes(20)),
    "scale": MdlSpec(scale=(1e35, 3e-3, -7.25), origin=(-1e37, 1e-30, 123.456)),
    **{f"random{seed}": _random_spec(seed) for seed in range(6)},
}


@pytest.mark.parametrize("spec", SYNTHETIC.values(), ids=SYNTHETIC.keys())
def test_fast_paths_equal_the_plain_decode_on_synthetic_files(spec: MdlSpec) -> None:
    _check_equal(build(spec))


def test_a_frame_group_or_a_short_file_is_left_to_the_walk() -> None:
    """The one-step walk declines a group (its type word is not zero) and frames that pass
    the end; the walk then finds the group's poses or names the truncation."""
    grouped = Mdl.from_bytes(build(SYNTHETIC["frame-groups"]))
    assert _fast_frames(grouped) is None
    assert grouped.num_poses == 5 and [g.num_poses for g in grouped.frame_groups] == [1, 3, 1]
    data = build()
    short = data[:-1]
    m = Mdl.from_bytes(data)
    assert fast.single_frames(short, m.ofs_frames, 2, _pose_size(m)) is None
    with pytest.raises(TruncatedError, match=r"frames\[1\] \(one pose of 4 vertices\) at offset"):
        Mdl.from_bytes(short)
    # a type word not zero in its highest byte only: every byte column is checked, and the
    # walk reads a group (of the 0 poses the next word gives)
    odd = bytearray(data)
    odd[m.frame_groups[1].offset + 3] = 1
    assert fast.single_frames(bytes(odd), m.ofs_frames, 2, _pose_size(m)) is None
    second = Mdl.from_bytes(bytes(odd)).frame_groups[1]
    assert second.is_group and second.num_poses == 0


@pytest.mark.parametrize(("corner", "value"), [(0, 4), (2, -1), (1, 1 << 20)])
def test_a_bad_vertex_index_is_left_to_the_plain_path(corner: int, value: int) -> None:
    spec = MdlSpec()
    tri = list(spec.triangles[1])
    tri[1 + corner] = value
    spec.triangles[1] = (tri[0], tri[1], tri[2], tri[3])
    data = build(spec)
    assert _fast_corners(Mdl.from_bytes(data)) is None
    message = rf"triangles\[1\]\.vertices\[{corner}\]={value} at offset"
    with pytest.raises(BadValueError, match=message):
        Mdl.from_bytes(data)._plain_corners()
    with pytest.raises(BadValueError, match=message):
        Mdl.from_bytes(data).mesh(0)


def test_no_triangles_take_the_plain_path() -> None:
    data = build(MdlSpec(triangles=[]))
    assert _fast_corners(Mdl.from_bytes(data)) is None
    mesh = Mdl.from_bytes(data).mesh(0)
    _same_mesh(mesh, Mdl.from_bytes(data)._plain_mesh(0))
    assert mesh.indices.shape == (0, 3) and mesh.positions.shape == (0, 3)


def _normal_162() -> bytes:
    spec = MdlSpec()
    verts = _verts(0)
    verts[2, 3] = 162
    spec.frames[0] = Pose(b"stand1", verts)
    return build(spec)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (_normal_162(), r"poses\[0\]\.vertices\[2\]\.normal_index=162 at offset"),
        (build(MdlSpec(skins=[], header_overrides={"skin_width": 0})), "skin_width=0 at offset"),
        (build(MdlSpec(skins=[], header_overrides={"skin_height": 0})), "skin_height=0 at"),
        (build(MdlSpec(scale=(3e38, 1.0, 1.0))), r"scale=\(3\.\d+e\+38.*not finite"),
        (build(MdlSpec(origin=(0.0, float("nan"), 0.0))), "not finite in float32"),
        (
            build(MdlSpec(stverts=[(0, 0, 0), (0x20, 2**31 - 3, 0), (0, 5, 5), (0, 0, 5)])),
            "overflows 32 bits",
        ),
    ],
    ids=["normal-index", "skin-width", "skin-height", "scale", "nan-origin", "seam-overflow"],
)
def test_mesh_errors_are_left_to_the_plain_path(data: bytes, message: str) -> None:
    corners = _fast_corners(Mdl.from_bytes(data))
    assert corners is not None
    assert _fast_mesh(Mdl.from_bytes(data), 0, corners) is None
    with pytest.raises(BadValueError, match=message):
        Mdl.from_bytes(data)._plain_mesh(0)
    with pytest.raises(BadValueError, match=message):
        Mdl.from_bytes(data).mesh(0)


HALF_MAX = float(np.finfo(np.float32).max) / 2


@pytest.mark.parametrize(
    ("scale", "origin", "fits"),
    [
        ((1.0, 1.0, 1.0), (0.0, 0.0, 0.0), True),
        ((-1e35, 6e34, 2e-45), (-1.4e38, 1.5e38, -1.7e38), True),  # near the bound, all signs
        ((HALF_MAX / 255 * 0.999, 1.0, 1.0), (0.0, 0.0, 0.0), True),
        ((1e36, 1.0, 1.0), (0.0, 0.0, 0.0), False),  # past the bound, still finite: checked
        ((3e38, 1.0, 1.0), (0.0, 0.0, 0.0), False),  # inf at v = 255
        ((1.0, 1.0, 1.0), (0.0, float("nan"), 0.0), False),
        ((float("inf"), 1.0, 1.0), (0.0, 0.0, 0.0), False),
    ],
)
def test_grid_fits_only_where_no_value_can_be_non_finite(
    scale: tuple[float, float, float], origin: tuple[float, float, float], fits: bool
) -> None:
    """Where grid_fits skips the finite check, every byte decodes to a finite float32; where
    it does not, the plain path checks, and raises only for a value that is not finite."""
    s32, o32 = np.array(scale, np.float32), np.array(origin, np.float32)
    assert fast.grid_fits(tuple(s32.tolist()), tuple(o32.tolist())) is fits
    grid = np.repeat(np.arange(256, dtype=np.uint8)[:, None], 3, axis=1)
    values = decode_axes(grid, range(3), s32.astype(np.float64), o32.astype(np.float64))
    finite = bool(np.isfinite(values).all())
    assert finite or not fits
    pose = Pose(b"a", grid[:, [0, 1, 2, 0]])
    data = build(MdlSpec(scale=scale, origin=origin, stverts=[(0, 0, 0)] * 256, frames=[pose]))
    if finite:
        positions = Mdl.from_bytes(data).positions
        assert positions.shape == (1, 256, 3) and np.isfinite(positions).all()
    else:
        with pytest.raises(BadValueError, match="not finite in float32"):
            Mdl.from_bytes(data).load_all()


@pytest.mark.parametrize("path", corpus_params("mdl"))
def test_positions_equal_with_the_finite_check_forced(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = path.read_bytes()
    quick = Mdl.from_bytes(data)
    assert fast.grid_fits(quick._h.scale, quick._h.origin)
    want = quick.positions, quick.bboxes
    monkeypatch.setattr(reader, "fast_grid_fits", lambda scale, origin: False)
    plain = Mdl.from_bytes(data)
    _same_arrays(want[0], plain.positions, "positions")
    _same_arrays(want[1], plain.bboxes, "bboxes")
