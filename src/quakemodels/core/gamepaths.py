"""Game paths and files found in folders as the engines find them: a model's untrusted names
checked before they become paths, one leading slash dropped, each component matched exactly
first and else ignoring case, through one cached listing per folder. Plain Python (no numpy):
archive listings and game folders use it before any model is read."""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Sequence
from pathlib import Path

from .files import file_kind

MAX_NAME_LENGTH = 1024  # model formats store 64 bytes; a longer name is not from a model
_ESCAPED = re.compile(r"\\x[89a-f][0-9a-f]")


def strip_leading_slash(name: str) -> str:
    """``name`` without one leading ``/`` or ``\\``: ioquake3's ``FS_FOpenFileRead`` drops it
    ("qpaths are not supposed to have a leading slash"), so ``/models/x.tga`` is the game path
    ``models/x.tga``. Only one: ``//x`` stays absolute (a UNC path on Windows)."""
    return name[1:] if name[:1] in ("/", "\\") else name


def game_path(name: str) -> str | None:
    """``name`` as the game path an engine opens (relative to the game folder, ``/``
    separated, one leading slash dropped), or None when it is none: empty, absolute, with a
    drive letter, a ``..`` component, a NUL or escaped bytes (see :func:`_unsafe_reason`)."""
    if _unsafe_reason(name) is not None:
        return None
    return strip_leading_slash(name).replace("\\", "/")


def _unsafe_reason(name: str) -> str | None:
    """Why the untrusted skin name must not be used as a path, or None when it is a game path
    (relative to the game folder; one leading slash is dropped first, as ioquake3 does)."""
    text = strip_leading_slash(name).replace("\\", "/")
    if not text.strip():
        return "is empty"
    if "\0" in text:
        return "contains a NUL byte"
    if len(text) > MAX_NAME_LENGTH:
        return f"is longer than {MAX_NAME_LENGTH} characters"
    if _ESCAPED.search(name):
        # A reader's backslashreplace of bytes ≥ 0x80 (``\xe9``): not a path separator.
        return "has bytes ≥ 0x80 that are not ASCII text"
    if text.startswith("/"):
        return "is an absolute path"
    if len(text) >= 2 and text[1] == ":" and text[0].isalpha():
        return "has a drive letter"
    if any(part == ".." for part in text.split("/")):
        return "has a '..' component that leaves the skin folder"
    return None


def listed(folder: str | os.PathLike[str]) -> dict[str, list[str]]:
    """``folder``'s entries by lower-cased name, each name's entries sorted (empty when it
    cannot be listed): what :meth:`Listings.entries` keeps."""
    try:
        names = sorted(os.listdir(folder))
    except (OSError, ValueError):
        names = []
    entries: dict[str, list[str]] = {}
    for entry in names:
        entries.setdefault(entry.lower(), []).append(entry)
    return entries


class Listings:
    """One directory listing per folder, shared by every lookup of a model (or a scene):
    ``entries(folder)`` maps lower-cased names to the folder's entries of that name (sorted,
    so an exact match and the first case-insensitive one are found without more syscalls)."""

    def __init__(self) -> None:
        self._folders: dict[Path, dict[str, list[str]]] = {}
        self._walks: dict[tuple[Path, tuple[str, ...]], Path | None] = {}

    def entries(self, folder: Path) -> dict[str, list[str]]:
        cached = self._folders.get(folder)
        if cached is None:
            cached = self._folders[folder] = listed(folder)
        return cached

    def folder(self, root: Path, parts: tuple[str, ...]) -> Path | None:
        """``root/parts...`` matched case-insensitively (memoized), or None."""
        key = (root, parts)
        if key not in self._walks:
            found: Path | None = root
            if parts:
                parent = self.folder(root, parts[:-1])
                matches = self.entries(parent).get(parts[-1].lower()) if parent else None
                if parent is None or not matches:
                    found = None
                else:
                    found = parent / (parts[-1] if parts[-1] in matches else matches[0])
            self._walks[key] = found
        return self._walks[key]

    def names(self, folder: Path) -> list[str]:
        """Every entry of ``folder``, sorted."""
        return sorted(e for group in self.entries(folder).values() for e in group)


def _where(path: Path, root: Path) -> str | None:
    """Why ``path`` must not be opened (it resolves outside ``root``, or is not a regular
    file), or None when it may be."""
    try:
        real = path.resolve(strict=True)
    except (OSError, RuntimeError):
        return "cannot be resolved"
    if real != root and root not in real.parents:
        return f"leads outside {root} (symlink)"
    try:
        mode = os.stat(real).st_mode
    except OSError:
        return "cannot be read"
    if not stat.S_ISREG(mode):
        return f"is {file_kind(mode)}, not a regular file"
    return None


def _find_ci(root: Path, parts: Sequence[str], listings: Listings) -> Path | None:
    """``root/parts...`` matched one component at a time, exactly first, else ignoring case,
    from the cached listings (a file's listing is empty, so a path through a file fails).

    Each step stays a child of the previous folder, so only symlinks can lead outside the
    root; callers check the resolved result with :func:`_where`.
    """
    parts = [p for p in parts if p not in ("", ".")]
    if not parts:
        return None
    folder = listings.folder(root, tuple(parts[:-1]))
    if folder is None:
        return None
    matches = listings.entries(folder).get(parts[-1].lower())
    if not matches:
        return None
    hit = folder / (parts[-1] if parts[-1] in matches else matches[0])
    # anything but a folder: a FIFO or a device is refused by _where, with a warning
    return None if hit.is_dir() else hit
