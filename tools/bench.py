"""Benchmark: quakemodels against the generated parser, vgio 1.3.0 and a numpy floor.

Run with ``make bench``. Every figure of one table comes from the same run, measured side by
side per file (the machines are shared and noisy, so compare ratios, not absolute times).

Columns, per corpus MD2 (median of repeated runs, milliseconds):
  qm full    quakemodels: open + every array decoded and validated (``load_all``)
  qm f0      quakemodels: open + frame 0 positions only
  floor      numpy floor: one frombuffer of the frame section, the position multiply-add and the
             normal lookup (positions and normals, what a full load delivers)
  kaitai     the generated parser: parse and walk every vertex's x, y, z
  vgio       vgio 1.3.0 ``Md2.open``
"""

from __future__ import annotations

import argparse
import io
import statistics
import struct
import sys
import time
from pathlib import Path

import numpy as np
from bench_md3 import bench_md3
from bench_mdl import main as bench_mdl_table
from benchutil import CORPUS, timed

from quakemodels import Md2
from quakemodels.formats.md2.reader import anorms
from quakemodels.kaitai.quake2_md2 import Quake2Md2

ANORMS = np.array(anorms())  # the spec's 162 normals, as a plain table for the floor


def qm_full(data: bytes) -> None:
    Md2.from_bytes(data).load_all()


def qm_frame0(data: bytes) -> None:
    Md2.from_bytes(data).frame_positions(0)


def floor_arrays(data: bytes) -> tuple[np.ndarray, np.ndarray]:
    """The least numpy work that yields what a full load delivers per frame, positions AND
    normals: one view of the frame section, the position multiply-add in double (as the spec
    evaluates it) one axis at a time over (F,V) planes (numpy runs long rows several times
    faster than an (F,V,3) array's rows of three), and one lookup of the normal indices.
    Nothing checked, no names or triangles."""
    h = struct.unpack_from("<4s16i", data)
    framesize, nv, nf, ofs = h[4], h[6], h[10], h[14]
    frames = np.frombuffer(data, np.uint8, nf * framesize, ofs).reshape(nf, framesize)
    head = frames[:, :24].copy().view("<f4").reshape(nf, 2, 3).astype(np.float64)
    verts = frames[:, 40 : 40 + 4 * nv].reshape(nf, nv, 4)
    positions = np.empty((nf, nv, 3), np.float32)
    plane = np.empty((nf, nv), np.float64)
    for axis in range(3):
        np.multiply(verts[:, :, axis], head[:, 0, axis, None], out=plane)
        plane += head[:, 1, axis, None]
        positions[:, :, axis] = plane
    return positions, np.take(ANORMS, verts[:, :, 3], axis=0, mode="clip")


def numpy_floor(data: bytes) -> None:
    floor_arrays(data)


def kaitai_walk(data: bytes) -> None:
    spec = Quake2Md2.from_bytes(data)
    for frame in spec.frames:
        for v in frame.vertices:
            p = v.position
            _ = (p.x, p.y, p.z)


def vgio_open(data: bytes) -> None:
    from vgio.quake2 import md2 as vgio_md2

    vgio_md2.Md2.open(io.BytesIO(data)).close()


def check_floor(data: bytes) -> None:
    """The floor computes the same positions and normals as the facade (else it would not be
    a floor of the same work)."""
    positions, normals = floor_arrays(data)
    m = Md2.from_bytes(data)
    assert np.array_equal(positions, m.positions) and np.array_equal(normals, m.normals)


def bench_dump(name: str = "ppm_drfreak.md2", runs: int = 3) -> tuple[float, float] | None:
    """``quakemodels dump`` (webide JSON) of the largest 198-frame corpus model, as a user runs it.

    Each run is a fresh process (interpreter start included) writing to a temporary file; prints
    the median wall seconds and the peak RSS (MB) against the targets (<= 2 s, < 300 MB).
    """
    import subprocess
    import tempfile

    model = CORPUS / "md2" / name
    if not model.is_file():
        print(f"no {model}: dump benchmark skipped", file=sys.stderr)
        return None
    child = (
        "import resource, sys; from quakemodels.cli import main; code = main(sys.argv[1:]);"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss); sys.exit(code)"
    )
    walls: list[float] = []
    rss: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(runs):
            t0 = time.perf_counter()
            done = subprocess.run(
                [sys.executable, "-c", child, "dump", str(model), "-o", f"{tmp}/out.json"],
                capture_output=True,
                text=True,
                check=True,
            )
            walls.append(time.perf_counter() - t0)
            rss.append(int(done.stdout.split()[-1]) / 1024)  # ru_maxrss is in KiB on Linux
    wall, peak = statistics.median(walls), max(rss)
    print(
        f"  dump {name} --format webide: {wall:.2f} s, peak RSS {peak:.0f} MB"
        f"   (target <= 2 s, < 300 MB)"
    )
    return wall, peak


def bench_md3_corpus() -> None:
    """The MD3 table: full load against the generated parser's walk and the numpy floor."""
    files = sorted((CORPUS / "md3").glob("*.md3"))
    if not files:
        return
    print()
    print(f"| {'MD3 file':<30} | {'F':>4} | {'S':>2} | {'V':>5} | {'qm full':>8} | {'floor':>7} |"
          f" {'kaitai':>8} | {'full/floor':>10} | {'kaitai/full':>11} |")  # fmt: skip
    print(f"|{'-' * 32}|{'-' * 6}|{'-' * 4}|{'-' * 7}|{'-' * 10}|{'-' * 9}|{'-' * 10}|"
          f"{'-' * 12}|{'-' * 13}|")  # fmt: skip
    animated = []
    for path in files:
        r = bench_md3(path)
        if r["frames"] > 1:
            animated.append((r["full/floor"], r["kaitai/full"]))
        print(
            f"| {r['file']:<30} | {r['frames']:>4} | {r['surfaces']:>2} | {r['vertices']:>5} |"
            f" {r['full'] * 1e3:>8.3f} | {r['floor'] * 1e3:>7.3f} | {r['kaitai'] * 1e3:>8.1f} |"
            f" {r['full/floor']:>10.2f} | {r['kaitai/full']:>11.0f} |"
        )
    if animated:
        floor_ratio = statistics.median(a for a, _ in animated)
        walk_ratio = statistics.median(b for _, b in animated)
        print(
            f"median over {len(animated)} animated MD3 models: full/floor {floor_ratio:.2f}x"
            f" (target <= 3x), generated walk/full {walk_ratio:.0f}x (target >= 100x)"
        )


def machine() -> str:
    """One line naming the machine, the date and the versions the figures come from."""
    import datetime
    import os
    import platform

    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return (
        f"{datetime.date.today()}: {cpu}, {os.cpu_count()} CPUs (load {load:.1f}),"
        f" {platform.system()} {platform.release()}, Python {platform.python_version()},"
        f" numpy {np.__version__}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path, help="MD2 files (default: the corpus)")
    parser.add_argument("--no-vgio", action="store_true", help="skip vgio")
    args = parser.parse_args(argv)
    print(machine())
    print()
    files = args.files or sorted((CORPUS / "md2").glob("*.md2"))
    if not files:
        print(f"no MD2 files given and no corpus at {CORPUS}", file=sys.stderr)
        return 1
    header = (
        f"| {'file':<26} | {'F':>3} | {'V':>4} | {'qm full':>8} | {'qm f0':>7} | {'floor':>7} |"
        f" {'kaitai':>8} | {'vgio':>8} | {'full/floor':>10} | {'vgio/full':>9} |"
        f" {'kaitai/full':>11} |"
    )
    print(header)
    print("|" + "|".join("-" * (len(c)) for c in header.split("|")[1:-1]) + "|")
    animated: list[tuple[float, float, float]] = []
    frame0: list[float] = []
    for path in files:
        data = path.read_bytes()
        check_floor(data)
        m = Md2.from_bytes(data)
        full = timed(lambda d=data: qm_full(d))
        f0 = timed(lambda d=data: qm_frame0(d))
        floor = timed(lambda d=data: numpy_floor(d))
        walk = timed(lambda d=data: kaitai_walk(d), budget=0.5, min_runs=3)
        vg = float("nan") if args.no_vgio else timed(lambda d=data: vgio_open(d), min_runs=3)
        r_floor, r_vgio, r_walk = full / floor, vg / full, walk / full
        if m.num_frames > 1:
            animated.append((r_floor, r_vgio, r_walk))
        if m.num_frames == 198:
            frame0.append(f0)
        print(
            f"| {path.name:<26} | {m.num_frames:>3} | {m.num_vertices:>4} | {full * 1e3:>8.3f} |"
            f" {f0 * 1e3:>7.3f} | {floor * 1e3:>7.3f} | {walk * 1e3:>8.1f} | {vg * 1e3:>8.2f} |"
            f" {r_floor:>10.2f} | {r_vgio:>9.1f} | {r_walk:>11.0f} |"
        )
    if animated:
        med = [statistics.median(col) for col in zip(*animated, strict=True)]
        print()
        print(f"median over {len(animated)} animated models:")
        print(f"  full load / numpy floor      {med[0]:7.2f}x   (target <= 3x)")
        print(f"  vgio / full load             {med[1]:7.1f}x   (target >= 20x)")
        print(f"  generated walk / full load   {med[2]:7.0f}x   (target >= 100x)")
    if frame0:
        med0, max0 = statistics.median(frame0) * 1e3, max(frame0) * 1e3
        print(
            f"  open + frame 0 positions, 198-frame models: median {med0:.3f} ms,"
            f" max {max0:.3f} ms   (target <= 0.5 ms)"
        )
    if not args.files:
        bench_md3_corpus()
        print()
        bench_mdl_table([])
        bench_dump()
        print()
        print("Peers, measured side by side in this run (tools/bench_peers.py):")
        print()
        from bench_peers import report

        for line in report():
            print(line)
        print()
        print("MD5 and IQM (tools/bench_md5.py): posing every frame against the numpy floor, the")
        print("MD5 parse plain against its fast path, the first pose against assimp's import:")
        print()
        from bench_md5 import rows as md5_rows

        for line in md5_rows():
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
