"""MD5's fast tokenizers (``formats/md5/fast.py``: the bytes one, and the compiled scanner
``_scan.c`` where it is built) give the plain tokenizer's tokens and, through the same parser,
the same files value for value, on every corpus file, on the hostile inputs and on random
damage, where they raise the same error at the same place."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import md5builder
import numpy as np
import pytest
from conftest import CORPUS, IN_CI, no_corpus
from test_md5 import HOSTILE_ANIM, HOSTILE_MESH, _mesh_lines

from quakemodels.errors import TextFormatError
from quakemodels.formats.md5 import reader
from quakemodels.formats.md5.fast import SCAN, CompiledTokens, Declined, FastTokens
from quakemodels.formats.md5.files import is_anim
from quakemodels.formats.md5.tokens import Tokens

CORPUS_FILES = sorted((CORPUS / "md5").glob("*/*.md5*"))


def _same(a: Any, b: Any, where: str = "") -> None:
    """Equal field for field, arrays bit for bit with their dtype and shape."""
    if isinstance(a, np.ndarray):
        assert isinstance(b, np.ndarray), where
        assert (a.dtype, a.shape) == (b.dtype, b.shape), where
        assert a.tobytes() == b.tobytes(), where
    elif hasattr(a, "__dataclass_fields__"):
        assert type(a) is type(b), where
        for name in a.__dataclass_fields__:
            _same(getattr(a, name), getattr(b, name), f"{where}.{name}")
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _same(x, y, f"{where}[{i}]")
    else:
        assert a == b, where


def _parse(data: bytes, plain: bool, compiled: bool = True) -> Any:
    if is_anim(data):
        return reader.read_anim(data, "x", plain=plain, compiled=compiled)
    return reader._parse_mesh(data, "x", plain=plain, compiled=compiled)


def _compiled(data: bytes) -> Any:
    """The parse through the compiled tokens alone: the file, or "declined" where they hand
    it back, or None where the scanner refuses it (or is not built)."""
    tok = CompiledTokens.of(data, "x")
    if tok is None:
        return None
    try:
        if is_anim(data):
            return reader._anim_file(tok, None)
        return reader._mesh_file(tok)
    except Declined:
        return "declined"


def _outcome(parse: Callable[[], Any]) -> Any:
    try:
        return parse()
    except TextFormatError as e:
        return (str(e), e.field, e.offset, e.line, e.column)


def _check(data: bytes) -> None:
    """The compiled, the fast and the plain parse of ``data`` give the same file or the same
    error; the compiled tokens alone give that file or hand it back, never another file."""
    plain = _outcome(lambda: _parse(data, True))
    _same(_outcome(lambda: _parse(data, False)), plain)
    _same(_outcome(lambda: _parse(data, False, compiled=False)), plain)
    alone = _compiled(data)
    if alone is not None and alone != "declined":
        _same(alone, plain)


def _needs_scan() -> None:
    if SCAN is None:
        if IN_CI and not os.environ.get("QUAKEMODELS_PURE_PYTHON"):
            pytest.fail("CI=true but the compiled MD5 scanner (_scan.c) is not built")
        pytest.skip(
            "the compiled MD5 scanner (_scan.c) is not in use (not built, or"
            " QUAKEMODELS_PURE_PYTHON set)"
        )


@pytest.mark.parametrize("path", CORPUS_FILES, ids=[p.name for p in CORPUS_FILES])
def test_corpus_tokens_and_files_equal_the_plain_path(path: Path) -> None:
    data = path.read_bytes()
    fast = FastTokens.of(data, path.name)
    assert fast is not None  # the corpus takes the fast path
    plain = Tokens(data, path.name)
    assert fast.words == [w.encode("latin-1") for w in plain.words]
    assert fast.comment_names == plain.comment_names
    parsed = _parse(data, False)
    _same(parsed, _parse(data, True))
    _same(_parse(data, False, compiled=False), parsed)
    assert parsed is not None


@pytest.mark.parametrize("path", CORPUS_FILES, ids=[p.name for p in CORPUS_FILES])
def test_corpus_takes_the_compiled_path_to_the_plain_file(path: Path) -> None:
    """Every corpus file is read by the compiled tokens to the end (none declined), with
    the plain tokenizer's tokens, kinds and values, and parsed to the plain path's file."""
    _needs_scan()
    data = path.read_bytes()
    tok = CompiledTokens.of(data, path.name)
    assert tok is not None
    plain = Tokens(data, path.name)
    assert list(tok.words) == [w.encode("latin-1") for w in plain.words]
    assert tok.comment_names == plain.comment_names
    assert tok.comment_names or is_anim(data)  # the corpus names its meshes in comments
    numbers = (tok.kinds == 1) | (tok.kinds == 2)
    as_floats = [float(w) for w, n in zip(plain.words, numbers.tolist(), strict=True) if n]
    assert tok.values[numbers].tolist() == as_floats
    alone = _compiled(data)
    assert alone not in (None, "declined")
    _same(alone, _parse(data, True))


# what the scanner reads of a number: canonical integers (kind 2) exact, other numbers
# (kind 1) as float() does, by Clinger's fast path or dtoa; anything else a word (kind 0)
NUMBERS = {
    b"0": (2, 0.0),
    b"-7": (2, -7.0),
    b"123456789012345": (2, 123456789012345.0),
    b"1234567890123456": (1, 1234567890123456.0),
    b"9007199254740993": (1, 9007199254740992.0),
    b"-0": (1, -0.0),
    b"+5": (1, 5.0),
    b"05": (1, 5.0),
    b"-0.500000": (1, -0.5),
    b"0.1": (1, 0.1),
    b"1.": (1, 1.0),
    b".5": (1, 0.5),
    b"1e5": (1, 1e5),
    b"2.5E-3": (1, 2.5e-3),
    b"1e999": (1, float("inf")),
    b"0.0000000000000000000000001": (1, 1e-25),
    b"3.14159265358979323846264338327950288": (1, 3.141592653589793),
    b"1e": (0, 0.0),
    b".": (0, 0.0),
    b"-": (0, 0.0),
    b"1_0": (0, 0.0),
    b"inf": (0, 0.0),
    b"nan": (0, 0.0),
    b"0x10": (0, 0.0),
    b"1.2.3": (0, 0.0),
    b"1/2": (0, 0.0),
    b"1\x00": (0, 0.0),
}


@pytest.mark.parametrize("word", sorted(NUMBERS), ids=[w.decode() for w in sorted(NUMBERS)])
def test_scanner_reads_numbers_as_float_does(word: bytes) -> None:
    _needs_scan()
    assert SCAN is not None
    found = SCAN(b"( " + word + b" )")
    assert found is not None
    kinds = np.frombuffer(found[2], np.uint8).tolist()
    values = np.frombuffer(found[3], np.float64)
    assert kinds == [3, NUMBERS[word][0], 4]
    value = NUMBERS[word][1]
    assert values[1] == value and np.signbit(values[1]) == np.signbit(value)
    if kinds[1]:
        assert values[1] == float(word)


def test_scanner_hands_back_what_it_cannot_read() -> None:
    """An unclosed string or comment, the bytes str.split takes for white space and
    bytes.split does not, more than a token per 3 bytes or a ``// meshes:`` comment per 256
    (past 16) are handed back (None) for the Python tokenizers to read."""
    _needs_scan()
    assert SCAN is not None
    for data in (b'a "open', b'a "open\n" b', b"a /* open", b"a\xa0b", b"a\x1cb", b"a\x85b"):
        assert SCAN(data) is None, data
    assert SCAN(b"(" * 3000) is None and SCAN(b"( " * 1000) is None
    assert SCAN(b"(  " * 1000) is not None  # a token per 3 bytes fits
    assert SCAN(b"//meshes: a\n" * 40) is None
    assert SCAN(b"//meshes: a\n" * 16) is not None
    # a mesh written densely (every number one digit) parses as the plain path does
    mesh = md5builder.two_bone()[0]
    dense = re.sub(rb"-?[0-9]+\.[0-9]+", b"0", mesh).replace(b"\t", b"")
    _check(dense)
    empty = SCAN(b"")
    assert empty is not None and all(part == b"" for part in empty)
    starts, ends, kinds, _, named = SCAN(b'x//meshes: gl\n"s" /* c */ {\x00}') or ()
    assert np.frombuffer(starts, np.int64).tolist() == [0, 14, 26, 27, 28]
    assert np.frombuffer(ends, np.int64).tolist() == [1, 17, 27, 28, 29]
    assert np.frombuffer(kinds, np.uint8).tolist() == [0, 7, 5, 0, 6]
    assert np.frombuffer(named, np.int64).tolist() == [1, 1, 13]


def test_corpus_is_present() -> None:
    if not CORPUS_FILES:
        no_corpus(CORPUS / "md5")
    assert len(CORPUS_FILES) == 9


@pytest.mark.parametrize("case", sorted(HOSTILE_MESH))
def test_hostile_meshes_raise_the_same_error(case: str) -> None:
    make, _ = HOSTILE_MESH[case]
    data = make(_mesh_lines())
    with pytest.raises(TextFormatError):
        _parse(data, False)
    _check(data)


@pytest.mark.parametrize("case", sorted(HOSTILE_ANIM))
def test_hostile_anims_raise_the_same_error(case: str) -> None:
    find, replace, _ = HOSTILE_ANIM[case]
    data = md5builder.two_bone()[1].decode().replace(find, replace, 1).encode()
    with pytest.raises(TextFormatError):
        _parse(data, False)
    _check(data)


# cells the fast path leaves to the plain conversion (a sign, a leading zero, an underscore,
# an exponent, a word) or refuses (a loose space byte), in every kind of column
ODD = {
    "signed index": ("tri 1 0 3 2", "tri 1 +0 3 2"),
    "leading zero": ("tri 1 0 3 2", "tri 1 00 3 2"),
    "index past the kept texts": ("tri 1 0 3 2", "tri 1 0 3 70000"),
    "underscore int": ("tri 1 0 3 2", "tri 1 0 3 0_2"),
    "exponent": ("weight 0 0 1.000000", "weight 0 0 1e0"),
    "underscore float": ("weight 0 0 1.000000", "weight 0 0 1_0.5"),
    "bare dot": ("weight 0 0 1.000000", "weight 0 0 1."),
    "joint parent sign": ('"elbow"\t0', '"elbow"\t+0'),
    "unquoted joint": ('"elbow"\t0', "elbow\t0"),
    "loose space": ("tri 1 0 3 2", "tri 1 0\xa03 2"),
    "nbsp in a name": ('"elbow"', '"el\xa0bow"'),
    "row with a sign": ("vert 2 ", "vert +2 "),
    "paren in a name": ('"elbow"\t0', "(elbow\t0"),
    "comment in a table": ("tri 1 0 3 2", "tri 1 0 /* x */ 3 2"),
}


@pytest.mark.parametrize("case", sorted(ODD))
def test_odd_cells_parse_as_the_plain_path(case: str) -> None:
    find, replace = ODD[case]
    text = "\n".join(_mesh_lines())
    assert find in text
    data = text.replace(find, replace, 1).encode("latin-1")
    _check(data)
    if b"\xa0" in data:
        assert FastTokens.of(data, "x") is None  # bytes.split would not split there


def test_random_damage_gives_the_same_file_or_error() -> None:
    mesh, anim = md5builder.two_bone()
    rng = np.random.default_rng(38)
    for data in (mesh, anim):
        for cut in range(0, len(data), 11):
            _check(data[:cut])
        for _ in range(300):
            b = bytearray(data)
            for i in rng.integers(0, len(b), 3):
                b[i] = int(rng.choice([int(rng.integers(0, 256)), *b' \n"/(){}-.0123456789']))
            _check(bytes(b))
