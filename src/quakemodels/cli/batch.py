"""The batch runner verbs share: expand inputs, work in parallel processes, summarize.

Inputs are files, directories (searched recursively for ``*.md2`` and ``*.md3``, any case),
glob patterns, paths through archives (``pak0.pak/models/a/tris.md2``), and archives and game
folders (holding ``pakN.pak``/``*.pk3``), which stand for every model the engine sees in them.
A Quake III player folder (``lower.md3``, ``upper.md3``, ``head.md3``) is one input, named or
found in a search, and its three parts are not inputs of their own (a folder with only some of
them gets a warning naming the missing ones). Each model keeps its place in the tree it was
found in (:func:`expand_tree`), where the writing verbs put its output below ``-o``.
Each input is handled by a worker function in a pool of ``-j N`` worker processes (default the
CPU count; one input or ``-j 1`` runs in-process). The workers start once and are reused: each
receives the verb's function and options once, then chunks of inputs, the largest files first
so the last chunks are short and the workers finish together. On Linux they are forked from
this process (with every module it imported) and fed through pipes; elsewhere a
ProcessPoolExecutor runs them. A bad file never stops the
batch: its error is printed and counted. A progress bar is drawn on stderr only when stderr is
a terminal; the summary line ``N files: X ok, Y failed`` ends the run (``--quiet`` leaves it
out, with the per-file lines). The exit code is 3 if any output could not be written, else 1
if any file failed.

Ctrl-C (or the output pipe closing) stops the batch at once: pending files are cancelled and the
worker processes terminated; a terminated worker removes the temporary file it was writing.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import pickle
import re
import signal
import sys
import time
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from ..archive.names import name_key
from ..archive.vpath import game_folder_above, game_roots, is_game_folder, split_archive_path
from ..core.records import Record
from ..errors import ModelFormatError, QuakeModelsWarning, UnsupportedError
from ..registry import FORMATS, folder_sets, is_folder_set, is_game_path
from .output import (
    EXIT_BAD_INPUT,
    EXIT_OK,
    EXIT_OUTPUT,
    EXIT_USAGE,
    OutputError,
    missing_dependency,
    reported_warnings,
    warning_lines,
)

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

# each suffix once (Quake's and Half-Life's sprites share .spr), in the formats' order
MODEL_SUFFIXES = tuple(dict.fromkeys(suffix for fmt in FORMATS for suffix in fmt.suffixes))

# A worker gets one model path and the verb's options; returns lines to print (e.g. "wrote X")
# for run_batch, or any picklable value for iter_outcomes' callers.
Worker = Callable[[str, dict[str, Any]], Any]


class Outcome(Record):
    """What happened to one input file: ``ok``, the worker's ``value`` and ``lines`` to print,
    or its ``error``; the ``warnings`` it gave; ``output_failed`` when writing the output
    failed, ``unsupported`` when the file's format cannot serve the verb (UnsupportedError).

    A plain slotted record (no dataclass: its generated code is a start-up cost of every
    command that reads files; see core/records.py)."""

    __slots__ = (
        "error",
        "lines",
        "ok",
        "output_failed",
        "path",
        "unsupported",
        "value",
        "warnings",
    )

    def __init__(
        self,
        path: str,
        ok: bool,
        value: Any = None,
        lines: list[str] | None = None,
        error: str = "",
        warnings: list[str] | None = None,
        output_failed: bool = False,
        unsupported: bool = False,
    ) -> None:
        self.path = path
        self.ok = ok
        self.value = value
        self.lines: list[str] = [] if lines is None else lines
        self.error = error
        self.warnings: list[str] = [] if warnings is None else warnings
        self.output_failed = output_failed
        self.unsupported = unsupported


def add_batch_args(
    parser: argparse.ArgumentParser,
    *,
    quiet: str = "print only errors and warnings (no per-file lines, no summary)",
) -> None:
    """The ``-j/--jobs`` and ``-q/--quiet`` options (``quiet``: the verb's help for -q)."""
    parser.add_argument("-q", "--quiet", action="store_true", help=quiet)
    parser.add_argument(
        "-j",
        "--jobs",
        type=int,
        default=None,
        metavar="N",
        help="parallel worker processes (default: the number of CPUs)",
    )


def _search(folder: Path) -> list[str]:
    """Model files and player folders below ``folder`` (itself included), sorted."""
    if is_folder_set(folder):
        return [str(folder)]
    found: list[str] = []
    for dirpath, dirnames, filenames in os.walk(folder):
        here = Path(dirpath)
        dirnames.sort()
        warn_incomplete_players([f"{here}/{name}" for name in filenames])
        player = here != folder and is_folder_set(here)
        if player:
            found.append(str(here))
        for name in filenames:
            if player and name.lower() in PLAYER_PARTS:
                continue
            if Path(name).suffix.lower() in MODEL_SUFFIXES and (here / name).is_file():
                found.append(str(here / name))
    return sorted(found)


def add_game_dir_arg(parser: argparse.ArgumentParser) -> None:
    """The ``--game-dir DIR`` option: look skins up through that game's search path."""
    parser.add_argument(
        "--game-dir",
        default=None,
        metavar="DIR",
        help="game folder whose paks/pk3s and files skins are found in, in the engine's order"
        " (default: inferred for models in archives or under a folder with pakN.pak/*.pk3)",
    )


def is_game_input(item: str) -> bool:
    """True for a .pak/.pk3 file or a game folder (one holding ``pakN.pak`` or ``*.pk3``)."""
    path = Path(item)
    if path.is_dir():
        return is_game_folder(path)
    return path.is_file() and path.suffix.lower() in (".pak", ".pk3")


def game_models(item: str, under: str = "") -> list[str]:
    """Every model the engine sees in an archive or game folder (the winning copy of each
    name), as paths: ``baseq2/pak0.pak/models/a/tris.md2`` inside archives, plain paths for
    loose files; only those in the folder ``under`` (``models/players``) when given."""
    return [path for path, _ in named_game_models(item, under)]


def named_game_models(item: str, under: str = "") -> list[tuple[str, str]]:
    """:func:`game_models` with each one's name in the game (``models/a/tris.md2``, a player
    folder's ``models/players/sarge``), ``/``-separated as the archive or folder stores it."""
    out: list[tuple[str, str]] = []
    # the archive readers and the player's files, only for a game folder
    from ..archive import Found, GameFS

    prefix = under.replace("\\", "/").strip("/").lower() + "/" if under else ""
    with GameFS(item) as fs:
        single = fs.sources[0].archive if len(fs.sources) == 1 else None
        if single is not None:
            # one archive: only the names that can matter (models, player cfgs) become str,
            # found with one scan of the names' bytes
            table = single.entries
            wanted = table.ending_with([*MODEL_SUFFIXES, "animation.cfg"])
            keys = {i: name_key(table.name(i), "quake3") for i in wanted}
            listing: list[tuple[Found, list[Any]]] = []
            for i in sorted(keys, key=keys.__getitem__):  # stable: directory order on ties
                entry = table[i]
                if entry.name.replace("\\", "/").lower().startswith(prefix):
                    listing.append((Found(entry.name, fs.sources[0], entry.size, entry=entry), []))
        else:
            listing = [
                f for f in fs.listing() if f[0].name.replace("\\", "/").lower().startswith(prefix)
            ]
        names = [found.name for found, _ in listing]
        # a player folder is one input (its parts are not inputs of their own)
        players = folder_sets(names)
        parts = {name.lower() for folder in players.values() for name in folder.values()}
        for folder in players:
            game = Path(item).is_dir() and folder.split("/")[0].lower() == "models"
            out.append((str(Path(item) / folder) if game else f"{item}/{folder}", folder))
        for found, _ in listing:
            ext = os.path.splitext(found.name)[1].lower()
            if ext not in MODEL_SUFFIXES or found.name.lower() in parts:
                continue
            if found.file is not None:
                out.append((str(found.file), found.name))
            else:
                out.append((f"{found.source.path}/{found.name}", found.name))
        warn_incomplete_players(names, item)
    return out


def in_game_folder(item: str) -> list[str] | None:
    """The models and players the engine sees in a folder inside a game folder (one holding
    ``*.pk3``/``pakN.pak``), whether the folder is on disk or only in the game's archives
    (``baseq3/models/players``); None when ``item`` is no such folder or holds none."""
    path = Path(item)
    if path.is_file() or (path.is_dir() and is_folder_set(path)):
        return None
    game = game_folder_above(path / "-")
    if game is None or game == path:
        return None
    found = _in_game_folder_named(path, game)
    return [p for p, _ in found] if found else None


def _in_game_folder_named(path: Path, game: Path) -> list[tuple[str, str]] | None:
    """:func:`in_game_folder`'s models with their names in the game (None on an error)."""
    inner = path.relative_to(game).as_posix()
    try:
        return named_game_models(str(game), under=inner)
    except (ModelFormatError, OSError):
        return None


def inner_name(path: str) -> str | None:
    """The name inside its archive of a path through one (``models/a/tris.md2``), or inside
    its game folder of a player named there (``models/players/sarge``), else None."""
    split = split_archive_path(path)
    if split is None and not os.path.exists(path):
        found = game_roots(path)
        return None if found is None else found[1]
    return None if split is None else split[1]


def unprefixed(path: str, message: str) -> str:
    """``message`` without a leading ``path: `` (an archive's errors start with its path, and
    the CLI prints the input's path before every error already)."""
    prefix = f"{path}: "
    return message[len(prefix) :] if message.startswith(prefix) else message


def expand(inputs: Sequence[str]) -> tuple[list[str], list[Outcome]]:
    """Model files named by ``inputs`` (in order, no repeats), and failures for names that
    match nothing."""
    files, missing, _ = expand_tree(inputs)
    return files, missing


def expand_tree(inputs: Sequence[str]) -> tuple[list[str], list[Outcome], dict[str, str]]:
    """:func:`expand`, and each file's place in the tree it was found in, ``/``-separated
    (untrusted: :func:`safe_relative` makes it a path): ``tank/tris.md2`` for
    ``tree/tank/tris.md2`` found in ``tree/``; the name in the game (``models/a/tris.md2``)
    for a model of an archive or a game folder, from the folder named when it is one inside
    a game folder; from the fixed folders of a glob (``players/**/*.md2`` → ``male/tris.md2``);
    the file name of a file named itself.

    An incomplete Quake III player (a folder with some of ``lower/upper/head.md3``) gets one
    warning naming the missing parts; its parts are models of their own."""
    files: list[str] = []
    missing: list[Outcome] = []
    places: dict[str, str] = {}
    seen: set[str] = set()

    def add(path: str, place: str) -> None:
        key = os.path.normpath(path)
        if key not in seen:
            seen.add(key)
            files.append(path)
            places[path] = place

    for item in inputs:
        with reported_warnings(item):
            _expand_one(item, add, missing)
    return files, missing, places


def _expand_one(item: str, add: Callable[[str, str], None], missing: list[Outcome]) -> None:
    """The models ``item`` names, each given to ``add`` with its place (see expand_tree)."""
    kinds = " or ".join(MODEL_SUFFIXES)
    if is_game_input(item):
        try:
            inside = named_game_models(item)
        except (ModelFormatError, OSError) as e:
            missing.append(Outcome(item, False, error=unprefixed(item, str(e))))
            return
        if not inside:
            missing.append(Outcome(item, False, error=f"no {kinds} files in this game data"))
        for model, name in inside:
            add(model, name)
        return
    path = Path(item)
    player = path.is_dir() and is_folder_set(path)
    game = None if path.is_file() or player else game_folder_above(path / "-")
    named = None if game is None or game == path else _in_game_folder_named(path, game)
    if named:
        assert game is not None
        under = path.relative_to(game).as_posix().strip("/")
        for model, name in named:
            add(model, name[len(under) + 1 :] if under else name)
    elif path.is_dir():
        found = _search(path)
        if not found:
            missing.append(Outcome(item, False, error=f"no {kinds} files in this folder"))
        for p in found:
            rel = Path(p).relative_to(path).as_posix()
            add(p, Path(p).name if rel == "." else rel)
    elif os.path.exists(item):
        add(item, path.name)
    elif is_game_path(item):
        # a path through an archive, or a player or file in a game folder: its name there
        add(item, inner_name(item) or path.name)
    elif _has_magic(item):
        import glob  # only for a pattern: most items name a file

        base = _glob_base(item)
        matches = sorted(
            p for p in glob.glob(item, recursive=True) if os.path.isfile(p) or is_folder_set(p)
        )
        if not matches:
            missing.append(Outcome(item, False, error="no files match this pattern"))
        for p in matches:
            rel = os.path.relpath(p, base) if base else p
            add(p, Path(rel).as_posix())
    else:
        missing.append(Outcome(item, False, error="no such file or directory"))


def _has_magic(text: str) -> bool:
    """Whether ``text`` is a glob pattern (has ``*``, ``?`` or ``[``, as glob.has_magic)."""
    return not _MAGIC.isdisjoint(text)


_MAGIC = frozenset("*?[")


def _glob_base(pattern: str) -> str:
    """The folders of a glob pattern before its first wildcard (``players`` for
    ``players/**/*.md2``; empty for ``*.md2``)."""
    parts = Path(pattern).parts
    fixed: list[str] = []
    for part in parts[:-1]:
        if _has_magic(part):
            break
        fixed.append(part)
    return str(Path(*fixed)) if fixed else ""


_UNSAFE_CHARACTERS = re.compile(r'[\x00-\x1f<>:"|?*]')


def safe_relative(place: str) -> Path:
    """A relative path from an untrusted ``place`` (see :func:`expand_tree`): ``/`` and ``\\``
    separate; empty, ``.`` and ``..`` components are dropped, so it never leaves the folder it
    is joined to; control characters and the ones Windows refuses in names become ``_``;
    a component of dots only becomes ``_``. An empty result is ``_``."""
    parts = []
    for part in place.replace("\\", "/").split("/"):
        if part in ("", ".", ".."):
            continue
        part = _UNSAFE_CHARACTERS.sub("_", part)
        parts.append("_" if part.strip(". ") == "" else part)
    return Path(*parts) if parts else Path("_")


def incomplete_players(names: Iterable[str]) -> dict[str, list[str]]:
    """Folders among ``names`` (``/``-separated) that look like a Quake III player but lack a
    part: some of ``lower.md3``, ``upper.md3``, ``head.md3`` and an ``animation.cfg``, or two
    of the parts, but not all three. Folder → the missing part files."""
    found: dict[str, set[str]] = {}
    cfg: set[str] = set()
    for name in names:
        folder, _, leaf = name.replace("\\", "/").rpartition("/")
        low = leaf.lower()
        if low == "animation.cfg":
            cfg.add(folder)
        elif low in PLAYER_PARTS:
            found.setdefault(folder, set()).add(low)
    return {
        folder: [p for p in PLAYER_PARTS if p not in parts]
        for folder, parts in sorted(found.items())
        if len(parts) < len(PLAYER_PARTS) and (folder in cfg or len(parts) >= 2)
    }


PLAYER_PARTS = ("lower.md3", "upper.md3", "head.md3")


def warn_incomplete_players(names: Iterable[str], where: str = "") -> None:
    """One warning per incomplete player folder among ``names`` (see incomplete_players)."""
    for folder, lacks in incomplete_players(names).items():
        label = f"{where}/{folder}" if where and folder else where or folder
        have = ", ".join(p for p in PLAYER_PARTS if p not in lacks)
        warnings.warn(
            f"{label} is not a whole Quake III player: {' and '.join(lacks)} missing;"
            f" read as single models: {have}",
            QuakeModelsWarning,
            stacklevel=2,
        )


def _call(worker: Worker, path: str, options: dict[str, Any]) -> Outcome:
    """Run ``worker`` on one file; every error becomes a failed Outcome, never an exception."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            value = worker(path, options)
            lines = (
                value if isinstance(value, list) and all(isinstance(v, str) for v in value) else []
            )
            outcome = Outcome(path, True, value=value, lines=lines)
        except ModelFormatError as e:
            outcome = Outcome(path, False, error=unprefixed(path, str(e)))
        except OutputError as e:
            outcome = Outcome(path, False, error=str(e), output_failed=True)
        except UnsupportedError as e:
            outcome = Outcome(path, False, error=str(e), unsupported=True)
        except ImportError as e:
            outcome = Outcome(path, False, error=missing_dependency(e))
        except OSError as e:
            outcome = Outcome(
                path,
                False,
                error=f"{e.strerror or e}"
                + (f": {e.filename}" if e.filename and e.filename != path else ""),
            )
        except (KeyError, IndexError, ValueError) as e:
            outcome = Outcome(path, False, error=str(e.args[0]) if e.args else repr(e))
        except Exception as e:  # a bug must not stop the batch either; name it plainly
            outcome = Outcome(path, False, error=f"internal error: {type(e).__name__}: {e}")
    # one line per cause: the same warning comes once per surface or skin lookup
    outcome.warnings = warning_lines(w.message for w in caught)
    return outcome


class Progress:
    """A one-line progress bar on stderr, drawn only when stderr is a terminal."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.done = 0
        self.enabled = total > 1 and sys.stderr.isatty()

    def clear(self) -> None:
        if self.enabled:
            sys.stderr.write("\r\x1b[K")

    def step(self) -> None:
        self.done += 1
        if self.enabled:
            width = 30
            filled = width * self.done // self.total
            bar = "#" * filled + "." * (width - filled)
            sys.stderr.write(f"\r[{bar}] {self.done}/{self.total}")
            sys.stderr.flush()


def _report(outcome: Outcome, progress: Progress, quiet: bool = False) -> None:
    progress.clear()
    for message in outcome.warnings:
        print(f"{outcome.path}: warning: {message}", file=sys.stderr)
    if outcome.ok:
        for line in [] if quiet else outcome.lines:
            print(line)
        sys.stdout.flush()
    else:
        print(f"{outcome.path}: error: {outcome.error}", file=sys.stderr)


# What a pool worker process runs: the verb's function and options, set once per process.
_JOB: tuple[Worker, dict[str, Any]] | None = None


def _chunks(files: Sequence[str], workers: int) -> list[list[str]]:
    """``files`` in chunks for ``workers`` processes, largest files first: about four chunks
    per worker, so the progress bar moves and no worker is left with a long tail."""

    def size(path: str) -> int:
        try:
            return os.stat(path).st_size
        except OSError:
            return 0  # the worker reports the error

    ordered = sorted(files, key=size, reverse=True)
    per_chunk = max(1, -(-len(ordered) // (4 * workers)))
    return [ordered[i : i + per_chunk] for i in range(0, len(ordered), per_chunk)]


def iter_outcomes(
    files: Sequence[str],
    worker: Worker,
    options: dict[str, Any],
    jobs: int | None,
    progress: Progress,
) -> Iterator[Outcome]:
    """``worker`` over ``files`` (in-process for one worker, else a process pool), each
    outcome as its chunk completes; the progress bar steps after each."""
    workers = max(1, min(jobs or os.cpu_count() or 1, len(files)))
    if workers == 1:
        for path in files:
            yield _call(worker, path, options)
            progress.step()
        return
    if _can_fork():
        yield from _forked_outcomes(files, worker, options, workers, progress)
        return
    # Imported here: multiprocessing and concurrent.futures are a tenth of the start-up of a
    # one-file run, which never needs them.
    from concurrent.futures import ProcessPoolExecutor, as_completed

    pool = ProcessPoolExecutor(
        max_workers=workers, initializer=_start_worker, initargs=(worker, options)
    )
    futures: dict[Future[list[Outcome]], list[str]] = {}
    try:
        futures = {pool.submit(_call_chunk, chunk): chunk for chunk in _chunks(files, workers)}
        for future in as_completed(futures):
            try:
                outcomes = future.result()
            except Exception as e:  # the worker process died (e.g. killed for memory)
                outcomes = [Outcome(p, False, error=f"worker failed: {e}") for p in futures[future]]
            for outcome in outcomes:
                yield outcome
                progress.step()
    except BaseException:  # Ctrl-C, a closed pipe, or the caller stopped early
        _stop(pool)
        raise
    pool.shutdown()


# -- the pool on Linux: forked workers, a pipe each way ----------------------------------------
#
# concurrent.futures and multiprocessing take longer to import than the pool saves on a batch
# of a few dozen models, and a fork starts each worker with every module the parent imported.
# Each worker reads pickled chunks from its task pipe and writes their outcomes, pickled, to
# its result pipe; end of file on the task pipe stops it. Elsewhere (macOS and Windows spawn
# their workers) and in a process with threads (forking one is unsafe), ProcessPoolExecutor
# runs the same worker functions.


def _can_fork() -> bool:
    """True on Linux in a process with one thread."""
    if not sys.platform.startswith("linux") or not hasattr(os, "fork"):
        return False
    threading = sys.modules.get("threading")
    return threading is None or threading.active_count() == 1


class _Child(Record):
    """A forked worker: its pid, the parent's ends of its pipes, and the chunk it works on."""

    __slots__ = ("chunk", "pid", "results", "tasks")

    def __init__(self, pid: int, tasks: BinaryIO, results: BinaryIO) -> None:
        self.pid = pid
        self.tasks = tasks
        self.results = results
        self.chunk: list[str] | None = None

    def give(self, chunk: list[str]) -> None:
        pickle.dump(chunk, self.tasks, pickle.HIGHEST_PROTOCOL)
        self.tasks.flush()
        self.chunk = chunk


def _fork_child(worker: Worker, options: dict[str, Any], others: Sequence[_Child]) -> _Child:
    """Start one worker process (see :func:`_child_loop`)."""
    task_read, task_write = os.pipe()
    result_read, result_write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the worker: never returns
        code = 1
        try:
            os.close(task_write)
            os.close(result_read)
            for other in others:  # else a worker would hold another's pipes open
                other.tasks.close()
                other.results.close()
            code = _child_loop(task_read, result_write, worker, options)
        finally:
            os._exit(code)
    os.close(task_read)
    os.close(result_write)
    return _Child(pid, os.fdopen(task_write, "wb"), os.fdopen(result_read, "rb"))


def _child_loop(tasks_fd: int, results_fd: int, worker: Worker, options: dict[str, Any]) -> int:
    """A worker's life: chunks in, outcomes out, until the parent closes the task pipe (0) or
    the result pipe fails (1: the parent is gone or stopped listening)."""
    _start_worker(worker, options)
    try:
        with os.fdopen(tasks_fd, "rb") as tasks, os.fdopen(results_fd, "wb") as results:
            while True:
                try:
                    chunk = pickle.load(tasks)
                except EOFError:
                    return 0
                pickle.dump(_call_chunk(chunk), results, pickle.HIGHEST_PROTOCOL)
                results.flush()
    except BaseException:  # a closed pipe, an interrupt between jobs
        return 1


def _forked_outcomes(
    files: Sequence[str],
    worker: Worker,
    options: dict[str, Any],
    workers: int,
    progress: Progress,
) -> Iterator[Outcome]:
    """:func:`iter_outcomes` through ``workers`` forked processes: each gets a chunk, and the
    next when it returns one; a worker that dies fails its chunk and gets no more."""
    from select import select  # a parallel batch's alone

    pending = _chunks(files, workers)[::-1]  # popped from the end: largest first
    children: list[_Child] = []
    failed: list[Outcome] = []

    def drop(child: _Child, error: Exception) -> None:
        """A worker whose pipe failed: its chunk fails, and the rest when none is left."""
        reason = f"worker failed: {_died(child)} ({type(error).__name__})"
        children.remove(child)
        failed.extend(Outcome(p, False, error=reason) for p in child.chunk or [])
        if not children:
            failed.extend(Outcome(p, False, error=reason) for rest in pending for p in rest)
            pending.clear()

    def give_next(child: _Child) -> None:
        child.chunk = None
        if pending:
            try:
                child.give(pending[-1])
                pending.pop()
            except OSError as e:  # it died before reading it: the chunk stays pending
                drop(child, e)

    sys.stdout.flush()  # a worker must not inherit output the parent has not written yet
    sys.stderr.flush()
    # Every object the workers inherit goes out of the collector's reach in them: a collection
    # in a worker would otherwise touch each inherited object and copy every page it lives on
    # (about 4% of a corpus batch). The parent takes its objects back once the workers exist.
    gc.freeze()
    try:
        try:
            for _ in range(min(workers, len(pending))):
                child = _fork_child(worker, options, children)
                children.append(child)
                give_next(child)
        finally:
            gc.unfreeze()
        while busy := [c for c in children if c.chunk is not None]:
            ready, _, _ = select([c.results for c in busy], [], [])
            for child in busy:
                if child.results not in ready:
                    continue
                try:
                    outcomes: list[Outcome] = pickle.load(child.results)
                except (EOFError, OSError, pickle.UnpicklingError) as e:
                    drop(child, e)
                    outcomes = []
                else:
                    give_next(child)
                for outcome in [*outcomes, *failed]:
                    yield outcome
                    progress.step()
                failed.clear()
        for outcome in failed:  # a worker died before its first chunk
            yield outcome
            progress.step()
    except BaseException:  # Ctrl-C, a closed pipe, or the caller stopped early
        _stop_children(children, interrupt=True)
        raise
    _stop_children(children, interrupt=False)


def _died(child: _Child) -> str:
    """Why ``child``, whose result pipe failed, ended: its pipes are closed (which stops it,
    were it still running) and it is waited for."""
    with contextlib.suppress(OSError):
        child.tasks.close()
    with contextlib.suppress(OSError):
        child.results.close()
    try:
        _, status = os.waitpid(child.pid, 0)
    except ChildProcessError:
        return "exited"
    if os.WIFSIGNALED(status):
        return f"killed by signal {os.WTERMSIG(status)}"
    return f"exited with status {os.waitstatus_to_exitcode(status)}"


def _stop_children(children: Sequence[_Child], interrupt: bool) -> None:
    """End every worker: close its pipes (end of file stops it between jobs), with
    ``interrupt`` first send SIGINT (its current job unwinds, removing its temporary file);
    wait for each, killing any still running 5 s later."""
    if interrupt:
        for child in children:
            with contextlib.suppress(OSError):
                os.kill(child.pid, signal.SIGINT)
    for child in children:
        with contextlib.suppress(OSError):
            child.tasks.close()
        with contextlib.suppress(OSError):
            child.results.close()
    deadline = time.monotonic() + 5
    for child in children:
        with contextlib.suppress(ChildProcessError):
            while not os.waitpid(child.pid, os.WNOHANG)[0]:
                if time.monotonic() > deadline:
                    os.kill(child.pid, signal.SIGKILL)
                    os.waitpid(child.pid, 0)
                    break
                time.sleep(0.002)


# -- stopping a batch: Ctrl-C in a terminal reaches every process of the group ---------------

_in_job = False  # in a worker process: is a file being worked on?
_stopping = False  # in a worker process: interrupted; answer every later job "cancelled"


class _Interrupted(BaseException):
    """Raised in a worker by SIGINT/SIGTERM, so that ``finally`` blocks (temporary files) run."""


def _on_signal(signum: int, frame: object) -> None:
    global _stopping
    _stopping = True
    if _in_job:
        raise _Interrupted


def _worker_signals() -> None:
    """Worker start-up: SIGINT and SIGTERM unwind the current job (removing its temporary
    file) without a traceback; the worker then skips whatever it is still given."""
    signal.signal(signal.SIGINT, _on_signal)
    signal.signal(signal.SIGTERM, _on_signal)


def _start_worker(worker: Worker, options: dict[str, Any]) -> None:
    """Pool initializer: the signal handlers above, and the verb's worker and options kept
    for every chunk this process gets."""
    global _JOB
    _JOB = (worker, options)
    _worker_signals()


def _call_chunk(paths: list[str]) -> list[Outcome]:
    """Run the process's worker over ``paths`` (in a pool worker)."""
    assert _JOB is not None, "pool worker started without _start_worker"
    worker, options = _JOB
    return [_in_worker(worker, path, options) for path in paths]


def _in_worker(worker: Worker, path: str, options: dict[str, Any]) -> Outcome:
    global _in_job
    if _stopping:
        return Outcome(path, False, error="cancelled")
    _in_job = True
    try:
        return _call(worker, path, options)
    except _Interrupted:
        return Outcome(path, False, error="interrupted")
    finally:
        _in_job = False


def _stop(pool: ProcessPoolExecutor) -> None:
    """Drop the files not started, interrupt the workers' current jobs and wait for them
    (a worker that does not stop within 5 s is killed)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive() and process.pid is not None:
            os.kill(process.pid, signal.SIGINT)
    for process in processes:
        process.join(timeout=5)
        if process.is_alive():
            process.kill()
    pool.shutdown(wait=True)


def summary(outcomes: Sequence[Outcome]) -> str:
    """The closing line: ``N files: X ok, Y failed``."""
    ok = sum(o.ok for o in outcomes)
    noun = "file" if len(outcomes) == 1 else "files"
    return f"{len(outcomes)} {noun}: {ok} ok, {len(outcomes) - ok} failed"


def exit_code(outcomes: Sequence[Outcome]) -> int:
    """3 when an output could not be written, else 2 when every failure is a verb the file's
    format cannot serve, else 1 when any file failed (or none was given), else 0."""
    if any(o.output_failed for o in outcomes):
        return EXIT_OUTPUT
    failed = [o for o in outcomes if not o.ok]
    if failed and all(o.unsupported for o in failed):
        return EXIT_USAGE
    return EXIT_BAD_INPUT if any(not o.ok for o in outcomes) or not outcomes else EXIT_OK


def run_batch(
    inputs: Sequence[str],
    worker: Worker,
    options: dict[str, Any],
    jobs: int | None = None,
    quiet: bool = False,
    *,
    expanded: tuple[list[str], list[Outcome]] | None = None,
) -> int:
    """Run ``worker`` over every model ``inputs`` name; prints results and the summary line.

    ``worker`` must be a module-level function (it is sent to worker processes by name).
    ``expanded`` is :func:`expand` of ``inputs`` when the caller has it already.
    Returns the exit code (:func:`exit_code`).
    """
    files, failures = expand(inputs) if expanded is None else expanded
    progress = Progress(len(files))
    outcomes: list[Outcome] = list(failures)
    for outcome in failures:
        _report(outcome, progress)
    for outcome in iter_outcomes(files, worker, options, jobs, progress):
        _report(outcome, progress, quiet)
        outcomes.append(outcome)
    progress.clear()
    if not quiet:
        print(summary(outcomes), file=sys.stderr)
    return exit_code(outcomes)


def parse_size(text: str) -> tuple[int, int]:
    """``WxH`` (e.g. ``320x240``) → (W, H); argparse type for ``--size``."""
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"size {text!r} is not WxH, e.g. 256x256") from None
    if not (1 <= w <= 8192 and 1 <= h <= 8192):
        raise argparse.ArgumentTypeError(f"size {text!r}: width and height must be 1..8192")
    return w, h
