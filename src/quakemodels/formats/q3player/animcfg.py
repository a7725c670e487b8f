"""Quake III ``animation.cfg``: the clip table that drives a player's legs and torso.

The rules follow ioquake3's ``CG_ParseAnimationFile`` (``code/cgame/cg_players.c``), which
Tremulous and Unvanquished keep unchanged for MD3 players:

* The text is read as a stream of tokens (``COM_Parse``): whitespace and line breaks separate
  them, ``//`` and ``/* */`` comments are skipped, ``"quoted strings"`` are one token.
* Optional keys come first: ``sex m|f|n``, ``footsteps <type>``, ``headoffset x y z``,
  ``fixedlegs``, ``fixedtorso``. The first token that starts with a digit starts the table.
  ioquake3 prints and skips any other word; here an unknown key is kept in ``keys`` with the
  words after it on its line as its value (so ``modelScale 1.2``, which Unvanquished reads,
  keeps its number instead of being read as the first frame of the table).
* The table is groups of four numbers: ``first num looping fps`` (``atoi``, ``atoi``,
  ``atoi``, ``atof``). A negative ``num`` plays the clip reversed; ``fps`` 0 is read as 1;
  ``frameLerp = 1000 / fps`` milliseconds, truncated to an int as ``animation_t`` stores it.
* Clip names come from the engine's fixed order (:data:`QUAKE3_ANIMATIONS`, then Team Arena's
  :data:`TEAM_ARENA_ANIMATIONS`), or, when every row ends with a ``// NAME`` comment (as
  Tremulous and Unvanquished files with their own longer lists do), from those comments.
* The legs model leaves out the torso-only frames, so the engine shifts every clip from
  ``LEGS_WALKCR`` up to (not including) ``TORSO_GETFLAG`` down by
  ``skip = first(LEGS_WALKCR) - first(TORSO_GESTURE)``, both as written in the file.
  :attr:`Clip.first_frame` is the shifted frame (the index into the part that plays it),
  :attr:`Clip.file_first_frame` the one written in the file.

Which part a clip drives follows its name: ``LEGS_*`` the legs, ``TORSO_*`` the torso,
``BOTH_*`` (and any other name) both.
"""

from __future__ import annotations

import math
import os
import re
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ...errors import AnimationConfigError, QuakeModelsWarning

# bg_public.h animNumber_t, in file order: Quake III's 25 animations ...
QUAKE3_ANIMATIONS = (
    "BOTH_DEATH1",
    "BOTH_DEAD1",
    "BOTH_DEATH2",
    "BOTH_DEAD2",
    "BOTH_DEATH3",
    "BOTH_DEAD3",
    "TORSO_GESTURE",
    "TORSO_ATTACK",
    "TORSO_ATTACK2",
    "TORSO_DROP",
    "TORSO_RAISE",
    "TORSO_STAND",
    "TORSO_STAND2",
    "LEGS_WALKCR",
    "LEGS_WALK",
    "LEGS_RUN",
    "LEGS_BACK",
    "LEGS_SWIM",
    "LEGS_JUMP",
    "LEGS_LAND",
    "LEGS_JUMPB",
    "LEGS_LANDB",
    "LEGS_IDLE",
    "LEGS_IDLECR",
    "LEGS_TURN",
)
# ... then Team Arena's (MAX_ANIMATIONS = 31). ioquake3 copies TORSO_GESTURE into these when
# the file stops after the 25th row; a file that stops earlier fails to load.
TEAM_ARENA_ANIMATIONS = (
    "TORSO_GETFLAG",
    "TORSO_GUARDBASE",
    "TORSO_PATROL",
    "TORSO_FOLLOWME",
    "TORSO_AFFIRMATIVE",
    "TORSO_NEGATIVE",
)
ENGINE_ANIMATIONS = QUAKE3_ANIMATIONS + TEAM_ARENA_ANIMATIONS
MAX_ANIMATIONS = len(ENGINE_ANIMATIONS)
# the largest file CG_ParseAnimationFile reads (char text[20000], and len must be < 19999)
MAX_FILE_SIZE = 19998

FOOTSTEPS = ("default", "normal", "boot", "flesh", "mech", "energy")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_PREFIXES = ("BOTH_", "TORSO_", "LEGS_")


@dataclass(frozen=True)
class Token:
    """One ``COM_Parse`` token: its text, byte ``offset`` and 1-based ``line``."""

    text: str
    offset: int
    line: int


def tokenize(text: str) -> tuple[list[Token], dict[int, str]]:
    """The tokens of ``text`` as ``COM_Parse`` splits them, and each line's ``//`` comment.

    Returns (tokens, comments): ``comments[line]`` is the text after ``//`` on that line,
    stripped (the last one when a line has several).
    """
    tokens: list[Token] = []
    comments: dict[int, str] = {}
    i, n, line = 0, len(text), 1
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif c <= " ":
            i += 1
        elif text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            comments[line] = text[i + 2 : end].strip()
            i = end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            line += text.count("\n", i, end)
            i = end
        elif c == '"':
            end = text.find('"', i + 1)
            end = n if end < 0 else end
            tokens.append(Token(text[i + 1 : end], i, line))
            line += text.count("\n", i, end)
            i = end + 1
        else:
            start = i
            while i < n and text[i] > " ":
                i += 1
            tokens.append(Token(text[start:i], start, line))
    return tokens, comments


def _atoi(token: Token, what: str) -> int:
    """C ``atoi`` of a table token, which must be a whole number (strictly; see below)."""
    # atoi("12abc") is 12 and atoi("x") is 0 in the engine; a table with such a token is
    # broken, and reading it silently as 0 would hide that, so it is an error here.
    if not re.fullmatch(r"[+-]?\d+", token.text):
        raise AnimationConfigError(
            f"{what}={token.text!r} at offset {token.offset} (line {token.line}) is not a"
            " whole number",
            field=what,
            offset=token.offset,
        )
    return int(token.text)


def _atof(token: Token, what: str) -> float:
    try:
        value = float(token.text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise AnimationConfigError(
            f"{what}={token.text!r} at offset {token.offset} (line {token.line}) is not a number",
            field=what,
            offset=token.offset,
        )
    return value


@dataclass(frozen=True)
class Clip:
    """One row of the table.

    ``first_frame`` is the frame index in the part that plays it (after the legs offset);
    ``file_first_frame`` as written. ``num_frames`` is positive (``reversed`` when the file
    gave it negative); ``loop_frames`` how many of the last frames repeat (0: play once and
    hold the last frame); ``fps`` as written (0 read as 1); ``line`` the row's line.
    """

    name: str
    first_frame: int
    num_frames: int
    loop_frames: int
    fps: float
    reversed: bool = False
    file_first_frame: int = 0
    line: int = 0

    @property
    def kind(self) -> str:
        """``"legs"``, ``"torso"`` or ``"both"`` from the name's prefix (other names: both)."""
        upper = self.name.upper()
        if upper.startswith("LEGS_"):
            return "legs"
        if upper.startswith("TORSO_"):
            return "torso"
        return "both"

    @property
    def frame_lerp(self) -> int:
        """Milliseconds per frame: ``1000 / fps`` truncated, as the engine's int stores it."""
        return max(int(1000 / self.fps), 1) if self.fps > 0 else 1000

    @property
    def looping(self) -> bool:
        """True when the clip repeats (``loop_frames`` > 0)."""
        return self.loop_frames > 0

    @property
    def duration(self) -> float:
        """Seconds the clip takes: ``num_frames`` steps when it loops back to its start,
        ``num_frames - 1`` when it plays once and holds its last frame."""
        steps = self.num_frames if self.looping else max(self.num_frames - 1, 0)
        return steps * self.frame_lerp / 1000.0

    def step(self, k: int) -> int:
        """The frame shown after ``k`` frame steps (k >= 0), as CG_RunLerpFrame picks it."""
        f = k
        n = self.num_frames
        if f >= n:
            f -= n
            f = f % self.loop_frames + n - self.loop_frames if self.loop_frames else n - 1
        if self.reversed:
            return self.first_frame + n - 1 - f
        return self.first_frame + f

    def frame_at(self, time: float) -> tuple[int, int, float]:
        """(frame a, frame b, fraction) shown ``time`` seconds after the clip started.

        The engine steps one frame every ``frame_lerp`` ms and draws ``lerp(a, b, fraction)``
        between steps; ``time`` below 0 is read as 0.
        """
        ms = max(float(time), 0.0) * 1000.0
        lerp = self.frame_lerp
        k = int(ms // lerp)
        frac = (ms - k * lerp) / lerp
        a, b = self.step(k), self.step(k + 1)
        if a == b:
            frac = 0.0
        return a, b, frac

    def frames(self) -> list[int]:
        """The frames the clip plays, in order, once through (num_frames of them)."""
        return [self.step(k) for k in range(self.num_frames)]


@dataclass
class AnimationConfig:
    """A parsed ``animation.cfg``.

    ``clips`` in file order (also by name through ``[name]`` and ``get``); ``sex`` ``"m"``,
    ``"f"`` or ``"n"``; ``footsteps`` as written (``"normal"`` when absent); ``head_offset``
    three floats; ``fixed_legs`` / ``fixed_torso``; ``keys`` every key before the table as
    written (lower-case key → its words); ``legs_offset`` the ``skip`` subtracted from the
    legs clips; ``names_from`` ``"comments"`` or ``"engine"``; ``path`` where it came from.
    """

    clips: list[Clip] = field(default_factory=list)
    sex: str = "m"
    footsteps: str = "normal"
    head_offset: tuple[float, float, float] = (0.0, 0.0, 0.0)
    fixed_legs: bool = False
    fixed_torso: bool = False
    keys: dict[str, str] = field(default_factory=dict)
    legs_offset: int = 0
    names_from: str = "engine"
    path: str | None = None

    def __iter__(self) -> Iterator[Clip]:
        return iter(self.clips)

    def __len__(self) -> int:
        return len(self.clips)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.get(name) is not None

    def get(self, name: str) -> Clip | None:
        """The clip called ``name`` (any case), or None."""
        upper = name.upper()
        for clip in self.clips:
            if clip.name.upper() == upper:
                return clip
        return None

    def __getitem__(self, name: str) -> Clip:
        clip = self.get(name)
        if clip is None:
            names = ", ".join(c.name for c in self.clips)
            raise KeyError(f"no clip {name!r} in {self.path or 'animation.cfg'}; clips: {names}")
        return clip

    @property
    def names(self) -> list[str]:
        """Clip names in file order."""
        return [c.name for c in self.clips]

    @classmethod
    def from_file(cls, path: str | os.PathLike[str]) -> AnimationConfig:
        """Read and parse ``path``."""
        data = Path(path).read_bytes()
        return parse(data, path=os.fspath(path))

    @classmethod
    def from_text(cls, text: str | bytes, path: str | None = None) -> AnimationConfig:
        """Parse the text of an ``animation.cfg``."""
        return parse(text, path=path)


def _warn(message: str) -> None:
    warnings.warn(message, QuakeModelsWarning, stacklevel=4)


def _read_keys(tokens: list[Token], cfg: AnimationConfig) -> int:
    """Read the optional keys into ``cfg``; the index of the table's first token."""
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        key = tok.text.lower()
        if tok.text[:1].isdigit():
            return i
        if key == "footsteps":
            if i + 1 < len(tokens):
                cfg.footsteps = tokens[i + 1].text
                cfg.keys[key] = tokens[i + 1].text
            i += 2
        elif key == "sex":
            if i + 1 < len(tokens):
                value = tokens[i + 1].text
                cfg.keys[key] = value
                first = value[:1].lower()
                cfg.sex = first if first in ("f", "n") else "m"
            i += 2
        elif key == "headoffset":
            values = []
            for t in tokens[i + 1 : i + 4]:
                try:
                    values.append(float(t.text))
                except ValueError:
                    values.append(0.0)  # atof of a word is 0
            values += [0.0] * (3 - len(values))
            cfg.head_offset = (values[0], values[1], values[2])
            cfg.keys[key] = " ".join(t.text for t in tokens[i + 1 : i + 4])
            i += 4
        elif key in ("fixedlegs", "fixedtorso"):
            setattr(cfg, "fixed_legs" if key == "fixedlegs" else "fixed_torso", True)
            cfg.keys[key] = ""
            i += 1
        else:
            rest = [t for t in tokens[i + 1 : i + 64] if t.line == tok.line]
            cfg.keys[key] = " ".join(t.text for t in rest)
            i += 1 + len(rest)
    return i


def parse(data: str | bytes, *, path: str | None = None) -> AnimationConfig:
    """Parse an ``animation.cfg`` (text or bytes; bytes are read as Latin-1).

    Raises :class:`AnimationConfigError` for a non-number in the table or a row cut short;
    warns (:class:`QuakeModelsWarning`) for a file ioquake3 would refuse but that still
    gives a table (too few rows, too long) and for rows past the engine's list.
    """
    where = path or "animation.cfg"
    text = data.decode("latin-1") if isinstance(data, bytes) else data
    if len(text) > MAX_FILE_SIZE:
        _warn(f"{where}: {len(text)} bytes; ioquake3 refuses files over {MAX_FILE_SIZE} bytes")
    tokens, comments = tokenize(text)
    cfg = AnimationConfig(path=path)
    start = _read_keys(tokens, cfg)

    rows: list[tuple[list[Token], str | None]] = []
    table = tokens[start:]
    fields = ("first_frame", "num_frames", "loop_frames", "fps")
    for r in range(0, len(table), 4):
        row = table[r : r + 4]
        if len(row) < 4:
            last = row[-1]
            raise AnimationConfigError(
                f"{where}: row {len(rows) + 1} (line {row[0].line}) stops after"
                f" {fields[len(row) - 1]}={last.text!r} at offset {last.offset}; {fields[len(row)]}"
                " is missing",
                field=fields[len(row)],
                offset=last.offset + len(last.text),
            )
        comment = comments.get(row[-1].line)
        name = comment.split()[0] if comment and comment.split() else None
        rows.append((row, name if name and _NAME.match(name) else None))

    names = [n for _, n in rows]
    named = (
        bool(rows)
        and all(n and n.upper().startswith(_PREFIXES) for n in names)
        and len({n.upper() for n in names if n}) == len(names)
    )
    if named:
        cfg.names_from = "comments"
        final_names = [n for n in names if n]
    else:
        if len(rows) < len(QUAKE3_ANIMATIONS):
            _warn(
                f"{where}: {len(rows)} animation rows; ioquake3 needs at least"
                f" {len(QUAKE3_ANIMATIONS)} and refuses this file"
            )
        if len(rows) > MAX_ANIMATIONS:
            _warn(
                f"{where}: {len(rows)} animation rows; the engine reads {MAX_ANIMATIONS}, the"
                f" rest are named ANIM_{MAX_ANIMATIONS} and on"
            )
        final_names = [
            ENGINE_ANIMATIONS[i] if i < MAX_ANIMATIONS else f"ANIM_{i}" for i in range(len(rows))
        ]

    parsed = []
    for (row, _), name in zip(rows, final_names, strict=True):
        first = _atoi(row[0], "first_frame")
        num = _atoi(row[1], "num_frames")
        loop = _atoi(row[2], "loop_frames")
        fps = _atof(row[3], "fps")
        parsed.append((name, first, num, loop, fps, row[0].line))

    # the legs offset, exactly as CG_ParseAnimationFile computes and applies it
    index = {name.upper(): i for i, (name, *_rest) in enumerate(parsed)}
    walk, gesture = index.get("LEGS_WALKCR"), index.get("TORSO_GESTURE")
    skip = 0
    if walk is not None and gesture is not None:
        skip = parsed[walk][1] - parsed[gesture][1]
    elif walk is not None:
        _warn(f"{where}: no TORSO_GESTURE row; the legs clips are not offset")
    end = index.get("TORSO_GETFLAG", len(parsed))
    cfg.legs_offset = skip

    for i, (name, first, num, loop, fps, line) in enumerate(parsed):
        shifted = first - skip if walk is not None and walk <= i < max(end, walk) else first
        rev = num < 0
        count = -num if rev else num
        if count == 0:
            _warn(f"{where}: {name} (line {line}) has 0 frames; it shows frame {shifted}")
        if fps < 0:
            _warn(f"{where}: {name} (line {line}) has fps {fps}; read as 1")
            fps = 1.0
        if not 0 <= loop <= max(count, 0):
            _warn(
                f"{where}: {name} (line {line}) loops {loop} of its {count} frames; read as"
                f" {min(max(loop, 0), count)}"
            )
            loop = min(max(loop, 0), count)
        cfg.clips.append(
            Clip(
                name=name,
                first_frame=shifted,
                num_frames=max(count, 1),
                loop_frames=loop,
                fps=fps if fps != 0 else 1.0,
                reversed=rev,
                file_first_frame=first,
                line=line,
            )
        )
    return cfg
