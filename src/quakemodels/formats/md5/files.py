"""Where an MD5 model's files come from: the ``.md5mesh``, the ``.md5anim`` files beside it
(or the ones named), a Sauerbraten ``md5.cfg`` and the Quake II re-release's ``.md5scale``
sidecars, on disk or in a .pak/.pk3.

A file read by path finds its animations in its folder: every ``*.md5anim`` there, each one
clip named after its stem, in name order. A path to an ``.md5anim`` loads the one
``.md5mesh`` of its folder with that animation only (how to name an animation on the command
line). Tags are the joints named ``tag_*`` and the joints an ``md5.cfg`` beside the mesh names
with ``md5tag JOINT TAG`` (exported as TAG). An ``.md5scale`` (a JSON object beside the
``.md5anim``: joint name → {frame number: uniform scale, ``scale_positions``: whether that
joint's animated position is scaled too}, read by Q2PRO's ``MD5_LoadScales`` in
``src/refresh/models.c``) scales those joints in those frames (see :func:`.scene.clip`).
"""

from __future__ import annotations

import json
import os
import re
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

import numpy as np

from ...archive.gamefs import open_archive
from ...archive.vpath import game_roots, read_path, shared_gamefs, split_archive_path
from ...core.files import read_regular
from ...errors import BadValueError, QuakeModelsWarning
from .limits import MAX_FILE_SIZE
from .reader import F64, Md5AnimFile, Md5Files, Md5MeshFile, read_anim, read_mesh

ANIM_SUFFIX = ".md5anim"
MESH_SUFFIX = ".md5mesh"
SCALE_SUFFIX = ".md5scale"
_MD5TAG = re.compile(r'^\s*md5tag\s+"?([^"\s]+)"?\s+"?([^"\s]+)"?', re.M)


def is_anim(data: bytes) -> bool:
    """True when ``data`` is an ``.md5anim`` (``numFrames`` follows the command line) rather
    than a mesh (``numJoints``)."""
    head = data[:4096]
    frames, joints = head.find(b"numFrames"), head.find(b"numJoints")
    return frames >= 0 and (joints < 0 or frames < joints)


@dataclass(frozen=True)
class Sibling:
    """A file beside the mesh: its ``name`` (stem + suffix) and bytes."""

    name: str
    data: bytes


def _siblings(path: str, suffixes: Sequence[str]) -> list[Sibling]:
    """The files in ``path``'s folder (on disk or in an archive) whose names end in one of
    ``suffixes`` (ASCII case ignored), in name order; the over-large skipped."""
    found: list[Sibling] = []
    wanted = tuple(suffixes)
    split = split_archive_path(path)
    folder = Path(path).parent
    if split is None and folder.is_dir():
        for n in sorted(os.listdir(folder)):
            p = folder / n
            if not n.lower().endswith(wanted):
                continue
            # opened once, as a regular file (a FIFO or device beside it is passed over, never
            # waited on), and measured after reading: no window between a test and the read
            try:
                if p.stat().st_size > MAX_FILE_SIZE:  # not read at all when it says so
                    continue
                data = read_regular(p, n)
            except (OSError, BadValueError):
                continue
            if len(data) <= MAX_FILE_SIZE:
                found.append(Sibling(n, data))
        return found
    if split is not None:
        archive, inner = split
        folder_in = str(PurePosixPath(inner).parent).lower()
        with open_archive(archive) as a:
            for n in sorted(a.names()):
                entry = PurePosixPath(n)
                if str(entry.parent).lower() == folder_in and n.lower().endswith(wanted):
                    found.append(Sibling(entry.name, a.read(n, max_size=MAX_FILE_SIZE)))
        return found
    # a name in a game folder's search path (baseq2/models/x/y.md5mesh held by a pk3): the
    # files the engine would find beside it, each where it wins
    roots = game_roots(path)
    if roots is None:
        return found
    fs = shared_gamefs(tuple(roots[0]))
    for n in sorted(fs.listdir(str(PurePosixPath(roots[1]).parent))):
        hit = fs.find(n)
        if n.lower().endswith(wanted) and hit is not None:
            data = fs.read_found(hit, lambda head: MAX_FILE_SIZE)
            found.append(Sibling(PurePosixPath(n).name, data))
    return found


def read_scales(data: bytes, names: Sequence[str], frames: int, what: str) -> F64:
    """(F,J) per-frame joint scales of an ``.md5scale`` (see the module; 1 where it says
    nothing), negative for the joints it marks ``scale_positions`` (|scale| is the scale)."""
    try:
        doc = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        raise BadValueError(f"{what}: not a JSON object: {e}", field="md5scale") from e
    if not isinstance(doc, dict):
        raise BadValueError(f"{what}: not a JSON object", field="md5scale")
    scales = np.ones((frames, len(names)))
    index = {n: j for j, n in enumerate(names)}
    for joint, entry in doc.items():
        j = index.get(joint)
        if j is None:
            warnings.warn(f"{what}: no joint {joint!r}", QuakeModelsWarning, stacklevel=2)
            continue
        if not isinstance(entry, dict):
            raise BadValueError(f"{what}: joint {joint!r} is not an object", field="md5scale")
        for key, value in entry.items():
            if key == "scale_positions":
                continue
            if not key.isdigit() or not isinstance(value, (int, float)) or int(key) >= frames:
                raise BadValueError(
                    f"{what}: joint {joint!r} frame {key!r}: {value!r} is not a frame's scale",
                    field="md5scale",
                )
            if not np.isfinite(value):
                raise BadValueError(f"{what}: joint {joint!r}: scale not finite", field="md5scale")
            scales[int(key), j] = float(value)
        if entry.get("scale_positions") is True:
            scales[:, j] *= -1
    return scales


def gather(
    data: bytes, name: str | None, anims: Sequence[str | os.PathLike[str]] | None = None
) -> Md5Files:
    """The files of the model in ``data`` (an ``.md5mesh``, or an ``.md5anim`` whose folder
    has the one mesh): ``anims`` (paths) when given, else the animations beside ``name``."""
    if is_anim(data):
        return _from_anim(data, name)
    mesh = read_mesh(data, _label(name, "md5mesh"))
    named: list[Sibling] | None = None
    if anims is not None:
        named = [Sibling(os.path.basename(os.fspath(p)), read_file(p)) for p in anims]
    return _assemble(mesh, data, name, named)


def _is(s: Sibling, suffix: str) -> bool:
    return s.name.lower().endswith(suffix)


def _label(name: str | None, default: str) -> str:
    return os.path.basename(name) if name else default


def read_file(path: str | os.PathLike[str]) -> bytes:
    """A file's bytes, on disk or through a .pak/.pk3, refused over :data:`MAX_FILE_SIZE`."""
    data = read_path(path, lambda head: MAX_FILE_SIZE)
    if len(data) > MAX_FILE_SIZE:
        raise BadValueError(
            f"{path} is {len(data)} bytes, over the largest MD5 file read ({MAX_FILE_SIZE})",
            field="file_size",
            offset=0,
        )
    return data


def _from_anim(data: bytes, name: str | None) -> Md5Files:
    what = _label(name, "md5anim")
    if name is None:
        read_anim(data, what)  # its own errors first: a broken file says where it breaks
        raise BadValueError(
            f"{what}: an .md5anim holds no mesh: load its .md5mesh", field="numFrames", offset=0
        )
    meshes = _siblings(name, (MESH_SUFFIX,))
    if len(meshes) != 1:
        raise BadValueError(
            f"{what}: an .md5anim holds no mesh and its folder has {len(meshes)} .md5mesh"
            " files (one is needed): load the .md5mesh",
            field="numFrames",
            offset=0,
        )
    mesh_name = str(Path(name).with_name(meshes[0].name))
    mesh = read_mesh(meshes[0].data, meshes[0].name)
    return _assemble(mesh, meshes[0].data, mesh_name, [Sibling(os.path.basename(name), data)])


def _assemble(
    mesh: Md5MeshFile, data: bytes, name: str | None, named: list[Sibling] | None
) -> Md5Files:
    """The mesh with its animations (``named``, else every one beside ``name``), their
    ``.md5scale`` sidecars and the ``md5tag`` lines of an ``md5.cfg`` beside it."""
    beside = [] if name is None else _siblings(name, (ANIM_SUFFIX, SCALE_SUFFIX, ".cfg"))
    files = named if named is not None else [s for s in beside if _is(s, ANIM_SUFFIX)]
    joints = (mesh.names, mesh.parents)
    anims: dict[str, Md5AnimFile] = {}
    scales: dict[str, F64] = {}
    sidecars = {s.name.lower(): s for s in beside}
    for f in files:
        stem = f.name[: -len(ANIM_SUFFIX)] if _is(f, ANIM_SUFFIX) else Path(f.name).stem
        anims[stem] = anim = read_anim(f.data, f.name, joints)
        side = sidecars.get((stem + SCALE_SUFFIX).lower())
        if side is not None:
            scales[stem] = read_scales(side.data, mesh.names, anim.num_frames, side.name)
    tag_names: dict[str, str] = {}
    cfg = sidecars.get("md5.cfg")
    if cfg is not None:
        for joint, tag in _MD5TAG.findall(cfg.data.decode("latin-1")):
            if joint in mesh.names:
                tag_names[joint] = tag
    return Md5Files(mesh, anims, name, data, tag_names, scales)
