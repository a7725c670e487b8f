"""The MD5 tokenizer's fast path, beside the plain one (``tokens.py``).

:class:`FastTokens` holds the same tokens as :class:`~.tokens.Tokens`, read through the same
methods, as bytes: ``bytes.split`` runs about twice as fast as ``str.split`` (no Unicode
white space to look for), numpy converts bytes to floats faster than str, and the integer
columns of a table (vertex, weight and joint indices) are looked up in a table of their
decimal texts instead of converted one by one. It is used only where it splits as the plain
tokenizer does: a file with a byte that ``str.split`` takes for white space and
``bytes.split`` does not (``\\x1c``-``\\x1f``, ``\\x85``, ``\\xa0``) or with an unclosed
string or comment is left to :class:`~.tokens.Tokens`. A table that does not convert here is
converted again as str by the plain :func:`~.tokens.converted`, and walked by the plain path to
name its error: values and errors are made in one place. ``tests/test_md5_fast.py`` proves the
tokens and the parsed files equal to the plain path's, on the corpus, the hostile inputs and
random damage.

:class:`CompiledTokens` goes further where the compiled scanner (``_scan.c``) is built: the
tokens as byte ranges, kinds and number values found in one C pass, the tables read from those
arrays by numpy, no Python object made per token. It only ever succeeds: wherever it is not
sure (a cell of another kind, a fault the parser finds) it raises :class:`Declined`, and the
parse starts again through :class:`FastTokens` or :class:`~.tokens.Tokens`, which name the
fault. The same tests prove it equal to the plain path.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NoReturn, overload

import numpy as np
import numpy.typing as npt

from ...core.compiled import compiled
from .tokens import _NAMED, FLOAT, NAME, ROW, Column, Table, Tokens, _specials, converted

_LOOSE_SPACE = tuple(
    bytes([b]) for b in range(256) if chr(b).isspace() and not bytes([b]).isspace()
)
"""Bytes ``str.split`` of the Latin-1 text splits at and ``bytes.split`` does not."""

_INTS: dict[bytes, int] = {b"-1": -1}
"""``b"-1"`` → -1 (a root's parent), ``b"0"`` → 0, ``b"1"`` → 1, ...: the decimal texts of the
integers below :data:`_INTS_MAX` that tables have asked for, kept (a table's indices are mostly
below its file's token count)."""
_INTS_MAX = 1 << 16
"""Kept texts at most (a few MB for the process's life); larger indices (past every engine's
limits, :data:`.limits.Q2PRO`) are converted as str."""
_ROWS: list[bytes] = []


def _int_texts(n: int) -> None:
    """Grow :data:`_INTS` and :data:`_ROWS` to ``n`` entries (at most :data:`_INTS_MAX`)."""
    n = min(n, _INTS_MAX)
    for i in range(len(_ROWS), n):
        text = str(i).encode()
        _ROWS.append(text)
        _INTS[text] = i


def _split(plain: bytes) -> list[bytes]:
    """The tokens of bytes without strings or comments (as :func:`.tokens._split`)."""
    padded = plain.replace(b"(", b" ( ").replace(b")", b" ) ")
    return padded.replace(b"{", b" { ").replace(b"}", b" } ").split()


class FastTokens(Tokens):
    """:class:`~.tokens.Tokens` whose words are bytes (see the module)."""

    words: list[bytes]  # type: ignore[assignment]

    @classmethod
    def of(cls, data: bytes, what: str) -> FastTokens | None:
        """The tokens of ``data``, or None where the plain tokenizer must read it (see the
        module)."""
        if any(b in data for b in _LOOSE_SPACE):
            return None
        text = data.decode("latin-1")
        words: list[bytes] = []
        names: dict[int, str] = {}
        pos = 0
        for start, end in _specials(text):
            words += _split(data[pos:start])
            pos = end
            if text[start] == '"':
                if end - start < 2 or text[end - 1] != '"':
                    return None
                words.append(data[start:end])
            elif text[start + 1] == "*" and (end - start < 4 or not text.endswith("*/", 0, end)):
                return None
            elif named := _NAMED.match(text, start, end):
                names[len(words)] = named.group(1)
        words += _split(data[pos:])
        tokens = cls.__new__(cls)
        tokens.text, tokens.what, tokens.pos = text, what, 0
        tokens.words, tokens.comment_names = words, names
        return tokens

    def word(self, index: int) -> str:
        return self.words[index].decode("latin-1")

    def _shown(self, index: int) -> str:
        if index >= len(self.words):
            return "the end of the file"
        word = self.words[index].decode("latin-1")
        return repr(word if len(word) <= 40 else word[:40] + "...")

    def next(self, field: str) -> str:
        if self.pos >= len(self.words):
            self.fail(field, f"the file ends where {field} was expected")
        word = self.words[self.pos]
        self.pos += 1
        return word.decode("latin-1")

    def expect(self, keyword: str, field: str | None = None) -> None:
        if self.pos >= len(self.words) or self.words[self.pos] != keyword.encode():
            self.fail(field or keyword, f"expected {keyword!r}, found {self._shown(self.pos)}")
        self.pos += 1

    def accept(self, keyword: str) -> bool:
        if self.pos < len(self.words) and self.words[self.pos] == keyword.encode():
            self.pos += 1
            return True
        return False

    def table(self, rows: int, columns: Sequence[Column], field: str) -> Table:
        found = self._converted(rows, columns)
        if found is None:
            # the plain conversion of the same cells as str, and the plain walk to name an error
            end = self.pos + rows * len(columns)
            cells = [w.decode("latin-1") for w in self.words[self.pos : end]]
            found = converted(cells, 0, rows, columns)
            if found is None:
                self._table_error(rows, columns, field)
                raise AssertionError("a table that failed its fast check passed the slow one")
        self.pos += rows * len(columns)
        return found

    def _converted(self, rows: int, columns: Sequence[Column]) -> Table | None:
        """:func:`.tokens.converted` over bytes, integers looked up; None where it is not
        sure (the caller converts the cells as str)."""
        width = len(columns)
        start, end = self.pos, self.pos + rows * width
        if end > len(self.words):
            return None
        _int_texts(max(rows, len(self.words)))
        floats: list[npt.NDArray[np.float64]] = []
        ints: list[npt.NDArray[np.int64]] = []
        names: list[list[str]] = []
        for c, kind in enumerate(columns):
            cells = self.words[start + c : end : width]
            if isinstance(kind, str):
                if cells.count(kind.encode()) != rows:
                    return None
            elif kind is NAME:
                if any(cell in b"(){}" for cell in cells):
                    return None
                names.append(
                    [(cell[1:-1] if cell[:1] == b'"' else cell).decode("latin-1") for cell in cells]
                )
            elif kind is ROW:
                if rows > len(_ROWS) or cells != _ROWS[:rows]:
                    return None
            elif kind is FLOAT:
                try:
                    values = np.array(cells, dtype=np.float64)
                except ValueError:
                    return None
                if not np.isfinite(values).all():
                    return None
                floats.append(values)
            else:
                try:
                    ints.append(np.array(list(map(_INTS.__getitem__, cells)), dtype=np.int64))
                except KeyError:  # a sign, a leading zero, a large one: as str
                    return None
        return floats, ints, names


# -- the compiled scanner ----------------------------------------------------------------------

WORD, NUMBER, INTEGER, STRING = 0, 1, 2, 7
"""Token kinds of ``_scan.c``: a word, a number (its value kept), a canonical integer of at
most 15 digits (its value exact), a quoted string; ``( ) { }`` are :data:`_PUNCT`'s."""
_PUNCT = {"(": 3, ")": 4, "{": 5, "}": 6}


def _compiled_scan() -> Callable[[bytes], tuple[bytes, bytes, bytes, bytes, bytes] | None] | None:
    module = compiled("quakemodels.formats.md5._scan")  # without it the Python tokenizers serve
    scan: Callable[[bytes], tuple[bytes, bytes, bytes, bytes, bytes] | None] | None = (
        None if module is None else module.scan
    )
    return scan


SCAN = _compiled_scan()
"""The compiled scanner (``_scan.c``), or None when the install had no C compiler or
``QUAKEMODELS_PURE_PYTHON`` is set (to any non-empty value)."""


class Declined(Exception):
    """The compiled tokens cannot read this file as the plain path does: parse it again
    through the Python tokenizers (which raise the error there is to raise)."""


class _Words(Sequence[bytes]):
    """The tokens' bytes, sliced from the text on demand (the parser reads only the few
    outside the tables)."""

    def __init__(self, data: bytes, starts: npt.NDArray[np.int64], ends: npt.NDArray[np.int64]):
        self.data, self.starts, self.ends = data, starts, ends

    def __len__(self) -> int:
        return len(self.starts)

    @overload
    def __getitem__(self, index: int) -> bytes: ...

    @overload
    def __getitem__(self, index: slice) -> list[bytes]: ...

    def __getitem__(self, index: int | slice) -> bytes | list[bytes]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        return self.data[int(self.starts[index]) : int(self.ends[index])]


class CompiledTokens(FastTokens):
    """:class:`FastTokens` over the compiled scanner's arrays (see the module)."""

    words: _Words  # type: ignore[assignment]

    @classmethod
    def of(cls, data: bytes, what: str) -> CompiledTokens | None:
        """The tokens of ``data``, or None where the scanner is not built or hands the file
        back (an unclosed string or comment, loose white space: see ``_scan.c``)."""
        if SCAN is None:
            return None
        found = SCAN(bytes(data))
        if found is None:
            return None
        starts_b, ends_b, kinds_b, values_b, named_b = found
        tokens = cls.__new__(cls)
        tokens.data = bytes(data)
        tokens.starts = np.frombuffer(starts_b, np.int64)
        tokens.ends = np.frombuffer(ends_b, np.int64)
        tokens.kinds = np.frombuffer(kinds_b, np.uint8)
        tokens.values = np.frombuffer(values_b, np.float64)
        tokens.bytes = np.frombuffer(tokens.data, np.uint8)
        tokens.text, tokens.what, tokens.pos = "", what, 0  # text: read for errors only
        tokens.words = _Words(tokens.data, tokens.starts, tokens.ends)
        tokens.comment_names = {}
        for index, start, end in np.frombuffer(named_b, np.int64).reshape(-1, 3).tolist():
            named = _NAMED.match(tokens.data[start:end].decode("latin-1"))
            if named:
                tokens.comment_names[index] = named.group(1)
        return tokens

    data: bytes
    starts: npt.NDArray[np.int64]
    ends: npt.NDArray[np.int64]
    kinds: npt.NDArray[np.uint8]
    values: npt.NDArray[np.float64]
    bytes: npt.NDArray[np.uint8]

    def fail(self, field: str, message: str, index: int | None = None) -> NoReturn:
        raise Declined(field)

    def table(self, rows: int, columns: Sequence[Column], field: str) -> Table:
        width = len(columns)
        start, end = self.pos, self.pos + rows * width
        if end > len(self.kinds):
            raise Declined(field)
        kinds = self.kinds[start:end].reshape(rows, width)
        values = self.values[start:end].reshape(rows, width)
        floats: list[npt.NDArray[np.float64]] = []
        ints: list[npt.NDArray[np.int64]] = []
        names: list[list[str]] = []
        for c, kind in enumerate(columns):
            col = kinds[:, c]
            if isinstance(kind, str):
                ok = (
                    (col == _PUNCT[kind]).all()
                    if kind in _PUNCT
                    else self._all(start + c, width, rows, kind)
                )
            elif kind is NAME:
                ok = bool(((col <= INTEGER) | (col == STRING)).all())  # no punctuation
                if ok:
                    names.append(self._names(start + c, width, rows))
            elif kind is ROW:
                ok = bool((col == INTEGER).all()) and bool(
                    (values[:, c] == np.arange(rows, dtype=np.float64)).all()
                )
            elif kind is FLOAT:
                v = values[:, c]
                ok = bool(((col == NUMBER) | (col == INTEGER)).all()) and bool(np.isfinite(v).all())
                floats.append(np.ascontiguousarray(v))
            else:
                ok = bool((col == INTEGER).all())
                ints.append(values[:, c].astype(np.int64))
            if not ok:
                raise Declined(field)
        self.pos = end
        return floats, ints, names

    def _all(self, first: int, step: int, rows: int, keyword: str) -> bool:
        """Whether tokens ``first``, ``first + step``... (``rows`` of them) are all
        ``keyword``: their lengths, then their bytes, compared a column at a time."""
        starts = self.starts[first : first + rows * step : step]
        ends = self.ends[first : first + rows * step : step]
        text = keyword.encode("latin-1")
        if not (ends - starts == len(text)).all():
            return False
        return all(bool((self.bytes[starts + i] == b).all()) for i, b in enumerate(text))

    def _names(self, first: int, step: int, rows: int) -> list[str]:
        """The names in tokens ``first``, ``first + step``..., quotes dropped."""
        data = self.data
        out = []
        for s, e in zip(
            self.starts[first : first + rows * step : step].tolist(),
            self.ends[first : first + rows * step : step].tolist(),
            strict=True,
        ):
            word = data[s:e]
            out.append((word[1:-1] if word[:1] == b'"' else word).decode("latin-1"))
        return out
