"""Reading OBJ files (one frame each) into an ImportedMesh.

OBJ ``vt`` has v up, so t = 1 − v (Quake and glTF store t down); a ``vt`` with only u has
v = 0. Files are untrusted: only regular files are read, every number must be finite, every
index must name an earlier ``v``/``vt``, and the result's size (:class:`ImportLimits`) is
checked while reading and before the other frames are read. Every problem is a
:class:`ModelFormatError` naming the file and line.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from ..core.files import read_regular
from ..errors import BadValueError, ModelFormatError
from .imported import DEFAULT_LIMITS, FloatArray, ImportedMesh, ImportLimits, check_shape, from_y_up

NAME_BYTES = 15
"""Default frame names (file stems) are cut to this many bytes: Quake's 16-byte name fields
hold 15 and a NUL."""


def _obj_index(token: str, count: int, what: str, where: str) -> int:
    try:
        i = int(token)
    except ValueError as e:
        raise BadValueError(f"{where}: bad {what} index {token!r}", field="f") from e
    i = i - 1 if i > 0 else count + i  # OBJ counts from 1; negative counts back from the end
    if not 0 <= i < count:
        raise BadValueError(f"{where}: {what} index {token} outside 1..{count}", field="f")
    return i


def _numbers(parts: list[str], low: int, high: int, what: str, where: str) -> list[float]:
    """``low``..``high`` finite numbers from ``parts`` (a ``v`` or ``vt`` line's fields)."""
    if not low <= len(parts):
        raise BadValueError(f"{where}: a {what} needs {low} coordinates", field=what)
    values = [float(x) for x in parts[:high]]
    if not all(math.isfinite(x) for x in values):
        raise BadValueError(f"{where}: {what} coordinates must be finite numbers", field=what)
    return values


def read_obj(
    path: str | os.PathLike[str], *, limits: ImportLimits = DEFAULT_LIMITS
) -> tuple[FloatArray, FloatArray | None, list[list[int]]]:
    """One OBJ: corner positions (N,3) float32 Y-up as in the file, uvs (N,2) or None, and
    triangles (fans of polygons) as corner index lists, where corner = (v, vt) pair."""
    p = Path(path)
    vs: list[list[float]] = []
    vts: list[list[float]] = []
    faces: list[list[tuple[int, int]]] = []
    text = read_regular(p, "OBJ").decode("utf-8", errors="replace")
    corners_seen = 0
    for number, line in enumerate(text.splitlines(), 1):
        parts = line.split()
        if not parts or parts[0].startswith("#"):
            continue
        where = f"{p}:{number}"
        try:
            if parts[0] == "v":
                vs.append(_numbers(parts[1:], 3, 3, "v", where))
            elif parts[0] == "vt":
                st = _numbers(parts[1:], 1, 2, "vt", where)
                vts.append(st if len(st) == 2 else [st[0], 0.0])
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
                corners_seen += len(corners)
                if corners_seen > limits.max_corners:
                    check_shape(where, 1, corners_seen, limits)
                faces.append(corners)
        except ValueError as e:
            if isinstance(e, ModelFormatError):
                raise
            raise BadValueError(f"{where}: bad number in {line.strip()!r}", field="v") from e
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


def default_frame_name(stem: str, limit: int = NAME_BYTES) -> str:
    """A file stem as a frame name of at most ``limit`` UTF-8 bytes: a longer stem keeps its
    trailing digits (``walkcycle_frame_012`` → ``walkcycle_fr012``) so that the frames of one
    animation still share a prefix and keep their numbers."""
    if len(stem.encode("utf-8")) <= limit:
        return stem
    match = re.search(r"\d{1,8}$", stem)
    digits = match.group() if match else ""
    head = stem[: len(stem) - len(digits)]
    while len((head + digits).encode("utf-8")) > limit:
        head = head[:-1]
    return head + digits


def read_obj_sequence(
    paths: Sequence[str | os.PathLike[str]],
    frame_names: Sequence[str] | None = None,
    *,
    limits: ImportLimits = DEFAULT_LIMITS,
) -> ImportedMesh:
    """One frame per OBJ file (same faces in every file); names default to the file stems
    (cut to :data:`NAME_BYTES` by :func:`default_frame_name`). ``limits`` are checked on the
    first file's size before the others are read."""
    if not paths:
        raise BadValueError("no OBJ files given", field="frames")
    names = list(frame_names) if frame_names else [default_frame_name(Path(p).stem) for p in paths]
    if len(names) != len(paths):
        raise BadValueError(f"{len(names)} frame names for {len(paths)} files", field="frames")
    first_pos, uvs, triangles = read_obj(paths[0], limits=limits)
    size = sum(os.stat(p).st_size for p in paths)  # the frames' text bounds their positions
    check_shape(str(paths[0]), len(paths), len(first_pos), limits.for_input(size))
    frames = [first_pos]
    for path in paths[1:]:
        pos, _, tris = read_obj(path, limits=limits)
        if tris != triangles or pos.shape != first_pos.shape:
            raise BadValueError(
                f"{path}: faces differ from {paths[0]} (every frame needs the same mesh)",
                field="f",
            )
        frames.append(pos)
    return ImportedMesh(
        positions=from_y_up(np.stack(frames)),
        uvs=uvs,
        indices=np.array(triangles, np.int64).reshape(-1, 3),
        frame_names=names,
    )
