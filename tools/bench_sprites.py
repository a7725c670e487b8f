"""Benchmark: every corpus sprite's RGBA frames against their numpy floor, and vgio.

    python tools/bench_sprites.py        (make bench prints it too)

Columns, times in microseconds (median, CPU time):
  frames     ``quakemodels.registry.frames(model)`` (what the verbs, ``export`` and ``render``,
             call) of a loaded Quake (``spr/``) or Half-Life (``hlspr/``) sprite, named by its
             corpus path
  floor      numpy alone: the palette's 256 entries drawn as the texture format draws them
             (Half-Life's additive formula on the palette), then one lookup per pixel
  ratio      frames / floor, raced (interleaved round by round, benchutil.raced); target <= 1.5x
  load+fr    ``from_bytes`` then ``frames``; vgio: ``Spr.open`` then each picture through the
             palette, the same RGBA (Quake sprites only; vgio reads no Half-Life sprite)

What ``frames`` keeps from one call to the next, each as every caller meets it (a batch of
sprites, each loaded and drawn once):
  - the Quake palette's drawn table, by the palette's bytes (the bundled one, or a game's
    ``gfx/palette.lmp``): every sprite of a game shares it, so a batch draws it once;
  - the game folder search's answer for the sprite's folder: kept, but checked on every call
    (one stat of each folder above the sprite, through ``archive/_stamps.c`` where built), as
    every sprite of a batch checks it, so the check is in every ``frames`` time here;
  - for a sprite in a game folder, the game's search path (``archive.vpath.game_fs``) and its
    palette read from the game's archive: kept, but checked on every call (the stat above,
    plus one of each of the game's archives);
  - the format and ``frames`` service of each model class (``registry.for_model``): met by
    every model after the first of its kind;
  - a Quake II sprite's folder listing, where its frame images are looked for
    (``archive.vpath.folder_entries``): kept, but checked on every call (one stat of the
    folder), as every sprite of a batch in that folder checks it.
A Half-Life sprite's own palette is drawn on every call (a batch meets each one once).

Then, with no arguments: the Quake II sprites whose images are in the corpus against reading
and decoding those images (:func:`sp2_rows`), a corpus sprite inside a game folder, its palette
in the game's pak (:func:`in_game_folder`), and one sprite in a crowded folder
(:func:`crowded_folder`).
"""

from __future__ import annotations

import contextlib
import io
import statistics
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from benchutil import CORPUS, raced, timed

from quakemodels.core.palette import default_palette
from quakemodels.formats.hlspr.layout import ADDITIVE, ALPHA_TEST, INDEX_ALPHA, TRANSPARENT
from quakemodels.formats.hlspr.reader import HlSpr
from quakemodels.formats.spr.reader import Spr
from quakemodels.registry import frames

TARGET = 1.5


def _lut(colours: np.ndarray, alpha: np.ndarray | int) -> np.ndarray:
    lut = np.empty((256, 4), np.uint8)
    lut[:, :3] = colours
    lut[:, 3] = alpha
    return lut.view(np.uint32).reshape(256)


def floor_lut(palette: np.ndarray, tex_format: int | None) -> np.ndarray:
    """(256,) uint32 RGBA words: each palette entry as drawn (``None``: a Quake sprite)."""
    if tex_format is None:
        alpha = np.full(256, 255, np.uint8)
        alpha[255] = 0
        return _lut(palette, alpha)
    if tex_format == ALPHA_TEST:
        alpha = np.full(256, 255, np.uint8)
        alpha[TRANSPARENT] = 0
        return _lut(palette, alpha)
    if tex_format == INDEX_ALPHA:
        return _lut(np.broadcast_to(palette[TRANSPARENT], (256, 3)), np.arange(256))
    if tex_format == ADDITIVE:
        top = palette.max(axis=1)
        scale = np.where(top > 0, 255.0 / np.maximum(top, 1), 0.0)
        return _lut(np.minimum(np.round(palette * scale[:, None]), 255).astype(np.uint8), top)
    return _lut(palette, 255)


def floor(pixels: list[np.ndarray], palette: np.ndarray, tex_format: int | None) -> list[Any]:
    """Every picture's (H,W,4) uint8 RGBA: one palette pass, one lookup per pixel."""
    lut = floor_lut(palette, tex_format)
    return [np.take(lut, p).view(np.uint8).reshape(*p.shape, 4) for p in pixels]


def _vgio() -> Callable[[bytes], object] | None:
    try:
        from vgio.quake import spr as vgio_spr
    except ImportError:
        return None
    lut = floor_lut(default_palette(), None)

    def load(data: bytes) -> object:
        sprite = vgio_spr.Spr.open(io.BytesIO(data))
        sprite.close()
        out = []
        for frame in sprite.frames:
            for p in frame.frames if frame.type == vgio_spr.GROUP else [frame]:
                indices = np.frombuffer(bytes(p.pixels), np.uint8).reshape(p.height, p.width)
                out.append(np.take(lut, indices).view(np.uint8).reshape(p.height, p.width, 4))
        return out

    return load


def rows(files: list[Path] | None = None) -> list[str]:
    """The table's lines (a note when there is no corpus)."""
    if files is None:
        files = sorted((CORPUS / "spr").glob("*.spr")) + sorted((CORPUS / "hlspr").glob("*.spr"))
    if not files:
        return [f"sprites: no corpus at {CORPUS}"]
    vgio = _vgio()
    head = (
        f"| {'sprite':<32} | {'pics':>4} | {'pixels':>7} | {'frames':>8} | {'floor':>7} |"
        f" {'ratio':>6} | {'load+fr':>8} | {'vgio':>8} |"
    )
    out = [head, "|" + "|".join("-" * len(c) for c in head.split("|")[1:-1]) + "|"]
    ratios: list[float] = []
    for path in files:
        data = path.read_bytes()
        half_life = path.parent.name == "hlspr"
        cls = HlSpr if half_life else Spr
        model: Any = cls.from_bytes(data, str(path))
        pixels = [p.pixels for p in model.pictures]
        palette = model.palette if half_life else default_palette()
        tex = model.tex_format if half_life else None
        got = [f.rgba for f in frames(model).frames]
        want = floor(pixels, palette, tex)
        assert all(np.array_equal(a, b) for a, b in zip(got, want, strict=True)), path
        t = raced(
            {
                "qm": lambda m=model: frames(m),
                "floor": lambda p=pixels, c=palette, k=tex: floor(p, c, k),
            }
        )
        ratio = t["qm"] / t["floor"]
        ratios.append(ratio)
        loaded = timed(lambda d=data, c=cls, n=str(path): _load(c, d, n))
        peer = float("nan")
        if vgio is not None and not half_life:
            # vgio cannot read some (its grouped pictures' format): nan
            with contextlib.suppress(Exception):
                peer = timed(lambda d=data: vgio(d))
        out.append(
            f"| {path.parent.name + '/' + path.name:<32} | {len(pixels):>4} |"
            f" {sum(p.size for p in pixels):>7} | {t['qm'] * 1e6:>8.1f} |"
            f" {t['floor'] * 1e6:>7.1f} | {ratio:>5.2f}x | {loaded * 1e6:>8.1f} |"
            f" {peer * 1e6:>8.1f} |"
        )
    worst = max(ratios)
    out += [
        "",
        f"frames / floor: median {statistics.median(ratios):.2f}x, worst {worst:.2f}x"
        f" (target <= {TARGET}x on every sprite: {'met' if worst <= TARGET else 'NOT met'})",
    ]
    return out


def sp2_rows() -> list[str]:
    """Quake II sprites (``sp2/``): each frame is an image file, here the PCX files the corpus
    keeps beside the sprite (``<sprite>__<frame>.pcx``, found as the reader finds them), so
    ``frames`` is the image search and the decoding; the floor reads the same files and
    decodes them (``core.pcx``, numpy) through their own palettes, index 255 clear. Sprites
    whose images are not here (Nexuiz's ``.tga``) are left out: their frames are stand-ins."""
    import warnings

    from quakemodels.core.pcx import decode_pcx_indexed
    from quakemodels.core.sprite import indexed_rgba, transparent_index
    from quakemodels.formats.sp2.reader import Sp2

    def read_decode(images: list[Path]) -> list[Any]:
        out = []
        for image in images:
            with open(image, "rb") as f:
                found = decode_pcx_indexed(f.read())
            assert found is not None, image
            out.append(indexed_rgba(found[0], found[1], transparent_index(255)))
        return out

    head = (
        f"| {'sprite':<32} | {'pics':>4} | {'pixels':>7} | {'frames':>8} | {'floor':>7} | ratio |"
    )
    out = [head, "|" + "|".join("-" * len(c) for c in head.split("|")[1:-1]) + "|"]
    ratios: list[float] = []
    for path in sorted((CORPUS / "sp2").glob("*.sp2")):
        model = Sp2.from_bytes(path.read_bytes(), str(path))
        images = [path.with_name(f"{path.stem}__{i}.pcx") for i in range(len(model.sizes))]
        if not all(i.exists() for i in images):
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # every image found and read
            got = [f.rgba for f in frames(model).frames]
        want = read_decode(images)
        assert all(np.array_equal(a, b) for a, b in zip(got, want, strict=True)), path
        t = raced({"qm": lambda m=model: frames(m), "floor": lambda i=images: read_decode(i)})
        ratios.append(t["qm"] / t["floor"])
        out.append(
            f"| {'sp2/' + path.name:<32} | {len(want):>4} | {sum(w.size // 4 for w in want):>7} |"
            f" {t['qm'] * 1e6:>8.1f} | {t['floor'] * 1e6:>7.1f} | {ratios[-1]:>4.2f}x |"
        )
    if not ratios:
        return [f"sp2: no corpus sprite with its images at {CORPUS / 'sp2'}"]
    worst = max(ratios)
    out += [
        "",
        f"sp2 frames / reading and decoding their images: worst {worst:.2f}x (target <="
        f" {TARGET}x: {'met' if worst <= TARGET else 'NOT met'}; the image search per frame)",
    ]
    return out


def in_game_folder() -> list[str]:
    """A corpus sprite (vgio_test.spr) inside a game folder, ``id1/progs/`` beside
    ``id1/pak0.pak`` holding ``gfx/palette.lmp`` (another palette than the bundled one), its
    frames against the floor through that palette (raced): every call checks the game's kept
    search path (a stat of each folder up to the game's and of the pak), as every sprite of a
    batch of the game's does; the palette is read from the pak and parsed by the first."""
    import os
    import tempfile
    import time

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from archivebuilder import pak_bytes

    path = CORPUS / "spr" / "vgio_test.spr"
    if not path.exists():
        return [f"in a game folder: no corpus at {CORPUS}"]
    palette = default_palette()[::-1].copy()
    with tempfile.TemporaryDirectory() as tmp:
        game = Path(tmp, "id1")
        (game / "progs").mkdir(parents=True)
        (game / "pak0.pak").write_bytes(pak_bytes([("gfx/palette.lmp", palette.tobytes())]))
        (game / "progs" / path.name).write_bytes(path.read_bytes())
        past = time.time_ns() - 3600 * 10**9  # as a game installed an hour ago
        for f in (game / "progs", game, game / "pak0.pak", Path(tmp)):
            os.utime(f, ns=(past, past))
        model = Spr.from_bytes(path.read_bytes(), str(game / "progs" / path.name))
        pixels = [p.pixels for p in model.pictures]
        got = [f.rgba for f in frames(model).frames]
        want = floor(pixels, palette, None)
        assert all(np.array_equal(a, b) for a, b in zip(got, want, strict=True))
        t = raced({"qm": lambda: frames(model), "floor": lambda: floor(pixels, palette, None)})
    ratio = t["qm"] / t["floor"]
    return [
        f"{path.name} in a game folder (its palette in the game's pak): frames"
        f" {t['qm'] * 1e6:.1f} us, floor {t['floor'] * 1e6:.1f} us: {ratio:.2f}x (target <="
        f" {TARGET}x: {'met' if ratio <= TARGET else 'NOT met'}; the game's search path and"
        " palette kept, the game's folders and pak stat'ed on every call)"
    ]


def crowded_folder(count: int = 20_000) -> list[str]:
    """One corpus-like sprite's frames in a folder of ``count`` other files against the same
    sprite in a folder of its own (raced): the game-folder search must not grow with the
    folder (it is listed once, then only stat'ed while unchanged)."""
    import os
    import tempfile
    import time

    from quakemodels.core.sprite import SpriteFrame, SpriteFrames
    from quakemodels.formats.spr.write import from_frames

    rgba = np.zeros((16, 16, 4), np.uint8)
    rgba[..., 3] = 255
    data = from_frames(SpriteFrames("s", (SpriteFrame(rgba, (0, 0), None, 0),))).to_bytes()
    with tempfile.TemporaryDirectory() as tmp:
        alone, crowd = Path(tmp, "alone"), Path(tmp, "crowd")
        alone.mkdir()
        crowd.mkdir()
        for k in range(count):
            (crowd / f"f{k:05}.txt").touch()
        models = {}
        for folder in (alone, crowd):
            (folder / "s.spr").write_bytes(data)
            past = time.time_ns() - 3600 * 10**9  # as a folder left alone for an hour
            os.utime(folder, ns=(past, past))
            models[folder.name] = Spr.from_bytes(data, str(folder / "s.spr"))
        t = raced({k: (lambda m=m: frames(m)) for k, m in models.items()})
    ratio = t["crowd"] / t["alone"]
    return [
        f"one 16x16 sprite in a folder of {count:,} files: frames {t['crowd'] * 1e6:.1f} us,"
        f" alone {t['alone'] * 1e6:.1f} us: {ratio:.2f}x (target <= 1.5x: the search is cached)"
    ]


def _load(cls: Any, data: bytes, name: str) -> object:
    return frames(cls.from_bytes(data, name))


def main(argv: list[str]) -> int:
    for line in rows([Path(a) for a in argv] or None):
        print(line)
    if not argv:
        print()
        for line in sp2_rows():
            print(line)
        print()
        for line in in_game_folder():
            print(line)
        for line in crowded_folder():
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
