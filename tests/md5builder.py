"""MD5 (Doom 3 version 10) text made from arrays, for tests and fuzz seeds: a mesh of joints
and weighted vertices, an animation of frames over a hierarchy."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def _v(values: Sequence[float]) -> str:
    return "( " + " ".join(f"{float(v):.6f}" for v in values) + " )"


def mesh_text(
    joints: Sequence[tuple[str, int, Sequence[float], Sequence[float]]],
    meshes: Sequence[dict[str, object]],
) -> bytes:
    """An .md5mesh: ``joints`` (name, parent, position xyz, orientation xyz) in object
    space; each mesh a dict with ``shader``, ``uvs`` (N,2), ``verts`` (N,2) first weight and
    count, ``tris`` (T,3), ``weights`` (W,) tuples (joint, bias, (x, y, z))."""
    out = ["MD5Version 10", 'commandline "made by md5builder"', ""]
    out += [f"numJoints {len(joints)}", f"numMeshes {len(meshes)}", "", "joints {"]
    for name, parent, pos, quat in joints:
        out.append(f'\t"{name}"\t{parent} {_v(pos)} {_v(quat)}\t\t// ')
    out.append("}")
    for m in meshes:
        out += ["", "mesh {", f"\t// meshes: {m.get('name', 'mesh')}", f'\tshader "{m["shader"]}"']
        uvs = np.asarray(m["uvs"], dtype=float)
        verts = np.asarray(m["verts"], dtype=int)
        out.append(f"\n\tnumverts {len(uvs)}")
        for i, (uv, (first, count)) in enumerate(zip(uvs, verts, strict=True)):
            out.append(f"\tvert {i} {_v(uv)} {first} {count}")
        tris = np.asarray(m["tris"], dtype=int).reshape(-1, 3)
        out.append(f"\n\tnumtris {len(tris)}")
        out += [f"\ttri {i} {a} {b} {c}" for i, (a, b, c) in enumerate(tris)]
        weights = list(m["weights"])  # type: ignore[call-overload]
        out.append(f"\n\tnumweights {len(weights)}")
        for i, (joint, bias, offset) in enumerate(weights):
            out.append(f"\tweight {i} {joint} {bias:.6f} {_v(offset)}")
        out.append("}")
    return ("\n".join(out) + "\n").encode()


def anim_text(
    hierarchy: Sequence[tuple[str, int, int, int]],
    base: Sequence[tuple[Sequence[float], Sequence[float]]],
    frames: Sequence[Sequence[float]],
    frame_rate: int = 24,
) -> bytes:
    """An .md5anim: ``hierarchy`` (name, parent, flags, start index), ``base`` (position,
    orientation xyz) per joint, ``frames`` each its animated components."""
    components = len(frames[0]) if frames else 0
    out = ["MD5Version 10", 'commandline "made by md5builder"', ""]
    out += [
        f"numFrames {len(frames)}",
        f"numJoints {len(hierarchy)}",
        f"frameRate {frame_rate}",
        f"numAnimatedComponents {components}",
        "",
        "hierarchy {",
    ]
    out += [f'\t"{n}"\t{p} {f} {s}\t//' for n, p, f, s in hierarchy]
    out += ["}", "", "bounds {"]
    out += ["\t( -1 -1 -1 ) ( 1 1 1 )" for _ in frames]
    out += ["}", "", "baseframe {"]
    out += [f"\t{_v(p)} {_v(q)}" for p, q in base]
    out.append("}")
    for i, values in enumerate(frames):
        out += ["", f"frame {i} {{", "\t" + " ".join(f"{v:.6f}" for v in values), "}"]
    return ("\n".join(out) + "\n").encode()


def two_bone() -> tuple[bytes, bytes]:
    """A two-joint arm (root at the origin, an elbow 4 units up x) with one quad of two
    triangles bound half to each joint, and a 3-frame animation bending the elbow 90° about
    z: (mesh text, anim text)."""
    s = np.sqrt(0.5)
    joints = [("root", -1, (0, 0, 0), (0, 0, 0)), ("elbow", 0, (4, 0, 0), (0, 0, 0))]
    uvs = [(0, 0), (1, 0), (1, 1), (0, 1)]
    # vertices at x = 2 (bound to root) and x = 6 (bound to the elbow, offset +2 in x)
    weights = [
        (0, 1.0, (2, -1, 0)),
        (1, 1.0, (2, -1, 0)),
        (1, 1.0, (2, 1, 0)),
        (0, 1.0, (2, 1, 0)),
    ]
    mesh = mesh_text(
        joints,
        [
            {
                "name": "arm",
                "shader": "models/arm/skin.tga",
                "uvs": uvs,
                "verts": [(0, 1), (1, 1), (2, 1), (3, 1)],
                "tris": [(0, 2, 1), (0, 3, 2)],
                "weights": weights,
            }
        ],
    )
    # the elbow's local rotation per frame: 0°, 45°, 90° about z (x, y, z stored; w from them)
    angles = [0.0, np.pi / 4, np.pi / 2]
    frames = [[0.0, 0.0, float(-np.sin(a / 2))] for a in angles]
    anim = anim_text(
        [("root", -1, 0, 0), ("elbow", 0, 0b111000, 0)],
        [((0, 0, 0), (0, 0, 0)), ((4, 0, 0), (0, 0, 0))],
        frames,
    )
    del s
    return mesh, anim
