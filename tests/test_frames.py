"""Per-frame decoding (core/frames.py): mesh, lerp, sample and frames_* decode only the frames
asked for, and give exactly the values of the full arrays, on every corpus MD2, MD3 and MDL;
scenes of one frame or clip (players too) equal the full scene's selection."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest
from conftest import corpus_params
from md2builder import Md2Spec, build

import quakemodels
from quakemodels import BadValueError, Md2
from quakemodels.core.facade import lerp
from quakemodels.core.mesh import corner_table
from quakemodels.core.scene import ExportModel


def _frames(n: int) -> list[int]:
    return sorted({0, n - 1, n // 2, -1})


@pytest.mark.parametrize("path", corpus_params("md2"))
def test_md2_frames_equal_full_arrays(path: Path | None) -> None:
    assert path is not None
    lazy, full = Md2.from_file(path), Md2.from_file(path).load_all()
    frames = _frames(lazy.num_frames)
    assert np.array_equal(lazy.frames_positions(frames), full.positions[frames])
    assert np.array_equal(lazy.frames_normals(frames), full.normals[frames])
    mesh, expected = lazy.mesh(-1), full.mesh(-1)
    for name in ("positions", "normals", "uvs", "indices", "vertex_ids"):
        assert np.array_equal(getattr(mesh, name), getattr(expected, name)), name
    a, b = 0, lazy.num_frames - 1
    assert np.array_equal(lazy.lerp(a, b, 0.25), lerp(full.positions, a, b, 0.25))
    clip = next(iter(lazy.animations))
    assert np.array_equal(lazy.sample(clip, 0.37), full.sample(clip, 0.37))
    # Nothing above decoded every frame.
    assert not {"positions", "normals", "normal_indices"} & set(vars(lazy))


@pytest.mark.parametrize("path", corpus_params("md3"))
def test_md3_frames_equal_full_arrays(path: Path | None) -> None:
    assert path is not None
    lazy, full = quakemodels.load(path), quakemodels.load(path).load_all()
    assert isinstance(lazy, quakemodels.Md3) and isinstance(full, quakemodels.Md3)
    frames = _frames(lazy.num_frames)
    for m, e in zip(lazy.meshes(-1), full.meshes(-1), strict=True):
        assert np.array_equal(m.positions, e.positions) and np.array_equal(m.normals, e.normals)
    for s, e in zip(lazy.surfaces, full.surfaces, strict=True):
        assert np.array_equal(s.frames_positions(frames), e.positions[frames])
        assert np.array_equal(s.frames_normals(frames), e.normals[frames])
        assert np.array_equal(s.frame_positions(-1), e.positions[-1])
        assert np.array_equal(s.lerp(0, -1, 0.5), lerp(e.positions, 0, -1, 0.5))
        assert not {"positions", "normals"} & set(vars(s))


def test_cached_full_array_is_sliced(corpus_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    m = Md2.from_file(corpus_dir / "md2" / "ppm_drfreak.md2")
    full = m.positions
    monkeypatch.setattr(m, "_decode_positions", lambda frames: pytest.fail("decoded again"))
    assert np.array_equal(m.frame_positions(5), full[5])
    assert np.array_equal(m.frames_positions([5, 5, 0]), full[[5, 5, 0]])


def test_frame_out_of_range_names_it() -> None:
    m = Md2.from_bytes(build())
    with pytest.raises(IndexError, match="frame 2 out of range for 2 frames"):
        m.frame_positions(2)
    with pytest.raises(IndexError, match="frame -3 out of range for 2 frames"):
        m.lerp(0, -3, 0.5)


def test_bad_normal_index_found_only_in_the_frames_decoded() -> None:
    spec = Md2Spec()
    scale, translate, name, verts = spec.frames[1]
    verts = verts.copy()
    verts[2, 3] = 162
    spec.frames[1] = (scale, translate, name, verts)
    m = Md2.from_bytes(build(spec))
    assert m.frame_normals(0).shape == (4, 3)  # frame 0 is fine
    assert m.mesh(0).normals.shape[1] == 3
    with pytest.raises(BadValueError, match=r"frames\[1\]\.vertices\[2\]\.normal_index=162") as e:
        m.frames_normals([0, 1])
    assert e.value.offset == m.ofs_frames + 56 + 40 + 4 * 2 + 3
    with pytest.raises(BadValueError, match=r"frames\[1\]\.vertices\[2\]"):
        m.mesh(1)


@pytest.mark.parametrize("path", corpus_params("mdl"))
def test_mdl_poses_equal_full_arrays(path: Path | None) -> None:
    assert path is not None
    lazy, full = quakemodels.load(path), quakemodels.load(path).load_all()
    assert isinstance(lazy, quakemodels.Mdl) and isinstance(full, quakemodels.Mdl)
    poses = _frames(lazy.num_poses)
    assert np.array_equal(lazy.frames_positions(poses), full.positions[poses])
    assert np.array_equal(lazy.frames_normals(poses), full.normals[poses])
    mesh, expected = lazy.mesh(-1), full.mesh(-1)
    for name in ("positions", "normals", "uvs", "indices", "vertex_ids", "texcoord_ids"):
        assert np.array_equal(getattr(mesh, name), getattr(expected, name)), name
    assert np.array_equal(lazy.lerp(0, -1, 0.75), lerp(full.positions, 0, -1, 0.75))
    clip = next(iter(lazy.animations))
    assert np.array_equal(lazy.sample(clip, 0.21), full.sample(clip, 0.21))
    assert not {"positions", "normals", "normal_indices"} & set(vars(lazy))


SCENE_MODELS = ["md2/ppm_drfreak.md2", "md3/trem_human_base_upper.md3", "mdl/lq_player.mdl"]


@pytest.mark.parametrize("name", SCENE_MODELS)
def test_scene_of_some_frames_decodes_only_those(corpus_dir: Path, name: str) -> None:
    from quakemodels.registry import for_model, scene

    lazy, full = quakemodels.load(corpus_dir / name), quakemodels.load(corpus_dir / name)
    picked = [3, 0, -1]
    part = for_model(lazy).scene(lazy, frames=picked)
    whole = scene(full).select(picked, {})
    _assert_same_scene(part, whole)
    assert part.num_frames == 3 and part.clips == {}
    holders = lazy.surfaces if isinstance(lazy, quakemodels.Md3) else [lazy]
    assert not any({"positions", "normals"} & set(vars(h)) for h in holders)


@pytest.mark.parametrize("name", SCENE_MODELS)
def test_registry_scene_of_a_frame_or_a_clip_is_the_selected_full_scene(
    corpus_dir: Path, name: str
) -> None:
    from quakemodels.registry import scene

    full = scene(quakemodels.load(corpus_dir / name))
    clip = list(full.clips)[-1]
    lazy = quakemodels.load(corpus_dir / name)
    one = scene(lazy, frame=full.num_frames - 1)
    _assert_same_scene(one, full.select([full.num_frames - 1], {}))
    assert one.clips == {}
    frames = list(full.clips[clip])
    part = scene(quakemodels.load(corpus_dir / name), clip=clip)
    _assert_same_scene(part, full.select(frames, {clip: range(len(frames))}))
    assert part.clips == {clip: range(len(frames))}
    with pytest.raises(KeyError, match=r"no clip 'nope'; clips: "):
        scene(lazy, clip="nope")
    with pytest.raises(IndexError, match=rf"frame {full.num_frames} out of range \(frames: 0\.\."):
        scene(lazy, frame=full.num_frames)
    holders = lazy.surfaces if isinstance(lazy, quakemodels.Md3) else [lazy]
    assert not any({"positions", "normals"} & set(vars(h)) for h in holders)


def test_player_scene_of_one_frame_decodes_only_its_part_frames(corpus_dir: Path) -> None:
    from quakemodels.registry import scene

    folder = corpus_dir / "q3" / "models" / "players" / "human_bsuit"
    full = scene(quakemodels.load(folder))
    clip = next(c for c in full.clips if c != "stand")
    pick = full.clips[clip][2]
    lazy = quakemodels.load(folder)
    one = scene(lazy, frame=pick)
    _assert_same_scene(one, full.select([pick], {}))
    assert one.frame_names == [f"pose{pick}"]
    for name, part in lazy:  # the head has one frame: its one frame is all of it
        decoded = any({"positions", "normals"} & set(vars(s)) for s in part.surfaces)
        assert decoded == (name == "head"), name
    frames = list(full.clips[clip])
    _assert_same_scene(
        scene(quakemodels.load(folder), clip=clip), full.select(frames, {clip: range(len(frames))})
    )


def _assert_same_scene(a: ExportModel, b: ExportModel) -> None:
    assert a.frame_names == b.frame_names and a.clips == b.clips and a.name == b.name
    assert len(a.surfaces) == len(b.surfaces) and len(a.tags) == len(b.tags)
    for x, y in zip(a.surfaces, b.surfaces, strict=True):
        assert x.name == y.name and x.skin_names == y.skin_names
        for field in ("positions", "normals", "indices", "uvs"):
            assert np.array_equal(getattr(x, field), getattr(y, field)), field
    for x, y in zip(a.tags, b.tags, strict=True):
        assert np.array_equal(x.origins, y.origins) and np.array_equal(x.axes, y.axes)


def _corner_table_by_unique(
    tris: npt.NDArray[np.int32], tex: npt.NDArray[np.int32], num_texcoords: int
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32], npt.NDArray[np.uint32]]:
    """The corner table the plain way (np.unique, then first-use order): the reference."""
    v, t = tris.reshape(-1), tex.reshape(-1)
    key = v.astype(np.int64) * max(num_texcoords, 1) + t
    _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    corners = first[order]
    indices = rank[inverse.reshape(-1)].astype(np.uint32).reshape(-1, 3)
    return v[corners].astype(np.int32), t[corners].astype(np.int32), indices


@pytest.mark.parametrize("num_texcoords", [0, 1, 7, 60, 2**40])  # 2**40: pairs too wide to pack
def test_corner_table_equals_the_unique_reference(num_texcoords: int) -> None:
    rng = np.random.default_rng(num_texcoords)
    for size in (0, 1, 2, 17, 300):
        tris = rng.integers(0, 40, (size, 3)).astype(np.int32)
        tex = rng.integers(0, max(min(num_texcoords, 60), 1), (size, 3)).astype(np.int32)
        got = corner_table(tris, tex, num_texcoords)
        for a, b in zip(got, _corner_table_by_unique(tris, tex, num_texcoords), strict=True):
            assert a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b)
    # first use order, by hand: pairs (2,0) (1,1) (2,0) (0,0) (1,1) (2,1)
    v, t, idx = corner_table(np.array([[2, 1, 2], [0, 1, 2]]), np.array([[0, 1, 0], [0, 1, 1]]), 2)
    assert v.tolist() == [2, 1, 0, 2] and t.tolist() == [0, 1, 0, 1]
    assert idx.tolist() == [[0, 1, 0], [2, 1, 3]]
