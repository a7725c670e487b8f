"""Every ```python block of README.md runs as written (imports included), in a folder holding
the files it names, and never writes over one of them.

The files are made from the bundled sample (``tris.md2`` is quakeguy.md2, ``upper.md3`` and
``player.mdl`` are converted from it, ``baseq2/pak0.pak`` holds it) or, for the Quake III
player blocks, copied from the corpus's ``human_bsuit`` (those skip without the corpus, and
must run under CI=true). Each block runs in a fresh namespace, so a name it uses without
defining or importing it fails here as it would for a reader.
"""

from __future__ import annotations

import hashlib
import io
import re
import shutil
import warnings
import zipfile
from pathlib import Path

import pytest
from archivebuilder import pak_bytes
from conftest import CORPUS, IN_CI, REPO
from PIL import Image

import quakemodels
from quakemodels.registry import scene

SAMPLE = REPO / "src" / "quakemodels" / "samples" / "quakeguy.md2"
PALETTE = REPO / "src" / "quakemodels" / "core" / "palette.lmp"
BSUIT = CORPUS / "q3" / "models" / "players" / "human_bsuit"


def readme_blocks() -> list[tuple[int, str]]:
    """(line number, code) of every ```python block in README.md."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    blocks = []
    for found in re.finditer(r"^```python\n(.*?)^```$", text, re.M | re.S):
        line = text.count("\n", 0, found.start()) + 2  # the block's first line of code
        blocks.append((line, found.group(1)))
    return blocks


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
    quakemodels.Mdl.from_model(md2).model.save(folder / "player.mdl")
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


BLOCKS = readme_blocks()


def test_the_readme_has_python_blocks_to_run() -> None:
    assert len(BLOCKS) >= 9
    assert any(needs_corpus(code) for _, code in BLOCKS)


@pytest.mark.parametrize(("line", "code"), BLOCKS, ids=[f"README.md:{line}" for line, _ in BLOCKS])
def test_readme_block_runs_and_leaves_its_inputs_alone(
    line: str, code: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sample_files(tmp_path)
    if needs_corpus(code):
        if not BSUIT.is_dir():
            if IN_CI:
                pytest.fail(f"CI=true but the corpus player {BSUIT} is missing")
            pytest.skip(f"corpus not found at {CORPUS} (set CI=true to require it)")
        player_files(tmp_path)
    before = hashes(tmp_path)
    monkeypatch.chdir(tmp_path)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a snippet may warn (a skin not found); it must run
        exec(compile(code, f"README.md:{line}", "exec"), {"__name__": "readme"})
    after = hashes(tmp_path)
    changed = sorted(name for name, digest in before.items() if after.get(name) != digest)
    assert changed == [], f"README.md:{line} wrote over its input files {changed}"
