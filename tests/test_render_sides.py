"""The software renderer draws as the engines do: back faces culled (an inside-out model looks
inside out), double-sided and back-sided materials, alpha-tested texels left out before the
depth test."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest
from PIL import Image

import quakemodels
from quakemodels.core.records import replace
from quakemodels.core.scene import OPAQUE, ExportModel, Material, Surface
from quakemodels.core.shaders import ALPHA_FUNCS
from quakemodels.core.skins import Skin
from quakemodels.interchange import render as rnd
from quakemodels.registry import scene

OAK = "archives/cge_jkm_oaktree.pk3/models/mapobjects/oak/oak1.md3"

# -- the software renderer -----------------------------------------------------------------------

GREEN_RED = np.array([[[0, 255, 0], [255, 0, 0]]], np.uint8)  # u < 0.5 green, else red


def _skin(pixels: npt.NDArray[np.uint8]) -> Skin:
    return Skin(Path("skin.png"), pixels=pixels)


def _quad_faces(
    normals: list[tuple[int, int, int]], size: float = 1.0
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.uint32]]:
    """Squares of half-size ``size`` one unit out along each normal, counter-clockwise seen
    from the side the normal points to: (positions (4k,3), normals (4k,3), indices (2k,3))."""
    pos, nrm, idx = [], [], []
    for k, n in enumerate(normals):
        nv = np.array(n, float)
        u = np.cross(nv, [0.0, 0.0, 1.0]) if abs(nv[2]) < 0.5 else np.array([1.0, 0.0, 0.0])
        u /= np.linalg.norm(u)
        v = np.cross(nv, u)  # u x v = n: counter-clockwise seen from outside
        for a, b in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
            pos.append(nv + size * (a * u + b * v))
            nrm.append(nv)
        idx += [[4 * k, 4 * k + 1, 4 * k + 2], [4 * k, 4 * k + 2, 4 * k + 3]]
    p, i = np.array(pos, np.float32), np.array(idx, np.uint32)
    for tri, n in zip(i, np.array(nrm)[i[:, 0]], strict=True):  # the helper's own promise
        assert np.dot(np.cross(p[tri[1]] - p[tri[0]], p[tri[2]] - p[tri[0]]), n) > 0
    return p, np.array(nrm, np.float32), i


def _model(*surfaces: Surface) -> ExportModel:
    return ExportModel(name="t", surfaces=list(surfaces), clips={})


def _surface(
    positions: npt.NDArray[np.float32],
    normals: npt.NDArray[np.float32],
    indices: npt.NDArray[np.uint32],
    uvs: npt.NDArray[np.float32],
    skin: Skin | None,
    material: Material = OPAQUE,
    name: str = "s",
) -> Surface:
    return Surface(name, positions[None], normals[None], uvs, indices, skin=skin, material=material)


def _counts(img: Image.Image) -> dict[str, int]:
    a = np.asarray(img.convert("RGB")).astype(int)
    r, g, b = a[..., 0], a[..., 1], a[..., 2]
    return {
        "red": int(((r > g + 40) & (r > b + 40)).sum()),
        "green": int(((g > r + 40) & (g > b + 40)).sum()),
        "blue": int(((b > r + 40) & (b > g + 40)).sum()),
        "background": int((a == rnd.BACKGROUND).all(axis=-1).sum()),
    }


CUBE = [(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)]


def test_an_inside_out_box_looks_inside_out() -> None:
    """A box whose faces toward the camera are green and the others red: drawn with its
    counter-clockwise winding only green shows; with columns 1 and 2 swapped (inside out)
    only the far faces' insides, red."""
    pos, nrm, idx = _quad_faces(CUBE)
    toward = rnd._rotation(30.0, 15.0)[0]  # model-space direction to the default camera
    facing = nrm @ toward > 0
    uvs = np.where(facing[:, None], [[0.25, 0.5]], [[0.75, 0.5]]).astype(np.float32)
    skin = _skin(GREEN_RED)
    right = rnd.render_frame(_model(_surface(pos, nrm, idx, uvs, skin)), 0, (96, 96))
    flipped = _surface(pos, nrm, idx[:, [0, 2, 1]], uvs, skin)
    wrong = rnd.render_frame(_model(flipped), 0, (96, 96))
    good, bad = _counts(right), _counts(wrong)
    assert good["green"] > 2000 and good["red"] == 0
    assert bad["red"] > 2000 and bad["green"] == 0
    assert not np.array_equal(np.asarray(right), np.asarray(wrong))
    # drawn from both sides, the z-buffer shows the near (green) faces whatever the winding
    both = _surface(pos, nrm, idx[:, [0, 2, 1]], uvs, skin, Material(sides="both"))
    assert _counts(rnd.render_frame(_model(both), 0, (96, 96)))["red"] == 0


def _facing_quad(
    x: float, skin: Skin | None, material: Material = OPAQUE, away: bool = False
) -> Surface:
    """A 2x2 square in the plane X = ``x`` seen by a camera on +X (yaw 0, pitch 0): screen
    right is +Y, up +Z, u runs along +Y. ``away`` turns its front to -X."""
    pos = np.array([[x, -1, -1], [x, 1, -1], [x, 1, 1], [x, -1, 1]], np.float32)
    idx = np.array([[0, 1, 2], [0, 2, 3]], np.uint32)
    nrm = np.tile(np.float32([1, 0, 0]), (4, 1))
    if away:
        idx, nrm = idx[:, [0, 2, 1]], -nrm
    uvs = np.column_stack([(pos[:, 1] + 1) / 2, (1 - pos[:, 2]) / 2]).astype(np.float32)
    return _surface(pos, nrm, idx, uvs, skin, material, name=f"quad{x}")


def _front_view(*surfaces: Surface) -> dict[str, int]:
    model = _model(*surfaces)
    return _counts(rnd.Renderer(model, (64, 64), yaw=0.0, pitch=0.0).frame(0))


HALF_CLEAR = np.zeros((1, 2, 4), np.uint8)
HALF_CLEAR[0, 0] = (255, 0, 0, 255)  # left: opaque red
HALF_CLEAR[0, 1] = (0, 0, 255, 0)  # right: blue, alpha 0


def test_alpha_test_leaves_the_background_and_shows_what_is_behind() -> None:
    tested = Material(alpha_test=ALPHA_FUNCS["ge128"])
    alone = _front_view(_facing_quad(0.0, _skin(HALF_CLEAR), tested))
    opaque = _front_view(_facing_quad(0.0, _skin(HALF_CLEAR)))
    assert alone["blue"] == 0 and alone["red"] > 0.4 * (alone["red"] + opaque["blue"])
    assert opaque["blue"] > 1000  # without the test the clear half shows (black squares)
    assert alone["background"] - opaque["background"] > 0.9 * opaque["blue"]
    # a green square right behind, the same size: it shows through the clear half only
    green = _skin(np.array([[[0, 255, 0]]], np.uint8))
    both = _front_view(_facing_quad(0.0, _skin(HALF_CLEAR), tested), _facing_quad(-0.5, green))
    assert both["blue"] == 0 and both["green"] > 0.9 * opaque["blue"]
    assert abs(both["red"] - alone["red"]) < 0.05 * alone["red"]


def test_lt128_keeps_the_low_alphas_in_previews() -> None:
    low = _front_view(
        _facing_quad(0.0, _skin(HALF_CLEAR), Material(alpha_test=ALPHA_FUNCS["lt128"]))
    )
    assert low["red"] == 0 and low["blue"] > 1000


@pytest.mark.parametrize(
    ("sides", "away", "drawn"),
    [
        ("front", False, True),
        ("front", True, False),
        ("both", True, True),
        ("both", False, True),
        ("back", True, True),
        ("back", False, False),
    ],
)
def test_sides_drawn(sides: str, away: bool, drawn: bool) -> None:
    red = _skin(np.array([[[255, 0, 0]]], np.uint8))
    got = _front_view(_facing_quad(0.0, red, Material(sides=sides), away=away))  # type: ignore[arg-type]
    assert (got["red"] > 1000) is drawn, got


def test_corpus_oak_has_no_black_squares(corpus_dir: Path) -> None:
    em = scene(quakemodels.load(corpus_dir / OAK))
    untested = replace(
        em,
        surfaces=[replace(s, material=replace(s.material, alpha_test=None)) for s in em.surfaces],
    )

    def dark(model: ExportModel) -> int:
        a = np.asarray(rnd.render_frame(model, 0, (256, 256)))
        return int((a.max(axis=-1) < 40).sum())

    # the leaves' clear texels are near black: drawn, they are the squares
    assert dark(em) < dark(untested) / 3
