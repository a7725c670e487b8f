"""Half-Life sprites (IDSP version 2): byte-exact round trip of every corpus file, the four
texture formats drawn as the engine blends them, the sprite's own palette, frame groups
built here, hostile cuts, checks, and the registry telling IDSP v1 from v2."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from conftest import CORPUS, no_corpus
from spritecorpus import corpus_files

from quakemodels import registry
from quakemodels.core.sprite import SpriteFrame, SpriteFrames
from quakemodels.errors import ModelFormatError
from quakemodels.formats.hlspr.check import check
from quakemodels.formats.hlspr.describe import describe
from quakemodels.formats.hlspr.layout import ADDITIVE, ALPHA_TEST, INDEX_ALPHA, NORMAL
from quakemodels.formats.hlspr.reader import HlSpr
from quakemodels.formats.hlspr.scene import frames, picture_rgba
from quakemodels.formats.hlspr.write import from_frames
from quakemodels.interchange.sprites import composite
from quakemodels.kaitai.halflife_spr import HalflifeSpr

HLSPR = corpus_files("hlspr", ".spr")


def _fixture(name: str) -> HlSpr:
    path = CORPUS / "hlspr" / name
    if not path.exists():
        no_corpus(path)
    return HlSpr.from_file(path)


@pytest.mark.parametrize("path", HLSPR)
def test_every_corpus_sprite_round_trips_byte_for_byte(path: Path) -> None:
    data = path.read_bytes()
    sprite = HlSpr.from_bytes(data, str(path))
    assert sprite.to_bytes() == data
    parsed = HalflifeSpr.from_bytes(data)
    assert sprite.tex_format == parsed.header.tex_format.value
    assert sprite.colors.tobytes() == parsed.palette.colors
    assert len(sprite.colors) == parsed.palette.num_colors == 256
    assert [p.pixels.tobytes() for p in sprite.pictures] == [
        f.single.pixels for f in parsed.frames if f.type == 0
    ]
    # the registry tells Half-Life's IDSP v2 from Quake's v1
    assert registry.by_magic(data) is not None and registry.by_magic(data).name == "hlspr"
    assert registry.load(path).to_bytes() == data


def test_texture_formats_draw_as_the_engine_blends() -> None:
    # each TrenchBroom fixture is one 2x2 picture of indices [[0, 128], [255, 64]]
    pixels = {}
    for blend in ("Normal", "Additive", "IndexAlpha", "AlphaTest"):
        sprite = _fixture(f"tb_RenderMode{blend}.spr")
        assert sprite.pictures[0].pixels.tolist() == [[0, 128], [255, 64]]
        pixels[blend] = (sprite, frames(sprite).frames[0].rgba)
    sprite, rgba = pixels["Normal"]
    assert sprite.blend == "normal" and rgba[..., 3].tolist() == [[255, 255], [255, 255]]
    assert rgba[0, 1, :3].tolist() == sprite.colors[128].tolist()
    sprite, rgba = pixels["AlphaTest"]
    assert sprite.blend == "alpha_test" and rgba[..., 3].tolist() == [[255, 255], [0, 255]]
    sprite, rgba = pixels["IndexAlpha"]
    # the index is the opacity; the colour is the palette's last
    assert rgba[..., 3].tolist() == [[0, 128], [255, 64]]
    assert (rgba[..., :3] == sprite.colors[255]).all()
    sprite, rgba = pixels["Additive"]
    # over black an additive picture is exactly its colours
    over_black = np.asarray(composite(rgba, (0, 0, 0)))
    expected = sprite.colors[sprite.pictures[0].pixels]
    assert np.abs(over_black.astype(int) - expected.astype(int)).max() <= 1


def per_pixel_additive(indices: np.ndarray, palette: np.ndarray) -> np.ndarray:
    """The additive formula applied to every pixel in float64, as the reader once did: the
    reference its one lookup per pixel must equal."""
    rgba = np.empty((*indices.shape, 4), np.uint8)
    rgba[..., :3] = palette[indices]
    brightest = rgba[..., :3].max(axis=-1)
    scale = np.where(brightest > 0, 255.0 / np.maximum(brightest, 1), 0.0)
    rgba[..., :3] = np.minimum(np.round(rgba[..., :3] * scale[..., None]), 255).astype(np.uint8)
    rgba[..., 3] = brightest
    return rgba


def test_palette_lookups_equal_the_formulas_per_pixel() -> None:
    """Every index of random palettes (black, greys, one bright channel, ties among them) and
    of every corpus sprite's own palette: the palette lookup gives the per-pixel formula's
    bytes exactly."""
    rng = np.random.default_rng(39)
    palettes = [rng.integers(0, 256, (256, 3), dtype=np.uint8) for _ in range(20)]
    edge = np.zeros((256, 3), np.uint8)
    edge[:, 0] = np.arange(256)  # 0 (black: scale 0) up to 255 (scale 1), red only
    edge[128:, 1] = edge[128:, 0]  # ties between two channels
    edge[200:] = np.arange(200, 256)[:, None]  # greys
    palettes.append(edge)
    palettes += [HlSpr.from_file(p).palette for p in sorted((CORPUS / "hlspr").glob("*.spr"))]
    indices = np.arange(256, dtype=np.uint8).reshape(16, 16)
    for palette in palettes:
        got = picture_rgba(indices, palette, ADDITIVE)
        assert got.dtype == np.uint8 and got.shape == (16, 16, 4)
        np.testing.assert_array_equal(got, per_pixel_additive(indices, palette))
        # index_alpha, as filled per pixel: the last colour, the index as opacity
        filled = np.empty((16, 16, 4), np.uint8)
        filled[..., :3] = palette[255]
        filled[..., 3] = indices
        np.testing.assert_array_equal(picture_rgba(indices, palette, INDEX_ALPHA), filled)
    # the formula's own values at its ends: black stays clear, (1, 0, 0) goes to full red
    assert picture_rgba(indices, edge, ADDITIVE)[0, :2].tolist() == [[0, 0, 0, 0], [255, 0, 0, 1]]
    # the other formats are a plain lookup
    assert picture_rgba(indices, edge, NORMAL)[..., 3].min() == 255
    assert picture_rgba(indices, edge, ALPHA_TEST)[15, 15, 3] == 0
    assert picture_rgba(indices, edge, INDEX_ALPHA)[..., 3].tolist() == indices.tolist()


def test_frames_draw_through_each_palette_and_format_whatever_was_drawn_before() -> None:
    """frames draws the stored colours as they are when they are 256 uint8 triples: the same
    palette under every format one after another, a palette of another length (padded as
    :attr:`HlSpr.palette`), colours stored as another dtype and a palette given in the call
    each draw as the plain path does."""
    sprite = _fixture("ns_steam1.spr")
    indices = [p.pixels for p in sprite.pictures]

    def plain(s: HlSpr, palette: np.ndarray | None = None) -> list[np.ndarray]:
        pal = s.palette if palette is None else palette
        return [picture_rgba(i, pal, s.tex_format) for i in indices]

    def got(s: HlSpr, palette: np.ndarray | None = None) -> list[np.ndarray]:
        return [f.rgba for f in frames(s, palette=palette).frames]

    for tex_format in (NORMAL, ADDITIVE, INDEX_ALPHA, ALPHA_TEST, 9, NORMAL):
        sprite.header["tex_format"] = tex_format
        for a, b in zip(got(sprite), plain(sprite), strict=True):
            np.testing.assert_array_equal(a, b)
    full = sprite.colors
    for colours in (full[:200], full.astype(np.int64), np.concatenate([full, full[:10]])):
        sprite.colors = colours
        for a, b in zip(got(sprite), plain(sprite), strict=True):
            np.testing.assert_array_equal(a, b)
    given = full[::-1].copy()
    for a, b in zip(got(sprite, given), plain(sprite, given), strict=True):
        np.testing.assert_array_equal(a, b)
    # and the frames are those of a fresh read (nothing drawn before leaks into it)
    fresh = _fixture("ns_steam1.spr")
    for a, b in zip(got(fresh), plain(fresh), strict=True):
        np.testing.assert_array_equal(a, b)


def test_a_group_built_here_reads_back_in_our_reader_and_the_generated_parser() -> None:
    red = np.zeros((8, 8, 4), np.uint8)
    red[..., 0], red[..., 3] = 200, 255
    red[0, 0, 3] = 0
    blue = red.copy()
    blue[..., 0], blue[..., 2] = 0, 180
    sprites = SpriteFrames(
        "g",
        (SpriteFrame(red, (-4, 4), 0.1, 0), SpriteFrame(blue, (-4, 4), 0.3, 0)),
    )
    built = from_frames(sprites, tex_format="alpha_test", sync_type=1)
    data = built.to_bytes()
    back = HlSpr.from_bytes(data)
    assert [(r.type, len(r.pictures)) for r in back.records] == [(1, 2)]
    assert back.records[0].intervals is not None
    assert back.records[0].intervals.tolist() == pytest.approx([0.1, 0.3])
    assert (back.blend, back.sync_type, len(back.colors)) == ("alpha_test", 1, 256)
    parsed = HalflifeSpr.from_bytes(data)
    assert parsed.frames[0].group.num_intervals == 2
    drawn = frames(back)
    assert np.array_equal(drawn.frames[0].rgba[..., 3], red[..., 3])
    assert drawn.frames[1].rgba[1, 1].tolist() == [0, 0, 180, 255]
    assert check(back, "halflife") == []


def test_every_cut_raises_a_format_error_naming_a_field() -> None:
    rgba = np.full((8, 8, 4), 255, np.uint8)
    data = from_frames(SpriteFrames("c", (SpriteFrame(rgba, (0, 0), None, 0),))).to_bytes()
    for cut in range(len(data)):
        with pytest.raises(ModelFormatError) as e:
            HlSpr.from_bytes(data[:cut])
        assert e.value.field, cut
    with pytest.raises(ModelFormatError) as e:
        HlSpr.from_bytes(data[:41])
    assert (e.value.field, e.value.offset) == ("palette.num_colors", 40)
    with pytest.raises(ModelFormatError) as e:
        HlSpr.from_bytes(data[:100])
    assert (e.value.field, e.value.offset) == ("palette.colors", 42)


def test_check_grades_half_life_rules() -> None:
    sprite = _fixture("ns_steam1.spr")
    assert check(sprite, "halflife") == []
    sprite.header["tex_format"] = 9
    sprite.colors = sprite.colors[:200]
    found = {(f.severity, f.code, f.field) for f in check(sprite, "halflife")}
    assert found == {
        ("error", "tex-format", "tex_format"),
        ("warning", "palette", "palette.num_colors"),
    }
    assert ("error", "engine-format") in {(f.severity, f.code) for f in check(sprite, "quake")}
    assert "texture format: 9 (unknown(9))" in describe(sprite)


def test_cli_builds_a_half_life_sprite_from_a_quake_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from quakemodels.cli import main

    source = CORPUS / "spr" / "lq_s_bubble.spr"
    if not source.exists():
        no_corpus(source)
    out = tmp_path / "bubble.spr"
    args = ["build", str(source), "-o", str(out), "--to", "hlspr", "--tex-format", "additive"]
    assert main(args) == 0
    built = HlSpr.from_file(out)
    assert (built.blend, built.num_frames, len(built.colors)) == ("additive", 2, 256)
    assert registry.by_magic(out.read_bytes()).name == "hlspr"
    assert main(["info", str(out)]) == 0
    assert "texture format: 1 (additive)" in capsys.readouterr().out
