"""The documentation site's reference pages stay complete and true.

- every name in ``quakemodels.__all__`` and every format's model class has a mkdocstrings
  entry (``::: dotted.path``) on a page of docs/;
- the CLI reference (tools/docs_hooks.py, expanded into docs/reference/cli.md when the site is
  built) holds, for every verb, exactly what ``quakemodels VERB --help`` prints, and a section
  for no verb that does not exist;
- the limits tables hold every field of every format's ``Limits`` values;
- ``site/`` is ignored by git and ``make docs`` is part of ``make test``.

``make docs`` (strict) then fails on a broken link or anchor, on an entry naming nothing, and
on a docstring griffe cannot parse.
"""

from __future__ import annotations

import importlib
import os
import re
import subprocess
import sys

import pytest
from conftest import REPO, corpus_files, formats

import quakemodels
from quakemodels.cli import VERBS, output
from quakemodels.core.findings import ENGINES
from quakemodels.core.records import Frozen

sys.path.insert(0, str(REPO / "tools"))
import docs_hooks

DOCS = REPO / "docs"


def entries() -> set[str]:
    """Every ``::: path`` of docs/, generated pages expanded as the build expands them."""
    found: set[str] = set()
    for page in DOCS.rglob("*.md"):
        text = docs_hooks.expand(page.read_text(encoding="utf-8"))
        found.update(re.findall(r"^::: (\S+)$", text, re.M))
    return found


def _dotted(name: str) -> set[str]:
    """The paths an entry for ``quakemodels.<name>`` may use: public or defining module."""
    paths = {f"quakemodels.{name}"}
    obj = getattr(quakemodels, name)
    module, qualname = getattr(obj, "__module__", None), getattr(obj, "__qualname__", None)
    if module and qualname:
        paths.add(f"{module}.{qualname}")
    return paths


@pytest.mark.parametrize("name", quakemodels.__all__)
def test_every_public_name_has_a_reference_entry(name: str) -> None:
    assert _dotted(name) & entries(), (
        f"quakemodels.{name} has no '::: quakemodels.{name}' entry in docs/reference/"
    )


def test_every_format_class_has_a_reference_entry() -> None:
    classes = docs_hooks.format_classes()
    found = entries()
    for fmt in docs_hooks.FORMATS:
        cls = docs_hooks._model_class(fmt)
        assert cls is None or f"{cls.__module__}.{cls.__qualname__}" in classes
    assert {"Md2", "Md3", "Mdl", "Player"} <= {p.rsplit(".", 1)[1] for p in classes}
    assert set(classes) <= found


def test_the_entry_check_fails_for_a_name_without_an_entry(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a public name the pages do not mention is caught (the check above is not vacuous)
    monkeypatch.setattr(quakemodels, "Undocumented", type("Undocumented", (), {}), raising=False)
    assert not _dotted("Undocumented") & entries()


def _cli_page() -> str:
    return docs_hooks.expand((DOCS / "reference" / "cli.md").read_text(encoding="utf-8"))


@pytest.mark.parametrize("verb", [None, *VERBS])
def test_the_cli_reference_is_what_help_prints(verb: str | None) -> None:
    env = {**os.environ, "COLUMNS": str(docs_hooks.HELP_COLUMNS)}
    argv = [sys.executable, "-m", "quakemodels", *([verb] if verb else []), "--help"]
    done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    printed = done.stdout.rstrip().replace("usage: __main__.py", "usage: quakemodels")
    assert f"```text\n{printed}\n```" in _cli_page()


def test_the_cli_reference_has_a_section_per_verb_and_every_exit_code() -> None:
    page = _cli_page()
    assert re.findall(r"^## quakemodels (\w+)$", page, re.M) == list(VERBS)
    for name, value in vars(output).items():
        if name.startswith("EXIT_") and isinstance(value, int):
            assert f"| {value} | `{name}` |" in page


def test_a_changed_help_text_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    # the comparison above sees a drift: a help text changed after the page was generated
    page = _cli_page()
    monkeypatch.setattr(VERBS["info"], "help", VERBS["info"].help + " (changed)")
    assert docs_hooks.verb_help("info").rstrip() not in page


def test_the_limits_tables_hold_every_limit() -> None:
    text = docs_hooks.limits_tables()
    for fmt in docs_hooks.FORMATS:
        name = f"{docs_hooks._package(fmt)}.limits"
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError:
            continue
        assert f"From `{name}`" in text
        plain = not any(isinstance(v, Frozen) for v in vars(module).values())
        for key, value in vars(module).items():
            if plain and key.isupper() and isinstance(value, (int, float)):
                assert f"`{key}`" in text  # a module of plain constants (the sprites)
            if isinstance(value, Frozen):
                assert f"`{key}`" in text
                for field in value.__record_fields__:
                    assert f"| `{field}` |" in text
    assert "| `max_vertices` | 2,048 | 32,768 |" in text  # MD2: VANILLA, FORMAT_LIMITS


def test_site_is_ignored_and_the_docs_build_runs_in_make_test() -> None:
    assert "/site/" in (REPO / ".gitignore").read_text(encoding="utf-8").splitlines()
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    test_recipe = re.search(r"^test:.*?\n\n", makefile, re.M | re.S)
    assert test_recipe and "docs" in test_recipe.group(0)
    assert re.search(r"^docs:", makefile, re.M) and re.search(r"^docs-serve:", makefile, re.M)


def test_the_readme_is_short_and_its_links_lead_somewhere() -> None:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 200
    images = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", text)
    assert len(images) == 1 and (REPO / images[0]).is_file()
    links = re.findall(r"(?<!!)\[[^\]]*\]\(([^)#]+)(?:#[^)]*)?\)", text)
    local = [link for link in links if "://" not in link]
    assert len(local) >= 15
    missing = [link for link in local if not (REPO / link).exists()]
    assert missing == []


def test_every_finding_code_the_checkers_report_is_listed() -> None:
    # the codes of real checks (the sample, cut and bent; every corpus model) for every engine
    table = set(re.findall(r"^\| `([^`]+)` \|", docs_hooks.finding_codes(), re.M))
    sample = (REPO / "src" / "quakemodels" / "samples" / "quakeguy.md2").read_bytes()
    md2 = quakemodels.load(sample, quakemodels.Md2)
    inputs: list[object] = [
        sample,
        sample[:3000],
        sample[:200],
        sample[:12] + b"\xff\xff\x00\x00" + sample[16:],  # a 65535-pixel-tall skin
        quakemodels.Mdl.from_quantized(md2.quantized()).model.to_bytes(),
        *(path for fmt in formats() if fmt.magic for path in corpus_files(fmt.name)),
    ]
    seen: set[str] = set()
    for source in inputs:
        for engine in ENGINES:
            seen.update(f.code for f in quakemodels.check_model(source, engine))
    assert {"engine-format", "skin-height", "section-past-end"} <= seen
    assert sorted(seen - table) == []
