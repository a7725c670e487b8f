"""MkDocs hooks: the generated parts of the documentation site (``make docs``).

A page names what it wants generated with a marker comment on a line of its own; the hook
replaces the marker before the page is converted, so the result is rendered (and checked by
``mkdocs build --strict``) like hand-written Markdown:

- ``<!-- generated: cli -->``: every verb's ``--help`` from the argparse parser, its options as
  a table, and the exit codes from ``quakemodels.cli.output``;
- ``<!-- generated: limits -->``: one table per format that has a ``limits`` module, a column
  per ``Limits`` instance defined there;
- ``<!-- generated: format-classes -->``: a mkdocstrings entry for the model class of every
  format in ``quakemodels.formats.FORMATS`` (and the Quake III ``Player``).

``tests/test_docs.py`` compares these with the parser's own ``--help`` and ``__all__``.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import importlib.util
import itertools
import os
import re
from typing import Any

from docs_griffe import plain_roles  # tools/ is on sys.path while mkdocs loads a hook

from quakemodels.cli import VERBS, build_parser, output
from quakemodels.core.records import Frozen
from quakemodels.formats import FORMATS
from quakemodels.formats.q3player import Player

HELP_COLUMNS = 100
"""Width the CLI reference's ``--help`` texts are formatted for (``COLUMNS``)."""

EXIT_MEANINGS = {
    "EXIT_OK": "everything worked",
    "EXIT_BAD_INPUT": "bad input: a model failed to parse or check (any file of a batch), "
    "or was not found",
    "EXIT_USAGE": "usage error: unknown option or suffix, `--frame -1`, an unsupported "
    "conversion, a missing dependency",
    "EXIT_OUTPUT": "output failure: cannot write (permission, disk full, a file where a "
    "folder should be, `--no-clobber` and the file exists)",
    "EXIT_INTERRUPTED": "interrupted (Ctrl-C)",
    "EXIT_BROKEN_PIPE": "stdout was closed early (`quakemodels dump x.md2 | head`), as for a "
    "Unix tool killed by SIGPIPE",
}
"""What each ``EXIT_*`` constant of ``quakemodels.cli.output`` means; a constant missing here
stops the build (KeyError)."""

_MARKER = re.compile(r"^<!-- generated: ([a-z-]+) -->$", re.M)


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def verb_help(verb: str | None) -> str:
    """The text ``quakemodels [VERB] --help`` prints with ``COLUMNS=HELP_COLUMNS``."""
    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(HELP_COLUMNS)
    try:
        parser = build_parser(verb)
        if verb is not None:
            parser = _subparsers(parser)[verb]
        return parser.format_help()
    finally:
        if old is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = old


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _options_table(parser: argparse.ArgumentParser) -> list[str]:
    rows = ["| argument | default | what it does |", "|---|---|---|"]
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction) or action.help == argparse.SUPPRESS:
            continue
        metavar = action.metavar or (action.dest.upper() if action.nargs != 0 else "")
        if action.choices is not None and action.metavar is None:
            metavar = "{" + ",".join(map(str, action.choices)) + "}"
        if isinstance(metavar, tuple):
            metavar = " ".join(metavar)
        if action.option_strings:
            names = ", ".join(action.option_strings)
            name = f"{names} {metavar}".strip()
        else:
            name = str(metavar)
        default = action.default
        shown = "" if default in (None, False, [], argparse.SUPPRESS) else f"`{default}`"
        help_text = (action.help or "") % {"default": default, "prog": parser.prog}
        rows.append(f"| `{_cell(name)}` | {_cell(shown)} | {_cell(help_text)} |")
    return rows


def cli_reference() -> str:
    """Markdown for every verb: its ``--help`` as printed, its options, then the exit codes."""
    out = [
        "## quakemodels",
        "",
        "```text",
        verb_help(None).rstrip(),
        "```",
        "",
    ]
    for verb in VERBS:
        parser = _subparsers(build_parser(verb))[verb]
        out += [
            f"## quakemodels {verb}",
            "",
            _cell(parser.description or ""),
            "",
            *_options_table(parser),
            "",
            f"`quakemodels {verb} --help`:",
            "",
            "```text",
            verb_help(verb).rstrip(),
            "```",
            "",
        ]
    codes = sorted(
        (value, name)
        for name, value in vars(output).items()
        if name.startswith("EXIT_") and isinstance(value, int)
    )
    out += ["## Exit codes", "", "| code | name | meaning |", "|---|---|---|"]
    out += [f"| {value} | `{name}` | {EXIT_MEANINGS[name]} |" for value, name in codes]
    return "\n".join(out) + "\n"


def _assigned_docstrings(source: str) -> dict[str, str]:
    """``NAME = ...`` followed by a string literal, as attribute docstrings are written."""
    found: dict[str, str] = {}
    body = ast.parse(source).body
    for node, after in itertools.pairwise(body):
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
            and isinstance(after.value.value, str)
        ):
            found[node.targets[0].id] = " ".join(after.value.value.split())
    return found


def _number(value: object) -> str:
    if isinstance(value, int) and not isinstance(value, bool) and value >= 2**31 - 1:
        return "no limit"
    return f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else str(value)


def _formats() -> list[Any]:
    return list(FORMATS)


def _package(fmt: Any) -> str:
    return str(getattr(fmt, "package", None) or f"quakemodels.formats.{fmt.name}")


def limits_tables() -> str:
    """Markdown: per format with a ``limits`` module, its ``Limits`` instances side by side."""
    out: list[str] = []
    for fmt in _formats():
        name = f"{_package(fmt)}.limits"
        if importlib.util.find_spec(name) is None:
            continue
        module = importlib.import_module(name)
        instances = {key: value for key, value in vars(module).items() if isinstance(value, Frozen)}
        docs = _assigned_docstrings(module.__spec__.loader.get_source(name) or "")  # type: ignore[union-attr]
        if not instances:
            # plain constants (the sprites' load-time rules): one row each, with its docstring
            constants = {
                key: value
                for key, value in vars(module).items()
                if key.isupper() and isinstance(value, (int, float)) and not key.startswith("_")
            }
            if constants:
                out += [f"### {fmt.title}", "", f"From `{name}`:", ""]
                out += ["| limit | value | what |", "|---|---|---|"]
                out += [
                    f"| `{key}` | {_number(value)} | {_cell(plain_roles(docs.get(key, '')))} |"
                    for key, value in constants.items()
                ]
                out.append("")
            continue
        fields = next(iter(instances.values())).__record_fields__
        out += [f"### {fmt.title}", "", f"From `{name}`:", ""]
        out.append("| limit | " + " | ".join(f"`{key}`" for key in instances) + " |")
        out.append("|---|" + "---|" * len(instances))
        for field in fields:
            values = [_number(getattr(inst, field)) for inst in instances.values()]
            out.append(f"| `{field}` | " + " | ".join(values) + " |")
        out.append("")
        out += [f"- `{key}`: {_cell(plain_roles(docs[key]))}" for key in instances if key in docs]
        out.append("")
    return "\n".join(out)


def _model_class(fmt: Any) -> type[Any] | None:
    service = getattr(fmt, "service", None)
    if callable(service):
        has = getattr(fmt, "has", None)
        if callable(has) and not has("model"):
            return None
        cls = service("model")
    else:
        cls = fmt.model
    return cls if isinstance(cls, type) else None


def format_classes() -> list[str]:
    """The dotted paths of every format's model class, FORMATS order, the player last."""
    paths: list[str] = []
    for cls in [*(_model_class(fmt) for fmt in _formats()), Player]:
        if cls is None:
            continue
        path = f"{cls.__module__}.{cls.__qualname__}"
        if path not in paths:
            paths.append(path)
    return paths


def format_class_entries() -> str:
    """Markdown: a heading and a mkdocstrings entry per format class."""
    out: list[str] = []
    for path in format_classes():
        # the arrays live on the reader facades the model classes extend: shown here too
        out += [f"::: {path}", "    options:", "      inherited_members: true", ""]
    return "\n".join(out)


_SEVERITY = {"error": "error", "warning": "warning", "limit": "error or warning, by engine"}


_CODE = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)+$")
_HELPER = "(set by a shared helper)"


def _codes_in(source: str) -> dict[str, tuple[set[str], set[str]]]:
    """code -> (severities, fields) of every finding a check module's source names with a
    literal code: ``report.error/warning/limit(code, field, ...)``, ``Finding(severity, field,
    offset, message, code)``, ``code = "a" if ... else "b"``, and a dashed code handed to a
    shared helper (``non_ascii_names(r, data, "skin-name-bytes", ...)``)."""
    found: dict[str, tuple[set[str], set[str]]] = {}

    def literal(node: ast.AST) -> str | None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        return None

    def add(code: str | None, severity: str, field: ast.AST | None = None) -> None:
        if code is None:
            return
        severities, fields = found.setdefault(code, (set(), set()))
        severities.add(severity)
        name = literal(field) if field is not None else None
        if name:
            fields.add(name)

    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "code" for t in node.targets
        ):
            branches = [node.value]
            while branches:
                value = branches.pop()
                if isinstance(value, ast.IfExp):
                    branches += [value.body, value.orelse]
                else:
                    add(literal(value), "error or warning")
            continue
        if (
            isinstance(node, ast.Tuple)
            and len(node.elts) == 2
            and isinstance(node.elts[0], ast.Name)
            and re.match(r"^[a-z][a-z0-9-]*$", literal(node.elts[1]) or "")
        ):  # (ErrorClass, "code"): a reader's error reported as a finding
            add(literal(node.elts[1]), "error")
            continue
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in _SEVERITY and len(node.args) >= 2:
            add(literal(node.args[0]), _SEVERITY[func.attr], node.args[1])
        elif isinstance(func, ast.Name) and func.id == "Finding" and len(node.args) == 5:
            add(literal(node.args[4]), literal(node.args[0]) or "error or warning", node.args[1])
        elif not (isinstance(func, ast.Attribute) and func.attr in ("decode", "encode")):
            for arg in node.args:
                code = literal(arg)
                if code and _CODE.match(code) and code not in found:
                    add(code, _HELPER)
    for severities, _fields in found.values():
        for vague in (_HELPER, "error or warning"):
            if len(severities) > 1:
                severities.discard(vague)
    return found


def finding_codes() -> str:
    """Markdown: per format with a ``check`` module, every finding code it reports."""
    packages = {_package(fmt): fmt.title for fmt in _formats()}
    packages.setdefault(Player.__module__.rsplit(".", 1)[0], "Quake III player")
    modules = {f"{package}.check": title for package, title in packages.items()}
    modules["quakemodels.core.findings"] = "Every format (shared checks)"
    out: list[str] = []
    for name, title in modules.items():
        spec = importlib.util.find_spec(name)
        if spec is None or spec.loader is None:
            continue
        codes = _codes_in(spec.loader.get_source(name) or "")  # type: ignore[attr-defined]
        out += [f"### {title}", "", f"From `{name}`:", ""]
        out += ["| code | severity | field |", "|---|---|---|"]
        for code in sorted(codes):
            severities, fields = codes[code]
            shown = ", ".join(f"`{f}`" for f in sorted(fields)) or "(varies)"
            out.append(f"| `{code}` | {' / '.join(sorted(severities))} | {shown} |")
        out.append("")
    return "\n".join(out)


GENERATORS = {
    "findings": finding_codes,
    "cli": cli_reference,
    "limits": limits_tables,
    "format-classes": format_class_entries,
}


def expand(markdown: str) -> str:
    """``markdown`` with every marker replaced by what it names (an unknown one: KeyError)."""
    return _MARKER.sub(lambda m: GENERATORS[m.group(1)]().rstrip("\n"), markdown)


def on_page_markdown(markdown: str, **kwargs: Any) -> str:
    """MkDocs hook: expand the markers of a page."""
    return expand(markdown)
