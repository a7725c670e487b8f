"""Errors and warnings raised by quakemodels.

Every problem with the bytes of a model is a :class:`ModelFormatError` (a ``ValueError``) whose
message names the field and the byte offset. Nothing else escapes from parsing: the facades
translate the generated parser's and numpy's exceptions at the boundary (``raise ... from e``).
"""

from __future__ import annotations


class ModelFormatError(ValueError):
    """The bytes are not a valid model: bad magic or version, truncation, out-of-range values.

    ``field`` is the spec's name of the offending field (or ``None``), ``offset`` its absolute
    byte offset in the file (or ``None`` when the problem is not at one place).
    """

    def __init__(self, message: str, *, field: str | None = None, offset: int | None = None):
        super().__init__(message)
        self.field = field
        self.offset = offset


class BadMagicError(ModelFormatError):
    """The file does not start with a known magic (IDP2 for MD2, IDP3 for MD3)."""


class BadVersionError(ModelFormatError):
    """The magic is right but the version is not the one the engine reads."""


class TruncatedError(ModelFormatError):
    """A header count or offset points past the end of the data."""


class BadValueError(ModelFormatError):
    """A value is out of the range the format allows (an index, a count, a size)."""


class TextFormatError(ModelFormatError):
    """A text model (MD5's ``.md5mesh``/``.md5anim``) is malformed at one place: ``offset``
    is the byte offset of the token at fault, ``line`` and ``column`` (1-based) where it is,
    and the message starts ``line L, column C:``; ``field`` names what was expected there."""

    def __init__(
        self,
        message: str,
        *,
        field: str | None = None,
        offset: int | None = None,
        line: int = 0,
        column: int = 0,
    ):
        super().__init__(message, field=field, offset=offset)
        self.line = line
        self.column = column


class QuakeModelsWarning(UserWarning):
    """Something in a model is unusual but readable (junk in names, non-ASCII bytes)."""


class ItemWarning(QuakeModelsWarning):
    """A warning one cause gives once per item (a surface without a texture): the command
    line prints one line per cause naming its items, ``group`` with ``{n}`` their count
    (``"no texture found for {n} surfaces"``), ``item`` this one (``"lower.md3 'l_legs'"``)."""

    def __init__(self, message: str, *, group: str, item: str) -> None:
        super().__init__(message)
        self.group = group
        self.item = item


class LimitExceededError(BadValueError):
    """The model is valid but larger than the target engine accepts (a writer's ``limits=``).

    ``liftable`` is True when the limit is an engine's that a writer's ``limits=`` (the CLI's
    ``--no-limits``) raises, False when it is the file format's own; ``reason`` is the
    message without the hint that says how to raise it (the CLI names its flag instead).
    """

    def __init__(
        self,
        message: str,
        *,
        field: str | None = None,
        offset: int | None = None,
        liftable: bool = False,
        reason: str | None = None,
    ):
        super().__init__(message, field=field, offset=offset)
        self.liftable = liftable
        self.reason = message if reason is None else reason


class DumpError(ModelFormatError):
    """A parse tree cannot be written in the chosen dump format (the reference tool fails there
    too)."""


class ArchiveError(ModelFormatError):
    """A .pak or .pk3 archive (or one of its entries) is broken, hostile or not readable.

    ``archive`` is the archive's path (or ``None`` for bytes), ``entry`` the entry's name inside
    it (or ``None`` when the problem is the archive as a whole); both are in the message too.
    """

    def __init__(
        self,
        message: str,
        *,
        archive: str | None = None,
        entry: str | None = None,
        field: str | None = None,
        offset: int | None = None,
    ):
        super().__init__(message, field=field, offset=offset)
        self.archive = archive
        self.entry = entry


class AnimationConfigError(ModelFormatError):
    """A Quake III ``animation.cfg`` the engine cannot read: a row cut short or a non-number in
    the table. ``field`` is the row's field (``first_frame``, ``num_frames``, ``loop_frames``,
    ``fps``), ``offset`` the byte offset of the offending token in the file."""


class PlayerFolderError(ModelFormatError):
    """A folder that is not a Quake III player. ``reason`` says which way, for code to steer
    by (never the message's text): ``"no-folder"`` when nothing is a folder at the path,
    ``"missing-part"`` when a part (``lower.md3``...) is missing."""

    def __init__(
        self,
        message: str,
        *,
        reason: str = "missing-part",
        field: str | None = None,
        offset: int | None = None,
    ):
        super().__init__(message, field=field, offset=offset)
        self.reason = reason


class UnsupportedError(Exception):
    """A format cannot serve what was asked of it (``md5 (Doom 3 MD5) cannot be written by
    convert``): not a fault of the bytes, so not a :class:`ModelFormatError`; the CLI prints
    the message as one line and exits 2."""
