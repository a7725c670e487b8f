"""A game's shader scripts: every ``scripts/*.shader`` its search path shows, as ioquake3 lists
them (:class:`~quakemodels.core.shaders.ShaderScripts` reads them).

ioquake3's ``FS_ListFiles("scripts", ".shader")`` (``FS_ListFilteredFiles``,
``code/qcommon/files.c``) walks the search path first searched first: a pk3's entries in the
order its directory holds them, a folder's files as the system lists them (here: by name,
ignoring case); each name once (ignoring case), and ``FS_ReadFile`` then reads the copy the
search path finds first. The shader code joins the files last listed first, so that among
duplicate definitions the file listed last wins.
"""

from __future__ import annotations

import weakref

from ..core.gamepaths import Listings
from ..core.shaders import MAX_SCRIPT_BYTES, MAX_SCRIPT_FILES, SHADER_SUFFIX, ShaderScripts
from ..errors import ModelFormatError
from .gamefs import GameFS

# Weak keys: the scripts live as long as their search path, and never keep its archives open
# after the shared GameFS cache lets it go (vpath.clear_gamefs_cache).
_CACHE: weakref.WeakKeyDictionary[GameFS, ShaderScripts] = weakref.WeakKeyDictionary()


def script_names(fs: GameFS) -> list[str]:
    """The ``scripts/<x>.shader`` names of ``fs`` in the engine's listing order (each once)."""
    names: list[str] = []
    seen: set[str] = set()
    for source in fs.sources:
        if source.archive is not None:
            found = [e.name for e in source.archive.entries]
        else:
            listings = Listings()
            folder = listings.folder(source.path, ("scripts",))
            leaves = listings.names(folder) if folder is not None else []
            found = [f"scripts/{leaf}" for leaf in sorted(leaves, key=str.lower)]
        for name in found:
            head, _, leaf = name.replace("\\", "/").rpartition("/")
            if head.lower() != "scripts" or not leaf.lower().endswith(SHADER_SUFFIX):
                continue
            if name.lower() not in seen:
                seen.add(name.lower())
                names.append(name)
    return names


def game_scripts(fs: GameFS) -> ShaderScripts:
    """The shader scripts of ``fs`` (read once per search path; unreadable ones left out)."""
    cached = _CACHE.get(fs)
    if cached is not None:
        return cached
    files = []
    for name in script_names(fs)[:MAX_SCRIPT_FILES]:
        found = fs.find(name)
        if found is None or found.size > MAX_SCRIPT_BYTES:
            continue
        try:
            files.append((name, fs.read_found(found)))
        except (OSError, ModelFormatError):
            continue
    scripts = ShaderScripts(files)
    _CACHE[fs] = scripts
    return scripts


__all__ = ["game_scripts", "script_names"]
