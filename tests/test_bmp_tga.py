"""BMP and TGA skins decoded with numpy (core/rasters.py): the same pixels, shape and mode as
Pillow's decode (after skins._rgb) on the corpus skins, on every variant Pillow writes and on
hand-built edge cases; anything else (other kinds, truncated or hostile files) returns None
and is left to Pillow; a corpus export imports no Pillow."""

from __future__ import annotations

import io
import json
import struct
import subprocess
import sys
import tracemalloc
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from quakemodels.core.rasters import MAX_PACKETS, decode_bmp, decode_tga
from quakemodels.core.skins import Skin, _rgb, find_skin

DECODERS = {"BMP": decode_bmp, "TGA": decode_tga}


def _pil(data: bytes, fmt: str) -> np.ndarray:
    """Pillow's pixels of ``data`` as skins._open makes them (RGB, or RGBA with alpha),
    read by the plugin of ``fmt`` only (TGA has no magic: another plugin may claim a file)."""
    with Image.open(io.BytesIO(data), formats=[fmt]) as img:
        return np.asarray(_rgb(img))


def _same_as_pillow(data: bytes, fmt: str) -> np.ndarray:
    ours = DECODERS[fmt](data)
    assert ours is not None
    theirs = _pil(data, fmt)
    assert ours.dtype == np.uint8 and ours.shape == theirs.shape
    assert np.array_equal(ours, theirs)
    return ours


def _picture(mode: str) -> Image.Image:
    """A 37×23 picture in ``mode`` with noise (literal packets) and flat areas (runs, some
    across lines), alpha varying."""
    rng = np.random.default_rng(7)
    pixels = rng.integers(0, 256, (23, 37, 4), dtype=np.uint8)
    pixels[4:12, 5:30] = (200, 100, 50, 255)
    pixels[15:, :] = (1, 2, 3, 0)
    image = Image.fromarray(pixels, "RGBA")
    if mode == "P":
        return image.convert("RGB").quantize(40)
    return image.convert(mode)


def _saved(image: Image.Image, fmt: str, **options: object) -> bytes:
    out = io.BytesIO()
    image.save(out, fmt, **options)
    return out.getvalue()


def _bmp(
    width: int,
    height: int,
    bits: int,
    rows: list[bytes],
    palette: bytes = b"",
    *,
    colours: int = 0,
    header_size: int = 40,
    offset: int | None = None,
    compression: int = 0,
) -> bytes:
    """A BMP with the given rows (file order), each padded to 4 bytes, after ``palette``."""
    stride = (width * bits + 31) // 32 * 4
    body = b"".join(row.ljust(stride, b"\0") for row in rows)
    info = struct.pack(
        "<IiiHHIIiiII",
        header_size,
        width,
        height,
        1,
        bits,
        compression,
        len(body),
        0,
        0,
        colours,
        0,
    ).ljust(header_size, b"\0")
    start = 14 + header_size + len(palette) if offset is None else offset
    size = 14 + len(info) + len(palette) + len(body)
    return b"BM" + struct.pack("<IHHI", size, 0, 0, start) + info + palette + body


def _tga(
    width: int,
    height: int,
    image_type: int,
    bits: int,
    pixels: bytes,
    *,
    descriptor: int = 0x20,
    ident: bytes = b"",
    colour_map: bytes = b"",
    first: int = 0,
    map_bits: int = 0,
    footer: bytes = b"",
) -> bytes:
    entries = len(colour_map) // (map_bits // 8) if map_bits else 0
    header = struct.pack(
        "<BBBHHBHHHHBB",
        len(ident),
        1 if map_bits else 0,
        image_type,
        first,
        entries,
        map_bits,
        0,
        0,
        width,
        height,
        bits,
        descriptor,
    )
    return header + ident + colour_map + pixels + footer


def _corpus_skins(corpus_dir: Path) -> list[Path]:
    return sorted(p for p in corpus_dir.rglob("*") if p.suffix.lower() in (".bmp", ".tga"))


def test_corpus_skins_equal_pillow(corpus_dir: Path) -> None:
    files = _corpus_skins(corpus_dir)
    assert [p.name for p in files] == [
        "Body.tga",  # iqm/mrfixit's skins
        "Head.tga",
        "assimp_faerie__faerie2.bmp",
        "assimp_sydney__sydney.bmp",
        "assimp_watercan__water_can.tga",
    ]
    shapes = [_same_as_pillow(p.read_bytes(), p.suffix[1:].upper()).shape for p in files]
    assert shapes == [(1024, 1024, 3), (512, 512, 3), (193, 220, 3), (193, 308, 3), (128, 256, 3)]


VARIANTS = [
    pytest.param(mode, fmt, options, id=f"{mode}-{fmt}-{'-'.join(map(str, options.values()))}")
    for mode in ("RGB", "RGBA", "L", "P")
    for fmt, options in [
        ("BMP", {}),
        ("TGA", {}),
        ("TGA", {"orientation": 1}),
        ("TGA", {"compression": "tga_rle"}),
        ("TGA", {"compression": "tga_rle", "orientation": 1}),
    ]
]


@pytest.mark.parametrize(("mode", "fmt", "options"), VARIANTS)
def test_every_variant_pillow_writes(mode: str, fmt: str, options: dict[str, object]) -> None:
    """Pillow writes BMP 8-bit (L, P), 24-bit (RGB) and 32-bit BI_RGB (RGBA, read back as
    RGB); TGA grey, colour-mapped, 24 and 32-bit, raw or RLE, bottom-up or top-down."""
    data = _saved(_picture(mode), fmt, **options)
    ours = _same_as_pillow(data, fmt)
    channels = 4 if (fmt, mode) == ("TGA", "RGBA") else 3
    assert ours.shape == (23, 37, channels)
    if mode in ("RGB", "RGBA"):
        assert ours[5, 6].tolist()[:3] == [200, 100, 50]
        assert ours[20, 0].tolist() == ([1, 2, 3, 0] if channels == 4 else [1, 2, 3])


def test_bmp_top_down_short_palette_and_offsets() -> None:
    palette = b"".join(bytes([30 * i, 20 * i, 10 * i, 99]) for i in range(4))  # BGRX
    rows = [bytes([0, 1, 3, 10]), bytes([2, 2, 0, 255])]
    bottom_up = _bmp(4, 2, 8, rows, palette, colours=4)
    ours = _same_as_pillow(bottom_up, "BMP")
    # entry i is (10i, 20i, 30i) in RGB; indices past the 4 entries are black; last row first
    assert ours[:, :, 0].tolist() == [[20, 20, 0, 0], [0, 10, 30, 0]]
    top_down = _bmp(4, -2, 8, rows, palette, colours=4)
    assert np.array_equal(_same_as_pillow(top_down, "BMP"), ours[::-1])
    # no pixel offset, or one that points at the palette: the pixels follow the palette
    for offset in (0, 54):
        assert np.array_equal(
            _same_as_pillow(_bmp(4, 2, 8, rows, palette, colours=4, offset=offset), "BMP"), ours
        )
    # a grey palette makes Pillow read grey levels: index 10 is grey 10, not black
    greys = b"".join(bytes([i, i, i, 0]) for i in range(4))
    grey = _same_as_pillow(_bmp(4, 1, 8, rows[:1], greys, colours=4), "BMP")
    assert grey[0, :, 1].tolist() == [0, 1, 3, 10]
    # the last row needs no padding: Pillow decodes it, and so do we
    rgb = _bmp(3, 2, 24, [bytes(range(9)), bytes(range(9, 18))])
    assert _same_as_pillow(rgb[:-3], "BMP")[0, 0].tolist() == [11, 10, 9]


@pytest.mark.parametrize("header_size", [52, 56, 108, 124])
def test_bmp_later_info_headers(header_size: int) -> None:
    rows = [bytes([1, 2, 3, 4, 5, 6, 7, 8]), bytes([9, 10, 11, 12, 13, 14, 15, 16])]
    data = _bmp(2, 2, 32, rows, header_size=header_size)
    ours = _same_as_pillow(data, "BMP")
    assert ours.tolist() == [[[11, 10, 9], [15, 14, 13]], [[3, 2, 1], [7, 6, 5]]]  # no alpha


def test_bmp_kinds_left_to_pillow() -> None:
    rows = [bytes([0x12, 0x34])]
    palette = bytes(64)
    assert decode_bmp(_bmp(4, 1, 4, rows, palette, colours=16)) is None  # 4-bit
    assert decode_bmp(_bmp(4, 1, 1, rows, bytes(8), colours=2)) is None  # 1-bit
    assert decode_bmp(_bmp(1, 1, 16, rows)) is None  # 16-bit
    assert (
        decode_bmp(_bmp(2, 1, 8, [b"\x02\x05\x00\x01"], palette, colours=16, compression=1)) is None
    )
    masks = struct.pack("<III", 0xFF0000, 0xFF00, 0xFF)
    assert decode_bmp(_bmp(1, 1, 32, [masks + bytes(4)], compression=3)) is None  # bit fields
    core = b"BM" + struct.pack("<IHHI", 32, 0, 0, 26) + struct.pack("<IHHHH", 12, 1, 1, 1, 24)
    assert decode_bmp(core + bytes(4)) is None  # OS/2 core header
    # a black and white 8-bit palette: Pillow reads the bytes as 1-bit pixels
    assert decode_bmp(_bmp(4, 1, 8, [bytes(4)], bytes(4) + b"\xff\xff\xff\x00", colours=2)) is None
    assert decode_bmp(_bmp(4, 1, 8, [bytes(4)], bytes(300 * 4), colours=300)) is None
    assert decode_bmp(_bmp(0, 1, 24, [b""])) is None
    assert decode_bmp(b"BM") is None and decode_bmp(b"PK" + bytes(100)) is None


def test_tga_image_id_colour_map_offset_and_flips() -> None:
    entries = b"".join(bytes([10 * i, 20 * i, 30 * i]) for i in range(1, 4))  # BGR
    indices = bytes([0, 5, 6, 7, 9, 6])
    data = _tga(
        3, 2, 1, 8, indices, ident=b"made by hand", colour_map=entries, first=5, map_bits=24
    )
    ours = _same_as_pillow(data, "TGA")
    # index 5 is the first entry (B 10, G 20, R 30); below 5 and past 7: black
    assert ours[:, :, 0].tolist() == [[0, 30, 60], [90, 0, 60]]
    assert ours[0, 1].tolist() == [30, 20, 10]
    alpha_map = b"".join(bytes([10 * i, 20 * i, 30 * i, 7]) for i in range(1, 4))  # BGRA
    four = _tga(3, 2, 1, 8, indices, colour_map=alpha_map, first=5, map_bits=32)
    assert np.array_equal(_same_as_pillow(four, "TGA"), ours)  # Pillow drops the map's alpha
    for descriptor, flipped in [
        (0x00, ours[::-1]),
        (0x30, ours[:, ::-1]),
        (0x10, ours[::-1, ::-1]),
    ]:
        data = _tga(
            3, 2, 1, 8, indices, descriptor=descriptor, colour_map=entries, first=5, map_bits=24
        )
        assert np.array_equal(_same_as_pillow(data, "TGA"), flipped)


def test_tga_packets_across_lines_and_past_the_image() -> None:
    # 2×2 grey: a literal of 3 crosses into line 2, a literal of 3 runs past the image
    literal = _tga(2, 2, 11, 8, bytes([0x02, 5, 6, 7, 0x02, 8, 9, 9]))
    assert _same_as_pillow(literal, "TGA")[:, :, 0].tolist() == [[5, 6], [7, 8]]
    exact = _tga(2, 2, 11, 8, bytes([0x81, 5, 0x81, 6, 0xFF, 0xFF]))  # runs end on lines
    assert _same_as_pillow(exact, "TGA")[:, :, 0].tolist() == [[5, 5], [6, 6]]
    for stream in (
        bytes([0x82, 5, 0x00, 6]),  # a run across a line
        bytes([0x81, 5, 0x82, 6]),  # a run past the image
    ):
        assert decode_tga(_tga(2, 2, 11, 8, stream)) is None
        with pytest.raises(OSError, match="buffer overrun"):
            _pil(_tga(2, 2, 11, 8, stream), "TGA")
    for stream in (bytes([0x81, 5, 0x81]), bytes([0x81, 5, 0x02, 6, 7])):  # cut short
        assert decode_tga(_tga(2, 2, 11, 8, stream)) is None
        with pytest.raises(OSError, match="truncated"):
            _pil(_tga(2, 2, 11, 8, stream), "TGA")


def test_tga_alpha_and_the_extension_area() -> None:
    pixels = bytes([10, 20, 30, 40, 50, 60, 70, 0])  # BGRA
    plain = _tga(2, 1, 2, 32, pixels)
    assert _same_as_pillow(plain, "TGA").tolist() == [[[30, 20, 10, 40], [70, 60, 50, 0]]]
    for attributes, alpha in [(0, [255, 255]), (3, [40, 0])]:
        extension = bytes(494) + bytes([attributes])
        at = 18 + len(pixels)
        footer = extension + struct.pack("<II", at, 0) + b"TRUEVISION-XFILE.\x00"
        data = _tga(2, 1, 2, 32, pixels, footer=footer)
        assert _same_as_pillow(data, "TGA")[0, :, 3].tolist() == alpha
    assert decode_tga(_tga(1, 1, 2, 32, pixels[:4])) is None  # shorter than a footer


def test_tga_kinds_left_to_pillow() -> None:
    grey = bytes([1, 2])
    assert decode_tga(_tga(1, 1, 2, 16, grey)) is None  # 15/16-bit
    assert decode_tga(_tga(2, 1, 3, 16, grey * 2)) is None  # grey with alpha
    assert decode_tga(_tga(2, 1, 1, 8, grey)) is None  # colour-mapped without a map
    assert decode_tga(_tga(2, 1, 1, 8, grey, colour_map=bytes(4), map_bits=16)) is None
    assert decode_tga(_tga(2, 1, 3, 8, grey, colour_map=bytes(6), map_bits=24)) is None
    assert decode_tga(_tga(2, 1, 1, 8, grey, colour_map=bytes(3), first=256, map_bits=24)) is None
    assert decode_tga(_tga(2, 1, 32, 8, grey)) is None  # RLE colour-mapped, Huffman...: no
    assert decode_tga(_tga(0, 1, 3, 8, b"")) is None


def test_truncations_fail_exactly_where_pillow_fails() -> None:
    """Every prefix of every variant: None where Pillow cannot read it, its pixels where it
    can (a BMP's last padding, a TGA's footer are not needed), never an exception."""
    checked = 0
    for mode in ("RGB", "RGBA", "L", "P"):
        picture = _picture(mode).resize((9, 5))
        for fmt, options in [("BMP", {}), ("TGA", {}), ("TGA", {"compression": "tga_rle"})]:
            data = _saved(picture, fmt, **options)
            for end in range(len(data) + 1):
                ours = DECODERS[fmt](data[:end])
                try:
                    theirs = _pil(data[:end], fmt)
                except (OSError, SyntaxError, ValueError, IndexError):
                    theirs = None
                if end < 26 and fmt == "TGA" and mode == "RGBA":
                    continue  # a file too short for a footer: we leave it to Pillow
                assert (ours is None) == (theirs is None), (mode, fmt, options, end)
                assert theirs is None or np.array_equal(ours, theirs)
                checked += 1
    assert checked > 3000


def test_mutated_headers_decode_as_pillow_or_not_at_all() -> None:
    """Random bytes written over the headers and palettes of every variant (seeded): when we
    decode the result, Pillow decodes the same pixels."""
    rng = np.random.default_rng(2026)
    decoded = 0
    for mode in ("RGB", "RGBA", "L", "P"):
        picture = _picture(mode).resize((7, 6))
        for fmt, options in [("BMP", {}), ("TGA", {}), ("TGA", {"compression": "tga_rle"})]:
            data = _saved(picture, fmt, **options)
            for _ in range(150):
                mutated = bytearray(data)
                for at in rng.integers(0, min(len(data), 60), rng.integers(1, 4)):
                    mutated[at] = rng.integers(0, 256)
                ours = DECODERS[fmt](bytes(mutated))
                if ours is not None:
                    assert np.array_equal(ours, _pil(bytes(mutated), fmt)), bytes(mutated[:60])
                    decoded += 1
    assert decoded > 300


def _peak(decode: object, data: bytes) -> tuple[object, int]:
    assert callable(decode)
    tracemalloc.start()
    try:
        result = decode(data)
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_hostile_headers_allocate_nothing_big() -> None:
    """Sizes up to the pixel limit with a few bytes of data, runs past the end, streams of
    more packets than we read: None, quickly, with no allocation near the declared size."""
    small = bytearray(_bmp(1, 1, 24, [b"\x01\x02\x03"]))
    huge = [bytes(small)]
    for width, height in [(4096, 4096), (2**31 - 1, 2**31 - 1), (2**32 - 1, 1), (1, 2**31)]:
        struct.pack_into("<II", small, 18, width, height)
        huge.append(bytes(small))
    assert decode_bmp(huge[0]) is not None
    cases = [
        *((decode_bmp, data) for data in huge[1:]),
        (decode_bmp, _bmp(4096, -4096, 8, [b"\x01"], bytes(1024))),
        (decode_tga, _tga(65535, 256, 10, 32, b"\xff\x01\x02\x03\x04" * 10)),
        (decode_tga, _tga(65535, 65535, 2, 24, bytes(30))),
        (decode_tga, _tga(65535, 256, 11, 8, b"\x7f" + bytes(20))),  # a literal past the data
    ]
    for decode, data in cases:
        result, peak = _peak(decode, data)
        assert result is None and peak < 64 * 1024, (data[:30], peak)
    # more packets than MAX_PACKETS: left to Pillow after reading that many
    many = _tga(4096, 64, 11, 8, b"\x80\x07" * (4096 * 64))
    assert MAX_PACKETS < 4096 * 64 and decode_tga(many) is None
    assert _pil(many, "TGA").shape == (64, 4096, 3)  # Pillow reads it


def test_skins_found_decode_without_pillow(tmp_path: Path) -> None:
    (tmp_path / "m.md2").write_bytes(b"")
    (tmp_path / "n.md3").write_bytes(b"")
    picture = _picture("RGBA")
    (tmp_path / "m__skin.bmp").write_bytes(_saved(picture, "BMP"))
    (tmp_path / "n.tga").write_bytes(_saved(picture, "TGA", compression="tga_rle"))
    bmp = find_skin(["skin.bmp"], tmp_path / "m.md2")
    tga = find_skin(["n.tga"], tmp_path / "n.md3")
    assert isinstance(bmp, Skin) and isinstance(tga, Skin)
    assert bmp._image is None and tga._image is None  # pixels only: no Pillow image made
    assert bmp.mode == "RGB" and tga.mode == "RGBA"
    assert np.array_equal(tga.pixels, np.asarray(picture))
    assert np.array_equal(bmp.pixels, np.asarray(picture.convert("RGB")))
    # a kind we leave to Pillow (1-bit) is still found, through Pillow
    (tmp_path / "m__skin.bmp").write_bytes(_saved(picture.convert("1"), "BMP"))
    mono = find_skin(["skin.bmp"], tmp_path / "m.md2")
    assert mono is not None and mono._image is not None and mono.pixels.shape == (23, 37, 3)


def _glb_images(path: Path) -> list[dict[str, object]]:
    blob = path.read_bytes()
    (json_length,) = struct.unpack_from("<I", blob, 12)
    images: list[dict[str, object]] = json.loads(blob[20 : 20 + json_length]).get("images", [])
    return images


def test_corpus_export_imports_no_pillow(corpus_dir: Path, tmp_path: Path) -> None:
    """The whole corpus exported in one process (``-j 1``), the BMP and TGA skins with it:
    Pillow is never imported, and those models still carry their skin."""
    folders = [str(corpus_dir / kind) for kind in ("md2", "md3", "mdl")]
    code = (
        "import sys; from quakemodels.cli import main;"
        f" rc = main(['export', *{folders!r}, '-o', {str(tmp_path)!r}, '-j', '1', '--quiet']);"
        " print(rc, sorted(m for m in sys.modules if m == 'PIL' or m.startswith('PIL.')))"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.split() == ["0", "[]"], run.stderr[-2000:]
    for name in ("assimp_faerie", "assimp_sydney", "assimp_watercan"):
        [image] = _glb_images(tmp_path / f"{name}.glb")
        assert image["mimeType"] == "image/png"
