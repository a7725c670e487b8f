"""three.js as an oracle of a glTF's animation: world positions of every frame of every clip.

:func:`threejs_poses` runs ``tools/threejs_pose.mjs`` (three.js's GLTFLoader, AnimationMixer and
``getVertexPosition`` in node) and returns numpy arrays. Skips the calling test when node or
node_modules/three is missing, and fails it instead under CI=true.
"""

from __future__ import annotations

import json
import math
import shutil
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import IN_CI, REPO

TOOL = REPO / "tools" / "threejs_pose.mjs"


def need_three() -> None:
    """Skip (fail under CI=true) unless node and node_modules/three are there."""
    missing = []
    if shutil.which("node") is None:
        missing.append("node")
    if not (REPO / "node_modules" / "three").is_dir():
        missing.append("node_modules/three (run `make setup`)")
    if missing:
        reason = f"three.js oracle needs {' and '.join(missing)}"
        if IN_CI:
            pytest.fail(f"CI=true but {reason}")
        pytest.skip(reason)


def _matrices(columns: list[list[float]]) -> np.ndarray:
    """(F, 4, 4) float64 row-major matrices from three's column-major 16-number lists."""
    return np.asarray(columns, np.float64).reshape(-1, 4, 4).transpose(0, 2, 1)


def threejs_poses(glb_path: Path, fps: float) -> dict[str, Any]:
    """What three.js shows of ``glb_path`` sampled at ``fps``.

    Returns ``{clip name: (times (F,) float64, positions (F, N, 3) float64), ...,
    'rest': positions (N, 3) float64, 'tags': {clip name or 'rest': {tag name: (F, 4, 4)
    float64 row-major world matrices ((4, 4) for 'rest')}}, 'meshes': [{name, node, primitive,
    vertices, skinned, morphTargets}], 't0': {clip: first key time (nan for a clip with no
    keys)}}``. N is every mesh's
    vertices concatenated in (glTF node index, primitive index) order; positions are glTF
    world space. Frame k of a clip is at t0 + k/fps (snapped to a key time within float32
    rounding, see tools/threejs_pose.mjs).
    """
    need_three()
    proc = subprocess.run(
        ["node", str(TOOL), str(glb_path), "--fps", repr(float(fps))],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=False,
    )
    if proc.returncode != 0:
        raise AssertionError(f"threejs_pose.mjs failed on {glb_path}: {proc.stderr.strip()}")
    raw = json.loads(proc.stdout)
    result: dict[str, Any] = {
        "rest": np.asarray(raw["rest"]["positions"], np.float64).reshape(-1, 3),
        "tags": {"rest": {n: _matrices([m])[0] for n, m in raw["rest"]["tags"].items()}},
        "meshes": raw["meshes"],
        "t0": {},
    }
    vertices = len(result["rest"])
    for clip in raw["animations"]:
        name = clip["name"]
        if name in ("rest", "tags", "meshes", "t0"):
            raise AssertionError(f"a clip named {name!r} clashes with a key of the result")
        times = np.asarray(clip["times"], np.float64)
        positions = np.asarray(clip["positions"], np.float64).reshape(len(times), vertices, 3)
        result[name] = (times, positions)
        result["tags"][name] = {n: _matrices(m) for n, m in clip["tags"].items()}
        # a clip whose channels all lost their node has no keys, no frames and no t0
        result["t0"][name] = math.nan if clip["t0"] is None else float(clip["t0"])
    return result
