"""Build the bundled sample model: "quakeguy", a blocky animated figure (CC0, our own work).

    python tools/make_sample.py [OUTDIR]     (default: src/quakemodels/samples)

Writes ``quakeguy.md2`` (the standard 198-frame Quake II player layout and frame names, simple
procedural motion per clip) and its 64 × 64 skin ``quakeguy.png``, named in the model as
``quakeguy.png`` (relative to the model's folder). Everything is computed from integers and
fixed formulas, so every run writes the same bytes; a test regenerates and compares them.

To the extent possible under law, the authors dedicate this model and skin to the public domain
(CC0 1.0 Universal, https://creativecommons.org/publicdomain/zero/1.0/).
"""

from __future__ import annotations

import io
import math
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from quakemodels import Md2
from quakemodels.core.atomic import write_bytes_atomic
from quakemodels.formats.md2.write import BuildResult

REPO = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO / "src" / "quakemodels" / "samples"
SKIN = 64

# The standard player layout: clip, frame-name stem, frames, digits of the number.
CLIPS: list[tuple[str, str, int, int]] = [
    ("stand", "stand", 40, 2),
    ("run", "run", 6, 1),
    ("attack", "attack", 8, 1),
    ("pain1", "pain1", 4, 2),
    ("pain2", "pain2", 4, 2),
    ("pain3", "pain3", 4, 2),
    ("jump", "jump", 6, 1),
    ("flip", "flip", 12, 2),
    ("salute", "salute", 11, 2),
    ("taunt", "taunt", 17, 2),
    ("wave", "wave", 11, 2),
    ("point", "point", 12, 2),
    ("crstnd", "crstnd", 19, 2),
    ("crwalk", "crwalk", 6, 1),
    ("crattak", "crattak", 9, 1),
    ("crpain", "crpain", 4, 1),
    ("crdeath", "crdeath", 5, 1),
    ("death1", "death1", 6, 2),
    ("death2", "death2", 6, 2),
    ("death3", "death3", 8, 2),
]


def frame_names() -> list[str]:
    """The 198 standard frame names: stand01..stand40, run1..run6, ..., death301..death308."""
    names = []
    for _, stem, count, digits in CLIPS:
        names.extend(f"{stem}{k:0{digits}d}" for k in range(1, count + 1))
    return names


# -- the figure -----------------------------------------------------------------------------------
# Quake model space: +X forward, +Y left, +Z up; the feet at z = -24 as a player's bounding box.


@dataclass(frozen=True)
class Part:
    """A box: ``lo``/``hi`` corners at rest, the ``pivot`` it turns about, and skin regions
    (x, y, w, h) for its front face (+X) and for the other faces."""

    name: str
    lo: tuple[float, float, float]
    hi: tuple[float, float, float]
    pivot: tuple[float, float, float]
    front: tuple[int, int, int, int]
    rest: tuple[int, int, int, int]


PARTS = [
    Part("torso", (-4, -8, 0), (4, 8, 20), (0, 0, 0), (0, 0, 16, 20), (16, 0, 16, 20)),
    Part("head", (-5, -5, 20), (5, 5, 30), (0, 0, 20), (32, 0, 16, 16), (48, 0, 16, 16)),
    Part("arm_l", (-3, 8, 2), (3, 13, 20), (0, 10.5, 18), (0, 24, 8, 20), (8, 24, 8, 20)),
    Part("arm_r", (-3, -13, 2), (3, -8, 20), (0, -10.5, 18), (0, 24, 8, 20), (8, 24, 8, 20)),
    Part("leg_l", (-3, 1, -24), (3, 7, 0), (0, 4, 0), (16, 24, 8, 24), (24, 24, 8, 24)),
    Part("leg_r", (-3, -7, -24), (3, -1, 0), (0, -4, 0), (16, 24, 8, 24), (24, 24, 8, 24)),
]

# Box corners as (x, y, z) picks of lo (0) / hi (1); faces as corner quads wound clockwise
# seen from outside (Quake II's winding), front (+X) first.
CORNERS = [(i >> 2 & 1, i >> 1 & 1, i & 1) for i in range(8)]
FACES = [
    (4, 5, 7, 6),  # +X front
    (0, 2, 3, 1),  # -X back
    (2, 6, 7, 3),  # +Y left
    (0, 1, 5, 4),  # -Y right
    (1, 3, 7, 5),  # +Z top
    (0, 4, 6, 2),  # -Z bottom
]


def rest_mesh() -> tuple[
    npt.NDArray[np.float64], npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]
]:
    """Rest positions (V,3), triangles (T,3), texcoords (S,2) pixels, triangle texcoords (T,3)."""
    verts, tris, sts, tri_sts = [], [], [], []
    for part in PARTS:
        base = len(verts)
        for c in CORNERS:
            verts.append([part.hi[k] if c[k] else part.lo[k] for k in range(3)])
        for f, quad in enumerate(FACES):
            x, y, w, h = part.front if f == 0 else part.rest
            s0 = len(sts)
            # the quads run bottom-left, top-left, top-right, bottom-right as seen from outside
            sts.extend([(x, y + h), (x, y), (x + w, y), (x + w, y + h)])
            a, b, c, d = (base + q for q in quad)
            tris += [(a, b, c), (a, c, d)]
            tri_sts += [(s0, s0 + 1, s0 + 2), (s0, s0 + 2, s0 + 3)]
    # one texcoord per distinct pixel, as modelgen stores them (the box sides share regions)
    unique, inverse = np.unique(np.array(sts, np.int64), axis=0, return_inverse=True)
    return (
        np.array(verts, np.float64),
        np.array(tris, np.int64),
        unique,
        inverse.reshape(-1)[np.array(tri_sts, np.int64)],
    )


def turn(v: npt.NDArray[np.float64], m: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """(N,3) points rotated by 3×3 ``m``, with element-wise operations only: BLAS may sum in
    another order on another machine, and the sample must come out bit-identical everywhere."""
    return v[:, 0:1] * m[:, 0] + v[:, 1:2] * m[:, 1] + v[:, 2:3] * m[:, 2]


def rot(axis: str, degrees: float) -> npt.NDArray[np.float64]:
    """3×3 rotation by ``degrees`` about the x, y or z axis (right-handed)."""
    a = math.radians(degrees)
    c, s = math.cos(a), math.sin(a)
    if axis == "x":
        return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])
    if axis == "y":
        return np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


@dataclass
class Pose:
    """Joint angles (degrees) and whole-body motion for one frame."""

    arm_l: float = 0.0  # swing about Y: positive raises the arm forward
    arm_r: float = 0.0
    arm_l_side: float = 0.0  # about X: positive raises the arm sideways
    arm_r_side: float = 0.0
    leg_l: float = 0.0
    leg_r: float = 0.0
    lean: float = 0.0  # torso and head about Y at the hips: positive leans back
    head: float = 0.0  # head turn about Z
    crouch: float = 0.0  # 0..1
    bob: float = 0.0  # z offset
    fall: float = 0.0  # whole body about Y at the feet: + backwards, - forwards
    fall_side: float = 0.0  # whole body about X at the feet
    turn: float = 0.0  # whole body about Z


def pose_for(clip: str, k: int, n: int) -> Pose:
    """The procedural pose of frame ``k`` of ``n`` in ``clip``."""
    t = k / n  # 0..1, looping clips
    u = k / max(n - 1, 1)  # 0..1 inclusive, one-shot clips
    wave = math.sin(2 * math.pi * t)
    p = Pose()
    crouched = clip.startswith("cr")
    if crouched:
        p.crouch = 1.0
    if clip in ("stand", "crstnd"):
        p.bob = 0.6 * wave
        p.arm_l = p.arm_r = 4 * wave
    elif clip in ("run", "crwalk"):
        swing = 35 if clip == "run" else 20
        p.leg_l, p.leg_r = swing * wave, -swing * wave
        p.arm_l, p.arm_r = -30 * wave, 30 * wave
        p.bob = 1.5 * abs(wave)
    elif clip in ("attack", "crattak"):
        p.arm_r = 90 - 15 * math.sin(math.pi * u)
        p.lean = 6 * math.sin(math.pi * u)
    elif clip.startswith("pain") or clip == "crpain":
        strength = {"pain1": 12, "pain2": -10, "pain3": 8, "crpain": 10}[clip]
        p.lean = strength * math.sin(math.pi * u)
        p.arm_l_side = p.arm_r_side = 20 * math.sin(math.pi * u)
        p.head = 15 * math.sin(math.pi * u) if clip == "pain3" else 0.0
    elif clip == "jump":
        p.crouch = max(0.0, math.cos(math.pi * u)) * 0.6
        p.bob = 10 * math.sin(math.pi * u)
        p.arm_l = p.arm_r = 120 * math.sin(math.pi * u)
    elif clip == "flip":
        p.arm_l = p.arm_r = 170 * math.sin(math.pi * u)
        p.bob = 3 * math.sin(math.pi * u)
    elif clip == "salute":
        p.arm_r = 150 * math.sin(math.pi * u)
        p.arm_r_side = 25 * math.sin(math.pi * u)
    elif clip == "taunt":
        p.turn = 20 * wave
        p.lean = -8 * math.sin(math.pi * u)
        p.arm_l_side = p.arm_r_side = 40 * math.sin(math.pi * u)
    elif clip == "wave":
        p.arm_r_side = 150 + 20 * wave
    elif clip == "point":
        p.arm_r = 90 * math.sin(math.pi * min(1.0, 2 * u))
        p.head = -10 * math.sin(math.pi * u)
    elif clip in ("death1", "death2", "death3", "crdeath"):
        ease = math.sin(0.5 * math.pi * u)
        if clip == "death1":
            p.fall = 90 * ease
            p.arm_l_side = p.arm_r_side = 60 * ease
        elif clip in ("death2", "crdeath"):
            p.fall = -90 * ease
            p.arm_l_side = p.arm_r_side = 60 * ease
        else:
            # sideways: arms thrown forward, since raised sideways they would cross the floor
            p.fall_side = 90 * ease
            p.arm_l = p.arm_r = 60 * ease
    return p


def posed(rest: npt.NDArray[np.float64], pose: Pose) -> npt.NDArray[np.float64]:
    """(V,3) positions of the figure in ``pose``."""
    out = rest.copy()
    legs_len = 24.0
    drop = 8.0 * pose.crouch  # the body sinks while the legs bend at the knees (fold forward)
    for i, part in enumerate(PARTS):
        v = rest[8 * i : 8 * i + 8] - np.array(part.pivot)
        if part.name == "head":
            v = turn(v, rot("z", pose.head))
        elif part.name.startswith("arm"):
            side = part.name[-1]
            forward = pose.arm_l if side == "l" else pose.arm_r
            raise_ = pose.arm_l_side if side == "l" else pose.arm_r_side
            sign = 1 if side == "l" else -1
            v = turn(v, rot("x", sign * raise_))  # sideways, away from the body
            v = turn(v, rot("y", -forward))  # forward: the hand swings towards +X
        elif part.name.startswith("leg"):
            swing = pose.leg_l if part.name.endswith("l") else pose.leg_r
            v = turn(v, rot("y", swing))
            if pose.crouch:
                # bent legs: shorter boxes, squashed towards the hip
                v[:, 2] *= (legs_len - drop) / legs_len
        v = v + np.array(part.pivot)
        if part.name in ("torso", "head") or part.name.startswith("arm"):
            v = turn(v, rot("y", -pose.lean))  # about the hip (origin)
            v[:, 2] -= drop
        out[8 * i : 8 * i + 8] = v
    out[:, 2] += pose.bob
    feet = np.array([0.0, 0.0, -24.0])
    body = turn(turn(out - feet, rot("y", -pose.fall)), rot("x", pose.fall_side))
    body = turn(body, rot("z", pose.turn))
    return body + feet


def animation() -> npt.NDArray[np.float64]:
    """(198, V, 3) positions of every frame, in the standard clip order."""
    rest = rest_mesh()[0]
    frames = []
    for clip, _, count, _ in CLIPS:
        frames.extend(posed(rest, pose_for(clip, k, count)) for k in range(count))
    return np.stack(frames)


# -- the skin -------------------------------------------------------------------------------------


def skin_pixels() -> npt.NDArray[np.uint8]:
    """(64, 64, 3) uint8 RGB skin: armour, face, arms, legs, with simple shading and details."""
    img = np.zeros((SKIN, SKIN, 3), np.uint8)
    y, x = np.mgrid[0:SKIN, 0:SKIN]

    def fill(region: tuple[int, int, int, int], rgb: tuple[int, int, int]) -> None:
        rx, ry, w, h = region
        img[ry : ry + h, rx : rx + w] = rgb

    armour, dark = (70, 110, 60), (45, 70, 40)
    skin_tone, hair = (205, 160, 120), (80, 50, 30)
    fill((0, 0, 16, 20), armour)
    fill((16, 0, 16, 20), dark)
    fill((32, 0, 16, 16), skin_tone)
    fill((48, 0, 16, 16), hair)
    fill((0, 24, 8, 20), armour)
    fill((8, 24, 8, 20), dark)
    fill((16, 24, 8, 24), (90, 70, 50))
    fill((24, 24, 8, 24), (70, 55, 40))
    fill((32, 16, 32, 48), (30, 30, 30))
    img[0:6, 32:48] = hair  # fringe
    img[7:9, 35:38] = img[7:9, 42:45] = (20, 20, 20)  # eyes
    img[12, 37:43] = (120, 60, 50)  # mouth
    img[2:18, 7:9] = (200, 170, 60)  # a belt of gold down the chest plate
    img[16:18, 0:16] = (60, 40, 20)  # belt
    img[40:44, 0:8] = skin_tone  # hands
    img[44:48, 16:24] = img[44:48, 24:32] = (40, 30, 20)  # boots
    # a little deterministic texture so the skin is not flat colour
    noise = ((x * 7 + y * 13) % 5).astype(np.int16) - 2
    return np.clip(img.astype(np.int16) + noise[..., None] * 3, 0, 255).astype(np.uint8)


def png_bytes(pixels: npt.NDArray[np.uint8]) -> bytes:
    """PNG encoding of RGB ``pixels`` (Pillow writes the same bytes for the same pixels)."""
    from PIL import Image

    buf = io.BytesIO()
    Image.fromarray(pixels, "RGB").save(buf, format="PNG", optimize=False)
    return buf.getvalue()


def make() -> tuple[BuildResult, bytes]:
    """The sample: (build result, skin PNG bytes)."""
    _, triangles, texcoords, tri_texcoords = rest_mesh()
    result = Md2.build(
        animation(),
        triangles,
        texcoords,
        tri_texcoords,
        frame_names(),
        skins=["quakeguy.png"],
        skin_size=(SKIN, SKIN),
    )
    return result, png_bytes(skin_pixels())


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else DEFAULT_OUT
    out.mkdir(parents=True, exist_ok=True)
    result, png = make()
    write_bytes_atomic(out / "quakeguy.png", png)
    result.model.save(out / "quakeguy.md2")
    steps = np.where(result.steps > 0, result.steps, 1.0)
    m = result.model
    print(
        f"{out / 'quakeguy.md2'}: {m.num_frames} frames, {m.num_vertices} vertices,"
        f" {m.num_triangles} triangles, {len(m.gl_commands)} GL commands;"
        f" largest error {result.errors.max():.6g} units = {(result.errors / steps).max():.4f}"
        " steps"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
