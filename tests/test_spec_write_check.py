"""tools/spec_write_check.py (make spec-write-check): Kaitai's read-write parser as a writer.

The whole corpus runs in `make spec-write-check`; here, the bundled sample through the MD2
read-write parser, a name with text after its NUL, and the check failing when the writers
disagree.
"""

from __future__ import annotations

import importlib.util
import shutil
import sys
from types import ModuleType
from typing import Any

import pytest
from conftest import IN_CI, REPO

from quakemodels import Md2

SAMPLE = REPO / "src" / "quakemodels" / "samples" / "quakeguy.md2"


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "spec_write_check", REPO / "tools" / "spec_write_check.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["spec_write_check"] = module  # its dataclass looks its module up
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def rw(tmp_path_factory: pytest.TempPathFactory) -> tuple[ModuleType, ModuleType]:
    """The tool and the read-write MD2 parser it compiles."""
    if shutil.which("node") is None or not (REPO / "node_modules").is_dir():
        if IN_CI:
            pytest.fail("CI=true but node or node_modules is missing")
        pytest.skip("node and the npm kaitai-struct-compiler are needed (make node)")
    tool = _tool()
    out = tmp_path_factory.mktemp("rw")
    modules = tool.compile_read_write([REPO / "ksy" / "quake2_md2.ksy"], out)
    assert sorted(p.name for p in out.iterdir()) == ["quake2_md2.py"]
    assert "def _write__seq" in (out / "quake2_md2.py").read_text()
    return tool, modules["quake2_md2"]


def test_the_sample_writes_back_byte_for_byte(rw: tuple[ModuleType, ModuleType]) -> None:
    tool, md2 = rw
    data = SAMPLE.read_bytes()
    assert tool.kaitai_write(md2, "quake2_md2", data) == data == Md2.from_bytes(data).to_bytes()
    tally = tool.Tally()
    tool.check_file(tally, "sample", data, md2, "quake2_md2", edited=False)
    assert (tally.files, tally.same_input, tally.same_to_bytes, tally.failures) == (1, 1, 1, [])


def test_text_after_a_names_nul_is_not_kept_but_the_values_are(
    rw: tuple[ModuleType, ModuleType], capsys: pytest.CaptureFixture[str]
) -> None:
    tool, md2 = rw
    data = bytearray(SAMPLE.read_bytes())
    model = Md2.from_bytes(bytes(data))
    name_at = model.ofs_frames + 24  # frame 0's 16-byte name after scale and translate
    end = data.index(0, name_at)
    assert end < name_at + 15
    data[end + 1 : name_at + 16] = b"x" * (name_at + 15 - end)
    written = tool.kaitai_write(md2, "quake2_md2", bytes(data))
    assert written != bytes(data)
    assert (
        tool.spans(written, bytes(data))
        == f"{name_at + 15 - end} bytes at {end + 1}-{name_at + 15}"
    )
    tally = tool.Tally()
    tool.check_file(tally, "dirty", bytes(data), md2, "quake2_md2", edited=False)
    assert (tally.same_input, tally.same_to_bytes, tally.failures) == (0, 1, [])
    assert "differs from the input only in bytes the spec does not keep" in capsys.readouterr().out


def test_writers_that_disagree_fail_the_check(
    rw: tuple[ModuleType, ModuleType], monkeypatch: pytest.MonkeyPatch
) -> None:
    tool, md2 = rw
    data = SAMPLE.read_bytes()

    class Other:
        def __init__(self, model: Any) -> None:
            self.model = model

        def to_bytes(self) -> bytes:  # our writer, one byte off at the end
            return data[:-1] + bytes([data[-1] ^ 1])

    monkeypatch.setattr(tool.registry, "load", lambda source: Other(source))
    tally = tool.Tally()
    tool.check_file(tally, "edited", data, md2, "quake2_md2", edited=True)
    assert tally.same_to_bytes == 0
    assert tally.failures == [
        f"edited: _write() != to_bytes(): 1 bytes at {len(data) - 1}-{len(data) - 1}"
    ]
