"""What every format's writer shares: input checks (of any array, and of the arrays a
single-surface ``build`` takes), fixed-size names, gaps, vertex normals."""

from __future__ import annotations

from typing import Any, Generic, NamedTuple, TypeVar

import numpy as np
import numpy.typing as npt

from ..errors import BadValueError, LimitExceededError
from .sections import first_bad_index

M = TypeVar("M")


class BuildResult(NamedTuple, Generic[M]):
    """What a writer's ``build`` returns (MD2's, MD3's): the model and how far its positions
    are from the input.

    ``errors`` (F,3) float64 is the largest absolute error per frame and axis over every
    surface, computed in double from the stored bytes against the input; it never exceeds
    ``steps / 2``. ``steps`` (F,3) float64 is the quantization step per frame and axis (MD2:
    the frame's scale; MD3: 1/64 everywhere). The float32 positions a reader returns may add
    half a float32 ulp to that.
    """

    model: M
    errors: npt.NDArray[np.float64]
    steps: npt.NDArray[np.float64]


# numeric kinds an array may come in: bool, signed, unsigned, float (complex would lose its
# imaginary part in the cast, strings and dates are no numbers)
_NUMERIC_KINDS = "biuf"


def as_array(value: Any, name: str, dtype: Any, ndim: int | None) -> npt.NDArray[Any]:
    """``value`` as an ``ndim``-dimensional (any when None) array of ``dtype`` (its own when
    None); BadValueError naming ``name`` unless it is numeric, and, for an integer ``dtype``,
    unless every value is a whole number of its range (a cast would make NaN a huge negative
    index and cut 1.5 to 1 without a word)."""
    try:
        array = np.asarray(value)
        if array.dtype.kind == "O":  # a list of Python numbers and arrays: numpy's own cast
            array = np.asarray(value, dtype=np.float64 if dtype is None else dtype)
    except (TypeError, ValueError) as e:
        raise BadValueError(f"{name}: not a numeric array: {e}", field=name) from e
    if array.dtype.kind not in _NUMERIC_KINDS:
        raise BadValueError(f"{name}: not a numeric array (dtype {array.dtype})", field=name)
    if ndim is not None and array.ndim != ndim:
        raise BadValueError(
            f"{name} must have {ndim} dimensions, has shape {array.shape}", field=name
        )
    if dtype is None:
        return array
    target = np.dtype(dtype)
    if target.kind in "iu" and not np.can_cast(array.dtype, target) and array.size:
        info = np.iinfo(target)  # a uint64 past int64 would wrap to a negative index
        if array.dtype.kind == "f":  # in float64, whose powers of two bound the range exactly
            values = array.astype(np.float64)
            bad = ~((values >= float(info.min)) & (values < float(info.max) + 1))
            with np.errstate(invalid="ignore"):  # NaN and infinity fail the test above
                bad |= np.mod(values, 1) != 0
        else:
            bad = (array < info.min) | (array > info.max)
        if bad.any():
            flat = int(np.flatnonzero(bad)[0])
            where = [int(i) for i in np.unravel_index(flat, array.shape)]
            raise BadValueError(
                f"{name}{where}={array.flat[flat]} is not a whole number that fits {target}",
                field=name,
            )
    return np.asarray(array, dtype=target)


def require_fields(items: Any, what: str, kind: str, fields: tuple[str, ...]) -> None:
    """A TypeError naming ``what[i]`` for an item of ``items`` that lacks one of ``fields``:
    the wrong Python type, said as the API documents, instead of an AttributeError from deep
    inside a writer."""
    for i, item in enumerate(items):
        missing = next((f for f in fields if not hasattr(item, f)), None)
        if missing is not None:
            raise TypeError(
                f"{what}[{i}] is not a {kind}: a {type(item).__name__} has no {missing}"
            )


def mesh_arrays(
    positions: npt.ArrayLike,
    triangles: npt.ArrayLike,
    texcoords_px: npt.ArrayLike,
    triangle_texcoords: npt.ArrayLike,
    frames: str,
) -> tuple[
    npt.NDArray[np.float64], npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.float64]
]:
    """The arrays every single-surface ``build`` takes (F frames, V vertices, T triangles, S
    texcoords), checked for shape: (F,V,3) float64 finite ``positions``, (T,3) int64
    ``triangles`` and ``triangle_texcoords``, and ``texcoords_px`` as a 2-D float64 array
    (its columns and values are the format's to check). ``frames`` is the letter the message
    names the first axis by (``F``; MDL's poses ``P``). BadValueError naming the field."""
    pos = as_array(positions, "positions", np.float64, 3)
    if pos.shape[-1] != 3:
        raise BadValueError(f"positions must be ({frames},V,3), got {pos.shape}", field="positions")
    if not np.isfinite(pos).all():
        raise BadValueError("positions contain NaN or infinity", field="positions")
    tri = as_array(triangles, "triangles", np.int64, 2)
    tri_st = as_array(triangle_texcoords, "triangle_texcoords", np.int64, 2)
    st = as_array(texcoords_px, "texcoords_px", np.float64, 2)
    if tri.shape[1:] != (3,) or tri_st.shape != tri.shape:
        raise BadValueError(
            f"triangles {tri.shape} and triangle_texcoords {tri_st.shape} must both be (T,3)",
            field="triangles",
        )
    return pos, tri, tri_st, st


def check_not_empty(counts: tuple[tuple[int, str, str], ...]) -> None:
    """BadValueError naming ``field`` for the first ``(count, what, field)`` below one."""
    for count, what, field in counts:
        if count < 1:
            raise BadValueError(f"a model needs at least one of its {what}", field=field)


def check_corners(
    triangles: npt.NDArray[np.int64],
    num_vertices: int,
    triangle_texcoords: npt.NDArray[np.int64],
    num_texcoords: int,
) -> None:
    """BadValueError for the first (T,3) corner index outside its range: vertex indices in
    ``triangles`` below ``num_vertices``, then texcoord indices below ``num_texcoords``."""
    for array, limit, what in (
        (triangles, num_vertices, "triangles"),
        (triangle_texcoords, num_texcoords, "triangle_texcoords"),
    ):
        bad = first_bad_index(array, limit)
        if bad is not None:
            raise BadValueError(
                f"{what}[{bad.row}][{bad.column}]={bad.value} is outside 0..{limit - 1}",
                field=what,
            )


# the headers' skin width and height are signed 32-bit integers
MAX_SKIN_SIDE = 2**31 - 1


def first_size(*sizes: Any) -> Any:
    """The first of ``sizes`` given (not None, not empty), else 256 × 256; as given, for
    :func:`skin_dimensions` to check (a numpy array has no truth value to pick it by)."""
    return next((s for s in sizes if s is not None and len(s)), (256, 256))


def skin_dimensions(skin_size: Any, field: str) -> tuple[int, int]:
    """(width, height) of ``skin_size`` as ints; BadValueError naming ``field`` unless it is
    two whole numbers, both positive (LimitExceededError past the header's 32 bits)."""
    try:
        size = np.asarray(skin_size)
    except (TypeError, ValueError) as e:
        raise BadValueError(
            f"skin_size {skin_size!r}: not (width, height): {e}", field=field
        ) from e
    if (
        size.shape != (2,)
        or size.dtype.kind not in "iuf"
        or not np.isfinite(size).all()
        or np.any(np.mod(size, 1) != 0)
    ):
        raise BadValueError(
            f"skin_size {skin_size!r} must be (width, height), two whole numbers", field=field
        )
    width, height = int(size[0]), int(size[1])
    if width <= 0 or height <= 0:
        raise BadValueError(f"skin_size {skin_size} must be positive", field=field)
    if max(width, height) > MAX_SKIN_SIDE:
        raise LimitExceededError(
            f"skin_size {skin_size} exceeds the header's 32-bit limit of {MAX_SKIN_SIDE}",
            field=field,
        )
    return width, height


def encode_name(name: str | bytes, size: int, what: str, field: str) -> bytes:
    """``name`` as ASCII NUL-padded to ``size`` bytes; it must leave room for its NUL."""
    try:
        raw = name.encode("ascii") if isinstance(name, str) else bytes(name)
    except UnicodeEncodeError as e:
        raise BadValueError(f"{what} {name!r} is not ASCII", field=field) from e
    if b"\0" in raw:
        raise BadValueError(f"{what} {raw!r} contains a NUL byte", field=field)
    if len(raw) >= size:
        raise LimitExceededError(
            f"{what} {raw!r} has {len(raw)} bytes; it must fit {size} bytes with its NUL"
            f" (at most {size - 1})",
            field=field,
        )
    return raw.ljust(size, b"\0")


def scene_frame_names(names: Any) -> list[bytes]:
    """A scene's frame names as at most 15 bytes each (the formats' 16-byte field with its
    NUL): text with characters past ASCII as backslash escapes, bytes as they are;
    BadValueError for anything else (a bare AttributeError before)."""
    out = []
    for i, name in enumerate(names):
        if isinstance(name, str):
            name = name.encode("ascii", "backslashreplace")
        if not isinstance(name, bytes):
            raise BadValueError(f"frame_names[{i}]={name!r} is not text", field="frames.name")
        out.append(name[:15])
    return out


def check_limit(value: int, limit: int, what: str, field: str, *, hard: int | None = None) -> None:
    """LimitExceededError when ``value`` ``what`` are more than ``limit`` (an engine's, which
    ``limits=`` raises) or than ``hard`` (the file format's own, which nothing raises)."""
    if hard is not None and value > hard:
        raise LimitExceededError(
            f"{value} {what} exceed the format's limit of {hard}", field=field, liftable=False
        )
    if value > limit:
        reason = f"{value} {what} exceed the limit of {limit}"
        raise LimitExceededError(
            f"{reason} (pass limits= for engines that allow more)",
            field=field,
            liftable=hard is None or limit < hard,
            reason=reason,
        )


def gaps(covered: list[tuple[int, int]], size: int) -> list[tuple[int, int]]:
    """The runs of ``[0, size)`` outside every ``(start, stop)`` in ``covered``."""
    gaps: list[tuple[int, int]] = []
    cursor = 0
    for start, stop in sorted(covered):
        if start > cursor:
            gaps.append((cursor, start))
        cursor = max(cursor, stop)
    if cursor < size:
        gaps.append((cursor, size))
    return gaps


def vertex_normals(positions: npt.ArrayLike, triangles: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """(F,V,3) float64 area-weighted unit vertex normals of (F,V,3) positions.

    Quake's triangles (MD2, MD3) wind clockwise seen from outside (the corpus's stored normals
    agree), so the outward face normal is ``(p2 − p0) × (p1 − p0)``; its length is twice the
    area, which is the weight. Vertices on no triangle, or whose faces cancel out, get a zero
    vector.
    """
    p = np.asarray(positions, dtype=np.float64)
    tri = np.asarray(triangles, dtype=np.int64)
    p0, p1, p2 = p[:, tri[:, 0]], p[:, tri[:, 1]], p[:, tri[:, 2]]
    face = np.cross(p2 - p0, p1 - p0)  # (F,T,3)
    num_frames, num_vertices = p.shape[0], p.shape[1]
    # one bincount per corner and axis over (frame, vertex) pairs flattened
    offsets = (np.arange(num_frames) * num_vertices)[:, None]
    normals = np.zeros((num_frames * num_vertices, 3))
    for corner in range(3):
        where = (offsets + tri[:, corner]).reshape(-1)
        for axis in range(3):
            normals[:, axis] += np.bincount(
                where, weights=face[:, :, axis].reshape(-1), minlength=num_frames * num_vertices
            )
    normals = normals.reshape(num_frames, num_vertices, 3)
    length = np.linalg.norm(normals, axis=2, keepdims=True)
    unit = np.divide(normals, length, out=np.zeros_like(normals), where=length > 1e-30)
    return np.asarray(unit, dtype=np.float64)
