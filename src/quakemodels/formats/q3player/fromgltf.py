"""A Quake III player folder from a player glTF: the way back from :mod:`.gltf`.

:func:`player_from_gltf` reads the three parts of a glTF written by
:func:`~.gltf.export_player_gltf` (the subtrees of the nodes ``lower``, ``upper`` and ``head``,
each one scene of surfaces, morph-target frames and ``tag_*`` nodes: see
:func:`quakemodels.interchange.gltf_read.read_gltf_scenes`) and encodes, all in memory:

* ``lower.md3``, ``upper.md3``, ``head.md3``: positions quantized to 1/64 unit, normals to
  the lat/lng bytes, tags at every frame: from the ``ALL_FRAMES_<first>`` runs (every frame
  on Blender's own frames, :mod:`.carry`), else where the clips key them, else from the
  nodes' extras (older exports); a node ``<tag>@<part>`` is the part's tag ``<tag>``;
* ``animation.cfg``: from the ``animation.cfg`` nodes (:func:`.carry.config_from_names`: the
  rows by position with their names, file frame numbers, loops and fps, and the keys before
  the table, as the exported cfg had them). A file without them (an older export) gets one
  row per animation, from its ``extras`` (``firstFrame``, ``numFrames``, ``loopFrames``,
  ``fps``, ``reversed``), named by a ``// NAME`` comment, with the legs clips shifted back by
  the engine's ``skip`` (see :mod:`.animcfg`), and the keys the scene's extras kept. The text
  is parsed again before anything is written: it must give back the same clips;
* ``<part>_default.skin``: each surface's embedded texture as
  ``models/players/<name>/<image>``, and the images themselves (PNG or JPEG as embedded).

A file that went through Blender 3.4 (import, then export with default settings) keeps node
names, morph targets and animations, but not one ``extras``, and its animations come sorted
by name and resampled at 24 fps. What the engine reads comes back whole from what Blender
keeps (:mod:`.carry`): the cfg's rows by position, their numbers and fps (1-frame clips
included), its keys, every tag of every part at every frame. An older export through Blender
has only its clips' names and keys: each clip is read from its name and keys
(:func:`_keyed_clip`: the part from the LEGS_/TORSO_/BOTH_ prefix, frames, rate, loop and
direction from the part's morph weights), the rows put in the engine's order
(:func:`_engine_order`), and tags at frames between resampled keys solved from the keys
(:func:`~quakemodels.interchange.gltf_read.solve_frames`); its keys, its part tags that
place nothing and a 1-frame clip's fps are lost.

Everything in the glTF is untrusted. Surface, tag and clip names must be names (no
separators, commas, quotes or white space) and fit their fields; image file names are reduced
to ``[A-Za-z0-9_-]`` (:func:`~quakemodels.core.scene.safe_name`), so no name from the file
becomes a path, and nothing outside the output folder is written. :func:`save_player`
writes every file as one (:func:`~quakemodels.core.atomic.write_files_atomic`).
"""

from __future__ import annotations

import math
import os
import re
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ...core.atomic import write_files_atomic
from ...core.records import replace
from ...core.scene import Tag, safe_name
from ...errors import BadValueError, QuakeModelsWarning
from ...interchange.gltf_read import GltfAnimation, frame_positions, read_gltf_scenes, tag_axes
from ...interchange.imported import frame_limited, from_y_up
from ..md3 import VANILLA, Limits, Md3
from .animcfg import ENGINE_ANIMATIONS, QUAKE3_ANIMATIONS, Clip, parse
from .carry import ALL_FRAMES_FPS, CFG_NODE, all_frames_first, config_from_names, tag_name
from .carry import config_text as carried_config_text

# which part node's subtree stops at which child part (see gltf.py's node tree)
PART_TREE = {"lower": ("upper",), "upper": ("head",), "head": ()}
_NAME = re.compile(r"[A-Za-z0-9_.\-]+\Z")  # what a .skin or cfg line can hold as one token
_CLIP = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_KINDS = ("legs", "torso", "both")
# whose morph weights give a clip's frames when its extras are gone (a both clip plays the
# same frames of both parts)
_WEIGHTS_OF = {"legs": ("lower",), "torso": ("upper",), "both": ("upper", "lower")}
_ACTIVE = 1e-6  # a morph weight above this shows its frame
_IMAGE_TYPES = ((b"\x89PNG\r\n\x1a\n", ".png"), (b"\xff\xd8\xff", ".jpg"))


@dataclass(frozen=True)
class PlayerBuild:
    """A converted player, not yet written: ``files`` (file name → bytes, every one of the
    folder's new files), the three ``parts``, each part's largest position ``errors`` (units)
    and the ``clips`` of its animation.cfg."""

    files: dict[str, bytes]
    parts: dict[str, Md3]
    errors: dict[str, float]
    clips: list[Clip]


def _check_name(path: Path, what: str, name: str) -> None:
    if not _NAME.match(name):
        raise BadValueError(
            f"{path}: {what} {name!r} is not a name a .skin file can hold"
            " (letters, digits, '_', '.', '-')",
            field=what,
        )


def _number(path: Path, where: str, value: Any, *, low: float = 0) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise BadValueError(f"{path}: {where} is {value!r}, not a number", field=where)
    if value < low:
        raise BadValueError(f"{path}: {where}={value} is below {low}", field=where)
    return float(value)


def _integer(path: Path, where: str, value: Any, *, low: int = 0, high: int = 1 << 20) -> int:
    number = _number(path, where, value, low=low)
    if not number.is_integer() or number > high:
        raise BadValueError(f"{path}: {where}={value} is not an integer {low}..{high}", field=where)
    return int(number)


def _clip(path: Path, k: int, anim: GltfAnimation) -> Clip:
    """The clip an animation's extras describe (validated; a BadValueError names the field)."""
    at = f"animations[{k}]"
    if not _CLIP.match(anim.name):
        raise BadValueError(f"{path}: {at}.name {anim.name!r} is not a clip name", field="name")
    e = anim.extras
    if e.get("part") not in _KINDS:
        raise BadValueError(
            f"{path}: {at}.extras.part is {e.get('part')!r}, not legs, torso or both"
            " (was the file exported by `quakemodels export <player folder>`?)",
            field="part",
        )
    reverse = e.get("reversed", False)
    if not isinstance(reverse, bool):
        raise BadValueError(f"{path}: {at}.extras.reversed is not true or false", field="reversed")
    clip = Clip(
        name=anim.name,
        first_frame=_integer(path, f"{at}.extras.firstFrame", e.get("firstFrame")),
        num_frames=_integer(path, f"{at}.extras.numFrames", e.get("numFrames"), low=1),
        loop_frames=_integer(path, f"{at}.extras.loopFrames", e.get("loopFrames")),
        fps=_number(path, f"{at}.extras.fps", e.get("fps"), low=1e-3),
        reversed=reverse,
    )
    if clip.loop_frames > clip.num_frames:
        raise BadValueError(
            f"{path}: {at}.extras.loopFrames={clip.loop_frames} exceeds numFrames", field="loop"
        )
    if clip.kind != e["part"]:
        raise BadValueError(
            f"{path}: {at}: clip {clip.name} is named as a {clip.kind} clip but extras.part"
            f" says {e['part']}",
            field="part",
        )
    return clip


def _keyed_clip(path: Path, k: int, anim: GltfAnimation) -> tuple[Clip, bool]:
    """The clip an animation without our ``extras`` plays, and whether its keys gave its fps.

    Blender's exporter (default settings) drops every ``extras`` and resamples every animation
    at the scene's rate (24 fps), LINEAR. What is left: the name, whose prefix says the part
    (as the engine reads it, :attr:`Clip.kind`), and the part's morph weights over time, one
    weight per frame. The frames the weights touch are the clip's; the rate at which the
    frame position (:func:`frame_positions`) moves gives ``1000 / fps`` ms a frame (and its
    sign ``reversed``); a step back from the last frame to an earlier one is the loop, and the
    frame it goes back to gives ``loopFrames``. A one-frame clip has no rate (False).
    """
    at = f"animations[{k}]"
    if not _CLIP.match(anim.name):
        raise BadValueError(f"{path}: {at}.name {anim.name!r} is not a clip name", field="name")
    kind = Clip(anim.name, 0, 1, 0, 1.0).kind
    found = [anim.weights[part] for part in _WEIGHTS_OF[kind] if part in anim.weights]
    if not found:
        raise BadValueError(
            f"{path}: {at} ({anim.name}) has no extras.part and keys no morph weights of the"
            f" {_WEIGHTS_OF[kind][0]} meshes: which frames it plays is lost",
            field="part",
        )
    times, weights = found[0]
    active = weights > _ACTIVE
    shown = np.flatnonzero(active.any(axis=0))
    if not shown.size:
        raise BadValueError(f"{path}: {at} ({anim.name}) shows no frame", field="part")
    first, num = int(shown[0]), int(shown[-1] - shown[0]) + 1
    position = frame_positions(weights)
    # a row that blends two frames that are not neighbours is the loop's step back
    jumps = np.flatnonzero(np.isnan(position) & (active.sum(axis=1) == 2))
    end = int(jumps[0]) if jumps.size else len(position)
    run = np.flatnonzero(np.isfinite(position[:end]))
    fps, reverse, known = 15.0, False, False
    t, f = times[run], position[run]
    if len(run) >= 2 and np.ptp(f) > 0 and np.ptp(t) > 0:
        slope = float(np.polyfit(t, f, 1)[0])  # frames per second
        reverse = slope < 0
        lerp = 1000.0 / abs(slope)  # ms a frame
        # the engine plays 1000 / fps truncated to whole ms: the whole fps that gives the
        # measured step, else the measured rate
        whole = max(round(1000.0 / lerp), 1)
        fps = float(whole) if abs(int(1000 / whole) - lerp) <= 0.5 else round(1000.0 / lerp, 3)
        known = True
    loop = 0
    if jumps.size:
        pair = np.flatnonzero(active[jumps[0]])
        # forward: from the last frame back to first + num - loop; reversed: from the first
        # frame back to first + loop - 1
        loop = int(pair[-1]) - first + 1 if reverse else first + num - int(pair[0])
        loop = min(max(loop, 0), num)
    return Clip(anim.name, first, num, loop, fps, reverse), known


def _engine_order(clips: list[Clip]) -> list[Clip]:
    """The clips in the order animation.cfg needs when the file lost its own (Blender's
    exporter sorts animations by name): ioquake3 reads rows by position, so a table of the
    engine's names follows the engine's order; a longer list of its own (Tremulous,
    Unvanquished) goes by part (both, torso, legs: the legs rows last, where the engine's
    ``skip`` applies), then first frame, engine names before others at the same frame."""
    rank = {name: i for i, name in enumerate(ENGINE_ANIMATIONS)}
    if all(c.name.upper() in rank for c in clips):
        return sorted(clips, key=lambda c: rank[c.name.upper()])
    part = {"both": 0, "torso": 1, "legs": 2}
    return sorted(
        clips,
        key=lambda c: (part[c.kind], c.first_frame, rank.get(c.name.upper(), len(rank))),
    )


def _clips(path: Path, animations: list[GltfAnimation]) -> list[Clip]:
    """Every animation's clip: from our extras, else from its name and keys
    (:func:`_keyed_clip`); then in the table's order (:func:`_engine_order`) when the file
    lost it: some extras are gone, or the names come sorted as Blender's exporter writes them."""
    clips: list[Clip] = []
    unknown: list[int] = []  # one-frame clips whose fps the keys do not give
    for k, anim in enumerate(animations):
        if "part" in anim.extras:
            clips.append(_clip(path, k, anim))
            continue
        clip, known = _keyed_clip(path, k, anim)
        if not known:
            unknown.append(k)
        clips.append(clip)
    for k in unknown:
        # a held pose plays at any rate: take the rate of a clip of its part around its frame
        c = clips[k]
        around = [
            o
            for i, o in enumerate(clips)
            if i not in unknown
            and o.kind == c.kind
            and o.first_frame <= c.first_frame < o.first_frame + o.num_frames
        ]
        if around:
            clips[k] = replace(c, fps=around[0].fps)
    names = [c.name.upper() for c in clips]
    lost = len(clips) > 1 and (
        len(unknown) > 0
        or names == sorted(names)
        or any("part" not in a.extras for a in animations)
    )
    return _engine_order(clips) if lost else clips


def _legs_range(clips: list[Clip]) -> range:
    """The rows the engine shifts by ``skip``: LEGS_WALKCR up to (not including)
    TORSO_GETFLAG, as animcfg.parse finds them."""
    index = {c.name.upper(): i for i, c in enumerate(clips)}
    walk = index.get("LEGS_WALKCR")
    if walk is None or "TORSO_GESTURE" not in index:
        return range(0)
    return range(walk, max(index.get("TORSO_GETFLAG", len(clips)), walk))


def config_text(clips: list[Clip], keys: dict[str, str]) -> str:
    """The text of an animation.cfg with these clips (frames as the parts index them) and
    keys. The legs rows get the conventional ``skip``: the first legs frame follows the last
    torso frame (any skip reads back the same; this one gives the numbers modellers expect)."""
    legs = _legs_range(clips)
    skip = 0
    if legs:
        others = [c for i, c in enumerate(clips) if i not in legs]
        end = max((c.first_frame + c.num_frames for c in others), default=0)
        skip = max(end - clips[legs.start].first_frame, -min(clips[i].first_frame for i in legs))
    lines = ["// animation config file (written by quakemodels)", ""]
    lines += [f"{key}\t{value}".rstrip() for key, value in keys.items()]
    lines += ["", "// first frame, num frames, looping frames, frames per second", ""]
    for i, c in enumerate(clips):
        first = c.first_frame + (skip if i in legs else 0)
        num = -c.num_frames if c.reversed else c.num_frames
        lines.append(f"{first}\t{num}\t{c.loop_frames}\t{c.fps:.9g}\t\t// {c.name}")
    return "\n".join(lines) + "\n"


def _keys(path: Path, extras: dict[str, Any]) -> dict[str, str]:
    """The cfg keys the scene's extras kept, each a word and words on one line."""
    keys = extras.get("animationKeys", {})
    if not isinstance(keys, dict):
        raise BadValueError(f"{path}: scene extras.animationKeys is not an object", field="keys")
    return _check_keys(path, keys)


def _check_keys(path: Path, keys: dict[Any, Any]) -> dict[str, str]:
    """``keys`` checked to be cfg keys, each a word and words on one line; lower-cased."""
    out = {}
    for key, value in keys.items():
        if not (
            _CLIP.match(key)
            and isinstance(value, str)
            and value.isprintable()
            and "//" not in value
            and "/*" not in value
        ):
            raise BadValueError(
                f"{path}: animationKeys {key!r}: {value!r} is not a cfg key and its words",
                field="keys",
            )
        out[key.lower()] = value
    return out


def _images(
    path: Path, name: str, found: dict[str, dict[str, tuple[str, bytes]]]
) -> tuple[dict[str, dict[str, str]], dict[str, bytes]]:
    """Per part, surface → texture path (game-root relative), and the image files to write
    (safe file name → bytes; one file per distinct image)."""
    files: dict[str, bytes] = {}
    by_data: dict[bytes, str] = {}
    textures: dict[str, dict[str, str]] = {}
    for part, surfaces in found.items():
        textures[part] = {}
        for surface, (image, data) in surfaces.items():
            suffix = next((s for magic, s in _IMAGE_TYPES if data.startswith(magic)), None)
            if suffix is None:
                continue  # not an image the engines load: the surface gets no texture
            file = by_data.get(data)
            if file is None:
                stem = safe_name(Path(image).stem, "skin")[:40]
                file, k = stem + suffix, 1
                while file in files or file.lower().endswith((".md3", ".skin", ".cfg")):
                    k += 1
                    file = f"{stem}_{k}{suffix}"
                files[file] = data
                by_data[data] = file
            textures[part][surface] = f"models/players/{name}/{file}"
    return textures, files


def player_from_gltf(
    path: str | os.PathLike[str], name: str, *, limits: Limits = VANILLA
) -> PlayerBuild:
    """Encode the player glTF at ``path`` as the files of a player folder called ``name``
    (see the module doc). Nothing is written; every problem is a ModelFormatError."""
    p = Path(path)
    name = safe_name(name, "player")
    try:
        read = read_gltf_scenes(p, PART_TREE, limits=frame_limited(limits.max_frames))
    except BadValueError as e:
        if e.field != "nodes":
            raise
        raise BadValueError(
            f"{e} — not a player glTF (`quakemodels export <player folder> -o x.glb` writes one:"
            " nodes lower, upper and head); to convert one model give an .md3 output",
            field="nodes",
        ) from e
    textures, files = _images(p, name, read.images)
    parts: dict[str, Md3] = {}
    errors: dict[str, float] = {}
    out: dict[str, bytes] = {}
    runs = {first: a for a in read.animations if (first := all_frames_first(a.name)) is not None}
    for part, scene in read.scenes.items():
        tags = _all_frame_tags(scene.tags, runs) if runs else scene.tags
        scene = replace(scene, tags=_part_tags(tags, part))
        for s in scene.surfaces:
            _check_name(p, "surface name", s.name)
        for t in scene.tags:
            _check_name(p, "tag name", t.name)
        shaded = replace(
            scene,
            surfaces=[
                replace(s, skin_names=(textures[part][s.name],) if s.name in textures[part] else ())
                for s in scene.surfaces
            ],
        )
        result = Md3.from_scene(shaded, name=f"models/players/{name}/{part}.md3", limits=limits)
        parts[part] = result.model
        errors[part] = float(result.errors.max()) if result.errors.size else 0.0
        out[f"{part}.md3"] = result.model.data
        if textures[part]:
            lines = [f"{s},{textures[part][s]}" for s in textures[part]]
            lines += [f"{t.name}," for t in scene.tags]
            out[f"{part}_default.skin"] = ("\n".join(lines) + "\n").encode("ascii")
    animations = [a for a in read.animations if all_frames_first(a.name) is None]
    carried = config_from_names(read.names, str(p))
    if carried is not None:
        clips = list(carried.clips)
        text = carried_config_text(carried)
        _check_keys(p, carried.keys)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a short table is the file's, reported by check
            again = parse(text)
        if [_row(c) for c in again.clips] != [_row(c) for c in clips] or again.keys != carried.keys:
            raise BadValueError(f"{p}: the {CFG_NODE} nodes do not read back the same", field="cfg")
        names = {c.name.upper() for c in clips}
        left = [a.name for a in animations if a.name.upper() not in names]
        if left:
            warnings.warn(
                f"{p}: animations {', '.join(left)} are not rows of the {CFG_NODE} nodes;"
                " animation.cfg leaves them out",
                QuakeModelsWarning,
                stacklevel=2,
            )
        out["animation.cfg"] = text.encode("ascii")
        out.update(files)
        return PlayerBuild(out, parts, errors, clips)
    clips = _clips(p, animations)
    if clips:
        keys = _keys(p, read.extras)
        text = config_text(clips, keys)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a short table is the file's, reported by check
            again = parse(text)
        if again.keys != keys:
            raise BadValueError(
                f"{p}: animationKeys {keys} would read back as {again.keys}", field="keys"
            )
        if [_row(c) for c in again.clips] != [_row(c) for c in clips]:
            raise BadValueError(
                f"{p}: the clips do not survive animation.cfg's rules (the engine names rows"
                f" by position when any name lacks a {'/'.join(('BOTH_', 'TORSO_', 'LEGS_'))}"
                f" prefix; its first {len(QUAKE3_ANIMATIONS)} rows are fixed)",
                field="animations",
            )
        out["animation.cfg"] = text.encode("ascii")
    out.update(files)
    return PlayerBuild(out, parts, errors, clips)


def _at(
    times: npt.NDArray[np.float64],
    values: npt.NDArray[np.float64],
    at: npt.NDArray[np.float64],
    rotation: bool,
) -> npt.NDArray[np.float64]:
    """(N,C) values of a LINEAR channel at times ``at`` (a key's own value within 1e-4 s of
    it; quaternions on one side and normalised)."""
    order = np.argsort(times, kind="stable")
    times, values = times[order], values[order]
    k = np.clip(np.searchsorted(times, at), 1, max(len(times) - 1, 1))
    if len(times) == 1:
        return np.repeat(values[:1], len(at), axis=0)
    a, b = values[k - 1], values[k]
    if rotation:
        b = np.where((a * b).sum(axis=1, keepdims=True) < 0, -b, b)
    span = times[k] - times[k - 1]
    s = np.clip((at - times[k - 1]) / np.where(span > 0, span, 1.0), 0.0, 1.0)[:, None]
    out = a + (b - a) * s
    near = np.abs(times[k - 1] - at) < 1e-4
    out[near] = a[near]
    near = np.abs(times[k] - at) < 1e-4
    out[near] = values[k][near]
    if rotation:
        out = out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-12)
    return np.asarray(out, np.float64)


def _all_frame_tags(tags: list[Tag], runs: dict[int, GltfAnimation]) -> list[Tag]:
    """``tags`` with every frame the :data:`~.carry.ALL_FRAMES` runs key (run ``first``:
    frame ``first + k`` at k / 24 s, up to the next run's first frame): they hold every frame
    as the export wrote it, so they win over what the clips' keys give (edit a tag there)."""
    firsts = sorted(runs)
    out = []
    for t in tags:
        origins, axes = t.origins.copy(), t.axes.copy()
        count = len(origins)
        for i, first in enumerate(firsts):
            anim = runs[first]
            moves = anim.tags.get((t.name, "translation"))
            turns = anim.tags.get((t.name, "rotation"))
            end = min(firsts[i + 1] if i + 1 < len(firsts) else count, count)
            if moves is None or turns is None or end <= first:
                continue
            at = np.arange(end - first) / ALL_FRAMES_FPS
            moved = from_y_up(_at(*moves, at, False).astype(np.float32))
            rotations = _at(*turns, at, True)
            if not (np.isfinite(moved).all() and np.isfinite(rotations).all()):
                raise BadValueError(f"{anim.name}: tag {t.name!r} has values that are not finite")
            origins[first:end], axes[first:end] = moved, tag_axes(rotations)
        out.append(replace(t, origins=origins, axes=axes))
    return out


def _part_tags(tags: list[Tag], part: str) -> list[Tag]:
    """A part's tags named as the MD3 names them (``<tag>@<part>`` nodes: see .carry), each
    name once (the first: a node before an older export's extras)."""
    out: dict[str, Tag] = {}
    for t in tags:
        out.setdefault(tag_name(t.name, part), replace(t, name=tag_name(t.name, part)))
    return list(out.values())


def _row(c: Clip) -> tuple[str, int, int, int, float, bool]:
    return (c.name.upper(), c.first_frame, c.num_frames, c.loop_frames, c.fps, c.reversed)


def save_player(build: PlayerBuild, folder: str | os.PathLike[str]) -> list[Path]:
    """Write a built player's files into ``folder`` (created if needed) as one: all or none."""
    return write_files_atomic(folder, build.files)


__all__ = ["PART_TREE", "PlayerBuild", "config_text", "player_from_gltf", "save_player"]
