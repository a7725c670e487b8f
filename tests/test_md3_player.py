"""MD3 out of other things: a player glTF back to a player folder, and MDL → MD3.

The player round trip: ``export <player folder> x.glb`` then ``convert x.glb OUT/`` on both
corpus players; the new folder's parts have the same vertex words, tags within float32
rounding of the exporter's rotation snap, the same animation.cfg clips (file frame numbers
included) and keys; they read back through the generated Kaitai parser and the independent
qfiles.h reader; the folder loads as a Player and passes ``check --engine quake3``. Hostile
player glTFs (names that would be paths, bad clip extras) fail cleanly and write nothing.
"""

from __future__ import annotations

import os
import warnings
from pathlib import Path

import md3ref
import numpy as np
import pytest
from conftest import CORPUS, corpus_params, no_corpus
from gltfbuilder import glb as pack_glb
from gltfbuilder import split_glb

import quakemodels
from quakemodels import Md3
from quakemodels.cli import main
from quakemodels.core.atomic import write_files_atomic
from quakemodels.core.embed import embeddable
from quakemodels.core.records import replace
from quakemodels.errors import BadValueError, ModelFormatError
from quakemodels.formats.md3.write import TagData
from quakemodels.formats.q3player import Player
from quakemodels.formats.q3player.animcfg import Clip
from quakemodels.formats.q3player.fromgltf import config_text, player_from_gltf, save_player
from quakemodels.formats.q3player.gltf import build_player_gltf
from quakemodels.interchange.gltf_read import read_gltf_scene
from quakemodels.interchange.imported import ImportLimits
from quakemodels.kaitai.quake3_md3 import Quake3Md3
from quakemodels.registry import scene

PLAYERS = CORPUS / "q3" / "models" / "players"
NAMES = ["human_base", "human_bsuit"]
STEP = 1 / 64


def _player(folder: Path) -> Player:
    if not folder.is_dir():
        no_corpus(folder)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return Player.from_folder(folder)


@pytest.fixture(scope="module")
def exports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    if not PLAYERS.is_dir():
        no_corpus(PLAYERS)
    out = tmp_path_factory.mktemp("player_glb")
    found = {}
    for name in NAMES:
        found[name] = out / f"{name}.glb"
        # what a modder runs: `quakemodels export <player folder> -o x.glb`
        assert main(["export", str(PLAYERS / name), "-o", str(found[name])]) == 0
    return found


def _clip_rows(player: Player) -> list[tuple[object, ...]]:
    return [
        (c.name, c.first_frame, c.file_first_frame, c.num_frames, c.loop_frames, c.fps, c.reversed)
        for c in player.config
    ]


@pytest.mark.parametrize("name", NAMES)
def test_player_gltf_converts_back_to_the_same_player(
    name: str, exports: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    original = _player(PLAYERS / name)
    out = tmp_path / "models" / "players" / name
    assert main(["convert", str(exports[name]), f"{out}/"]) == 0
    said = capsys.readouterr().out
    assert f"animation.cfg ({len(original.config)} clips)" in said
    assert "largest error 0 units" in said
    back = _player(out)
    textures_of = back.skin_textures()
    for part, model in original.parts.items():
        again = back.parts[part]
        assert again.num_frames == model.num_frames
        assert [s.name for s in again.surfaces] == [s.name for s in model.surfaces]
        for s, t in zip(model.surfaces, again.surfaces, strict=True):
            # the exporter's float32 positions are 1/64 multiples: they quantize back exactly
            assert np.abs(t.positions - s.positions).max() <= STEP
            np.testing.assert_array_equal(t.positions_raw, s.positions_raw)
            np.testing.assert_array_equal(t.triangles, s.triangles)
            np.testing.assert_array_equal(t.texcoords, s.texcoords)
            # normals: the same direction within a lat/lng step (aliases come back canonical)
            cos = np.sum(t.normals * s.normals, axis=-1)
            assert cos.min() > np.cos(2 * np.pi / 256)
        assert sorted(again.tags.names) == sorted(model.tags.names)
        for tag in model.tags.names:
            i, j = model.tags.names.index(tag), again.tags.names.index(tag)
            np.testing.assert_array_equal(again.tags.origins[:, j], model.tags.origins[:, i])
            assert np.abs(again.tags.axes[:, j] - model.tags.axes[:, i]).max() < 1e-6
        # every written part: the generated parser and the qfiles.h reader agree with it
        data = (out / f"{part}.md3").read_bytes()
        spec = Quake3Md3.from_bytes(data)
        ref = md3ref.read(data)
        assert (spec.num_frames, spec.num_surfaces, spec.ofs_end) == (
            model.num_frames,
            model.num_surfaces,
            len(data),
        )
        assert ref.name == f"models/players/{name}/{part}.md3"
        f = again.num_frames
        assert [t.name for t in spec.tags] == again.tags.names * f
        np.testing.assert_array_equal(
            [[a.x, a.y, a.z] for t in spec.tags for a in t.axis], again.tags.axes.reshape(-1, 3)
        )
        for s, ss, rs in zip(again.surfaces, spec.surfaces, ref.surfaces, strict=True):
            assert ss.name == rs.name == s.name
            assert [sh.name for sh in ss.shaders] == [sh[0] for sh in rs.shaders]
            texture = textures_of[part][s.name].name
            assert [sh.name for sh in ss.shaders] == [f"models/players/{name}/{texture}"]
            np.testing.assert_array_equal([t.vertex_indices for t in ss.triangles], s.triangles)
            xyz = np.array([[v.x, v.y, v.z] for v in ss.vertices]).reshape(f, -1, 3)
            np.testing.assert_array_equal(xyz, s.positions)
            np.testing.assert_array_equal(rs.positions(), s.positions)
            angles = np.array([[v.normal_lng, v.normal_lat] for v in ss.vertices])
            np.testing.assert_array_equal(angles.reshape(f, -1, 2), s.normal_angles)
    assert _clip_rows(back) == _clip_rows(original)
    assert back.config.keys == original.config.keys
    assert back.config.legs_offset == original.config.legs_offset
    # textures: every surface has one, written beside the models, named in the .skin files
    textures = back.skin_textures()
    originals = original.skin_textures()
    for part, model in back.parts.items():
        assert set(textures[part]) == {s.name for s in model.surfaces}
        for surface, p in textures[part].items():
            assert p.parent == out
            # a plain JPEG or PNG skin comes back with the same pixels in its own encoding
            # (embedded as it was); anything else (TGA) comes back as PNG
            source = originals[part][surface]
            kept = embeddable(source.read_bytes())
            suffix = ".png" if kept is None else {"image/jpeg": ".jpg"}.get(kept.mime, ".png")
            assert p.suffix == suffix
            if kept is not None:
                assert p.read_bytes() == kept.data
    assert main(["check", "--engine", "quake3", str(out)]) == 0


def test_player_convert_refuses_to_clobber_and_writes_all_or_nothing(
    exports: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    glb = exports["human_bsuit"]
    out = tmp_path / "guy"
    out.mkdir()
    (out / "lower.md3").write_bytes(b"mine")
    assert main(["convert", str(glb), str(out), "--no-clobber"]) == 3
    assert "lower.md3 exists (--no-clobber)" in capsys.readouterr().err
    assert sorted(os.listdir(out)) == ["lower.md3"]
    # a folder where a file goes: refused before anything is replaced
    (out / "upper.md3").mkdir()
    assert main(["convert", str(glb), str(out)]) == 3
    assert (out / "lower.md3").read_bytes() == b"mine"
    assert sorted(os.listdir(out)) == ["lower.md3", "upper.md3"]
    (out / "upper.md3").rmdir()
    # a whole player into one .md3: its parts' frames differ, and the error says what to do
    assert main(["convert", str(glb), str(tmp_path / "one.md3")]) == 1
    assert (
        "frame counts [1, 153, 191]; one MD3 needs the same frames in every surface (a player"
        " glTF converts to a folder: give OUT/)" in capsys.readouterr().err
    )
    assert not (tmp_path / "one.md3").exists()
    # without a player in it: a clear error, and no folder made
    single = tmp_path / "single.glb"
    assert main(["export", str(CORPUS / "md3" / "sauer_rocket.md3"), "-o", str(single)]) == 0
    assert main(["convert", str(single), str(tmp_path / "none") + "/"]) == 1
    said = capsys.readouterr().err
    assert "nodes have no node named 'lower' — not a player glTF" in said
    assert "to convert one model give an .md3 output" in said
    assert not (tmp_path / "none").exists()


def test_write_files_atomic_refuses_names_that_are_paths(tmp_path: Path) -> None:
    for bad in ("../x", "a/b", "", "..", "x\0y"):
        with pytest.raises(ValueError, match="is not a plain file name"):
            write_files_atomic(tmp_path / "f", {bad: b"x"})
    assert not (tmp_path / "f").exists()
    written = write_files_atomic(tmp_path / "f", {"a": b"1", "b": b"22"})
    assert [p.read_bytes() for p in written] == [b"1", b"22"]


# -- hostile player glTFs: names and extras are untrusted -----------------------------------------


def _node(doc: dict[str, object], name: str) -> dict[str, object]:
    nodes = doc["nodes"]
    assert isinstance(nodes, list)
    return next(n for n in nodes if n.get("name") == name)


def _anim(doc: dict[str, object], k: int) -> dict[str, object]:
    anims = doc["animations"]
    assert isinstance(anims, list)
    out = anims[k]
    assert isinstance(out, dict)
    return out


def _named(doc: dict[str, object], name: str) -> dict[str, object]:
    anims = doc["animations"]
    assert isinstance(anims, list)
    return next(a for a in anims if a["name"] == name)


def _older(doc: dict[str, object]) -> dict[str, object]:
    """``doc`` without its animation.cfg nodes: as the exporter wrote it before they were,
    the clips' extras give the table."""
    nodes = doc["nodes"]
    assert isinstance(nodes, list)
    for node in nodes:
        if node.get("name", "").startswith("cfg "):
            node["name"] = "x" + node["name"]
    return doc


HOSTILE = {
    "surface named as a path": (
        lambda d: _node(d, "h_head").update(name="../../../evil"),
        "surface name '../../../evil' is not a name a .skin file can hold",
    ),
    "surface name with a comma": (
        lambda d: _node(d, "u_torso").update(name="u,torso"),
        "surface name 'u,torso'",
    ),
    "tag name with a newline": (
        lambda d: _node(d, "tag_weapon").update(name="tag_\nweapon"),
        "tag name 'tag_\\nweapon'",
    ),
    "clip name that is not a name": (
        lambda d: _older(d) and _anim(d, 0).update(name="BOTH DEATH1"),
        "animations[0].name 'BOTH DEATH1' is not a clip name",
    ),
    "numFrames below one": (
        lambda d: _older(d) and _anim(d, 3)["extras"].update(numFrames=0),  # type: ignore[union-attr]
        "animations[3].extras.numFrames=0 is below 1",
    ),
    "fps not a number": (
        lambda d: _older(d) and _anim(d, 2)["extras"].update(fps="fast"),  # type: ignore[union-attr]
        "animations[2].extras.fps is 'fast', not a number",
    ),
    "firstFrame not an integer": (
        lambda d: _older(d) and _anim(d, 1)["extras"].update(firstFrame=1.5),  # type: ignore[union-attr]
        "animations[1].extras.firstFrame=1.5 is not an integer",
    ),
    "loopFrames past numFrames": (
        lambda d: _older(d) and _anim(d, 20)["extras"].update(loopFrames=99),  # type: ignore[union-attr]
        "animations[20].extras.loopFrames=99 exceeds numFrames",
    ),
    "a legs clip said to be a torso clip": (
        lambda d: _older(d) and _named(d, "LEGS_RUN")["extras"].update(part="torso"),  # type: ignore[union-attr]
        "is named as a legs clip but extras.part says torso",
    ),
    "no clip extras and no morph weights": (
        lambda d: (
            _older(d),
            _named(d, "BOTH_DEATH1").pop("extras"),
            _named(d, "BOTH_DEATH1").update(
                channels=[
                    c
                    for c in _named(d, "BOTH_DEATH1")["channels"]  # type: ignore[attr-defined]
                    if c["target"]["path"] != "weights"
                ]
            ),
        ),
        "(BOTH_DEATH1) has no extras.part and keys no morph weights",
    ),
    "extras with a part that is not one": (
        lambda d: _older(d) and _anim(d, 0)["extras"].update(part="arms"),  # type: ignore[union-attr]
        "extras.part is 'arms', not legs, torso or both",
    ),
    "cfg key that injects a table row": (
        lambda d: _older(d)["scenes"][0].update(extras={"animationKeys": {"sex": "m\n0 1 0 15"}}),  # type: ignore[index]
        "animationKeys 'sex': 'm\\n0 1 0 15' is not a cfg key",
    ),
    "tag track of the wrong type": (
        lambda d: _node(d, "tag_head").update(extras={"frames": {"translation": 5}}),
        "extras.frames.translation is the number 5, not a JSON array",
    ),
    "tag track with a non-finite value": (
        lambda d: _node(d, "tag_torso").update(
            extras={
                "frames": {
                    "translation": [[0, 0, 0]] * 191,
                    "rotation": [[0, 0, 0, 1]] * 3 + [[1e400, 0, 0, 1]] + [[0, 0, 0, 1]] * 187,
                }
            }
        ),
        "extras.frames.rotation[3] holds values that are not finite numbers",
    ),
    "cfg node that is no line of a cfg": (
        lambda d: _node(d, "cfg 000 sex m").update(name="cfg 000 sex m\n0 1 0 15"),
        "node 'cfg 000 sex m\\n0 1 0 15' is not a line of an animation.cfg",
    ),
    "cfg node with a row that is no number": (
        lambda d: _node(d, "cfg 002 0 30 0 25 BOTH_DEATH1; 29 1 0 25 BOTH_DEAD1").update(
            name="cfg 002 0 x 0 25 BOTH_DEATH1; 29 1 0 25 BOTH_DEAD1"
        ),
        "num_frames='x' at offset",
    ),
    "a node that is its own child": (
        lambda d: _node(d, "head").update(children=[d["nodes"].index(_node(d, "upper"))]),  # type: ignore[union-attr]
        "is reached twice (the nodes are not a tree)",
    ),
}


@pytest.mark.parametrize("case", list(HOSTILE))
def test_hostile_player_gltf_fails_cleanly_and_writes_nothing(
    case: str, exports: dict[str, Path], tmp_path: Path
) -> None:
    doc, blob = split_glb(exports["human_bsuit"].read_bytes())
    change, message = HOSTILE[case]
    change(doc)
    bad = tmp_path / "bad.glb"
    bad.write_bytes(pack_glb(doc, blob))
    with pytest.raises(ModelFormatError) as e:
        player_from_gltf(bad, "guy")
    assert message in str(e.value)
    assert main(["convert", str(bad), str(tmp_path / "out") + "/"]) == 1
    assert not (tmp_path / "out").exists()


def test_untrusted_image_names_become_safe_file_names(
    exports: dict[str, Path], tmp_path: Path
) -> None:
    doc, blob = split_glb(exports["human_bsuit"].read_bytes())
    images = doc["images"]
    assert isinstance(images, list)
    images[0]["name"] = "../../../../etc/cron.d/x.jpg"
    bad = tmp_path / "bad.glb"
    bad.write_bytes(pack_glb(doc, blob))
    built = player_from_gltf(bad, "../guy")
    # the suit's skins are JPEGs, embedded as they are and written back as .jpg
    assert images[0]["mimeType"] == "image/jpeg"
    assert sorted(n for n in built.files if n.endswith((".png", ".jpg"))) == ["x.jpg"]
    written = save_player(built, tmp_path / "out")
    assert {p.parent for p in written} == {tmp_path / "out"}
    skin = (tmp_path / "out" / "upper_default.skin").read_text()
    assert skin.splitlines()[0] == "u_torso,models/players/guy/x.jpg"


def test_config_text_puts_the_legs_after_the_torso_frames() -> None:
    clips = [
        Clip("BOTH_DEATH1", 0, 10, 0, 25.0),
        Clip("TORSO_GESTURE", 10, 5, 0, 20.0),
        Clip("TORSO_STAND", 15, 1, 0, 15.0, reversed=True),
        Clip("LEGS_WALKCR", 10, 8, 8, 16.5),
        Clip("LEGS_IDLE", 18, 4, 4, 15.0),
    ]
    text = config_text(clips, {"sex": "f", "headoffset": "0 0 2"})
    rows = [line.split("//")[0].split() for line in text.splitlines() if line[:1].isdigit()]
    assert rows == [
        ["0", "10", "0", "25"],
        ["10", "5", "0", "20"],
        ["15", "-1", "0", "15"],
        ["16", "8", "8", "16.5"],
        ["24", "4", "4", "15"],
    ]
    assert "sex\tf" in text and "headoffset\t0 0 2" in text


# -- MDL → MD3 ------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", corpus_params("mdl"))
def test_corpus_mdl_converts_to_md3_within_a_quantization_step(
    path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mdl = quakemodels.load(path)
    view = scene(mdl)
    out = tmp_path / "m.md3"
    assert main(["convert", str(path), str(out), "--shader", "models/x/skin"]) == 0
    assert f"{mdl.num_frames} frame" in capsys.readouterr().out
    md3 = Md3.from_file(out).load_all()
    assert md3.num_frames == mdl.num_frames == view.num_frames
    [surface] = md3.surfaces
    [want] = view.surfaces
    # MDL's own grid is coarser (scale × byte): every position lands within half a 1/64 step
    assert np.abs(surface.positions - want.positions).max() <= STEP / 2 + 1e-5
    # the scene is counter-clockwise (render order), the file clockwise (Quake's)
    np.testing.assert_array_equal(surface.triangles, want.indices[:, [0, 2, 1]])
    assert [s.name for s in surface.shaders] == ["models/x/skin"]
    assert main(["check", "--engine", "quake3", str(out)]) == 0
    ref = md3ref.read(out.read_bytes())
    assert np.abs(ref.surfaces[0].positions() - surface.positions).max() == 0


def test_bad_names_from_a_scene_are_clean_errors() -> None:
    view = scene(_player(PLAYERS / "human_bsuit").head)
    long = replace(view, surfaces=[replace(view.surfaces[0], name="s" * 64)])
    with pytest.raises(BadValueError, match="64 bytes"):
        Md3.from_scene(long)


def test_singular_tag_axes_are_refused() -> None:
    """fuzz/structured.py md3_build_case: singular axes were written as given (an attached
    model collapses to a line); now a BadValueError naming the tag and frame."""
    flat = np.eye(3)
    flat[2] = flat[0]
    with pytest.raises(BadValueError, match=r"tags\[0\] 't' frame 1: the axes are singular"):
        Md3.build([], tags=[TagData("t", [[0, 0, 0]] * 2, [np.eye(3), flat])])
    with pytest.raises(BadValueError, match=r"frame 0: the axes are singular \(determinant 0\)"):
        Md3.build([], tags=[TagData("t", [0, 0, 0], np.zeros((3, 3)))])


def test_channels_sharing_one_accessor_cannot_multiply_the_work(tmp_path: Path) -> None:
    """A file whose thousands of animation channels name one sampler is held to the import
    limit on keys read in all (a clean error), not decoded thousands of times."""
    glb = tmp_path / "turret.glb"
    if not (CORPUS / "md3").is_dir():
        no_corpus(CORPUS / "md3")
    assert (
        main(["export", str(CORPUS / "md3" / "trem_mgturret_turret_top.md3"), "-o", str(glb)]) == 0
    )
    doc, blob = split_glb(glb.read_bytes())
    anim = _anim(doc, 0)
    channels = anim["channels"]
    assert isinstance(channels, list)
    tag = next(c for c in channels if c["target"]["path"] == "translation")
    anim["channels"] = channels + [tag] * 20_000
    bad = tmp_path / "bad.glb"
    bad.write_bytes(pack_glb(doc, blob))
    limits = ImportLimits(max_positions=50_000, min_positions=0, bytes_per_position=1)
    with pytest.raises(BadValueError, match="animations key more than 50000 values"):
        read_gltf_scene(bad, limits=limits)
    # the file as exported reads under the same limits: 2 frames × 137 vertices, a few keys
    view = read_gltf_scene(glb, limits=limits)
    assert (view.num_frames, [t.name for t in view.tags]) == (2, ["tag_turret"])


@pytest.mark.parametrize("name", NAMES)
def test_player_parts_hold_what_each_md3_exported_alone_holds(name: str) -> None:
    # the player's surfaces are built as single-model exports build theirs: each part's
    # meshes, accessors (JSON) and the bytes behind them equal those of the part exported alone
    from quakemodels.interchange.gltf_write import build_gltf

    player = _player(PLAYERS / name)
    doc, blob = build_player_gltf(player)

    def surfaces(doc: dict[str, object], blob: bytes) -> list[object]:
        accessors, views = doc["accessors"], doc["bufferViews"]
        assert isinstance(accessors, list) and isinstance(views, list)

        def held(index: int) -> object:
            acc = dict(accessors[index])
            view = views[acc.pop("bufferView")]
            start = view["byteOffset"] + acc.pop("byteOffset", 0)
            width = {"SCALAR": 1, "VEC2": 2, "VEC3": 3}[acc["type"]]
            size = acc["count"] * width * (2 if acc["componentType"] == 5123 else 4)
            return acc, blob[start : start + size]

        out = []
        meshes = doc["meshes"]
        assert isinstance(meshes, list)
        for mesh in meshes:
            (primitive,) = mesh["primitives"]
            attributes = {k: held(v) for k, v in primitive["attributes"].items()}
            targets = [{k: held(v) for k, v in t.items()} for t in primitive["targets"]]
            out.append((mesh["name"], attributes, held(primitive["indices"]), targets))
        return out

    mine = surfaces(doc, blob)
    alone = []
    for model in player.parts.values():  # the player's meshes come in its parts' order
        single, single_blob = build_gltf(scene(model))
        alone += surfaces(single, single_blob)
    assert len(mine) == len(alone) == sum(len(m.surfaces) for m in player.parts.values())
    assert mine == alone
    assert all("byteOffset" not in acc or acc["byteOffset"] > 0 for acc in doc["accessors"])
