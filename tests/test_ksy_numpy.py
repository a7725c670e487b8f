"""ksy-numpy (quakemodels.ksy_numpy): literals, imports, params, bit fields, refusals, --verify.

The gallery run itself is `make ksy-numpy-gallery` (in `make test`); here, small specs written
for each construct, and --verify shown to catch a dtype that reads wrong.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import IN_CI, REPO

from quakemodels.ksy_numpy import cli, expr, layout, verify

NODE_MODULES = REPO / "node_modules"


def _module(source: str) -> dict[str, Any]:
    names: dict[str, Any] = {}
    exec(compile(source, "<layout>", "exec"), names)
    return names


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _fields(dtype: np.dtype[Any]) -> list[tuple[str, str, int]]:
    assert dtype.fields is not None
    return [(n, dtype.fields[n][0].str, dtype.fields[n][1]) for n in dtype.names or ()]


# -- the expression parser ----------------------------------------------------------------------


def test_literal_arrays_and_numbers_parse_as_kaitai_writes_them() -> None:
    assert expr.literal_array("[[-0.525731, 0.0, 0.850651], [1, 0x1f, 0b101]]") == [
        [-0.525731, 0.0, 0.850651],
        [1, 31, 5],
    ]
    assert expr.literal_array("['stand', \"run\\n\", 'a\\\\b']") == ["stand", "run\n", "a\\\\b"]
    assert expr.literal_array("[1_000, 0o17, -2.5e3, 1e-2]") == [1000, 15, -2500.0, 0.01]
    assert expr.literal_array("[]") == []
    for text in ("[a, 1]", "[1, 2].size", "[_root.x]", "[1 == 1]", "[1, 2", "12", "[true]"):
        assert expr.literal_array(text) is None, text


def test_integer_sizes_evaluate_over_bound_params() -> None:
    assert expr.literal_int("len * 2 + 4", {"len": 3}) == 10
    assert expr.literal_int("(0x10 - 2) / 4 % 3", {}) == 0
    assert expr.literal_int(" 7 ") == 7 and expr.literal_int(16) == 16
    for text in ("len", "-1", "_root.len", "x.size", "1 / 0", "'a' + 1", True):
        assert expr.literal_int(text, {"other": 1}) is None, text


# -- specs --------------------------------------------------------------------------------------

COMMON = """\
meta:
  id: stamp
  endian: be
seq:
  - id: hi
    type: u2
  - id: lo
    type: u4
types:
  pair:
    seq:
      - id: a
        type: s1
      - id: b
        type: f4
"""

MAIN = """\
meta:
  id: main
  endian: le
  encoding: ASCII
  imports:
    - /common/stamp
    - sibling
seq:
  - id: magic
    contents: [0x4d, 'N']
  - id: when
    type: stamp
  - id: pair
    type: stamp::pair
  - id: near
    type: sibling
  - id: short
    type: block(3)
  - id: long
    type: block(5)
  - id: kind
    type: u1
    enum: kinds
    valid:
      in-enum: true
  - id: name
    type: strz
    size: 6
  - id: flags_hi
    type: b3
  - id: flags_lo
    type: b13
  - id: tail
    type: u2
    repeat: expr
    repeat-expr: 2 * 2
instances:
  again:
    pos: 2
    type: stamp
  label:
    pos: 24
    size: 6
    type: str
  far:
    pos: _root.tail[0]
    type: u1
types:
  block:
    params:
      - id: len
        type: u1
    seq:
      - id: data
        size: len
  switched:
    meta:
      endian:
        switch-on: _root.kind
        cases:
          kinds::one: le
          kinds::two: be
    seq:
      - id: x
        type: u4
enums:
  kinds:
    1: one
    2: two
"""

SIBLING = """\
meta:
  id: sibling
seq:
  - id: code
    type: u2be
"""


@pytest.fixture
def specs(tmp_path: Path) -> Path:
    """A gallery-like tree: ``common/stamp.ksy`` and ``formats/{main,sibling}.ksy``."""
    _write(tmp_path, "common/stamp.ksy", COMMON)
    _write(tmp_path, "formats/sibling.ksy", SIBLING)
    return _write(tmp_path, "formats/main.ksy", MAIN)


def test_imports_params_enums_bits_and_text_lay_out(specs: Path) -> None:
    spec = layout.Spec(specs)
    assert spec.imports == [specs.parent.parent / "common/stamp.ksy", specs.parent / "sibling.ksy"]
    entries = layout.plan(spec)
    mod = _module(layout.emit(spec, entries))
    assert _fields(mod["STAMP"]) == [("hi", ">u2", 0), ("lo", ">u4", 2)]
    assert _fields(mod["STAMP__PAIR"]) == [("a", "|i1", 0), ("b", ">f4", 1)]
    assert _fields(mod["BLOCK__P_3"]) == [("data", "|V3", 0)]
    assert _fields(mod["ROOT"]) == [
        ("magic", "|V2", 0),
        ("when", "|V6", 2),
        ("pair", "|V5", 8),
        ("near", "|V2", 13),
        ("short", "|V3", 15),
        ("long", "|V5", 18),
        ("kind", "|u1", 23),
        ("name", "|V6", 24),
        ("flags_hi__flags_lo", ">u2", 30),
        ("tail", "|V8", 32),
    ]
    assert mod["ROOT"].itemsize == 40 and mod["ROOT"]["tail"].base == np.dtype("<u2")
    assert mod["ROOT"]["when"] == mod["STAMP"] and mod["ROOT"]["long"] == mod["BLOCK__P_5"]
    assert mod["BIT_FIELDS"] == {
        "ROOT": {"flags_hi__flags_lo": {"flags_hi": [13, 3], "flags_lo": [0, 13]}}
    }
    assert mod["FIELD_ENUMS"] == {"ROOT": {"kind": "kinds"}}
    assert mod["CONTENTS"] == {"ROOT": {"magic": b"MN"}}
    # the type with params alone (its size unknown) and run-time endianness are refused
    reasons = {e.const: e.layout.reason for e in entries if not e.layout.complete}
    assert reasons == {
        "BLOCK": "data: size 'len' is not an integer literal",
        "SWITCHED": "x: u4 with calculated endianness",
    }
    kinds = {e.layout.kind for e in entries if not e.layout.complete}
    assert kinds == {
        "size is not a literal",
        "endianness chosen at run time (meta/endian switch-on)",
    }
    # big-endian bits: the first field is the top bits of the big-endian integer
    data = np.zeros(1, mod["ROOT"])
    data["flags_hi__flags_lo"] = 0b101_0000000000011
    packed = int(data["flags_hi__flags_lo"][0])
    shift, width = mod["BIT_FIELDS"]["ROOT"]["flags_hi__flags_lo"]["flags_hi"]
    assert (packed >> shift) & ((1 << width) - 1) == 0b101


def test_refusals_and_clashes_are_one_line_reasons(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        "odd.ksy",
        "meta:\n  id: odd\n  endian: le\nseq:\n  - id: a\n    type: b3\n  - id: b\n    type: u1\n"
        "types:\n  tail:\n    seq:\n      - id: x\n        type: u1\n"
        "  six:\n    seq:\n      - id: y\n        type: b24\n",
    )
    spec = layout.Spec(path)
    reasons = {e.const: e.layout.reason for e in layout.plan(spec) if not e.layout.complete}
    assert reasons == {
        "ROOT": "a: bit fields of 3 bits end inside a byte",
        "TAIL": "constant TAIL clashes with a reserved name",
        "SIX": "y: bit fields fill 3 bytes",
    }
    report = cli.Report()
    report.add_spec(spec, layout.plan(spec))
    assert report.summary() == "ksy-numpy: 1 specs, 3 types, 0 accepted, 0 mismatches"
    assert dict(report.refused) == {
        "bit fields that end inside a byte": 1,
        "constant name clashes": 1,
        "bit fields filling 3, 5, 6 or 7 bytes": 1,
    }


def test_a_spec_it_cannot_read_is_refused_and_the_run_goes_on(
    specs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = _write(tmp_path, "broken.ksy", "meta:\n  id: broken\n  imports: [/nowhere/x]\n")
    out = tmp_path / "out"
    out.mkdir()
    assert cli.main([str(broken), str(specs), "--outdir", str(out), "--quiet"]) == 1
    captured = capsys.readouterr()
    assert captured.err == f"ksy-numpy: {broken}: import '/nowhere/x' not found\n"
    assert captured.out == "ksy-numpy: 2 specs, 5 types, 3 accepted, 0 mismatches\n"
    assert sorted(p.name for p in out.iterdir()) == ["main_layout.py"]


# -- --verify -------------------------------------------------------------------------------------


def _need_compiler() -> None:
    if shutil.which("node") is None or not (NODE_MODULES / "kaitai-struct-compiler").is_dir():
        if IN_CI:
            pytest.fail("CI=true but node or node_modules/kaitai-struct-compiler is missing")
        pytest.skip("node and the npm kaitai-struct-compiler are needed (make node)")


def test_verify_agrees_with_the_compiled_parser(
    specs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _need_compiler()
    argv = [str(specs), "--verify", "--compiler", str(NODE_MODULES), "--table"]
    assert cli.main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1] == "ksy-numpy: 1 specs, 5 types, 3 accepted, 0 mismatches"
    assert "accepted: 3" in lines
    # the instances at a literal pos were read by the parser and compared with the dtype
    assert "instances at a literal pos, checked: 2" in lines


def test_verify_catches_a_dtype_that_reads_wrong(
    specs: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _need_compiler()

    def wrong(spec: layout.Spec, entries: Any) -> str:  # the imported u4 read little-endian
        return layout.emit(spec, entries).replace('">u4"', '"<u4"', 1)

    monkeypatch.setattr(verify, "emit", wrong)
    assert cli.main([str(specs), "--verify", "--compiler", str(NODE_MODULES)]) == 1
    out = capsys.readouterr().out
    # inputs 0 to 3 (all 0x00, 0xFF, 0x80, 0x7f) read the same either way: a random one tells
    assert f"{specs}: ROOT: MISMATCH: input 4: when: lo: parser " in out
    assert out.splitlines()[-1] == "ksy-numpy: 1 specs, 5 types, 3 accepted, 1 mismatches"


def test_without_a_compiler_verify_says_how_to_get_one(
    specs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(verify.ENV_NODE_MODULES, raising=False)
    assert cli.main([str(specs), "--verify"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("ksy-numpy: --verify: no node_modules with kaitai-struct-compiler")
    assert "--compiler or $KSY_NUMPY_NODE_MODULES" in err


def test_the_console_script_runs_as_a_module(specs: Path, tmp_path: Path) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "quakemodels.ksy_numpy", str(specs), "--outdir", str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PYTHONPATH": str(REPO / "src")},
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == [
        f"{specs}: BLOCK: data: size 'len' is not an integer literal",
        f"{specs}: SWITCHED: x: u4 with calculated endianness",
        "ksy-numpy: 1 specs, 5 types, 3 accepted, 0 mismatches",
    ]
    assert (tmp_path / "main_layout.py").is_file()
