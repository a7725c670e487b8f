"""No numpy warning text reaches a user (issue 27, item 5).

A frame scale or translate that is not finite, or one that takes a vertex past float32's
range, used to print ``warning: overflow encountered in cast`` or ``invalid value encountered
in multiply`` (and, in ``render``, ``... in cast`` from the rasterizer) before or instead of an
error. Now the decode gives inf/NaN silently, as the engine's float math does; ``check``
reports it naming ``frames[f].scale``/``translate``; ``export`` and ``render`` refuse with a
BadValueError naming the surface, frame and array, and write nothing.
"""

from __future__ import annotations

import json
import struct
import subprocess
import sys
import warnings
from pathlib import Path

import md2builder
import mdlbuilder
import numpy as np
import pytest
from conftest import CORPUS, no_corpus

import quakemodels

NUMPY_TEXT = ("encountered", "RuntimeWarning", "Traceback", "internal error")
SCALE_AT = 0  # a frame's scale is its first 12 bytes, translate the next 12


def _cli(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "quakemodels", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=120,
    )


def _clean(run: subprocess.CompletedProcess[str]) -> None:
    for text in NUMPY_TEXT:
        assert text not in run.stderr, run.stderr
        assert text not in run.stdout, run.stdout


def _md2_with_frame_float(frame: int, word: int, value: float) -> bytes:
    """The default synthetic MD2 with one float of frame ``frame``'s scale (words 0..2) or
    translate (3..5) replaced."""
    data = bytearray(md2builder.build())
    ofs_frames, framesize = (
        struct.unpack_from("<i", data, 56)[0],
        struct.unpack_from("<i", data, 16)[0],
    )
    struct.pack_into("<f", data, ofs_frames + framesize * frame + 4 * word, value)
    return bytes(data)


# (frame, word, value, expected check message, expected exporter message tail)
MUTANTS = {
    "scale overflow": (
        0,
        1,
        1e38,
        "frames[0].scale[1]=1e+38 with translate[1]=-5: vertices decode past float32's range",
        "frame 0: positions[0][2]=[117.5, inf, 2.0] is not finite",
    ),
    "scale inf": (
        0,
        0,
        float("inf"),
        "frames[0].scale[0]=inf is not a finite number",
        "frame 0: positions[0][",
    ),
    "translate nan": (
        0,
        4,
        float("nan"),
        "frames[0].translate[1]=nan is not a finite number",
        "frame 0: positions[0][0]=[-10.0, nan, 2.0] is not finite",
    ),
}


@pytest.mark.parametrize("case", list(MUTANTS))
def test_md2_mutants_give_field_named_errors_and_no_numpy_text(tmp_path: Path, case: str) -> None:
    frame, word, value, check_text, export_text = MUTANTS[case]
    src = tmp_path / "m.md2"
    src.write_bytes(_md2_with_frame_float(frame, word, value))

    info = _cli("info", src)
    _clean(info)
    assert info.returncode == 0  # info describes the file; bounds show the infinity

    check = _cli("check", "--json", src)
    _clean(check)
    assert check.returncode == 1
    errors = [f for f in json.loads(check.stdout)[0]["findings"] if f["severity"] == "error"]
    assert [f["code"] for f in errors] == ["non-finite"]
    assert errors[0]["message"].startswith(check_text)
    assert errors[0]["field"] == ("translate" if word >= 3 else "scale")

    for out, target in ((tmp_path / "m.glb", "glTF"), (tmp_path / "m.obj", "OBJ")):
        export = _cli("export", src, "-o", out)
        _clean(export)
        assert export.returncode == 1
        assert f"error: surface 'mesh' {export_text}" in export.stderr
        assert f"{target} cannot hold them" in export.stderr
        assert not out.exists() and not out.with_suffix(".mtl").exists()

    png = tmp_path / "m.png"
    render = _cli("render", src, "-o", png)
    _clean(render)
    assert render.returncode == 1
    assert "a picture cannot hold them" in render.stderr and not png.exists()


def test_mdl_scale_overflow_is_refused_by_the_reader_naming_the_field(tmp_path: Path) -> None:
    # MDL's one scale lives in the header: the reader refuses it (a guard, as before).
    src = tmp_path / "m.mdl"
    src.write_bytes(mdlbuilder.build(mdlbuilder.MdlSpec(scale=(0.5, 1e38, 1.0))))
    message = (
        "error: scale=(0.5, 9.999999680285692e+37, 1.0) at offset 8 and origin=(-10.0, -5.0,"
        " 2.0) at offset 20 put vertices at values that are not finite in float32"
    )
    for args in (
        ("export", src, "-o", tmp_path / "m.glb"),
        ("render", src, "-o", tmp_path / "m.png"),
    ):
        run = _cli(*args)
        _clean(run)
        assert run.returncode == 1 and message in run.stderr


def test_corpus_drfreak_with_ofs_skins_and_ofs_frames_swapped(tmp_path: Path) -> None:
    seed = CORPUS / "md2" / "ppm_drfreak.md2"
    if not seed.is_file():
        no_corpus(seed)
    data = bytearray(seed.read_bytes())
    (ofs_skins,) = struct.unpack_from("<i", data, 44)
    (ofs_frames,) = struct.unpack_from("<i", data, 56)
    struct.pack_into("<i", data, 44, ofs_frames)
    struct.pack_into("<i", data, 56, ofs_skins)
    src = tmp_path / "swapped.md2"
    src.write_bytes(bytes(data))
    message = "frames[4].vertices[156].normal_index=193 at offset 8831 is not below 162"
    info = _cli("info", src)
    _clean(info)
    assert info.returncode == 1 and message in info.stderr
    out = tmp_path / "swapped.glb"
    export = _cli("export", src, "-o", out)
    _clean(export)
    assert export.returncode == 1 and message in export.stderr and not out.exists()
    check = _cli("check", "--json", src)
    _clean(check)
    assert check.returncode == 1
    codes = [f["code"] for f in json.loads(check.stdout)[0]["findings"]]
    assert codes == [
        "section-overlap",
        "section-overlap",
        "frame-name-unterminated",
        "normal-index",
    ]


SIGNALLING_NAN = b"\x01\x00\x80\x7f"  # float32 bits 0x7f800001: a NaN that signals when cast
NEGATIVE_SIGNALLING_NAN = b"\x01\x00\x80\xff"


@pytest.mark.parametrize("bits", [SIGNALLING_NAN, NEGATIVE_SIGNALLING_NAN])
@pytest.mark.parametrize("word", [0, 4])  # scale x, translate y
def test_md2_signalling_nan_reads_without_warnings(bits: bytes, word: int) -> None:
    # float32 -> float64 of a signalling NaN raises numpy's "invalid value" flag: every
    # decode path of the reader must read it as a NaN, silently, like a quiet one
    data = bytearray(md2builder.build())
    ofs_frames = struct.unpack_from("<i", data, 56)[0]
    data[ofs_frames + 4 * word : ofs_frames + 4 * word + 4] = bits
    axis = word % 3
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        first = quakemodels.load(bytes(data)).meshes(0)[0].positions
        one = quakemodels.load(bytes(data)).frame_positions(0)
        every = quakemodels.load(bytes(data)).positions
        model = quakemodels.load(bytes(data))
        corner_positions, _ = model.corner_frames()
        sampled = model.frame_positions(1)
    assert np.isnan(first[:, axis]).all() and np.isnan(one[:, axis]).all()
    assert np.isnan(every[0, :, axis]).all() and not np.isnan(every[1]).any()
    assert np.isnan(corner_positions[0, :, axis]).all() and not np.isnan(sampled).any()
