"""Extract archive entries under one folder, never outside it, never leaving a partial file.

Entry names were checked when the archive opened (no ``..``, absolute names, drive letters,
NUL or duplicates). Before anything is written, every target is also checked here: two entries
landing on the same path once case is ignored (as on Windows and macOS file systems), a target
that is an existing folder, and a target whose folder leads out of the output folder through a
symlink are refused with an ArchiveError. Each file is then written atomically (a temporary
file renamed into place), so a failure leaves every file either complete or untouched.
"""

from __future__ import annotations

import fnmatch
import os
from pathlib import Path

from ..core.atomic import write_bytes_atomic
from .base import Archive, Entry
from .names import name_key, split_parts


def select(archive: Archive, pattern: str | None = None) -> list[Entry]:
    """Entries whose name matches the shell ``pattern`` (ASCII case ignored), or all of them."""
    if pattern is None:
        return list(archive.entries)
    pat = name_key(pattern.replace("\\", "/"), "quake3")
    return [e for e in archive.entries if fnmatch.fnmatchcase(name_key(e.name, "quake3"), pat)]


def plan(archive: Archive, outdir: Path, entries: list[Entry]) -> list[tuple[Entry, Path]]:
    """(entry, target) for every entry, after every check above; nothing is written."""
    root = Path(os.path.realpath(outdir))
    seen: dict[str, Entry] = {}
    out: list[tuple[Entry, Path]] = []
    for e in entries:
        parts = split_parts(e.name)
        key = "/".join(parts).lower()
        if key in seen:
            raise archive.error(
                f"extracts to the same file as {seen[key].name!r} (names differ only in case)",
                e.name,
            )
        seen[key] = e
        target = outdir.joinpath(*parts)
        real = Path(os.path.realpath(target))
        if real != root and root not in real.parents:
            raise archive.error(f"would be written outside {outdir} (through a symlink)", e.name)
        if target.is_dir():
            raise archive.error(f"would replace the folder {target}", e.name)
        out.append((e, target))
    return out


def extract(
    archive: Archive, outdir: str | os.PathLike[str], pattern: str | None = None
) -> list[Path]:
    """Write the selected entries under ``outdir`` by their inner paths; the files written."""
    folder = Path(outdir)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for entry, target in plan(archive, folder, select(archive, pattern)):
        target.parent.mkdir(parents=True, exist_ok=True)
        write_bytes_atomic(target, archive.read(entry))
        written.append(target)
    return written
