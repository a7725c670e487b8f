"""Fixed-size, NUL-terminated names (skins, frames, tags, surfaces, shaders) decoded to text.

Names are untrusted bytes: junk after the NUL is common (MSVC fill, stack bytes), non-ASCII
bytes are kept as backslash escapes with a :class:`QuakeModelsWarning` naming the offset.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable

from ..errors import BadValueError, QuakeModelsWarning

TYPE_CHECKING = False  # typing is not imported at run time (see core/records.py)
if TYPE_CHECKING:
    from typing import Any

    import numpy.typing as npt


def lenient_names(raws: list[bytes], what: str, offset_of: Callable[[int], int]) -> list[str]:
    """Text up to the first NUL (or the whole field) of each name; non-ASCII bytes are kept as
    escapes, with one warning that names the first such name and its offset."""
    texts = [raw.partition(b"\0")[0] for raw in raws]
    if b"".join(texts).isascii():
        return [t.decode("ascii") for t in texts]
    bad = [i for i, t in enumerate(texts) if not t.isascii()]
    warnings.warn(
        f"{what}[{bad[0]}] at offset {offset_of(bad[0])} has non-ASCII bytes {texts[bad[0]]!r}"
        f" ({len(bad)} such names); kept as escapes",
        QuakeModelsWarning,
        stacklevel=4,
    )
    return [t.decode("ascii", errors="backslashreplace") for t in texts]


def terminated_name(raw: bytes, what: str, field: str, offset: int) -> str:
    """Text up to the first NUL, which must be there (BadValueError else); non-ASCII bytes are
    kept as escapes with a warning."""
    end = raw.find(b"\0")
    if end < 0:
        raise BadValueError(
            f"{what}={raw!r} at offset {offset} has no NUL terminator within its {len(raw)} bytes",
            field=field,
            offset=offset,
        )
    text = raw[:end]
    try:
        return text.decode("ascii")
    except UnicodeDecodeError:
        warnings.warn(
            f"{what} at offset {offset} has non-ASCII bytes {text!r}; kept as escapes",
            QuakeModelsWarning,
            stacklevel=3,
        )
        return text.decode("ascii", errors="backslashreplace")


def terminated_names(
    fields: npt.NDArray[Any], what: str, offset: int, stride: int, *, raws: bool = True
) -> tuple[list[str], list[bytes]]:
    """Names and raw bytes of ``fields`` ((n,) fixed-size bytes or (n, size) uint8), item i at
    ``offset + stride * i``; each must hold a NUL (see :func:`terminated_name`). With
    ``raws=False`` the raw list is empty (callers that only want the text skip building it).

    Vectorized: the names come out as one list of bytes objects (numpy's ``S`` items: the
    field minus trailing NULs, so equal fields give equal keys), and the NUL check and the
    decoding run once per distinct name (tag names repeat in every frame): a key shorter than
    the field lost trailing NULs, a full-length one must hold a NUL inside.
    """
    if fields.dtype.kind in "SV":
        size = fields.dtype.itemsize
        n = len(fields)
    else:
        n, size = fields.shape
    if n == 0:
        return [], []
    if size == 0:  # no room for a NUL: the first item lacks it
        terminated_name(b"", f"{what}[0].name", "name", offset)
    if n <= 4:  # a few names (a surface's shaders): one by one costs less than the setup below
        raw_items = [fields[i : i + 1].tobytes() for i in range(n)]
        for i, raw in enumerate(raw_items):  # every NUL checked before any name is decoded
            if b"\0" not in raw:
                terminated_name(raw, f"{what}[{i}].name", "name", offset + stride * i)
        decoded = []
        for i, raw in enumerate(raw_items):
            decoded.append(terminated_name(raw, f"{what}[{i}].name", "name", offset + stride * i))
        return decoded, raw_items if raws else []
    import numpy as np  # here: a listing's counts and words (plural) must not load numpy

    block = np.ascontiguousarray(fields)
    rows = block.view(np.uint8).reshape(n, size)
    if bool((rows == rows[0]).all()):  # one name in every item (MD3 frames: the tool's name)
        raw = rows[0].tobytes()
        name = terminated_name(raw, f"{what}[0].name", "name", offset)
        return [name] * n, [raw] * n if raws else []
    keys: list[bytes] = block.view(f"S{size}").reshape(n).tolist()
    unterminated = [key for key in dict.fromkeys(keys) if len(key) == size and b"\0" not in key]
    if unterminated:
        i = min(map(keys.index, unterminated))  # the first item without a NUL
        terminated_name(keys[i], f"{what}[{i}].name", "name", offset + stride * i)
    texts = dict.fromkeys(keys, "")
    for key in texts:
        text = key.partition(b"\0")[0]
        if text.isascii():
            texts[key] = text.decode("ascii")
        else:  # the warning names the first item that has it
            i = keys.index(key)
            texts[key] = terminated_name(
                key.ljust(size, b"\0"), f"{what}[{i}].name", "name", offset + stride * i
            )
    names = list(map(texts.__getitem__, keys))
    return names, [key.ljust(size, b"\0") for key in keys] if raws else []


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 frame``, ``2 frames``; ``many`` for an irregular plural (``vertex``, ``vertices``)."""
    return f"{n} {word if n == 1 else many or word + 's'}"
