"""The batch runner verbs share: expand inputs, work in parallel processes, summarize.

Inputs are files, directories (searched recursively for ``*.md2`` and ``*.md3``, any case),
glob patterns, paths through archives (``pak0.pak/models/a/tris.md2``), and archives and game
folders (holding ``pakN.pak``/``*.pk3``), which stand for every model the engine sees in them.
Each file is handled by a worker function in its own process (a
``ProcessPoolExecutor`` with ``-j N`` workers, default the CPU count; one file or ``-j 1`` runs
in-process). A bad file never stops the batch: its error is printed and counted. A progress
bar is drawn on stderr only when stderr is a terminal; the summary line
``N files: X ok, Y failed`` always ends the run. The exit code is 1 if any file failed.
"""

from __future__ import annotations

import argparse
import glob
import os
import sys
import warnings
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..archive import GameFS
from ..archive.vpath import is_game_folder, split_archive_path
from ..errors import ModelFormatError
from ..registry import FORMATS

MODEL_SUFFIXES = tuple(suffix for fmt in FORMATS for suffix in fmt.suffixes)

# A worker gets one model path and the verb's options; returns lines to print (e.g. "wrote X")
# for run_batch, or any picklable value for iter_outcomes' callers.
Worker = Callable[[str, dict[str, Any]], Any]


@dataclass
class Outcome:
    """What happened to one input file."""

    path: str
    ok: bool
    value: Any = None
    lines: list[str] = field(default_factory=list)
    error: str = ""
    warnings: list[str] = field(default_factory=list)


def add_batch_args(parser: argparse.ArgumentParser) -> None:
    """The ``-j/--jobs`` option."""
    parser.add_argument(
        "-j",
        "--jobs",
        type=int,
        default=None,
        metavar="N",
        help="parallel worker processes (default: the number of CPUs)",
    )


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


def game_models(item: str) -> list[str]:
    """Every model the engine sees in an archive or game folder (the winning copy of each
    name), as paths: ``baseq2/pak0.pak/models/a/tris.md2`` inside archives, plain paths for
    loose files."""
    out = []
    with GameFS(item) as fs:
        for found, _ in fs.listing():
            if os.path.splitext(found.name)[1].lower() not in MODEL_SUFFIXES:
                continue
            if found.file is not None:
                out.append(str(found.file))
            else:
                out.append(f"{found.source.path}/{found.name}")
    return out


def inner_name(path: str) -> str | None:
    """The name inside its archive of a path through one (``models/a/tris.md2``), else None."""
    split = split_archive_path(path)
    return None if split is None else split[1]


def expand(inputs: Sequence[str]) -> tuple[list[str], list[Outcome]]:
    """Model files named by ``inputs`` (in order, no repeats), and failures for names that
    match nothing."""
    files: list[str] = []
    missing: list[Outcome] = []
    seen: set[str] = set()

    def add(path: str) -> None:
        key = os.path.normpath(path)
        if key not in seen:
            seen.add(key)
            files.append(path)

    for item in inputs:
        if is_game_input(item):
            try:
                inside = game_models(item)
            except (ModelFormatError, OSError) as e:
                missing.append(Outcome(item, False, error=str(e)))
                continue
            if not inside:
                kinds = " or ".join(MODEL_SUFFIXES)
                missing.append(Outcome(item, False, error=f"no {kinds} files in this game data"))
            for p in inside:
                add(p)
        elif os.path.isdir(item):
            found = sorted(
                str(p)
                for p in Path(item).rglob("*")
                if p.suffix.lower() in MODEL_SUFFIXES and p.is_file()
            )
            if not found:
                kinds = " or ".join(MODEL_SUFFIXES)
                missing.append(Outcome(item, False, error=f"no {kinds} files in this folder"))
            for p in found:
                add(p)
        elif os.path.exists(item):
            add(item)
        elif glob.has_magic(item):
            matches = sorted(p for p in glob.glob(item, recursive=True) if os.path.isfile(p))
            if not matches:
                missing.append(Outcome(item, False, error="no files match this pattern"))
            for p in matches:
                add(p)
        else:
            missing.append(Outcome(item, False, error="no such file or directory"))
    return files, missing


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
            outcome = Outcome(path, False, error=str(e))
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
    outcome.warnings = [str(w.message) for w in caught]
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


def _report(outcome: Outcome, progress: Progress) -> None:
    progress.clear()
    for message in outcome.warnings:
        print(f"{outcome.path}: warning: {message}", file=sys.stderr)
    if outcome.ok:
        for line in outcome.lines:
            print(line)
        sys.stdout.flush()
    else:
        print(f"{outcome.path}: error: {outcome.error}", file=sys.stderr)


def iter_outcomes(
    files: Sequence[str],
    worker: Worker,
    options: dict[str, Any],
    jobs: int | None,
    progress: Progress,
) -> Iterator[Outcome]:
    """``worker`` over ``files`` (in-process for one worker, else a process pool), each
    outcome as it completes; the progress bar steps after each."""
    workers = max(1, min(jobs or os.cpu_count() or 1, len(files)))
    if workers == 1:
        for path in files:
            yield _call(worker, path, options)
            progress.step()
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures: dict[Future[Outcome], str] = {
            pool.submit(_call, worker, path, options): path for path in files
        }
        for future in as_completed(futures):
            try:
                outcome = future.result()
            except Exception as e:  # the worker process died (e.g. killed for memory)
                outcome = Outcome(futures[future], False, error=f"worker failed: {e}")
            yield outcome
            progress.step()


def summary(outcomes: Sequence[Outcome]) -> str:
    """The closing line: ``N files: X ok, Y failed``."""
    ok = sum(o.ok for o in outcomes)
    noun = "file" if len(outcomes) == 1 else "files"
    return f"{len(outcomes)} {noun}: {ok} ok, {len(outcomes) - ok} failed"


def run_batch(
    inputs: Sequence[str], worker: Worker, options: dict[str, Any], jobs: int | None = None
) -> int:
    """Run ``worker`` over every model ``inputs`` name; prints results and the summary line.

    ``worker`` must be a module-level function (it is sent to worker processes by name).
    Returns the exit code: 0 when every file succeeded, else 1.
    """
    files, failures = expand(inputs)
    progress = Progress(len(files))
    outcomes: list[Outcome] = list(failures)
    for outcome in failures:
        _report(outcome, progress)
    for outcome in iter_outcomes(files, worker, options, jobs, progress):
        _report(outcome, progress)
        outcomes.append(outcome)
    progress.clear()
    print(summary(outcomes), file=sys.stderr)
    return 1 if any(not o.ok for o in outcomes) or not outcomes else 0


def prepare_output(verb: str, output: str, as_file: bool, num_models: int) -> int | None:
    """Make the output's folder; a usage error (exit 2, message printed) when ``output`` is a
    single file but several models were given."""
    out = Path(output)
    if as_file and num_models > 1:
        print(
            f"quakemodels {verb}: error: -o {output} is a file but {num_models} models were"
            " given; pass a folder",
            file=sys.stderr,
        )
        return 2
    if not as_file:
        out.mkdir(parents=True, exist_ok=True)
    elif out.parent != Path(""):
        out.parent.mkdir(parents=True, exist_ok=True)
    return None


def parse_size(text: str) -> tuple[int, int]:
    """``WxH`` (e.g. ``320x240``) → (W, H); argparse type for ``--size``."""
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"size {text!r} is not WxH, e.g. 256x256") from None
    if not (1 <= w <= 8192 and 1 <= h <= 8192):
        raise argparse.ArgumentTypeError(f"size {text!r}: width and height must be 1..8192")
    return w, h
