"""``load(path)`` of a plain file costs its read: no player-folder, archive or game-folder
probe runs before it (issue 28: those probes made load(path) 1.5x assimp's import)."""

from __future__ import annotations

from pathlib import Path

import pytest
from md2builder import build

import quakemodels
from quakemodels import registry
from quakemodels.archive import vpath


def _refuse(*args: object, **kwargs: object) -> None:
    raise AssertionError(f"probed for a plain file: {args}")


def test_a_plain_file_is_read_and_dispatched_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "x.md2"
    path.write_bytes(build())
    for probe in ("split_archive_path", "game_found", "_open_folder", "folder_format"):
        monkeypatch.setattr(registry, probe, _refuse)
    for probe in ("split_archive_path", "game_roots", "shared_gamefs", "game_found"):
        monkeypatch.setattr(vpath, probe, _refuse)
    model = quakemodels.load(path)
    assert model.name == str(path) and model.num_frames == 2
    assert quakemodels.load(str(path)).mesh(0).positions.shape == (4, 3)


def test_other_paths_still_take_the_probes(tmp_path: Path) -> None:
    """A folder is still a player folder, a missing path still the OSError, bytes of no
    format still the magic error naming them."""
    with pytest.raises(quakemodels.errors.PlayerFolderError):
        quakemodels.load(tmp_path)
    with pytest.raises(FileNotFoundError):
        quakemodels.load(tmp_path / "missing.md2")
    junk = tmp_path / "junk.md2"
    junk.write_bytes(b"JUNK" + bytes(100))
    with pytest.raises(quakemodels.errors.BadMagicError):
        quakemodels.load(junk)
