#!/usr/bin/env python3
"""Benchmark: time from ``quakemodels view MODEL`` to the model playing in the page.

    python tools/bench_viewer.py [--runs N] [MODEL]      (in make bench; default drfreak)

A headless chromium (tools/cdp.py) is started first and left open, as a user's browser is.
Each run starts the command (the ``quakemodels`` console script of this venv, ``--no-browser``)
and, as soon as it prints the URL, opens the URL in a new tab; the page is interactive when
its ``qm.ready`` resolves: three.js loaded, the model's glTF loaded, its first clip playing and
a frame drawn. Columns (wall clock, seconds, median and best of the runs):

  url     the command printed the URL (Python start-up, imports, the server up)
  ready   the page is interactive, counted from the command's start: the goal is 1 s
  page    of which in the page (navigation to ready, by the page's own clock)

Wall time on a shared machine: the load average is printed beside the table. Skips (exit 0)
with the install line when chromium is missing.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from benchutil import CORPUS, REPO
from browser_render import INSTALL, find_chromium
from cdp import Browser

DRFREAK = CORPUS / "md2" / "ppm_drfreak.md2"
COMMAND = REPO / ".venv" / "bin" / "quakemodels"


def one_run(browser: Browser, model: Path) -> tuple[float, float, float]:
    """(url, ready, page) seconds of one run."""
    command = [str(COMMAND), "view", str(model), "--no-browser"]
    page = browser.new_page(1024, 640)
    t0 = time.perf_counter()
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        t_url = time.perf_counter() - t0
        if " at http://" not in line:
            raise RuntimeError(f"no URL: {line!r} {proc.stderr.read() if proc.stderr else ''}")
        page.goto(line.split(" at ", 1)[1].split()[0])
        page.wait_for("window.qm !== undefined", timeout=60)
        in_page = page.eval("qm.ready.then(() => performance.now())", timeout=60)
        t_ready = time.perf_counter() - t0
        errors = page.errors()
        if errors:
            raise RuntimeError(f"the page logged errors: {errors}")
    finally:
        proc.send_signal(2)
        proc.communicate(timeout=30)
    page.call("Page.close")
    return t_url, t_ready, float(in_page) / 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model", nargs="?", type=Path, default=DRFREAK)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args(argv)
    if find_chromium() is None:
        print(f"bench_viewer: skipped: chromium is not installed ({INSTALL})")
        return 0
    if not args.model.exists():
        print(f"bench_viewer: skipped: {args.model} not found")
        return 0
    with Browser() as browser:
        one_run(browser, args.model)  # warm the page cache of the OS, as a second run is
        runs = [one_run(browser, args.model) for _ in range(args.runs)]
    load = os.getloadavg()[0]
    print(f"quakemodels view {args.model.name}: seconds from the command to the model playing")
    cores = os.cpu_count()
    print(f"({args.runs} runs, chromium already open, load average {load:.1f} on {cores} cores)")
    print()
    print(f"| {'':8} | {'median':>6} | {'best':>6} |")
    print(f"|{'-' * 10}|{'-' * 8}|{'-' * 8}|")
    for name, column in zip(("url", "ready", "page"), zip(*runs, strict=True), strict=True):
        print(f"| {name:8} | {statistics.median(column):6.3f} | {min(column):6.3f} |")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    sys.exit(main())
