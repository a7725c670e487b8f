"""The MDL writer: exact re-encoding, build from arrays, MDL ↔ MD2 conversion, glTF timing.

Read-backs go through our reader, the generated Kaitai parser and vgio (an independent peer).
"""

from __future__ import annotations

import io
import warnings
from pathlib import Path

import numpy as np
import pygltflib
import pytest
from conftest import CORPUS, corpus_files, corpus_params, no_corpus
from mdlbuilder import Group, MdlSpec, Pose, SkinGroup, build
from PIL import Image
from test_export import _errors, _node_json
from vgio.quake.mdl import Mdl as VgioMdl

import quakemodels
from quakemodels import BadValueError, LimitExceededError, Md2
from quakemodels.cli import main
from quakemodels.formats.mdl import Mdl
from quakemodels.formats.mdl.layout import FIRST_FULLBRIGHT, ONSEAM
from quakemodels.formats.mdl.scene import group_times
from quakemodels.formats.mdl.scene import scene as mdl_scene
from quakemodels.formats.mdl.write import (
    FORMAT_LIMITS,
    QUAKESPASM,
    VANILLA,
    Limits,
    encode,
    parts_of,
    quantize_skin,
    seam_vertices,
)
from quakemodels.interchange.gltf_write import export_gltf
from quakemodels.kaitai.quake_mdl import QuakeMdl


def _load_md2(path: Path) -> Md2:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # some corpus MD2s have odd names
        m = quakemodels.load(path)
    assert isinstance(m, Md2)
    return m


def _corner_st(m: Md2 | Mdl) -> np.ndarray:
    """(T,3,2) int pixel texcoords per triangle corner."""
    return np.asarray(m.texcoords_px, np.int64)[m.triangle_texcoords]


# -- exact re-encoding -------------------------------------------------------------------------


@pytest.mark.parametrize("path", corpus_params("mdl"))
def test_corpus_save_is_exact_and_leaves_one_file(path: Path, tmp_path: Path) -> None:
    # to_bytes itself: tests/test_conformance.py
    data = path.read_bytes()
    m = Mdl.from_bytes(data)
    out = tmp_path / "copy.mdl"
    m.save(out)
    assert out.read_bytes() == data
    assert list(tmp_path.iterdir()) == [out]  # no temporary file left


def _rich_spec() -> MdlSpec:
    w, h = 4, 2
    verts = np.array([[0, 0, 0, 0], [1, 2, 3, 4], [9, 9, 9, 9], [255, 255, 255, 161]], np.uint8)
    return MdlSpec(
        skin_width=w,
        skin_height=h,
        skins=[bytes([1] * 8), SkinGroup([0.25, 0.5], [bytes([2] * 8), bytes([3] * 8)])],
        frames=[
            Pose(b"idle1\0junk", verts, bbox_min=(1, 2, 3, 4), bbox_max=(9, 8, 7, 6)),
            Group(
                [0.1, 0.2, 0.3],
                [Pose(b"fire1", verts), Pose(b"fire2", verts), Pose(b"fire3", verts[::-1].copy())],
            ),
            Pose(b"idle2", verts),
        ],
        trailer=b"QMEX\x03\x00\x00\x00junk",
    )


def test_groups_raw_names_and_trailer_are_kept() -> None:
    data = build(_rich_spec())
    m = Mdl.from_bytes(data)
    assert m.to_bytes() == data
    parts = parts_of(m)
    assert [s.group for s in parts.skins] == [0, 1]
    assert [(f.kind, f.num_poses) for f in parts.frames] == [(0, 1), (1, 3), (0, 1)]
    assert parts.frames[1].bbox == bytes(4) + bytes([255, 255, 255, 0])
    assert bytes(parts.poses["name"][0]) == b"idle1\0junk".ljust(16, b"\0")
    assert parts.trailer == b"QMEX\x03\x00\x00\x00junk"
    # an edit goes through: no trailer, and a new interval
    parts.trailer = b""
    assert parts.frames[1].intervals is not None
    parts.frames[1].intervals[2] = 0.75
    edited = Mdl.from_bytes(encode(parts))
    assert edited.trailer == b"" and len(edited.data) == len(data) - 12
    assert edited.frame_groups[1].intervals is not None
    assert edited.frame_groups[1].intervals.tolist() == pytest.approx([0.1, 0.2, 0.75])


def test_encode_refuses_inconsistent_parts() -> None:
    parts = parts_of(Mdl.from_bytes(build(_rich_spec())))
    parts.frames[1].num_poses = 2
    with pytest.raises(BadValueError, match="the frames hold 4 poses, not 5"):
        encode(parts)


# -- seams ---------------------------------------------------------------------------------------


def test_seam_pair_becomes_one_on_seam_vertex() -> None:
    # vertex 1 is used at s=2 by a front triangle and s=2+4 (half of width 8) by another
    tris = np.array([[0, 1, 2], [1, 3, 2]])
    st = np.array([[[0, 0], [2, 0], [0, 3]], [[6, 0], [7, 3], [5, 3]]])
    s = seam_vertices(tris, st, 4, 8)
    assert s.on_seam.tolist() == [False, True, False, False, False]
    assert s.faces_front.tolist() == [True, False]
    assert s.st.tolist() == [[0, 0], [2, 0], [0, 3], [7, 3], [5, 3]]
    assert s.triangles.tolist() == [[0, 1, 2], [1, 3, 4]]  # vertex 2 at (5,3) is split
    assert s.vertex_of.tolist() == [0, 1, 2, 3, 2] and s.split == 1


def test_seam_conflict_splits_instead() -> None:
    # vertex 1 pairs (2,0)/(6,0); but the triangle that uses (6,0) also uses vertex 0's base
    # texcoord while vertex 0 is itself a seam pair: the back triangle would shift vertex 0
    tris = np.array([[0, 1, 2], [0, 1, 3], [0, 2, 3]])
    st = np.array([[[1, 1], [2, 0], [0, 3]], [[1, 1], [6, 0], [3, 3]], [[5, 1], [0, 3], [3, 3]]])
    s = seam_vertices(tris, st, 4, 8)
    rows = s.st[s.triangles]  # the stored texcoord of each corner's vertex
    shift = np.where(s.on_seam[s.triangles] & ~s.faces_front[:, None], 4, 0)
    rows[:, :, 0] += shift
    assert np.array_equal(rows, st)  # every corner reads back what was asked
    assert s.split >= 1


# -- MDL → MD2 -----------------------------------------------------------------------------------


@pytest.mark.parametrize("path", corpus_params("mdl"))
def test_corpus_mdl_to_md2(path: Path) -> None:
    m = Mdl.from_file(path)
    names = [f"{path.stem}_skin{k}.png" for k in range(m.num_skin_images)]
    result = Md2.from_quantized(m.quantized(), skins=names)
    md2 = Md2.from_bytes(result.model.to_bytes())
    assert md2.num_frames == m.num_poses
    assert md2.num_vertices == m.num_vertices
    assert np.array_equal(md2.triangles, m.triangles)
    assert np.array_equal(_corner_st(md2), _corner_st(m))
    assert md2.skin_width == m.skin_width and md2.skin_height == m.skin_height
    assert np.array_equal(md2.normal_indices, m.normal_indices)
    assert np.all(result.errors <= result.steps / 2 + 1e-9)
    assert np.allclose(md2.positions, m.positions, atol=float(result.steps.max()) / 2 + 1e-4)
    assert md2.skins == [f"{path.stem}_skin{k}.png" for k in range(m.num_skin_images)]
    names = [n[:15] or "" for n in m.frame_names]
    assert [a for a, b in zip(md2.frame_names, names, strict=True) if b] == [n for n in names if n]
    assert not [f for f in md2.check() if f.severity == "error"]


def test_mdl_to_md2_to_mdl_keeps_seams_and_skins() -> None:
    files = [p for p in corpus_files("mdl") if p.name == "assimp_steg.mdl"]
    if not files:
        no_corpus(CORPUS / "mdl")
    m = Mdl.from_file(files[0])
    md2 = Md2.from_quantized(m.quantized()).model
    back = Mdl.from_quantized(md2.quantized(), skins=list(m.skin_rgb()), fullbrights=True).model
    assert back.num_vertices == m.num_vertices == 197
    assert int((back.on_seam != 0).sum()) == int((m.on_seam != 0).sum()) == 151
    assert np.array_equal(_corner_st(back), _corner_st(m))
    assert np.array_equal(back.skin_rgb(), m.skin_rgb())
    assert np.array_equal(back.triangles, m.triangles)


# -- MD2 → MDL -----------------------------------------------------------------------------------


@pytest.mark.parametrize("path", corpus_params("md2"))
def test_corpus_md2_to_mdl(path: Path) -> None:
    md2 = _load_md2(path)
    result = Mdl.from_quantized(md2.quantized(), limits=QUAKESPASM)
    data = result.model.to_bytes()
    m = Mdl.from_bytes(data)
    # our reader: corners keep their position (within one grid step) and texcoords
    vo = result.vertex_of
    assert m.num_poses == md2.num_frames and m.num_triangles == md2.num_triangles
    assert np.array_equal(vo[m.triangles], md2.triangles)
    assert np.array_equal(_corner_st(m), _corner_st(md2))
    step = result.steps[0]
    assert np.all(np.abs(m.positions - md2.positions[:, vo]) <= step / 2 + 1e-3)
    assert np.array_equal(m.normal_indices, md2.normal_indices[:, vo])
    assert np.all(m.skin_indices == 0) and m.skin_width % 4 == 0
    assert not [f for f in m.check("quakespasm") if f.severity == "error"]
    # the generated parser
    spec = QuakeMdl.from_bytes(data)
    assert spec.header.num_verts == m.num_vertices and spec.header.num_frames == m.num_poses
    assert [(t.on_seam, t.s, t.t) for t in spec.texture_coordinates][:3] == [
        (int(o), int(s), int(t))
        for o, (s, t) in zip(m.on_seam[:3], m.texcoords_px[:3], strict=True)
    ]
    # every pose's x, y, z instances as the spec computes them
    for k in (0, m.num_poses - 1):
        pose = spec.frames[k].frames[0]
        got = np.array([(v.x, v.y, v.z) for v in pose.vertices], np.float64)
        assert np.array_equal(got.astype(np.float32), m.positions[k])
        assert pose.name.split("\0")[0] == m.frame_names[k]
    # vgio
    v = VgioMdl.open(io.BytesIO(data))
    assert (v.number_of_vertexes, v.number_of_triangles, v.number_of_frames) == (
        m.num_vertices,
        m.num_triangles,
        m.num_poses,
    )
    assert [tuple(t.vertexes) for t in v.triangles] == [tuple(t) for t in m.triangles.tolist()]
    assert [t.on_seam for t in v.st_vertexes] == [int(o) for o in m.on_seam]
    assert [f.name for f in v.frames] == m.frame_names


def test_seamed_md2_gets_on_seam_vertices() -> None:
    files = [p for p in corpus_files("md2") if p.name == "ppm_sentry.md2"]
    if not files:
        no_corpus(CORPUS / "md2")
    md2 = _load_md2(files[0])
    m = Mdl.from_quantized(md2.quantized()).model
    # the sentry's texcoords are Quake-style front/back halves: no vertex needs a split
    assert (m.num_vertices, int((m.on_seam == ONSEAM).sum())) == (219, 138)
    assert int((m.faces_front == 0).sum()) == 196


def test_skin_quantization_avoids_fullbrights() -> None:
    pal = quakemodels.formats.mdl.default_palette()
    image = np.stack([pal[[10, 230, 254, 255]]] * 2)  # (2,4,3)
    assert quantize_skin(image).max() < FIRST_FULLBRIGHT
    assert quantize_skin(image)[0, 0] == 10
    exact = quantize_skin(image, fullbrights=True)
    assert exact[0].tolist()[:3] == [10, 230, 254]
    assert exact[0, 3] != 255  # the transparent index is never chosen


def test_rgb_skin_and_width_padding() -> None:
    pal = quakemodels.formats.mdl.default_palette()
    skin = np.zeros((6, 10, 3), np.uint8)
    skin[:, :] = pal[100]
    tris = [[0, 1, 2]]
    st = [[0, 0], [9, 0], [9, 5]]
    result = Mdl.build(
        np.array([[[0, 0, 0], [10, 0, 0], [10, 10, 5]]], np.float32),
        tris,
        st,
        tris,
        ["base"],
        skins=[skin],
    )
    m = result.model
    assert (m.skin_width, m.skin_height) == (12, 6)  # padded to a multiple of 4
    assert np.all(m.skin_indices[0, :, :10] == 100) and np.all(m.skin_indices[0, :, 10:] == 0)
    assert m.texcoords_px[:3].tolist() == st
    assert np.allclose(m.positions[0], [[0, 0, 0], [10, 0, 0], [10, 10, 5]], atol=0.03)


def test_groups_are_built() -> None:
    pos = np.random.default_rng(1).uniform(-20, 20, (5, 3, 3)).astype(np.float32)
    tris = [[0, 1, 2]]
    st = [[0, 0], [4, 0], [4, 4]]
    skins = [np.full((8, 8), k, np.uint8) for k in (1, 2, 3)]
    result = Mdl.build(
        pos,
        tris,
        st,
        tris,
        ["a", "b1", "b2", "b3", "c"],
        skins=skins,
        skin_groups=[None, [0.2, 0.9]],
        frame_groups=[None, [0.05, 0.25, 0.7], None],
        flags=8,
        synctype=1,
        eye_position=(0, 0, 22),
    )
    m = result.model
    assert [(g.is_group, g.num_poses) for g in m.frame_groups] == [
        (False, 1),
        (True, 3),
        (False, 1),
    ]
    assert m.frame_groups[1].intervals is not None
    assert m.frame_groups[1].intervals.tolist() == pytest.approx([0.05, 0.25, 0.7])
    assert [(g.is_group, g.num_images) for g in m.skin_groups] == [(False, 1), (True, 2)]
    assert m.skin_indices[:, 0, 0].tolist() == [1, 2, 3]
    assert (m.header["flags"], m.header["synctype"], m.header["eye_position"]) == (8, 1, (0, 0, 22))
    assert np.all(result.errors <= result.steps / 2 + 1e-9)
    radius = float(np.linalg.norm(m.positions.reshape(-1, 3), axis=1).max())
    assert m.header["radius"] == pytest.approx(radius, rel=1e-5)
    # vgio reads the groups too
    v = VgioMdl.open(io.BytesIO(m.to_bytes()))
    assert [f.type for f in v.frames] == [0, 1, 0]
    assert list(v.frames[1].intervals) == pytest.approx([0.05, 0.25, 0.7])
    assert not [f for f in m.check() if f.severity == "error"]


def test_limits_and_bad_input() -> None:
    pos = np.zeros((1, 3, 3), np.float32)
    pos[0, 1, 0] = pos[0, 2, 1] = 1
    tris = [[0, 1, 2]]
    st = [[0, 0], [1, 0], [0, 1]]
    with pytest.raises(LimitExceededError, match=r"3 vertices .* exceed the limit of 2") as e:
        Mdl.build(pos, tris, st, tris, ["a"], limits=Limits(max_vertices=2))
    assert e.value.field == "num_verts"
    with pytest.raises(LimitExceededError, match="481 skin rows exceed the limit of 480"):
        Mdl.build(pos, tris, st, tris, ["a"], skin_size=(8, 481))
    assert Mdl.build(pos, tris, st, tris, ["a"], skin_size=(8, 481), limits=FORMAT_LIMITS)
    assert VANILLA.max_vertices == 1024 and QUAKESPASM.max_vertices == 2000
    with pytest.raises(LimitExceededError, match="16 bytes"):
        Mdl.build(pos, tris, st, tris, ["a" * 16])
    with pytest.raises(BadValueError, match="frame groups cover 2 items, not 1"):
        Mdl.build(pos, tris, st, tris, ["a"], frame_groups=[[0.1, 0.2]])
    with pytest.raises(BadValueError, match="must increase"):
        Mdl.build(np.concatenate([pos, pos]), tris, st, tris, ["a", "b"], frame_groups=[[0.2, 0.1]])
    with pytest.raises(BadValueError, match=r"outside 0\.\.2"):
        Mdl.build(pos, [[0, 1, 3]], st, tris, ["a"])
    with pytest.raises(BadValueError, match="not the skin size"):
        Mdl.build(pos, tris, st, tris, ["a"], skins=[np.zeros((4, 4), np.uint8)], skin_size=(8, 8))


@pytest.mark.parametrize(
    ("options", "message"),
    [
        # a blank skin this large was allocated (MemoryError); Quake's C int could not size it
        (
            {"skin_size": (2**31 - 1, 2), "limits": FORMAT_LIMITS},
            "a skin of 2147483647 x 2 pixels exceeds the format's 2147483647 pixels",
        ),
        # the int64 cast made NaN, fractions and 1e20 some colour
        ({"skins": [np.full((8, 8, 3), np.nan)]}, "RGB values must be whole numbers in 0..255"),
        ({"skins": [np.full((8, 8, 3), 0.5)]}, "RGB values must be whole numbers in 0..255"),
        ({"skins": [np.full((8, 8, 3), 1e20)]}, "RGB values must be whole numbers in 0..255"),
        ({"skins": [np.full((8, 8, 3), "a")]}, r"skins\[0\]: not a numeric array"),
        # header words: numpy's OverflowError and ValueError, or infinity written
        ({"flags": 2**31}, "flags=2147483648 is not a 32-bit integer"),
        ({"synctype": float("nan")}, "synctype=nan is not a 32-bit integer"),
        ({"eye_position": (1e300, 0, 0)}, "must be three finite float32 values"),
        ({"frame_groups": [[1e300]]}, r"frame groups\[0\]: a group needs intervals > 0"),
        # the int64 cast of 1e300 wrapped to a negative number that passed the 32-bit check
        ({"texcoords_px": [[0, 0], [1, 0], [1e300, 1]]}, "do not fit 32-bit integers"),
        # as_palette raised a plain ValueError
        (
            {"palette": np.zeros((10, 3), np.uint8), "skins": [np.zeros((8, 8, 3), np.uint8)]},
            r"a palette array has shape \(256, 3\), not \(10, 3\)",
        ),
    ],
)
def test_bad_build_input_is_a_bad_value(options: dict[str, object], message: str) -> None:
    pos = np.zeros((1, 3, 3), np.float32)
    pos[0, 1, 0] = pos[0, 2, 1] = 1
    args: dict[str, object] = dict(
        positions=pos,
        triangles=[[0, 1, 2]],
        texcoords_px=[[0, 0], [1, 0], [0, 1]],
        triangle_texcoords=[[0, 1, 2]],
        frame_names=["a"],
        skin_size=(8, 8),
    )
    with pytest.raises(BadValueError, match=message):
        Mdl.build(**{**args, **options})  # type: ignore[arg-type]


# -- glTF: frame groups keyed by their intervals ------------------------------------------------


def _grouped_model() -> Mdl:
    """A model whose frame group has uneven intervals (the corpus's are all 0.1 apart)."""
    rng = np.random.default_rng(7)
    pos = rng.uniform(-20, 20, (6, 4, 3)).astype(np.float32)
    tris = [[0, 1, 2], [0, 2, 3]]
    st = [[0, 0], [8, 0], [8, 8], [0, 8]]
    return Mdl.build(
        pos,
        tris,
        st,
        tris,
        ["stand1", "stand2", "burn1", "burn2", "burn3", "burn4"],
        skins=[np.full((8, 8), 70, np.uint8)],
        frame_groups=[None, None, [0.05, 0.3, 0.35, 1.0]],
    ).model


def test_group_clip_times_come_from_intervals() -> None:
    m = _grouped_model()
    assert m.animations == {"stand": range(0, 2), "burn": range(2, 6)}
    times = group_times(m)
    assert list(times) == ["burn"]
    assert times["burn"].tolist() == pytest.approx([0.0, 0.05, 0.3, 0.35])
    em = mdl_scene(m)
    assert em.key_times("burn", 4).tolist() == pytest.approx([0.0, 0.05, 0.3, 0.35])
    assert em.key_times("stand", 2).tolist() == pytest.approx([0.0, 0.1])


def test_gltf_with_group_timing_validates_and_loads_in_threejs(tmp_path: Path) -> None:
    targets = []
    built = tmp_path / "grouped.glb"
    export_gltf(mdl_scene(_grouped_model()), built)
    targets.append(built)
    corpus = [p for p in corpus_files("mdl") if p.name == "nexuiz_gib3.mdl"]
    for path in corpus:
        target = tmp_path / f"{path.stem}.glb"
        export_gltf(mdl_scene(Mdl.from_file(path)), target)
        targets.append(target)
    doc = pygltflib.GLTF2.load(str(built))
    burn = next(a for a in doc.animations if a.name == "burn")
    acc = doc.accessors[burn.samplers[0].input]
    assert acc.count == 4 and acc.max == pytest.approx([0.35]) and acc.min == [0.0]
    for report in _node_json("validate_gltf.mjs", targets):
        assert _errors(report) == [], report["file"]
        assert report["warnings"] == 0, report
    loaded = {r["file"]: r for r in _node_json("threejs_gltf.mjs", targets)}
    three = loaded[str(built)]
    assert three.get("error") is None
    durations = {a["name"]: a["duration"] for a in three["animations"]}
    assert durations == pytest.approx({"stand": 0.1, "burn": 0.35})
    for path in corpus:
        gib = loaded[str(tmp_path / f"{path.stem}.glb")]
        assert {a["name"]: a["duration"] for a in gib["animations"]} == pytest.approx({"gib3": 2.1})


# -- the CLI ------------------------------------------------------------------------------------


def test_cli_mdl_to_md2_writes_skins(tmp_path: Path) -> None:
    files = [p for p in corpus_files("mdl") if p.name == "lq_armor.mdl"]
    if not files:
        no_corpus(CORPUS / "mdl")
    out = tmp_path / "armor.md2"
    assert main(["convert", str(files[0]), str(out)]) == 0
    md2 = Md2.from_file(out)
    # TGA, which Quake II's GL renderer loads (it does not load PNG), named by the file name
    # (no game folder above tmp_path)
    assert md2.skins == ["armor_skin0.tga", "armor_skin1.tga", "armor_skin2.tga"]
    src = Mdl.from_file(files[0])
    for k in range(3):
        with Image.open(tmp_path / f"armor_skin{k}.tga") as image:
            assert image.mode == "RGB"
            assert np.array_equal(np.asarray(image), src.skin_rgb()[k])
    # and back: the skin found beside the MD2 is quantized to the same indices
    back = tmp_path / "armor.mdl"
    assert main(["convert", str(out), str(back), "--fullbrights"]) == 0
    again = Mdl.from_file(back)
    assert np.array_equal(again.skin_rgb()[0], src.skin_rgb()[0])
    assert np.array_equal(_corner_st(again), _corner_st(src))
    # --no-clobber: nothing replaced, exit 3
    before = back.read_bytes()
    assert main(["convert", str(out), str(back), "--no-clobber"]) == 3
    assert back.read_bytes() == before


def test_cli_md2_to_mdl_limits(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = [p for p in corpus_files("md2") if p.name == "ppm_drfreak.md2"]
    if not files:
        no_corpus(CORPUS / "md2")
    out = tmp_path / "drfreak.mdl"
    assert main(["convert", str(files[0]), str(out)]) == 0
    text = capsys.readouterr().out
    assert "198 poses, 585 vertices (0 on the seam, 89 split)" in text
    assert "skin from ppm_drfreak__drfreak.pcx" in text
    m = Mdl.from_file(out)
    assert m.num_vertices == 585 and len(np.unique(m.skin_indices)) > 20
    assert main(["convert", str(tmp_path / "nothing.glb"), str(tmp_path / "x.mdl")]) == 1
    text_file = tmp_path / "notes.txt"
    text_file.write_text("not a model")
    assert main(["convert", str(text_file), str(tmp_path / "x.mdl")]) == 2  # usage
    assert not (tmp_path / "x.mdl").exists()


def test_cli_gltf_to_mdl(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = [p for p in corpus_files("md2") if p.name == "ppm_drfreak.md2"]
    if not files:
        no_corpus(CORPUS / "md2")
    md2 = _load_md2(files[0])
    glb = tmp_path / "dr.glb"
    assert main(["convert", str(files[0]), str(glb)]) == 0
    skin = files[0].with_name("ppm_drfreak__drfreak.pcx")
    out = tmp_path / "dr.mdl"
    assert main(["convert", str(glb), str(out), "--skin", str(skin)]) == 0
    assert "198 poses, 583 vertices (0 on the seam), 593 triangles, skin from" in (
        capsys.readouterr().out
    )
    m = Mdl.from_file(out)
    assert (m.num_poses, m.num_triangles, m.skin_width, m.skin_height) == (198, 593, 256, 256)
    # every corner keeps its texcoord pixel and (within the MDL grid) its position
    assert np.array_equal(_corner_st(m), _corner_st(md2))
    step = np.array(m.header["scale"], np.float64)
    corners = m.positions[:, m.triangles.reshape(-1)]
    expected = md2.positions[:, md2.triangles.reshape(-1)]
    assert np.all(np.abs(corners - expected) <= step / 2 + 1e-3)
    assert len(np.unique(m.skin_indices)) > 20
    assert not [f for f in m.check() if f.severity == "error"]
    # a missing skin image is an input error (exit 1), and nothing is written
    assert main(["convert", str(glb), str(tmp_path / "x.mdl"), "--skin", "nothere.png"]) == 1
    assert not (tmp_path / "x.mdl").exists()
