"""The ``quakemodels`` command: ``main(argv) -> int`` with one module per verb.

Exit codes: 0 ok, 1 bad input (a model failed to parse or check), 2 usage error.
Each verb module has ``HELP``, ``EXAMPLES``, ``add_args(parser)`` and ``run(args) -> int``.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# Verb name → module under quakemodels.cli. New verbs register here.
VERBS: dict[str, str] = {
    "info": "info",
    "check": "check",
    "convert": "convert",
    "export": "export",
    "render": "render",
    "dump": "dump",
    "ls": "ls",
    "extract": "extract",
}

EXIT_OK = 0
EXIT_BAD_INPUT = 1
EXIT_USAGE = 2


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every verb's subparser."""
    parser = argparse.ArgumentParser(
        prog="quakemodels",
        description="Read, check, convert and write Quake II MD2 / Quake III MD3 models.",
        epilog="Run 'quakemodels VERB --help' for a verb's options and examples.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    examples: list[str] = []
    from .. import __version__

    parser.add_argument("--version", action="version", version=f"quakemodels {__version__}")
    sub = parser.add_subparsers(dest="verb", metavar="VERB")
    for verb, module_name in VERBS.items():
        module = importlib.import_module(f"{__name__}.{module_name}")
        p = sub.add_parser(
            verb,
            help=module.HELP,
            description=module.HELP,
            epilog="examples:\n" + module.EXAMPLES,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        module.add_args(p)
        examples.append(module.EXAMPLES.splitlines()[0])  # each verb's first example
        p.set_defaults(_run=module.run)
    parser.epilog = "examples:\n" + "\n".join(examples) + "\n\n" + (parser.epilog or "")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    parser = build_parser()
    try:
        args, extras = parser.parse_known_args(argv)
        # argparse cannot take a positional after an option once the positionals were matched
        # (``extract ARCHIVE -o DIR PATTERN``); a verb naming ``_late_positional`` takes one.
        late = getattr(args, "_late_positional", None)
        if extras and late and getattr(args, late) is None and len(extras) == 1:
            setattr(args, late, extras.pop())
        if extras:
            parser.error(f"unrecognized arguments: {' '.join(extras)}")
    except SystemExit as e:  # argparse exits 2 on usage errors, 0 on --help
        return int(e.code) if isinstance(e.code, int) else EXIT_USAGE
    if not getattr(args, "verb", None):
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    return int(args._run(args))
