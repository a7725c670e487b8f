"""Small animated glTF scenes, written byte by byte for the viewer oracles' own tests.

Each ``*_scene()`` returns a :class:`Scene`: the GLB bytes and the numbers it was made from, so a
test can compute by hand where every vertex must be. Nothing here comes from quakemodels; the
GLB container is :func:`gltfbuilder.glb`. All angles are exact multiples of 45° and all key times
multiples of 1/8 s, so float32 storage loses nothing a test compares (except where a test wants
it to: :func:`morph_scene`'s STEP keys at tenths of a second).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from gltfbuilder import glb

FLOAT, UBYTE, USHORT = 5126, 5121, 5123
_TYPES = {1: "SCALAR", 2: "VEC2", 3: "VEC3", 4: "VEC4", 16: "MAT4"}


class Document:
    """A glTF document being built: accessors of numpy arrays in one BIN buffer."""

    def __init__(self) -> None:
        self.json: dict[str, Any] = {
            "asset": {"version": "2.0", "generator": "tests/skinbuilder.py"},
            "scene": 0,
            "scenes": [{"nodes": []}],
            "nodes": [],
            "meshes": [],
            "accessors": [],
            "bufferViews": [],
            "buffers": [{"byteLength": 0}],
        }
        self.blob = bytearray()

    def accessor(self, array: np.ndarray, *, bounds: bool = False) -> int:
        """Index of a new accessor of ``array`` ((count,) or (count, n); float32, uint8 or
        uint16; a (count, 4, 4) array is stored as MAT4, column-major as glTF wants)."""
        if array.ndim == 3:  # matrices: glTF stores each one column by column
            array = np.ascontiguousarray(array.transpose(0, 2, 1)).reshape(len(array), 16)
        width = 1 if array.ndim == 1 else array.shape[1]
        kind = {np.dtype(np.float32): FLOAT, np.dtype(np.uint8): UBYTE,
                np.dtype(np.uint16): USHORT}[array.dtype]  # fmt: skip
        self.blob += b"\0" * (-len(self.blob) % 4)
        data = np.ascontiguousarray(array).tobytes()
        self.json["bufferViews"].append(
            {"buffer": 0, "byteOffset": len(self.blob), "byteLength": len(data)}
        )
        self.blob += data
        self.json["buffers"][0]["byteLength"] = len(self.blob)
        entry: dict[str, Any] = {
            "bufferView": len(self.json["bufferViews"]) - 1,
            "componentType": kind,
            "count": len(array),
            "type": _TYPES[width],
        }
        if bounds:
            flat = array.reshape(len(array), -1)
            entry["min"] = flat.min(axis=0).tolist()
            entry["max"] = flat.max(axis=0).tolist()
        self.json["accessors"].append(entry)
        return len(self.json["accessors"]) - 1

    def node(self, name: str, *, root: bool = False, **fields: Any) -> int:
        """Index of a new node named ``name`` with the glTF ``fields`` given."""
        self.json["nodes"].append({"name": name, **fields})
        if root:
            self.json["scenes"][0]["nodes"].append(len(self.json["nodes"]) - 1)
        return len(self.json["nodes"]) - 1

    def mesh(self, name: str, primitives: list[dict[str, Any]], **fields: Any) -> int:
        """Index of a new mesh."""
        self.json["meshes"].append({"name": name, "primitives": primitives, **fields})
        return len(self.json["meshes"]) - 1

    def triangles(self, positions: np.ndarray, **attributes: int) -> dict[str, Any]:
        """A triangle-list primitive of float32 ``positions`` (n, 3), n a multiple of 3, with
        its POSITION accessor and the other ``attributes`` (name → accessor) given."""
        return {
            "attributes": {"POSITION": self.accessor(positions, bounds=True), **attributes},
            "indices": self.accessor(np.arange(len(positions), dtype=np.uint16)),
        }

    def animation(
        self, name: str, channels: list[tuple[int, str, str, np.ndarray, np.ndarray]]
    ) -> None:
        """An animation of ``(node, path, interpolation, times (k,), values (k·m, n))``."""
        samplers, targets = [], []
        for node, path, interpolation, times, values in channels:
            samplers.append({
                "input": self.accessor(times.astype(np.float32), bounds=True),
                "output": self.accessor(values.astype(np.float32)),
                "interpolation": interpolation,
            })  # fmt: skip
            targets.append({"sampler": len(samplers) - 1, "target": {"node": node, "path": path}})
        self.json.setdefault("animations", []).append(
            {"name": name, "channels": targets, "samplers": samplers}
        )

    def glb(self) -> bytes:
        """The document as a GLB."""
        return glb(self.json, bytes(self.blob))


# --- hand-made transforms (row-major 4×4, acting on column vectors) ------------------------------


def quat(axis: str, degrees: float) -> np.ndarray:
    """Unit quaternion (x, y, z, w) float64 turning by ``degrees`` about axis "x", "y" or "z"."""
    half = math.radians(degrees) / 2
    q = np.zeros(4)
    q["xyz".index(axis)] = math.sin(half)
    q[3] = math.cos(half)
    return q


def trs(t: Any = (0, 0, 0), q: Any = (0, 0, 0, 1), s: Any = (1, 1, 1)) -> np.ndarray:
    """The 4×4 float64 matrix T·R·S of a glTF node (q as x, y, z, w)."""
    x, y, z, w = (float(c) for c in q)
    rotation = np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
    ])  # fmt: skip
    m = np.eye(4)
    m[:3, :3] = rotation * np.asarray(s, np.float64)
    m[:3, 3] = t
    return m


def apply(m: np.ndarray, points: np.ndarray) -> np.ndarray:
    """``points`` (n, 3) moved by the 4×4 ``m``: (n, 3) float64."""
    moved: np.ndarray = np.asarray(points, np.float64) @ m[:3, :3].T + m[:3, 3]
    return moved


@dataclass
class Scene:
    """A built GLB and the parameters a test needs to predict its poses."""

    data: bytes
    facts: dict[str, Any] = field(default_factory=dict)


# --- (a) a mesh in a TRS hierarchy, and a mesh of two primitives ---------------------------------

BOX = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1]], np.float32)


def hierarchy_scene() -> Scene:
    """``root`` (T (1,2,3), 90° about Z, scale 2) → ``body`` (T (0,1,0), matrix-free TRS) with
    mesh ``box`` (one triangle, BOX); ``pair`` (a node given as a ``matrix``: T (0,0,-5)) with
    mesh ``two`` of two primitives (BOX and BOX + 10); ``tag_top.001`` (T (0,0,1)) a child of
    root after body. Animation ``spin``: root's rotation,
    LINEAR, 0° about Y at t=1 s and 90° at t=2 s (key times not starting at 0)."""
    doc = Document()
    box = doc.mesh("box", [doc.triangles(BOX)])
    two = doc.mesh("two", [doc.triangles(BOX), doc.triangles(BOX + 10)])
    root_t, root_q, root_s = (1.0, 2.0, 3.0), quat("z", 90), (2.0, 2.0, 2.0)
    root = doc.node("root", root=True, translation=list(root_t), rotation=root_q.tolist(),
                    scale=list(root_s))  # fmt: skip
    body = doc.node("body", mesh=box, translation=[0.0, 1.0, 0.0])
    top = doc.node("tag_top.001", translation=[0.0, 0.0, 1.0])  # a name three would sanitize
    doc.json["nodes"][root]["children"] = [body, top]
    pair_matrix = trs((0, 0, -5))
    doc.node("pair", root=True, mesh=two, matrix=pair_matrix.T.reshape(-1).tolist())
    times = np.array([1.0, 2.0])
    doc.animation(
        "spin", [(root, "rotation", "LINEAR", times, np.stack([quat("y", 0), quat("y", 90)]))]
    )
    return Scene(doc.glb(), {
        "root": (root_t, root_s), "body_t": (0.0, 1.0, 0.0), "pair": pair_matrix,
        "spin_times": times,
    })  # fmt: skip


# --- (b)+(d) a skinned two-joint chain with a tag on the second joint ----------------------------

# Bind pose: the armature at z = 1, joint j0 at the armature's origin, j1 one unit up (y).
CHAIN = np.array([
    [1, 0, 0], [1, 1, 0], [1, 2, 0],        # triangle 1: j0 only, j0/j1 half each, j1 only
    [0, 0, 0], [0, 1, 0], [0, 2, 0],        # triangle 2: the same weights on the axis
    [-1, 0.5, 0], [-1, 1.5, 0], [-1, 2.5, 0],  # triangle 3: j0 .75/j1 .25, j1 .75/j0 .25, j1
], np.float32)  # fmt: skip
CHAIN_WEIGHTS = np.array([
    [1, 0], [0.5, 0.5], [0, 1],
    [1, 0], [0.5, 0.5], [0, 1],
    [0.75, 0.25], [0.25, 0.75], [0, 1],
], np.float64)  # fmt: skip
ARMATURE_T = (0.0, 0.0, 1.0)
J1_T = (0.0, 1.0, 0.0)
TAG_T = (0.0, 1.0, 0.0)
# ``bend``: j1 turns about Z, LINEAR; j0 moves, STEP. Keys start at t = 0.5 s, every 1/4 s.
BEND_TIMES = np.array([0.5, 0.75, 1.0])
BEND_DEGREES = np.array([0.0, 45.0, 90.0])
STEP_TIMES = np.array([0.5, 0.875])
STEP_VALUES = np.array([[0.0, 0.0, 0.0], [0.0, 0.0, 2.0]])
# ``twist``: j0 turns about Y from 0 to 90°, LINEAR, over [0, 0.25] s.
TWIST_TIMES = np.array([0.0, 0.25])
TWIST_DEGREES = np.array([0.0, 90.0])


def _chain(doc: Document, points: np.ndarray, weights: np.ndarray) -> tuple[int, int]:
    """The armature, joints, tag and skinned mesh node ``chain`` of ``points`` (n, 3) float32
    weighted (n, 2) to j0 and j1; the node indices of j0 and j1."""
    joints = np.zeros((len(points), 4), np.uint8)
    joints[:, 1] = 1
    slots = np.zeros((len(points), 4), np.float32)
    slots[:, :2] = weights
    joints[slots == 0] = 0  # the validator wants unused slots to name joint 0
    chain_mesh = doc.mesh("chain", [doc.triangles(
        points, JOINTS_0=doc.accessor(joints), WEIGHTS_0=doc.accessor(slots))])  # fmt: skip
    armature = doc.node("armature", root=True, translation=list(ARMATURE_T))
    j0 = doc.node("j0")
    j1 = doc.node("j1", translation=list(J1_T))
    tag = doc.node("tag_x", translation=list(TAG_T))
    doc.json["nodes"][armature]["children"] = [j0]
    doc.json["nodes"][j0]["children"] = [j1]
    doc.json["nodes"][j1]["children"] = [tag]
    bind0 = trs(ARMATURE_T)
    bind1 = bind0 @ trs(J1_T)
    ibm = doc.accessor(np.linalg.inv(np.stack([bind0, bind1])).astype(np.float32))
    doc.json["skins"] = [{"joints": [j0, j1], "inverseBindMatrices": ibm, "skeleton": j0}]
    doc.node("chain", root=True, mesh=chain_mesh, skin=0)
    return j0, j1


def skin_scene() -> Scene:
    """Nodes ``armature`` (T ARMATURE_T) → ``j0`` → ``j1`` (T J1_T) → ``tag_x`` (T TAG_T), and
    the skinned mesh node ``chain`` (identity, skin of joints j0, j1; inverse bind matrices the
    inverses of the joints' bind-pose world matrices; weights CHAIN_WEIGHTS). Animations
    ``bend`` and ``twist`` (see the constants above)."""
    doc = Document()
    j0, j1 = _chain(doc, CHAIN, CHAIN_WEIGHTS)
    bend = np.stack([quat("z", d) for d in BEND_DEGREES])
    doc.animation("bend", [
        (j1, "rotation", "LINEAR", BEND_TIMES, bend),
        (j0, "translation", "STEP", STEP_TIMES, STEP_VALUES),
    ])  # fmt: skip
    twist = np.stack([quat("y", d) for d in TWIST_DEGREES])
    doc.animation("twist", [(j0, "rotation", "LINEAR", TWIST_TIMES, twist)])
    return Scene(doc.glb())


# ``wave`` of :func:`big_skin_scene`: j1 about Z over 4.9 s (50 frames at 10 fps).
WAVE_TIMES = np.array([0.0, 1.225, 2.45, 3.675, 4.9])
WAVE_DEGREES = np.array([0.0, 45.0, 90.0, 45.0, 0.0])


def big_skin_scene(vertices: int, seed: int = 36) -> Scene:
    """The chain of :func:`skin_scene` with ``vertices`` (a multiple of 3) random points in
    [-1, 1] × [0, 2] × [-1, 1], weighted to j1 by height (y / 2); animation ``wave``.
    ``facts``: points (n, 3) float32, weights (n, 2) float64."""
    rng = np.random.default_rng(seed)
    points = (rng.random((vertices, 3)) * [2, 2, 2] - [1, 0, 1]).astype(np.float32)
    upper = np.round(points[:, 1].astype(np.float64) / 2, 2)  # exact in float32 after sum
    weights = np.stack([1 - upper, upper], axis=1)
    doc = Document()
    _, j1 = _chain(doc, points, weights)
    wave = np.stack([quat("z", d) for d in WAVE_DEGREES])
    doc.animation("wave", [(j1, "rotation", "LINEAR", WAVE_TIMES, wave)])
    return Scene(doc.glb(), {"points": points, "weights": weights})


# --- (c) morph weights, CUBICSPLINE and STEP, on a scaled and moved mesh -------------------------

MORPH_BASE = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], np.float32)
MORPH_TARGETS = np.array([
    [[0, 0, 1], [0, 0, 1], [0, 0, 1]],      # "lift": every vertex +1 in z
    [[1, 0, 0], [0, 0, 0], [0, 0, 0]],      # "poke": vertex 0 +1 in x
], np.float32)  # fmt: skip
MORPH_T, MORPH_S = (0.0, 16.0, 0.0), (2.0, 3.0, 4.0)
# ``pulse``, CUBICSPLINE over keys 0 and 1 s: per key (in-tangents, values, out-tangents) of
# the two weights.
PULSE_TIMES = np.array([0.0, 1.0])
PULSE = np.array([
    [[0, 0], [0, 0], [2, 0]],   # key 0: value 0, 0; out-tangent 2 for "lift"
    [[0, 4], [1, 1], [0, 0]],   # key 1: value 1, 1; in-tangent 4 for "poke"
], np.float64)  # fmt: skip
# ``blink``, STEP at tenths of a second (float32 keys just above the decimal times).
BLINK_TIMES = np.array([0.0, 0.1, 0.2])
BLINK = np.array([[0, 0], [1, 0], [0, 1]], np.float64)


def morph_scene() -> Scene:
    """Node ``blob`` (T MORPH_T, scale MORPH_S) with mesh ``blob`` (MORPH_BASE and the two
    MORPH_TARGETS, default weights 0); animations ``pulse`` (CUBICSPLINE) and ``blink`` (STEP)."""
    doc = Document()
    primitive = doc.triangles(MORPH_BASE)
    primitive["targets"] = [{"POSITION": doc.accessor(t, bounds=True)} for t in MORPH_TARGETS]
    mesh = doc.mesh("blob", [primitive], weights=[0.0, 0.0],
                    extras={"targetNames": ["lift", "poke"]})  # fmt: skip
    blob = doc.node("blob", root=True, mesh=mesh, translation=list(MORPH_T), scale=list(MORPH_S))
    doc.animation("pulse", [(blob, "weights", "CUBICSPLINE", PULSE_TIMES, PULSE.reshape(-1))])
    doc.animation("blink", [(blob, "weights", "STEP", BLINK_TIMES, BLINK.reshape(-1))])
    return Scene(doc.glb())
