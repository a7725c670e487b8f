"""The engine-compatibility checker: each class of finding on a synthetic file that has it."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import numpy as np
import pytest
from conftest import corpus_files, corpus_params
from md2builder import FIELDS, Md2Spec, build, gl_command, set_header

import quakemodels
from quakemodels import Finding, check_model
from quakemodels.cli import main
from quakemodels.formats.md2.check import check_md2

OFS = {name: 4 + 4 * i for i, name in enumerate(FIELDS)}  # header field → byte offset
HEADER = struct.Struct("<4s16i")


def header(data: bytes) -> dict[str, int]:
    values = HEADER.unpack_from(data)
    return dict(zip(FIELDS, values[1:], strict=True))


def only(findings: list[Finding], code: str) -> Finding:
    hits = [f for f in findings if f.code == code]
    assert len(hits) == 1, f"expected one {code!r} finding, got {findings}"
    return hits[0]


def codes(findings: list[Finding]) -> set[str]:
    return {f.code for f in findings}


def quad_verts(n: int = 4, normal: int = 5) -> np.ndarray:
    """n vertices on a 2D grid in the z=0 plane (non-collinear for n ≥ 3)."""
    v = np.zeros((n, 4), np.uint8)
    v[:, 0] = np.arange(n) % 16 * 10
    v[:, 1] = np.arange(n) // 16 * 10 + (np.arange(n) % 2) * 5
    v[:, 3] = normal
    return v


def with_frames(count: int, verts: np.ndarray, **kw: object) -> Md2Spec:
    frames = [((1.0, 1.0, 1.0), (0.0, 0.0, 0.0), b"frame%d" % i, verts) for i in range(count)]
    return Md2Spec(frames=frames, **kw)  # type: ignore[arg-type]


def insert_gap(data: bytes, ofs_field: str, nbytes: int) -> bytes:
    """``data`` with ``nbytes`` zero bytes inserted where ``ofs_field``'s section starts."""
    h = header(data)
    at = h[ofs_field]
    out = data[:at] + b"\0" * nbytes + data[at:]
    for name in FIELDS:
        if name.startswith("ofs_") and h[name] >= at:
            out = set_header(out, name, h[name] + nbytes)
    return out


# -- the valid baseline -----------------------------------------------------------------------


@pytest.mark.parametrize("engine", ["any", "quake2", "q2pro"])
def test_builder_default_is_clean(engine: str) -> None:
    assert check_md2(build(), engine) == []


def test_md2_check_method_delegates() -> None:
    data = build(Md2Spec(skin_height=481))
    m = quakemodels.Md2.from_bytes(data)
    assert m.check(engine="quake2") == check_md2(data, "quake2")
    assert only(m.check(engine="quake2"), "skin-height").severity == "error"
    assert only(m.check(), "skin-height").severity == "warning"


def test_unknown_engine_is_a_caller_error() -> None:
    with pytest.raises(ValueError, match="engine must be one of"):
        check_md2(build(), "doom3")


# -- engine limits ----------------------------------------------------------------------------


def test_skin_height_limit_of_the_gl_renderer() -> None:
    data = build(Md2Spec(skin_height=481))
    f = only(check_md2(data, "quake2"), "skin-height")
    assert (f.severity, f.field, f.offset) == ("error", "skin_height_px", 12)
    assert "480" in f.message
    assert "skin-height" not in codes(check_md2(data, "q2pro"))
    assert only(check_md2(data, "any"), "skin-height").severity == "warning"
    assert check_md2(build(Md2Spec(skin_height=480)), "quake2") == []


def test_q2pro_skin_size_bounds() -> None:
    f = only(check_md2(build(Md2Spec(skin_width=8193)), "q2pro"), "skin-size")
    assert (f.severity, f.field, f.offset) == ("error", "skin_width_px", 8)


def test_too_many_vertices() -> None:
    data = build(with_frames(1, quad_verts(2049)))
    for engine in ("quake2", "q2pro"):
        f = only(check_md2(data, engine), "too-many-vertices")
        assert (f.severity, f.field, f.offset) == (
            "error",
            "vertices_per_frame",
            OFS["vertices_per_frame"],
        )
    assert only(check_md2(data, "any"), "too-many-vertices").severity == "warning"
    assert "too-many-vertices" not in codes(
        check_md2(build(with_frames(1, quad_verts(2048))), "quake2")
    )


def test_too_many_triangles_per_engine() -> None:
    tris = [(0, 1, 2, 0, 1, 2)] * 4097
    q2 = check_md2(build(Md2Spec(triangles=tris)), "quake2")
    f = only(q2, "too-many-triangles")
    assert (f.severity, f.field, f.offset) == ("warning", "num_triangles", 32)
    assert "too-many-triangles" not in codes(check_md2(build(Md2Spec(triangles=tris)), "q2pro"))
    big = build(Md2Spec(triangles=[(0, 1, 2, 0, 1, 2)] * 6145))
    f = only(check_md2(big, "q2pro"), "too-many-triangles")
    assert (f.severity, f.field, f.offset) == ("error", "num_triangles", 32)


def test_too_many_frames() -> None:
    data = build(with_frames(513, quad_verts()))
    f = only(check_md2(data, "q2pro"), "too-many-frames")
    assert (f.severity, f.field, f.offset) == ("error", "num_frames", OFS["num_frames"])
    assert only(check_md2(data, "quake2"), "too-many-frames").severity == "warning"
    assert "too-many-frames" not in codes(check_md2(build(with_frames(512, quad_verts())), "q2pro"))


def test_too_many_skins() -> None:
    data = build(Md2Spec(skins=[b"s%d.pcx" % i for i in range(33)]))
    f = only(check_md2(data, "quake2"), "too-many-skins")
    assert (f.severity, f.field, f.offset) == ("error", "num_skins", 20)


def test_quake2_refuses_empty_sections_q2pro_loads_them_empty() -> None:
    data = set_header(build(), "num_triangles", 0)
    f = next(f for f in check_md2(data, "quake2") if f.field == "num_triangles")
    assert (f.code, f.severity, f.offset) == ("empty", "error", 32)
    f = only(check_md2(data, "q2pro"), "empty")
    assert (f.severity, f.field, f.offset) == ("warning", None, None)
    assert "empty" not in codes(check_md2(data, "any"))


def test_quake3_does_not_load_md2() -> None:
    f = only(check_md2(build(), "quake3"), "engine-format")
    assert (f.severity, f.field, f.offset) == ("error", "magic", 0)


# -- framesize and layout ---------------------------------------------------------------------


def test_framesize_below_40_plus_4v() -> None:
    data = set_header(build(), "bytes_per_frame", 40 + 4 * 4 - 4)
    findings = check_md2(data, "any")
    f = only(findings, "framesize-small")
    assert (f.severity, f.field, f.offset) == ("error", "bytes_per_frame", 16)
    assert "40 + 4 × 4 vertices = 56" in f.message
    # The facade's own refusal names the same field and offset: reported once.
    assert [x.field for x in findings if x.severity == "error"] == ["bytes_per_frame"]


def test_framesize_above_q2pro_maximum() -> None:
    data = build(Md2Spec(framesize_extra=8192))
    f = only(check_md2(data, "q2pro"), "framesize-large")
    assert (f.severity, f.field, f.offset) == ("error", "bytes_per_frame", 16)
    assert "8232" in f.message
    assert "framesize-large" not in codes(check_md2(data, "quake2"))


def test_q2pro_alignment() -> None:
    odd_frame = build(Md2Spec(framesize_extra=2))
    f = only(check_md2(odd_frame, "q2pro"), "alignment")
    assert (f.severity, f.field, f.offset) == ("error", "bytes_per_frame", 16)
    odd_tris = insert_gap(build(), "ofs_triangles", 1)
    quakemodels.Md2.from_bytes(odd_tris).load_all()  # still a readable file
    found = [f for f in check_md2(odd_tris, "q2pro") if f.code == "alignment"]
    assert [(f.field, f.offset) for f in found] == [
        ("ofs_triangles", OFS["ofs_triangles"]),
        ("ofs_frames", OFS["ofs_frames"]),
    ]
    assert {f.severity for f in check_md2(odd_tris, "any") if f.code == "alignment"} == {"warning"}
    assert "alignment" not in codes(check_md2(odd_tris, "quake2"))


def test_section_past_end() -> None:
    data = build()
    data = set_header(data, "ofs_frames", len(data) - 10)
    findings = check_md2(data, "any")
    f = only(findings, "section-past-end")
    assert (f.severity, f.field, f.offset) == ("error", "ofs_frames", len(data) - 10)


def test_huge_offset_does_not_overflow() -> None:
    data = set_header(build(), "ofs_triangles", 2**31 - 1)
    f = only(check_md2(data, "q2pro"), "section-past-end")
    assert (f.field, f.offset) == ("ofs_triangles", 2**31 - 1)


def test_section_in_header_and_negative_count() -> None:
    f = only(check_md2(set_header(build(), "ofs_tex_coords", 8), "any"), "section-in-header")
    assert (f.severity, f.field, f.offset) == ("error", "ofs_tex_coords", OFS["ofs_tex_coords"])
    f = only(check_md2(set_header(build(), "num_skins", -1), "any"), "negative")
    assert (f.severity, f.field, f.offset) == ("error", "num_skins", 20)


def test_overlapping_sections() -> None:
    data = build()
    h = header(data)
    data = set_header(data, "ofs_triangles", h["ofs_tex_coords"])
    f = only(check_md2(data, "any"), "section-overlap")
    assert f.severity == "warning"
    assert f.offset == h["ofs_tex_coords"]


def test_ofs_end_not_file_size() -> None:
    data = build(Md2Spec(trailing=b"\0" * 8))
    f = only(check_md2(data, "any"), "ofs-end")
    assert (f.severity, f.field, f.offset) == ("warning", "ofs_end", 64)
    assert f"not the file size {len(data)}" in f.message
    short = set_header(build(), "ofs_end", 100)
    f = only(check_md2(short, "quake2"), "ofs-end-short")
    assert (f.severity, f.field, f.offset) == ("error", "ofs_end", 64)
    assert only(check_md2(short, "any"), "ofs-end-short").severity == "warning"
    assert "ofs-end-short" not in codes(check_md2(short, "q2pro"))  # Q2PRO ignores ofs_end


# -- indices and values -----------------------------------------------------------------------


def test_vertex_index_out_of_range() -> None:
    data = build(Md2Spec(triangles=[(0, 1, 2, 0, 1, 2), (0, 2, 7, 0, 2, 3)], gl_dwords=[0]))
    ofs_tris = header(data)["ofs_triangles"]
    f = only(check_md2(data, "any"), "vertex-index")
    assert (f.severity, f.field, f.offset) == ("error", "vertex_indices", ofs_tris + 12 + 4)
    assert "=7 is outside 0..3" in f.message
    assert only(check_md2(data, "q2pro"), "vertex-index").severity == "warning"


def test_texcoord_index_out_of_range_and_q2pro_needs_one_valid_triangle() -> None:
    data = build(Md2Spec(triangles=[(0, 1, 2, 0, 1, -1)], gl_dwords=[0]))
    ofs_tris = header(data)["ofs_triangles"]
    f = only(check_md2(data, "any"), "texcoord-index")
    assert (f.severity, f.field, f.offset) == ("error", "tex_point_indices", ofs_tris + 10)
    f = only(check_md2(data, "q2pro"), "no-valid-triangles")
    assert (f.severity, f.field, f.offset) == ("error", "num_triangles", 32)


def test_normal_index_162() -> None:
    verts = quad_verts()
    verts[2, 3] = 162
    data = build(with_frames(2, verts))
    h = header(data)
    f = only(check_md2(data, "any"), "normal-index")
    assert f.severity == "error"
    assert f.field == "normal_index"
    assert f.offset == h["ofs_frames"] + 40 + 4 * 2 + 3
    assert "(1 more)" in f.message  # the same vertex in the second frame
    assert only(check_md2(data, "q2pro"), "normal-index").severity == "warning"


def test_unterminated_skin_and_frame_names() -> None:
    data = build(Md2Spec(skins=[b"x" * 64]))
    f = only(check_md2(data, "q2pro"), "skin-name-unterminated")
    assert (f.severity, f.field, f.offset) == ("error", "skins", 68)
    frames = [((1.0, 1.0, 1.0), (0.0, 0.0, 0.0), b"abcdefghijklmnop", quad_verts())]
    data = build(Md2Spec(frames=frames))
    f = only(check_md2(data, "any"), "frame-name-unterminated")
    assert (f.severity, f.field, f.offset) == ("warning", "name", header(data)["ofs_frames"] + 24)


# -- modder pitfalls --------------------------------------------------------------------------


def test_texcoords_outside_the_skin() -> None:
    data = build(Md2Spec(texcoords=[(0, 0), (63, 0), (65, 31), (0, -2)]))
    f = only(check_md2(data, "any"), "texcoord-outside-skin")
    assert (f.severity, f.field) == ("warning", "tex_coords")
    assert f.offset == header(data)["ofs_tex_coords"] + 4 * 2
    assert "(65, 31)" in f.message and "(1 more)" in f.message


def test_degenerate_triangle() -> None:
    data = build(Md2Spec(triangles=[(0, 1, 2, 0, 1, 2), (0, 2, 3, 0, 2, 3), (1, 1, 3, 1, 1, 3)]))
    f = only(check_md2(data, "any"), "degenerate-triangle")
    assert (f.severity, f.field, f.offset) == (
        "warning",
        "vertex_indices",
        header(data)["ofs_triangles"] + 24,
    )


def test_zero_area_in_every_frame() -> None:
    verts = quad_verts()
    verts[3, :3] = (20, 10, 0)  # on the line through vertex 0 (0,0) and... vertex 1 is (10,5)
    data = build(with_frames(2, verts, triangles=[(0, 1, 2, 0, 1, 2), (0, 1, 3, 0, 1, 3)]))
    f = only(check_md2(data, "any"), "zero-area-triangle")
    assert (f.severity, f.offset) == ("warning", header(data)["ofs_triangles"] + 12)


def test_unused_vertex() -> None:
    data = build(with_frames(1, quad_verts(5)))
    f = only(check_md2(data, "any"), "unused-vertex")
    assert (f.severity, f.field) == ("warning", "vertices")
    assert f.offset == header(data)["ofs_frames"] + 40 + 4 * 4


def test_gl_commands_that_disagree_with_the_triangles() -> None:
    # One fan drawing triangle (0,1,2) only: (0,2,3) is missing.
    gl = [*gl_command("fan", [(0, 0, 0), (1, 0, 1), (1, 1, 2)]), 0]
    f = only(check_md2(build(Md2Spec(gl_dwords=gl)), "quake2"), "gl-mismatch")
    assert (f.severity, f.field) == ("warning", "gl_cmds")
    assert "1 listed triangles (e.g. (0, 2, 3)) are not drawn" in f.message
    # A fan over the quad with the other winding draws the same set: no finding.
    fan = [*gl_command("fan", [(0, 0, 0), (0, 1, 3), (1, 1, 2), (1, 0, 1)]), 0]
    assert check_md2(build(Md2Spec(gl_dwords=fan)), "quake2") == []
    strip = [*gl_command("strip", [(0, 0, 1), (0, 0, 2), (0, 0, 0), (0, 0, 3)]), 0]
    assert check_md2(build(Md2Spec(gl_dwords=strip)), "quake2") == []


def test_gl_command_errors() -> None:
    bad_index = [*gl_command("strip", [(0, 0, 0), (0, 0, 1), (0, 0, 9)]), 0]
    data = build(Md2Spec(gl_dwords=bad_index))
    f = only(check_md2(data, "quake2"), "gl-vertex-index")
    assert (f.severity, f.field, f.offset) == (
        "error",
        "vertex_index",
        header(data)["ofs_gl_cmds"] + 4 * 9,
    )
    unterminated = gl_command("strip", [(0, 0, 0), (0, 0, 1), (0, 0, 2)])
    data = build(Md2Spec(gl_dwords=unterminated))
    f = only(check_md2(data, "quake2"), "gl-unterminated")
    assert (f.severity, f.offset) == ("error", header(data)["ofs_gl_cmds"] + 40)
    assert only(check_md2(data, "q2pro"), "gl-unterminated").severity == "warning"
    truncated = [5, 0, 0, 0]
    f = only(check_md2(build(Md2Spec(gl_dwords=truncated)), "any"), "gl-truncated")
    assert f.severity == "error"


def test_missing_skin_files(tmp_path: Path) -> None:
    data = build(Md2Spec(skins=[b"models/monsters/ogre/skin.pcx", b"../outside.pcx"]))
    model = tmp_path / "models" / "tris.md2"
    model.parent.mkdir()
    model.write_bytes(data)
    (tmp_path / "outside.pcx").write_bytes(b"P")  # outside the model's folder: never used
    findings = check_md2(model, "any")
    missing = [f for f in findings if f.code == "skin-missing"]
    assert [(f.severity, f.offset) for f in missing] == [("warning", 68), ("warning", 132)]
    (model.parent / "SKIN.PCX").write_bytes(b"P")  # case-insensitive, basename only
    missing = [f for f in check_md2(model, "any") if f.code == "skin-missing"]
    assert [f.offset for f in missing] == [132]
    # From bytes there is no folder to look in: no skin findings.
    assert "skin-missing" not in codes(check_md2(data, "any"))


# -- files the facade refuses -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "code", "field", "offset"),
    [
        (b"", "truncated", None, 0),
        (b"IDP2\x08\0\0\0", "truncated", None, 8),
        (b"IDPO" + bytes(64), "bad-magic", "magic", 0),
        (b"IDP2\x07\0\0\0" + bytes(60), "bad-version", "version", 4),
    ],
)
def test_refused_files_become_findings(
    data: bytes, code: str, field: str | None, offset: int
) -> None:
    with pytest.raises(quakemodels.ModelFormatError) as refused:
        quakemodels.Md2.from_bytes(data)
    findings = check_md2(data, "any")
    assert [(f.code, f.severity, f.field, f.offset, f.message) for f in findings] == [
        (code, "error", refused.value.field, refused.value.offset, str(refused.value))
    ]
    assert findings[0].offset == offset
    if field is not None:
        assert findings[0].field == field


def test_checker_never_raises_on_mangled_headers() -> None:
    base = build()
    for name in FIELDS:
        for value in (0, -1, 1, 2**31 - 1, -(2**31), 70000):
            findings = check_md2(set_header(base, name, value), "q2pro")
            assert "internal" not in codes(findings), (name, value, findings)


# -- the command line -------------------------------------------------------------------------


def test_cli_exit_codes_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "good.md2"
    good.write_bytes(build(Md2Spec(skins=[])))
    tall = tmp_path / "tall.md2"
    tall.write_bytes(build(Md2Spec(skins=[], skin_height=512)))
    assert main(["check", str(good), str(tall)]) == 0  # engine any: a warning only
    out = capsys.readouterr().out
    assert f"{good}: ok [any]" in out
    assert "warning[skin-height] skin_height_px @12" in out
    assert main(["check", "--engine", "quake2", "--json", str(good), str(tall)]) == 1
    report = json.loads(capsys.readouterr().out)
    assert [r["errors"] for r in report] == [0, 1]
    assert report[1]["findings"][0] == {
        "severity": "error",
        "field": "skin_height_px",
        "offset": 12,
        "message": "skin_height_px=512 is taller than the GL renderer's 480",
        "code": "skin-height",
    }
    assert main(["check", "--strict", str(tall)]) == 1
    assert main(["check", str(tmp_path / "missing.md2")]) == 1
    assert main(["check", "--engine", "doom", str(good)]) == 2


def test_check_model_reads_paths_and_bytes(tmp_path: Path) -> None:
    p = tmp_path / "m.md2"
    p.write_bytes(build(Md2Spec(skin_height=481)))
    assert check_model(p, "quake2") == check_md2(p, "quake2")
    assert check_model(p.read_bytes(), "quake2")[0].code == "skin-height"


# -- the corpus -------------------------------------------------------------------------------


@pytest.mark.parametrize("path", corpus_params("md2"))
def test_corpus_has_no_internal_findings_for_q2pro(path: Path) -> None:
    # No errors for engine "any": tests/test_conformance.py
    assert "internal" not in codes(check_md2(path, "q2pro"))


def test_corpus_quake2_errors_are_the_tall_skins(corpus_dir: Path) -> None:
    """Under 'quake2' the only errors are skins taller than 480, exactly where the header says."""
    for path in corpus_files("md2"):
        height = header(path.read_bytes())["skin_height_px"]
        errors = [f for f in check_md2(path, "quake2") if f.severity == "error"]
        expected = [("skin-height", "skin_height_px", 12)] if height > 480 else []
        assert [(f.code, f.field, f.offset) for f in errors] == expected, path.name


# -- MD3 --------------------------------------------------------------------------------------


def md3_surface(vertices: int, triangles: int) -> object:
    from md3builder import SurfaceSpec

    verts = [(i % 100, i // 100, 0, 0, 0) for i in range(vertices)]
    return SurfaceSpec(
        texcoords=[(0.5, 0.5)] * vertices,
        vertices=[verts, verts],
        triangles=[
            (i % vertices, (i + 1) % vertices, (i + 2) % vertices) for i in range(triangles)
        ],
    )


def test_md3_quake3_surface_limits() -> None:
    from md3builder import SURFACE_OFFSETS, Md3Spec, surface_offset
    from md3builder import build as build3

    data = build3(Md3Spec(surfaces=[md3_surface(1000, 2000)]))
    at = surface_offset(data, 0)
    findings = check_model(data, "quake3")
    f = only(findings, "too-many-vertices")
    assert (f.severity, f.field, f.offset) == (
        "error",
        "num_vertices",
        at + SURFACE_OFFSETS["num_vertices"],
    )
    f = only(findings, "too-many-triangles")
    assert (f.severity, f.field, f.offset) == (
        "error",
        "num_triangles",
        at + SURFACE_OFFSETS["num_triangles"],
    )
    assert {f.severity for f in check_model(data, "any")} == {"warning"}
    assert check_model(build3(Md3Spec(surfaces=[md3_surface(999, 1999)])), "quake3") == []


def test_md3_engine_and_layout_findings() -> None:
    from md3builder import HEADER_OFFSETS, Md3Spec, TagSpec, set_header
    from md3builder import build as build3

    data = build3()
    # the builder's second surface has no shader name: a warning only
    assert [f.code for f in check_model(data, "quake3")] == ["shader-empty"]
    f = only(check_model(data, "quake2"), "engine-format")
    assert (f.severity, f.field, f.offset) == ("error", "magic", 0)
    short = set_header(data, "ofs_end", len(data) - 8)
    f = only(check_model(short, "any"), "ofs-end")
    assert (f.severity, f.field, f.offset) == ("warning", "ofs_end", HEADER_OFFSETS["ofs_end"])
    long = set_header(data, "ofs_end", len(data) + 8)
    findings = check_model(long, "quake3")
    f = only(findings, "ofs-end-long")
    assert (f.severity, f.field, f.offset) == ("error", "ofs_end", HEADER_OFFSETS["ofs_end"])
    assert [x.field for x in findings if x.severity == "error"] == ["ofs_end"]  # facade's: deduped
    many_tags = build3(Md3Spec(tags=[[TagSpec(b"t%d" % i) for i in range(17)]] * 2))
    f = only(check_model(many_tags, "quake3"), "too-many-tags")
    assert (f.severity, f.field, f.offset) == ("warning", "num_tags", HEADER_OFFSETS["num_tags"])


def test_md3_surface_pitfalls() -> None:
    from md3builder import SURFACE_OFFSETS, Md3Spec, SurfaceSpec, surface_offset
    from md3builder import build as build3

    surface = SurfaceSpec(
        triangles=[(0, 1, 1)],
        texcoords=[(0.0, 0.0), (1.0, 0.0), (float("inf"), 1.0), (0.0, 0.25)],
    )
    data = build3(Md3Spec(surfaces=[surface]))
    at = surface_offset(data, 0)

    def rel(field: str) -> int:
        return int(struct.unpack_from("<i", data, at + SURFACE_OFFSETS[field])[0])

    ofs = {"tris": rel("ofs_triangles"), "st": rel("ofs_tex_coords")}
    findings = check_model(data, "any")
    f = only(findings, "degenerate-triangle")
    assert (f.severity, f.offset) == ("warning", at + ofs["tris"])
    f = only(findings, "unused-vertex")
    assert (f.severity, f.offset) == ("warning", at + ofs["st"] + 8 * 2)
    assert "(1 more)" in f.message
    f = only(findings, "non-finite")
    assert (f.severity, f.field, f.offset) == ("error", "tex_coords", at + ofs["st"] + 16)
    m = quakemodels.load(data)
    assert m.check("any") == findings


@pytest.mark.parametrize("path", corpus_params("md3"))
def test_md3_corpus_has_no_errors_for_quake3_or_q2pro(path: Path) -> None:
    for engine in ("quake3", "q2pro"):  # "any": tests/test_conformance.py
        errors = [f for f in check_model(path, engine) if f.severity == "error"]
        assert errors == [], (engine, errors)
    assert [f.code for f in check_model(path, "quake2")] == ["engine-format"]


def test_cli_folders_globs_and_jobs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from md3builder import build as build3

    (tmp_path / "sub").mkdir()
    (tmp_path / "a.md2").write_bytes(build(Md2Spec(skins=[])))
    (tmp_path / "sub" / "b.MD3").write_bytes(build3())
    assert main(["check", "--json", "-j", "2", "--engine", "quake3", str(tmp_path)]) == 1
    report = json.loads(capsys.readouterr().out)
    assert [(Path(r["file"]).name, r["errors"]) for r in report] == [("a.md2", 1), ("b.MD3", 0)]
    assert report[0]["findings"][0]["code"] == "engine-format"
    assert main(["check", str(tmp_path / "*.md2")]) == 0
    assert "a.md2: ok [any]" in capsys.readouterr().out
    assert main(["check", str(tmp_path / "nothing*.md2")]) == 1
    assert "no files match this pattern" in capsys.readouterr().out
