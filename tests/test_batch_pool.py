"""The batch pool on Linux: forked workers fed chunks through pipes (cli/batch.py). A worker
that dies fails its chunk while the others go on; a caller that stops early leaves no worker
behind."""

from __future__ import annotations

import gc
import os
from pathlib import Path
from typing import Any

import pytest

from quakemodels.cli import batch
from quakemodels.cli.batch import Outcome, Progress, iter_outcomes

pytestmark = pytest.mark.skipif(not batch._can_fork(), reason="the forked pool is Linux-only")


def _works_unless_told(path: str, options: dict[str, Any]) -> list[str]:
    if path == options["die_on"]:
        os._exit(3)  # as a worker killed mid-job
    return [f"{path} done by {os.getpid()}"]


def _children() -> list[int]:
    """This process's live child processes (from /proc)."""
    pids = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == os.getpid() and fields[0] != "Z":
            pids.append(int(stat.parent.name))
    return pids


def test_a_dead_worker_fails_its_chunk_and_the_others_go_on() -> None:
    files = [f"model{k}" for k in range(8)]  # no such files: one per chunk, in this order
    before = _children()
    outcomes = list(iter_outcomes(files, _works_unless_told, {"die_on": "model2"}, 2, Progress(8)))
    assert sorted(o.path for o in outcomes) == files
    dead = [o for o in outcomes if not o.ok]
    assert [(o.path, o.error) for o in dead] == [
        ("model2", "worker failed: exited with status 3 (EOFError)")
    ]
    done = {o.path: o.lines[0].rsplit(" ", 1)[1] for o in outcomes if o.ok}
    assert len(done) == 7 and len(set(done.values())) == 2  # both workers worked
    assert str(os.getpid()) not in done.values()  # not in this process
    assert _children() == before


def test_every_worker_dead_fails_the_rest() -> None:
    files = [f"model{k}" for k in range(4)]
    outcomes = list(iter_outcomes(files, _die_always, {}, 2, Progress(4)))
    assert sorted(o.path for o in outcomes) == files
    assert {o.error for o in outcomes} == {"worker failed: exited with status 5 (EOFError)"}


def _die_always(path: str, options: dict[str, Any]) -> list[str]:
    os._exit(5)


def test_a_caller_stopping_early_leaves_no_worker() -> None:
    files = [f"model{k}" for k in range(16)]
    before = _children()
    outcomes = iter_outcomes(files, _works_unless_told, {"die_on": ""}, 2, Progress(16))
    first: Outcome = next(outcomes)
    assert first.ok and first.path in files[:4]  # from one of the two first chunks
    outcomes.close()  # as `info` does when stdout closes: the workers are stopped and reaped
    assert _children() == before


def _frozen_count(path: str, options: dict[str, Any]) -> list[str]:
    return [f"{path} frozen {gc.get_freeze_count()}"]


def test_workers_inherit_a_frozen_heap_and_the_parent_gets_it_back() -> None:
    # the workers' collector leaves every inherited object alone (no page copied to scan it);
    # the parent's objects are collectable again once the workers exist
    assert gc.get_freeze_count() == 0
    inherited = len(gc.get_objects())
    outcomes = list(iter_outcomes(["a", "b", "c", "d"], _frozen_count, {}, 2, Progress(4)))
    counts = [int(o.lines[0].rsplit(" ", 1)[1]) for o in outcomes]
    assert len(counts) == 4 and min(counts) >= inherited // 2
    assert gc.get_freeze_count() == 0
