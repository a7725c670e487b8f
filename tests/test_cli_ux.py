"""The command line as a new user meets it (issue #12): every finding, through a real process —
exit code, stderr text and the files left behind."""

from __future__ import annotations

import json
import os
import re
import signal
import struct
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from md2builder import Md2Spec, build

import quakemodels
from quakemodels import Md2
from quakemodels.registry import unknown_magic

REPO = Path(__file__).resolve().parent.parent


def qm(
    *args: str | Path, stdin: bytes | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[bytes]:
    """Run ``python -m quakemodels ARGS`` and capture everything."""
    return subprocess.run(
        [sys.executable, "-m", "quakemodels", *map(str, args)],
        input=stdin,
        capture_output=True,
        cwd=cwd,
        timeout=300,
        check=False,
    )


def err(p: subprocess.CompletedProcess[bytes]) -> str:
    text = p.stderr.decode()
    assert "Traceback" not in text, text
    return text


@pytest.fixture
def model(tmp_path: Path) -> Path:
    path = tmp_path / "quad.md2"
    path.write_bytes(build())
    return path


def files_in(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


# -- 1. installation --------------------------------------------------------------------------


def test_images_are_a_default_dependency_and_pygltflib_only_the_tests_one() -> None:
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    names = [re.split(r"[<>=;\[ ]", d)[0].lower() for d in project["dependencies"]]
    dev = [re.split(r"[<>=;\[ ]", d)[0].lower() for d in project["optional-dependencies"]["dev"]]
    assert "pillow" in names and "pygltflib" not in names and "pygltflib" in dev
    assert project["optional-dependencies"]["export"] == []  # kept as an empty alias


def test_help_and_info_import_no_gltf_or_image_library(model: Path) -> None:
    code = (
        "import sys, contextlib, io; from quakemodels.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    assert main(['info', {str(model)!r}]) == 0\n"
        "    main(['--help'])\n"
        "print(sorted(m for m in ('pygltflib', 'PIL') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, check=True)
    assert out.stdout.decode().strip() == "[]"


def test_missing_dependency_is_one_line_naming_the_install(model: Path, tmp_path: Path) -> None:
    code = (
        "import sys; sys.modules['PIL'] = None\n"
        "from quakemodels.cli import main\n"
        f"sys.exit(main(['render', {str(model)!r}, '-o', {str(tmp_path / 'x.png')!r}]))"
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, check=False)
    assert p.returncode == 1  # render is a batch verb: the file failed, and says why
    assert "the Pillow package is missing" in err(p) and "pip install Pillow" in err(p)
    assert not (tmp_path / "x.png").exists()


def test_gltf_export_needs_no_pygltflib(model: Path, tmp_path: Path) -> None:
    """glTF is written and read as plain JSON: no verb needs pygltflib, players included."""
    player = REPO.parent / "shared" / "corpus" / "q3" / "models" / "players" / "human_bsuit"
    steps = [
        ["convert", str(model), str(tmp_path / "x.glb")],
        ["convert", str(tmp_path / "x.glb"), str(tmp_path / "back.md2")],
    ]
    if player.is_dir():
        steps += [
            ["export", str(player), "-o", str(tmp_path / "p.glb")],
            ["convert", str(tmp_path / "p.glb"), f"{tmp_path / 'guy'}/"],
        ]
    code = (
        "import sys; sys.modules['pygltflib'] = None\n"
        "from quakemodels.cli import main\n"
        f"sys.exit(max(main(step) for step in {steps!r}))"
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, check=False)
    assert p.returncode == 0, err(p)
    assert (tmp_path / "back.md2").is_file()
    if player.is_dir():
        assert sorted(f.name for f in (tmp_path / "guy").glob("*.md3")) == [
            "head.md3",
            "lower.md3",
            "upper.md3",
        ]
    assert (tmp_path / "x.glb").read_bytes()[:4] == b"glTF"


def test_console_script_ends_without_teardown_yet_flushes_everything(
    model: Path, tmp_path: Path
) -> None:
    """The installed command and ``python -m`` run ``console_main``, which leaves through
    ``os._exit``: every line written to a pipe still arrives, the exit code is main()'s and
    no worker process or temporary file is left."""
    tomllib = pytest.importorskip("tomllib")
    scripts = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts == {
        "quakemodels": "quakemodels.cli:console_main",
        "ksy-numpy": "quakemodels.ksy_numpy.cli:console_main",
    }
    bad = tmp_path / "bad.md2"
    bad.write_bytes(b"IDP2" + bytes(8))
    copies = [tmp_path / f"m{k}.md2" for k in range(3)]
    for c in copies:
        c.write_bytes(model.read_bytes())
    out = tmp_path / "out"
    p = qm("export", *copies, bad, "-o", f"{out}/", "-j", "2")
    assert p.returncode == 1
    lines = sorted(p.stdout.decode().splitlines())
    assert lines == [
        f"{c} -> {out / c.stem}.glb (2 morph targets, 1 clip, skin: none)" for c in copies
    ]
    text = err(p)
    assert text.endswith("4 files: 3 ok, 1 failed\n") and f"{bad}: error: " in text
    assert files_in(out) == ["m0.glb", "m1.glb", "m2.glb"]


# -- 2. Ctrl-C ---------------------------------------------------------------------------------


def test_ctrl_c_stops_a_parallel_batch_quietly(tmp_path: Path, corpus_dir: Path) -> None:
    out = tmp_path / "sheets"
    inputs = [corpus_dir / "md2", corpus_dir / "md3"]
    args = ["render", *map(str, inputs), "-o", f"{out}/", "--sheet", "-j", "2"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "quakemodels", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own process group, as a terminal's foreground job
    )
    start = time.monotonic()
    while not list(out.glob("*.png")) and time.monotonic() - start < 120:
        time.sleep(0.02)
    os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C does: the whole group
    sent = time.monotonic()
    _, stderr = proc.communicate(timeout=60)
    assert time.monotonic() - sent < 10
    assert proc.returncode == 130
    text = stderr.decode()
    assert "Traceback" not in text and "KeyboardInterrupt" not in text
    assert "interrupted" in text
    written = files_in(out)
    assert not [f for f in written if f.endswith(".tmp") or f.startswith(".")]
    assert 1 <= len(written) < 28  # stopped: not every model was rendered


# -- 3. pipes and stdin/stdout ---------------------------------------------------------------


def test_closed_pipe_exits_quietly(corpus_dir: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "quakemodels", "dump", str(corpus_dir / "md2/ppm_drfreak.md2")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None
    assert proc.stdout.read(10) == b'{\n  "magic'
    proc.stdout.close()  # `| head -c 10`
    _, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 141
    assert stderr == b""


def test_stdin_and_stdout_with_dash(model: Path, tmp_path: Path) -> None:
    data = model.read_bytes()
    p = qm("info", "-", stdin=data)
    assert p.returncode == 0 and p.stdout.startswith(b"-: Quake II MD2"), err(p)
    p = qm("dump", "-", "-o", "-", stdin=data)
    assert p.returncode == 0 and json.loads(p.stdout)["numFrames"] == 2
    p = qm("check", "--engine", "quake2", "-", stdin=data)
    assert p.returncode == 0 and p.stdout == b"-: ok [quake2]\n", err(p)
    p = qm("check", "--json", "-", stdin=data[:100])
    (report,) = json.loads(p.stdout)
    assert p.returncode == 1 and report["file"] == "-"
    assert report["findings"][0]["field"] == "ofs_skins"  # the first section past the cut
    p = qm("export", model, "-o", "-", cwd=tmp_path)
    assert p.returncode == 0, err(p)
    magic, version, length = struct.unpack("<4sII", p.stdout[:12])
    assert (magic, version, length) == (b"glTF", 2, len(p.stdout))
    assert files_in(tmp_path) == ["quad.md2"]  # no folder called "-"
    p = qm("render", model, "-o", "-", cwd=tmp_path)
    assert p.returncode == 2 and "cannot write this to stdout" in err(p)


def test_dump_reads_through_archives(model: Path, tmp_path: Path) -> None:
    import zipfile

    pk3 = tmp_path / "pak0.pk3"
    with zipfile.ZipFile(pk3, "w") as z:
        z.writestr("models/quad/tris.md2", model.read_bytes())
    p = qm("dump", pk3 / "models/quad/tris.md2", "-o", "-")
    assert p.returncode == 0 and json.loads(p.stdout)["numFrames"] == 2, err(p)
    p = qm("dump", pk3 / "models/quad/none.md2", "-o", tmp_path / "x.json")
    assert p.returncode == 1 and "has no entry 'models/quad/none.md2'" in err(p)
    (tmp_path / "bad.pk3").write_bytes(pk3.read_bytes()[:40])
    p = qm("dump", tmp_path / "bad.pk3/models/quad/tris.md2")
    assert p.returncode == 1 and "not a readable zip/pk3 file" in err(p)
    assert files_in(tmp_path) == ["bad.pk3", "pak0.pk3", "quad.md2"]


# -- 4. output paths ---------------------------------------------------------------------------


def test_unknown_suffix_is_a_usage_error(model: Path, tmp_path: Path) -> None:
    p = qm("export", model, "-o", tmp_path / "x.stl")
    assert p.returncode == 2
    assert "export does not write .stl files; it writes .glb, .gltf, .obj" in err(p)
    p = qm("render", model, "-o", tmp_path / "x.bmp")
    assert p.returncode == 2 and "it writes .png, .jpg, .jpeg" in err(p)
    p = qm("convert", model, tmp_path / "x.stl")
    assert p.returncode == 2
    assert "convert writes .md2, .md3, .mdl, .spr, .sp2, .iqm, .glb, .gltf, .obj," in err(p)
    assert files_in(tmp_path) == ["quad.md2"]


def test_render_jpeg_is_a_file(model: Path, tmp_path: Path) -> None:
    p = qm("render", model, "-o", tmp_path / "x.jpg")
    assert p.returncode == 0, err(p)
    assert (tmp_path / "x.jpg").read_bytes()[:3] == b"\xff\xd8\xff"


def test_every_writer_creates_missing_folders(model: Path, tmp_path: Path) -> None:
    for args in (
        ("export", model, "-o", tmp_path / "a/b/x.glb"),
        ("render", model, "-o", tmp_path / "c/d/x.png"),
        ("convert", model, tmp_path / "e/f/x.obj"),
        ("dump", model, "-o", tmp_path / "g/h/x.json"),
    ):
        p = qm(*args)
        assert p.returncode == 0, err(p)
        assert Path(args[-1]).is_file()


def test_output_failure_exits_3_naming_the_users_path(model: Path, tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("in the way")
    for args in (
        ("export", model, "-o", tmp_path / "afile/x.glb"),
        ("render", model, "-o", tmp_path / "afile/sub/"),
        ("convert", model, tmp_path / "afile/x.glb"),
        ("dump", model, "-o", tmp_path / "afile/x.json"),
    ):
        p = qm(*args)
        assert p.returncode == 3, (args, err(p))
        assert "afile" in err(p) and ".tmp" not in err(p)
    assert files_in(tmp_path) == ["afile", "quad.md2"]


def test_no_clobber_keeps_existing_files(model: Path, tmp_path: Path) -> None:
    for name, args in (
        ("x.glb", ("export", model, "-o")),
        ("x.png", ("render", model, "-o")),
        ("x.json", ("dump", model, "-o")),
    ):
        target = tmp_path / name
        target.write_bytes(b"mine")
        p = qm(*args, target, "--no-clobber")
        assert p.returncode == 3 and "exists (--no-clobber)" in err(p)
        assert target.read_bytes() == b"mine"
        assert qm(*args, target).returncode == 0  # without it: replaced
        assert target.read_bytes() != b"mine"


# -- 5. verbs agree with the README ------------------------------------------------------------


def test_info_takes_folders_globs_json_and_jobs(model: Path, tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub/other.md2").write_bytes(build())
    p = qm("info", tmp_path, "-j", "2")
    assert p.returncode == 0 and p.stdout.count(b"Quake II MD2") == 2
    assert "2 files: 2 ok, 0 failed" in err(p)
    p = qm("info", tmp_path / "**/*.md2", "--json")
    reports = json.loads(p.stdout)
    assert [Path(r["file"]).name for r in reports] == ["quad.md2", "other.md2"]
    assert reports[0]["clips"] == {"stand": [0, 2]} and reports[0]["skins"] == [
        "models/test/skin.pcx"
    ]
    assert reports[0]["header"]["magic"] == "IDP2"


def test_check_prints_the_summary(model: Path, tmp_path: Path) -> None:
    p = qm("check", model, tmp_path / "none.md2")
    assert p.returncode == 1 and "2 files: 1 ok, 1 failed" in err(p)


def test_convert_md3_to_gltf_and_obj(tmp_path: Path, corpus_dir: Path) -> None:
    src = corpus_dir / "md3/trem_human_base_upper.md3"
    p = qm("convert", src, tmp_path / "u.glb")
    assert p.returncode == 0, err(p)
    assert p.stdout.decode().strip().endswith(": 153 morph targets, 1 clip, skin: none")
    p = qm("convert", src, tmp_path / "u.obj", "--frame", "2")
    assert p.stdout.decode().strip().endswith("1 frame (frame 2 of 153), 4 surfaces, 529 triangles")


# -- 6. messages --------------------------------------------------------------------------------


def test_convert_to_obj_reports_one_frame(model: Path, tmp_path: Path) -> None:
    p = qm("convert", model, tmp_path / "c.obj")
    assert (
        p.stdout.decode()
        == f"{tmp_path / 'c.obj'}: 1 frame (frame 0 of 2), 1 surface, 2 triangles\n"
    )


def test_zero_vertex_model(tmp_path: Path) -> None:
    path = tmp_path / "zero.md2"
    frames = [((1.0, 1.0, 1.0), (0.0, 0.0, 0.0), b"f1", np.zeros((0, 4), np.uint8))]
    path.write_bytes(build(Md2Spec(frames=frames)))
    p = qm("info", path)
    assert p.returncode == 1
    assert "the model has no vertices, so no index is valid (6 bad indices)" in err(p)
    assert "0..-1" not in err(p)


def test_empty_file_same_message_from_info_and_check(tmp_path: Path) -> None:
    empty = tmp_path / "empty.md2"
    empty.write_bytes(b"")
    # every registered format's magic is listed
    message = str(unknown_magic(b""))
    assert message.startswith(
        "magic=b'' at offset 0 is not a known model format (IDP2 = MD2, IDP3 = MD3, IDPO = MDL"
    )
    assert message in err(qm("info", empty)) and message in qm("check", empty).stdout.decode()


def test_negative_frame_is_an_error(model: Path, tmp_path: Path) -> None:
    for args in (
        ("render", model, "-o", tmp_path / "x.png"),
        ("export", model, "-o", tmp_path / "x.obj"),
        ("convert", model, tmp_path / "x.obj"),
    ):
        p = qm(*args, "--frame", "-1")
        assert p.returncode == 2 and "frame -1: frames count from 0" in err(p)
    p = qm("render", model, "-o", tmp_path / "x.png", "--frame", "2")
    assert p.returncode == 1 and "frame 2 out of range (frames: 0..1)" in err(p)
    assert files_in(tmp_path) == ["quad.md2"]


def test_dump_of_a_cut_file_names_field_and_offset(tmp_path: Path, model: Path) -> None:
    cut = tmp_path / "cut.md2"
    cut.write_bytes(model.read_bytes()[:100])
    p = qm("dump", cut)
    assert p.returncode == 1
    assert re.search(r"ofs_\w+=\d+ at offset \d+", err(p)), err(p)
    assert "requested" not in err(p)


def test_plurals(model: Path, tmp_path: Path) -> None:
    p = qm("export", model, "-o", tmp_path / "x.glb")
    assert "(2 morph targets, 1 clip, skin: none)" in p.stdout.decode()
    p = qm("info", model)
    assert "2 frames, 4 vertices, 2 triangles, 4 texcoords, 2 GL commands, 1 skin\n" in (
        p.stdout.decode()
    )


# -- 7. choices ----------------------------------------------------------------------------------


def test_skin_by_number_and_name(tmp_path: Path) -> None:
    from PIL import Image

    spec = Md2Spec(skins=[b"red.png", b"blue.png"])
    path = tmp_path / "guy.md2"
    path.write_bytes(build(spec))
    Image.new("RGB", (4, 4), (255, 0, 0)).save(tmp_path / "red.png")
    Image.new("RGB", (4, 4), (0, 0, 255)).save(tmp_path / "blue.png")
    p = qm("export", path, "-o", tmp_path / "a.glb")
    assert "skin: red.png" in p.stdout.decode()
    p = qm("export", path, "-o", tmp_path / "b.glb", "--skin", "1")
    assert "skin: blue.png" in p.stdout.decode()
    p = qm("export", path, "-o", tmp_path / "c.glb", "--skin", "blue.png")
    assert "skin: blue.png" in p.stdout.decode()
    p = qm("export", path, "-o", tmp_path / "d.glb", "--skin", "5")
    assert (
        p.returncode == 1
        and "--skin 5: the model names 2 skins (0: red.png, 1: blue.png)" in err(p)
    )


def _obj_vertices(path: Path) -> np.ndarray:
    rows = [line.split()[1:] for line in path.read_text().splitlines() if line.startswith("v ")]
    return np.array(rows, dtype=np.float64)


def _glb_json(path: Path) -> dict[str, object]:
    data = path.read_bytes()
    (length,) = struct.unpack("<I", data[12:16])
    return json.loads(data[20 : 20 + length])  # type: ignore[no-any-return]


def test_scale_and_fps(model: Path, tmp_path: Path) -> None:
    qm("export", model, "-o", tmp_path / "one.obj")
    qm("export", model, "-o", tmp_path / "m.obj", "--scale", "0.0254")
    np.testing.assert_allclose(
        _obj_vertices(tmp_path / "m.obj"), _obj_vertices(tmp_path / "one.obj") * 0.0254, rtol=1e-6
    )
    qm("export", model, "-o", tmp_path / "f.glb", "--fps", "4")
    doc = _glb_json(tmp_path / "f.glb")
    accessors = doc["accessors"]
    sampler = doc["animations"][0]["samplers"][0]  # type: ignore[index]
    assert accessors[sampler["input"]]["max"] == [0.25]  # type: ignore[index]
    p = qm("export", model, "-o", tmp_path / "z.glb", "--scale", "0")
    assert p.returncode == 2 and "must be above zero" in err(p)


def test_formats_clips_and_quiet(model: Path, tmp_path: Path) -> None:
    p = qm("formats")
    assert p.returncode == 0
    assert re.search(r"md2 +Quake II MD2 +magic IDP2 +\.md2", p.stdout.decode())
    assert "render   .png, .jpg, .jpeg, .gif" in p.stdout.decode()
    p = qm("info", "--clips", model)
    assert p.stdout.decode() == f"{model}: 1 clip\n  stand          frames 0-1       (2 frames)\n"
    p = qm("export", model, "-o", tmp_path / "q.glb", "--quiet")
    assert p.returncode == 0 and p.stdout == b"" and p.stderr == b""
    assert (tmp_path / "q.glb").is_file()


# -- 8. Python API -------------------------------------------------------------------------------


def test_cached_arrays_are_read_only(model: Path) -> None:
    m = quakemodels.load(model, Md2)
    for name in ("positions", "normals", "triangles", "texcoords", "texcoords_px", "scales"):
        with pytest.raises(ValueError, match="read-only"):
            getattr(m, name)[0, 0] = 12345
    mesh = m.mesh(0)
    with pytest.raises(ValueError, match="read-only"):
        mesh.vertex_ids[0] = 3
    assert m.mesh(0).positions.tolist() == mesh.positions.tolist()
    assert repr(mesh) == "<Mesh: 4 vertices, 2 triangles>"
    edited = m.positions.copy()
    edited[0, 0, 0] = 1.0  # a copy is the caller's to change


def test_load_types_and_namespace(model: Path, tmp_path: Path) -> None:
    with pytest.raises(TypeError, match="not int"):
        quakemodels.load(12345)  # type: ignore[call-overload]
    found = r"is an MD2 file \(magic=b'IDP2' at offset 0\), not MD3"
    with pytest.raises(quakemodels.BadMagicError, match=found):
        quakemodels.load(model, quakemodels.Md3)
    assert not {"IO", "os", "annotations", "core", "registry"} & set(dir(quakemodels))
    assert "load" in dir(quakemodels)
    written = quakemodels.load(model, Md2).export(tmp_path / "m.glb")
    assert written == [tmp_path / "m.glb"] and written[0].read_bytes()[:4] == b"glTF"


def test_readme_python_snippets_pass_mypy_strict(tmp_path: Path) -> None:
    """Every ```python block of the README and of the documentation site (docs/), type-checked
    as a user's script would be."""
    pages = [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]
    blocks = [
        b for page in pages for b in re.findall(r"```python\n(.*?)```", page.read_text(), re.S)
    ]
    assert len(blocks) >= 10
    # Names the snippets use without defining them: a user's own arrays.
    prelude = (
        "import numpy as np\nimport quakemodels\n"
        "positions = np.zeros((1, 3, 3), np.float32)\ntriangles = np.zeros((1, 3), np.int32)\n"
        "texcoords_px = np.zeros((3, 2), np.int16)\n"
        "triangle_texcoords = np.zeros((1, 3), np.int32)\nframe_names = ['a']\n"
    )
    for k, block in enumerate(blocks):
        (tmp_path / f"snippet{k}.py").write_text(prelude + block)
    p = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(tmp_path)],
        capture_output=True,
        cwd=REPO,
        check=False,
    )
    assert p.returncode == 0, p.stdout.decode()
