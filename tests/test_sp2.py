"""Quake II sprites (IDS2 version 2): byte-exact round trip of every corpus file (the stray
80-byte records kept), frame images found beside the sprite, through a pak and by name,
index 255 transparent, hostile cuts, the 32-frame limit, build with its PCX images."""

from __future__ import annotations

import io
import os
import time
import warnings
from pathlib import Path

import numpy as np
import pytest
from archivebuilder import pak_bytes
from conftest import CORPUS, no_corpus
from PIL import Image
from spritecorpus import corpus_files

from quakemodels.archive import vpath
from quakemodels.archive.vpath import clear_gamefs_cache, read_path
from quakemodels.core.files import NO_FOLLOW, read_regular
from quakemodels.core.pcx import decode_pcx_indexed
from quakemodels.core.sprite import SpriteFrame, SpriteFrames
from quakemodels.errors import LimitExceededError, ModelFormatError, QuakeModelsWarning
from quakemodels.formats.sp2.check import check
from quakemodels.formats.sp2.describe import describe
from quakemodels.formats.sp2.layout import FRAME, FRAME_OFFSETS, HEADER_SIZE
from quakemodels.formats.sp2.reader import ImageSearch, Sp2
from quakemodels.formats.sp2.scene import frames
from quakemodels.formats.sp2.write import from_frames, image_files
from quakemodels.kaitai.quake2_sp2 import Quake2Sp2

SP2 = corpus_files("sp2", ".sp2")


def _corpus(name: str) -> Path:
    path = CORPUS / "sp2" / name
    if not path.exists():
        no_corpus(path)
    return path


def _pictures(n: int) -> SpriteFrames:
    out = []
    for i in range(n):
        rgba = np.zeros((4, 6, 4), np.uint8)
        rgba[..., 0], rgba[..., 1], rgba[..., 3] = 40 * i % 256, 255 - 40 * i % 256, 255
        rgba[0, 0, 3] = 0
        out.append(SpriteFrame(rgba, (-3, 2), None, i))
    return SpriteFrames("b", tuple(out))


@pytest.mark.parametrize("path", SP2)
def test_every_corpus_sprite_round_trips_byte_for_byte(path: Path) -> None:
    data = path.read_bytes()
    sprite = Sp2.from_bytes(data, str(path))
    assert sprite.to_bytes() == data
    parsed = Quake2Sp2.from_bytes(data)
    assert sprite.image_names == [f.name for f in parsed.frames]
    assert sprite.sizes == [(f.width, f.height) for f in parsed.frames]
    assert sprite.origins == [(f.origin_x, f.origin_y) for f in parsed.frames]


def test_the_stray_blank_record_after_the_frames_is_kept_and_reported() -> None:
    sprite = Sp2.from_file(_corpus("aq_lsight.sp2"))
    assert sprite.num_frames == 4 and sprite.trailing == bytes(80)
    assert "trailing: 80 bytes after the frames (1 more frame records)" in describe(sprite)
    assert [(f.code, f.offset) for f in check(sprite, "quake2")] == [("trailing", 332)]


def test_frames_are_the_pcx_images_beside_the_sprite_with_255_transparent() -> None:
    path = _corpus("aq_lsight.sp2")
    got = frames(Sp2.from_file(path))
    assert len(got) == 4
    for i, frame in enumerate(got.frames):
        pcx = (path.parent / f"aq_lsight__{i}.pcx").read_bytes()
        indexed = decode_pcx_indexed(pcx)
        assert indexed is not None
        indices = indexed[0]
        pil = np.asarray(Image.open(io.BytesIO(pcx)).convert("RGB"))
        assert np.array_equal(frame.rgba[..., :3], pil)  # the colours Pillow decodes
        assert np.array_equal(frame.rgba[..., 3] == 0, indices == 255)
    # origin (8, 8) of a 16x16 picture: the sprite's point in its middle
    assert got.frames[0].origin == (-8, 8)


def test_a_missing_image_is_a_transparent_picture_and_a_warning() -> None:
    sprite = Sp2.from_file(_corpus("nexuiz_waypoint.sp2"))
    with pytest.warns(QuakeModelsWarning, match="not found"):
        got = frames(sprite)
    assert got.frames[0].rgba.shape == (32, 128, 4) and got.frames[0].rgba.max() == 0
    assert [f.code for f in check(sprite)] == ["image-missing"]


def _with_frame_size(data: bytes, index: int, width: int, height: int) -> bytes:
    """``data`` with frame ``index``'s stored width and height replaced."""
    out = bytearray(data)
    at = HEADER_SIZE + FRAME.itemsize * index
    for name, value in (("width", width), ("height", height)):
        field = at + FRAME_OFFSETS[name]
        out[field : field + 4] = np.array(value, "<i4").tobytes()
    return bytes(out)


@pytest.mark.parametrize(
    ("width", "height"), [(2**31 - 1, 128), (16, 2**31 - 1), (65535, 65535), (4097, 4096)]
)
def test_a_missing_image_of_a_huge_stored_size_is_refused_naming_the_width(
    width: int, height: int
) -> None:
    # a transparent stand-in that size would take up to a TiB to draw: refused, not allocated
    data = _with_frame_size(_corpus("nexuiz_waypoint.sp2").read_bytes(), 0, width, height)
    with pytest.raises(ModelFormatError) as e, pytest.warns(QuakeModelsWarning):
        frames(Sp2.from_bytes(data, "nexuiz_waypoint.sp2"))
    assert (e.value.field, e.value.offset) == ("frames[0].width", 12)
    assert f"the frame is {width}x{height} and its image" in str(e.value)


def test_a_missing_image_stand_in_costs_no_memory_up_to_the_limit() -> None:
    data = _with_frame_size(_corpus("nexuiz_waypoint.sp2").read_bytes(), 0, 4096, 4096)
    with pytest.warns(QuakeModelsWarning, match="not found"):
        got = frames(Sp2.from_bytes(data, "nexuiz_waypoint.sp2")).frames[0].rgba
    assert got.shape == (4096, 4096, 4) and not got.flags.writeable
    assert got.base is not None and got.base.nbytes == 4  # one clear pixel, broadcast


def test_images_are_found_through_a_pak_by_their_game_path(tmp_path: Path) -> None:
    game = tmp_path / "baseq2"
    game.mkdir()
    built = from_frames(_pictures(2), name="b")
    pcx = image_files(built, "b")
    files = [("sprites/b.sp2", built.to_bytes())]
    files += [(f"sprites/b_{i}.pcx", data) for i, data in enumerate(pcx.values())]
    (game / "pak0.pak").write_bytes(pak_bytes(files))
    name = str(game / "pak0.pak" / "sprites" / "b.sp2")
    sprite = Sp2.from_bytes(read_path(name), name)
    assert sprite.image_names == ["sprites/b_0.pcx", "sprites/b_1.pcx"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = frames(sprite)
    for frame, original in zip(got.frames, _pictures(2).frames, strict=True):
        assert np.array_equal(frame.rgba[..., 3], original.rgba[..., 3])
        visible = original.rgba[..., 3] > 0
        assert np.array_equal(frame.rgba[visible][:, :3], original.rgba[visible][:, :3])


def test_build_writes_pcx_frames_that_read_back(tmp_path: Path) -> None:
    built = from_frames(_pictures(3), name="b")
    out = tmp_path / "b.sp2"
    out.write_bytes(built.to_bytes())
    for file, data in image_files(built, "b").items():
        (tmp_path / file).write_bytes(data)
    back = Sp2.from_file(out)
    assert back.sizes == [(6, 4)] * 3
    # the sprite's point: 3 from the left edge, 2 up from the bottom of a 4-pixel picture
    assert back.origins == [(3, 2)] * 3
    got = frames(back)
    assert [f.origin for f in got.frames] == [(-3, 2)] * 3
    assert np.array_equal(
        got.frames[2].rgba, _pictures(3).frames[2].rgba * (got.frames[2].rgba[..., 3:] > 0)
    )
    assert check(back, "quake2") == []


def test_a_frame_image_beside_the_sprite_comes_first_then_its_name(tmp_path: Path) -> None:
    """Each frame's image: ``<sprite>__<frame>.pcx`` beside the sprite first, then the name
    the frame stores (under the sprite's folder); one beside it that leads outside the
    folder is refused with a warning and the name is looked up after it."""
    built = from_frames(_pictures(3), name="b")
    game = tmp_path / "game"
    (game / "sprites").mkdir(parents=True)
    (game / "b.sp2").write_bytes(built.to_bytes())
    files = image_files(built, "b")  # b__0.pcx ... as the corpus keeps them
    other = image_files(from_frames(_pictures(5), name="x"), "x")["x__4.pcx"]  # none of b's
    (game / "b__0.pcx").write_bytes(files["b__0.pcx"])
    (game / "sprites" / "b_0.pcx").write_bytes(other)  # by name: after the one beside it
    (game / "sprites" / "b_1.pcx").write_bytes(files["b__1.pcx"])  # by name alone
    (tmp_path / "outside.pcx").write_bytes(other)
    (game / "b__2.pcx").symlink_to(tmp_path / "outside.pcx")
    (game / "sprites" / "b_2.pcx").write_bytes(files["b__2.pcx"])
    with pytest.warns(QuakeModelsWarning, match="leads outside"):
        got = frames(Sp2.from_file(game / "b.sp2"))
    for frame, name in zip(got.frames, ("b__0.pcx", "b__1.pcx", "b__2.pcx"), strict=True):
        indices, palette = decode_pcx_indexed(files[name]) or (None, None)
        assert indices is not None and palette is not None
        opaque = frame.rgba[..., 3] > 0
        assert np.array_equal(opaque, indices != 255), name
        assert np.array_equal(frame.rgba[..., :3][opaque], palette[indices][opaque]), name


def test_a_link_beside_the_sprite_to_a_file_of_its_folder_is_read(tmp_path: Path) -> None:
    """An image beside the sprite that is a link is not read by the one open that refuses
    links: it is resolved, and read when it stays in the folder (no warning)."""
    built = from_frames(_pictures(1), name="b")
    (tmp_path / "b.sp2").write_bytes(built.to_bytes())
    (tmp_path / "kept.pcx").write_bytes(image_files(built, "b")["b__0.pcx"])
    link = tmp_path / "b__0.pcx"
    link.symlink_to(tmp_path / "kept.pcx")
    if NO_FOLLOW:
        with pytest.raises(OSError):
            read_regular(link, follow=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        hit = ImageSearch(str(tmp_path / "b.sp2")).find("sprites/b_0.pcx", 0)
        got = frames(Sp2.from_file(tmp_path / "b.sp2"))
    assert hit == (str(link), (tmp_path / "kept.pcx").read_bytes())
    assert got.frames[0].rgba[..., 3].any()


def test_the_folder_beside_the_sprite_is_listed_once_until_it_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Drawn again, a sprite's folder is listed once while it is unchanged (its stamp, as the
    game folder search keeps); an image added to it is seen by the next call."""
    built = from_frames(_pictures(2), name="b")
    files = image_files(built, "b")
    (tmp_path / "b.sp2").write_bytes(built.to_bytes())
    (tmp_path / "b__0.pcx").write_bytes(files["b__0.pcx"])
    hour_ago = time.time_ns() - 3600 * 10**9  # folders changed in the last 2 s are not kept
    os.utime(tmp_path, ns=(hour_ago, hour_ago))
    clear_gamefs_cache()
    listed: list[str] = []
    listing = vpath.listed

    def counting(folder: str) -> dict[str, list[str]]:
        listed.append(folder)
        return listing(folder)

    monkeypatch.setattr(vpath, "listed", counting)
    sprite = Sp2.from_file(tmp_path / "b.sp2")
    for _ in range(3):
        with pytest.warns(QuakeModelsWarning, match=r"frames\[1\]: image .* not found"):
            got = frames(sprite)
        assert got.frames[0].rgba[..., 3].any() and not got.frames[1].rgba[..., 3].any()
    assert listed == [str(tmp_path)]
    (tmp_path / "b__1.pcx").write_bytes(files["b__1.pcx"])
    os.utime(tmp_path, ns=(hour_ago + 10**9, hour_ago + 10**9))  # changed, settled again
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = frames(sprite)
    assert got.frames[1].rgba[..., 3].any()
    assert listed == [str(tmp_path)] * 2
    clear_gamefs_cache()


def test_an_image_added_with_the_folder_mtime_set_back_is_found(tmp_path: Path) -> None:
    """``tar x``, ``rsync -a`` and ``cp -a`` set a folder's mtime after filling it: the kept
    listing must not outlive the change (the folder's ctime, in its stamp, moved)."""
    built = from_frames(_pictures(2), name="b")
    files = image_files(built, "b")
    (tmp_path / "b.sp2").write_bytes(built.to_bytes())
    (tmp_path / "b__0.pcx").write_bytes(files["b__0.pcx"])
    hour_ago = time.time_ns() - 3600 * 10**9
    os.utime(tmp_path, ns=(hour_ago, hour_ago))
    clear_gamefs_cache()
    sprite = Sp2.from_file(tmp_path / "b.sp2")
    for _ in range(2):  # the listing is kept from here on
        with pytest.warns(QuakeModelsWarning, match=r"frames\[1\]: image .* not found"):
            frames(sprite)
    (tmp_path / "b__1.pcx").write_bytes(files["b__1.pcx"])
    os.utime(tmp_path, ns=(hour_ago, hour_ago))  # the mtime the listing was kept with
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = frames(sprite)
    assert got.frames[1].rgba[..., 3].any()
    clear_gamefs_cache()


def test_the_32_frame_limit_and_every_cut() -> None:
    with pytest.raises(LimitExceededError, match="33 frames are above 32"):
        from_frames(_pictures(33))
    sprite = from_frames(_pictures(33), limits=False)
    assert [(f.severity, f.code) for f in check(sprite, "quake2")] == [("error", "frames")]
    data = sprite.to_bytes()
    for cut in (*range(0, 12), *range(12, 120, 7)):
        with pytest.raises(ModelFormatError) as e:
            Sp2.from_bytes(data[:cut])
        assert e.value.field, cut
    with pytest.raises(ModelFormatError) as e:
        Sp2.from_bytes(data[:100])
    assert (e.value.field, e.value.offset) == ("frames[1].width", 92)


def test_an_unterminated_image_name_is_an_error_for_quake2() -> None:
    sprite = from_frames(_pictures(1))
    sprite.records["name"][0] = b"x" * 64
    found = [(f.severity, f.code, f.field, f.offset) for f in check(sprite, "quake2")]
    assert ("error", "name-unterminated", "frames[0].name", 28) in found


def test_cli_converts_a_quake_sprite_to_quake_ii_with_its_pcx_frames(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from quakemodels.cli import main

    source = CORPUS / "spr" / "lq_s_explod.spr"
    if not source.exists():
        no_corpus(source)
    out = tmp_path / "explod.sp2"
    assert main(["convert", str(source), str(out)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "explod.sp2",
        *(f"explod__{i}.pcx" for i in range(6)),
    ]
    assert main(["check", "--engine", "quake2", str(out)]) == 0
    assert main(["render", str(out), "-o", str(tmp_path / "e.gif"), "--clip", "all"]) == 0
    assert Image.open(tmp_path / "e.gif").n_frames == 6
    # --no-clobber: an existing frame image stops the whole write
    again = tmp_path / "again"
    again.mkdir()
    (again / "explod__3.pcx").write_bytes(b"mine")
    assert main(["convert", str(source), str(again / "explod.sp2"), "--no-clobber"]) == 3
    assert sorted(p.name for p in again.iterdir()) == ["explod__3.pcx"]
    assert (again / "explod__3.pcx").read_bytes() == b"mine"


def test_cli_refuses_an_option_quake_ii_sprites_do_not_take(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from quakemodels.cli import main

    source = CORPUS / "spr" / "lq_s_bubble.spr"
    if not source.exists():
        no_corpus(source)
    out = tmp_path / "b.sp2"
    # Quake II sprites have no texture format: one line, exit 2, nothing written
    assert main(["build", str(source), "-o", str(out), "--tex-format", "normal"]) == 2
    assert "sp2 (Quake II sprite) takes no --tex-format" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_a_sprite_of_no_pixels_renders_and_refuses_clearly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # its one frame stored 0 x 4224 (its image missing): the sheet and the frame's picture
    # come out (nothing drawn), the GIFs and PNG frames are refused naming why, no file left
    from quakemodels.cli import main

    src = tmp_path / "zero.sp2"
    src.write_bytes(_with_frame_size(_corpus("nexuiz_waypoint.sp2").read_bytes(), 0, 0, 4224))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", QuakeModelsWarning)
        assert main(["render", str(src), "-o", str(tmp_path / "sheet.png")]) == 0
        assert main(["render", str(src), "--frame", "0", "-o", str(tmp_path / "f.png")]) == 0
        capsys.readouterr()
        assert main(["render", str(src), "--clip", "all", "-o", str(tmp_path / "a.gif")]) == 1
        assert main(["export", str(src), "-o", str(tmp_path / "e.gif")]) == 1
        assert main(["export", str(src), "-o", str(tmp_path / "e.png")]) == 1
    err = capsys.readouterr().err
    assert err.count("pictures have no pixels (a stored width or height of 0)") == 2
    assert "frames[0] is 0x4224: a PNG cannot hold a picture with no pixels" in err
    assert Image.open(tmp_path / "f.png").getextrema()[3] == (0, 0)  # all transparent
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.png", "sheet.png", "zero.sp2"]
