"""``quakemodels info FILE...``: header, counts, skins, clips and bounds (text or JSON)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .batch import (
    Outcome,
    Progress,
    add_batch_args,
    add_game_dir_arg,
    exit_code,
    expand,
    iter_outcomes,
    summary,
)


def add_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "files",
        nargs="+",
        metavar="FILE",
        help="model files, folders (searched), archives, game folders, globs, or -",
    )
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--json", action="store_true", help="print a JSON list, one object a file")
    what.add_argument(
        "--clips", action="store_true", help="print only the clips: name, frames and count"
    )
    add_game_dir_arg(parser)
    add_batch_args(parser)


def info_one(path: str, opts: dict[str, Any]) -> Any:
    """Load ``path`` fully (a bad section fails here, as in ``check``) and describe it."""
    from ..registry import clip_lines, describe, facts, load

    source: Any = opts["stdin"] if path == "-" else path
    model = load(source, game_dir=opts.get("game_dir"))
    if path == "-":
        model.name = "-"
    model.load_all()
    if opts["mode"] == "json":
        return facts(model, path)
    if opts["mode"] == "clips":
        return clip_lines(model, path)
    return describe(model).splitlines()


def run(args: argparse.Namespace) -> int:
    mode = "json" if args.json else "clips" if args.clips else "text"
    names = [f for f in args.files if f != "-"]
    stdin = sys.stdin.buffer.read() if "-" in args.files else None
    files, unmatched = expand(names)
    if stdin is not None:
        files = ["-", *files]
    progress = Progress(len(files))
    opts = {"mode": mode, "stdin": stdin, "game_dir": args.game_dir}
    jobs = 1 if stdin is not None else args.jobs  # stdin's bytes stay in this process
    by_path = {o.path: o for o in iter_outcomes(files, info_one, opts, jobs, progress)}
    progress.clear()
    outcomes: list[Outcome] = [*unmatched, *(by_path[f] for f in files)]
    reports: list[Any] = []
    for o in outcomes:  # in input order, whatever order the workers finished in
        for message in o.warnings:
            print(f"{o.path}: warning: {message}", file=sys.stderr)
        if not o.ok:
            print(f"{o.path}: error: {o.error}", file=sys.stderr)
        elif mode == "json":
            reports.append(o.value)
        elif not args.quiet:
            print("\n".join(o.value))
    if mode == "json":
        json.dump(reports, sys.stdout, indent=2)
        sys.stdout.write("\n")
    if len(outcomes) > 1 and not args.quiet:
        print(summary(outcomes), file=sys.stderr)
    return exit_code(outcomes)
