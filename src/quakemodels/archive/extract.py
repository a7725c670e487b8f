"""Extract archive entries under one folder, never outside it, all or nothing.

Entry names were checked when the archive opened (no ``..``, absolute names, drive letters,
NUL or duplicates). Before anything is written, every target is also checked here: two entries
landing on the same path once case is ignored (as on Windows and macOS file systems), an entry
that is also another's folder, a symbolic-link entry (zip external attributes: never followed,
never written), a target that is an existing folder, a target whose folder leads out of the
output folder through a symlink, an entry over the compression-ratio guard and a selection
declaring more bytes than the budget (``max_total``) are refused with an ArchiveError.

Then the entries are streamed (a chunk at a time, whatever their size) into a staging folder
inside the output folder, and only when every one of them was read and checked are they moved
into place. A failure before that removes the staging folder; a failure while moving puts back
what was moved (a file the user had is restored, never removed) and removes the folders this
extraction created. Either every selected file is written, or the folder is as it was.

A process killed outright (SIGKILL, a power cut of the process) cannot clean up: the moves are
journalled in the staging folder before each is made, and the next extraction into the same
folder finds a staging folder whose process is gone and undoes what it did (:func:`recover`).
"""

from __future__ import annotations

import contextlib
import fnmatch
import os
import shutil
import warnings
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TextIO

from ..errors import QuakeModelsWarning
from .base import MAX_TOTAL, Archive, Entry
from .names import name_key, split_parts

STAGE_PREFIX = ".quakemodels-extract."
# In the staging folder, one line per step of the moves, written before the step is taken:
# "new <n> <target hex>", "replace <n> <target hex>" or "mkdir <folder hex>".
JOURNAL = "journal"
Writing = Callable[[Path], AbstractContextManager[None]]


def select(archive: Archive, pattern: str | None = None) -> list[Entry]:
    """Entries whose name matches the shell ``pattern`` (ASCII case ignored), or all of them."""
    if pattern is None:
        return list(archive.entries)
    pat = name_key(pattern.replace("\\", "/"), "quake3")
    return [e for e in archive.entries if fnmatch.fnmatchcase(name_key(e.name, "quake3"), pat)]


def plan(
    archive: Archive, outdir: Path, entries: list[Entry], *, max_total: int = MAX_TOTAL
) -> list[tuple[Entry, Path]]:
    """(entry, target) for every entry, after every check above; nothing is written."""
    root = Path(os.path.realpath(outdir))
    seen: dict[str, Entry] = {}
    folders: dict[str, Entry] = {}
    out: list[tuple[Entry, Path]] = []
    total = 0
    for e in entries:
        if archive.is_link(e):
            raise archive.error(
                "is a symbolic link (zip external attributes); links are never written or followed",
                e.name,
                field="external_attr",
            )
        archive.guard(e)
        total += e.size
        if total > max_total:
            raise archive.error(
                f"brings the selected entries to {total} bytes, over the budget of {max_total}"
                " bytes (--max-total raises it)",
                e.name,
                field="file_size",
            )
        parts = split_parts(e.name)
        key = "/".join(parts).lower()
        if key in seen:
            raise archive.error(
                f"extracts to the same file as {seen[key].name!r} (names differ only in case)",
                e.name,
            )
        seen[key] = e
        for i in range(1, len(parts)):
            folders.setdefault("/".join(parts[:i]).lower(), e)
        target = outdir.joinpath(*parts)
        real = Path(os.path.realpath(target))
        if real != root and root not in real.parents:
            raise archive.error(f"would be written outside {outdir} (through a symlink)", e.name)
        if target.is_dir():
            raise archive.error(f"would replace the folder {target}", e.name)
        out.append((e, target))
    for key, e in seen.items():
        if key in folders:
            raise archive.error(f"is a file, and also the folder of {folders[key].name!r}", e.name)
    return out


def _no_context(path: Path) -> AbstractContextManager[None]:
    return contextlib.nullcontext()


def extract(
    archive: Archive,
    outdir: str | os.PathLike[str],
    pattern: str | None = None,
    *,
    max_total: int = MAX_TOTAL,
    writing: Writing = _no_context,
    on_written: Callable[[Path], None] | None = None,
) -> list[Path]:
    """Write the selected entries under ``outdir`` by their inner paths, all or nothing; the
    files written. ``writing(target)`` wraps each step writing ``target`` (the CLI turns an
    OSError there into "cannot write TARGET"); ``on_written`` is called for each file once all
    are in place. ArchiveError (nothing written) for a bad or hostile archive."""
    folder = Path(outdir)
    created = make_folders(folder)
    recover(folder)
    try:
        moved = _extract(archive, folder, pattern, max_total, writing)
    except BaseException:
        remove_empty(created)
        raise
    for target in moved:
        if on_written is not None:
            on_written(target)
    return moved


def _extract(
    archive: Archive, folder: Path, pattern: str | None, max_total: int, writing: Writing
) -> list[Path]:
    todo = plan(archive, folder, select(archive, pattern), max_total=max_total)
    with _staging(folder) as stage:
        staged: list[tuple[Path, Path]] = []
        for n, (entry, target) in enumerate(todo):
            tmp = stage / str(n)
            with writing(target), open(tmp, "xb") as f:
                archive.copy(entry, f)
            staged.append((tmp, target))
        return _move_all(staged, stage, writing)


@contextlib.contextmanager
def _staging(folder: Path) -> Iterator[Path]:
    """A new, empty folder inside ``folder`` (same file system: moves are renames), removed
    with whatever is left in it at the end."""
    while True:
        stage = folder / f"{STAGE_PREFIX}{os.getpid()}.{os.urandom(4).hex()}"
        try:
            stage.mkdir()
            break
        except FileExistsError:
            continue
    try:
        yield stage
    finally:
        shutil.rmtree(stage, ignore_errors=True)


def _note(journal: TextIO, *words: str | Path) -> None:
    """One journal line, written through to the file (it outlives this process) before the
    step it announces; paths in hex, so that any name fits on one line."""
    journal.write(" ".join(os.fsencode(w).hex() if isinstance(w, Path) else w for w in words))
    journal.write("\n")
    journal.flush()


def _move_all(staged: list[tuple[Path, Path]], stage: Path, writing: Writing) -> list[Path]:
    """Rename every staged file onto its target; on failure undo every rename (a replaced file
    comes back from the staging folder) and remove the folders made here. Each step is
    journalled first, for :func:`recover` when this process is killed half way."""
    done: list[tuple[Path, Path | None]] = []
    created: list[Path] = []
    try:
        with open(stage / JOURNAL, "w", encoding="ascii") as journal:
            for n, (tmp, target) in enumerate(staged):
                with writing(target):
                    for made in make_folders(target.parent, journal):
                        created.append(made)
                    backup: Path | None = None
                    if os.path.lexists(target):
                        backup = stage / f"{n}.orig"
                        _note(journal, "replace", str(n), target)
                        os.replace(target, backup)
                        done.append((target, backup))
                        os.replace(tmp, target)
                    else:
                        _note(journal, "new", str(n), target)
                        os.replace(tmp, target)
                        done.append((target, None))
    except BaseException:
        for target, backup in reversed(done):
            with contextlib.suppress(OSError):
                if backup is None:
                    os.unlink(target)
                elif os.path.lexists(backup):
                    os.replace(backup, target)
        remove_empty(created)
        raise
    return [target for _, target in staged]


def make_folders(folder: Path, journal: TextIO | None = None) -> list[Path]:
    """Make ``folder`` and its missing parents; the folders made, outermost first (each
    journalled before it is made when a ``journal`` is given)."""
    missing: list[Path] = []
    p = folder
    while not os.path.lexists(p) and p.parent != p:
        missing.append(p)
        p = p.parent
    for p in reversed(missing):
        if journal is not None:
            _note(journal, "mkdir", p)
        p.mkdir()
    return list(reversed(missing))


def _alive(pid: int) -> bool:
    """Whether a process ``pid`` exists (one of another user counts as alive)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return pid > 0
    return True


def recover(folder: Path) -> int:
    """Undo the extractions into ``folder`` whose process was killed half way: each staging
    folder of a process that is gone has its journal played backwards (files it moved in are
    removed, files it replaced come back, folders it made are removed when empty) and is then
    removed. A warning names each; the number undone."""
    undone = 0
    try:
        stages = [p for p in folder.iterdir() if p.name.startswith(STAGE_PREFIX)]
    except OSError:
        return 0
    for stage in sorted(stages):
        pid = stage.name[len(STAGE_PREFIX) :].partition(".")[0]
        if not pid.isdigit() or int(pid) == os.getpid() or _alive(int(pid)):
            continue
        if stage.is_symlink() or not stage.is_dir():
            continue
        restored, removed = _undo(stage)
        shutil.rmtree(stage, ignore_errors=True)
        undone += 1
        warnings.warn(
            f"{folder}: undid an extraction that was killed half way (process {pid}):"
            f" {restored} file(s) restored, {removed} removed",
            QuakeModelsWarning,
            stacklevel=2,
        )
    return undone


def _undo(stage: Path) -> tuple[int, int]:
    """Play a staging folder's journal backwards: (files restored, files removed)."""
    try:
        lines = (stage / JOURNAL).read_text(encoding="ascii").splitlines()
    except (OSError, UnicodeDecodeError):
        return 0, 0
    restored = removed = 0
    folders: list[Path] = []
    for line in reversed(lines):
        words = line.split(" ")
        try:
            path = Path(os.fsdecode(bytes.fromhex(words[-1])))
        except ValueError:
            continue  # a line cut short by the kill: its step was never taken
        with contextlib.suppress(OSError):
            if words[0] == "mkdir" and len(words) == 2:
                folders.append(path)
            elif words[0] == "new" and len(words) == 3 and path.is_file():
                path.unlink()
                removed += 1
            elif words[0] == "replace" and len(words) == 3:
                backup = stage / f"{words[1]}.orig"
                if os.path.lexists(backup):
                    os.replace(backup, path)
                    restored += 1
    remove_empty(list(reversed(folders)))
    return restored, removed


def remove_empty(folders: list[Path]) -> None:
    """Remove the folders (made by this extraction), innermost first, when they are empty."""
    for p in reversed(folders):
        with contextlib.suppress(OSError):
            p.rmdir()
