"""What every format's reader shares: lazy decoding, header parsing, constructors, frame
indexing, lerp and clip sampling."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import IO, Any, Generic, TypeVar, overload

import kaitaistruct
import numpy as np
import numpy.typing as npt

from ..errors import (
    BadMagicError,
    BadValueError,
    BadVersionError,
    ModelFormatError,
    TruncatedError,
)
from .files import read_regular
from .frames import PerFrame, lerp_between
from .mesh import Mesh, bounds_of
from .sections import read_record

FloatArray = npt.NDArray[np.float32]

_T = TypeVar("_T")
_M = TypeVar("_M", bound="ModelFile")
_S = TypeVar("_S", bound="SingleSurface")


class Decoded(Generic[_T]):
    """A lazily decoded, cached section (see :func:`decoded`): a non-data descriptor, so once
    the value is in the instance's ``__dict__`` an access is a plain attribute lookup.

    Unlike ``functools.cached_property`` on Python 3.11 it takes no lock: a full load touches
    a score of these once each, and the lock was a measurable share of it. Two threads racing
    on a first access both decode and store equal values.
    """

    def __init__(self, func: Callable[[Any], _T]) -> None:
        self.func = func
        self.name = func.__name__
        self.__doc__ = func.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, instance: None, owner: type | None = None) -> Decoded[_T]: ...

    @overload
    def __get__(self, instance: object, owner: type | None = None) -> _T: ...

    def __get__(self, instance: object, owner: type | None = None) -> _T | Decoded[_T]:
        if instance is None:
            return self
        try:
            value = read_only(self.func(instance))
        except ModelFormatError:
            raise
        except (ValueError, IndexError, EOFError, OverflowError, MemoryError) as e:
            raise ModelFormatError(f"{self.func.__name__}: cannot decode: {e}") from e
        # Stored only once the decode returned: a failed one leaves nothing behind that a later
        # access could mistake for a complete result.
        instance.__dict__[self.name] = value
        return value


def decoded(func: Callable[[Any], _T]) -> Decoded[_T]:
    """A lazily decoded, cached section; any low-level error becomes a ModelFormatError."""
    return Decoded(func)


def read_only(value: _T) -> _T:
    """``value`` with its numpy arrays made read-only: an array, or an object (a dataclass, a
    command list) holding arrays as attributes. Cached arrays are shared by every later access
    and by the meshes and scenes built from them, so writing into one would make the model
    contradict itself; a caller who wants to edit takes a copy."""
    # setflags is what assigning ``flags.writeable`` calls, without making a flags object.
    if isinstance(value, np.ndarray):
        value.setflags(write=False)
    else:
        for item in getattr(value, "__dict__", {}).values():
            if isinstance(item, np.ndarray):
                item.setflags(write=False)
    return value


Readable = str | os.PathLike[str] | bytes | bytearray | memoryview | IO[bytes]
"""What ``load``, ``check`` and the constructors accept: a path, bytes or a binary file."""


def read_source(source: Readable) -> tuple[bytes, str | None]:
    """The bytes of ``source`` and its name (a path, or None); OSError when unreadable and
    TypeError for anything that is not a path, bytes or a binary file object."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source), None
    if isinstance(source, (str, os.PathLike)):
        # a FIFO would block and a device never end: regular files only (core/files.py)
        return read_regular(source), os.fspath(source)
    read = getattr(source, "read", None)
    if not callable(read):
        raise TypeError(
            f"expected a path, bytes or a binary file object, not {type(source).__name__}"
        )
    data = read()
    if not isinstance(data, (bytes, bytearray)):
        raise TypeError(f"{type(source).__name__}.read() returned {type(data).__name__}, not bytes")
    name = getattr(source, "name", None)
    return bytes(data), name if isinstance(name, str) else None


def clip_frames(animations: dict[str, range], clip: str) -> range:
    """The frames of ``clip``; KeyError listing the clips there are when it is not one."""
    try:
        return animations[clip]
    except KeyError:
        raise KeyError(f"no clip {clip!r}; clips: {', '.join(animations)}") from None


def sample_position(
    frames: range, seconds: float, fps: float, loop: bool
) -> tuple[int, int, float]:
    """Where ``seconds`` into a clip of ``frames`` falls: (frame a, frame b, weight of b).

    Looping clips wrap from the last frame back to the first; otherwise the clip holds its
    last frame.
    """
    position = max(seconds, 0.0) * fps
    n = len(frames)
    if loop:
        position %= n
        i = int(position)
        return frames[i], frames[(i + 1) % n], position - i
    if position >= n - 1:
        return frames[-1], frames[-1], 0.0
    i = int(position)
    return frames[i], frames[i + 1], position - i


def frame_index(frame: int, num_frames: int) -> int:
    """``frame`` as an index in 0..num_frames-1 (negative counts from the end); IndexError else."""
    if not -num_frames <= frame < num_frames:
        raise IndexError(f"frame {frame} out of range for {num_frames} frames")
    return int(frame) % num_frames


def lerp(positions: FloatArray, a: int, b: int, t: float) -> FloatArray:
    """(V,3) float32 between ``positions[a]`` (t=0) and ``positions[b]`` (t=1)."""
    n = len(positions)
    return lerp_between(positions[frame_index(a, n)], positions[frame_index(b, n)], t)


def check_header(
    data: bytes,
    *,
    magic: bytes,
    version: int,
    layout: np.dtype[Any],
    format_name: str,
    field_offsets: dict[str, int],
) -> tuple[Any, ...]:
    """The header's values in field order, read through the generated ``layout`` dtype (ints,
    bytes for raw fields, tuples for nested ones), its magic, version and size checked.

    Raises BadMagicError, BadVersionError or TruncatedError (a header cut short) naming the
    field and its offset. The generated parser is not run: opening a model costs one record
    read (see :func:`parse_spec` for the parser's object, made when it is asked for).
    """
    header_size = layout.itemsize
    if data[:4] != magic[: len(data[:4])] or (len(data) >= 4 and data[:4] != magic):
        raise BadMagicError(
            f"magic={data[:4]!r} at offset 0 is not {magic!r}: not an {format_name} file",
            field="magic",
            offset=0,
        )
    if len(data) < header_size:
        # Name the first header field the data cuts short.
        ends = [*list(field_offsets.values())[1:], header_size]
        cut = next(f for f, end in zip(field_offsets, ends, strict=True) if end > len(data))
        raise TruncatedError(
            f"header needs {header_size} bytes, the file has {len(data)}: {cut} at offset"
            f" {len(data)} is cut short",
            field=cut,
            offset=len(data),
        )
    found = int.from_bytes(data[4:8], "little", signed=True)
    if found != version:
        raise BadVersionError(
            f"version={found} at offset 4 is not {version}", field="version", offset=4
        )
    return read_record(data, layout, 0)


def check_skin_size(
    header: Any, fields: tuple[str, str], field_offsets: dict[str, int], num_texcoords: int
) -> None:
    """BadValueError naming the first of the header's skin ``fields`` (width, height) that is
    not positive, when there are ``num_texcoords`` texcoords to normalize by them."""
    for field in fields:
        value = getattr(header, field)
        if value <= 0 and num_texcoords:
            raise BadValueError(
                f"{field}={value} at offset {field_offsets[field]}: texcoords cannot be"
                " normalized by a skin size that is not positive",
                field=field,
                offset=field_offsets[field],
            )


def parse_spec(parse: Callable[[bytes], _T], data: bytes) -> _T:
    """The generated parser's root object for ``data`` (whose header :func:`check_header`
    passed); a parser error becomes a ModelFormatError."""
    try:
        return parse(data)
    except kaitaistruct.KaitaiStructError as e:
        raise ModelFormatError(f"the generated parser rejects the header: {e}") from e
    except (UnicodeDecodeError, EOFError, ValueError) as e:
        raise ModelFormatError(f"the generated parser cannot read the header: {e}") from e


class ModelFile:
    """Constructors and raw access shared by :class:`~quakemodels.Md2` and ``Md3``.

    Subclasses check the header in ``__init__`` (:func:`check_header`), set ``_data`` and
    ``_h`` (the header's values by field name) and define ``_parse_spec``; the generated
    parser's object, ``_spec``, is made on first use.
    """

    HEADER_FIELDS: tuple[str, ...] = ()
    ARRAYS: tuple[str, ...] = ()
    """Lazily decoded parts that a full load (and the fuzzers) touch."""
    _data: bytes
    _h: Any

    def _parse_spec(self) -> Any:
        raise NotImplementedError  # pragma: no cover - every format defines its own

    @property
    def _spec(self) -> Any:
        """The generated parser's root object, parsed on first use (opening a model reads
        its header through the generated layout instead: one record read, not a parse)."""
        spec = self.__dict__.get("_spec_object")
        if spec is None:
            spec = self.__dict__["_spec_object"] = self._parse_spec()
        return spec

    def __init__(self, data: bytes, *, name: str | None = None) -> None:
        raise NotImplementedError  # pragma: no cover - every format defines its own

    @classmethod
    def from_bytes(
        cls: type[_M], data: bytes | bytearray | memoryview, *, name: str | None = None
    ) -> _M:
        """Open a model held in memory."""
        return cls(bytes(data), name=name)

    @classmethod
    def from_io(cls: type[_M], fileobj: IO[bytes], *, name: str | None = None) -> _M:
        """Open a model from a binary file object (read to its end)."""
        return cls(fileobj.read(), name=name or getattr(fileobj, "name", None))

    @classmethod
    def from_file(cls: type[_M], path: str | os.PathLike[str]) -> _M:
        """Open a model file (a regular file: BadValueError for a FIFO or a device)."""
        return cls(read_regular(path), name=os.fspath(path))

    @property
    def data(self) -> bytes:
        """The model's bytes."""
        return self._data

    @property
    def header(self) -> dict[str, Any]:
        """The header's fields by their spec names, in file order."""
        return {name: getattr(self._spec, name) for name in self.HEADER_FIELDS}


class SingleSurface(PerFrame, ModelFile):
    """A format whose model is one surface with (F,V,3) ``positions`` and an ``animations``
    clip table (MD2, MDL): per-frame decoding and frame lerp (:class:`PerFrame`, which decode
    only the frames asked for), clip sampling over those, the one mesh as a list, bounds and a full
    load of ``ARRAYS``."""

    positions: Any
    animations: Any
    mesh: Any  # (frame) -> Mesh: the format's one render-ready mesh of a frame

    def meshes(self, frame: int = 0) -> list[Mesh]:
        """The one render-ready :class:`Mesh` of ``frame``, as a list (every format's shape)."""
        return [self.mesh(frame)]

    @property
    def bounds(self) -> tuple[FloatArray, FloatArray]:
        """(mins, maxs), each (3,) float32, over every vertex of every frame."""
        return bounds_of(self.positions)

    def sample(self, clip: str, seconds: float, fps: float = 10.0, loop: bool = True) -> FloatArray:
        """(V,3) float32 positions of ``clip`` at ``seconds``, interpolated between frames.

        Looping clips wrap from the last frame back to the first; otherwise the clip holds its
        last frame.
        """
        a, b, t = sample_position(clip_frames(self.animations, clip), seconds, fps, loop)
        return self.lerp(a, b, t)

    def load_all(self: _S) -> _S:
        """Decode and validate every array now (a full load); returns self."""
        for name in self.ARRAYS:
            getattr(self, name)
        return self
