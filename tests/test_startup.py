"""Start-up stays light: the package and the command line import no glTF or image library
(and no process pool) before a verb needs one. ``make importtime`` prints the same figures."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO

HEAVY = ("pygltflib", "PIL", "concurrent", "multiprocessing", "numpy.ma")


def imported_modules(code: str) -> list[str]:
    """Every module ``python -X importtime -c code`` imports, in order."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", code],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return [
        line.rsplit("|", 1)[1].strip()
        for line in done.stderr.splitlines()
        if line.startswith("import time:") and "|" in line and "imported package" not in line
    ]


@pytest.mark.parametrize(
    "code",
    [
        "import quakemodels",
        "import quakemodels.cli",
        "import sys; from quakemodels.cli import main; sys.exit(main(['--help']))",
        "import sys; from quakemodels.cli import main; sys.exit(main(['export', '--help']))",
    ],
)
def test_no_heavy_module_at_start_up(code: str) -> None:
    modules = imported_modules(code)
    assert "quakemodels" in modules and "numpy" in modules  # the measurement works
    heavy = [m for m in modules if m.split(".")[0] in HEAVY or m in HEAVY]
    assert heavy == [], f"{code!r} imports {heavy}"


def test_one_file_info_imports_no_export_library() -> None:
    code = (
        "import sys; from quakemodels.cli import main;"
        f" sys.exit(main(['info', {str(REPO / 'src/quakemodels/samples/quakeguy.md2')!r}]))"
    )
    modules = imported_modules(code)
    assert not [m for m in modules if m.split(".")[0] in ("pygltflib", "PIL", "concurrent")]


def test_md2_export_with_a_pcx_skin_imports_no_image_library(
    corpus_dir: Path, tmp_path: Path
) -> None:
    """The PCX skin decodes with numpy and the glTF is plain JSON: no Pillow, no pygltflib,
    no archive readers, and only the export verb's module of the command line."""
    out = tmp_path / "drfreak.glb"
    model = corpus_dir / "md2" / "ppm_drfreak.md2"
    code = (
        "import sys; from quakemodels.cli import main;"
        f" sys.exit(main(['export', {str(model)!r}, '-o', {str(out)!r}, '--quiet']))"
    )
    modules = imported_modules(code)
    assert out.read_bytes()[:4] == b"glTF"
    assert not [m for m in modules if m.split(".")[0] in ("pygltflib", "PIL", "zipfile")]
    others = {f"quakemodels.cli.{verb}" for verb in ("info", "check", "convert", "render", "ls")}
    assert "quakemodels.cli.batch" in modules and not others & set(modules)
