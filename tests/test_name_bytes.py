"""Names as bytes, as the engines read them (issue 27, item 4).

ioquake3 and Quake II read model, surface, frame, tag and skin names as ``char[]``: a byte
>= 0x80 is no reason to refuse a file. quakemodels loads such names shown with backslash
escapes (``b"m\\xe1del"`` is ``"m\\\\xe1del"``), keeps the stored bytes in ``*_raw``, and
``check`` warns where an engine compares the name as ASCII text.
"""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from pathlib import Path

import md2builder
import md3builder
import mdlbuilder
import pytest

import quakemodels
from quakemodels.kaitai.quake2_md2 import Quake2Md2
from quakemodels.kaitai.quake3_md3 import Quake3Md3
from quakemodels.kaitai.quake_mdl import QuakeMdl


def _load(data: bytes) -> quakemodels.Model:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", quakemodels.QuakeModelsWarning)
        return quakemodels.load(data)


def _md3(**names: bytes) -> bytes:
    spec = md3builder.Md3Spec()
    if "model" in names:
        spec.name = names["model"]
    if "surface" in names:
        spec.surfaces[0].name = names["surface"]
    if "frame" in names:
        spec.frames[0].name = names["frame"]
    if "tag" in names:
        for frame in spec.tags:
            frame[0].name = names["tag"]
    if "shader" in names:
        spec.surfaces[0].shaders[0] = names["shader"]
    return md3builder.build(spec)


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "quakemodels", *args], capture_output=True, text=True, timeout=60
    )


def test_md3_every_name_with_byte_e1_loads_escaped_with_raw_bytes_kept() -> None:
    data = _md3(
        model=b"m\xe1del",
        surface=b"b\xe1dy",
        frame=b"fr\xe1me",
        tag=b"tag_t\xe1rso",
        shader=b"models/\xe1.tga",
    )
    m = _load(data)
    assert m.model_name == "m\\xe1del"
    assert m.model_name_raw == b"m\xe1del".ljust(64, b"\0")
    surf = m.surfaces[0]
    assert surf.name == "b\\xe1dy" and surf.name_raw == b"b\xe1dy".ljust(64, b"\0")
    assert m.frame_names == ["fr\\xe1me", "stand2"]
    assert m.frames.names_raw[0] == b"fr\xe1me".ljust(16, b"\0")
    assert m.tags.names == ["tag_t\\xe1rso", "tag_weapon"]
    assert m.tags.names_raw == [b"tag_t\xe1rso".ljust(64, b"\0"), b"tag_weapon".ljust(64, b"\0")]
    assert surf.shaders[0].name == "models/\\xe1.tga"
    assert surf.shaders[0].name_raw.rstrip(b"\0") == b"models/\xe1.tga"
    assert m.meshes(0)[0].positions.shape == (4, 3)


def test_generated_parsers_read_names_as_latin1_bytes() -> None:
    # The specs decode names as ISO-8859-1: one character per byte, never an error.
    md3 = Quake3Md3.from_bytes(_md3(model=b"m\xe1del", tag=b"tag_\xff"))
    assert md3.name == "m\xe1del" and md3.name.encode("latin-1") == b"m\xe1del"
    assert md3.tags[0].name == "tag_\xff"
    spec2 = md2builder.Md2Spec(skins=[b"skins/\x80\xe1.pcx"])
    f = spec2.frames[0]
    spec2.frames[0] = (f[0], f[1], b"st\xe1nd", f[3])
    md2 = Quake2Md2.from_bytes(md2builder.build(spec2))
    assert md2.skins[0] == "skins/\x80\xe1.pcx"
    assert md2.frames[0].name == "st\xe1nd"
    spec1 = mdlbuilder.MdlSpec()
    spec1.frames[0].name = b"st\xe1nd"  # type: ignore[union-attr]
    mdl = QuakeMdl.from_bytes(mdlbuilder.build(spec1))
    assert mdl.frames[0].frames[0].name == "st\xe1nd"


def test_md2_and_mdl_names_with_bytes_past_ascii_load() -> None:
    spec2 = md2builder.Md2Spec(skins=[b"models/\xe1/skin.pcx"])
    f = spec2.frames[0]
    spec2.frames[0] = (f[0], f[1], b"st\xe1nd", f[3])
    m2 = _load(md2builder.build(spec2))
    assert m2.skins == ["models/\\xe1/skin.pcx"]
    assert m2.skins_raw[0] == b"models/\xe1/skin.pcx".ljust(64, b"\0")
    assert m2.frame_names == ["st\\xe1nd", "stand02"]
    spec1 = mdlbuilder.MdlSpec()
    spec1.frames[0].name = b"st\xe1nd"  # type: ignore[union-attr]
    m1 = _load(mdlbuilder.build(spec1))
    assert m1.frame_names == ["st\\xe1nd", "stand2"]
    assert m1.frame_names_raw[0] == b"st\xe1nd".ljust(16, b"\0")


def test_cli_info_and_export_load_md3_with_byte_e1_in_its_name(tmp_path: Path) -> None:
    src = tmp_path / "name.md3"
    src.write_bytes(_md3(model=b"m\xe1del"))
    info = _cli("info", str(src))
    assert info.returncode == 0, info.stderr
    assert "ascii" not in info.stderr and "error" not in info.stderr
    assert "name at offset 8 has non-ASCII bytes b'm\\xe1del'; kept as escapes" in info.stderr
    out = tmp_path / "out.glb"
    export = _cli("export", str(src), "-o", str(out))
    assert export.returncode == 0, export.stderr
    assert out.read_bytes()[:4] == b"glTF"


@pytest.mark.parametrize(
    ("names", "code", "field", "offset", "text"),
    [
        (
            {"surface": b"b\xe1dy"},
            "surface-name-bytes",
            "name",
            lambda m: m.surfaces[0].offset + 4,
            "surfaces[0].name=b'b\\xe1dy' has bytes >= 0x80: a .skin file's",
        ),
        (
            {"tag": b"tag_t\xe1rso"},
            "tag-name-bytes",
            "name",
            lambda m: m.ofs_tags,
            "tags[0].name=b'tag_t\\xe1rso' has bytes >= 0x80: the game finds tags by strcmp",
        ),
        (
            {"shader": b"models/\xe1.tga"},
            "skin-name-bytes",
            "name",
            lambda m: m.surfaces[0].offset + m.surfaces[0].ofs_shaders,
            "surfaces[0].shaders[0].name=b'models/\\xe1.tga' has bytes >= 0x80: a game file",
        ),
    ],
)
def test_md3_check_warns_where_an_engine_compares_names_as_ascii(
    names: dict[str, bytes], code: str, field: str, offset: object, text: str
) -> None:
    data = _md3(**names)
    m = _load(data)
    findings = [f for f in quakemodels.check_model(data) if f.code == code]
    assert len(findings) == 1
    f = findings[0]
    assert f.severity == "warning" and f.field == field
    assert f.offset == offset(m)  # type: ignore[operator]
    assert f.message.startswith(text)


def test_md3_check_has_no_name_findings_for_ascii_names_or_frame_and_model_names() -> None:
    # Quake III never looks a frame name or the header's name up: nothing to warn about.
    data = _md3(model=b"m\xe1del", frame=b"fr\xe1me")
    assert [f.code for f in quakemodels.check_model(data) if f.code.endswith("-bytes")] == []
    assert [f.code for f in quakemodels.check_model(_md3()) if f.code.endswith("-bytes")] == []


def test_md2_check_warns_on_skin_name_with_bytes_past_ascii(tmp_path: Path) -> None:
    src = tmp_path / "skin.md2"
    src.write_bytes(md2builder.build(md2builder.Md2Spec(skins=[b"ok.pcx", b"models/\xe1.pcx"])))
    run = _cli("check", "--json", str(src))
    assert run.returncode == 0, run.stderr
    assert (
        '"message": "skins[1]=b\'models/\\\\xe1.pcx\' has bytes >= 0x80: a game file system'
        in run.stdout
    )
    found = [f for f in quakemodels.check_model(src) if f.code == "skin-name-bytes"]
    assert [(f.field, f.offset) for f in found] == [("skins", 68 + 64)]


def test_cli_dump_shows_names_as_latin1_like_the_web_ide(tmp_path: Path) -> None:
    # The dump is the generated parser's view: one character per byte (the Web IDE's too).
    src = tmp_path / "name.md3"
    src.write_bytes(_md3(model=b"m\xe1del", tag=b"tag_t\xe1rso"))
    out = tmp_path / "name.json"
    run = _cli("dump", str(src), "-o", str(out))
    assert run.returncode == 0, run.stderr
    tree = json.loads(out.read_text(encoding="utf-8"))
    assert tree["name"] == "m\xe1del"
    assert tree["tags"][0]["name"] == "tag_t\xe1rso"
