"""Check results: :class:`Finding` objects collected by a :class:`Report` for one engine.

Each format's ``check`` module reports what would stop a model from loading in an engine, or
make it look wrong there; a checker never raises on any input.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from typing import Any, Literal, TypeVar

import numpy as np
import numpy.typing as npt

from ..errors import BadMagicError, BadVersionError, ModelFormatError, TruncatedError
from .sections import more

Severity = Literal["error", "warning"]
ENGINES = ("quake2", "q2pro", "quake3", "quake", "quakespasm", "halflife", "any")

_M = TypeVar("_M")
Where = Callable[[int], tuple[int, str]]
"""Item index → (its byte offset, the words that name it in a message)."""


@dataclass(frozen=True)
class Finding:
    """One problem: ``severity`` 'error' (will not load / undefined behaviour) or 'warning'.

    ``field`` is the spec's name of the field at fault and ``offset`` its absolute byte offset
    (either may be ``None``); ``code`` is a stable identifier such as ``'skin-height'``.
    """

    severity: Severity
    field: str | None
    offset: int | None
    message: str
    code: str

    def to_dict(self) -> dict[str, Any]:
        """The finding as a JSON-ready dict."""
        return asdict(self)

    def __str__(self) -> str:
        where = ""
        if self.field is not None:
            where += f" {self.field}"
        if self.offset is not None:
            where += f" @{self.offset}"
        return f"{self.severity}[{self.code}]{where}: {self.message}"


_ERROR_CODES: tuple[tuple[type[ModelFormatError], str], ...] = (
    (BadMagicError, "bad-magic"),
    (BadVersionError, "bad-version"),
    (TruncatedError, "truncated"),
)


def finding_from_error(error: ModelFormatError) -> Finding:
    """An error finding carrying a ModelFormatError's field, offset and message."""
    code = next((c for cls, c in _ERROR_CODES if isinstance(error, cls)), "bad-value")
    return Finding("error", error.field, error.offset, str(error), code)


def check_engine(engine: str) -> str:
    """``engine`` if it is one of :data:`ENGINES`; ValueError (a caller's mistake) else."""
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, not {engine!r}")
    return engine


class Report:
    """Collects findings; ``engine`` decides how engine-specific problems are graded."""

    def __init__(self, engine: str) -> None:
        self.engine = check_engine(engine)
        self.findings: list[Finding] = []

    def add(
        self, severity: Severity, code: str, field: str | None, offset: int | None, message: str
    ) -> None:
        self.findings.append(Finding(severity, field, offset, message, code))

    def error(self, code: str, field: str | None, offset: int | None, message: str) -> None:
        self.add("error", code, field, offset, message)

    def warning(self, code: str, field: str | None, offset: int | None, message: str) -> None:
        self.add("warning", code, field, offset, message)

    def limit(
        self,
        code: str,
        field: str | None,
        offset: int | None,
        message: str,
        *,
        engines: Iterable[str],
        warn_in: Iterable[str] = (),
    ) -> None:
        """An engine limit: an error in ``engines``, a warning in ``warn_in`` and in 'any'."""
        engines = tuple(engines)
        if self.engine in engines:
            self.error(code, field, offset, message)
        elif self.engine in tuple(warn_in) or self.engine == "any":
            self.warning(code, field, offset, message)

    def has(self, field: str | None, offset: int | None) -> bool:
        """Whether an error at this field and offset is already reported."""
        return any(
            f.severity == "error" and f.field == field and f.offset == offset for f in self.findings
        )

    def from_error(self, error: ModelFormatError) -> None:
        """Report a reader's error, unless the same field and offset already has one."""
        if not self.has(error.field, error.offset):
            self.findings.append(finding_from_error(error))

    def guarded(self, step: Callable[[_M], object], model: _M) -> None:
        """Run one section's checks; a ModelFormatError from the reader becomes a finding."""
        try:
            step(model)
        except ModelFormatError as e:
            self.from_error(e)

    def run(self, checks: Callable[[Report], None]) -> list[Finding]:
        """Run ``checks`` on this report, never raising: an unexpected exception becomes an
        ``internal`` finding (the fuzzers look for that code). Returns the findings."""
        try:
            checks(self)
        except Exception as e:
            self.error("internal", None, None, f"checker failed: {type(e).__name__}: {e}")
        return self.findings


def degenerate_triangles(r: Report, triangles: npt.NDArray[Any], field: str, where: Where) -> None:
    """Warn about triangles (T,3) that use a vertex twice (no area); ``where(i)`` gives the
    offset of triangle i and the words that name it (``triangles[3]``)."""
    t = triangles
    repeated = np.flatnonzero((t[:, 0] == t[:, 1]) | (t[:, 1] == t[:, 2]) | (t[:, 0] == t[:, 2]))
    if repeated.size:
        i = int(repeated[0])
        offset, name = where(i)
        r.warning(
            "degenerate-triangle",
            field,
            offset,
            f"{name} uses vertex {sorted(map(int, t[i]))} twice: it has no area"
            f"{more(repeated.size)}",
        )


def unused_vertices(
    r: Report, triangles: npt.NDArray[Any], num_vertices: int, where: Where
) -> None:
    """Warn about vertices no triangle (T,3) uses; ``where(i)`` gives vertex i's offset and the
    words that name it."""
    used = np.zeros(num_vertices, dtype=bool)
    used[triangles.reshape(-1)] = True
    unused = np.flatnonzero(~used)
    if unused.size:
        offset, name = where(int(unused[0]))
        r.warning(
            "unused-vertex",
            "vertices",
            offset,
            f"{name} is used by no triangle{more(unused.size)}",
        )


def non_ascii_names(
    r: Report,
    raws: Iterable[bytes],
    code: str,
    field: str,
    offset_of: Callable[[int], int],
    what: Callable[[int], str],
    why: str,
) -> None:
    """One warning ``code`` for names (raw NUL-terminated fields) with bytes >= 0x80 before
    their NUL: they load (shown as escapes), but ``why`` an engine may mishandle them. The
    message names the first such name by ``what(i)`` at ``offset_of(i)``."""
    texts = [raw.partition(b"\0")[0] for raw in raws]
    bad = [i for i, text in enumerate(texts) if not text.isascii()]
    if bad:
        i = bad[0]
        r.warning(
            code,
            field,
            offset_of(i),
            f"{what(i)}={texts[i]!r} has bytes >= 0x80: {why}{more(len(bad))}",
        )
