"""Peak RSS and wall time of the full-size hostile inputs of issue #17, one subprocess each.

Builds every input (tests/hostile.py) in a scratch folder, runs the CLI verb the issue names on
it in a fresh interpreter and reports the child's peak RSS (``wait4`` rusage), wall time and
exit code. ``--src DIR`` runs another checkout's package (``git archive 8dace02 src | tar -x``)
for a side-by-side "before". Children are capped (``--cap-gb`` address space, ``--timeout``
seconds) so that a before-run cannot take the machine down; a capped run is reported as such.

    python tools/bench_hostile.py [--src DIR] [--only NAME] [--timeout 60] [--cap-gb 6]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))

import hostile  # noqa: E402
from gltfbuilder import doc, glb, png_header  # noqa: E402
from md2builder import Md2Spec, build  # noqa: E402


def _segv(folder: Path) -> list[str]:
    document, blob = doc()
    document["bufferViews"][0]["byteStride"] = -4096
    document["accessors"][0]["count"] = 300
    (folder / "segv.glb").write_bytes(glb(document, blob))
    return ["convert", "segv.glb", "out.md2"]


def _deep(folder: Path) -> list[str]:
    (folder / "deep.glb").write_bytes(glb(None, None, json_text=b"[" * 100_000 + b"]" * 100_000))
    return ["convert", "deep.glb", "out.md2"]


def _file(name: str, make: Callable[[], bytes], verb: list[str]) -> Callable[[Path], list[str]]:
    def setup(folder: Path) -> list[str]:
        (folder / name).write_bytes(make())
        return [part.replace("IN", name) for part in verb]

    return setup


def _skins_in_crowd(folder: Path) -> list[str]:
    (folder / "m.md2").write_bytes(hostile.many_skins_md2(2000))
    for k in range(2000):
        (folder / f"f{k:04d}.txt").write_bytes(b"")
    return ["check", "m.md2"]


def _bomb(folder: Path) -> list[str]:
    (folder / "m.md2").write_bytes(build(Md2Spec(skins=[b"bomb.png"])))
    (folder / "bomb.png").write_bytes(png_header(30000, 30000))
    return ["export", "m.md2", "-o", "out.glb"]


CASES: dict[str, Callable[[Path], list[str]]] = {
    "1 glTF byteStride -4096 (convert)": _segv,
    "2 shared morph targets 30k×2000 (convert)": _file(
        "t.glb", hostile.shared_targets_glb, ["convert", "IN", "out.md2"]
    ),
    "2 shared morph targets 30k×2000 (convert --no-limits)": _file(
        "t.glb", hostile.shared_targets_glb, ["convert", "IN", "out.md2", "--no-limits"]
    ),
    "3 MD2 corners 256×256, 200 frames (export)": _file(
        "c.md2", hostile.corner_explosion_md2, ["export", "IN", "-o", "out.glb"]
    ),
    "3 MD2 corners 256×256, 2000 frames (export)": _file(
        "c.md2", lambda: hostile.corner_explosion_md2(frames=2000), ["export", "IN", "-o", "o.glb"]
    ),
    "4 MD3 32 shared surfaces, 8.4 MB (export)": _file(
        "s.md3", hostile.shared_sections_md3, ["export", "IN", "-o", "out.glb"]
    ),
    "4 MD3 32 shared surfaces, 33.7 MB (export)": _file(
        "s.md3", lambda: hostile.shared_sections_md3(frames=1024), ["export", "IN", "-o", "o.glb"]
    ),
    "5 check zero-area 10k frames × 10k tris": _file("z.md2", hostile.flat_md2, ["check", "IN"]),
    "6 2,000 deep skin names (check)": _file("m.md2", hostile.many_skins_md2, ["check", "IN"]),
    "6 2,000 deep skin names (export)": _file(
        "m.md2", hostile.many_skins_md2, ["export", "IN", "-o", "out.glb"]
    ),
    "6 20,000 deep skin names (check)": _file(
        "m.md2", lambda: hostile.many_skins_md2(20000), ["check", "IN"]
    ),
    "6 2,000 names in a folder of 2,000 files (check)": _skins_in_crowd,
    "7 decompression-bomb skin (export)": _bomb,
    "7 deep JSON (convert)": _deep,
}


def run(argv: list[str], src: Path, folder: Path, timeout: float, cap: int) -> str:
    """'RSS MB | seconds | exit' of ``quakemodels argv`` run with ``src`` on the path."""
    code = "import sys; from quakemodels.cli import main; sys.exit(main(sys.argv[1:]))"
    env = dict(os.environ, PYTHONPATH=str(src), PYTHONWARNINGS="ignore")

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

    started = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-c", code, *argv],
        cwd=folder,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        preexec_fn=limit,
    )
    timed_out = False
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if time.perf_counter() - started > timeout:
            proc.kill()
            timed_out = True
        time.sleep(0.02)
    seconds = time.perf_counter() - started
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    rc = os.waitstatus_to_exitcode(status)
    last = err.strip().splitlines()[-1][:90] if err.strip() else ""
    note = "TIMEOUT" if timed_out else "MemoryError (cap)" if "MemoryError" in err else last
    return f"{usage.ru_maxrss / 1024:8.0f} MB | {seconds:7.2f} s | exit {rc:4d} | {note}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--src", type=Path, default=REPO / "src")
    parser.add_argument("--only", default="")
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--cap-gb", type=float, default=6.0)
    args = parser.parse_args(argv)
    for name, setup in CASES.items():
        if args.only not in name:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            verb = setup(folder)
            size = sum(p.stat().st_size for p in folder.iterdir())
            result = run(verb, args.src, folder, args.timeout, int(args.cap_gb * 2**30))
            print(f"{name:50s} | {size / 1e6:6.2f} MB in | {result}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
