#!/usr/bin/env python3
"""A value digest of a parsed file, the same in every target language (make spec-compile).

    python tools/spec_digest.py [--generic] SPEC_ID FILE...   (the generated Python parser)

``make spec-compile`` runs the C++ and Java parsers the pinned compiler generates for ksy/ on
every corpus file, each printing this digest through its own driver (tools/runtime/digest/),
and compares it line for line with the digest printed here from the generated Python parser.

A digest is one block per file: ``== <name>``, then ``<key> <value>`` lines: the header's
integers and strings as they are, and for every array a count and a 64-bit FNV-1a checksum of
every value in it, in file order. Values are fed to the checksum as IEEE doubles (integers and
``f4`` exactly; value instances such as positions as the target computed them, so a target
that rounds differently shows up), little-endian, with every NaN as one canonical NaN; byte
strings and text as their length then their bytes. A file the parser rejects is ``error``.
The drivers in the other languages follow this file field by field: change them together.

A spec with no digest of its own here (a new format's: the specs are the registered formats'
``spec_id`` and the archive specs) gets the generic digest, which walks the parsed file by
its ksy; its C++ driver is generated from the ksy and its Java driver walks by reflection, so
a new spec is digested and compared in every language with no edit here (``--generic`` uses
it for every spec).
"""

from __future__ import annotations

import enum
import functools
import importlib
import math
import struct
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import yaml

from quakemodels.formats import FORMATS

REPO = Path(__file__).resolve().parent.parent

FNV_OFFSET = 0xCBF29CE484222325
FNV_PRIME = 0x100000001B3
MASK = (1 << 64) - 1
CANONICAL_NAN = struct.pack("<Q", 0x7FF8000000000000)


class Sum:
    """FNV-1a 64 over numbers (as doubles) and byte strings, in the order they are fed."""

    def __init__(self) -> None:
        self.h = FNV_OFFSET
        self.n = 0

    def raw(self, data: bytes) -> None:
        h = self.h
        for b in data:
            h = ((h ^ b) * FNV_PRIME) & MASK
        self.h = h

    def num(self, value: float) -> None:
        v = float(value)
        self.raw(CANONICAL_NAN if math.isnan(v) else struct.pack("<d", v))

    def nums(self, values: Iterable[float]) -> None:
        for v in values:
            self.num(v)

    def data(self, value: bytes | str) -> None:
        raw = value.encode("utf-8") if isinstance(value, str) else value  # names: ISO-8859-1
        self.num(len(raw))
        self.raw(raw)

    def line(self, key: str) -> str:
        return f"{key} {self.n} {self.h:016x}"


# The integer header fields each digest prints, in this order (after the magic).
MD2_HEADER = [
    *("version", "skin_width_px", "skin_height_px", "bytes_per_frame", "num_skins"),
    *("vertices_per_frame", "num_tex_coords", "num_triangles", "num_gl_cmds", "num_frames"),
    *("ofs_skins", "ofs_tex_coords", "ofs_triangles", "ofs_frames", "ofs_gl_cmds", "ofs_end"),
]
MD3_HEADER = [
    *("flags", "num_frames", "num_tags", "num_surfaces", "num_skins"),
    *("ofs_frames", "ofs_tags", "ofs_surfaces", "ofs_end"),
]
MD3_SURFACE = [
    *("flags", "num_frames", "num_shaders", "num_vertices", "num_triangles"),
    *("ofs_triangles", "ofs_shaders", "ofs_tex_coords", "ofs_vertices", "ofs_end"),
]
MDL_HEADER = [
    *("version", "num_skins", "skin_width", "skin_height", "num_verts", "num_tris"),
    *("num_frames", "synctype", "flags", "skin_size"),
]


def vec(s: Sum, v: Any) -> None:
    s.nums((v.x, v.y, v.z))


def quake2_md2(r: Any) -> list[str]:
    out = [f"magic {r.magic.hex()}"]
    for k in MD2_HEADER:
        out.append(f"{k} {getattr(r, k)}")
    s = Sum()
    for name in r.skins:
        s.n += 1
        s.data(name)
    out.append(s.line("skins"))
    s = Sum()
    for t in r.tex_coords:
        s.n += 1
        s.nums((t.s_px, t.t_px, t.s_normalized, t.t_normalized))
    out.append(s.line("tex_coords"))
    s = Sum()
    for tri in r.triangles:
        s.n += 1
        s.nums(tri.vertex_indices)
        s.nums(tri.tex_point_indices)
    out.append(s.line("triangles"))
    s = Sum()
    for f in r.frames:
        s.n += 1
        vec(s, f.scale)
        vec(s, f.translate)
        s.data(f.name)
        for v in f.vertices:
            p = v.position
            s.nums((p.x_compressed, p.y_compressed, p.z_compressed, v.normal_index))
            s.nums((p.x, p.y, p.z))
            s.nums(v.normal)
    out.append(s.line("frames"))
    s = Sum()
    for c in getattr(r.gl_cmds, "items", None) or []:
        s.n += 1
        s.nums((c.cmd_num_vertices, c.num_vertices, c.primitive.value))
        for gv in c.vertices:
            s.nums(gv.tex_coords_normalized)
            s.num(gv.vertex_index)
    out.append(s.line("gl_cmds"))
    return out


def quake3_md3(r: Any) -> list[str]:
    out = [f"magic {r.magic.hex()}", f"version {r.version}", f"name {r.name}"]
    for k in MD3_HEADER:
        out.append(f"{k} {getattr(r, k)}")
    s = Sum()
    for f in r.frames:
        s.n += 1
        vec(s, f.min_bounds)
        vec(s, f.max_bounds)
        vec(s, f.local_origin)
        s.num(f.radius)
        s.data(f.name)
    out.append(s.line("frames"))
    s = Sum()
    for t in r.tags:
        s.n += 1
        s.data(t.name)
        vec(s, t.origin)
        for a in t.axis:
            vec(s, a)
    out.append(s.line("tags"))
    heads, shaders, tris, uvs, verts = Sum(), Sum(), Sum(), Sum(), Sum()
    for su in r.surfaces:
        heads.n += 1
        heads.data(su.magic)
        heads.data(su.name)
        heads.nums(getattr(su, k) for k in MD3_SURFACE)
        for sh in su.shaders:
            shaders.n += 1
            shaders.data(sh.name)
            shaders.num(sh.shader_index)
        for tri in su.triangles:
            tris.n += 1
            tris.nums(tri.vertex_indices)
        for tc in su.tex_coords:
            uvs.n += 1
            uvs.nums((tc.s, tc.t))
        for v in su.vertices:
            verts.n += 1
            verts.nums((v.x_compressed, v.y_compressed, v.z_compressed, v.normal_lng, v.normal_lat))
            verts.nums((v.x, v.y, v.z, v.lat, v.lng))
    out += [
        heads.line("surfaces"),
        shaders.line("shaders"),
        tris.line("triangles"),
        uvs.line("tex_coords"),
        verts.line("vertices"),
    ]
    return out


def mdl_vertex(s: Sum, v: Any) -> None:
    s.nums(v.values)
    s.num(v.normal_index)
    s.nums((v.x, v.y, v.z))


def quake_mdl(r: Any) -> list[str]:
    h = r.header
    out = [f"ident {h.ident.hex()}"]
    for k in MDL_HEADER:
        out.append(f"{k} {getattr(h, k)}")
    s = Sum()
    s.n = 1
    for v in (h.scale, h.origin, h.eye_position):
        vec(s, v)
    s.nums((h.radius, h.size))
    out.append(s.line("header_floats"))
    s = Sum()
    for sk in r.skins:
        s.n += 1
        s.num(sk.group)
        if sk.group == 0:
            s.data(sk.single_texture_data)
        else:
            s.num(sk.num_frames)
            s.nums(sk.frame_times)
            for image in sk.group_texture_data:
                s.data(image)
    out.append(s.line("skins"))
    s = Sum()
    for tc in r.texture_coordinates:
        s.n += 1
        s.nums((tc.on_seam, tc.s, tc.t))
    out.append(s.line("texture_coordinates"))
    s = Sum()
    for tri in r.triangles:
        s.n += 1
        s.num(tri.faces_front)
        s.nums(tri.vertices)
    out.append(s.line("triangles"))
    s = Sum()
    for f in r.frames:
        s.n += 1
        s.num(f.type)
        if f.type != 0:
            s.num(f.num_time)
            mdl_vertex(s, f.min)
            mdl_vertex(s, f.max)
            s.nums(f.time)
        s.num(f.num_simple_frames)
        for p in f.frames:
            mdl_vertex(s, p.bbox_min)
            mdl_vertex(s, p.bbox_max)
            s.data(p.name)
            for v in p.vertices:
                mdl_vertex(s, v)
    out.append(s.line("frames"))
    return out


def quake_pak(r: Any) -> list[str]:
    out = [f"magic {r.magic.hex()}", f"ofs_index {r.ofs_index}", f"len_index {r.len_index}"]
    out.append(f"num_files {r.num_files}")
    s = Sum()
    for e in r.index.entries:
        s.n += 1
        s.data(e.name)
        s.nums((e.ofs, e.size))
        s.data(e.body)
    out.append(s.line("entries"))
    return out


# --- the generic digest: any spec, walked by its ksy ---------------------------------------------
# A spec with no hand-written digest above (a new format's) is digested by walking its ksy: for
# each type, its seq fields then its instances (value instances included), in ksy order; every
# value fed as above (numbers and enums as doubles, text as UTF-8, byte strings, lists as their
# count then their items, structures as their own fields, an absent `if` field as NONE). One
# line per field of the root type: ``<id> <count> <checksum>``. The C++ driver is generated from
# the same schema (cpp_generic_driver) and the Java one reads it (java_schema) by reflection.

NONE = b"\xff\xfeNONE"
"""What an absent field (its `if` false) feeds."""

Fields = list[tuple[str, bool]]
"""A type's (field id, optional) in walk order: seq fields, then instances."""


def type_class(type_id: str) -> str:
    """The compiler's class name for a ksy id (``quake3_md3`` -> ``Quake3Md3``)."""
    return "".join(w[:1].upper() + w[1:] for w in type_id.split("_"))


def lower_camel(field_id: str) -> str:
    """The Java accessor of a ksy id (``num_frames`` -> ``numFrames``)."""
    head, *rest = field_id.split("_")
    return head + "".join(w[:1].upper() + w[1:] for w in rest)


def schema(ksy: Path) -> dict[tuple[str, ...], Fields]:
    """Every type of the spec in ``ksy``: its path of ksy ids from the root (``("quake3_md3",
    "surface")``) -> its fields in walk order."""
    doc = yaml.safe_load(ksy.read_text(encoding="utf-8"))
    found: dict[tuple[str, ...], Fields] = {}

    def visit(path: tuple[str, ...], body: dict[str, Any]) -> None:
        fields = [
            (str(item.get("id", f"_unnamed{i}")), "if" in item)
            for i, item in enumerate(body.get("seq") or [])
        ]
        fields += [(str(k), "if" in (v or {})) for k, v in (body.get("instances") or {}).items()]
        found[path] = fields
        for type_id, sub in (body.get("types") or {}).items():
            visit((*path, str(type_id)), sub or {})

    visit((str(doc["meta"]["id"]),), doc)
    return found


def _feed(s: Sum, value: Any, walk: Callable[[Sum, Any], None]) -> None:
    if value is None:
        s.raw(NONE)
    elif isinstance(value, (bytes, str)):
        s.data(value)
    elif isinstance(value, list):
        s.num(len(value))
        for item in value:
            _feed(s, item, walk)
    elif isinstance(value, enum.Enum):
        s.num(value.value)
    elif isinstance(value, (int, float)):  # bool too: 1.0 and 0.0
        s.num(value)
    else:
        walk(s, value)


def generic(r: Any, types: dict[tuple[str, ...], Fields]) -> list[str]:
    """The generic digest lines of a parsed root ``r`` (see above)."""
    by_class = {tuple(type_class(t) for t in path): f for path, f in types.items()}

    def fields(obj: Any) -> Fields:
        return by_class[tuple(type(obj).__qualname__.split("."))]

    def walk(s: Sum, obj: Any) -> None:
        for name, optional in fields(obj):
            _feed(s, getattr(obj, name, None) if optional else getattr(obj, name), walk)

    out = []
    for name, optional in fields(r):
        value = getattr(r, name, None) if optional else getattr(r, name)
        s = Sum()
        s.n = 0 if value is None else len(value) if isinstance(value, list) else 1
        _feed(s, value, walk)
        out.append(s.line(name))
    return out


def cpp_generic_driver(types: dict[tuple[str, ...], Fields]) -> str:
    """The C++ driver of the generic digest for the generated parser of ``types``' spec: one
    ``walk`` per type (tools/runtime/digest/cpp/generic.h feeds the values)."""
    root = next(iter(types))[0]

    def cls(path: tuple[str, ...]) -> str:
        return "::".join(f"{t}_t" for t in path)

    lines = [
        "// Generated by tools/spec_digest.py (cpp_generic_driver): the generic digest.",
        '#include "generic.h"',
        f'#include "{root}.h"',
        "",
    ]
    lines += [f"inline void walk(Sum& s, {cls(p)}* r);" for p in types]
    for path, fields in types.items():
        lines += ["", f"inline void walk(Sum& s, {cls(path)}* r) {{"]
        if not fields:  # a type with no fields of its own
            lines.append("    (void)s;\n    (void)r;")
        for name, optional in fields:
            fed = f"feed(s, r->{name}());"
            lines.append(
                f"    if (r->_is_null_{name}()) s.raw(NONE); else {fed}"
                if optional
                else f"    {fed}"
            )
        lines.append("}")
    lines += ["", "static std::vector<std::string> digest(kaitai::kstream* io) {"]
    lines += [f"    {cls((root,))} r(io);", "    std::vector<std::string> out;"]
    for name, optional in types[(root,)]:
        fed = f"s.n = count(r.{name}()); feed(s, r.{name}());"
        if optional:
            fed = f"if (r._is_null_{name}()) s.raw(NONE); else {{ {fed} }}"
        lines.append(f'    {{ Sum s; {fed} out.push_back(s.line("{name}")); }}')
    lines += ["    return out;", "}", "", "int main(int argc, char** argv) {"]
    lines += ["    return run_all(argc, argv, digest);", "}", ""]
    return "\n".join(lines)


def java_schema(types: dict[tuple[str, ...], Fields]) -> str:
    """The schema GenericDigest.java walks: ``T <class binary name>`` then ``F <accessor>
    <ksy id>`` lines per type, the root first (an absent field is a null there)."""
    out = []
    for path, fields in types.items():
        out.append("T " + "$".join(type_class(t) for t in path))
        out += [f"F {lower_camel(n)} {n}" for n, _ in fields]
    return "".join(f"{line}\n" for line in out)


# Specs of no registered format: the archives (ksy/quake_pak.ksy).
ARCHIVE_SPECS = ("quake_pak",)


def spec_ids() -> list[str]:
    """Every spec to digest: each registered format's ``spec_id`` (quakemodels.formats.FORMATS),
    then the archive specs."""
    return [*dict.fromkeys(f.spec_id for f in FORMATS if f.spec_id), *ARCHIVE_SPECS]


def digester(spec_id: str) -> Callable[[Any], list[str]] | None:
    """The digest of ``spec_id``: the function of this module named after it (``quake2_md2``),
    or None while the spec has none (spec-compile then only builds its code)."""
    found = globals().get(spec_id)
    return found if callable(found) and spec_id.isidentifier() and spec_id in spec_ids() else None


def digest(
    root_class: Any,
    spec_id: str,
    path: Path,
    name: str,
    types: dict[tuple[str, ...], Fields] | None = None,
) -> str:
    """The digest block of one file parsed with ``root_class`` (a generated Python parser):
    the generic one with ``types`` (:func:`schema` of its ksy), else the spec's own."""
    if types is not None:
        walk: Callable[[Any], list[str]] = functools.partial(generic, types=types)
    else:
        own = digester(spec_id)
        if own is None:
            raise KeyError(f"no digest for {spec_id}")
        walk = own
    try:
        lines = walk(root_class.from_file(str(path)))
    except Exception:  # any rejection: every target only has to agree that it failed
        lines = ["error"]
    return "".join(f"{x}\n" for x in [f"== {name}", *lines])


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    generic_only = bool(args) and args[0] == "--generic"
    args = args[generic_only:]
    ksy = REPO / "ksy" / f"{args[0]}.ksy" if args else REPO
    if len(args) < 2 or not ksy.is_file():
        print("usage: spec_digest.py [--generic] SPEC_ID FILE...", file=sys.stderr)
        return 2
    # A spec without a digest of its own (or with --generic) gets the generic one.
    types = schema(ksy) if generic_only or digester(args[0]) is None else None
    module = importlib.import_module(f"quakemodels.kaitai.{args[0]}")
    root = getattr(module, type_class(args[0]))
    for f in args[1:]:
        sys.stdout.write(digest(root, args[0], Path(f), f, types))
    return 0


if __name__ == "__main__":
    sys.exit(main())
