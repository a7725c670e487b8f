"""The ``quakemodels`` command: ``main(argv) -> int`` with one module per verb.

Exit codes: 0 ok, 1 bad input (a model failed to parse or check), 2 usage error (or a missing
dependency), 3 output failure (cannot write), 130 interrupted (Ctrl-C), 141 stdout closed (a
pipe to ``head``). Each verb module has ``add_args(parser)`` and
``run(args) -> int``; its help and examples are in :mod:`.verbs`, so that the menu
(``quakemodels --help``) imports no verb.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import sys
import warnings
from collections.abc import Iterator, Sequence

from ..errors import ItemWarning, UnsupportedError
from .output import (
    EXIT_BAD_INPUT,
    EXIT_BROKEN_PIPE,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_OUTPUT,
    EXIT_USAGE,
    OutputError,
    StdoutError,
    UsageError,
    guard_stdout,
    missing_dependency,
    warning_lines,
)
from .verbs import VERBS

TYPE_CHECKING = False  # not typing's: see output.py
if TYPE_CHECKING:
    from typing import NoReturn

__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_BROKEN_PIPE",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_OUTPUT",
    "EXIT_USAGE",
    "VERBS",
    "build_parser",
    "console_main",
    "main",
]


class _Formatter(argparse.RawDescriptionHelpFormatter):
    """argparse's raw-description formatter, sized to the terminal without ``shutil``.

    argparse makes a formatter for every option it adds (to check the metavar) and sizes each
    with ``shutil.get_terminal_size``, whose import (with bz2 and lzma) costs more than a
    millisecond that a command run never needs otherwise. The width is found by the same
    rule: ``$COLUMNS`` when positive, else the terminal on ``sys.__stdout__``, else 80.
    """

    def __init__(
        self,
        prog: str,
        indent_increment: int = 2,
        max_help_position: int = 24,
        width: int | None = None,
    ) -> None:
        if width is None:
            width = _terminal_columns() - 2  # as argparse does
        super().__init__(prog, indent_increment, max_help_position, width)


def _terminal_columns() -> int:
    """``shutil.get_terminal_size().columns``, by the same rule (see :class:`_Formatter`)."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


class _Version(argparse.Action):
    """``--version``: argparse's version action, its text worked out only when asked for (it
    looks for the compiled weld, which every other command need not)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS) -> None:
        super().__init__(
            option_strings,
            dest,
            nargs=0,
            default=argparse.SUPPRESS,
            help="show program's version number and exit",
        )

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        from .. import __version__

        print(f"quakemodels {__version__}{_weld()}")
        parser.exit()


def _weld() -> str:
    """How meshes are welded, for ``--version``: found without importing it (or numpy)."""
    import importlib.util

    from ..core.compiled import PURE_PYTHON, pure_python

    if pure_python():
        return f" (numpy only: {PURE_PYTHON} is set)"
    if importlib.util.find_spec("quakemodels.core._weld") is None:
        return " (numpy only: the compiled weld is not built)"
    return " (compiled weld)"


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser: every verb's subparser with its help and examples (``--help``, a
    mistyped verb), or verb ``only``'s alone with its options (a command imports its own verb's
    module and builds its own parser: each subparser costs as much as the verb's options)."""
    parser = argparse.ArgumentParser(
        prog="quakemodels",
        description="Read, check, convert and write Quake MDL, Quake II MD2, Quake III MD3,\n"
        "MD5 and IQM models, Quake III players (lower/upper/head.md3, animation.cfg, .skin\n"
        "files) and sprites, from files, folders, game folders and .pak/.pk3 archives.",
        epilog="examples:\n"
        + "\n".join(verb.examples.splitlines()[0] for verb in VERBS.values())
        + "\n\nRun 'quakemodels VERB --help' for a verb's options and examples.",
        formatter_class=_Formatter,
        allow_abbrev=False,  # ``--fram 3`` is a typo, not ``--frame 3``
    )
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="verb", metavar="VERB")
    verbs = [(only, VERBS[only])] if only in VERBS else VERBS.items()
    for name, verb in verbs:
        p = sub.add_parser(
            name,
            help=verb.help,
            description=verb.help,
            epilog="examples:\n" + verb.examples,
            formatter_class=_Formatter,
            allow_abbrev=False,
        )
        if name == only:
            # __import__, not importlib's: the import statement's path, which -X importtime
            # (tests/test_startup.py, make importtime) sees
            __import__(f"{__name__}.{verb.module}")
            module = sys.modules[f"{__name__}.{verb.module}"]
            module.add_args(p)
            # the verb's parser reports its own leftovers: a typo shows the verb's usage
            p.set_defaults(_run=module.run, _parser=p)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    words = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(words[0] if words and words[0] in VERBS else None)
    try:
        args, extras = parser.parse_known_args(words)
        # argparse cannot take a positional after an option once the positionals were matched
        # (``extract ARCHIVE -o DIR PATTERN``); a verb naming ``_late_positional`` takes one.
        late = getattr(args, "_late_positional", None)
        if extras and late and getattr(args, late) is None and len(extras) == 1:
            setattr(args, late, extras.pop())
        if extras:
            getattr(args, "_parser", parser).error(f"unrecognized arguments: {' '.join(extras)}")
    except SystemExit as e:  # argparse exits 2 on usage errors, 0 on --help
        return int(e.code) if isinstance(e.code, int) else EXIT_USAGE
    if not getattr(args, "verb", None):
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    verb = f"quakemodels {args.verb}"
    _end_startup()
    try:
        code = int(args._run(args))
        sys.stdout.flush()  # a closed pipe shows here, not in the interpreter's exit
        return code
    except UsageError as e:
        print(f"{verb}: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except OutputError as e:
        print(f"{verb}: error: {e}", file=sys.stderr)
        if isinstance(e, StdoutError):
            _silence_stdout()  # what is left in its buffer must not fail again at exit
        return EXIT_OUTPUT
    except UnsupportedError as e:  # the file's format cannot serve the verb: one line
        print(f"{verb}: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print(f"\n{verb}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (`| head`): stop quietly, as Unix tools do. Point stdout at
        # /dev/null so that the interpreter's final flush does not complain either.
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    except ImportError as e:  # an install without a dependency: say which and how to fix
        print(f"{verb}: error: {missing_dependency(e)}", file=sys.stderr)
        return EXIT_USAGE


def console_main() -> NoReturn:
    """The ``quakemodels`` console script and ``python -m quakemodels``: :func:`main`, then
    exit without the interpreter's teardown.

    The process ends with ``os._exit`` once the output is flushed: unwinding numpy and every
    module costs about a tenth of a one-file export and frees nothing the OS does not. By then
    every worker pool is shut down and every temporary file is gone (:func:`main` undoes both
    before it returns). An exception escaping :func:`main` (a bug) and a failing final flush
    take the interpreter's usual way out, with its message and exit code.

    Before that, glibc's allocator is told to keep the memory it frees (see
    :func:`_keep_freed_memory`). Warnings are printed once per cause (:func:`_warnings_once`).
    """
    global _STARTING
    gc.disable()  # until the verb's modules are loaded: see _end_startup
    _STARTING = True
    verb = VERBS.get(sys.argv[1]) if len(sys.argv) > 1 else None
    if verb is not None and not verb.light:  # help and the light verbs allocate no arrays
        _keep_freed_memory()
    guard_stdout()
    with _warnings_once(_verb_of(sys.argv[1:])):
        code = main()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:  # the reader went away after main returned: as in main
        _silence_stdout()
        os._exit(EXIT_BROKEN_PIPE)
    except (OSError, ValueError):  # another failing stream: let the interpreter report it
        sys.exit(code)
    os._exit(code)


_STARTING = False  # True from console_main's start until the verb's modules are loaded


def _end_startup() -> None:
    """Hand the cyclic garbage collector back once the command's modules are loaded.

    :func:`console_main` turns the collector off first: loading numpy and the verb's modules
    makes hundreds of thousands of objects that live as long as the process, and the collector
    would scan them again and again as they pile up (a sixth of a one-file export's time).
    They are then frozen (``gc.freeze``: left out of collections, until a forked batch hands
    them back to its parent's collector) and the collector runs as usual for the command's
    work, which may be a batch of any size. :func:`main` called by a program of its own (the
    collector on or off, as that program chose) leaves the collector alone.
    """
    global _STARTING
    if _STARTING:
        _STARTING = False
        gc.freeze()
        gc.enable()


# glibc's mallopt parameters (malloc.h)
_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3


def _keep_freed_memory() -> None:
    """Have glibc's malloc serve the command's arrays from its heap and keep what they free.

    An export allocates and frees arrays of a few MB per model (decoded frames, the Y-up
    copies, the deltas). By default glibc maps each array over 128 KB afresh from the kernel
    and unmaps it when freed, so every one costs a page fault per 4 KB written: a fifth of a
    batch export's time. Above these thresholds (64 MB mapped, 256 MB kept) it behaves as
    before; a command is a short-lived process, so keeping freed memory costs nothing after
    it ends. Other platforms and C libraries are left alone.
    """
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes  # numpy imports it already

        mallopt = ctypes.CDLL(None).mallopt
    except (ImportError, OSError, AttributeError):  # no ctypes, or a libc without mallopt
        return
    mallopt(_M_MMAP_THRESHOLD, 64 << 20)
    mallopt(_M_TRIM_THRESHOLD, 256 << 20)


def _verb_of(words: Sequence[str]) -> str:
    """``quakemodels VERB`` for the command line ``words`` (``quakemodels`` without a verb)."""
    return f"quakemodels {words[0]}" if words and words[0] in VERBS else "quakemodels"


@contextlib.contextmanager
def _warnings_once(verb: str) -> Iterator[None]:
    """Print each distinct warning raised by the command once, as ``quakemodels VERB: warning:
    message``, in place of Python's ``file:line: QuakeModelsWarning`` with a source line.

    Python's own once-per-place rule does not hold: any ``catch_warnings`` in between (Pillow,
    the readers) resets it, so a skin looked up for each of an MD3's surfaces warned once per
    surface. The batch verbs collect their warnings per file themselves (``batch._call``).
    Only the command (:func:`console_main`) does this: :func:`main` called from Python leaves
    warnings to the caller's filters."""
    seen: set[str] = set()
    items: list[Warning | str] = []  # ItemWarnings: one line per cause when the command ends

    def show(message: Warning | str, *_: object, **__: object) -> None:
        text = str(message)
        if isinstance(message, ItemWarning):
            items.append(message)
        elif text not in seen:
            seen.add(text)
            print(f"{verb}: warning: {text}", file=sys.stderr)

    with warnings.catch_warnings():
        warnings.simplefilter("always")
        warnings.showwarning = show
        try:
            yield
        finally:
            for text in warning_lines(items):
                print(f"{verb}: warning: {text}", file=sys.stderr)


def _silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # stdout is not a real file (an in-process test)
        pass
