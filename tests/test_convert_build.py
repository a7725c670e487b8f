"""Convert is read → neutral source → the target format's ``build`` service → ``to_bytes`` →
one atomic write (issue 28 item 2): the CLI and the registry's build services agree byte for
byte, a target without ``build`` says so in one line, and a failed write leaves nothing."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from conftest import CORPUS, corpus_files, no_corpus
from PIL import Image

from quakemodels.cli import convert as cli_convert
from quakemodels.cli import main
from quakemodels.formats import FORMATS
from quakemodels.formats.contract import Format, Kind, Services
from quakemodels.formats.md2 import Md2
from quakemodels.formats.mdl import Mdl
from quakemodels.interchange.convert import BuildOptions, Built, OptionError, Source
from quakemodels.registry import by_name, load, model_source

SAMPLE = Path(__file__).resolve().parents[1] / "src" / "quakemodels" / "samples" / "quakeguy.md2"


def _source(path: Path) -> Source:
    model = load(path)
    return model_source(path, model)


def test_every_mesh_and_folder_format_declares_build() -> None:
    builders = {f.name for f in FORMATS if f.services.build is not None}
    assert {"md2", "md3", "mdl", "q3player"} <= builders
    for name in ("md2", "md3", "mdl", "q3player"):
        assert callable(by_name(name).build)


@pytest.mark.parametrize(("target", "suffix"), [("mdl", ".mdl"), ("md3", ".md3")])
def test_cli_writes_what_the_build_service_returns(
    target: str, suffix: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The CLI adds nothing between the format's build and the file: the same bytes, the
    same summary line."""
    out = tmp_path / f"guy{suffix}"
    built = by_name(target).build(_source(SAMPLE), BuildOptions(out=out))
    assert isinstance(built, Built)
    # an MDL embeds the skin; an MD3 names it, and its picture goes beside it
    assert sorted(built.files) == ([] if target == "mdl" else ["quakeguy.png"])
    assert main(["convert", str(SAMPLE), str(out)]) == 0
    assert out.read_bytes() == built.model.to_bytes()
    for name, data in built.files.items():
        assert (tmp_path / name).read_bytes() == data
    assert capsys.readouterr().out.strip() == built.summary
    back = load(out)
    assert back.num_frames == Md2.from_file(SAMPLE).num_frames == 198
    assert built.summary.startswith(f"{out}: 198 ")


def test_md2_to_md2_is_an_exact_copy_through_build(tmp_path: Path) -> None:
    built = by_name("md2").build(_source(SAMPLE), BuildOptions(out=tmp_path / "a.md2"))
    assert built.model.to_bytes() == SAMPLE.read_bytes()
    assert built.summary == f"{tmp_path / 'a.md2'}: a copy of {SAMPLE} (198 frames)"


def test_a_player_target_refuses_a_model_as_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(OptionError, match=r"^→ a player folder takes one player \.glb/\.gltf$"):
        by_name("q3player").build(_source(SAMPLE), BuildOptions(out=tmp_path / "p"))


def test_a_target_without_build_is_one_line_exit_2(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A registered format that offers no "build" (a sprite before it can be built) is picked
    by its suffix and refused in one line, exit 2, nothing written."""
    fake = Format(
        name="flat",
        title="Flat test image",
        kind=Kind.IMAGE,
        package="quakemodels.formats.md2",
        magic=b"FLAT",
        suffixes=(".flat",),
        services=Services(model="model:Md2"),
    )
    monkeypatch.setattr(cli_convert, "FORMATS", (*FORMATS, fake), raising=False)
    out = tmp_path / "guy.flat"
    assert main(["convert", str(SAMPLE), str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        "quakemodels convert: error: flat (Flat test image) cannot be written by convert"
    ]
    assert list(tmp_path.iterdir()) == []


def test_mdl_to_md2_leaves_no_skin_when_the_model_cannot_be_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The MD2 and its TGA skins are written as one: a folder in the MD2's place fails the
    write before any skin file appears (the old convert wrote the TGAs first and left them)."""
    files = [p for p in corpus_files("mdl") if p.name == "lq_armor.mdl"]
    if not files:
        no_corpus(CORPUS / "mdl")
    out = tmp_path / "armor.md2"
    out.mkdir()
    assert main(["convert", str(files[0]), str(out)]) == 3
    assert "cannot write" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["armor.md2"]
    assert list(out.iterdir()) == []


def test_mdl_to_md2_skins_are_decoded_through_the_given_palette(tmp_path: Path) -> None:
    """--palette reaches the MD2 build: the TGA skins are the MDL's indices through it."""
    files = [p for p in corpus_files("mdl") if p.name == "lq_armor.mdl"]
    if not files:
        no_corpus(CORPUS / "mdl")
    palette = np.arange(768, dtype=np.uint8)[::-1].copy()  # any 256 colours, none the default
    (tmp_path / "p.lmp").write_bytes(palette.tobytes())
    out = tmp_path / "armor.md2"
    assert main(["convert", str(files[0]), str(out), "--palette", str(tmp_path / "p.lmp")]) == 0
    src = Mdl.from_file(files[0])
    with Image.open(tmp_path / "armor_skin0.tga") as image:
        got = np.asarray(image)
    assert np.array_equal(got, palette.reshape(256, 3)[src.skin_indices[0]])
