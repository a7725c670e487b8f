"""The MD2 writer: exact round trip, build from arrays, quantization, limits, convert, sample.

Independent readers check what the writer produces: the generated Kaitai parser (per-vertex
spec objects) and three.js's MD2Loader run in node (tools/threejs_md2.mjs).
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import IN_CI, REPO, corpus_params
from hypothesis import given, settings
from hypothesis import strategies as st
from md2builder import Md2Spec, build, set_header

from quakemodels import Md2, ModelFormatError
from quakemodels.cli import main
from quakemodels.errors import BadValueError, LimitExceededError
from quakemodels.formats.md2.reader import GlCommand
from quakemodels.formats.md2.write import (
    FORMAT_LIMITS,
    SECTIONS,
    VANILLA,
    Limits,
    encode,
    gl_commands_for,
    nearest_anorms,
    parts_of,
    quantize,
)
from quakemodels.kaitai.quake2_md2 import Quake2Md2

SAMPLE = REPO / "src" / "quakemodels" / "samples" / "quakeguy.md2"
NODE = shutil.which("node")
THREE = REPO / "node_modules" / "three" / "examples" / "jsm" / "loaders" / "MD2Loader.js"


def needs_three() -> None:
    if NODE and THREE.exists():
        return
    if IN_CI:
        pytest.fail("CI=true but node or node_modules/three is missing (run make node)")
    pytest.skip("node or node_modules/three not installed (run make node)")


def threejs(path: Path) -> dict[str, object]:
    """What three.js's MD2Loader builds from ``path``."""
    needs_three()
    done = subprocess.run(
        [str(NODE), str(REPO / "tools" / "threejs_md2.mjs"), str(path)],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout)
    return result


def assert_same_in_threejs(m: Md2, path: Path) -> None:
    """three.js sees our positions, texcoords and frame names, exactly."""
    out = threejs(path)
    corners = m.triangles.reshape(-1)
    assert out["numCorners"] == corners.size
    frames = out["frames"]
    assert isinstance(frames, list)
    assert [f["name"] for f in frames] == m.frame_names
    got = np.array([f["positions"] for f in frames], np.float32).reshape(m.num_frames, -1, 3)
    # MD2Loader: non-indexed corners in triangle order, Quake (x, y, z) shown as (x, z, y).
    expected = m.positions[:, corners][..., [0, 2, 1]]
    np.testing.assert_array_equal(got, expected)
    uvs = np.array(out["uvs"], np.float32).reshape(-1, 2)
    st = m.texcoords_px[m.triangle_texcoords.reshape(-1)].astype(np.float64)
    want = np.column_stack([st[:, 0] / m.skin_width, 1 - st[:, 1] / m.skin_height])
    np.testing.assert_array_equal(uvs, want.astype(np.float32))


def assert_same_in_kaitai(m: Md2) -> None:
    """The generated parser reads the writer's bytes to the same header, names and vertices."""
    spec = Quake2Md2.from_bytes(m.data)
    assert spec.ofs_end == len(m.data)
    assert spec.num_frames == m.num_frames and spec.vertices_per_frame == m.num_vertices
    assert [s for s in spec.skins] == m.skins
    tris = [(list(t.vertex_indices), list(t.tex_point_indices)) for t in spec.triangles]
    assert tris == [
        (list(a), list(b)) for a, b in zip(m.triangles, m.triangle_texcoords, strict=True)
    ]
    assert [(p.s_px, p.t_px) for p in spec.tex_coords] == [tuple(r) for r in m.texcoords_px]
    for f, frame in enumerate(spec.frames):
        assert frame.name == m.frame_names[f]
        got = np.array(
            [(v.position.x, v.position.y, v.position.z) for v in frame.vertices], np.float64
        )
        np.testing.assert_array_equal(got.astype(np.float32), m.positions[f])
        assert [v.normal_index for v in frame.vertices] == list(m.normal_indices[f])
    count = sum(len(c.vertices) for c in spec.gl_cmds.items if c.cmd_num_vertices != 0)
    assert count == sum(len(c.vertex_indices) for c in m.gl_commands)


def gl_triangles(m: Md2) -> list[tuple[tuple[int, float, float], ...]]:
    """The triangles the GL commands draw, as OpenGL forms them, each rotated to start at its
    smallest corner (winding kept); corner = (vertex, s, t)."""
    out = []
    for cmd in m.gl_commands:
        c = [
            (int(v), float(s), float(t))
            for v, (s, t) in zip(cmd.vertex_indices, cmd.texcoords, strict=True)
        ]
        for i in range(len(c) - 2):
            if cmd.primitive == "fan":
                tri = (c[0], c[i + 1], c[i + 2])
            elif i % 2:
                tri = (c[i + 1], c[i], c[i + 2])
            else:
                tri = (c[i], c[i + 1], c[i + 2])
            out.append(min(tri[k:] + tri[:k] for k in range(3)))
    return sorted(out)


def model_triangles(m: Md2) -> list[tuple[tuple[int, float, float], ...]]:
    """The model's triangles in the same form, texcoords at pixel centres as modelgen writes."""
    size = np.array([m.skin_width, m.skin_height], np.float64)
    st = ((m.texcoords_px.astype(np.float64) + 0.5) / size).astype(np.float32)
    out = []
    for vs, ts in zip(m.triangles, m.triangle_texcoords, strict=True):
        tri = tuple((int(v), float(st[t][0]), float(st[t][1])) for v, t in zip(vs, ts, strict=True))
        out.append(min(tri[k:] + tri[:k] for k in range(3)))
    return sorted(out)


def rebuild(m: Md2, positions: np.ndarray | None = None, **kwargs: object) -> object:
    """Md2.build from a loaded model's arrays."""
    return Md2.build(
        m.positions if positions is None else positions,
        m.triangles,
        m.texcoords_px,
        m.triangle_texcoords,
        [n[:15] for n in m.frame_names],
        skins=m.skins,
        skin_size=(m.skin_width, m.skin_height),
        limits=FORMAT_LIMITS,
        **kwargs,
    )


def check_quantization(result: object, positions: np.ndarray) -> float:
    """Errors ≤ half a step per axis, reported errors equal to the stored ones; returns the
    worst error in steps."""
    model, errors, steps = result  # type: ignore[misc]
    p = np.asarray(positions, np.float64)
    # exact distance of each input to its stored value compressed * scale + translate, in
    # double: compressed * scale - (p - translate), each part exact (summing translate first
    # would round at its magnitude, 1e-7 of a step at 32768 with a 1e-5 step)
    parts = parts_of(model)
    c = parts.vertices[:, :, :3].astype(np.float64)
    offset = p - parts.translates.astype(np.float64)[:, None]
    distance = np.abs(c * parts.scales.astype(np.float64)[:, None] - offset)
    np.testing.assert_array_equal(distance.max(axis=1), errors)
    assert np.all(errors <= steps / 2), (errors / np.maximum(steps, 1e-300)).max()
    # modelgen's rule: translate = min, scale = (max - min) / 255 (rounded outwards to float32)
    lo, hi = p.min(axis=1), p.max(axis=1)
    t = parts.translates.astype(np.float64)
    assert np.all(t <= lo) and np.all(t + 255 * steps >= hi)
    assert np.all(lo - t <= np.spacing(np.abs(lo).astype(np.float32)).astype(np.float64))
    # (up to the outward float32 rounding of translate and scale)
    f32 = np.float32
    slack = (np.spacing(np.abs(lo).astype(f32)) + np.spacing(np.abs(hi).astype(f32))) / 255
    slack = slack.astype(np.float64) + 2 * np.spacing(steps.astype(f32)).astype(np.float64)
    assert np.all(np.abs(steps - (hi - lo) / 255) <= slack)
    # the float32 positions a reader returns add at most half a float32 ulp
    ulp = np.spacing(np.abs(model.positions)).astype(np.float64)
    assert np.all(np.abs(model.positions - p) <= steps[:, None] / 2 + ulp / 2)
    return float((errors / np.where(steps > 0, steps, 1)).max())


def cube(n_frames: int = 2) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A unit cube (8 vertices, 12 triangles clockwise from outside) moving along z."""
    corners = np.array([[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)], float)
    faces = [(4, 5, 7, 6), (0, 2, 3, 1), (2, 6, 7, 3), (0, 1, 5, 4), (1, 3, 7, 5), (0, 4, 6, 2)]
    tris = np.array([t for a, b, c, d in faces for t in ((a, b, c), (a, c, d))])
    positions = np.stack([corners * 10 + [0, 0, 3 * f] for f in range(n_frames)])
    texcoords = np.array([[0, 0], [31, 0], [31, 31], [0, 31]])
    tri_st = np.array([[0, 1, 2], [0, 2, 3]] * 6)
    return positions, tris, texcoords, tri_st


# -- exact round trip ---------------------------------------------------------------------------


@pytest.mark.parametrize("path", corpus_params("md2"))
def test_corpus_relayout_and_raw_names(path: Path) -> None:
    # The exact to_bytes round trip itself: tests/test_conformance.py
    data = path.read_bytes()
    m = Md2.from_bytes(data)
    parts = parts_of(m)
    assert parts.layout is not None
    canonical = not parts.layout.fillers and [parts.layout.offsets[s] for s in SECTIONS] == sorted(
        parts.layout.offsets[s] for s in SECTIONS
    )
    # Without the recorded layout, a canonical file comes out the same from its content alone.
    relaid = encode(dataclasses.replace(parts, layout=None))
    assert (relaid == data) == (canonical and parts.layout.ofs_end == len(data))
    # Raw names are kept with whatever followed the NUL.
    again = Md2.from_bytes(m.to_bytes())
    assert again.frame_names_raw == m.frame_names_raw and again.skins_raw == m.skins_raw


def _shuffled(data: bytes, order: list[str], gap: bytes) -> bytes:
    """A canonical MD2 with its sections rewritten in ``order``, ``gap`` before each one."""
    fields = {
        "skins": "ofs_skins",
        "texcoords": "ofs_tex_coords",
        "triangles": "ofs_triangles",
        "frames": "ofs_frames",
        "gl_commands": "ofs_gl_cmds",
    }
    m = Md2.from_bytes(data)
    spans = {
        "skins": (m.ofs_skins, 64 * m.num_skins),
        "texcoords": (m.ofs_texcoords, 4 * m.num_texcoords),
        "triangles": (m.ofs_triangles, 12 * m.num_triangles),
        "frames": (m.ofs_frames, m.framesize * m.num_frames),
        "gl_commands": (m.ofs_gl_commands, 4 * m.num_gl_dwords),
    }
    out = bytearray(data[:68])
    for name in order:
        out += gap
        start, size = spans[name]
        offset = len(out)
        out += data[start : start + size]
        out[:68] = set_header(bytes(out[:68]), fields[name], offset)
    out[:68] = set_header(bytes(out[:68]), "ofs_end", len(out))
    return bytes(out) + b"TRAILING"


def test_round_trip_keeps_odd_layouts() -> None:
    spec = Md2Spec(
        skins=[b"models/a.pcx\0junk-after-the-nul", b"b.pcx"],
        framesize_extra=8,
        frames=[
            ((0.5, 0.25, 1.0), (-10.0, -5.0, 2.0), b"run1\0garbage!!", np.arange(16).reshape(4, 4)),
            ((0.5, 0.25, 1.5), (-10.0, -5.0, 3.0), b"run2", np.arange(16, 32).reshape(4, 4)),
        ],
        trailing=b"\x01\x02extra bytes after ofs_end",
    )
    data = bytearray(build(spec))
    m = Md2.from_bytes(bytes(data))
    for f in range(2):  # non-zero frame padding
        start = m.ofs_frames + f * m.framesize + 40 + 16
        data[start : start + 8] = bytes(range(0xC0 + 8 * f, 0xC8 + 8 * f))
    data = bytes(data)
    assert Md2.from_bytes(data).to_bytes() == data
    odd = _shuffled(data, ["gl_commands", "frames", "skins", "triangles", "texcoords"], b"\xab" * 6)
    m = Md2.from_bytes(odd)
    assert m.ofs_gl_commands < m.ofs_frames < m.ofs_skins
    assert m.to_bytes() == odd
    parts = parts_of(m)
    assert parts.frame_padding.tolist() == [list(range(0xC0, 0xC8)), list(range(0xC8, 0xD0))]
    assert {bytes(f) for _, f in parts.layout.fillers} >= {b"\xab" * 6}  # type: ignore[union-attr]


def test_a_file_without_frames_is_refused_before_any_round_trip() -> None:
    spec = Md2Spec(frames=[], header_overrides={"bytes_per_frame": 1234, "ofs_frames": 7})
    with pytest.raises(ModelFormatError, match="num_frames=0 at offset 40"):
        Md2.from_bytes(build(spec))


@settings(max_examples=60, deadline=None)
@given(
    names=st.lists(st.binary(min_size=0, max_size=16), min_size=1, max_size=3),
    skins=st.lists(st.binary(min_size=0, max_size=64), max_size=3),
    padding=st.integers(0, 12),
    trailing=st.binary(max_size=20),
    gap=st.binary(max_size=9),
    order=st.permutations(list(SECTIONS)),
    seed=st.integers(0, 2**32 - 1),
)
def test_round_trip_property(
    names: list[bytes],
    skins: list[bytes],
    padding: int,
    trailing: bytes,
    gap: bytes,
    order: list[str],
    seed: int,
) -> None:
    """Any readable layout, raw names, frame padding and trailing bytes come back exactly."""
    rng = np.random.default_rng(seed)
    frames = [
        (
            tuple(rng.uniform(0.01, 2, 3)),
            tuple(rng.uniform(-50, 50, 3)),
            name,
            rng.integers(0, 256, (4, 4)).astype(np.uint8),
        )
        for name in names
    ]
    spec = Md2Spec(skins=skins, frames=frames, framesize_extra=padding, trailing=trailing)
    data = bytearray(build(spec))
    m = Md2.from_bytes(bytes(data))
    for f in range(len(frames)):  # fill the padding with noise
        start = m.ofs_frames + f * m.framesize + 40 + 16
        data[start : start + padding] = rng.integers(0, 256, padding).astype(np.uint8).tobytes()
    shuffled = _shuffled(bytes(data), order, gap)
    for blob in (bytes(data), shuffled):
        assert Md2.from_bytes(blob).to_bytes() == blob


@settings(max_examples=40, deadline=None)
@given(
    frames=st.integers(1, 4),
    vertices=st.integers(1, 40),
    exponent=st.integers(-6, 6),
    shift=st.floats(-1e5, 1e5, allow_nan=False),
    seed=st.integers(0, 2**32 - 1),
)
def test_quantization_property(
    frames: int, vertices: int, exponent: int, shift: float, seed: int
) -> None:
    rng = np.random.default_rng(seed)
    p = rng.normal(size=(frames, vertices, 3)) * 10.0**exponent + shift
    tris = rng.integers(0, vertices, (max(vertices, 1), 3))
    result = Md2.build(p, tris, [[0, 0]], np.zeros_like(tris), ["f"] * frames, skin_size=(8, 8))
    check_quantization(result, p)


def test_save_writes_atomically(tmp_path: Path) -> None:
    data = build()
    target = tmp_path / "out.md2"
    Md2.from_bytes(data).save(target)
    assert target.read_bytes() == data
    assert sorted(os.listdir(tmp_path)) == ["out.md2"]  # no temporary file left behind


def test_edits_keep_layout_or_relayout() -> None:
    m = Md2.from_bytes(build())
    parts = parts_of(m)
    parts.skins_raw[0] = b"models/new/skin.pcx".ljust(64, b"\0")
    renamed = Md2.from_bytes(encode(parts))
    assert renamed.skins == ["models/new/skin.pcx"]
    assert len(renamed.data) == len(m.data) and renamed.ofs_end == m.ofs_end
    changed = [i for i, (a, b) in enumerate(zip(m.data, renamed.data, strict=True)) if a != b]
    assert changed and min(changed) >= m.ofs_skins and max(changed) < m.ofs_skins + 64
    # dropping a frame changes a section's size: canonical layout, consistent offsets
    keep = [1]
    dropped = dataclasses.replace(
        parts,
        frame_names_raw=[parts.frame_names_raw[i] for i in keep],
        scales=parts.scales[keep],
        translates=parts.translates[keep],
        vertices=parts.vertices[keep],
    )
    d = Md2.from_bytes(encode(dropped))
    assert d.num_frames == 1 and d.frame_names == ["stand02"]
    np.testing.assert_array_equal(d.positions[0], m.positions[1])
    assert d.ofs_end == len(d.data)
    assert d.ofs_skins == 68 < d.ofs_texcoords < d.ofs_triangles < d.ofs_frames < d.ofs_gl_commands


def test_encode_rejects_bad_parts() -> None:
    parts = parts_of(Md2.from_bytes(build()))
    bad = dataclasses.replace(parts, frame_names_raw=[b"x" * 16, b"y" * 17])
    with pytest.raises(BadValueError, match="frame_names_raw\\[1\\] has 17 bytes"):
        encode(bad)
    with pytest.raises(BadValueError, match="scales must have shape"):
        encode(dataclasses.replace(parts, scales=parts.scales[:1]))


# -- build ---------------------------------------------------------------------------------------


def test_build_cube_reads_back_everywhere(tmp_path: Path) -> None:
    positions, tris, st, tri_st = cube(3)
    model, _, steps = Md2.build(
        positions, tris, st, tri_st, ["a1", "a2", "a3"], skins=["cube.pcx"], skin_size=(32, 32)
    )
    assert model.num_vertices == 8 and model.num_triangles == 12 and model.num_frames == 3
    assert model.frame_names == ["a1", "a2", "a3"] and model.skins == ["cube.pcx"]
    assert model.skins_raw[0] == b"cube.pcx".ljust(64, b"\0")
    # 10-unit edges: 255 steps of 10/255, every corner exactly on the grid
    np.testing.assert_allclose(steps, 10 / 255, rtol=1e-6)
    np.testing.assert_allclose(model.positions, positions, atol=1e-5)
    # normals: each corner's area-weighted normal points out along its diagonal
    table = nearest_anorms(np.array([1.0, 1.0, 1.0]))
    assert model.normal_indices[0][7] == table
    out = (positions[0] - 5) / np.linalg.norm(positions[0] - 5, axis=1, keepdims=True)
    assert np.all(np.einsum("vk,vk->v", model.normals[0], out) > 0.9)
    # a cube's faces have their own texcoords: 6 strips of two triangles
    assert [c.primitive for c in model.gl_commands] == ["strip"] * 6
    assert gl_triangles(model) == model_triangles(model)
    assert_same_in_kaitai(model)
    path = tmp_path / "cube.md2"
    model.save(path)
    assert_same_in_threejs(model, path)


def test_build_random_geometry_quantizes_within_half_a_step(tmp_path: Path) -> None:
    rng = np.random.default_rng(20261122)
    worst = 0.0
    for case in range(12):
        f, v = int(rng.integers(1, 6)), int(rng.integers(3, 200))
        scale = 10.0 ** rng.uniform(-3, 4, size=3)
        offset = rng.uniform(-1, 1, size=3) * 10.0 ** rng.uniform(0, 5)
        p = rng.normal(size=(f, v, 3)) * scale + offset
        if case % 4 == 1:
            p[:, :, 2] = offset[2]  # a flat axis: scale 0
        if case % 4 == 2:
            p = p.astype(np.float32).astype(np.float64)  # float32 input
        tris = rng.integers(0, v, size=(2 * v, 3))
        st = rng.integers(0, 256, size=(v, 2))
        result = Md2.build(p, tris, st, tris, [f"f{i}" for i in range(f)], skin_size=(256, 256))
        worst = max(worst, check_quantization(result, p))
        if case == 0:
            assert_same_in_kaitai(result.model)
        assert gl_triangles(result.model) == model_triangles(result.model)
    assert 0.4 < worst <= 0.5  # random data fills the half step
    path = tmp_path / "random.md2"
    result.model.save(path)
    assert_same_in_threejs(result.model, path)


@pytest.mark.parametrize("path", corpus_params("md2"))
def test_corpus_geometry_reencodes_within_half_a_step(path: Path, tmp_path: Path) -> None:
    m = Md2.from_file(path)
    result = rebuild(m)
    check_quantization(result, m.positions)
    new = result.model
    new.save(tmp_path / path.name)
    assert_same_in_threejs(new, tmp_path / path.name)
    if m.num_frames * m.num_vertices < 30000:  # the spec's per-vertex objects are slow
        assert_same_in_kaitai(new)
    assert new.frame_names == [n[:15] for n in m.frame_names]
    np.testing.assert_array_equal(new.triangles, m.triangles)
    np.testing.assert_array_equal(new.texcoords_px, m.texcoords_px)
    # the same positions jittered off the original grid
    rng = np.random.default_rng(len(m.data))
    jittered = m.positions + rng.uniform(-0.5, 0.5, m.positions.shape) * m.scales[:, None]
    check_quantization(rebuild(m, jittered), jittered)
    # our normals agree with the stored ones (other tools smooth differently, so not exactly)
    agree = np.einsum("fvk,fvk->fv", new.normals, m.normals)
    used = np.zeros(m.num_vertices, bool)
    used[m.triangles.reshape(-1)] = True
    assert np.mean(agree[:, used]) > 0.8 and np.median(agree[:, used]) > 0.85
    # strips and fans draw every triangle once, with its winding and texcoords
    assert gl_triangles(new) == model_triangles(new)
    assert len(new.gl_commands) <= 1.25 * len(m.gl_commands) + 2


def test_build_keeps_given_gl_commands_and_normals(corpus_dir: Path) -> None:
    m = Md2.from_file(corpus_dir / "md2" / "ppm_hueteotl_weapon.md2")
    result = rebuild(m, gl_commands=m.gl_commands, normals=m.normal_indices)
    np.testing.assert_array_equal(result.model.gl_dwords, m.gl_dwords)
    np.testing.assert_array_equal(result.model.normal_indices, m.normal_indices)
    raw = rebuild(m, gl_commands=m.gl_dwords)
    np.testing.assert_array_equal(raw.model.gl_dwords, m.gl_dwords)
    vectors = rebuild(m, normals=m.normals)
    np.testing.assert_array_equal(vectors.model.normal_indices, m.normal_indices)


def test_nearest_anorms_is_identity_on_the_table() -> None:
    spec_table = np.array(Quake2Md2.from_bytes(build()).anorms_table, np.float64)
    np.testing.assert_array_equal(nearest_anorms(spec_table), np.arange(162))
    assert nearest_anorms(np.zeros(3)) == np.argmax(spec_table[:, 2])


def test_strips_on_a_grid_are_long() -> None:
    n = 8  # an 8 x 8 quad grid, one texcoord per vertex: strips can run along the rows
    idx = np.arange((n + 1) ** 2).reshape(n + 1, n + 1)
    tris = []
    for i in range(n):
        for j in range(n):
            a, b, c, d = idx[i, j], idx[i, j + 1], idx[i + 1, j + 1], idx[i + 1, j]
            tris += [(a, d, c), (a, c, b)]
    commands = gl_commands_for(np.array(tris), np.array(tris))
    drawn = sum(len(c) - 2 for _, c in commands)
    assert drawn == len(tris)
    assert len(commands) <= 2 * n  # modelgen-style greed: about one strip per row


def test_quantize_matches_modelgen_on_grid_values() -> None:
    # values already on a 255-step grid come back exactly, as compressed bytes 0..255
    c = np.arange(256, dtype=np.float64)
    p = np.stack([c * 0.5 - 7, c * 0.25, c * 2 + 100], axis=1)[None]
    compressed, scales, translates, errors = quantize(p)
    np.testing.assert_array_equal(compressed[0], np.stack([c, c, c], axis=1).astype(np.uint8))
    np.testing.assert_array_equal(scales[0], np.float32([0.5, 0.25, 2.0]))
    np.testing.assert_array_equal(translates[0], np.float32([-7, 0, 100]))
    assert np.all(errors == 0)


# -- limits and bad input ------------------------------------------------------------------------


def _tiny(num_vertices: int = 3, num_frames: int = 1, num_triangles: int = 1) -> dict[str, object]:
    rng = np.random.default_rng(1)
    return dict(
        positions=rng.normal(size=(num_frames, num_vertices, 3)),
        triangles=np.array([[0, 1, 2]] * num_triangles),
        texcoords_px=np.array([[0, 0], [1, 0], [1, 1]]),
        triangle_texcoords=np.array([[0, 1, 2]] * num_triangles),
        frame_names=[f"f{i}" for i in range(num_frames)],
    )


@pytest.mark.parametrize(
    ("kwargs", "message", "field"),
    [
        (_tiny(num_vertices=2049), "2049 vertices exceed the limit of 2048", "vertices_per_frame"),
        (_tiny(num_triangles=4097), "4097 triangles exceed the limit of 4096", "num_triangles"),
        (_tiny(num_frames=513), "513 frames exceed the limit of 512", "num_frames"),
        ({**_tiny(), "skins": ["s"] * 33}, "33 skins exceed the limit of 32", "num_skins"),
        ({**_tiny(), "skins": ["x" * 64]}, "has 64 bytes; it must fit 64 bytes", "skins"),
        ({**_tiny(), "frame_names": ["stand0123456789x"]}, "must fit 16 bytes", "frames.name"),
    ],
)
def test_limits(kwargs: dict[str, object], message: str, field: str) -> None:
    with pytest.raises(LimitExceededError, match=message) as info:
        Md2.build(**kwargs)  # type: ignore[arg-type]
    assert isinstance(info.value, ModelFormatError) and info.value.field == field
    # engines without vanilla's limits: everything but the 64/16-byte names is fine
    if field not in ("skins", "frames.name"):
        assert Md2.build(**kwargs, limits=FORMAT_LIMITS).model.load_all()  # type: ignore[arg-type]


def test_custom_limits_and_format_maximum() -> None:
    with pytest.raises(LimitExceededError, match="4 vertices exceed the limit of 3"):
        Md2.build(**_tiny(num_vertices=4), limits=Limits(max_vertices=3))  # type: ignore[arg-type]
    with pytest.raises(
        LimitExceededError, match="32769 vertices exceed the format's limit of 32768"
    ):
        Md2.build(**_tiny(num_vertices=32769), limits=FORMAT_LIMITS)  # type: ignore[arg-type]
    assert VANILLA.max_vertices == 2048 and VANILLA.max_skins == 32


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"triangles": np.array([[0, 1, 3]])}, r"triangles\[0\]\[2\]=3 is outside 0..2"),
        ({"triangle_texcoords": np.array([[0, -1, 2]])}, r"triangle_texcoords\[0\]\[1\]=-1"),
        ({"positions": np.full((1, 3, 3), np.nan)}, "NaN or infinity"),
        ({"positions": np.zeros((1, 3, 2))}, r"must be \(F,V,3\)"),
        ({"frame_names": ["a", "b"]}, "2 frame names for 1 frames"),
        ({"frame_names": ["bad\0name"]}, "contains a NUL"),
        ({"skins": ["skïn.pcx"]}, "is not ASCII"),
        ({"texcoords_px": np.array([[0, 0], [1, 0], [40000, 1]])}, "16-bit"),
        # NaN would pass the 16-bit check and be written as 0
        ({"texcoords_px": np.array([[0, 0], [1, 0], [np.nan, 1]])}, "NaN or infinity"),
        # the integer casts cut 1.5 to 1 and turned NaN into a huge negative index
        (
            {"triangles": np.array([[0.0, 1.0, 1.5]])},
            r"triangles\[0, 2\]=1.5 is not a whole number that fits int64",
        ),
        ({"triangle_texcoords": np.array([[0, 1, np.nan]])}, r"\[0, 2\]=nan is not a whole"),
        # complex values lost their imaginary part in the cast, without a word
        ({"positions": np.zeros((1, 3, 3), complex)}, r"not a numeric array \(dtype complex128"),
        # the nearest anorm of an infinite vector was a random one
        ({"normals": np.full((1, 3, 3), np.inf)}, "normals contain NaN or infinity"),
        ({"normals": [[1, 2], [3]]}, "normals: not a numeric array"),  # was a bare ValueError
        # skin sizes: a bare IndexError, ValueError, OverflowError or a cut 2.5
        ({"skin_size": (256,)}, r"skin_size \(256,\) must be \(width, height\), two whole"),
        ({"skin_size": (float("nan"), 4)}, r"\(width, height\), two whole numbers"),
        ({"skin_size": (2.5, 4)}, r"\(width, height\), two whole numbers"),
        ({"skin_size": (2**31, 4)}, "exceeds the header's 32-bit limit of 2147483647"),
        # GL commands: int64 dwords wrapped into int32, NaN texcoords were written
        ({"gl_commands": np.array([1 << 40])}, r"gl_commands\[0\]=1099511627776 is not a whole"),
        (
            {"gl_commands": [GlCommand("fan", np.arange(3), np.full((3, 2), np.nan), 0)]},
            r"gl_commands\[0\]\.texcoords must be finite float32 values",
        ),
        (
            {"triangles": np.zeros((0, 3), int), "triangle_texcoords": np.zeros((0, 3), int)},
            "at least one of its triangles",
        ),
    ],
)
def test_bad_build_input(change: dict[str, object], message: str) -> None:
    with pytest.raises(BadValueError, match=message):
        Md2.build(**{**_tiny(), **change})  # type: ignore[arg-type]


def test_gl_commands_of_the_wrong_type() -> None:
    # a wrong Python type is a TypeError naming the argument (was an AttributeError)
    with pytest.raises(TypeError, match=r"gl_commands\[0\] is not a GlCommand: a dict has no"):
        Md2.build(**_tiny(), gl_commands=[{"primitive": "fan"}])  # type: ignore[arg-type]


# -- the sample ----------------------------------------------------------------------------------


def test_sample_regenerates_to_the_committed_bytes(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(REPO / "tools" / "make_sample.py"), str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    for name in ("quakeguy.md2", "quakeguy.png"):
        assert (tmp_path / name).read_bytes() == (SAMPLE.parent / name).read_bytes(), name


def test_sample_is_a_player_model() -> None:
    m = Md2.from_file(SAMPLE).load_all()
    assert m.num_frames == 198 and m.skins == ["quakeguy.png"]
    assert list(m.animations) == [
        "stand", "run", "attack", "pain1", "pain2", "pain3", "jump", "flip", "salute", "taunt",
        "wave", "point", "crstnd", "crwalk", "crattak", "crpain", "crdeath", "death1", "death2",
        "death3",
    ]  # fmt: skip
    assert m.frame_names[:2] == ["stand01", "stand02"] and m.frame_names[-1] == "death308"
    assert m.frame_names[54:58] == ["pain101", "pain102", "pain103", "pain104"]
    # motion: the clips move, and the deaths end lying down (under half the standing height)
    assert np.ptp(m.positions[m.animations["run"]], axis=0).max() > 5
    for clip in ("death1", "death2", "death3"):
        last = m.positions[m.animations[clip][-1]]
        assert np.ptp(last[:, 2]) < 0.5 * np.ptp(m.positions[0][:, 2])
    assert_same_in_kaitai(m)
    assert_same_in_threejs(m, SAMPLE)


# -- convert -------------------------------------------------------------------------------------


def _corner_positions(m: Md2) -> np.ndarray:
    return m.positions[:, m.triangles.reshape(-1)]


def _assert_converted_back(a: Md2, b: Md2) -> None:
    """Triangles (in order), texcoords and frame names kept; positions within one step."""
    assert b.num_triangles == a.num_triangles and b.frame_names == a.frame_names
    assert list(b.animations) == list(a.animations)
    step = np.maximum(a.scales, b.scales)[:, None, :]
    assert np.all(np.abs(_corner_positions(a) - _corner_positions(b)) <= step)
    np.testing.assert_array_equal(
        a.texcoords_px[a.triangle_texcoords], b.texcoords_px[b.triangle_texcoords]
    )


def test_convert_sample_md2_glb_md2(tmp_path: Path) -> None:
    glb, back = tmp_path / "guy.glb", tmp_path / "guy.md2"
    assert main(["convert", str(SAMPLE), str(glb)]) == 0
    assert main(["convert", str(glb), str(back), "--skin", "quakeguy.png"]) == 0
    a, b = Md2.from_file(SAMPLE), Md2.from_file(back)
    _assert_converted_back(a, b)
    assert b.skins == ["quakeguy.png"] and (b.skin_width, b.skin_height) == (64, 64)
    assert b.num_vertices == a.num_vertices
    # .gltf (embedded buffer) works the same
    gltf = tmp_path / "guy.gltf"
    assert main(["convert", str(SAMPLE), str(gltf)]) == 0
    assert main(["convert", str(gltf), str(tmp_path / "g2.md2")]) == 0
    _assert_converted_back(a, Md2.from_file(tmp_path / "g2.md2"))


@pytest.mark.parametrize("name", ["ppm_drfreak.md2", "sauer_pknight_vwep.md2"])
def test_convert_corpus_md2_glb_md2(tmp_path: Path, corpus_dir: Path, name: str) -> None:
    source = corpus_dir / "md2" / name
    a = Md2.from_file(source)
    glb, back = tmp_path / "m.glb", tmp_path / "m.md2"
    assert main(["convert", str(source), str(glb)]) == 0
    size = f"{a.skin_width}x{a.skin_height}"
    assert main(["convert", str(glb), str(back), "--skin-size", size]) == 0
    _assert_converted_back(a, Md2.from_file(back))


def test_convert_md2_obj_md2(tmp_path: Path) -> None:
    a = Md2.from_file(SAMPLE)
    objs = []
    for frame in (0, 47, 197):
        obj = tmp_path / f"{a.frame_names[frame]}.obj"
        assert main(["convert", str(SAMPLE), str(obj), "--frame", str(frame)]) == 0
        objs.append(str(obj))
    back = tmp_path / "back.md2"
    assert main(["convert", *objs, str(back), "--skin-size", "64x64"]) == 0
    b = Md2.from_file(back)
    assert b.frame_names == ["stand01", "attack2", "death308"]
    sub = a.positions[[0, 47, 197]][:, a.triangles.reshape(-1)]
    step = np.maximum(a.scales[[0, 47, 197]], b.scales)[:, None, :]
    assert np.all(np.abs(sub - _corner_positions(b)) <= step)
    np.testing.assert_array_equal(
        a.texcoords_px[a.triangle_texcoords], b.texcoords_px[b.triangle_texcoords]
    )


def test_convert_clip_to_obj_sequence_and_back(tmp_path: Path) -> None:
    folder = tmp_path / "frames"
    assert main(["convert", str(SAMPLE), str(folder), "--clip", "run"]) == 0
    objs = sorted(str(p) for p in folder.glob("*.obj"))
    assert len(objs) == 6
    back = tmp_path / "run.md2"
    args = ["convert", *objs, str(back), "--frame-prefix", "run", "--skin-size", "64x64"]
    assert main(args) == 0
    a, b = Md2.from_file(SAMPLE), Md2.from_file(back)
    run = a.animations["run"]
    assert b.frame_names == a.frame_names[run.start : run.stop] == [f"run{k}" for k in range(1, 7)]
    assert b.animations == {"run": range(6)}
    step = np.maximum(a.scales[run], b.scales)[:, None, :]
    assert np.all(np.abs(_corner_positions(a)[run] - _corner_positions(b)) <= step)
    assert main(["convert", str(SAMPLE), str(folder), "--clip", "nope"]) == 2


def test_convert_handmade_gltf(tmp_path: Path) -> None:
    """A glTF not made by us: base mesh + two non-zero morph targets = three frames."""
    import pygltflib as g

    base = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], np.float32)  # Y up
    d1 = np.tile(np.float32([0, 2, 0]), (4, 1))
    d2 = np.tile(np.float32([3, 0, 0]), (4, 1))
    uv = np.array([[0, 0], [0.5, 0], [0.5, 0.5], [0, 1]], np.float32)
    idx = np.array([0, 1, 2, 0, 2, 3], np.uint16)
    blob = b"".join(a.tobytes() for a in (base, d1, d2, uv, idx))
    views, offset = [], 0
    for a in (base, d1, d2, uv, idx):
        views.append(g.BufferView(buffer=0, byteOffset=offset, byteLength=a.nbytes))
        offset += a.nbytes
    acc = [
        g.Accessor(bufferView=i, componentType=5126, count=4, type="VEC3", min=[-9] * 3,
                   max=[9] * 3)
        for i in range(3)
    ] + [
        g.Accessor(bufferView=3, componentType=5126, count=4, type="VEC2"),
        g.Accessor(bufferView=4, componentType=5123, count=6, type="SCALAR"),
    ]  # fmt: skip
    doc = g.GLTF2(
        scene=0,
        scenes=[g.Scene(nodes=[0])],
        nodes=[g.Node(mesh=0)],
        meshes=[
            g.Mesh(
                primitives=[
                    g.Primitive(
                        attributes=g.Attributes(POSITION=0, TEXCOORD_0=3),
                        indices=4,
                        targets=[{"POSITION": 1}, {"POSITION": 2}],
                    )
                ],
                extras={"targetNames": ["up", "side"]},
            )
        ],
        accessors=acc,
        bufferViews=views,
        buffers=[g.Buffer(byteLength=len(blob))],
    )
    doc.set_binary_blob(blob)
    path = tmp_path / "hand.glb"
    doc.save_binary(str(path))
    out = tmp_path / "hand.md2"
    assert main(["convert", str(path), str(out), "--skin-size", "32x32"]) == 0
    m = Md2.from_file(out)
    assert m.frame_names == ["base", "up", "side"]
    quake = base[:, [2, 0, 1]]  # Y-up (a, b, c) → Quake (c, a, b)
    expected = np.stack([quake, quake + np.float32([0, 0, 2]), quake + np.float32([0, 3, 0])])
    np.testing.assert_allclose(m.positions, expected, atol=np.max(m.scales) / 2 + 1e-6)
    # glTF's counter-clockwise corners 0, 1, 2 are stored as Quake's clockwise 0, 2, 1
    assert m.texcoords_px[m.triangle_texcoords].tolist() == [
        [[0, 0], [16, 16], [16, 0]],
        [[0, 0], [0, 32], [16, 16]],
    ]


def test_convert_errors_leave_no_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.glb"
    bad.write_bytes(b"glTF\x02\0\0\0garbage")
    out = tmp_path / "out.md2"
    assert main(["convert", str(bad), str(out)]) == 1
    assert "error:" in capsys.readouterr().err
    assert not out.exists()
    # frame names too long for MD2: a clear error, nothing written, the old file kept
    out.write_bytes(b"keep me")
    # (a long file stem is cut to a frame name that fits: only explicit names can be too long)
    obj = tmp_path / "a.obj"
    obj.write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")
    args = ["convert", str(obj), str(out), "--frame-names", "a_frame_name_far_too_long"]
    assert main(args) == 1
    err = capsys.readouterr().err
    assert "must fit 16 bytes" in err and str(obj) in err
    assert out.read_bytes() == b"keep me"
    assert sorted(os.listdir(tmp_path)) == sorted([bad.name, out.name, obj.name])
    assert main(["convert", str(SAMPLE), str(tmp_path / "x.fbx")]) == 2
    assert main(["convert", str(obj), str(tmp_path / "x.glb")]) == 2
    assert main(["convert", str(obj), str(tmp_path / "y.md2"), "--skin-size", "64"]) == 2
