"""``quakemodels formats``: the model formats read, and what each verb writes."""

from __future__ import annotations

import argparse
import json
import sys

from ..formats import FORMATS, builders
from ..formats.contract import Kind

# Sprites a verb can build: the image formats with a build service, from the registry.
_SPRITES = tuple(sorted({s for f in builders() if f.kind is Kind.IMAGE for s in f.suffixes}))
# What each writing verb writes, by output suffix (the verbs refuse any other suffix).
WRITES: dict[str, tuple[str, ...]] = {
    "export": (".glb", ".gltf", ".obj", ".png", ".gif"),
    "convert": (".glb", ".gltf", ".obj", ".md2", ".md3", ".mdl", ".iqm", *_SPRITES),
    "build": _SPRITES,
    "render": (".png", ".jpg", ".jpeg", ".gif"),
    "dump": (".json",),
}


def add_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print the lists as JSON")


def run(args: argparse.Namespace) -> int:
    formats = [
        {
            "name": f.name,
            "title": f.title,
            "magic": f.magic_text,
            "suffixes": list(f.suffixes),
        }
        for f in FORMATS
        if f.magic  # folder sets (a Quake III player) are named below
    ]
    if args.json:
        json.dump({"read": formats, "write": {k: list(v) for k, v in WRITES.items()}}, sys.stdout)
        sys.stdout.write("\n")
        return 0
    print("reads (by magic, whatever the file is called):")
    for f in formats:
        print(f"  {f['name']:<6} {f['title']:<17} magic {f['magic']:<6} {', '.join(f['suffixes'])}")
    print("  also .glb/.gltf (morph targets) and .obj sequences, as convert's input")
    print("writes:")
    for verb, suffixes in WRITES.items():
        print(f"  {verb:<8} {', '.join(suffixes)}")
    return 0
