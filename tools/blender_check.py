#!/usr/bin/env python3
"""Export models with quakemodels, open them in headless Blender, compare what it builds and
what it draws.

    python tools/blender_check.py [--out DIR] [MODEL_OR_PLAYER_FOLDER ...]   (make blender-check)

Without models: every MD2, MD3 and MDL of the corpus (../shared/corpus) and its two Quake III
players. Each is exported to .glb, then one Debian ``blender`` run imports them all
(tools/blender_import.py) and, per file:

* what Blender built must equal what the glTF holds: mesh objects, vertices, shape keys per
  mesh (one per morph target), actions (one per animation and animated mesh), images and the
  other nodes (tags, the player's parts) by name;
* the Workbench engine draws it (solid, studio lighting) from four views framed on its
  bounds, with back-face culling on and off (PNGs kept in ``DIR``, default out/blender-check).
  For a closed model (every edge between exactly two triangles that run it in opposite
  directions) no back face can show from outside, so the two pictures must match in every
  view (within CLOSED_TOLERANCE): an export whose triangles wind the wrong way shows its
  inside with culling on and fails. An open model (a blanket, a visor, a fin) legitimately
  shows a few back faces, so its pictures must match on average over the views (within
  OPEN_TOLERANCE); inside out, most of what it shows changes.

Exit 1 on any difference, import error or failed export. Without ``blender``: exit 0 with the
install line (``make blender-deps`` installs it), or 1 under ``CI=true``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from PIL import Image

from quakemodels.formats.q3player.fromgltf import PART_TREE
from quakemodels.interchange.gltf_read import read_gltf_scene, read_gltf_scenes

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO.parent / "shared" / "corpus"
INSTALL = "apt-get install blender python3-numpy (or: make blender-deps)"
# A pixel differs when a channel moves by more than PIXEL_TOLERANCE (of 255); the share of
# differing pixels is of those either picture covers. Measured on the corpus (2026-11-26):
# exports wound the right way differ by at most 2.5 % in any view of a closed model (coincident
# faces of the two-layer flag) and 7.9 % on average over the views of an open one (a visor and
# a steg's fins show their back faces, as they should); inside-out exports differ by 17-50 %
# on average, and by 28 % or more in the worst view of every closed model.
PIXEL_TOLERANCE = 24
CLOSED_TOLERANCE = 0.03  # per view
OPEN_TOLERANCE = 0.10  # mean over the views


def default_models() -> list[Path]:
    """Every corpus MD2, MD3 and MDL, then both Quake III players."""
    models = [
        p for kind in ("md2", "md3", "mdl") for p in sorted((CORPUS / kind).glob(f"*.{kind}"))
    ]
    players = CORPUS / "q3" / "models" / "players"
    return [*models, players / "human_bsuit", players / "human_base"]


def expected(glb: Path) -> dict[str, Any]:
    """What Blender should build from ``glb``, read from its JSON chunk."""
    data = glb.read_bytes()
    length = int.from_bytes(data[12:16], "little")
    doc = json.loads(data[20 : 20 + length])
    nodes = doc["nodes"]
    meshes = [n for n in nodes if "mesh" in n]
    prims = [p for n in meshes for p in doc["meshes"][n["mesh"]]["primitives"]]
    return {
        "meshes": len(meshes),
        "vertices": sum(doc["accessors"][p["attributes"]["POSITION"]]["count"] for p in prims),
        "shape_keys": sorted(len(p.get("targets", [])) for p in prims),
        "actions": sum(
            len({c["target"]["node"] for c in a["channels"]}) for a in doc.get("animations", [])
        ),
        "images": len(doc.get("images", [])),
        "empties": sorted(n.get("name", "") for n in nodes if "mesh" not in n),
    }


def is_closed(surfaces: list[tuple[npt.NDArray[Any], npt.NDArray[Any]]]) -> bool:
    """Whether (V,3) positions and (T,3) triangles, all surfaces together and corners welded
    where positions are equal, are closed and consistently wound: every edge is run by exactly
    two triangles, once each way. Only then can no back face show from outside."""
    points = [np.asarray(p, np.float32).reshape(-1, 3) for p, _ in surfaces]
    if not points:
        return False
    _, weld = np.unique(np.concatenate(points), axis=0, return_inverse=True)
    weld = weld.reshape(-1)
    tris, base = [], 0
    for (_, t), p in zip(surfaces, points, strict=True):
        tris.append(weld[np.asarray(t, np.int64).reshape(-1, 3) + base])
        base += len(p)
    tri = np.concatenate(tris)
    tri = tri[(tri[:, 0] != tri[:, 1]) & (tri[:, 1] != tri[:, 2]) & (tri[:, 0] != tri[:, 2])]
    if not len(tri):
        return False
    edges = np.concatenate([tri[:, [0, 1]], tri[:, [1, 2]], tri[:, [2, 0]]])
    directed, count = np.unique(edges, axis=0, return_counts=True)
    if (count != 1).any():
        return False  # an edge run twice the same way: a flipped triangle or a fin
    back = {(int(a), int(b)) for a, b in directed}
    return all((b, a) in back for a, b in back)


def glb_surfaces(glb: Path) -> list[tuple[npt.NDArray[Any], npt.NDArray[Any]]]:
    """Frame-0 positions and triangles of every surface of an exported ``glb`` (a player's
    three parts, or one model's surfaces), read by quakemodels' own glTF reader."""
    data = glb.read_bytes()
    doc = json.loads(data[20 : 20 + int.from_bytes(data[12:16], "little")])
    names = {n.get("name") for n in doc.get("nodes", [])}
    if set(PART_TREE) <= names:
        scenes = list(read_gltf_scenes(glb, PART_TREE).scenes.values())
    else:
        scenes = [read_gltf_scene(glb)]
    return [(s.positions[0], s.indices) for scene in scenes for s in scene.surfaces]


def picture_difference(a: Path, b: Path) -> float:
    """The share of the pixels either RGBA picture covers that differ by more than
    PIXEL_TOLERANCE in a channel (0 when neither covers any)."""
    with Image.open(a) as ia, Image.open(b) as ib:
        pa = np.asarray(ia.convert("RGBA"), np.int16)
        pb = np.asarray(ib.convert("RGBA"), np.int16)
    if pa.shape != pb.shape:
        return 1.0
    covered = (pa[..., 3] > 0) | (pb[..., 3] > 0)
    differ = np.abs(pa - pb).max(axis=2) > PIXEL_TOLERANCE
    return float(differ.sum() / covered.sum()) if covered.any() else 0.0


def _pairs(pictures: list[str]) -> dict[str, tuple[Path, Path]]:
    """view → (culled picture, both-sides picture), from blender_import.py's PNG names."""
    out = {}
    for p in pictures:
        if p.endswith("_cull.png"):
            view = Path(p).name[: -len("_cull.png")]
            out[view] = (Path(p), Path(p[: -len("_cull.png")] + "_both.png"))
    return out


def _export(model: Path, glb: Path) -> str | None:
    """Export ``model`` to ``glb``; the error text when it fails."""
    done = subprocess.run(
        [sys.executable, "-m", "quakemodels", "export", str(model), "-o", str(glb), "-q"],
        capture_output=True,
        text=True,
        check=False,
    )
    return None if done.returncode == 0 else done.stderr.strip()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=REPO / "out" / "blender-check")
    parser.add_argument("models", nargs="*", type=Path)
    args = parser.parse_args(argv)
    blender = shutil.which("blender")
    if blender is None:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            print(f"blender-check: CI=true but no `blender`: {INSTALL}")
            return 1
        print(f"blender-check: skipped, no `blender` ({INSTALL})")
        return 0
    models = args.models or default_models()
    args.out.mkdir(parents=True, exist_ok=True)
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        glbs: list[Path] = []
        names: set[str] = set()
        for model in models:
            stem = model.stem
            while stem in names:  # two models of one name get their own files
                stem += "_"
            names.add(stem)
            glb = Path(tmp) / f"{stem}.glb"
            error = _export(model, glb)
            if error is not None:
                print(f"FAIL {model}: export failed: {error}")
                return 1
            glbs.append(glb)
        report = Path(tmp) / "blender.jsonl"
        script = REPO / "tools" / "blender_import.py"
        command = [blender, "-b", "--factory-startup", "--python", str(script), "--"]
        run = subprocess.run(
            [*command, str(report), "--render", str(args.out), *map(str, glbs)],
            capture_output=True,
            text=True,
            check=False,
            timeout=3600,
        )
        if not report.exists():
            print(
                f"blender did not run the import script:\n{run.stdout[-2000:]}{run.stderr[-2000:]}"
            )
            return 1
        seen = [json.loads(line) for line in report.read_text().splitlines()]
        for model, glb, got in zip(models, glbs, seen, strict=True):
            want = expected(glb)
            if "error" in got:
                print(f"FAIL {model.name}: Blender raised {got['error']}")
                failed += 1
                continue
            diff = {k: (want[k], got[k]) for k in want if want[k] != got[k]}
            closed = is_closed(glb_surfaces(glb))
            shares = {
                view: picture_difference(*pair) for view, pair in _pairs(got["pictures"]).items()
            }
            worst = max(shares.values(), default=1.0)
            mean = sum(shares.values()) / len(shares) if shares else 1.0
            inside_out = worst > CLOSED_TOLERANCE if closed else mean > OPEN_TOLERANCE
            keys = "+".join(map(str, got["shape_keys"]))
            summary = (
                f"{model.name}: {got['meshes']} mesh(es), {got['vertices']} vertices, shape"
                f" keys {keys}, {got['actions']} actions, {got['images']} image(s);"
                f" {'closed' if closed else 'open'}, culled vs both sides differ in"
                f" {mean:.1%} of the pixels (worst view {worst:.1%})"
            )
            if got["result"] != ["FINISHED"] or diff:
                print(f"FAIL {summary}; result {got['result']}, glTF vs Blender {diff}")
                failed += 1
            elif inside_out:
                views = ", ".join(f"{v} {s:.1%}" for v, s in shares.items())
                limit = (
                    f"a view over {CLOSED_TOLERANCE:.0%}"
                    if closed
                    else f"over {OPEN_TOLERANCE:.0%} on average"
                )
                print(
                    f"FAIL {summary} ({limit}: back faces show where front faces should, the"
                    f" triangles wind inside out; {views})"
                )
                failed += 1
            else:
                print(f"ok   {summary}")
    version = run.stdout.split("Blender ", 1)[-1].split("\n", 1)[0] if run.stdout else "?"
    print(
        f"Blender {version}: {len(models) - failed} of {len(models)} imports match their glTF"
        f" and draw the same with back-face culling (pictures in {args.out})"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
