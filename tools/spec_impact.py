#!/usr/bin/env python3
"""What a spec change changes in real files: the first thing to run after editing ksy/.

    python tools/spec_impact.py                 # ksy/ of the last commit vs the working tree
    python tools/spec_impact.py --base HEAD~3   # any git revision as the base
    python tools/spec_impact.py --base-ksy DIR --new-ksy DIR [FILE...]

Both ksy/ folders are compiled with the pinned compiler (tools/ksc.js, Python target) into
temporary folders and imported as two separate packages. Every corpus file a spec applies to
(CORPUS_MAP below, or else the spec's own magic and file extension) is parsed with both, every
seq field and instance is read by reflection over the generated classes (as quakemodels.dump
does), and the differences are printed grouped by field, ``<ksy type>.<field>``:

    tex_point.s_px: 1 file, 3 values: 65535 -> -1 (3)
        e.g. broken.md2 tex_coords[17].s_px

plus fields that are new or gone (a gone field whose values reappear under a new name is
reported as renamed), and files that stop or start parsing. Exit status 0 either way (a report,
not a check); 2 for usage errors, 1 if the compiler fails.
"""

from __future__ import annotations

import argparse
import ast
import enum
import importlib.util
import io
import math
import re
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from kaitaistruct import KaitaiStream, KaitaiStruct

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))

from quakemodels.core.dump import _Classes, _construct_root  # noqa: E402  (shared reflection)

CORPUS = REPO.parent / "shared" / "corpus"

# Which corpus files each spec reads: spec id -> (magic at offset 0, folders under the corpus).
# Adding a spec is one line; a spec without a line is matched by its own first `contents` and
# `meta.file-extension` anywhere in the corpus.
CORPUS_MAP: dict[str, tuple[bytes, tuple[str, ...]]] = {
    "quake2_md2": (b"IDP2", ("md2",)),
    "quake3_md3": (b"IDP3", ("md3", "q3")),
    "quake_mdl": (b"IDPO", ("mdl",)),
    "quake_pak": (b"PACK", ("archives",)),
    "quake_spr": (b"IDSP", ("spr",)),
    "halflife_spr": (b"IDSP", ("hlspr",)),
    "quake2_sp2": (b"IDS2", ("sp2",)),
}

EXAMPLES = 3  # distinct (old -> new) pairs and locations shown per field


# --- compiling both spec folders ----------------------------------------------------------------


def git_ksy(rev: str, dest: Path) -> Path:
    """``ksy/`` as it is at git revision ``rev``, extracted under ``dest``."""
    archive = subprocess.run(
        ["git", "-C", str(REPO), "archive", "--format=tar", rev, "ksy"],
        capture_output=True,
        check=False,
    )
    if archive.returncode != 0:
        raise SystemExit(f"spec-impact: cannot read ksy/ at {rev}: {archive.stderr.decode()}")
    dest.mkdir(parents=True, exist_ok=True)
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive.stdout, check=True)
    return dest / "ksy"


def compile_specs(jobs: list[tuple[Path, Path]]) -> None:
    """Generated Python for every ``*.ksy`` of each ``(ksy_dir, out)`` (node processes at once)."""
    running = []
    for ksy_dir, out in jobs:
        specs = sorted(str(p) for p in ksy_dir.glob("*.ksy"))
        out.mkdir(parents=True, exist_ok=True)
        (out / "__init__.py").write_text("")
        if specs:
            cmd = ["node", str(REPO / "tools" / "ksc.js"), "--target", "python", "--outdir"]
            running.append(
                subprocess.Popen(
                    [*cmd, str(out), *specs],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.PIPE,
                    text=True,
                )
            )
    failed = False
    for proc in running:
        _out, err = proc.communicate()
        if proc.returncode != 0:
            sys.stderr.write(err)
            failed = True
    if failed:
        raise SystemExit(1)


def import_package(folder: Path, name: str) -> dict[str, type[KaitaiStruct]]:
    """Import every generated module of ``folder`` as package ``name``: spec id -> root class."""
    for mod in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
        del sys.modules[mod]  # a previous run in this process
    spec = importlib.util.spec_from_file_location(
        name, folder / "__init__.py", submodule_search_locations=[str(folder)]
    )
    assert spec is not None and spec.loader is not None
    package = importlib.util.module_from_spec(spec)
    sys.modules[name] = package
    spec.loader.exec_module(package)
    roots: dict[str, type[KaitaiStruct]] = {}
    # Specs importing other specs use absolute imports: let them find their siblings.
    sys.path.insert(0, str(folder))
    try:
        for path in sorted(folder.glob("*.py")):
            if path.stem == "__init__":
                continue
            module: ModuleType = importlib.import_module(f"{name}.{path.stem}")
            for obj in vars(module).values():
                if (
                    isinstance(obj, type)
                    and issubclass(obj, KaitaiStruct)
                    and obj.__module__ == module.__name__
                ):
                    roots[path.stem] = obj
    finally:
        sys.path.remove(str(folder))
    return roots


# --- which files each spec reads ----------------------------------------------------------------


def spec_magic_and_exts(ksy: Path) -> tuple[bytes | None, tuple[str, ...]]:
    """The spec's first seq `contents` (as bytes) and its file extensions, read from the text."""
    text = ksy.read_text(encoding="utf-8")
    magic = None
    found = re.search(r"^seq:\s*\n(?:\s.*\n)*?\s+contents:\s*(.+)$", text, re.M)
    if found:
        value = found.group(1).strip().strip("'\"")
        if not value.startswith("["):
            magic = value.encode()
    ext = re.search(r"^\s+file-extension:\s*(.+)$", text, re.M)
    exts: tuple[str, ...] = ()
    if ext:
        exts = tuple(e.strip(" '\"") for e in ext.group(1).strip("[] ").split(",") if e.strip())
    return magic, exts


def corpus_files(spec_id: str, ksy: Path, corpus: Path) -> tuple[list[Path], str]:
    """Corpus files for ``spec_id`` and a short description of where they were looked for."""
    if spec_id in CORPUS_MAP:
        magic, folders = CORPUS_MAP[spec_id]
        roots = [corpus / f for f in folders]
        where = ", ".join(f + "/" for f in folders)
        exts: tuple[str, ...] = ()
    else:
        found_magic, exts = spec_magic_and_exts(ksy)
        if found_magic is None and not exts:
            return [], "no magic or file-extension in the spec"
        magic = found_magic or b""
        roots = [corpus]
        where = "whole corpus, by " + ("magic" if found_magic else "extension")
    files = []
    for root in roots:
        if not root.is_dir():
            continue
        for path in sorted(root.rglob("*")):
            if not path.is_file():
                continue
            if exts and path.suffix[1:].lower() not in exts:
                continue
            if magic:
                with path.open("rb") as f:
                    if f.read(len(magic)) != magic:
                        continue
            files.append(path)
    return files, where


# --- flattening a parse tree --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Err:
    """An instance (or the whole parse) that raised: compared by exception type and text."""

    text: str


@dataclass(frozen=True, slots=True)
class Struct:
    """A field holding a user type: compared by its ksy type name (its fields are columns)."""

    type_name: str


_TYPE_NAMES: dict[type, str] = {}


def type_name(cls: type) -> str:
    """The ksy id of a generated class (``TexPoint`` -> ``tex_point``)."""
    name = _TYPE_NAMES.get(cls)
    if name is None:
        name = _TYPE_NAMES[cls] = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", cls.__name__).lower()
    return name


def _get(obj: KaitaiStruct, name: str) -> Any:
    try:
        return getattr(obj, name)
    except Exception as e:  # an instance that fails is a value too (it may start failing)
        return Err(f"{type(e).__name__}: {e}")


@dataclass
class Columns:
    """Every leaf value of one file's tree, by path (``tex_coords[].s_px``), in read order.

    ``label`` names each path's field as ``<ksy type>.<field>``. The walk goes column by column
    over arrays of structs (one list comprehension per field, not one call per value). With
    ``locate`` set it walks element by element instead and records the location of each value
    (``tex_coords[17].s_px``) for those paths; that walk runs only for files that changed.
    """

    values: dict[str, list[Any]] = field(default_factory=lambda: defaultdict(list))
    label: dict[str, str] = field(default_factory=dict)
    classes: _Classes = field(default_factory=_Classes)
    locate: set[str] | None = None
    where: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))

    def fields(self, obj: KaitaiStruct) -> list[str]:
        names = [n for n in obj.__dict__ if n[0] != "_"]
        return names + [n for n, _js, _v in self.classes.instances(type(obj))]

    # -- column by column (the normal walk) --

    def structs(self, items: list[KaitaiStruct], path: str) -> None:
        """Same-path structs (all elements of arrays at ``path``), field by field."""
        by_class: dict[type, list[KaitaiStruct]] = {}
        for it in items:
            by_class.setdefault(type(it), []).append(it)
        for cls, group in by_class.items():
            tname = type_name(cls)
            prefix = path + "." if path else ""
            # Seq fields as the first element has them, plus any that only others have (`if:`).
            seq = [n for n in group[0].__dict__ if n[0] != "_"]
            extra = set().union(*(it.__dict__.keys() for it in group)) - set(seq)
            seq += sorted(n for n in extra if n[0] != "_")
            for name in seq:
                col = [it.__dict__.get(name, _ABSENT) for it in group]
                self.column(col, prefix + name, tname + "." + name)
            for name, _js, _v in self.classes.instances(cls):
                try:
                    col = [getattr(it, name) for it in group]
                except Exception:
                    col = [_get(it, name) for it in group]
                self.column(col, prefix + name, tname + "." + name)

    def column(self, col: list[Any], path: str, label: str) -> None:
        self.label[path] = label
        kinds = set(map(type, col))
        out = self.values[path]
        if kinds <= _PRIMITIVES:
            out.extend(col)
            return
        if len(kinds) == 1 and issubclass(next(iter(kinds)), KaitaiStruct):
            out.extend([Struct(type_name(type(col[0])))] * len(col))
            self.structs(col, path)
            return
        out.extend(map(_leaf, col))
        structs = [v for v in col if isinstance(v, KaitaiStruct)]
        if structs:
            self.structs(structs, path)
        lists = [v for v in col if type(v) is list]
        if lists:
            self.column([x for lst in lists for x in lst], path + "[]", label + "[]")

    # -- element by element, with locations --

    def walk(self, obj: KaitaiStruct, path: str, where: str) -> None:
        tname = type_name(type(obj))
        for name in self.fields(obj):
            v = obj.__dict__[name] if name in obj.__dict__ else _get(obj, name)
            if isinstance(v, Err) and v.text.startswith("AttributeError"):
                v = _ABSENT
            p = path + "." + name if path else name
            w = where + "." + name if where else name
            self.element(v, p, w, tname + "." + name)

    def element(self, v: Any, path: str, where: str, label: str) -> None:
        assert self.locate is not None
        self.label[path] = label
        self.values[path].append(_leaf(v))
        if path in self.locate:
            self.where[path].append(where)
        if isinstance(v, KaitaiStruct):
            self.walk(v, path, where)
        elif type(v) is list:
            for i, x in enumerate(v):
                self.element(x, path + "[]", f"{where}[{i}]", label + "[]")


_PRIMITIVES = {int, float, str, bytes, bool}
_ABSENT = "<absent>"  # a seq field an `if:` left out


def _leaf(v: Any) -> Any:
    """What a column holds for ``v``: the value, or a marker for structs, arrays and enums."""
    if isinstance(v, KaitaiStruct):
        return Struct(type_name(type(v)))
    if type(v) is list:
        return f"<array of {len(v)}>"
    if isinstance(v, enum.Enum):
        return f"{v.name}({int(v.value)})"
    return v


def flatten(
    root_cls: type[KaitaiStruct], data: bytes, spec_id: str, locate: set[str] | None = None
) -> tuple[Columns, Err | None]:
    """Parse ``data`` (keeping what was read before a failure) and flatten the tree."""
    obj, exc = _construct_root(root_cls, KaitaiStream(io.BytesIO(data)))
    cols = Columns(locate=locate)
    if locate is None:
        cols.structs([obj], "")
    else:
        cols.walk(obj, "", "")
    return cols, None if exc is None else Err(f"{type(exc).__name__}: {exc}")


def same(a: Any, b: Any) -> bool:
    """Equal values, NaN equal to NaN, an int never equal to a float or a bool."""
    if type(a) is not type(b):
        return False
    if a == b:
        return True
    return isinstance(a, float) and math.isnan(a) and math.isnan(b)


def show(v: Any) -> str:
    if isinstance(v, (bytes, bytearray)):
        head = bytes(v[:8]).hex(" ")
        return f"bytes[{len(v)}]({head}{' ...' if len(v) > 8 else ''})"
    if isinstance(v, Struct):
        return f"<{v.type_name}>"
    if isinstance(v, Err):
        return f"<error {v.text}>"
    return repr(v)


# --- comparing ----------------------------------------------------------------------------------


@dataclass
class FieldChange:
    files: set[str] = field(default_factory=set)
    count: int = 0
    pairs: dict[tuple[str, str], int] = field(default_factory=dict)
    where: list[str] = field(default_factory=list)


@dataclass
class SpecReport:
    spec_id: str
    files: list[Path]
    where: str
    changed: dict[str, FieldChange] = field(default_factory=lambda: defaultdict(FieldChange))
    new: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    gone: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    # (old key, new key) pairs whose columns were equal in a file (rename candidates).
    renames: dict[tuple[str, str], set[str]] = field(default_factory=lambda: defaultdict(set))
    labels: dict[str, str] = field(default_factory=dict)  # path -> ksy type.field
    stopped: list[tuple[str, str]] = field(default_factory=list)
    started: list[tuple[str, str]] = field(default_factory=list)
    note: str = ""


def columns_equal(a: list[Any], b: list[Any]) -> bool:
    """Whole columns at C speed; element by element only when that says no (NaN, types)."""
    if a == b:
        return all(type(x) is type(y) for x, y in zip(a[:1], b[:1], strict=True))
    return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))


def compare_file(report: SpecReport, name: str, old: Columns, new: Columns, relocate: Any) -> None:
    """Add one file's differences to ``report``; ``relocate(keys)`` re-walks with locations."""
    report.labels.update(old.label)
    report.labels.update(new.label)
    differing = []
    for key in old.values.keys() | new.values.keys():
        a = old.values.get(key)
        b = new.values.get(key)
        if a is None:
            report.new[key].add(name)
        elif b is None:
            report.gone[key].add(name)
        elif not columns_equal(a, b):
            differing.append(key)
    if differing:
        new_w = relocate(set(differing))
        for key in sorted(differing):
            a, b = old.values[key], new.values[key]
            change = report.changed[key]
            change.files.add(name)
            for i, (x, y) in enumerate(zip(a, b, strict=False)):
                if same(x, y):
                    continue
                change.count += 1
                pair = (show(x), show(y))
                change.pairs[pair] = change.pairs.get(pair, 0) + 1
                if len(change.where) < EXAMPLES:
                    loc = new_w.get(key, [])
                    change.where.append(f"{name} {loc[i] if i < len(loc) else key}")
            if len(a) != len(b):
                change.count += abs(len(a) - len(b))
                if len(change.where) < EXAMPLES:
                    change.where.append(f"{name}: {len(a)} values -> {len(b)}")
    gone = [k for k in old.values if k not in new.values]
    added = [k for k in new.values if k not in old.values]
    for g in gone:
        for n in added:
            if columns_equal(old.values[g], new.values[n]):
                report.renames[(g, n)].add(name)


def code_without_docs(path: Path) -> str | None:
    """The generated module's syntax tree with every docstring removed (None if absent)."""
    if not path.exists():
        return None
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (
            isinstance(body, list)
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            body.pop(0)
    return ast.dump(tree)


def run(
    base_roots: dict[str, type[KaitaiStruct]],
    new_roots: dict[str, type[KaitaiStruct]],
    ksy_dirs: tuple[Path, Path],
    py_dirs: tuple[Path, Path],
    corpus: Path,
    only: list[Path],
    force: bool = False,
) -> list[SpecReport]:
    reports = []
    for spec_id in sorted(base_roots.keys() | new_roots.keys()):
        ksy = ksy_dirs[1] / f"{spec_id}.ksy"
        if not ksy.exists():
            ksy = ksy_dirs[0] / f"{spec_id}.ksy"
        if only:
            magic, _ = CORPUS_MAP.get(spec_id, (spec_magic_and_exts(ksy)[0] or b"", ()))
            files = [p for p in only if not magic or p.read_bytes()[: len(magic)] == magic]
            where = "files given"
        else:
            files, where = corpus_files(spec_id, ksy, corpus)
        report = SpecReport(spec_id, files, where)
        reports.append(report)
        if spec_id not in base_roots:
            report.note = "new spec (not in the base)"
        elif spec_id not in new_roots:
            report.note = "spec removed"
        elif not force:
            old_code, new_code = (code_without_docs(d / f"{spec_id}.py") for d in py_dirs)
            if old_code == new_code:
                # Only docs or comments changed (or nothing): the parser is the same program.
                same_ksy = (ksy_dirs[0] / f"{spec_id}.ksy").read_bytes() == ksy.read_bytes()
                report.note = "spec unchanged" if same_ksy else "generated parser unchanged"
                continue
        for path in files:
            data = path.read_bytes()
            name = str(path.relative_to(corpus)) if path.is_relative_to(corpus) else path.name
            old = flatten(base_roots[spec_id], data, spec_id) if spec_id in base_roots else None
            new = flatten(new_roots[spec_id], data, spec_id) if spec_id in new_roots else None
            if old is None or new is None:
                continue
            (old_cols, old_err), (new_cols, new_err) = old, new
            if old_err is None and new_err is not None:
                report.stopped.append((name, new_err.text))
            elif old_err is not None and new_err is None:
                report.started.append((name, old_err.text))
            cls = new_roots[spec_id]

            def relocate(
                keys: set[str], data: bytes = data, cls: Any = cls, sid: str = spec_id
            ) -> dict[str, list[str]]:
                return flatten(cls, data, sid, keys)[0].where

            compare_file(report, name, old_cols, new_cols, relocate)
    return reports


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def render(reports: Iterable[SpecReport], header: str) -> str:
    out = [header]

    def name(r: SpecReport, path: str) -> str:
        label = r.labels.get(path, path)
        return label if label.endswith("." + path) or label == path else f"{label} [{path}]"

    for r in reports:
        title = f"{r.spec_id}: {plural(len(r.files), 'file')} ({r.where})"
        if r.note:
            title += f"; {r.note}"
        out.append(title)
        if not r.files:
            out.append("  no matching files: nothing to compare")
            continue
        if r.note == "spec unchanged":
            out.append("  no changes (not parsed: the spec is the same)")
            continue
        if r.note == "generated parser unchanged":
            out.append("  no changes (not parsed: the generated parser differs in docs only)")
            continue
        renamed = {}
        for (g, n), names in sorted(r.renames.items()):
            # A rename when the values agree in every file that has the field.
            if names == r.gone.get(g) == r.new.get(n) and g not in renamed and n not in renamed:
                renamed[g] = n
                renamed[n] = g
        lines = []
        for key in sorted(r.changed):
            c = r.changed[key]
            top = sorted(c.pairs.items(), key=lambda kv: -kv[1])[:EXAMPLES]
            pairs = ", ".join(f"{a} -> {b}" + (f" ({k})" if k > 1 else "") for (a, b), k in top)
            more = f", {len(c.pairs) - EXAMPLES} more" if len(c.pairs) > EXAMPLES else ""
            lines.append(
                f"  {name(r, key)}: {plural(len(c.files), 'file')}, {plural(c.count, 'value')}: "
                f"{pairs}{more}"
            )
            lines.extend(f"      e.g. {w}" for w in c.where)
        for key in sorted(r.gone):
            if key in renamed:
                lines.append(
                    f"  renamed: {name(r, key)} -> {name(r, renamed[key])} (same values in "
                    f"{plural(len(r.gone[key]), 'file')})"
                )
            else:
                files = plural(len(r.gone[key]), "file")
                lines.append(f"  removed field: {name(r, key)} ({files})")
        for key in sorted(r.new):
            if key not in renamed:
                lines.append(f"  new field: {name(r, key)} ({plural(len(r.new[key]), 'file')})")
        for file, err in r.stopped:
            lines.append(f"  stops parsing: {file}: {err}")
        for file, err in r.started:
            lines.append(f"  starts parsing: {file} (was: {err})")
        out.extend(lines or ["  no changes"])
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--base", default="HEAD", help="git revision of the base ksy/ (HEAD)")
    parser.add_argument("--base-ksy", type=Path, help="a ksy folder as the base instead of git")
    parser.add_argument("--new-ksy", type=Path, default=REPO / "ksy", help="default ksy/")
    parser.add_argument("--corpus", type=Path, default=CORPUS, help=f"default {CORPUS}")
    parser.add_argument(
        "--all", action="store_true", help="parse with specs whose parser did not change too"
    )
    parser.add_argument("files", nargs="*", type=Path, help="only these files")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="spec-impact-") as tmp:
        t = Path(tmp)
        if args.base_ksy:
            base_ksy, base_name = args.base_ksy, str(args.base_ksy)
        else:
            base_ksy = git_ksy(args.base, t / "base")
            rev = subprocess.run(
                ["git", "-C", str(REPO), "rev-parse", "--short", args.base],
                capture_output=True,
                text=True,
                check=False,
            ).stdout.strip()
            base_name = f"{args.base} ({rev})"
        new_ksy = t / "new" / "ksy"
        shutil.copytree(args.new_ksy, new_ksy)  # a snapshot: edits during the run don't mix in
        compile_specs([(base_ksy, t / "base_py"), (new_ksy, t / "new_py")])
        base_roots = import_package(t / "base_py", "_spec_impact_base")
        new_roots = import_package(t / "new_py", "_spec_impact_new")
        reports = run(
            base_roots,
            new_roots,
            (base_ksy, new_ksy),
            (t / "base_py", t / "new_py"),
            args.corpus,
            args.files,
            args.all,
        )
    header = f"spec-impact: {base_name} -> {args.new_ksy}; corpus {args.corpus}"
    sys.stdout.write(render(reports, header))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
