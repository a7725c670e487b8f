"""Benchmark: listing and reading archives (``make bench`` runs it after tools/bench.py).

Builds, in a temporary folder, a .pak with 10,000 entries (a corpus MD2 among 9,999 small
files; 10,000 copies of a synthetic 2 KB file when the corpus is absent) and a .pk3 (zip,
stored) with the same files. Rows (median milliseconds, the same run side by side; the machine
is shared, so compare ratios):

  qm pak list      quakemodels.archive.open + names() (generated parser + every check)
  kaitai list      the generated quake_pak parser alone: header + every directory entry
  qm pak read      open, then read the model (one seek + one read) and load it
  zipfile list     zipfile.ZipFile + namelist() on the equivalent pk3
  qm pk3 list      quakemodels.archive.open + names() on the pk3 (zipfile + checks)
  zipfile read     zipfile: open, read the model

Then directories as arrays: a pak of 10,000 and of 1,000,000 entries (header, one tiny file,
empty entries; tests/archivebuilder.big_pak_bytes), ``quakemodels.archive.open`` against the
numpy floor (``np.frombuffer`` of the directory with the generated INDEX_ENTRY dtype), and
pk3 listing against ``zipfile`` itself on a stored zip of the same names. ``ls`` and ``info``
of the 1,000,000-entry pak run as subprocesses: wall seconds and peak RSS.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Callable
from functools import partial
from pathlib import Path

from benchutil import CORPUS, REPO, timed

sys.path.insert(0, str(REPO / "tests"))

import numpy as np
from archivebuilder import big_pak_bytes, pak_bytes

import quakemodels
from quakemodels import archive
from quakemodels.kaitai.quake_pak import QuakePak
from quakemodels.kaitai.quake_pak_layout import INDEX_ENTRY, ROOT

ENTRIES = 10_000
MODEL = "models/monsters/tank/tris.md2"


def files() -> list[tuple[str, bytes]]:
    """10,000 (name, bytes): the model at the middle, small files around it."""
    corpus = sorted((CORPUS / "md2").glob("*.md2"))
    model = corpus[0].read_bytes() if corpus else None
    out = [
        (f"textures/e{i // 100}/t{i}.wal", bytes([i % 251]) * (200 + i % 300))
        for i in range(ENTRIES)
    ]
    if model is not None:
        out[ENTRIES // 2] = (MODEL, model)
    return out


def kaitai_list(path: Path) -> list[str]:
    with QuakePak.from_file(str(path)) as pak:
        return [e.name for e in pak.index.entries]


def qm_list(path: Path) -> list[str]:
    with archive.open(path) as a:
        return a.names()


def qm_read(path: Path, name: str) -> object:
    with archive.open(path) as a:
        data = a.read(name)
    return quakemodels.load(data) if name == MODEL else data


def zip_list(path: Path) -> list[str]:
    with zipfile.ZipFile(path) as zf:
        return zf.namelist()


def zip_read(path: Path, name: str) -> bytes:
    with zipfile.ZipFile(path) as zf:
        return zf.read(name)


def numpy_floor(path: Path) -> int:
    """The floor: the header and the directory as numpy records, nothing checked."""
    data = path.read_bytes()
    head = np.frombuffer(data, ROOT, count=1)[0]
    entries = np.frombuffer(
        data, INDEX_ENTRY, count=int(head["len_index"]) // 64, offset=int(head["ofs_index"])
    )
    return len(entries)


def qm_lookup(path: Path, name: str) -> object:
    with archive.open(path) as a:
        return a.find(name)


def cli(*argv: str) -> tuple[float, int]:
    """Wall seconds and peak RSS (MB) of ``quakemodels ARGV`` (its own parent counts it)."""
    probe = (
        "import json, resource, subprocess, sys, time\n"
        "t = time.perf_counter()\n"
        "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
        "t = time.perf_counter() - t\n"
        "print(json.dumps([t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss]))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe, sys.executable, "-m", "quakemodels", *argv],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    seconds, kb = json.loads(out)
    return seconds, kb // 1024


def zip_of_names(path: Path, count: int) -> None:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as zf:
        for i in range(count):
            zf.writestr(f"data/f{i:07d}.dat", b"")


def arrays() -> None:
    """The directories-as-arrays rows."""
    print("\ndirectories as arrays (median ms, CPU time)")
    print(f"{'':26} {'10k':>9} {'1M':>9}")
    rows: dict[str, list[float]] = {}
    ls = info = (0.0, 0)
    with tempfile.TemporaryDirectory() as tmp:
        for count in (10_000, 1_000_000):
            pak = Path(tmp) / f"big{count}.pak"
            pak.write_bytes(big_pak_bytes(count))
            pk3 = Path(tmp) / f"big{count}.pk3"
            zip_of_names(pk3, count)
            last = f"data/f{count - 1:07d}.dat"
            budget = 1.0 if count < 100_000 else 0.0
            runs = 5 if count < 100_000 else 3
            cases: list[tuple[str, Callable[[], object]]] = [
                ("numpy floor (frombuffer)", partial(numpy_floor, pak)),
                ("qm pak open + names()", partial(qm_list, pak)),
                ("qm pak open + find(last)", partial(qm_lookup, pak, last)),
                ("zipfile list", partial(zip_list, pk3)),
                ("qm pk3 open + names()", partial(qm_list, pk3)),
            ]
            for label, fn in cases:
                rows.setdefault(label, []).append(timed(fn, budget=budget, min_runs=runs))
            if count == 1_000_000:
                ls = cli("ls", str(pak))
                info = cli("info", str(pak))
    for label, (small, big) in rows.items():
        print(f"{label:26} {small * 1000:9.2f} {big * 1000:9.1f}")
    print("\n1,000,000-entry pak (wall, this machine's load included)")
    print(f"  quakemodels ls    {ls[0]:6.2f} s  {ls[1]:5d} MB peak RSS")
    print(f"  quakemodels info  {info[0]:6.2f} s  {info[1]:5d} MB peak RSS")


def main() -> int:
    content = files()
    name = content[ENTRIES // 2][0]
    with tempfile.TemporaryDirectory() as tmp:
        pak = Path(tmp) / "pak0.pak"
        pak.write_bytes(pak_bytes(content))
        pk3 = Path(tmp) / "pak0.pk3"
        with zipfile.ZipFile(pk3, "w", zipfile.ZIP_STORED) as zf:
            for n, data in content:
                zf.writestr(n, data)
        assert qm_list(pak) == kaitai_list(pak) == zip_list(pk3)
        rows = [
            ("qm pak list", timed(lambda: qm_list(pak), budget=1.0)),
            ("kaitai list", timed(lambda: kaitai_list(pak), budget=1.0)),
            ("qm pak read", timed(lambda: qm_read(pak, name), budget=1.0)),
            ("zipfile list", timed(lambda: zip_list(pk3), budget=1.0)),
            ("qm pk3 list", timed(lambda: qm_list(pk3), budget=1.0)),
            ("zipfile read", timed(lambda: zip_read(pk3, name), budget=1.0)),
        ]
        size = pak.stat().st_size / 1e6
    print(f"\narchives: {ENTRIES} entries, pak {size:.1f} MB, reading {name}")
    print(f"{'':14} {'ms':>8}")
    for label, seconds in rows:
        print(f"{label:14} {seconds * 1000:8.2f}")
    arrays()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
