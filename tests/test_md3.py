"""Md3: the numpy facade equals the generated Kaitai parser on every corpus file, and every
validation rule rejects a synthetic broken file with the right error, field and offset."""

from __future__ import annotations

import io
import math
import struct
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import corpus_params
from md3builder import (
    HEADER_OFFSETS,
    FrameSpec,
    Md3Spec,
    SurfaceSpec,
    TagSpec,
    build,
    set_header,
    set_surface,
    surface_offset,
)

import quakemodels
from quakemodels import (
    BadMagicError,
    BadValueError,
    BadVersionError,
    Md3,
    ModelFormatError,
    TruncatedError,
)
from quakemodels.cli import main
from quakemodels.core.names import plural
from quakemodels.kaitai.quake3_md3 import Quake3Md3

# -- the corpus against the generated parser ----------------------------------------------------


def _vec(v: Quake3Md3.Vec3f) -> tuple[float, float, float]:
    return (v.x, v.y, v.z)


@pytest.mark.parametrize("path", corpus_params("md3"))
def test_corpus_equals_generated_parser(path: Path) -> None:
    m = Md3.from_file(path).load_all()
    spec = Quake3Md3.from_file(str(path))

    assert m.header == {name: getattr(spec, name) for name in m.header}
    assert m.model_name == spec.name
    f, k = spec.num_frames, spec.num_tags

    frames = m.frames
    assert frames.names == [fr.name for fr in spec.frames]
    np.testing.assert_array_equal(frames.mins, [_vec(fr.min_bounds) for fr in spec.frames])
    np.testing.assert_array_equal(frames.maxs, [_vec(fr.max_bounds) for fr in spec.frames])
    np.testing.assert_array_equal(frames.origins, [_vec(fr.local_origin) for fr in spec.frames])
    np.testing.assert_array_equal(frames.radii, [fr.radius for fr in spec.frames])
    assert frames.mins.dtype == frames.radii.dtype == np.float32

    tags = m.tags
    assert tags.origins.shape == (f, k, 3) and tags.axes.shape == (f, k, 3, 3)
    assert tags.names_per_frame == [[spec.tags[i * k + j].name for j in range(k)] for i in range(f)]
    assert tags.names == [t.name for t in spec.tags[:k]]
    np.testing.assert_array_equal(
        tags.origins.reshape(-1, 3), np.array([_vec(t.origin) for t in spec.tags]).reshape(-1, 3)
    )
    np.testing.assert_array_equal(
        tags.axes.reshape(-1, 3, 3),
        np.array([[_vec(a) for a in t.axis] for t in spec.tags]).reshape(-1, 3, 3),
    )

    assert len(m.surfaces) == spec.num_surfaces
    start = spec.ofs_surfaces  # surfaces are chained: each starts ofs_end after the previous
    for surf, ss in zip(m.surfaces, spec.surfaces, strict=True):
        assert surf.name == ss.name and surf.magic == ss.magic
        assert surf.offset == start
        start += ss.ofs_end
        assert {key: value for key, value in surf.header.items()} == {
            key: getattr(ss, key) for key in surf.header
        }
        assert [(sh.name, sh.shader_index) for sh in surf.shaders] == [
            (sh.name, sh.shader_index) for sh in ss.shaders
        ]
        np.testing.assert_array_equal(surf.triangles, [t.vertex_indices for t in ss.triangles])
        assert surf.triangles.dtype == np.int32
        np.testing.assert_array_equal(surf.texcoords, [(tc.s, tc.t) for tc in ss.tex_coords])
        assert surf.texcoords.dtype == np.float32
        verts = ss.vertices
        n = ss.num_vertices
        assert len(verts) == f * n
        # Positions: the spec's double value, exactly (x / 64 is exact in float32 too).
        expected = np.array([(v.x, v.y, v.z) for v in verts], dtype=np.float64)
        assert surf.positions.shape == (f, n, 3) and surf.positions.dtype == np.float32
        np.testing.assert_array_equal(surf.positions.reshape(-1, 3).astype(np.float64), expected)
        # Normals: the engine's formula on the spec's angle instances, rounded once to float32.
        normals = np.array(
            [
                (
                    math.cos(v.lat) * math.sin(v.lng),
                    math.sin(v.lat) * math.sin(v.lng),
                    math.cos(v.lng),
                )
                for v in verts
            ],
            dtype=np.float64,
        ).astype(np.float32)
        assert surf.normals.shape == (f, n, 3) and surf.normals.dtype == np.float32
        np.testing.assert_array_equal(surf.normals.reshape(-1, 3), normals)
        np.testing.assert_allclose(np.linalg.norm(surf.normals, axis=-1), 1.0, atol=1e-6)
        np.testing.assert_array_equal(
            surf.normal_angles.reshape(-1, 2), [(v.normal_lng, v.normal_lat) for v in verts]
        )
        np.testing.assert_array_equal(
            surf.positions_raw.reshape(-1, 3),
            [(v.x_compressed, v.y_compressed, v.z_compressed) for v in verts],
        )


@pytest.mark.parametrize("path", corpus_params("md3"))
def test_corpus_load_dispatch_and_mesh(path: Path) -> None:
    m = quakemodels.load(path)
    assert isinstance(m, Md3)
    assert m.name == str(path)
    last = m.num_frames - 1
    for surf, mesh in zip(m.surfaces, m.meshes(last), strict=True):
        np.testing.assert_array_equal(mesh.positions, surf.positions[last])
        np.testing.assert_array_equal(mesh.normals, surf.normals[last])
        np.testing.assert_array_equal(mesh.uvs, surf.texcoords)
        # render order: the stored (clockwise) triangles with corners 1 and 2 swapped
        np.testing.assert_array_equal(mesh.indices, surf.triangles[:, [0, 2, 1]])
        assert mesh.indices.dtype == np.uint32
        assert int(mesh.indices.max()) < surf.num_vertices
    lo, hi = m.bounds
    every = np.concatenate([s.positions.reshape(-1, 3) for s in m.surfaces])
    np.testing.assert_array_equal(lo, every.min(axis=0))
    np.testing.assert_array_equal(hi, every.max(axis=0))


@pytest.mark.parametrize("path", corpus_params("md3"))
def test_corpus_info(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["info", str(path)]) == 0
    out = capsys.readouterr().out
    m = Md3.from_file(path)
    assert "Quake III MD3 (IDP3 version 15)" in out
    counts = [plural(m.num_frames, "frame"), plural(m.num_tags, "tag")]
    assert f"{', '.join(counts)}, {plural(m.num_surfaces, 'surface')}" in out
    for s in m.surfaces:
        assert f"{s.index}: {s.name}" in out
    for name in m.tags.names:
        assert name in out


# -- synthetic files: values equal the builder's input ------------------------------------------


def test_synthetic_values_equal_builder_input() -> None:
    spec = Md3Spec()
    data = build(spec)
    m = Md3.from_bytes(data).load_all()
    assert (m.num_frames, m.num_tags, m.num_surfaces) == (2, 2, 2)
    assert m.model_name == "models/test/test.md3"
    assert m.frame_names == ["stand1", "stand2"]
    np.testing.assert_array_equal(m.frames.radii, [3.75, 4.5])
    np.testing.assert_array_equal(m.frames.mins, [(-1, -2, -3)] * 2)
    assert m.tags.names == ["tag_head", "tag_weapon"]
    assert m.tags.index("tag_weapon") == 1
    np.testing.assert_array_equal(m.tags.origins[1, 0], (0.5, 0.25, 8.0))
    np.testing.assert_array_equal(m.tags.axes[1, 0], ((0, 1, 0), (-1, 0, 0), (0, 0, 1)))
    np.testing.assert_array_equal(m.tags.origins[:, 1], [(4, 5, 6.5), (-4, 5, 6.5)])
    body, head = m.surfaces
    assert (body.name, head.name) == ("body", "head")
    assert [s.name for s in body.shaders] == ["models/test/skin"] and head.shaders == []
    assert m.surface("head") is head
    np.testing.assert_array_equal(body.triangles, [(0, 1, 2), (0, 2, 3)])
    np.testing.assert_array_equal(body.texcoords, [(0, 0), (1, 0), (1, 1), (0, 0.25)])
    raw = np.array([[v[:3] for v in frame] for frame in spec.surfaces[0].vertices], np.float64)
    np.testing.assert_array_equal(body.positions, raw / 64)
    assert body.positions[0, 3].tolist() == [-1 / 64, 32767 / 64, -512.0]
    # lng 0 points up whatever lat is; lng 128 (pi) points down; lng 64, lat 0 is +X;
    # lng 64, lat 64 is +Y.
    n = body.normals
    np.testing.assert_array_equal(n[0, 0], (0, 0, 1))
    np.testing.assert_allclose(n[0, 1], (1, 0, 0), atol=1e-7)
    np.testing.assert_allclose(n[0, 2], (0, 1, 0), atol=1e-7)
    np.testing.assert_allclose(n[0, 3, 2], -1.0)
    np.testing.assert_allclose(n[1, 1], (-1, 0, 0), atol=1e-7)  # lat 128
    np.testing.assert_allclose(body.lerp(0, 1, 0.5)[0], (0, 0, 0.5))
    with pytest.raises(IndexError):
        body.mesh(2)


def test_tags_only_model_is_valid() -> None:
    m = Md3.from_bytes(build(Md3Spec(surfaces=[])))
    m.load_all()
    assert m.surfaces == [] and m.num_surfaces == 0
    assert m.tags.names == ["tag_head", "tag_weapon"]
    assert m.tags.axes.shape == (2, 2, 3, 3)
    assert m.meshes(0) == []
    lo, hi = m.bounds
    assert lo.tolist() == hi.tolist() == [0, 0, 0]
    assert isinstance(quakemodels.load(io.BytesIO(build(Md3Spec(surfaces=[])))), Md3)


def test_model_without_tags() -> None:
    m = Md3.from_bytes(build(Md3Spec(tags=[]))).load_all()
    assert m.num_tags == 0 and m.tags.names == [] and m.tags.origins.shape == (2, 0, 3)


def test_failed_decode_is_not_cached() -> None:
    spec = Md3Spec()
    spec.surfaces[0].triangles = [(0, 1, 2), (0, 2, 4)]
    m = Md3.from_bytes(build(spec))
    surf = m.surfaces[0]
    for _ in range(2):
        with pytest.raises(BadValueError):
            surf.triangles  # noqa: B018
    assert "triangles" not in surf.__dict__
    with pytest.raises(BadValueError):
        m.load_all()


# -- synthetic broken files -----------------------------------------------------------------------


def _expect(data: bytes, error: type[ModelFormatError], field: str, offset: int) -> str:
    with pytest.raises(ModelFormatError) as info:
        Md3.from_bytes(data).load_all()
    e = info.value
    assert type(e) is error, f"{type(e).__name__}: {e}"
    assert (e.field, e.offset) == (field, offset), str(e)
    assert f"offset {offset}" in str(e)
    return str(e)


GOOD = build()
S0 = surface_offset(GOOD, 0)
S1 = surface_offset(GOOD, 1)
SIZE = len(GOOD)

HeaderCase = tuple[str, int, type[ModelFormatError]]


@pytest.mark.parametrize(
    ("field", "value", "error"),
    [
        ("num_frames", 0, BadValueError),
        ("num_frames", 1025, BadValueError),
        ("num_frames", -1, BadValueError),
        ("num_tags", -1, BadValueError),
        ("num_surfaces", 33, BadValueError),
        ("num_surfaces", -2, BadValueError),
        ("ofs_end", SIZE + 1, TruncatedError),
        ("ofs_end", -4, TruncatedError),
        ("ofs_frames", SIZE - 100, TruncatedError),
        ("ofs_frames", 2**31 - 1, TruncatedError),
        ("ofs_frames", 0, BadValueError),
        ("ofs_frames", 110, BadValueError),
        ("ofs_tags", SIZE - 200, TruncatedError),
        ("ofs_tags", -(2**31), BadValueError),
        ("ofs_tags", 218, BadValueError),
        ("ofs_surfaces", SIZE - 200, TruncatedError),
        ("ofs_surfaces", 50, BadValueError),
        ("ofs_surfaces", S0 + 2, BadValueError),
    ],
)
def test_header_rules(field: str, value: int, error: type[ModelFormatError]) -> None:
    _expect(set_header(GOOD, field, value), error, field, HEADER_OFFSETS[field])


def test_tag_count_overflow_is_truncation() -> None:
    # 2 frames × (2**31 - 1) tags × 112 bytes: far past the file, computed without overflow
    _expect(set_header(GOOD, "num_tags", 2**31 - 1), TruncatedError, "ofs_tags", 96)


def test_bad_magic_version_and_short_header() -> None:
    _expect(b"IDP2" + GOOD[4:], BadMagicError, "magic", 0)
    _expect(GOOD[:4] + struct.pack("<i", 16) + GOOD[8:], BadVersionError, "version", 4)
    _expect(GOOD[:100], TruncatedError, "ofs_surfaces", 100)
    with pytest.raises(BadMagicError, match="IDP3 = MD3"):
        quakemodels.load(b"RIFF" + bytes(200))


@pytest.mark.parametrize(
    ("index", "field", "value", "error"),
    [
        (0, "num_frames", 1, BadValueError),
        (1, "num_frames", 3, BadValueError),
        (0, "num_shaders", 257, BadValueError),
        (0, "num_shaders", -1, BadValueError),
        (0, "num_vertices", 2, BadValueError),
        (0, "num_vertices", 4097, BadValueError),
        (0, "num_triangles", 0, BadValueError),
        (0, "num_triangles", 6145, BadValueError),
        (0, "ofs_end", 104, BadValueError),
        (0, "ofs_end", -108, BadValueError),
        (1, "ofs_end", 10**9, TruncatedError),
        (0, "ofs_shaders", 100, BadValueError),
        (0, "ofs_shaders", 10**6, TruncatedError),
        (0, "ofs_triangles", 4, BadValueError),
        (0, "ofs_triangles", -(2**31), BadValueError),
        (0, "ofs_triangles", 10**6, TruncatedError),
        (0, "ofs_tex_coords", 110, BadValueError),
        (0, "ofs_tex_coords", 10**6, TruncatedError),
        (1, "ofs_vertices", 109, BadValueError),
        (1, "ofs_vertices", 2**31 - 1, TruncatedError),
    ],
)
def test_surface_rules(index: int, field: str, value: int, error: type[ModelFormatError]) -> None:
    data, at = set_surface(GOOD, index, field, value)
    message = _expect(data, error, field, at)
    assert f"surfaces[{index}].{field}={value}" in message


def test_surface_end_misaligned() -> None:
    end = struct.unpack_from("<i", GOOD, S0 + 104)[0]
    data, at = set_surface(GOOD, 0, "ofs_end", end + 2)
    _expect(data, BadValueError, "ofs_end", at)


def test_surface_chain_runs_past_the_end() -> None:
    # Surface 0 claims to end 50 bytes before the end of the file: surface 1's header cannot fit.
    end = SIZE - 52 - S0
    data, at = set_surface(GOOD, 0, "ofs_end", end)
    message = _expect(data, TruncatedError, "ofs_end", at)
    assert f"surfaces[1] at offset {SIZE - 52}" in message


def test_triangle_index_out_of_range() -> None:
    for bad in (4, -1, 2**31 - 1, -(2**31)):
        spec = Md3Spec()
        spec.surfaces[1].triangles = [(0, 1, 2), (3, bad, 0)]
        data = build(spec)
        s1 = surface_offset(data, 1)
        ofs_tris = struct.unpack_from("<i", data, s1 + 88)[0]
        message = _expect(data, BadValueError, "vertex_indices", s1 + ofs_tris + 12 + 4)
        assert f"surfaces[1].triangles[1].vertex_indices[1]={bad}" in message


def test_sections_sharing_bytes() -> None:
    # Tags moved onto frame 1's bytes overlap; an empty section anywhere, or one that starts
    # right where another ends, does not.
    data = set_header(GOOD, "ofs_tags", 108 + 56)
    message = _expect(data, BadValueError, "ofs_tags", HEADER_OFFSETS["ofs_tags"])
    assert message == (
        f"tags at offset {HEADER_OFFSETS['ofs_tags']}: bytes 164..611 overlap frames's bytes"
        " 108..219 (sections may not share data)"
    )
    spec = Md3Spec(tags=[[], []], header_overrides={"ofs_tags": 112})
    assert Md3.from_bytes(build(spec)).load_all().num_tags == 0
    s0 = surface_offset(GOOD, 0)
    tris = struct.unpack_from("<i", GOOD, s0 + 88)[0]  # surface 0's triangles follow...
    shaders = struct.unpack_from("<i", GOOD, s0 + 92)[0]  # ...its one 68-byte shader
    assert tris == shaders + 68
    data, at = set_surface(GOOD, 0, "ofs_triangles", tris - 4)
    message = _expect(data, BadValueError, "ofs_triangles", at)
    assert "overlap surfaces[0].ofs_shaders's bytes" in message


def test_load_all_decodes_every_array() -> None:
    m = Md3.from_bytes(GOOD).load_all()
    for surface in m.surfaces:
        assert set(surface.ARRAYS) <= set(vars(surface))
    assert {"frames", "tags"} <= set(vars(m))


NameCase = Callable[[Md3Spec], None]


def _long_model_name(s: Md3Spec) -> None:
    s.name = b"m" * 64


def _long_frame_name(s: Md3Spec) -> None:
    s.frames[1].name = b"f" * 16


def _long_tag_name(s: Md3Spec) -> None:
    s.tags[1][0].name = b"t" * 64


def _long_surface_name(s: Md3Spec) -> None:
    s.surfaces[1].name = b"s" * 64


def _long_shader_name(s: Md3Spec) -> None:
    s.surfaces[0].shaders = [b"ok", b"x" * 64]


@pytest.mark.parametrize(
    ("mutate", "where"),
    [
        (_long_model_name, lambda d: 8),
        (_long_frame_name, lambda d: 108 + 56 + 40),
        (_long_tag_name, lambda d: _header_value(d, "ofs_tags") + 2 * 112),
        (_long_surface_name, lambda d: surface_offset(d, 1) + 4),
        (_long_shader_name, lambda d: surface_offset(d, 0) + 108 + 68),
    ],
    ids=["model", "frame", "tag", "surface", "shader"],
)
def test_names_must_be_nul_terminated(mutate: NameCase, where: Callable[[bytes], int]) -> None:
    spec = Md3Spec()
    mutate(spec)
    data = build(spec)
    message = _expect(data, BadValueError, "name", where(data))
    assert "no NUL terminator" in message


@pytest.mark.parametrize("shaders", [1, 2], ids=["one shader", "two shaders"])
def test_shader_names_one_or_many(shaders: int) -> None:
    # A surface's single shader reads through a shortcut, several through the general path:
    # both give the text before the NUL, the stored index, a warning with escapes for
    # non-ASCII bytes and the same error for a name without a NUL.
    names = [b"ok\0junk", b"models/x"][:shaders]
    data = bytearray(build(Md3Spec(surfaces=[SurfaceSpec(shaders=names)])))
    at = surface_offset(bytes(data), 0) + 108  # the first shader's name
    struct.pack_into("<i", data, at + 64 + 68 * (shaders - 1), 7)  # the last shader's index
    loaded = Md3.from_bytes(bytes(data)).load_all().surfaces[0].shaders
    expected = [("ok", 7)] if shaders == 1 else [("ok", 0), ("models/x", 7)]
    assert [(s.name, s.shader_index) for s in loaded] == expected
    data[at : at + 4] = b"\xe9t\xe9\0"
    with pytest.warns(quakemodels.QuakeModelsWarning, match=f"offset {at} has non-ASCII"):
        loaded = Md3.from_bytes(bytes(data)).surfaces[0].shaders
    assert loaded[0].name == "\\xe9t\\xe9"
    data[at : at + 64] = b"x" * 64
    message = _expect(bytes(data), BadValueError, "name", at)
    assert message.startswith(f"surfaces[0].shaders[0].name={b'x' * 64!r} at offset {at} has no")


def _one_frame(name: bytes, where: str) -> Md3Spec:
    """A one-frame model with ``name`` as the frame's, the first tag's or the surface's name."""
    surface = SurfaceSpec(name=name if where == "surface" else b"body")
    surface.vertices = surface.vertices[:1]
    return Md3Spec(
        frames=[FrameSpec(name=name if where == "frame" else b"f")],
        tags=[[TagSpec(name if where == "tag" else b"tag_a"), TagSpec(b"tag_b")]],
        surfaces=[surface],
    )


def _name_offset(data: bytes, where: str) -> int:
    return {
        "frame": 108 + 40,
        "tag": _header_value(data, "ofs_tags"),
        "surface": surface_offset(data, 0) + 4,
    }[where]


@pytest.mark.parametrize("where", ["frame", "tag", "surface"])
def test_plain_and_non_ascii_names(where: str) -> None:
    # Names are read without building messages when they are NUL-terminated ASCII; a non-ASCII
    # one warns and keeps escapes, one without a NUL raises, each naming its offset.
    m = Md3.from_bytes(build(_one_frame(b"plain\0junk", where))).load_all()
    assert (m.frames.names, m.tags.names, m.surfaces[0].name) == (
        ["plain" if where == "frame" else "f"],
        ["plain" if where == "tag" else "tag_a", "tag_b"],
        "plain" if where == "surface" else "body",
    )
    data = build(_one_frame(b"\xe9t\xe9", where))
    at = _name_offset(data, where)
    with pytest.warns(quakemodels.QuakeModelsWarning, match=f"offset {at} has non-ASCII"):
        m = Md3.from_bytes(data).load_all()
    assert "\\xe9t\\xe9" in (m.frames.names[0], m.tags.names[0], m.surfaces[0].name)
    data = build(_one_frame(b"n" * (16 if where == "frame" else 64), where))
    message = _expect(data, BadValueError, "name", _name_offset(data, where))
    assert "no NUL terminator" in message


def _header_value(data: bytes, field: str) -> int:
    return int(struct.unpack_from("<i", data, HEADER_OFFSETS[field])[0])


def test_engine_findings_are_not_load_errors() -> None:
    # More than MD3_MAX_TAGS tags, a surface magic other than IDP3, junk after the data,
    # num_skins set and a surface above ioquake3's 1000-vertex limit all load.
    tags = [[TagSpec(f"tag_{i}".encode()) for i in range(17)] for _ in range(2)]
    big = 1200
    surf = SurfaceSpec(
        magic=b"\0\0\0\0",
        triangles=[(i, i + 1, i + 2) for i in range(big - 2)],
        texcoords=[(0.0, 0.0)] * big,
        vertices=[[(i, 0, 0, 0, 0) for i in range(big)]] * 2,
    )
    spec = Md3Spec(tags=tags, surfaces=[surf], num_skins=3, trailing=b"junk")
    m = Md3.from_bytes(build(spec)).load_all()
    assert m.num_tags == 17 and m.surfaces[0].magic == b"\0\0\0\0"
    assert m.surfaces[0].num_vertices == big


def test_frames_spec_defaults_round_trip() -> None:
    frames = [FrameSpec(name=b"a", origin=(1.0, 2.0, 3.0)), FrameSpec(name=b"")]
    spec = Md3Spec(frames=frames, tags=[[], []])
    spec.surfaces = [SurfaceSpec(vertices=[SurfaceSpec().vertices[0]] * 2)]
    m = Md3.from_bytes(build(spec)).load_all()
    assert m.frames.names == ["a", ""]
    assert m.frames.names_raw[0] == b"a".ljust(16, b"\0")
    np.testing.assert_array_equal(m.frames.origins[0], (1, 2, 3))


@pytest.mark.filterwarnings("ignore::quakemodels.QuakeModelsWarning")
def test_mutated_and_truncated_files_raise_only_model_format_errors() -> None:
    # Random int32 overwrites of header and surface-header fields, and every truncation length:
    # each file either loads completely or raises a ModelFormatError; nothing else escapes.
    rng = np.random.default_rng(6)
    fields = [HEADER_OFFSETS[f] for f in HEADER_OFFSETS if f not in ("magic", "version", "name")]
    fields += [S0 + rel for rel in range(68, 108, 4)] + [S1 + rel for rel in range(68, 108, 4)]
    specials = [0, 1, -1, 3, 4, 107, 108, 109, SIZE, SIZE - 4, 2**31 - 1, -(2**31), 2**16]
    loaded = 0
    for _ in range(1500):
        data = bytearray(GOOD)
        for at in rng.choice(fields, size=int(rng.integers(1, 4)), replace=False):
            value = (
                int(rng.choice(specials))
                if rng.random() < 0.6
                else int(rng.integers(-300, SIZE + 300))
            )
            struct.pack_into("<i", data, int(at), value)
        try:
            Md3.from_bytes(bytes(data)).load_all()
            loaded += 1
        except ModelFormatError:
            pass
    assert loaded > 0  # some mutations are harmless (flags, num_skins, ofs_end below the size)
    for n in range(SIZE):
        with pytest.raises(ModelFormatError):
            Md3.from_bytes(GOOD[:n]).load_all()
        if n >= 108:  # the same cut with ofs_end agreeing: the section checks must catch it
            with pytest.raises(ModelFormatError):
                Md3.from_bytes(set_header(GOOD[:n], "ofs_end", n)).load_all()


def test_tag_names_per_frame_same_or_different_and_no_tags() -> None:
    """Frames naming their tags alike share the first frame's decoding; frames that differ
    (a finding for `check`) and files without tags read as stored."""
    same = Md3.from_bytes(build(Md3Spec()))
    assert same.tags.names_per_frame == [["tag_head", "tag_weapon"]] * same.num_frames
    assert same.tags.names_per_frame[0] is not same.tags.names_per_frame[1]
    spec = Md3Spec()
    spec.tags[1][1] = TagSpec(b"tag_flag", origin=(7.0, 8.0, 9.0))
    differ = Md3.from_bytes(build(spec))
    assert differ.tags.names_per_frame == [["tag_head", "tag_weapon"], ["tag_head", "tag_flag"]]
    assert differ.tags.origins[1, 1].tolist() == [7.0, 8.0, 9.0]
    spec = Md3Spec()
    spec.tags = [[] for _ in spec.frames]
    none = Md3.from_bytes(build(spec))
    assert none.tags.names_per_frame == [[], []] and none.tags.origins.shape == (2, 0, 3)
    spec = Md3Spec()
    spec.tags[1][0] = TagSpec(b"x" * 64)  # no NUL in a later frame's name: found there
    with pytest.raises(BadValueError, match=r"tags\[2\]\.name=b'x+' at offset (\d+) has no NUL"):
        Md3.from_bytes(build(spec)).tags  # noqa: B018


@pytest.mark.parametrize("n", [1, 3, 4, 5, 12])  # both sides of the one-by-one path
def test_terminated_names_few_and_many_agree(n: int) -> None:
    from quakemodels.core.names import terminated_names

    block = np.zeros((n, 8), np.uint8)
    for i in range(n):
        block[i, : 1 + i % 3] = ord("a") + i
        block[i, 6] = 0x55  # junk after the NUL is kept in the raw bytes only
    names, raws = terminated_names(block.view("V8").reshape(n), "items", 100, 20)
    assert names == [chr(ord("a") + i) * (1 + i % 3) for i in range(n)]
    assert raws == [block[i].tobytes() for i in range(n)]
    assert terminated_names(block, "items", 100, 20, raws=False) == (names, [])
    block[n - 1] = ord("z")  # the last item loses its NUL
    with pytest.raises(BadValueError, match=rf"items\[{n - 1}\]\.name=b'z+' at offset") as e:
        terminated_names(block, "items", 100, 20)
    assert e.value.offset == 100 + 20 * (n - 1)


def _random_vertices(frames: int, vertices: int, seed: int) -> list[Any]:
    """(F, N) lists of random [x, y, z, lng, lat] vertices."""
    rng = np.random.default_rng(seed)
    xyz = rng.integers(-32768, 32768, (frames, vertices, 3))
    angles = rng.integers(0, 256, (frames, vertices, 2))
    return list(np.concatenate([xyz, angles], axis=-1).tolist())


@pytest.mark.parametrize("delta", [-1, 0, 1])
@pytest.mark.parametrize("frames", [1, 3])
def test_positions_decode_alike_below_and_above_the_few_vertices_cut(
    frames: int, delta: int
) -> None:
    """Positions decode in one multiply below ``_FEW_VERTICES`` vertices (all frames) and word
    by word above: both give stored / 64 exactly, as C-contiguous float32, in the full arrays
    and in every per-frame path of a fresh model."""
    from quakemodels.formats.md3.reader import _FEW_VERTICES

    n = -(-(_FEW_VERTICES + delta) // frames)  # frames * n is at or just past the cut
    verts = _random_vertices(frames, n, seed=frames * 10 + delta)
    spec = Md3Spec(
        frames=[FrameSpec(name=b"f") for _ in range(frames)],
        tags=[[] for _ in range(frames)],
        surfaces=[SurfaceSpec(triangles=[(0, 1, 2)], texcoords=[(0.0, 0.0)] * n, vertices=verts)],
    )
    data = build(spec)
    stored = np.array(verts)[:, :, :3]
    expected = (stored.astype(np.float64) / 64).astype(np.float32)
    surf = Md3.from_bytes(data).load_all().surfaces[0]
    assert surf.positions.dtype == np.float32 and surf.positions.flags.c_contiguous
    np.testing.assert_array_equal(surf.positions, expected)
    assert surf.positions_raw.dtype == np.int16 and surf.positions_raw.flags.c_contiguous
    np.testing.assert_array_equal(surf.positions_raw, stored)
    fresh = Md3.from_bytes(data).surfaces
    np.testing.assert_array_equal(fresh[0].frames_positions(range(frames)[::-1]), expected[::-1])
    for f in range(frames):
        np.testing.assert_array_equal(
            Md3.from_bytes(data).surfaces[0].mesh(f).positions, expected[f]
        )
        np.testing.assert_array_equal(fresh[0].frame_positions(f), expected[f])


def test_frame_names_alike_differing_and_unterminated() -> None:
    """Many frames of one name (read as one block), of different names, and a name without
    its NUL in one frame or in every frame: reported at the first such frame."""
    names = [b"(from ASE)"] * 6
    spec = Md3Spec(frames=[FrameSpec(name=n) for n in names], tags=[[] for _ in names])
    spec.surfaces = [SurfaceSpec(vertices=[SurfaceSpec().vertices[0]] * 6)]
    frames = Md3.from_bytes(build(spec)).frames
    assert frames.names == ["(from ASE)"] * 6
    assert frames.names_raw == [b"(from ASE)".ljust(16, b"\0")] * 6
    spec.frames[4].name = b"walk"
    assert Md3.from_bytes(build(spec)).frames.names[3:] == ["(from ASE)", "walk", "(from ASE)"]
    for bad, first in (([2], 2), (range(6), 0)):
        for i in bad:
            spec.frames[i].name = b"x" * 16
        with pytest.raises(BadValueError, match=rf"frames\[{first}\]\.name=b'x+' at offset") as e:
            Md3.from_bytes(build(spec)).frames  # noqa: B018
        assert e.value.offset == 108 + 56 * first + 40
