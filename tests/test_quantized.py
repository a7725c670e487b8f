"""MD2 ↔ MDL through one neutral record (issue 28 items 1-2): each format serves its frames as
stored (the ``quantized`` capability, :class:`~quakemodels.core.quantized.QuantizedMesh`) and
each build reads that record, never the other format's model.

Expectations come from the generated Kaitai parsers (the spec's own ``x``/``y``/``z``
instances and raw bytes), not from our readers: MDL → MD2 stores every pose's vertex bytes,
normal indices and the MDL's grid as they are; MD2 → MDL is ``Mdl.build`` of the MD2's own
arrays (what it was before the record), on one grid.
"""

from __future__ import annotations

import ast
import dataclasses
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import REPO, corpus_params

from quakemodels import BadValueError
from quakemodels.cli import main
from quakemodels.formats.md2 import Md2
from quakemodels.formats.md3 import Md3
from quakemodels.formats.mdl import Mdl
from quakemodels.formats.mdl.build import skin_pixels
from quakemodels.formats.mdl.write import FORMAT_LIMITS
from quakemodels.interchange.convert import BuildOptions, Source
from quakemodels.kaitai.quake2_md2 import Quake2Md2
from quakemodels.kaitai.quake_mdl import QuakeMdl
from quakemodels.registry import by_name, for_model, load, model_source, scene

SAMPLE = REPO / "src" / "quakemodels" / "samples" / "quakeguy.md2"
FORMATS_DIR = REPO / "src" / "quakemodels" / "formats"


def _md2(path: Path) -> Md2:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # some corpus MD2s have odd names
        return Md2.from_file(path)


def _source(model: Any, path: Path = SAMPLE) -> Source:
    return model_source(path, model)


def _md2_frames(data: bytes) -> list[Any]:
    """The spec's frames of an MD2."""
    return list(Quake2Md2.from_bytes(data).frames)


def _mdl_poses(data: bytes) -> tuple[Any, list[Any]]:
    """The spec's header and every pose of an MDL, frame groups flattened in order."""
    spec = QuakeMdl.from_bytes(data)
    return spec.header, [pose for frame in spec.frames for pose in frame.frames]


def _md2_bytes(frame: Any) -> np.ndarray:
    """(V,4) x, y, z bytes and the normal index of an MD2 frame, as the spec reads them."""
    return np.array(
        [
            (
                v.position.x_compressed,
                v.position.y_compressed,
                v.position.z_compressed,
                v.normal_index,
            )
            for v in frame.vertices
        ],
        np.int64,
    ).reshape(-1, 4)


def _mdl_bytes(pose: Any) -> np.ndarray:
    """(V,4) x, y, z bytes and the normal index of an MDL pose, as the spec reads them."""
    return np.array([(*v.values, v.normal_index) for v in pose.vertices], np.int64).reshape(-1, 4)


def _xyz(vertices: Any, compressed: bool) -> np.ndarray:
    """(V,3) float32 of the spec's double x, y, z instances."""
    rows = [(v.position if compressed else v) for v in vertices]
    return np.array([(r.x, r.y, r.z) for r in rows], np.float64).astype(np.float32)


# -- MDL → MD2: every byte of every pose kept ------------------------------------------------


@pytest.mark.parametrize("path", corpus_params("mdl"))
def test_mdl_to_md2_stores_every_pose_byte_for_byte(
    path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each MD2 frame is one MDL pose (groups flattened in order) with the MDL's scale and
    origin as its scale and translate, and the pose's x, y, z bytes and normal indices: the
    positions are bit-identical (before: every frame was requantized on its own grid, up to
    0.156 units off on lq_player.mdl, and only assimp_steg's bytes survived)."""
    out = tmp_path / "x.md2"
    assert main(["convert", str(path), str(out)]) == 0
    said = capsys.readouterr().out
    assert "positions exact (vertex bytes, grids and normal indices as stored)" in said
    header, poses = _mdl_poses(path.read_bytes())
    frames = _md2_frames(out.read_bytes())
    assert len(frames) == len(poses) > 0
    count = f"{len(poses)} frame{'s' if len(poses) > 1 else ''}"
    if header.num_frames != len(poses):  # lq_flame2 (2 in the source), nexuiz_gib3 (1)
        count += f" (groups flattened: {header.num_frames} in the source)"
    assert f"{out}: {count}, {header.num_verts} vertices," in said
    scale = (header.scale.x, header.scale.y, header.scale.z)
    origin = (header.origin.x, header.origin.y, header.origin.z)
    for pose, frame in zip(poses, frames, strict=True):
        assert (frame.scale.x, frame.scale.y, frame.scale.z) == scale
        assert (frame.translate.x, frame.translate.y, frame.translate.z) == origin
        assert np.array_equal(_md2_bytes(frame), _mdl_bytes(pose))
        assert np.array_equal(_xyz(frame.vertices, True), _xyz(pose.vertices, False))
    assert np.array_equal(Md2.from_file(out).positions, Mdl.from_file(path).positions)


def test_md2_from_quantized_keeps_each_frames_own_grid() -> None:
    """An MD2's own record back through ``Md2.from_quantized``: every frame's scale,
    translate, vertex bytes and normal indices as they were (per-frame grids kept)."""
    md2 = _md2(SAMPLE)
    again = Md2.from_quantized(md2.quantized(), skins=md2.skins).model
    for a, b in zip(_md2_frames(SAMPLE.read_bytes()), _md2_frames(again.to_bytes()), strict=True):
        assert (a.scale.x, a.scale.y, a.scale.z) == (b.scale.x, b.scale.y, b.scale.z)
        assert (a.translate.x, a.translate.y, a.translate.z) == (
            b.translate.x,
            b.translate.y,
            b.translate.z,
        )
        assert np.array_equal(_md2_bytes(a), _md2_bytes(b))
    assert again.frame_names == md2.frame_names and again.skins == md2.skins
    assert np.array_equal(
        again.texcoords_px[again.triangle_texcoords], md2.texcoords_px[md2.triangle_texcoords]
    )


def test_md2_from_quantized_refuses_grids_that_do_not_fit() -> None:
    q = _md2(SAMPLE).quantized()
    short = dataclasses.replace(q, scales=q.scales[1:])
    with pytest.raises(BadValueError, match=r"scales \(197, 3\)") as e:
        Md2.from_quantized(short)
    assert e.value.field == "vertices"


# -- MD2 → MDL: Mdl.build of the MD2's own arrays, one grid ----------------------------------


@pytest.mark.parametrize("path", corpus_params("md2"))
def test_md2_to_mdl_is_the_build_of_the_md2s_arrays(path: Path, tmp_path: Path) -> None:
    """The MDL build service gives what ``Mdl.build`` gives for the MD2's stored arrays and
    normal indices (the conversion as it was before the record: byte for byte), and every
    pose, read by the spec, keeps the MD2 frame's normal indices and lies within half a step
    of its positions on one grid whose ends are steps 0 and 255."""
    md2 = _md2(path)
    out = tmp_path / "x.mdl"
    options = BuildOptions(out=out, no_limits=True)
    built = by_name("mdl").build(_source(md2, path), options)
    found = scene(md2).surfaces[0].skin  # the skin the build's source finds, as it resizes it
    size = (md2.skin_width, md2.skin_height)
    expected = Mdl.build(
        md2.positions,
        md2.triangles,
        md2.texcoords_px,
        md2.triangle_texcoords,
        md2.frame_names,
        skins=[] if found is None else [skin_pixels(found.image, size)],
        skin_size=size,
        normals=md2.normal_indices,
        limits=FORMAT_LIMITS,
    ).model
    data = built.model.to_bytes()
    assert data == expected.to_bytes()
    header, poses = _mdl_poses(data)
    frames = _md2_frames(path.read_bytes())
    assert len(poses) == len(frames)
    # which MD2 vertex each MDL vertex is, from the triangles' corners
    spec = QuakeMdl.from_bytes(data)
    mdl_corners = np.array([t.vertices for t in spec.triangles]).ravel()
    md2_corners = np.array(
        [t.vertex_indices for t in Quake2Md2.from_bytes(path.read_bytes()).triangles]
    )
    vertex_of = np.full(header.num_verts, -1)
    vertex_of[mdl_corners] = md2_corners.ravel()
    assert np.array_equal(vertex_of[mdl_corners], md2_corners.ravel())  # one MD2 vertex each
    used = np.unique(mdl_corners)
    scale = np.array([header.scale.x, header.scale.y, header.scale.z])
    steps = np.stack([_mdl_bytes(p)[:, :3] for p in poses])
    for pose, frame in zip(poses, frames, strict=True):
        want = _md2_bytes(frame)[vertex_of[used]]
        assert np.array_equal(_mdl_bytes(pose)[used, 3], want[:, 3])  # normal indices
        near = np.abs(
            _xyz(pose.vertices, False)[used] - _xyz(frame.vertices, True)[vertex_of[used]]
        )
        assert np.all(near <= scale / 2 + 1e-4)
    spans = np.ptp(steps.reshape(-1, 3), axis=0)
    assert np.all((spans == 255) | (scale == 0) | (spans == 0))


# -- the record and who serves it ------------------------------------------------------------


@pytest.mark.parametrize("path", [*corpus_params("md2"), *corpus_params("mdl")])
def test_the_record_is_the_files_frames_as_the_spec_reads_them(path: Path) -> None:
    model = load(path) if path.suffix == ".mdl" else _md2(path)
    q = _source(model, path).quantized()
    assert q is not None and for_model(model) is by_name(path.suffix[1:])
    if isinstance(model, Mdl):
        header, poses = _mdl_poses(path.read_bytes())
        stored = np.stack([_mdl_bytes(p) for p in poses])
        decoded = np.stack([_xyz(p.vertices, False) for p in poses])
        scale = [(header.scale.x, header.scale.y, header.scale.z)] * len(poses)
        translate = [(header.origin.x, header.origin.y, header.origin.z)] * len(poses)
        assert q.source_frames == header.num_frames
    else:
        frames = _md2_frames(path.read_bytes())
        stored = np.stack([_md2_bytes(f) for f in frames])
        decoded = np.stack([_xyz(f.vertices, True) for f in frames])
        scale = [(f.scale.x, f.scale.y, f.scale.z) for f in frames]
        translate = [(f.translate.x, f.translate.y, f.translate.z) for f in frames]
        assert q.source_frames == len(frames)
    assert np.array_equal(q.vertices, stored[:, :, :3])
    assert np.array_equal(q.normal_indices, stored[:, :, 3])
    assert np.array_equal(q.positions, decoded)
    assert np.array_equal(q.scales, np.array(scale, np.float32))
    assert np.array_equal(q.translates, np.array(translate, np.float32))
    # each corner's pixel texcoord is the model's own; names fit the 16-byte fields
    corners = q.texcoords_px[q.triangle_texcoords]
    assert np.array_equal(corners, model.texcoords_px[model.triangle_texcoords])
    assert np.array_equal(q.triangles, model.triangles)
    assert len(q.frame_names) == q.num_frames and all(len(n) <= 15 for n in q.frame_names)
    if isinstance(model, Mdl):  # the stored names, an empty one named after its clip
        stored = [p.name.encode("latin-1")[:15] for p in poses]
        assert [n for n, s in zip(q.frame_names, stored, strict=True) if s] == [
            s for s in stored if s
        ]
        assert all(q.frame_names)
    else:
        assert list(q.frame_names) == [f.name.encode("latin-1") for f in frames]
    assert q.skin_size == (model.skin_width, model.skin_height)
    assert len(q.skin_images) == (model.num_skin_images if isinstance(model, Mdl) else 0)


def test_sources_without_byte_compressed_frames_have_no_record(tmp_path: Path) -> None:
    md3 = Md3.from_scene(scene(_md2(SAMPLE))).model
    assert _source(md3).quantized() is None
    assert Source((tmp_path / "x.glb",)).quantized() is None
    assert for_model(md3) is by_name("md3")
    assert by_name("md3").services.quantized is None
    assert by_name("md2").services.quantized and by_name("mdl").services.quantized


def test_no_build_recognises_another_format_by_its_attributes() -> None:
    """Each format's build reads neutral records only: no ``hasattr``/``getattr`` probing of
    the source model and none of the old pair hooks (``to_md2``, ``_EXACT``, ``_ARRAYS``)."""
    for path in sorted(FORMATS_DIR.glob("*/build.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        calls = {
            n.func.id
            for n in ast.walk(tree)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
        }
        names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
        names |= {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
        assert not calls & {"hasattr", "getattr"}, path
        assert not names & {"to_md2", "_EXACT", "_ARRAYS", "from_model"}, path
