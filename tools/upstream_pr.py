#!/usr/bin/env python3
"""What a pull request to the Kaitai formats gallery needs, per spec (make upstream-pr).

    python tools/upstream_pr.py [--out out/upstream] [ksy/SPEC.ksy ...]

For every spec (default: all of ksy/) it writes ``OUT/<spec id>/``:

- ``<gallery folder>/<spec id>.ksy``: the spec as it would live in kaitai_struct_formats
  (``game/quake2_md2.ksy``; the folder from GALLERY_FOLDERS, else ``game`` for a spec tagged
  ``game``, else its first tag);
- ``<spec id>.diff``: the unified diff against the published gallery spec pinned under
  third_party/kaitai_struct_formats/ (see its SOURCE.md), when the gallery has one;
- ``CHANGES.md``: the spec's section of ksy/CHANGES.md (and the sections about every spec,
  such as what Kaitai's serializer was checked on), the text for the pull request.

Each run replaces ``OUT/<spec id>/`` whole, so nothing stale is left behind.
"""

from __future__ import annotations

import argparse
import difflib
import re
import shutil
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PUBLISHED = REPO / "third_party" / "kaitai_struct_formats"
CHANGES = REPO / "ksy" / "CHANGES.md"

# The gallery folder of each spec; a spec without a line goes by its meta/tags.
GALLERY_FOLDERS = {
    "quake2_md2": "game",
    "quake3_md3": "game",
    "quake_mdl": "game",
    "quake_pak": "game",
}


def spec_id(text: str, path: Path) -> str:
    found = re.search(r"^meta:\s*\n(?:\s.*\n)*?\s+id:\s*(\S+)", text, re.M)
    return found.group(1) if found else path.stem


def gallery_folder(sid: str, text: str) -> str:
    if sid in GALLERY_FOLDERS:
        return GALLERY_FOLDERS[sid]
    tags = re.search(r"^\s+tags:\s*\n((?:\s+- .*\n)+)", text, re.M)
    names = re.findall(r"- (\S+)", tags.group(1)) if tags else []
    return "game" if "game" in names else (names[0] if names else "misc")


def changes_section(sid: str) -> str:
    """The ``## <id>.ksy`` section of ksy/CHANGES.md, with the file's preamble before it and
    the sections that concern every spec (``## ..., every spec``) after it."""
    text = CHANGES.read_text(encoding="utf-8")
    preamble = text.split("\n## ", 1)[0].rstrip() + "\n"
    found = re.search(rf"^## {re.escape(sid)}\.ksy\n.*?(?=^## |\Z)", text, re.M | re.S)
    shared = re.findall(r"^## [^\n]*, every spec\n.*?(?=^## |\Z)", text, re.M | re.S)
    tail = "".join("\n" + section.rstrip() + "\n" for section in shared)
    if not found:
        return preamble + f"\n(ksy/CHANGES.md has no section for {sid}.ksy)\n" + tail
    return preamble + "\n" + found.group(0).rstrip() + "\n" + tail


def package(spec: Path, out: Path) -> list[str]:
    """Write the upstream package of ``spec``; returns the paths written, relative to ``out``."""
    text = spec.read_text(encoding="utf-8")
    sid = spec_id(text, spec)
    folder = gallery_folder(sid, text)
    dest = out / sid
    if dest.exists():
        shutil.rmtree(dest)
    (dest / folder).mkdir(parents=True)
    written = [f"{sid}/{folder}/{sid}.ksy", f"{sid}/CHANGES.md"]
    (dest / folder / f"{sid}.ksy").write_text(text, encoding="utf-8")
    (dest / "CHANGES.md").write_text(changes_section(sid), encoding="utf-8")
    published = PUBLISHED / folder / f"{sid}.ksy"
    if published.exists():
        diff = difflib.unified_diff(
            published.read_text(encoding="utf-8").splitlines(keepends=True),
            text.splitlines(keepends=True),
            fromfile=f"a/{folder}/{sid}.ksy",
            tofile=f"b/{folder}/{sid}.ksy",
        )
        (dest / f"{sid}.diff").write_text("".join(diff), encoding="utf-8")
        written.append(f"{sid}/{sid}.diff")
    else:
        written.append("(no published spec: a new file for the gallery)")
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, default=REPO / "out" / "upstream")
    parser.add_argument("specs", nargs="*", type=Path)
    args = parser.parse_args(argv)
    specs = args.specs or sorted((REPO / "ksy").glob("*.ksy"))
    for spec in specs:
        for line in package(spec, args.out):
            print(f"{args.out}/{line}" if not line.startswith("(") else f"  {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
