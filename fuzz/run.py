"""Run every fuzzer for a while and report execution counts: what ``make fuzz`` calls.

1. seeds (fuzz/seeds.py) into ``WORKDIR/seeds``;
2. atheris, target ``parse`` then ``heavy``, ``--seconds`` each, corpus kept in ``WORKDIR``;
3. the budget driver (fuzz/budgets.py) for ``--seconds``;
4. the structure-aware generators (fuzz/structured.py: hostile glTF fields, multi-surface
   MD3s, many-skin MD2s) for ``--seconds``;
5. the writers' bad-input driver (fuzz/writers.py: build, from_scene, from_imported) for
   ``--seconds``;
5b. the archives driver (fuzz/archives.py: zip bombs, lying sizes, symlink entries, huge and
   overlapping directories, flipped .pak/.pk3 files, end to end) for ``--seconds``;
6. the hypothesis suite (tests/test_fuzz.py) with ``--examples`` examples per property.

Stops at the first crash and names the saved input (``WORKDIR/crashes/``). Exit 0 when nothing
escaped.

    python fuzz/run.py --seconds 600 [--workdir /tmp/quakemodels-fuzz] [--jobs 1]
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent


def atheris_run(target: str, seconds: int, workdir: Path) -> tuple[int, int]:
    """(return code, executions) of one atheris run."""
    corpus = workdir / f"corpus_{target}"
    crashes = workdir / "crashes"
    corpus.mkdir(parents=True, exist_ok=True)
    crashes.mkdir(parents=True, exist_ok=True)
    cmd = [
        sys.executable,
        str(HERE / "fuzz_md2.py"),
        f"--target={target}",
        f"-max_total_time={seconds}",
        "-max_len=8192",
        "-timeout=10",
        "-rss_limit_mb=2048",
        "-print_final_stats=1",
        f"-artifact_prefix={crashes}/{target}-",
        str(corpus),
        str(workdir / "seeds"),
    ]
    log = workdir / f"atheris_{target}.log"
    with open(log, "w") as out:
        rc = subprocess.call(cmd, stdout=out, stderr=subprocess.STDOUT, cwd=workdir)
    text = log.read_text(errors="replace")
    stat = re.findall(r"stat::number_of_executed_units:\s*(\d+)", text)
    progress = re.findall(r"^#(\d+)\s", text, re.MULTILINE)
    runs = int(stat[-1]) if stat else int(progress[-1]) if progress else 0
    if rc:
        print(text[-3000:], file=sys.stderr)
        print(f"atheris {target}: exit {rc}; see {log} and {crashes}", file=sys.stderr)
    return rc, runs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=int, default=60, help="seconds per stage")
    parser.add_argument("--examples", type=int, default=1000, help="hypothesis examples")
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/quakemodels-fuzz"))
    parser.add_argument("--targets", default="parse,heavy")
    args = parser.parse_args(argv)
    args.workdir.mkdir(parents=True, exist_ok=True)
    subprocess.check_call([sys.executable, str(HERE / "seeds.py"), str(args.workdir / "seeds")])
    total = 0
    for target in args.targets.split(","):
        started = time.monotonic()
        rc, runs = atheris_run(target, args.seconds, args.workdir)
        total += runs
        took = time.monotonic() - started
        print(f"atheris {target}: {runs} executions in {took:.0f} s ({runs / took:.0f}/s)")
        if rc:
            return 1
    print(f"atheris total: {total} executions")
    for driver in ("budgets.py", "structured.py", "writers.py", "archives.py"):
        rc = subprocess.call([sys.executable, str(HERE / driver), "--seconds", str(args.seconds)])
        if rc:
            return 1
    env = dict(os.environ, QUAKEMODELS_FUZZ_EXAMPLES=str(args.examples))
    return subprocess.call(
        [sys.executable, "-m", "pytest", "-q", "tests/test_fuzz.py"], cwd=REPO, env=env
    )


if __name__ == "__main__":
    raise SystemExit(main())
