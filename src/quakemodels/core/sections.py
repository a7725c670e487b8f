"""Sections of a file: bounds checked with Python ints, read through a generated dtype, and
index arrays checked against the count they index.

Every format's header says where its sections are (an offset field and a count field). One
walk serves the readers (which raise) and the checkers (which report), so both say the same
thing in the same words.
"""

from __future__ import annotations

import functools
import struct
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from ..errors import BadValueError, ModelFormatError, TruncatedError
from .records import Frozen


class Span(Frozen):
    """``count`` items of ``item`` bytes at ``base + rel``, described by the header field
    ``ofs_field`` that sits at ``field_offset``; ``label`` prefixes messages (``surfaces[2].``)
    and ``what`` names the items (``texcoords``). A section past the end is reported at its
    own start, or at the offset field when ``at_field`` (MD3 reports every fault there)."""

    ofs_field: str
    field_offset: int
    what: str
    rel: int
    count: int
    item: int
    base: int = 0
    label: str = ""
    at_field: bool = False

    @property
    def start(self) -> int:
        """Absolute offset of the section."""
        return self.base + self.rel

    @property
    def end(self) -> int:
        """Absolute offset just past the section."""
        return self.start + self.count * self.item


def fits(
    rel: int, count: int, item: int, size: int, header_size: int, base: int = 0, align: int = 1
) -> bool:
    """True when a section of ``count`` items of ``item`` bytes at ``base + rel`` passes
    :func:`span_error` (the common case, checked without building a :class:`Span`)."""
    return count <= 0 or (
        header_size <= rel and base + rel + count * item <= size and (base + rel) % align == 0
    )


def span_error(span: Span, size: int, header_size: int, align: int = 1) -> ModelFormatError | None:
    """Why a non-empty section does not fit, or None: past the end of ``size`` bytes
    (TruncatedError), inside the ``header_size``-byte header it follows (BadValueError), or
    misaligned (BadValueError). Empty sections always fit, wherever their offset points, as
    the engines never read them. Python ints: nothing overflows."""
    if span.count <= 0:
        return None
    name = f"{span.label}{span.ofs_field}={span.rel}"
    if span.end > size:
        return TruncatedError(
            f"{name} at offset {span.field_offset}: {span.count} {span.what} × {span.item} bytes"
            f" from offset {span.start} run past the end of the file ({size} bytes)",
            field=span.ofs_field,
            offset=span.field_offset if span.at_field else span.start,
        )
    if span.rel < header_size:
        return BadValueError(
            f"{name} at offset {span.field_offset} points into the {header_size}-byte header",
            field=span.ofs_field,
            offset=span.field_offset,
        )
    if span.start % align:
        return BadValueError(
            f"{name} at offset {span.field_offset} puts the section at offset {span.start},"
            f" not a multiple of {align}",
            field=span.ofs_field,
            offset=span.field_offset,
        )
    return None


def read_section(data: bytes, dtype: Any, count: int, offset: int) -> npt.NDArray[Any]:
    """``count`` items of ``dtype`` at ``offset``, a read-only view of ``data``; an empty
    section is empty wherever its offset points (the layout check skips those offsets)."""
    if count == 0:
        return np.empty(0, dtype=dtype)
    return np.frombuffer(data, dtype=dtype, count=count, offset=offset)


def read_record(data: bytes, dtype: Any, offset: int) -> tuple[Any, ...]:
    """The one ``dtype`` record at ``offset`` as Python values in field order (ints, floats,
    bytes for raw fields, tuples for nested ones), in one call: a header read field by field
    through numpy scalars costs a call per field. The caller has checked the bounds."""
    flat = _record_struct(np.dtype(dtype))
    if flat is not None:  # the same values through struct, a few times cheaper than numpy
        return flat.unpack_from(data, offset)
    values: tuple[Any, ...] = np.frombuffer(data, dtype=dtype, count=1, offset=offset).tolist()[0]
    return values


_STRUCT_CODES = {"<i4": "i", "<u4": "I", "<i2": "h", "<u2": "H", "|u1": "B", "|i1": "b"}
_STRUCT_CODES |= {"<f4": "f", "<f8": "d"}


@functools.lru_cache(maxsize=64)
def _record_struct(dtype: np.dtype[Any]) -> struct.Struct | None:
    """A struct reading ``dtype``'s records to the values numpy's ``tolist`` gives, when its
    fields are scalars and raw bytes packed in order; None for nested or padded records."""
    if not dtype.names:
        return None
    codes, at = ["<"], 0
    for offset, field in sorted((f[1], f[0]) for f in (dtype.fields or {}).values()):
        if offset != at:
            return None
        if field.kind == "V" and field.names is None and field.subdtype is None:
            codes.append(f"{field.itemsize}s")  # raw bytes: numpy gives them whole too
        elif field.str in _STRUCT_CODES:
            codes.append(_STRUCT_CODES[field.str])
        else:
            return None
        at += field.itemsize
    derived = "".join(codes)
    return struct.Struct(derived) if at == dtype.itemsize else None


class BadIndex(NamedTuple):
    """The first index outside its range in a (rows, k) array: where and what, and how many."""

    row: int
    column: int
    value: int
    number: int


_UNSIGNED = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def first_bad_index(values: npt.NDArray[Any], limit: int) -> BadIndex | None:
    """The first entry of ``values`` (rows, k) outside 0..limit-1, or None when all fit."""
    if values.size == 0:
        return None
    size = values.dtype.itemsize
    # The common case in one reduction: read as unsigned, a negative value is at least
    # 2**(bits-1), above such a limit, so the largest one is below the limit iff all fit.
    if (
        values.dtype.kind == "i"
        and values.dtype.isnative
        and 0 <= limit <= 1 << (8 * size - 1)
        and int(values.view(_UNSIGNED[size]).max()) < limit
    ):
        return None
    bad = np.flatnonzero((values < 0) | (values >= limit))
    if not bad.size:
        return None
    width = values.shape[1] if values.ndim > 1 else 1
    row, column = divmod(int(bad[0]), max(width, 1))
    return BadIndex(row, column, int(values.flat[bad[0]]), int(bad.size))


def more(count: int) -> str:
    """`` (N more)`` after the first of ``count`` problems, or nothing for one."""
    return f" ({count - 1} more)" if count > 1 else ""


def unstructured(values: npt.NDArray[Any], dtype: Any) -> npt.NDArray[Any]:
    """A record field as a plain array of ``dtype`` (a copy, never a view of the file): a
    nested struct of same-typed members (the spec's ``vec3f``: x, y, z) gains a last axis; a
    plain field is only cast."""
    if not values.dtype.names:
        return np.array(values, dtype=dtype, copy=True)
    leaves = _leaf_types(values.dtype)
    if len(set(leaves)) != 1 or len(leaves) * leaves[0].itemsize != values.dtype.itemsize:
        raise TypeError(f"record {values.dtype} is not a packed struct of one scalar type")
    # The packed members read as one array of their scalar type: no per-field copies, and no
    # numpy.lib.recfunctions (it imports numpy.ma, a tenth of numpy's import time).
    packed = np.ascontiguousarray(values).view(leaves[0])
    return packed.reshape(*values.shape, len(leaves)).astype(dtype)


@functools.lru_cache(maxsize=64)
def _leaf_types(dtype: np.dtype[Any]) -> tuple[np.dtype[Any], ...]:
    """The scalar type of every member of a record dtype, nested records and sub-arrays
    flattened, in memory order (cached: the layouts are a few fixed dtypes)."""
    if dtype.subdtype is not None:
        base, shape = dtype.subdtype
        return _leaf_types(base) * int(np.prod(shape))
    if not dtype.names:
        return (dtype,)
    members = sorted((dtype.fields or {}).values(), key=lambda f: f[1])
    return tuple(leaf for member in members for leaf in _leaf_types(member[0]))


def columns(offsets: list[int]) -> slice | list[int]:
    """Consecutive column indices as a slice (numpy then gives a view, not a copy)."""
    if offsets and offsets == list(range(offsets[0], offsets[0] + len(offsets))):
        return slice(offsets[0], offsets[0] + len(offsets))
    return offsets


def word_columns(dtype: np.dtype[Any], name: str, word: Any) -> slice | list[int]:
    """The columns of field ``name`` when ``dtype`` records are read as rows of ``word``
    scalars (a triangle as six int16): ValueError when the field is not made of those."""
    word = np.dtype(word)
    leaves = _leaf_types(field_type(dtype, name))
    at = offset_of(dtype, name)
    if set(leaves) != {word} or at % word.itemsize or dtype.itemsize % word.itemsize:
        raise ValueError(f"field {name!r} of {dtype} is not a run of {word} words")
    first = at // word.itemsize
    return columns(list(range(first, first + len(leaves))))


def offset_of(dtype: np.dtype[Any], name: str) -> int:
    """Byte offset of the field ``name`` in a record dtype (KeyError when it has none)."""
    fields = dtype.fields
    if fields is None or name not in fields:
        raise KeyError(f"record {dtype} has no field {name!r}")
    return int(fields[name][1])


def field_type(dtype: np.dtype[Any], name: str) -> np.dtype[Any]:
    """The dtype of the field ``name`` in a record dtype (KeyError when it has none)."""
    fields = dtype.fields
    if fields is None or name not in fields:
        raise KeyError(f"record {dtype} has no field {name!r}")
    return fields[name][0]
