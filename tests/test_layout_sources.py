"""The formats restate no byte layout by hand: every dtype they read or write comes from the
generated ``*_layout.py`` (through their ``layout.py``), so a type changed in the ksy reaches
the variable-length walks too (MDL skin and frame groups, MD3 surfaces, MD2 GL commands)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

FORMATS = Path(__file__).resolve().parent.parent / "src" / "quakemodels" / "formats"
# a numpy type string such as "<f4" or "<i2", or a little/big-endian integer read by hand
BY_HAND = re.compile(r"""["']<[fiu][1248]["']|int\.from_bytes""")


# Every format package's modules (formats/contract.py is the contract, not a format: its
# version test reads the declared (offset, size, value) of any format)
@pytest.mark.parametrize(
    "path", sorted(FORMATS.glob("*/**/*.py")), ids=lambda p: str(p.relative_to(FORMATS))
)
def test_no_literal_dtype_in_a_format(path: Path) -> None:
    hits = [
        f"{path.name}:{number}: {line.strip()}"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if BY_HAND.search(line)
    ]
    assert not hits, "layout by hand (take it from layout.py):\n" + "\n".join(hits)


def test_the_pattern_finds_what_it_forbids() -> None:
    """The check is live: it matches the forms the readers used to hold."""
    for line in (
        'np.frombuffer(d, "<i2", n, at)',
        "x.astype('<f4')",
        "int.from_bytes(b, 'little')",
    ):
        assert BY_HAND.search(line)
    assert not BY_HAND.search("np.frombuffer(d, VERTEX_WORD, n, at)")
