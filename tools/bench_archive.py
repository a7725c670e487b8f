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
"""

from __future__ import annotations

import sys
import tempfile
import zipfile
from pathlib import Path

from benchutil import CORPUS, REPO, timed

sys.path.insert(0, str(REPO / "tests"))

from archivebuilder import pak_bytes

import quakemodels
from quakemodels import archive
from quakemodels.kaitai.quake_pak import QuakePak

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
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
