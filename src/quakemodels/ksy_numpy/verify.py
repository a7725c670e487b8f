"""``ksy-numpy --verify``: the dtypes against the Kaitai compiler's own Python parser.

Every spec is compiled to Python by the npm ``kaitai-struct-compiler`` (one node process for
all of them, ``compile.js``). For every complete dtype, random and boundary inputs are built
(all 0x00, 0xFF, 0x80 and 0x7F, and random bytes; ``contents:`` and ``valid:`` values written
in, text fields filled with bytes their encoding decodes), parsed by the compiled class and
read with the dtype from the emitted layout module, and every field is compared: integers
(enums as their integers), floats bit for bit, byte strings after the spec's
``pad-right``/``terminator``, text after decoding, nested and repeated types item by item, bit
fields through ``BIT_FIELDS``, and the bytes the parser consumed against the dtype's itemsize.
Parse instances at a literal ``pos`` are compared at that offset too.
"""

from __future__ import annotations

import importlib.util
import io
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
from kaitaistruct import KaitaiStream, ValidationFailedError

from .expr import NotLiteral, evaluate, literal_int
from .layout import (
    Entry,
    Fmt,
    KsyError,
    Layout,
    Spec,
    TypeInfo,
    Unsupported,
    contents_bytes,
    emit,
)
from .report import Report

COMPILE_JS = Path(__file__).with_name("compile.js")
ENV_NODE_MODULES = "KSY_NUMPY_NODE_MODULES"
RANDOM_INPUTS = 6
# Keys of a parse instance that keep it placeable: where it is, what it reads, how it is text.
INSTANCE_KEYS = {"pos", "type", "size", "encoding", "terminator", "pad-right", "include"}
INSTANCE_KEYS |= {"contents", "enum", "valid", "repeat", "repeat-expr", "doc", "doc-ref"}
INSTANCE_KEYS |= {"consume", "-orig-id", "-webide-representation"}
ENUM_REF = re.compile(r"^\s*([a-z_][a-z0-9_]*(?:::[a-z_][a-z0-9_]*)+)\s*$")
PRINTABLE = bytes(range(0x20, 0x7F))


class CompilerMissing(Exception):
    """node or the npm kaitai-struct-compiler cannot be found; the message says how to fix it."""


class Unverifiable(Exception):
    """No generated input gets through the parser's own checks; the message says why."""


class Mismatch(Exception):
    """The compiled parser and the dtype disagree; the message names the field."""


def find_node_modules(given: Path | None) -> Path:
    """The node_modules folder holding ``kaitai-struct-compiler`` and ``js-yaml``: ``given``,
    else ``$KSY_NUMPY_NODE_MODULES``, else a ``node_modules`` in or above the current folder."""
    env = os.environ.get(ENV_NODE_MODULES)
    if given is not None:
        candidates = [given]
    elif env:
        candidates = [Path(env)]
    else:
        here = Path.cwd().resolve()
        candidates = [d / "node_modules" for d in (here, *here.parents)]
    for folder in candidates:
        if (folder / "kaitai-struct-compiler").is_dir() and (folder / "js-yaml").is_dir():
            return folder
    raise CompilerMissing(
        "no node_modules with kaitai-struct-compiler and js-yaml "
        f"(looked in {', '.join(str(c) for c in candidates[:3])}"
        f"{', ...' if len(candidates) > 3 else ''}); "
        "run `npm install kaitai-struct-compiler@0.11.0 js-yaml` and pass its node_modules "
        f"with --compiler or ${ENV_NODE_MODULES}"
    )


def compile_specs(
    paths: Sequence[Path], outdir: Path, import_paths: Sequence[Path], node_modules: Path
) -> dict[str, str]:
    """Compile ``paths`` to Python into ``outdir`` in one node process; errors by spec path."""
    node = shutil.which("node")
    if node is None:
        raise CompilerMissing("node is not on PATH (--verify runs the npm Kaitai compiler)")
    run = subprocess.run(
        [node, str(COMPILE_JS), str(node_modules.resolve()), str(outdir)]
        + [str(p.resolve()) for p in import_paths],
        input="\n".join(str(p.resolve()) for p in paths),
        capture_output=True,
        text=True,
        check=False,
    )
    if run.returncode != 0:
        raise CompilerMissing(f"the compiler failed to run: {run.stderr.strip()[-500:]}")
    errors = {}
    for line in run.stdout.splitlines():
        result = json.loads(line)
        if not result["ok"]:
            errors[result["spec"]] = result["error"]
    return errors


def _camel(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in name.split("_"))


def _load(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def verify(
    loaded: Sequence[tuple[Spec, Sequence[Entry]]],
    report: Report,
    import_paths: Sequence[Path],
    node_modules: Path | None,
    seed: int,
) -> None:
    """Compile every spec and compare its parser with each complete dtype; into ``report``."""
    nm = find_node_modules(node_modules)
    with tempfile.TemporaryDirectory(prefix="ksy-numpy-") as tmp:
        out = Path(tmp)
        errors = compile_specs([s.path for s, _ in loaded], out, import_paths, nm)
        # Compiled modules import the specs they import by id: the folder goes last on the
        # path, so that a spec called gzip or sqlite3 never hides the standard library's.
        sys.path.append(str(out))
        try:
            for spec, entries in loaded:
                error = errors.get(str(spec.path.resolve()))
                if error is not None:
                    report.unverified(spec, entries, f"the compiler refused the spec: {error}")
                    continue
                _verify_spec(spec, entries, out, report, random.Random(f"{seed}:{spec.id}"))
        finally:
            sys.path.remove(str(out))


def _verify_spec(
    spec: Spec, entries: Sequence[Entry], out: Path, report: Report, rng: random.Random
) -> None:
    layouts = _load(f"_ksy_numpy_layout_{spec.id}", _write(out, spec, entries))
    try:
        parser = _load(f"_ksy_numpy_parser_{spec.id}", out / f"{spec.id}.py")
    except Exception as x:  # the compiler's Python itself does not load (wmf: `not = 6`)
        report.unverified(spec, entries, f"compiled parser does not load: {type(x).__name__}")
        return
    for e in entries:
        if e.info.imported or not e.layout.complete:
            continue
        try:
            cls: Any = parser
            for part in (spec.id, *e.info.path):
                cls = getattr(cls, _camel(part))
            dtype = getattr(layouts, e.const)
            case = Case(spec, e, cls, dtype, rng)
            case.run()
            report.instances += case.instances(layouts)
        except Mismatch as m:
            report.mismatch(spec, e.const, str(m))
        except Unverifiable as u:
            report.unverified(spec, [e], str(u))
        except Exception as x:  # anything else the parser raises is a disagreement too
            report.mismatch(spec, e.const, f"{type(x).__name__}: {x}")


def _write(out: Path, spec: Spec, entries: Sequence[Entry]) -> Path:
    path = out / f"{spec.id}_layout.py"
    path.write_text(emit(spec, entries), encoding="utf-8")
    return path


class Case:
    """The inputs of one dtype and their comparison with the compiled class."""

    def __init__(
        self, spec: Spec, entry: Entry, cls: Any, dtype: np.dtype[Any], rng: random.Random
    ) -> None:
        self.spec, self.entry, self.cls, self.dtype, self.rng = spec, entry, cls, dtype, rng

    def run(self) -> None:
        size = self.entry.layout.size
        if self.dtype.itemsize != size:
            raise Mismatch(f"dtype itemsize {self.dtype.itemsize} != layout size {size}")
        # boundaries: 0 and all ones; 0x80.. and 0x7f.. are the most negative and most positive
        # signed values, -0.0-like and huge finite floats
        fills = [bytes(size), b"\xff" * size, b"\x80" * size, b"\x7f" * size]
        fills += [self.rng.randbytes(size) for _ in range(RANDOM_INPUTS)]
        passed, why = 0, ""
        for variant, data in enumerate(fills):
            buf = bytearray(data)
            self.fix(buf, 0, self.entry.info, self.entry.layout, variant)
            try:
                self.check(bytes(buf), variant)
            except ValidationFailedError:
                why = "no generated input meets its valid: checks"
                continue
            except AttributeError as x:  # `_root.x` / `_parent.x` with no root or parent
                if "NoneType" not in str(x):
                    raise
                why = "parsing needs its _root or _parent"
                continue
            passed += 1
        if not passed:
            raise Unverifiable(why)

    def instances(self, layouts: ModuleType) -> int:
        """Check the type's parse instances at a literal ``pos`` in its own stream whose items
        have a fixed size (``repeat-expr`` literal if any); the number checked."""
        table = self.entry.info.spec.get("instances")
        checked = 0
        for name, inst in table.items() if isinstance(table, dict) else ():
            pos = literal_int(inst.get("pos")) if isinstance(inst, dict) else None
            if pos is None or "io" in inst or set(inst) - INSTANCE_KEYS:
                continue
            one = {k: v for k, v in inst.items() if k not in ("pos", "repeat", "repeat-expr")}
            count = literal_int(inst.get("repeat-expr")) if "repeat" in inst else 1
            try:
                fmt = self.spec._one_fmt(self.entry.info, one, str(name), dict(self.entry.env))
            except (Unsupported, KsyError):
                continue
            if count is None or inst.get("repeat", "expr") != "expr":
                continue
            shape = (count,) if "repeat" in inst else ()
            element = getattr(layouts, fmt.base) if fmt.ref else np.dtype(fmt.base)
            size = max(self.entry.layout.size, pos + fmt.size * count)
            record: Any = {  # a dtype spec: names, formats, offsets, itemsize
                "names": [name],
                "formats": [(element, shape) if shape else element],
                "offsets": [pos],
                "itemsize": size,
            }
            lay = Layout(
                names=[str(name)],
                fmts=[Fmt(fmt.base, fmt.ref, shape, fmt.size * count, fmt.key)],
                offsets=[pos],
                attrs=[one],
                size=size,
            )
            buf = bytearray(self.rng.randbytes(size))
            self.fix(buf, 0, self.entry.info, self.entry.layout, 2)
            self.fix(buf, 0, self.entry.info, lay, 2)
            stream = KaitaiStream(io.BytesIO(bytes(buf)))
            try:
                obj = self.cls(*self._args(), stream)
                getattr(obj, name)
            except (ValidationFailedError, AttributeError, UnicodeDecodeError):
                continue  # the instance needs more than this input: not placed
            rows = np.frombuffer(bytes(buf), np.dtype(record))[0]
            self.compare(obj, rows, self.entry.info, lay, f"instance {name}")
            checked += 1
        return checked

    def _args(self) -> list[object]:
        # unbound params change no size: the parser stores them and reads nothing with them
        args: list[object] = [v for _, v in self.entry.env]
        return args or [None] * len(self.entry.info.params)

    # -- building inputs ------------------------------------------------------------------------

    def fix(self, buf: bytearray, at: int, t: TypeInfo, lay: Layout, variant: int) -> None:
        """Write ``contents``, ``valid`` values and decodable text into the record at ``at``."""
        for fmt, off, attr in zip(lay.fmts, lay.offsets, lay.attrs, strict=True):
            count = int(np.prod(fmt.shape)) if fmt.shape else 1
            one = fmt.size // count
            for i in range(count):
                pos = at + off + i * one
                if fmt.key is not None:
                    sub = self.spec.types[fmt.key[0]]
                    inner = self.spec.layout(sub, fmt.key[1])
                    assert inner is not None
                    self.fix(buf, pos, sub, inner, variant)
                elif "id" in attr and attr["id"] in lay.bits:
                    continue  # bit fields: any bits
                elif "contents" in attr:
                    buf[pos : pos + one] = contents_bytes(attr["contents"], "")
                elif fmt.base.startswith("V"):
                    self._text(buf, pos, one, t, attr, variant)
                    self._valid_bytes(buf, pos, one, t, attr)
                else:
                    self._number(buf, pos, fmt.base, t, attr)

    def _text(
        self, buf: bytearray, pos: int, n: int, t: TypeInfo, attr: dict[str, Any], variant: int
    ) -> None:
        encoding = attr.get("encoding", t.encoding)
        if attr.get("type") not in ("str", "strz") or encoding is None:
            return
        if variant == 0:
            return  # all NULs: an empty or NUL-only string, decodable in every encoding
        if variant == 3:  # all 0x7f (DEL): text in every ASCII-based encoding
            text = bytearray(b"\x7f" * n)
        else:
            text = bytearray(self.rng.choice(PRINTABLE) for _ in range(n))
        if variant > 3 and n and self.rng.random() < 0.5:
            text[self.rng.randrange(n)] = 0  # a terminator somewhere inside
        try:
            bytes(text).decode(encoding)
        except (UnicodeDecodeError, LookupError):
            text = bytearray(n)  # UTF-32 and the like: NULs decode
        buf[pos : pos + n] = text

    def _valid_bytes(
        self, buf: bytearray, pos: int, n: int, t: TypeInfo, attr: dict[str, Any]
    ) -> None:
        valid = attr.get("valid")
        if isinstance(valid, dict):
            valid = valid.get("eq", self.rng.choice(valid.get("any-of", [None])))
        if valid is None:
            return
        try:
            value = evaluate(valid)
        except NotLiteral:
            return
        if isinstance(value, str):
            data = value.encode(attr.get("encoding", t.encoding) or "utf-8")
        elif isinstance(value, list) and all(isinstance(v, int) for v in value):
            data = bytes(v & 0xFF for v in value if isinstance(v, int))
        else:
            return
        buf[pos : pos + n] = data[:n].ljust(n, b"\0")

    def _value(self, t: TypeInfo, text: Any) -> Any:
        """A literal, or an enum member (``image_type::rgb888``) as its integer."""
        m = ENUM_REF.match(text) if isinstance(text, str) else None
        if m is None:
            return evaluate(text)
        *scope, member = m.group(1).split("::")
        table = self._enum(t, "::".join(scope))
        for k, v in table.items():
            if (v.get("id") if isinstance(v, dict) else v) == member:
                return k
        raise NotLiteral(f"no member {member}")

    def _enum(self, t: TypeInfo, ref: str) -> dict[Any, Any]:
        """The enum ``ref`` (``a`` or ``type::a``) as seen from ``t``."""
        *where, name = ref.split("::")
        for depth in range(len(t.path), -1, -1):
            owner = self.spec.types.get((*t.path[:depth], *where))
            table = owner.spec.get("enums", {}).get(name) if owner is not None else None
            if isinstance(table, dict):
                return table
        raise NotLiteral(f"no enum {ref}")

    def _number(
        self, buf: bytearray, pos: int, base: str, t: TypeInfo, attr: dict[str, Any]
    ) -> None:
        valid = attr.get("valid")
        if valid is None:
            return
        dt = np.dtype(base)
        current = np.frombuffer(bytes(buf[pos : pos + dt.itemsize]), dt)[0].item()
        value: Any = None
        try:
            if not isinstance(valid, dict):
                value = self._value(t, valid)
            elif "eq" in valid:
                value = self._value(t, valid["eq"])
            elif "any-of" in valid:
                value = self._value(t, self.rng.choice(valid["any-of"]))
            elif "in-enum" in valid and isinstance(attr.get("enum"), str):
                value = self.rng.choice(list(self._enum(t, attr["enum"])))
            elif "min" in valid or "max" in valid:
                low = self._value(t, valid["min"]) if "min" in valid else -math.inf
                high = self._value(t, valid["max"]) if "max" in valid else math.inf
                assert isinstance(low, (int, float)) and isinstance(high, (int, float))
                value = min(max(current, low), high)
        except NotLiteral:
            return  # an enum value or an expression: the input is left as it is
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            buf[pos : pos + dt.itemsize] = np.array(value, dt).tobytes()

    # -- comparing ------------------------------------------------------------------------------

    def check(self, data: bytes, variant: int) -> None:
        stream = KaitaiStream(io.BytesIO(data))
        obj = self.cls(*self._args(), stream)
        if stream.pos() != len(data):
            raise Mismatch(f"input {variant}: the parser read {stream.pos()} of {len(data)} bytes")
        record = np.frombuffer(data, self.dtype)[0]
        self.compare(obj, record, self.entry.info, self.entry.layout, f"input {variant}")

    def compare(self, obj: Any, record: Any, t: TypeInfo, lay: Layout, where: str) -> None:
        for name, fmt, attr in zip(lay.names, lay.fmts, lay.attrs, strict=True):
            mine = record[name]
            if name in lay.bits:
                packed = int(mine)
                for bid, shift, width in lay.bits[name]:
                    value = (packed >> shift) & ((1 << width) - 1)
                    if int(getattr(obj, bid)) != value:
                        raise Mismatch(
                            f"{where}: {name}.{bid}: parser {getattr(obj, bid)!r}, dtype {value}"
                        )
                continue
            got = getattr(obj, name)
            if fmt.shape:
                items = list(np.asarray(mine).reshape(-1))
                if not isinstance(got, list) or len(got) != len(items):
                    raise Mismatch(f"{where}: {name}: {len(items)} items, the parser has {got!r}")
                pairs = list(zip(got, items, strict=True))
            else:
                pairs = [(got, mine)]
            for i, (a, b) in enumerate(pairs):
                here = f"{where}: {name}[{i}]" if fmt.shape else f"{where}: {name}"
                if fmt.key is not None:
                    sub = self.spec.types[fmt.key[0]]
                    inner = self.spec.layout(sub, fmt.key[1])
                    assert inner is not None
                    self.compare(a, b, sub, inner, here)
                elif fmt.base.startswith("V"):
                    expected = self._bytes_value(b.tobytes(), t, attr)
                    if a != expected:
                        raise Mismatch(f"{here}: parser {a!r}, dtype {expected!r}")
                else:
                    self._same_number(a, b, here)

    @staticmethod
    def _bytes_value(raw: bytes, t: TypeInfo, attr: dict[str, Any]) -> bytes | str:
        """What Kaitai makes of a sized byte field: pad-right stripped, then terminated, then
        decoded for ``str``/``strz``."""
        if "contents" in attr:
            return raw
        typ = attr.get("type")
        term = 0 if typ == "strz" else attr.get("terminator")
        pad = attr.get("pad-right")
        if pad is not None and pad != term:
            raw = raw.rstrip(bytes([pad]))
        if term is not None:
            at = raw.find(bytes([term]))
            if at >= 0:
                raw = raw[: at + 1] if attr.get("include", False) else raw[:at]
        if typ in ("str", "strz"):
            return raw.decode(str(attr.get("encoding", t.encoding)))
        return raw

    @staticmethod
    def _same_number(a: Any, b: Any, here: str) -> None:
        mine = b.item()
        if isinstance(mine, float):
            if math.isnan(mine) and isinstance(a, float) and math.isnan(a):
                return
            if not isinstance(a, float) or a != mine:
                raise Mismatch(f"{here}: parser {a!r}, dtype {mine!r}")
            return
        if isinstance(a, bool) or int(a) != mine:
            raise Mismatch(f"{here}: parser {a!r}, dtype {mine!r}")
