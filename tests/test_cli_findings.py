"""The command line's findings of issue #37, each through a real ``python -m quakemodels``
process as a user runs it: exit code, stderr text and the files left behind."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import CORPUS, REPO, no_corpus

SAMPLE = REPO / "src" / "quakemodels" / "samples" / "quakeguy.md2"


def qm(
    *args: str | Path, cwd: Path | None = None, timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    """Run ``python -m quakemodels ARGS`` on this checkout's sources; capture everything."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(REPO / "src"), os.environ.get("PYTHONPATH", "")]),
    }
    env.pop("COLUMNS", None)
    return subprocess.run(
        [sys.executable, "-m", "quakemodels", *map(str, args)],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
        check=False,
    )


def files_in(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


def corpus(*parts: str) -> Path:
    """A corpus file or folder; a skip (a failure under CI=true) when absent."""
    path = CORPUS.joinpath(*parts)
    if not path.exists():
        no_corpus(path)
    return path


@pytest.fixture
def sample(tmp_path: Path) -> Path:
    """The bundled sample copied as ``tris.md2``, its skin ``quakeguy.png`` beside it."""
    shutil.copyfile(SAMPLE, tmp_path / "tris.md2")
    shutil.copyfile(SAMPLE.with_suffix(".png"), tmp_path / "quakeguy.png")
    return tmp_path / "tris.md2"


# -- 5. option prefixes ------------------------------------------------------------------------


def test_option_prefixes_are_refused_with_the_verbs_usage(sample: Path) -> None:
    # ``--fram 3`` rendered frame 3 (argparse's prefix matching); a typo printed the
    # top-level usage, not the verb's
    p = qm("render", sample, "-o", "f.png", "--fram", "3", cwd=sample.parent)
    assert p.returncode == 2
    assert p.stderr.startswith("usage: quakemodels render ")
    assert "quakemodels render: error: unrecognized arguments: --fram 3" in p.stderr
    assert not (sample.parent / "f.png").exists()
    p = qm("info", sample, "--bogus")
    assert p.returncode == 2
    assert p.stderr.startswith("usage: quakemodels info ")
    assert p.stderr.rstrip().endswith("quakemodels info: error: unrecognized arguments: --bogus")
    p = qm("--vers")
    assert (p.returncode, p.stdout) == (2, "")
    assert "unrecognized arguments: --vers" in p.stderr


# -- 4. convert onto its input -----------------------------------------------------------------


def test_convert_onto_its_input_is_refused(sample: Path) -> None:
    # ``convert a.md2 a.md2`` said "a copy of" and exited 0 (and replaced a symlink by a file)
    folder = sample.parent
    (folder / "link.md2").symlink_to("tris.md2")
    (folder / "sub").mkdir()
    before = sample.read_bytes()
    for out in ("tris.md2", "./tris.md2", "link.md2", "sub/../tris.md2", str(sample)):
        p = qm("convert", "tris.md2", out, cwd=folder)
        assert p.returncode == 2, (out, p.stderr)
        assert "an output never goes over an input" in p.stderr
        assert p.stdout == ""
    assert sample.read_bytes() == before
    assert (folder / "link.md2").is_symlink()
    assert files_in(folder) == ["link.md2", "quakeguy.png", "sub", "tris.md2"]
    # another name still converts
    p = qm("convert", "tris.md2", "copy.md2", cwd=folder)
    assert p.returncode == 0, p.stderr
    assert (folder / "copy.md2").read_bytes() == before


# -- 1. render --skin of a player --------------------------------------------------------------


def _blue_skin_set(folder: Path) -> None:
    """A ``blue`` .skin set beside each ``*_default.skin``: every surface a pure blue PNG."""
    from PIL import Image

    Image.new("RGB", (8, 8), (0, 0, 255)).save(folder / "blue.png")
    for default in folder.glob("*_default.skin"):
        lines = []
        for line in default.read_text().splitlines():
            name, _, texture = line.partition(",")
            lines.append(f"{name},{'blue.png' if texture else ''}")
        (folder / default.name.replace("_default", "_blue")).write_text("\n".join(lines) + "\n")


def _blue_share(png: Path) -> float:
    """The share of the picture's drawn pixels (not the background) that are blue."""
    import numpy as np
    from PIL import Image

    rgb = np.asarray(Image.open(png).convert("RGB")).astype(int)
    background = rgb[0, 0]
    drawn = np.any(rgb != background, axis=2)
    blue = (rgb[..., 2] > rgb[..., 0] + 40) & (rgb[..., 2] > rgb[..., 1] + 40)
    return float((blue & drawn).sum() / drawn.sum())


def test_render_skin_names_a_players_skin_set(tmp_path: Path) -> None:
    # ``render <player> --skin blue`` said "no image 'blue' in ." though export and view take
    # the .skin set's name and render's help says so
    player = tmp_path / "guy"
    shutil.copytree(corpus("q3", "models", "players", "human_bsuit"), player)
    _blue_skin_set(player)
    p = qm("render", player, "--skin", "blue", "-o", tmp_path / "blue.png")
    assert p.returncode == 0, p.stderr
    assert "warning" not in p.stderr
    assert _blue_share(tmp_path / "blue.png") > 0.9
    p = qm("render", player, "--skin", "default", "-o", tmp_path / "default.png")
    assert p.returncode == 0, p.stderr
    assert _blue_share(tmp_path / "default.png") < 0.1
    # a set that is not there is named with the ones that are, and nothing is written
    p = qm("render", player, "--skin", "red", "-o", tmp_path / "red.png")
    assert p.returncode == 1
    assert f"no skin 'red' in {player}; skins: " in p.stderr
    assert not (tmp_path / "red.png").exists()
    # as export says it
    p = qm("export", player, "--skin", "red", "-o", tmp_path / "red.glb")
    assert p.returncode == 1 and f"no skin 'red' in {player}; skins: " in p.stderr


# -- 3. a sprite to a mesh format --------------------------------------------------------------


@pytest.mark.parametrize("out", ["x.glb", "x.gltf", "x.obj", "x.html"])
def test_sprite_export_to_a_mesh_format_is_refused_without_stray_files(
    tmp_path: Path, out: str
) -> None:
    # ``export x.spr -o x.glb`` wrote x_0.png ... x_5.png and exited 0; ``-o x.html`` said
    # "cannot give a mesh scene". Refused in plain words, nothing written.
    sprite = corpus("spr", "lq_s_explod.spr")
    p = qm("export", sprite, "-o", out, cwd=tmp_path)
    assert p.returncode == 2, p.stderr
    suffix = out[1:]
    assert (
        f"{sprite}: error: -o {out}: a Quake sprite is flat pictures with no mesh to write as"
        f" {suffix}; export writes its pictures as PNGs (-o x.png) or an animated GIF (-o x.gif)"
    ) in p.stderr
    assert "internal error" not in p.stderr
    assert files_in(tmp_path) == []
    # what it does write: the pictures, or a GIF
    p = qm("export", sprite, "-o", "x.gif", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert files_in(tmp_path) == ["x.gif"]


# -- 8. one warning per cause; a model with nothing to draw ----------------------------------


def test_a_player_without_textures_warns_once_per_cause(tmp_path: Path) -> None:
    # human_base without its PNGs printed one warning per surface (8 lines) on every render
    player = tmp_path / "guy"
    player.mkdir()
    source = corpus("q3", "models", "players", "human_base")
    for name in ("lower.md3", "upper.md3", "head.md3", "animation.cfg"):
        shutil.copyfile(source / name, player / name)
    expected = (
        f"{player}: warning: no texture found for 8 surfaces: lower.md3 'l_legs', lower.md3"
        " 'l_kneepads', upper.md3 'u_shoulderpads_base', upper.md3 'u_armour_light', upper.md3"
        " 'u_shoulderpads_light', upper.md3 'u_torso', head.md3 'h_head_base', head.md3"
        " 'h_head_helmet'"
    )
    for extra in ([], ["--legs", "LEGS_RUN", "--time", "0.1"], ["--legs", "LEGS_RUN"]):
        out = tmp_path / ("run.gif" if extra[-1:] == ["LEGS_RUN"] else "still.png")
        p = qm("render", player, "-o", out, *extra)
        assert p.returncode == 0, p.stderr
        warnings = [line for line in p.stderr.splitlines() if "warning" in line]
        assert warnings == [expected], extra
    # convert reports through the command's own warning printer: the same one line
    p = qm("convert", player, tmp_path / "guy.glb")
    assert p.returncode == 0, p.stderr
    warnings = [line for line in p.stderr.splitlines() if "warning" in line]
    assert warnings == [expected.replace(f"{player}: warning:", "quakemodels convert: warning:")]


def test_render_of_a_model_without_surfaces_says_so(tmp_path: Path) -> None:
    # an MD3 of tags only rendered a blank picture, exit 0, no word
    from md3builder import Md3Spec, build

    model = tmp_path / "tags.md3"
    model.write_bytes(build(Md3Spec(surfaces=[])))
    for extra in ([], ["--clip", "all"], ["--sheet"]):
        out = tmp_path / ("x.gif" if extra[:1] == ["--clip"] else "x.png")
        p = qm("render", model, "-o", out, *extra)
        assert p.returncode == 1, (extra, p.stderr)
        assert (
            f"{model}: error: nothing to draw: the model has no surfaces with triangles"
            " (2 tags only)"
        ) in p.stderr
    assert files_in(tmp_path) == ["tags.md3"]


# -- 7. check and render agree on skins --------------------------------------------------------


def test_check_finds_the_skins_render_and_export_find(tmp_path: Path) -> None:
    # check warned skin-missing for skins that render and export find by name through the
    # game's search path (a model in a pak, or in a game folder whose pak holds the skin)
    from archivebuilder import pak_bytes
    from md2builder import Md2Spec, build

    game = tmp_path / "baseq2"
    (game / "models" / "loose").mkdir(parents=True)
    png = SAMPLE.with_suffix(".png").read_bytes()
    found = build(Md2Spec(skins=[b"skins/body.png"]))
    lost = build(Md2Spec(skins=[b"skins/nowhere.png"]))
    (game / "pak0.pak").write_bytes(
        pak_bytes(
            [("models/in/tris.md2", found), ("models/lost/tris.md2", lost), ("skins/body.png", png)]
        )
    )
    (game / "models" / "loose" / "tris.md2").write_bytes(found)
    for model in (game / "pak0.pak" / "models" / "in" / "tris.md2", game / "models/loose/tris.md2"):
        p = qm("export", model, "-o", tmp_path / "x.glb")
        assert p.returncode == 0, p.stderr
        assert p.stdout.rstrip().endswith("skin: body.png)")
        p = qm("check", model)
        assert (p.returncode, p.stdout) == (0, f"{model}: ok [any]\n"), p.stderr
    # and a skin that is nowhere: export has none, check says so, once
    model = game / "pak0.pak" / "models" / "lost" / "tris.md2"
    p = qm("export", model, "-o", tmp_path / "x.glb")
    assert p.returncode == 0 and p.stdout.rstrip().endswith("skin: none)")
    p = qm("check", model)
    assert p.returncode == 0
    assert p.stdout.count("warning[skin-missing]") == 1
    assert "skins[0]='skins/nowhere.png'" in p.stdout
    # the whole pak: one verdict per model, the same two
    p = qm("check", game / "pak0.pak")
    assert p.stdout.count("warning[skin-missing]") == 1, p.stdout


# -- 6. skins kept into MD3, said when missing into MDL ----------------------------------------


def _coloured_share(png: Path) -> float:
    """The share of the picture's drawn pixels (not the background) that have a colour: a
    model drawn without its skin is shades of grey (0.0); quakeguy with its skin, 0.85."""
    import numpy as np
    from PIL import Image

    rgb = np.asarray(Image.open(png).convert("RGB")).astype(int)
    drawn = np.any(rgb != rgb[0, 0], axis=2)
    coloured = rgb.max(axis=2) - rgb.min(axis=2) > 16
    return float((coloured & drawn).sum() / drawn.sum())


def test_convert_to_md3_keeps_the_skin_and_into_mdl_says_when_there_is_none(
    sample: Path,
) -> None:
    # MD2 → MD3 into another folder wrote no skin: the MD3 rendered grey
    import io

    from archivebuilder import pak_bytes
    from PIL import Image

    folder = sample.parent
    p = qm("render", sample, "-o", folder / "md2.png")
    assert p.returncode == 0 and _coloured_share(folder / "md2.png") > 0.5
    p = qm("convert", sample, folder / "out" / "guy.md3")
    assert p.returncode == 0, p.stderr
    assert p.stdout.rstrip().endswith(
        "; skin quakeguy.png written as quakeguy.png, named quakeguy.png"
    )
    assert files_in(folder / "out") == ["guy.md3", "quakeguy.png"]
    assert (folder / "out" / "quakeguy.png").read_bytes() != b""
    p = qm("render", folder / "out" / "guy.md3", "-o", folder / "md3.png")
    assert p.returncode == 0 and "warning" not in p.stderr
    assert _coloured_share(folder / "md3.png") > 0.5
    # a game path to a PCX inside a pak: written as TGA beside the MD3, which finds it
    pcx = io.BytesIO()
    Image.open(SAMPLE.with_suffix(".png")).convert("P").save(pcx, "PCX")
    md2 = bytearray(SAMPLE.read_bytes())
    name = b"models/tank/skin.pcx"
    md2[68 : 68 + 64] = name.ljust(64, b"\0")  # ofs_skins: the one skin name
    (folder / "pak0.pak").write_bytes(
        pak_bytes([("models/tank/tris.md2", bytes(md2)), ("models/tank/skin.pcx", pcx.getvalue())])
    )
    p = qm(
        "convert", folder / "pak0.pak" / "models" / "tank" / "tris.md2", folder / "t" / "tank.md3"
    )
    assert p.returncode == 0, p.stderr
    assert "skin.pcx written as skin.tga, named models/tank/skin.pcx" in p.stdout
    assert files_in(folder / "t") == ["skin.tga", "tank.md3"]
    p = qm("render", folder / "t" / "tank.md3", "-o", folder / "tank.png")
    assert p.returncode == 0 and _coloured_share(folder / "tank.png") > 0.5
    # beside its skin already: the MD3 names it, nothing is written over it
    before = (folder / "quakeguy.png").read_bytes()
    p = qm("convert", sample, folder / "same.md3")
    assert p.returncode == 0 and "written as" not in p.stdout
    assert (folder / "quakeguy.png").read_bytes() == before
    # a model without a skin into MDL: one line says Quake draws its blank skin black
    p = qm("convert", folder / "same.md3", folder / "bare.mdl", "--skin-dir", folder / "t")
    assert p.returncode == 0
    warnings = [line for line in p.stderr.splitlines() if "warning" in line]
    assert warnings == [
        f"quakemodels convert: warning: {folder / 'same.md3'}: no skin image was found for it:"
        " bare.mdl gets a blank skin, which Quake draws black (give --skin IMAGE or --skin-dir"
        " DIR)"
    ]


# -- 9. --skin-dir inside an archive -----------------------------------------------------------


def test_skin_dir_inside_an_archive_is_accepted(tmp_path: Path) -> None:
    # ``--skin-dir x.pak/skins`` was refused as "does not exist", though model paths run
    # through archives
    import io

    from archivebuilder import pak_bytes
    from PIL import Image

    model = tmp_path / "guy.md2"  # names its skin quakeguy.png, which is not beside it
    shutil.copyfile(SAMPLE, model)
    blue = io.BytesIO()
    Image.new("RGB", (64, 64), (0, 0, 255)).save(blue, "PNG")
    pak = tmp_path / "skins.pak"
    pak.write_bytes(pak_bytes([("skins/quakeguy.png", blue.getvalue())]))
    skins = pak / "skins"
    p = qm("render", model, "--skin-dir", skins, "-o", tmp_path / "blue.png")
    assert p.returncode == 0, p.stderr
    assert "warning" not in p.stderr
    assert _blue_share(tmp_path / "blue.png") > 0.9
    p = qm("export", model, "--skin-dir", skins, "--skin", "quakeguy.png", "-o", tmp_path / "x.glb")
    assert p.returncode == 0, p.stderr
    assert p.stdout.rstrip().endswith("skin: quakeguy.png)")
    # a folder the archive does not have is still a typo, stopped at once
    p = qm("render", model, "--skin-dir", pak / "textures", "-o", tmp_path / "no.png")
    assert p.returncode == 2
    assert f"argument --skin-dir: {pak} has no folder 'textures'" in p.stderr
    assert not (tmp_path / "no.png").exists()


# -- 11. the docs' commands as written ---------------------------------------------------------


def _blocks(page: Path, language: str) -> list[str]:
    """The ```language blocks of a Markdown page, in order."""
    import re

    text = page.read_text(encoding="utf-8")
    return re.findall(rf"^```{language}\n(.*?)^```$", text, re.M | re.S)


@pytest.mark.parametrize("page", ["README.md", "docs/getting-started.md"])
def test_the_docs_commands_run_as_written_from_the_sample(
    page: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The README's ``convert tris.md2 tris.mdl --palette gfx/palette.lmp`` failed as pasted
    # (no such file), and Getting started copied the .md2 alone (as my_copy.md2), so its
    # next commands named a file it had not made and warned skin-missing. Here the page's
    # own copy step runs in an empty folder, then each command of its shell blocks, in
    # order (those naming baseq2/, the reader's game folder, aside): every one succeeds
    # without a warning.
    path = REPO / page
    copy = [b for b in _blocks(path, "python") if '"samples"' in b]
    assert len(copy) == 1, "the page says how to copy the sample"
    monkeypatch.chdir(tmp_path)
    exec(compile(copy[0], f"{page}: copy step", "exec"), {"__name__": "docs"})
    assert files_in(tmp_path) == ["quakeguy.png", "tris.md2"]
    commands = [
        line.split("  #")[0].strip()
        for block in _blocks(path, "sh")
        for line in block.splitlines()
        if line.startswith("quakemodels ")
    ]
    ran = 0
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    for command in commands:
        if "baseq2" in command or "baseq3" in command or "players/" in command:
            continue
        words = command.split()
        p = subprocess.run(
            [sys.executable, "-m", *words],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            env=env,
            timeout=300,
            stdin=subprocess.DEVNULL,
        )
        assert p.returncode == 0, f"{page}: {command}\n{p.stderr}"
        assert "warning" not in p.stderr, f"{page}: {command}\n{p.stderr}"
        ran += 1
    assert ran >= 4


# -- 10. the html export of a player frames the whole model ------------------------------------


def _pole_player(folder: Path) -> Path:
    """A player that stands as a thin pole 100 units tall: legs and torso 40 units each,
    a 20-unit head, one frame each, on their tags; every clip of animation.cfg frame 0."""
    import numpy as np

    from quakemodels.formats.md3 import Md3
    from quakemodels.formats.md3.write import SurfaceData, TagData

    folder.mkdir(parents=True)
    corners = np.array([(x, y, z) for x in (-2, 2) for y in (-2, 2) for z in (0, 1)], float)
    faces = [(0, 1, 3), (0, 3, 2), (4, 6, 7), (4, 7, 5), (0, 4, 5), (0, 5, 1)]
    faces += [(2, 3, 7), (2, 7, 6), (0, 2, 6), (0, 6, 4), (1, 5, 7), (1, 7, 3)]
    uv = np.zeros((8, 2))

    def tag(name: str, height: float) -> TagData:
        return TagData(name, np.array([[0.0, 0.0, height]]), np.eye(3)[None])

    parts = {
        "lower": (40.0, [tag("tag_torso", 40.0)]),
        "upper": (40.0, [tag("tag_head", 40.0), tag("tag_weapon", 20.0)]),
        "head": (20.0, []),
    }
    for part, (height, tags) in parts.items():
        positions = (corners * [1, 1, height])[None]
        surface = SurfaceData(f"{part[0]}_pole", positions, np.array(faces), uv)
        model = Md3.build([surface], tags=tags, name=f"models/players/pole/{part}.md3").model
        (folder / f"{part}.md3").write_bytes(model.data)
    (folder / "animation.cfg").write_text("sex m\n" + "0\t1\t0\t15\n" * 25)
    return folder


def _tools() -> tuple[Any, Any]:
    """tools/browser_render.py and tools/cdp.py; a skip (a failure under CI=true) without
    chromium."""
    import importlib

    from conftest import IN_CI

    sys.path.insert(0, str(REPO / "tools"))
    br = importlib.import_module("browser_render")
    cdp = importlib.import_module("cdp")
    if br.find_chromium() is None:
        why = f"chromium is not installed ({br.INSTALL}, or make browser-deps)"
        if IN_CI:
            pytest.fail(f"CI=true but {why}")
        pytest.skip(why)
    return br, cdp


def test_html_export_of_a_player_frames_the_whole_model(tmp_path: Path) -> None:
    # the page framed a sphere around the model's box at 0.9 of its size, so a tall, thin
    # player (the box's top corners near the picture's edge, seen from above) opened with
    # its head above the top edge
    import io
    import json

    import numpy as np
    from PIL import Image

    _, cdp = _tools()
    player = _pole_player(tmp_path / "pole")
    out = tmp_path / "pole.html"
    p = qm("export", player, "-o", out, "-q")
    assert p.returncode == 0, p.stderr
    with cdp.Browser() as browser:
        page = browser.new_page(1024, 640)
        page.goto(out.as_uri())
        page.wait_for("document.readyState === 'complete' && window.qm !== undefined")
        page.eval("qm.ready.then(() => true)", timeout=120)
        page.eval("qm.play(false); qm.toggle('tags', false); true")
        rect = json.loads(page.eval("JSON.stringify(document.querySelector('canvas')"
                                    ".getBoundingClientRect())"))  # fmt: skip
        shot = np.asarray(Image.open(io.BytesIO(page.screenshot())).convert("RGB")).astype(int)
        assert page.errors() == []
    left, top = round(rect["left"]) + 1, round(rect["top"]) + 1
    right, bottom = round(rect["right"]) - 1, round(rect["bottom"]) - 1
    canvas = shot[top:bottom, left:right]
    drawn = np.any(np.abs(canvas - canvas[0, 0]) > 8, axis=2)
    rows = np.flatnonzero(drawn.any(axis=1))
    columns = np.flatnonzero(drawn.any(axis=0))
    assert rows.size and columns.size
    height, width = drawn.shape
    # the whole pole in the picture, clear of every edge
    assert rows[0] > 0.02 * height and rows[-1] < 0.98 * height, (rows[0], rows[-1], height)
    assert columns[0] > 0.02 * width and columns[-1] < 0.98 * width
    # and large in it: it fills most of the height
    assert rows[-1] - rows[0] > 0.6 * height
