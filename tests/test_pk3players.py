"""Quake III players inside pk3 archives and game folders, found as ioquake3 finds them.

The corpus players are packed into pk3s (with zipfile) in tmp_path, sometimes spread over
several pk3s and loose files, and must load, check, describe and export exactly as the same
player does from its folder on disk.
"""

from __future__ import annotations

import json
import os
import shutil
import warnings
from pathlib import Path

import numpy as np
import pytest
from archivebuilder import write_pk3 as pk3
from conftest import CORPUS
from test_q3player import PLAYER_NAMES, ROWS_25, _load, _player_dir, write_player

import quakemodels
from quakemodels.archive import ArchiveError
from quakemodels.cli import main
from quakemodels.errors import ModelFormatError, PlayerFolderError
from quakemodels.formats.q3player import Player
from quakemodels.formats.q3player.gltf import build_player_gltf
from quakemodels.interchange.gltf_write import glb_bytes


def player_files(name: str, prefix: str | None = None) -> dict[str, bytes]:
    """Every file of a corpus player, named ``models/players/<name>/<file>`` (or ``prefix``)."""
    folder = _player_dir(name)
    where = prefix or f"models/players/{name}"
    return {f"{where}/{f.name}": f.read_bytes() for f in sorted(folder.iterdir())}


def glb(player: Player, skin: str = "default") -> bytes:
    doc, blob = build_player_gltf(player, skin)
    return glb_bytes(doc, blob)


def assert_same_player(got: Player, want: Player) -> None:
    """Same parts (bytes), clips, skins, textures (pixels) and poses."""
    for part in ("lower", "upper", "head"):
        assert got.parts[part].data == want.parts[part].data
    assert [(c.name, c.first_frame, c.num_frames, c.loop_frames, c.fps) for c in got.config] == [
        (c.name, c.first_frame, c.num_frames, c.loop_frames, c.fps) for c in want.config
    ]
    assert got.config.keys == want.config.keys
    assert got.skins == want.skins
    for skin in want.skins or ["default"]:
        g, w = got.skin_textures(skin), want.skin_textures(skin)
        assert {p: {s: t.name for s, t in v.items()} for p, v in g.items()} == {
            p: {s: t.name for s, t in v.items()} for p, v in w.items()
        }
        for part in g:
            for surface, path in g[part].items():
                a, b = got.texture(path), want.texture(w[part][surface])
                assert a is not None and b is not None
                assert a.png_bytes() == b.png_bytes()
    for clip in ("LEGS_RUN", "BOTH_DEATH1"):
        p, q = got.pose(clip, 0.1), want.pose(clip, 0.1)
        for part in ("lower", "upper", "head"):
            np.testing.assert_array_equal(p.positions[part], q.positions[part])


@pytest.fixture
def baseq3(tmp_path: Path) -> Path:
    """A game folder whose pak0.pk3 holds both corpus players."""
    game = tmp_path / "baseq3"
    files: dict[str, bytes] = {}
    for name in PLAYER_NAMES:
        files.update(player_files(name))
    pk3(game / "pak0.pk3", files)
    return game


# -- the API -----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", PLAYER_NAMES)
def test_player_in_a_pk3_is_the_player_on_disk(name: str, baseq3: Path) -> None:
    disk = _load(name)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning either
        through_archive = quakemodels.load(baseq3 / "pak0.pk3" / "models" / "players" / name)
        in_game = quakemodels.load(baseq3 / "models" / "players" / name, quakemodels.Player)
    for player in (through_archive, in_game):
        assert isinstance(player, Player)
        assert player.name == name
        assert player.paths["lower"] == baseq3 / "pak0.pk3" / "models/players" / name / "lower.md3"
        assert player.game_root == baseq3
        assert_same_player(player, disk)
        assert glb(player) == glb(disk)  # byte for byte, textures included
        assert quakemodels.check_model(player, "quake3") == quakemodels.check_model(disk, "quake3")


def test_parts_cfg_skins_and_images_spread_over_pk3s_and_loose_files(tmp_path: Path) -> None:
    """ioquake3's order: loose files first, then pk3s from the last (FS_PathCmp) to the first;
    names compared ignoring case."""
    game = tmp_path / "baseq3"
    bsuit = player_files("human_bsuit", prefix="MODELS/Players/Human_BSuit")
    image = bsuit.pop("MODELS/Players/Human_BSuit/human_bsuit.jpg")
    skins = {k: bsuit.pop(k) for k in list(bsuit) if k.endswith(".skin")}
    cfg = bsuit.pop("MODELS/Players/Human_BSuit/animation.cfg")
    pk3(game / "pak0.pk3", bsuit)  # the three parts
    # zz.pk3 sorts after pak0: its upper.md3 (human_base's) wins over pak0's
    upper = (_player_dir("human_base") / "upper.md3").read_bytes()
    pk3(game / "zz.pk3", {"models/players/human_bsuit/UPPER.md3": upper, **skins})
    pk3(game / "Pics.pk3", {"models/players/human_bsuit/HUMAN_BSUIT.JPG": image})
    # a loose animation.cfg overrides the one in pak1.pk3 (fps 12 on the first row, not 25)
    pk3(game / "pak1.pk3", {"models/players/human_bsuit/animation.cfg": cfg})
    loose = game / "models" / "players" / "human_bsuit"
    loose.mkdir(parents=True)
    assert cfg.count(b"\n0\t30\t0\t25") == 1
    (loose / "Animation.CFG").write_bytes(cfg.replace(b"\n0\t30\t0\t25", b"\n0\t30\t0\t12"))

    disk = _load("human_bsuit")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # human_base's torso under bsuit's skin: frame warnings
        # a path through pak0.pk3 reads that archive first, then the game's search path
        zz_upper = game / "zz.pk3" / "models/players/human_bsuit/UPPER.md3"
        pak0_upper = game / "pak0.pk3" / "MODELS/Players/Human_BSuit/upper.md3"
        for where, upper_path in (
            (loose, zz_upper),
            (game / "pak0.pk3" / "models" / "players" / "human_bsuit", pak0_upper),
        ):
            player = quakemodels.load(where, quakemodels.Player)
            assert player.paths == {
                "lower": game / "pak0.pk3" / "MODELS/Players/Human_BSuit/lower.md3",
                "upper": upper_path,
                "head": game / "pak0.pk3" / "MODELS/Players/Human_BSuit/head.md3",
            }
            want_upper = upper if upper_path == zz_upper else disk.upper.data
            assert player.upper.data == want_upper
            assert player.lower.data == disk.lower.data
            assert player.config.path == str(loose / "Animation.CFG")
            first = player.config.clips[0]
            assert (first.name, first.fps, disk.config.clips[0].fps) == ("BOTH_DEATH1", 12, 25)
            assert player.skins == ["default"]
            textures = player.skin("default")
            assert set(textures.values()) == {
                game / "Pics.pk3" / "models/players/human_bsuit/HUMAN_BSUIT.JPG"
            }
            got = player.texture(textures["l_legs"])
            want = disk.texture(disk.skin()["l_legs"])
            assert got is not None and want is not None
            assert got.png_bytes() == want.png_bytes()


def test_game_dir_gives_a_disk_player_its_images_and_skins(tmp_path: Path) -> None:
    game = tmp_path / "baseq3"
    files = player_files("human_bsuit")
    shared = {k: v for k, v in files.items() if k.endswith((".jpg", ".skin"))}
    pk3(game / "pak0.pk3", shared)
    # the player being edited outside the game: parts and cfg only
    work = tmp_path / "work" / "human_bsuit"
    work.mkdir(parents=True)
    for f in ("lower.md3", "upper.md3", "head.md3", "animation.cfg"):
        shutil.copy(_player_dir("human_bsuit") / f, work / f)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        alone = quakemodels.load(work, quakemodels.Player)
        assert alone.skins == []
        assert alone.skin() == {}
        assert alone.skin_images == [None, None, None]  # worked out (and kept) without a game
    assert sum("no texture found" in str(w.message) for w in record) >= 3
    # the same player through the game folder: its pictures are looked up again, not the
    # ones kept above
    found = alone.with_game_dir(game).skin_images
    assert [None if i is None else i.shape[2] for i in found] == [4, 4, 4]
    assert alone.skin_images == [None, None, None]
    # registry.scene's game_dir gives a player loaded without one the game's images too
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        em = quakemodels.registry.scene(alone, game_dir=game)
    assert {s.skin.path for s in em.surfaces if s.skin is not None} == {
        game / "pak0.pk3" / "models/players/human_bsuit/human_bsuit.jpg"
    }
    assert len(em.surfaces) == 3
    player = quakemodels.load(work, quakemodels.Player, game_dir=game)
    assert player.skins == ["default"]
    jpg = game / "pak0.pk3" / "models/players/human_bsuit/human_bsuit.jpg"
    assert player.skin() == {"l_legs": jpg, "u_torso": jpg, "h_head": jpg}
    assert (
        player.skin_file_path("head")
        == game / "pak0.pk3/models/players/human_bsuit/head_default.skin"
    )
    assert glb(player) == glb(_load("human_bsuit"))

    # the same folder under the game folder finds the pk3's images without --game-dir
    inside = game / "models" / "players" / "human_bsuit"
    shutil.copytree(work, inside)
    found = quakemodels.load(inside, quakemodels.Player)
    assert found.skin() == {"l_legs": jpg, "u_torso": jpg, "h_head": jpg}
    assert found.paths["lower"] == inside / "lower.md3"  # loose files win over pk3s
    assert glb(found) == glb(_load("human_bsuit"))


def test_missing_players_and_folders_that_are_not_players(baseq3: Path, tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="has no entry 'models/players/nobody'"):
        quakemodels.load(baseq3 / "pak0.pk3" / "models" / "players" / "nobody")
    with pytest.raises(FileNotFoundError):
        quakemodels.load(baseq3 / "models" / "players" / "nobody")
    pk3(
        baseq3 / "pak1.pk3",
        {"models/players/half/lower.md3": b"x", "models/players/half/a.cfg": b""},
    )
    with pytest.raises(
        PlayerFolderError, match=r"half is not a player folder: upper\.md3, head\.md3"
    ):
        quakemodels.load(baseq3 / "models" / "players" / "half")
    assert not quakemodels.registry.is_folder_set(baseq3 / "models" / "players" / "half")
    assert quakemodels.registry.is_folder_set(baseq3 / "models" / "players" / "human_base")
    assert not quakemodels.registry.is_folder_set(baseq3 / "pak0.pk3")
    # a single model through the archive still loads as itself
    head = quakemodels.load(baseq3 / "pak0.pk3/models/players/human_base/head.md3", quakemodels.Md3)
    assert head.data == (_player_dir("human_base") / "head.md3").read_bytes()


# -- untrusted names and hostile archives ------------------------------------------------------


def test_skin_and_shader_names_never_leave_the_game(tmp_path: Path) -> None:
    game = tmp_path / "game"
    secret = tmp_path / "secret.tga"
    secret.write_bytes(b"secret")
    folder = write_player(tmp_path / "build" / "p")
    (folder / "animation.cfg").write_text(ROWS_25.replace(" 2 ", " 1 "))
    files = {f"models/players/p/{f.name}": f.read_bytes() for f in folder.iterdir()}
    files["models/players/p/lower_default.skin"] = b"l_legs,../../../secret.tga\n"
    files["models/players/p/upper_default.skin"] = (
        b"u_torso,/\\etc/passwd\n"  # one leading slash is dropped
    )
    files["models/players/p/head_default.skin"] = b"h_head,C:/secret.tga\n"
    pk3(game / "pak0.pk3", files)
    # a loose file in the player's folder that is a symlink out of the game
    loose = game / "models" / "players" / "p"
    loose.mkdir(parents=True)
    os.symlink(secret, loose / "legs.tga")  # the legs' shader is models/players/p/legs.tga
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        player = quakemodels.load(game / "pak0.pk3" / "models" / "players" / "p")
        textures = player.skin_textures("default")
    messages = [str(w.message) for w in record]
    assert any("'../../../secret.tga' has a '..' component" in m for m in messages)
    assert any("'/\\\\etc/passwd' is an absolute path" in m for m in messages)
    assert any("'C:/secret.tga' has a drive letter" in m for m in messages)
    assert textures == {"lower": {}, "upper": {}, "head": {}}
    assert sum("no texture found" in m for m in messages) == 3


def test_hostile_archives_raise_archive_errors(tmp_path: Path) -> None:
    game = tmp_path / "baseq3"
    files = player_files("human_bsuit")
    files["models/players/human_bsuit/../../../../evil.txt"] = b"x"
    pk3(game / "pak0.pk3", files)
    with pytest.raises(ArchiveError, match=r"has a '\.\.' component"):
        quakemodels.load(game / "pak0.pk3" / "models" / "players" / "human_bsuit")
    assert main(["info", str(game / "pak0.pk3" / "models" / "players" / "human_bsuit")]) == 1
    # a truncated part names the part, as on disk
    files = player_files("human_bsuit")
    files["models/players/human_bsuit/upper.md3"] = files["models/players/human_bsuit/upper.md3"][
        :99
    ]
    (game / "pak0.pk3").unlink()
    pk3(game / "pak0.pk3", files)
    with pytest.raises(ModelFormatError, match=r"^upper\.md3: "):
        quakemodels.load(game / "models" / "players" / "human_bsuit")
    assert main(["check", str(game)]) == 1


# -- the command line --------------------------------------------------------------------------


def test_cli_verbs_on_a_player_in_a_pk3(
    baseq3: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    inside = baseq3 / "pak0.pk3" / "models" / "players" / "human_bsuit"
    assert main(["info", str(inside)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"{inside}: Quake III player 'human_bsuit', game root {baseq3}"
    assert "  LEGS_RUN                 legs  frames 107-119 (13) 23 fps loops 13" in out
    assert "    l_legs                   pak0.pk3/models/players/human_bsuit/human_bsuit.jpg" in out
    assert main(["info", "--json", str(baseq3 / "models" / "players" / "human_base")]) == 0
    [facts] = json.loads(capsys.readouterr().out)
    assert (facts["format"], len(facts["clips"]), facts["skins"]) == ("q3player", 25, [])
    assert facts["parts"]["lower"]["frames"] == 184

    assert main(["check", "--engine", "quake3", str(inside)]) == 0
    assert capsys.readouterr().out == f"{inside}: ok [quake3]\n"

    out_glb = tmp_path / "bsuit.glb"
    assert main(["export", str(inside), "-o", str(out_glb)]) == 0
    assert out_glb.read_bytes() == glb(_load("human_bsuit"))

    picture = tmp_path / "run.png"
    assert (
        main(["render", str(inside), "-o", str(picture), "--legs", "LEGS_RUN", "--time", "0"]) == 0
    )
    disk_picture = tmp_path / "disk.png"
    args = ["render", str(_player_dir("human_bsuit")), "-o", str(disk_picture)]
    assert main([*args, "--legs", "LEGS_RUN", "--time", "0"]) == 0
    assert picture.read_bytes() == disk_picture.read_bytes()

    dumps = tmp_path / "dumps"
    assert main(["dump", str(inside), "-o", str(dumps)]) == 0
    assert sorted(p.name for p in dumps.iterdir()) == ["head.json", "lower.json", "upper.json"]
    disk_dump = tmp_path / "disk.json"
    assert main(["dump", str(_player_dir("human_bsuit") / "head.md3"), "-o", str(disk_dump)]) == 0
    assert (dumps / "head.json").read_bytes() == disk_dump.read_bytes()
    capsys.readouterr()

    assert main(["info", str(baseq3 / "pak0.pk3" / "models" / "players" / "nobody")]) == 1
    assert "has no entry 'models/players/nobody'" in capsys.readouterr().err


@pytest.mark.parametrize("whole", ["archive", "game"])
def test_batch_verbs_see_player_folders_in_archives(
    whole: str, baseq3: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a single model beside the players is still an input of its own
    md3 = next(iter(sorted((CORPUS / "md3").glob("*.md3"))))
    pk3(baseq3 / "zz.pk3", {"models/mapobjects/thing.md3": md3.read_bytes()})
    source = baseq3 / "pak0.pk3" if whole == "archive" else baseq3
    out = tmp_path / "out"
    assert main(["export", str(source), "-o", str(out), "-j", "1"]) == 0
    written = sorted(p.relative_to(out).as_posix() for p in out.rglob("*.glb"))
    expected = ["models/players/human_base.glb", "models/players/human_bsuit.glb"]
    if whole == "game":
        expected.insert(0, "models/mapobjects/thing.glb")
    assert written == expected
    for name in PLAYER_NAMES:
        assert (out / f"models/players/{name}.glb").read_bytes() == glb(_load(name))
    err = capsys.readouterr().err
    assert err.endswith(f"{len(expected)} files: {len(expected)} ok, 0 failed\n")

    assert main(["check", "--engine", "quake3", str(source), "-j", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    players = [line for line in lines if "players" in line]
    root = f"{source}/models/players" if whole == "archive" else str(baseq3 / "models/players")
    assert players == [f"{root}/human_base: ok [quake3]", f"{root}/human_bsuit: ok [quake3]"]
    assert not [line for line in lines if "lower.md3" in line]

    assert main(["info", "--clips", str(source), "-j", "1"]) == 0
    assert f"{root}/human_bsuit: 37 clips" in capsys.readouterr().out

    assert main(["ls", str(source), "--models"]) == 0
    listed = capsys.readouterr()
    assert "   1126088  player models/players/human_base/  [pak0.pk3]" in listed.out.splitlines()
    assert " (2 players) from " in listed.err  # --models: `6 models (2 players) from ...`


def test_cli_game_dir_for_a_player_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = tmp_path / "baseq3"
    files = player_files("human_bsuit")
    pk3(game / "pak0.pk3", {k: v for k, v in files.items() if k.endswith((".jpg", ".skin"))})
    work = tmp_path / "human_bsuit"
    work.mkdir()
    for f in ("lower.md3", "upper.md3", "head.md3", "animation.cfg"):
        shutil.copy(_player_dir("human_bsuit") / f, work / f)
    out = tmp_path / "x.glb"
    assert main(["export", str(work), "-o", str(out)]) == 0
    assert "no texture found for 3 surfaces: lower.md3 'l_legs'," in capsys.readouterr().err
    assert main(["export", str(work), "-o", str(out), "--game-dir", str(game)]) == 0
    assert "warning" not in capsys.readouterr().err
    assert out.read_bytes() == glb(_load("human_bsuit"))
    assert main(["check", str(work), "--engine", "quake3", "--game-dir", str(game)]) == 0
    assert capsys.readouterr().out == f"{work}: ok [quake3]\n"
    assert main(["check", str(work), "--engine", "quake3"]) == 0
    assert "player-skin" not in capsys.readouterr().out  # no .skin files: nothing to check


def test_a_single_model_named_by_its_place_in_a_game_folder(
    baseq3: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    md3 = sorted((CORPUS / "md3").glob("*.md3"))[0]
    pk3(baseq3 / "zz.pk3", {"Models/MapObjects/Thing.md3": md3.read_bytes()})
    virtual = baseq3 / "models" / "mapobjects" / "thing.MD3"
    model = quakemodels.load(virtual, quakemodels.Md3)
    assert model.data == md3.read_bytes()
    assert model.name == str(virtual)
    assert main(["info", "--json", str(virtual)]) == 0
    [facts] = json.loads(capsys.readouterr().out)
    assert (facts["file"], facts["bytes"]) == (str(virtual), md3.stat().st_size)
    assert main(["export", str(virtual), "-o", str(tmp_path / "out")]) == 0
    assert (tmp_path / "out" / "models" / "mapobjects" / "thing.glb").is_file()
    dumped = tmp_path / "thing.json"
    assert main(["dump", str(virtual), "-o", str(dumped)]) == 0
    assert main(["dump", str(md3), "-o", str(tmp_path / "disk.json")]) == 0
    assert dumped.read_bytes() == (tmp_path / "disk.json").read_bytes()
    with pytest.raises(FileNotFoundError):
        quakemodels.load(baseq3 / "models" / "mapobjects" / "other.md3")
    assert main(["info", str(baseq3 / "models" / "mapobjects" / "other.md3")]) == 1
    assert "no such file or directory" in capsys.readouterr().err


def test_a_folder_inside_a_game_folder_lists_what_its_pk3s_hold(
    baseq3: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    md3 = sorted((CORPUS / "md3").glob("*.md3"))[0]
    pk3(baseq3 / "zz.pk3", {"models/mapobjects/thing.md3": md3.read_bytes()})
    players = baseq3 / "models" / "players"  # only in pak0.pk3: no such folder on disk
    assert main(["check", "--engine", "quake3", str(players), "-j", "1"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"{players}/human_base: ok [quake3]",
        f"{players}/human_bsuit: ok [quake3]",
    ]
    # on disk too, with a loose player beside the pk3s' ones: loose files win
    write_player(players / "p").joinpath("animation.cfg").write_text(ROWS_25)
    out = tmp_path / "out"
    assert main(["export", str(baseq3 / "models"), "-o", str(out), "-j", "1"]) == 0
    written = sorted(p.relative_to(out).as_posix() for p in out.rglob("*.glb"))
    # each under its place in the folder named (models/), as for a folder on disk
    assert written == [
        "mapobjects/thing.glb",
        "players/human_base.glb",
        "players/human_bsuit.glb",
        "players/p.glb",
    ]
    assert capsys.readouterr().err.endswith("4 files: 4 ok, 0 failed\n")
    assert main(["check", str(baseq3 / "textures")]) == 1
    assert "no such file or directory" in capsys.readouterr().out


def test_convert_reads_players_and_models_through_archives(
    baseq3: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """convert takes what export takes: a player folder (on disk or in a pk3) and archive
    entries, with the same bytes out as from disk."""
    out = tmp_path / "out"
    in_pk3 = baseq3 / "pak0.pk3" / "models" / "players" / "human_bsuit"
    assert main(["convert", str(_player_dir("human_bsuit")), str(out / "disk.glb")]) == 0
    assert main(["convert", str(in_pk3), str(out / "pk3.glb")]) == 0
    assert (out / "pk3.glb").read_bytes() == (out / "disk.glb").read_bytes()
    assert main(["export", str(in_pk3), "-o", str(out / "export.glb")]) == 0
    assert (out / "pk3.glb").read_bytes() == (out / "export.glb").read_bytes()

    mdl = (CORPUS / "mdl" / "lq_flame2.mdl").read_bytes()
    pk3(tmp_path / "q1" / "pak1.pk3", {"progs/flame2.mdl": mdl})
    assert (
        main(["convert", str(tmp_path / "q1/pak1.pk3/progs/flame2.mdl"), str(out / "a/f.md2")]) == 0
    )
    assert main(["convert", str(CORPUS / "mdl" / "lq_flame2.mdl"), str(out / "b/f.md2")]) == 0
    for name in ("f.md2", "f_skin0.tga"):
        assert (out / "a" / name).read_bytes() == (out / "b" / name).read_bytes()
    capsys.readouterr()

    assert main(["convert", str(baseq3 / "pak0.pk3/models/none.md3"), str(out / "n.glb")]) == 1
    assert "pak0.pk3 has no entry 'models/none.md3'" in capsys.readouterr().err
    cfg = baseq3 / "pak0.pk3/models/players/human_bsuit/animation.cfg"
    assert main(["convert", str(cfg), str(out / "c.glb")]) == 2
    assert "is not a model quakemodels reads" in capsys.readouterr().err
    assert not (out / "n.glb").exists() and not (out / "c.glb").exists()
