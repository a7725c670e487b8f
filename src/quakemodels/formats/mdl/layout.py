"""Quake 1 MDL constants and the header's field offsets (spec names of ``quake_mdl.ksy``)."""

from __future__ import annotations

MAGIC = b"IDPO"
VERSION = 6  # ALIAS_VERSION
HEADER_SIZE = 84  # sizeof(mdl_t)
POSE_HEADER_SIZE = 24  # daliasframe_t: bboxmin, bboxmax (trivertx_t), name[16]
GROUP_HEADER_SIZE = 12  # daliasgroup_t: numframes, bboxmin, bboxmax
FRAME_NAME_SIZE = 16
ONSEAM = 0x20  # ALIAS_ONSEAM
FACES_FRONT = 0x10  # DT_FACES_FRONT
NUM_ANORMS = 162

# mdl_header's seq, with each field's offset: error messages name both.
HEADER_OFFSETS: dict[str, int] = {
    "ident": 0,
    "version": 4,
    "scale": 8,
    "origin": 20,
    "radius": 32,
    "eye_position": 36,
    "num_skins": 48,
    "skin_width": 52,
    "skin_height": 56,
    "num_verts": 60,
    "num_tris": 64,
    "num_frames": 68,
    "synctype": 72,
    "flags": 76,
    "size": 80,
}
HEADER_FIELDS = tuple(HEADER_OFFSETS)
COUNT_FIELDS = ("num_skins", "skin_width", "skin_height", "num_verts", "num_tris", "num_frames")
