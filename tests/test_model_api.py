"""One model API over every mesh format: ``mesh(frame)`` beside ``meshes(frame)``, skin
pictures as ``skin_images``, zero-frame files refused at load, and the magic error naming the
file's own magic (issue 37, item 2)."""

from __future__ import annotations

from pathlib import Path

import md2builder
import mdlbuilder
import pytest

import quakemodels
from quakemodels import BadMagicError, Md2, Md3


def test_the_magic_error_names_the_files_magic_and_the_expected_one(tmp_path: Path) -> None:
    path = tmp_path / "x.md2"
    path.write_bytes(md2builder.build())
    with pytest.raises(BadMagicError) as caught:
        quakemodels.load(path, Md3)
    assert str(caught.value) == (
        f"{path} is an MD2 file (magic=b'IDP2' at offset 0), not MD3 (expected magic b'IDP3')"
    )
    assert (caught.value.field, caught.value.offset) == ("magic", 0)
    # an MDL asked for as MD2: the file's IDPO, then the IDP2 asked for
    with pytest.raises(BadMagicError) as caught:
        quakemodels.load(mdlbuilder.build(), Md2)
    assert str(caught.value) == (
        "the data is an MDL file (magic=b'IDPO' at offset 0), not MD2 (expected magic b'IDP2')"
    )
    # no format's magic: the bytes found, and the magic asked for
    with pytest.raises(BadMagicError) as caught:
        quakemodels.load(b"RIFF" + bytes(200), Md2)
    assert str(caught.value) == (
        "the data is no known format (magic=b'RIFF' at offset 0), not MD2 (expected magic b'IDP2')"
    )
