"""Quake III ``.skin`` files and the texture lookup of a player's surfaces, inside the game root.

A ``.skin`` file (``lower_default.skin``, ``head_blue.skin``) maps each surface of one MD3 to
a shader or image path relative to the game root (``u_torso,models/players/x/torso.tga``).
The rules follow ioquake3's ``RE_RegisterSkin`` and ``CommaParse``
(``code/renderergl1/tr_image.c``): tokens end at whitespace or a comma, ``//`` and ``/* */``
comments are skipped, surface names are compared lower-cased, and a line whose surface name
contains ``tag_`` is ignored (the engine skips tag lines; skins list them for modellers'
tools). At most :data:`MAX_SKIN_SURFACES` surfaces are kept, as the engine does.

An image path is looked up as ``R_LoadImage`` does: the name as written when its extension is
one the engine loads, then the same stem with each of :data:`IMAGE_ORDER` in turn (ioquake3's
``imageLoaders`` order: ``.tga .jpg .jpeg .png .pcx .bmp``); a name with no extension tries
them all. Shader scripts are not read: a shader name with no script of that name is an image
path to the engine too, which is what this lookup does. Every component is matched
case-insensitively (as Quake III's pk3 search is).

Paths are untrusted. They are resolved only under the **game root**, the folder above the
nearest ancestor of the player folder called ``models`` (``baseq3/`` for
``baseq3/models/players/sarge``), or the player folder itself when there is none. A path that
is absolute, has a drive letter or a ``..`` component, or resolves (through a symlink) outside
the game root is refused with a :class:`QuakeModelsWarning`, as MD2 skin names are.

When a path does not resolve under the game root, the same file name is tried in the player
folder (a model copied out of its game tree). Without a ``.skin`` file, or for a surface the
skin does not name, :func:`surface_textures` falls back to the surface's shader names, then to
images beside the model (:func:`beside_model`).
"""

from __future__ import annotations

import os
import re
import warnings
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from ...archive.names import split_parts
from ...core.gamepaths import Listings, _unsafe_reason, _where
from ...core.gamepaths import _find_ci as _find_ci_listed
from ...errors import ItemWarning, QuakeModelsWarning
from .parts import PARTS


def _listdir(folder: Path) -> list[str]:
    """The entries of ``folder``, sorted; none when it cannot be listed."""
    try:
        return sorted(os.listdir(folder))
    except (OSError, ValueError):
        return []


def _inside(path: Path, root: Path) -> bool:
    """True when ``path`` resolves to a regular file under ``root`` (resolved)."""
    return _where(path, root) is None


def _find_ci(root: Path, parts: Sequence[str]) -> Path | None:
    """``root/parts...`` matched one component at a time, exactly first, else ignoring case."""
    return _find_ci_listed(root, parts, Listings())


# ioquake3 tr_image.c imageLoaders[], "the order of preference used when there are multiple
# images of different formats available"
IMAGE_ORDER = (".tga", ".jpg", ".jpeg", ".png", ".pcx", ".bmp")
MAX_SKIN_SURFACES = 256  # tr_local.h


@dataclass(frozen=True)
class SkinFile:
    """A parsed ``.skin``: ``surfaces`` maps lower-cased surface names to the path as written
    (in file order); ``tags`` the ``tag_*`` names it lists; ``path`` where it was read."""

    surfaces: dict[str, str] = field(default_factory=dict)
    tags: list[str] = field(default_factory=list)
    path: Path | None = None


def _comma_tokens(text: str) -> list[str]:
    """The tokens of ``text`` as ``CommaParse`` splits them (commas and whitespace separate)."""
    tokens: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c <= " " or c == ",":
            i += 1
        elif text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = n if end < 0 else end + 2
        elif c == '"':
            end = text.find('"', i + 1)
            end = n if end < 0 else end
            tokens.append(text[i + 1 : end])
            i = end + 1
        else:
            start = i
            while i < n and text[i] > " " and text[i] != ",":
                i += 1
            tokens.append(text[start:i])
    return tokens


def parse_skin(data: str | bytes, path: str | os.PathLike[str] | None = None) -> SkinFile:
    """Parse a ``.skin`` file's text (bytes are read as Latin-1).

    Each line is ``surface,path``; the pairing is by line (a surface with nothing after its
    comma, as tag lines are, maps to nothing). Surface names are lower-cased.
    """
    text = data.decode("latin-1") if isinstance(data, bytes) else data
    surfaces: dict[str, str] = {}
    tags: list[str] = []
    where = os.fspath(path) if path is not None else ".skin"
    total = 0
    for line in text.splitlines():
        head, comma, tail = line.partition(",")
        names = _comma_tokens(head)
        if not names:
            continue
        surface = names[0].lower()
        if "tag_" in surface:
            tags.append(surface)
            continue
        values = _comma_tokens(tail) if comma else names[1:]
        total += 1
        if len(surfaces) < MAX_SKIN_SURFACES and surface not in surfaces:
            surfaces[surface] = values[0] if values else ""
    if total > MAX_SKIN_SURFACES:
        warnings.warn(
            f"{where}: {total} surfaces; the engine keeps the first {MAX_SKIN_SURFACES}",
            QuakeModelsWarning,
            stacklevel=2,
        )
    return SkinFile(surfaces=surfaces, tags=tags, path=Path(path) if path is not None else None)


def find_game_root(folder: str | os.PathLike[str]) -> Path:
    """The game root above ``folder``: the parent of its nearest ancestor (or itself) called
    ``models`` in any case; ``folder`` itself when there is none."""
    start = Path(os.path.abspath(folder))
    for candidate in (start, *start.parents):
        if candidate.name.lower() == "models" and candidate.parent != candidate:
            return candidate.parent
    return start


def image_names(name: str) -> list[str]:
    """The file names ``R_LoadImage`` tries for the last component ``name``, in order."""
    stem, ext = os.path.splitext(name)
    if ext.lower() in IMAGE_ORDER:
        return [name] + [stem + e for e in IMAGE_ORDER if e != ext.lower()]
    # no extension, or one no loader knows: every loader's extension is appended
    return [name + e for e in IMAGE_ORDER]


def _warn(message: str, stacklevel: int = 4) -> None:
    warnings.warn(message, QuakeModelsWarning, stacklevel=stacklevel)


def image_parts(name: str, what: str) -> list[str] | None:
    """The folders and file name of a game-root relative image ``name``, or None for a blank
    name or a refused one (absolute, drive letter, ``..``: with a warning naming ``what``)."""
    if not name.strip():
        return None
    reason = _unsafe_reason(name)
    if reason:
        _warn(f"{what} {name!r} {reason}; refused", stacklevel=5)
        return None
    return split_parts(name) or None


def resolve_image(
    name: str, root: Path, *, folder: Path | None = None, what: str = "texture"
) -> Path | None:
    """The image file ``name`` (game-root relative) names, or None.

    Tried under ``root`` with the engine's extension order, then (when ``folder`` is given)
    the file name alone in ``folder``. A refused name (absolute, drive letter, ``..``) or a hit
    that resolves outside ``root`` warns and gives None. ``what`` names the name's origin in
    warnings.
    """
    parts = image_parts(name, what)
    if parts is None:
        return None
    real_root = root.resolve()
    searches: list[tuple[Path, list[str]]] = [(root, parts[:-1])]
    if folder is not None:
        searches.append((folder, []))
    for base, dirs in searches:
        for last in image_names(parts[-1]):
            hit = _find_ci(base, [*dirs, last])
            if hit is None:
                continue
            if not _inside(hit, real_root):
                _warn(f"{what} {name!r}: {hit} leads outside the game root {root}; refused")
                return None
            return hit
    return None


def _images(folder: Path) -> dict[str, Path]:
    """Image files in ``folder`` by lower-case stem, the engine's preferred extension first.

    Symlinks that lead out of ``folder`` are left out (with a warning)."""
    found: dict[str, Path] = {}
    entries = _listdir(folder)
    real = folder.resolve()
    for ext in IMAGE_ORDER:
        for entry in entries:
            stem, e = os.path.splitext(entry)
            if e.lower() != ext or stem.lower() in found or not (folder / entry).is_file():
                continue
            if not _inside(folder / entry, real):
                _warn(f"image {folder / entry} leads outside {folder}; refused")
                continue
            found[stem.lower()] = folder / entry
    return found


def beside_model(surface: str, folder: Path, images: dict[str, Path] | None = None) -> Path | None:
    """An image beside the model for ``surface`` when neither a skin nor a shader names one.

    Tried in order, every comparison ignoring case: an image named like the surface
    (``u_torso.tga``); for each word of the surface name after a one-letter part prefix
    (``u_``, ``l_``, ``h_``), ``<prefix>_<word>`` then ``<word>`` (``h_head_helmet`` →
    ``h_helmet``; ``u_armour_light`` → ``armour``); the player folder's name, then each of
    its words (``human_base`` → ``base``); the only image in the folder. A guess, not an
    engine rule: the engine shows its default shader for such surfaces. ``images`` (by
    lower-case stem) are the folder's, listed on disk when not given.
    """
    images = _images(folder) if images is None else images
    words = [w for w in surface.lower().split("_") if w]
    prefix = words[0] if len(words) > 1 and len(words[0]) == 1 else None
    tries = [surface.lower()]
    for word in words[1:] if prefix else words:
        if prefix:
            tries.append(f"{prefix}_{word}")
        tries.append(word)
    folder_name = folder.name.lower()
    tries += [folder_name, *[w for w in re.split(r"[_\-\s]+", folder_name) if w]]
    for stem in tries:
        if stem in images:
            return images[stem]
    if len(images) == 1:
        return next(iter(images.values()))
    return None


def find_skin_file(folder: Path, part: str, skin: str) -> Path | None:
    """``<part>_<skin>.skin`` in ``folder``, matched ignoring case, or None."""
    return _find_ci(folder, [f"{part}_{skin}.skin"])


def skin_names(
    entries: Iterable[str] | str | os.PathLike[str], parts: Iterable[str] = PARTS
) -> list[str]:
    """The skin names with a ``<part>_<name>.skin`` file among a player folder's ``entries``
    (or in the folder on disk ``entries`` names): ``default`` first, then the rest sorted
    (lower-case)."""
    if isinstance(entries, (str, os.PathLike)):
        entries = _listdir(Path(entries))
    wanted = tuple(p.lower() + "_" for p in parts)
    names: set[str] = set()
    for entry in entries:
        low = entry.lower()
        if not low.endswith(".skin"):
            continue
        for prefix in wanted:
            if low.startswith(prefix) and len(low) > len(prefix) + len(".skin"):
                names.add(low[len(prefix) : -len(".skin")])
    return sorted(names, key=lambda n: (n != "default", n))


class ImageLookup(Protocol):
    """Where a player's images are found (:mod:`.files`): ``image(name, what)`` for a
    game-root relative name, ``images()`` the player folder's images by lower-case stem."""

    folder: Path

    def image(self, name: str, what: str) -> Path | None: ...

    def images(self) -> dict[str, Path]: ...


def surface_textures(
    surfaces: Sequence[tuple[str, Sequence[str]]],
    files: ImageLookup,
    skin: SkinFile | None,
    *,
    label: str,
    stage_image: Callable[[str], str | None] | None = None,
) -> dict[str, Path]:
    """The texture file of each surface, for surfaces that have one.

    ``surfaces`` lists (name, shader names) as the MD3 stores them; ``skin`` is the part's
    parsed ``.skin`` (None without one); ``files`` finds the images. Order per surface: the
    skin's path, the shader names, :func:`beside_model`; for each name, the image of the
    texture stage of the shader script defining it first (``stage_image``, when given: the
    engine draws the script, not the image named like it). ``label`` names the part in
    warnings; a surface left without a texture warns.
    """
    found: dict[str, Path] = {}
    skin_where = str(skin.path.name) if skin and skin.path else "skin"
    images: dict[str, Path] | None = None

    def image(name: str, what: str) -> Path | None:
        staged = stage_image(name) if stage_image is not None else None
        hit = files.image(staged, f"{what} (shader stage)") if staged else None
        return hit if hit is not None else files.image(name, what)

    for name, shaders in surfaces:
        hit: Path | None = None
        if skin is not None and name.lower() in skin.surfaces:
            hit = image(skin.surfaces[name.lower()], f"{skin_where}: {name}")
        for shader in shaders:
            if hit is None:
                hit = image(shader, f"{label} shader")
        if hit is None:
            images = files.images() if images is None else images
            hit = beside_model(name, files.folder, images)
        if hit is None:
            warnings.warn(
                ItemWarning(
                    f"{label}: no texture found for surface {name!r}",
                    group="no texture found for {n} surfaces",
                    item=f"{label} {name!r}",
                ),
                stacklevel=2,
            )
            continue
        found[name] = hit
    return found
