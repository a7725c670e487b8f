"""make spec-lint (tools/spec_lint.js) and make upstream-pr (tools/upstream_pr.py)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO

needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")


def lint(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["node", str(REPO / "tools" / "spec_lint.js"), *map(str, args)],
        capture_output=True,
        text=True,
        cwd=REPO,
    )


@needs_node
def test_the_specs_pass() -> None:
    specs = sorted((REPO / "ksy").glob("*.ksy"))
    done = lint(*specs)
    assert done.returncode == 0, done.stdout + done.stderr
    last = done.stdout.splitlines()[-1]
    assert last.startswith(f"spec-lint: {len(specs)} spec(s) pass (targets: construct")
    assert "quake3_md3: schema ok, compiled for 16 of 16 targets, 0 finding(s)" in done.stdout


@needs_node
def test_lowercase_encoding_fails_schema_and_compiler(tmp_path: Path) -> None:
    spec = tmp_path / "quake3_md3.ksy"
    text = (REPO / "ksy" / "quake3_md3.ksy").read_text()
    spec.write_text(text.replace("encoding: ISO-8859-1", "encoding: iso-8859-1", 1))
    done = lint(spec)
    assert done.returncode == 1
    fails = [line for line in done.stdout.splitlines() if line.startswith("  FAIL")]
    assert (
        fails[0]
        == "  FAIL schema: /seq/2/encoding: must be equal to one of the allowed values [schema]"
    )
    assert fails[1].startswith(
        "  FAIL quake3_md3: /seq/2/encoding: warning: use canonical encoding name `ISO-8859-1`"
        " instead of `iso-8859-1`"
    )
    assert fails[1].endswith("[all targets]") and len(fails) == 2


@needs_node
def test_branch_doc_ref_long_line_and_stale_allow_entry(tmp_path: Path) -> None:
    spec = tmp_path / "quake3_md3.ksy"
    text = (REPO / "ksy" / "quake3_md3.ksy").read_text()
    text = text.replace("ioq3/blob/9e99de817540afa93bb78f852417b0a11360ec56/", "ioq3/blob/main/")
    text = text.replace("doc: at most 1024 (MD3_MAX_FRAMES)", "doc: at most 1024" + "!" * 70)
    spec.write_text(text)
    allow = tmp_path / "allow.md"
    allow.write_text("```spec-lint-allow\nquake3_md3 | all | ^never matches\n```\n")
    lines = lint("--allow", allow, spec).stdout.splitlines()
    assert lines[1:] == [
        "  FAIL style: line 68 is 91 columns: doc: at most 1024" + "!" * 70 + " [style]",
        "  FAIL style: /doc-ref: https://github.com/ioquake/ioq3/blob/main/code/qcommon/qfiles.h"
        " links to a branch (main), not a commit [style]",
        "stale allow entry (matches nothing, remove it): quake3_md3 | all | ^never matches",
        "spec-lint: 3 problem(s)",
    ]


def test_upstream_pr_package(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(REPO / "tools" / "upstream_pr.py"), "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert f"{tmp_path}/quake2_md2/quake2_md2.diff" in done.stdout.splitlines()
    md2 = tmp_path / "quake2_md2"
    assert (md2 / "game" / "quake2_md2.ksy").read_text() == (
        REPO / "ksy/quake2_md2.ksy"
    ).read_text()
    diff = (md2 / "quake2_md2.diff").read_text().splitlines()
    assert diff[:2] == ["--- a/game/quake2_md2.ksy", "+++ b/game/quake2_md2.ksy"]
    assert "-  - id: ofs_eof" in diff and "+  - id: ofs_end" in diff
    assert diff.count("-    type: u4") == 16 and "+        type: s2" in diff
    changes = (md2 / "CHANGES.md").read_text()
    assert "## quake2_md2.ksy" in changes and "## quake3_md3.ksy" not in changes
    assert not (tmp_path / "quake3_md3" / "quake3_md3.diff").exists()
    assert (tmp_path / "quake3_md3" / "game" / "quake3_md3.ksy").exists()
    # the published MDL and PAK specs are pinned too: each gets its diff, with the fixes in it
    mdl = (tmp_path / "quake_mdl" / "quake_mdl.diff").read_text().splitlines()
    assert mdl[:2] == ["--- a/game/quake_mdl.ksy", "+++ b/game/quake_mdl.ksy"]
    assert "-        repeat-expr: type" in mdl and "+        repeat-expr: num_time" in mdl
    pak = (tmp_path / "quake_pak" / "quake_pak.diff").read_text().splitlines()
    assert pak[:2] == ["--- a/game/quake_pak.ksy", "+++ b/game/quake_pak.ksy"]
    assert "-        repeat: eos" in pak and "-        encoding: UTF-8" in pak
    # the IQM spec is new to the gallery: its file and its text, no diff; every package carries
    # the section about every spec (Kaitai's serializer)
    iqm = tmp_path / "inter_quake_model"
    assert (iqm / "game" / "inter_quake_model.ksy").read_bytes() == (
        REPO / "ksy/inter_quake_model.ksy"
    ).read_bytes()
    assert not (iqm / "inter_quake_model.diff").exists()
    iqm_changes = (iqm / "CHANGES.md").read_text()
    assert "## inter_quake_model.ksy" in iqm_changes and "## quake2_md2.ksy" not in iqm_changes
    for text in (iqm_changes, changes):
        assert "## Serialization (Kaitai 0.11 read-write), every spec" in text
        assert "**No spec needed a change**" in text
