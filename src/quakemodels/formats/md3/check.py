"""Engine-compatibility and sanity checks for MD3 models: a list of findings, never an exception.

``quake3`` applies ioquake3's load-time limits (999 vertices and 1999 triangles per surface),
``q2pro`` Q2PRO's; ``quake2`` is an error (Quake II loads MD2 only); ``any`` reports engine
limits as warnings. The reader (``reader.py``) already refuses what no engine loads; its
ModelFormatError becomes an error finding.
"""

from __future__ import annotations

import os

import numpy as np

from ...core.facade import Readable, read_source
from ...core.findings import (
    Finding,
    Report,
    degenerate_triangles,
    non_ascii_names,
    unused_vertices,
)
from ...core.sections import more, offset_of
from ...errors import ModelFormatError
from .layout import (
    HEADER,
    HEADER_OFFSETS,
    HEADER_SIZE,
    SHADER,
    SURFACE_OFFSETS,
    TAG,
    TEX_COORD,
    TRIANGLE,
)
from .reader import (
    MD3_MAX_TAGS,
    Q3_MAX_SURFACE_TRIANGLES,
    Q3_MAX_SURFACE_VERTS,
    Md3Reader,
    Md3Surface,
)


def _check(r: Report, data: bytes, name: str | None) -> None:
    MD3_OFS = HEADER_OFFSETS
    if r.engine == "quake2":
        r.error("engine-format", "magic", 0, "Quake II loads MD2 models, not MD3")
    if r.engine in ("quake", "quakespasm"):
        r.error("engine-format", "magic", 0, "Quake and QuakeSpasm load MDL models, not MD3")
    size = len(data)
    if size >= HEADER_SIZE:
        h = np.frombuffer(data, HEADER, 1)[0]
        num_tags, num_surfaces, ofs_end = (
            int(h["num_tags"]),
            int(h["num_surfaces"]),
            int(h["ofs_end"]),
        )
        if num_tags > MD3_MAX_TAGS:
            r.warning(
                "too-many-tags",
                "num_tags",
                MD3_OFS["num_tags"],
                f"num_tags={num_tags} exceeds qfiles.h's MD3_MAX_TAGS {MD3_MAX_TAGS}",
            )
        if num_surfaces == 0:
            r.limit(
                "empty",
                "num_surfaces",
                MD3_OFS["num_surfaces"],
                "num_surfaces=0: Q2PRO refuses a model with no surfaces; nothing is drawn",
                engines=("q2pro",),
                warn_in=("quake3",),
            )
        if ofs_end > size:
            r.limit(
                "ofs-end-long",
                "ofs_end",
                MD3_OFS["ofs_end"],
                f"ofs_end={ofs_end} is past the end of the file ({size} bytes): Quake III copies"
                " ofs_end bytes and reads past the data",
                engines=("quake3",),
            )
        elif ofs_end != size:
            r.warning(
                "ofs-end",
                "ofs_end",
                MD3_OFS["ofs_end"],
                f"ofs_end={ofs_end} is not the file size {size}",
            )
    try:
        model = Md3Reader(data, name=name)
    except ModelFormatError as e:
        r.from_error(e)
        return
    for surf in model.surfaces:
        at = {k: surf.offset + v for k, v in SURFACE_OFFSETS.items()}
        label = f"surfaces[{surf.index}] {surf.name!r}"
        if surf.num_vertices > Q3_MAX_SURFACE_VERTS:
            r.limit(
                "too-many-vertices",
                "num_vertices",
                at["num_vertices"],
                f"{label} has {surf.num_vertices} vertices; Quake III's renderer drops"
                f" surfaces with more than {Q3_MAX_SURFACE_VERTS}",
                engines=("quake3",),
            )
        if surf.num_triangles > Q3_MAX_SURFACE_TRIANGLES:
            r.limit(
                "too-many-triangles",
                "num_triangles",
                at["num_triangles"],
                f"{label} has {surf.num_triangles} triangles; Quake III's renderer drops"
                f" surfaces with more than {Q3_MAX_SURFACE_TRIANGLES}",
                engines=("quake3",),
            )
        try:
            _check_surface(r, surf, at, label)
        except ModelFormatError as e:
            r.from_error(e)
    r.guarded(lambda m: _check_tags(r, m), model)
    r.guarded(lambda m: _check_names(r, m), model)


def _check_surface(r: Report, surf: Md3Surface, at: dict[str, int], label: str) -> None:
    tris = surf.triangles.astype(np.int64)
    degenerate_triangles(
        r,
        tris,
        "triangles",
        lambda i: (
            surf.offset + surf.ofs_triangles + TRIANGLE.itemsize * i,
            f"{label} triangles[{i}]",
        ),
    )
    unused_vertices(
        r,
        tris,
        surf.num_vertices,
        lambda i: (
            surf.offset + surf.ofs_tex_coords + TEX_COORD.itemsize * i,
            f"{label} vertex {i}",
        ),
    )
    st = surf.texcoords
    bad = np.flatnonzero(~np.isfinite(st).all(axis=1))
    if bad.size:
        i = int(bad[0])
        r.error(
            "non-finite",
            "tex_coords",
            surf.offset + surf.ofs_tex_coords + TEX_COORD.itemsize * i,
            f"{label} texcoords[{i}] is not a finite number{more(bad.size)}",
        )


def _check_tags(r: Report, m: Md3Reader) -> None:
    tags = m.tags
    ok = np.isfinite(tags.origins).all(axis=2) & np.isfinite(tags.axes).all(axis=(2, 3))
    bad = np.flatnonzero(~ok)
    if bad.size:
        frame, k = divmod(int(bad[0]), max(m.num_tags, 1))
        r.error(
            "non-finite",
            "tags",
            m.ofs_tags + TAG.itemsize * int(bad[0]) + offset_of(TAG, "origin"),
            f"frame {frame} tag {tags.names[k]!r} has a non-finite origin or axis{more(bad.size)}",
        )


def _player_part(name: str | None) -> bool:
    """Whether the model is a player's part (under a ``players`` folder, or named head, upper
    or lower.md3): a .skin file beside it names its surfaces' shaders."""
    parts = os.path.normpath(name).replace("\\", "/").lower().split("/") if name else []
    return "players" in parts[:-1] or parts[-1:] in (["head.md3"], ["upper.md3"], ["lower.md3"])


def _check_names(r: Report, m: Md3Reader) -> None:
    """Names ioquake3 loads as bytes but matches as ASCII text: surface names against .skin
    files (lowercased with ASCII ``tolower``), shader names against files in the game's
    paks (zip names, looked up case-insensitively only for ASCII letters), tag names with
    ``strcmp`` against the game's ``tag_torso``, ``tag_head``, ``tag_weapon``."""
    surfaces = m.surfaces
    non_ascii_names(
        r,
        [s.name_raw for s in surfaces],
        "surface-name-bytes",
        "name",
        lambda i: surfaces[i].offset + SURFACE_OFFSETS["name"],
        lambda i: f"surfaces[{i}].name",
        "a .skin file's surface names match it only as ASCII text",
    )
    # A surface without a shader name: ioquake3's R_FindShader gives an empty name its
    # default shader (a grey grid) unless a .skin file names one; one warning covers them all.
    bare = [s for s in surfaces if not any(sh.name for sh in s.shaders)]
    if bare and r.engine in ("quake3", "any") and not _player_part(m.name):
        first = bare[0]
        r.warning(
            "shader-empty",
            "shaders",
            first.offset
            + SURFACE_OFFSETS["num_shaders" if not first.num_shaders else "ofs_shaders"],
            f"surfaces[{first.index}] {first.name!r} has no shader name"
            + (f" (and {len(bare) - 1} more surfaces)" if len(bare) > 1 else "")
            + ": the engine draws it with its default shader unless a .skin file names one",
        )
    # Every surface's shaders as one list, so one warning covers them all.
    where = [(s, i) for s in surfaces for i in range(len(s.shaders))]
    non_ascii_names(
        r,
        [s.shaders[i].name_raw for s, i in where],
        "skin-name-bytes",
        "name",
        lambda k: where[k][0].offset + where[k][0].ofs_shaders + SHADER.itemsize * where[k][1],
        lambda k: f"surfaces[{where[k][0].index}].shaders[{where[k][1]}].name",
        "a game file system lookup (pk3 zip names, case folded as ASCII) may not find it",
    )
    tags = m.tags
    non_ascii_names(
        r,
        tags.names_raw or [],
        "tag-name-bytes",
        "name",
        lambda i: m.ofs_tags + TAG.itemsize * i,
        lambda i: f"tags[{i}].name",
        "the game finds tags by strcmp with ASCII names (tag_torso, tag_head, tag_weapon)",
    )


def check_md3(
    source: Md3Reader | Readable, engine: str = "any", *, name: str | None = None
) -> list[Finding]:
    """Findings for one MD3 model (a loaded model, its bytes, a path or a binary file), for
    ``engine``; never raises on any input (an unknown ``engine`` is a ValueError)."""
    r = Report(engine)
    try:
        if isinstance(source, Md3Reader):
            data, source_name = source.data, source.name
        else:
            data, source_name = read_source(source)
    except OSError as e:
        r.error("io", None, None, f"cannot read {source!s}: {e.strerror or e}")
        return r.findings
    return r.run(lambda r: _check(r, data, name or source_name))
