"""The release's facts kept in one place: the version is written once (quakemodels.__version__,
read by setuptools), and ``quakemodels --version`` prints it with the mesh path that runs.
Building and installing the artifacts is ``make release-check`` (tools/release_check.sh)."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from conftest import REPO

import quakemodels


def test_the_version_is_written_once_and_setuptools_reads_it() -> None:
    tomllib = pytest.importorskip("tomllib")
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in pyproject["project"]
    assert pyproject["project"]["dynamic"] == ["version"]
    dynamic = pyproject["tool"]["setuptools"]["dynamic"]["version"]
    assert dynamic == {"attr": "quakemodels.__version__"}
    assert re.fullmatch(r"\d+\.\d+\.\d+", quakemodels.__version__)
    # setuptools reads the literal without importing the package (its static path)
    init = (REPO / "src/quakemodels/__init__.py").read_text(encoding="utf-8")
    assert f'\n__version__ = "{quakemodels.__version__}"\n' in init


def test_version_option_prints_the_version_and_the_mesh_path() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "quakemodels", "--version"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0 and done.stderr == ""
    from quakemodels.core.mesh import WELD

    path = "compiled weld" if WELD is not None else "numpy only: "
    assert done.stdout.startswith(f"quakemodels {quakemodels.__version__} ({path}")
