"""The MD3 writer: byte-exact re-encoding of every corpus MD3, build from arrays (read back by
the facade, the generated Kaitai parser and an independent qfiles.h reader), the normal codec,
quantization, engine limits, clean errors for bad input, and MD2 → MD3 → MD2 conversion."""

from __future__ import annotations

import math
import os
import zipfile
from pathlib import Path

import md3ref
import numpy as np
import pytest
from conftest import CORPUS, IN_CI, corpus_params
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from quakemodels import Md2, Md3, ModelFormatError
from quakemodels.cli import main
from quakemodels.core.build import vertex_normals
from quakemodels.errors import BadValueError, LimitExceededError
from quakemodels.formats.md2.write import FORMAT_LIMITS as MD2_FORMAT_LIMITS
from quakemodels.formats.md3 import write
from quakemodels.formats.md3.check import check_md3
from quakemodels.formats.md3.reader import normal_table
from quakemodels.formats.md3.write import (
    FORMAT_LIMITS,
    VANILLA,
    Limits,
    SurfaceData,
    TagData,
    encode,
    encode_normals,
    parts_of,
    quantize_positions,
    save,
    to_bytes,
    weld,
)
from quakemodels.kaitai.quake3_md3 import Quake3Md3
from quakemodels.registry import scene

build = Md3.build

# -- every MD3 we can read: the md3/ folder, the player folders and the .pk3 entries ---------------


def _all_md3() -> list[object]:
    files: list[object] = [
        pytest.param(p.read_bytes(), id=str(p.relative_to(CORPUS)))
        for p in sorted(CORPUS.glob("md3/*.md3")) + sorted(CORPUS.glob("q3/**/*.md3"))
    ]
    for pk3 in sorted(CORPUS.glob("archives/*.pk3")):
        with zipfile.ZipFile(pk3) as z:
            files += [
                pytest.param(z.read(n), id=f"{pk3.name}:{n}")
                for n in z.namelist()
                if n.lower().endswith(".md3")
            ]
    if IN_CI and not files:
        raise RuntimeError(f"CI=true but no MD3 found under {CORPUS}")
    if not files:
        return [pytest.param(None, marks=pytest.mark.skip(reason="corpus not found"), id="none")]
    return files


ALL_MD3 = _all_md3()


@pytest.mark.parametrize("data", ALL_MD3)
def test_corpus_round_trips_byte_for_byte(data: bytes, tmp_path: Path) -> None:
    model = Md3.from_bytes(data)
    assert to_bytes(model) == data
    assert model.to_bytes() == data
    model.save(tmp_path / "out.md3")
    assert (tmp_path / "out.md3").read_bytes() == data
    save(model, tmp_path / "again.md3")
    assert (tmp_path / "again.md3").read_bytes() == data


@pytest.mark.parametrize("data", ALL_MD3)
def test_corpus_canonical_layout_keeps_every_value(data: bytes) -> None:
    """Dropping the layout writes q3data's order with no gaps; every value survives."""
    model = Md3.from_bytes(data).load_all()
    parts = parts_of(model)
    parts.layout = None
    for s in parts.surfaces:
        s.layout = None
    out = encode(parts)
    again = Md3.from_bytes(out).load_all()
    f, k = model.num_frames, model.num_tags
    sizes = sum(108 + 68 * s.num_shaders + 12 * s.num_triangles + 8 * s.num_vertices * (1 + f)
                for s in model.surfaces)  # fmt: skip
    assert len(out) == again.ofs_end == 108 + 56 * f + 112 * f * k + sizes
    assert (again.ofs_frames, again.ofs_tags) == (108, 108 + 56 * f)
    assert again.frames.names_raw == model.frames.names_raw
    for name in ("mins", "maxs", "origins", "radii"):
        np.testing.assert_array_equal(getattr(again.frames, name), getattr(model.frames, name))
    assert again.tags.names_per_frame == model.tags.names_per_frame
    np.testing.assert_array_equal(again.tags.origins, model.tags.origins)
    np.testing.assert_array_equal(again.tags.axes, model.tags.axes)
    for a, b in zip(again.surfaces, model.surfaces, strict=True):
        assert (a.name_raw, a.magic, a.shaders) == (b.name_raw, b.magic, b.shaders)
        assert (a.ofs_shaders, a.ofs_triangles) == (108, 108 + 68 * b.num_shaders)
        np.testing.assert_array_equal(a.triangles, b.triangles)
        assert a.texcoords.tobytes() == b.texcoords.tobytes()
        np.testing.assert_array_equal(a.positions_raw, b.positions_raw)
        np.testing.assert_array_equal(a.normal_angles, b.normal_angles)


def test_edited_parts_fall_back_to_the_canonical_layout() -> None:
    """A surface that changes size cannot keep its old offsets; the file is laid out anew."""
    model = Md3.from_bytes(_model().data)
    parts = parts_of(model)
    s = parts.surfaces[0]
    s.triangles = s.triangles[:1]
    out = Md3.from_bytes(encode(parts)).load_all()
    assert out.surfaces[0].num_triangles == 1
    assert out.ofs_end == len(out.data) == len(model.data) - 11 * 12  # 11 triangles fewer


def test_save_leaves_the_target_alone_on_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "keep.md3"
    target.write_bytes(b"what the user had")
    model = _model()

    def boom(parts: write.Md3Parts) -> bytes:
        raise BadValueError("encoding failed", field="x")

    monkeypatch.setattr(write, "encode", boom)
    with pytest.raises(BadValueError, match="encoding failed"):
        save(model, target)
    assert target.read_bytes() == b"what the user had"
    assert os.listdir(tmp_path) == ["keep.md3"]
    monkeypatch.undo()
    save(model, target)
    assert target.read_bytes() == model.data


# -- normals ---------------------------------------------------------------------------------------


def test_surfaces_and_tags_of_the_wrong_type() -> None:
    # a wrong Python type is a TypeError naming the argument (was an AttributeError)
    with pytest.raises(TypeError, match=r"surfaces\[0\] is not a SurfaceData: a NoneType has no"):
        Md3.build([None])  # type: ignore[list-item]
    with pytest.raises(TypeError, match=r"tags\[0\] is not a TagData: a tuple has no name"):
        Md3.build([], tags=[("tag_head", np.zeros(3), np.eye(3))])  # type: ignore[list-item]


def test_every_normal_code_round_trips_or_is_an_alias() -> None:
    """decode → encode gives the same code for the 32514 canonical codes (lng 1..127 with any
    lat, and the poles (0,0) and (128,0)); the other 33022 codes are aliases (a pole with
    lat ≠ 0, or lng 129..255 mirroring 256 − lng) and encode to the canonical code of the same
    direction."""
    table = normal_table()
    codes = np.arange(65536)
    lng, lat = codes & 0xFF, codes >> 8
    enc = encode_normals(table)
    back = enc[:, 0].astype(np.int64) | (enc[:, 1].astype(np.int64) << 8)
    canonical = ((lng >= 1) & (lng <= 127)) | (codes == 0) | (codes == 128)
    assert canonical.sum() == 32514
    np.testing.assert_array_equal(back[canonical], codes[canonical])
    assert (back[~canonical] != codes[~canonical]).all()
    assert ((back & 0xFF) <= 128).all()
    same = np.einsum("ij,ij->i", table[back].astype(np.float64), table.astype(np.float64))
    assert same.min() > 1 - 1e-6
    # the aliases go exactly where the docstring says
    mirrored = lng > 128
    expect = (256 - lng[mirrored]) | (((lat[mirrored] + 128) & 0xFF) << 8)
    expect[lng[mirrored] == 128] = 128
    np.testing.assert_array_equal(back[mirrored], expect)
    np.testing.assert_array_equal(back[(lng == 0)], 0)
    np.testing.assert_array_equal(back[(lng == 128)], 128)


def test_encoder_picks_the_nearest_decoded_direction() -> None:
    rng = np.random.default_rng(7)
    v = rng.normal(size=(4000, 3)) * rng.uniform(0.01, 100, size=(4000, 1))  # length is ignored
    unit = v / np.linalg.norm(v, axis=1, keepdims=True)
    table = normal_table().astype(np.float64)
    enc = encode_normals(v)
    ours = table[enc[:, 0].astype(np.int64) | (enc[:, 1].astype(np.int64) << 8)]
    dots = np.einsum("ij,ij->i", ours, unit)
    best = (unit @ table.T).max(axis=1)
    np.testing.assert_allclose(dots, best, rtol=0, atol=1e-12)
    assert np.degrees(np.arccos(dots.min())) < 1.0  # the worst case is 0.99°


def test_normal_encoder_edge_cases() -> None:
    np.testing.assert_array_equal(
        encode_normals([[0, 0, 0], [0, 0, 5], [0, 0, -1], [1, 0, 0], [0, 1, 0], [-1, 0, 0]]),
        [[0, 0], [0, 0], [128, 0], [64, 0], [64, 64], [64, 128]],
    )
    np.testing.assert_array_equal(
        encode_normals([[1e308, 1e308, 0], [1e-320, 0, 0], [0, -3e-310, 0]]),
        [[64, 32], [64, 0], [64, 192]],
    )  # no overflow or underflow: only the direction counts
    with pytest.raises(BadValueError, match="NaN or infinity"):
        encode_normals([[0, math.nan, 1]])
    with pytest.raises(BadValueError, match=r"\(\.\.\., 3\)"):
        encode_normals([[1, 2]])


# -- quantization ----------------------------------------------------------------------------------


@pytest.mark.filterwarnings("error::RuntimeWarning")
def test_positions_round_to_the_nearest_64th_within_the_s2_range() -> None:
    q, err = quantize_positions([[511.984375, -512.0, 0.0078125], [0.0234, -0.0234, 1 / 3]])
    np.testing.assert_array_equal(q, [[32767, -32768, 0], [1, -1, 21]])  # 0.5 ties to even
    assert err.max() <= 1 / 128
    assert err[1, 2] == pytest.approx(abs(21 / 64 - 1 / 3))
    with pytest.raises(
        BadValueError, match=r"positions\[0, 1\]=512\.0 is outside the range MD3 can store"
    ):
        quantize_positions([[0, 512.0, 0]])
    with pytest.raises(BadValueError, match=r"-512\.0 \.\. 511\.984375"):
        quantize_positions([[-512.01, 0, 0]])
    with pytest.raises(BadValueError, match="not a finite number"):
        quantize_positions([[0, 0, math.inf]])
    with pytest.raises(BadValueError, match=r"positions\[0, 0\]=1e\+308 is outside"):
        quantize_positions([[1e308, 0, 0]])


# -- build -----------------------------------------------------------------------------------------

CUBE = np.array([[x, y, z] for x in (-8, 8) for y in (-8, 8) for z in (0, 24)], dtype=np.float64)
CUBE_TRIS = np.array(
    [[0, 2, 1], [1, 2, 3], [4, 5, 6], [5, 7, 6], [0, 1, 4], [1, 5, 4],
     [2, 6, 3], [3, 6, 7], [0, 4, 2], [2, 4, 6], [1, 3, 5], [3, 7, 5]]
)  # fmt: skip
CUBE_ST = np.array([[i / 8, (i % 3) / 3] for i in range(8)])


def _frames(n: int) -> np.ndarray:
    """(n,8,3) the cube moving and stretching, with coordinates off the 1/64 grid."""
    f = np.arange(n, dtype=np.float64)[:, None, None]
    return CUBE[None] * (1 + 0.1 * f) + np.array([0.3, -0.7, 0.01]) * f + 0.004


def _tags(n: int) -> list[TagData]:
    angles = np.linspace(0, 1, n)
    axes = np.array(
        [[[math.cos(a), math.sin(a), 0], [-math.sin(a), math.cos(a), 0], [0, 0, 1]] for a in angles]
    )
    return [
        TagData("tag_head", origins=np.array([[0, 0, 24.5 + i] for i in range(n)]), axes=axes),
        TagData("tag_weapon", origins=[[6.0, -3.25, 12.0]] * n, axes=[np.eye(3)] * n),
    ]


def _model(n: int = 3) -> Md3:
    surfaces = [
        SurfaceData("body", _frames(n), CUBE_TRIS, CUBE_ST, shaders=["models/test/body"]),
        SurfaceData("head_1", _frames(n)[:, :, [1, 0, 2]] + 30, CUBE_TRIS[:, ::-1], CUBE_ST),
    ]
    names = [f"idle{i + 1}" for i in range(n)]
    return build(surfaces, tags=_tags(n), frame_names=names, name="models/test/cube.md3").model


def test_build_reads_back_equal_within_quantization() -> None:
    n = 3
    positions = _frames(n)
    result = build(
        [SurfaceData("body", positions, CUBE_TRIS, CUBE_ST, shaders=["models/test/body"])],
        tags=_tags(n),
        frame_names=["a", "b", "c"],
        name="models/test/cube.md3",
    )
    m = result.model
    s = m.surfaces[0]
    assert (m.model_name, m.frame_names, m.tags.names) == (
        "models/test/cube.md3", ["a", "b", "c"], ["tag_head", "tag_weapon"],
    )  # fmt: skip
    assert [sh.name for sh in s.shaders] == ["models/test/body"]
    np.testing.assert_array_equal(s.triangles, CUBE_TRIS)
    np.testing.assert_array_equal(s.texcoords, CUBE_ST.astype(np.float32))
    err = np.abs(s.positions.astype(np.float64) - positions)
    assert err.max() <= 1 / 128
    np.testing.assert_array_equal(result.errors, err.max(axis=1))
    np.testing.assert_array_equal(result.steps, np.full((n, 3), 1 / 64))
    np.testing.assert_array_equal(s.positions_raw, np.rint(positions * 64))
    # normals: area-weighted vertex normals, encoded; each points out of its corner
    np.testing.assert_array_equal(
        s.normal_angles, encode_normals(vertex_normals(positions, CUBE_TRIS))
    )
    outward = np.sign(CUBE - CUBE.mean(axis=0)) / np.sqrt(3)
    assert np.einsum("fij,ij->fi", s.normals, outward).min() > 0.9
    # frames as q3data computes them: bounds of the stored vertices, origin 0, corner radius
    p = s.positions
    np.testing.assert_array_equal(m.frames.mins, p.min(axis=1))
    np.testing.assert_array_equal(m.frames.maxs, p.max(axis=1))
    np.testing.assert_array_equal(m.frames.origins, np.zeros((n, 3)))
    corner = np.maximum(np.abs(p.min(axis=1)), np.abs(p.max(axis=1))).astype(np.float64)
    np.testing.assert_array_equal(m.frames.radii, np.linalg.norm(corner, axis=1).astype(np.float32))
    tags = _tags(n)
    np.testing.assert_array_equal(m.tags.origins[:, 0], np.asarray(tags[0].origins, np.float32))
    np.testing.assert_array_equal(m.tags.axes[:, 0], np.asarray(tags[0].axes, np.float32))
    np.testing.assert_array_equal(m.tags.axes[:, 1], np.broadcast_to(np.eye(3), (n, 3, 3)))


def test_built_file_reads_identically_through_the_generated_parser() -> None:
    m = _model()
    spec = Quake3Md3.from_bytes(m.data)
    assert (spec.num_frames, spec.num_tags, spec.num_surfaces) == (3, 2, 2)
    assert spec.ofs_end == len(m.data)
    assert [fr.name for fr in spec.frames] == m.frame_names
    np.testing.assert_array_equal([[fr.radius] for fr in spec.frames], m.frames.radii[:, None])
    assert [t.name for t in spec.tags] == ["tag_head", "tag_weapon"] * 3
    np.testing.assert_array_equal(
        [[a.x, a.y, a.z] for t in spec.tags for a in t.axis], m.tags.axes.reshape(-1, 3)
    )
    for ss, s in zip(spec.surfaces, m.surfaces, strict=True):
        assert ss.name == s.name and ss.magic == b"IDP3"
        assert [sh.name for sh in ss.shaders] == [sh.name for sh in s.shaders]
        np.testing.assert_array_equal([t.vertex_indices for t in ss.triangles], s.triangles)
        np.testing.assert_array_equal([[t.s, t.t] for t in ss.tex_coords], s.texcoords)
        xyz = np.array([[v.x, v.y, v.z] for v in ss.vertices]).reshape(3, -1, 3)
        np.testing.assert_array_equal(xyz, s.positions)
        angles = np.array([[v.normal_lng, v.normal_lat] for v in ss.vertices]).reshape(3, -1, 2)
        np.testing.assert_array_equal(angles, s.normal_angles)


def test_built_file_reads_back_through_an_independent_qfiles_reader() -> None:
    n = 3
    positions = _frames(n)
    m = _model(n)
    ref = md3ref.read(m.data)
    assert ref.name == "models/test/cube.md3" and ref.ofs_end == len(m.data)
    assert [fr[4] for fr in ref.frames] == ["idle1", "idle2", "idle3"]
    assert [[t[0] for t in row] for row in ref.tags] == [["tag_head", "tag_weapon"]] * n
    assert ref.tags[2][0][1] == (0.0, 0.0, 26.5)
    body, head = ref.surfaces
    assert (body.name, body.shaders, head.name, head.shaders) == (
        "body", [("models/test/body", 0)], "head_1", [],
    )  # fmt: skip
    assert body.triangles == [tuple(t) for t in CUBE_TRIS.tolist()]
    assert head.triangles == [tuple(t) for t in CUBE_TRIS[:, ::-1].tolist()]
    np.testing.assert_array_equal(body.st, CUBE_ST.astype(np.float32))
    assert np.abs(body.positions() - positions).max() <= 1 / 128
    assert np.abs(head.positions() - (positions[:, :, [1, 0, 2]] + 30)).max() <= 1 / 128
    # the engine's decode of our codes against the geometry's own normals: the code's 0.99°
    # plus the renderer's 1024/1023 table stretch (up to 0.36°)
    # (measured over every code: ≤ 0.39° from the facade's decode for lng ≤ 128); the engine's
    # vectors are not quite unit length (its cos is a sine 90.09° on), so compare directions
    want = vertex_normals(positions, CUBE_TRIS)
    engine = body.engine_normals()
    length = np.linalg.norm(engine, axis=2)
    assert np.abs(length - 1).max() < 0.003
    cos = np.einsum("fij,fij->fi", engine / length[..., None], want)
    assert np.degrees(np.arccos(min(cos.min(), 1.0))) < 1.4


def test_built_file_passes_check_for_quake3(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    m = _model()
    # head_1 has no shader: a warning, not an error
    assert [f.code for f in check_md3(m.data, engine="quake3")] == ["shader-empty"]
    path = tmp_path / "cube.md3"
    save(m, path)
    assert main(["check", "--engine", "quake3", str(path)]) == 0
    capsys.readouterr()


def test_single_frame_shapes_and_default_names() -> None:
    m = build(
        [SurfaceData(b"s", CUBE, CUBE_TRIS, CUBE_ST)], tags=[TagData("t", [1, 2, 3], np.eye(3))]
    ).model
    assert (m.num_frames, m.frame_names, m.tags.names) == (1, ["frame0"], ["t"])
    only_tags = build([], tags=[TagData("tag_weapon", [[0, 0, 0]] * 2, [np.eye(3)] * 2)]).model
    assert (only_tags.num_frames, only_tags.num_surfaces) == (2, 0)
    np.testing.assert_array_equal(only_tags.frames.radii, [0, 0])


def test_given_normal_codes_are_stored_as_they_are() -> None:
    codes = np.zeros((1, 8, 2), np.uint8)
    codes[0, :, 0] = np.arange(8) * 30  # lng past 128 too: stored codes are kept, not canonized
    codes[0, :, 1] = 255 - np.arange(8)
    m = build([SurfaceData("s", CUBE, CUBE_TRIS, CUBE_ST, normals=codes)]).model
    np.testing.assert_array_equal(m.surfaces[0].normal_angles, codes)


@pytest.mark.parametrize("data", ALL_MD3[:16])
def test_rebuilding_a_corpus_model_gives_its_arrays_and_q3data_frames(data: bytes) -> None:
    """From the decoded arrays, build stores the same vertex words, texcoords and triangles;
    for the 3ds Max exports (frame names '(from 3DSMax)') it computes the very frame records
    the exporter wrote, bit for bit."""
    model = Md3.from_bytes(data).load_all()
    if not model.surfaces:
        pytest.skip("no surfaces")
    limits = Limits(max_vertices=4096, max_triangles=6144, max_tags=64)
    rebuilt = build(
        [
            SurfaceData(s.name, s.positions, s.triangles, s.texcoords, normals=s.normal_angles,
                        shaders=[sh.name for sh in s.shaders])
            for s in model.surfaces
        ],
        tags=[
            TagData(name, model.tags.origins[:, k], model.tags.axes[:, k])
            for k, name in enumerate(model.tags.names)
        ],
        frame_names=model.frame_names,
        limits=limits,
    ).model  # fmt: skip
    for a, b in zip(rebuilt.surfaces, model.surfaces, strict=True):
        np.testing.assert_array_equal(a.positions_raw, b.positions_raw)
        np.testing.assert_array_equal(a.normal_angles, b.normal_angles)
        np.testing.assert_array_equal(a.triangles, b.triangles)
        assert a.texcoords.tobytes() == b.texcoords.tobytes()
    np.testing.assert_array_equal(rebuilt.tags.origins, model.tags.origins)
    np.testing.assert_array_equal(rebuilt.frames.mins, model.frames.mins)
    np.testing.assert_array_equal(rebuilt.frames.maxs, model.frames.maxs)
    if model.frame_names[0] == "(from 3DSMax)":
        np.testing.assert_array_equal(rebuilt.frames.radii, model.frames.radii)


# -- limits and errors -----------------------------------------------------------------------------


def _grid(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """n vertices on a strip with n − 2 triangles."""
    pos = np.stack([np.arange(n) // 2, np.arange(n) % 2, np.zeros(n)], axis=1) * 0.5
    tris = np.array([[i, i + 1, i + 2] for i in range(n - 2)])
    return pos, tris, np.zeros((n, 2))


def test_vanilla_limits_are_ioquake3s() -> None:
    assert (VANILLA.max_vertices, VANILLA.max_triangles, VANILLA.max_surfaces) == (999, 1999, 32)
    assert (VANILLA.max_frames, VANILLA.max_tags, VANILLA.max_shaders) == (1024, 16, 256)
    pos, tris, st0 = _grid(1000)
    with pytest.raises(
        LimitExceededError, match="1000 vertices in surfaces\\[0\\] exceed the limit of 999"
    ):
        build([SurfaceData("s", pos, tris, st0)])
    m = build([SurfaceData("s", pos, tris, st0)], limits=FORMAT_LIMITS).model
    errors = [f for f in check_md3(m.data, engine="quake3") if f.severity == "error"]
    assert [f.code for f in errors] == ["too-many-vertices"]
    pos, tris, st0 = _grid(4097)
    with pytest.raises(LimitExceededError, match="exceed the format's limit of 4096"):
        build([SurfaceData("s", pos, tris, st0)], limits=Limits(max_vertices=10**6))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"surfaces": 33}, "33 surfaces exceed the format's limit of 32"),
        ({"tags": 17}, "17 tags exceed the limit of 16"),
        ({"frames": 1025}, "1025 frames exceed the format's limit of 1024"),
        ({"shaders": 257}, "257 shaders in surfaces\\[0\\] exceed the format's limit of 256"),
        ({"name": "x" * 64}, "surface name b'x{64}' has 64 bytes"),
        ({"frame_name": "f" * 16}, "frame name b'f{16}' has 16 bytes"),
    ],
)
def test_limits_raise_limit_exceeded(kwargs: dict[str, object], message: str) -> None:
    frames = int(kwargs.get("frames", 1))  # type: ignore[call-overload]
    pos = np.broadcast_to(CUBE, (frames, 8, 3))
    surf = SurfaceData(
        str(kwargs.get("name", "s")), pos, CUBE_TRIS, CUBE_ST,
        shaders=["x"] * int(kwargs.get("shaders", 0)),  # type: ignore[call-overload]
    )  # fmt: skip
    surfaces = [surf] * int(kwargs.get("surfaces", 1))  # type: ignore[call-overload]
    tags = [TagData(f"t{i}", np.zeros((frames, 3)), np.broadcast_to(np.eye(3), (frames, 3, 3)))
            for i in range(int(kwargs.get("tags", 0)))]  # type: ignore[call-overload]  # fmt: skip
    names = [str(kwargs.get("frame_name", f"f{i}")) for i in range(frames)]
    with pytest.raises(LimitExceededError, match=message):
        build(surfaces, tags=tags, frame_names=names)


@pytest.mark.parametrize(
    ("surface", "message"),
    [
        (SurfaceData("s", CUBE, [[0, 1, 8]], CUBE_ST), r"triangles\[0\]\[2\]=8 is outside 0\.\.7"),
        (SurfaceData("s", CUBE, [[0, -1, 2]], CUBE_ST), r"triangles\[0\]\[1\]=-1 is outside"),
        (
            SurfaceData("s", CUBE * 100, CUBE_TRIS, CUBE_ST),
            r"positions\[0, 0, 0\] \(frame 0, vertex 0, x\)=-800\.0 is outside the range",
        ),
        (SurfaceData("s", CUBE + np.nan, CUBE_TRIS, CUBE_ST), "not a finite number"),
        (SurfaceData("s", CUBE, CUBE_TRIS, CUBE_ST[:7]), r"texcoords must be \(N,2\) = \(8,2\)"),
        (SurfaceData("s", CUBE, CUBE_TRIS, CUBE_ST + np.inf), "finite float32"),
        (SurfaceData("s", CUBE[:2], [[0, 1, 1]], CUBE_ST[:2]), "at least 3 and 1"),
        (SurfaceData("s", CUBE, np.zeros((0, 3)), CUBE_ST), "at least 3 and 1"),
        (
            SurfaceData("s", CUBE, CUBE_TRIS, CUBE_ST, normals=np.ones((1, 8, 4))),
            r"\(F,N,3\) vectors",
        ),
        (SurfaceData("s", "abc", CUBE_TRIS, CUBE_ST), "not a numeric array"),
        (SurfaceData("s", CUBE, CUBE_TRIS, CUBE_ST, shaders=["é"]), "is not ASCII"),
        (SurfaceData("s\0x", CUBE, CUBE_TRIS, CUBE_ST), "contains a NUL"),
        # the int64 cast cut 0.5 to 0; complex normals lost their imaginary part
        (
            SurfaceData("s", CUBE, CUBE_TRIS + 0.5, CUBE_ST),
            r"surfaces\[0\]\.triangles\[0, 0\]=0.5 is not a whole number that fits int64",
        ),
        (
            SurfaceData("s", CUBE, CUBE_TRIS, CUBE_ST, normals=np.ones((8, 3), complex)),
            r"surfaces\[0\]\.normals: not a numeric array \(dtype complex128\)",
        ),
        # ragged lists: numpy's own ValueError escaped from np.shape and np.asarray
        (SurfaceData("s", [[1, 2], [3]], CUBE_TRIS, CUBE_ST), "positions: not a numeric array"),
        (
            SurfaceData("s", CUBE, CUBE_TRIS, CUBE_ST, normals=[[1], [2, 3]]),
            "normals: not a numeric array",
        ),
    ],
)
def test_bad_surfaces_raise_clear_errors(surface: SurfaceData, message: str) -> None:
    with pytest.raises(BadValueError, match=message):
        build([surface])


def test_inconsistent_frames_and_tags_raise() -> None:
    two = SurfaceData("a", np.stack([CUBE, CUBE]), CUBE_TRIS, CUBE_ST)
    three = SurfaceData("b", np.stack([CUBE] * 3), CUBE_TRIS, CUBE_ST)
    with pytest.raises(
        BadValueError, match=r"surfaces\[1\]\.positions has 3 frames; the model has 2"
    ):
        build([two, three])
    with pytest.raises(BadValueError, match="1 frame names for 2 frames"):
        build([two], frame_names=["x"])
    with pytest.raises(BadValueError, match=r"tags\[0\] has 1 origins and 1 axes for 2 frames"):
        build([two], tags=[TagData("t", [0, 0, 0], np.eye(3))])
    with pytest.raises(BadValueError, match="non-finite"):
        build([two], tags=[TagData("t", [[0, 0, 1e39]] * 2, [np.eye(3)] * 2)])
    with pytest.raises(BadValueError, match="needs surfaces, tags or frame names"):
        build([])
    with pytest.raises(BadValueError, match=r"tags\[0\]\.origins: not a numeric array"):
        build([two], tags=[TagData("t", [[0], [0, 0]], [np.eye(3)] * 2)])  # was a ValueError


@pytest.mark.filterwarnings("error::RuntimeWarning")  # a numpy warning means an unchecked path
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    num_vertices=st.integers(0, 1100),
    num_frames=st.integers(1, 3),
    coords=st.lists(
        st.floats(allow_nan=True, allow_infinity=True, width=64), min_size=1, max_size=8
    ),
    indices=st.lists(st.integers(-3, 1200), min_size=0, max_size=9),
    normals=st.sampled_from([None, "vectors", "codes", "bad"]),
)
def test_fuzzed_builder_input_gives_a_model_or_a_clean_error(
    num_vertices: int, num_frames: int, coords: list[float], indices: list[int], normals: str | None
) -> None:
    """Non-finite and huge positions, indices out of range, too many vertices: either a model
    that reads back, or a ModelFormatError, never anything else."""
    pos = np.resize(np.array(coords), (num_frames, num_vertices, 3))
    tris = np.resize(np.array(indices or [0], dtype=np.int64), (max(len(indices) // 3, 1), 3))
    given_normals: object = None
    if normals == "vectors":
        given_normals = np.resize(np.array(coords), (num_frames, num_vertices, 3))
    elif normals == "codes":
        given_normals = np.resize(np.array(indices or [0]), (num_frames, num_vertices, 2))
    elif normals == "bad":
        given_normals = np.zeros((num_frames, num_vertices + 1, 3))
    surface = SurfaceData("fuzz", pos, tris, np.zeros((num_vertices, 2)), normals=given_normals)  # type: ignore[arg-type]
    try:
        result = build([surface])
    except ModelFormatError:
        return
    assert Md3.from_bytes(result.model.data).load_all().surfaces[0].num_vertices == num_vertices
    assert result.errors.max() <= 1 / 128


# -- MD2 → MD3 → MD2 -------------------------------------------------------------------------------


def md2_to_md3(md2: Md2) -> tuple[Md3, np.ndarray]:
    """One surface from an MD2: a vertex per distinct (vertex, texcoord) corner; the anorm
    normals re-encoded; returns the MD3 and the source vertex of each MD3 vertex."""
    vertex_ids, st_ids, tris = weld(md2.triangles, md2.triangle_texcoords)
    size = np.array([md2.skin_width, md2.skin_height], np.float64)
    surface = SurfaceData(
        "body",
        md2.positions[:, vertex_ids],
        tris,
        md2.texcoords_px[st_ids].astype(np.float64) / size,
        normals=md2.normals[:, vertex_ids],
        shaders=md2.skins[:1],
    )
    model = build([surface], frame_names=md2.frame_names, limits=FORMAT_LIMITS).model
    return model, vertex_ids


@pytest.mark.parametrize("path", corpus_params("md2"))
def test_corpus_md2_converts_to_md3_and_back_within_quantization(path: Path) -> None:
    md2 = Md2.from_file(path)
    md3, vertex_ids = md2_to_md3(md2)
    s = md3.surfaces[0]
    p0 = md2.positions[:, vertex_ids].astype(np.float64)
    p1 = s.positions.astype(np.float64)
    assert np.abs(p1 - p0).max() <= 1 / 128
    assert md3.frame_names == md2.frame_names
    # texcoords: pixel / size in float32 gives the same pixel back
    size = np.array([md2.skin_width, md2.skin_height])
    st_back = np.rint(s.texcoords.astype(np.float64) * size)
    # back to MD2: MD3 vertices become MD2 vertices, each with its own texcoord
    back = Md2.build(
        s.positions, s.triangles, st_back, s.triangles, md3.frame_names,
        skin_size=(md2.skin_width, md2.skin_height), normals=s.normals,
        limits=MD2_FORMAT_LIMITS,  # welding adds vertices where texcoords split (a seam)
    )  # fmt: skip
    p2 = back.model.positions.astype(np.float64)
    # MD3's 1/64 grid, then MD2's per-frame grid (half a step of the new scale per axis)
    bound = 1 / 128 + back.steps[:, None, :] / 2 + 1e-5
    assert (np.abs(p2 - p0) <= bound).all()
    assert back.model.frame_names == md2.frame_names
    corner_st = md2.texcoords_px[md2.triangle_texcoords]
    np.testing.assert_array_equal(back.model.texcoords_px[back.model.triangle_texcoords], corner_st)
    np.testing.assert_array_equal(vertex_ids[back.model.triangles], md2.triangles)
    # normals: MD2 anorm → MD3 code (≤ 0.76° away on the corpus) → the nearest anorm: the same
    np.testing.assert_array_equal(back.model.normal_indices, md2.normal_indices[:, vertex_ids])


# -- through the format-neutral scene (what convert uses) ------------------------------------------


@pytest.mark.parametrize("data", ALL_MD3)
def test_md3_through_the_scene_keeps_positions_and_canonical_normals(data: bytes) -> None:
    model = Md3.from_bytes(data)
    rebuilt = Md3.from_scene(scene(model), limits=FORMAT_LIMITS).model
    assert rebuilt.frame_names == [n[:15] for n in model.frame_names]
    assert rebuilt.tags.names == model.tags.names
    np.testing.assert_array_equal(rebuilt.tags.axes, model.tags.axes)
    for a, b in zip(rebuilt.surfaces, model.surfaces, strict=True):
        assert a.name == b.name
        assert [s.name for s in a.shaders] == [s.name for s in b.shaders if s.name]
        np.testing.assert_array_equal(a.positions_raw, b.positions_raw)
        lng, lat = b.normal_angles[..., 0], b.normal_angles[..., 1]
        canonical = ((lng >= 1) & (lng <= 127)) | ((lat == 0) & ((lng == 0) | (lng == 128)))
        np.testing.assert_array_equal(a.normal_angles[canonical], b.normal_angles[canonical])
        dots = np.einsum("...i,...i", a.normals[~canonical], b.normals[~canonical])
        assert dots.size == 0 or dots.min() > 1 - 1e-6  # aliases: the same direction


@pytest.mark.parametrize("path", corpus_params("md2"))
def test_md2_scene_converts_to_md3(path: Path) -> None:
    md2 = Md2.from_file(path)
    result = Md3.from_scene(scene(md2), name="models/test/x.md3", limits=FORMAT_LIMITS)
    m = result.model
    mesh = md2.mesh(0)
    s = m.surfaces[0]
    assert (m.model_name, m.frame_names, s.name) == ("models/test/x.md3", md2.frame_names, "mesh")
    assert np.abs(s.positions - md2.positions[:, mesh.vertex_ids]).max() <= 1 / 128
    assert result.errors.max() <= 1 / 128
    # the mesh is counter-clockwise (render order), the file clockwise (Quake's)
    np.testing.assert_array_equal(s.triangles, mesh.indices[:, [0, 2, 1]])
    np.testing.assert_array_equal(s.texcoords, mesh.uvs)
    assert [sh.name for sh in s.shaders] == [n for n in md2.skins if n]


# -- quakemodels convert to .md3 -------------------------------------------------------------------

SAMPLE = Path(__file__).resolve().parent.parent / "src" / "quakemodels" / "samples" / "quakeguy.md2"


def test_cli_converts_md2_gltf_and_obj_to_md3(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    md2 = Md2.from_file(SAMPLE)
    out = tmp_path / "guy.md3"
    assert main(["convert", str(SAMPLE), str(out)]) == 0
    assert f"{md2.num_frames} frames, 1 surface," in capsys.readouterr().out
    m = Md3.from_file(out).load_all()
    assert m.frame_names == md2.frame_names
    assert (
        np.abs(m.surfaces[0].positions - md2.positions[:, md2.mesh(0).vertex_ids]).max() <= 1 / 128
    )
    assert main(["check", "--engine", "quake3", str(out)]) == 0
    # the MD3 → glTF → MD3 loop gives the same vertex words
    glb = tmp_path / "guy.glb"
    assert main(["export", str(out), "-o", str(glb)]) == 0
    again = tmp_path / "again.md3"
    assert main(["convert", str(glb), str(again), "--shader", "models/guy/skin"]) == 0
    a = Md3.from_file(again).load_all()
    np.testing.assert_array_equal(a.surfaces[0].positions_raw, m.surfaces[0].positions_raw)
    # the shader name the MD3 stored comes back through the glTF's material name (--shader
    # only fills surfaces that have none)
    assert [s.name for s in a.surfaces[0].shaders] == [sh.name for sh in m.surfaces[0].shaders]
    assert [sh.name for sh in m.surfaces[0].shaders] == ["quakeguy.png"]
    # OBJ frames of one clip
    assert main(["convert", str(SAMPLE), str(tmp_path / "objs"), "--clip", "run"]) == 0
    objs = sorted((tmp_path / "objs").glob("*.obj"))
    run = tmp_path / "run.md3"
    assert main(["convert", *map(str, objs), str(run), "--frame-prefix", "run"]) == 0
    r = Md3.from_file(run).load_all()
    clip = md2.animations["run"]
    assert r.frame_names == [f"run{k}" for k in range(1, len(clip) + 1)]
    top = md2.positions[clip.start : clip.stop].max(axis=(0, 1))
    assert np.abs(r.bounds[1] - top).max() <= 1 / 128 + 1e-4  # 1/64 grid, OBJ digits
    capsys.readouterr()


def test_cli_md3_limits_and_bad_input_write_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pos, tris, st0 = _grid(1200)
    big = build([SurfaceData("s", pos, tris, st0)], limits=FORMAT_LIMITS).model
    src = tmp_path / "big.md3"
    save(big, src)
    out = tmp_path / "out.md3"
    assert main(["convert", str(src), str(out)]) == 1
    assert "1200 vertices in surfaces[0] exceed the limit of 999" in capsys.readouterr().err
    assert not out.exists()
    assert main(["convert", str(src), str(out), "--no-limits"]) == 0
    assert Md3.from_file(out).surfaces[0].num_vertices == 1200
    junk = tmp_path / "junk.glb"
    junk.write_bytes(b"not a gltf at all")
    assert main(["convert", str(junk), str(tmp_path / "junk.md3")]) == 1
    assert "error:" in capsys.readouterr().err
    assert not (tmp_path / "junk.md3").exists()


def test_weld_corners_merges_corners_equal_in_every_frame_and_uv() -> None:
    positions = np.array([[[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 0], [1, 0, 0], [2, 2, 2]]] * 2)
    positions[1, 3] = [0, 0, 9]  # corner 3 matches corner 0 in frame 0 only: kept apart
    uvs = np.array([[0, 0], [1, 0], [0, 1], [0, 0], [1, 0], [1, 1]])
    p, uv, tri = write.weld_corners(positions, uvs, [[0, 1, 2], [3, 4, 5]])
    np.testing.assert_array_equal(tri, [[0, 1, 2], [3, 1, 4]])
    np.testing.assert_array_equal(p[1], [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 9], [2, 2, 2]])
    np.testing.assert_array_equal(uv, [[0, 0], [1, 0], [0, 1], [0, 0], [1, 1]])
    vertex_ids, st_ids, tri2 = weld([[0, 1, 2], [0, 1, 3]], [[0, 1, 2], [5, 1, 2]])
    np.testing.assert_array_equal(vertex_ids, [0, 1, 2, 0, 3])
    np.testing.assert_array_equal(st_ids, [0, 1, 2, 5, 2])
    np.testing.assert_array_equal(tri2, [[0, 1, 2], [3, 1, 4]])
