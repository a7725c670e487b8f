"""The batch runner verbs share: expand inputs, work in parallel processes, summarize.

Inputs are files, directories (searched recursively for ``*.md2`` and ``*.md3``, any case) and
glob patterns. Each file is handled by a worker function in a pool of ``-j N`` worker
processes (default the CPU count; one file or ``-j 1`` runs in-process). The workers start once
and are reused: each receives the verb's function and options once, then chunks of files, the
largest files first so the last chunks are short and the workers finish together. A bad file
never stops the batch: its error is printed and counted. A progress bar is drawn on stderr only
when stderr is a terminal; the summary line ``N files: X ok, Y failed`` always ends the run.
The exit code is 1 if any file failed.
"""

from __future__ import annotations

import argparse
import glob
import os
import sys
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import ModelFormatError
from ..registry import FORMATS

if TYPE_CHECKING:
    from concurrent.futures import Future

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
        if os.path.isdir(item):
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


# What a pool worker process runs: the verb's function and options, set once per process.
_JOB: tuple[Worker, dict[str, Any]] | None = None


def _start_worker(worker: Worker, options: dict[str, Any]) -> None:
    """Pool initializer: keep the verb's worker and options for every chunk this process gets."""
    global _JOB
    _JOB = (worker, options)


def _call_chunk(paths: list[str]) -> list[Outcome]:
    """Run the process's worker over ``paths`` (in a pool worker)."""
    assert _JOB is not None, "pool worker started without _start_worker"
    worker, options = _JOB
    return [_call(worker, path, options) for path in paths]


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
    # Imported here: multiprocessing and concurrent.futures are a tenth of the start-up of a
    # one-file run, which never needs them.
    from concurrent.futures import ProcessPoolExecutor, as_completed

    with ProcessPoolExecutor(
        max_workers=workers, initializer=_start_worker, initargs=(worker, options)
    ) as pool:
        futures: dict[Future[list[Outcome]], list[str]] = {
            pool.submit(_call_chunk, chunk): chunk for chunk in _chunks(files, workers)
        }
        for future in as_completed(futures):
            try:
                outcomes = future.result()
            except Exception as e:  # the worker process died (e.g. killed for memory)
                outcomes = [Outcome(p, False, error=f"worker failed: {e}") for p in futures[future]]
            for outcome in outcomes:
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
