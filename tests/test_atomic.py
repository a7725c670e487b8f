"""Atomic output: a failed write leaves the old file and no temporary behind."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from quakemodels.core.atomic import atomic_output, sweep, write_bytes_atomic


def test_new_file_gets_normal_permissions_without_touching_the_umask(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mask = os.umask(0o027)
    os.umask(0o027)
    try:
        calls: list[int] = []

        def umask(m: int) -> int:
            calls.append(m)
            return 0

        monkeypatch.setattr(os, "umask", umask)
        target = tmp_path / "out.bin"
        write_bytes_atomic(target, b"new")
        assert calls == []  # the process umask is never changed, not even briefly
    finally:
        monkeypatch.undo()
        os.umask(mask)
    assert target.read_bytes() == b"new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.bin"]


def test_rewrite_keeps_the_target_mode(tmp_path: Path) -> None:
    """Finding 9: a 0600 target stayed 0600 only until it was rewritten."""
    target = tmp_path / "private.glb"
    target.write_bytes(b"old")
    target.chmod(0o600)
    write_bytes_atomic(target, b"new")
    assert target.read_bytes() == b"new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o600


_KILLED_WRITER = """
import os, sys, time
from quakemodels.core.atomic import atomic_output
with atomic_output(sys.argv[1]) as f:
    f.write(b"x" * 1000)
    f.flush()
    print("writing", flush=True)
    time.sleep(60)
"""


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL])
def test_killed_writer_leaves_nothing_behind(tmp_path: Path, sig: int) -> None:
    """SIGTERM: the temporary file is removed by the dying writer (exit by the signal, as
    unhandled). SIGKILL: it stays, and the next write into the folder sweeps it."""
    target = tmp_path / "out.glb"
    target.write_bytes(b"keep")
    proc = subprocess.Popen(
        [sys.executable, "-c", _KILLED_WRITER, str(target)], stdout=subprocess.PIPE
    )
    assert proc.stdout is not None and proc.stdout.readline() == b"writing\n"
    temps = [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    assert len(temps) == 1 and temps[0].startswith(f".out.glb.{proc.pid}.")
    proc.send_signal(sig)
    assert proc.wait(timeout=30) == -sig
    assert target.read_bytes() == b"keep"
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == (["out.glb"] if sig == signal.SIGTERM else sorted(["out.glb", temps[0]]))
    # the next write into the same folder (another process, as a new run would be) sweeps it
    code = "import sys; from quakemodels.core.atomic import write_bytes_atomic as w;"
    code += " w(sys.argv[1], b'n')"
    subprocess.run([sys.executable, "-c", code, str(tmp_path / "other.bin")], check=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.bin", "out.glb"]


def test_sweep_spares_live_and_foreign_files(tmp_path: Path) -> None:
    mine = tmp_path / f".a.bin.{os.getpid()}.0123abcd.tmp"  # ours, not being written: stale
    alive = tmp_path / f".b.bin.{os.getppid()}.0123abcd.tmp"  # a live process's
    other = tmp_path / ".c.bin.tmp"  # not our naming
    for p in (mine, alive, other):
        p.write_bytes(b"")
    assert sweep(tmp_path) == [mine.name]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([alive.name, other.name])


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


def test_fsync_only_when_replacing_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    synced: list[int] = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real_fsync(fd))[1])
    target = tmp_path / "a.bin"
    write_bytes_atomic(target, b"first")  # a new file: nothing of the user's at stake
    assert synced == [] and target.read_bytes() == b"first"
    write_bytes_atomic(target, b"second")  # replacing: the new bytes are on disk first
    assert len(synced) == 1 and target.read_bytes() == b"second"


_THREAD_FIRST = """
import signal, sys, threading
from quakemodels.core import atomic
t = threading.Thread(target=atomic.write_bytes_atomic, args=(sys.argv[1] + "/a.bin", b"a"))
t.start(); t.join()
print(signal.getsignal(signal.SIGTERM) is signal.SIG_DFL, atomic._HANDLER_INSTALLED)
atomic.write_bytes_atomic(sys.argv[1] + "/b.bin", b"b")
print(signal.getsignal(signal.SIGTERM) is atomic._on_sigterm, atomic._HANDLER_INSTALLED)
"""


def test_a_first_write_from_a_thread_leaves_the_handler_to_the_main_thread(
    tmp_path: Path,
) -> None:
    """Python sets signal handlers from the main thread only: a write from another thread
    writes its file and installs nothing, and the main thread's first write installs it."""
    done = subprocess.run(
        [sys.executable, "-c", _THREAD_FIRST, str(tmp_path)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.split() == ["True", "False", "True", "True"], done.stderr
    assert (tmp_path / "a.bin").read_bytes() == b"a" and (tmp_path / "b.bin").read_bytes() == b"b"
