"""MDL's first render-ready mesh: on a fresh model ``mesh(pose)`` reads the stored triangles,
texcoords and the one pose in place (the corner table keyed on the texcoord row). It must give
exactly what the decoded arrays give, for every pose, and the same errors in the same order."""

from __future__ import annotations

import struct
from pathlib import Path

import mdlbuilder
import numpy as np
import pytest
from conftest import CORPUS, corpus_files, corpus_params, no_corpus

import quakemodels
from quakemodels.core.mesh import Mesh, corner_table, flip_winding
from quakemodels.errors import BadValueError, ModelFormatError

MESH_FIELDS = ("positions", "normals", "uvs", "indices", "vertex_ids", "texcoord_ids")


def _decoded_mesh(data: bytes, pose: int) -> Mesh:
    """The mesh of the decoding path: every array decoded first."""
    full = quakemodels.load(data).load_all()
    full.normals  # noqa: B018 - decoded on purpose
    mesh: Mesh = full.mesh(pose)
    return mesh


def _assert_same(a: Mesh, b: Mesh) -> None:
    for name in MESH_FIELDS:
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype and x.shape == y.shape, name
        assert x.tobytes() == y.tobytes(), name
        assert not x.flags.writeable, name
        assert x.flags.c_contiguous, name


def _errors(data: bytes, pose: int = 0) -> tuple[str, str]:
    """The message of a fresh mesh's error and of the decoding path's."""
    with pytest.raises(ModelFormatError) as fresh:
        quakemodels.load(data).mesh(pose)
    with pytest.raises(ModelFormatError) as decoded:
        _decoded_mesh(data, pose)
    assert type(fresh.value) is type(decoded.value)
    return str(fresh.value), str(decoded.value)


@pytest.mark.parametrize("path", corpus_params("mdl"))
def test_fresh_mesh_equals_the_decoded_mesh_for_every_pose(path: Path) -> None:
    data = path.read_bytes()
    full = quakemodels.load(data).load_all()
    reused = quakemodels.load(data)  # later poses reuse the first call's corner table
    for pose in [*range(full.num_poses), -1]:
        fresh = quakemodels.load(data).mesh(pose)
        _assert_same(fresh, full.mesh(pose))
        _assert_same(reused.mesh(pose), fresh)
        assert "positions" not in reused.__dict__
    assert len(quakemodels.load(data).meshes(0)) == 1


def test_corpus_has_seams_and_frame_groups() -> None:
    # What the equality above covers: back-of-seam rows in use and frame groups.
    back_rows = groups = 0
    files = corpus_files("mdl")
    if not files:
        no_corpus(CORPUS / "mdl")
    for path in files:
        m = quakemodels.load(path)
        back_rows += int((m.mesh(0).texcoord_ids >= m.num_vertices).sum())
        groups += sum(g.is_group for g in m.frame_groups)
    assert back_rows > 0 and groups > 0


def test_corners_keyed_on_the_texcoord_row_equal_the_pair_table() -> None:
    rng = np.random.default_rng(11)
    for _ in range(100):
        nv, nt = (int(x) for x in rng.integers(1, 40, 2))
        spec = mdlbuilder.random_seam_spec(rng, nv, nt)
        data = mdlbuilder.build(spec)
        m = quakemodels.load(data)
        fresh = m.mesh(0)
        vertex_ids, texcoord_ids, indices = corner_table(
            m.triangles, m.triangle_texcoords, 2 * nv, nv
        )
        want = (vertex_ids, texcoord_ids, flip_winding(indices))
        got = (fresh.vertex_ids, fresh.texcoord_ids, fresh.indices)
        for a, b in zip(got, want, strict=True):
            assert a.dtype == b.dtype and a.tobytes() == b.tobytes()
        _assert_same(fresh, _decoded_mesh(data, 0))


@pytest.mark.parametrize(("corner", "value"), [(0, 4), (2, -1), (1, 1 << 20)])
def test_bad_triangle_index_names_the_same_field(corner: int, value: int) -> None:
    spec = mdlbuilder.MdlSpec()
    tri = list(spec.triangles[1])
    tri[1 + corner] = value
    spec.triangles[1] = (tri[0], tri[1], tri[2], tri[3])
    fresh, decoded = _errors(mdlbuilder.build(spec))
    assert fresh == decoded
    assert f"triangles[1].vertices[{corner}]={value} at offset" in fresh


def test_bad_normal_index_names_the_pose() -> None:
    spec = mdlbuilder.MdlSpec()
    verts = spec.frames[1].verts.copy()  # type: ignore[union-attr]
    verts[2, 3] = 162
    spec.frames[1] = mdlbuilder.Pose(b"stand2", verts)
    data = mdlbuilder.build(spec)
    assert isinstance(quakemodels.load(data).mesh(0), Mesh)  # pose 0 is fine
    fresh, decoded = _errors(data, 1)
    assert fresh == decoded
    assert "poses[1].vertices[2].normal_index=162 at offset" in fresh


@pytest.mark.parametrize("field", ["skin_width", "skin_height"])
def test_zero_skin_size(field: str) -> None:
    # (a negative size is refused when the model is opened)
    data = mdlbuilder.build(mdlbuilder.MdlSpec(skins=[], header_overrides={field: 0}))
    fresh, decoded = _errors(data)
    assert fresh == decoded
    assert f"{field}=0 at offset" in fresh and "not positive" in fresh


def test_non_finite_scale() -> None:
    data = mdlbuilder.build(mdlbuilder.MdlSpec(scale=(3e38, 1.0, 1.0)))
    fresh, decoded = _errors(data)
    assert fresh == decoded
    assert "scale=(" in fresh and "not finite" in fresh
    nan = mdlbuilder.build(mdlbuilder.MdlSpec(origin=(float("nan"), 0.0, 0.0)))
    assert _errors(nan)[0] == _errors(nan)[1]


def test_seam_shift_overflow() -> None:
    spec = mdlbuilder.MdlSpec(stverts=[(0, 0, 0), (0x20, 2**31 - 3, 0), (0, 5, 5), (0, 0, 5)])
    fresh, decoded = _errors(mdlbuilder.build(spec))
    assert fresh == decoded
    assert "overflows 32 bits" in fresh


def test_errors_keep_the_decoding_order() -> None:
    # A bad triangle and a bad normal: the decoding path names the normal first.
    spec = mdlbuilder.MdlSpec()
    spec.triangles[0] = (0x10, 0, 9, 2)
    verts = spec.frames[0].verts.copy()  # type: ignore[union-attr]
    verts[0, 3] = 200
    spec.frames[0] = mdlbuilder.Pose(b"stand1", verts)
    fresh, decoded = _errors(mdlbuilder.build(spec))
    assert fresh == decoded and "normal_index=200" in fresh


def test_pose_out_of_range_and_empty_models() -> None:
    data = mdlbuilder.build()
    with pytest.raises(IndexError, match="frame 2 out of range for 2 frames"):
        quakemodels.load(data).mesh(2)
    empty = mdlbuilder.build(mdlbuilder.MdlSpec(triangles=[]))
    mesh = quakemodels.load(empty).mesh(0)
    _assert_same(mesh, _decoded_mesh(empty, 0))
    assert mesh.indices.shape == (0, 3) and mesh.positions.shape == (0, 3)


def test_fresh_mesh_arrays_do_not_reach_the_model() -> None:
    m = quakemodels.load(mdlbuilder.build())
    first = m.mesh(0)
    with pytest.raises(ValueError):
        first.uvs[0, 0] = 1.0
    with pytest.raises(BadValueError):
        quakemodels.load(mdlbuilder.build(mdlbuilder.MdlSpec(scale=(float("inf"), 1.0, 1.0)))).mesh(
            0
        )
    assert np.array_equal(first.positions, m.positions[0][first.vertex_ids])
    assert np.array_equal(first.uvs, m.texcoords[first.texcoord_ids])


def _reference_walk(data: bytes) -> tuple[list[tuple[int, int, int]], list[int], int]:
    """(frame offset, type, poses) per frame, pose offsets and the end, walked word by word."""
    (nskins, w, h, nv, nt, nf) = struct.unpack_from("<6i", data, 48)
    pos = 84
    for _ in range(nskins):
        (group,) = struct.unpack_from("<i", data, pos)
        if group == 0:
            pos += 4 + w * h
        else:
            (n,) = struct.unpack_from("<i", data, pos + 4)
            pos += 8 + n * (4 + w * h)
    pos += 12 * nv + 16 * nt
    pose_size = 24 + 4 * nv
    frames, poses = [], []
    for _ in range(nf):
        (kind,) = struct.unpack_from("<i", data, pos)
        if kind == 0:
            frames.append((pos, 0, 1))
            poses.append(pos + 4)
            pos += 4 + pose_size
        else:
            (n,) = struct.unpack_from("<i", data, pos + 4)
            first = pos + 16 + 4 * n
            frames.append((pos, kind, n))
            poses += [first + k * pose_size for k in range(n)]
            pos = first + n * pose_size
    return frames, poses, pos


def _pose(k: int) -> mdlbuilder.Pose:
    return mdlbuilder.Pose(b"p%d" % k, np.full((4, 4), k, np.uint8))


@pytest.mark.parametrize(
    "frames",
    [
        [_pose(0), _pose(1), _pose(2)],  # single frames only: read at once
        [_pose(0), mdlbuilder.Group([0.1, 0.2], [_pose(1), _pose(2)]), _pose(3)],
        [mdlbuilder.Group([0.1], [_pose(0)], type_word=7), _pose(1)],
        [_pose(0)],
    ],
)
def test_section_walk_finds_every_pose(frames: list[mdlbuilder.Pose | mdlbuilder.Group]) -> None:
    data = mdlbuilder.build(mdlbuilder.MdlSpec(frames=frames, trailer=b"QMEX" + bytes(20)))
    want_frames, want_poses, want_end = _reference_walk(data)
    m = quakemodels.load(data)
    assert list(m.pose_offsets) == want_poses
    assert isinstance(m.pose_offsets, tuple)
    assert m.ofs_end == want_end == len(data) - 24
    got = [(g.offset, 1 if g.is_group else 0, g.num_poses) for g in m.frame_groups]
    assert got == [(o, min(k, 1), n) for o, k, n in want_frames]
    assert [g.first_pose for g in m.frame_groups] == [
        0,
        *np.cumsum([n for *_, n in want_frames])[:-1],
    ]
    assert m.frame_names == [f"p{k}" for k in range(len(want_poses))]


@pytest.mark.parametrize("path", corpus_params("mdl"))
def test_corpus_section_walk(path: Path) -> None:
    data = path.read_bytes()
    want_frames, want_poses, want_end = _reference_walk(data)
    m = quakemodels.load(data)
    assert list(m.pose_offsets) == want_poses and m.ofs_end == want_end
    assert [g.offset for g in m.frame_groups] == [o for o, _, _ in want_frames]
