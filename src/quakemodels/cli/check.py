"""``quakemodels check FILE... [--engine E] [--json]``: will the model load in the engine?"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..core.findings import ENGINES, Finding
from ..registry import check
from .batch import Progress, add_batch_args, add_game_dir_arg, expand, iter_outcomes


def add_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "files",
        nargs="+",
        metavar="FILE",
        help="model files, folders (searched), globs, or - for stdin",
    )
    parser.add_argument(
        "--engine",
        choices=ENGINES,
        default="any",
        help="engine to check against (default: any — the format, engine limits as warnings)",
    )
    parser.add_argument("--json", action="store_true", help="print findings as JSON")
    parser.add_argument(
        "--strict", action="store_true", help="exit 1 on warnings too, not only on errors"
    )
    add_game_dir_arg(parser)
    add_batch_args(
        parser,
        quiet="print only the files with findings, and no summary: nothing when every file"
        " is clean (--json still lists every file)",
    )


def _counts(findings: list[Finding]) -> tuple[int, int]:
    errors = sum(f.severity == "error" for f in findings)
    return errors, len(findings) - errors


def _check_one(path: str, opts: dict[str, Any]) -> list[Finding]:
    source = opts["stdin"] if path == "-" else path
    return check(source, engine=opts["engine"], game_dir=opts["game_dir"])


def run(args: argparse.Namespace) -> int:
    stdin = sys.stdin.buffer.read() if "-" in args.files else None
    files, unmatched = expand([f for f in args.files if f != "-"])
    if stdin is not None:
        files = ["-", *files]
    # Names that match nothing are reported like unreadable files: an error finding.
    per_file: dict[str, list[Finding]] = {
        o.path: [Finding("error", None, None, o.error, "io")] for o in unmatched
    }
    progress = Progress(len(files))
    opts = {"engine": args.engine, "stdin": stdin, "game_dir": args.game_dir}
    jobs = 1 if stdin is not None else args.jobs  # stdin's bytes stay in this process
    outcomes = list(iter_outcomes(files, _check_one, opts, jobs, progress))
    progress.clear()
    by_path = {o.path: o for o in outcomes}
    for path in files:  # in input order, whatever order the workers finished in
        o = by_path[path]
        per_file[path] = o.value if o.ok else [Finding("error", None, None, o.error, "internal")]
    reports: list[dict[str, Any]] = []
    failed = False
    ok_files = 0
    for path, findings in per_file.items():
        errors, warnings = _counts(findings)
        bad = errors > 0 or (args.strict and warnings > 0)
        failed |= bad
        ok_files += not bad
        if args.json:
            reports.append(
                {
                    "file": path,
                    "engine": args.engine,
                    "errors": errors,
                    "warnings": warnings,
                    "findings": [f.to_dict() for f in findings],
                }
            )
            continue
        if args.quiet and not findings:
            continue  # -q: only the files with something to say
        verdict = "ok" if not findings else f"{errors} error(s), {warnings} warning(s)"
        print(f"{path}: {verdict} [{args.engine}]")
        for f in findings:
            print(f"  {f}")
    if args.json:
        json.dump(reports, sys.stdout, indent=2)
        sys.stdout.write("\n")
    n = len(per_file)
    if not args.quiet:
        print(
            f"{n} {'file' if n == 1 else 'files'}: {ok_files} ok, {n - ok_files} failed",
            file=sys.stderr,
        )
    return 1 if failed or not per_file else 0
