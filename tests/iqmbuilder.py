"""Small skeletal scenes and the IQM files our writer makes of them, for the IQM tests, the
Web IDE cross-check and the fuzz seeds; plus header surgery by the spec's field names."""

from __future__ import annotations

import numpy as np

from quakemodels.core.skeletal import SkeletalClip, SkeletalScene, SkinnedMesh
from quakemodels.formats.iqm.layout import HEADER_OFFSETS
from quakemodels.formats.iqm.write import write


def two_bone_scene(frames: int = 3, tag: bool = True) -> SkeletalScene:
    """A bar of 8 vertices (two quads) on a root and a child joint (and a ``tag_tip`` child
    when ``tag``); one clip bending the child about Y by up to 45° over ``frames`` frames at
    10 fps."""
    names = ("root", "bend", "tag_tip") if tag else ("root", "bend")
    parents = np.array([-1, 0, 1][: len(names)], np.intp)
    count = len(names)
    t = np.zeros((count, 3))
    t[1] = (4.0, 0, 0)
    if tag:
        t[2] = (4.0, 0, 1)
    r = np.tile([0.0, 0, 0, 1], (count, 1))
    s = np.ones((count, 3))
    x = np.array([0.0, 4, 4, 0, 4, 8, 8, 4])
    y = np.array([0.0, 0, 1, 1, 0, 0, 1, 1])
    positions = np.stack([x, y, np.zeros(8)], axis=1)
    joints = np.array([[0, 1]] * 8, np.intp)
    w1 = np.clip(x / 8.0, 0, 1)
    weights = np.stack([1 - w1, w1], axis=1)
    world = np.tile(np.eye(4), (count, 1, 1))
    world[1, :3, 3] = (4.0, 0, 0)
    if tag:
        world[2, :3, 3] = (8.0, 0, 1)
    mesh = SkinnedMesh(
        name="bar",
        positions=positions,
        targets=np.zeros((0, 8, 3)),
        slots=np.arange(count, dtype=np.intp),
        inverse_bind=np.linalg.inv(world),
        joints=joints,
        weights=weights,
        uvs=(positions[:, :2] / 8.0).astype(np.float32),
        indices=np.array([[0, 1, 2], [0, 2, 3], [4, 5, 6], [4, 6, 7]], np.int64),
        material_name="models/bar/bar.tga",
    )
    angles = np.linspace(0, np.pi / 4, frames)
    rot = np.repeat(r[None], frames, axis=0)
    rot[:, 1] = np.stack(
        [np.zeros(frames), np.sin(angles / 2), np.zeros(frames), np.cos(angles / 2)], axis=1
    )
    clip = SkeletalClip(
        "bend",
        np.arange(frames) / 10.0,
        np.repeat(t[None], frames, axis=0),
        rot,
        np.repeat(s[None], frames, axis=0),
    )
    return SkeletalScene(names, parents, t, r, s, [mesh], [clip], tags=(2,) if tag else ())


def two_bone_iqm(frames: int = 3, comment: bytes = b"") -> bytes:
    """:func:`two_bone_scene` written by our IQM writer."""
    return write(two_bone_scene(frames), comment=comment)


def set_header(data: bytes, field: str, value: int) -> bytes:
    """``data`` with the header's ``field`` (a u4) set to ``value``."""
    at = HEADER_OFFSETS[field]
    return data[:at] + int(value & 0xFFFFFFFF).to_bytes(4, "little") + data[at + 4 :]


def set_u4(data: bytes, at: int, value: int) -> bytes:
    """``data`` with the 4 bytes at ``at`` set to ``value`` (two's complement)."""
    return data[:at] + int(value & 0xFFFFFFFF).to_bytes(4, "little") + data[at + 4 :]


def set_f4(data: bytes, at: int, value: float) -> bytes:
    """``data`` with the float32 at ``at`` set to ``value``."""
    return data[:at] + np.float32(value).tobytes() + data[at + 4 :]
