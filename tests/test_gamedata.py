"""Game data as the engines read it, and model files that name only game paths.

* a player folder does not convert to one MD3 (exit 2), and no model file a conversion writes
  names a path of the machine it ran on (skin and shader names are game paths);
* a broken .pk3 in a game folder is skipped with one warning, as ioquake3 skips it; a broken
  .pak stops Quake and Quake II, so it stays an error, but one that cannot be opened is skipped;
* one leading slash of a game path is dropped (ioquake3's ``FS_FOpenFileRead``);
* a glTF's embedded skin converted to MD2 is written beside it as TGA and named in the MD2.
"""

from __future__ import annotations

import io
import os
import struct
import warnings
from pathlib import Path

import numpy as np
import pytest
from archivebuilder import write_pk3
from md2builder import Md2Spec
from md2builder import build as build_md2
from md3builder import Md3Spec, SurfaceSpec
from md3builder import build as build_md3
from mdlbuilder import MdlSpec
from mdlbuilder import build as build_mdl
from PIL import Image
from test_q3player import ROWS_25, write_player

import quakemodels
from quakemodels.archive import ArchiveError, GameFS
from quakemodels.archive import gamefs as gamefs_module
from quakemodels.cli import main
from quakemodels.core import gamepaths, skins
from quakemodels.errors import QuakeModelsWarning
from quakemodels.formats.md2 import Md2
from quakemodels.formats.md3 import Md3
from quakemodels.formats.q3player import Player
from quakemodels.registry import scene


def _run(argv: list[str | Path], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def _warning_lines(err: str) -> list[str]:
    return [line for line in err.splitlines() if "warning:" in line]


# -- 5. a player does not become one MD3; no written model names a local path ------------------


def test_player_to_one_md3_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = write_player(tmp_path / "models" / "players" / "p")
    (folder / "animation.cfg").write_text(ROWS_25.replace(" 2 ", " 1 "))
    out = tmp_path / "out" / "p.md3"
    code, text, err = _run(["convert", folder, out], capsys)
    assert code == 2, err
    assert text == "" and not out.exists()
    lines = err.strip().splitlines()
    assert len(lines) == 1
    assert lines[0] == (
        f"quakemodels convert: error: {folder} is a player (three MD3s joined by tags); MD3"
        " holds one model, not three parts on tags: convert one part (…/upper.md3 p.md3) or"
        " export the player to glTF"
    )
    # a folder path far over the 64 bytes of a shader name: the same usage error, not a limit
    deep = write_player(tmp_path / ("long_folder_name_" * 6) / "models" / "players" / "q")
    (deep / "animation.cfg").write_text(ROWS_25.replace(" 2 ", " 1 "))
    code, _, err = _run(["convert", deep, tmp_path / "q.md3"], capsys)
    said = err.replace(str(tmp_path), "TMP")  # the test folder's own name may hold "64"
    assert code == 2 and "is a player" in said and "64" not in said
    assert not (tmp_path / "q.md3").exists()
    # its parts still convert, one at a time
    code, _, err = _run(["convert", folder / "upper.md3", tmp_path / "upper.md3"], capsys)
    assert code == 0, err


def _names_in(path: Path) -> list[str]:
    """The skin names of an MD2, the shader names of an MD3 (an MDL has none)."""
    model = quakemodels.load(path)
    if isinstance(model, Md2):
        return list(model.skins)
    if isinstance(model, Md3):
        return [sh.name for s in model.surfaces for sh in s.shaders]
    return []


def _assert_game_paths(path: Path, local: Path) -> None:
    """No name in the model file at ``path`` is a local or absolute path."""
    data = path.read_bytes()
    for root in {local, local.resolve()}:
        assert os.fsencode(root) not in data, path
        assert os.fsencode(root.relative_to(root.anchor)) not in data, path
    for name in _names_in(path):
        assert name and not name.startswith(("/", "\\")), (path, name)
        assert ":" not in name and "\\" not in name and ".." not in name.split("/"), (path, name)


def test_no_written_model_names_a_local_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every convert pair between MD2, MD3, MDL, glTF and OBJ, and a player glTF → folder: the
    files written hold game paths only, even from inputs naming absolute paths."""
    src = tmp_path / "in"
    src.mkdir()
    skin = src / "thing.pcx"
    Image.new("RGB", (64, 32), (20, 200, 90)).save(skin, format="PCX")
    inputs = {
        # names as hostile files store them: a local absolute path, one leading slash, a drive
        "md2": build_md2(
            Md2Spec(skins=[b"/home/modder/x.pcx", b"/models/test/skin.pcx", b"C:/q.pcx"])
        ),
        "md3": build_md3(
            Md3Spec(
                surfaces=[
                    SurfaceSpec(shaders=[b"/home/modder/thing.pcx", b"models/test/skin.pcx"]),
                    SurfaceSpec(name=b"head", shaders=[b"/models/test/head.tga"]),
                ],
            )
        ),
        "mdl": build_mdl(MdlSpec()),
    }
    for kind, data in inputs.items():
        (src / f"thing.{kind}").write_bytes(data)
    player = write_player(src / "models" / "players" / "p")
    (player / "animation.cfg").write_text(ROWS_25.replace(" 2 ", " 1 "))
    Image.new("RGB", (8, 8), (1, 2, 3)).save(player / "legs.tga")
    out = tmp_path / "out"
    written: list[Path] = []
    for kind in inputs:
        model = src / f"thing.{kind}"
        for interchange in ("glb", "obj"):
            target = out / f"{kind}.{interchange}"
            assert _run(["convert", model, target], capsys)[0] == 0
        for to in ("md2", "md3", "mdl"):
            for origin in (model, out / f"{kind}.glb", out / f"{kind}.obj"):
                target = out / f"{origin.suffix[1:]}_{kind}_to.{to}"
                code, _, err = _run(["convert", origin, target, "--merge-surfaces"], capsys)
                if origin.suffix == ".obj" or (to == "md3" and origin.suffix == ".md3"):
                    code, _, err = _run(["convert", origin, target], capsys)
                assert code == 0, (origin, to, err)
                written.append(target)
    assert _run(["convert", player, out / "player.glb"], capsys)[0] == 0
    assert _run(["convert", out / "player.glb", out / "models/players/p2/"], capsys)[0] == 0
    written += sorted((out / "models/players/p2").glob("*.md3"))
    assert len(written) == 3 * 3 * 3 + 3
    for path in written:
        if path.name in ("md2_md2_to.md2", "mdl_mdl_to.mdl"):  # exact copies of the input
            assert path.read_bytes() == (src / f"thing{path.suffix}").read_bytes()
            continue
        _assert_game_paths(path, tmp_path)
    # the names that were game paths are kept as such (one leading slash dropped)
    # (an absolute name loses its one leading slash: ioquake3 would open it so; C:/ is dropped)
    assert [sh.name for sh in Md3.from_file(out / "md2_md2_to.md3").surfaces[0].shaders] == [
        "home/modder/x.pcx",
        "models/test/skin.pcx",
    ]
    assert Md2.from_file(out / "md3_md3_to.md2").skins == [
        "home/modder/thing.pcx",
        "models/test/skin.pcx",
    ]
    assert [sh.name for sh in Md3.from_file(out / "md3_md3_to.md3").surfaces[1].shaders] == [
        "models/test/head.tga"
    ]
    built = [Md3.from_file(f) for f in (out / "models/players/p2").glob("*.md3")]
    shaders = {sh.name for m in built for s in m.surfaces for sh in s.shaders}
    assert shaders == {"models/players/p2/legs.png"}  # the PNG the glTF embedded


def test_stored_names_given_on_the_command_line_must_be_game_paths(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    md3 = tmp_path / "a.md3"
    md3.write_bytes(build_md3(Md3Spec(surfaces=[SurfaceSpec(shaders=[])])))
    glb = tmp_path / "a.glb"
    assert _run(["convert", md3, glb], capsys)[0] == 0
    for argv in (
        [glb, tmp_path / "b.md2", "--skin", "/home/me/skin.pcx"],
        [md3, tmp_path / "b.md2", "--skin", "C:/quake2/skin.pcx"],
        [glb, tmp_path / "b.md3", "--shader", "../skin.tga"],
    ):
        code, _, err = _run(["convert", *argv], capsys)
        assert code == 2 and "give a game path" in err, err
        assert not (tmp_path / "b.md2").exists() and not (tmp_path / "b.md3").exists()
    code, _, err = _run(["convert", glb, tmp_path / "b.md2", "--skin", "models/a/s.pcx"], capsys)
    assert code == 0, err
    assert Md2.from_file(tmp_path / "b.md2").skins == ["models/a/s.pcx"]


def test_player_scene_names_game_paths(tmp_path: Path) -> None:
    game = tmp_path / "game"
    folder = write_player(game / "models" / "players" / "p")
    (folder / "animation.cfg").write_text(ROWS_25.replace(" 2 ", " 1 "))
    (folder / "legs.tga").write_bytes(b"")
    Image.new("RGB", (4, 4)).save(folder / "legs.tga")
    Image.new("RGB", (4, 4)).save(folder / "torso.png")
    (folder / "upper_default.skin").write_text("u_torso,/models/players/p/torso.png\ntag_head,\n")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        player = Player.from_folder(folder)
        view = scene(player)
    names = {s.name: s.skin_names for s in view.surfaces}
    assert names == {
        "l_legs": ("models/players/p/legs.tga",),
        "u_torso": ("models/players/p/torso.png",),
        "h_head": (),
    }
    skin = {s.name: s.skin for s in view.surfaces}
    assert skin["u_torso"] is not None and skin["u_torso"].path == folder / "torso.png"


# -- 6a. a broken pk3 is skipped, once ---------------------------------------------------------


def _game_with_a_truncated_pk3(tmp_path: Path) -> Path:
    game = tmp_path / "baseq3"
    good = write_pk3(game / "pak0.pk3", {"models/things/box.md3": build_md3(Md3Spec())})
    (game / "pak1.pk3").write_bytes(good.read_bytes()[:100])  # cut short: no central directory
    return game


def test_gamefs_skips_a_broken_pk3_with_one_warning(tmp_path: Path) -> None:
    game = _game_with_a_truncated_pk3(tmp_path)
    with pytest.warns(QuakeModelsWarning) as record:
        fs = GameFS(game)
    with fs:
        assert [str(w.message) for w in record] == [
            f"{game / 'pak1.pk3'} skipped, as the engine skips an archive it cannot open:"
            " not a readable zip/pk3 file: File is not a zip file"
        ]
        assert fs.skipped == [
            (
                game / "pak1.pk3",
                f"{game / 'pak1.pk3'}: not a readable zip/pk3 file: File is not a zip file",
            )
        ]
        assert [s.path.name for s in fs.sources] == ["baseq3", "pak0.pk3"]
        assert fs.read("models/things/box.md3")[:4] == b"IDP3"
    # a second GameFS of the same folder (another model of the batch) does not warn again
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        GameFS(game).close()
    # an archive named as a root of its own is still an error
    with pytest.raises(ArchiveError, match=r"pak1\.pk3: not a readable zip/pk3 file"):
        GameFS([game, game / "pak1.pk3"])


def test_cli_with_a_broken_pk3_works_and_warns_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = _game_with_a_truncated_pk3(tmp_path)
    bad = game / "pak1.pk3"
    runs: list[list[str | Path]] = [
        ["export", game, "-o", tmp_path / "all", "-j", "2"],
        ["export", game / "models" / "things", "-o", tmp_path / "some"],
        ["info", game / "pak0.pk3" / "models" / "things" / "box.md3"],
        ["ls", game],
    ]
    for argv in runs:
        gamefs_module.__dict__.get("_WARNED", set()).clear()  # each run is a new process
        code, _, err = _run(argv, capsys)
        assert code == 0, (argv, err)
        lines = _warning_lines(err)
        assert len(lines) == 1, (argv, err)
        assert f"warning: {bad} skipped, as the engine skips an archive it cannot open" in lines[0]
        assert "no such file or directory" not in err
    assert (tmp_path / "all" / "models" / "things" / "box.glb").is_file()
    assert (tmp_path / "some" / "box.glb").is_file()


def test_a_broken_pak_stops_quake2_but_one_it_cannot_open_is_skipped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Quake II's FS_LoadPackFile: fopen failing → skipped; no PACK header → Com_Error."""
    game = tmp_path / "baseq2"
    game.mkdir()
    entry = build_md2(Md2Spec())
    directory = struct.pack("<56sii", b"models/a/tris.md2", 12, len(entry))
    (game / "pak0.pak").write_bytes(
        b"PACK" + struct.pack("<ii", 12 + len(entry), len(directory)) + entry + directory
    )
    (game / "pak1.pak").write_bytes(b"JUNK" + bytes(8))
    with pytest.raises(ArchiveError, match=r"pak1\.pak"):
        GameFS(game)
    code, _, err = _run(["export", game, "-o", tmp_path / "out"], capsys)
    assert code == 1 and "pak1.pak" in err
    # a pak fopen fails on (as root, a permission cannot make it fail: the error is simulated)
    real = gamefs_module.open_archive

    def refuse(path: Path, engine: object = None) -> object:
        if Path(path).name == "pak1.pak":
            try:
                raise PermissionError(13, "Permission denied")
            except PermissionError as e:
                raise ArchiveError(f"{path}: cannot open: Permission denied") from e
        return real(path, engine)  # type: ignore[arg-type]

    monkeypatch.setattr(gamefs_module, "open_archive", refuse)
    with pytest.warns(QuakeModelsWarning, match=r"pak1.pak skipped, .*cannot open: Perm"):
        fs = GameFS(game)
    with fs:
        assert fs.read("models/a/tris.md2") == entry


# -- 6b. one leading slash -------------------------------------------------------------------


def test_one_leading_slash_is_dropped_from_game_paths(tmp_path: Path) -> None:
    # a .skin naming its textures from the game root with a leading slash, on disk and in a pk3
    game = tmp_path / "baseq3"
    folder = write_player(game / "models" / "players" / "p")
    (folder / "animation.cfg").write_text(ROWS_25.replace(" 2 ", " 1 "))
    (folder / "skins").mkdir()
    Image.new("RGB", (4, 4), (1, 2, 3)).save(folder / "skins" / "torso.tga")
    Image.new("RGB", (4, 4)).save(folder / "other.tga")  # the fallback when a name is refused
    (folder / "upper_default.skin").write_text(
        "u_torso,/models/players/p/skins/torso.tga\n"  # one slash: the game path
    )
    # two separators stay absolute ("//" would start a comment in a .skin, as in the engine)
    (folder / "head_default.skin").write_text("h_head,/\\models/players/p/skins/torso.tga\n")
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        textures = Player.from_folder(folder).skin_textures()
    assert textures["upper"] == {"u_torso": folder / "skins" / "torso.tga"}
    assert textures["head"] == {"h_head": folder / "other.tga"}  # the name refused
    messages = [str(w.message) for w in record]
    assert any(
        "'/\\\\models/players/p/skins/torso.tga' is an absolute path; refused" in m
        for m in messages
    ), messages
    assert not any("'/models/players/p/skins/torso.tga'" in m for m in messages)
    # the same player inside a pk3
    files = {
        f"models/players/p/{f.relative_to(folder).as_posix()}": f.read_bytes()
        for f in folder.rglob("*")
        if f.is_file()
    }
    write_pk3(tmp_path / "q3" / "pak0.pk3", files)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        player = quakemodels.load(tmp_path / "q3" / "pak0.pk3" / "models" / "players" / "p")
        found = player.skin_textures()["upper"]["u_torso"]
        assert found.as_posix().endswith("pak0.pk3/models/players/p/skins/torso.tga")
    # an MD3's shader and an MD2's skin name with one leading slash find their image
    md3 = game / "models" / "box" / "box.md3"
    md3.parent.mkdir(parents=True)
    md3.write_bytes(build_md3(Md3Spec(surfaces=[SurfaceSpec(shaders=[b"/models/box/wood"])])))
    Image.new("RGB", (4, 4), (9, 8, 7)).save(md3.parent / "wood.tga")
    Image.new("RGB", (4, 4)).save(md3.parent / "decoy.tga")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        found = skins.find_skin(["/models/box/wood"], md3, skin_dir=game)
        assert found is not None and found.path == md3.parent / "wood.tga"
    # and through a game's search path (GameFS.find_image), for Quake II too
    write_pk3(
        tmp_path / "q3b" / "pak0.pk3",
        {"models/box/wood.tga": (md3.parent / "wood.tga").read_bytes()},
    )
    with GameFS(tmp_path / "q3b") as fs:
        hit = fs.find_image(["/models/box/wood.tga"])
        assert hit is not None and hit.name == "models/box/wood.tga"
        assert fs.find_image(["//models/box/wood.tga"]) is None
    assert gamepaths.game_path("/models/a.pcx") == "models/a.pcx"
    assert gamepaths.game_path("\\models\\a.pcx") == "models/a.pcx"
    for bad in ("//server/share.pcx", "/C:/a.pcx", "C:\\a.pcx", "/../a.pcx", ""):
        assert gamepaths.game_path(bad) is None, bad


# -- 6c. a glTF's embedded skin → MD2 -------------------------------------------------------------


def test_gltf_skin_is_written_beside_the_md2_as_tga(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "src"
    src.mkdir()
    (src / "guy.md2").write_bytes(build_md2(Md2Spec(skins=[b"guy.pcx"])))
    pixels = np.random.default_rng(5).integers(0, 256, (32, 64, 3), dtype=np.uint8)
    Image.fromarray(pixels).save(src / "guy.pcx", format="PCX")  # a PCX keeps 256 colours only
    with Image.open(src / "guy.pcx") as image:
        expected = np.asarray(image.convert("RGB"))
    glb = tmp_path / "guy.glb"
    assert _run(["convert", src / "guy.md2", glb], capsys)[0] == 0
    # the skin name the MD2 stored comes back (the glTF's material is named by it); the
    # image is written beside the model as TGA under that name's stem
    out = tmp_path / "baseq2" / "models" / "guy" / "tris.md2"
    code, text, err = _run(["convert", glb, out], capsys)
    assert code == 0, err
    assert text.rstrip().endswith("; skin guy.pcx written as guy.tga, named guy.pcx"), text
    md2 = Md2.from_file(out)
    assert md2.skins == ["guy.pcx"]
    assert (md2.skin_width, md2.skin_height) == (64, 32)
    with Image.open(out.with_name("guy.tga")) as image:
        assert image.format == "TGA" and image.mode == "RGB"
        assert np.array_equal(np.asarray(image), expected)
    raw = out.with_name("guy.tga").read_bytes()
    assert raw[2] == 2 and raw[16] == 24 and raw[17] & 0x20 == 0  # what Quake II's LoadTGA reads
    # the skin is found again by its name
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        view = scene(quakemodels.load(out))
    found = view.surfaces[0].skin
    assert found is not None and found.path == out.with_name("guy.tga")
    # --no-clobber counts the skin too
    plain = tmp_path / "plain" / "guy.md2"
    assert _run(["convert", glb, plain], capsys)[0] == 0
    assert Md2.from_file(plain).skins == ["guy.pcx"]
    plain.unlink()
    code, _, err = _run(["convert", glb, plain, "--no-clobber"], capsys)
    assert code == 3 and "guy.tga exists" in err and not plain.exists()
    # --skin NAME: the names given; the image is written under the first one's stem
    named = tmp_path / "named" / "guy.md2"
    assert _run(["convert", glb, named, "--skin", "models/guy/skin.pcx"], capsys)[0] == 0
    assert sorted(p.name for p in named.parent.iterdir()) == ["guy.md2", "skin.tga"]
    assert Md2.from_file(named).skins == ["models/guy/skin.pcx"]


def test_gltf_skin_that_cannot_be_carried_over_warns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "guy.md2"
    src.write_bytes(build_md2(Md2Spec(skins=[b"guy.pcx"])))
    Image.new("RGB", (64, 32), (5, 6, 7)).save(tmp_path / "guy.pcx", format="PCX")
    gltf = tmp_path / "guy.gltf"
    assert _run(["convert", src, gltf], capsys)[0] == 0
    doc = __import__("json").loads(gltf.read_text())
    # the image as a file beside the glTF (the way many tools write .gltf)
    doc["images"][0] = {"uri": "guy_skin.png", "mimeType": "image/png"}
    gltf.write_text(__import__("json").dumps(doc))
    out = tmp_path / "out.md2"
    with pytest.warns(
        QuakeModelsWarning, match=r"image 'guy_skin.png' that cannot be read: .*guy_skin.png"
    ) as caught:
        code, _, err = _run(["convert", gltf, out], capsys)
    assert code == 0, err
    assert len([w for w in caught if "skin" in str(w.message)]) == 1
    assert Md2.from_file(out).skins == ["guy.pcx"]  # the name is kept, the image is missing
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "guy.gltf",
        "guy.md2",
        "guy.pcx",
        "out.md2",
    ]
    # once the file is there (inside the glTF's folder), it is read
    Image.new("RGB", (64, 32), (50, 60, 70)).save(tmp_path / "guy_skin.png")
    out.unlink()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        code, _, err = _run(["convert", gltf, out], capsys)
    assert code == 0, err
    with Image.open(tmp_path / "guy.tga") as image:
        assert np.asarray(image)[0, 0].tolist() == [50, 60, 70]
    # a uri out of the glTF's folder is refused
    doc["images"][0] = {"uri": "../outside.png", "mimeType": "image/png"}
    Image.new("RGB", (4, 4)).save(tmp_path.parent / "outside.png")
    gltf.write_text(__import__("json").dumps(doc))
    with pytest.warns(QuakeModelsWarning, match=r"points outside"):
        code, _, err = _run(["convert", gltf, tmp_path / "out2.md2"], capsys)
    assert code == 0, err
    # an embedded image no decoder reads
    glb = tmp_path / "bad.glb"
    assert _run(["convert", src, glb], capsys)[0] == 0
    data = bytearray(glb.read_bytes())
    at = data.find(b"\x89PNG")
    data[at : at + 8] = b"NOTANIMG"
    glb.write_bytes(bytes(data))
    with pytest.warns(QuakeModelsWarning, match=r"image 'guy.pcx' that cannot be decoded"):
        code, _, err = _run(["convert", glb, tmp_path / "bad.md2"], capsys)
    assert code == 0, err
    assert Md2.from_file(tmp_path / "bad.md2").skins == ["guy.pcx"]


def test_encode_tga_round_trips_through_pillow_and_our_decoder() -> None:
    from quakemodels.core.rasters import decode_tga, encode_tga

    for channels in (3, 4):
        pixels = np.random.default_rng(channels).integers(0, 256, (5, 7, channels), np.uint8)
        data = encode_tga(pixels)
        assert len(data) == 18 + 5 * 7 * channels
        with Image.open(io.BytesIO(data)) as image:
            assert np.array_equal(np.asarray(image), pixels)
        decoded = decode_tga(data)
        assert decoded is not None and np.array_equal(decoded, pixels)
        # bottom row first, BGR(A)
        assert data[18 : 18 + channels] == bytes(pixels[-1, 0, [2, 1, 0, 3][:channels]])
    with pytest.raises(ValueError):
        encode_tga(np.zeros((2, 2), np.uint8))


# -- 7. batch output keeps the source tree ----------------------------------------------------


def _tree_files(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())


def test_batch_export_of_a_folder_keeps_its_tree(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tree = tmp_path / "tree"
    for name in ("tank", "soldier"):
        (tree / name).mkdir(parents=True)
        (tree / name / "tris.md2").write_bytes(build_md2(Md2Spec()))
    (tree / "box.md3").write_bytes(build_md3(Md3Spec()))
    out = tmp_path / "OUT"
    code, text, err = _run(["export", tree, "-o", out, "-j", "1"], capsys)
    assert code == 0, err
    assert _tree_files(out) == ["box.glb", "soldier/tris.glb", "tank/tris.glb"]
    assert f"{tree / 'tank' / 'tris.md2'} -> {out / 'tank' / 'tris.glb'}" in text
    assert _warning_lines(err) == []
    # in parallel, and render too
    code, _, err = _run(["render", tree, "-o", tmp_path / "PNG", "--size", "16x16"], capsys)
    assert code == 0, err
    assert _tree_files(tmp_path / "PNG") == ["box.png", "soldier/tris.png", "tank/tris.png"]
    # a glob keeps the tree below its fixed folders
    code, _, err = _run(["export", f"{tree}/**/*.md2", "-o", tmp_path / "GLOB"], capsys)
    assert code == 0, err
    assert _tree_files(tmp_path / "GLOB") == ["soldier/tris.glb", "tank/tris.glb"]
    # files named one by one: their own names (_2 when two collide, as before)
    code, _, err = _run(
        ["export", tree / "tank" / "tris.md2", tree / "soldier" / "tris.md2", "-o", tmp_path / "F"],
        capsys,
    )
    assert code == 0, err
    assert _tree_files(tmp_path / "F") == ["tris.glb", "tris_2.glb"]


def test_batch_export_of_archives_and_game_folders_keeps_their_tree(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from archivebuilder import pak_bytes

    md2 = build_md2(Md2Spec())
    game = tmp_path / "baseq2"
    game.mkdir()
    (game / "pak0.pak").write_bytes(
        pak_bytes([("models/tank/tris.md2", md2), ("models/soldier/tris.md2", md2)])
    )
    loose = game / "players" / "male"
    loose.mkdir(parents=True)
    (loose / "tris.md2").write_bytes(md2)
    out = tmp_path / "OUT"
    code, _, err = _run(["export", game, "-o", out], capsys)
    assert code == 0, err
    assert _tree_files(out) == [
        "models/soldier/tris.glb",
        "models/tank/tris.glb",
        "players/male/tris.glb",
    ]
    # an archive by itself: its entry paths
    code, _, err = _run(["export", game / "pak0.pak", "-o", tmp_path / "PAK"], capsys)
    assert code == 0, err
    assert _tree_files(tmp_path / "PAK") == ["models/soldier/tris.glb", "models/tank/tris.glb"]
    # a pk3 whose entry names hold characters no file name may (Windows) and dots only
    pk3 = write_pk3(
        tmp_path / "odd.pk3",
        {'models/a"b?c/tris.md2': md2, "models/.../x.md2": md2, "models/c*d/<e>.md2": md2},
    )
    code, _, err = _run(["export", pk3, "-o", tmp_path / "ODD"], capsys)
    assert code == 0, err
    assert _tree_files(tmp_path / "ODD") == [
        "models/_/x.glb",
        "models/a_b_c/tris.glb",
        "models/c_d/_e_.glb",
    ]


def test_untrusted_places_never_leave_the_output_folder() -> None:
    from quakemodels.cli.batch import safe_relative
    from quakemodels.cli.export import output_names

    cases = {
        "../../etc/passwd.md2": "etc/passwd.md2",
        "/abs/x.md2": "abs/x.md2",
        "a/../../b.md2": "a/b.md2",
        "..\\..\\win.md2": "win.md2",
        "C:/x.md2": "C_/x.md2",
        "a/\x00b/c.md2": "a/_b/c.md2",
        "..": "_",
        "": "_",
        " . /x.md2": "_/x.md2",
    }
    for place, expected in cases.items():
        rel = safe_relative(place)
        assert rel.as_posix() == expected, place
        assert not rel.is_absolute() and ".." not in rel.parts
    files = ["p1", "p2", "p3"]
    names = output_names(files, {"p1": "../x.md2", "p2": "x.md2", "p3": "X.MD2"})
    assert names == {"p1": "x", "p2": "x_2", "p3": "X_3"}


def test_an_incomplete_player_is_exported_with_one_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    full = write_player(tmp_path / "parts")
    tree = tmp_path / "tree"
    half = tree / "models" / "players" / "half"
    half.mkdir(parents=True)
    (half / "upper.md3").write_bytes((full / "upper.md3").read_bytes())
    (half / "animation.cfg").write_text(ROWS_25)
    two = tree / "models" / "players" / "two"
    two.mkdir(parents=True)
    for part in ("upper.md3", "HEAD.md3"):
        (two / part).write_bytes((full / part).read_bytes())
    # a folder with one part and no animation.cfg is just a model (no warning)
    (tree / "weapons").mkdir()
    (tree / "weapons" / "head.md3").write_bytes((full / "HEAD.md3").read_bytes())
    out = tmp_path / "OUT"
    code, _, err = _run(["export", tree, "-o", out, "-j", "1"], capsys)
    assert code == 0, err
    assert _tree_files(out) == [
        "models/players/half/upper.glb",
        "models/players/two/HEAD.glb",
        "models/players/two/upper.glb",
        "weapons/head.glb",
    ]
    assert _warning_lines(err) == [
        f"{tree}: warning: {half} is not a whole Quake III player: lower.md3 and head.md3"
        " missing; read as single models: upper.md3",
        f"{tree}: warning: {two} is not a whole Quake III player: lower.md3 missing; read as"
        " single models: upper.md3, head.md3",
    ]
    # the same player in a pk3 of a game folder
    files = {"models/players/half/upper.md3": (full / "upper.md3").read_bytes()}
    files["models/players/half/animation.cfg"] = ROWS_25.encode()
    game = tmp_path / "baseq3"
    write_pk3(game / "pak0.pk3", files)
    code, _, err = _run(["export", game, "-o", tmp_path / "G"], capsys)
    assert code == 0, err
    assert _tree_files(tmp_path / "G") == ["models/players/half/upper.glb"]
    assert _warning_lines(err) == [
        f"{game}: warning: {game}/models/players/half is not a whole Quake III player:"
        " lower.md3 and head.md3 missing; read as single models: upper.md3"
    ]
