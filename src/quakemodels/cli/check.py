"""``quakemodels check FILE... [--engine E] [--json]``: will the model load in the engine?"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..check import ENGINES, Finding, check_model

HELP = "check models against an engine's limits and for common mistakes; exit 1 on errors"
EXAMPLES = """\
  quakemodels check tris.md2
  quakemodels check --engine quake2 models/*.md2
  quakemodels check --engine q2pro --json tris.md2 > findings.json
"""


def add_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="model files")
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


def _summary(findings: list[Finding]) -> tuple[int, int]:
    errors = sum(f.severity == "error" for f in findings)
    return errors, len(findings) - errors


def run(args: argparse.Namespace) -> int:
    results: list[dict[str, Any]] = []
    failed = False
    for path in args.files:
        findings = check_model(path, engine=args.engine)
        errors, warnings = _summary(findings)
        failed |= errors > 0 or (args.strict and warnings > 0)
        if args.json:
            results.append(
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
        json.dump(results, sys.stdout, indent=2)
        sys.stdout.write("\n")
    return 1 if failed else 0
