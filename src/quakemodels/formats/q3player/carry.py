"""What a player glTF carries in the things Blender keeps: node and animation names.

Blender 3.4's glTF exporter, at its default settings, drops every ``extras``, sorts the
animations by name and resamples every channel at the scene's 24 fps; it keeps node names
(up to 63 bytes), animation names, mesh, material and image names, morph targets, and a
channel keyed on whole 24 fps frames exactly. So :mod:`.gltf` writes, besides the clips:

* **the animation.cfg** as empty nodes under a node named ``animation.cfg``: ``cfg NNN
  <text>``, ``NNN`` the text's place (Blender reorders siblings). The keys first, a line a
  node (``cfg 000 sex m``, ``cfg 001 footsteps boot``, ``cfg 002 headoffset 0 0 -4``...),
  then the rows as the file numbers them (first frame with the legs' ``skip``, frames,
  negative when reversed, looping frames, fps, name), as many to a node as fit its 63 bytes,
  ``; ``-separated: ``cfg 002 0 30 0 25 BOTH_DEATH1; 29 1 0 25 BOTH_DEAD1``. A text longer
  than a node name holds goes on in nodes ``cfg NNN+1 <more>``, ``cfg NNN+2``...
  :func:`config_from_names` reads them back into the same
  :class:`~.animcfg.AnimationConfig` (rows by position, as the engine reads them, with their
  names, numbers and rates, 1-frame clips included).
* **every tag of every part** as a node: the tags a part places another by (lower's
  ``tag_torso``, upper's ``tag_head`` and ``tag_weapon``) as before, every other tag as an
  empty under its part node named as the tag, or ``<tag>@<part>`` when another part has a tag
  of that name (upper's own ``tag_torso``, head's ``tag_head``): Blender renames a second
  object of one name. :func:`tag_name` takes the suffix off again.
* **every frame** in one more animation, :data:`ALL_FRAMES`: frame ``f`` of each part at
  ``f / 24`` s (every part's morph weights one-hot on it, every tag node of the part at its
  frame-``f`` transform), and a closing key at ``F / 24`` s holding the last frame. Its keys
  are Blender's own frames, so they come back as written and give every tag at every frame.
  It is no clip: the way back leaves it out of animation.cfg.

The rest pose is a standing frame (:func:`rest_frames`: TORSO_STAND's first frame for the
torso, LEGS_IDLE's for the legs; each mesh's default ``weights`` one-hot on it, each tag node
at it), and the first animation is the torso's stand clip (:func:`first_clip`): Blender makes
the first animation active, and the parts it does not key stay in the rest pose, so the player
opens standing.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterable, Mapping

from ...errors import BadValueError
from .animcfg import ENGINE_ANIMATIONS, AnimationConfig, Clip, parse

ALL_FRAMES = "ALL_FRAMES"
ALL_FRAMES_FPS = 24.0  # Blender's default scene rate: keys on its frames survive resampling
CFG_NODE = "animation.cfg"
NAME_BYTES = 63  # the longest object name Blender keeps (MAX_ID_NAME - 3)
_LINE = re.compile(r"cfg (\d{3,6})(?:\+(\d{1,4}))? (.*)\Z", re.S)
_RUN = re.compile(ALL_FRAMES + r"_(\d{1,7})\Z")
_PRINTABLE = re.compile(r"[ -~]*\Z")


def all_frames_run(durations: Iterable[float]) -> int:
    """Frames per :data:`ALL_FRAMES` animation: as many as the longest clip spans at 24 fps
    (at least 24). Blender's exporter samples every animation over the frames of the longest
    one, for every object: one long run would make every clip cost as much as it."""
    longest = max((float(d) for d in durations), default=0.0)
    return max(24, int(longest * ALL_FRAMES_FPS))


def all_frames_first(name: str) -> int | None:
    """The first frame of the :data:`ALL_FRAMES` run called ``name``; None for another name."""
    m = _RUN.match(name)
    return int(m.group(1)) if m else None


def config_lines(cfg: AnimationConfig) -> list[str]:
    """The lines of an animation.cfg holding ``cfg``'s keys (as written) and rows (numbers
    as the file writes them: legs rows with the ``skip``; reversed rows negative)."""
    lines = [f"{key} {value}".rstrip() for key, value in cfg.keys.items()]
    for c in cfg.clips:
        num = -c.num_frames if c.reversed else c.num_frames
        lines.append(f"{c.file_first_frame} {num} {c.loop_frames} {c.fps:.9g} // {c.name}")
    return lines


def _units(cfg: AnimationConfig) -> list[str]:
    """The texts the cfg nodes hold: each key line, then the rows ``first num loop fps NAME``
    packed ``; ``-separated into as few texts as fit a node name (fewer objects: Blender's
    exporter visits every object at every frame of every action)."""
    keys = [f"{key} {value}".rstrip() for key, value in cfg.keys.items()]
    units: list[str] = []
    room = NAME_BYTES - len("cfg 000 ")
    for c in cfg.clips:
        num = -c.num_frames if c.reversed else c.num_frames
        row = f"{c.file_first_frame} {num} {c.loop_frames} {c.fps:.9g} {c.name}"
        if units and len(units[-1]) + 2 + len(row) <= room:
            units[-1] += "; " + row
        else:
            units.append(row)
    return keys + units


def config_node_names(cfg: AnimationConfig) -> list[str]:
    """The names of the nodes that carry ``cfg`` (see the module doc), in order."""
    names = []
    for k, unit in enumerate(_units(cfg)):
        head, rest, piece = f"cfg {k:03d} ", unit, 0
        while True:
            room = NAME_BYTES - len(head)
            names.append(head + rest[:room])
            rest = rest[room:]
            if not rest:
                break
            piece += 1
            head = f"cfg {k:03d}+{piece} "
    return names


def config_from_names(names: Iterable[str], where: str) -> AnimationConfig | None:
    """The animation.cfg the ``cfg NNN`` node names among ``names`` carry; None when there
    are none. Raises BadValueError for names that are not lines of a cfg (untrusted)."""
    units: dict[int, dict[int, str]] = {}
    for name in names:
        m = _LINE.match(name)
        if m is None:
            continue
        text = m.group(3)
        if not _PRINTABLE.match(text) or "/*" in text or "//" in text or '"' in text:
            raise BadValueError(f"{where}: node {name!r} is not a line of an animation.cfg")
        pieces = units.setdefault(int(m.group(1)), {})
        piece = int(m.group(2) or 0)
        if piece in pieces:
            raise BadValueError(f"{where}: two nodes hold animation.cfg line {m.group(1)}")
        pieces[piece] = text
    if not units:
        return None
    lines = []
    for number in sorted(units):
        pieces = units[number]
        if sorted(pieces) != list(range(len(pieces))):
            raise BadValueError(f"{where}: animation.cfg line {number} lacks a piece", field="cfg")
        text = "".join(pieces[k] for k in range(len(pieces)))
        if text[:1].isdigit() or text[:1] == "-":  # rows: first num loop fps NAME; ...
            for row in text.split(";"):
                *numbers, name = row.split() or [""]
                lines.append(" ".join(numbers) + " // " + name)
        else:
            lines.append(text)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a short table is the file's, reported by check
        return parse("\n".join(lines) + "\n", path=f"{where} (node {CFG_NODE})")


def config_text(cfg: AnimationConfig) -> str:
    """The text of the animation.cfg ``cfg`` (keys, then rows as the file numbers them)."""
    lines = ["// animation config file (written by quakemodels)", ""]
    lines += [line.replace(" ", "\t", 1) for line in config_lines(cfg)[: len(cfg.keys)]]
    lines += ["", "// first frame, num frames, looping frames, frames per second", ""]
    for line in config_lines(cfg)[len(cfg.keys) :]:
        numbers, name = line.split(" // ")
        lines.append("\t".join(numbers.split()) + "\t\t// " + name)
    return "\n".join(lines) + "\n"


def _engine_clip(cfg: AnimationConfig, name: str) -> Clip | None:
    """The clip called ``name``, else the row the engine reads as ``name`` (by position)."""
    clip = cfg.get(name)
    if clip is None:
        k = ENGINE_ANIMATIONS.index(name)
        clip = cfg.clips[k] if k < len(cfg.clips) else None
    return clip


def rest_frames(cfg: AnimationConfig, num_frames: Mapping[str, int]) -> dict[str, int]:
    """The frame each part stands in at rest: TORSO_STAND's first for ``upper``, LEGS_IDLE's
    for ``lower`` (by name, else the engine's row), 0 for the rest and any missing clip;
    clamped to the part's ``num_frames``."""
    out = {part: 0 for part in num_frames}
    for part, name in (("upper", "TORSO_STAND"), ("lower", "LEGS_IDLE")):
        clip = _engine_clip(cfg, name)
        if clip is not None and part in out:
            out[part] = min(max(clip.first_frame, 0), max(num_frames[part] - 1, 0))
    return out


def first_clip(cfg: AnimationConfig) -> Clip | None:
    """The clip the export puts first (Blender shows it on opening): the torso's stand."""
    clip = _engine_clip(cfg, "TORSO_STAND")
    return clip if clip is not None and clip.kind == "torso" else None


def tag_node_names(
    tags: Mapping[str, Iterable[str]], placing: Mapping[str, Iterable[str]]
) -> dict[str, dict[str, str]]:
    """Per part, tag → the name of its node. ``tags``: part → its tag names; ``placing``:
    part → the tags it places another part by (always nodes, called as the tag). Any other
    tag is called as itself unless another part has a tag of that name, then
    ``<tag>@<part>``."""
    every: dict[str, dict[str, None]] = {
        part: dict.fromkeys([*placing.get(part, ()), *names]) for part, names in tags.items()
    }
    out: dict[str, dict[str, str]] = {}
    for part, names in every.items():
        own = set(placing.get(part, ()))
        out[part] = {}
        for t in names:
            shared = any(t in other for p, other in every.items() if p != part)
            out[part][t] = f"{t}@{part}" if shared and t not in own else t
    return out


def tag_name(node_name: str, part: str) -> str:
    """The tag a node called ``node_name`` holds in ``part`` (``<tag>@<part>`` → ``<tag>``)."""
    suffix = f"@{part}"
    return node_name[: -len(suffix)] if node_name.endswith(suffix) else node_name


__all__ = [
    "ALL_FRAMES",
    "ALL_FRAMES_FPS",
    "CFG_NODE",
    "all_frames_first",
    "all_frames_run",
    "config_from_names",
    "config_lines",
    "config_node_names",
    "config_text",
    "first_clip",
    "rest_frames",
    "tag_name",
    "tag_node_names",
]
