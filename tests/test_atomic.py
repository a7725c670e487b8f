"""Atomic output: a failed write leaves the old file and no temporary behind."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from quakemodels.core.atomic import atomic_output, write_bytes_atomic


def test_replaces_on_success_with_normal_permissions(tmp_path: Path) -> None:
    target = tmp_path / "out.bin"
    target.write_bytes(b"old")
    write_bytes_atomic(target, b"new")
    assert target.read_bytes() == b"new"
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~mask
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.bin"]


def test_failure_keeps_the_old_file_and_leaves_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    target.write_text("good")
    with pytest.raises(RuntimeError, match="boom"), atomic_output(target, "w") as f:
        f.write("partial")  # type: ignore[arg-type]
        raise RuntimeError("boom")
    assert target.read_text() == "good"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]


def test_failure_creates_nothing_when_there_was_nothing(tmp_path: Path) -> None:
    with pytest.raises(KeyboardInterrupt), atomic_output(tmp_path / "new.bin") as f:
        f.write(b"half")
        raise KeyboardInterrupt
    assert list(tmp_path.iterdir()) == []
