"""MD5's fast tokenizer (``formats/md5/fast.py``) gives the plain tokenizer's tokens and, through
the same parser, the same files value for value, on every corpus file, on the hostile inputs
and on random damage, where it raises the same error at the same place."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import md5builder
import numpy as np
import pytest
from conftest import CORPUS, no_corpus
from test_md5 import HOSTILE_ANIM, HOSTILE_MESH, _mesh_lines

from quakemodels.errors import TextFormatError
from quakemodels.formats.md5 import reader
from quakemodels.formats.md5.fast import FastTokens
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


def _parse(data: bytes, plain: bool) -> Any:
    if is_anim(data):
        return reader.read_anim(data, "x", plain=plain)
    return reader._parse_mesh(data, "x", plain=plain)


def _outcome(parse: Callable[[], Any]) -> Any:
    try:
        return parse()
    except TextFormatError as e:
        return (str(e), e.field, e.offset, e.line, e.column)


def _check(data: bytes) -> None:
    """The fast and the plain parse of ``data`` give the same file or the same error."""
    fast, plain = _outcome(lambda: _parse(data, False)), _outcome(lambda: _parse(data, True))
    _same(fast, plain)


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
    assert parsed is not None


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
