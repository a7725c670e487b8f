"""Shared test fixtures: where the real-file corpus is, and how to skip without it.

Corpus tests run under CI=true and fail there if ../shared/corpus is missing; on a user's
machine without it they skip with a clear reason.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import NoReturn

import pytest

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO.parent / "shared" / "corpus"
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def _corpus_files(kind: str) -> list[Path]:
    folder = CORPUS / kind
    files = sorted(folder.glob(f"*.{kind}")) if folder.is_dir() else []
    if IN_CI and not files:
        raise RuntimeError(f"CI=true but the corpus folder {folder} has no .{kind} files")
    return files


def md2_corpus_files() -> list[Path]:
    """Every corpus MD2 (empty outside CI when the corpus is absent)."""
    return _corpus_files("md2")


def md3_corpus_files() -> list[Path]:
    """Every corpus MD3 (empty outside CI when the corpus is absent)."""
    return _corpus_files("md3")


def mdl_corpus_files() -> list[Path]:
    """Every corpus MDL (empty outside CI when the corpus is absent)."""
    return _corpus_files("mdl")


def corpus_params(kind: str) -> list[object]:
    """pytest parameters for every corpus file of ``kind``, or one skip when it is absent."""
    files = _corpus_files(kind)
    if not files:
        return [
            pytest.param(
                None,
                marks=pytest.mark.skip(
                    reason=f"corpus not found at {CORPUS / kind} (set CI=true to require it)"
                ),
                id=f"no-{kind}-corpus",
            )
        ]
    return [pytest.param(p, id=p.name) for p in files]


def no_corpus(missing: Path = CORPUS) -> NoReturn:
    """For a test whose corpus file or folder ``missing`` is absent: skip with the reason, or
    fail under CI=true, where every corpus test must run."""
    if IN_CI:
        pytest.fail(f"CI=true but {missing} is missing")
    pytest.skip(f"corpus not found at {missing} (set CI=true to require it)")


@pytest.fixture(scope="session")
def corpus_dir() -> Path:
    """The corpus folder; skips (fails under CI) when it is absent."""
    if not CORPUS.is_dir():
        if IN_CI:
            pytest.fail(f"CI=true but the corpus folder {CORPUS} is missing")
        pytest.skip(f"corpus not found at {CORPUS} (set CI=true to require it)")
    return CORPUS


def corpus_models(folder: Path = CORPUS) -> list[Path]:
    """Every model file anywhere under ``folder`` whose suffix a registered format claims, in
    the order the batch verbs walk a folder (sorted paths)."""
    from quakemodels.registry import FORMATS

    suffixes = {s for fmt in FORMATS for s in fmt.suffixes}
    found = sorted(
        str(p) for p in folder.rglob("*") if p.suffix.lower() in suffixes and p.is_file()
    )
    return [Path(p) for p in found]
