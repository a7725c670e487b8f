"""Shared test fixtures: where the real-file corpus is, and how to skip without it.

Corpus tests run under CI=true and fail there if ../shared/corpus is missing; on a user's
machine without it they skip with a clear reason.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any, NoReturn

import pytest

from quakemodels.formats import FORMATS
from quakemodels.formats.contract import Format

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO.parent / "shared" / "corpus"
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


# --- the formats, from the registry --------------------------------------------------------------
# Tests, tools and fuzzers take the formats from ``quakemodels.formats.FORMATS`` (name, spec id,
# suffixes, kind), never from a list of their own: a new format needs no edit here. A format's
# corpus folder is its name (md2/, md3/, mdl/, spr/, hlspr/, sp2/).


def formats(*, folders: bool = False) -> list[Format]:
    """Every registered format read from bytes (and the folder kinds too with ``folders``)."""
    return [f for f in FORMATS if folders or kind_of(f) != "folder set"]


def format_named(name: str) -> Format:
    """The registered format called ``name`` (KeyError naming the known ones)."""
    for fmt in FORMATS:
        if fmt.name == name:
            return fmt
    raise KeyError(f"no format {name!r} (have: {', '.join(f.name for f in FORMATS)})")


def kind_of(fmt: Format) -> str:
    """The format's kind as text: "animated mesh", "image/sprite" or "folder set"."""
    # Formats registered before the contract declared kinds were all animated meshes.
    kind = getattr(fmt, "kind", None)
    return "animated mesh" if kind is None else str(getattr(kind, "value", kind))


# What a Format served before it declared its capabilities: these four, as attributes.
_FIRST_SERVICES = ("model", "check", "describe", "scene")


def has(fmt: Format, capability: str) -> bool:
    """Whether ``fmt`` offers ``capability`` (a field of its ``Services``: ``"model"``,
    ``"check"``, ``"build"``, ...)."""
    services = getattr(fmt, "services", None)
    if services is None:
        return capability in _FIRST_SERVICES
    return bool(getattr(services, capability, None))


def service(fmt: Format, capability: str) -> Any:
    """The object serving ``capability`` of ``fmt`` (see :func:`has`): its typed accessor."""
    return getattr(fmt, "open_folder" if capability == "open" else capability)


def accepts(fmt: Format, data: bytes) -> bool:
    """Whether ``data`` passes ``fmt``'s magic (and version) test."""
    test = getattr(fmt, "accepts", None)
    return bool(test(data)) if test is not None else data.startswith(fmt.magic)


def corpus_folder(name: str) -> Path:
    """The corpus folder of the format called ``name`` (its name: ``../shared/corpus/md2``)."""
    return CORPUS / name


def corpus_files(name: str) -> list[Path]:
    """Every corpus file of the format called ``name``: the files of its folder (and of its
    subfolders: IQM's ``mrfixit/`` and ``reference/``) with one of its suffixes (empty outside
    CI when the folder is absent; RuntimeError under CI=true)."""
    suffixes = format_named(name).suffixes
    folder = corpus_folder(name)
    found = sorted(folder.rglob("*")) if folder.is_dir() else []
    files = [p for p in found if p.is_file() and p.suffix.lower() in suffixes]
    if IN_CI and not files:
        raise RuntimeError(f"CI=true but the corpus folder {folder} has no {name} files")
    return files


def corpus_params(name: str) -> list[object]:
    """pytest parameters for every corpus file of the format ``name``, or one skip when absent."""
    files = corpus_files(name)
    if not files:
        folder = corpus_folder(name)
        return [
            pytest.param(
                None,
                marks=pytest.mark.skip(
                    reason=f"corpus not found at {folder} (set CI=true to require it)"
                ),
                id=f"no-{name}-corpus",
            )
        ]
    return [pytest.param(p, id=p.name) for p in files]


def no_corpus(missing: Path = CORPUS) -> NoReturn:
    """For a test whose corpus file or folder ``missing`` is absent: skip with the reason, or
    fail under CI=true, where every corpus test must run."""
    if IN_CI:
        pytest.fail(f"CI=true but {missing} is missing")
    pytest.skip(f"corpus not found at {missing} (set CI=true to require it)")


BLENDER_INSTALL = "apt-get install blender python3-numpy (or: make blender-deps)"


def need_blender() -> str:
    """The ``blender`` command (Debian's 3.4); a skip without it, a failure under CI=true,
    where the Blender oracles must run."""
    found = shutil.which("blender")
    if found is None:
        if IN_CI:
            pytest.fail(f"CI=true but no `blender`: {BLENDER_INSTALL}")
        pytest.skip(f"no `blender`: {BLENDER_INSTALL}")
    return found


@pytest.fixture(scope="session")
def corpus_dir() -> Path:
    """The corpus folder; skips (fails under CI) when it is absent."""
    if not CORPUS.is_dir():
        if IN_CI:
            pytest.fail(f"CI=true but the corpus folder {CORPUS} is missing")
        pytest.skip(f"corpus not found at {CORPUS} (set CI=true to require it)")
    return CORPUS


@pytest.fixture(params=["compiled", "numpy"])
def first_mesh_decode(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """A test run twice: through the compiled decode of an MD2's or MDL's first mesh
    (``core/_weld.c``: ``trivertx``, ``texcoords``) and through the numpy fast path it stands
    in front of (skipped when the compiled one is not built)."""
    from quakemodels.core import trivertx

    if request.param == "numpy":
        monkeypatch.setattr(trivertx, "COMPILED", None)
    elif trivertx.COMPILED is None:
        pytest.skip("the compiled decode is not built (no C compiler, or turned off)")
    return str(request.param)


def corpus_models(folder: Path = CORPUS) -> list[Path]:
    """Every model file anywhere under ``folder`` whose suffix a registered format claims, in
    the order the batch verbs walk a folder (sorted paths)."""
    suffixes = {s for fmt in FORMATS for s in fmt.suffixes}
    found = sorted(
        str(p) for p in folder.rglob("*") if p.suffix.lower() in suffixes and p.is_file()
    )
    return [Path(p) for p in found]
