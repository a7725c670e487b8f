#!/usr/bin/env python3
"""Build the code the compiler generates for ksy/ and run it on real files (make spec-compile).

    python tools/spec_compile.py [--corpus DIR] [ksy/SPEC.ksy ...]

Generates every target with tools/ksc.js into a temporary folder, then per target:

- python: the reference. Every corpus file of each spec (``spec_impact.corpus_map()``: each
  registered format's folder, q3/ and archives/*.pak) and a few synthetic files from the test
  builders (valid ones and broken ones) are parsed and digested with ``tools/spec_digest.py``:
  header fields, counts, and a checksum over every value of every array, value instances
  included.
- cpp_stl_98 and cpp_stl_11: each spec's generated .cpp is built with g++ (``-std=c++98`` /
  ``-std=c++11``, ``-Wall -Wextra``; every warning is printed) against our own test runtime
  (tools/runtime/cpp, not the official one: see tools/runtime/README.md) with its digest driver
  (tools/runtime/digest/cpp/<spec id>.cpp, or the generic digest's driver generated from the
  ksy for a spec without one), run on the same files, and its digests compared with Python's.
- java: the generated classes, our test runtime (tools/runtime/java) and the digest drivers
  (tools/runtime/digest/java: Digest, or GenericDigest walking by reflection) are built with
  ``javac -Xlint:all`` and run the same way.

``--generic`` digests every spec with the generic digest (tools/spec_digest.py), as a spec
without a digest of its own always is.
- javascript: loaded in node with the kaitai-struct runtime (npm, pinned) and run on the
  synthetic files; construct: imported with the construct library.
- the other targets are generated only: no runtime for them is packaged where this machine
  can reach (Debian, npm, PyPI), or their toolchain is missing; each says which.

A generated file that does not compile and is listed in KNOWN_BUILD_FAILURES (compiler bugs in
code for published upstream text, each in ksy/CHANGES.md) is reported as ``known``. Exit
status 1 on any other build failure, any digest that differs from Python's, or a known failure
that no longer happens (so the list stays true). With SPEC_COMPILE=skip in the environment the
tool prints that it was skipped and exits 0; a missing g++ or javac is reported as unavailable.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import importlib.util
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
RUNTIME = REPO / "tools" / "runtime"
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO / "tools"))

import spec_digest  # noqa: E402
import spec_impact  # noqa: E402

TOOLCHAINS = {
    "csharp": "dotnet",
    "go": "go",
    "lua": "lua",
    "nim": "nim",
    "php": "php",
    "ruby": "ruby",
}

# Targets only generated here (their toolchain or runtime is missing).
SIMPLE = ("csharp", "go", "lua", "nim", "perl", "php", "ruby", "rust", "graphviz", "html")

# (target, spec id) -> (a regex the build error must match, why). Each is a compiler bug in
# code generated from text the published upstream spec already has (ksy/CHANGES.md).
KNOWN_BUILD_FAILURES: dict[tuple[str, str], tuple[str, str]] = {
    ("cpp_stl_98", "quake2_md2"): (
        r"not yet implemented for C\+\+98",
        "the compiler has no C++98 code for the literal arrays (anorms_table)",
    ),
    ("cpp_stl_11", "quake2_md2"): (
        r"static assertion failed: result type must be constructible from input type",
        "the compiler's C++11 code for the nested literal array anorms_table builds a vector "
        "of unique_ptr from an initializer_list, which copies them: g++ rejects it",
    ),
}

CPP_DRIVERS = RUNTIME / "digest" / "cpp"
"""Where a spec's C++ digest driver is, by its id: ``<spec id>.cpp`` (a spec without one is
only built)."""


GENERIC: set[str] = set()
"""Spec ids digested with the generic digest (spec_digest.generic): those without a digest of
their own, and every spec with ``--generic``. Set by :func:`main` before the runs start."""


def cpp_driver(spec_id: str) -> Path | None:
    """The C++ digest driver of ``spec_id`` when there is one (and its digest is its own)."""
    path = CPP_DRIVERS / f"{spec_id}.cpp"
    return path if path.is_file() and spec_id not in GENERIC else None


def generic_cpp_driver(spec: Path, tmp: Path) -> Path:
    """The generic digest's C++ driver for ``spec``, generated into ``tmp``."""
    path = tmp / f"generic_{spec.stem}.cpp"
    if not path.exists():
        path.write_text(spec_digest.cpp_generic_driver(spec_digest.schema(spec)))
    return path


def generate(target: str, specs: list[Path], out: Path) -> tuple[bool, str]:
    done = subprocess.run(
        ["node", str(REPO / "tools" / "ksc.js"), "--target", target, "--outdir", str(out)]
        + [str(s) for s in specs],
        capture_output=True,
        text=True,
        check=False,
    )
    return done.returncode == 0, done.stderr.strip()


# --- the files every target parses ------------------------------------------------------------


def samples(spec_id: str) -> dict[str, bytes]:
    """Synthetic files of the spec from the test builders: valid ones and ones it must reject."""
    if spec_id == "quake2_md2":
        from md2builder import Md2Spec, build

        good = build()
        # names are ISO-8859-1: every target must read bytes >= 0x80 as their code points
        latin1 = build(Md2Spec(skins=[b"skins/\x80\xe1\xff.pcx"]))
        return {"sample.md2": good, "truncated.md2": good[:200], "latin1_names.md2": latin1}
    if spec_id == "quake3_md3":
        from md3builder import Md3Spec
        from md3builder import build as build_md3

        good = build_md3()
        latin1 = build_md3(Md3Spec(name=b"m\xe1del\x80"))
        return {
            "sample.md3": good,
            "bad_version.md3": good[:4] + b"\x10" + good[5:],
            "latin1_names.md3": latin1,
        }
    if spec_id == "quake_mdl":
        from mdlbuilder import Group, MdlSpec, Pose, SkinGroup, _default_verts
        from mdlbuilder import build as build_mdl

        verts = _default_verts()
        group = Group([0.1, 0.2], [Pose(b"fire1", verts), Pose(b"fire2", verts[::-1].copy())])
        skins: list[bytes | SkinGroup] = [bytes(72), SkinGroup([0.5, 1.0], [bytes(72)] * 2)]
        grouped = build_mdl(MdlSpec(frames=[Pose(b"idle", verts), group], skins=skins))
        latin1 = build_mdl(MdlSpec(frames=[Pose(b"st\xe1nd\x9f", verts)]))
        return {
            "sample.mdl": build_mdl(),
            "groups.mdl": grouped,
            "truncated.mdl": grouped[:300],
            "latin1_names.mdl": latin1,
        }
    if spec_id == "quake_pak":
        from archivebuilder import pak_bytes

        files = [("models/a/tris.md2", b"IDP2" + bytes(60)), ("pics/x.pcx", b"\x0a" * 7)]
        return {
            "sample.pak": pak_bytes(files),
            "remainder.pak": pak_bytes(files, dir_first=True, dirlen_extra=10),
            "bad_entry.pak": pak_bytes(files)[:-8] + struct.pack("<ii", 10**6, 4),
        }
    if spec_id == "inter_quake_model":
        from iqmbuilder import set_header, two_bone_iqm

        good = two_bone_iqm(comment=b"m\xe1de here")
        return {
            "sample.iqm": good,
            "truncated.iqm": good[:400],
            "bad_version.iqm": set_header(good, "version", 1),
        }
    return {}


@dataclass
class Inputs:
    """The files of one spec: corpus files, then the synthetic ones, with display names."""

    paths: list[Path] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    corpus: int = 0


def inputs(spec: Path, corpus: Path, tmp: Path) -> Inputs:
    found = Inputs()
    if corpus.is_dir():
        files, _ = spec_impact.corpus_files(spec.stem, spec, corpus)
        found.paths += files
        found.names += [str(f.relative_to(corpus)) for f in files]
        found.corpus = len(files)
    folder = tmp / "samples" / spec.stem
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in samples(spec.stem).items():
        (folder / name).write_bytes(data)
        found.paths.append(folder / name)
        found.names.append(f"(synthetic) {name}")
    return found


def rename(digest: str, files: Inputs) -> str:
    """Digest output with each ``== <path>`` line showing the file's display name."""
    names = {str(p): n for p, n in zip(files.paths, files.names, strict=True)}
    return re.sub(
        r"^== (.*)$", lambda m: "== " + names.get(m.group(1), m.group(1)), digest, flags=re.M
    )


def first_difference(expected: str, got: str) -> str | None:
    """None when equal, else where the two digests first differ (file, key, both values)."""
    want, have = expected.splitlines(), got.splitlines()
    current = "?"
    for i in range(max(len(want), len(have))):
        a = want[i] if i < len(want) else "<missing>"
        b = have[i] if i < len(have) else "<missing>"
        if a.startswith("== "):
            current = a[3:]
        if a != b:
            return f"{current}: python `{a}`, here `{b}`"
    return None


def checked(files: Inputs) -> str:
    return (
        f"{len(files.paths)} files ({files.corpus} corpus, "
        f"{len(files.paths) - files.corpus} synthetic), digests equal to Python's"
    )


# --- python, the reference ----------------------------------------------------------------------


def root_class(module_dir: Path, spec_id: str) -> type:
    path = module_dir / f"{spec_id}.py"
    loaded = importlib.util.spec_from_file_location(f"spec_compile_{spec_id}", path)
    assert loaded is not None and loaded.loader is not None
    module = importlib.util.module_from_spec(loaded)
    loaded.loader.exec_module(module)
    cls = getattr(module, "".join(w.capitalize() for w in spec_id.split("_")))
    assert isinstance(cls, type)
    return cls


def run_python(
    specs: list[Path], tmp: Path, files: dict[str, Inputs], reference: dict[str, str]
) -> tuple[str, list[str]]:
    out = tmp / "python"
    ok, err = generate("python", specs, out)
    if not ok:
        return "FAIL", [err]
    notes = []
    for spec in specs:
        sid = spec.stem
        types = spec_digest.schema(spec) if sid in GENERIC else None
        cls = root_class(out, sid)
        text = "".join(
            spec_digest.digest(cls, sid, p, n, types)
            for p, n in zip(files[sid].paths, files[sid].names, strict=True)
        )
        reference[sid] = text
        errors = text.count("\nerror\n")
        kind = "generic digest" if sid in GENERIC else "digested"
        notes.append(f"{sid}: {len(files[sid].paths)} files {kind} ({errors} rejected)")
    return "ok", notes


# --- C++ ------------------------------------------------------------------------------------------


def gxx(args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["g++", *args], capture_output=True, text=True, check=False)


def warnings_of(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if "warning:" in line]


def known(target: str, sid: str, error: str) -> str | None:
    """The reason of a listed build failure when ``error`` is it, else None."""
    entry = KNOWN_BUILD_FAILURES.get((target, sid))
    if entry and re.search(entry[0], error):
        return entry[1]
    return None


Reference = Future[dict[str, str]]


def run_cpp(
    std: str, specs: list[Path], tmp: Path, files: dict[str, Inputs], reference: Reference
) -> tuple[str, list[str]]:
    target = f"cpp_stl_{std}"
    if shutil.which("g++") is None:
        return "unavailable", ["no g++ on this machine"]
    out = tmp / target
    flags = [f"-std=c++{std}", "-Wall", "-Wextra", "-O1"]
    runtime_inc = RUNTIME / "cpp"
    runtime_obj = tmp / f"kaitaistream_{std}.o"
    source = str(runtime_inc / "kaitaistream.cpp")
    built = gxx([*flags, "-I", str(runtime_inc), "-c", source, "-o", str(runtime_obj)])
    if built.returncode != 0:
        return "FAIL", [f"our runtime does not build: {built.stderr.strip()[:1500]}"]
    warned = warnings_of(built.stderr)
    notes, status = [], "ok"
    for spec in specs:
        sid = spec.stem
        ok, err = generate(target, [spec], out)
        if not ok:
            why = known(target, sid, err)
            if why is None:
                return "FAIL", [f"{sid}: the compiler fails: {err}"]
            notes.append(f"{sid}: known: not generated: {why}")
            continue
        driver = cpp_driver(sid)
        exe = tmp / f"{target}_{sid}"
        sources = [str(out / f"{sid}.cpp")]
        if driver:
            sources.insert(0, str(driver))
            link = ["-o", str(exe), *sources, str(runtime_obj)]
        else:
            link = ["-c", "-o", str(tmp / f"{target}_{sid}.o"), *sources]
        built = gxx([*flags, "-I", str(runtime_inc), "-I", str(out), *link])
        warned += warnings_of(built.stderr)
        if not driver and built.returncode == 0:
            # The generic driver is C++11 (type traits); the parser and runtime objects keep
            # the target's standard and are linked to it.
            includes = ["-I", str(runtime_inc), "-I", str(out), "-I", str(CPP_DRIVERS)]
            source = str(generic_cpp_driver(spec, tmp))
            objects = [str(tmp / f"{target}_{sid}.o"), str(runtime_obj)]
            generic = ["-std=c++11", "-Wall", "-Wextra", "-O1", *includes]
            built = gxx([*generic, "-o", str(exe), source, *objects])
            warned += warnings_of(built.stderr)
        if built.returncode != 0:
            why = known(target, sid, built.stderr)
            if why is None:
                status = "FAIL"
                notes.append(f"{sid}: g++ fails: {built.stderr.strip()[:1500]}")
            else:
                notes.append(f"{sid}: known: does not build: {why}")
            continue
        if (target, sid) in KNOWN_BUILD_FAILURES:
            status = "FAIL"
            notes.append(f"{sid}: builds now: remove it from KNOWN_BUILD_FAILURES")
        status = compare_run(
            [str(exe), *map(str, files[sid].paths)], sid, files, reference, notes, status
        )
    notes.insert(0, f"g++ {' '.join(flags)}: {len(warned)} warning(s)")
    notes[1:1] = [f"warning: {w}" for w in warned]
    return status, notes


def compare_run(
    cmd: list[str],
    sid: str,
    files: dict[str, Inputs],
    reference: Reference,
    notes: list[str],
    status: str,
) -> str:
    """Run a digest driver and compare its output with Python's; returns the new status."""
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        notes.append(f"{sid}: the digest driver failed: {done.stderr.strip()[:800]}")
        return "FAIL"
    expected = reference.result()  # waits for the Python digests
    if sid not in expected:
        notes.append(f"{sid}: ran, no Python digest to compare with")
        return status
    diff = first_difference(expected[sid], rename(done.stdout, files[sid]))
    if diff is not None:
        notes.append(f"{sid}: DIGEST DIFFERS from Python's at {diff}")
        return "FAIL"
    notes.append(f"{sid}: {checked(files[sid])}")
    return status


# --- Java ---------------------------------------------------------------------------------------


def run_java(
    specs: list[Path], tmp: Path, files: dict[str, Inputs], reference: Reference
) -> tuple[str, list[str]]:
    if shutil.which("javac") is None or shutil.which("java") is None:
        return "unavailable", ["no javac/java on this machine"]
    out = tmp / "java"
    ok, err = generate("java", specs, out)
    if not ok:
        return "FAIL", [err]
    classes = tmp / "java-classes"
    classes.mkdir()
    srcs = sorted(str(p) for p in (RUNTIME / "java").rglob("*.java"))
    srcs += sorted(str(p) for p in out.rglob("*.java"))
    drivers = RUNTIME / "digest" / "java"
    srcs += [str(drivers / "Sum.java"), str(drivers / "GenericDigest.java")]
    if any(spec.stem not in GENERIC for spec in specs):  # it names every spec's classes
        srcs.append(str(drivers / "Digest.java"))
    done = subprocess.run(
        ["javac", "-Xlint:all", "-d", str(classes), *srcs],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        return "FAIL", [f"javac fails: {done.stderr.strip()[:2000]}"]
    warned = warnings_of(done.stderr)
    notes = [f"javac -Xlint:all: {len(warned)} warning(s)"]
    notes += [f"warning: {w}" for w in warned]
    status = "ok"
    for spec in specs:
        sid = spec.stem
        cmd = ["java", "-cp", str(classes), "Digest", sid, *map(str, files[sid].paths)]
        if sid in GENERIC:
            schema = tmp / f"{sid}.schema"
            schema.write_text(spec_digest.java_schema(spec_digest.schema(spec)))
            cmd = ["java", "-cp", str(classes), "GenericDigest", str(schema)]
            cmd += map(str, files[sid].paths)
        status = compare_run(cmd, sid, files, reference, notes, status)
    return status, notes


# --- the others ---------------------------------------------------------------------------------


def run_javascript(specs: list[Path], tmp: Path, files: dict[str, Inputs]) -> tuple[str, list[str]]:
    out = tmp / "javascript"
    ok, err = generate("javascript", specs, out)
    if not ok:
        return "FAIL", [err]
    notes = []
    for spec in specs:
        name = "".join(w[:1].upper() + w[1:] for w in spec.stem.split("_"))
        good = [p for p in files[spec.stem].paths if p.name.startswith("sample.")]
        script = (
            f"const KS = require({str(REPO / 'node_modules' / 'kaitai-struct')!r});"
            f"const C = require({str(out / (name + '.js'))!r});"
            f"const cls = C.{name} || C;"
            + "".join(
                f"new cls(new KS.KaitaiStream(require('fs').readFileSync({str(p)!r})));"
                for p in good
            )
        )
        env = {**os.environ, "NODE_PATH": str(REPO / "node_modules")}
        done = subprocess.run(
            ["node", "-e", script], capture_output=True, text=True, check=False, env=env
        )
        if done.returncode != 0:
            return "FAIL", [f"{spec.stem}: {done.stderr.strip()}"]
        notes.append(f"{spec.stem}: loaded in node, parsed {len(good)} synthetic file(s)")
    return "ok", notes


def run_construct(specs: list[Path], tmp: Path, files: dict[str, Inputs]) -> tuple[str, list[str]]:
    if importlib.util.find_spec("construct") is None:
        return "unavailable", ["the construct library is not installed (pip install construct)"]
    out = tmp / "construct"
    ok, err = generate("construct", specs, out)
    if not ok:
        return "FAIL", [err]
    notes, status = [], "ok"
    for f in sorted(out.glob("*.py")):
        spec = importlib.util.spec_from_file_location(f"construct_{f.stem}", f)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(module)
        except NameError as e:
            # The construct backend has no stream object: `_io.eof` becomes a bare `_io`.
            status = "limit"
            notes.append(f"{f.stem}: import fails ({e}; `if: not _io.eof`, as published upstream)")
            continue
        except Exception as e:  # the backend's other limits (halflife_spr: a Path's len())
            status = "limit"
            notes.append(f"{f.stem}: import fails: {type(e).__name__}: {e}")
            continue
        good = [p for p in files[f.stem].paths if p.name.startswith("sample.")]
        try:
            for p in good:
                getattr(module, f.stem).parse(p.read_bytes())
        except Exception as e:  # the backend's own limits, reported rather than fatal
            status = "limit"
            notes.append(f"{f.stem}: imported; parsing fails: {type(e).__name__}: {e}")
            continue
        notes.append(f"{f.stem}: imported, parsed {len(good)} synthetic file(s)")
    return status, notes


def run_simple(target: str, specs: list[Path], tmp: Path) -> tuple[str, list[str]]:
    ok, err = generate(target, specs, tmp / target)
    if not ok:
        return "FAIL", [err]
    if target == "rust":
        why = "rustc is here but the kaitai crate (crates.io) is not reachable"
    elif target == "perl":
        why = "perl is here but IO::KaitaiStruct (CPAN) is not installed"
    elif target in ("graphviz", "html"):
        return "ok", ["generated (documentation targets: nothing to build)"]
    else:
        tool = TOOLCHAINS.get(target, target)
        why = f"no {tool} toolchain on this machine" if shutil.which(tool) is None else ""
        if not why:
            why = f"{tool} is here but no Kaitai runtime for it is packaged for Debian/npm/PyPI"
    return "unavailable", [f"generated; {why}"]


def timed(fn: Callable[[], tuple[str, list[str]]]) -> tuple[str, list[str], float]:
    begun = time.monotonic()
    status, notes = fn()
    return status, notes, time.monotonic() - begun


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("specs", nargs="*", type=Path)
    parser.add_argument("--corpus", type=Path, default=REPO.parent / "shared" / "corpus")
    parser.add_argument(
        "--generic",
        action="store_true",
        help="digest every spec with the generic digest (else only specs without their own)",
    )
    args = parser.parse_args(argv)
    if os.environ.get("SPEC_COMPILE") == "skip":
        print("spec-compile: skipped (SPEC_COMPILE=skip)")
        return 0
    specs = args.specs or sorted((REPO / "ksy").glob("*.ksy"))
    GENERIC.clear()
    GENERIC.update(s.stem for s in specs if args.generic or spec_digest.digester(s.stem) is None)
    corpus = args.corpus.resolve()
    failed = False
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="spec-compile-") as t:
        tmp = Path(t)
        files = {s.stem: inputs(s, corpus, tmp) for s in specs}
        reference_dict: dict[str, str] = {}
        python_done: Reference = Future()
        runs: list[tuple[str, Callable[[], tuple[str, list[str]]]]] = [
            ("cpp_stl_98", lambda: run_cpp("98", specs, tmp, files, python_done)),
            ("cpp_stl_11", lambda: run_cpp("11", specs, tmp, files, python_done)),
            ("java", lambda: run_java(specs, tmp, files, python_done)),
            ("javascript", lambda: run_javascript(specs, tmp, files)),
            ("construct", lambda: run_construct(specs, tmp, files)),
        ]
        for target in SIMPLE:
            runs.append((target, functools.partial(run_simple, target, specs, tmp)))
        # The Python digests (CPU in this process) overlap the g++/javac builds (subprocesses,
        # in threads); each build waits for them only to compare.
        with ThreadPoolExecutor(max_workers=3) as pool:
            builds = [(target, pool.submit(timed, fn)) for target, fn in runs]
            try:
                python = timed(lambda: run_python(specs, tmp, files, reference_dict))
            finally:  # never leave a build waiting
                python_done.set_result(reference_dict)
            results = [("python", python)] + [(target, f.result()) for target, f in builds]
        for target, (status, notes, took) in results:
            failed |= status == "FAIL"
            print(f"{target:<11} {status:<11} {took:4.1f}s {notes[0] if notes else ''}")
            for note in notes[1:]:
                print(f"{'':<29} {note}")
    where = (
        f"corpus {corpus}" if corpus.is_dir() else f"no corpus at {corpus}: synthetic files only"
    )
    verdict = "FAILED" if failed else "ok"
    print(f"spec-compile: {verdict} ({where}; {time.monotonic() - started:.0f} s)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
