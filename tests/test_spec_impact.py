"""tools/spec_impact.py: a real spec edit shows up value for value; a doc edit shows nothing."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path
from types import ModuleType

import pytest
from conftest import REPO
from md2builder import Md2Spec, build

needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")


def load_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("spec_impact", REPO / "tools" / "spec_impact.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["spec_impact"] = module
    spec.loader.exec_module(module)
    return module


def copy_ksy(dest: Path) -> Path:
    shutil.copytree(REPO / "ksy", dest)
    return dest


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new))


def from_md2(lines: list[str]) -> list[str]:
    """The report from its quake2_md2 block on (specs are reported in name order, and
    halflife_spr comes first)."""
    return lines[next(i for i, x in enumerate(lines) if x.startswith("quake2_md2:")) :]


def run_tool(capsys: pytest.CaptureFixture[str], *args: str | Path) -> list[str]:
    tool = load_tool()
    assert tool.main([str(a) for a in args]) == 0
    return capsys.readouterr().out.splitlines()


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    """A corpus with one synthetic MD2 whose texcoords cross 32767 when read unsigned."""
    folder = tmp_path / "corpus"
    (folder / "md2").mkdir(parents=True)
    spec = Md2Spec(texcoords=[(0, 0), (-1, 0), (63, -2), (0, 31)])
    (folder / "md2" / "negative.md2").write_bytes(build(spec))
    return folder


@needs_node
def test_s2_to_u2_shows_every_changed_value(
    tmp_path: Path, corpus: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = copy_ksy(tmp_path / "base")
    new = copy_ksy(tmp_path / "new")
    edit(
        new / "quake2_md2.ksy",
        "      - id: s_px\n        -orig-id: s\n        type: s2",
        "      - id: s_px\n        -orig-id: s\n        type: u2",
    )
    lines = run_tool(capsys, "--base-ksy", base, "--new-ksy", new, "--corpus", corpus)
    assert from_md2(lines) == [
        "quake2_md2: 1 file (md2/)",
        "  tex_point.s_normalized [tex_coords[].s_normalized]: 1 file, 1 value: "
        "-0.015625 -> 1023.984375",
        "      e.g. md2/negative.md2 tex_coords[1].s_normalized",
        "  tex_point.s_px [tex_coords[].s_px]: 1 file, 1 value: -1 -> 65535",
        "      e.g. md2/negative.md2 tex_coords[1].s_px",
        "quake2_sp2: 0 files (sp2/); spec unchanged",
        "  no matching files: nothing to compare",
        "quake3_md3: 0 files (md3/, q3/); spec unchanged",
        "  no matching files: nothing to compare",
        "quake_mdl: 0 files (mdl/); spec unchanged",
        "  no matching files: nothing to compare",
        "quake_pak: 0 files (archives/); spec unchanged",
        "  no matching files: nothing to compare",
        "quake_spr: 0 files (spr/); spec unchanged",
        "  no matching files: nothing to compare",
    ]
    assert lines[1:3] == [
        "halflife_spr: 0 files (hlspr/); spec unchanged",
        "  no matching files: nothing to compare",
    ]


@needs_node
def test_renamed_and_new_fields(
    tmp_path: Path, corpus: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = copy_ksy(tmp_path / "base")
    new = copy_ksy(tmp_path / "new")
    edit(new / "quake2_md2.ksy", "  - id: num_frames\n", "  - id: frame_count\n")
    edit(new / "quake2_md2.ksy", "repeat-expr: num_frames\n", "repeat-expr: frame_count\n")
    edit(
        new / "quake2_md2.ksy",
        "instances:\n  skins:\n",
        "instances:\n  twice_t_max:\n    value: skin_height_px * 2\n  skins:\n",
    )
    lines = run_tool(capsys, "--base-ksy", base, "--new-ksy", new, "--corpus", corpus)
    assert from_md2(lines)[:3] == [
        "quake2_md2: 1 file (md2/)",
        "  renamed: quake2_md2.num_frames -> quake2_md2.frame_count (same values in 1 file)",
        "  new field: quake2_md2.twice_t_max (1 file)",
    ]


@needs_node
def test_doc_edit_shows_nothing_even_when_parsed(
    tmp_path: Path, corpus: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = copy_ksy(tmp_path / "base")
    new = copy_ksy(tmp_path / "new")
    edit(
        new / "quake2_md2.ksy",
        "doc: signed, as `short s` in Quake II's `dstvert_t`",
        "doc: signed, as `short s` in `dstvert_t` (Quake II's qfiles.h)",
    )
    lines = run_tool(capsys, "--base-ksy", base, "--new-ksy", new, "--corpus", corpus)
    assert from_md2(lines)[:2] == [
        "quake2_md2: 1 file (md2/); generated parser unchanged",
        "  no changes (not parsed: the generated parser differs in docs only)",
    ]
    # Forced to parse with both, every value of every field still agrees.
    lines = run_tool(capsys, "--all", "--base-ksy", base, "--new-ksy", new, "--corpus", corpus)
    assert from_md2(lines)[:2] == ["quake2_md2: 1 file (md2/)", "  no changes"]


@needs_node
def test_file_that_stops_parsing(
    tmp_path: Path, corpus: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = copy_ksy(tmp_path / "base")
    new = copy_ksy(tmp_path / "new")
    edit(new / "quake2_md2.ksy", "    type: s4\n    valid: 8\n", "    type: s4\n    valid: 9\n")
    lines = run_tool(capsys, "--base-ksy", base, "--new-ksy", new, "--corpus", corpus)
    assert "  stops parsing: md2/negative.md2: ValidationNotEqualError: " in "\n".join(lines)
