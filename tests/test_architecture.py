"""The package's structure, as ARCHITECTURE.md states it: imports run one way, no cycles, no
byte layout written by hand outside the generated folder, one dispatch."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from conftest import REPO

PACKAGE = REPO / "src" / "quakemodels"

# Lower layers first; a module may import only from its own layer or lower ones.
LAYERS = [
    ("errors", "kaitai", "ksy_numpy"),
    ("core",),
    ("interchange", "viewer"),
    ("archive",),
    ("formats",),
    ("registry",),
    ("__init__", "__main__", "cli"),
]
# Inside a format package: layout ← limits ← fast ← reader ← write, check, describe, scene ←
# model ← __init__. (fast: the reader's fast paths, beside its plain decode; palette: MDL's
# bundled colour table, data like the layout's constants; limits: what the reader refuses and
# the engine limits the writer enforces and the model's build methods default to, plain values
# that may come from the layout)
FORMAT_LAYERS = [
    ("layout", "palette"),
    ("limits",),
    ("fast",),
    ("reader",),
    ("write", "check", "describe", "scene"),
    ("quantized",),  # the frames as stored, for exact conversions (MDL's reuses its frame names)
    ("model",),
    ("build",),  # the convert target ("build" service): builds the model from a neutral source
]
# Packages under formats/ that are not model formats have their own order. A Quake III player
# folder: the cfg and skin parsers ← where its files come from ← the Player ← what is built on it.
PACKAGE_LAYERS = {
    # MD5 (text): the tokenizer under the reader; where its files come from (animations,
    # md5.cfg, .md5scale beside the mesh) under the checker and the model
    "md5": [
        ("layout",),
        ("limits",),
        ("tokens", "_scan"),  # the plain tokenizer; the compiled scanner (C, imports none)
        ("fast",),  # the tokenizer's fast paths (bytes, the scanner's arrays), beside the plain one
        ("reader",),
        ("files",),
        ("check", "describe", "scene"),
        ("model",),
    ],
    # IQM: the compiled first pose (C, imports none) under its caller, under the reader
    "iqm": [
        ("layout",),
        ("limits",),
        ("_pose",),
        ("fast",),  # the first pose through _pose.c, beside the numpy path
        ("reader",),
        ("write", "check", "describe", "scene"),
        ("model",),
        ("build",),
    ],
    "q3player": [
        ("parts",),  # the three parts and the player folders of a listing: text only
        ("animcfg", "skinfile"),
        ("carry",),  # what a player glTF carries in names Blender keeps (over animcfg)
        ("files",),
        ("player",),
        ("materials",),
        ("check", "describe", "scene", "gltf", "fromgltf"),
        ("folder",),  # the registry's services (check, scene, clips, gltf, pose, facts)
        ("model",),  # the Player users get: a model like the others, and open
        ("build",),  # the convert target: a player folder from a player glTF
    ],
}


def module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: Path) -> set[str]:
    """Every quakemodels module ``path`` imports, at any depth (function-level ones too)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    me = module_name(path)
    package = me if path.name == "__init__.py" else me.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("quakemodels"))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            if not target.startswith("quakemodels"):
                continue
            found.add(target)
            for alias in node.names:  # `from . import md2` names a module
                candidate = PACKAGE.parent / f"{target}.{alias.name}".replace(".", "/")
                if candidate.with_suffix(".py").exists() or candidate.is_dir():
                    found.add(f"{target}.{alias.name}")
    return found


def graph() -> dict[str, set[str]]:
    modules = {
        module_name(p): p
        for p in PACKAGE.rglob("*.py")
        if "kaitai" not in p.relative_to(PACKAGE).parts
    }
    return {name: {i for i in imports(path) if i != name} for name, path in modules.items()}


def layer(module: str) -> int:
    parts = module.split(".")[1:] or ["__init__"]
    for i, names in enumerate(LAYERS):
        if parts[0] in names:
            return i
    raise AssertionError(f"{module} is in no layer of ARCHITECTURE.md")


def test_no_import_cycles() -> None:
    g = graph()
    # Imports of a package run its __init__: count them as edges to it.
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> None:
        state[m] = 1
        stack.append(m)
        for n in sorted(g.get(m, ())):
            if n not in g:
                continue
            if state.get(n) == 1:
                cycle = [*stack[stack.index(n) :], n]
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if n not in state:
                visit(n)
        stack.pop()
        state[m] = 2

    for m in sorted(g):
        if m not in state:
            visit(m)


def test_imports_run_one_way() -> None:
    wrong = []
    for module, targets in graph().items():
        for target in targets:
            if target.startswith("quakemodels.kaitai") or target == "quakemodels":
                if target == "quakemodels" and layer(module) < len(LAYERS) - 1:
                    wrong.append(f"{module} imports the package root")
                continue
            if layer(target) > layer(module):
                wrong.append(f"{module} imports {target} (a higher layer)")
            parts, tparts = module.split("."), target.split(".")
            same_format = parts[:3] == tparts[:3] and parts[1:2] == ["formats"] and len(parts) > 3
            if same_format and len(tparts) > 3:
                order = PACKAGE_LAYERS.get(parts[2], FORMAT_LAYERS)

                def rank(name: str, order: list[tuple[str, ...]] = order) -> int:
                    return next(i for i, ns in enumerate(order) if name in ns)

                if rank(tparts[3]) > rank(parts[3]) or (
                    rank(tparts[3]) == rank(parts[3]) and tparts[3] != parts[3]
                ):
                    wrong.append(f"{module} imports {target} (same format, not below it)")
    assert not wrong, "\n".join(sorted(wrong))


def test_formats_do_not_import_each_other_or_the_cli() -> None:
    for module, targets in graph().items():
        if not module.startswith("quakemodels.formats."):
            continue
        own = ".".join(module.split(".")[:3])
        for target in targets:
            if target.startswith("quakemodels.formats.") and not target.startswith(own):
                # a format may build on another's public reader (MDL ↔ MD2 conversion) only
                # through its package, never its internals
                assert target.count(".") == 2, f"{module} reaches into {target}"
            assert not target.startswith("quakemodels.cli"), f"{module} imports {target}"


STRUCT_FORMAT = re.compile(r"struct\.(Struct|unpack|unpack_from|pack|pack_into|calcsize)\(")
# core/sections.py alone makes structs, and only from formats it derives from generated dtypes:
# there a literal format string would be a layout by hand.
STRUCT_LITERAL = re.compile(
    r"struct\.(Struct|unpack|unpack_from|pack|pack_into|calcsize)\(\s*[rbfRBF]?[\"']"
)
DTYPE_LITERAL = re.compile(r"np\.dtype\(\s*[\[{]")


@pytest.mark.parametrize(
    "path",
    sorted(p for p in PACKAGE.rglob("*.py") if "kaitai" not in p.relative_to(PACKAGE).parts),
    ids=lambda p: str(p.relative_to(PACKAGE)),
)
def test_no_hand_written_byte_layout(path: Path) -> None:
    """Byte layouts come from the generated ``*_layout.py`` modules, never from struct strings
    or dtype literals in our code (glTF/GLB containers are not model layouts: exempt)."""
    if path.relative_to(PACKAGE).parts[0] == "interchange":
        return
    text = path.read_text(encoding="utf-8")
    # archive/pk3.py reads a zip's local file header with zipfile's own layout
    # (zipfile.structFileHeader): a container, like glTF, and no format string of ours;
    # archive/pak.py reads a pak's records with the struct formats its spec's generated facts
    # give (kaitai/quake_pak_facts.STRUCTS).
    derived = (
        PACKAGE / "core" / "sections.py",
        PACKAGE / "archive" / "pk3.py",
        PACKAGE / "archive" / "pak.py",
    )
    structs = STRUCT_LITERAL if path in derived else STRUCT_FORMAT
    assert not structs.search(text), f"{path.name}: struct layout by hand"
    assert not DTYPE_LITERAL.search(text), f"{path.name}: record dtype by hand"


def test_one_dispatch() -> None:
    """Only the format packages name a format's magic (models and sprites alike: a listing's
    file types come from the registry's by_magic, not a copy)."""
    from quakemodels.registry import FORMATS

    magics = [f.magic for f in FORMATS if f.magic]
    inner = "|".join(re.escape(repr(m)[2:-1]) for m in magics)  # IDP2, IDSP...
    pattern = re.compile(rf"""b["']({inner})""")
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(PACKAGE)
        if rel.parts[0] in ("kaitai", "formats", "ksy_numpy"):
            continue
        text = path.read_text(encoding="utf-8")
        assert not pattern.search(text), f"{rel} names a format's magic"


def test_ksy_numpy_stands_alone() -> None:
    """ksy-numpy is a Kaitai-wide tool: it imports nothing of quakemodels outside itself."""
    outside = sorted(
        f"{module} imports {target}"
        for module, targets in graph().items()
        if module.startswith("quakemodels.ksy_numpy")
        for target in targets
        if target.startswith("quakemodels") and not target.startswith("quakemodels.ksy_numpy")
    )
    assert outside == []
    assert "quakemodels.ksy_numpy.verify" in graph()
