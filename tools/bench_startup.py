"""Benchmark: start-up of light commands against Python's own floor (``make bench`` runs it).

    python tools/bench_startup.py [--rounds N]

Each row runs two fresh processes, the command and its floor, interleaved round by round
(load on a shared machine hits both alike), and prints their median wall times and ratio:

  ls x.pk3    ``quakemodels ls`` of a corpus pk3      vs  ``python -c`` zipfile's listing of it
  --help      ``quakemodels --help``                  vs  ``python -c pass``
  export      ``quakemodels export`` sample MD2 → glb  vs  ``python -c "import numpy"``

Bytecode is written and used as an install would (PYTHONDONTWRITEBYTECODE dropped; one warm-up
run of each first).

Targets (issue #39): ls <= 1.5x, --help <= 3x, export <= 1.3x.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from benchutil import CORPUS, REPO

SAMPLE = REPO / "src" / "quakemodels" / "samples" / "quakeguy.md2"
PK3 = CORPUS / "archives" / "cge_jkm_oaktree.pk3"


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # CI sets it; an installed package has its .pyc
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO / "src"), env.get("PYTHONPATH")]))
    return env


def wall(argv: Sequence[str], env: dict[str, str]) -> float:
    t0 = time.perf_counter()
    subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t0


def raced_walls(pair: dict[str, list[str]], rounds: int) -> dict[str, float]:
    """Median wall seconds of each command, run in turn round by round (after one warm-up)."""
    env = _env()
    times: dict[str, list[float]] = {name: [] for name in pair}
    for argv in pair.values():
        wall(argv, env)
    for _ in range(rounds):
        for name, argv in pair.items():
            times[name].append(wall(argv, env))
    return {name: statistics.median(t) for name, t in times.items()}


def rows(rounds: int = 15) -> list[str]:
    py = sys.executable
    qm = [py, "-m", "quakemodels"]
    with tempfile.TemporaryDirectory() as tmp:
        cases: list[tuple[str, list[str], str, list[str], float]] = [
            ("--help", [*qm, "--help"], "python -c pass", [py, "-c", "pass"], 3.0),
            (
                "export sample.md2",
                [*qm, "export", str(SAMPLE), "-o", str(Path(tmp) / "x.glb"), "--quiet"],
                "import numpy",
                [py, "-c", "import numpy"],
                1.3,
            ),
        ]
        if PK3.is_file():
            listing = f"import zipfile; print(*zipfile.ZipFile({str(PK3)!r}).namelist())"
            cases.insert(
                0, ("ls x.pk3", [*qm, "ls", str(PK3)], "zipfile list", [py, "-c", listing], 1.5)
            )
        head = (
            f"| {'command':<18} | {'ms':>7} | {'floor':<15} | {'ms':>7} | {'ratio':>6} |"
            f" {'target':>6} |"
        )
        out = [head, "|" + "|".join("-" * len(c) for c in head.split("|")[1:-1]) + "|"]
        for name, argv, floor_name, floor_argv, target in cases:
            t = raced_walls({"qm": argv, "floor": floor_argv}, rounds)
            ratio = t["qm"] / t["floor"]
            out.append(
                f"| {name:<18} | {t['qm'] * 1e3:>7.1f} | {floor_name:<15} |"
                f" {t['floor'] * 1e3:>7.1f} | {ratio:>5.2f}x | {target:>5.1f}x |"
            )
    if not PK3.is_file():
        out.append(f"(no corpus at {CORPUS}: the ls row is left out)")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15, help="interleaved rounds per row")
    args = parser.parse_args(argv)
    for line in rows(args.rounds):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
