"""Start-up stays light: the package and the command line import no glTF or image library
(and no process pool) before a verb needs one. ``make importtime`` prints the same figures."""

from __future__ import annotations

import subprocess
import sys

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
