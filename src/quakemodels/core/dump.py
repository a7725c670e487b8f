"""The generated parser's whole tree as JSON, as the Kaitai Web IDE or ``ksdump`` would write it.

Two formats:

``webide``
    The Kaitai Web IDE's "Export to JSON" (ide.kaitai.io, the ``src/v1`` worker and
    ``src/v1/ExportToJson.ts`` of kaitai-io/kaitai_struct_webide): keys as the JavaScript compiler
    names them (lowerCamelCase), seq fields in read order then every instance in the order the
    compiler declares them, internals (``_io``, ``_parent``, ``_raw_*``, ``_m_*``) left out, fields
    absent because of ``if:`` omitted, enums as ``{ "name": "TRIANGLE_FAN", "value": 1 }``, byte
    arrays of at most 64 bytes as integer lists and longer ones as
    ``{ "$start": absolute_start, "$end": absolute_end_inclusive }``. The text layout is the IDE's
    too (two-space indent, up to 16 numbers per line, JavaScript number formatting).
``ksdump``
    kaitai_struct_visualizer's ``ksdump -f json``: snake_case keys sorted, byte arrays as
    ``"49 44 50 32"``, enums as their names, absent and null fields omitted, Ruby's float format.

The walk is driven by reflection over the generated classes, never by per-format code: a parsed
object's seq fields (and params) are its public attributes in assignment order (exactly what the
IDE's worker reads with ``Object.keys``), its instances are the public properties its class
defines (the IDE reads the prototype's getters). Output is streamed in chunks, so a 198-frame
model is never held as one string.
"""

from __future__ import annotations

import contextlib
import enum
import gc
import importlib
import io
import json
import math
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import IO, Any

import kaitaistruct
from kaitaistruct import KaitaiStream, KaitaiStruct

from ..errors import DumpError, ModelFormatError

FORMATS = ("webide", "ksdump")
# The Web IDE writes byte arrays up to this length inline, longer ones as a byte range.
INLINE_BYTES_MAX = 64
_FLUSH_PARTS = 4096


# --- names -------------------------------------------------------------------------------------


def lower_camel_case(name: str) -> str:
    """The JavaScript compiler's name for a ksy id (its ``Utils.lowerCamelCase``).

    A leading ``_`` is kept; the rest is split on ``_`` (Java's ``split`` drops trailing empty
    parts), the first word kept as is and the others given an upper-case first letter.
    """
    if name.startswith("_"):
        return "_" + lower_camel_case(name[1:])
    words = name.split("_")
    while len(words) > 1 and words[-1] == "":
        words.pop()
    return words[0] + "".join(w[:1].upper() + w[1:] for w in words[1:])


_JS_NAMES: dict[str, str] = {}


def _js_name(name: str) -> str:
    js = _JS_NAMES.get(name)
    if js is None:
        js = _JS_NAMES[name] = lower_camel_case(name)
    return js


# --- specs -------------------------------------------------------------------------------------


def spec_classes() -> dict[str, type[KaitaiStruct]]:
    """Every generated root class in ``quakemodels.kaitai``, keyed by spec id (module name)."""
    pkg = importlib.import_module("quakemodels.kaitai")
    found: dict[str, type[KaitaiStruct]] = {}
    for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{pkg.__name__}.{info.name}")
        for obj in vars(module).values():
            # Root types are the module's own top-level KaitaiStruct classes; nested types are
            # attributes of the root class, imported specs belong to other modules.
            if (
                isinstance(obj, type)
                and issubclass(obj, KaitaiStruct)
                and obj.__module__ == module.__name__
            ):
                found[info.name] = obj
    return found


class _Classes:
    """Per-class reflection results, computed once: instance names in declaration order."""

    def __init__(self) -> None:
        # Classes with at least one instance (the walk looks them up directly).
        self.known: dict[type, list[tuple[str, str, bool]]] = {}
        self._all: dict[type, list[tuple[str, str, bool]]] = {}

    def instances(self, cls: type) -> list[tuple[str, str, bool]]:
        """``(python_name, js_name, is_value_instance)`` for every instance ``cls`` declares."""
        got = self._all.get(cls)
        if got is None:
            got = []
            for name, attr in vars(cls).items():
                if isinstance(attr, property) and not name.startswith("_"):
                    got.append((name, _js_name(name), _is_value_instance(attr)))
            self._all[cls] = got
            if got:
                self.known[cls] = got
        return got


def _is_value_instance(prop: property) -> bool:
    """Whether a generated property computes a value rather than parsing from a stream.

    The IDE keeps no per-element debug record for a value instance, so enums inside an array it
    returns are written as plain numbers; parse instances seek or read their stream.
    """
    code = getattr(prop.fget, "__code__", None)
    if code is None:
        return False
    return not any(n == "seek" or n.startswith("read_") for n in code.co_names)


# --- parsing with byte positions ----------------------------------------------------------------


_read_bytes = KaitaiStream.read_bytes


class _RecordingStream(KaitaiStream):  # type: ignore[misc]
    """A KaitaiStream that remembers where each long byte array was read (absolute offsets).

    The Web IDE writes byte arrays longer than 64 bytes as their byte range; the generated
    Python parser keeps no positions, so the root stream records them as it reads.
    """

    def __init__(self, data: bytes, positions: dict[int, tuple[int, int]]) -> None:
        super().__init__(io.BytesIO(data))
        self._positions = positions

    def _note(self, start: int, value: bytes) -> bytes:
        if len(value) > INLINE_BYTES_MAX:
            self._positions[id(value)] = (start, self.pos())
        return value

    def read_bytes(self, n: int) -> bytes:
        # Every numeric read of the runtime comes through here: keep the short path short.
        if n <= INLINE_BYTES_MAX:
            return _read_bytes(self, n)  # type: ignore[no-any-return]
        start = self.pos()
        return self._note(start, _read_bytes(self, n))

    def read_bytes_full(self) -> bytes:
        start = self.pos()
        return self._note(start, super().read_bytes_full())

    def read_bytes_term(self, *args: Any) -> bytes:
        start = self.pos()
        return self._note(start, super().read_bytes_term(*args))


@dataclass
class ParsedTree:
    """A generated root object plus what the dump needs to write it."""

    root: KaitaiStruct
    spec_id: str
    positions: dict[int, tuple[int, int]] = field(default_factory=dict)
    error: ModelFormatError | None = None  # set when the parse failed (partial tree)


def _translate(exc: BaseException, where: str) -> ModelFormatError:
    """A ModelFormatError for an exception raised by generated code while reading ``where``."""
    if isinstance(exc, ModelFormatError):
        return exc
    offset: int | None = None
    stream = getattr(exc, "io", None)
    if isinstance(stream, KaitaiStream):
        with contextlib.suppress(Exception):
            offset = int(stream.pos())
    if isinstance(exc, kaitaistruct.ValidationFailedError):
        src = getattr(exc, "src_path", "")
        msg = f"{where}: validation failed at {src}: {exc}"
    elif isinstance(exc, EOFError):
        msg = f"{where}: unexpected end of data: {exc}"
    elif isinstance(exc, ZeroDivisionError):
        msg = f"{where}: division by zero while evaluating the value instance"
    elif isinstance(exc, UnicodeDecodeError):
        msg = f"{where}: bytes {exc.object[exc.start : exc.end]!r} are not {exc.encoding}"
    else:
        msg = f"{where}: {type(exc).__name__}: {exc}"
    return ModelFormatError(msg, field=where, offset=offset)


def _construct_root(cls: type[KaitaiStruct], stream: KaitaiStream) -> tuple[KaitaiStruct, Any]:
    """Build a root object the way its generated ``__init__`` does, keeping it when ``_read`` fails.

    Returns ``(object, exception or None)``; the object holds every field read before the failure.
    """
    obj: Any = object.__new__(cls)
    KaitaiStruct.__init__(obj, stream)
    obj._parent = None
    obj._root = obj
    try:
        obj._read()
    except Exception as e:  # anything the generated reader raises is a problem of the bytes
        return obj, e
    return obj, None


Explain = Callable[[bytes], None]
"""Raises the format reader's ModelFormatError for bytes the generated parser refuses."""


def parse(data: bytes, spec_id: str | None = None, explain: Explain | None = None) -> ParsedTree:
    """Parse ``data`` with the class of ``spec_id``, or the first generated spec whose seq reads it.

    When no spec reads the data, the tree's ``error`` is ``explain``'s ModelFormatError when it
    raises one (the format reader names the field and offset in the format's own terms), else
    the generated parser's, with offset.
    """
    classes = spec_classes()
    if spec_id is not None:
        if spec_id not in classes:
            raise ValueError(f"no generated spec {spec_id!r} (have: {', '.join(classes)})")
        candidates = {spec_id: classes[spec_id]}
    else:
        candidates = classes
    best: ParsedTree | None = None
    best_pos = -1
    for sid, cls in candidates.items():
        positions: dict[int, tuple[int, int]] = {}
        stream = _RecordingStream(data, positions)
        obj, exc = _construct_root(cls, stream)
        if exc is None:
            return ParsedTree(obj, sid, positions)
        pos = int(stream.pos())
        if pos > best_pos:
            best, best_pos = ParsedTree(obj, sid, positions, _translate(exc, sid)), pos
    assert best is not None and best.error is not None
    if explain is not None:
        try:
            explain(data)
        except ModelFormatError as e:
            best.error = e
    return best


# --- number formats -----------------------------------------------------------------------------


def js_number(v: float | int) -> str:
    """``String(v)`` in JavaScript (ECMAScript Number::toString), for the IDE's text."""
    if isinstance(v, int):
        return str(v)
    if v != v:
        return "NaN"
    if v in (math.inf, -math.inf):
        return "Infinity" if v > 0 else "-Infinity"
    if v == 0:
        return "0"
    if v.is_integer() and abs(v) < 2.0**53:
        return str(int(v))  # exact below 2**53, where every digit is needed to round-trip
    r = repr(v)
    if "e" not in r:
        # Python writes fixed notation only for 1e-4 <= |v| < 1e16, where JavaScript does too,
        # and both use the shortest round-trip digits (JavaScript without a ".0").
        return r[:-2] if r.endswith(".0") else r
    sign = "-" if v < 0 else ""
    mant, exp_s = repr(abs(v)).split("e")
    digits = mant.replace(".", "")
    point = mant.index(".") if "." in mant else len(mant)
    n = point + int(exp_s)  # v = 0.DIGITS * 10**n
    stripped = digits.lstrip("0")
    n -= len(digits) - len(stripped)
    digits = stripped.rstrip("0") or "0"
    k = len(digits)
    if k <= n <= 21:
        return sign + digits + "0" * (n - k)
    if 0 < n <= 21:
        return sign + digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return sign + "0." + "0" * (-n) + digits
    e = n - 1
    es = ("+" if e >= 0 else "-") + str(abs(e))
    return sign + (digits if k == 1 else digits[0] + "." + digits[1:]) + "e" + es


def ruby_float(v: float) -> str:
    """Ruby's ``Float#to_s`` (what ``JSON.generate`` writes); NaN and infinities are refused."""
    if v != v or v in (math.inf, -math.inf):
        raise DumpError(f"{v!r} is not allowed in JSON (ksdump's JSON.generate refuses it too)")
    r = repr(v)
    if "e" in r:
        mant, exp_s = r.split("e")
        if "." not in mant:
            mant += ".0"
        return f"{mant}e{exp_s}"
    return r


# --- writers ------------------------------------------------------------------------------------


class _Failure(Exception):
    """An error deep in the walk; each level adds its path segment on the way up."""

    def __init__(self, cause: BaseException | str) -> None:
        super().__init__(str(cause))
        self.cause = cause
        self.segments: list[str] = []

    def to_error(self, spec_id: str) -> ModelFormatError:
        where = spec_id + "".join(reversed(self.segments))
        if isinstance(self.cause, BaseException):
            return _translate(self.cause, where)
        return DumpError(f"{where}: {self.cause}", field=where)


def _js_float(v: float) -> str:
    r = repr(v)
    if "e" in r:
        return js_number(v)
    if r[-1] in "nf":  # nan, inf, -inf
        return js_number(v)
    if r.endswith(".0"):
        return "0" if r == "-0.0" else r[:-2]
    return r


class _Writer:
    """Shared walk state: output chunks and reflection caches."""

    def __init__(self, out: IO[str], tree: ParsedTree, evaluate: bool) -> None:
        self.out = out
        self.tree = tree
        self.parts: list[str] = []
        self.classes = _Classes()
        # False for a partial dump: write only instances already evaluated, evaluate nothing.
        self.evaluate = evaluate

    def flush(self) -> None:
        self.out.write("".join(self.parts))
        self.parts.clear()


class _WebIdeWriter(_Writer):
    """The Web IDE's Export to JSON, text layout included."""

    def __init__(self, out: IO[str], tree: ParsedTree, evaluate: bool) -> None:
        super().__init__(out, tree, evaluate)
        self.keys: list[dict[str, tuple[str, str]]] = []
        # Models repeat few distinct floats (256 steps per axis, 162 normals): format each once.
        self.number: dict[float, str] = {}

    def float_text(self, v: float) -> str:
        text = _js_float(v)
        if len(self.number) < 1_000_000:
            self.number[v] = text  # 0.0 and -0.0 share a key and both print "0" in JavaScript
        return text

    def value(self, v: Any, level: int, plain_enums: bool = False) -> None:
        t = type(v)
        if t is int:
            self.parts.append(str(v))
        elif t is float:
            self.parts.append(_js_float(v))
        elif isinstance(v, KaitaiStruct):
            self.struct(v, level)
        elif t is list:
            self.array(v, level, plain_enums)
        elif t is str:
            self.parts.append(json.dumps(v, ensure_ascii=False))
        elif t is bool:
            self.parts.append("true" if v else "false")
        elif isinstance(v, enum.Enum):
            if plain_enums:
                self.parts.append(str(int(v.value)))
            else:
                # JavaScript enum constants are the ksy ids upper-cased.
                self.parts.append(f'{{ "name": "{v.name.upper()}", "value": {int(v.value)} }}')
        elif isinstance(v, (bytes, bytearray)):
            self.byte_array(bytes(v))
        elif isinstance(v, (int, float)):
            self.parts.append(js_number(v))
        elif v is None:
            self.parts.append("null")
        else:
            raise _Failure(f"cannot export a {type(v).__name__}")

    def byte_array(self, b: bytes) -> None:
        if len(b) <= INLINE_BYTES_MAX:
            self.parts.append("[" + ", ".join(map(str, b)) + "]")
            return
        pos = self.tree.positions.get(id(b))
        if pos is None:
            # Read inside a substream: the Python parser does not keep its file offset.
            raise _Failure(
                f"byte array of {len(b)} bytes whose file offset is unknown (read inside a "
                "substream); the webide format cannot place it"
            )
        self.parts.append(f'{{ "$start": {pos[0]}, "$end": {pos[1] - 1} }}')

    def key_texts(self, level: int) -> dict[str, tuple[str, str]]:
        """Per nesting level: ksy name → (text before the first key, text before later keys)."""
        while len(self.keys) <= level:
            self.keys.append({})
        return self.keys[level]

    def struct(self, obj: KaitaiStruct, level: int) -> None:
        parts = self.parts
        add = parts.append
        cls = type(obj)
        instances = self.classes.known.get(cls) or self.classes.instances(cls)
        texts = self.keys[level] if level < len(self.keys) else self.key_texts(level)
        num = self.number
        add("{")
        later = 0  # index into a key's texts: 0 before the first key written, 1 after
        name = ""
        try:
            for name, v in obj.__dict__.items():
                # Seq fields and params in assignment order (the IDE's Object.keys), no internals.
                if name[0] == "_":
                    continue
                key = texts.get(name) or self.key_text(level, name)
                t = type(v)
                if t is int:
                    add(key[later] + str(v))
                elif t is float:
                    add(key[later] + (num.get(v) or self.float_text(v)))
                else:
                    add(key[later])
                    if isinstance(v, KaitaiStruct):
                        self.struct(v, level + 1)
                    else:
                        self.value(v, level + 1)
                later = 1
            evaluate = self.evaluate
            for name, _js, is_value in instances:
                if evaluate:
                    try:
                        v = getattr(obj, name)
                    except IndexError:
                        # An index out of range in an expression: JavaScript yields undefined
                        # there and the IDE leaves the key out (Ruby's nil does the same).
                        continue
                    except Exception as e:
                        raise _Failure(e) from e
                else:
                    v = obj.__dict__.get("_m_" + name)
                if v is None:  # a false `if:` (JavaScript: undefined)
                    continue
                key = texts.get(name) or self.key_text(level, name)
                t = type(v)
                if t is float:
                    add(key[later] + (num.get(v) or self.float_text(v)))
                elif t is int:
                    add(key[later] + str(v))
                else:
                    add(key[later])
                    # Only the elements of an array a value instance returns lack enum names.
                    self.value(v, level + 1, is_value and t is list)
                later = 1
        except _Failure as f:
            f.segments.append("." + name)
            raise
        pad = "  " * level
        if later:
            add("\n" + pad + "}")
        elif instances:
            # Nothing written but the object has keys: the IDE still breaks the line.
            add("\n" + pad + "  \n" + pad + "}")
        else:
            add("}")

    def key_text(self, level: int, name: str) -> tuple[str, str]:
        child = "\n" + "  " * (level + 1)
        key = f'"{lower_camel_case(name)}": '
        texts = self.key_texts(level)[name] = (child + key, "," + child + key)
        return texts

    def array(self, items: list[Any], level: int, plain_enums: bool) -> None:
        parts = self.parts
        if not items:
            parts.append("[]")
            return
        pad = "  " * level
        child = "\n" + pad + "  "
        line_end = "," + child
        sep = "[" + child
        i = 0
        try:
            for i, item in enumerate(items):
                t = type(item)
                # The IDE keeps numbers (and enums, booleans) on one line, 16 to a line.
                if t is float:
                    parts.append(sep + (self.number.get(item) or self.float_text(item)))
                    inline = True
                elif t is int:
                    parts.append(sep + str(item))
                    inline = True
                elif isinstance(item, KaitaiStruct):
                    parts.append(sep)
                    self.struct(item, level + 1)
                    inline = False
                else:
                    parts.append(sep)
                    self.value(item, level + 1, plain_enums)
                    inline = not isinstance(item, (str, bytes, bytearray, list))
                sep = ", " if inline and i % 16 != 15 else line_end
                if len(parts) > _FLUSH_PARTS:
                    self.flush()
        except _Failure as f:
            f.segments.append(f"[{i}]")
            raise
        parts.append("\n" + pad + "]")


class _KsdumpWriter(_Writer):
    """``ksdump -f json``: Ruby's ``JSON.pretty_generate`` of the visualizer's ``obj_to_h``."""

    def value(self, v: Any, level: int) -> None:
        t = type(v)
        if t is int:
            self.parts.append(str(v))
        elif t is float:
            self.parts.append(self.number.get(v) or self.float_text(v))
        elif isinstance(v, KaitaiStruct):
            self.struct(v, level)
        elif t is list:
            self.array(v, level)
        elif t is str:
            self.parts.append(json.dumps(v, ensure_ascii=False))
        elif t is bool:
            self.parts.append("true" if v else "false")
        elif isinstance(v, enum.Enum):
            self.parts.append(json.dumps(v.name))
        elif isinstance(v, (bytes, bytearray)):
            self.parts.append('"' + bytes(v).hex(" ").upper() + '"')
        elif isinstance(v, int):
            self.parts.append(str(int(v)))
        elif isinstance(v, float):
            self.parts.append(ruby_float(float(v)))
        elif v is None:
            self.parts.append("null")
        else:
            raise _Failure(f"cannot export a {type(v).__name__}")

    def __init__(self, out: IO[str], tree: ParsedTree, evaluate: bool) -> None:
        super().__init__(out, tree, evaluate)
        # class → (public field names last seen, sorted [(name, is_instance)])
        self.order: dict[type, tuple[list[str], list[tuple[str, bool]]]] = {}
        self.keys: list[dict[str, tuple[str, str]]] = []
        self.number: dict[float, str] = {}

    def float_text(self, v: float) -> str:
        text = ruby_float(v)
        # Ruby writes -0.0 and 0.0 differently, and they are one dict key: zeros are not cached.
        if v and len(self.number) < 1_000_000:
            self.number[v] = text
        return text

    def sorted_names(self, cls: type, fields: list[str]) -> list[tuple[str, bool]]:
        """Seq fields and instances sorted by name, as ``obj_to_h`` sorts the methods."""
        names = [(f, False) for f in fields]
        names += [(name, True) for name, _js, _v in self.classes.instances(cls)]
        names.sort()
        self.order[cls] = (fields, names)
        return names

    def key_text(self, level: int, name: str) -> tuple[str, str]:
        while len(self.keys) <= level:
            self.keys.append({})
        child = "\n" + "  " * (level + 1) + json.dumps(name) + ": "
        texts = self.keys[level][name] = ("{" + child, "," + child)
        return texts

    def struct(self, obj: KaitaiStruct, level: int) -> None:
        parts = self.parts
        add = parts.append
        cls = type(obj)
        d = obj.__dict__
        fields = [k for k in d if k[0] != "_"]
        cached = self.order.get(cls)
        names = cached[1] if cached is not None and cached[0] == fields else None
        if names is None:
            names = self.sorted_names(cls, fields)
        texts = self.keys[level] if level < len(self.keys) else {}
        num = self.number
        later = 0
        name = ""
        try:
            evaluate = self.evaluate
            for name, is_instance in names:
                if not is_instance:
                    v = d[name]
                elif evaluate:
                    try:
                        v = getattr(obj, name)
                    except IndexError:  # Ruby's array[out of range] is nil: left out
                        continue
                    except Exception as e:
                        raise _Failure(e) from e
                else:
                    v = d.get("_m_" + name)
                if v is None:
                    continue  # obj_to_h leaves nil out
                key = texts.get(name) or self.key_text(level, name)
                t = type(v)
                if t is int:
                    add(key[later] + str(v))
                elif t is float:
                    add(key[later] + (num.get(v) or self.float_text(v)))
                else:
                    add(key[later])
                    self.value(v, level + 1)
                later = 1
        except _Failure as f:
            f.segments.append("." + name)
            raise
        except DumpError as e:
            fail = _Failure(str(e))
            fail.segments.append("." + name)
            raise fail from None
        add("\n" + "  " * level + "}" if later else "{}")

    def array(self, items: list[Any], level: int) -> None:
        parts = self.parts
        if not items:
            parts.append("[]")
            return
        pad = "  " * level
        child = "\n" + pad + "  "
        sep = "," + child
        parts.append("[" + child)
        i = 0
        try:
            num = self.number
            for i, item in enumerate(items):
                if i:
                    parts.append(sep)
                t = type(item)
                if t is float:
                    parts.append(num.get(item) or self.float_text(item))
                elif t is int:
                    parts.append(str(item))
                elif isinstance(item, KaitaiStruct):
                    self.struct(item, level + 1)
                else:
                    self.value(item, level + 1)
                if len(parts) > _FLUSH_PARTS:
                    self.flush()
        except _Failure as f:
            f.segments.append(f"[{i}]")
            raise
        except DumpError as e:
            fail = _Failure(str(e))
            fail.segments.append(f"[{i}]")
            raise fail from None
        parts.append("\n" + pad + "]")


def write_tree(tree: ParsedTree, out: IO[str], fmt: str = "webide") -> None:
    """Write ``tree`` to the text stream ``out`` in format ``fmt`` (see module docstring).

    A partial tree (``tree.error`` set) is written without evaluating anything new, with
    ``"$incomplete": true`` and ``"$error"`` as the root object's first keys.
    Raises ModelFormatError (DumpError) when an instance fails to evaluate; ``out`` then holds a
    prefix of the text, so write through ``quakemodels.core.atomic``.
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown dump format {fmt!r} (choose from {', '.join(FORMATS)})")
    partial = tree.error is not None
    writer: _WebIdeWriter | _KsdumpWriter
    if fmt == "webide":
        writer = _WebIdeWriter(out, tree, evaluate=not partial)
    else:
        writer = _KsdumpWriter(out, tree, evaluate=not partial)
    try:
        _write_root(writer, tree, partial)
    except _Failure as f:
        raise f.to_error(tree.spec_id) from (
            f.cause if isinstance(f.cause, BaseException) else None
        )
    except DumpError as e:  # a float ksdump cannot write, at the root
        raise DumpError(f"{tree.spec_id}: {e}", field=tree.spec_id) from None
    if fmt == "ksdump":
        writer.parts.append("\n")  # ksdump prints with `puts`
    writer.flush()


def _write_root(writer: _WebIdeWriter | _KsdumpWriter, tree: ParsedTree, partial: bool) -> None:
    if partial:
        writer.parts.append(
            '{\n  "$incomplete": true,\n  "$error": '
            + json.dumps(str(tree.error), ensure_ascii=False)
            + ',\n  "tree": '
        )
        writer.value(tree.root, 1)
        writer.parts.append("\n}")
    else:
        writer.value(tree.root, 0)


def dump(
    data: bytes,
    out: IO[str],
    fmt: str = "webide",
    partial: bool = False,
    *,
    spec_id: str | None = None,
    explain: Explain | None = None,
) -> ParsedTree:
    """Parse ``data`` and write its tree to ``out``; the tree is returned.

    Raises ModelFormatError when the parse fails (unless ``partial``: then what parsed is written,
    marked incomplete, and the returned tree's ``error`` is set).
    """
    # The tree is ~200k small objects tied in cycles (_parent, _root): pausing the cyclic
    # collector while it grows saves its repeated full scans (a third of the time).
    paused = gc.isenabled()
    gc.disable()
    try:
        return _dump(data, out, fmt, partial, spec_id, explain)
    finally:
        if paused:
            gc.enable()


def _dump(
    data: bytes,
    out: IO[str],
    fmt: str,
    partial: bool,
    spec_id: str | None,
    explain: Explain | None,
) -> ParsedTree:
    tree = parse(data, spec_id, explain)
    if tree.error is not None and not partial:
        raise tree.error
    if tree.error is None:
        try:
            write_tree(tree, out, fmt)
            return tree
        except ModelFormatError as e:
            if not partial:
                raise
            tree.error = e
            if hasattr(out, "seek") and hasattr(out, "truncate"):
                out.seek(0)
                out.truncate()
    write_tree(tree, out, fmt)
    return tree


def dumps(
    data: bytes, fmt: str = "webide", *, spec_id: str | None = None, explain: Explain | None = None
) -> str:
    """The dump as one string (for tests and small files)."""
    buf = io.StringIO()
    dump(data, buf, fmt, spec_id=spec_id, explain=explain)
    return buf.getvalue()
