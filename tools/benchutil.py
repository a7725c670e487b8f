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


def timed(fn: Callable[[], object], budget: float = 0.3, min_runs: int = 5) -> float:
    """Median seconds of ``fn`` over repeated runs within about ``budget`` seconds."""
    times: list[float] = []
    start = time.perf_counter()
    while len(times) < min_runs or time.perf_counter() - start < budget:
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
        if len(times) >= 2000:
            break
    return statistics.median(times)
