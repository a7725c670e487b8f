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

import array
import contextlib
import fnmatch
import hashlib
import itertools
import os
import shutil
import stat
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from pathlib import Path

from ..core.records import overload
from ..errors import QuakeModelsWarning
from .base import MAX_TOTAL, Archive, Entry, vectorised
from .names import name_key, split_parts

TYPE_CHECKING = False  # typing is not imported at run time (see core/records.py)
if TYPE_CHECKING:
    from typing import TextIO

STAGE_PREFIX = ".quakemodels-extract."
# In the staging folder, one line per step of the moves, written before the step is taken:
# "new <n> <target hex>", "replace <n> <target hex>" or "mkdir <folder hex>".
JOURNAL = "journal"
Writing = Callable[[Path], AbstractContextManager[None]]


def select(archive: Archive, pattern: str | None = None) -> Sequence[int]:
    """The positions in ``archive.entries`` of the entries whose name matches the shell
    ``pattern`` (ASCII case ignored), or of all of them (ascending; an int64 array, eight
    bytes a pick)."""
    n = len(archive.entries)
    if pattern is None:
        return range(n)
    pat = name_key(pattern.replace("\\", "/"), "quake3")
    names = archive.entries.names()
    return array.array(
        "q", (i for i in range(n) if fnmatch.fnmatchcase(name_key(names[i], "quake3"), pat))
    )


class Targets(Sequence[Path]):
    """Where the entries at ``picks`` land under ``folder``: ``targets[k]`` is the path of
    the k-th (made on demand: a million entries need no million Path objects at once)."""

    def __init__(self, archive: Archive, folder: Path, picks: Sequence[int]) -> None:
        self.archive = archive
        self.folder = folder
        self.picks = picks

    def __len__(self) -> int:
        return len(self.picks)

    @overload
    def __getitem__(self, k: int) -> Path: ...
    @overload
    def __getitem__(self, k: slice) -> list[Path]: ...
    def __getitem__(self, k: int | slice) -> Path | list[Path]:
        if isinstance(k, slice):
            return [self[j] for j in range(*k.indices(len(self)))]
        name = self.archive.entries.name(self.picks[k])
        return self.folder.joinpath(*split_parts(name))

    def entry(self, k: int) -> Entry:
        """The k-th entry."""
        return self.archive.entries[self.picks[k]]


def _key_hash(key: str) -> int:
    """A 64-bit hash of a folded name (blake2b: no collisions to craft)."""
    return int.from_bytes(
        hashlib.blake2b(key.encode("utf-8", "surrogateescape"), digest_size=8).digest(), "little"
    )


def plan(
    archive: Archive,
    outdir: Path,
    picks: Sequence[int],
    *,
    max_total: int = MAX_TOTAL,
) -> Targets:
    """Where every picked entry lands, after every check above; nothing is written.

    Memory stays a few bytes per entry (a million-entry pak): names are compared by 64-bit
    hashes in arrays (an equal pair of hashes is then compared by name), and each folder's
    real path is resolved once."""
    root = Path(os.path.realpath(outdir))
    targets = Targets(archive, outdir, picks)
    n = len(picks)
    hashes = array.array("Q", bytes(8 * n))
    folder_hashes: dict[int, int] = {}  # folder key's hash -> position of an entry under it
    real_folders: dict[str, bool] = {}  # a folder below outdir -> whether it stays inside
    total = 0
    for k in range(n):
        e = targets.entry(k)
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
        hashes[k] = _key_hash("/".join(parts).lower())
        for i in range(1, len(parts)):
            folder_hashes.setdefault(_key_hash("/".join(parts[:i]).lower()), k)
        parent = os.path.join(outdir, *parts[:-1])
        inside = real_folders.get(parent)
        if inside is None:
            real = Path(os.path.realpath(parent))
            inside = real_folders[parent] = real == root or root in real.parents
        target = os.path.join(parent, parts[-1])
        try:
            st = os.lstat(target)
        except OSError:
            st = None
        if st is not None and stat.S_ISLNK(st.st_mode):  # resolve it, as the folders were
            real = Path(os.path.realpath(target))
            inside = inside and (real == root or root in real.parents)
            st = os.stat(target) if os.path.exists(target) else None
        if not inside:
            raise archive.error(f"would be written outside {outdir} (through a symlink)", e.name)
        if st is not None and stat.S_ISDIR(st.st_mode):
            raise archive.error(f"would replace the folder {target}", e.name)
    _refuse_clashes(targets, hashes, folder_hashes)
    return targets


def _refuse_clashes(
    targets: Targets, hashes: array.array[int], folder_hashes: dict[int, int]
) -> None:
    """ArchiveError for two entries landing on one file once case is ignored, or an entry
    that is also another's folder (names compared where their hashes are equal; the hashes
    sorted and matched with numpy past PLAIN_MAX_ENTRIES picks)."""
    archive = targets.archive

    def key(k: int) -> str:
        return "/".join(split_parts(targets.entry(k).name)).lower()

    if vectorised(len(hashes)):
        from .fast import hash_clashes

        same, under = hash_clashes(hashes, folder_hashes)
    else:
        order = sorted(range(len(hashes)), key=hashes.__getitem__)  # stable, as numpy's
        same = [(a, b) for a, b in itertools.pairwise(order) if hashes[a] == hashes[b]]
        under = [k for k, h in enumerate(hashes) if h in folder_hashes]
    for first, second in same:
        if key(first) == key(second):
            raise archive.error(
                f"extracts to the same file as {targets.entry(first).name!r} (names differ only"
                " in case)",
                targets.entry(second).name,
            )
    for k in under:
        other = folder_hashes[hashes[k]]
        parts = split_parts(targets.entry(other).name)
        if key(k) in ("/".join(parts[:i]).lower() for i in range(1, len(parts))):
            raise archive.error(
                f"is a file, and also the folder of {targets.entry(other).name!r}",
                targets.entry(k).name,
            )


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
) -> Sequence[Path]:
    """Write the selected entries under ``outdir`` by their inner paths, all or nothing; the
    files written (a sequence made on demand). ``writing(target)`` wraps each step writing
    ``target`` (the CLI turns an OSError there into "cannot write TARGET"); ``on_written`` is
    called for each file once all are in place. ArchiveError (nothing written) for a bad or
    hostile archive."""
    folder = Path(outdir)
    created = make_folders(folder)
    recover(folder)
    try:
        moved = _extract(archive, folder, pattern, max_total, writing)
    except BaseException:
        remove_empty(created)
        raise
    if on_written is not None:
        for target in moved:
            on_written(target)
    return moved


def _extract(
    archive: Archive, folder: Path, pattern: str | None, max_total: int, writing: Writing
) -> Targets:
    todo = plan(archive, folder, select(archive, pattern), max_total=max_total)
    with _staging(folder) as stage:
        for k in range(len(todo)):
            target = todo[k]
            with writing(target), open(stage / str(k), "xb") as f:
                archive.copy(todo.entry(k), f)
        _move_all(todo, stage, writing)
        return todo


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


_NEW, _REPLACED = 1, 2  # what _move_all did with staged file k


def _move_all(todo: Targets, stage: Path, writing: Writing) -> None:
    """Rename every staged file (``stage/k``) onto its target; on failure undo every rename
    (a replaced file comes back from the staging folder) and remove the folders made here.
    Each step is journalled first, for :func:`recover` when this process is killed half way.
    What was done is one byte per file, the targets made again from the entries to undo."""
    done = bytearray(len(todo))
    created: list[Path] = []
    made: set[str] = set()  # folders known to exist: one check per folder, not per file
    try:
        with open(stage / JOURNAL, "w", encoding="ascii") as journal:
            for n in range(len(todo)):
                target = todo[n]
                tmp = stage / str(n)
                with writing(target):
                    parent = os.fspath(target.parent)
                    if parent not in made:
                        created.extend(make_folders(target.parent, journal))
                        made.add(parent)
                    if os.path.lexists(target):
                        backup = stage / f"{n}.orig"
                        _note(journal, "replace", str(n), target)
                        os.replace(target, backup)
                        done[n] = _REPLACED
                        os.replace(tmp, target)
                    else:
                        _note(journal, "new", str(n), target)
                        os.replace(tmp, target)
                        done[n] = _NEW
    except BaseException:
        for n in reversed(range(len(todo))):
            if not done[n]:
                continue
            target = todo[n]
            backup = stage / f"{n}.orig"
            with contextlib.suppress(OSError):
                if done[n] == _NEW:
                    os.unlink(target)
                elif os.path.lexists(backup):
                    os.replace(backup, target)
        remove_empty(created)
        raise


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
