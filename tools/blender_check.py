#!/usr/bin/env python3
"""Export models with quakemodels, import them in headless Blender, compare with the glTF.

    python tools/blender_check.py [MODEL_OR_PLAYER_FOLDER ...]      (make blender-check)

Without arguments: one corpus model of each kind (a 198-frame MD2, an MD3, MDLs with and
without frame groups, a Quake III player). Each is exported to .glb in a temporary folder,
then Debian's ``blender`` imports them all (tools/blender_import.py) and, per file, what
Blender built must equal what the glTF holds: mesh objects, vertices, shape keys per mesh
(one per morph target), actions (one per animation and animated mesh), images and the other
nodes (tags, the player's parts) by name. Exit 1 on any difference or import error; exit 0
with a note when ``blender`` is not installed (``apt-get install blender python3-numpy``).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO.parent / "shared" / "corpus"
DEFAULT = [
    CORPUS / "md2" / "ppm_drfreak.md2",
    CORPUS / "md3" / "sauer_makke_spoon.md3",
    CORPUS / "mdl" / "lq_flame2.mdl",
    CORPUS / "mdl" / "nexuiz_gib3.mdl",
    CORPUS / "mdl" / "lq_player.mdl",
    CORPUS / "q3" / "models" / "players" / "human_bsuit",
]


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


def main(argv: list[str]) -> int:
    blender = shutil.which("blender")
    if blender is None:
        print("blender-check: skipped, no `blender` (apt-get install blender python3-numpy)")
        return 0
    models = [Path(a) for a in argv] or DEFAULT
    with tempfile.TemporaryDirectory() as tmp:
        glbs = []
        for model in models:
            glb = Path(tmp) / f"{model.stem}.glb"
            done = subprocess.run(
                [sys.executable, "-m", "quakemodels", "export", str(model), "-o", str(glb), "-q"],
                capture_output=True,
                text=True,
                check=False,
            )
            if done.returncode != 0:
                print(f"{model}: export failed: {done.stderr.strip()}")
                return 1
            glbs.append(glb)
        report = Path(tmp) / "blender.jsonl"
        script = REPO / "tools" / "blender_import.py"
        command = [blender, "-b", "--factory-startup", "--python", str(script), "--", str(report)]
        run = subprocess.run(
            [*command, *map(str, glbs)],
            capture_output=True,
            text=True,
            check=False,
            timeout=900,
        )
        if not report.exists():
            print(
                f"blender did not run the import script:\n{run.stdout[-2000:]}{run.stderr[-2000:]}"
            )
            return 1
        seen = [json.loads(line) for line in report.read_text().splitlines()]
        failed = 0
        for model, glb, got in zip(models, glbs, seen, strict=True):
            want = expected(glb)
            if "error" in got:
                print(f"FAIL {model.name}: Blender raised {got['error']}")
                failed += 1
                continue
            diff = {k: (want[k], got[k]) for k in want if want[k] != got[k]}
            if got["result"] != ["FINISHED"] or diff:
                print(f"FAIL {model.name}: result {got['result']}, glTF vs Blender {diff}")
                failed += 1
            else:
                keys = "+".join(map(str, got["shape_keys"]))
                print(
                    f"ok   {model.name}: {got['meshes']} mesh(es), {got['vertices']} vertices,"
                    f" shape keys {keys}, {got['actions']} actions, {got['images']} image(s)"
                )
    version = run.stdout.split("Blender ", 1)[-1].split("\n", 1)[0] if run.stdout else "?"
    print(f"Blender {version}: {len(models) - failed} of {len(models)} imports match their glTF")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
