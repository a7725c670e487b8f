"""``quakemodels check FILE... [--engine E] [--json]``: will the model load in the engine?"""

from __future__ import annotations

import argparse
import json
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from ..check import ENGINES, Finding, check_model
from .batch import add_batch_args, expand

HELP = "check models against an engine's limits and for common mistakes; exit 1 on errors"
EXAMPLES = """\
  quakemodels check tris.md2
  quakemodels check --engine quake2 models/*.md2
  quakemodels check --engine q2pro -j 4 baseq2/players/
  quakemodels check --engine q2pro --json tris.md2 > findings.json
"""


def add_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "files", nargs="+", metavar="FILE", help="model files, folders (searched) or globs"
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
    add_batch_args(parser)


def _summary(findings: list[Finding]) -> tuple[int, int]:
    errors = sum(f.severity == "error" for f in findings)
    return errors, len(findings) - errors


def _check_one(path: str, engine: str) -> list[Finding]:
    return check_model(path, engine=engine)


def run(args: argparse.Namespace) -> int:
    files, unmatched = expand(args.files)
    # Names that match nothing are reported like unreadable files: an error finding.
    per_file: dict[str, list[Finding]] = {
        o.path: [Finding("error", None, None, o.error, "io")] for o in unmatched
    }
    jobs = max(1, min(args.jobs or os.cpu_count() or 1, len(files)))
    if jobs == 1:
        results = [_check_one(p, args.engine) for p in files]
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            results = list(pool.map(_check_one, files, [args.engine] * len(files)))
    per_file.update(zip(files, results, strict=True))
    reports: list[dict[str, Any]] = []
    failed = False
    for path, findings in per_file.items():
        errors, warnings = _summary(findings)
        failed |= errors > 0 or (args.strict and warnings > 0)
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
        verdict = "ok" if not findings else f"{errors} error(s), {warnings} warning(s)"
        print(f"{path}: {verdict} [{args.engine}]")
        for f in findings:
            print(f"  {f}")
    if args.json:
        json.dump(reports, sys.stdout, indent=2)
        sys.stdout.write("\n")
    return 1 if failed or not per_file else 0
