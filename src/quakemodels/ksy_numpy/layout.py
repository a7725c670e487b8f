"""Numpy structured dtypes of every fixed-size type of a Kaitai Struct spec (``ksy-numpy``).

Reads ``<id>.ksy`` and writes ``<outdir>/<id>_layout.py``, a module that holds only data:

- ``ROOT`` (the root type's seq) and one ``<TYPE>`` per entry of ``types:`` (nested types
  joined with ``__``, e.g. ``SURFACE__HEADER``), each a little- or big-endian numpy dtype with
  the spec's field names, in seq order, at the offsets the bytes lie at; ``HEADER`` is an alias
  of ``ROOT`` (or ``ROOT_PREFIX``) unless the spec has a type of that name. A type with
  ``params`` used with literal arguments (``type: block(16)``) gets one dtype per argument list,
  ``<TYPE>__P_<args>``; types of imported specs (``meta/imports``) are named after their spec's
  id (``DOS_DATETIME``, ``DOS_DATETIME__TIME``).
- ``<TYPE>_PREFIX`` for a type whose seq starts fixed-size and then goes variable: the dtype of
  its longest fixed-size leading run, and ``TAIL[<TYPE>]`` describing the field that ends it
  (``field``, ``offset``, ``element``: the dtype of one item or None, and the ``repeat_expr`` /
  ``size`` expressions as the spec writes them). Composing the full record (prefix fields plus
  ``(element, (count,))`` at ``offset``) is the reader's job, once the count is known.
- ``CONSTANTS``: the value instances whose value is a literal array (numbers and quoted
  strings only, such as MD2's 162-entry ``anorms_table``), as Python lists, per constant and
  instance: a table the spec defines, read without parsing a file.
- ``CONTENTS`` (``contents:`` bytes), ``VALID`` (``valid:`` constraints; a bare value or
  ``{eq: v}`` is given as ``v``, any other form as the spec's mapping), ``ENUMS`` (id -> name)
  and ``FIELD_ENUMS`` (which integer field is read through which enum). ``CONTENTS``, ``VALID``,
  ``FIELD_ENUMS`` and ``TAIL`` are keyed by the type's constant without ``_PREFIX`` (``"ROOT"``,
  ``"FRAME"``) and then by field id.
- ``INSTANCES``: parse instances (read at ``pos``) whose items have a fixed size.
- ``BIT_FIELDS`` (only when the spec has some): a run of bit fields that fills 1, 2, 4 or 8
  bytes is one unsigned field named ``<first>__<last>`` (the field's own name when alone);
  per constant and field, each bit field's ``[shift, width]``: its value is
  ``(record[field] >> shift) & ((1 << width) - 1)``.

Fixed byte fields (``contents:``, ``size: <int>`` with or without ``type: str``/``strz``) are
``V<n>`` (numpy void): a value is the raw bytes (``.tobytes()``), trailing NULs included, so it
compares equal to what the file holds and writes back unchanged. ``S<n>`` would drop trailing
NULs on read; view a field as ``S<n>`` (same itemsize, no copy) for vectorised text work.
Enum fields are their integers.

Unsupported constructs (``if:``, ``process:``, expression sizes or counts, ``repeat: eos/until``,
switch types, bit fields ending inside a byte, endianness chosen at run time, recursion) make a
type variable-size from that field on: it gets a prefix or nothing, and a one-line reason
(:attr:`Layout.reason`, a comment in the module). A malformed spec raises :class:`KsyError`
naming the spec file, the type and the field.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .expr import NotLiteral, Value, evaluate, literal_array, literal_int

PRIMITIVE = re.compile(r"^(?:([us])([1248])|(f)([48]))(le|be)?$")
BITS = re.compile(r"^b[0-9]+(le|be)?$")
TYPE_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
# Keys of a seq attribute that keep a literal size meaningful: they change how the bytes read
# as text, not how many there are.
HARMLESS = {"id", "doc", "doc-ref", "type", "size", "repeat", "repeat-expr", "repeat-until"}
HARMLESS |= {"encoding"}
HARMLESS |= {"enum", "valid", "contents", "terminator", "consume", "include", "pad-right"}
HARMLESS |= {"eos-error", "-orig-id", "-webide-representation", "-affected-by"}
# Keys of a bit field that can be packed with its neighbours into one integer field.
BIT_KEYS = {"id", "type", "doc", "doc-ref", "enum", "valid", "-orig-id"}
RESERVED = {"HEADER", "CONSTANTS", "CONTENTS", "VALID", "ENUMS", "FIELD_ENUMS", "TAIL", "INSTANCES"}

# A type's parameters bound to literal arguments, in the order of its ``params``.
Env = tuple[tuple[str, Value], ...]
Key = tuple[tuple[str, ...], Env]


class KsyError(Exception):
    """A spec that cannot be read: the message names the spec file, the type and the field."""


class Unsupported(Exception):
    """A construct this generator does not lay out; the type is variable-size from there on.

    ``kind`` is the reason without the spec's particulars (the coverage table's row)."""

    def __init__(self, kind: str, detail: str | None = None) -> None:
        super().__init__(detail if detail is not None else kind)
        self.kind = kind


@dataclass(frozen=True)
class Fmt:
    """One field's numpy format: a dtype string or the constant of another type, and a shape;
    ``key`` names the laid-out type a constant stands for."""

    base: str
    ref: bool
    shape: tuple[int, ...] = ()
    size: int = 0
    key: Key | None = None

    def code(self) -> str:
        base = self.base if self.ref else repr(self.base).replace("'", '"')
        return f"({base}, {self.shape!r})" if self.shape else base


@dataclass
class TypeInfo:
    """A type of the spec: its path from the root, its mapping, its resolved endianness.

    Types of imported specs have the imported spec's id as the first element of their path."""

    path: tuple[str, ...]
    spec: dict[str, Any]
    endian: str | None  # "<", ">", "calc" or None (none given)
    const: str
    imported: bool = False
    params: tuple[str, ...] = ()
    encoding: str | None = None  # meta/encoding: what str fields without one decode with
    bit_endian: str = "be"  # meta/bit-endian: the order of bN fields without a suffix


@dataclass
class Layout:
    """The fixed-size leading run of a type's seq; ``tail`` set when the seq goes on after it.

    ``attrs`` are the seq attributes laid out (one per name); ``bits`` the bit fields packed
    into a field (``name -> [(bit field id, shift, width)]``); ``kind`` the reason's row in the
    coverage table when the type is not complete."""

    names: list[str] = field(default_factory=list)
    fmts: list[Fmt] = field(default_factory=list)
    offsets: list[int] = field(default_factory=list)
    docs: list[str | None] = field(default_factory=list)
    attrs: list[dict[str, Any]] = field(default_factory=list)
    bits: dict[str, list[tuple[str, int, int]]] = field(default_factory=dict)
    size: int = 0
    tail: dict[str, Any] | None = None
    reason: str = ""
    kind: str = ""

    @property
    def complete(self) -> bool:
        return self.tail is None and not self.kind


def find_import(name: str, base: Path, import_paths: Sequence[Path]) -> Path | None:
    """The file of a ``meta/imports`` entry: relative ones beside the importing spec,
    absolute ones (``/common/x``) under an import path or under a folder above the spec
    (the gallery's root holds ``common/``)."""
    rel = name.lstrip("/") + ".ksy"
    if name.startswith("/"):
        roots = [*import_paths, *base.resolve().parents, base.resolve()]
    else:
        roots = [base, *import_paths]
    for root in roots:
        candidate = root / rel
        if candidate.is_file():
            return candidate
    return None


def load_yaml(path: Path, text: str | None = None) -> dict[str, Any]:
    """A spec file as a mapping with a valid ``meta/id`` (KsyError otherwise)."""
    if text is None:
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as e:
            raise KsyError(f"{path}: cannot read: {e}") from e
    try:
        doc = yaml.safe_load(text)
    except yaml.YAMLError as e:
        raise KsyError(f"{path}: not valid YAML: {' '.join(str(e).split())}") from e
    if not isinstance(doc, dict):
        raise KsyError(f"{path}: the spec is not a YAML mapping")
    meta = doc.get("meta")
    if not isinstance(meta, dict) or not isinstance(meta.get("id"), str):
        raise KsyError(f"{path}: meta/id is missing")
    if not TYPE_NAME.match(meta["id"]):
        raise KsyError(f"{path}: meta/id {meta['id']!r} is not a valid Kaitai identifier")
    return doc


class Spec:
    """One parsed spec (with the specs it imports) and the layouts of its types."""

    def __init__(
        self, path: Path, text: str | None = None, import_paths: Sequence[Path] = ()
    ) -> None:
        self.path = path
        doc = load_yaml(path, text)
        meta = doc["meta"]
        self.id: str = meta["id"]
        self.title = str(meta.get("title", self.id))
        self.types: dict[tuple[str, ...], TypeInfo] = {}
        self._collect((), doc, None, imported=False, encoding=None)
        self.imports: list[Path] = []
        self._import_all(path, doc, import_paths, {self.id})
        self._layouts: dict[Key, Layout | None] = {}
        # a type whose constant is taken by another is not laid out (the first one keeps it)
        self.clashes: dict[tuple[str, ...], str] = {}
        taken: dict[str, tuple[str, ...]] = {}
        for t in self.types.values():
            for name in (t.const, t.const + "_PREFIX"):
                if name in RESERVED | {"BIT_FIELDS"} and name != "HEADER":
                    self.clashes[t.path] = f"constant {name} clashes with a reserved name"
                elif name in taken:
                    other = self._name(taken[name])
                    self.clashes[t.path] = f"constant {name} clashes with {other}"
                else:
                    taken[name] = t.path
        self.header_alias = "HEADER" not in taken

    def _import_all(
        self, path: Path, doc: dict[str, Any], import_paths: Sequence[Path], seen: set[str]
    ) -> None:
        imports = doc["meta"].get("imports", [])
        if not isinstance(imports, list):
            raise KsyError(f"{path}: meta/imports must be a list")
        for name in imports:
            found = find_import(str(name), path.parent, import_paths)
            if found is None:
                raise KsyError(f"{path}: import {name!r} not found")
            sub = load_yaml(found)
            sid = sub["meta"]["id"]
            if sid in seen:
                continue
            seen.add(sid)
            self.imports.append(found)
            self._collect((sid,), sub, None, imported=True, encoding=None)
            self._import_all(found, sub, import_paths, seen)

    # -- types ----------------------------------------------------------------------------------

    def _name(self, path: tuple[str, ...]) -> str:
        return "::".join(path) if path else f"{self.id} (root)"

    def _where(self, path: tuple[str, ...], fid: str | None = None) -> str:
        where = f"{self.path}: type {self._name(path)}"
        return f"{where}, field {fid}" if fid is not None else where

    def _collect(
        self,
        path: tuple[str, ...],
        spec: Any,
        parent_endian: str | None,
        *,
        imported: bool,
        encoding: str | None,
        bit_endian: str = "be",
    ) -> None:
        if not isinstance(spec, dict):
            raise KsyError(f"{self._where(path)}: a type must be a YAML mapping")
        meta = spec.get("meta", {})
        if not isinstance(meta, dict):
            raise KsyError(f"{self._where(path)}: meta must be a mapping")
        endian = parent_endian
        if "endian" in meta:
            value = meta["endian"]
            if isinstance(value, dict):
                endian = "calc"
            elif value in ("le", "be"):
                endian = "<" if value == "le" else ">"
            else:
                raise KsyError(f"{self._where(path)}: meta/endian {value!r} is not le or be")
        if isinstance(meta.get("encoding"), str):
            encoding = meta["encoding"]
        if meta.get("bit-endian") in ("le", "be"):
            bit_endian = meta["bit-endian"]
        params = spec.get("params", [])
        names = tuple(str(p.get("id")) for p in params if isinstance(p, dict))
        const = "__".join(path).upper() if path else "ROOT"
        self.types[path] = TypeInfo(
            path, spec, endian, const, imported, names, encoding, bit_endian
        )
        sub = spec.get("types", {})
        if not isinstance(sub, dict):
            raise KsyError(f"{self._where(path)}: types must be a mapping")
        for name, child in sub.items():
            if not isinstance(name, str) or not TYPE_NAME.match(name):
                raise KsyError(f"{self._where(path)}: type name {name!r} is not an identifier")
            self._collect(
                (*path, name),
                child,
                endian,
                imported=imported,
                encoding=encoding,
                bit_endian=bit_endian,
            )

    def resolve(self, scope: tuple[str, ...], ref: str, fid: str) -> TypeInfo:
        """The user type ``ref`` (``a`` or ``a::b``, arguments dropped) as seen from ``scope``."""
        parts = ref.split("(", 1)[0].strip().split("::")
        for depth in range(len(scope), -1, -1):
            found = self.types.get((*scope[:depth], *parts))
            if found is not None:
                return found
        if parts[0] == self.id:  # the spec's own root by its id
            found = self.types.get(tuple(parts[1:]))
            if found is not None:
                return found
        raise KsyError(f"{self._where(scope, fid)}: unknown type {ref!r}")

    def seq(self, t: TypeInfo) -> list[dict[str, Any]]:
        seq = t.spec.get("seq", [])
        if not isinstance(seq, list):
            raise KsyError(f"{self._where(t.path)}: seq must be a list")
        for i, attr in enumerate(seq):
            if not isinstance(attr, dict):
                raise KsyError(f"{self._where(t.path)}: seq item {i} is not a mapping")
            fid = attr.get("id", f"_unnamed{i}")
            if not isinstance(fid, str):
                raise KsyError(f"{self._where(t.path)}: seq item {i} has a non-text id {fid!r}")
        return seq

    # -- layouts --------------------------------------------------------------------------------

    def const_of(self, t: TypeInfo, env: Env) -> str:
        """The constant of ``t`` bound to ``env``: ``BLOCK__P_16`` for ``block(16)``."""
        if not env:
            return t.const
        args = ["TRUE" if v is True else "FALSE" if v is False else str(v) for _, v in env]
        return f"{t.const}__P_{'_'.join(a.replace('-', 'M') for a in args)}"

    def layout(self, t: TypeInfo, env: Env = ()) -> Layout | None:
        """The layout of ``t`` with its params bound to ``env``; None while it is being
        computed (a recursive type)."""
        key = (t.path, env)
        if key in self._layouts:
            return self._layouts[key]
        self._layouts[key] = None
        out = Layout()
        if t.path in self.clashes:
            out.kind, out.reason = "constant name clashes", self.clashes[t.path]
            self._layouts[key] = out
            return out
        names = dict(env)
        seq = self.seq(t)
        i = 0
        while i < len(seq):
            attr = seq[i]
            fid = attr.get("id", f"_unnamed{i}")
            if fid in out.names:
                raise KsyError(f"{self._where(t.path, fid)}: the id is used twice in seq")
            run = self._bit_run(t, seq, i)
            try:
                if run:
                    fmt, bits = self._bits_fmt(t, run, i)
                    if len(run) > 1:
                        fid = f"{fid}__{bits[-1][0]}"
                        attr = {"id": fid}
                    out.bits[fid] = bits
                else:
                    fmt = self.field_fmt(t, attr, fid, names)
            except Unsupported as e:
                out.tail = self._tail(t, attr, fid, out.size, names)
                out.reason = " ".join(f"{fid}: {e}".split())
                out.kind = e.kind
                break
            out.names.append(fid)
            out.fmts.append(fmt)
            out.offsets.append(out.size)
            out.attrs.append(attr)
            doc = attr.get("doc")
            out.docs.append(str(doc) if doc is not None else None)
            out.size += fmt.size
            i += max(1, len(run))
        if not out.names and not out.kind:
            out.kind = out.reason = "no seq"
        self._layouts[key] = out
        return out

    def _bit_order(self, t: TypeInfo, attr: dict[str, Any]) -> str | None:
        """``"be"`` or ``"le"`` for a plain bit field (no ``if``, ``repeat``...), else None."""
        typ = attr.get("type")
        if not isinstance(typ, str) or not BITS.match(typ) or set(attr) - BIT_KEYS:
            return None
        return "le" if typ.endswith("le") else "be" if typ.endswith("be") else t.bit_endian

    def _bit_run(self, t: TypeInfo, seq: list[dict[str, Any]], i: int) -> list[dict[str, Any]]:
        """The plain bit fields from ``seq[i]`` on that share one bit order (empty if none)."""
        order = self._bit_order(t, seq[i])
        run: list[dict[str, Any]] = []
        while order is not None and i < len(seq) and self._bit_order(t, seq[i]) == order:
            run.append(seq[i])
            i += 1
        return run

    def _bits_fmt(
        self, t: TypeInfo, run: list[dict[str, Any]], first: int
    ) -> tuple[Fmt, list[tuple[str, int, int]]]:
        """One unsigned integer holding a run of bit fields that fills whole bytes, and each
        field's shift and width in it (big-endian bits count from the top, little from 0)."""
        order = self._bit_order(t, run[0])
        widths = [int(str(a["type"]).removesuffix("le").removesuffix("be")[1:]) for a in run]
        total = sum(widths)
        if total % 8:
            raise Unsupported(
                "bit fields that end inside a byte", f"bit fields of {total} bits end inside a byte"
            )
        nbytes = total // 8
        if nbytes not in (1, 2, 4, 8):
            raise Unsupported(
                "bit fields filling 3, 5, 6 or 7 bytes", f"bit fields fill {nbytes} bytes"
            )
        bits, at = [], 0
        for k, (attr, width) in enumerate(zip(run, widths, strict=True)):
            shift = total - at - width if order == "be" else at
            bits.append((str(attr.get("id", f"_unnamed{first + k}")), shift, width))
            at += width
        prefix = "" if nbytes == 1 else ">" if order == "be" else "<"
        return Fmt(f"{prefix}u{nbytes}", False, (), nbytes), bits

    def _tail(
        self, t: TypeInfo, attr: dict[str, Any], fid: str, offset: int, names: dict[str, Value]
    ) -> dict[str, Any]:
        """What the reader needs to extend the prefix by the field that ends it."""
        tail: dict[str, Any] = {"field": fid, "offset": offset, "element": None}
        one = {k: v for k, v in attr.items() if k not in ("repeat", "repeat-expr", "if")}
        with contextlib.suppress(Unsupported):  # an item of variable size: element stays None
            tail["element"] = self.field_fmt(t, one, fid, names)
        for key in ("repeat", "repeat-expr", "repeat-until", "size", "if"):
            if key in attr:
                tail[key.replace("-", "_")] = str(attr[key]).strip()
        return tail

    def field_fmt(
        self, t: TypeInfo, attr: dict[str, Any], fid: str, names: dict[str, Value] | None = None
    ) -> Fmt:
        """The numpy format of one seq attribute, or :class:`Unsupported`."""
        names = names or {}
        extra = sorted(k for k in attr if k not in HARMLESS)
        if extra:
            raise Unsupported(f"{extra[0]} not laid out", f"{', '.join(extra)} not laid out")
        base = self._one_fmt(t, attr, fid, names)
        repeat = attr.get("repeat")
        if repeat is None:
            return base
        if repeat != "expr":
            if repeat in ("eos", "until"):
                raise Unsupported(f"repeat: {repeat}")
            raise KsyError(f"{self._where(t.path, fid)}: repeat {repeat!r} is not expr/eos/until")
        count = literal_int(attr.get("repeat-expr"), names)
        if count is None:
            raise Unsupported(
                "repeat-expr is not a literal",
                f"repeat-expr {attr.get('repeat-expr')!r} is not an integer literal",
            )
        return Fmt(base.base, base.ref, (count,), base.size * count, base.key)

    def _one_fmt(
        self, t: TypeInfo, attr: dict[str, Any], fid: str, names: dict[str, Value] | None = None
    ) -> Fmt:
        names = names or {}
        where = self._where(t.path, fid)
        if "contents" in attr:
            data = contents_bytes(attr["contents"], where)
            return Fmt(f"V{len(data)}", False, (), len(data))
        typ = attr.get("type")
        size_given = "size" in attr
        size = literal_int(attr.get("size"), names) if size_given else None
        if size_given and size is None:
            raise Unsupported(
                "size is not a literal",
                f"size {str(attr['size']).strip()!r} is not an integer literal",
            )
        if isinstance(typ, dict):
            raise Unsupported("switch-on type")
        if typ is not None and not isinstance(typ, str):
            raise KsyError(f"{where}: type {typ!r} is neither a name nor a switch")
        if typ is None or typ in ("str", "strz"):
            if size is None:
                if typ is None and not any(k in attr for k in ("terminator", "size-eos")):
                    raise KsyError(f"{where}: no type, size, terminator or contents")
                raise Unsupported("no literal size")
            return Fmt(f"V{size}", False, (), size)
        m = PRIMITIVE.match(typ)
        if m:
            kind = m.group(1) or m.group(3)
            nbytes = int(m.group(2) or m.group(4))
            order = m.group(5)
            if size is not None:
                raise Unsupported("size on a primitive", f"size on primitive {typ}")
            letter = {"u": "u", "s": "i", "f": "f"}[kind]
            if nbytes == 1:
                return Fmt(f"{letter}1", False, (), 1)
            if order is not None:
                prefix = "<" if order == "le" else ">"
            elif t.endian == "calc":
                raise Unsupported(
                    "endianness chosen at run time (meta/endian switch-on)",
                    f"{typ} with calculated endianness",
                )
            elif t.endian is None:
                raise KsyError(f"{where}: {typ} needs an endianness and meta/endian is not set")
            else:
                prefix = t.endian
            return Fmt(f"{prefix}{letter}{nbytes}", False, (), nbytes)
        if BITS.match(typ):
            raise Unsupported("bit field", f"bit field {typ}")
        if typ == "bool":
            raise Unsupported("bool is a bit field", "bit field bool")
        user = self.resolve(t.path, typ, fid)
        # a type whose params change no size has one layout; the others one per argument list
        env: Env = ()
        inner = self.layout(user)
        if inner is not None and not inner.complete and user.params and "(" in typ:
            env = self._arguments(user, typ, names)
            inner = self.layout(user, env)
        if inner is None:
            raise Unsupported("recursive type", f"{typ} is recursive")
        if not inner.complete or not inner.names:
            raise Unsupported("contains a type that is not fixed-size", f"{typ} is not fixed-size")
        if size is not None and size != inner.size:
            raise Unsupported(
                "size around a type of another size",
                f"size {size} around {typ} of {inner.size} bytes",
            )
        return Fmt(self.const_of(user, env), True, (), inner.size, (user.path, env))

    def _arguments(self, user: TypeInfo, ref: str, names: dict[str, Value]) -> Env:
        """The literal arguments of ``type: name(a, b)`` bound to the type's params."""
        if "(" not in ref:
            return ()
        text = ref.split("(", 1)[1].rsplit(")", 1)[0]
        try:
            args = evaluate(f"[{text}]", names)
        except NotLiteral as e:
            raise Unsupported("arguments are not literals", f"arguments of {ref}: {e}") from e
        assert isinstance(args, list)
        if len(args) != len(user.params):
            raise KsyError(f"{self._where(user.path)}: {ref} gives {len(args)} arguments")
        if not all(isinstance(a, (int, bool)) for a in args):
            raise Unsupported("arguments are not integers", f"arguments of {ref} not integers")
        return tuple(zip(user.params, args, strict=True))


def contents_bytes(value: Any, where: str) -> bytes:
    """The bytes of a ``contents:`` value (a string or a list of strings and byte values)."""
    items = value if isinstance(value, list) else [value]
    out = bytearray()
    for item in items:
        if isinstance(item, str):
            out += item.encode("utf-8")
        elif isinstance(item, int) and not isinstance(item, bool) and 0 <= item <= 255:
            out.append(item)
        else:
            raise KsyError(f"{where}: contents item {item!r} is neither text nor a byte value")
    return bytes(out)


# -- emitting ---------------------------------------------------------------------------------


def comment(text: str, indent: str = "") -> list[str]:
    """``text`` as comment lines (trailing blank lines dropped, no trailing spaces)."""
    lines = text.rstrip().splitlines()
    return [f"# {indent}{line}".rstrip() for line in lines]


class Code(str):
    """Python source emitted as it is (a constant's name, a format tuple)."""


LINE = 100  # ruff's line length here: the module is written as ruff format would write it


def literal(value: Any) -> str:
    """One-line Python source of a YAML value; double quotes as ruff format writes them."""
    if isinstance(value, Code):
        return str(value)
    if isinstance(value, dict):
        return "{" + ", ".join(f"{literal(k)}: {literal(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(literal(v) for v in value) + "]"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    if isinstance(value, bytes):
        text = repr(value)
        return text if '"' in text else 'b"' + text[2:-1] + '"'
    if value is None or isinstance(value, (bool, int, float)):
        return repr(value)
    return literal(str(value))


def render(value: Any, indent: int, head: str, tail: str) -> list[str]:
    """``head + value + tail`` on one line if it fits, else the collection one item per line."""
    pad = " " * indent
    line = f"{pad}{head}{literal(value)}{tail}"
    if len(line) <= LINE or not isinstance(value, (dict, list)) or not value:
        return [line]
    if isinstance(value, dict):
        out = [f"{pad}{head}{{"]
        for k, v in value.items():
            out += render(v, indent + 4, f"{literal(k)}: ", ",")
        return [*out, f"{pad}}}{tail}"]
    out = [f"{pad}{head}["]
    for v in value:
        out += render(v, indent + 4, "", ",")
    return [*out, f"{pad}]{tail}"]


def assign(name: str, value: Any, call: str = "") -> list[str]:
    """``name = value`` (or ``name = call(value)``) laid out as ruff format lays it out."""
    if not call:
        return render(value, 0, f"{name} = ", "")
    one = render(value, 0, f"{name} = {call}(", ")")
    if len(one) == 1:
        return one
    return [f"{name} = {call}(", *render(value, 4, "", ""), ")"]


def dtype_code(name: str, lay: Layout) -> list[str]:
    spec = {
        "names": list(lay.names),
        "formats": [Code(f.code()) for f in lay.fmts],
        "offsets": list(lay.offsets),
        "itemsize": lay.size,
    }
    return assign(name, spec, "np.dtype")


@dataclass
class Entry:
    """A type as laid out: its info, its params' literal arguments, its layout, its constant
    (without ``_PREFIX``)."""

    info: TypeInfo
    env: Env
    layout: Layout
    const: str


def plan(spec: Spec) -> list[Entry]:
    """Every type of the spec (and each imported or parametrized type it nests), dependencies
    first: a type's constant is defined before any dtype that nests it."""
    order: list[Entry] = []
    seen: set[Key] = set()

    def visit(t: TypeInfo, env: Env) -> None:
        if (t.path, env) in seen:
            return
        seen.add((t.path, env))
        lay = spec.layout(t, env)
        assert lay is not None  # finished: visit runs outside any layout's computation
        for f in lay.fmts:
            if f.key is not None:
                visit(spec.types[f.key[0]], f.key[1])
        element = lay.tail["element"] if lay.tail is not None else None
        if isinstance(element, Fmt) and element.key is not None:
            visit(spec.types[element.key[0]], element.key[1])
        order.append(Entry(t, env, lay, spec.const_of(t, env)))

    for t in [spec.types[()], *spec.types.values()]:
        if not t.imported:
            visit(t, ())
    return order


def generate(
    path: Path, text: str | None = None, import_paths: Sequence[Path] = ()
) -> tuple[str, str]:
    """``(file name, module source)`` of the layout module of the spec at ``path``."""
    spec = Spec(path, text, import_paths)
    return f"{spec.id}_layout.py", emit(spec, plan(spec))


def checked_fields(
    spec: Spec, order: Sequence[Entry]
) -> tuple[dict[str, dict[str, bytes]], dict[str, dict[str, Any]]]:
    """The spec's ``contents:`` bytes and ``valid:`` constraints, per constant and field."""
    contents: dict[str, dict[str, bytes]] = {}
    valid: dict[str, dict[str, Any]] = {}
    for e in order:
        for i, attr in enumerate(spec.seq(e.info)):
            fid = attr.get("id", f"_unnamed{i}")
            if "contents" in attr:
                where = spec._where(e.info.path, fid)
                contents.setdefault(e.const, {})[fid] = contents_bytes(attr["contents"], where)
            if "valid" in attr:
                v = attr["valid"]
                if isinstance(v, dict) and list(v) == ["eq"]:
                    v = v["eq"]
                valid.setdefault(e.const, {})[fid] = v
    return contents, valid


def checked_lines(contents: dict[str, dict[str, bytes]], valid: dict[str, Any]) -> list[str]:
    """The ``CONTENTS`` and ``VALID`` assignments, each under its comment, as a module has
    them (the layout module and the facts module alike)."""
    out = ["# contents: the fixed bytes a field must hold, per constant and field"]
    out += assign("CONTENTS: dict[str, dict[str, bytes]]", contents)
    out += ["", "# valid: the value a field must equal, or the spec's valid: mapping (min, max)"]
    out += assign("VALID: dict[str, dict[str, object]]", valid)
    return out


def emit_facts(spec: Spec, order: Sequence[Entry]) -> str:
    """The facts module's source: what identifies a file of the spec, without numpy.

    ``CONTENTS`` and ``VALID`` as the layout module has them, and ``FIELDS``: per constant,
    each laid-out field's ``[offset, size]`` in bytes. A reader can tell its files apart by
    these (a magic, a version at its offset) before it pays for importing numpy."""
    contents, valid = checked_fields(spec, order)
    fields: dict[str, dict[str, list[int]]] = {}
    structs: dict[str, str] = {}
    for e in order:
        lay = e.layout
        if lay.names:
            name = e.const if lay.complete else e.const + "_PREFIX"
            fields[name] = {
                fid: [at, f.size]
                for fid, at, f in zip(lay.names, lay.offsets, lay.fmts, strict=True)
            }
            code = struct_format(lay)
            if code is not None:
                structs[name] = code
    out = [
        f"# Generated from {spec.path.name} by ksy-numpy (quakemodels.ksy_numpy); do not edit.",
        f'"""What identifies a {spec.id} file ({spec.title}), as plain data: no numpy.',
        "",
        "The same CONTENTS and VALID as the layout module, and FIELDS: per constant of a laid-out",
        "type (a *_PREFIX for a fixed leading run), each field's [offset, size] in bytes;",
        "STRUCTS: the struct module's format of each such record whose fields are all numbers",
        "or bytes (one item per field, a subarray's items in a row, padding as x).",
        '"""',
        "",
        '__all__ = ["CONTENTS", "FIELDS", "STRUCTS", "VALID"]',
        "",
    ]
    out += checked_lines(contents, valid)
    out += ["", "# per constant and field: [offset, size] in bytes"]
    out += assign("FIELDS: dict[str, dict[str, list[int]]]", fields)
    out += ["", "# per constant: its record as a struct module format"]
    out += assign("STRUCTS: dict[str, str]", structs)
    return "\n".join(out) + "\n"


# numpy kind and size -> the struct module's code
_STRUCT_CODES = {
    ("i", 1): "b",
    ("u", 1): "B",
    ("i", 2): "h",
    ("u", 2): "H",
    ("i", 4): "i",
    ("u", 4): "I",
    ("i", 8): "q",
    ("u", 8): "Q",
    ("f", 4): "f",
    ("f", 8): "d",
}


def struct_format(lay: Layout) -> str | None:
    """The ``struct`` format of a laid-out record (``<56sii``), or None when a field is
    another type, an array of byte strings or of mixed byte order."""
    order = ""
    out: list[str] = []
    pos = 0
    for f, at in zip(lay.fmts, lay.offsets, strict=True):
        if f.ref or at < pos:
            return None
        if at > pos:
            out.append(f"{at - pos}x")
        count = 1
        for k in f.shape:
            count *= k
        if f.base.startswith("V"):
            if f.shape:
                return None
            out.append(f"{f.base[1:]}s")
        else:
            endian, kind, size = f.base[0], f.base[-2:-1], int(f.base[-1])
            code = _STRUCT_CODES.get((kind, size))
            if code is None:
                return None
            if endian in "<>":
                if order and order != endian:
                    return None
                order = endian
            out.append(f"{count}{code}" if count != 1 else code)
        pos = at + f.size
    if pos < lay.size:
        out.append(f"{lay.size - pos}x")
    return (order or "<") + "".join(out)


def emit(spec: Spec, order: Sequence[Entry]) -> str:
    """The layout module's source for the entries of :func:`plan`."""
    out = [
        f"# Generated from {spec.path.name} by ksy-numpy (quakemodels.ksy_numpy); do not edit.",
        f'"""Numpy dtypes of the fixed-size types of {spec.id}: {spec.title}.',
        "",
        "Field names, order and offsets are the spec's; quakemodels.ksy_numpy.layout says what",
        "each constant holds and how a *_PREFIX record is completed.",
        '"""',
        "",
        "import numpy as np",
        "",
    ]
    body: list[str] = []
    exported: list[str] = []
    skipped: list[str] = []
    contents, valid = checked_fields(spec, order)
    field_enums: dict[str, dict[str, str]] = {}
    tails: dict[str, dict[str, Any]] = {}
    instances: dict[str, dict[str, dict[str, Any]]] = {}
    constants: dict[str, dict[str, list[Any]]] = {}
    bits: dict[str, dict[str, dict[str, list[int]]]] = {}
    for e in order:
        t = e.info
        table = t.spec.get("instances", {})
        for iname, inst in table.items() if isinstance(table, dict) else ():
            array = literal_array(inst.get("value")) if isinstance(inst, dict) else None
            if array is not None:
                constants.setdefault(e.const, {})[str(iname)] = array
            if not isinstance(inst, dict) or "value" in inst or "pos" not in inst:
                continue
            one = {k: v for k, v in inst.items() if k in ("type", "size", "encoding", "terminator")}
            try:
                fmt = spec._one_fmt(t, one, str(iname), dict(e.env))
            except (Unsupported, KsyError):
                continue  # an element of no fixed size: nothing to lay out
            entry: dict[str, Any] = {"element": Code(fmt.code()), "size": fmt.size}
            entry["pos"] = str(inst["pos"])
            if "io" in inst:  # `pos` counts in that stream, not in the type's own
                entry["io"] = str(inst["io"])
            if inst.get("repeat") == "expr":
                entry["repeat_expr"] = str(inst.get("repeat-expr"))
            instances.setdefault(e.const, {})[str(iname)] = entry
        lay = e.layout
        for i, attr in enumerate(spec.seq(t)):
            fid = attr.get("id", f"_unnamed{i}")
            if isinstance(attr.get("enum"), str):
                field_enums.setdefault(e.const, {})[fid] = attr["enum"]
        if not lay.names:
            skipped.append(f"{spec._name(t.path)}: not fixed-size ({lay.reason or 'no seq'})")
            continue
        name = e.const if lay.complete else e.const + "_PREFIX"
        exported.append(name)
        body.append("")
        doc = t.spec.get("doc")
        if doc is not None:
            body += comment(str(doc))
            body.append("#")
        what = "the file header (root seq)" if not t.path else f"type {spec._name(t.path)}"
        if lay.complete:
            body.append(f"# {what}: {lay.size} bytes")
        else:
            body.append(f"# {what}: its first {lay.size} bytes (a prefix), then variable:")
            body.append(f"#   {lay.reason}")
        for fid, fdoc in zip(lay.names, lay.docs, strict=True):
            if fdoc is not None:
                first, *rest = fdoc.rstrip().splitlines() or [""]
                body.append(f"#   {fid}: {first}".rstrip())
                body += comment("\n".join(rest), "    ") if rest else []
        body += dtype_code(name, lay)
        for run, fields in lay.bits.items():
            bits.setdefault(e.const, {})[run] = {b: [shift, w] for b, shift, w in fields}
        if lay.tail is not None:
            tails[e.const] = {
                k: Code(v.code()) if isinstance(v, Fmt) else v for k, v in lay.tail.items()
            }
    if spec.header_alias:
        root = spec.layout(spec.types[()])
        if root is not None and root.names:
            exported.append("HEADER")
            body += ["", "# the file header under a plain name"]
            body.append(f"HEADER = {'ROOT' if root.complete else 'ROOT_PREFIX'}")

    body += ["", "# value instances that are literal arrays: tables the spec defines, per constant"]
    body += assign("CONSTANTS: dict[str, dict[str, list[object]]]", constants)
    body += ["", *checked_lines(contents, valid)]
    enums: dict[str, dict[Any, Any]] = {}
    for t in spec.types.values():
        table = t.spec.get("enums", {})
        if not isinstance(table, dict):
            raise KsyError(f"{spec._where(t.path)}: enums must be a mapping")
        for ename, values in table.items():
            if not isinstance(values, dict):
                raise KsyError(f"{spec._where(t.path)}: enum {ename!r} must be a mapping")
            key = "__".join((*t.path, str(ename)))
            enums[key] = {k: v.get("id") if isinstance(v, dict) else v for k, v in values.items()}
    body += ["", "# enums: value -> name, keyed by enum (nested types joined with __)"]
    body += assign("ENUMS: dict[str, dict[int, str]]", enums)
    body += ["", "# which integer field reads through which enum, per constant"]
    body += assign("FIELD_ENUMS: dict[str, dict[str, str]]", field_enums)
    body += [
        "",
        "# For each *_PREFIX: the field that ends the fixed run, its offset, the dtype of one of",
        "# its items (None when that is variable too) and the spec's count or size expressions.",
        "# The full record: the prefix's fields plus (element, (count,)) at offset.",
    ]
    body += assign("TAIL: dict[str, dict[str, object]]", tails)
    body += [
        "",
        "# Parse instances (read at `pos`) whose items have a fixed size: per constant and",
        "# instance, the dtype of one item, its size, the spec's pos and count expressions, and",
        "# the stream `pos` counts in when it is not the type's own (`io`).",
    ]
    body += assign("INSTANCES: dict[str, dict[str, dict[str, object]]]", instances)
    if bits:
        body += [
            "",
            "# Bit fields, packed whole bytes at a time into one unsigned field (named after the",
            "# run's first and last bit field): per constant and field, each bit field's",
            "# [shift, width]; its value is (record[field] >> shift) & ((1 << width) - 1).",
        ]
        body += assign("BIT_FIELDS: dict[str, dict[str, dict[str, list[int]]]]", bits)
        exported.append("BIT_FIELDS")
    if skipped:
        body += ["", "# Types with no fixed-size leading fields (no dtype):"]
        body += [f"#   {line}" for line in skipped]
    exported += ["CONSTANTS", "CONTENTS", "VALID", "ENUMS", "FIELD_ENUMS", "TAIL", "INSTANCES"]
    out.append("__all__ = [")
    out += [f"    {literal(n)}," for n in sorted(exported)]
    out.append("]")
    return "\n".join(out + body) + "\n"


def write_layouts(
    specs: Sequence[Path], outdir: Path, import_paths: Sequence[Path] = ()
) -> list[Path]:
    """Write the layout module of every spec into ``outdir``; the paths written."""
    written = []
    for path in specs:
        name, source = generate(path, import_paths=import_paths)
        target = outdir / name
        target.write_bytes(source.encode("utf-8"))
        written.append(target)
    return written
