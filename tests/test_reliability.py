"""The reliability findings of issue #37 (item 4), each through a real process and bounded:
a full stdout, special files, renders above the memory budget, the viewer under slow
clients, the weld under UBSan, an export from inside an archive, a large extraction."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from collections.abc import Callable
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


# -- special files --------------------------------------------------------------------------------


def _limit_address_space(limit: int) -> Callable[[], None]:
    """A ``preexec_fn`` that caps the child's address space at ``limit`` bytes."""

    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    return apply


SPECIAL_VERBS = [
    ("info",),
    ("check",),
    ("dump",),
    ("render", "-o", "{out}/"),
    ("export", "-o", "{out}/"),
    ("ls",),
    ("extract", "-o", "{out}/"),
    ("view", "--no-browser"),
]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
@pytest.mark.parametrize("verb", SPECIAL_VERBS, ids=[v[0] for v in SPECIAL_VERBS])
def test_special_files_are_refused_without_blocking_or_reading(
    tmp_path: Path, kind: str, verb: tuple[str, ...]
) -> None:
    """A FIFO with no writer blocked ``info`` forever; ``info /dev/zero`` read 1.95 GB before
    failing. Every verb that opens a path now opens it without blocking and refuses what is
    not a regular file on the open descriptor: exit 1 within seconds, under a 1 GiB address
    space (a read of /dev/zero would exhaust it), one message naming the kind of file."""
    if kind == "fifo":
        path = tmp_path / "pipe.md2"
        os.mkfifo(path)
        what = "a FIFO"
    else:
        path = Path("/dev/zero")
        if not path.exists():
            pytest.skip("no /dev/zero on this system")
        what = "a character device"
    args = [a.format(out=tmp_path / "out") for a in verb[1:]]
    p = subprocess.run(
        [sys.executable, "-m", "quakemodels", verb[0], str(path), *args],
        capture_output=True,
        text=True,
        timeout=30,  # a blocked open or an endless read ends here, and the test fails
        preexec_fn=_limit_address_space(1 << 30),
        check=False,
    )
    assert p.returncode == 1, p.stderr
    assert "Traceback" not in p.stderr and "MemoryError" not in p.stderr
    said = p.stdout + p.stderr  # check reports on stdout
    assert f"{path} is {what}, not a regular file" in said or (
        f"{path}: cannot open: {what}, not a regular file" in said
    ), said
    assert p.stdout.count("\n") <= 2  # check's report of the one finding, nothing read


# -- renders above the memory budget --------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "what", "gib"),
    [
        (("-o", "{out}/a.png", "--size", "8192x8192"), "a 8192x8192 picture", 20.6),
        (
            ("-o", "{out}/a.gif", "--clip", "stand", "--size", "8000x8000"),
            "40 pictures of 8000x8000",
            29.0,
        ),
        (
            ("-o", "{out}/a.png", "--sheet", "--size", "8192x8192"),
            "a 40960x32824 contact sheet of 8192x8192 cells",
            24.4,
        ),
    ],
    ids=["size", "clip", "sheet"],
)
def test_a_render_over_the_memory_budget_is_refused_naming_its_size(
    tmp_path: Path, args: tuple[str, ...], what: str, gib: float
) -> None:
    """``render --size 8192x8192`` grew to 4.2 GB and ended in "internal error: MemoryError";
    ``--sheet`` at 8192 failed with an empty message. Now the render's memory is estimated
    before anything is allocated (interchange/render.py ``render_bytes``) and a render over the
    2 GiB budget is one line naming the size, exit 1, within a 3 GiB address space."""
    argv = [a.format(out=tmp_path) for a in args]
    p = subprocess.run(
        [sys.executable, "-m", "quakemodels", "render", str(SAMPLE), *argv],
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=_limit_address_space(3 << 30),
        check=False,
    )
    assert p.returncode == 1
    assert p.stderr.splitlines() == [
        f"{SAMPLE}: error: {what} would need about {gib} GiB, over the 2 GiB a render may"
        " use: ask for a smaller size",
        "1 file: 0 ok, 1 failed",
    ]
    assert list(tmp_path.iterdir()) == []


def test_a_render_under_the_budget_still_runs(tmp_path: Path) -> None:
    """The budget leaves room for large pictures: 1024x1024 renders (0.74 GiB estimated)."""
    from PIL import Image

    from quakemodels.interchange.render import MEMORY_BUDGET, render_bytes

    assert render_bytes((1024, 1024)) < MEMORY_BUDGET < render_bytes((3072, 3072))
    p = qm("render", SAMPLE, "-o", tmp_path / "a.png", "--size", "1024x1024")
    assert p.returncode == 0, p.stderr
    with Image.open(tmp_path / "a.png") as img:
        assert img.size == (1024, 1024)
