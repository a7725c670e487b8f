"""A deterministic slice of fuzz/archives.py: zip bombs, lying sizes, symlink entries, huge
and overlapping directories and flipped archives, end to end (open, list, stream, extract,
load). Nothing but ModelFormatError escapes, no numpy warning is raised, the traced memory
budget holds and a failed extraction leaves the folder as it was (fuzz/README.md)."""

from __future__ import annotations

import random
import sys

import pytest
from conftest import REPO

sys.path.insert(0, str(REPO / "fuzz"))
import archives


@pytest.mark.parametrize("seed", [0, 1])
def test_archive_cases_hold_the_invariants(seed: int) -> None:
    labels = []
    for label, data in archives.cases(seed, 15):
        archives.run_case(label, data)
        labels.append(label)
    # every generator had its turn
    for kind in ("pk3 bomb", "symlink", "lying", "flips"):
        assert any(kind in label for label in labels), kind


def test_the_generators_reach_every_hostile_shape() -> None:
    rng = random.Random(5)
    labels = [archives.GENERATORS[k % 5](rng)[0] for k in range(200)]
    assert any("declared 1000 " in x for x in labels)  # a bomb lying about its size
    assert any("bomb 100000000 declared 100000000" in x for x in labels)  # an honest bomb
    assert any("symlink link ->" in x for x in labels)
    assert any("entries sharing one local header" in x for x in labels)
    assert any(x.startswith("pak overlapping") for x in labels)
    assert any(x.startswith("pak header") for x in labels)
    assert any(x.startswith(("pak 5", "pk3 5", "pk3 2")) and "entries" in x for x in labels)


def test_the_harness_catches_a_broken_invariant(monkeypatch: pytest.MonkeyPatch) -> None:
    """The budget and the escape check are live: a lowered budget and a non-format error
    both fail the case."""
    _, data = archives.bomb_case(random.Random(0))
    monkeypatch.setattr(archives, "MEMORY_BUDGET", 0)
    with pytest.raises(AssertionError, match="over"):
        archives.run_case("bomb", data)
    monkeypatch.undo()
    from quakemodels.archive.base import Archive

    def boom(self: Archive, entry: object, n: int = 16) -> bytes:
        raise MemoryError("simulated")

    monkeypatch.setattr(Archive, "read_head", boom)
    flipped = archives.pk3_bytes([("a.txt", b"a")])
    with pytest.raises(MemoryError):
        archives.run_case("escape", flipped)


def test_listing_a_large_directory_stays_within_its_own_budget() -> None:
    """Opening and listing 100,000 entries holds arrays, not an object per entry: within the
    fuzzer's 640 bytes an entry (an Entry object per entry took 1.4 KB), and well over 150
    (so the bound is not loose enough to pass anything)."""
    files = [(f"models/m{i}/skin{i}.pcx", b"x" * (i % 7)) for i in range(100_000)]
    for data in (archives.pak_bytes(files), archives.pk3_bytes(files, method=0)):
        peak, entries = archives.listing(data)
        assert entries == 100_000
        assert peak <= archives.DIRECTORY_BUDGET + archives.DIRECTORY_BYTES_PER_ENTRY * entries
        assert peak > archives.DIRECTORY_BUDGET + 150 * entries
