"""IQM's limits: what the reader refuses (the format's own bounds and the reader's memory
budget) and what ioquake3 loads, as plain values.

ioquake3 (``code/renderergl1/tr_model_iqm.c``, ``R_LoadIQM``, at commit 5956299e of
ioquake/ioq3; ``code/renderercommon/iqm.h``; ``code/qcommon/qfiles.h``) refuses a model:

- whose ``filesize`` is larger than the file read or than 16 MiB (``16<<20``);
- with more than ``IQM_MAX_JOINTS`` (128) joints;
- with a vertex array of ``size`` outside 1..4, a format other than byte, ubyte, int, uint or
  float, or one of the standard types in another format or size (position and normal
  float × 3, texcoord float × 2, tangent float × 4, blend indexes ubyte or int × 4, blend
  weights ubyte or float × 4, colour ubyte × 4);
- without position, normal and texcoord arrays, or with joints but no blend arrays;
- with a mesh of ``SHADER_MAX_VERTEXES`` (1000) vertices or more, or of 3 × triangles ≥
  ``SHADER_MAX_INDEXES`` (6000);
- whose ``num_poses`` is neither 0 nor ``num_joints``;
- with a joint parent below -1 or not below ``num_joints``, or a name past the text;
- whose sections (``IQM_CheckRange``: count > 0, offset > 0, offset + count × size within
  ``filesize``) do not fit. It does not check the frames' range.
"""

from __future__ import annotations

# ioquake3's limits (see the module doc); check.py reports them, the reader accepts more.
IOQ3_MAX_FILESIZE = 16 << 20
IOQ3_MAX_JOINTS = 128
IOQ3_MAX_MESH_VERTICES = 999
IOQ3_MAX_MESH_TRIANGLES = 1999

# What the reader refuses beyond the file's own bounds: decoded frames take 10 float64
# channels per pose per frame, so poses × frames is bounded before anything is decoded
# (2**21 pose frames: 160 MB); vertex array components are read from the file, whose size
# bounds them.
MAX_POSE_FRAMES = 1 << 21
MAX_JOINTS = 1 << 16
MAX_EXTENSIONS = 1 << 16

__all__ = [
    "IOQ3_MAX_FILESIZE",
    "IOQ3_MAX_JOINTS",
    "IOQ3_MAX_MESH_TRIANGLES",
    "IOQ3_MAX_MESH_VERTICES",
    "MAX_EXTENSIONS",
    "MAX_JOINTS",
    "MAX_POSE_FRAMES",
]
