"""Write a seed corpus for the fuzzers into a folder (outside the repository).

For every registered format (quakemodels.formats.FORMATS): its synthetic files when this module
has a ``synthetic_<name>()`` (MD2, MDL and MD3 from the test builders, valid ones and ones with
each kind of damage the checker reports), and — when ../shared/corpus is present — the files of
its corpus folder up to ``--max-size`` bytes, copied into the scratch folder only; then .pak/.pk3
archives from tests/archivebuilder.py and the corpus paks.

    python fuzz/seeds.py /tmp/seeds [--max-size 65536]
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))

import numpy as np  # noqa: E402
from md2builder import Md2Spec, build, gl_command, set_header  # noqa: E402

from quakemodels.formats import FORMATS  # noqa: E402

CORPUS = REPO.parent / "shared" / "corpus"


def synthetic_md2() -> Iterator[bytes]:
    """Valid and damaged synthetic MD2 files (a few hundred bytes each)."""
    yield build()
    yield build(Md2Spec(skins=[]))
    yield build(Md2Spec(skins=[b"a.pcx", b"x" * 64], skin_height=481))
    yield build(Md2Spec(framesize_extra=2, trailing=b"junk"))
    yield build(Md2Spec(triangles=[(0, 1, 2, 0, 1, 2), (1, 1, 3, 0, 9, 2)], gl_dwords=[0]))
    yield build(Md2Spec(gl_dwords=[*gl_command("fan", [(0, 0, 0), (1, 0, 1), (1, 1, 2)]), 0]))
    yield build(Md2Spec(gl_dwords=[*gl_command("strip", [(0, 0, 0), (0, 0, 1), (0, 0, 7)])]))
    verts = np.array([[0, 0, 0, 200], [9, 0, 0, 1], [18, 0, 0, 2], [0, 9, 0, 3]], np.uint8)
    frames = [((1.0, 1.0, 1.0), (0.0, 0.0, 0.0), b"run%d" % i, verts) for i in range(3)]
    yield build(Md2Spec(frames=frames, texcoords=[(0, 0), (70, 0), (0, -3), (5, 5)]))
    yield set_header(build(), "ofs_end", 100)
    yield set_header(build(), "num_frames", 0)
    # the structured shapes of fuzz/structured.py, small: many skins, corners, flat triangles
    import hostile

    yield hostile.many_skins_md2(skins=40, depth=8)
    yield hostile.corner_explosion_md2(vertices=8, texcoords=8, frames=2)
    yield hostile.flat_md2(frames=4, triangles=4)


def synthetic_md3() -> Iterator[bytes]:
    try:
        import md3builder
    except ImportError:
        return
    build3 = getattr(md3builder, "build", None)
    if callable(build3):
        try:
            yield build3()
        except TypeError:
            return
    import hostile

    yield hostile.shared_sections_md3(surfaces=3, vertices=4, frames=2)  # refused: overlaps


def synthetic_mdl() -> Iterator[bytes]:
    """Valid and damaged synthetic MDL files: frame and skin groups, seams, trailers."""
    import mdlbuilder as b

    verts = np.array([[0, 0, 0, 5], [9, 9, 9, 161], [255, 0, 7, 0], [1, 2, 3, 170]], np.uint8)
    yield b.build()
    yield b.build(b.MdlSpec(skin_width=13, skin_height=7, trailer=b"QMEX\x03\x00\x00\x00"))
    yield b.build(
        b.MdlSpec(
            skin_width=4,
            skin_height=2,
            skins=[bytes(8), b.SkinGroup([0.1, 0.2], [bytes(8), bytes([255] * 8)])],
            frames=[b.Pose(b"a1", verts), b.Group([0.1, 0.05], [b.Pose(b"g1", verts)] * 2)],
        )
    )
    yield b.build(b.MdlSpec(triangles=[(0, 0, 1, 9)], stverts=[(0x20, 99, -1)] * 4))
    yield b.set_header(b.build(), "num_frames", 0)


def synthetic_iqm() -> Iterator[bytes]:
    """Valid and damaged synthetic IQM files (our writer's two-bone bar, about 1 KB)."""
    import iqmbuilder as b

    yield b.two_bone_iqm()
    yield b.two_bone_iqm(frames=1, comment=b"a comment")
    yield b.set_header(b.two_bone_iqm(), "num_frames", 0xFFFF)
    yield b.set_header(b.two_bone_iqm(), "num_poses", 0)


def synthetic_archives() -> Iterator[bytes]:
    """Small .pak and .pk3 files holding a synthetic model (tests/archivebuilder.py)."""
    from archivebuilder import pak_bytes, pk3_bytes

    files = [("models/a/tris.md2", build()), ("models/a/skin.pcx", b"\x0a\x05\x01\x08" + bytes(60))]
    yield pak_bytes(files)
    yield pak_bytes(files, dir_first=True, dirlen_extra=10)
    yield pk3_bytes(files)


def synthetic_md5() -> Iterator[bytes]:
    """Valid and damaged synthetic MD5 text (tests/md5builder.py): the two-bone arm's mesh and
    its animation (read alone: refused for want of a mesh, after its own checks), a mesh
    with tag joints and no meshes, and the arm with a forward parent and a bad index."""
    import md5builder as b

    mesh, anim = b.two_bone()
    yield mesh
    yield anim
    yield b.mesh_text(
        [("root", -1, (0, 0, 0), (0, 0, 0)), ("tag_a", 0, (1, 2, 3), (0.5, 0, 0))], []
    )
    yield mesh.replace(b'"elbow"\t0', b'"elbow"\t1', 1)
    yield mesh.replace(b"tri 1 0 3 2", b"tri 1 0 3 7", 1)
    yield anim.replace(b"numAnimatedComponents 3", b"numAnimatedComponents 99", 1)


MAX_SIZE = 64 * 1024
"""Corpus files up to this size become seeds (a fuzzer mutates small inputs faster)."""


def corpus_files(max_size: int) -> Iterator[bytes]:
    """Every corpus file of every registered format (its folder is its name, its files have
    its suffixes) and every corpus archive, up to ``max_size`` bytes."""
    wanted = [(CORPUS / f.name, f.suffixes) for f in FORMATS if f.suffixes]
    wanted.append((CORPUS / "archives", (".pak",)))
    for folder, suffixes in wanted:
        found = sorted(folder.rglob("*")) if folder.is_dir() else []  # IQM's are in subfolders
        for p in found:
            if p.is_file() and p.suffix.lower() in suffixes and p.stat().st_size <= max_size:
                yield p.read_bytes()


def synthetic_models() -> Iterator[bytes]:
    """The synthetic models: ``synthetic_<format name>()`` of this module for each registered
    format that has one (a format without one is seeded by its corpus files)."""
    for fmt in FORMATS:
        make = globals().get(f"synthetic_{fmt.name}")
        if callable(make):
            yield from make()


def all_seeds(max_size: int = MAX_SIZE) -> list[bytes]:
    """Every seed: the synthetic models and archives, then the corpus files up to
    ``max_size`` bytes."""
    return [*synthetic_models(), *synthetic_archives(), *corpus_files(max_size)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("folder", type=Path)
    parser.add_argument("--max-size", type=int, default=MAX_SIZE)
    args = parser.parse_args(argv)
    args.folder.mkdir(parents=True, exist_ok=True)
    count = 0
    for data in all_seeds(args.max_size):
        name = hashlib.sha1(data).hexdigest()
        (args.folder / name).write_bytes(data)
        count += 1
    print(f"{count} seeds in {args.folder}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
