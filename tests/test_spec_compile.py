"""make spec-compile: the value digest, and the C++/Java builds on our test runtimes.

The full run (every target, every corpus file, C++98 and C++11) is `make spec-compile`; here
the digest's own rules are checked, and the C++11 and Java code for every spec is built and
run on the synthetic files, which must digest exactly as the generated Python parser does.
"""

from __future__ import annotations

import importlib
import shutil
import sys
from concurrent.futures import Future
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from conftest import REPO

sys.path.insert(0, str(REPO / "tools"))

needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
SPECS = sorted((REPO / "ksy").glob("*.ksy"))


def tool() -> ModuleType:
    return importlib.import_module("spec_compile")


def test_checksum_is_fnv1a_64_over_doubles_and_lengths() -> None:
    digest = importlib.import_module("spec_digest")
    s = digest.Sum()
    assert s.h == 0xCBF29CE484222325  # FNV-1a 64 of nothing
    s.raw(b"a")
    assert s.h == 0xAF63DC4C8601EC8C  # FNV-1a 64 of "a" (the published test vector)
    # numbers go in as little-endian doubles: 1 and 1.0 are the same value
    a, b = digest.Sum(), digest.Sum()
    a.num(1)
    b.raw(b"\x00\x00\x00\x00\x00\x00\xf0\x3f")
    assert a.h == b.h
    # every NaN is one NaN; -0.0 and 0.0 differ (the bits are the value)
    n1, n2, z1, z2 = digest.Sum(), digest.Sum(), digest.Sum(), digest.Sum()
    n1.num(float("nan"))
    n2.num(-float("nan"))
    z1.num(0.0)
    z2.num(-0.0)
    assert n1.h == n2.h and z1.h != z2.h
    # a byte string is its length then its bytes, so ("ab", "") and ("a", "b") differ
    x, y = digest.Sum(), digest.Sum()
    x.data(b"ab")
    x.data(b"")
    y.data(b"a")
    y.data(b"b")
    assert x.h != y.h


def test_first_difference_names_the_file_and_both_lines() -> None:
    sc = tool()
    a = "== x.md2\nversion 8\nframes 2 00ff\n== y.md2\nerror\n"
    assert sc.first_difference(a, a) is None
    b = a.replace("frames 2 00ff", "frames 2 00fe")
    assert sc.first_difference(a, b) == "x.md2: python `frames 2 00ff`, here `frames 2 00fe`"
    assert (
        sc.first_difference(a, a[: a.index("== y")]) == "y.md2: python `== y.md2`, here `<missing>`"
    )


def test_known_failures_match_only_their_own_error() -> None:
    sc = tool()
    cpp11 = "error: static assertion failed: result type must be constructible from input type"
    assert sc.known("cpp_stl_11", "quake2_md2", cpp11) is not None
    assert sc.known("cpp_stl_11", "quake2_md2", "error: 'x' was not declared") is None
    assert sc.known("cpp_stl_11", "quake3_md3", cpp11) is None


Prepared = tuple[Path, dict[str, Any], dict[str, str]]


@pytest.fixture(scope="module")
def prepared(tmp_path_factory: pytest.TempPathFactory) -> Prepared:
    """The synthetic files of every spec and their digests by the generated Python parser."""
    tmp = tmp_path_factory.mktemp("spec-compile")
    sc = tool()
    # as `make spec-compile` does: a spec without a digest of its own takes the generic one
    sc.GENERIC.update(s.stem for s in SPECS if sc.spec_digest.digester(s.stem) is None)
    files = {s.stem: sc.inputs(s, tmp / "no-corpus", tmp) for s in SPECS}
    reference: dict[str, str] = {}
    status, notes = sc.run_python(SPECS, tmp, files, reference)
    assert status == "ok", notes
    return tmp, files, reference


def python_done(reference: dict[str, str]) -> Future[dict[str, str]]:
    done: Future[dict[str, str]] = Future()
    done.set_result(reference)
    return done


@needs_node
def test_synthetic_files_parse_or_fail_as_designed(prepared: Prepared) -> None:
    _, _, reference = prepared
    blocks = {
        sid: dict(b.split("\n", 1) for b in text.split("== ")[1:])
        for sid, text in reference.items()
    }
    for sid, by_name in blocks.items():
        for name, body in by_name.items():
            broken = not name.startswith("(synthetic) sample.") and "groups" not in name
            broken = broken and "remainder" not in name and "latin1" not in name
            assert (body == "error\n") == broken, (sid, name, body)
    # values that show the digest reads what the builders wrote
    assert "num_files 2\n" in blocks["quake_pak"]["(synthetic) remainder.pak"]
    assert "len_index 138\n" in blocks["quake_pak"]["(synthetic) remainder.pak"]
    assert "num_frames 2\n" in blocks["quake_mdl"]["(synthetic) groups.mdl"]
    assert "frames 2 " in blocks["quake_mdl"]["(synthetic) groups.mdl"]
    # names with bytes >= 0x80 parse (ISO-8859-1) in Python, and in C++ and Java below
    for sid, name in (("quake2_md2", "md2"), ("quake3_md3", "md3"), ("quake_mdl", "mdl")):
        assert blocks[sid][f"(synthetic) latin1_names.{name}"] != "error\n"


@needs_node
@pytest.mark.skipif(shutil.which("g++") is None, reason="g++ is not installed")
def test_cpp11_builds_and_agrees_with_python(prepared: Prepared) -> None:
    tmp, files, reference = prepared
    status, notes = tool().run_cpp("11", SPECS, tmp, files, python_done(reference))
    assert status == "ok", "\n".join(notes)
    assert notes[0] == "g++ -std=c++11 -Wall -Wextra -O1: 0 warning(s)"
    agreed = [n.split(":")[0] for n in notes if n.endswith("digests equal to Python's")]
    assert agreed == [s.stem for s in SPECS if s.stem != "quake2_md2"]  # every other spec
    assert any(n.startswith("quake2_md2: known: does not build") for n in notes)


@needs_node
@pytest.mark.skipif(shutil.which("javac") is None, reason="javac is not installed")
def test_java_builds_and_agrees_with_python(prepared: Prepared) -> None:
    tmp, files, reference = prepared
    status, notes = tool().run_java(SPECS, tmp, files, python_done(reference))
    assert status == "ok", "\n".join(notes)
    agreed = [n.split(":")[0] for n in notes if n.endswith("digests equal to Python's")]
    # every spec: its own digest (tools/spec_digest.py) or the generic one
    assert agreed == [s.stem for s in SPECS] and len(agreed) >= 7


def test_a_digest_that_differs_fails_and_says_where(tmp_path: Path) -> None:
    """compare_run on a driver whose output differs from Python's in one checksum."""
    sc = tool()
    a, b = tmp_path / "a.pak", tmp_path / "b.pak"
    files = {
        "quake_pak": sc.Inputs(paths=[a, b], names=["archives/a.pak", "archives/b.pak"], corpus=2)
    }
    expected = "== archives/a.pak\nnum_files 1\n== archives/b.pak\nentries 2 00ff\n"
    driver = f"print('== {a}\\nnum_files 1\\n== {b}\\nentries 2 00fe')"
    notes: list[str] = []
    cmd = [sys.executable, "-c", driver]
    status = sc.compare_run(
        cmd, "quake_pak", files, python_done({"quake_pak": expected}), notes, "ok"
    )
    assert status == "FAIL"
    assert notes == [
        "quake_pak: DIGEST DIFFERS from Python's at archives/b.pak: "
        "python `entries 2 00ff`, here `entries 2 00fe`"
    ]
    # the same output as Python's passes, and says how many files agreed
    notes = []
    same = {"quake_pak": expected.replace("00ff", "00fe")}
    assert sc.compare_run(cmd, "quake_pak", files, python_done(same), notes, "ok") == "ok"
    assert notes == ["quake_pak: 2 files (2 corpus, 0 synthetic), digests equal to Python's"]


# --- the generic digest (any spec, walked by its ksy) ---------------------------------------------


def test_generic_digest_walks_the_ksy_field_by_field() -> None:
    """The generic digest of a two-entry pak, against the checksums computed by hand: every
    root field one line, a structure's fields in ksy order, a list as its count then items."""
    import spec_digest as d
    from archivebuilder import pak_bytes

    from quakemodels.kaitai.quake_pak import QuakePak

    data = pak_bytes([("a/b.md2", b"IDP2xyz"), ("c.pcx", b"\x0a")])
    types = d.schema(REPO / "ksy" / "quake_pak.ksy")
    assert types[("quake_pak", "index_entry")] == [
        ("name", False),
        ("ofs", False),
        ("size", False),
        ("body", False),  # an instance, after the seq fields
    ]
    got = d.generic(QuakePak.from_bytes(data), types)

    def line(key: str, n: int, *values: object) -> str:
        s = d.Sum()
        s.n = n
        for v in values:
            if isinstance(v, (bytes, str)):
                s.data(v)
            else:
                s.num(float(str(v)))
        return s.line(key)

    ofs_index = 12 + 7 + 1
    entries = (2, "a/b.md2", 12, 7, b"IDP2xyz", "c.pcx", 19, 1, b"\x0a")
    assert got == [
        line("magic", 1, b"PACK"),
        line("ofs_index", 1, ofs_index),
        line("len_index", 1, 128),
        line("num_files", 1, 2),
        line("index", 1, *entries),
    ]
    # an absent field feeds NONE, not nothing: a digest sees an `if` turning false
    absent, expected = d.Sum(), d.Sum()
    d._feed(absent, None, lambda _s, _o: None)
    expected.raw(d.NONE)
    assert absent.h == expected.h != d.Sum().h


@pytest.fixture
def all_generic() -> Any:
    """spec_compile with every spec digested by the generic digest, for one test."""
    sc = tool()
    saved = set(sc.GENERIC)
    sc.GENERIC.clear()
    sc.GENERIC.update(s.stem for s in SPECS)
    yield sc
    sc.GENERIC.clear()
    sc.GENERIC.update(saved)


@needs_node
@pytest.mark.skipif(shutil.which("g++") is None, reason="g++ is not installed")
@pytest.mark.skipif(shutil.which("javac") is None, reason="javac is not installed")
def test_generic_digest_agrees_in_cpp_and_java(all_generic: Any, tmp_path: Path) -> None:
    """A new spec needs no driver: the generic digest's C++ driver is generated from its ksy
    and the Java one walks by reflection; on every spec they agree with Python's."""
    sc = all_generic
    files = {s.stem: sc.inputs(s, tmp_path / "no-corpus", tmp_path) for s in SPECS}
    reference: dict[str, str] = {}
    status, notes = sc.run_python(SPECS, tmp_path, files, reference)
    assert status == "ok" and all("generic digest" in n for n in notes), notes
    status, notes = sc.run_cpp("11", SPECS, tmp_path, files, python_done(reference))
    assert status == "ok", "\n".join(notes)
    assert notes[0] == "g++ -std=c++11 -Wall -Wextra -O1: 0 warning(s)", notes
    agreed = [n.split(":")[0] for n in notes if n.endswith("digests equal to Python's")]
    assert agreed == [s.stem for s in SPECS if s.stem != "quake2_md2"]  # MD2: known C++11 bug
    status, notes = sc.run_java(SPECS, tmp_path, files, python_done(reference))
    assert status == "ok", "\n".join(notes)
    agreed = [n.split(":")[0] for n in notes if n.endswith("digests equal to Python's")]
    assert agreed == [s.stem for s in SPECS]
