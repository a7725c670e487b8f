"""Benchmark one Quake 1 MDL: quakemodels' full load against vgio, the generated parser and a
numpy floor.

``bench_mdl(path)`` returns the median seconds of each, measured side by side (the machines
are shared and noisy: compare ratios, not absolute times):

  full     quakemodels: open (header + section walk) + every array decoded and validated
           (positions of every pose, normals, texcoords with the seam rule, triangles, skins
           decoded to RGB through the palette, names, groups, clips)
  vgio     vgio 1.3.0 ``Mdl.open``: reads every skin, texcoord, triangle and frame into
           Python objects (raw bytes: no positions, normals or RGB)
  kaitai   the generated parser: parse and walk every vertex of every pose (x, y, z, normal)
  write    quakemodels: ``to_bytes`` of the loaded model (byte-exact re-encoding, checked)
  floor    numpy floor: one strided view of the poses of a model of single frames and one
           v * scale + origin, nothing checked (files with frame groups take the facade's path)

Run directly to print one row per file: ``python tools/bench_mdl.py [FILE.mdl ...]``
(default: the corpus MDLs).
"""

from __future__ import annotations

import io
import itertools
import sys
from pathlib import Path
from typing import Any

import numpy as np
from benchutil import CORPUS, timed
from vgio.quake.mdl import Mdl as VgioMdl

from quakemodels.formats.mdl import Mdl
from quakemodels.kaitai.quake_mdl import QuakeMdl


def _full(data: bytes) -> None:
    Mdl.from_bytes(data).load_all()


def _vgio(data: bytes) -> None:
    VgioMdl.open(io.BytesIO(data))


def _kaitai_walk(data: bytes) -> None:
    spec = QuakeMdl.from_bytes(data)
    for frame in spec.frames:
        for pose in frame.frames:
            for v in pose.vertices:
                _ = (v.x, v.y, v.z, v.normal_index)


def _floor(
    data: bytes, offsets: tuple[int, ...], nv: int, scale: np.ndarray, origin: np.ndarray
) -> np.ndarray[Any, np.dtype[np.float32]]:
    u8 = np.frombuffer(data, np.uint8)
    step = offsets[1] - offsets[0] if len(offsets) > 1 else 24 + 4 * nv
    view = np.lib.stride_tricks.as_strided(
        u8[offsets[0] + 24 :], shape=(len(offsets), nv, 3), strides=(step, 4, 1)
    )
    # one axis at a time over (P,V) planes, in double, then one rounding to float32
    out = np.empty(view.shape, np.float32)
    plane = np.empty(view.shape[:2], np.float64)
    for axis in range(3):
        np.multiply(view[:, :, axis], np.float64(scale[axis]), out=plane)
        plane += np.float64(origin[axis])
        out[:, :, axis] = plane
    return out


def bench_mdl(path: str | Path) -> dict[str, Any]:
    """Median seconds of quakemodels' full load, its exact re-encoding (``write``), vgio, the
    generated parser's walk and the numpy floor; keys ``file``, ``frames``, ``poses``,
    ``vertices``, ``skin``, the five times
    and the ratios ``vgio/full``, ``kaitai/full``, ``full/floor`` (floor None for files with
    frame groups, whose poses are not evenly spaced)."""
    data = Path(path).read_bytes()
    m = Mdl.from_bytes(data)
    offsets = m.pose_offsets
    uniform = len({b - a for a, b in itertools.pairwise(offsets)}) <= 1
    floor_s = None
    if uniform and offsets:
        args = (data, offsets, m.num_vertices, m.scale, m.origin)
        if not np.array_equal(m.positions, _floor(*args)):
            raise AssertionError(f"{path}: the numpy floor disagrees with the facade")
        floor_s = timed(lambda: _floor(*args))
    full = timed(lambda: _full(data))
    if m.to_bytes() != data:
        raise AssertionError(f"{path}: to_bytes is not byte-exact")
    write = timed(m.to_bytes)
    vg = timed(lambda: _vgio(data), budget=0.5, min_runs=3)
    walk = timed(lambda: _kaitai_walk(data), budget=0.5, min_runs=3)
    return {
        "file": Path(path).name,
        "frames": m.num_header_frames,
        "poses": m.num_poses,
        "vertices": m.num_vertices,
        "skin": f"{m.skin_width}x{m.skin_height}x{m.num_skin_images}",
        "full": full,
        "write": write,
        "vgio": vg,
        "kaitai": walk,
        "floor": floor_s,
        "vgio/full": vg / full,
        "kaitai/full": walk / full,
        "full/floor": full / floor_s if floor_s else None,
    }


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    files = [Path(a) for a in args] or sorted((CORPUS / "mdl").glob("*.mdl"))
    if not files:
        print(f"no MDL files given and no corpus at {CORPUS}", file=sys.stderr)
        return 1
    print(
        f"| {'file':<18} | {'F':>3} | {'P':>3} | {'V':>4} | {'skin':>11} | {'full ms':>8} |"
        f" {'write ms':>8} |"
        f" {'vgio ms':>8} | {'kaitai ms':>9} | {'floor ms':>8} | {'vgio/full':>9} |"
        f" {'kaitai/full':>11} | {'full/floor':>10} |"
    )
    print(f"|{'-' * 20}|{'-' * 5}|{'-' * 5}|{'-' * 6}|{'-' * 13}|{'-' * 10}|{'-' * 10}|{'-' * 10}|"
          f"{'-' * 11}|{'-' * 10}|{'-' * 11}|{'-' * 13}|{'-' * 12}|")  # fmt: skip
    for path in files:
        r = bench_mdl(path)
        floor = f"{r['floor'] * 1e3:>8.3f}" if r["floor"] else f"{'-':>8}"
        ratio = f"{r['full/floor']:>9.1f}x" if r["full/floor"] else f"{'-':>10}"
        print(
            f"| {r['file']:<18} | {r['frames']:>3} | {r['poses']:>3} | {r['vertices']:>4} |"
            f" {r['skin']:>11} | {r['full'] * 1e3:>8.3f} | {r['write'] * 1e3:>8.3f} |"
            f" {r['vgio'] * 1e3:>8.1f} |"
            f" {r['kaitai'] * 1e3:>9.1f} | {floor} | {r['vgio/full']:>8.0f}x |"
            f" {r['kaitai/full']:>10.0f}x | {ratio} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
