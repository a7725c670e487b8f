"""``quakemodels dump``: the Web IDE and ksdump JSON formats, errors, and the node cross-check."""

from __future__ import annotations

import json
import os
import re
import shutil
import struct
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from archivebuilder import pak_bytes
from conftest import IN_CI, REPO, corpus_params
from md2builder import Md2Spec, build, gl_command, set_header
from md3builder import Md3Spec, surface_offset
from md3builder import build as build_md3

from quakemodels import Md2, load
from quakemodels.cli import main
from quakemodels.core.dump import DumpError, dumps, js_number, lower_camel_case, ruby_float
from quakemodels.errors import ModelFormatError

HAVE_NODE = shutil.which("node") is not None and (REPO / "node_modules" / "kaitai-struct").is_dir()
needs_node = pytest.mark.skipif(
    not HAVE_NODE and not IN_CI, reason="node and node_modules are needed (run `make setup`)"
)

# The MD2 header in the spec's seq order (ksy/quake2_md2.ksy) and its instances, which the
# compiler declares sorted by name.
MD2_SEQ = [
    "magic", "version", "skin_width_px", "skin_height_px", "bytes_per_frame", "num_skins",
    "vertices_per_frame", "num_tex_coords", "num_triangles", "num_gl_cmds", "num_frames",
    "ofs_skins", "ofs_tex_coords", "ofs_triangles", "ofs_frames", "ofs_gl_cmds", "ofs_end",
]  # fmt: skip
MD2_INSTANCES = [
    "anim_names", "anim_num_frames", "anim_start_indices", "anorms_table", "frames", "gl_cmds",
    "skins", "tex_coords", "triangles",
]  # fmt: skip

FAN = [(0.0, 0.0, 0), (0.5, -0.25, 1), (1.5, 1.0, 2), (0.125, 0.375, 3)]
STRIP = [(0.25, 0.75, 0), (1.0, 0.5, 2), (0.0, 0.5, 3)]


def f32(x: float) -> float:
    return float(np.float32(x))


def sample(**kw: Any) -> bytes:
    kw.setdefault("gl_dwords", gl_command("fan", FAN) + gl_command("strip", STRIP) + [0])
    return build(Md2Spec(**kw))


def webide(data: bytes) -> Any:
    return json.loads(dumps(data, "webide"), parse_constant=float)


# --- names and numbers ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("snake", "camel"),
    [
        ("skin_width_px", "skinWidthPx"),
        ("x", "x"),
        ("tex_coords_normalized", "texCoordsNormalized"),
        ("pain1", "pain1"),
        ("anim_num_frames", "animNumFrames"),
        ("a__b", "aB"),  # an empty word adds nothing
        ("a_b_", "aB"),  # Java's split drops trailing empty words
        ("_raw_x_y", "_rawXY"),  # a leading underscore stays
        ("s_2nd", "s2nd"),  # digits have no upper case
    ],
)
def test_lower_camel_case_is_the_compilers_rule(snake: str, camel: str) -> None:
    assert lower_camel_case(snake) == camel


@needs_node
def test_every_python_name_maps_to_the_javascript_compilers_name(tmp_path: Path) -> None:
    """Each seq field and instance of every generated class has its camelCase twin in the JS."""
    from quakemodels.core.dump import spec_classes

    subprocess.run(
        [
            "node",
            "tools/ksc.js",
            "--target",
            "javascript",
            "--outdir",
            str(tmp_path),
            *sorted(str(p) for p in (REPO / "ksy").glob("*.ksy")),
        ],
        cwd=REPO,
        check=True,
        capture_output=True,
    )
    js = "\n".join(p.read_text() for p in tmp_path.glob("*.js"))
    declared = set(re.findall(r"this\.(\w+) = ", js)) | set(
        re.findall(r"defineProperty\(\w+\.prototype, '(\w+)'", js)
    )
    checked = 0
    for root in spec_classes().values():
        todo: list[type] = [root]
        while todo:
            cls = todo.pop()
            todo += [v for v in vars(cls).values() if isinstance(v, type) and v is not cls]
            for name, attr in vars(cls).items():
                if isinstance(attr, property) and not name.startswith("_"):
                    assert lower_camel_case(name) in declared, (cls.__name__, name)
                    checked += 1
    for name in MD2_SEQ:
        assert lower_camel_case(name) in declared
    assert checked >= len(MD2_INSTANCES)


NUMBERS = [
    0.1, 1.5, -2.0, 100.0, 1e21, 1.5e21, 1e20, 123456789012345680000.0, 1e-6, 1.5e-6, 1e-7,
    1.25e-7, -3.5e-9, 5e-324, 1.7976931348623157e308, 2.0**53, 2.0**53 + 2, 1e16, 1e15 + 0.5,
    0.00001, 0.0001234, f32(0.1), f32(-0.525731), f32(1 / 3), 255 * f32(0.7) + f32(-12.1),
    -0.0, 0.0, 12345.678,
]  # fmt: skip


@needs_node
def test_js_number_is_what_javascript_prints() -> None:
    script = "for (const x of JSON.parse(process.argv[1])) console.log(String(x));"
    done = subprocess.run(
        ["node", "-e", script, json.dumps(NUMBERS)], capture_output=True, text=True, check=True
    )
    assert [js_number(x) for x in NUMBERS] == done.stdout.split()
    assert [js_number(x) for x in (float("nan"), float("inf"), -float("inf"), 7)] == [
        "NaN",
        "Infinity",
        "-Infinity",
        "7",
    ]


def test_ruby_float_is_rubys_float_to_s() -> None:
    # Float#to_s: fixed notation for 1e-4 <= |x| < 1e16, else d.ddde[+-]XX with a ".0" mantissa
    assert ruby_float(100.0) == "100.0"
    assert ruby_float(0.0001) == "0.0001"
    assert ruby_float(1e-05) == "1.0e-05"
    assert ruby_float(1.5e-05) == "1.5e-05"
    assert ruby_float(1e15) == "1000000000000000.0"
    assert ruby_float(1e16) == "1.0e+16"
    assert ruby_float(-0.0) == "-0.0"
    with pytest.raises(DumpError, match="not allowed in JSON"):
        ruby_float(float("nan"))


# --- the webide format ---------------------------------------------------------------------------


def test_webide_keys_order_and_internals() -> None:
    tree = webide(sample())
    assert list(tree) == [lower_camel_case(n) for n in MD2_SEQ + MD2_INSTANCES]
    text = json.dumps(tree)
    for internal in ("_io", "_parent", "_root", "_raw", "_m_", "_debug"):
        assert internal not in text
    frame = tree["frames"][0]
    assert list(frame) == ["scale", "translate", "name", "vertices"]
    assert list(frame["vertices"][0]) == ["position", "normalIndex", "normal"]
    assert list(frame["vertices"][0]["position"]) == [
        "xCompressed", "yCompressed", "zCompressed", "x", "y", "z",
    ]  # fmt: skip


def test_webide_values_match_the_bytes_and_the_facade() -> None:
    data = sample(texcoords=[(-5, -3), (63, 0), (70, 40), (0, 31)])
    tree = webide(data)
    m = Md2.from_bytes(data)
    assert tree["magic"] == [73, 68, 80, 50]  # 4 bytes: an integer list
    assert tree["skinWidthPx"] == 64 and tree["numFrames"] == 2
    assert tree["skins"] == ["models/test/skin.pcx"]
    assert tree["texCoords"][0] == {
        "sPx": -5,
        "tPx": -3,
        "sNormalized": -5 / 64,
        "tNormalized": -3 / 32,
    }
    assert [t["vertexIndices"] for t in tree["triangles"]] == m.triangles.tolist()
    for f, frame in enumerate(tree["frames"]):
        assert frame["name"] == m.frame_names[f]
        scale, translate = m.scales[f].tolist(), m.translates[f].tolist()
        assert [frame["scale"][k] for k in "xyz"] == scale
        for v, vert in enumerate(frame["vertices"]):
            pos = vert["position"]
            for k, axis in enumerate("xyz"):
                # the spec's value instance, computed in doubles as JavaScript does
                assert pos[axis] == pos[axis + "Compressed"] * scale[k] + translate[k]
            assert vert["normalIndex"] == m.normal_indices[f, v]
            assert np.array_equal(np.float32(vert["normal"]), m.normals[f, v])
    fan, strip, end = tree["glCmds"]["items"]
    assert fan["primitive"] == {"name": "TRIANGLE_FAN", "value": 1}
    assert fan["cmdNumVertices"] == -4 and fan["numVertices"] == 4
    assert [v["texCoordsNormalized"] for v in fan["vertices"]] == [[s, t] for s, t, _ in FAN]
    assert [v["vertexIndex"] for v in fan["vertices"]] == [i for _, _, i in FAN]
    assert strip["primitive"] == {"name": "TRIANGLE_STRIP", "value": 0}
    assert end == {
        "cmdNumVertices": 0,
        "vertices": [],
        "numVertices": 0,
        "primitive": {"name": "TRIANGLE_STRIP", "value": 0},
    }


def test_webide_text_layout_is_the_ides() -> None:
    text = dumps(sample(), "webide")
    assert text.startswith('{\n  "magic": [73, 68, 80, 50],\n  "version": 8,\n')
    assert '"primitive": { "name": "TRIANGLE_FAN", "value": 1 }' in text
    # numbers: up to 16 on a line, JavaScript's formatting (no ".0")
    assert '"anormsTable": [\n    [\n      -0.525731, 0, 0.850651\n    ],' in text
    assert not text.endswith("\n")


def test_webide_leaves_out_absent_fields() -> None:
    # No GL commands: the list's `items` has `if: not _io.eof` and is absent, not null.
    tree = webide(sample(gl_dwords=[]))
    assert tree["numGlCmds"] == 0 and tree["glCmds"] == {}
    # A normal index past the 162-entry table: JavaScript reads undefined, the key is left out.
    verts = np.array([[0, 0, 0, 5], [1, 2, 3, 200], [4, 5, 6, 161]], np.uint8)
    tree = webide(sample(frames=[((1.0, 1.0, 1.0), (0.0, 0.0, 0.0), b"a", verts)]))
    keys = [list(v) for v in tree["frames"][0]["vertices"]]
    assert keys == [
        ["position", "normalIndex", "normal"],
        ["position", "normalIndex"],
        ["position", "normalIndex", "normal"],
    ]


def test_webide_surface_body_is_a_struct_its_sections_read_from() -> None:
    # The MD3 surface body is a typed substream (surface_body, no fields of its own); the sections
    # are instances read from it at ofs_* - 108, so their values are those of the chained file.
    data = build_md3(Md3Spec())
    tree = webide(data)
    assert tree["magic"] == [73, 68, 80, 51]
    for i, surface in enumerate(tree["surfaces"]):
        start = surface_offset(data, i)
        ofs_end = struct.unpack_from("<i", data, start + 104)[0]
        assert surface["ofsEnd"] == ofs_end
        assert surface["magic"] == [73, 68, 80, 51]
        assert surface["body"] == {}
        assert surface["numTexCoords"] == surface["numVertices"] == len(surface["texCoords"])
        first = struct.unpack_from("<3i", data, start + surface["ofsTriangles"])
        assert surface["triangles"][0]["vertexIndices"] == list(first)


# --- the ksdump format --------------------------------------------------------------------------


def keys_sorted_everywhere(node: Any) -> bool:
    if isinstance(node, dict):
        return list(node) == sorted(node) and all(keys_sorted_everywhere(v) for v in node.values())
    if isinstance(node, list):
        return all(keys_sorted_everywhere(v) for v in node)
    return True


def test_ksdump_rules() -> None:
    data = sample()
    text = dumps(data, "ksdump")
    assert text.endswith("}\n")  # ksdump prints with puts
    tree = json.loads(text)
    assert keys_sorted_everywhere(tree)
    assert set(tree) == set(MD2_SEQ + MD2_INSTANCES)
    assert tree["magic"] == "49 44 50 32"
    assert tree["anim_num_frames"] == "28 06 08 04 04 04 06 0C 0B 11 0B 0C 13 06 09 04 05 06 06 08"
    fan, strip, _end = tree["gl_cmds"]["items"]
    assert (fan["primitive"], strip["primitive"]) == ("triangle_fan", "triangle_strip")
    assert tree["frames"][0]["scale"] == {"x": 0.5, "y": 0.25, "z": 1.0}
    assert '"z": 1.0\n' in text and "\n      0.0,\n" in text  # Ruby keeps ".0"
    assert json.loads(dumps(sample(gl_dwords=[]), "ksdump"))["gl_cmds"] == {}


# --- errors -------------------------------------------------------------------------------------


def test_bad_magic_exits_1_with_the_model_format_message_and_no_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.md2"
    bad.write_bytes(b"NOPE" + sample()[4:])
    with pytest.raises(ModelFormatError) as expected:
        load(bad)
    out = tmp_path / "out.json"
    assert main(["dump", str(bad), "-o", str(out)]) == 1
    assert capsys.readouterr().err.strip() == f"{bad}: error: {expected.value}"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.md2"]
    out.write_text("keep me")  # an existing file is not replaced on failure
    assert main(["dump", str(bad), "-o", str(out), "--format", "ksdump"]) == 1
    assert out.read_text() == "keep me"
    assert main(["dump", str(bad)]) == 1
    assert capsys.readouterr().out == ""  # nothing half-written to stdout either


def test_truncated_frames_fail_with_path_and_no_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = sample()
    ofs_frames = struct.unpack_from("<i", data, 4 + 4 * 13)[0]
    cut = tmp_path / "cut.md2"
    cut.write_bytes(data[: ofs_frames + 50])  # frame 0 is 56 bytes
    with pytest.raises(ModelFormatError, match=r"quake2_md2\.frames: unexpected end of data"):
        dumps(cut.read_bytes())
    out = tmp_path / "cut.json"
    assert main(["dump", str(cut), "-o", str(out)]) == 1
    # The CLI names the reader's field and offset, not the generated parser's byte count.
    assert "ofs_frames=172 at offset 56: 2 frames × 56 bytes from offset 172 run past" in (
        capsys.readouterr().err
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cut.md2"]


def test_partial_writes_what_parsed_marked_incomplete(tmp_path: Path) -> None:
    data = sample(frames=None)
    ofs_frames = struct.unpack_from("<i", data, 4 + 4 * 13)[0]
    cut = tmp_path / "cut.md2"
    cut.write_bytes(data[: ofs_frames + 56 + 20])  # frame 0 whole, frame 1 cut
    out = tmp_path / "part.json"
    assert main(["dump", str(cut), "-o", str(out), "--partial"]) == 1
    doc = json.loads(out.read_text())
    assert doc["$incomplete"] is True and "unexpected end of data" in doc["$error"]
    tree = doc["tree"]
    assert tree["magic"] == [73, 68, 80, 50] and tree["numFrames"] == 2
    assert [f["name"] for f in tree["frames"]] == ["stand01"]  # what was read before the end
    assert "triangles" not in tree  # never evaluated: nothing new is parsed for a partial dump


def test_zero_skin_width_is_a_model_format_error_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = set_header(sample(), "skin_width_px", 0)
    with pytest.raises(ModelFormatError, match=r"tex_coords\[0\]\.s_normalized: division by zero"):
        dumps(data)
    f = tmp_path / "zero.md2"
    f.write_bytes(data)
    assert main(["dump", str(f), "--format", "ksdump", "-o", str(tmp_path / "z.json")]) == 1
    assert "division by zero" in capsys.readouterr().err
    assert not (tmp_path / "z.json").exists()


def test_usage_and_missing_file(tmp_path: Path) -> None:
    assert main(["dump", str(tmp_path / "none.md2")]) == 1
    assert main(["dump", "--format", "xml", str(tmp_path / "none.md2")]) == 2


# --- corpus -------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", corpus_params("md2"))
def test_corpus_md2_ksdump_matches_the_facade(path: Path | None) -> None:
    assert path is not None
    data = path.read_bytes()
    m = Md2.from_bytes(data)
    tree = json.loads(dumps(data, "ksdump"))
    assert keys_sorted_everywhere(tree["frames"][0]) and tree["magic"] == "49 44 50 32"
    assert (tree["num_frames"], tree["vertices_per_frame"]) == (m.num_frames, m.num_vertices)
    assert tree.get("skins", []) == m.skins
    assert [f["name"] for f in tree["frames"]] == m.frame_names
    assert [t["vertex_indices"] for t in tree["triangles"]] == m.triangles.tolist()
    assert [t["tex_point_indices"] for t in tree["triangles"]] == m.triangle_texcoords.tolist()
    assert [[t["s_px"], t["t_px"]] for t in tree["tex_coords"]] == m.texcoords_px.tolist()
    last = tree["frames"][-1]
    assert [v["normal_index"] for v in last["vertices"]] == m.normal_indices[-1].tolist()
    assert [last["scale"][k] for k in "xyz"] == m.scales[-1].tolist()


@pytest.mark.parametrize("path", corpus_params("md3"))
def test_corpus_md3_webide_header(path: Path | None) -> None:
    assert path is not None
    data = path.read_bytes()
    tree = webide(data)
    header = struct.unpack_from("<4si64s9i", data)
    assert tree["magic"] == list(b"IDP3") and tree["version"] == header[1]
    assert (tree["numFrames"], tree["numTags"], tree["numSurfaces"]) == header[4:7]
    assert len(tree["frames"]) == header[4] and len(tree["surfaces"]) == header[6]
    assert len(tree["tags"]) == header[4] * header[5]


# --- the node cross-check -----------------------------------------------------------------------


def run_crosscheck(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(REPO / "tools" / "crosscheck.py"), *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO / "src")},
    )


@needs_node
def test_crosscheck_archives_and_synthetic_files(corpus_dir: Path) -> None:
    """`make crosscheck` on the corpus paks and the edge files, Python against the IDE's engine
    (every format's corpus folder: tests/test_conformance.py)."""
    done = run_crosscheck("--corpus", str(corpus_dir / "archives"))
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    # the paks: their spec is an archive's, not a registered format's
    n_corpus = len(list((corpus_dir / "archives").rglob("*.pak")))
    checked = [line for line in lines if line.startswith("ok   ")]
    assert sum(not line.startswith("ok   synthetic/") for line in checked) == n_corpus
    for name in (
        "negative_texcoords",
        "empty_gl_commands",
        "zero_skins",
        "one_frame",
        "vertices_2048",
    ):
        assert any(line.startswith(f"ok   synthetic/{name}.md2") for line in checked), name
    assert (
        lines[-1]
        == f"crosscheck: {len(checked)} of {len(checked)} files agree with the Web IDE engine"
    )


@needs_node
def test_crosscheck_fails_on_a_real_difference(tmp_path: Path) -> None:
    # A pak entry name with byte 0xE9 before its NUL: the JS runtime decodes "ascii" as
    # Latin-1, the Python runtime refuses it. The cross-check must report the file, not pass
    # it. (Model names are ISO-8859-1 in their specs, which both runtimes decode alike.)
    odd = tmp_path / "latin1_name.pak"
    odd.write_bytes(pak_bytes([(b"models/caf\xe9.md2", sample())]))
    done = run_crosscheck(str(odd))
    assert done.returncode == 1
    assert f"FAIL {odd}: js ok / python " in done.stdout
    assert "are not ascii" in done.stdout


def test_value_comparison_reports_paths() -> None:
    sys.path.insert(0, str(REPO / "tools"))
    try:
        import crosscheck
    finally:
        sys.path.remove(str(REPO / "tools"))
    a = crosscheck._load('{"a": [1, 2.5, {"b": NaN}], "c": "x", "d": 1}')
    b = crosscheck._load('{"a": [1.0, 2.50, {"b": NaN}], "c": "x", "d": 1e0}')
    assert list(crosscheck.differences(a, b)) == []  # numbers as doubles, NaN equals NaN
    b["a"][1] = 2.25
    b["e"] = 0.0
    b["c"] = "y"
    assert sorted(crosscheck.differences(a, b)) == [
        ".a[1]: python 2.5 != js 2.25",
        ".c: python 'x' != js 'y'",
        "<root>: keys only in python [], only in js ['e']",
    ]


@needs_node
def test_crosscheck_against_an_ide_export(tmp_path: Path) -> None:
    model = tmp_path / "m.md2"
    model.write_bytes(sample())
    export = tmp_path / "ide.json"
    js = subprocess.run(
        ["node", "tools/crosscheck.js", str(model)], cwd=REPO, capture_output=True, check=True
    )
    export.write_bytes(js.stdout)
    assert run_crosscheck(str(model), "--against", str(export)).returncode == 0
    tree = json.loads(js.stdout)
    tree["frames"][1]["vertices"][2]["position"]["x"] += 0.5
    export.write_text(json.dumps(tree))
    done = run_crosscheck(str(model), "--against", str(export))
    assert done.returncode == 1
    assert ".frames[1].vertices[2].position.x: python" in done.stdout
