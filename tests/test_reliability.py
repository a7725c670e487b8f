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

