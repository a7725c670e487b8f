"""Every example of README.md and of the documentation site (docs/**/*.md) runs as written.

Blocks are found and evaluated with Sybil:

- ```python blocks run in a fresh namespace each (imports included: a name a block uses
  without defining or importing it fails here as it would for a reader);
- ```sh blocks run with ``bash -e`` (every command must succeed), ``quakemodels`` on PATH;
- ```console blocks are what a reader types in the checkout (``make demo``, ``pip install .``):
  not run, but every ``make`` target they name must be a target of the Makefile.

Each runs in a fresh folder holding the files the examples name, made from the bundled sample
(``tris.md2`` is quakeguy.md2, ``upper.md3`` and ``player.mdl`` are converted from it,
``baseq2/pak0.pak`` holds it; ``knight.glb`` and ``lying.glb`` are the Blender-made
fixtures ``rigged.glb`` and ``zup.glb``) or, for the blocks that name ``baseq3``, copied
from the corpus's ``human_bsuit`` (those skip without the corpus, and must run under
CI=true); none may write over one of those files.
"""

from __future__ import annotations

import hashlib
import io
import os
import re
import shutil
import subprocess
import sys
import warnings
import zipfile
from pathlib import Path
from typing import Any

import pytest
from archivebuilder import pak_bytes
from conftest import CORPUS, IN_CI, REPO
from PIL import Image
from sybil import Example, Sybil
from sybil.parsers.markdown import CodeBlockParser, PythonCodeBlockParser

import quakemodels
from quakemodels.registry import scene

SAMPLE = REPO / "src" / "quakemodels" / "samples" / "quakeguy.md2"
PALETTE = REPO / "src" / "quakemodels" / "core" / "palette.lmp"
BSUIT = CORPUS / "q3" / "models" / "players" / "human_bsuit"
DOCUMENTS = [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]
BIN = Path(sys.executable).parent  # the venv's scripts: its `quakemodels`
CONSOLE_LINE = re.compile(r"^(make [a-z-]+( [A-Z_]+=\S+)*|pip install \S+|\$EDITOR \S+)\s*(#.*)?$")


def _run_python(example: Example) -> None:
    code = example.parsed
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a snippet may warn (a skin not found); it must run
        exec(compile(code, f"{example.path}:{example.line}", "exec"), {"__name__": "docs"})


def _run_sh(example: Example) -> None:
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    env.pop("COLUMNS", None)
    done = subprocess.run(
        ["bash", "-e", "-o", "pipefail", "-c", example.parsed],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, (
        f"{example.path}:{example.line} exited {done.returncode}\n{done.stdout}\n{done.stderr}"
    )


def _check_console(example: Example) -> None:
    targets = set(
        re.findall(r"^([a-z][a-z-]*):", (REPO / "Makefile").read_text(encoding="utf-8"), re.M)
    )
    for line in example.parsed.splitlines():
        if not line.strip():
            continue
        assert CONSOLE_LINE.match(line), f"{example.path}:{example.line}: not a checkout command"
        if line.startswith("make "):
            target = line.split()[1]
            assert target in targets, f"{example.path}:{example.line}: no make target {target}"


SYBIL = Sybil(
    parsers=[
        PythonCodeBlockParser(),
        CodeBlockParser(language="sh", evaluator=_run_sh),
        CodeBlockParser(language="console", evaluator=_check_console),
    ]
)


def _examples() -> list[Any]:
    params = []
    for path in DOCUMENTS:
        for example in SYBIL.parse(path):
            source = example.region.lexemes.get("source", "")
            language = example.region.lexemes.get("arguments", "python").split()[0]
            name = f"{path.relative_to(REPO)}:{example.line}"
            params.append(pytest.param(example, language, source, id=name))
    return params


EXAMPLES = _examples()


def needs_corpus(code: str) -> bool:
    """The Quake III player blocks: their player comes from the corpus."""
    return "baseq3" in code


def hashes(folder: Path) -> dict[str, str]:
    """sha256 of every file below ``folder`` (symlinks followed), by relative path."""
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def sample_files(folder: Path) -> None:
    """What the blocks without a player read, made from the bundled sample."""
    md2 = quakemodels.load(SAMPLE, quakemodels.Md2)
    shutil.copyfile(SAMPLE, folder / "tris.md2")
    shutil.copyfile(SAMPLE.with_suffix(".png"), folder / "quakeguy.png")  # its skin
    quakemodels.Md3.from_scene(scene(md2)).model.save(folder / "upper.md3")
    quakemodels.Mdl.from_quantized(md2.quantized()).model.save(folder / "player.mdl")
    (folder / "gfx").mkdir()
    shutil.copyfile(PALETTE, folder / "gfx" / "palette.lmp")
    pcx = io.BytesIO()
    Image.open(SAMPLE.with_suffix(".png")).convert("P").save(pcx, "PCX")
    (folder / "baseq2").mkdir()
    (folder / "baseq2" / "pak0.pak").write_bytes(
        pak_bytes(
            [
                ("models/monsters/tank/tris.md2", SAMPLE.read_bytes()),
                ("models/monsters/tank/skin.pcx", pcx.getvalue()),
            ]
        )
    )
    (folder / "mymod").mkdir()
    # a model made in Blender (a rig with two actions) and one exported Z-up
    authoring = REPO / "tests" / "fixtures" / "authoring"
    shutil.copyfile(authoring / "rigged.glb", folder / "knight.glb")
    shutil.copyfile(authoring / "zup.glb", folder / "lying.glb")


def player_files(folder: Path) -> None:
    """A Quake III game folder: human_bsuit loose, and again as ``sarge`` in ``pak0.pk3``;
    ``work/sarge`` holds its animation.cfg only (the rest comes from the game)."""
    base = folder / "baseq3"
    shutil.copytree(BSUIT, base / "models" / "players" / "human_bsuit")
    with zipfile.ZipFile(base / "pak0.pk3", "w") as pk3:
        for f in sorted(BSUIT.iterdir()):
            pk3.write(f, f"models/players/sarge/{f.name}")
    (folder / "work" / "sarge").mkdir(parents=True)
    shutil.copyfile(BSUIT / "animation.cfg", folder / "work" / "sarge" / "animation.cfg")


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample files, made once; each example gets its own copy."""
    folder = tmp_path_factory.mktemp("template")
    sample_files(folder)
    return folder


def test_the_readme_and_the_site_have_examples_to_run() -> None:
    readme = [p for p in EXAMPLES if p.id.startswith("README.md:")]
    python = [p for p in readme if p.values[1] == "python"]
    assert len(python) >= 1
    assert any(p.values[1] == "sh" for p in readme)
    site = [p for p in EXAMPLES if p.id.startswith("docs/")]
    assert sum(p.values[1] == "python" for p in site) >= 9
    assert sum(p.values[1] == "sh" for p in site) >= 9
    assert any(needs_corpus(p.values[2]) for p in site)


@pytest.mark.parametrize(("example", "language", "source"), EXAMPLES)
def test_example_runs_and_leaves_its_inputs_alone(
    example: Example,
    language: str,
    source: str,
    template: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if language not in ("python", "sh", "console"):
        pytest.fail(f"unexpected block language {language}")
    folder = tmp_path / "work"
    shutil.copytree(template, folder)
    if needs_corpus(source):
        if not BSUIT.is_dir():
            if IN_CI:
                pytest.fail(f"CI=true but the corpus player {BSUIT} is missing")
            pytest.skip(f"corpus not found at {CORPUS} (set CI=true to require it)")
        player_files(folder)
    before = hashes(folder)
    monkeypatch.chdir(folder)
    evaluator = {"python": _run_python, "sh": _run_sh, "console": _check_console}[language]
    evaluator(example)
    after = hashes(folder)
    changed = sorted(name for name, digest in before.items() if after.get(name) != digest)
    assert changed == [], f"{example.path}:{example.line} wrote over its input files {changed}"


def test_every_block_is_run_or_says_why_not() -> None:
    # python and sh blocks run, console blocks are checked; text and javascript are shown only
    # (transcripts, byte layouts, a browser's code), so a ```bash or an untagged block is an
    # error: it would silently escape the runs above
    allowed = {"python", "sh", "console", "text", "javascript"}
    for path in DOCUMENTS:
        inside = False
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.startswith("```"):
                continue
            if not inside:
                language = line[3:].strip()
                assert language in allowed, f"{path.relative_to(REPO)}:{number}: ```{language}"
            inside = not inside
