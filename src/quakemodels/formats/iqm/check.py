"""Engine-compatibility checks for IQM: findings, never an exception.

ioquake3 (engine ``quake3``) is the engine whose loader the limits come from
(``R_LoadIQM`` in ``code/renderergl1/tr_model_iqm.c``, listed in :mod:`.limits`): over them
the model does not load there (an error for ``quake3``, a warning for ``any``). Quake, Quake
II (as id released them), QuakeSpasm and Half-Life load no IQM. Format-level warnings for
every engine: sections not aligned to 4 bytes (iqm.txt requires it), joints whose parent is
below -1, poses whose parents differ from their joints', anims with no positive frame rate,
``len_file`` different from the file's size.
"""

from __future__ import annotations

from ...core.facade import Readable, read_source
from ...core.findings import Finding, Report
from ...errors import ModelFormatError
from .layout import FORMATS, HEADER_OFFSETS, TYPES, VERTEX_ARRAY
from .limits import (
    IOQ3_MAX_FILESIZE,
    IOQ3_MAX_JOINTS,
    IOQ3_MAX_MESH_TRIANGLES,
    IOQ3_MAX_MESH_VERTICES,
)
from .reader import IqmReader

IOQ3 = ("quake3",)
OTHER_ENGINES = {
    "quake": "Quake loads MDL models",
    "quakespasm": "QuakeSpasm loads MDL models",
    "quake2": "Quake II loads MD2 models",
    "halflife": "Half-Life loads MDL (version 10) models",
}

# ioquake3's accepted (formats, size) per standard vertex array type
_IOQ3_ARRAYS = {
    "position": ({"float"}, 3),
    "normal": ({"float"}, 3),
    "tangent": ({"float"}, 4),
    "texcoord": ({"float"}, 2),
    "blend_indexes": ({"ubyte", "int"}, 4),
    "blend_weights": ({"ubyte", "float"}, 4),
    "color": ({"ubyte"}, 4),
}
_IOQ3_FORMATS = {FORMATS[n] for n in ("byte", "ubyte", "int", "uint", "float")}


def check(
    source: IqmReader | Readable, engine: str = "any", *, name: str | None = None
) -> list[Finding]:
    """Findings for one IQM (a loaded one, its bytes, a path or a binary file) for
    ``engine``; never raises on any input (an unknown ``engine`` is a ValueError)."""
    r = Report(engine)
    model = source if isinstance(source, IqmReader) else None
    data = b""
    label = name
    if model is None:
        try:
            data, label0 = read_source(source)  # type: ignore[arg-type]
        except (OSError, TypeError) as e:
            r.error("io", None, None, f"cannot read {source!s}: {e}")
            return r.findings
        label = name or label0

    def run(r: Report) -> None:
        if r.engine in OTHER_ENGINES:
            r.error("engine-format", "magic", 0, f"{OTHER_ENGINES[r.engine]}, not IQM")
        try:
            # a lazy model read only what it was asked for: every section is checked here
            m = IqmReader(data, label) if model is None else model
            m.validate()
        except ModelFormatError as e:
            r.from_error(e)
            return
        _check(r, m)

    return r.run(run)


def _check(r: Report, m: IqmReader) -> None:
    h = m.header
    if h["len_file"] != m.size:
        r.warning(
            "filesize",
            "len_file",
            HEADER_OFFSETS["len_file"],
            f"len_file={h['len_file']} but the file has {m.size} bytes",
        )
    if h["len_file"] > IOQ3_MAX_FILESIZE:
        r.limit(
            "ioq3-filesize",
            "len_file",
            HEADER_OFFSETS["len_file"],
            f"len_file={h['len_file']} is over ioquake3's 16 MiB (quake3)",
            engines=IOQ3,
        )
    if h["num_joints"] > IOQ3_MAX_JOINTS:
        r.limit(
            "ioq3-joints",
            "num_joints",
            HEADER_OFFSETS["num_joints"],
            f"num_joints={h['num_joints']} is over IQM_MAX_JOINTS={IOQ3_MAX_JOINTS} (quake3)",
            engines=IOQ3,
        )
    for name in HEADER_OFFSETS:
        if name.startswith("ofs_") and h[name] % 4:
            r.warning(
                "alignment",
                name,
                HEADER_OFFSETS[name],
                f"{name}={h[name]} is not a multiple of 4 (iqm.txt: sections are aligned)",
            )
    kinds = set()
    for a in m.vertex_arrays:
        at = h["ofs_vertex_arrays"] + a.index * VERTEX_ARRAY.itemsize
        kinds.add(a.kind)
        allowed = _IOQ3_ARRAYS.get(a.kind)
        fmt = next(n for n, v in FORMATS.items() if v == a.format)
        if a.format not in _IOQ3_FORMATS or not 1 <= a.size <= 4:
            r.limit(
                "ioq3-array",
                f"vertex_arrays[{a.index}].format",
                at,
                f"vertex_arrays[{a.index}] ({a.kind}) is {fmt} x {a.size}: ioquake3 reads only"
                " byte, ubyte, int, uint and float arrays of 1..4 components (quake3)",
                engines=IOQ3,
            )
        elif allowed is not None and (fmt not in allowed[0] or a.size != allowed[1]):
            r.limit(
                "ioq3-array",
                f"vertex_arrays[{a.index}].format",
                at,
                f"vertex_arrays[{a.index}] ({a.kind}) is {fmt} x {a.size}; ioquake3 needs"
                f" {' or '.join(sorted(allowed[0]))} x {allowed[1]} (quake3)",
                engines=IOQ3,
            )
    if h["num_meshes"]:
        missing = [k for k in ("position", "normal", "texcoord") if k not in kinds]
        if h["num_joints"]:
            missing += [k for k in ("blend_indexes", "blend_weights") if k not in kinds]
        if missing:
            r.limit(
                "ioq3-required-array",
                "vertex_arrays",
                HEADER_OFFSETS["ofs_vertex_arrays"],
                f"no {', '.join(missing)} array: ioquake3 refuses the model (quake3)",
                engines=IOQ3,
            )
    for mesh in m.mesh_records:
        if mesh.num_vertices > IOQ3_MAX_MESH_VERTICES:
            r.limit(
                "ioq3-mesh-vertices",
                f"meshes[{mesh.index}].num_vertices",
                h["ofs_meshes"] + mesh.index * 24,
                f"meshes[{mesh.index}] ({mesh.name}) has {mesh.num_vertices} vertices, over"
                f" ioquake3's {IOQ3_MAX_MESH_VERTICES} (SHADER_MAX_VERTEXES) (quake3)",
                engines=IOQ3,
            )
        if mesh.num_triangles > IOQ3_MAX_MESH_TRIANGLES:
            r.limit(
                "ioq3-mesh-triangles",
                f"meshes[{mesh.index}].num_triangles",
                h["ofs_meshes"] + mesh.index * 24,
                f"meshes[{mesh.index}] ({mesh.name}) has {mesh.num_triangles} triangles, over"
                f" ioquake3's {IOQ3_MAX_MESH_TRIANGLES} (SHADER_MAX_INDEXES / 3) (quake3)",
                engines=IOQ3,
            )
    raw = m._joints["parent"] if h["num_joints"] else []
    below = [j for j, p in enumerate(raw) if int(p) < -1]
    if below:
        r.limit(
            "joint-parent",
            f"joints[{below[0]}].parent",
            h["ofs_joints"] + below[0] * 48 + 4,
            f"joints[{below[0]}].parent={int(raw[below[0]])}: a root's parent is -1 (ioquake3"
            " refuses other negatives) (quake3)",
            engines=IOQ3,
        )
    if h["num_poses"] and (m.pose_parents != m.joint_parents).any():
        p = int((m.pose_parents != m.joint_parents).nonzero()[0][0])
        r.warning(
            "pose-parent",
            f"poses[{p}].parent",
            h["ofs_poses"] + p * 88,
            f"poses[{p}].parent differs from joints[{p}].parent (the joints' is used)",
        )
    for i, anim in enumerate(m.anims):
        if not anim.framerate > 0:
            r.warning(
                "framerate",
                f"anims[{i}].framerate",
                h["ofs_anims"] + i * 20 + 12,
                f"anims[{i}] ({anim.name}) has framerate={anim.framerate}: played at 10 fps here",
            )
    _ = TYPES


__all__ = ["check"]
