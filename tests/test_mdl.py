"""quakemodels.Mdl against the generated parser, against vgio, and on synthetic files."""

from __future__ import annotations

import hashlib
import io
import struct
import warnings
from pathlib import Path

import md3builder
import numpy as np
import pygltflib
import pytest
from conftest import CORPUS, corpus_files, corpus_params, no_corpus
from mdlbuilder import Group, MdlSpec, Pose, SkinGroup, build, set_header
from test_export import _errors, _node_json
from vgio.quake import anorms as vgio_anorms
from vgio.quake import palette as vgio_palette
from vgio.quake.mdl import Mdl as VgioMdl

import quakemodels
from quakemodels import (
    BadMagicError,
    BadValueError,
    BadVersionError,
    ModelFormatError,
    QuakeModelsWarning,
    TruncatedError,
)
from quakemodels.core.findings import Finding
from quakemodels.formats.md2 import anorms
from quakemodels.formats.mdl import Mdl, as_palette, default_palette
from quakemodels.formats.mdl.check import check_mdl
from quakemodels.formats.mdl.describe import describe as describe_mdl
from quakemodels.formats.mdl.scene import scene as from_mdl
from quakemodels.interchange.gltf_write import export_gltf
from quakemodels.kaitai.quake_mdl import QuakeMdl

PALETTE_SHA256 = "6b20b5bc4ea965ef1852b05670d043ca16148a0ecad4e63028121c8aebc268fe"


def spec_positions(pose: QuakeMdl.MdlSimpleFrame) -> np.ndarray:
    """(V,3) float32 of the spec's own x, y, z instances."""
    return np.array([(v.x, v.y, v.z) for v in pose.vertices], np.float64).astype(np.float32)


# -- the generated parser, value for value ------------------------------------------------------


@pytest.mark.parametrize("path", corpus_params("mdl"))
def test_corpus_matches_generated_parser(path: Path) -> None:
    data = path.read_bytes()
    m = Mdl.from_bytes(data, name=str(path)).load_all()
    spec = QuakeMdl.from_bytes(data)
    h = spec.header
    assert m.header["num_verts"] == h.num_verts == m.num_vertices
    assert m.header["scale"] == (h.scale.x, h.scale.y, h.scale.z)
    assert m.header["origin"] == (h.origin.x, h.origin.y, h.origin.z)
    assert m.header["eye_position"] == (h.eye_position.x, h.eye_position.y, h.eye_position.z)
    for name in ("radius", "num_skins", "skin_width", "skin_height", "num_tris", "num_frames"):
        assert m.header[name] == getattr(h, name)
    assert (m.synctype, m.flags, m.size) == (h.synctype, h.flags, h.size)
    # the walk ends where the generated parser's seq ends
    assert m.ofs_end == spec._io.pos()
    assert m.trailer == data[spec._io.pos() :]

    # skins
    images = []
    for group, s in zip(m.skin_groups, spec.skins, strict=True):
        assert group.is_group == (s.group != 0)
        if s.group == 0:
            assert group.intervals is None
            images.append(s.single_texture_data)
        else:
            assert group.num_images == s.num_frames
            assert group.intervals is not None
            assert group.intervals.tolist() == s.frame_times
            images.extend(s.group_texture_data)
    assert [img.tobytes() for img in m.skin_indices] == images

    # texcoords and triangles
    st = np.array([(t.on_seam, t.s, t.t) for t in spec.texture_coordinates], np.int32)
    assert np.array_equal(m.on_seam, st[:, 0])
    assert np.array_equal(m.texcoords_px[: m.num_vertices], st[:, 1:])
    tris = np.array([(t.faces_front, *t.vertices) for t in spec.triangles], np.int32)
    assert np.array_equal(m.faces_front, tris[:, 0])
    assert np.array_equal(m.triangles, tris[:, 1:])

    # frames, groups and every pose
    poses = []
    for group, f in zip(m.frame_groups, spec.frames, strict=True):
        assert group.is_group == (f.type != 0)
        assert group.num_poses == f.num_simple_frames
        if f.type != 0:
            assert group.intervals is not None
            assert group.intervals.tolist() == f.time
        poses.extend(f.frames)
    assert len(poses) == m.num_poses
    assert m.frame_names == [p.name for p in poses]
    for k, pose in enumerate(poses):
        # bit-identical to the spec's v * scale + origin
        assert np.array_equal(m.positions[k], spec_positions(pose))
        assert m.normal_indices[k].tolist() == [v.normal_index for v in pose.vertices]
        assert np.array_equal(
            m.bboxes[k],
            np.array([(b.x, b.y, b.z) for b in (pose.bbox_min, pose.bbox_max)], np.float64).astype(
                np.float32
            ),
        )


def test_corpus_facts() -> None:
    """Counts from the corpus README, so a wrong walk cannot agree with itself."""
    files = {p.name: p for p in corpus_files("mdl")}
    if not files:
        no_corpus(CORPUS / "mdl")
    flame = Mdl.from_file(files["lq_flame2.mdl"])
    assert (flame.num_header_frames, flame.num_frames, flame.num_poses) == (2, 14, 14)
    assert [(g.first_pose, g.num_poses) for g in flame.frame_groups] == [(0, 7), (7, 7)]
    assert flame.animations == {"flame": range(0, 7), "flameb": range(7, 14)}
    assert flame.trailer[:4] == b"QMEX" and flame.ofs_end == 16524
    gib = Mdl.from_file(files["nexuiz_gib3.mdl"])
    assert gib.frame_groups[0].num_poses == 22
    assert gib.frame_groups[0].intervals is not None
    assert np.allclose(gib.frame_groups[0].intervals, np.arange(1, 23) / 10)
    armor = Mdl.from_file(files["lq_armor.mdl"])
    assert armor.skin_rgb().shape == (3, 200, 200, 3)
    assert [image.shape for image in armor.skin_images] == [(200, 200, 4)] * 3
    steg = Mdl.from_file(files["assimp_steg.mdl"])
    assert (steg.skin_width, steg.skin_height) == (12, 10)
    assert steg.trailer[:4] == b"QMEX"
    # the only corpus model with seams: 151 on-seam vertices, 117 back-facing triangles
    assert int((steg.on_seam != 0).sum()) == 151 and int((steg.faces_front == 0).sum()) == 117
    mesh = steg.mesh(0)
    assert len(mesh.positions) > steg.num_vertices  # seam vertices duplicated


# -- vgio as an independent peer -----------------------------------------------------------------


@pytest.mark.parametrize("path", corpus_params("mdl"))
def test_corpus_matches_vgio(path: Path) -> None:
    data = path.read_bytes()
    m = Mdl.from_bytes(data)
    v = VgioMdl.open(io.BytesIO(data))
    assert v.scale == tuple(m.header["scale"]) and v.origin == tuple(m.header["origin"])
    assert (v.number_of_vertexes, v.number_of_triangles, v.number_of_frames) == (
        m.num_vertices,
        m.num_triangles,
        m.num_header_frames,
    )
    # skins: vgio keeps raw palette indices
    pixels: list[int] = []
    for s in v.skins:
        pixels.extend(s.pixels)
    assert m.skin_indices.reshape(-1).tolist() == pixels
    assert [(s.on_seam, s.s, s.t) for s in v.st_vertexes] == [
        (int(o), int(s), int(t))
        for o, (s, t) in zip(m.on_seam, m.texcoords_px[: m.num_vertices], strict=True)
    ]
    assert [tuple(t.vertexes) for t in v.triangles] == [tuple(t) for t in m.triangles.tolist()]
    # poses: raw bytes, normals through vgio's own table, names, intervals
    vposes, vintervals = [], []
    for f in v.frames:
        if f.type == 0:
            vposes.append(f)
        else:
            vposes.extend(f.frames)
            vintervals.append(list(f.intervals))
    assert [f.name for f in vposes] == m.frame_names
    raw = m._pose_records["vertices"]
    table = np.array(vgio_anorms, np.float32)
    for k, f in enumerate(vposes):
        packed = np.array([(t.x, t.y, t.z, t.light_normal_index) for t in f.vertexes], np.uint8)
        assert np.array_equal(raw[k], packed)
        assert np.allclose(m.normals[k], table[packed[:, 3]], atol=1e-6)
    assert vintervals == [g.intervals.tolist() for g in m.frame_groups if g.intervals is not None]
    # vgio's mesh applies the seam rule and duplicates vertices; compare per-corner UVs
    vmesh = v.mesh(0)
    ours = m.texcoords[m.triangle_texcoords]  # (T,3,2)
    uv = np.array(vmesh.uvs, np.float64)
    for t, tri in enumerate(vmesh.triangles):
        corners = uv[list(reversed(tri))]  # vgio reverses the winding and flips V
        assert np.allclose(corners[:, 0], ours[t, :, 0], atol=1e-6)
        assert np.allclose(1 - corners[:, 1], ours[t, :, 1], atol=1e-6)


def test_shared_normal_table_is_quakes() -> None:
    """MD2's table (from quake2_md2.ksy) is the one Quake 1 uses (vgio's quake.anorms)."""
    assert np.allclose(anorms(), np.array(vgio_anorms, np.float32), atol=1e-6)


# -- palette -------------------------------------------------------------------------------------


def test_default_palette_is_the_bundled_librequake_file() -> None:
    here = Path(__file__).resolve().parent.parent / "src/quakemodels/core"
    raw = (here / "palette.lmp").read_bytes()
    assert hashlib.sha256(raw).hexdigest() == PALETTE_SHA256
    assert "Redistribution and use in source and binary forms" in (
        here / "palette.LICENSE"
    ).read_text(encoding="utf-8")
    pal = default_palette()
    assert pal.shape == (256, 3) and pal.tobytes() == raw
    assert not pal.flags.writeable
    # the same colours as the Quake palette vgio ships
    assert np.array_equal(pal, np.array(vgio_palette, np.uint8).reshape(256, 3))


def test_skins_decode_through_the_palette_argument() -> None:
    data = build()
    m = Mdl.from_bytes(data)
    assert np.array_equal(m.skin_rgb(), default_palette()[m.skin_indices])
    # skin_images: the same colours as RGBA, opaque, one read-only (H,W,4) array per image
    assert len(m.skin_images) == m.num_skin_images
    for k, image in enumerate(m.skin_images):
        assert image.dtype == np.uint8 and not image.flags.writeable
        assert np.array_equal(image[..., :3], default_palette()[m.skin_indices[k]])
        assert (image[..., 3] == 255).all()
    gray = np.repeat(np.arange(256, dtype=np.uint8)[:, None], 3, axis=1)
    g = Mdl.from_bytes(data, palette=gray)
    assert np.array_equal(g.skin_rgb()[..., 0], g.skin_indices)
    assert np.array_equal(g.skin_images[0][..., 0], g.skin_indices[0])
    assert np.array_equal(Mdl.from_bytes(data, palette=gray.tobytes()).skin_rgb(), g.skin_rgb())
    assert np.array_equal(m.skin_rgb(gray), g.skin_rgb())
    with pytest.raises(ValueError, match="768 bytes, not 767"):
        as_palette(bytes(767))
    with pytest.raises(ValueError, match=r"shape \(256, 3\)"):
        as_palette(np.zeros((16, 3), np.uint8))


def test_palette_from_a_file(tmp_path: Path) -> None:
    p = tmp_path / "palette.lmp"
    p.write_bytes(bytes(range(256)) * 3)
    m = Mdl.from_bytes(build(), palette=p)
    assert m.palette.reshape(-1).tolist() == list(range(256)) * 3


# -- synthetic files: groups, seams, odd sizes, trailers -----------------------------------------


def test_default_synthetic_model() -> None:
    m = Mdl.from_bytes(build())
    assert (m.num_header_frames, m.num_frames, m.num_vertices, m.num_triangles) == (2, 2, 4, 3)
    assert [len(x.positions) for x in m.meshes(1)] == [len(m.mesh(1).positions)]
    assert m.frame_names == ["stand1", "stand2"]
    assert m.animations == {"stand": range(0, 2)}
    # v * scale + origin
    assert m.positions[0].tolist() == [
        [-10.0, -5.0, 2.0],
        [117.5, -5.0, 2.0],
        [117.5, 58.75, 2.0],
        [-10.0, 58.75, 12.0],
    ]
    assert np.array_equal(m.positions[1], m.positions[0][::-1])
    assert m.trailer == b"" and m.ofs_end == len(build())


def test_seam_rule_and_mesh() -> None:
    m = Mdl.from_bytes(build())
    # triangle 1 faces back and uses vertex 1, which is on the seam: row V + 1, s + 12 // 2
    assert m.triangle_texcoords.tolist() == [[0, 1, 2], [0, 2, 5], [0, 2, 3]]
    assert m.texcoords_px[5].tolist() == [11, 0]
    assert m.texcoords[5].tolist() == [np.float32(11 / 12), 0.0]
    mesh = m.mesh(1)
    # vertex 1 appears twice (front and back of the seam); the others once
    assert mesh.vertex_ids.tolist() == [0, 1, 2, 1, 3]
    assert mesh.texcoord_ids.tolist() == [0, 1, 2, 5, 3]
    assert mesh.indices.tolist() == [[0, 2, 1], [0, 3, 2], [0, 4, 2]]  # render order
    assert np.array_equal(mesh.positions, m.positions[1][[0, 1, 2, 1, 3]])
    assert np.array_equal(mesh.uvs, m.texcoords[[0, 1, 2, 5, 3]])


def test_odd_skin_width_halves_like_the_engine() -> None:
    spec = MdlSpec(skin_width=13, skin_height=7)
    m = Mdl.from_bytes(build(spec))
    assert m.skin_indices.shape == (1, 7, 13)
    assert m.texcoords_px[5].tolist() == [5 + 6, 0]  # 13 // 2


def test_skin_group_and_frame_group() -> None:
    w, h = 4, 2
    a, b, c = bytes([1] * 8), bytes([2] * 8), bytes([3] * 8)
    verts = np.array([[0, 0, 0, 0], [1, 2, 3, 4], [9, 9, 9, 9], [255, 255, 255, 161]], np.uint8)
    spec = MdlSpec(
        skin_width=w,
        skin_height=h,
        skins=[a, SkinGroup([0.25, 0.5], [b, c])],
        frames=[
            Pose(b"idle1", verts),
            Group(
                [0.1, 0.2, 0.3], [Pose(b"fire1", verts), Pose(b"fire2", verts), Pose(b"x", verts)]
            ),
            Pose(b"idle2", verts),
            Pose(b"idle3", verts),
        ],
        trailer=b"QMEX\x03\x00\x00\x00junk",
    )
    m = Mdl.from_bytes(build(spec))
    assert [(g.is_group, g.first_image, g.num_images) for g in m.skin_groups] == [
        (False, 0, 1),
        (True, 1, 2),
    ]
    assert m.skin_groups[1].intervals is not None
    assert m.skin_groups[1].intervals.tolist() == [0.25, 0.5]
    assert m.skin_indices[:, 0, 0].tolist() == [1, 2, 3]
    assert [(g.is_group, g.first_pose, g.num_poses) for g in m.frame_groups] == [
        (False, 0, 1),
        (True, 1, 3),
        (False, 4, 1),
        (False, 5, 1),
    ]
    assert m.frame_groups[1].intervals is not None
    assert np.allclose(m.frame_groups[1].intervals, [0.1, 0.2, 0.3])
    assert m.frame_names == ["idle1", "fire1", "fire2", "x", "idle2", "idle3"]
    # single frames grouped by name around the group; the group is a clip of its own
    assert m.animations == {"idle": range(0, 1), "fire": range(1, 4), "idle_2": range(4, 6)}
    assert m.trailer == b"QMEX\x03\x00\x00\x00junk"
    # the generated parser agrees on the group
    s = QuakeMdl.from_bytes(build(spec))
    assert s.frames[1].num_time == 3 and [p.name for p in s.frames[1].frames][2] == "x"
    assert s.skins[1].num_frames == 2


def test_lerp_and_sample() -> None:
    m = Mdl.from_bytes(build())
    mid = m.lerp(0, 1, 0.5)
    assert np.array_equal(mid, (m.positions[0] + (m.positions[1] - m.positions[0]) * 0.5))
    assert np.array_equal(m.sample("stand", 0.05), m.lerp(0, 1, 0.5))
    assert np.array_equal(m.sample("stand", 10.0, loop=False), m.positions[1])
    with pytest.raises(KeyError, match="no clip 'run'"):
        m.sample("run", 0.0)
    with pytest.raises(IndexError):
        m.lerp(0, 2, 0.5)


def test_constructors(tmp_path: Path) -> None:
    data = build()
    p = tmp_path / "m.mdl"
    p.write_bytes(data)
    a = Mdl.from_file(p)
    b = Mdl.from_io(io.BytesIO(data))
    c = Mdl.from_bytes(bytearray(data))
    assert a.name == str(p)
    for m in (a, b, c):
        assert np.array_equal(m.positions, a.positions)
    assert repr(c) == "<Mdl: 2 frames (2 poses), 4 vertices, 3 triangles, 1 skins>"


def test_non_ascii_frame_name_warns() -> None:
    verts = np.zeros((4, 4), np.uint8)
    m = Mdl.from_bytes(build(MdlSpec(frames=[Pose(b"caf\xe9", verts)])))
    with pytest.warns(QuakeModelsWarning, match=r"frames.name\[0\] at offset"):
        assert m.frame_names == ["caf\\xe9"]


def test_junk_after_nul_in_names_is_kept_raw() -> None:
    verts = np.zeros((4, 4), np.uint8)
    m = Mdl.from_bytes(build(MdlSpec(frames=[Pose(b"base\0\xcc\xcc", verts)])))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert m.frame_names == ["base"]
    assert m.frame_names_raw == [b"base\0\xcc\xcc".ljust(16, b"\0")]


def test_no_frames_and_no_poses_are_refused() -> None:
    # Quake's Mod_LoadAliasModel: "Invalid # of frames" below 1
    with pytest.raises(BadValueError) as caught:
        Mdl.from_bytes(build(MdlSpec(frames=[])))
    assert (caught.value.field, caught.value.offset) == ("num_frames", 68)
    assert "num_frames=0 at offset 68: the model has no frames" in str(caught.value)
    # one frame, a group of no poses: nothing to draw either
    data = build(MdlSpec(frames=[Group([], [])]))
    with pytest.raises(BadValueError) as caught:
        Mdl.from_bytes(data)
    at = caught.value.offset
    assert caught.value.field == "num_time" and data[at - 4 : at + 4] == bytes(
        [1, 0, 0, 0] + [0] * 4
    )
    assert str(caught.value) == (
        f"frames[0].num_time=0 at offset {at}: every frame is a group of no poses, so the model"
        " has no pose"
    )
    # an empty group beside poses still loads (the checker's empty-group error)
    m = Mdl.from_bytes(
        build(MdlSpec(frames=[Pose(b"a", np.zeros((4, 4), np.uint8)), Group([], [])]))
    )
    assert m.num_poses == 1 and m.num_header_frames == 2


# -- bad input: only ModelFormatError, naming field and offset -----------------------------------


def _rich() -> bytes:
    verts = np.array([[1, 2, 3, 4]] * 4, np.uint8)
    return build(
        MdlSpec(
            skin_width=4,
            skin_height=2,
            skins=[bytes(8), SkinGroup([0.5], [bytes(8)])],
            frames=[Pose(b"a1", verts), Group([0.1, 0.2], [Pose(b"b1", verts)] * 2)],
        )
    )


def test_truncation_at_every_offset() -> None:
    data = _rich()
    for cut in range(len(data)):
        with pytest.raises(ModelFormatError) as e:
            Mdl.from_bytes(data[:cut]).load_all()
        err = e.value
        assert isinstance(err, (TruncatedError, BadMagicError)), (cut, err)
        assert err.field is not None and err.offset is not None, cut
        assert f"offset {err.offset}" in str(err) or f"at offset {cut}" in str(err), (cut, err)
        assert err.offset <= cut, (cut, err)
    Mdl.from_bytes(data).load_all()


def test_truncation_messages() -> None:
    data = build()
    with pytest.raises(TruncatedError, match="skin_width at offset 54 is cut short") as e:
        Mdl.from_bytes(data[:54])
    assert (e.value.field, e.value.offset) == ("skin_width", 54)
    cut = len(data) - 1
    with pytest.raises(TruncatedError, match=r"frames\[1\] \(one pose of 4 vertices\)") as e:
        Mdl.from_bytes(data[:cut])
    assert e.value.field == "frames"


def test_bad_magic_and_version() -> None:
    with pytest.raises(BadMagicError, match="not an MDL file"):
        Mdl.from_bytes(build(MdlSpec(magic=b"IDP2")))
    with pytest.raises(BadVersionError, match="version=7 at offset 4 is not 6"):
        Mdl.from_bytes(set_header(build(), "version", 7))


@pytest.mark.parametrize(
    ("field", "offset"),
    [
        ("num_skins", 48),
        ("skin_width", 52),
        ("skin_height", 56),
        ("num_verts", 60),
        ("num_tris", 64),
        ("num_frames", 68),
    ],
)
def test_negative_counts(field: str, offset: int) -> None:
    with pytest.raises(BadValueError, match=f"{field}=-1 at offset {offset} is negative") as e:
        Mdl.from_bytes(set_header(build(), field, -1))
    assert (e.value.field, e.value.offset) == (field, offset)


def test_huge_counts_fail_before_allocating() -> None:
    data = build()
    for field in ("num_frames", "num_skins", "num_verts", "num_tris"):
        with pytest.raises(TruncatedError):
            Mdl.from_bytes(set_header(data, field, 2**31 - 1))
    with pytest.raises(TruncatedError, match="single_texture_data"):
        Mdl.from_bytes(set_header(set_header(data, "skin_width", 2**31 - 1), "skin_height", 2))


def test_negative_group_counts() -> None:
    verts = np.zeros((4, 4), np.uint8)
    data = build(MdlSpec(frames=[Group([], [], count=-3)]))
    with pytest.raises(BadValueError, match=r"frames\[0\].num_time=-3 at offset \d+") as e:
        Mdl.from_bytes(data)
    assert e.value.field == "num_time"
    data = build(MdlSpec(skins=[SkinGroup([], [], count=-1)], frames=[Pose(b"a", verts)]))
    with pytest.raises(BadValueError, match=r"skins\[0\].num_frames=-1 at offset 88") as e:
        Mdl.from_bytes(data)
    assert e.value.offset == 88


def test_bad_triangle_index_and_normal() -> None:
    m = Mdl.from_bytes(build(MdlSpec(triangles=[(0x10, 0, 1, 4)])))
    with pytest.raises(BadValueError, match=r"triangles\[0\].vertices\[2\]=4 at offset") as e:
        _ = m.triangles
    tri_offset = 84 + 4 + 12 * 6 + 12 * 4 + 12
    assert e.value.offset == tri_offset
    with pytest.raises(BadValueError):  # nothing cached by the failed decode
        _ = m.triangles
    verts = np.array([[0, 0, 0, 162]] * 4, np.uint8)
    m = Mdl.from_bytes(build(MdlSpec(frames=[Pose(b"a", verts)])))
    with pytest.raises(BadValueError, match=r"normal_index=162 at offset \d+ is not below 162"):
        _ = m.normals
    assert m.positions.shape == (1, 4, 3)  # other arrays still decode


def test_zero_skin_size() -> None:
    m = Mdl.from_bytes(build(MdlSpec(skin_width=0, skin_height=6, skins=[b""])))
    assert m.skin_indices.shape == (1, 6, 0)
    with pytest.raises(BadValueError, match="skin_width=0 at offset 52") as e:
        _ = m.texcoords
    assert str(e.value) == (
        "skin_width=0 at offset 52: texcoords cannot be normalized by a skin size that is"
        " not positive"
    )
    assert (e.value.field, e.value.offset) == ("skin_width", 52)


def test_generated_parser_errors_are_translated(monkeypatch: pytest.MonkeyPatch) -> None:
    # A name byte >= 0x80 no longer fails the generated parser (names are ISO-8859-1 in the
    # spec: one character per byte), so the failure is injected where the parser raises.
    m = Mdl.from_bytes(build(MdlSpec(frames=[Pose(b"caf\xe9", np.zeros((4, 4), np.uint8))])))
    assert m.spec.frames[0].frames[0].name == "caf\xe9"

    def fail(data: bytes) -> None:
        raise EOFError("requested 16 bytes, but only 3 bytes available")

    m = Mdl.from_bytes(build())
    monkeypatch.setattr(QuakeMdl, "from_bytes", fail)
    with pytest.raises(ModelFormatError, match="generated parser cannot read the model: req"):
        _ = m.spec
    assert struct.unpack_from("<i", build(), 68)[0] == 2


# -- check ---------------------------------------------------------------------------------------


def _codes(findings: list[Finding]) -> list[tuple[str, str]]:
    return [(f.severity, f.code) for f in findings]


def test_check_corpus_files_have_no_errors() -> None:
    for path in corpus_files("mdl"):
        for engine in ("any", "quake", "quakespasm"):
            findings = check_mdl(path, engine)
            assert [f for f in findings if f.severity == "error"] == [], (path.name, engine)
    if corpus_files("mdl"):
        steg = next(f for f in corpus_files("mdl") if f.name == "assimp_steg.mdl")
        assert ("warning", "trailing-data") in _codes(check_mdl(steg))


def test_check_engine_limits() -> None:
    data = build(MdlSpec(skin_width=10, skin_height=500, skins=[bytes(5000)]))
    data = set_header(data, "num_tris", 3)
    quake = _codes(check_mdl(data, "quake"))
    assert ("error", "skin-height") in quake and ("error", "skin-width") in quake
    qs = _codes(check_mdl(data, "quakespasm"))
    assert ("warning", "skin-height") in qs and ("error", "skin-width") not in qs
    anything = check_mdl(data, "any")
    assert {f.code for f in anything if f.severity == "warning"} >= {"skin-height", "skin-width"}
    height = next(f for f in anything if f.code == "skin-height")
    assert (height.field, height.offset) == ("skin_height", 56)
    # 1025 vertices: too many for GLQuake (1024), fine for QuakeSpasm (2000)
    verts = np.zeros((1025, 4), np.uint8)
    big = build(
        MdlSpec(stverts=[(0, 0, 0)] * 1025, triangles=[(0x10, 0, 1, 2)], frames=[Pose(b"a", verts)])
    )
    assert ("error", "vertices") in _codes(check_mdl(big, "quake"))
    assert "vertices" not in {f.code for f in check_mdl(big, "quakespasm")}
    assert ("error", "engine-format") in _codes(check_mdl(big, "quake2"))
    with pytest.raises(ValueError, match="engine must be one of"):
        check_mdl(big, "doom")


def test_check_seams_groups_and_indices() -> None:
    spec = MdlSpec(
        stverts=[(0, 0, 0), (1, 9, 0), (0, 5, 5), (0, 0, 5)],
        frames=[Group([0.2, 0.1], [Pose(b"a", np.zeros((4, 4), np.uint8))] * 2), Group([], [])],
    )
    findings = check_mdl(build(spec), "quake")
    codes = _codes(findings)
    assert ("warning", "on-seam") in codes  # on_seam=1: GL and software disagree
    assert ("warning", "texcoord-range") in codes  # 9 + 6 > 12 after the seam shift
    assert ("warning", "interval-order") in codes
    assert ("error", "empty-group") in codes
    seam = next(f for f in findings if f.code == "on-seam")
    assert (seam.field, seam.offset) == ("on_seam", 84 + 4 + 72 + 12)
    bad = check_mdl(build(MdlSpec(triangles=[(0x10, 0, 1, 7)])))
    assert [(f.code, f.field) for f in bad if f.severity == "error"] == [("bad-value", "vertices")]
    broken = check_mdl(build()[:100])
    assert _codes(broken) == [("error", "truncated")]


# -- export: glTF with the skin embedded, validated by Khronos -------------------------------------


def test_export_corpus_to_gltf_validates(tmp_path: Path) -> None:
    files = corpus_files("mdl")
    if not files:
        no_corpus(CORPUS / "mdl")
    targets = []
    for path in files:
        m = Mdl.from_file(path)
        model = from_mdl(m)
        assert model.num_frames == m.num_poses
        assert model.clips == m.animations
        assert model.surfaces[0].skin is not None
        target = tmp_path / f"{path.stem}.glb"
        export_gltf(model, target)
        targets.append(target)
        doc = pygltflib.GLTF2.load(str(target))
        assert len(doc.images) == 1 and doc.images[0].mimeType == "image/png"
        assert len(doc.animations) == len(m.animations)
        assert len(doc.meshes[0].primitives[0].targets) == m.num_poses
    for report in _node_json("validate_gltf.mjs", targets):
        assert _errors(report) == [], report["file"]
        assert report["warnings"] == 0, report


def test_describe_mentions_groups_and_trailer() -> None:
    spec = MdlSpec(frames=[Group([0.1], [Pose(b"f1", np.zeros((4, 4), np.uint8))])], trailer=b"x")
    text = describe_mdl(Mdl.from_bytes(build(spec)))
    assert "counts: 1 frames (1 poses), 4 vertices, 3 triangles, 1 skins (1 images)" in text
    assert "frame 0: poses 0-0 (1), intervals [0.1]" in text
    assert "trailer: 1 bytes after the model at offset" in text


def test_load_picks_mdl_by_magic(tmp_path: Path) -> None:
    data = build()
    p = tmp_path / "model.mdl"
    p.write_bytes(data)
    m = quakemodels.load(p)
    assert isinstance(m, Mdl) and m.name == str(p)
    assert isinstance(quakemodels.load(data), Mdl)
    # a .mdl file holding an MD3 loads as the MD3 it is
    md3 = tmp_path / "really_md3.mdl"
    md3.write_bytes(md3builder.build())
    assert isinstance(quakemodels.load(md3), quakemodels.Md3)
    with pytest.raises(BadMagicError, match="IDPO = MDL"):
        quakemodels.load(b"IDPX" + data[4:])
