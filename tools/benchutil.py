"""Shared by the benchmark scripts: the repository on sys.path, the corpus, a median timer."""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO.parent / "shared" / "corpus"
if str(REPO / "src") not in sys.path:
    sys.path.insert(0, str(REPO / "src"))


def timed(
    fn: Callable[[], object],
    budget: float = 0.3,
    min_runs: int = 5,
    clock: Callable[[], float] = time.process_time,
) -> float:
    """Median seconds of ``fn`` over repeated runs within about ``budget`` seconds, by
    ``clock``: CPU time of this process by default (on a shared machine, the time other
    processes hold the cores is not counted); ``time.perf_counter`` for wall time, to compare
    with a peer that can only be timed by the wall clock (three.js in node)."""
    times: list[float] = []
    start = clock()
    while len(times) < min_runs or clock() - start < budget:
        t0 = clock()
        fn()
        times.append(clock() - t0)
        if len(times) >= 2000:
            break
    return statistics.median(times)


def raced(
    fns: dict[str, Callable[[], object]], budget: float = 0.4, min_rounds: int = 7
) -> dict[str, float]:
    """Median seconds of each of ``fns``, run interleaved round by round (each round runs
    every function once, in turn) within about ``budget`` seconds: load on a shared machine
    then hits them alike, so their ratio holds even when the absolute times move. For numpy
    work against numpy work (a load and its floor); a peer that churns the caches differently
    (vgio's Python objects, assimp's C++ heap) slows whatever runs after it, so peers are
    timed on their own, one after the other (:func:`timed`)."""
    times: dict[str, list[float]] = {name: [] for name in fns}
    start = time.process_time()
    rounds = 0
    while rounds < min_rounds or time.process_time() - start < budget:
        for name, fn in fns.items():
            t0 = time.process_time()
            fn()
            times[name].append(time.process_time() - t0)
        rounds += 1
        if rounds >= 2000:
            break
    return {name: statistics.median(values) for name, values in times.items()}
