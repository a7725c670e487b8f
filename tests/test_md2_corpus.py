"""Every corpus MD2: the numpy facade equals the generated Kaitai parser, value for value."""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pytest
from conftest import corpus_params

import quakemodels
from quakemodels.kaitai.quake2_md2 import Quake2Md2


def _spec(path: Path) -> Quake2Md2:
    return Quake2Md2.from_file(str(path))


@pytest.mark.parametrize("path", corpus_params("md2"))
def test_positions_and_normals_equal_generated_parser(path: Path) -> None:
    m = quakemodels.Md2.from_file(path)
    spec = _spec(path)
    frames = spec.frames
    assert m.positions.shape == (len(frames), spec.vertices_per_frame, 3)
    assert m.positions.dtype == np.float32
    # Every vertex of every frame: float32 of the spec's own double value, bit for bit.
    expected = np.array(
        [[(v.position.x, v.position.y, v.position.z) for v in f.vertices] for f in frames],
        dtype=np.float64,
    ).reshape(m.positions.shape)
    assert m.positions.tobytes() == expected.astype(np.float32).tobytes()
    normal_idx = np.array([[v.normal_index for v in f.vertices] for f in frames], np.uint8)
    assert np.array_equal(m.normal_indices, normal_idx.reshape(m.normal_indices.shape))
    normals = np.array([[v.normal for v in f.vertices] for f in frames], np.float64)
    assert m.normals.tobytes() == normals.astype(np.float32).reshape(m.normals.shape).tobytes()
    scales = np.array([(f.scale.x, f.scale.y, f.scale.z) for f in frames], np.float32)
    translates = np.array([(f.translate.x, f.translate.y, f.translate.z) for f in frames])
    assert np.array_equal(m.scales, scales.reshape(m.scales.shape))
    assert np.array_equal(m.translates, translates.astype(np.float32).reshape(m.scales.shape))
    assert m.frame_names == [f.name for f in frames]


@pytest.mark.parametrize("path", corpus_params("md2"))
def test_topology_names_and_gl_commands_equal_generated_parser(path: Path) -> None:
    m = quakemodels.Md2.from_file(path)
    spec = _spec(path)
    tex = np.array([(t.s_px, t.t_px) for t in spec.tex_coords], np.int64).reshape(-1, 2)
    assert np.array_equal(m.texcoords_px, tex)
    norm = np.array([(t.s_normalized, t.t_normalized) for t in spec.tex_coords], np.float64)
    assert m.texcoords.tobytes() == norm.astype(np.float32).reshape(-1, 2).tobytes()
    tris = np.array([t.vertex_indices for t in spec.triangles], np.int64).reshape(-1, 3)
    st = np.array([t.tex_point_indices for t in spec.triangles], np.int64).reshape(-1, 3)
    assert np.array_equal(m.triangles, tris)
    assert np.array_equal(m.triangle_texcoords, st)
    assert m.skins == list(spec.skins)
    items = spec.gl_cmds.items or []
    real = [c for c in items if c.cmd_num_vertices != 0]
    assert items[-1].cmd_num_vertices == 0
    assert len(m.gl_commands) == len(real)
    for ours, theirs in zip(m.gl_commands, real, strict=True):
        assert ours.primitive == ("fan" if theirs.primitive.name == "triangle_fan" else "strip")
        assert ours.vertex_indices.tolist() == [v.vertex_index for v in theirs.vertices]
        tc = np.array([v.tex_coords_normalized for v in theirs.vertices], np.float32)
        assert np.array_equal(ours.texcoords, tc)


@pytest.mark.parametrize("path", corpus_params("md2"))
def test_header_and_raw_sections(path: Path) -> None:
    data = path.read_bytes()
    m = quakemodels.load(path)
    assert isinstance(m, quakemodels.Md2)
    spec = _spec(path)
    for key, value in m.header.items():
        assert value == getattr(spec, key)
    assert m.num_vertices == spec.vertices_per_frame
    assert m.ofs_end == spec.ofs_end
    # Raw names keep the junk after the NUL exactly as stored.
    for i, raw in enumerate(m.frame_names_raw):
        start = m.ofs_frames + i * m.framesize + 24
        assert raw == data[start : start + 16]
    assert b"".join(m.skins_raw) == data[m.ofs_skins : m.ofs_skins + 64 * m.num_skins]


@pytest.mark.parametrize("path", corpus_params("md2"))
def test_animations_cover_every_frame_once(path: Path) -> None:
    m = quakemodels.Md2.from_file(path)
    covered = [i for r in m.animations.values() for i in r]
    assert covered == list(range(m.num_frames))
    names = list(m.animations)
    assert len(names) == len(set(names))


def test_corpus_checksums(corpus_dir: Path) -> None:
    """The corpus is what its MANIFEST says, so the counts asserted elsewhere mean something."""
    manifest = (corpus_dir / "MANIFEST.tsv").read_text().splitlines()[1:]
    checked = 0
    for line in manifest:
        name, size, sha = line.split("\t")[:3]
        if name.endswith(".md2"):
            data = (corpus_dir / name).read_bytes()
            assert len(data) == int(size)
            assert hashlib.sha256(data).hexdigest() == sha
            checked += 1
    # The README says 17; the folder and the manifest list 18.
    assert checked == len(list((corpus_dir / "md2").glob("*.md2"))) == 18


PLAYER_CLIPS = [
    "stand", "run", "attack", "pain1", "pain2", "pain3", "jump", "flip", "salute", "taunt",
    "wave", "point", "crstnd", "crwalk", "crattak", "crpain", "crdeath", "death1", "death2",
    "death3",
]  # fmt: skip


@pytest.mark.parametrize(
    ("name", "frames", "clips"),
    [
        # 'pain1'..'pain12' numbered through, 'crdeth': the table applies by position
        ("assimp_sydney.md2", 198, PLAYER_CLIPS),
        # 'crstand001', 'crattack001', 'stand001' zero-padded to three digits
        ("ppm_hueteotl.md2", 198, PLAYER_CLIPS),
        # 'crattk1'
        ("sauer_pknight.md2", 198, PLAYER_CLIPS),
        # weapon layout: the first 16 clips
        ("sauer_pknight_vwep.md2", 173, PLAYER_CLIPS[:16]),
        ("ppm_drfreak_w_railgun.md2", 173, PLAYER_CLIPS[:16]),
        ("assimp_flag.md2", 10, ["stand"]),
        ("sauer_dcp_tree2.md2", 1, ["frame"]),
    ],
)
def test_clip_tables_of_real_files(
    corpus_dir: Path, name: str, frames: int, clips: list[str]
) -> None:
    m = quakemodels.Md2.from_file(corpus_dir / "md2" / name)
    assert m.num_frames == frames
    assert list(m.animations) == clips
    if frames == 198:
        assert m.animations["pain2"] == range(58, 62)
        assert m.animations["death3"] == range(190, 198)


def test_skins_with_junk_after_nul(corpus_dir: Path) -> None:
    m = quakemodels.Md2.from_file(corpus_dir / "md2" / "ppm_hueteotl_weapon.md2")
    assert m.skins == ["PLAYERS/Hueteotl/weapon.pcx"]
    assert m.skins_raw[0].startswith(b"PLAYERS/Hueteotl/weapon.pcx\0ll Files")


def test_known_counts(corpus_dir: Path) -> None:
    m = quakemodels.Md2.from_file(corpus_dir / "md2" / "assimp_sydney.md2")
    assert (m.num_frames, m.num_vertices, m.num_triangles, m.num_texcoords) == (198, 342, 679, 456)
    assert (m.skin_width, m.skin_height) == (308, 193)
    assert m.num_gl_dwords == 3326
    assert m.frame_names[:2] == ["stand1", "stand2"]
