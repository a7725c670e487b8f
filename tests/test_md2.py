"""The MD2 facade on synthetic files: values, conventions, clips, and every error path."""

from __future__ import annotations

import io
import random
import struct
import tracemalloc

import numpy as np
import pytest
from md2builder import Md2Spec, build, gl_command, set_header

import quakemodels
from quakemodels import (
    BadMagicError,
    BadValueError,
    BadVersionError,
    Md2,
    ModelFormatError,
    QuakeModelsWarning,
    TruncatedError,
)
from quakemodels.cli import main
from quakemodels.core.animations import grouped_clips, table_clips
from quakemodels.formats.md2.reader import ascii_names


def quad() -> Md2:
    return Md2.from_bytes(build())


# -- values ---------------------------------------------------------------------------------


def test_positions_are_scale_times_compressed_plus_translate() -> None:
    m = quad()
    assert m.positions.shape == (2, 4, 3)
    assert m.positions.dtype == np.float32
    # frame 0: scale (0.5, 0.25, 1.0), translate (-10, -5, 2)
    assert m.positions[0].tolist() == [
        [-10.0, -5.0, 2.0],
        [117.5, -5.0, 2.0],
        [117.5, 58.75, 2.0],
        [-10.0, 58.75, 12.0],
    ]
    # frame 1: vertices reversed, z scale 1.5 and translate 3
    assert m.positions[1, 0].tolist() == [-10.0, 58.75, 18.0]
    assert m.scales.tolist() == [[0.5, 0.25, 1.0], [0.5, 0.25, 1.5]]
    assert m.translates.tolist() == [[-10.0, -5.0, 2.0], [-10.0, -5.0, 3.0]]


def test_positions_are_float32_of_the_double_value() -> None:
    # A scale whose float32 product differs from the double product rounded once.
    verts = np.array([[255, 3, 7, 0], [1, 254, 128, 0], [77, 99, 200, 0]], np.uint8)
    scale, translate = (0.1, 0.3, 0.7), (-12.3, 4.56, -0.001)
    data = build(Md2Spec(frames=[(scale, translate, b"f1", verts)], triangles=[(0, 1, 2, 0, 1, 2)]))
    m = Md2.from_bytes(data)
    s32 = np.array(scale, np.float32).astype(np.float64)
    t32 = np.array(translate, np.float32).astype(np.float64)
    expected = (verts[:, :3] * s32 + t32).astype(np.float32)
    assert m.positions[0].tobytes() == expected.tobytes()


def test_normals_texcoords_triangles_names_skins() -> None:
    m = quad()
    assert m.normal_indices.tolist() == [[5, 5, 5, 161], [161, 5, 5, 5]]
    assert m.normals.shape == (2, 4, 3)
    assert m.normals[0, 0].tolist() == [0.0, 0.0, 1.0]  # anorms[5] points up
    assert np.allclose(np.linalg.norm(m.normals, axis=-1), 1.0, atol=1e-5)
    assert m.texcoords_px.tolist() == [[0, 0], [63, 0], [63, 31], [0, 31]]
    assert m.texcoords.dtype == np.float32
    assert m.texcoords[2].tolist() == [np.float32(63 / 64), np.float32(31 / 32)]
    assert m.triangles.tolist() == [[0, 1, 2], [0, 2, 3]]
    assert m.triangle_texcoords.tolist() == [[0, 1, 2], [0, 2, 3]]
    assert m.frame_names == ["stand01", "stand02"]
    assert m.skins == ["models/test/skin.pcx"]
    assert [c.primitive for c in m.gl_commands] == ["strip", "strip"]
    assert m.gl_commands[1].vertex_indices.tolist() == [0, 2, 3]
    assert m.gl_commands[1].texcoords[1].tolist() == [np.float32(63 / 64), np.float32(31 / 32)]


def test_negative_texcoords_are_signed() -> None:
    m = Md2.from_bytes(build(Md2Spec(texcoords=[(-3, 0), (63, -1), (63, 31), (0, 31)])))
    assert m.texcoords_px[:2].tolist() == [[-3, 0], [63, -1]]
    assert m.texcoords[0, 0] == np.float32(-3 / 64)


def test_fan_and_strip_commands() -> None:
    gl = [*gl_command("fan", [(0, 0, 0), (1, 0, 1), (1, 1, 2), (0, 1, 3)]), 0]
    m = Md2.from_bytes(build(Md2Spec(gl_dwords=gl)))
    (cmd,) = m.gl_commands
    assert cmd.primitive == "fan"
    assert cmd.vertex_indices.tolist() == [0, 1, 2, 3]
    assert cmd.texcoords.tolist() == [[0, 0], [1, 0], [1, 1], [0, 1]]
    assert cmd.offset == m.ofs_gl_commands


def test_empty_gl_commands_and_no_skins() -> None:
    m = Md2.from_bytes(build(Md2Spec(gl_dwords=[], skins=[])))
    assert m.gl_commands == []
    assert m.skins == []
    assert m.num_gl_dwords == 0


def test_junk_after_nul_is_kept_raw_and_cut_in_text() -> None:
    spec = Md2Spec()
    spec.frames = [(s, t, b"stand01\0\xcc\xcc\xccP\x0e", v) for s, t, _, v in spec.frames]
    spec.skins = [b"skin.pcx\0ll Files (*.*)|*.*||"]
    m = Md2.from_bytes(build(spec))
    assert m.frame_names == ["stand01", "stand01"]
    assert m.frame_names_raw[0] == b"stand01\0\xcc\xcc\xccP\x0e\0\0\0"
    assert m.skins == ["skin.pcx"]
    assert m.skins_raw[0].startswith(b"skin.pcx\0ll Files")


def test_non_ascii_name_warns_and_escapes() -> None:
    spec = Md2Spec()
    spec.frames = [(s, t, b"caf\xe9", v) for s, t, _, v in spec.frames]
    m = Md2.from_bytes(build(spec))
    offset = m.ofs_frames + 24
    expected = rf"frames\.name\[0\] at offset {offset} has non-ASCII bytes b'caf\\xe9' \(2 such"
    with pytest.warns(QuakeModelsWarning, match=expected):
        names = m.frame_names
    assert names == ["caf\\xe9", "caf\\xe9"]


def test_frame_names_in_one_block_read_as_name_by_name() -> None:
    # ascii_names (the block decode) against the per-name rule: text up to the first NUL,
    # None when any such text is not ASCII (lenient_names then escapes it and warns).
    rng = random.Random(11)
    texts = [b"", b"stand01", b"x" * 16, b"pain\n3", b"caf\xe9", b"\xff" * 3, b"run 2", b"a\0b"]
    junk = [b"", b"\0", b"\0\xcc\xccP", b"\0\0\0abc", b"\0\xe9"]
    sides = {True: 0, False: 0}
    for _ in range(300):
        raws = [
            (rng.choice(texts) + rng.choice(junk))[:16].ljust(16, b"\0")
            for _ in range(rng.randrange(0, 6))
        ]
        cut = [raw.partition(b"\0")[0] for raw in raws]
        ascii = b"".join(cut).isascii()
        sides[ascii] += 1
        fields = np.frombuffer(b"".join(raws), np.dtype((np.void, 16)))
        assert ascii_names(fields) == ([t.decode("ascii") for t in cut] if ascii else None)
    assert min(sides.values()) > 50


def test_texcoords_divide_as_in_double_on_both_paths() -> None:
    # Skin sizes up to 2**24 divide in float32 (exact operands: the same rounding as the
    # double quotient rounded to float32); larger ones in double. Both against the double.
    rng = np.random.default_rng(5)
    px = [(int(s), int(t)) for s, t in rng.integers(-(2**15), 2**15, (64, 2))]
    px += [(0, 0), (1, 1), (-1, 32767), (-32768, 3), (255, 255), (63, 31)]
    sizes = [(64, 32), (256, 256), (3, 7), (640, 480), (2**24, 2**24), (2**24 + 1, 5)]
    sizes += [(2**31 - 1, 2**30 + 3), (7, 2**24 + 3)]
    for width, height in sizes:
        spec = Md2Spec(texcoords=px, triangles=[(0, 1, 2, 0, 1, 2)])
        data = set_header(set_header(build(spec), "skin_width_px", width), "skin_height_px", height)
        m = Md2.from_bytes(data)
        expected = (np.array(px, np.float64) / np.array([width, height], np.float64)).astype(
            np.float32
        )
        assert m.texcoords.dtype == np.float32 and m.texcoords.flags.c_contiguous
        assert m.texcoords.tobytes() == expected.tobytes(), (width, height)


def test_mesh_has_each_vertex_texcoord_pair_once() -> None:
    # Vertex 0 used with two different texcoords: it must appear twice in the mesh.
    spec = Md2Spec(triangles=[(0, 1, 2, 0, 1, 2), (0, 2, 3, 3, 2, 3)])
    m = Md2.from_bytes(build(spec))
    mesh = m.mesh(1)
    assert mesh.vertex_ids.tolist() == [0, 1, 2, 0, 3]
    assert mesh.texcoord_ids.tolist() == [0, 1, 2, 3, 3]
    assert mesh.indices.tolist() == [[0, 2, 1], [3, 4, 2]]  # render order: corners 0, 2, 1
    assert mesh.indices.dtype == np.uint32
    # Re-expanding the indexed mesh gives back the triangles' corners exactly (flipped).
    flipped = mesh.indices[:, [0, 2, 1]]
    assert np.array_equal(mesh.positions[flipped], m.positions[1][m.triangles])
    assert np.array_equal(mesh.uvs[flipped], m.texcoords[m.triangle_texcoords])
    assert np.array_equal(mesh.normals, m.normals[1][mesh.vertex_ids])


def test_lerp_and_sample() -> None:
    m = quad()
    p0, p1 = m.positions
    assert np.array_equal(m.lerp(0, 1, 0.0), p0)
    assert np.array_equal(m.lerp(0, 1, 1.0), p1)
    assert np.allclose(m.lerp(0, 1, 0.25), p0 + 0.25 * (p1 - p0))
    assert list(m.animations) == ["stand"]
    # 10 fps: 0.05 s is halfway between frame 0 and 1; looping wraps 1 → 0.
    assert np.allclose(m.sample("stand", 0.05), (p0 + p1) / 2)
    assert np.allclose(m.sample("stand", 0.15), (p0 + p1) / 2)
    assert np.array_equal(m.sample("stand", 0.2), p0)
    assert np.array_equal(m.sample("stand", 5.0, loop=False), p1)
    with pytest.raises(KeyError, match="no clip 'walk'"):
        m.sample("walk", 0.0)
    with pytest.raises(IndexError):
        m.lerp(0, 2, 0.5)


def test_from_io_and_load_dispatch() -> None:
    data = build()
    assert Md2.from_io(io.BytesIO(data)).num_frames == 2
    assert isinstance(quakemodels.load(data), Md2)
    assert isinstance(quakemodels.load(io.BytesIO(data)), Md2)
    with pytest.raises(BadMagicError, match=r"magic=b'RIFF' at offset 0"):
        quakemodels.load(b"RIFF" + data[4:])


def test_bounds() -> None:
    lo, hi = quad().bounds
    assert lo.tolist() == [-10.0, -5.0, 2.0]
    assert hi.tolist() == [117.5, 58.75, 18.0]


# -- clips ----------------------------------------------------------------------------------


def test_grouped_clips_never_swallow_each_other() -> None:
    names = [f"pain{c}{i:02d}" for c in (1, 2, 3) for i in range(1, 5)]
    assert grouped_clips(names) == {
        "pain1": range(0, 4),
        "pain2": range(4, 8),
        "pain3": range(8, 12),
    }
    assert grouped_clips(["stand01", "stand02", "run1", "run2", "stand001"]) == {
        "stand1": range(0, 2),
        "run": range(2, 4),
        "stand2": range(4, 5),
    }
    assert grouped_clips(["walk1", "walk2", "walk1", "walk2"]) == {
        "walk1": range(0, 2),
        "walk2": range(2, 4),
    }
    assert grouped_clips(["base", "base", "frame7"]) == {"base": range(0, 2), "frame": range(2, 3)}
    assert grouped_clips([]) == {}


def _player_names(crouch_attack: str = "crattak", death: str = "crdeath") -> list[str]:
    layout = [
        ("stand", 40), ("run", 6), ("attack", 8), ("pain1", 4), ("pain2", 4), ("pain3", 4),
        ("jump", 6), ("flip", 12), ("salute", 11), ("taunt", 17), ("wave", 11), ("point", 12),
        ("crstnd", 19), ("crwalk", 6), (crouch_attack, 9), ("crpain", 4), (death, 5),
        ("death1", 6), ("death2", 6), ("death3", 8),
    ]  # fmt: skip
    return [f"{name}{i:02d}" for name, n in layout for i in range(1, n + 1)]


TABLE = (
    ["stand", "run", "attack", "pain1", "pain2", "pain3", "jump", "flip", "salute", "taunt",
     "wave", "point", "crstnd", "crwalk", "crattak", "crpain", "crdeath", "death1", "death2",
     "death3"],
    [0, 40, 46, 54, 58, 62, 66, 72, 84, 95, 112, 123, 135, 154, 160, 169, 173, 178, 184, 190],
    [40, 6, 8, 4, 4, 4, 6, 12, 11, 17, 11, 12, 19, 6, 9, 4, 5, 6, 6, 8],
)  # fmt: skip


def test_table_clips_accept_known_misspellings() -> None:
    for attack, death in [("crattak", "crdeath"), ("crattk", "crdeth"), ("crattack", "crdeath")]:
        clips = table_clips(_player_names(attack, death), *TABLE)
        assert clips is not None
        assert list(clips) == TABLE[0]
        assert clips["crattak"] == range(160, 169)
    weapon = table_clips(_player_names()[:173], *TABLE)
    assert weapon is not None and list(weapon) == TABLE[0][:16]


def test_table_clips_refuse_names_that_do_not_fit() -> None:
    names = _player_names()
    names[45] = "jump01"  # the run clip's last frame belongs to another clip
    assert table_clips(names, *TABLE) is None
    assert table_clips(names[:100], *TABLE) is None
    # The facade then falls back to grouping by name.
    assert grouped_clips(names)["jump1"] == range(45, 46)


def _table_reference(
    frame_names: list[str], names: list[str], starts: list[int], counts: list[int]
) -> dict[str, range] | None:
    """table_clips as its docstring says it, name by name, frame by frame."""
    aliases = {
        "crstnd": {"crstnd", "crstand"},
        "crattak": {"crattak", "crattk", "crattck", "crattack"},
        "crdeath": {"crdeath", "crdeth"},
    }
    used = {198: len(names), 173: 16}.get(len(frame_names))
    if used is None:
        return None
    clips = {}
    for name, start, count in zip(names[:used], starts[:used], counts[:used], strict=True):
        base = name.lower().rstrip("0123456789")
        accepted = aliases.get(base, {base})
        if any(f.lower().rstrip("0123456789") not in accepted for f in frame_names[start:][:count]):
            return None
        clips[name] = range(start, start + count)
    return clips if sum(len(r) for r in clips.values()) == len(frame_names) else None


def test_table_clips_match_the_name_by_name_rule() -> None:
    # edited names (case, misspellings, non-ASCII, a NUL inside) and a table whose clips do
    # not tile the frames in order
    rng = random.Random(7)
    edits = [
        str.upper, str.title, lambda s: s + "a", lambda s: s[:2] + "7" + s[2:], lambda s: "",
        lambda s: "123", lambda s: s + "\0x", lambda s: s.replace("a", "\xe4"), lambda s: "\n",
        lambda s: "crstand" + s[-2:], lambda s: "crattck1", lambda s: "pain" + s[-2:],
        lambda s: "CRDETH05", lambda s: "stand", lambda s: s.rstrip("0123456789"),
    ]  # fmt: skip
    shuffled = (TABLE[0], [0, 46, 40, *TABLE[1][3:]], [40, 8, 6, *TABLE[2][3:]])
    for case in range(400):
        names = _player_names()[: rng.choice([198, 173, 172])]
        for _ in range(rng.choice([0, 0, 1, 1, 2, 3])):
            at = rng.randrange(len(names))
            names[at] = rng.choice(edits)(names[at])
        table = shuffled if case % 10 == 9 else TABLE
        assert table_clips(names, *table) == _table_reference(names, *table), (case, names)
    table = {n: range(s, s + c) for n, s, c in zip(*TABLE, strict=True)}
    assert table_clips([n.upper() for n in _player_names()], *TABLE) == table
    cut = _player_names()
    cut[45] = "run06\0"  # a NUL inside a name: its base is "run06\0"
    assert table_clips(cut, *TABLE) is None


# -- errors ---------------------------------------------------------------------------------


def test_bad_magic_and_version() -> None:
    data = build()
    with pytest.raises(BadMagicError, match=r"magic=b'IDP3' at offset 0 is not b'IDP2'"):
        Md2.from_bytes(b"IDP3" + data[4:])
    with pytest.raises(BadVersionError, match="version=7 at offset 4 is not 8") as e:
        Md2.from_bytes(set_header(data, "version", 7))
    assert (e.value.field, e.value.offset) == ("version", 4)


@pytest.mark.parametrize("size", [0, 3, 4, 40, 67])
def test_truncated_header(size: int) -> None:
    with pytest.raises(TruncatedError, match=f"header needs 68 bytes, the file has {size}"):
        Md2.from_bytes(build()[:size])


@pytest.mark.parametrize(
    ("field", "count", "what"),
    [
        ("ofs_skins", "num_skins", "skins × 64 bytes"),
        ("ofs_tex_coords", "num_tex_coords", "texcoords × 4 bytes"),
        ("ofs_triangles", "num_triangles", "triangles × 12 bytes"),
        ("ofs_frames", "num_frames", "frames × 56 bytes"),
        ("ofs_gl_cmds", "num_gl_cmds", "GL command dwords × 4 bytes"),
    ],
)
def test_section_past_the_end(field: str, count: str, what: str) -> None:
    data = build()
    cut = data[:-1]
    m = Md2.from_bytes(data)
    ofs = m.header[field]
    bad = set_header(data, field, len(data) - 2)
    with pytest.raises(
        TruncatedError, match=f"{field}={len(data) - 2} at offset \\d+: \\d+ {what}"
    ) as e:
        Md2.from_bytes(bad)
    assert e.value.field == field
    assert e.value.offset == len(data) - 2
    if field == "ofs_gl_cmds":  # the last section: cutting one byte truncates it
        with pytest.raises(TruncatedError, match=f"{field}={ofs} .* run past the end of the file"):
            Md2.from_bytes(cut)
    big = set_header(data, count, 10**6)
    with pytest.raises(TruncatedError, match=f"{field}={ofs} at offset \\d+: 1000000 {what}"):
        Md2.from_bytes(big)


def test_huge_frame_count_fails_at_once_without_allocating() -> None:
    data = set_header(build(), "num_frames", 2**31 - 1)[:1024]
    tracemalloc.start()
    try:
        with pytest.raises(
            TruncatedError, match=r"2147483647 frames × 56 bytes from offset \d+ run past"
        ):
            Md2.from_bytes(data)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000


def test_message_names_field_offset_counts_and_file_size() -> None:
    data = set_header(build(), "ofs_frames", 812345)
    with pytest.raises(TruncatedError) as e:
        Md2.from_bytes(data)
    assert str(e.value) == (
        "ofs_frames=812345 at offset 56: 2 frames × 56 bytes from offset 812345 run past the end"
        f" of the file ({len(data)} bytes)"
    )


@pytest.mark.parametrize("field", ["num_frames", "num_triangles", "ofs_skins", "bytes_per_frame"])
def test_negative_header_values(field: str) -> None:
    with pytest.raises(BadValueError, match=f"{field}=-1 at offset \\d+ is negative"):
        Md2.from_bytes(set_header(build(), field, -1))


def test_offset_into_header() -> None:
    with pytest.raises(
        BadValueError, match="ofs_triangles=12 at offset 52 points into the 68-byte header"
    ):
        Md2.from_bytes(set_header(build(), "ofs_triangles", 12))


def test_framesize_below_minimum() -> None:
    with pytest.raises(BadValueError, match=r"bytes_per_frame=55 at offset 16 is below 40 \+ 4"):
        Md2.from_bytes(set_header(build(), "bytes_per_frame", 55))


def test_framesize_above_minimum_is_padding() -> None:
    m = Md2.from_bytes(build(Md2Spec(framesize_extra=8)))
    assert m.framesize == 64
    assert m.positions[1, 0].tolist() == [-10.0, 58.75, 18.0]
    assert m.frame_names == ["stand01", "stand02"]


@pytest.mark.parametrize(
    ("tri", "message"),
    [
        (
            (0, 1, 4, 0, 1, 2),
            r"triangles\[0\]\.vertex_indices\[2\]=4 at offset \d+ is outside 0\.\.3",
        ),
        ((0, 1, -1, 0, 1, 2), r"triangles\[0\]\.vertex_indices\[2\]=-1 at offset"),
        ((0, 1, 2, 0, 9, 2), r"triangles\[0\]\.tex_point_indices\[1\]=9 at offset \d+ is outside"),
    ],
)
def test_index_out_of_range_and_no_partial_state(tri: tuple[int, ...], message: str) -> None:
    spec = Md2Spec(triangles=[tri], gl_dwords=[0])  # type: ignore[list-item]
    m = Md2.from_bytes(build(spec))
    for _ in range(2):  # a failed decode is not cached: the second access fails the same way
        with pytest.raises(BadValueError, match=message):
            m.triangles.tolist() if "vertex" in message else m.triangle_texcoords.tolist()
    assert "triangles" not in vars(m) or "vertex" not in message
    with pytest.raises(BadValueError):
        m.mesh(0)


def test_triangle_offset_is_exact() -> None:
    spec = Md2Spec(triangles=[(0, 1, 2, 0, 1, 2), (0, 2, 7, 0, 2, 3)])
    data = build(spec)
    m = Md2.from_bytes(data)
    with pytest.raises(BadValueError) as e:
        _ = m.triangles
    assert e.value.offset == m.ofs_triangles + 12 + 4
    assert struct.unpack_from("<h", data, e.value.offset)[0] == 7


def test_normal_index_out_of_range() -> None:
    spec = Md2Spec()
    scale, translate, name, verts = spec.frames[1]
    verts = verts.copy()
    verts[2, 3] = 162
    spec.frames[1] = (scale, translate, name, verts)
    m = Md2.from_bytes(build(spec))
    assert m.positions.shape == (2, 4, 3)  # positions stay readable
    with pytest.raises(BadValueError, match=r"frames\[1\]\.vertices\[2\]\.normal_index=162") as e:
        _ = m.normals
    assert e.value.offset == m.ofs_frames + 56 + 40 + 4 * 2 + 3
    assert "normals" not in vars(m)


def test_zero_skin_size() -> None:
    m = Md2.from_bytes(set_header(build(), "skin_width_px", 0))
    assert m.texcoords_px.shape == (4, 2)
    with pytest.raises(BadValueError, match="skin_width_px=0 at offset 8") as e:
        _ = m.texcoords
    assert str(e.value) == (
        "skin_width_px=0 at offset 8: texcoords cannot be normalized by a skin size that is"
        " not positive"
    )
    assert (e.value.field, e.value.offset) == ("skin_width_px", 8)


def test_gl_command_errors() -> None:
    overrun = [*gl_command("strip", [(0, 0, 0), (1, 0, 1), (1, 1, 2)])[:-3], 0]
    with pytest.raises(TruncatedError, match=r"gl_cmds\[0\] at offset \d+ has 3 vertices"):
        _ = Md2.from_bytes(build(Md2Spec(gl_dwords=overrun))).gl_commands
    unterminated = gl_command("fan", [(0, 0, 0), (1, 0, 1), (1, 1, 2)])
    with pytest.raises(TruncatedError, match="no terminating zero count"):
        _ = Md2.from_bytes(build(Md2Spec(gl_dwords=unterminated))).gl_commands
    bad_index = [*gl_command("fan", [(0, 0, 0), (1, 0, 1), (1, 1, 99)]), 0]
    with pytest.raises(BadValueError, match=r"gl_cmds\[0\]\.vertices\[2\]\.vertex_index=99"):
        _ = Md2.from_bytes(build(Md2Spec(gl_dwords=bad_index))).gl_commands


def test_only_model_format_errors_escape_on_truncation() -> None:
    data = build()
    for size in range(len(data)):
        try:
            Md2.from_bytes(data[:size]).load_all()
        except ModelFormatError:
            continue
        raise AssertionError(f"truncation to {size} bytes was accepted")


def test_zero_frames_are_refused_at_open() -> None:
    # Quake II's Mod_LoadAliasModel drops a model with no frames ("has no frames")
    spec = Md2Spec(frames=[], triangles=[], texcoords=[], gl_dwords=[0])
    with pytest.raises(BadValueError) as caught:
        Md2.from_bytes(build(spec))
    assert str(caught.value) == (
        'num_frames=0 at offset 40: the model has no frames (Quake II refuses it: "has no frames")'
    )
    assert (caught.value.field, caught.value.offset) == ("num_frames", 40)


# -- CLI ------------------------------------------------------------------------------------


def test_cli_info(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    good = tmp_path / "quad.md2"
    good.write_bytes(build())
    bad = tmp_path / "bad.md2"
    bad.write_bytes(b"IDP2" + b"\0" * 10)
    assert main(["info", str(good)]) == 0
    out = capsys.readouterr().out
    assert "2 frames, 4 vertices, 2 triangles, 4 texcoords, 2 GL commands, 1 skin" in out
    assert "stand        frames   0-1   (2)" in out
    assert "bounds: min (-10.000, -5.000, 2.000) max (117.500, 58.750, 18.000)" in out
    assert main(["info", str(good), str(bad)]) == 1
    assert "header needs 68 bytes, the file has 14" in capsys.readouterr().err
    assert main(["info", str(tmp_path / "missing.md2")]) == 1
    assert main([]) == 2
    assert main(["info"]) == 2


def test_open_reads_only_the_header() -> None:
    m = quad()
    decoded = {"positions", "normals", "triangles", "texcoords", "gl_commands", "frame_names"}
    assert decoded.isdisjoint(vars(m))
    _ = m.triangles
    assert "triangles" in vars(m)
    assert "positions" not in vars(m)


def test_python_m_quakemodels(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import subprocess
    import sys

    path = tmp_path / "quad.md2"
    path.write_bytes(build())
    run = subprocess.run(
        [sys.executable, "-m", "quakemodels", "info", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert "Quake II MD2 (IDP2 version 8), 368 bytes" in run.stdout


def test_empty_sections_with_offsets_past_the_end_are_empty() -> None:
    spec = Md2Spec(triangles=[], texcoords=[], skins=[], gl_dwords=[])
    data = build(spec)
    for field in ("ofs_skins", "ofs_tex_coords", "ofs_triangles", "ofs_gl_cmds"):
        data = set_header(data, field, 10**6)
    m = Md2.from_bytes(data).load_all()
    assert m.triangles.shape == (0, 3)
    assert m.texcoords.shape == (0, 2)
    assert m.positions.shape == (2, 4, 3)
    assert m.gl_commands == []
    assert m.skins == []


def test_gl_commands_compare_like_lists() -> None:
    a, b = quad(), quad()
    assert a.gl_commands == b.gl_commands
    assert a.gl_commands == list(b.gl_commands)
    assert a.gl_commands[0] == b.gl_commands[0]
    assert a.gl_commands[0] != b.gl_commands[1]
    assert a.gl_commands[-1].vertex_indices.tolist() == [0, 2, 3]
    assert [c.primitive for c in a.gl_commands[:1]] == ["strip"]
    with pytest.raises(IndexError):
        _ = a.gl_commands[2]


@pytest.mark.parametrize(
    ("size", "field"),
    [(2, "magic"), (4, "version"), (30, "num_tex_coords"), (64, "ofs_end"), (67, "ofs_end")],
)
def test_truncated_header_names_the_field_cut_short(size: int, field: str) -> None:
    with pytest.raises(TruncatedError) as e:
        Md2.from_bytes(build()[:size])
    assert (e.value.field, e.value.offset) == (field, size)


def test_short_data_that_is_not_an_md2_is_bad_magic() -> None:
    with pytest.raises(BadMagicError, match=r"magic=b'RI' at offset 0"):
        Md2.from_bytes(b"RI")
