"""Quake III shader scripts (``scripts/*.shader``): what they say about how a surface is drawn.

An MD3 surface (or a ``.skin`` line) names a shader; when a script defines that shader the
engine draws the surface as the script says, else it draws the image of that name. Only what
the exporters and the previews can show is read here (:class:`~.scene.Material`):

* ``cull none`` / ``cull disable`` / ``cull twosided`` → both sides drawn; ``cull back`` /
  ``backside`` / ``backsided`` → only the back side; anything else keeps the default (front
  side only). The keyword and its value compare ignoring case.
* the texture stage, the first ``{ ... }`` stage whose ``map`` / ``clampMap`` / ``animMap``
  names an image (not ``$lightmap`` or ``$whiteimage``): its image name, and its
  ``alphaFunc GT0 | LT128 | GE128`` (ignoring case; another value warns and means no test,
  as in the engine).

The rules follow ioquake3 (``code/renderergl1/tr_shader.c``): names compare ignoring case, a
model's shader name loses its extension before the lookup (``COM_StripExtension``); every
``scripts/*.shader`` file is read, and a file with a shader missing its opening or closing
brace is ignored whole (``ScanAndLoadShaderFiles``); the files are joined last listed first
and the first definition of a name in that text wins (``FindShaderInShaderText``), so among
files the one listed last wins, and within a file the first definition. Tokens split at
whitespace, ``//`` and ``/* */`` comments are skipped and ``"..."`` is one token
(``COM_ParseExt``); a keyword's arguments are the tokens on its line.

One difference, on purpose: ioquake3 draws its default shader for a script with a keyword it
does not know (later engines know more of them); here unknown keywords are skipped with their
line, so a script written for another engine still gives its sides and alpha test.

Scripts come from a game's search path (``registry.scene`` makes it the active one with
:func:`game_shaders`, as :func:`~.skins.game_images` does for images) or, for a model on disk
outside any game folder, from ``scripts/`` under the folder above the nearest ``models``
folder (the game root of an extracted tree), listed by name.
"""

from __future__ import annotations

import contextlib
import os
import re
import warnings
from collections.abc import Callable, Iterable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from ..errors import QuakeModelsWarning
from .files import read_regular
from .gamepaths import Listings, _where
from .scene import AlphaTest, Material, Sides

SHADER_SUFFIX = ".shader"
MAX_SCRIPT_FILES = 4096  # tr_shader.c MAX_SHADER_FILES
MAX_SCRIPT_BYTES = 16 * 2**20  # one script larger than this is not a shader script

# tr_shader.c NameToAFunc and tr_backend.c GL_State: the glAlphaFunc of each name
ALPHA_FUNCS = {
    "gt0": AlphaTest("gt", 0.0, "GT0"),
    "lt128": AlphaTest("lt", 0.5, "LT128"),
    "ge128": AlphaTest("ge", 0.5, "GE128"),
}
# tr_shader.c ParseShader, "cull <face>"
CULL_SIDES: dict[str, Sides] = {
    "none": "both",
    "twosided": "both",
    "disable": "both",
    "back": "back",
    "backside": "back",
    "backsided": "back",
}


class Token(NamedTuple):
    """One token of a script and the line (from 1) it is on."""

    text: str
    line: int


# One alternative per thing COM_ParseExt meets: a line break, other whitespace (every byte up
# to the space), a // comment, a /* */ comment (to the end when unterminated), a quoted token
# (to the end when unterminated), a word (anything else up to whitespace).
_TOKEN = re.compile(
    r'(\n)|[\x00-\x09\x0b-\x20]+|//[^\n]*|(/\*.*?(?:\*/|\Z))|"([^"]*)"?|([^\x00-\x20]+)',
    re.DOTALL,
)


def tokens(text: str) -> list[Token]:
    """The tokens of a script as ``COM_ParseExt`` reads them (whitespace separates; ``//``
    and ``/* */`` comments skipped; a ``"quoted"`` token without its quotes)."""
    out: list[Token] = []
    line = 1
    for m in _TOKEN.finditer(text):
        newline, comment, quoted, word = m.groups()
        if newline is not None:
            line += 1
        elif word is not None:
            out.append(Token(word, line))
        elif quoted is not None:
            out.append(Token(quoted, line))
            line += quoted.count("\n")
        elif comment is not None:
            line += comment.count("\n")
    return out


def shader_key(name: str) -> str:
    """The name a shader is looked up by: its extension stripped (``COM_StripExtension``:
    from the last ``.`` of the last path component), lower-cased."""
    head, dot, ext = name.rpartition(".")
    if dot and "/" not in ext and "\\" not in ext and head:
        name = head
    return name.lower()


@dataclass(frozen=True)
class ShaderDef:
    """One shader a script defines: ``material`` (sides, the texture stage's alpha test),
    ``texture`` the texture stage's image name (None when no stage names one) and ``where``
    (``scripts/oak.shader:3``)."""

    name: str
    material: Material
    texture: str | None
    where: str


def _line_args(body: list[Token], i: int) -> tuple[list[str], int]:
    """The tokens after ``body[i]`` on its line, and the index after them."""
    line = body[i].line
    j = i + 1
    while j < len(body) and body[j].line == line and body[j].text not in ("{", "}"):
        j += 1
    return [t.text for t in body[i + 1 : j]], j


def _warn(message: str) -> None:
    warnings.warn(message, QuakeModelsWarning, stacklevel=4)


def _stage(body: list[Token], where: str, name: str) -> tuple[str | None, AlphaTest | None]:
    """(image name, alpha test) of one stage's tokens."""
    image: str | None = None
    test: AlphaTest | None = None
    i = 0
    while i < len(body):
        key = body[i].text.lower()
        args, nxt = _line_args(body, i)
        if key in ("map", "clampmap") and args and image is None:
            image = None if args[0].startswith("$") else args[0]
        elif key == "animmap" and len(args) > 1 and image is None:
            image = args[1]
        elif key == "alphafunc" and args:
            test = ALPHA_FUNCS.get(args[0].lower())
            if test is None:
                _warn(f"{where}: invalid alphaFunc {args[0]!r} in shader {name!r}: no alpha test")
        i = nxt
    return image, test


def parse_shader(name: str, body: list[Token], where: str) -> ShaderDef:
    """The :class:`ShaderDef` of one shader from the tokens between its braces."""
    sides: Sides = "front"
    texture: str | None = None
    test: AlphaTest | None = None
    i = 0
    while i < len(body):
        tok = body[i]
        if tok.text == "{":
            end = next((k for k in range(i + 1, len(body)) if body[k].text == "}"), len(body))
            image, stage_test = _stage(body[i + 1 : end], where, name)
            if image is not None and texture is None:
                texture, test = image, stage_test
            i = end + 1
            continue
        args, nxt = _line_args(body, i)
        if tok.text.lower() == "cull" and args:
            found = CULL_SIDES.get(args[0].lower())
            if found is None and args[0].lower() not in ("front", "frontside", "frontsided"):
                _warn(f"{where}: invalid cull parm {args[0]!r} in shader {name!r}")
            sides = found or "front"
        i = nxt
    material = Material(sides=sides, alpha_test=test, shader=f"{name} ({where})")
    return ShaderDef(name=name, material=material, texture=texture, where=where)


def split_script(text: str, label: str) -> dict[str, tuple[str, list[Token], str]] | None:
    """Each shader of one script file: lower-cased name → (name, body tokens, ``label:line``),
    the first definition of a name kept; None (with a warning) when a shader misses its
    opening or closing brace: the engine then ignores the whole file."""
    toks = tokens(text)
    found: dict[str, tuple[str, list[Token], str]] = {}
    i = 0
    while i < len(toks):
        name = toks[i]
        if i + 1 >= len(toks) or toks[i + 1].text != "{":
            _warn(
                f"{label}: shader {name.text!r} on line {name.line} misses its opening brace;"
                " the engine ignores this file"
            )
            return None
        depth, j = 0, i + 1
        while j < len(toks):
            if toks[j].text == "{":
                depth += 1
            elif toks[j].text == "}":
                depth -= 1
                if depth == 0:
                    break
            j += 1
        if j >= len(toks):
            _warn(
                f"{label}: shader {name.text!r} on line {name.line} misses its closing brace;"
                " the engine ignores this file"
            )
            return None
        found.setdefault(name.text.lower(), (name.text, toks[i + 2 : j], f"{label}:{name.line}"))
        i = j + 1
    return found


class ShaderScripts:
    """The shaders of a set of script files, as ioquake3 picks among them.

    ``files`` are (label, bytes) in the order the engine lists them (the search path's
    order, first searched first). Bodies are parsed when a shader is looked up.
    """

    def __init__(self, files: Iterable[tuple[str, bytes]]) -> None:
        self._defs: dict[str, tuple[str, list[Token], str]] = {}
        self._parsed: dict[str, ShaderDef] = {}
        self.labels: list[str] = []
        # the text is joined last file first; the first definition in it wins
        for label, data in reversed(list(files)[:MAX_SCRIPT_FILES]):
            self.labels.insert(0, label)
            split = split_script(data.decode("latin-1"), label)
            for key, entry in (split or {}).items():
                self._defs.setdefault(key, entry)

    def __len__(self) -> int:
        return len(self._defs)

    def find(self, name: str) -> ShaderDef | None:
        """The definition of the shader a model names (extension stripped, case ignored)."""
        key = shader_key(name)
        if key not in self._defs:
            return None
        if key not in self._parsed:
            real, body, where = self._defs[key]
            self._parsed[key] = parse_shader(real, body, where)
        return self._parsed[key]


_NO_SCRIPTS = ShaderScripts(())

# The scripts of the game the model being exported came from (set by registry.scene): a
# function so that they are read only when a model asks for a shader.
_GAME: ContextVar[Callable[[], ShaderScripts] | None] = ContextVar("shaders", default=None)


@contextlib.contextmanager
def game_shaders(scripts: Callable[[], ShaderScripts]) -> Iterator[None]:
    """Within the block, :func:`scripts_for` gives ``scripts()`` (the game's scripts)."""
    token = _GAME.set(scripts)
    try:
        yield
    finally:
        _GAME.reset(token)


def game_root_above(path: str | os.PathLike[str]) -> Path | None:
    """The folder above the nearest ancestor of ``path`` called ``models`` (any case), or None."""
    start = Path(os.path.abspath(path))
    for folder in start.parents:
        if folder.name.lower() == "models" and folder.parent != folder:
            return folder.parent
    return None


_DISK_CACHE: dict[tuple[Path, tuple[tuple[str, int, int, int, int], ...]], ShaderScripts] = {}


def disk_scripts(root: Path) -> ShaderScripts:
    """The ``scripts/*.shader`` files under ``root`` (folder and suffix in any case), listed
    by name; files that are not regular or lead outside ``root`` are left out. Cached while
    the files are unchanged."""
    listings = Listings()
    folder = listings.folder(root, ("scripts",))
    if folder is None:
        return _NO_SCRIPTS
    real = root.resolve()
    stats: list[tuple[str, int, int, int, int]] = []  # name, inode, size, mtime, ctime
    for entry in listings.names(folder):
        path = folder / entry
        if not entry.lower().endswith(SHADER_SUFFIX) or _where(path, real) is not None:
            continue
        try:
            st = path.stat()
        except OSError:
            continue
        if st.st_size <= MAX_SCRIPT_BYTES:
            stats.append((entry, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns))
        if len(stats) == MAX_SCRIPT_FILES:  # the engine reads no more
            break
    key = (real, tuple(stats))
    if key not in _DISK_CACHE:
        files = []
        for entry, *_ in sorted(stats, key=lambda s: s[0].lower()):
            try:
                files.append((f"scripts/{entry}", read_regular(folder / entry, "shader script")))
            except (OSError, ValueError):
                continue
        if len(_DISK_CACHE) >= 8:
            del _DISK_CACHE[next(iter(_DISK_CACHE))]
        _DISK_CACHE[key] = ShaderScripts(files)
    return _DISK_CACHE[key]


def scripts_for(
    model_path: str | os.PathLike[str] | None, skin_dir: str | os.PathLike[str] | None = None
) -> ShaderScripts:
    """The scripts a model's shader names are looked up in: the active game's
    (:func:`game_shaders`), else ``skin_dir``'s ``scripts/`` when given, else those under the
    game root above ``model_path`` on disk; none otherwise."""
    game = _GAME.get()
    if game is not None and skin_dir is None:
        return game()
    root = Path(skin_dir) if skin_dir is not None else None
    if root is None and model_path is not None and os.path.exists(model_path):
        root = game_root_above(model_path)
    if root is None or not root.is_dir():
        return _NO_SCRIPTS
    return disk_scripts(root)


__all__ = [
    "ALPHA_FUNCS",
    "CULL_SIDES",
    "ShaderDef",
    "ShaderScripts",
    "disk_scripts",
    "game_root_above",
    "game_shaders",
    "parse_shader",
    "scripts_for",
    "shader_key",
    "split_script",
    "tokens",
]
