"""A Quake III player's three parts, and the player folders among a listing of names: plain
text work, light enough for ``ls`` (no Player, MD3, skin or image code)."""

from __future__ import annotations

import os
from collections.abc import Iterable

PARTS = ("lower", "upper", "head")


def player_folders(names: Iterable[str]) -> dict[str, dict[str, str]]:
    """The player folders among archive or search-path ``names`` (``/``-separated): folder
    name → {part: the part's name as stored} for every folder holding ``lower.md3``,
    ``upper.md3`` and ``head.md3`` (ignoring case), in name order."""
    by_folder: dict[str, dict[str, str]] = {}
    for name in names:
        folder, _, leaf = name.replace("\\", "/").rpartition("/")
        stem, ext = os.path.splitext(leaf.lower())
        if ext == ".md3" and stem in PARTS:
            by_folder.setdefault(folder, {})[stem] = name
    return {f: parts for f, parts in sorted(by_folder.items()) if len(parts) == len(PARTS)}
