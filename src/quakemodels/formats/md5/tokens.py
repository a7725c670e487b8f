"""The MD5 text tokenizer: the file as tokens with their byte offsets, and the reads a parser
makes of them (a keyword, an int in a range, a float, a quoted string, a table of rows), each
raising :class:`~quakemodels.errors.TextFormatError` with the line and column of the token at
fault.

Tokens are as Doom 3's idLexer reads an MD5 (``LEXFL_NOSTRINGESCAPECHARS``): ``"strings"`` on
one line without escapes, the punctuation ``( ) { }``, ``//`` and ``/* */`` comments skipped,
anything else up to white space or punctuation one word. The bulk of a file is tables of rows
of the same shape (``vert i ( s t ) start count``, a frame's components): :meth:`Tokens.table`
checks and converts a whole table with numpy and walks it token by token only to name the
place of an error.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from ...errors import TextFormatError

# Quoted strings and comments (few in a file) are found by a regex; the text between them is
# split by str.split with the punctuation padded, which runs in C (a regex over every token
# takes six times as long). The same split as a regex (_PLAIN) finds offsets for errors.
_SPECIAL = re.compile(r'"[^"\n]*"?|//[^\n]*|/\*(?:.*?\*/)?', re.S)
_PLAIN = re.compile(r"[(){}]|[^\s(){}]+")
_NAMED = re.compile(r"//\s*meshes:\s*(\S+)")


def _split(plain: str) -> list[str]:
    """The tokens of text without strings or comments (chained replaces run in C and beat
    str.translate fourfold)."""
    padded = plain.replace("(", " ( ").replace(")", " ) ")
    return padded.replace("{", " { ").replace("}", " } ").split()


_INT = re.compile(r"[-+]?[0-9]+\Z")

FLOAT = float
"""A table column of floats (finite)."""
INT = int
"""A table column of integers (bounded by the caller)."""
Column = str | type
"""A table column: a literal keyword or punctuation, :data:`FLOAT` or :data:`INT`."""


class Tokens:
    """The tokens of one MD5 file (``data`` decoded as Latin-1, so any byte reads) and a
    cursor ``pos`` over them."""

    def __init__(self, data: bytes, what: str) -> None:
        self.text = data.decode("latin-1")
        self.what = what
        self._lines: list[int] | None = None
        self._starts: list[int] | None = None
        words: list[str] = []
        self.comment_names: dict[int, str] = {}
        """Token index → the name a ``// meshes: NAME`` comment just before it gives."""
        pos = 0
        for m in _SPECIAL.finditer(self.text):
            words += _split(self.text[pos : m.start()])
            t = m.group()
            pos = m.end()
            if t[0] == '"':
                if len(t) < 2 or t[-1] != '"':
                    self._fail(m.start(), "string", "a quoted string is not closed on its line")
                words.append(t)
            elif t[1] == "*" and (len(t) < 4 or not t.endswith("*/")):
                self._fail(m.start(), "comment", "a /* comment is never closed")
            elif named := _NAMED.match(t):
                self.comment_names[len(words)] = named.group(1)
        words += _split(self.text[pos:])
        self.words = words
        self.pos = 0

    @property
    def starts(self) -> list[int]:
        """The byte offset of every token of :attr:`words` (found only for an error)."""
        if self._starts is None:
            starts: list[int] = []
            pos = 0
            for m in _SPECIAL.finditer(self.text):
                starts += [pos + p.start() for p in _PLAIN.finditer(self.text[pos : m.start()])]
                if m.group()[0] == '"':
                    starts.append(m.start())
                pos = m.end()
            starts += [pos + p.start() for p in _PLAIN.finditer(self.text[pos:])]
            self._starts = starts
        return self._starts

    # -- places and errors -------------------------------------------------------------------

    def where(self, offset: int) -> tuple[int, int]:
        """(line, column), 1-based, of the byte at ``offset``."""
        if self._lines is None:
            self._lines = [m.end() for m in re.finditer("\n", self.text)]
        line = bisect.bisect_right(self._lines, offset)
        start = self._lines[line - 1] if line else 0
        return line + 1, offset - start + 1

    def offset(self, index: int | None = None) -> int:
        """Byte offset of token ``index`` (default: the next); the end of the file past the
        last token."""
        i = self.pos if index is None else index
        return self.starts[i] if i < len(self.starts) else len(self.text)

    def _fail(self, offset: int, field: str, message: str) -> TextFormatError:
        line, column = self.where(offset)
        raise TextFormatError(
            f"{self.what}: line {line}, column {column}: {message}",
            field=field,
            offset=offset,
            line=line,
            column=column,
        )

    def fail(self, field: str, message: str, index: int | None = None) -> TextFormatError:
        """Raise the error for token ``index`` (default: the next one)."""
        raise self._fail(self.offset(index), field, message)

    def _shown(self, index: int) -> str:
        if index >= len(self.words):
            return "the end of the file"
        word = self.words[index]
        return repr(word if len(word) <= 40 else word[:40] + "...")

    # -- single reads --------------------------------------------------------------------------

    def next(self, field: str) -> str:
        """The next token (an error naming ``field`` at the end of the file)."""
        if self.pos >= len(self.words):
            self.fail(field, f"the file ends where {field} was expected")
        word = self.words[self.pos]
        self.pos += 1
        return word

    def expect(self, keyword: str, field: str | None = None) -> None:
        """The next token must be ``keyword``."""
        if self.pos >= len(self.words) or self.words[self.pos] != keyword:
            self.fail(field or keyword, f"expected {keyword!r}, found {self._shown(self.pos)}")
        self.pos += 1

    def accept(self, keyword: str) -> bool:
        """True (and past it) when the next token is ``keyword``."""
        if self.pos < len(self.words) and self.words[self.pos] == keyword:
            self.pos += 1
            return True
        return False

    def integer(self, field: str, lo: int, hi: int) -> int:
        """The next token as an integer within ``lo..hi``."""
        at = self.pos
        word = self.next(field)
        if not _INT.match(word):
            self.fail(field, f"{field} must be an integer, found {self._shown(at)}", at)
        value = int(word)
        if not lo <= value <= hi:
            self.fail(field, f"{field} {value} is outside {lo}..{hi}", at)
        return value

    def number(self, field: str) -> float:
        """The next token as a finite float."""
        at = self.pos
        word = self.next(field)
        try:
            value = float(word)
        except ValueError:
            self.fail(field, f"{field} must be a number, found {self._shown(at)}", at)
        if not np.isfinite(value):
            self.fail(field, f"{field} must be finite, found {self._shown(at)}", at)
        return value

    def string(self, field: str) -> str:
        """The next token, a quoted string, without its quotes."""
        at = self.pos
        word = self.next(field)
        if word[0] != '"':
            self.fail(field, f"{field} must be a quoted string, found {self._shown(at)}", at)
        return word[1:-1]

    def name(self, field: str) -> str:
        """A joint's name: a quoted string, or one word as idLexer also takes."""
        at = self.pos
        word = self.next(field)
        if word in "(){}":
            self.fail(field, f"{field} must be a name, found {self._shown(at)}", at)
        return word[1:-1] if word[0] == '"' else word

    # -- tables ----------------------------------------------------------------------------------

    def table(
        self, rows: int, columns: Sequence[Column], field: str
    ) -> tuple[list[npt.NDArray[np.float64]], list[npt.NDArray[np.int64]]]:
        """``rows`` rows of ``columns`` (literals, :data:`FLOAT`, :data:`INT`) from the cursor:
        the float columns as (rows,) float64 arrays and the int columns as (rows,) int64, in
        order. Ints are only checked to be integers; the caller bounds them (:meth:`index_error`
        names a bad one's place)."""
        width = len(columns)
        start = self.pos
        end = start + rows * width
        words = self.words
        floats: list[npt.NDArray[np.float64]] = []
        ints: list[npt.NDArray[np.int64]] = []
        ok = end <= len(words)
        if ok:
            for c, kind in enumerate(columns):
                cells = words[start + c : end : width]
                if isinstance(kind, str):
                    if cells.count(kind) != rows:
                        ok = False
                        break
                    continue
                try:
                    if kind is FLOAT:
                        values = np.array(cells, dtype=np.float64)
                        if not np.isfinite(values).all():
                            ok = False
                            break
                        floats.append(values)
                    else:
                        ints.append(np.array(cells, dtype=np.int64))
                except (ValueError, OverflowError):
                    ok = False
                    break
        if not ok:
            self._table_error(rows, columns, field)
        self.pos = end
        return floats, ints

    def _table_error(self, rows: int, columns: Sequence[Column], field: str) -> None:
        """Walk the table token by token and raise at the first one that does not fit."""
        for _ in range(rows):
            for kind in columns:
                if isinstance(kind, str):
                    self.expect(kind, field)
                elif kind is FLOAT:
                    self.number(field)
                else:
                    self.integer(field, -(2**62), 2**62)
        raise AssertionError("a table that failed its fast check passed the slow one")

    def cell_error(
        self, table_start: int, width: int, row: int, column: int, field: str, message: str
    ) -> TextFormatError:
        """Raise ``message`` at row ``row``, column ``column`` of a table read from token
        ``table_start`` with rows of ``width`` tokens."""
        raise self.fail(field, message, table_start + row * width + column)
