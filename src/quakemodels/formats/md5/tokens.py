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

import math
import re
from collections.abc import Iterator, Sequence

import numpy as np
import numpy.typing as npt

from ...errors import TextFormatError

# Quoted strings and comments (few in a file) are found by a regex; the text between them is
# split by str.split with the punctuation padded, which runs in C (a regex over every token
# takes six times as long).
# (_specials finds them with str.find, a C scan: the equivalent regex,
# '"[^"\n]*"?|//[^\n]*|/\*(?:.*?\*/)?', steps through every character in Python's engine.)
# Every token (and comment) as one regex, the same split as _specials + _split: for files
# dense with strings or comments (findall runs in C; the walk pays a Python step per special),
# and to find offsets for errors.
_ALL = re.compile(r'"[^"\n]*"?|//[^\n]*|/\*(?:.*?\*/)?|[(){}]|(?:[^\s(){}"/]|/(?![/*]))+', re.S)
_NAMED = re.compile(r"//\s*meshes:\s*(\S+)")


def _specials(text: str) -> Iterator[tuple[int, int]]:
    """(start, end) of every quoted string (to its closing quote, or to the end of its line
    when unclosed) and comment (``//`` to the end of the line, ``/*`` to ``*/`` or to the end
    of the text when unclosed), in order. Each kind's next place is looked up again only once
    the scan has passed it, so the whole walk reads the text a bounded number of times."""
    find = text.find
    n = len(text)
    pos = 0
    quote = slash = -1  # the next '"' and '/' at or after pos (-1: look again; n: none)
    while True:
        if quote < pos:
            quote = find('"', pos)
            quote = n if quote < 0 else quote
        if slash < pos:
            slash = find("/", pos)
            slash = n if slash < 0 else slash
        if quote == slash == n:
            return
        if quote < slash:
            # the newline is looked for only up to the closing quote: a long line of many
            # strings must not be read to its end once per string
            close = find('"', quote + 1)
            line = find("\n", quote + 1, close if close >= 0 else n)
            closed = close >= 0 and line < 0
            end = close + 1 if closed else (line if line >= 0 else n)
            yield quote, end
            pos = end
            continue
        after = text[slash + 1 : slash + 2]
        if after == "/":
            line = find("\n", slash + 2)
            end = line if line >= 0 else n
        elif after == "*":
            close = find("*/", slash + 2)
            end = close + 2 if close >= 0 else n
        else:
            pos = slash + 1  # a lone slash is part of the plain text
            continue
        yield slash, end
        pos = end


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


class NAME:
    """A table column holding a joint's name: a quoted string (its quotes dropped) or one
    word, as :meth:`Tokens.name` reads it."""


class ROW:
    """A table column holding each row's own number, 0, 1, 2...: rows must be in order
    (Doom 3 ignores the number and Q2PRO stores the row at it: only files in order read the
    same in both). Compared as text, nothing converted."""


Column = str | type
"""A table column: a literal keyword or punctuation, :data:`FLOAT`, :data:`INT`,
:class:`NAME` or :class:`ROW`."""

Table = tuple[list[npt.NDArray[np.float64]], list[npt.NDArray[np.int64]], list[list[str]]]
"""A table's float columns (rows,) float64, int columns (rows,) int64 and name columns, each
in order."""

_ROW_NAMES: list[str] = []


def _row_names(rows: int) -> list[str]:
    """``["0", "1", ... str(rows - 1)]`` (kept and grown: every table of a file reuses it)."""
    if len(_ROW_NAMES) < rows:
        _ROW_NAMES.extend(map(str, range(len(_ROW_NAMES), rows)))
    return _ROW_NAMES[:rows]


def converted(
    words: Sequence[str], start: int, rows: int, columns: Sequence[Column]
) -> Table | None:
    """The table of ``rows`` rows of ``columns`` at ``words[start:]`` as :meth:`Tokens.table`
    gives it, checked and converted a column at a time; None when a cell does not fit (the
    caller walks the table to name it)."""
    width = len(columns)
    end = start + rows * width
    floats: list[npt.NDArray[np.float64]] = []
    ints: list[npt.NDArray[np.int64]] = []
    names: list[list[str]] = []
    if end > len(words):
        return None
    for c, kind in enumerate(columns):
        cells = words[start + c : end : width]
        if isinstance(kind, str):
            if cells.count(kind) != rows:
                return None
            continue
        if kind is NAME:
            if any(cell in "(){}" for cell in cells):
                return None
            names.append([cell[1:-1] if cell[0] == '"' else cell for cell in cells])
            continue
        if kind is ROW:
            if cells != _row_names(rows):
                return None
            continue
        try:
            if kind is FLOAT:
                values = np.array(cells, dtype=np.float64)
                if not np.isfinite(values).all():
                    return None
                floats.append(values)
            else:
                ints.append(np.array(cells, dtype=np.int64))
        except (ValueError, OverflowError):
            return None
    return floats, ints, names


class Tokens:
    """The tokens of one MD5 file (``data`` decoded as Latin-1, so any byte reads) and a
    cursor ``pos`` over them."""

    def __init__(self, data: bytes, what: str) -> None:
        self.text = data.decode("latin-1")
        self.what = what
        self.pos = 0
        words: list[str] = []
        self.comment_names: dict[int, str] = {}
        """Token index → the name a ``// meshes: NAME`` comment just before it gives."""
        text = self.text
        if text.count('"') + text.count("/") > len(text) // 64:
            self.words = self._dense()
            return
        pos = 0
        for start, end in _specials(text):
            words += _split(text[pos:start])
            t = text[start:end]
            pos = end
            if t[0] == '"':
                if len(t) < 2 or t[-1] != '"':
                    self._fail(start, "string", "a quoted string is not closed on its line")
                words.append(t)
            elif t[1] == "*" and (len(t) < 4 or not t.endswith("*/")):
                self._fail(start, "comment", "a /* comment is never closed")
            elif named := _NAMED.match(t):
                self.comment_names[len(words)] = named.group(1)
        words += _split(text[pos:])
        self.words = words

    def _dense(self) -> list[str]:
        """The tokens by one regex (see _ALL), comments dropped, broken ones refused."""
        words: list[str] = []
        for t in _ALL.findall(self.text):
            c = t[0]
            if c == "/" and t[1:2] in ("/", "*"):
                if t[1] == "*" and (len(t) < 4 or not t.endswith("*/")):
                    self._find_bad("comment", "a /* comment is never closed")
                if named := _NAMED.match(t):
                    self.comment_names[len(words)] = named.group(1)
                continue
            if c == '"' and (len(t) < 2 or t[-1] != '"'):
                self._find_bad("string", "a quoted string is not closed on its line")
            words.append(t)
        return words

    def _find_bad(self, field: str, message: str) -> None:
        """Raise ``message`` at the first unclosed string or comment."""
        for m in _ALL.finditer(self.text):
            t = m.group()
            if (t[0] == '"' and (len(t) < 2 or t[-1] != '"')) or (
                t[:2] == "/*" and (len(t) < 4 or not t.endswith("*/"))
            ):
                self._fail(m.start(), field, message)

    def start_of(self, index: int) -> int:
        """The byte offset of token ``index`` (the end of the text past the last), found
        only for an error, by the regex of every token run up to that token only."""
        if index >= len(self.words):
            return len(self.text)
        seen = -1
        for m in _ALL.finditer(self.text):
            t = m.group()
            if t[0] != "/" or t[1:2] not in ("/", "*"):
                seen += 1
                if seen == index:
                    return m.start()
        raise AssertionError("the token regex and the split disagree")  # pragma: no cover

    # -- places and errors -------------------------------------------------------------------

    def where(self, offset: int) -> tuple[int, int]:
        """(line, column), 1-based, of the byte at ``offset``."""
        line = self.text.count("\n", 0, offset)
        return line + 1, offset - (self.text.rfind("\n", 0, offset) + 1) + 1

    def offset(self, index: int | None = None) -> int:
        """Byte offset of token ``index`` (default: the next); the end of the file past the
        last token."""
        return self.start_of(self.pos if index is None else index)

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

    def word(self, index: int) -> str:
        """Token ``index``'s text."""
        return self.words[index]

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
        if not math.isfinite(value):  # (np.isfinite of one float costs a ufunc call)
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

    def table(self, rows: int, columns: Sequence[Column], field: str) -> Table:
        """``rows`` rows of ``columns`` (see :data:`Column`) from the cursor: the float
        columns as (rows,) float64 arrays, the int columns as (rows,) int64 and the name
        columns as lists of str, in order. Ints are only checked to be integers; the caller
        bounds them (:meth:`cell_error` names a bad one's place)."""
        found = converted(self.words, self.pos, rows, columns)
        if found is None:
            self._table_error(rows, columns, field)
            raise AssertionError("a table that failed its fast check passed the slow one")
        self.pos += rows * len(columns)
        return found

    def _table_error(self, rows: int, columns: Sequence[Column], field: str) -> None:
        """Walk the table token by token and raise at the first one that does not fit."""
        for row in range(rows):
            for kind in columns:
                if isinstance(kind, str):
                    self.expect(kind, field)
                elif kind is NAME:
                    self.name(field)
                elif kind is ROW:
                    # compared as text, as the check it failed: "+2" and "02" are not row 2
                    at = self.pos
                    number = self.integer(field, -(2**62), 2**62)
                    if self.word(at) != str(row):
                        self.fail(field, f"{field} {number} where {row} was expected", at)
                elif kind is FLOAT:
                    self.number(field)
                else:
                    self.integer(field, -(2**62), 2**62)

    def cell_error(
        self, table_start: int, width: int, row: int, column: int, field: str, message: str
    ) -> TextFormatError:
        """Raise ``message`` at row ``row``, column ``column`` of a table read from token
        ``table_start`` with rows of ``width`` tokens."""
        raise self.fail(field, message, table_start + row * width + column)
