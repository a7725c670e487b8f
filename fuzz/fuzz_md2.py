"""Coverage-guided fuzzing of the model readers with atheris (libFuzzer for Python).

Usage (``make fuzz SECONDS=600`` runs the targets for that long)::

    python fuzz/fuzz_md2.py --target=parse [libFuzzer options] [CORPUS_DIR ...]

Targets:

``parse``   load, every array, ``mesh(0)`` and the checker for every engine (MD2 and MD3),
            plus the time and memory budgets of ``harness.check_budgets``;
``heavy``   the same plus the JSON dump and the glTF/OBJ exporters (inputs ≤ 64 KB).
``archive`` the input as a .pak/.pk3 through open, list, stream, extract and load
            (fuzz/archives.py: only ModelFormatError, memory budget, all-or-nothing extraction);
            seed it with ``python fuzz/archives.py``-style files (any small .pak/.pk3).

An exception other than ModelFormatError, an ``internal`` checker finding or a budget overrun
stops the run and libFuzzer saves the input as ``crash-*``. Seed the run with
``python fuzz/seeds.py DIR`` (synthetic files from tests/md2builder.py, plus the small corpus
files when ../shared/corpus exists; the corpus itself never enters the repository).
"""

from __future__ import annotations

import os
import sys
import time
import tracemalloc
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import atheris  # noqa: E402

with atheris.instrument_imports():
    import quakemodels
    import quakemodels.archive.extract
    import quakemodels.archive.pak
    import quakemodels.archive.pk3
    import quakemodels.formats.md2
    import quakemodels.formats.md3
    import quakemodels.registry

    try:
        import quakemodels.core.dump
        import quakemodels.interchange.gltf_write
        import quakemodels.interchange.obj_write  # noqa: F401
    except ImportError:  # written by other tasks; the heavy target needs them
        pass

import archives  # noqa: E402
import harness  # noqa: E402

TARGET = "parse"
STATS = {"runs": 0, "slow": 0}
# One input in MEMORY_SAMPLE has its peak memory traced (tracemalloc slows every allocation).
MEMORY_SAMPLE = 16


def _budgets(data: bytes, elapsed: float) -> None:
    """Budgets: re-measure inputs that ran slow, trace memory of a sample and of slow ones."""
    slow = elapsed > harness.time_budget(len(data)) / 2
    sampled = zlib.crc32(data) % MEMORY_SAMPLE == 0
    if slow or sampled:
        STATS["slow"] += slow
        harness.check_budgets(data)


def test_one_input(data: bytes) -> None:
    STATS["runs"] += 1
    if TARGET == "archive":
        archives.run_case("atheris archive", data)
        return
    # One engine per input (chosen by its checksum) keeps the execution rate up; libFuzzer's
    # mutations reach every engine on every shape of input.
    engine = harness.ENGINES[zlib.crc32(data) % len(harness.ENGINES)]
    t0 = time.perf_counter()
    harness.exercise(
        data,
        heavy=TARGET == "heavy" and len(data) <= harness.HEAVY_LIMIT,
        engines=(engine,),
    )
    elapsed = time.perf_counter() - t0
    if TARGET == "parse":
        _budgets(data, elapsed)


def main() -> None:
    global TARGET
    argv = []
    for arg in sys.argv:
        if arg.startswith("--target="):
            TARGET = arg.split("=", 1)[1]
        else:
            argv.append(arg)
    if TARGET not in ("parse", "heavy", "archive"):
        sys.exit(f"unknown --target={TARGET} (parse, heavy or archive)")
    if tracemalloc.is_tracing():  # pragma: no cover - PYTHONTRACEMALLOC set by the caller
        tracemalloc.stop()
    atheris.Setup(argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
