"""Reading OBJ files (one frame each) into an ImportedMesh.

OBJ ``vt`` has v up, so t = 1 − v (Quake and glTF store t down).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from ..errors import BadValueError, ModelFormatError
from .imported import FloatArray, ImportedMesh, from_y_up


def _obj_index(token: str, count: int, what: str, where: str) -> int:
    try:
        i = int(token)
    except ValueError as e:
        raise BadValueError(f"{where}: bad {what} index {token!r}", field="f") from e
    i = i - 1 if i > 0 else count + i  # OBJ counts from 1; negative counts back from the end
    if not 0 <= i < count:
        raise BadValueError(f"{where}: {what} index {token} outside 1..{count}", field="f")
    return i


def read_obj(path: str | os.PathLike[str]) -> tuple[FloatArray, FloatArray | None, list[list[int]]]:
    """One OBJ: corner positions (N,3) float32 Y-up as in the file, uvs (N,2) or None, and
    triangles (fans of polygons) as corner index lists, where corner = (v, vt) pair."""
    p = Path(path)
    vs: list[list[float]] = []
    vts: list[list[float]] = []
    faces: list[list[tuple[int, int]]] = []
    with open(p, encoding="utf-8", errors="replace") as f:
        for number, line in enumerate(f, 1):
            parts = line.split()
            if not parts or parts[0].startswith("#"):
                continue
            where = f"{p}:{number}"
            try:
                if parts[0] == "v":
                    vs.append([float(x) for x in parts[1:4]])
                elif parts[0] == "vt":
                    vts.append([float(x) for x in parts[1:3]])
                elif parts[0] == "f":
                    corners = []
                    for token in parts[1:]:
                        fields = token.split("/")
                        v = _obj_index(fields[0], len(vs), "v", where)
                        t = -1
                        if len(fields) > 1 and fields[1]:
                            t = _obj_index(fields[1], len(vts), "vt", where)
                        corners.append((v, t))
                    if len(corners) < 3:
                        raise BadValueError(f"{where}: a face needs 3 corners", field="f")
                    faces.append(corners)
            except ValueError as e:
                if isinstance(e, ModelFormatError):
                    raise
                raise BadValueError(f"{where}: bad number in {line.strip()!r}", field="v") from e
            if parts[0] == "v" and len(vs[-1]) != 3:
                raise BadValueError(f"{where}: a vertex needs 3 coordinates", field="v")
    keys: dict[tuple[int, int], int] = {}
    triangles: list[list[int]] = []
    for face in faces:
        ids = [keys.setdefault(c, len(keys)) for c in face]
        triangles.extend([ids[0], ids[i], ids[i + 1]] for i in range(1, len(ids) - 1))
    corners = list(keys)
    positions = np.array([vs[v] for v, _ in corners], np.float32).reshape(-1, 3)
    uvs = None
    if corners and all(t >= 0 for _, t in corners):
        uv = np.array([vts[t] for _, t in corners], np.float64)
        uvs = np.column_stack([uv[:, 0], 1.0 - uv[:, 1]]).astype(np.float32)
    return positions, uvs, triangles


def read_obj_sequence(
    paths: Sequence[str | os.PathLike[str]], frame_names: Sequence[str] | None = None
) -> ImportedMesh:
    """One frame per OBJ file (same faces in every file); names default to the file stems."""
    if not paths:
        raise BadValueError("no OBJ files given", field="frames")
    first_pos, uvs, triangles = read_obj(paths[0])
    frames = [first_pos]
    for path in paths[1:]:
        pos, _, tris = read_obj(path)
        if tris != triangles or pos.shape != first_pos.shape:
            raise BadValueError(
                f"{path}: faces differ from {paths[0]} (every frame needs the same mesh)",
                field="f",
            )
        frames.append(pos)
    names = list(frame_names) if frame_names else [Path(p).stem for p in paths]
    if len(names) != len(paths):
        raise BadValueError(f"{len(names)} frame names for {len(paths)} files", field="frames")
    return ImportedMesh(
        positions=from_y_up(np.stack(frames)),
        uvs=uvs,
        indices=np.array(triangles, np.int64).reshape(-1, 3),
        frame_names=names,
    )
