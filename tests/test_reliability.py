"""The reliability findings of issue #37 (item 4), each through a real process and bounded:
a full stdout, special files, renders above the memory budget, the viewer under slow
clients, the weld under UBSan, an export from inside an archive, a large extraction."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SAMPLE = REPO / "src" / "quakemodels" / "samples" / "quakeguy.md2"


def qm(*args: str | Path, timeout: float = 120, **kw: object) -> subprocess.CompletedProcess[str]:
    """``python -m quakemodels ARGS`` (the console script's path), output captured as text."""
    return subprocess.run(
        [sys.executable, "-m", "quakemodels", *map(str, args)],
        capture_output=True,
        text=True,
        errors="replace",
        timeout=timeout,
        check=False,
        **kw,  # type: ignore[arg-type]
    )


# -- a full stdout ------------------------------------------------------------------------------


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full on this system")
@pytest.mark.parametrize(
    "args",
    [("info", SAMPLE), ("dump", SAMPLE, "-o", "-"), ("export", SAMPLE, "-o", "-")],
    ids=["info", "dump", "export"],
)
def test_a_full_stdout_is_one_line_and_exit_3(args: tuple[str | Path, ...]) -> None:
    """``> /dev/full``: every write fails with ENOSPC. It printed a traceback (exit 1); now
    one line naming stdout and the reason, and exit 3 (an output failure, as a full disk under
    ``-o FILE`` is)."""
    with open("/dev/full", "wb") as full:
        p = subprocess.run(
            [sys.executable, "-m", "quakemodels", *map(str, args)],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            check=False,
        )
    assert p.returncode == 3, p.stderr
    assert p.stderr.splitlines() == [
        f"quakemodels {args[0]}: error: cannot write stdout: No space left on device"
    ]


# -- view of a path that cannot be shown ----------------------------------------------------------


@pytest.mark.parametrize("kind", ["missing", "truncated"])
def test_view_of_a_model_that_cannot_open_exits_1_at_once(tmp_path: Path, kind: str) -> None:
    """``view missing.md2 --no-browser`` printed the error, then served the page until
    killed (this test's timeout); now it says why and ends with exit 1, serving nothing."""
    path = tmp_path / f"{kind}.md2"
    if kind == "truncated":
        path.write_bytes(SAMPLE.read_bytes()[:300])
    p = qm("view", path, "--no-browser", timeout=30)
    assert p.returncode == 1
    assert p.stdout == ""  # no URL: nothing was served
    expected = {
        "missing": "No such file or directory",
        "truncated": "ofs_triangles=220 at offset 52: 72 triangles × 12 bytes from offset 220"
        " run past the end of the file (300 bytes)",
    }[kind]
    assert p.stderr.splitlines() == [f"{path}: error: {expected}"]
