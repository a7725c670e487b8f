"""The part of the Kaitai expression language a layout needs: literals and integer arithmetic.

A tokenizer and a recursive-descent parser (no regex over the whole text, no YAML): literal
arrays (``[[-0.5, 0.0], [1, 2]]``, ``['stand', "run\\n"]``), numbers as Kaitai writes them
(``0x1f``, ``0b101``, ``0o17``, ``1_000``, ``-2.5e3``), and integer expressions over names
bound to integers (``len * 2 + 4``: a type's ``params`` fixing a size). Anything else (a
method call, ``_root.x``, a comparison) is :class:`NotLiteral`.
"""

from __future__ import annotations

from collections.abc import Mapping

Value = int | float | str | bool | list["Value"]


class NotLiteral(ValueError):
    """The text is an expression this module does not evaluate."""


_PUNCT = "[](),+-*/%"
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "\\": "\\", '"': '"', "'": "'"}
_ESCAPES |= {"a": "\a", "b": "\b", "f": "\f", "v": "\v", "e": "\x1b"}


def _number(text: str) -> int | float:
    digits = text.replace("_", "")
    low = digits.lower()
    try:
        if low.startswith(("0x", "0b", "0o")):
            return int(digits, 0)
        if any(c in low for c in ".e"):
            return float(digits)
        return int(digits, 10)
    except ValueError as e:
        raise NotLiteral(f"{text!r} is not a number") from e


def tokens(text: str) -> list[tuple[str, object]]:
    """``(kind, value)`` pairs: kind is ``num``, ``str``, ``name`` or the punctuation itself."""
    out: list[tuple[str, object]] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c.isspace():
            i += 1
        elif c in _PUNCT:
            out.append((c, c))
            i += 1
        elif c.isdigit():
            j = i + 1
            while j < n and (text[j].isalnum() or text[j] in "_."):
                # an exponent's sign belongs to the number: 1e-3
                j += 1
                if (
                    text[j - 1] in "eE"
                    and j < n
                    and text[j] in "+-"
                    and not text[i:j].startswith(("0x", "0X"))
                ):
                    j += 1
            out.append(("num", _number(text[i:j])))
            i = j
        elif c == "'":  # single quotes: no escapes, as in Kaitai
            j = text.find("'", i + 1)
            if j < 0:
                raise NotLiteral("unterminated string")
            out.append(("str", text[i + 1 : j]))
            i = j + 1
        elif c == '"':
            buf: list[str] = []
            j = i + 1
            while True:
                if j >= n:
                    raise NotLiteral("unterminated string")
                if text[j] == '"':
                    break
                if text[j] == "\\":
                    if j + 1 >= n or text[j + 1] not in _ESCAPES:
                        raise NotLiteral("unsupported escape in a string")
                    buf.append(_ESCAPES[text[j + 1]])
                    j += 2
                else:
                    buf.append(text[j])
                    j += 1
            out.append(("str", "".join(buf)))
            i = j + 1
        elif c.isalpha() or c == "_":
            j = i + 1
            while j < n and (text[j].isalnum() or text[j] == "_"):
                j += 1
            out.append(("name", text[i:j]))
            i = j
        else:
            raise NotLiteral(f"{c!r} is not part of a literal")
    return out


class _Parser:
    def __init__(self, text: str, names: Mapping[str, Value]) -> None:
        self.toks = tokens(text)
        self.at = 0
        self.names = names

    def peek(self) -> str | None:
        return self.toks[self.at][0] if self.at < len(self.toks) else None

    def take(self, kind: str) -> object:
        if self.peek() != kind:
            raise NotLiteral(f"expected {kind}")
        value = self.toks[self.at][1]
        self.at += 1
        return value

    def whole(self) -> Value:
        value = self.sum()
        if self.at != len(self.toks):
            raise NotLiteral("text after the value")
        return value

    def sum(self) -> Value:
        left = self.product()
        while self.peek() in ("+", "-"):
            op = self.take(str(self.peek()))
            right = self.product()
            if isinstance(left, str) and isinstance(right, str) and op == "+":
                left = left + right
                continue
            a, b = _int(left), _int(right)
            left = a + b if op == "+" else a - b
        return left

    def product(self) -> Value:
        left = self.unary()
        while self.peek() in ("*", "/", "%"):
            op = self.take(str(self.peek()))
            a, b = _int(left), _int(self.unary())
            if op != "*" and b == 0:
                raise NotLiteral("division by zero")
            # Kaitai's integer division and modulo round towards negative infinity, as Python's
            left = a * b if op == "*" else a // b if op == "/" else a % b
        return left

    def unary(self) -> Value:
        if self.peek() == "-":
            self.take("-")
            value = self.unary()
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise NotLiteral("minus before a non-number")
            return -value
        return self.atom()

    def atom(self) -> Value:
        kind = self.peek()
        if kind == "num":
            value = self.take("num")
            assert isinstance(value, (int, float))
            return value
        if kind == "str":
            text = self.take("str")
            assert isinstance(text, str)
            return text
        if kind == "name":
            name = str(self.take("name"))
            if name in ("true", "false"):
                return name == "true"
            if name in self.names:
                return self.names[name]
            raise NotLiteral(f"{name} is not a constant")
        if kind == "(":
            self.take("(")
            value = self.sum()
            self.take(")")
            return value
        if kind == "[":
            self.take("[")
            items: list[Value] = []
            while self.peek() != "]":
                items.append(self.sum())
                if self.peek() != ",":
                    break
                self.take(",")
            self.take("]")
            return items
        raise NotLiteral("expected a value")


def _int(value: Value) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise NotLiteral("arithmetic on a non-integer")
    return value


def evaluate(text: object, names: Mapping[str, Value] | None = None) -> Value:
    """The value of a literal or of integer arithmetic over ``names``; :class:`NotLiteral`."""
    if isinstance(text, bool):
        return text
    if isinstance(text, (int, float)):
        return text
    if not isinstance(text, str):
        raise NotLiteral(f"{text!r} is not an expression")
    return _Parser(text, names or {}).whole()


def literal_int(text: object, names: Mapping[str, Value] | None = None) -> int | None:
    """``text`` as a non-negative integer when it is a literal or arithmetic over ``names``."""
    try:
        value = evaluate(text, names)
    except NotLiteral:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        return None
    return value


def literal_array(text: object) -> list[Value] | None:
    """A value instance's ``value`` as a Python list when it is a literal array of numbers and
    strings (``[[-0.525731, 0.0, 0.850651], ...]``, ``['stand', 'run']``), else None."""
    if not isinstance(text, str) or not text.strip().startswith("["):
        return None
    try:
        value = _Parser(text, {}).whole()
    except NotLiteral:
        return None
    return value if isinstance(value, list) and _plain(value) else None


def _plain(value: Value) -> bool:
    if isinstance(value, list):
        return all(_plain(v) for v in value)
    return not isinstance(value, bool)
