"""Quake III player folders: animation.cfg, .skin files, assembly by tags.

The assembly reference here is written independently of the package: tags are read straight
from the file bytes with struct, lerped and normalized as R_LerpTag does, and chained as 4x4
column-vector matrices (the package multiplies row-axis 3x3 matrices).
"""

from __future__ import annotations

import json
import math
import os
import struct
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import CORPUS, IN_CI
from md3builder import FrameSpec, Md3Spec, SurfaceSpec, TagSpec, build
from test_export import _node_json

import quakemodels
from quakemodels.cli import main
from quakemodels.errors import QuakeModelsWarning
from quakemodels.formats.q3player import (
    AnimationConfig,
    AnimationConfigError,
    Clip,
    Player,
    PlayerFolderError,
    is_player_folder,
    parse_skin,
)
from quakemodels.formats.q3player.animcfg import ENGINE_ANIMATIONS, QUAKE3_ANIMATIONS
from quakemodels.formats.q3player.carry import rest_frames
from quakemodels.formats.q3player.check import check_player
from quakemodels.formats.q3player.describe import describe_player
from quakemodels.formats.q3player.gltf import export_player_gltf
from quakemodels.formats.q3player.scene import clip_pair_poses, player_scene
from quakemodels.formats.q3player.skinfile import find_game_root, image_names, resolve_image

PLAYERS = CORPUS / "q3" / "models" / "players"
PLAYER_NAMES = ["human_base", "human_bsuit"]


def _player_dir(name: str) -> Path:
    folder = PLAYERS / name
    if not folder.is_dir():
        if IN_CI:
            pytest.fail(f"CI=true but the corpus player {folder} is missing")
        pytest.skip(f"corpus player not found at {folder} (set CI=true to require it)")
    return folder


def _load(name: str) -> Player:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the corpus players load without a warning
        return Player.from_folder(_player_dir(name))


# -- animation.cfg: the corpus files -----------------------------------------------------------


def test_classic_cfg_human_base() -> None:
    cfg = AnimationConfig.from_file(_player_dir("human_base") / "animation.cfg")
    assert cfg.names == list(QUAKE3_ANIMATIONS)
    assert (cfg.sex, cfg.footsteps, cfg.keys) == (
        "m",
        "custom",
        {"sex": "m", "footsteps": "custom"},
    )
    # skip = first(LEGS_WALKCR) - first(TORSO_GESTURE) = 153 - 90
    assert cfg.legs_offset == 63
    assert [(c.name, c.file_first_frame, c.first_frame) for c in cfg.clips[12:15]] == [
        ("TORSO_STAND2", 152, 152),
        ("LEGS_WALKCR", 153, 90),
        ("LEGS_WALK", 161, 98),
    ]
    turn = cfg["legs_turn"]
    assert (turn.first_frame, turn.num_frames, turn.loop_frames, turn.fps) == (177, 7, 7, 15.0)
    assert turn.frame_lerp == 66  # int(1000 / 15)
    # the BOTH_ and TORSO_ clips keep their frames
    assert [c.first_frame for c in cfg.clips[:13]] == [c.file_first_frame for c in cfg.clips[:13]]
    assert [c.kind for c in cfg.clips].count("legs") == 12
    assert [c.kind for c in cfg.clips].count("torso") == 7


def test_extended_cfg_human_bsuit_takes_names_from_comments() -> None:
    cfg = AnimationConfig.from_file(_player_dir("human_bsuit") / "animation.cfg")
    assert cfg.names_from == "comments"
    assert len(cfg) == 37
    assert cfg.names[6:9] == ["TORSO_GESTURE_BLASTER", "TORSO_GESTURE", "TORSO_GESTURE_PSAW"]
    assert cfg.names[-1] == "LEGS_TURN"
    assert cfg.legs_offset == 63  # LEGS_WALKCR 153 - TORSO_GESTURE 90, found by name
    run = cfg["LEGS_RUN"]
    assert (run.file_first_frame, run.first_frame, run.num_frames, run.fps) == (170, 107, 13, 23)
    assert run.frame_lerp == 43
    assert run.duration == pytest.approx(13 * 0.043)
    # "footsteps" after a comment line is still a key (keys end at the first number)
    assert cfg.footsteps == "custom"


def test_extended_cfg_without_names_falls_back_to_engine_order() -> None:
    text = (_player_dir("human_bsuit") / "animation.cfg").read_text("latin-1")
    stripped = "\n".join(line.split("//")[0] for line in text.splitlines())
    with pytest.warns(QuakeModelsWarning, match="37 animation rows; the engine reads 31"):
        cfg = AnimationConfig.from_text(stripped, path="bsuit.cfg")
    assert cfg.names_from == "engine"
    assert cfg.names[:31] == list(ENGINE_ANIMATIONS)
    assert cfg.names[31:] == [f"ANIM_{i}" for i in range(31, 37)]
    # row 13 is what the engine calls LEGS_WALKCR: 90 (a gesture row), so skip = 90 - 90
    assert cfg.legs_offset == 0


@pytest.mark.parametrize("name", PLAYER_NAMES)
def test_legs_clips_end_at_the_last_legs_frame(name: str) -> None:
    player = _load(name)
    legs = [c for c in player.config if c.kind == "legs"]
    assert max(c.first_frame + c.num_frames for c in legs) == player.lower.num_frames
    torso = [c for c in player.config if c.kind != "legs"]
    assert max(c.first_frame + c.num_frames for c in torso) == player.upper.num_frames
    assert player.out_of_range() == []


# -- animation.cfg: synthetic files ------------------------------------------------------------

ROWS_25 = "\n".join(f"{i * 2} 2 {i % 2 * 2} 10" for i in range(25))


def test_keys_comments_and_quotes() -> None:
    text = (
        "/* a block\ncomment */ sex F\n"
        'headoffset 1.5 -2 "3"\n'
        "fixedlegs\nFIXEDTORSO\n"
        "footsteps boot // step\n"
        "modelScale 1.25\n"
        "shadowscale x y\n" + ROWS_25
    )
    cfg = AnimationConfig.from_text(text)
    assert cfg.sex == "f"
    assert cfg.head_offset == (1.5, -2.0, 3.0)
    assert (cfg.fixed_legs, cfg.fixed_torso, cfg.footsteps) == (True, True, "boot")
    assert cfg.keys == {
        "sex": "F",
        "headoffset": "1.5 -2 3",
        "fixedlegs": "",
        "fixedtorso": "",
        "footsteps": "boot",
        "modelscale": "1.25",
        "shadowscale": "x y",
    }
    assert len(cfg) == 25
    assert cfg.clips[0] == Clip("BOTH_DEATH1", 0, 2, 0, 10.0, False, 0, 9)


def test_negative_num_reversed_fps_zero_and_looping() -> None:
    rows = ROWS_25.splitlines()
    rows[13] = "30 -4 4 0"  # LEGS_WALKCR reversed, fps 0, looping
    rows[6] = "20 2 0 10"  # TORSO_GESTURE at 20: skip = 30 - 20 = 10
    cfg = AnimationConfig.from_text("\n".join(rows))
    walk = cfg["LEGS_WALKCR"]
    assert (walk.first_frame, walk.num_frames, walk.reversed, walk.fps) == (20, 4, True, 1.0)
    assert walk.frame_lerp == 1000
    assert walk.frames() == [23, 22, 21, 20]
    # looping: after 4 steps it starts over; each step lerps towards the next frame
    assert [walk.step(k) for k in range(9)] == [23, 22, 21, 20, 23, 22, 21, 20, 23]
    assert walk.frame_at(1.25) == (22, 21, 0.25)
    assert walk.frame_at(4.5) == (23, 22, 0.5)
    assert walk.duration == 4.0
    assert cfg["LEGS_WALK"].first_frame == 28 - 10


def test_play_once_holds_the_last_frame_and_partial_loops() -> None:
    once = Clip("TORSO_ATTACK", 10, 3, 0, 20.0)
    assert once.frame_lerp == 50
    assert [once.frame_at(t) for t in (0.0, 0.075, 0.1, 0.5)] == [
        (10, 11, 0.0),
        (11, 12, 0.5),
        (12, 12, 0.0),
        (12, 12, 0.0),
    ]
    assert once.duration == pytest.approx(0.1)
    # 5 frames, the last 2 repeat: 0 1 2 3 4 3 4 3 ...
    partial = Clip("LEGS_JUMP", 0, 5, 2, 10.0)
    assert [partial.step(k) for k in range(9)] == [0, 1, 2, 3, 4, 3, 4, 3, 4]


def test_too_few_rows_warns_and_cut_rows_raise() -> None:
    short = "\n".join(ROWS_25.splitlines()[:24])
    with pytest.warns(QuakeModelsWarning, match="24 animation rows; ioquake3 needs at least 25"):
        cfg = AnimationConfig.from_text(short)
    assert cfg.names[-1] == "LEGS_IDLECR"

    cut = ROWS_25 + "\n50 2"
    with pytest.raises(AnimationConfigError) as err:
        AnimationConfig.from_text(cut, path="x/animation.cfg")
    assert err.value.field == "loop_frames"
    assert err.value.offset == len(cut)
    assert "row 26 (line 26) stops after num_frames='2'" in str(err.value)

    bad = ROWS_25.replace("48 2 0 10", "48 two 0 10")
    with pytest.raises(AnimationConfigError, match=r"num_frames='two' at offset \d+ \(line 25\)"):
        AnimationConfig.from_text(bad)


def test_team_arena_rows_and_loop_clamp() -> None:
    rows = [*ROWS_25.splitlines(), *[f"{60 + i} 3 {9 if i == 0 else 0} 15" for i in range(6)]]
    with pytest.warns(QuakeModelsWarning, match="TORSO_GETFLAG .line 26. loops 9 of its 3"):
        cfg = AnimationConfig.from_text("\n".join(rows))
    assert cfg.names[25:] == list(ENGINE_ANIMATIONS[25:])
    # Team Arena torso rows come after TORSO_GETFLAG's index: not shifted by the legs offset
    assert cfg["TORSO_NEGATIVE"].first_frame == 65
    assert cfg["TORSO_GETFLAG"].loop_frames == 3


def test_comment_names_need_every_row_and_clip_prefixes() -> None:
    rows = ROWS_25.splitlines()
    named = [f"{r} // LEGS_X{i}" for i, r in enumerate(rows)]
    assert AnimationConfig.from_text("\n".join(named)).names_from == "comments"
    named[3] = rows[3]
    assert AnimationConfig.from_text("\n".join(named)).names_from == "engine"
    words = [f"{r} // death{i}" for i, r in enumerate(rows)]
    assert AnimationConfig.from_text("\n".join(words)).names == list(QUAKE3_ANIMATIONS)


# -- synthetic player folders ------------------------------------------------------------------

IDENTITY = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))


def _quad(name: bytes, frames: int, shift: int, shaders: list[bytes] | None = None) -> SurfaceSpec:
    verts = [
        [(shift + 64 * f, 0, 0, 0, 0), (64, 64 * f, 0, 0, 0), (64, 64, 64, 0, 0), (0, 64, 7, 0, 0)]
        for f in range(frames)
    ]
    return SurfaceSpec(name=name, shaders=shaders or [], vertices=verts)


def _rot_z(deg: float) -> tuple[tuple[float, float, float], ...]:
    c, s = math.cos(math.radians(deg)), math.sin(math.radians(deg))
    return ((c, s, 0.0), (-s, c, 0.0), (0.0, 0.0, 1.0))


def write_player(folder: Path, legs_frames: int = 4, torso_frames: int = 3) -> Path:
    """A small player: legs with tag_torso, torso with tag_head and tag_weapon, a head."""
    folder.mkdir(parents=True, exist_ok=True)
    lower = Md3Spec(
        frames=[FrameSpec(name=b"l%d" % i) for i in range(legs_frames)],
        tags=[
            [TagSpec(b"tag_torso", origin=(0.0, 1.0 * i, 24.0), axis=_rot_z(30 * i))]
            for i in range(legs_frames)
        ],
        surfaces=[_quad(b"l_legs", legs_frames, 0, [b"models/players/p/legs.tga"])],
    )
    upper = Md3Spec(
        frames=[FrameSpec(name=b"u%d" % i) for i in range(torso_frames)],
        tags=[
            [
                TagSpec(b"tag_weapon", origin=(8.0, -4.0, 0.0)),
                TagSpec(b"tag_head", origin=(2.0 * i, 0.0, 16.0), axis=_rot_z(-20 * i)),
            ]
            for i in range(torso_frames)
        ],
        surfaces=[_quad(b"u_torso", torso_frames, 32)],
    )
    head = Md3Spec(
        frames=[FrameSpec(name=b"h0")],
        tags=[[TagSpec(b"tag_head", origin=(0.0, 0.0, 0.0))]],
        surfaces=[_quad(b"h_head", 1, 5)],
    )
    for name, spec in (("Lower.MD3", lower), ("upper.md3", upper), ("HEAD.md3", head)):
        (folder / name).write_bytes(build(spec))
    return folder


def test_synthetic_player_assembles_and_finds_parts_in_any_case(tmp_path: Path) -> None:
    folder = write_player(tmp_path / "models" / "players" / "p")
    (folder / "animation.cfg").write_text(ROWS_25)
    assert is_player_folder(folder)
    assert not is_player_folder(tmp_path)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        player = Player.from_folder(folder)
    # the table asks for frames the little model lacks: one warning per part, naming clips
    messages = [str(w.message) for w in record]
    assert len(messages) == 2
    assert messages[1].startswith(
        f"{folder / 'animation.cfg'}: 12 clips ask for frames upper.md3 lacks (it has 3 frames,"
        " 0..2): BOTH_DEAD1 (line 2) 2..3, BOTH_DEATH2 (line 3) 4..5,"
    )
    assert messages[1].endswith("TORSO_STAND2 (line 13) 24..25; clamped")
    assert player.paths["lower"].name == "Lower.MD3"
    pose = player.pose_frames((1, 2, 0.25), (2, 2, 0.0))
    # legs: identity; vertex 0 of the legs lerped from x=1 to x=2 (units of 1/64 * 64)
    assert pose.lower[0].tolist() == [1.25, 0.0, 0.0]
    # torso on tag_torso lerped between frames 1 and 2: origin (0, 1.25, 24), axes at 30°/60°
    torso = pose.placements["upper"]
    assert torso.origin.tolist() == pytest.approx([0.0, 1.25, 24.0])
    mid = np.array(_rot_z(30)) * 0.75 + np.array(_rot_z(60)) * 0.25
    mid /= np.linalg.norm(mid, axis=1, keepdims=True)
    assert torso.axis == pytest.approx(mid)


def test_clamped_clip_never_raises(tmp_path: Path) -> None:
    folder = write_player(tmp_path / "p", legs_frames=2, torso_frames=2)
    rows = ROWS_25.splitlines()
    rows[6] = "0 1 0 10"  # TORSO_GESTURE at 0, LEGS_WALKCR at 26: skip 26
    rows[23] = "46 3 3 10"  # LEGS_IDLECR at 46 - 26 = 20, looping 20 21 22
    (folder / "animation.cfg").write_text("\n".join(rows))
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        player = Player.from_folder(folder)
    assert "Lower.MD3 lacks (it has 2 frames, 0..1)" in str(record[0].message)
    assert str(record[0].message).endswith("LEGS_TURN (line 25) 22..23; clamped")
    assert player.config["LEGS_TURN"].first_frame == 22
    pose = player.pose("LEGS_IDLECR", 0.15, "TORSO_STAND", 0.0)
    # frames 21 -> 22 halfway, both clamped to the legs' last frame 1
    assert pose.frames["lower"] == (1, 1, 0.5)
    assert pose.frames["upper"] == (1, 1, 0.0)
    assert np.isfinite(pose.head).all()
    with pytest.raises(ValueError, match="TORSO_STAND is a torso clip; it cannot drive the legs"):
        player.pose("TORSO_STAND", 0.0)
    with pytest.raises(KeyError, match="no clip 'LEGS_NOPE'"):
        player.pose("LEGS_NOPE", 0.0)


def test_missing_part_and_missing_cfg(tmp_path: Path) -> None:
    folder = write_player(tmp_path / "p")
    with pytest.warns(QuakeModelsWarning, match="has no animation.cfg"):
        player = Player.from_folder(folder)
    assert len(player.config) == 0
    assert player.pose().frames == {"lower": (0, 0, 0.0), "upper": (0, 0, 0.0), "head": (0, 0, 0.0)}
    (folder / "HEAD.md3").unlink()
    with pytest.raises(PlayerFolderError, match=r"head\.md3 missing"):
        Player.from_folder(folder)


# -- assembly against an independent reference -------------------------------------------------


def _raw_tags(path: Path) -> list[dict[str, tuple[np.ndarray, np.ndarray]]]:
    """Every frame's tags read from the bytes: name -> (origin (3,), axis rows (3,3))."""
    data = path.read_bytes()
    num_frames, num_tags = struct.unpack_from("<2i", data, 76)
    ofs_tags = struct.unpack_from("<i", data, 96)[0]
    frames = []
    for f in range(num_frames):
        tags = {}
        for k in range(num_tags):
            at = ofs_tags + 112 * (f * num_tags + k)
            name = data[at : at + 64].split(b"\0")[0].decode()
            values = struct.unpack_from("<12f", data, at + 64)
            tags[name] = (np.array(values[:3]), np.array(values[3:]).reshape(3, 3))
        frames.append(tags)
    return frames


def _tag_matrix(frames: list[dict], name: str, a: int, b: int, t: float) -> np.ndarray:
    """4x4 column-vector matrix of the tag lerped between frames a and b, axes normalized."""
    oa, xa = frames[a][name]
    ob, xb = frames[b][name]
    origin = oa + (ob - oa) * t
    rows = [xa[i] + (xb[i] - xa[i]) * t for i in range(3)]
    rows = [r / math.sqrt(float(r @ r)) for r in rows]
    m = np.eye(4)
    for i in range(3):
        m[:3, i] = rows[i]  # axis i is the image of model axis i: a column
    m[:3, 3] = origin
    return m


def _surface_vertices(path: Path, frame: int) -> np.ndarray:
    """Every surface's vertices at ``frame``, read from the bytes: (V,3) in model units."""
    data = path.read_bytes()
    num_surfaces, ofs = (
        struct.unpack_from("<i", data, 84)[0],
        struct.unpack_from("<i", data, 100)[0],
    )
    out = []
    for _ in range(num_surfaces):
        num_verts = struct.unpack_from("<i", data, ofs + 80)[0]
        ofs_xyz, ofs_end = struct.unpack_from("<2i", data, ofs + 100)
        start = ofs + ofs_xyz + frame * num_verts * 8
        for v in range(num_verts):
            x, y, z = struct.unpack_from("<3h", data, start + 8 * v)
            out.append((x / 64.0, y / 64.0, z / 64.0))
        ofs += ofs_end
    return np.array(out)


@pytest.mark.parametrize("name", PLAYER_NAMES)
@pytest.mark.parametrize(
    ("legs", "torso"),
    [
        ("LEGS_RUN", "TORSO_STAND"),
        ("LEGS_IDLE", "TORSO_ATTACK"),
        ("BOTH_DEATH1", "BOTH_DEATH1"),
        ("LEGS_JUMPB", "TORSO_GESTURE"),
    ],
)
@pytest.mark.parametrize("time", [0.0, 0.0905, 0.31])
def test_head_and_torso_match_the_tag_reference(
    name: str, legs: str, torso: str, time: float
) -> None:
    player = _load(name)
    folder = player.folder
    lower, upper = _raw_tags(player.paths["lower"]), _raw_tags(player.paths["upper"])
    pose = player.pose(legs, time, torso, time * 0.7)
    la, lb, lt = player.config[legs].frame_at(time)
    ta, tb, tt = player.config[torso].frame_at(time * 0.7)
    assert pose.frames["lower"] == (la, lb, lt)
    to_torso = _tag_matrix(lower, "tag_torso", la, lb, lt)
    to_head = to_torso @ _tag_matrix(upper, "tag_head", ta, tb, tt)

    head = _surface_vertices(folder / "head.md3", 0)
    expected = (to_head @ np.c_[head, np.ones(len(head))].T).T[:, :3]
    assert pose.head.shape == expected.shape
    assert np.abs(pose.head - expected).max() < 1e-4

    va, vb = (
        _surface_vertices(player.paths["upper"], ta),
        _surface_vertices(player.paths["upper"], tb),
    )
    body = va + (vb - va) * tt
    expected_torso = (to_torso @ np.c_[body, np.ones(len(body))].T).T[:, :3]
    assert np.abs(pose.upper - expected_torso).max() < 1e-4


def test_weapon_tag_placement() -> None:
    player = _load("human_bsuit")
    upper = _raw_tags(player.paths["upper"])
    lower = _raw_tags(player.paths["lower"])
    pose = player.pose("LEGS_RUN", 0.2, "TORSO_ATTACK", 0.1)
    weapon = player.weapon_placement(pose.frames["upper"], pose.placements["upper"])
    m = _tag_matrix(lower, "tag_torso", *pose.frames["lower"]) @ _tag_matrix(
        upper, "tag_weapon", *pose.frames["upper"]
    )
    assert weapon.origin == pytest.approx(m[:3, 3], abs=1e-9)
    assert weapon.axis == pytest.approx(m[:3, :3].T, abs=1e-9)


# -- skins -------------------------------------------------------------------------------------


def test_skin_file_parse_rules() -> None:
    skin = parse_skin(
        "tag_head,\n// comment line\nU_Torso,models/players/x/Torso.TGA\n"
        'h_head , "models/players/x/h.jpg"  /* trailing */\nl_legs\n'
    )
    assert skin.surfaces == {
        "u_torso": "models/players/x/Torso.TGA",
        "h_head": "models/players/x/h.jpg",
        "l_legs": "",
    }
    assert skin.tags == ["tag_head"]


def test_corpus_skins() -> None:
    bsuit = _load("human_bsuit")
    assert bsuit.skins == ["default"]
    assert bsuit.game_root == (CORPUS / "q3").resolve() or bsuit.game_root == CORPUS / "q3"
    texture = bsuit.folder / "human_bsuit.jpg"
    assert bsuit.skin("default") == {"l_legs": texture, "u_torso": texture, "h_head": texture}
    with pytest.raises(KeyError, match="no skin 'blue'"):
        bsuit.skin("blue")

    base = _load("human_base")
    assert base.skins == []
    names = {k: v.name for k, v in base.skin().items()}
    assert names == {
        "l_legs": "base.png",
        "l_kneepads": "base.png",
        "u_shoulderpads_base": "shoulderpads.png",
        "u_armour_light": "armour.png",
        "u_shoulderpads_light": "shoulderpads.png",
        "u_torso": "base.png",
        "h_head_base": "h_base.png",
        "h_head_helmet": "h_helmet.png",
    }


def test_game_root_and_extension_order(tmp_path: Path) -> None:
    game = tmp_path / "baseq3"
    folder = write_player(game / "Models" / "players" / "p")
    assert find_game_root(folder) == game
    assert find_game_root(tmp_path) == tmp_path
    assert image_names("skin.png") == [
        "skin.png",
        "skin.tga",
        "skin.jpg",
        "skin.jpeg",
        "skin.pcx",
        "skin.bmp",
    ]
    assert image_names("skin") == [
        "skin.tga",
        "skin.jpg",
        "skin.jpeg",
        "skin.png",
        "skin.pcx",
        "skin.bmp",
    ]
    textures = game / "textures"
    textures.mkdir()
    (textures / "Legs.PNG").write_bytes(b"png")
    (textures / "legs.jpg").write_bytes(b"jpg")
    # .tga is missing: the engine tries .jpg before .png; names match in any case
    assert resolve_image("TEXTURES/legs.tga", game) == textures / "legs.jpg"
    (textures / "legs.jpg").unlink()
    assert resolve_image("textures/legs.tga", game) == textures / "Legs.PNG"
    # a path missing under the root is tried by file name in the player folder
    (folder / "legs.tga").write_bytes(b"tga")
    assert resolve_image("models/elsewhere/legs.tga", game, folder=folder) == folder / "legs.tga"


def test_skin_sandbox(tmp_path: Path) -> None:
    game = tmp_path / "game"
    folder = write_player(game / "models" / "players" / "evil")
    (folder / "animation.cfg").write_text(ROWS_25.replace(" 2 ", " 1 "))
    (tmp_path / "secret.tga").write_bytes(b"secret")
    (folder / "lower_default.skin").write_text("l_legs,../../etc/passwd\n")
    (folder / "upper_default.skin").write_text(
        "u_torso,/\\etc/passwd\n"
    )  # one leading slash is dropped
    (folder / "head_default.skin").write_text("h_head,models/players/evil/link.tga\n")
    os.symlink(tmp_path / "secret.tga", folder / "link.tga")
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        player = Player.from_folder(folder)
        textures = player.skin_textures("default")
    messages = [str(w.message) for w in record]
    assert any("'../../etc/passwd' has a '..' component" in m for m in messages)
    assert any("'/\\\\etc/passwd' is an absolute path" in m for m in messages)
    assert any("link.tga leads outside the game root" in m for m in messages)
    # nothing outside the game root is ever returned
    root = game.resolve()
    for part in textures.values():
        for path in part.values():
            assert root in path.resolve().parents
    # the legs fall back to their shader name, which is missing: no texture, with a warning
    assert textures == {"lower": {}, "upper": {}, "head": {}}
    assert any("no texture found for surface 'l_legs'" in m for m in messages)


# -- glTF export -------------------------------------------------------------------------------


def _read_glb(path: Path) -> tuple[dict[str, Any], bytes]:
    data = path.read_bytes()
    (json_len,) = struct.unpack_from("<I", data, 12)
    doc = json.loads(data[20 : 20 + json_len])
    return doc, data[20 + json_len + 8 :]


def _array(doc: dict[str, Any], blob: bytes, index: int) -> np.ndarray:
    acc = doc["accessors"][index]
    view = doc["bufferViews"][acc["bufferView"]]
    width = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4}[acc["type"]]
    dtype = {5126: np.float32, 5123: np.uint16, 5125: np.uint32}[acc["componentType"]]
    stride = view.get("byteStride", width * np.dtype(dtype).itemsize)
    start = view["byteOffset"] + acc.get("byteOffset", 0)
    rows = [np.frombuffer(blob, dtype, width, start + i * stride) for i in range(acc["count"])]
    return np.array(rows).reshape(acc["count"], width)


def _trs(translation: list[float], rotation: list[float]) -> np.ndarray:
    x, y, z, w = rotation
    m = np.eye(4)
    m[:3, :3] = [
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
    ]
    m[:3, 3] = translation
    return m


def _evaluate(
    doc: dict[str, Any], blob: bytes, clips: list[tuple[str, int]]
) -> dict[str, np.ndarray]:
    """World-space positions of every mesh node with each clip at its ``k``-th key."""
    nodes = [dict(n) for n in doc["nodes"]]
    # the rest pose: each mesh's default weights (the standing frame), each node's own TRS
    weights: dict[int, np.ndarray] = {
        k: np.asarray(doc["meshes"][n["mesh"]]["weights"])
        for k, n in enumerate(nodes)
        if "mesh" in n
    }
    for name, k in clips:
        [anim] = [a for a in doc["animations"] if a["name"] == name]
        for ch in anim["channels"]:
            sampler = anim["samplers"][ch["sampler"]]
            out = _array(doc, blob, sampler["output"])
            node, path = ch["target"]["node"], ch["target"]["path"]
            if path == "weights":
                n = len(doc["meshes"][nodes[node]["mesh"]]["weights"])
                weights[node] = out.reshape(-1, n)[k]
            else:
                nodes[node][path] = out[k].tolist()
    world: dict[str, np.ndarray] = {}

    def walk(index: int, parent: np.ndarray) -> None:
        node = nodes[index]
        m = parent @ _trs(node.get("translation", [0, 0, 0]), node.get("rotation", [0, 0, 0, 1]))
        if "mesh" in node:
            prim = doc["meshes"][node["mesh"]]["primitives"][0]
            pos = _array(doc, blob, prim["attributes"]["POSITION"]).astype(np.float64)
            for t, w in enumerate(weights.get(index, [])):
                if w:
                    pos = pos + w * _array(doc, blob, prim["targets"][t]["POSITION"])
            world[node["name"]] = (m @ np.c_[pos, np.ones(len(pos))].T).T[:, :3]
        for child in node.get("children", []):
            walk(child, m)

    for root in doc["scenes"][0]["nodes"]:
        walk(root, np.eye(4))
    return world


@pytest.fixture(scope="module")
def player_exports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("players")
    exported = {}
    for name in PLAYER_NAMES:
        exported[name] = out / f"{name}.glb"
        export_player_gltf(_load(name), exported[name])
    exported["human_base.gltf"] = out / "human_base.gltf"
    export_player_gltf(_load("human_base"), exported["human_base.gltf"])
    return exported


@pytest.mark.parametrize("name", PLAYER_NAMES)
@pytest.mark.parametrize(
    ("legs", "lk", "torso", "tk"),
    [(None, 0, None, 0), ("LEGS_RUN", 5, "TORSO_ATTACK", 3), ("BOTH_DEATH2", 29, None, 0)],
)
def test_gltf_scene_assembles_like_the_engine(
    name: str,
    legs: str | None,
    lk: int,
    torso: str | None,
    tk: int,
    player_exports: dict[str, Path],
) -> None:
    player = _load(name)
    doc, blob = _read_glb(player_exports[name])
    clips = [(c, k) for c, k in ((legs, lk), (torso, tk)) if c]
    world = _evaluate(doc, blob, clips)
    # with no clip, the rest pose: TORSO_STAND and LEGS_IDLE (Blender opens it standing)
    rest = rest_frames(player.config, {p: m.num_frames for p, m in player.parts.items()})
    assert rest["upper"] == player.config["TORSO_STAND"].first_frame
    assert rest["lower"] == player.config["LEGS_IDLE"].first_frame
    lf = player.config[legs].step(lk) if legs else rest["lower"]
    tf = (
        player.config[torso or legs].step(tk if torso else lk) if (torso or legs) else rest["upper"]
    )
    pose = player.pose_frames((lf, lf, 0.0), (tf, tf, 0.0))
    for part, model in player.parts.items():
        for s, expected in zip(model.surfaces, pose.surfaces[part], strict=True):
            got = world[s.name][:, [2, 0, 1]]  # glTF Y-up back to Quake Z-up
            # tag axes become the nearest rotation in glTF; the engine uses them as stored
            # (rows normalized): on the corpus the two differ by under 3e-6 units
            assert np.abs(got - expected).max() < 1e-4, (part, s.name)


def test_gltf_animations_and_extras(player_exports: dict[str, Path]) -> None:
    doc, blob = _read_glb(player_exports["human_bsuit"])
    anims = {a["name"]: a for a in doc["animations"]}
    names = _load("human_bsuit").config.names
    # TORSO_STAND first (Blender opens the first), the cfg's order in extras.row, then the
    # ALL_FRAMES runs of 46 frames (TORSO_GESTURE's 1.95 s at 24 fps): every tag's frames
    clips = [a["name"] for a in doc["animations"] if "row" in a["extras"]]
    assert clips == ["TORSO_STAND", *(n for n in names if n != "TORSO_STAND")]
    assert [names[anims[n]["extras"]["row"]] for n in clips] == clips
    assert list(anims)[len(names) :] == [f"ALL_FRAMES_{f}" for f in range(0, 191, 46)]
    run = anims["LEGS_RUN"]
    assert run["extras"] == {
        "part": "legs",
        "fps": 23.0,
        "loop": True,
        "loopFrames": 13,
        "firstFrame": 107,
        "numFrames": 13,
        "reversed": False,
        "row": 27,
    }
    names = {doc["nodes"][c["target"]["node"]]["name"] for c in run["channels"]}
    assert names == {"l_legs", "tag_torso"}
    times = _array(doc, blob, run["samplers"][0]["input"])[:, 0]
    assert times.tolist() == pytest.approx([k * 0.043 for k in range(14)])
    weights = _array(doc, blob, run["samplers"][0]["output"]).reshape(14, 191)
    assert weights.argmax(axis=1).tolist() == [*range(107, 120), 107]
    stand = anims["TORSO_STAND"]
    assert {doc["nodes"][c["target"]["node"]]["name"] for c in stand["channels"]} == {
        "u_torso",
        "tag_head",
        "tag_weapon",
    }
    death = anims["BOTH_DEATH1"]
    assert len(death["channels"]) == 2 + 2 * 3  # two meshes; three tags, T and R each
    run = anims["ALL_FRAMES_46"]
    times = _array(doc, blob, run["samplers"][0]["input"])[:, 0]
    assert times.tolist() == pytest.approx([k / 24 for k in range(47)])
    tags = {doc["nodes"][c["target"]["node"]]["name"] for c in run["channels"]}
    assert tags == {"tag_torso", "tag_head", "tag_weapon", "tag_torso@upper"}
    tree = {
        n["name"]: [doc["nodes"][c]["name"] for c in n.get("children", [])] for n in doc["nodes"]
    }
    assert tree["human_bsuit"] == ["lower", "animation.cfg"]
    assert tree["lower"] == ["l_legs", "tag_torso"]
    assert tree["tag_torso"] == ["upper"]
    assert tree["upper"] == ["u_torso", "tag_head", "tag_weapon", "tag_torso@upper"]
    assert tree["tag_head"] == ["head"]
    assert tree["head"] == ["h_head", "tag_head@head"]
    assert tree["tag_weapon"] == []
    # the animation.cfg in node names (Blender keeps them, not extras): a key a node, rows
    # packed into 63 bytes
    assert tree["animation.cfg"][:4] == [
        "cfg 000 sex m",
        "cfg 001 footsteps custom",
        "cfg 002 0 30 0 25 BOTH_DEATH1; 29 1 0 25 BOTH_DEAD1",
        "cfg 003 30 30 0 25 BOTH_DEATH2; 59 1 0 25 BOTH_DEAD2",
    ]
    assert len(tree["animation.cfg"]) == 25
    assert [i["name"] for i in doc["images"]] == ["human_bsuit.jpg"]
    assert len(doc["materials"]) == 1


def test_gltf_validator_and_threejs(player_exports: dict[str, Path]) -> None:
    reports = _node_json("validate_gltf.mjs", list(player_exports.values()))
    for report in reports:
        assert (report["errors"], report["warnings"]) == (0, 0), report["messages"]
    glbs = [p for p in player_exports.values() if p.suffix == ".glb"]
    loaded = {r["file"]: r for r in _node_json("threejs_gltf.mjs", glbs)}
    bsuit = loaded[str(player_exports["human_bsuit"])]
    assert "error" not in bsuit
    names = _load("human_bsuit").config.names
    assert [a["name"] for a in bsuit["animations"]][: len(names)] == [
        "TORSO_STAND",
        *(n for n in names if n != "TORSO_STAND"),
    ]
    durations = {a["name"]: a["duration"] for a in bsuit["animations"]}
    assert durations["LEGS_RUN"] == pytest.approx(13 * 0.043)
    assert durations["TORSO_ATTACK"] == pytest.approx(5 * 0.066)
    assert [(m["name"], m["morphTargets"]) for m in bsuit["meshes"]] == [
        ("l_legs", 191),
        ("u_torso", 153),
        ("h_head", 1),
    ]
    assert bsuit["textures"] == 3
    # the first clip, TORSO_STAND, keys no legs: three.js shows the legs at rest, in
    # LEGS_IDLE's first frame (229 - 63), as Blender opens them
    assert bsuit["sampled"]["clip"] == "TORSO_STAND"
    assert bsuit["sampled"]["influences"] == [[166, 1]]
    base = loaded[str(player_exports["human_base"])]
    assert base["textures"] == 8 and len(base["animations"]) == 25 + 4  # 4 ALL_FRAMES runs


def test_scene_frames_are_poses_and_clip_pairs() -> None:
    player = _load("human_bsuit")
    legs, torso = player.clip_pair("LEGS_RUN", "TORSO_STAND")
    poses, fps = clip_pair_poses(player, legs, torso)
    # LEGS_RUN: 13 frames of 43 ms, one loop; sampled every 43 ms
    assert (len(poses), fps) == (13, pytest.approx(1000 / 43))
    assert poses[1] == ((108, 109, 0.0), (151, 151, 0.0))
    scene = player_scene(player, poses[:3])
    assert [s.name for s in scene.surfaces] == ["l_legs", "u_torso", "h_head"]
    assert scene.num_frames == 3
    pose = player.pose_frames(*poses[2])
    assert np.array_equal(scene.surfaces[2].positions[2], pose.head)
    assert all(s.skin is not None for s in scene.surfaces)
    # a BOTH_ clip given for the legs alone plays on the torso too
    both_legs, both_torso = player.clip_pair("BOTH_DEATH1", None)
    assert both_legs is both_torso is player.config["BOTH_DEATH1"]


# -- check and info ----------------------------------------------------------------------------


def test_check_player_findings(tmp_path: Path) -> None:
    for name in PLAYER_NAMES:
        assert check_player(_player_dir(name), "quake3") == []
    folder = write_player(tmp_path / "models" / "players" / "p")
    (folder / "lower_red.skin").write_text("l_legs,models/players/p/red.tga\nl_tail,x.tga\n")
    found = {(f.severity, f.code, f.message) for f in check_player(folder)}
    assert found == {
        ("error", "player-cfg", "no animation.cfg: the engine does not load the player"),
        (
            "error",
            "player-skin",
            "skin 'red': upper_red.skin, head_red.skin missing; the engine fails to load the skin",
        ),
        ("warning", "player-skin", "lower_red.skin: surface 'l_tail' is not in Lower.MD3"),
        (
            "warning",
            "player-skin",
            "lower_red.skin: l_legs -> 'models/players/p/red.tga' is no image inside the game root",
        ),
    }
    (folder / "animation.cfg").write_text(ROWS_25)
    codes = [f.code for f in check_player(folder)]
    # BOTH_ rows: 4 past the legs, 5 past the torso; 7 TORSO_ rows; 12 LEGS_ rows
    assert codes.count("player-frames") == 4 + 5 + 7 + 12
    assert check_player(tmp_path / "nothing")[0].message.endswith("is not a folder")


def test_describe_player() -> None:
    text = describe_player(_load("human_bsuit"))
    lines = text.splitlines()
    assert lines[0].endswith("Quake III player 'human_bsuit', game root " + str(CORPUS / "q3"))
    assert (
        "  lower  lower.md3   191 frames   447 vertices   598 triangles  tags: tag_torso" in lines
    )
    assert "clips (37, names from comments; legs frames offset by 63):" in lines
    assert "  LEGS_RUN                 legs  frames 107-119 (13) 23 fps loops 13" in lines
    assert "    h_head                   models/players/human_bsuit/human_bsuit.jpg" in lines


# -- package API and command line --------------------------------------------------------------


def test_load_a_player_folder(tmp_path: Path) -> None:
    player = quakemodels.load(_player_dir("human_bsuit"))
    assert isinstance(player, quakemodels.Player)
    assert quakemodels.check_model(player) == []
    with pytest.raises(PlayerFolderError, match=r"upper\.md3, head\.md3 missing"):
        quakemodels.load(tmp_path)


def test_cli_on_player_folders(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    players = _player_dir("human_bsuit").parent
    assert main(["info", str(players / "human_bsuit")]) == 0
    assert "  LEGS_RUN                 legs  frames 107-119 (13) 23 fps loops 13" in (
        capsys.readouterr().out.splitlines()
    )
    assert main(["check", "--engine", "quake3", str(players)]) == 0
    out = capsys.readouterr().out
    assert f"{players / 'human_base'}: ok [quake3]" in out
    assert "lower.md3" not in out  # the parts are not inputs of their own

    assert main(["export", str(players), "-o", str(tmp_path / "glb")]) == 0
    assert sorted(p.name for p in (tmp_path / "glb").iterdir()) == [
        "human_base.glb",
        "human_bsuit.glb",
    ]
    doc, _ = _read_glb(tmp_path / "glb" / "human_bsuit.glb")
    assert len(doc["animations"]) == 37 + 5  # and 5 ALL_FRAMES runs
    assert (
        main(
            [
                "export",
                str(players / "human_base"),
                "-o",
                str(tmp_path / "x.glb"),
                "--clip",
                "LEGS_RUN",
            ]
        )
        == 1
    )
    assert "--clip and --frame apply to OBJ output" in capsys.readouterr().err
    assert not (tmp_path / "x.glb").exists()

    png, gif = tmp_path / "run.png", tmp_path / "run.gif"
    bsuit = str(players / "human_bsuit")
    args = ["--legs", "LEGS_RUN", "--torso", "TORSO_STAND"]
    assert main(["render", bsuit, "-o", str(png), *args, "--time", "0.15", "--size", "64x48"]) == 0
    assert main(["render", bsuit, "-o", str(gif), *args, "--size", "32x32"]) == 0
    from PIL import Image

    with Image.open(png) as img:
        assert img.size == (64, 48)
    with Image.open(gif) as img:
        assert img.n_frames == 13  # one LEGS_RUN loop, 43 ms a frame
    assert (
        main(
            [
                "render",
                bsuit,
                "-o",
                str(tmp_path / "bad.png"),
                "--legs",
                "TORSO_STAND",
                "--time",
                "0",
            ]
        )
        == 1
    )
    assert "TORSO_STAND is a torso clip; it cannot drive the legs" in capsys.readouterr().err

    assert main(["dump", bsuit, "-o", str(tmp_path / "dump")]) == 0
    assert sorted(p.name for p in (tmp_path / "dump").iterdir()) == [
        "head.json",
        "lower.json",
        "upper.json",
    ]
    assert main(["dump", bsuit]) == 2


def test_cli_player_json_clips_and_no_clobber(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bsuit = _player_dir("human_bsuit")
    assert main(["info", "--json", str(bsuit)]) == 0
    (doc,) = json.loads(capsys.readouterr().out)
    assert doc["format"] == "q3player"
    assert sorted(doc["parts"]) == ["head", "lower", "upper"]
    assert doc["parts"]["lower"]["header"]["num_frames"] == 191
    assert doc["parts"]["upper"]["header"]["num_tags"] == 3

    assert main(["info", "--clips", str(bsuit)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"{bsuit}: 37 clips"
    # every row's kind column starts at the same place, the longest name included
    starts = {line.index(" frames ") for line in lines[1:]}
    assert len(starts) == 1
    assert "  TORSO_GESTURE_BLASTER  torso frames 90-129    (40 frames, 20 fps)" in lines

    target = tmp_path / "p.glb"
    target.write_bytes(b"mine")
    assert main(["export", str(bsuit), "-o", str(target), "--no-clobber"]) == 3
    assert "exists (--no-clobber)" in capsys.readouterr().err
    assert target.read_bytes() == b"mine"
