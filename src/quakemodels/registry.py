"""One dispatch for every format: ``load``, ``check``, ``info``, ``dump``, ``export``, the
Web IDE cross-check and the fuzzers find a file's format here, by its magic.

The formats are listed in :mod:`quakemodels.formats` (one line each); nothing else in the
package names a format to decide what to do with a file.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from .core.facade import Source, read_source
from .core.findings import Finding, Report, check_engine, finding_from_error
from .core.format import Format
from .core.scene import ExportModel
from .errors import BadMagicError
from .formats import FORMATS

__all__ = [
    "FORMATS",
    "Format",
    "by_magic",
    "by_name",
    "check",
    "describe",
    "explain",
    "for_model",
    "load",
    "scene",
]


def by_magic(data: bytes) -> Format | None:
    """The format whose magic ``data`` starts with, or None."""
    for fmt in FORMATS:
        if data[: len(fmt.magic)] == fmt.magic:
            return fmt
    return None


def by_name(name: str) -> Format:
    """The format called ``name`` (``md2``); KeyError listing the formats there are."""
    for fmt in FORMATS:
        if fmt.name == name:
            return fmt
    raise KeyError(f"no format {name!r}; formats: {', '.join(f.name for f in FORMATS)}")


def for_model(model: object) -> Format:
    """The format of a loaded model; TypeError for anything else."""
    for fmt in FORMATS:
        if isinstance(model, fmt.model):
            return fmt
    raise TypeError(f"not a loaded model: {type(model).__name__}")


def unknown_magic(data: bytes) -> BadMagicError:
    """The error for data no format recognises, listing the magics there are."""
    known = ", ".join(f"{f.magic.decode('latin-1')} = {f.name.upper()}" for f in FORMATS)
    return BadMagicError(
        f"magic={data[:4]!r} at offset 0 is not a known model format ({known})",
        field="magic",
        offset=0,
    )


def load(source: Source) -> Any:
    """The model in ``source`` (a path, bytes or a binary file object), by its magic.

    Raises ModelFormatError for data no format reads, OSError when a path cannot be read and
    TypeError for anything that is not a path, bytes or a binary file.
    """
    data, name = read_source(source)
    fmt = by_magic(data)
    if fmt is None:
        raise unknown_magic(data)
    return fmt.open(data, name)


def check(source: object, engine: str = "any") -> list[Finding]:
    """Findings for any supported model (a loaded model, bytes, a path or a binary file),
    chosen by magic; never raises on any input (an unknown ``engine`` is a ValueError)."""
    check_engine(engine)
    try:
        fmt = for_model(source)
    except TypeError:
        pass
    else:
        return fmt.check(source, engine)
    try:
        data, name = read_source(source)  # type: ignore[arg-type]
    except OSError as e:
        name = os.fspath(source) if isinstance(source, (str, os.PathLike)) else str(source)
        return [Finding("error", None, None, f"cannot read {name}: {e.strerror or e}", "io")]
    except TypeError as e:
        return [Finding("error", None, None, str(e), "io")]
    found = by_magic(data)
    if found is None:
        report = Report(engine)
        report.findings.append(finding_from_error(unknown_magic(data)))
        return report.findings
    return found.check(data, engine, name=name)


def describe(model: object) -> str:
    """``quakemodels info``'s text for a loaded model."""
    return for_model(model).describe(model)


def scene(
    model: object,
    *,
    skin_dir: str | os.PathLike[str] | None = None,
    frames: Sequence[int] | None = None,
) -> ExportModel:
    """The exporters' view of a loaded model (surfaces, clips, tags, skins); with ``frames``,
    only those frames (decoding only those), in that order, and no clips."""
    if frames is None:
        return for_model(model).scene(model, skin_dir=skin_dir)
    return for_model(model).scene(model, skin_dir=skin_dir, frames=frames)


def spec_id(data: bytes) -> str | None:
    """The generated parser (``quakemodels.kaitai`` module) for ``data``, by magic."""
    fmt = by_magic(data)
    return None if fmt is None else fmt.spec_id


def explain(data: bytes) -> None:
    """Raise the format reader's ModelFormatError for ``data`` (dump's better message)."""
    fmt = by_magic(data)
    if fmt is None:
        raise unknown_magic(data)
    fmt.open(data)
