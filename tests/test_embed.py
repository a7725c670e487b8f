"""Skins a glTF holds as they are (core/embed.py): sequential JPEGs and plain 8-bit PNGs go in
as their own bytes (a JPEG without its application segments), everything else is decoded
and written as PNG as before; the pixels a viewer decodes are the same either way."""

from __future__ import annotations

import io
import json
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import numpy as np
import pytest
from conftest import CORPUS, no_corpus
from PIL import Image

import quakemodels
from quakemodels.core.embed import PNG_SIGNATURE, Embeddable, embeddable
from quakemodels.core.skins import Skin, find_skin
from quakemodels.errors import ModelFormatError, QuakeModelsWarning

REPO = Path(__file__).resolve().parent.parent


def _pixels(data: bytes) -> np.ndarray:
    with Image.open(io.BytesIO(data)) as im:
        return np.asarray(im.convert("RGBA"))


def _picture(mode: str = "RGB", size: tuple[int, int] = (24, 16)) -> Image.Image:
    rng = np.random.default_rng(4)
    channels = {"RGB": 3, "RGBA": 4, "L": 1}[mode]
    array = rng.integers(0, 256, (size[1], size[0], channels), dtype=np.uint8)
    return Image.fromarray(array.squeeze(), mode)


def _encode(image: Image.Image, fmt: str, **options: object) -> bytes:
    buf = io.BytesIO()
    image.save(buf, format=fmt, **options)
    return buf.getvalue()


def _segments(jpeg: bytes) -> tuple[list[int], int]:
    """The markers of a JPEG's segments before its first scan, and where that scan starts."""
    pos, out = 2, []
    while jpeg[pos + 1] != 0xDA:
        out.append(jpeg[pos + 1])
        pos += 2 + int.from_bytes(jpeg[pos + 2 : pos + 4], "big")
    return out, pos


def _corpus_images() -> list[Path]:
    found = sorted(CORPUS.rglob("*.jpg")) + sorted(CORPUS.rglob("*.png"))
    if not found:
        no_corpus()
    return found


def test_corpus_jpeg_and_png_skins_go_in_as_they_are() -> None:
    images = _corpus_images()
    assert len(images) >= 10
    for path in images:
        data = path.read_bytes()
        found = embeddable(data)
        assert found is not None, path
        assert np.array_equal(_pixels(found.data), _pixels(data)), path
        with Image.open(io.BytesIO(data)) as im:
            assert (found.width, found.height) == im.size
            assert found.alpha == (im.mode in ("RGBA", "LA", "PA") or "transparency" in im.info)
        if found.mime == "image/png":
            assert found.data == data  # a plain PNG: every byte kept
        else:
            assert found.mime == "image/jpeg"
            _, scan = _segments(data)
            assert found.data.endswith(data[scan:])  # every scan byte kept
            kept, _ = _segments(found.data)
            assert not [m for m in kept if 0xE1 <= m <= 0xEF or m == 0xFE]  # no EXIF, ICC...
            assert 0xC0 in kept or 0xC1 in kept


def test_an_export_embeds_the_jpeg_without_pillow(tmp_path: Path) -> None:
    model = CORPUS / "md3" / "trem_rifle-shell.md3"
    if not model.is_file():
        no_corpus(model)
    out = tmp_path / "shell.glb"
    code = (
        "import sys, quakemodels;"
        f"quakemodels.load({str(model)!r}).export({str(out)!r});"
        "print(sorted(m for m in sys.modules if m == 'PIL' or m.startswith('PIL.')))"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "[]"
    blob = out.read_bytes()
    (json_length,) = struct.unpack_from("<I", blob, 12)
    doc = json.loads(blob[20 : 20 + json_length])
    binary = blob[20 + json_length + 8 :]
    [image] = doc["images"]
    assert image["mimeType"] == "image/jpeg"
    view = doc["bufferViews"][image["bufferView"]]
    chunk = binary[view["byteOffset"] : view["byteOffset"] + view["byteLength"]]
    skin = (CORPUS / "md3" / "trem_rifle-shell__rifle-shell.jpg").read_bytes()
    found = embeddable(skin)
    assert found is not None and chunk == found.data


def test_skin_pixels_of_an_embedded_file_decode_on_demand(tmp_path: Path) -> None:
    (tmp_path / "m.md3").write_bytes(b"")
    picture = _picture("RGBA")
    (tmp_path / "m.png").write_bytes(_encode(picture, "PNG"))
    skin = find_skin(["m.png"], str(tmp_path / "m.md3"), None)
    assert skin is not None and skin.embedded is not None
    assert skin.mode == "RGBA" and skin._pixels is None
    assert np.array_equal(skin.pixels, np.asarray(picture))
    assert np.array_equal(_pixels(skin.png_bytes()), np.asarray(picture))


@pytest.mark.parametrize(
    "make",
    [
        lambda: _encode(_picture(), "JPEG", progressive=True),  # SOF2
        lambda: _encode(_picture().convert("CMYK"), "JPEG"),  # 4 components
        lambda: _encode(_picture(), "JPEG")[:-40],  # cut short: no EOI
        lambda: _encode(_picture(), "PNG", optimize=False, pnginfo=_text_chunk()),  # tEXt
        lambda: _interlaced_png(),
        lambda: _encode(Image.fromarray(np.zeros((4, 4), np.uint16)), "PNG"),  # 16-bit
        lambda: _bad_crc(_encode(_picture(), "PNG")),
        lambda: _encode(_picture(), "PNG") + b"junk",  # bytes after IEND
        lambda: _short_idat(),
        lambda: b"GIF89a" + bytes(20),
        lambda: _without(_encode(_picture(), "JPEG"), 0xDB),  # no quantization table
        lambda: _wide_tables(_encode(_picture(), "JPEG")),  # 16-bit tables in an 8-bit frame
    ],
    ids=[
        "progressive",
        "cmyk",
        "truncated",
        "text-chunk",
        "interlaced",
        "16-bit",
        "bad-crc",
        "after-iend",
        "short-idat",
        "gif",
        "no-dqt",
        "16-bit-dqt",
    ],
)
def test_anything_else_is_decoded_instead(make) -> None:  # type: ignore[no-untyped-def]
    assert embeddable(make()) is None


def _without(jpeg: bytes, marker: int) -> bytes:
    """The JPEG without its segments of one kind (before the scan)."""
    pos, kept = 2, [jpeg[:2]]
    while jpeg[pos + 1] != 0xDA:
        end = pos + 2 + int.from_bytes(jpeg[pos + 2 : pos + 4], "big")
        if jpeg[pos + 1] != marker:
            kept.append(jpeg[pos:end])
        pos = end
    return b"".join(kept) + jpeg[pos:]


def _wide_tables(jpeg: bytes) -> bytes:
    """The JPEG with its first quantization table marked 16-bit (and 64 more bytes)."""
    at = jpeg.index(b"\xff\xdb")
    length = int.from_bytes(jpeg[at + 2 : at + 4], "big")
    body = bytes([0x10 | jpeg[at + 4]]) + jpeg[at + 5 : at + 2 + length] * 2
    head = b"\xff\xdb" + (len(body[:129]) + 2).to_bytes(2, "big")
    return jpeg[:at] + head + body[:129] + jpeg[at + 2 + length :]


def test_a_jpeg_viewers_cannot_dequantize_is_not_embedded(tmp_path: Path) -> None:
    # Pillow cannot decode it either: the export goes on without that texture, as for any
    # unreadable skin
    bad = _without(_encode(_picture(), "JPEG"), 0xDB)
    with pytest.raises(OSError), Image.open(io.BytesIO(bad)) as im:
        im.load()
    (tmp_path / "m.md3").write_bytes(b"")
    (tmp_path / "m.jpg").write_bytes(bad)
    with pytest.warns(QuakeModelsWarning, match="m.jpg: cannot read image"):
        assert find_skin(["m.jpg"], str(tmp_path / "m.md3"), None) is None


def test_an_embedded_file_pillow_cannot_decode_is_a_model_format_error(tmp_path: Path) -> None:
    # embedding checks structure only; a writer that needs the pixels gets a clean error
    broken = Embeddable(b"\xff\xd8\xff\xd9", "image/jpeg", 2, 2, False)
    skin = Skin(tmp_path / "m.jpg", embedded=broken)
    assert skin.mode == "RGB"
    with pytest.raises(ModelFormatError, match=r"skin .*m\.jpg: cannot decode image") as e:
        _ = skin.pixels
    assert e.value.field == "skin"


def test_a_refused_jpeg_still_exports_as_png(tmp_path: Path) -> None:
    model = CORPUS / "md3" / "trem_rifle-shell.md3"
    if not model.is_file():
        no_corpus(model)
    (tmp_path / "m.md3").write_bytes(model.read_bytes())
    picture = _picture()
    (tmp_path / "m.jpg").write_bytes(_encode(picture, "JPEG", progressive=True))
    out = tmp_path / "m.glb"
    quakemodels.load(tmp_path / "m.md3").export(out)
    blob = out.read_bytes()
    (json_length,) = struct.unpack_from("<I", blob, 12)
    [image] = json.loads(blob[20 : 20 + json_length])["images"]
    assert image["mimeType"] == "image/png"


def _text_chunk() -> object:
    from PIL import PngImagePlugin

    info = PngImagePlugin.PngInfo()
    info.add_text("Comment", "made by a test")
    return info


def _chunk(kind: bytes, body: bytes) -> bytes:
    crc = zlib.crc32(body, zlib.crc32(kind))
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)


def _png(width: int, height: int, rows: bytes, interlace: int = 0) -> bytes:
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, interlace)
    return (
        PNG_SIGNATURE
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(rows))
        + _chunk(b"IEND", b"")
    )


def _interlaced_png() -> bytes:
    return _png(1, 1, b"\0\1\2\3", interlace=1)


def _short_idat() -> bytes:
    return _png(2, 2, b"\0" + bytes(6))  # one row of two: the image data ends early


def _bad_crc(png: bytes) -> bytes:
    at = png.index(b"IDAT") + 6
    return png[:at] + bytes([png[at] ^ 1]) + png[at + 1 :]


def test_a_hand_made_plain_png_goes_in() -> None:
    png = _png(2, 2, b"\0" + bytes(range(6)) + b"\1" + bytes(range(6)))
    found = embeddable(png)
    assert found is not None and found.data == png and (found.width, found.height) == (2, 2)
    assert embeddable(_png(2, 2, b"\5" + bytes(6) + b"\0" + bytes(6))) is None  # filter type 5
