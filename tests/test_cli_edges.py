"""The command line's rough edges (issue #26, item 8), each through a real process: exit
codes, the exact words, and one warning per cause."""

from __future__ import annotations

import re
import subprocess
import sys
import warnings
from pathlib import Path

import md3builder
import pytest
from archivebuilder import pak_bytes
from md2builder import Md2Spec, build

from quakemodels.core.skins import find_skin
from quakemodels.errors import QuakeModelsWarning

REPO = Path(__file__).resolve().parent.parent
SAMPLE = REPO / "src" / "quakemodels" / "samples" / "quakeguy.md2"


def qm(*args: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m quakemodels ARGS`` (the console script's path), output captured as text."""
    return subprocess.run(
        [sys.executable, "-m", "quakemodels", *map(str, args)],
        capture_output=True,
        text=True,
        errors="replace",  # `export -o -` writes binary glTF
        cwd=cwd,
        timeout=300,
        check=False,
    )


def no_traceback(p: subprocess.CompletedProcess[str]) -> str:
    assert "Traceback" not in p.stderr, p.stderr
    return p.stderr


def leftovers(folder: Path) -> list[str]:
    """Hidden or temporary files an interrupted write would leave."""
    return [p.name for p in folder.rglob("*") if p.name.startswith(".") or p.suffix == ".tmp"]


# -- check -q ---------------------------------------------------------------------------------


def test_check_quiet_prints_nothing_when_every_file_is_clean(tmp_path: Path) -> None:
    """The sample is clean (its skin beside it): -q prints nothing at all, summary included;
    a missing file is a problem, and the only thing printed."""
    p = qm("check", "-q", SAMPLE)
    assert (p.returncode, p.stdout, no_traceback(p)) == (0, "", "")
    missing = tmp_path / "copy.md2"
    p = qm("check", "-q", SAMPLE, missing)
    assert p.returncode == 1
    assert p.stdout.splitlines() == [
        f"{missing}: 1 error(s), 0 warning(s) [any]",
        "  error[io]: no such file or directory",
    ]
    assert no_traceback(p) == ""
    # without -q: every file and the summary, as before
    p = qm("check", SAMPLE, missing)
    assert p.returncode == 1
    assert f"{SAMPLE}: ok [any]" in p.stdout.splitlines()
    assert no_traceback(p) == "2 files: 1 ok, 1 failed\n"


def test_check_quiet_lists_a_file_with_findings_and_its_findings(tmp_path: Path) -> None:
    bad = tmp_path / "bad.md2"
    bad.write_bytes(build()[:200])
    warned = tmp_path / "warned.md2"  # its skin is nowhere: a warning, not a failure
    warned.write_bytes(build())
    p = qm("check", "-q", SAMPLE, bad, warned)
    assert p.returncode == 1
    lines = p.stdout.splitlines()
    assert lines[0].startswith(f"{bad}: ") and lines[0].endswith(" error(s), 1 warning(s) [any]")
    assert f"{warned}: 0 error(s), 1 warning(s) [any]" in lines
    assert all(line.startswith("  ") for line in lines if not line.startswith(str(tmp_path)))
    assert str(SAMPLE) not in p.stdout
    assert no_traceback(p) == ""


# -- a closed pipe ----------------------------------------------------------------------------


def test_export_to_a_pipe_closed_mid_write_exits_141_quietly() -> None:
    """``quakemodels export x.md2 -o - | head -c 10``: the glTF (840 KB) is more than a pipe
    holds, so the reader closes while the one large write is under way; that write returns
    short without an error, and exit 0 hid the truncated output."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "quakemodels", "export", str(SAMPLE), "-o", "-"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None
    assert proc.stdout.read(10)[:4] == b"glTF"
    proc.stdout.close()  # `| head -c 10`
    _, stderr = proc.communicate(timeout=120)
    assert (proc.returncode, stderr) == (141, b"")


def test_export_to_a_pipe_read_to_the_end_exits_0() -> None:
    p = subprocess.run(
        [sys.executable, "-m", "quakemodels", "export", str(SAMPLE), "-o", "-"],
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert (p.returncode, p.stderr) == (0, b"")
    length = int.from_bytes(p.stdout[8:12], "little")  # the GLB header's total length
    assert length == len(p.stdout) > 65536


# -- extract: an output that cannot be written is exit 3 --------------------------------------


@pytest.fixture
def pak(tmp_path: Path) -> Path:
    path = tmp_path / "pak0.pak"
    path.write_bytes(
        pak_bytes([("readme.txt", b"hello\n"), ("models/a/tris.md2", SAMPLE.read_bytes())])
    )
    return path


def test_extract_under_a_file_exits_3_with_cannot_create(pak: Path, tmp_path: Path) -> None:
    """As root, permissions block nothing: a regular file where the output folder's parent
    should be fails for every user."""
    blocker = tmp_path / "afile"
    blocker.write_text("not a folder")
    p = qm("extract", pak, "-o", blocker / "out")
    assert p.returncode == 3
    assert no_traceback(p) == (
        f"quakemodels extract: error: cannot create folder {blocker / 'out'}: Not a directory\n"
    )
    assert p.stdout == "" and blocker.read_text() == "not a folder"
    # export says the same about the same folder
    e = qm("export", SAMPLE, "-o", f"{blocker / 'out'}/")
    assert e.returncode == 3
    assert no_traceback(e) == (
        f"quakemodels export: error: cannot create folder {blocker / 'out'}: Not a directory\n"
    )


def test_extract_a_file_that_cannot_be_written_exits_3_naming_it(pak: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "models").write_text("a file where a folder goes")
    p = qm("extract", pak, "-o", out)
    assert p.returncode == 3
    target = out / "models" / "a" / "tris.md2"
    assert no_traceback(p) == (
        f"quakemodels extract: error: cannot write {target}: Not a directory"
        f" (is {target.parent} a folder?)\n"
    )
    assert "Errno" not in p.stderr
    # all or nothing: readme.txt, moved into place first, was taken back out
    assert p.stdout == ""
    assert sorted(x.name for x in out.iterdir()) == ["models"]
    assert (out / "models").read_text() == "a file where a folder goes"
    assert leftovers(out) == []


def test_extract_a_bad_archive_is_still_exit_1(tmp_path: Path) -> None:
    bad = tmp_path / "bad.pak"
    bad.write_bytes(b"PACK\0\0")
    p = qm("extract", bad, "-o", tmp_path / "out")
    assert p.returncode == 1
    assert no_traceback(p) == (
        f"quakemodels extract: error: {bad}: file of 6 bytes is shorter than the 12-byte header\n"
    )
    assert not (tmp_path / "out").exists()


# -- one warning per cause --------------------------------------------------------------------


@pytest.fixture
def four_surfaces(tmp_path: Path) -> Path:
    """An MD3 whose four surfaces name one texture, which is not an image."""
    folder = tmp_path / "models" / "x"
    folder.mkdir(parents=True)
    surfaces = [
        md3builder.SurfaceSpec(name=name.encode(), shaders=[b"models/x/tex.tga"])
        for name in ("a", "b", "c", "d")
    ]
    path = folder / "thing.md3"
    path.write_bytes(md3builder.build(md3builder.Md3Spec(surfaces=surfaces)))
    (folder / "tex.tga").write_bytes(b"\0\0\2" + b"junk" * 20)
    return path


@pytest.mark.parametrize(
    "verb",
    [
        ["export", "-o", "{tmp}/out/"],
        ["export", "-o", "-"],
        ["render", "-o", "{tmp}/out/"],
        ["convert", "{tmp}/x.glb"],
        ["convert", "{tmp}/x.obj"],
    ],
    ids=["export", "export-stdout", "render", "convert-glb", "convert-obj"],
)
def test_a_warning_is_printed_once_per_model(
    four_surfaces: Path, tmp_path: Path, verb: list[str]
) -> None:
    args = [verb[0], four_surfaces, *(a.format(tmp=tmp_path) for a in verb[1:])]
    p = qm(*args)
    assert p.returncode == 0, p.stderr
    stderr = no_traceback(p)
    tex = four_surfaces.parent / "tex.tga"
    message = f"warning: skin {tex}: not an image Pillow can read; not used"
    warned = [line for line in stderr.splitlines() if "warning" in line]
    # batch verbs name the model; convert and `-o -` name the verb
    who = "quakemodels convert" if verb[0] == "convert" else str(four_surfaces)
    if verb[1:] == ["-o", "-"]:
        who = "quakemodels export"
    assert warned == [f"{who}: {message}"]
    assert "QuakeModelsWarning" not in stderr and "exporting" not in stderr


def test_render_warnings_do_not_say_exporting(tmp_path: Path) -> None:
    model = tmp_path / "m.md2"
    model.write_bytes(build(Md2Spec(skins=[b"../../etc/skin.pcx"])))
    p = qm("render", model, "-o", tmp_path / "m.png")
    assert p.returncode == 0
    assert no_traceback(p).splitlines() == [
        f"{model}: warning: skin name '../../etc/skin.pcx' has a '..' component that leaves"
        " the skin folder; refused",
        f"{model}: warning: every skin name was refused; no texture",
        "1 file: 1 ok, 0 failed",
    ]


# -- the words --------------------------------------------------------------------------------


def test_ls_counts_read_as_english(pak: Path, tmp_path: Path) -> None:
    p = qm("ls", pak)
    assert p.returncode == 0
    assert no_traceback(p) == "2 files (1 model) from 1 source, quake2 order\n"
    p = qm("ls", "--models", pak)
    assert p.returncode == 0
    assert no_traceback(p) == "1 model from 1 source, quake2 order\n"
    one = tmp_path / "one.pak"
    one.write_bytes(pak_bytes([("readme.txt", b"hi")]))
    p = qm("ls", one)
    assert no_traceback(p) == "1 file (0 models) from 1 source, quake2 order\n"
    p = qm("extract", one, "-o", tmp_path / "x")
    assert no_traceback(p) == f"1 file written under {tmp_path / 'x'}\n"


def test_an_archive_error_names_the_archive_once(tmp_path: Path) -> None:
    bad = tmp_path / "bad.pk3"
    bad.write_bytes(b"PK\3\4 not a zip at all")
    p = qm("check", bad)
    assert p.returncode == 1
    assert p.stdout.splitlines() == [
        f"{bad}: 1 error(s), 0 warning(s) [any]",
        "  error[io]: not a readable zip/pk3 file: File is not a zip file",
    ]
    for verb in (["export", "-o", tmp_path / "out/"], ["info"]):
        p = qm(verb[0], bad, *verb[1:])
        assert p.returncode == 1
        errors = [line for line in no_traceback(p).splitlines() if "error" in line]
        assert errors == [f"{bad}: error: not a readable zip/pk3 file: File is not a zip file"]
    # a model inside it names the path it was given, then the archive: both needed
    p = qm("info", f"{bad}/models/x.md2")
    errors = [line for line in no_traceback(p).splitlines() if ": error: " in line]
    assert errors[-1] == (
        f"{bad}/models/x.md2: error: {bad}: not a readable zip/pk3 file: File is not a zip file"
    )


@pytest.mark.parametrize("verb", ["export", "render", "convert"])
def test_skin_dir_must_be_a_folder(verb: str, tmp_path: Path) -> None:
    afile = tmp_path / "skins.txt"
    afile.write_text("")
    out = ["-o", str(tmp_path / "out/")] if verb != "convert" else [str(tmp_path / "x.glb")]
    for skin_dir, why in ((afile, "is not a folder"), (tmp_path / "nowhere", "does not exist")):
        p = qm(verb, SAMPLE, *out, "--skin-dir", skin_dir)
        assert p.returncode == 2
        last = no_traceback(p).splitlines()[-1]
        assert last == f"quakemodels {verb}: error: argument --skin-dir: {skin_dir} {why}"
        assert not (tmp_path / "out").exists() and not (tmp_path / "x.glb").exists()


def test_find_skin_says_a_skin_dir_that_is_a_file_is_not_a_folder(tmp_path: Path) -> None:
    afile = tmp_path / "skins.txt"
    afile.write_text("")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert find_skin(["skin.pcx"], SAMPLE, skin_dir=afile) is None
        assert find_skin(["skin.pcx"], SAMPLE, skin_dir=tmp_path / "none") is None
    assert [(w.category, str(w.message)) for w in caught] == [
        (QuakeModelsWarning, f"skin folder {afile} is not a folder"),
        (QuakeModelsWarning, f"skin folder {tmp_path / 'none'} does not exist"),
    ]


def test_help_and_package_description_name_every_kind_of_input() -> None:
    p = qm("--help")
    assert p.returncode == 0
    head = " ".join(p.stdout.split("positional arguments")[0].split())
    kinds = ("Quake MDL", "Quake II MD2", "Quake III MD3", "Quake III players", ".pak/.pk3")
    for kind in kinds:
        assert kind in head, head
    assert "MD2 / MD3" not in p.stdout
    found = re.search(r'^description = "(.*)"$', (REPO / "pyproject.toml").read_text(), re.M)
    assert found is not None
    for kind in kinds:
        assert kind in found.group(1)
