"""The numpy layouts generated from ksy/ (ksy-numpy): sizes, corpus values, spec edits.

The layouts are checked against the generated Kaitai parsers on every corpus model, field by
field, so a dtype that drifts from the spec fails here; edits to a copy of a spec show that a
field type or size change reaches the emitted dtype.
"""

from __future__ import annotations

import importlib
import importlib.util
import struct
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from conftest import CORPUS, REPO, corpus_params

from quakemodels.kaitai import quake2_md2_layout as md2l
from quakemodels.kaitai import quake3_md3_layout as md3l
from quakemodels.kaitai.quake2_md2 import Quake2Md2
from quakemodels.kaitai.quake3_md3 import Quake3Md3
from quakemodels.ksy_numpy import layout as kl

MD2_KSY = REPO / "ksy" / "quake2_md2.ksy"
MD3_KSY = REPO / "ksy" / "quake3_md3.ksy"
GENDIR = REPO / "src" / "quakemodels" / "kaitai"
TOOL = [sys.executable, "-m", "quakemodels.ksy_numpy"]


def _module(path: Path) -> ModuleType:
    """Import a generated layout module from ``path`` under a throwaway name."""
    spec = importlib.util.spec_from_file_location(f"layout_{path.stem}_{id(path)}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _generate(ksy: Path, outdir: Path) -> ModuleType:
    """Run the generator as a function; the module it writes."""
    (written,) = kl.write_layouts([ksy], outdir)
    return _module(written)


def _generate_cli(ksy: Path, outdir: Path) -> ModuleType:
    """Run the generator as `ksy-numpy --quiet --outdir ...`; the module it writes."""
    run = subprocess.run(
        [*TOOL, "--quiet", "--outdir", str(outdir), str(ksy)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert run.stderr == ""
    assert run.stdout.startswith("ksy-numpy: 1 specs, ") and run.stdout.endswith(" 0 mismatches\n")
    return _module(outdir / f"{ksy.stem}_layout.py")


def _layout(dtype: np.dtype[Any]) -> list[tuple[str, str, int]]:
    """(name, format, offset) per field, formats as numpy spells them."""
    assert dtype.fields is not None
    return [(n, dtype.fields[n][0].str, dtype.fields[n][1]) for n in dtype.names or ()]


def _edit(src: Path, tmp_path: Path, old: str, new: str) -> Path:
    """A copy of ``src`` (same file name) with ``old`` replaced once by ``new``."""
    text = src.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    out = tmp_path / "ksy" / src.name
    out.parent.mkdir(exist_ok=True)
    out.write_text(text.replace(old, new), encoding="utf-8")
    return out


# -- sizes and layouts ------------------------------------------------------------------------


def test_md2_dtypes_have_the_spec_sizes_and_offsets() -> None:
    sizes = {
        "ROOT": 68,
        "TEX_POINT": 4,
        "TRIANGLE": 12,
        "VEC3F": 12,
        "COMPRESSED_VEC": 3,
        "VERTEX": 4,
        "FRAME_PREFIX": 40,
        "GL_VERTEX": 12,
        "GL_CMD_PREFIX": 4,
    }
    assert {n: getattr(md2l, n).itemsize for n in sizes} == sizes
    assert md2l.HEADER is md2l.ROOT
    root = _layout(md2l.ROOT)
    assert root[:3] == [("magic", "|V4", 0), ("version", "<i4", 4), ("skin_width_px", "<i4", 8)]
    assert root[-1] == ("ofs_end", "<i4", 64) and len(root) == 17
    assert [f for _, f, _ in root[1:]] == ["<i4"] * 16
    assert _layout(md2l.TRIANGLE) == [("vertex_indices", "|V6", 0), ("tex_point_indices", "|V6", 6)]
    assert md2l.TRIANGLE["vertex_indices"].shape == (3,)
    assert md2l.TRIANGLE["vertex_indices"].base == np.dtype("<i2")
    assert _layout(md2l.TEX_POINT) == [("s_px", "<i2", 0), ("t_px", "<i2", 2)]
    assert md2l.VERTEX["position"] == md2l.COMPRESSED_VEC
    assert _layout(md2l.FRAME_PREFIX)[2] == ("name", "|V16", 24)
    assert md2l.FRAME_PREFIX["scale"] == md2l.VEC3F
    assert md2l.TAIL["FRAME"] == {
        "field": "vertices",
        "offset": 40,
        "element": md2l.VERTEX,
        "repeat": "expr",
        "repeat_expr": "_root.vertices_per_frame",
    }
    assert md2l.CONTENTS == {"ROOT": {"magic": b"IDP2"}}
    assert md2l.VALID == {"ROOT": {"version": 8}}
    assert md2l.ENUMS == {"gl_primitive": {0: "triangle_strip", 1: "triangle_fan"}}
    # gl_cmds_list has no fixed-size leading field: no dtype, said in a comment
    assert not hasattr(md2l, "GL_CMDS_LIST") and not hasattr(md2l, "GL_CMDS_LIST_PREFIX")
    assert "gl_cmds_list: not fixed-size" in (GENDIR / "quake2_md2_layout.py").read_text()


def test_md3_dtypes_have_the_spec_sizes_and_offsets() -> None:
    sizes = {
        "ROOT": 108,
        "VEC3F": 12,
        "FRAME": 56,
        "TAG": 112,
        "SURFACE_PREFIX": 108,
        "SHADER": 68,
        "TRIANGLE": 12,
        "TEX_COORD": 8,
        "VERTEX": 8,
    }
    assert {n: getattr(md3l, n).itemsize for n in sizes} == sizes
    assert md3l.HEADER is md3l.ROOT
    root = _layout(md3l.ROOT)
    assert root[:4] == [
        ("magic", "|V4", 0),
        ("version", "<i4", 4),
        ("name", "|V64", 8),
        ("flags", "<i4", 72),
    ]
    assert root[-1] == ("ofs_end", "<i4", 104)
    assert [o for _, _, o in _layout(md3l.FRAME)] == [0, 12, 24, 36, 40]
    assert [o for _, _, o in _layout(md3l.TAG)] == [0, 64, 76]
    assert md3l.TAG["axis"].shape == (3,) and md3l.TAG["axis"].base == md3l.VEC3F
    assert _layout(md3l.VERTEX) == [
        ("x_compressed", "<i2", 0),
        ("y_compressed", "<i2", 2),
        ("z_compressed", "<i2", 4),
        ("normal_lng", "|u1", 6),
        ("normal_lat", "|u1", 7),
    ]
    assert _layout(md3l.SURFACE_PREFIX)[-1] == ("ofs_end", "<i4", 104)
    assert md3l.TAIL == {
        "SURFACE": {"field": "body", "offset": 108, "element": None, "size": "ofs_end - 108"}
    }
    assert md3l.CONTENTS == {"ROOT": {"magic": b"IDP3"}}
    assert md3l.VALID == {"ROOT": {"version": 15}}
    assert md3l.ENUMS == {} and md3l.FIELD_ENUMS == {}


def test_modules_export_what_they_define() -> None:
    for module in (md2l, md3l):
        public = {n for n in vars(module) if n.isupper()}
        assert set(module.__all__) == public
        dtypes = public - (kl.RESERVED - {"HEADER"})
        assert all(isinstance(getattr(module, n), np.dtype) for n in dtypes)


@pytest.mark.parametrize("spec", sorted(p.stem for p in (REPO / "ksy").glob("*.ksy")))
def test_facts_modules_hold_the_layouts_facts_without_numpy(spec: str) -> None:
    """Each ``<id>_facts.py`` (``ksy-numpy --facts``) has its layout's CONTENTS and VALID, and
    every dtype field's offset and size; importing it loads no numpy."""
    layout = importlib.import_module(f"quakemodels.kaitai.{spec}_layout")
    facts = importlib.import_module(f"quakemodels.kaitai.{spec}_facts")
    assert facts.CONTENTS == layout.CONTENTS and facts.VALID == layout.VALID
    dtypes = {
        name: value
        for name in layout.__all__
        if isinstance(value := getattr(layout, name), np.dtype) and name != "HEADER"
    }
    assert set(facts.FIELDS) == set(dtypes)
    rng = np.random.default_rng(7)
    for name, code in facts.STRUCTS.items():  # a struct format reads what the dtype reads
        dtype = dtypes[name]
        assert struct.calcsize(code) == dtype.itemsize, name
        raw = rng.integers(0, 256, dtype.itemsize, np.uint8).tobytes()
        record = np.frombuffer(raw, dtype)[0]
        flat: list[object] = []
        for field in dtype.names or ():
            value = record[field]
            if dtype.fields[field][0].base.kind == "V":
                flat.append(bytes(value))
            else:
                flat.extend(np.ravel(value).tolist())
        unpacked = list(struct.unpack(code, raw))
        assert len(unpacked) == len(flat), name
        for got, want in zip(unpacked, flat, strict=True):  # NaN is NaN
            assert got == want or (got != got and want != want), (name, got, want)
    assert facts.STRUCTS  # every spec has a record of numbers and bytes
    for name, dtype in dtypes.items():
        assert facts.FIELDS[name] == {
            field: [offset, sub.itemsize]
            for field, (sub, offset, *_) in (dtype.fields or {}).items()
        }, name
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            f"import sys, quakemodels.kaitai.{spec}_facts; sys.exit('numpy' in sys.modules)",
        ],
        check=False,
    )
    assert done.returncode == 0


def test_byte_fields_keep_every_byte() -> None:
    raw = b"IDP3" + (15).to_bytes(4, "little") + b"name\0junk".ljust(64, b"\0") + bytes(36)
    rec = np.frombuffer(raw, md3l.ROOT, count=1)[0]
    assert rec["magic"].tobytes() == md3l.CONTENTS["ROOT"]["magic"]
    assert rec["name"].tobytes() == b"name\0junk".ljust(64, b"\0")  # V keeps trailing NULs
    assert rec.tobytes() == raw
    names = np.frombuffer(raw, md3l.ROOT, count=1)["name"].view("S64")  # text view, no copy
    assert names[0] == b"name\0junk"


# -- the corpus against the Kaitai parsers ----------------------------------------------------


def _same(value: Any, expected: Any, where: str) -> None:
    """A numpy value read with a generated dtype equals what the Kaitai parser gives."""
    if isinstance(value, np.void) and value.dtype.names:
        for name in value.dtype.names:
            _same(value[name], getattr(expected, name), f"{where}.{name}")
    elif isinstance(value, np.void):
        raw = value.tobytes()
        if isinstance(expected, str):  # strz: the text up to the first NUL
            assert raw.split(b"\0", 1)[0].decode("ascii") == expected, where
        else:
            assert raw == expected, where
    elif isinstance(value, np.ndarray):
        assert len(value) == len(expected), where
        for i, (v, e) in enumerate(zip(value, expected, strict=True)):
            _same(v, e, f"{where}[{i}]")
    else:
        assert value.item() == expected, where


def _all_md3() -> list[object]:
    files = sorted(CORPUS.rglob("*.md3")) if CORPUS.is_dir() else []
    return [pytest.param(p, id=str(p.relative_to(CORPUS))) for p in files] or corpus_params("md3")


def _full_record(prefix: np.dtype[Any], tail: dict[str, Any], count: int, size: int) -> Any:
    """The facades' recipe: the prefix's fields plus ``count`` tail elements, ``size`` bytes."""
    assert prefix.fields is not None
    names = [*prefix.names, tail["field"]]
    fields = [prefix.fields[n] for n in prefix.names or ()]
    return np.dtype(
        {
            "names": names,
            "formats": [f[0] for f in fields] + [(tail["element"], (count,))],
            "offsets": [f[1] for f in fields] + [tail["offset"]],
            "itemsize": size,
        }
    )


@pytest.mark.parametrize("path", corpus_params("md2"))
def test_md2_corpus_reads_as_the_kaitai_parser(path: Path) -> None:
    data = path.read_bytes()
    ks = Quake2Md2.from_bytes(data)
    (head,) = np.frombuffer(data, md2l.ROOT, count=1)
    _same(head, ks, "header")
    tex = np.frombuffer(data, md2l.TEX_POINT, ks.num_tex_coords, ks.ofs_tex_coords)
    _same(tex, ks.tex_coords, "tex_coords")
    tris = np.frombuffer(data, md2l.TRIANGLE, ks.num_triangles, ks.ofs_triangles)
    _same(tris, ks.triangles, "triangles")
    frame = _full_record(
        md2l.FRAME_PREFIX, md2l.TAIL["FRAME"], ks.vertices_per_frame, ks.bytes_per_frame
    )
    frames = np.frombuffer(data, frame, ks.num_frames, ks.ofs_frames)
    for i in sorted({0, ks.num_frames // 2, ks.num_frames - 1}):
        _same(frames[i], ks.frames[i], f"frames[{i}]")
    # a frame's vertices as the (V,4) u1 block the facade uses: same bytes, no copy
    assert frames["vertices"].view("u1").shape == (ks.num_frames, ks.vertices_per_frame * 4)


@pytest.mark.parametrize("path", _all_md3())
def test_md3_corpus_reads_as_the_kaitai_parser(path: Path) -> None:
    data = path.read_bytes()
    ks = Quake3Md3.from_bytes(data)
    (head,) = np.frombuffer(data, md3l.ROOT, count=1)
    _same(head, ks, "header")
    _same(np.frombuffer(data, md3l.FRAME, ks.num_frames, ks.ofs_frames), ks.frames, "frames")
    tags = np.frombuffer(data, md3l.TAG, ks.num_frames * ks.num_tags, ks.ofs_tags)
    _same(tags, ks.tags, "tags")
    base = ks.ofs_surfaces  # surfaces are chained: each starts ofs_end after the previous
    starts: dict[int, int] = {}
    for k, surf in enumerate(ks.surfaces):
        (sh,) = np.frombuffer(data, md3l.SURFACE_PREFIX, 1, base)
        _same(sh, surf, f"surfaces[{k}]")
        at = base + md3l.TAIL["SURFACE"]["offset"]
        assert surf._raw_body == data[at : base + surf.ofs_end]  # the body substream
        assert md3l.INSTANCES["SURFACE"]["shaders"]["io"] == "body._io"
        shaders = np.frombuffer(data, md3l.SHADER, surf.num_shaders, base + surf.ofs_shaders)
        _same(shaders, surf.shaders, f"surfaces[{k}].shaders")
        tris = np.frombuffer(data, md3l.TRIANGLE, surf.num_triangles, base + surf.ofs_triangles)
        _same(tris, surf.triangles, f"surfaces[{k}].triangles")
        st = np.frombuffer(data, md3l.TEX_COORD, surf.num_vertices, base + surf.ofs_tex_coords)
        _same(st, surf.tex_coords, f"surfaces[{k}].tex_coords")
        starts[id(surf)] = base
        base += surf.ofs_end
    # every vertex of every frame of the smallest surface (the Kaitai parser is slow at these)
    surf = min(ks.surfaces, key=lambda s: s.num_frames * s.num_vertices, default=None)
    if surf is not None:
        n = surf.num_frames * surf.num_vertices
        verts = np.frombuffer(data, md3l.VERTEX, n, starts[id(surf)] + surf.ofs_vertices)
        _same(verts, surf.vertices, f"{surf.name}.vertices")


# -- spec edits reach the dtypes --------------------------------------------------------------


@pytest.mark.parametrize("runner", [_generate, _generate_cli], ids=["function", "cli"])
def test_a_changed_field_type_reaches_the_dtype(tmp_path: Path, runner: Any) -> None:
    edited = _edit(
        MD2_KSY,
        tmp_path,
        "- id: s_px\n        -orig-id: s\n        type: s2\n",
        "- id: s_px\n        -orig-id: s\n        type: u2\n",
    )
    mod = runner(edited, tmp_path)
    assert _layout(mod.TEX_POINT) == [("s_px", "<u2", 0), ("t_px", "<i2", 2)]
    assert mod.TEX_POINT.fields["s_px"][0].kind == "u"
    assert mod.ROOT == md2l.ROOT and mod.FRAME_PREFIX == md2l.FRAME_PREFIX

    edited = _edit(
        MD2_KSY, tmp_path, "- id: num_skins\n    type: s4", "- id: num_skins\n    type: u8"
    )
    mod = runner(edited, tmp_path)
    assert mod.ROOT.itemsize == 72
    assert _layout(mod.ROOT)[5] == ("num_skins", "<u8", 20)
    assert _layout(mod.ROOT)[6] == ("vertices_per_frame", "<i4", 28)  # the rest moves by 4
    assert _layout(mod.ROOT)[-1] == ("ofs_end", "<i4", 68)


@pytest.mark.parametrize("runner", [_generate, _generate_cli], ids=["function", "cli"])
def test_a_changed_size_reaches_the_prefix_and_its_tail(tmp_path: Path, runner: Any) -> None:
    old = "      - id: name\n        size: 16\n        type: strz\n        encoding: ISO-8859-1\n"
    old += "      - id: vertices"
    edited = _edit(MD2_KSY, tmp_path, old, old.replace("size: 16", "size: 20"))
    mod = runner(edited, tmp_path)
    assert mod.FRAME_PREFIX.itemsize == 44
    assert _layout(mod.FRAME_PREFIX)[2] == ("name", "|V20", 24)
    assert mod.TAIL["FRAME"]["offset"] == 44

    edited = _edit(
        MD3_KSY, tmp_path, "- id: origin\n        type: vec3f", "- id: origin\n        type: f8"
    )
    mod = runner(edited, tmp_path)
    assert _layout(mod.TAG) == [("name", "|V64", 0), ("origin", "<f8", 64), ("axis", "|V36", 72)]
    assert mod.TAG.itemsize == 108


def test_endianness_and_contents_forms_follow_the_spec(tmp_path: Path) -> None:
    text = MD3_KSY.read_text(encoding="utf-8").replace("  endian: le\n", "  endian: be\n", 1)
    text = text.replace("contents: IDP3", "contents: [0x49, 'DP', 51]")
    text = text.replace(
        "- id: normal_lng\n        -orig-id: normal\n        type: u1",
        "- id: normal_lng\n        -orig-id: normal\n        type: u2le",
    )
    spec = tmp_path / "quake3_md3.ksy"
    spec.write_text(text, encoding="utf-8")
    mod = _generate(spec, tmp_path)
    assert _layout(mod.ROOT)[1] == ("version", ">i4", 4)
    assert mod.VEC3F.fields["x"][0].str == ">f4"
    assert _layout(mod.VERTEX)[3:] == [("normal_lng", "<u2", 6), ("normal_lat", "|u1", 8)]
    assert mod.CONTENTS == {"ROOT": {"magic": b"IDP3"}}


def test_a_comment_edit_gives_the_same_bytes(tmp_path: Path) -> None:
    edited = _edit(MD2_KSY, tmp_path, "    # (a pool of `int`s) => hence `s4`\n", "    # changed\n")
    _generate(edited, tmp_path)
    _generate_cli(edited, tmp_path / "ksy")
    committed = (GENDIR / "quake2_md2_layout.py").read_bytes()
    assert (tmp_path / "quake2_md2_layout.py").read_bytes() == committed
    assert (tmp_path / "ksy" / "quake2_md2_layout.py").read_bytes() == committed
    name, source = kl.generate(MD3_KSY)
    assert name == "quake3_md3_layout.py"
    assert source.encode() == (GENDIR / name).read_bytes() == kl.generate(MD3_KSY)[1].encode()


# -- unsupported constructs and malformed specs -----------------------------------------------

ODD_SPEC = """\
meta:
  id: odd
  endian: le
seq:
  - id: magic
    contents: [1, 2]
  - id: count
    type: u4
    valid:
      min: 1
      max: 9
  - id: kind
    type: u1
    enum: kinds
  - id: items
    type: fixed
    repeat: expr
    repeat-expr: count
types:
  fixed:
    seq:
      - id: a
        type: s2
      - id: b
        type: inner::leaf
    types:
      inner:
        seq:
          - id: z
            type: u1
        types:
          leaf:
            seq:
              - id: w
                type: f8be
  conditional:
    seq:
      - id: a
        type: u4
      - id: b
        type: u4
        if: a != 0
  until:
    seq:
      - id: items
        type: u1
        repeat: until
        repeat-until: _ == 0
  switched:
    seq:
      - id: code
        type:
          switch-on: 1
          cases:
            1: u1
  bits:
    seq:
      - id: flags
        type: b3
  zipped:
    seq:
      - id: body
        size: 8
        process: zlib
  eos:
    seq:
      - id: rest
        size-eos: true
  recursive:
    seq:
      - id: n
        type: u1
      - id: next
        type: recursive
  uses_variable:
    seq:
      - id: c
        type: conditional
  calc:
    meta:
      endian:
        switch-on: _root.kind
        cases:
          1: le
          2: be
    seq:
      - id: one
        type: u1
      - id: two
        type: u2
enums:
  kinds:
    1: one
    2:
      id: two
      doc: the second
"""


def test_unsupported_constructs_skip_the_type_without_failing(tmp_path: Path) -> None:
    spec = tmp_path / "odd.ksy"
    spec.write_text(ODD_SPEC, encoding="utf-8")
    mod = _generate(spec, tmp_path)
    assert set(mod.__all__) == {
        "ROOT_PREFIX",
        "HEADER",
        "FIXED",
        "FIXED__INNER",
        "FIXED__INNER__LEAF",
        "CONDITIONAL_PREFIX",
        "RECURSIVE_PREFIX",
        "CALC_PREFIX",
        *kl.RESERVED - {"HEADER"},
    }
    assert _layout(mod.ROOT_PREFIX) == [
        ("magic", "|V2", 0),
        ("count", "<u4", 2),
        ("kind", "|u1", 6),
    ]
    assert mod.HEADER is mod.ROOT_PREFIX
    assert _layout(mod.FIXED) == [("a", "<i2", 0), ("b", "|V8", 2)]
    assert mod.FIXED["b"] == mod.FIXED__INNER__LEAF and mod.FIXED__INNER__LEAF["w"].str == ">f8"
    assert mod.TAIL["ROOT"] == {
        "field": "items",
        "offset": 7,
        "element": mod.FIXED,
        "repeat": "expr",
        "repeat_expr": "count",
    }
    assert mod.TAIL["CONDITIONAL"]["if"] == "a != 0"
    assert mod.TAIL["CONDITIONAL"]["element"] == np.dtype("<u4")
    assert mod.TAIL["RECURSIVE"]["element"] is None
    assert _layout(mod.CALC_PREFIX) == [("one", "|u1", 0)]
    assert mod.CONTENTS == {"ROOT": {"magic": b"\x01\x02"}}
    assert mod.VALID == {"ROOT": {"count": {"min": 1, "max": 9}}}
    assert mod.ENUMS == {"kinds": {1: "one", 2: "two"}}
    assert mod.FIELD_ENUMS == {"ROOT": {"kind": "kinds"}}
    text = (tmp_path / "odd_layout.py").read_text()
    for line in (
        "#   until: not fixed-size (items: repeat: until)",
        "#   switched: not fixed-size (code: switch-on type)",
        "#   bits: not fixed-size (flags: bit fields of 3 bits end inside a byte)",
        "#   zipped: not fixed-size (body: process not laid out)",
        "#   eos: not fixed-size (rest: size-eos not laid out)",
        "#   uses_variable: not fixed-size (c: conditional is not fixed-size)",
    ):
        assert line in text


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("  id: odd\n", "  title: no id\n", "odd.ksy: meta/id is missing"),
        (
            "type: inner::leaf",
            "type: inner::nope",
            "type fixed, field b: unknown type 'inner::nope'",
        ),
        (
            "      - id: w\n                type: f8be",
            "      - id: w\n                type: f8",
            "",
        ),
        ("  endian: le\n", "", "field count: u4 needs an endianness"),
        (
            "    seq:\n      - id: flags\n        type: b3\n",
            "    seq: 3\n",
            "type bits: seq must be a list",
        ),
        (
            "      - id: flags\n        type: b3\n",
            "      - 7\n",
            "type bits: seq item 0 is not a mapping",
        ),
        ("        repeat: until\n", "        repeat: sometimes\n", "repeat 'sometimes' is not"),
        ("  endian: le\n", "  endian: middle\n", "meta/endian 'middle' is not le or be"),
        (
            "      - id: a\n        type: s2\n",
            "      - id: b\n        type: s2\n",
            "id is used twice",
        ),
        (
            "seq:\n  - id: magic",
            "seq:\n  - {id: x}\n  - id: magic",
            "field x: no type",
        ),
        ("enums:\n  kinds:\n", "enums:\n  kinds: 3\n  other:\n", "enum 'kinds' must be a mapping"),
        ("  id: odd\n", "  id: [odd\n", "odd.ksy: not valid YAML"),
    ],
)
def test_malformed_specs_name_the_file_type_and_field(
    tmp_path: Path, old: str, new: str, message: str
) -> None:
    assert ODD_SPEC.count(old) == 1, old
    spec = tmp_path / "odd.ksy"
    spec.write_text(ODD_SPEC.replace(old, new), encoding="utf-8")
    if not message:  # f8 with the spec's endianness is fine: not every edit is an error
        assert _generate(spec, tmp_path).FIXED__INNER__LEAF["w"].str == "<f8"
        return
    with pytest.raises(kl.KsyError) as err:
        kl.generate(spec)
    assert message in str(err.value)
    assert str(spec) in str(err.value)
    run = subprocess.run(
        [*TOOL, "--outdir", str(tmp_path), str(spec)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 1 and run.stderr == f"ksy-numpy: {err.value}\n"
    assert run.stdout == "ksy-numpy: 1 specs, 0 types, 0 accepted, 0 mismatches\n"
    assert not (tmp_path / "odd_layout.py").exists()
