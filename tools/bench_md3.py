"""Benchmark one MD3: quakemodels' full load against the generated parser and a numpy floor.

``bench_md3(path)`` returns the median seconds of each, measured side by side (the machines
are shared and noisy: compare ratios, not absolute times):

  full     quakemodels: open + every array of every surface decoded and validated
  kaitai   the generated parser: parse and walk every vertex of every surface and frame
           (x, y, z and the normal's lat, lng)
  floor    numpy floor: per surface, one frombuffer of the vertex section, the int16 / 64
           scale and the normal lookup (positions and normals, as a full load gives), nothing
           checked

Run directly to print one row per file: ``python tools/bench_md3.py [FILE.md3 ...]``
(default: the corpus MD3s).
"""

from __future__ import annotations

import struct
import sys
from pathlib import Path
from typing import Any

import numpy as np
from benchutil import CORPUS, timed

from quakemodels import Md3
from quakemodels.kaitai.quake3_md3 import Quake3Md3


def _full(data: bytes) -> None:
    Md3.from_bytes(data).load_all()


def _kaitai_walk(data: bytes) -> None:
    spec = Quake3Md3.from_bytes(data)
    for surface in spec.surfaces:
        for v in surface.vertices:
            _ = (v.x, v.y, v.z, v.lat, v.lng)


_ANGLES = np.arange(256, dtype=np.float64) * 2 * np.pi / 256
_LAT, _LNG = np.divmod(np.arange(65536), 256)
# The unit normal of every packed lat/lng pair, built once (the facade caches its table too).
NORMAL_TABLE = np.stack(
    [
        np.cos(_ANGLES[_LAT]) * np.sin(_ANGLES[_LNG]),
        np.sin(_ANGLES[_LAT]) * np.sin(_ANGLES[_LNG]),
        np.cos(_ANGLES[_LNG]),
    ],
    axis=1,
).astype(np.float32)


def floor_arrays(data: bytes) -> list[tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]]:
    """The least numpy work that yields what a full load delivers per surface, positions AND
    normals of every frame: one view of the vertex section, the int16 / 64 scale into float32
    (see below), and one lookup of the packed normals. Nothing checked, no names, tags or
    triangles."""
    num_frames, num_surfaces = (
        struct.unpack_from("<i", data, 76)[0],
        struct.unpack_from("<i", data, 84)[0],
    )
    pos = struct.unpack_from("<i", data, 100)[0]
    out = []
    for _ in range(num_surfaces):
        nv, ofs_xyz, ofs_end = (
            struct.unpack_from("<i", data, pos + 80)[0],
            struct.unpack_from("<i", data, pos + 100)[0],
            struct.unpack_from("<i", data, pos + 104)[0],
        )
        raw = np.frombuffer(data, "<i2", num_frames * nv * 4, pos + ofs_xyz)
        words = raw.reshape(num_frames, nv, 4)
        # x, y, z copied out one column at a time (long strided runs), then cast and scaled
        # over contiguous memory: several times faster than one multiply of the (F,N,3) slice
        xyz = np.empty((num_frames, nv, 3), np.int16)
        for axis in range(3):
            xyz[:, :, axis] = words[:, :, axis]
        positions = xyz.astype(np.float32)
        positions *= np.float32(1 / 64)
        normals = np.take(NORMAL_TABLE, words[:, :, 3].view(np.uint16), axis=0, mode="clip")
        out.append((positions, normals))
        pos += ofs_end
    return out


def check_floor(data: bytes) -> None:
    """The floor computes the same positions and normals as the facade (else it would not be
    a floor of the same work)."""
    m = Md3.from_bytes(data)
    for surface, (positions, normals) in zip(m.surfaces, floor_arrays(data), strict=True):
        same = np.array_equal(surface.positions, positions)
        if not (same and np.array_equal(surface.normals, normals)):
            raise AssertionError("the numpy floor disagrees with the facade")


def bench_md3(path: str | Path) -> dict[str, Any]:
    """Median seconds of a full load, the generated parser's walk and the numpy floor.

    Keys: ``file``, ``frames``, ``surfaces``, ``vertices`` (per frame, all surfaces),
    ``full``, ``kaitai``, ``floor`` (seconds) and the ratios ``kaitai/full``, ``full/floor``.
    The floor is first checked to compute the same positions and normals as the facade.
    """
    data = Path(path).read_bytes()
    m = Md3.from_bytes(data)
    check_floor(data)
    full = timed(lambda: _full(data))
    walk = timed(lambda: _kaitai_walk(data), budget=0.5, min_runs=3)
    floor_s = timed(lambda: floor_arrays(data))
    return {
        "file": Path(path).name,
        "frames": m.num_frames,
        "surfaces": m.num_surfaces,
        "vertices": sum(s.num_vertices for s in m.surfaces),
        "full": full,
        "kaitai": walk,
        "floor": floor_s,
        "kaitai/full": walk / full,
        "full/floor": full / floor_s,
    }


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    files = [Path(a) for a in args] or sorted((CORPUS / "md3").glob("*.md3"))
    if not files:
        print(f"no MD3 files given and no corpus at {CORPUS}", file=sys.stderr)
        return 1
    print(
        f"| {'file':<30} | {'F':>4} | {'S':>2} | {'V':>5} | {'full ms':>8} | {'kaitai ms':>9} |"
        f" {'floor ms':>8} | {'kaitai/full':>11} | {'full/floor':>10} |"
    )
    print(f"|{'-' * 32}|{'-' * 6}|{'-' * 4}|{'-' * 7}|{'-' * 10}|{'-' * 11}|{'-' * 10}|"
          f"{'-' * 13}|{'-' * 12}|")  # fmt: skip
    for path in files:
        r = bench_md3(path)
        print(
            f"| {r['file']:<30} | {r['frames']:>4} | {r['surfaces']:>2} | {r['vertices']:>5} |"
            f" {r['full'] * 1e3:>8.3f} | {r['kaitai'] * 1e3:>9.1f} | {r['floor'] * 1e3:>8.3f} |"
            f" {r['kaitai/full']:>10.0f}x | {r['full/floor']:>9.1f}x |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
