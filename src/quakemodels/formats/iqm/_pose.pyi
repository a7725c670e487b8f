"""Types of the compiled ``_pose`` module (``_pose.c``); see :func:`..fast.compiled_meshes`."""

LAYOUT: dict[str, int]
"""The header offsets, record sizes and enum values ``_pose.c`` reads the file by."""

def pose(
    data: bytes, frame: int, max_joints: int, max_pose_frames: int
) -> tuple[bytes, bytes, bytes, bytes, tuple[int, ...]] | int:
    """Scene frame ``frame`` of the IQM in ``data`` posed: float32 positions (V,3), normals
    (V,3), uvs (V,2) and uint32 triangles (T,3) of every mesh in order, as raw bytes, and each
    mesh's (vertices, triangles) flat; or a positive int where the numpy path must pose the
    file (1 a vertex format or mesh layout not read here, 2 a fault, 3 a bind pose close to
    singular, 4 a frame out of range)."""
