"""PCX skins decoded with numpy (core/pcx.py): the same pixels as Pillow on every corpus PCX
and on synthetic files (padding, runs across lines, counts of 0xC0+ values); anything else
(other kinds, truncation) is left to Pillow."""

from __future__ import annotations

import io
import struct
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from quakemodels.core.pcx import decode_pcx
from quakemodels.core.skins import Skin, find_skin


def _pil(data: bytes) -> np.ndarray:
    with Image.open(io.BytesIO(data)) as img:
        return np.asarray(img.convert("RGB"))


def _pcx(width: int, height: int, per_line: int, stream: bytes, palette: bytes) -> bytes:
    header = bytearray(128)
    header[:4] = b"\x0a\x05\x01\x08"
    struct.pack_into("<4H", header, 4, 0, 0, width - 1, height - 1)
    header[65] = 1
    struct.pack_into("<H", header, 66, per_line)
    return bytes(header) + stream + b"\x0c" + palette


def test_corpus_pcx_equal_pillow(corpus_dir: Path) -> None:
    files = sorted(corpus_dir.rglob("*.pcx"))
    assert len(files) >= 7
    for path in files:
        data = path.read_bytes()
        ours = decode_pcx(data)
        assert ours is not None, path
        assert ours.shape == _pil(data).shape and np.array_equal(ours, _pil(data)), path


def test_synthetic_runs_padding_and_high_values() -> None:
    palette = b"".join(bytes([i, 255 - i, 0]) for i in range(256))  # entry i: (i, 255 - i, 0)
    # 3×2 pixels, 4 bytes per line (one padding byte), a run of 4 fills line 1, a value of
    # 0xC5 needs a count of 1 (0xC1 0xC5), and 0xC0 is a run of nothing.
    stream = bytes([0xC4, 7, 0xC0, 9, 0xC1, 0xC5, 2, 3, 0])
    data = _pcx(3, 2, 4, stream, palette)
    ours = decode_pcx(data)
    assert ours is not None and np.array_equal(ours, _pil(data))
    assert ours[:, :, 0].tolist() == [[7, 7, 7], [0xC5, 2, 3]]
    assert ours[:, :, 1].tolist() == [[248, 248, 248], [58, 253, 252]]
    assert not ours[:, :, 2].any()
    across = _pcx(3, 2, 4, bytes([0xC5, 7, 9, 0xC1, 0xC5, 2]), palette)  # a run into line 2
    assert decode_pcx(across) is None
    with pytest.raises(OSError):
        _pil(across)  # Pillow refuses it, and the skin lookup warns as before


def test_other_kinds_and_truncation_are_left_to_pillow() -> None:
    palette = bytes(768)
    good = _pcx(2, 1, 2, bytes([1, 2]), palette)
    assert decode_pcx(good) is not None
    assert decode_pcx(good[:50]) is None  # no header
    assert decode_pcx(good.replace(b"\x0a\x05\x01\x08", b"\x0a\x03\x01\x08", 1)) is None
    assert decode_pcx(_pcx(2, 1, 2, bytes([1]), palette)) is None  # too few pixels
    assert decode_pcx(_pcx(2, 1, 2, bytes([1, 0xC3]), palette)) is None  # count, no value
    assert decode_pcx(_pcx(3, 1, 2, bytes([1, 2]), palette)) is None  # lines shorter than width
    assert decode_pcx(good[:-769] + b"\x00" + palette) is None  # no palette marker
    assert decode_pcx(_pcx(2, 1, 2, b"", palette)) is None  # no stream at all (an IndexError once)
    # counts of 0xC0+ values end to end: the parity along runs of high bytes decides
    stream = bytes([0xC2, 0xC1, 0xC1, 0xC9, 0xC0, 0xC7, 5])  # 2 × 0xC1, 1 × 0xC9, 0 × 0xC7, 5
    data = _pcx(4, 1, 4, stream, bytes(range(256)) * 3)
    ours = decode_pcx(data)
    assert ours is not None and np.array_equal(ours, _pil(data))
    assert ours[0, :, 0].tolist() == [0xC1 * 3 % 256, 0xC1 * 3 % 256, 0xC9 * 3 % 256, 5 * 3]


def test_runs_past_the_last_line_and_on_line_starts() -> None:
    palette = b"".join(bytes([i, i, i]) for i in range(256))  # entry i: grey i
    # 2×2 pixels: a run of 3 from pixel 2 runs past the image's last line; Pillow refuses it
    past = _pcx(2, 2, 2, bytes([1, 2, 0xC3, 5]), palette)
    assert decode_pcx(past) is None
    with pytest.raises(OSError):
        _pil(past)
    # runs that end exactly on a line's end, and one more byte after the image: decoded
    exact = _pcx(2, 2, 2, bytes([0xC2, 5, 0xC2, 6, 7]), palette)
    ours = decode_pcx(exact)
    assert ours is not None and np.array_equal(ours, _pil(exact))
    assert ours[:, :, 0].tolist() == [[5, 5], [6, 6]]


def test_skin_from_pcx_has_pixels_and_a_pil_image_on_demand(tmp_path: Path) -> None:
    palette = bytes([10, 20, 30]) * 256
    path = tmp_path / "m__skin.pcx"
    path.write_bytes(_pcx(4, 4, 4, bytes([0xC4, 0] * 4), palette))
    (tmp_path / "m.md2").write_bytes(b"")
    skin = find_skin(["skin.pcx"], tmp_path / "m.md2")
    assert isinstance(skin, Skin) and skin.mode == "RGB"
    assert skin.pixels.shape == (4, 4, 3) and skin.pixels[3, 3].tolist() == [10, 20, 30]
    image = skin.image
    assert isinstance(image, Image.Image) and image.getpixel((3, 3)) == (10, 20, 30)
    with Image.open(io.BytesIO(skin.png_bytes())) as png:
        assert np.array_equal(np.asarray(png), skin.pixels)
    with pytest.raises(TypeError, match="needs an image, pixels or an embeddable file"):
        Skin(path)
