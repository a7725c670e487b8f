"""The Blender round trip of a Quake III player: `quakemodels export <player folder> -o p.glb`,
Blender 3.4 imports p.glb and exports it again with default settings, `quakemodels convert
p2.glb <folder>/` must give a player that passes `check --engine quake3`.

Blender drops every ``extras``, sorts the animations by name, resamples every channel at 24
fps and splits vertices where its normals differ; what the engine reads rides in what it
keeps (q3player/carry.py: the cfg in node names, every tag a node, every frame's tags in the
ALL_FRAMES runs). tests/blenderlike.py reproduces that in Python, so these tests run
everywhere; test_real_blender_round_trip_of_a_player runs the real Blender (skipped without
it, failed without it under CI=true).
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from blenderlike import blender_roundtrip, pack_glb, split_glb
from conftest import CORPUS, IN_CI, REPO, need_blender

from quakemodels.cli import main
from quakemodels.errors import BadValueError, LimitExceededError, QuakeModelsWarning
from quakemodels.formats.md3 import Md3
from quakemodels.formats.md3.write import FORMAT_LIMITS, VANILLA, SurfaceData, TagData
from quakemodels.formats.q3player import Player
from quakemodels.formats.q3player.animcfg import parse
from quakemodels.formats.q3player.carry import (
    config_from_names,
    config_node_names,
    tag_name,
    tag_node_names,
)
from quakemodels.formats.q3player.fromgltf import player_from_gltf
from quakemodels.interchange.gltf_read import frame_positions, frame_times

# (name, first frame as the file writes it, frames, looping frames, fps); the legs rows are
# shifted by skip = 61 - 30 (first of LEGS_WALKCR minus first of TORSO_GESTURE)
ROWS = [
    ("BOTH_DEATH1", 0, 10, 0, 25),
    ("BOTH_DEAD1", 9, 1, 0, 25),
    ("BOTH_DEATH2", 10, 10, 0, 25),
    ("BOTH_DEAD2", 19, 1, 0, 25),
    ("BOTH_DEATH3", 20, 10, 0, 25),
    ("BOTH_DEAD3", 29, 1, 0, 25),
    ("TORSO_GESTURE", 30, 8, 0, 15),
    ("TORSO_ATTACK", 38, 6, 0, 15),
    ("TORSO_ATTACK2", 44, 6, 0, 15),
    ("TORSO_DROP", 50, 5, 0, 20),
    ("TORSO_RAISE", 55, 4, 0, 20),
    ("TORSO_STAND", 59, 1, 0, 15),
    ("TORSO_STAND2", 60, 1, 0, 15),
    ("LEGS_WALKCR", 61, 8, 8, 20),
    ("LEGS_WALK", 69, 8, 8, 20),
    ("LEGS_RUN", 77, 10, 10, 23),
    ("LEGS_BACK", 87, 10, 10, 20),
    ("LEGS_SWIM", 97, 10, 10, 15),
    ("LEGS_JUMP", 107, 8, 0, 15),
    ("LEGS_LAND", 115, 4, 0, 15),
    ("LEGS_JUMPB", 119, 8, 0, 15),
    ("LEGS_LANDB", 127, 4, 0, 15),
    ("LEGS_IDLE", 131, 10, 10, 15),
    ("LEGS_IDLECR", 141, 8, 5, 15),
    ("LEGS_TURN", 149, 6, 6, 15),
]
TORSO_FRAMES = 61
LEGS_FRAMES = 30 + 155 - 61


def _grid(columns: int, rows: int, frames: int, lift: float) -> SurfaceData:
    """A bent sheet of columns × rows vertices that ripples from frame to frame; every
    vertex on its own uv (so no two are alike)."""
    u, v = np.meshgrid(np.arange(columns), np.arange(rows), indexing="ij")
    u, v = u.reshape(-1).astype(np.float64), v.reshape(-1).astype(np.float64)
    f = np.arange(frames)[:, None]
    x = u * 0.5 + np.sin(f * 0.3 + v) * 2
    y = np.cos(u * 0.2) * 8 + v
    z = v * 4 + lift + np.cos(f * 0.2 + u * 0.1) * 3
    positions = np.round(np.stack([x, np.broadcast_to(y, x.shape), z], -1) * 64) / 64
    quads = [
        (c * rows + r, (c + 1) * rows + r, c * rows + r + 1)
        for c in range(columns - 1)
        for r in range(rows - 1)
    ] + [
        ((c + 1) * rows + r, (c + 1) * rows + r + 1, c * rows + r + 1)
        for c in range(columns - 1)
        for r in range(rows - 1)
    ]
    uv = np.stack([u / columns, v / rows], -1)
    return SurfaceData("sheet", positions, np.array(quads), uv)


def _tag(name: str, frames: int, origin: tuple[float, float, float], turn: float) -> TagData:
    angles = np.radians(np.arange(frames) * turn)
    c, s = np.cos(angles), np.sin(angles)
    axes = np.zeros((frames, 3, 3))
    axes[:, 0, 0], axes[:, 0, 1], axes[:, 1, 0], axes[:, 1, 1] = c, s, -s, c
    axes[:, 2, 2] = 1
    origins = np.array(origin) + np.stack([np.sin(angles) * 2, np.arange(frames) * 0.25, c], -1)
    return TagData(name, origins, axes)


# a Team Arena table: the 25 rows (two 1-frame clips at 30 fps), the 6 Team Arena rows and a
# mod's own row after them, named by comments (so a name decides nothing: rows go by position)
ROWS_TA = [
    (name, first, num, loop, 30 if name in ("BOTH_DEAD1", "TORSO_STAND") else fps)
    for name, first, num, loop, fps in ROWS
] + [
    ("TORSO_GETFLAG", 30, 5, 0, 15),
    ("TORSO_GUARDBASE", 35, 5, 0, 12),
    ("TORSO_PATROL", 40, 6, 0, 15),
    ("TORSO_FOLLOWME", 46, 4, 0, 20),
    ("TORSO_AFFIRMATIVE", 50, 5, 0, 15),
    ("TORSO_NEGATIVE", 55, 5, 0, 15),
    ("TORSO_SALUTE", 30, 8, 0, 10),
]
KEYS_TA = "sex f\nfootsteps boot\nheadoffset 0 0 -4\nfixedtorso\nmodelScale 1.25\n"
# upper.md3's six tags, as Team Arena players have them; head.md3's own tag_head
UPPER_TAGS = ("tag_head", "tag_weapon", "tag_torso", "tag_flag", "tag_wp_away1", "tag_wp_away2")


def write_player(folder: Path, torso_columns: int = 20, *, team_arena: bool = False) -> Path:
    """A player folder: legs (124 frames), a torso of ``torso_columns`` × 5 vertices (61
    frames), a head, their tags and a 25-row animation.cfg with loops, partial loops and
    rates of 15 to 25 fps; with ``team_arena``, :data:`ROWS_TA` and :data:`KEYS_TA`, six
    upper tags and a head tag."""
    folder.mkdir(parents=True, exist_ok=True)
    legs = _grid(12, 6, LEGS_FRAMES, 0)
    torso = _grid(torso_columns, 5, TORSO_FRAMES, 24)
    head = _grid(5, 4, 1, 40)
    upper_tags = [
        _tag("tag_head", TORSO_FRAMES, (0, 0, 16), -2),
        _tag("tag_weapon", TORSO_FRAMES, (8, -4, 4), 5),
    ]
    head_tags = []
    if team_arena:
        upper_tags += [
            _tag(name, TORSO_FRAMES, (k * 3.0, 2.0 - k, 10.0 - k), 1.5 * k)
            for k, name in enumerate(UPPER_TAGS[2:], 1)
        ]
        head_tags = [_tag("tag_head", 1, (0, 0, 0), 0)]
    parts = {
        "lower": ([legs], [_tag("tag_torso", LEGS_FRAMES, (0, 0, 24), 3)]),
        "upper": ([torso], upper_tags),
        "head": ([head], head_tags),
    }
    for part, (surfaces, tags) in parts.items():
        named = [SurfaceData(f"{part[0]}_{part}", s.positions, s.triangles, s.texcoords)
                 for s in surfaces]  # fmt: skip
        model = Md3.build(
            named, tags=tags, name=f"models/players/guy/{part}.md3", limits=FORMAT_LIMITS
        ).model
        (folder / f"{part}.md3").write_bytes(model.data)
    rows = ROWS_TA if team_arena else ROWS
    lines = [KEYS_TA if team_arena else "sex m", ""]
    lines += [f"{first}\t{num}\t{loop}\t{fps}\t\t// {name}" for name, first, num, loop, fps in rows]
    (folder / "animation.cfg").write_text("\n".join(lines) + "\n")
    return folder


def _load(folder: Path) -> Player:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return Player.from_folder(folder)


def _rows(player: Player) -> list[tuple[str, int, int, int, float, bool]]:
    return [
        (c.name, c.file_first_frame, c.num_frames, c.loop_frames, c.fps, c.reversed)
        for c in player.config
    ]


def _tags(player: Player) -> dict[str, dict[str, tuple[np.ndarray, np.ndarray]]]:
    """Per part, tag → (F,3) origins and (F,3,3) axes."""
    return {
        part: {t: (m.tags.origins[:, i], m.tags.axes[:, i]) for i, t in enumerate(m.tags.names)}
        for part, m in player.parts.items()
    }


def _skins(player: Player) -> dict[str, dict[str, str | None]]:
    """Per part, surface → its default skin's game path (folder name and file)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # no texture: None
        found = player.skin_textures("default")
    return {
        part: {s: (f"{p.parent.name}/{p.name}" if p else None) for s, p in surfaces.items()}
        for part, surfaces in found.items()
    }


def assert_same_player(back: Player, original: Player) -> None:
    """What the engine reads of ``back`` is ``original``'s: the cfg's rows by position (name,
    first frame as the file writes it, frames, looping frames, fps, reversed) and its keys,
    every tag of every part at every frame (origins within 1e-3 units, axes within 1e-4: MD3
    stores floats), and each surface's skin."""
    assert _rows(back) == _rows(original)
    assert back.config.keys == original.config.keys
    assert back.config.legs_offset == original.config.legs_offset
    tags, tags_back = _tags(original), _tags(back)
    for part, found in tags.items():
        assert sorted(tags_back[part]) == sorted(found), part
        for name, (origins, axes) in found.items():
            origins_back, axes_back = tags_back[part][name]
            assert np.abs(origins_back - origins).max() < 1e-3, (part, name)
            assert np.abs(axes_back - axes).max() < 1e-4, (part, name)
    assert _skins(back) == _skins(original)


def _through_blender(
    tmp_path: Path, folder: Path, splits: dict[str, int] | None = None
) -> tuple[Path, Path]:
    """The player exported, then as Blender writes it back (blenderlike.py)."""
    glb = tmp_path / "p.glb"
    assert main(["export", str(folder), "-o", str(glb), "-q"]) == 0
    again = tmp_path / "p2.glb"
    again.write_bytes(blender_roundtrip(glb.read_bytes(), splits=splits))
    return glb, again


def test_frame_positions_read_resampled_weights() -> None:
    # one-hot, a blend of neighbours, a loop's step back (not neighbours), nothing
    w = np.zeros((5, 6))
    w[0, 2] = 1
    w[1, 2], w[1, 3] = 0.25, 0.75
    w[2, 5], w[2, 1] = 0.5, 0.5
    w[3, 4], w[3, 3] = 0.875, 0.125
    positions = frame_positions(w)
    assert positions[:2].tolist() == [2.0, 2.75]
    assert math.isnan(positions[2]) and math.isnan(positions[4])
    assert positions[3] == 3.875
    # 10 frames at 15 fps (66 ms) looping back to frame 0, sampled at 24 fps
    times = np.arange(16) / 24
    frames = times / 0.066
    weights = np.zeros((16, 10))
    for k, f in enumerate(frames):
        a = int(f)
        b = a + 1 if a + 1 < 10 else 0
        weights[k, a] += 1 - (f - a)
        weights[k, b] += f - a
    exact, between = frame_times(times, weights)
    assert exact == {0: 0.0}
    # every frame found, at its time: the last one on the way to the step back
    assert sorted(between) == list(range(10))
    for f, t in between.items():
        assert t == pytest.approx(f * 0.066, abs=1e-9)


def test_blender_like_player_converts_back_and_passes_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = write_player(tmp_path / "models" / "players" / "guy")
    original = _load(folder)
    _, again = _through_blender(tmp_path, folder)
    out = tmp_path / "back" / "models" / "players" / "guy"
    assert main(["convert", str(again), f"{out}/"]) == 0
    assert "animation.cfg (25 clips)" in capsys.readouterr().out
    back = _load(out)
    # every row as the original: engine order, frames (with the legs' skip), loops, fps
    assert _rows(back) == _rows(original)
    assert back.config.legs_offset == original.config.legs_offset == 31
    for part, model in original.parts.items():
        model_back = back.parts[part]
        assert model_back.num_frames == model.num_frames
        for s, t in zip(model.surfaces, model_back.surfaces, strict=True):
            assert t.num_vertices == s.num_vertices
            # vertices renumbered by Blender: the same set of (all frames, uv) rows
            key = np.concatenate([s.positions_raw.transpose(1, 0, 2).reshape(s.num_vertices, -1),
                                  s.texcoords.view(np.int32)], 1)  # fmt: skip
            key2 = np.concatenate([t.positions_raw.transpose(1, 0, 2).reshape(t.num_vertices, -1),
                                   t.texcoords.view(np.int32)], 1)  # fmt: skip
            np.testing.assert_array_equal(np.unique(key, axis=0), np.unique(key2, axis=0))
        # the tags the engine places parts by, at every frame: resampled keys interpolated
        for tag in ("tag_torso", "tag_head", "tag_weapon"):
            if tag not in model.tags.names:
                continue
            i, j = model.tags.names.index(tag), model_back.tags.names.index(tag)
            moved = np.abs(model_back.tags.origins[:, j] - model.tags.origins[:, i]).max()
            turned = np.abs(model_back.tags.axes[:, j] - model.tags.axes[:, i]).max()
            assert moved < 0.05 and turned < 0.01, (part, tag, moved, turned)
    assert main(["check", "--engine", "quake3", str(out)]) == 0
    assert "ok [quake3]" in capsys.readouterr().out


def test_blender_like_team_arena_player_comes_back_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Team Arena rows and a mod's row after the 25 (names from comments), 1-frame clips at
    # 30 fps, five cfg keys, six upper tags and a head tag: before the cfg and the tags rode
    # in node names, the Team Arena rows came back in front of the legs rows, the 1-frame
    # clips at 15 fps, no keys, and upper with 2 tags
    folder = write_player(tmp_path / "models" / "players" / "guy", team_arena=True)
    original = _load(folder)
    assert len(original.config) == 32 and original.config.names_from == "comments"
    assert sorted(original.upper.tags.names) == sorted(UPPER_TAGS)
    _, again = _through_blender(tmp_path, folder)
    doc, _ = split_glb(again.read_bytes())
    assert all("extras" not in a for a in doc["animations"])  # Blender's, as blenderlike does
    out = tmp_path / "back" / "models" / "players" / "guy"
    assert main(["convert", str(again), f"{out}/"]) == 0
    assert "animation.cfg (32 clips)" in capsys.readouterr().out
    back = _load(out)
    assert_same_player(back, original)
    assert [c.fps for c in back.config if c.num_frames == 1] == [30, 25, 25, 30, 15]
    assert back.config.keys == {
        "sex": "f",
        "footsteps": "boot",
        "headoffset": "0 0 -4",
        "fixedtorso": "",
        "modelscale": "1.25",
    }
    assert back.config.names[25:] == [name for name, *_ in ROWS_TA[25:]]


def test_exported_player_opens_standing(tmp_path: Path) -> None:
    # Blender makes the first animation active and shows the rest pose where it keys
    # nothing: the first is TORSO_STAND, and the rest pose is TORSO_STAND + LEGS_IDLE
    # (before: BOTH_DEATH1 first, and frame 0 at rest)
    folder = write_player(tmp_path / "models" / "players" / "guy", team_arena=True)
    player = _load(folder)
    glb = tmp_path / "p.glb"
    assert main(["export", str(folder), "-o", str(glb), "-q"]) == 0
    doc, _ = split_glb(glb.read_bytes())
    assert doc["animations"][0]["name"] == "TORSO_STAND"
    stand, idle = player.config["TORSO_STAND"], player.config["LEGS_IDLE"]
    rest = {"u_upper": stand.first_frame, "l_lower": idle.first_frame, "h_head": 0}
    nodes = {n["name"]: n for n in doc["nodes"]}
    for surface, frame in rest.items():
        weights = doc["meshes"][nodes[surface]["mesh"]]["weights"]
        assert np.flatnonzero(weights).tolist() == [frame] and weights[frame] == 1.0
    tags = _tags(player)
    for part, node, tag in (("lower", "tag_torso", "tag_torso"), ("upper", "tag_flag", "tag_flag"),
                            ("upper", "tag_torso@upper", "tag_torso")):  # fmt: skip
        origin = tags[part][tag][0][rest["l_lower" if part == "lower" else "u_upper"]]
        # glTF's Y-up (y, z, x) of Quake's (x, y, z)
        assert nodes[node]["translation"] == pytest.approx(origin[[1, 2, 0]].tolist(), abs=1e-6)


def test_older_exports_with_extras_still_convert(tmp_path: Path) -> None:
    # what the exporter wrote before the cfg and the tags rode in node names: clips and keys
    # in extras, the tags that place nothing in the part nodes' extras, every tag's every
    # frame in its node's extras
    folder = write_player(tmp_path / "models" / "players" / "guy", team_arena=True)
    original = _load(folder)
    glb = tmp_path / "p.glb"
    assert main(["export", str(folder), "-o", str(glb), "-q"]) == 0
    doc, blob = split_glb(glb.read_bytes())
    tags = _tags(original)

    def track(part: str, tag: str) -> dict[str, Any]:
        origins, axes = tags[part][tag]
        return {"translation": origins[:, [1, 2, 0]].tolist(),
                "rotation": _quaternions(axes).tolist()}  # fmt: skip

    keep = []
    for k, node in enumerate(doc["nodes"]):
        name = node.get("name", "")
        if (
            name.startswith("cfg ")
            or name == "animation.cfg"
            or "@" in name
            or (name.startswith("tag_") and name not in ("tag_torso", "tag_head", "tag_weapon"))
        ):
            continue
        keep.append(k)
    new_of = {old: new for new, old in enumerate(keep)}
    nodes = [doc["nodes"][k] for k in keep]
    for node in nodes:
        if "children" in node:
            node["children"] = [new_of[c] for c in node["children"] if c in new_of]
    for part, own in (("lower", ("tag_torso",)), ("upper", ("tag_head", "tag_weapon"))):
        node = next(n for n in nodes if n["name"] == part)
        others = [t for t in tags[part] if t not in own]
        node["extras"] = {"tags": {t: track(part, t) for t in others}}
        for tag in own:
            next(n for n in nodes if n["name"] == tag)["extras"] = {"frames": track(part, tag)}
    head = next(n for n in nodes if n["name"] == "head")
    head["extras"] = {"tags": {"tag_head": track("head", "tag_head")}}
    doc["nodes"] = nodes
    doc["scenes"][0]["nodes"] = [new_of[c] for c in doc["scenes"][0]["nodes"]]
    animations = []
    for anim in doc["animations"]:
        if anim["name"].startswith("ALL_FRAMES"):
            continue
        anim["channels"] = [c for c in anim["channels"] if c["target"]["node"] in new_of]
        for c in anim["channels"]:
            c["target"]["node"] = new_of[c["target"]["node"]]
        animations.append(anim)
    order = {name: k for k, name in enumerate(original.config.names)}
    doc["animations"] = sorted(animations, key=lambda a: order[a["name"]])  # the cfg's order
    doc["scenes"][0]["extras"] = {"animationKeys": dict(original.config.keys)}
    old = tmp_path / "old.glb"
    old.write_bytes(pack_glb(doc, blob))
    out = tmp_path / "back" / "models" / "players" / "guy"
    assert main(["convert", str(old), f"{out}/"]) == 0
    assert_same_player(_load(out), original)


def _quaternions(axes: np.ndarray) -> np.ndarray:
    """(F,4) glTF rotations (x, y, z, w; Y-up) of (F,3,3) MD3 tag axes (rotations)."""
    from quakemodels.interchange.gltf_write import tag_quaternions

    return np.asarray(tag_quaternions(axes), np.float64)


def test_cfg_node_names_fit_blender_and_read_back_in_any_order() -> None:
    long = "x" * 120  # a key's words longer than two object names: carried on in two more
    text = f"sex n\nsomekey {long} end\n" + "".join(
        f"{first}\t{num}\t{loop}\t{fps}\t\t// {name}\n" for name, first, num, loop, fps in ROWS
    )
    text = text.replace("149\t6\t6\t15", "149\t-6\t6\t12.5")  # LEGS_TURN reversed, 12.5 fps
    cfg = parse(text)
    names = config_node_names(cfg)
    assert all(len(n.encode()) <= 63 for n in names)  # Blender keeps 63 bytes of a name
    assert names[:5] == [
        "cfg 000 sex n",
        "cfg 001 somekey " + long[:47],
        "cfg 001+1 " + long[47:100],
        "cfg 001+2 " + long[100:] + " end",
        "cfg 002 0 10 0 25 BOTH_DEATH1; 9 1 0 25 BOTH_DEAD1",
    ]
    assert names[-1] == "cfg 014 149 -6 6 12.5 LEGS_TURN"
    assert len(names) == 4 + 13  # 25 rows in 13 nodes
    # Blender writes siblings in its own order; other nodes around them are not lines
    again = config_from_names(["lower", *reversed(names), "cfgx", "tag_head"], "p.glb")
    assert again is not None
    assert again.keys == cfg.keys == {"sex": "n", "somekey": f"{long} end"}
    assert [(c.name, c.file_first_frame, c.num_frames, c.loop_frames, c.fps, c.reversed)
            for c in again.clips] == [(c.name, c.file_first_frame, c.num_frames, c.loop_frames,
                                       c.fps, c.reversed) for c in cfg.clips]  # fmt: skip
    assert again.clips[-1].reversed and again.clips[-1].fps == 12.5
    assert config_from_names(["lower", "upper"], "p.glb") is None
    with pytest.raises(BadValueError, match="line 1 lacks a piece"):
        config_from_names([n for n in names if not n.startswith("cfg 001 ")], "p.glb")
    with pytest.raises(BadValueError, match=r"is not a line of an animation\.cfg"):
        config_from_names(["cfg 000 sex m /* x"], "p.glb")


def test_tag_node_names_are_unique_across_parts() -> None:
    names = tag_node_names(
        {"lower": ["tag_torso"], "upper": ["tag_head", "tag_torso", "tag_flag"],
         "head": ["tag_head"]},
        {"lower": ("tag_torso",), "upper": ("tag_head", "tag_weapon")},
    )  # fmt: skip
    assert names == {
        "lower": {"tag_torso": "tag_torso"},
        "upper": {"tag_head": "tag_head", "tag_weapon": "tag_weapon",
                  "tag_torso": "tag_torso@upper", "tag_flag": "tag_flag"},
        "head": {"tag_head": "tag_head@head"},
    }  # fmt: skip
    assert tag_name("tag_torso@upper", "upper") == "tag_torso"
    assert tag_name("tag_torso@upper", "head") == "tag_torso@upper"


def test_vertices_blender_splits_are_joined_to_fit_the_engine(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a torso of 995 vertices, under ioquake3's 999; Blender splits some (1006)
    folder = write_player(tmp_path / "models" / "players" / "guy", torso_columns=199)
    assert _load(folder).upper.surfaces[0].num_vertices == 995
    _, again = _through_blender(tmp_path, folder, splits={"u_upper": 12})
    doc, _ = split_glb(again.read_bytes())
    node = next(n for n in doc["nodes"] if n.get("name") == "u_upper")
    position = doc["meshes"][node["mesh"]]["primitives"][0]["attributes"]["POSITION"]
    count = doc["accessors"][position]["count"]
    assert count == 1006  # 11 of the 12 are on two triangles or more: those are split
    out = tmp_path / "back" / "guy"
    with pytest.warns(QuakeModelsWarning) as said:
        assert main(["convert", str(again), f"{out}/"]) == 0
    joined = [str(w.message) for w in said if "once the copies" in str(w.message)]
    assert joined == [
        "surfaces[0] 'u_upper': 1006 vertices, 995 once the copies of a vertex that differ"
        " only in their normals are joined (an exporter such as Blender's splits them); the"
        " limit is 999"
    ]
    assert _load(out).upper.surfaces[0].num_vertices == 995
    assert main(["check", "--engine", "quake3", str(out)]) == 0


def test_limit_errors_name_the_cli_flag_in_the_cli_and_the_argument_in_python(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # 1005 vertices that are all different: nothing to join, over the limit
    folder = write_player(tmp_path / "models" / "players" / "guy", torso_columns=201)
    glb = tmp_path / "p.glb"
    assert main(["export", str(folder), "-o", str(glb), "-q"]) == 0
    out = tmp_path / "back" / "guy"
    assert main(["convert", str(glb), f"{out}/"]) == 1
    err = capsys.readouterr().err
    assert "1005 vertices in surfaces[0] exceed the limit of 999" in err
    assert "--no-limits allows more" in err and "limits=" not in err
    assert not out.exists()
    with pytest.raises(LimitExceededError, match=r"pass limits= for engines") as e:
        player_from_gltf(glb, "guy", limits=VANILLA)
    assert e.value.liftable and e.value.reason.endswith("exceed the limit of 999")
    assert main(["convert", str(glb), f"{out}/", "--no-limits"]) == 0
    assert _load(out).upper.surfaces[0].num_vertices == 1005
    # the format's own limit: nothing lifts it, and no hint says something would
    positions = np.zeros((1, 4097, 3))
    tri = np.array([[0, 1, 2]])
    with pytest.raises(LimitExceededError) as e:
        Md3.build([SurfaceData("s", positions, tri, np.zeros((4097, 2)))])
    assert str(e.value) == "4097 vertices in surfaces[0] exceed the format's limit of 4096"
    assert not e.value.liftable


def test_clip_without_extras_or_weights_is_a_clean_error(tmp_path: Path) -> None:
    folder = write_player(tmp_path / "models" / "players" / "guy")
    glb, _ = _through_blender(tmp_path, folder)
    doc, blob = split_glb(glb.read_bytes())
    anim = next(a for a in doc["animations"] if a["name"] == "LEGS_RUN")
    anim.pop("extras")
    weights = [c for c in anim["channels"] if c["target"]["path"] == "weights"]
    anim["channels"] = [c for c in anim["channels"] if c not in weights]
    for node in doc["nodes"]:  # and no animation.cfg nodes to give the row
        if node.get("name", "").startswith("cfg "):
            node["name"] = "x" + node["name"]
    bad = tmp_path / "bad.glb"
    bad.write_bytes(pack_glb(doc, blob))
    with pytest.raises(Exception, match=r"LEGS_RUN.*has no extras.part and keys no morph weights"):
        player_from_gltf(bad, "guy")


# -- the real Blender ----------------------------------------------------------------------------


def _players() -> list[object]:
    found: list[object] = ["synthetic"]
    players = CORPUS / "q3" / "models" / "players"
    for name in ("human_bsuit", "human_base"):
        if (players / name).is_dir() or IN_CI:  # under CI a missing corpus fails
            found.append(name)
        else:
            found.append(pytest.param(name, marks=pytest.mark.skip(reason="corpus not found")))
    return found


def _blender() -> str:
    """The blender command; a skip without it (a failure under CI=true)."""
    return need_blender()


@pytest.mark.parametrize("name", _players())
def test_real_blender_round_trip_of_a_player(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the real Blender 3.4: import, export at default settings, convert back; everything the
    # engine reads comes back (rows by position, keys, every tag at every frame, skins), and
    # Blender opens the player standing (TORSO_STAND + LEGS_IDLE)
    blender = _blender()
    if name == "synthetic":
        folder = write_player(tmp_path / "models" / "players" / "guy", team_arena=True)
    else:
        folder = CORPUS / "q3" / "models" / "players" / name
    original = _load(folder)
    glb = tmp_path / "p.glb"
    assert main(["export", str(folder), "-o", str(glb), "-q"]) == 0
    again = tmp_path / "p2.glb"
    script = REPO / "tools" / "blender_roundtrip.py"
    done = subprocess.run(
        [blender, "-b", "--factory-startup", "--python", str(script), "--", str(glb),
         str(again)],
        capture_output=True, text=True, check=False, timeout=600,
    )  # fmt: skip
    assert again.is_file(), done.stdout[-2000:] + done.stderr[-2000:]
    [opened] = [json.loads(line[7:]) for line in done.stdout.splitlines()
                if line.startswith("OPENED ")]  # fmt: skip
    rest = {
        "lower": original.config["LEGS_IDLE"].first_frame,
        "upper": original.config["TORSO_STAND"].first_frame,
        "head": 0,
    }
    for part, model in original.parts.items():
        for s in model.surfaces:
            assert opened[s.name] == [f"frame{rest[part]}"], (s.name, opened)
    out = tmp_path / "back" / "models" / "players" / folder.name
    assert main(["convert", str(again), f"{out}/"]) == 0
    capsys.readouterr()
    assert main(["check", "--engine", "quake3", str(out)]) == 0
    back = _load(out)
    assert_same_player(back, original)
    for part, model in original.parts.items():
        # within the engine's limit: at most the copies Blender splits (none joined here)
        counts = {s.name: s.num_vertices for s in model.surfaces}
        for s in back.parts[part].surfaces:
            assert counts[s.name] <= s.num_vertices <= max(counts[s.name], 999)


# -- make blender-check's own logic (tools/blender_check.py), without Blender -------------------

CUBE = np.array(
    [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]],
    np.float32,
)
# counter-clockwise seen from outside
CUBE_TRIS = np.array(
    [[0, 2, 1], [0, 3, 2], [4, 5, 6], [4, 6, 7], [0, 1, 5], [0, 5, 4],
     [1, 2, 6], [1, 6, 5], [2, 3, 7], [2, 7, 6], [3, 0, 4], [3, 4, 7]]
)  # fmt: skip


def _tool() -> object:
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "blender_check", REPO / "tools" / "blender_check.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_blender_check_knows_closed_models() -> None:
    tool: Any = _tool()
    assert tool.is_closed([(CUBE, CUBE_TRIS)])
    assert tool.is_closed([(CUBE, CUBE_TRIS[:, [0, 2, 1]])])  # inside out is closed too
    # corners split at a uv seam (same positions) are welded; a missing face opens it
    split = np.concatenate([CUBE, CUBE[:4]])
    seam = np.where(CUBE_TRIS[:2] < 4, CUBE_TRIS[:2] + 8, CUBE_TRIS[:2])
    assert tool.is_closed([(split, np.concatenate([seam, CUBE_TRIS[2:]]))])
    assert not tool.is_closed([(CUBE, CUBE_TRIS[1:])])
    # one triangle flipped: an edge run twice the same way
    flipped = CUBE_TRIS.copy()
    flipped[0] = flipped[0, [0, 2, 1]]
    assert not tool.is_closed([(CUBE, flipped)])
    # two surfaces that close the cube together
    assert tool.is_closed([(CUBE, CUBE_TRIS[:6]), (CUBE, CUBE_TRIS[6:])])


def test_blender_check_compares_pictures(tmp_path: Path) -> None:
    from PIL import Image

    tool: Any = _tool()
    a = np.zeros((10, 10, 4), np.uint8)
    a[2:8, 2:8] = (200, 200, 200, 255)  # 36 covered pixels
    b = a.copy()
    b[2:4, 2:8, :3] = 60  # 12 of them darker: back faces drawn instead
    b[0, 0] = (0, 0, 0, 255)  # one more covered pixel in b only
    for name, pixels in (("a.png", a), ("b.png", b)):
        Image.fromarray(pixels, "RGBA").save(tmp_path / name)
    assert tool.picture_difference(tmp_path / "a.png", tmp_path / "a.png") == 0.0
    assert tool.picture_difference(tmp_path / "a.png", tmp_path / "b.png") == 13 / 37


def test_blender_check_without_blender_prints_the_install_line(tmp_path: Path) -> None:
    script = REPO / "tools" / "blender_check.py"
    env = {"PATH": str(tmp_path), "HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          env=env, check=False)  # fmt: skip
    assert done.returncode == 0
    assert done.stdout == (
        "blender-check: skipped, no `blender` (apt-get install blender python3-numpy"
        " (or: make blender-deps))\n"
    )
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          env={**env, "CI": "true"}, check=False)  # fmt: skip
    assert done.returncode == 1 and "CI=true but no `blender`" in done.stdout
