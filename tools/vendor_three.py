#!/usr/bin/env python3
"""Copy three.js from node_modules/three into the package (src/quakemodels/viewer/vendor/).

    python tools/vendor_three.py [--check]

The viewer page (``quakemodels view``, ``export --format html``) loads three.js by bare
module specifiers only, through an import map (served files, or ``data:`` URLs in a
self-contained page, where a relative import cannot resolve). So the relative imports of the
vendored files are rewritten to the bare specifiers of :data:`FILES`; nothing else changes.
``--check`` compares the vendored files with what this would write (exit 1 on a difference).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
THREE = REPO / "node_modules" / "three"
VENDOR = REPO / "src" / "quakemodels" / "viewer" / "vendor"

# vendored file name → (path under node_modules/three, {relative import → bare specifier})
FILES: dict[str, tuple[str, dict[str, str]]] = {
    "three.core.js": ("build/three.core.js", {}),
    "three.module.js": ("build/three.module.js", {"./three.core.js": "three/core"}),
    "GLTFLoader.js": (
        "examples/jsm/loaders/GLTFLoader.js",
        {
            "../utils/BufferGeometryUtils.js": "three/addons/utils/BufferGeometryUtils.js",
            "../utils/SkeletonUtils.js": "three/addons/utils/SkeletonUtils.js",
        },
    ),
    "OrbitControls.js": ("examples/jsm/controls/OrbitControls.js", {}),
    "BufferGeometryUtils.js": ("examples/jsm/utils/BufferGeometryUtils.js", {}),
    "SkeletonUtils.js": ("examples/jsm/utils/SkeletonUtils.js", {}),
}


def rewrite(text: str, imports: dict[str, str], name: str) -> str:
    """``text`` with each ``from '<relative>'`` of ``imports`` replaced by its specifier."""
    for relative, bare in imports.items():
        old = f"from '{relative}'"
        if old not in text:
            raise SystemExit(f"vendor_three: {name} no longer imports {relative!r}")
        text = text.replace(old, f"from '{bare}'")
    leftover = [line for line in text.splitlines() if "from '." in line and "import" in line]
    if leftover:
        raise SystemExit(f"vendor_three: {name} has relative imports left: {leftover[:3]}")
    return text


def build() -> dict[str, bytes]:
    """Every vendored file's bytes, by name."""
    version = json.loads((THREE / "package.json").read_text())["version"]
    out: dict[str, bytes] = {}
    for name, (source, imports) in FILES.items():
        text = (THREE / source).read_text(encoding="utf-8")
        out[name] = rewrite(text, imports, name).encode("utf-8")
    out["LICENSE"] = (THREE / "LICENSE").read_bytes()
    lines = [
        f"three.js {version} (MIT, see LICENSE), from the npm package `three@{version}`",
        "(package-lock.json pins it), copied by tools/vendor_three.py:",
        "",
    ]
    for name, (source, imports) in FILES.items():
        changed = ", ".join(f"'{a}' -> '{b}'" for a, b in imports.items())
        lines.append(f"  {name:24} node_modules/three/{source}")
        if changed:
            lines.append(f"  {'':24} relative imports rewritten: {changed}")
    lines += ["", "Nothing else is changed. Rerun the tool after updating three in package.json."]
    out["SOURCE"] = ("\n".join(lines) + "\n").encode()
    return out


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args(argv)
    files = build()
    if args.check:
        wrong = [n for n, data in files.items() if (VENDOR / n).read_bytes() != data]
        for name in wrong:
            print(f"vendor_three: {VENDOR / name} differs from node_modules/three")
        return 1 if wrong else 0
    VENDOR.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        (VENDOR / name).write_bytes(data)
    print(f"vendor_three: wrote {len(files)} files to {VENDOR}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
