"""The corpus' sprite folders as pytest parameters (``hlspr/`` holds ``.spr`` files, so
conftest's one-suffix-per-folder helper does not fit)."""

from __future__ import annotations

import pytest
from conftest import CORPUS, IN_CI


def corpus_files(folder: str, suffix: str) -> list[object]:
    """A parameter per ``CORPUS/folder/*suffix``; one skip when absent (a failure under
    CI=true, where corpus tests must run)."""
    where = CORPUS / folder
    files = sorted(where.glob(f"*{suffix}")) if where.is_dir() else []
    if not files:
        if IN_CI:
            raise RuntimeError(f"CI=true but {where} has no {suffix} files")
        reason = f"corpus not found at {where} (set CI=true to require it)"
        return [pytest.param(None, marks=pytest.mark.skip(reason=reason), id="no-corpus")]
    return [pytest.param(p, id=p.name) for p in files]
