"""Quake 1 sprites (IDSP version 1): byte-exact round trip of every corpus file, pixels equal
to vgio's decode, frame groups built here (no corpus sprite but slipgate's flame has one),
hostile cuts, checks, the game's palette, build from pictures."""

from __future__ import annotations

import io
import os
import struct
import time
from pathlib import Path

import numpy as np
import pytest
from archivebuilder import pak_bytes, pk3_bytes
from conftest import CORPUS, IN_CI, no_corpus
from PIL import Image
from spritecorpus import corpus_files
from vgio.quake import palette as vgio_palette
from vgio.quake import spr as vgio_spr

from quakemodels.archive import gamefs, vpath
from quakemodels.archive.base import Archive
from quakemodels.archive.gamefs import Found, GameFS
from quakemodels.archive.names import Engine
from quakemodels.archive.vpath import clear_gamefs_cache, read_path
from quakemodels.core.files import SizeLimit
from quakemodels.core.palette import default_palette
from quakemodels.core.sprite import SpriteFrame, SpriteFrames
from quakemodels.errors import ModelFormatError
from quakemodels.formats.spr.check import check
from quakemodels.formats.spr.describe import describe
from quakemodels.formats.spr.reader import Spr
from quakemodels.formats.spr.scene import frames
from quakemodels.formats.spr.write import from_frames
from quakemodels.interchange import sprites as pictures
from quakemodels.kaitai.quake_spr import QuakeSpr

SPR = corpus_files("spr", ".spr")
VGIO_PALETTE = np.array(vgio_palette, np.uint8).reshape(256, 3)


def _grouped() -> SpriteFrames:
    """A single 3x2 frame, then a group of a 2x2 and a 4x1 picture shown until 0.2 s, 0.5 s."""
    pal = default_palette()
    single = np.zeros((2, 3, 4), np.uint8)
    single[..., :3] = pal[[[10, 20, 30], [40, 50, 60]]]
    single[..., 3] = 255
    single[1, 2, 3] = 0  # transparent
    a = np.zeros((2, 2, 4), np.uint8)
    a[..., :3], a[..., 3] = pal[100], 255
    b = np.zeros((1, 4, 4), np.uint8)
    b[..., :3], b[..., 3] = pal[200], 255
    return SpriteFrames(
        "g",
        (
            SpriteFrame(single, (-1, 1), None, 0),
            SpriteFrame(a, (-1, 1), 0.2, 1),
            SpriteFrame(b, (-2, 0), 0.5, 1),
        ),
    )


@pytest.mark.parametrize("path", SPR)
def test_every_corpus_sprite_round_trips_byte_for_byte(path: Path) -> None:
    data = path.read_bytes()
    sprite = Spr.from_bytes(data, str(path))
    assert sprite.to_bytes() == data
    parsed = QuakeSpr.from_bytes(data)  # the generated parser agrees, field for field
    assert sprite.num_frames == parsed.header.num_frames
    assert (sprite.type, sprite.max_width, sprite.max_height) == (
        parsed.header.type.value,
        parsed.header.max_width,
        parsed.header.max_height,
    )
    singles = [f.single for f in parsed.frames if f.type == 0]
    mine = [r.pictures[0] for r in sprite.records if not r.is_group]
    assert [(p.origin_x, p.origin_y, p.width, p.height) for p in mine] == [
        (s.origin_x, s.origin_y, s.width, s.height) for s in singles
    ]
    assert all(p.pixels.tobytes() == s.pixels for p, s in zip(mine, singles, strict=True))


@pytest.mark.parametrize("path", SPR)
def test_frames_equal_vgio_decode_pixel_for_pixel(path: Path) -> None:
    sprite = Spr.from_file(path)
    if any(r.is_group for r in sprite.records):
        # vgio 1.3.0 reads a group's pictures with the single-frame record (a type word
        # first), so it fails on slipgate's flame; its single frames are compared with the
        # generated parser in the round-trip test
        with pytest.raises(Exception, match="bad char in struct format"):
            vgio_spr.Spr.open(str(path))
        return
    peer = vgio_spr.Spr.open(str(path))
    peer.close()
    peer_pictures = []
    for frame in peer.frames:
        peer_pictures += list(frame.frames) if frame.type == vgio_spr.GROUP else [frame]
    ours = frames(sprite, palette=VGIO_PALETTE)
    assert len(ours) == len(peer_pictures)
    for mine, theirs in zip(ours.frames, peer_pictures, strict=True):
        indices = np.array(theirs.pixels, np.uint8).reshape(theirs.height, theirs.width)
        expected = np.zeros((*indices.shape, 4), np.uint8)
        expected[..., :3] = VGIO_PALETTE[indices]
        expected[..., 3] = np.where(indices == 255, 0, 255)
        assert np.array_equal(mine.rgba, expected)
        assert mine.origin == tuple(theirs.origin)


def test_slipgate_flame_holds_a_group_of_14_and_check_says_its_intervals_do_not_increase() -> None:
    path = CORPUS / "spr" / "slipgate_s_flame.spr"
    if not path.exists():
        no_corpus(path)
    sprite = Spr.from_file(path)
    groups = [r for r in sprite.records if r.is_group]
    assert [len(g.pictures) for g in groups] == [14]
    found = check(sprite, "quake")
    assert [(f.severity, f.code, f.field, f.offset) for f in found] == [
        ("warning", "interval-order", "frames[14].group.intervals", 29224)
    ]
    assert "frame 14: group of 14" in describe(sprite)


def test_a_frame_group_built_here_reads_back_with_its_intervals(tmp_path: Path) -> None:
    built = from_frames(_grouped(), name="g", type=3, sync_type=1)
    data = built.to_bytes()
    back = Spr.from_bytes(data)
    assert [(r.type, len(r.pictures)) for r in back.records] == [(0, 1), (1, 2)]
    group = back.records[1]
    assert group.intervals is not None
    assert group.intervals.tolist() == pytest.approx([0.2, 0.5])
    assert (back.type, back.sync_type, back.max_width, back.max_height) == (3, 1, 4, 2)
    assert back.records[0].pictures[0].pixels.tolist() == [[10, 20, 30], [40, 50, 255]]
    assert back.records[1].pictures[1].pixels.tolist() == [[200, 200, 200, 200]]
    # the generated parser reads the group the same way
    parsed = QuakeSpr.from_bytes(data)
    assert parsed.frames[1].group.num_intervals == 2
    assert parsed.frames[1].group.pictures[1].width == 4
    assert check(back, "quake") == []
    out = frames(back)
    assert [(f.interval, f.group) for f in out.frames] == [
        (None, 0),
        (pytest.approx(0.2), 1),
        (pytest.approx(0.5), 1),
    ]
    assert out.durations() == pytest.approx([0.1, 0.2, 0.3])
    # the GIF shows each picture for its interval
    from PIL import Image

    gif = Image.open(io.BytesIO(pictures.gif_bytes(out)))
    delays = []
    for k in range(gif.n_frames):
        gif.seek(k)
        delays.append(gif.info["duration"])
    assert delays == [100, 200, 300]


def test_every_cut_of_a_sprite_raises_a_format_error_naming_a_field() -> None:
    data = from_frames(_grouped()).to_bytes()
    for cut in range(len(data)):
        with pytest.raises(ModelFormatError) as e:
            Spr.from_bytes(data[:cut])
        assert e.value.field, cut
        assert check(data[:cut])[0].severity == "error"


def test_hostile_sizes_name_their_field() -> None:
    data = bytearray(from_frames(_grouped()).to_bytes())
    data[36 + 4 + 8 : 36 + 4 + 12] = (-3).to_bytes(4, "little", signed=True)  # width
    with pytest.raises(ModelFormatError, match=r"frames\[0\]\.single\.width=-3 at offset 48"):
        Spr.from_bytes(bytes(data))
    data = bytearray(from_frames(_grouped()).to_bytes())
    data[24:28] = (2**31 - 1).to_bytes(4, "little")  # num_frames
    with pytest.raises(ModelFormatError) as e:
        Spr.from_bytes(bytes(data))
    assert e.value.field == "frames[2].type"


def test_check_reports_the_engine_rules() -> None:
    sprite = from_frames(_grouped())
    sprite.records[1].intervals[:] = [0.2, 0.0]  # type: ignore[index]
    sprite.header["type"] = 7
    found = {(f.severity, f.code) for f in check(sprite, "quake")}
    assert found == {("error", "interval"), ("error", "orientation")}
    assert {(f.severity, f.code) for f in check(sprite, "any")} == {
        ("warning", "interval"),
        ("warning", "orientation"),
    }
    assert ("error", "engine-format") in {(f.severity, f.code) for f in check(sprite, "quake2")}
    sprite.records.clear()
    assert ("error", "empty") in {(f.severity, f.code) for f in check(sprite, "quake")}
    assert check(b"IDSP", "quake")[0].field == "header"


def test_palette_comes_from_the_game_folder_when_the_sprite_is_in_a_pak(tmp_path: Path) -> None:
    game = tmp_path / "id1"
    game.mkdir()
    reversed_palette = default_palette()[::-1].copy()
    sprite = from_frames(_grouped()).to_bytes()
    (game / "pak0.pak").write_bytes(
        pak_bytes([("gfx/palette.lmp", reversed_palette.tobytes()), ("progs/s_g.spr", sprite)])
    )
    name = str(game / "pak0.pak" / "progs" / "s_g.spr")
    model = Spr.from_bytes(read_path(name), name)
    got = frames(model).frames[0].rgba
    assert got[0, 0, :3].tolist() == reversed_palette[10].tolist()
    # outside a game folder: the bundled Quake palette
    alone = frames(Spr.from_bytes(sprite, str(tmp_path / "s_g.spr"))).frames[0].rgba
    assert alone[0, 0, :3].tolist() == default_palette()[10].tolist()


@pytest.fixture(params=["compiled", "os.stat"])
def stamps(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The game folder search's kept answers checked through the compiled stamps
    (``_stamps.c``) and through os.stat alone: the tests taking it prove them equal."""
    if request.param == "os.stat":
        monkeypatch.setattr(vpath, "compiled_stamps", lambda: None)
    elif vpath.compiled_stamps() is None:
        if IN_CI and not os.environ.get("QUAKEMODELS_PURE_PYTHON"):
            pytest.fail("CI=true but the compiled stamps (_stamps.c) are not built")
        pytest.skip("the compiled stamps (_stamps.c) are not in use")
    clear_gamefs_cache()
    return str(request.param)


def test_the_compiled_stamps_are_os_stats(tmp_path: Path, stamps: str) -> None:
    """A kept answer's folders carry the compiled stamps only when they are os.stat's
    fields exactly; a folder that cannot be read gives None."""
    root = vpath._folder_stamp("/")
    assert root is not None
    if stamps != "compiled":
        assert vpath._packed(("/",), (root,)) is None  # nothing to pack with
        return
    compiled = vpath.compiled_stamps()
    assert compiled is not None
    assert vpath._packed(("/",), (root,)) == ((b"/",), compiled((b"/",)))
    # a folder changed since the walk: no bytes kept (they may hold the new state)
    assert vpath._packed(("/",), ((0, 0, 0, 0, 0, 0),)) is None
    folders = [tmp_path, tmp_path.parent, Path("/")]
    got = compiled(tuple(os.fsencode(f) for f in folders))
    assert got is not None
    assert struct.unpack("=" + "QQQqqq" * 3, got) == tuple(
        v for f in folders for v in vpath._folder_stamp(f) or ()
    )
    assert compiled((os.fsencode(tmp_path / "gone"),)) is None
    assert compiled((b"/x\0y",)) is None
    assert compiled(()) == b""
    with pytest.raises(TypeError):
        compiled(("/",))  # type: ignore[arg-type]  # str paths: the caller encodes them


def test_the_game_folder_search_lists_a_folder_once_until_it_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stamps: str
) -> None:
    """The frames of 20 sprites of one folder: each folder above is listed once while it is
    unchanged; a pak added to one is seen by the next sprite (its palette then comes from it)."""
    game = tmp_path / "id1"
    progs = game / "progs"
    progs.mkdir(parents=True)
    sprite = from_frames(_grouped()).to_bytes()
    paths = [progs / f"s{k}.spr" for k in range(20)]
    for p in paths:
        p.write_bytes(sprite)
    hour_ago = time.time_ns() - 3600 * 10**9  # folders changed in the last 2 s are not cached
    for folder in (progs, game):
        os.utime(folder, ns=(hour_ago, hour_ago))
    clear_gamefs_cache()
    listed: list[str] = []
    listdir = os.listdir

    def counting(path: str) -> list[str]:
        listed.append(os.fspath(path))
        return listdir(path)

    monkeypatch.setattr(vpath.os, "listdir", counting)
    colours = [frames(Spr.from_bytes(sprite, str(p))).frames[0].rgba[0, 0, :3] for p in paths]
    assert [c.tolist() for c in colours] == [default_palette()[10].tolist()] * 20
    assert (listed.count(str(progs)), listed.count(str(game))) == (1, 1)
    # a pak with another palette lands in the game folder: its mtime moves, the next asks again
    reversed_palette = default_palette()[::-1].copy()
    (game / "pak0.pak").write_bytes(pak_bytes([("gfx/palette.lmp", reversed_palette.tobytes())]))
    got = frames(Spr.from_bytes(sprite, str(paths[0]))).frames[0].rgba[0, 0, :3]
    assert got.tolist() == reversed_palette[10].tolist()
    assert (listed.count(str(progs)), listed.count(str(game)) >= 2) == (1, True)
    clear_gamefs_cache()


def test_a_cached_folder_answer_is_not_taken_for_a_pak_in_the_path(
    tmp_path: Path, stamps: str
) -> None:
    """The game folder search keeps its answer for a model's folder, and a sprite whose folder
    is known skips the test for an archive in its path: an answer kept for a pak's name (a
    player path through it, walked as a folder: the pak is a file) must not skip it."""
    game = tmp_path / "id1"
    game.mkdir()
    reversed_palette = default_palette()[::-1].copy()
    sprite = from_frames(_grouped()).to_bytes()
    pak = game / "pak0.pak"
    pak.write_bytes(pak_bytes([("gfx/palette.lmp", reversed_palette.tobytes()), ("s.spr", sprite)]))
    hour_ago = time.time_ns() - 3600 * 10**9  # folders changed in the last 2 s are not cached
    for path in (pak, game, tmp_path):
        os.utime(path, ns=(hour_ago, hour_ago))
    clear_gamefs_cache()
    # a path ending in a separator walks from the folder above its last name: no answer is
    # kept for that name (here the pak's)
    assert vpath.game_folder_above(str(pak) + os.sep) == game
    assert vpath.game_roots(str(pak / "s.spr")) == ([game], "s.spr")
    assert vpath.game_folder_above(str(pak / "sarge")) == game  # keeps an answer for pak0.pak/
    name = str(pak / "s.spr")
    assert vpath.game_roots(name) == ([game], "s.spr")
    got = frames(Spr.from_bytes(read_path(name), name)).frames[0].rgba[0, 0, :3]
    assert got.tolist() == reversed_palette[10].tolist()
    # a sprite beside the pak: the answer kept for its folder, the same game
    beside = str(game / "s.spr")
    assert vpath.game_folder_above(beside) == game
    assert vpath.game_roots(beside) == ([game], "s.spr")
    assert frames(Spr.from_bytes(sprite, beside)).frames[0].rgba[0, 0, :3].tolist() == (
        reversed_palette[10].tolist()
    )
    clear_gamefs_cache()


def _in_game(tmp_path: Path, archive: str, files: list[tuple[str, bytes]]) -> tuple[Path, Path]:
    """``id1/`` holding ``archive`` (a .pak or .pk3 of ``files``) and an empty ``gfx/``, and 20
    sprites in ``id1/progs/``, all as installed an hour ago (a change in the last 2 s is not
    kept); (the game folder, the sprites' folder)."""
    game = tmp_path / "id1"
    progs = game / "progs"
    progs.mkdir(parents=True)
    (game / "gfx").mkdir()
    data = pak_bytes(files) if archive.endswith(".pak") else pk3_bytes(files)
    (game / archive).write_bytes(data)
    for k in range(20):
        (progs / f"s{k}.spr").write_bytes(from_frames(_grouped()).to_bytes())
    hour_ago = time.time_ns() - 3600 * 10**9
    for path in (progs, game / "gfx", game / archive, game, tmp_path):
        os.utime(path, ns=(hour_ago, hour_ago))
    clear_gamefs_cache()
    return game, progs


def _colours(progs: Path) -> list[list[int]]:
    """Colour 10 as each of the 20 sprites of ``progs`` draws it."""
    sprites = sorted(progs.glob("s*.spr"))
    return [frames(Spr.from_file(p)).frames[0].rgba[0, 0, :3].tolist() for p in sprites]


def test_a_game_palette_is_read_once_until_its_pak_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stamps: str
) -> None:
    """The sprites of a game read its palette from the pak once (the pak opened once, the game
    folder listed by the first sprite alone); the pak rewritten with another palette of the
    same size (its mtime moved) is read again and its palette drawn."""
    reversed_palette = default_palette()[::-1].copy()
    game, progs = _in_game(tmp_path, "pak0.pak", [("gfx/palette.lmp", reversed_palette.tobytes())])
    counts = {"read": 0, "open": 0}
    read_found, open_archive = GameFS.read_found, gamefs.open_archive

    def counting_read(found: Found, limit: SizeLimit | None = None) -> bytes:
        counts["read"] += 1
        return read_found(found, limit)

    def counting_open(path: str | os.PathLike[str], engine: Engine | None = None) -> Archive:
        counts["open"] += 1
        return open_archive(path, engine)

    listed: list[str] = []
    listdir = os.listdir

    def counting_listdir(path: str) -> list[str]:
        listed.append(os.fspath(path))
        return listdir(path)

    monkeypatch.setattr(GameFS, "read_found", staticmethod(counting_read))
    monkeypatch.setattr(gamefs, "open_archive", counting_open)
    monkeypatch.setattr(vpath.os, "listdir", counting_listdir)
    first = frames(Spr.from_file(progs / "s0.spr")).frames[0].rgba[0, 0, :3]
    assert first.tolist() == reversed_palette[10].tolist()
    searched = len(listed)
    assert _colours(progs) * 2 == [reversed_palette[10].tolist()] * 40
    assert counts == {"read": 1, "open": 1}
    assert len(listed) == searched  # the game and its archives only stat'ed
    # the same size, an hour and a second ago: only the pak's own stamp tells
    (game / "pak0.pak").write_bytes(pak_bytes([("gfx/palette.lmp", default_palette().tobytes())]))
    later = time.time_ns() - 3599 * 10**9
    os.utime(game / "pak0.pak", ns=(later, later))
    assert _colours(progs) == [default_palette()[10].tolist()] * 20
    assert counts == {"read": 2, "open": 2}
    # rewritten in place, then replaced by a rename, each time with the size and the mtime it
    # had (as rsync -a or cp -a leave them): the pak's ctime, then its inode, tell
    for rename in (False, True):
        palette = default_palette() if rename else reversed_palette
        data = pak_bytes([("gfx/palette.lmp", palette.tobytes())])
        target = game / ("new.tmp" if rename else "pak0.pak")
        target.write_bytes(data)
        os.utime(target, ns=(later, later))
        if rename:
            target.replace(game / "pak0.pak")
        assert _colours(progs) == [palette[10].tolist()] * 20
    assert counts == {"read": 4, "open": 4}
    clear_gamefs_cache()


def test_a_kept_game_search_path_follows_the_game_folder(tmp_path: Path, stamps: str) -> None:
    """game_fs keeps one GameFS for the sprites of a folder, the one game_context gives; a pak
    added to the game folder, then removed, gives a new one each time, even with the folder's
    mtime set back an hour (only a second apart)."""
    game, progs = _in_game(tmp_path, "pak0.pak", [("gfx/palette.lmp", bytes(768))])
    fs = vpath.game_fs(progs / "s0.spr")
    assert fs is not None and fs.find("progs/x.mdl") is None
    assert vpath.game_fs(progs / "s1.spr") is fs
    assert vpath.game_context(progs / "s1.spr") == (fs, "progs/s1.spr")
    hour_ago = time.time_ns() - 3600 * 10**9
    (game / "pak1.pak").write_bytes(pak_bytes([("progs/x.mdl", b"IDPO")]))
    for path in (game / "pak1.pak", game):
        os.utime(path, ns=(hour_ago + 10**9, hour_ago + 10**9))
    added = vpath.game_fs(progs / "s0.spr")
    assert added is not None and added is not fs and added.find("progs/x.mdl") is not None
    (game / "pak1.pak").unlink()
    os.utime(game, ns=(hour_ago + 2 * 10**9, hour_ago + 2 * 10**9))
    removed = vpath.game_fs(progs / "s0.spr")
    assert removed is not None and removed is not added and removed.find("progs/x.mdl") is None
    clear_gamefs_cache()


@pytest.mark.parametrize(
    "archive", ["pak0.pak", "pak0.pk3"], ids=["quake: the pak first", "quake3: loose first"]
)
def test_a_loose_game_palette_is_read_on_every_call(
    tmp_path: Path, archive: str, stamps: str
) -> None:
    """A palette among the game's loose files is looked up on every call, as they carry no
    stamp: one rewritten is drawn at once, and where loose files come first (Quake III's
    order) one added in front of the archive's wins at once."""
    reversed_palette = default_palette()[::-1].copy()
    files = [("progs/x.mdl", b"IDPO")]
    if archive.endswith(".pk3"):  # the archive's palette, until a loose one comes in front
        files.append(("gfx/palette.lmp", reversed_palette.tobytes()))
    game, progs = _in_game(tmp_path, archive, files)
    if archive.endswith(".pak"):
        (game / "gfx" / "palette.lmp").write_bytes(reversed_palette.tobytes())
    assert _colours(progs) == [reversed_palette[10].tolist()] * 20
    other = default_palette()[::2].repeat(2, axis=0)
    (game / "gfx" / "palette.lmp").write_bytes(other.tobytes())
    assert _colours(progs) == [other[10].tolist()] * 20
    clear_gamefs_cache()


def test_build_quantizes_to_the_palette_and_keeps_alpha_as_index_255() -> None:
    rgba = np.zeros((1, 3, 4), np.uint8)
    rgba[0, 0] = (*default_palette()[37], 255)
    rgba[0, 1] = (*default_palette()[255], 255)  # the transparent colour is not used for it
    rgba[0, 2] = (255, 255, 255, 10)
    built = from_frames(SpriteFrames("q", (SpriteFrame(rgba, (0, 0), None, 0),)))
    row = built.records[0].pictures[0].pixels[0].tolist()
    assert row[0] == 37 and row[1] != 255 and row[2] == 255


def test_a_contact_sheet_to_look_at(tmp_path: Path) -> None:
    path = CORPUS / "spr" / "lq_s_explod.spr"
    if not path.exists():
        no_corpus(path)
    sheet = pictures.contact_sheet(frames(Spr.from_file(path)), scale=2)
    out = Path(__file__).resolve().parent.parent / "out" / "sprites"
    out.mkdir(parents=True, exist_ok=True)
    sheet.save(out / "lq_s_explod_sheet.png")
    # six 64x64 frames at 2x: a 3x2 grid of 136-pixel cells, labels under each
    assert sheet.size == (3 * 136, 2 * (136 + 14))
    pixels = np.asarray(sheet)
    assert pixels[:136, :136].std() > 10  # the first explosion frame is not blank


# --- the verbs ----------------------------------------------------------------------------


def test_cli_info_check_render_export_build_a_quake_sprite(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from quakemodels.cli import main

    sprite = tmp_path / "s_g.spr"
    sprite.write_bytes(from_frames(_grouped(), type=3).to_bytes())
    assert main(["info", "--json", str(sprite)]) == 0
    facts = json.loads(capsys.readouterr().out)[0]
    assert (facts["format"], facts["frames"], facts["header"]["type"]) == ("spr", 2, 3)
    assert [p["interval"] for p in facts["pictures"]] == [
        None,
        pytest.approx(0.2),
        pytest.approx(0.5),
    ]
    assert main(["check", "--engine", "quake", str(sprite)]) == 0
    assert main(["check", "--engine", "quake2", str(sprite)]) == 1
    capsys.readouterr()
    assert main(["render", str(sprite), "-o", str(tmp_path / "g.gif"), "--clip", "all"]) == 0
    gif = Image.open(tmp_path / "g.gif")
    assert gif.n_frames == 3
    assert main(["render", str(sprite), "-o", str(tmp_path / "f1.gif"), "--clip", "frame1"]) == 0
    assert Image.open(tmp_path / "f1.gif").n_frames == 2
    assert main(["render", str(sprite), "-o", str(tmp_path / "p.png"), "--frame", "2"]) == 0
    png = Image.open(tmp_path / "p.png")
    # the 4x1 picture zoomed 64 times to fit 256x256, centred, alpha kept around it
    assert (png.size, png.mode) == ((256, 256), "RGBA")
    alpha = np.asarray(png)[..., 3]
    assert alpha[96:160].min() == 255 and alpha[:96].max() == 0 and alpha[160:].max() == 0
    assert main(["export", str(sprite), "-o", str(tmp_path / "e.png")]) == 0
    assert sorted(p.name for p in tmp_path.glob("e_*.png")) == ["e_0.png", "e_1.png", "e_2.png"]
    # back: the three PNGs as one group, 0.05 s each
    frames_in = [str(tmp_path / f"e_{i}.png") for i in range(3)]
    out = tmp_path / "again.spr"
    assert main(["build", *frames_in, "-o", str(out), "--group", "--interval", "0.05"]) == 0
    again = Spr.from_file(out)
    assert [(r.type, len(r.pictures)) for r in again.records] == [(1, 3)]
    assert again.records[0].intervals.tolist() == pytest.approx([0.05, 0.1, 0.15])
    assert again.records[0].pictures[0].pixels.tolist() == [[10, 20, 30], [40, 50, 255]]
    # an unknown clip names the sprite's clips; a bad picture leaves nothing behind
    assert main(["render", str(sprite), "-o", str(tmp_path / "x.gif"), "--clip", "run"]) != 0
    assert "all, frame1" in capsys.readouterr().err
    (tmp_path / "bad.png").write_bytes(b"not a picture")
    assert main(["build", str(tmp_path / "bad.png"), "-o", str(tmp_path / "bad.spr")]) == 1
    assert not (tmp_path / "bad.spr").exists()


def test_cli_types_sprites_in_a_pak(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from quakemodels.cli import main

    pak = tmp_path / "pak0.pak"
    pak.write_bytes(pak_bytes([("progs/s_g.spr", from_frames(_grouped()).to_bytes())]))
    assert main(["ls", str(pak)]) == 0
    assert " spr   progs/s_g.spr" in capsys.readouterr().out
    out = tmp_path / "x"
    assert main(["extract", str(pak), "-o", str(out), "progs/*.spr"]) == 0
    assert Spr.from_file(out / "progs" / "s_g.spr").num_frames == 2
