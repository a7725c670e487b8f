"""What every fuzzer does with one input, and the invariants it holds the package to.

``exercise(data)`` runs everything a user can do with untrusted bytes: the archive readers
(``.pak``/``.pk3``: open, list, read every entry), ``quakemodels.load``, every array and list
of the model, ``mesh(0)``, the checker for every engine, the JSON dump, the glTF and OBJ
exporters, a small render, and the MD3 facade when the bytes say IDP3. The invariant: each step
either works or raises :class:`quakemodels.ModelFormatError`; anything else propagates and is
a bug, and so does any warning but QuakeModelsWarning (numpy's ``overflow encountered in
cast`` is text a user would see; see :func:`strict_warnings`). The checker itself never
raises and never reports an ``internal`` finding.

``measure(data)`` times the parsing path (load, the first mesh, every array, one ``check``)
and records its peak memory with tracemalloc, for the budgets below: at most 100 ms per MB of
input (plus a fixed allowance for Python's per-call overhead on tiny inputs) and at most 20
times the input size (plus a fixed allowance for the interpreter objects every model needs).
``exercise_import`` holds a glTF import to the same memory factor plus ``IMPORT_ALLOWANCE``.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import sys
import time
import traceback
import tracemalloc
import warnings
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import quakemodels
from quakemodels import ModelFormatError, QuakeModelsWarning, check_model, registry

ENGINES = ("any", "quake2", "q2pro", "quake3")

# Budgets (see the module docstring).
TIME_PER_MB = 0.100
TIME_ALLOWANCE = 0.030
MEMORY_FACTOR = 20
MEMORY_ALLOWANCE = 256 * 1024

# Inputs larger than this skip the dump (a full Kaitai object tree) and the exporters in
# the coverage-guided fuzzer, to keep its execution rate up; the hypothesis suite runs them.
HEAVY_LIMIT = 64 * 1024


class InvariantError(AssertionError):
    """An input broke an invariant other than an escaping exception (a finding, a budget)."""


@contextlib.contextmanager
def strict_warnings() -> Iterator[None]:
    """Every warning but the package's own raises: numpy's ``overflow encountered in cast`` or
    ``invalid value encountered in cast`` (a RuntimeWarning) is text a user would see, so it
    escapes as a bug; QuakeModelsWarning is how the package reports odd but loadable input."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.simplefilter("ignore", QuakeModelsWarning)
        yield


def _attempt(step: Callable[[], Any]) -> Any:
    """Run ``step``; ModelFormatError is an accepted outcome (returns None)."""
    try:
        return step()
    except ModelFormatError:
        return None


def _arrays(m: Any) -> None:
    """A fresh model's first mesh (the readers' fast paths and the compiled weld, as a user's
    first call takes them), then every array of any registered format, each on its own (one
    failing array must not hide the rest), then a mesh of the decoded arrays and the bounds;
    an image kind's RGBA frames and its bytes."""
    if registry.is_sprite(m):
        _attempt(lambda: registry.frames(m))
        _attempt(lambda: m.to_bytes())
        return
    # a lazy reader (IQM) counts its frames from sections it checks on first use
    if _attempt(lambda: m.num_frames):
        _attempt(lambda: m.meshes(0))
    for part in (m, *getattr(m, "surfaces", ())):
        for name in type(part).ARRAYS:
            _attempt(lambda part=part, name=name: getattr(part, name))
    if _attempt(lambda: m.num_frames):
        _attempt(lambda: m.meshes(0))
        _attempt(lambda: m.bounds)


def parse_path(data: bytes, engines: tuple[str, ...] = ENGINES) -> Any:
    """Load, every array, and the checker for ``engines``; the model (or None)."""
    for engine in engines:
        findings = check_model(data, engine)
        internal = [f for f in findings if f.code == "internal"]
        if internal:
            raise InvariantError(f"checker failed ({engine}): {internal[0].message}")
    model = _attempt(lambda: quakemodels.load(data))
    if model is None:
        return None
    _arrays(model)
    if len(engines) > 1:
        check = registry.for_model(model).check(model, "any")
        if any(f.code == "internal" for f in check):
            raise InvariantError(f"{type(model).__name__}.check failed: {check}")
    return model


def heavy_path(data: bytes, model: Any) -> None:
    """The JSON dump and the exporters (each may refuse with ModelFormatError)."""
    from quakemodels.core import dump
    from quakemodels.interchange.gltf_write import build_gltf, glb_bytes
    from quakemodels.interchange.obj_write import obj_text
    from quakemodels.interchange.render import render_frame

    spec = registry.spec_id(data)
    for fmt in ("webide", "ksdump"):
        _attempt(lambda fmt=fmt: dump.dumps(data, fmt, spec_id=spec, explain=registry.explain))
    if model is None:
        return
    if registry.is_sprite(model):
        from quakemodels.interchange.sprites import contact_sheet, gif_bytes

        frames = _attempt(lambda: registry.frames(model))
        if frames is not None and len(frames) > 0:
            _attempt(lambda: gif_bytes(frames))
            _attempt(lambda: contact_sheet(frames))
        return
    em = _attempt(lambda: registry.scene(model))
    if em is None:
        return
    built = _attempt(lambda: build_gltf(em))
    if built is not None:
        _attempt(lambda: glb_bytes(*built))
    if em.num_frames > 0:
        _attempt(lambda: obj_text(em, 0, None))
        # a small picture: the rasterizer's float-to-int casts see every position
        _attempt(lambda: render_frame(em, 0, size=(16, 16)))


def archive_path(data: bytes) -> None:
    """A .pak (``PACK``) or .pk3 (``PK``) input: open, list, look up and read every entry.

    Entries declared over 1 MB are refused (ArchiveError), so a tiny zip cannot make the fuzzer
    inflate gigabytes; archives stay out of the model budgets below.
    """
    from quakemodels.archive import PakArchive, Pk3Archive

    def walk(a: Any) -> None:
        for e in a.entries:
            _attempt(lambda e=e: a.read(e.name))
            if a.find(e.name.upper()) not in (e, None):
                raise InvariantError(f"{e.name!r} upper-cased finds another entry")
        a.close()

    if data[:4] == b"PACK":
        for engine in ("quake", "quake2"):
            pak = _attempt(lambda engine=engine: PakArchive(data, engine=engine))
            if pak is not None:
                walk(pak)
    if data[:2] == b"PK":
        pk3 = _attempt(lambda: Pk3Archive(data, max_entry_size=1 << 20))
        if pk3 is not None:
            walk(pk3)


def exercise(data: bytes, *, heavy: bool = True, engines: tuple[str, ...] = ENGINES) -> None:
    """Everything on one input; raises only on a bug (see the module docstring)."""
    with strict_warnings():
        archive_path(data)
        model = parse_path(data, engines)
        if heavy:
            heavy_path(data, model)


IMPORT_ALLOWANCE = 16 << 20
"""An import may decode up to ``ImportLimits.min_positions`` (65,536) positions from any file,
a few copies of 786 KB: its memory budget is 20 × the input plus this."""


def exercise_import(path: Any, *, budgets: bool = True) -> None:
    """``read_gltf`` and ``read_gltf_scene`` on a glTF file (and, when they read, the
    conversions: ``Md2``/``Mdl.from_imported``, ``Md2``/``Mdl``/``Md3.from_scene``): each a
    ModelFormatError or a result, the readers within the time budget and 20 × input +
    IMPORT_ALLOWANCE."""
    from quakemodels import Md2, Md3, Mdl
    from quakemodels.interchange.gltf_read import read_gltf, read_gltf_scene

    size = max(path.stat().st_size, 1)
    results = []
    for reader in (read_gltf, read_gltf_scene):
        with strict_warnings():
            started = not tracemalloc.is_tracing()
            if started and budgets:
                tracemalloc.start()
            try:
                if budgets:
                    tracemalloc.reset_peak()
                base = tracemalloc.get_traced_memory()[0] if budgets else 0
                t0 = time.perf_counter()
                results.append(_attempt(lambda reader=reader: reader(path)))
                seconds = time.perf_counter() - t0
                peak = tracemalloc.get_traced_memory()[1] - base if budgets else 0
            finally:
                if started and budgets:
                    tracemalloc.stop()
        if not budgets:
            continue
        name = reader.__name__
        if peak > memory_budget(size) + IMPORT_ALLOWANCE:
            raise InvariantError(f"{name} of {size} bytes peaked at {peak} traced bytes")
        # traced time is slower than untraced: four times the parsing budget
        if seconds > 4 * time_budget(size) + 0.5:
            raise InvariantError(f"{name} of {size} bytes took {seconds * 1000:.0f} ms")
    mesh, view = results
    with strict_warnings():
        if mesh is not None:
            _attempt(lambda: Md2.from_imported(mesh))
            _attempt(lambda: Mdl.from_imported(mesh))
        if view is not None:
            for convert in (Md2.from_scene, Mdl.from_scene, Md3.from_scene):
                _attempt(lambda convert=convert: convert(view))


def time_budget(size: int) -> float:
    return TIME_ALLOWANCE + TIME_PER_MB * size / 1e6


def memory_budget(size: int) -> int:
    return MEMORY_ALLOWANCE + MEMORY_FACTOR * size


def measure(data: bytes) -> tuple[float, int]:
    """(seconds, peak traced bytes) of the parsing path on ``data`` (time untraced, best of 3).

    A run over budget is repeated (up to three in all) so that a pause of the shared machine
    is not mistaken for slowness.
    """
    with strict_warnings():
        best = float("inf")
        for _ in range(3):
            gc.collect()
            t0 = time.perf_counter()
            parse_path(data, ("any",))
            best = min(best, time.perf_counter() - t0)
            if best <= time_budget(len(data)):
                break
        started = not tracemalloc.is_tracing()
        if started:
            tracemalloc.start()
        try:
            tracemalloc.reset_peak()
            base = tracemalloc.get_traced_memory()[0]
            parse_path(data, ("any",))
            peak = tracemalloc.get_traced_memory()[1] - base
        finally:
            if started:
                tracemalloc.stop()
    return best, peak


def check_budgets(data: bytes) -> tuple[float, int]:
    """``measure`` and raise InvariantError when a budget is exceeded."""
    seconds, peak = measure(data)
    if seconds > time_budget(len(data)):
        raise InvariantError(
            f"{len(data)} bytes took {seconds * 1000:.1f} ms"
            f" (budget {time_budget(len(data)) * 1000:.1f} ms)"
        )
    if peak > memory_budget(len(data)):
        raise InvariantError(
            f"{len(data)} bytes peaked at {peak} traced bytes (budget {memory_budget(len(data))})"
        )
    return seconds, peak


def drive(
    what: str,
    description: str | None,
    calls: Callable[[int], Iterable[tuple[str, Callable[[], Any]]]],
    argv: list[str] | None = None,
) -> int:
    """A seeded generator's command line (``--seconds``, ``--seed``): runs the ``(label,
    call)`` pairs ``calls(seed)`` yields until the deadline, prints each failure with its
    traceback; exit status 1 on any."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    deadline = time.monotonic() + args.seconds
    runs = failures = 0
    for label, call in calls(args.seed):
        if time.monotonic() >= deadline:
            break
        runs += 1
        try:
            call()
        except Exception:
            failures += 1
            print(f"{label}:", file=sys.stderr)
            traceback.print_exc()
    print(f"{what}: {runs} inputs, {failures} failures")
    return 1 if failures else 0


def drive_cases(
    what: str,
    description: str | None,
    cases: Callable[[int, int], Iterable[tuple[str, bytes]]],
    run_case: Callable[[str, bytes], Any],
    argv: list[str] | None = None,
) -> int:
    """:func:`drive` over a generator of ``(label, data)`` inputs: ``run_case(label, data)``
    for each of ``cases(seed, count)``, labelled with the input's size."""
    return drive(
        what,
        description,
        lambda seed: (
            (f"{label} ({len(data)} bytes)", lambda label=label, data=data: run_case(label, data))
            for label, data in cases(seed, 10**9)
        ),
        argv,
    )
