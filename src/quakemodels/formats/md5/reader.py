"""MD5 (Doom 3 version 10) text read into numpy arrays: ``.md5mesh`` (joints in their bind
pose, meshes of weighted vertices) and ``.md5anim`` (a joint hierarchy, a base frame and each
frame's animated components).

Every count is bounded (:data:`.limits.READ`) before anything it sizes is allocated, every
index is checked, and every error is a :class:`~quakemodels.errors.TextFormatError` naming the
line and column of the token at fault. Quaternions are stored as x, y, z; w is recomputed as
Doom 3 does (``idQuat::CalcW``: ``sqrt(|1 - x² - y² - z²|)``), with the sign that makes the
rotation the one Doom 3's matrices (row vectors) apply: in the column-vector convention of
:mod:`quakemodels.core.skeletal` the quaternion is (x, y, z, -w).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal, TypeVar

import numpy as np
import numpy.typing as npt

from ...errors import TextFormatError
from .fast import CompiledTokens, Declined, FastTokens
from .layout import VERSION
from .limits import READ
from .tokens import FLOAT, INT, NAME, ROW, Column, Tokens

_P = TypeVar("_P")
F64 = npt.NDArray[np.float64]
I64 = npt.NDArray[np.int64]

# Bits of a hierarchy entry's flags: which of Tx Ty Tz Qx Qy Qz a frame animates, in order
# (Doom 3 Anim.cpp ANIM_TX..ANIM_QZ; Q2PRO MD5_NUM_ANIMATED_COMPONENT_BITS).
ANIM_BITS = 6


CalcW = Literal["doom3", "clamp"]
"""How w is recomputed where rounding leaves x² + y² + z² over 1: ``doom3`` (``idQuat::CalcW``:
sqrt(|1 - x² - y² - z²|), a small w), ``clamp`` (Q2PRO's ``Quat_ComputeW``, the IQM tool's and
assimp's: w = 0). Stored rotations near 180° differ between the two by up to ~1e-3 radians."""


def quaternions(xyz: F64, calc_w: CalcW = "doom3") -> F64:
    """(...,4) unit quaternions (x, y, z, w) of the rotations stored as (...,3) x, y, z: w
    by ``calc_w`` (Doom 3's by default), negated for the column-vector convention (see the
    module)."""
    rest = 1.0 - np.sum(xyz * xyz, axis=-1)
    w = -np.sqrt(np.abs(rest) if calc_w == "doom3" else np.maximum(rest, 0.0))
    q = np.concatenate([xyz, w[..., None]], axis=-1)
    norm = np.linalg.norm(q, axis=-1, keepdims=True)
    return np.asarray(q / np.where(norm > 0, norm, 1.0), dtype=np.float64)


def rotate(q: F64, v: F64) -> F64:
    """(...,3) vectors ``v`` rotated by (...,4) unit quaternions ``q`` (x, y, z, w)."""
    u = q[..., :3]
    w = q[..., 3:]
    t = 2.0 * np.cross(u, v)
    return np.asarray(v + w * t + np.cross(u, t), dtype=np.float64)


@dataclass(frozen=True)
class Md5MeshBlock:
    """One ``mesh { }`` block: ``shader`` (its material name), ``uvs`` (N,2) float64 (s, t;
    t down), ``first`` and ``count`` (N,) int64 each vertex's weights, ``triangles`` (T,3)
    int64 as stored (Doom 3's winding), and the weights: ``weight_joint`` (W,) int64,
    ``bias`` (W,) float64, ``offset`` (W,3) float64 (in the joint's bind space)."""

    name: str
    shader: str
    uvs: F64
    first: I64
    count: I64
    triangles: I64
    weight_joint: I64
    bias: F64
    offset: F64
    token: int
    """Index of the block's ``mesh`` keyword among the file's tokens."""


@dataclass(frozen=True)
class Md5MeshFile:
    """A ``.md5mesh``: joints ``names``, ``parents`` (J,) int64 (-1 a root; a parent always
    comes first), their bind pose in object space ``position`` (J,3) and ``orientation``
    (J,4) float64 (x, y, z, w; w by Doom 3's rule) with the stored ``orientation_xyz`` (J,3),
    and the meshes."""

    commandline: str
    names: tuple[str, ...]
    parents: I64
    position: F64
    orientation: F64
    meshes: list[Md5MeshBlock]
    orientation_xyz: F64


@dataclass(frozen=True)
class Md5AnimFile:
    """A ``.md5anim``: ``frame_rate`` frames a second; the hierarchy ``names``, ``parents``,
    ``flags`` and ``start`` (J,) int64; per-frame ``bounds`` (F,2,3); the ``base`` frame's
    parent-relative ``base_position`` (J,3) and ``base_xyz`` (J,3) (quaternion x, y, z); the
    ``components`` (F,C) float64."""

    frame_rate: int
    names: tuple[str, ...]
    parents: I64
    flags: I64
    start: I64
    bounds: F64
    base_position: F64
    base_xyz: F64
    components: F64

    @property
    def num_frames(self) -> int:
        return int(self.components.shape[0])

    def local(self, calc_w: CalcW = "doom3") -> tuple[F64, F64]:
        """Every frame's parent-relative joint (F,J,3) positions and (F,J,4) quaternions:
        the base frame with each joint's flagged components replaced by the frame's."""
        frames = self.num_frames
        channels = np.concatenate([self.base_position, self.base_xyz], axis=1)  # (J,6)
        out = np.broadcast_to(channels, (frames, *channels.shape)).copy()
        for j in range(len(self.names)):
            flags = int(self.flags[j])
            k = int(self.start[j])
            for bit in range(ANIM_BITS):
                if flags & (1 << bit):
                    out[:, j, bit] = self.components[:, k]
                    k += 1
        return out[..., :3], quaternions(out[..., 3:], calc_w)


def _header(tok: Tokens) -> str:
    """``MD5Version 10`` and the ``commandline`` string; returns the command line."""
    tok.expect("MD5Version")
    tok.integer("MD5Version", VERSION, VERSION)
    tok.expect("commandline")
    return tok.string("commandline")


def _parent(tok: Tokens, joint: int, field: str) -> int:
    at = tok.pos
    parent = tok.integer(field, -1, 2**31 - 1)
    if parent >= joint:
        tok.fail(
            field,
            f"joint {joint}'s parent {parent} is not an earlier joint (a parent must come"
            " before its children; no cycles)",
            at,
        )
    return parent


def read_mesh(data: bytes, what: str = "md5mesh") -> Md5MeshFile:
    """Parse a ``.md5mesh`` (``what`` names it in errors). The last few files parsed are
    kept (read-only): ``check`` and ``load`` of the same bytes, as the CLI and the fuzzers
    run them, parse once."""
    return _read_mesh(bytes(data), what)


_FAILED: dict[tuple[bytes, str], TextFormatError] = {}
"""The last few refused files (bytes, name) → their error, raised again as a fresh copy."""


def _read_mesh(data: bytes, what: str) -> Md5MeshFile:
    failed = _FAILED.get((data, what))
    if failed is not None:
        raise TextFormatError(
            str(failed),
            field=failed.field,
            offset=failed.offset,
            line=failed.line,
            column=failed.column,
        )
    try:
        return _parsed_mesh(data, what)
    except TextFormatError as e:
        if len(_FAILED) >= 4:
            _FAILED.pop(next(iter(_FAILED)))
        _FAILED[(data, what)] = e
        raise


@functools.lru_cache(maxsize=4)
def _parsed_mesh(data: bytes, what: str) -> Md5MeshFile:
    mesh = _parse_mesh(data, what)
    for array in (mesh.parents, mesh.position, mesh.orientation, mesh.orientation_xyz):
        array.flags.writeable = False
    for b in mesh.meshes:
        for array in (b.uvs, b.first, b.count, b.triangles, b.weight_joint, b.bias, b.offset):
            array.flags.writeable = False
    return mesh


def tokens(data: bytes, what: str, plain: bool = False) -> Tokens:
    """The tokens of ``data``: found with numpy (:class:`.fast.FastTokens`) unless ``plain``
    or a string or comment is not closed (the plain tokenizer names it)."""
    fast = None if plain else FastTokens.of(data, what)
    return Tokens(data, what) if fast is None else fast


def parsed(
    parse: Callable[[Tokens], _P], data: bytes, what: str, plain: bool, compiled: bool
) -> _P:
    """``parse`` of the tokens of ``data``: the compiled ones first (:class:`.fast.
    CompiledTokens`, when built, ``compiled`` and not ``plain``), read again by
    :func:`tokens` where they decline (a fault, or a cell they are not sure of)."""
    if compiled and not plain:
        tok = CompiledTokens.of(data, what)
        if tok is not None:
            try:
                return parse(tok)
            except Declined:
                pass  # the Python tokenizers read it, and name the fault
    return parse(tokens(data, what, plain))


def _parse_mesh(
    data: bytes, what: str, plain: bool = False, *, compiled: bool = True
) -> Md5MeshFile:
    """The parse of :func:`read_mesh`, uncached; ``plain`` without the fast paths,
    ``compiled`` False without the compiled one."""
    return parsed(_mesh_file, data, what, plain, compiled)


def _mesh_file(tok: Tokens) -> Md5MeshFile:
    commandline = _header(tok)
    tok.expect("numJoints")
    num_joints = tok.integer("numJoints", 1, READ.joints)
    tok.expect("numMeshes")
    num_meshes = tok.integer("numMeshes", 0, READ.meshes)
    tok.expect("joints")
    tok.expect("{", "joints")
    joints_at = tok.pos
    pose, (parents,), (names,) = tok.table(
        num_joints, (NAME, INT, "(", *[FLOAT] * 3, ")", "(", *[FLOAT] * 3, ")"), "joint"
    )
    _joint_errors(tok, joints_at, names, parents)
    tok.expect("}", "joints")
    pose_array = np.stack(pose, axis=1)
    meshes = [_mesh(tok, num_joints) for _ in range(num_meshes)]
    if tok.pos < len(tok.words):
        tok.fail("end", f"unexpected {tok._shown(tok.pos)} after the {num_meshes} meshes")
    return Md5MeshFile(
        commandline,
        tuple(names),
        parents,
        pose_array[:, :3].copy(),
        quaternions(pose_array[:, 3:]),
        meshes,
        pose_array[:, 3:].copy(),
    )


def _joint_errors(tok: Tokens, table_at: int, names: list[str], parents: I64) -> None:
    """Raise at the first joint (of the table read from token ``table_at``) whose name is
    too long or whose parent is not an earlier joint."""
    too_long = [j for j, n in enumerate(names) if len(n) > READ.joint_name]
    bad = np.flatnonzero((parents < -1) | (parents >= np.arange(len(parents))))
    if not too_long and not bad.size:
        return
    j = min(too_long + bad[:1].tolist())
    width = 12  # name parent ( x y z ) ( x y z )
    if too_long and too_long[0] == j:
        tok.cell_error(
            table_at,
            width,
            j,
            0,
            "joint name",
            f"joint {j}'s name is over {READ.joint_name} characters",
        )
    parent = int(parents[j])
    if parent < -1:
        tok.cell_error(
            table_at,
            width,
            j,
            1,
            "joint parent",
            f"joint parent {parent} is outside -1..{2**31 - 1}",
        )
    tok.cell_error(
        table_at,
        width,
        j,
        1,
        "joint parent",
        f"joint {j}'s parent {parent} is not an earlier joint (a parent must come before its"
        " children; no cycles)",
    )


def _mesh(tok: Tokens, num_joints: int) -> Md5MeshBlock:
    at = tok.pos
    tok.expect("mesh")
    tok.expect("{", "mesh")
    name = tok.string("mesh name") if tok.accept("name") else ""
    # Sauerbraten's exporter names a mesh in a comment, "// meshes: gl", which its md5.cfg
    # (md5skin gl ...) and Sauerbraten's loader use
    name = name or tok.comment_names.get(tok.pos, "")
    tok.expect("shader")
    shader = tok.string("shader")

    tok.expect("numverts")
    num_verts = tok.integer("numverts", 0, READ.vertices)
    vert_at = tok.pos
    (s, t), (first, count), _ = tok.table(
        num_verts, ("vert", ROW, "(", FLOAT, FLOAT, ")", INT, INT), "vert"
    )

    tok.expect("numtris")
    num_tris = tok.integer("numtris", 0, READ.triangles)
    tri_at = tok.pos
    _, (a, b, c), _ = tok.table(num_tris, ("tri", ROW, INT, INT, INT), "tri")
    triangles = np.stack([a, b, c], axis=1) if num_tris else np.zeros((0, 3), np.int64)
    bad = np.flatnonzero(((triangles < 0) | (triangles >= num_verts)).any(axis=1))
    if bad.size:
        row = int(bad[0])
        col = int(np.flatnonzero((triangles[row] < 0) | (triangles[row] >= num_verts))[0])
        tok.cell_error(
            tri_at,
            5,
            row,
            2 + col,
            "tri",
            f"triangle {row} names vertex {int(triangles[row, col])} of {num_verts}",
        )

    tok.expect("numweights")
    num_weights = tok.integer("numweights", 0, READ.weights)
    weight_at = tok.pos
    (bias, ox, oy, oz), (joint,), _ = tok.table(
        num_weights, ("weight", ROW, INT, FLOAT, "(", FLOAT, FLOAT, FLOAT, ")"), "weight"
    )
    bad = np.flatnonzero((joint < 0) | (joint >= num_joints))
    if bad.size:
        row = int(bad[0])
        tok.cell_error(
            weight_at,
            9,
            row,
            2,
            "weight",
            f"weight {row} names joint {int(joint[row])} of {num_joints}",
        )
    # a vertex's weights: at least one (Doom 3: "Vertex without any joint weights"), all
    # inside the weight list
    bad = np.flatnonzero((count < 1) | (first < 0) | (first + count > num_weights))
    if bad.size:
        row = int(bad[0])
        tok.cell_error(
            vert_at,
            8,
            row,
            6,
            "vert",
            f"vertex {row} takes weights {int(first[row])}..{int(first[row] + count[row]) - 1}"
            f" (count {int(count[row])}) of {num_weights}: it needs at least one, inside the"
            " weight list",
        )
    tok.expect("}", "mesh")
    return Md5MeshBlock(
        name,
        shader,
        np.stack([s, t], axis=1) if num_verts else np.zeros((0, 2)),
        first,
        count,
        triangles,
        joint,
        bias,
        np.stack([ox, oy, oz], axis=1) if num_weights else np.zeros((0, 3)),
        at,
    )


def read_anim(
    data: bytes,
    what: str = "md5anim",
    joints: tuple[tuple[str, ...], npt.NDArray[np.integer]] | None = None,
    *,
    plain: bool = False,
    compiled: bool = True,
) -> Md5AnimFile:
    """Parse a ``.md5anim`` (``what`` names it in errors); with ``joints`` (a mesh's names and
    parents) its hierarchy must be that one, joint for joint (``plain``, ``compiled``: as
    :func:`parsed`)."""
    return parsed(lambda tok: _anim_file(tok, joints), data, what, plain, compiled)


def _anim_file(
    tok: Tokens, joints: tuple[tuple[str, ...], npt.NDArray[np.integer]] | None
) -> Md5AnimFile:
    _header(tok)
    tok.expect("numFrames")
    num_frames = tok.integer("numFrames", 1, READ.frames)
    tok.expect("numJoints")
    num_joints = tok.integer("numJoints", 1, READ.joints)
    if joints is not None and num_joints != len(joints[0]):
        tok.fail(
            "numJoints",
            f"numJoints {num_joints} where the mesh has {len(joints[0])} joints",
            tok.pos - 1,
        )
    tok.expect("frameRate")
    frame_rate = tok.integer("frameRate", 1, 1000)
    tok.expect("numAnimatedComponents")
    num_components = tok.integer("numAnimatedComponents", 0, READ.animated_components)
    if num_components > ANIM_BITS * num_joints:
        tok.fail(
            "numAnimatedComponents",
            f"numAnimatedComponents {num_components} is over 6 per joint ({num_joints} joints)",
            tok.pos - 1,
        )
    tok.expect("hierarchy")
    tok.expect("{", "hierarchy")
    names: list[str] = []
    parents: list[int] = []
    flags: list[int] = []
    starts: list[int] = []
    for j in range(num_joints):
        at = tok.pos
        names.append(tok.name("joint name"))
        parents.append(_parent(tok, j, "joint parent"))
        if joints is not None and (names[j], parents[j]) != (joints[0][j], int(joints[1][j])):
            tok.fail(
                "hierarchy",
                f"joint {j} is {names[j]!r} (parent {parents[j]}) where the mesh has"
                f" {joints[0][j]!r} (parent {int(joints[1][j])}): this animation is for"
                " another skeleton",
                at,
            )
        flag = tok.integer("joint flags", 0, (1 << ANIM_BITS) - 1)
        at = tok.pos
        first = tok.integer("joint start index", 0, num_components)
        if first + bin(flag).count("1") > num_components:
            tok.fail(
                "joint start index",
                f"joint {j} animates {bin(flag).count('1')} components from {first}, past"
                f" numAnimatedComponents {num_components}",
                at,
            )
        flags.append(flag)
        starts.append(first)
    tok.expect("}", "hierarchy")

    tok.expect("bounds")
    tok.expect("{", "bounds")
    box, _, _ = tok.table(
        num_frames, ("(", FLOAT, FLOAT, FLOAT, ")", "(", FLOAT, FLOAT, FLOAT, ")"), "bounds"
    )
    tok.expect("}", "bounds")
    tok.expect("baseframe")
    tok.expect("{", "baseframe")
    base, _, _ = tok.table(
        num_joints, ("(", FLOAT, FLOAT, FLOAT, ")", "(", FLOAT, FLOAT, FLOAT, ")"), "baseframe"
    )
    tok.expect("}", "baseframe")
    columns: tuple[Column, ...] = ("frame", ROW, "{", *([FLOAT] * num_components), "}")
    values, _, _ = tok.table(num_frames, columns, "frame")
    if tok.pos < len(tok.words):
        tok.fail("end", f"unexpected {tok._shown(tok.pos)} after the {num_frames} frames")
    components = (
        np.stack(values, axis=1) if num_components else np.zeros((num_frames, 0), np.float64)
    )
    return Md5AnimFile(
        frame_rate,
        tuple(names),
        np.array(parents, dtype=np.int64),
        np.array(flags, dtype=np.int64),
        np.array(starts, dtype=np.int64),
        np.stack(box, axis=1).reshape(num_frames, 2, 3),
        np.stack(base[:3], axis=1),
        np.stack(base[3:], axis=1),
        components,
    )


@dataclass(frozen=True)
class BoundMesh:
    """A mesh block's vertices from its weights: ``positions`` (N,3) float64 (Doom 3's sum
    over the bind pose), and each vertex's ``joint`` (N,K) int64 and ``bias`` (N,K) float64
    (K the most weights any vertex has; unused places bias 0, joint of the first), each
    weight's idea of where its vertex is, ``points`` (N,K,3), and which places are weights,
    ``used`` (N,K) bool."""

    positions: F64
    joint: npt.NDArray[np.int64]
    bias: F64
    points: F64
    used: npt.NDArray[np.bool_]

    @property
    def spread(self) -> F64:
        """(N,) how far each vertex's weights disagree on where it is (0 for one weight);
        computed when asked (the checker), not for a pose."""
        total = self.bias.sum(axis=1, keepdims=True)
        mean = self.positions / np.where(total != 0, total, 1.0)
        apart = np.linalg.norm(self.points - mean[:, None], axis=2)
        spread: F64 = np.where(self.used, apart, 0.0).max(axis=1, initial=0.0)
        return spread


def bind_vertices(block: Md5MeshBlock, position: F64, orientation: F64) -> BoundMesh:
    """Every vertex of ``block`` in the bind pose (object-space joints ``position`` (J,3),
    ``orientation`` (J,4)), vectorised over all weights and vertices at once."""
    n = len(block.first)
    k = int(block.count.max(initial=1))
    place = np.arange(k)
    used = place[None, :] < block.count[:, None]  # (N,K)
    index = np.where(used, block.first[:, None] + place[None, :], block.first[:, None])
    joint = block.weight_joint[index] if n else np.zeros((0, k), np.int64)
    # each weight's idea of the vertex: its joint's orientation rotates the offset, plus the
    # joint's position
    seen = rotate(orientation[block.weight_joint], block.offset) + position[block.weight_joint]
    bias = np.where(used, block.bias[index], 0.0) if n else np.zeros((0, k))
    points = seen[index] if n else np.zeros((0, k, 3))
    return BoundMesh(np.einsum("nk,nkd->nd", bias, points), joint, bias, points, used)


@dataclass
class Md5Files:
    """What an MD5 model is read from: the ``.md5mesh`` (:attr:`mesh_file`), its animations
    (:attr:`anims`, clip name → file, in order), the source ``name`` and mesh ``data``,
    Sauerbraten ``md5tag`` renames (:attr:`tag_names`, joint → tag) and ``.md5scale`` scales
    (:attr:`scales`, clip → (F,J), negative where positions are scaled too)."""

    mesh_file: Md5MeshFile
    anims: dict[str, Md5AnimFile] = field(default_factory=dict)
    name: str | None = None
    data: bytes = b""
    tag_names: dict[str, str] = field(default_factory=dict)
    scales: dict[str, F64] = field(default_factory=dict)

    @cached_property
    def bound(self) -> list[BoundMesh]:
        """Each mesh block's bind-pose vertices and weights."""
        m = self.mesh_file
        return [bind_vertices(b, m.position, m.orientation) for b in m.meshes]

    @property
    def tags(self) -> tuple[int, ...]:
        """The tag joints: named ``tag_*`` (any case) or named by ``md5tag``."""
        return tuple(
            j
            for j, n in enumerate(self.mesh_file.names)
            if n.lower().startswith("tag_") or n in self.tag_names
        )
