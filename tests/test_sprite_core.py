"""The format-neutral sprite pieces: SpriteFrames, the shared frame walk, the palette's one
home, PCX frames written and read, and the pictures (PNG, sheet, GIF) made of frames."""

from __future__ import annotations

import io
import itertools
import os
from dataclasses import fields
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from quakemodels.core import palette as core_palette
from quakemodels.core.pcx import decode_pcx, decode_pcx_indexed, encode_pcx
from quakemodels.core.png import encode_png
from quakemodels.core.records import replace
from quakemodels.core.sprite import (
    FrameLayout,
    FrameRecord,
    Picture,
    SpriteFrame,
    SpriteFrames,
    encode_frames,
    file_stem,
    indexed_rgba,
    looked_up,
    read_header,
    records_from_frames,
    rgba_lut,
    sprite_frame,
    transparent_index,
    walk_frames,
)
from quakemodels.errors import BadValueError, ModelFormatError, TruncatedError
from quakemodels.formats.mdl import palette as mdl_palette
from quakemodels.formats.mdl.write import quantize_skin
from quakemodels.interchange import sprites as pictures

# spritegn.h's records as the sprite specs generate them (the formats' own tests read theirs)
LAYOUT = FrameLayout(
    frame=np.dtype([("type", "<i4")]),
    group=np.dtype([("num_intervals", "<i4")]),
    interval=np.dtype("<f4"),
    picture=np.dtype(
        [("origin_x", "<i4"), ("origin_y", "<i4"), ("width", "<i4"), ("height", "<i4")]
    ),
)


def _solid(w: int, h: int, colour: tuple[int, int, int, int]) -> np.ndarray:
    out = np.zeros((h, w, 4), np.uint8)
    out[:] = colour
    return out


def _group_frames() -> SpriteFrames:
    # a single 4x2 frame, then a group of two 2x2 pictures shown 0.25 s and 0.5 s
    return SpriteFrames(
        "t",
        (
            SpriteFrame(_solid(4, 2, (255, 0, 0, 255)), (-2, 1), None, 0),
            SpriteFrame(_solid(2, 2, (0, 255, 0, 255)), (-1, 1), 0.25, 1),
            SpriteFrame(_solid(2, 2, (0, 0, 255, 0)), (-1, 1), 0.75, 1),
        ),
    )


def test_durations_are_differences_of_cumulative_intervals() -> None:
    assert _group_frames().durations() == [0.1, 0.25, 0.5]


def test_placed_puts_frames_of_different_sizes_on_one_canvas() -> None:
    frames = _group_frames()
    assert frames.bounds() == (-2, -1, 2, 1)
    placed = frames.placed()
    assert [p.shape for p in placed] == [(2, 4, 4)] * 3
    # the 2x2 green picture sits in the middle columns, transparent beside it
    assert placed[1][:, 1:3, 1].tolist() == [[255, 255], [255, 255]]
    assert placed[1][:, 0, 3].tolist() == [0, 0] and placed[1][:, 3, 3].tolist() == [0, 0]


def _clear(width: int, height: int) -> np.ndarray:
    """A transparent (H,W,4) picture that takes no memory (a broadcast pixel)."""
    return np.broadcast_to(np.zeros((1, 1, 4), np.uint8), (height, width, 4))


def _sprite(*pictures: tuple[int, int, tuple[int, int]]) -> SpriteFrames:
    """Pictures of (width, height, origin)."""
    return SpriteFrames(
        "s", tuple(SpriteFrame(_clear(w, h), o, None, i) for i, (w, h, o) in enumerate(pictures))
    )


@pytest.mark.parametrize(
    ("sprite", "span"),
    [
        (_sprite((4, 4, (0, 0)), (4, 4, (0, 2**30))), "4x1073741828"),  # origins far apart
        (_sprite((4096, 4096, (0, 0)), (4, 4, (4093, 0))), "4097x4096"),  # one canvas too big
        (_sprite(*[(2048, 2048, (0, 0))] * 17), "2048x2048"),  # 17 canvases of 4M pixels
    ],
)
def test_placed_refuses_a_canvas_too_large_for_an_animation(
    sprite: SpriteFrames, span: str
) -> None:
    with pytest.raises(BadValueError, match=f"span {span} pixels: too many for one animation"):
        sprite.placed()
    with pytest.raises(BadValueError, match="too many for one animation"):
        pictures.gif_bytes(sprite)  # the GIF places them first


def test_placed_takes_canvases_within_the_limits() -> None:
    placed = _sprite((1024, 1024, (0, 0)), (4, 4, (2000, -3000))).placed()
    assert [p.shape for p in placed] == [(3004, 2004, 4)] * 2  # y down: -origin y


def test_palette_has_one_home_and_mdl_reads_it_from_there() -> None:
    assert mdl_palette.default_palette is core_palette.default_palette
    image = np.zeros((1, 2, 3), np.uint8)
    image[0, 1] = core_palette.default_palette()[250]  # a fullbright colour
    # MDL skins leave fullbrights out unless asked; the core quantizer takes the count
    assert quantize_skin(image, fullbrights=True).tolist() == [[0, 250]]
    assert core_palette.quantize(image, usable=256, field="f").tolist() == [[0, 250]]
    with pytest.raises(BadValueError, match="whole numbers") as e:
        core_palette.quantize(np.full((1, 1, 3), 0.5), field="frames[3]")
    assert e.value.field == "frames[3]"


def test_indexed_rgba_leaves_index_255_transparent() -> None:
    pal = core_palette.default_palette()
    rgba = indexed_rgba(np.array([[0, 255]], np.uint8), pal, transparent_index())
    assert rgba[0, 0].tolist() == [*pal[0].tolist(), 255]
    assert rgba[0, 1, 3] == 0


def test_frame_walk_round_trips_a_group_and_names_the_cut_field() -> None:
    indices = [np.full(f.rgba.shape[:2], k, np.uint8) for k, f in enumerate(_group_frames().frames)]
    records = records_from_frames(_group_frames(), indices)
    assert [(r.type, len(r.pictures)) for r in records] == [(0, 1), (1, 2)]
    data = encode_frames(records, LAYOUT)
    # type + picture(16 + 8) | type + count + 2 intervals + 2 × (16 + 4)
    assert len(data) == 4 + 16 + 8 + 4 + 4 + 8 + 2 * (16 + 4)
    back, end = walk_frames(data, 0, 2, LAYOUT)
    assert end == len(data)
    assert back[1].intervals is not None and back[1].intervals.tolist() == [0.25, 0.75]
    assert back[1].pictures[1].pixels.tolist() == [[2, 2], [2, 2]]
    assert encode_frames(back, LAYOUT) == data
    with pytest.raises(TruncatedError) as e:
        walk_frames(data[:-1], 0, 2, LAYOUT)
    assert e.value.field == "frames[1].group.pictures[1].pixels" and e.value.offset == 80
    bad = bytearray(data)
    bad[28 + 4 : 28 + 8] = (-5).to_bytes(4, "little", signed=True)
    with pytest.raises(ModelFormatError, match="num_intervals=-5 at offset 32"):
        walk_frames(bytes(bad), 0, 2, LAYOUT)


def test_group_intervals_must_be_above_zero_and_may_not_increase() -> None:
    """Quake refuses interval<=0; intervals that do not increase load (the corpus's slipgate
    flame has fourteen of 0.05), so a build keeps them as given."""
    frames = _group_frames()
    swapped = SpriteFrames("t", (frames.frames[0], frames.frames[2], frames.frames[1]))
    indices = [np.zeros(f.rgba.shape[:2], np.uint8) for f in swapped.frames]
    records = records_from_frames(swapped, indices)
    assert records[1].intervals is not None
    assert records[1].intervals.tolist() == [0.75, 0.25]
    zero = SpriteFrames("t", (frames.frames[0], replace(frames.frames[1], interval=0.0)))
    with pytest.raises(BadValueError, match=r"interval<=0\), got \[0.0\]") as e:
        records_from_frames(zero, indices[:2])
    assert e.value.field == "interval"


def test_pcx_written_reads_back_in_pillow_and_ours() -> None:
    rng = np.random.default_rng(7)
    indices = rng.integers(0, 256, (5, 7), dtype=np.uint8)
    indices[2] = 200  # a run of a value >= 0xC0
    pal = core_palette.default_palette()
    data = encode_pcx(indices, pal)
    decoded = decode_pcx_indexed(data)
    assert decoded is not None
    assert np.array_equal(decoded[0], indices) and np.array_equal(decoded[1], pal)
    pil = np.array(Image.open(io.BytesIO(data)).convert("RGB"))
    assert np.array_equal(pil, pal[indices])
    assert np.array_equal(decode_pcx(data), pal[indices])


def test_gif_shows_each_frame_for_its_interval_and_keeps_transparency() -> None:
    frames = _group_frames()
    gif = Image.open(io.BytesIO(pictures.gif_bytes(frames, background=None)))
    assert gif.n_frames == 3
    durations = []
    for k in range(3):
        gif.seek(k)
        durations.append(gif.info["duration"])
    assert durations == [100, 250, 500]
    gif.seek(2)  # the blue picture is fully transparent: nothing shows
    assert np.array(gif.convert("RGBA"))[..., 3].max() == 0
    gif.seek(1)
    rgba = np.array(gif.convert("RGBA"))
    assert rgba[0, 1].tolist() == [0, 255, 0, 255] and rgba[0, 0, 3] == 0


def test_sheet_and_png_frames(tmp_path: Path) -> None:
    frames = _group_frames()
    sheet = pictures.contact_sheet(frames, scale=2)
    # 2 x 2 cells: at least 64 wide for the labels, 16 pixels of picture x 2 + 8 tall and a
    # 14-pixel label
    assert sheet.size == (2 * pictures.MIN_CELL_WIDTH, 2 * (16 * 2 + 8 + 14))
    written = pictures.save_png_frames(frames, tmp_path, "t")
    assert [p.name for p in written] == ["t_0.png", "t_1.png", "t_2.png"]
    assert written[0].read_bytes() == encode_png(frames.frames[0].rgba)


def test_read_frames_from_pngs_and_a_gif(tmp_path: Path) -> None:
    frames = _group_frames()
    paths = pictures.save_png_frames(frames, tmp_path, "t")
    back = pictures.read_frames(paths)
    assert [f.interval for f in back.frames] == [None, None, None]
    assert [f.origin for f in back.frames] == [(-2, 1), (-1, 1), (-1, 1)]
    assert np.array_equal(back.frames[1].rgba, frames.frames[1].rgba)
    gif = tmp_path / "t.gif"
    gif.write_bytes(pictures.gif_bytes(frames))
    animated = pictures.read_frames([gif])
    assert [f.interval for f in animated.frames] == [0.1, 0.35, 0.85]
    with pytest.raises(BadValueError, match="cannot read frame picture"):
        pictures.read_frames([tmp_path / "missing.png"])


def test_non_increasing_group_intervals_show_as_stored() -> None:
    # some tools store each picture's own time (slipgate's flame: 14 × 0.05): shown as such
    rgba = _solid(1, 1, (1, 2, 3, 255))
    flat = SpriteFrames("t", tuple(SpriteFrame(rgba, (0, 0), 0.05, 0) for _ in range(3)))
    assert flat.durations() == [0.05, 0.05, 0.05]


def test_median_cut_palette_keeps_index_255_free() -> None:
    red, blue = _solid(2, 2, (200, 0, 0, 255)), _solid(2, 2, (0, 0, 200, 255))
    blue[0, 0] = (0, 255, 0, 0)  # transparent: not in the palette
    pal = core_palette.median_cut([red, blue])
    colours = {tuple(c) for c in pal[:255].tolist()}
    assert (200, 0, 0) in colours and (0, 0, 200) in colours and (0, 255, 0) not in colours
    assert pal[255].tolist() == [0, 0, 0]


def test_read_header_names_magic_version_and_count() -> None:
    header = np.dtype([("ident", "V4"), ("version", "<i4"), ("num_frames", "<i4")])
    good = b"IDS2" + (2).to_bytes(4, "little") + (1).to_bytes(4, "little")
    assert int(read_header(good, b"IDS2", 2, header)["num_frames"][0]) == 1
    cases = [
        (b"IDSP" + good[4:], "ident", 0),
        (good[:10], "header", 0),
        (good[:4] + (3).to_bytes(4, "little") + good[8:], "version", 4),
        (good[:8] + (-1).to_bytes(4, "little", signed=True), "num_frames", 8),
    ]
    for data, field, offset in cases:
        with pytest.raises(ModelFormatError) as e:
            read_header(data, b"IDS2", 2, header)
        assert (e.value.field, e.value.offset) == (field, offset)


@pytest.mark.parametrize("fmt", ["spr", "hlspr"])
def test_both_spr_formats_report_bounds_and_trailing_bytes(fmt: str) -> None:
    """A radius that is not finite, a max size smaller than a picture and bytes after the
    frames: the findings Quake's and Half-Life's .spr share, with their fields and offsets."""
    import importlib

    package = f"quakemodels.formats.{fmt}"
    build = importlib.import_module(f"{package}.write").from_frames
    check = importlib.import_module(f"{package}.check").check
    offsets = importlib.import_module(f"{package}.layout").HEADER_OFFSETS
    picture = np.zeros((8, 16, 4), np.uint8)  # sides sprgen makes: multiples of 8
    picture[..., 3] = 255
    sprite = build(SpriteFrames("s", (SpriteFrame(picture, (0, 0), None, 0),)))
    assert [f.code for f in check(sprite, "any")] == []
    sprite.header["radius"] = np.nan
    sprite.header["max_width"] = 8
    sprite.trailing = b"\0" * 5
    frames_end = len(sprite.to_bytes()) - 5
    found = [(f.severity, f.code, f.field, f.offset, f.message) for f in check(sprite, "any")]
    assert found == [
        ("warning", "not-finite", "radius", offsets["radius"], "radius=nan is not finite"),
        (
            "warning",
            "max-size",
            "max_width",
            offsets["max_width"],
            "max size 8x8 is smaller than a frame (16x8): the engine sizes the sprite's bounds"
            " from it",
        ),
        (
            "warning",
            "trailing",
            None,
            frames_end,
            "5 bytes after the frames, which the engine never reads",
        ),
    ]


def test_a_picture_of_no_pixels_but_a_huge_side_is_drawn_or_refused_cheaply() -> None:
    # a Half-Life sprite frame stored 642739065x0 has no pixel bytes, so it loads; drawing
    # it must not ask Pillow for 642 million columns
    sprite = _sprite((642739065, 0, (0, 0)))
    assert pictures.frame_image(sprite, 0).size == (0, 0)
    assert pictures.frame_image(sprite, 0, background=(0, 0, 0)).size == (0, 0)
    assert pictures.fitted(pictures.frame_image(sprite, 0), (8, 8)).size == (8, 8)
    with pytest.raises(BadValueError, match="a contact sheet of 1 pictures in cells of"):
        pictures.contact_sheet(sprite)
    with pytest.raises(BadValueError, match="pictures have no pixels"):
        pictures.gif_bytes(sprite)
    with pytest.raises(BadValueError, match=r"frames\[0\] is 642739065x0: a PNG cannot hold"):
        pictures.png_frames(sprite)


def test_a_gif_canvas_is_at_most_65535_on_a_side() -> None:
    # origins 70,000 columns apart: within the pixel limits (a row of 4), past GIF's 16 bits
    sprite = _sprite((1, 1, (0, 0)), (1, 1, (69_999, 0)))
    assert sprite.placed()[0].shape == (1, 70_000, 4)
    with pytest.raises(BadValueError, match="span 70000x1 pixels: a GIF is at most 65535"):
        pictures.gif_bytes(sprite)
    with pytest.raises(BadValueError, match="a GIF is at most 65535"):
        pictures.gif_bytes(_sprite((40_000, 1, (0, 0))), scale=2)
    assert pictures.gif_bytes(_sprite((65_535, 1, (0, 0))))[:6] == b"GIF89a"


def test_a_sprites_name_is_its_files_base_name_without_the_extension_as_splitext_says() -> None:
    """file_stem (the frames' name, two string calls) against os.path on every name of up to
    four characters of '.', '/', 'a', and a few longer ones."""
    names = ["".join(c) for n in range(5) for c in itertools.product("./a", repeat=n)]
    names += ["/x/y.z/w", "/x/.a.b", "sprites/s_light.spr", "a..b", "x/.a.", "s_g.SPR"]
    for name in names:
        want = os.path.splitext(os.path.basename(name))[0] if name else "sprite"
        assert file_stem(name) == want, name
    assert file_stem(None) == "sprite"


def test_frames_made_without_the_dataclass_init_are_the_dataclass_s() -> None:
    """``sprite_frame`` and ``looked_up`` (the frame loop) give what the frozen dataclasses'
    own ``__init__`` gives: the same fields, equal, frozen, and no field left out."""
    rgba = np.zeros((2, 2, 4), np.uint8)
    values = {"rgba": rgba, "origin": (1, -2), "interval": 0.5, "group": 3}
    assert list(values) == [f.name for f in fields(SpriteFrame)]
    fast, plain = sprite_frame(*values.values()), SpriteFrame(**values)
    assert type(fast) is SpriteFrame and vars(fast) == vars(plain)
    with pytest.raises(AttributeError):
        fast.group = 4  # type: ignore[misc]
    assert fast.size == (2, 2) and replace(fast, group=1).group == 1
    pixels = np.zeros((2, 2), np.uint8)
    records = [FrameRecord(0, (Picture(1, -2, pixels),))]
    got = looked_up(records, "x/s.spr", rgba_lut(np.zeros((256, 3), np.uint8)))
    want = SpriteFrames("s", (replace(got.frames[0]),))
    assert type(got) is SpriteFrames and [f.name for f in fields(SpriteFrames)] == list(vars(got))
    assert got.name == want.name and len(got) == 1 and vars(got.frames[0]) == vars(want.frames[0])
    with pytest.raises(AttributeError):
        got.name = "t"  # type: ignore[misc]
