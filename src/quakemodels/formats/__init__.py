"""Every format quakemodels reads, one line each, and finding one (by magic, by name, the
folder formats, the builders): light, no numpy (the registry does the rest).

A new format adds its folder (``formats/<name>/__init__.py`` declaring ``FORMAT``), its ksy
and one line here; the order is the order magic and folder tests are tried in."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from .contract import Format, Kind, declared

FORMATS: tuple[Format, ...] = declared(
    __name__,
    "md2",
    "md3",
    "mdl",
    "q3player",
    "md5",
    "spr",
    "hlspr",
    "sp2",
    "iqm",
)


def by_magic(data: bytes) -> Format | None:
    """The format whose magic ``data`` starts with, or None."""
    for fmt in FORMATS:
        if fmt.accepts(data):
            return fmt
    return None


def by_name(name: str) -> Format:
    """The format called ``name`` (``md2``); KeyError listing the formats there are."""
    for fmt in FORMATS:
        if fmt.name == name:
            return fmt
    raise KeyError(f"no format {name!r}; formats: {', '.join(f.name for f in FORMATS)}")


def folder_formats() -> Iterator[Format]:
    """The formats opened from a folder (kind FOLDER, with ``detect`` and ``open``)."""
    return (
        f
        for f in FORMATS
        if f.kind is Kind.FOLDER and f.services.detect is not None and f.services.open is not None
    )


def folder_sets(names: Iterable[str]) -> dict[str, dict[str, str]]:
    """The folder sets (players) among archive or search-path ``names`` (``/``-separated):
    folder name -> {part: the part's name as stored}, each folder format's ``folders``."""
    found: dict[str, dict[str, str]] = {}
    listed = list(names)
    for fmt in folder_formats():
        if fmt.folders is not None:
            found.update(fmt.folders(listed))
    return found


def builders() -> list[Format]:
    """The formats convert writes."""
    return [f for f in FORMATS if f.services.build is not None]
