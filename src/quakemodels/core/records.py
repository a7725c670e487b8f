"""Plain records for the modules every command imports, and ``overload`` without typing.

The archive layer and the formats' declarations are read by ``ls``, ``extract``,
``formats`` and ``--help``, which start in about the time Python itself takes: their classes
are written as slotted classes deriving from :class:`Record` (equality and repr from the
slots) instead of dataclasses, whose import brings ``inspect`` (with ``ast``, ``dis`` and
``tokenize``: as long again as the start-up itself), and they import nothing from typing at
run time (``TYPE_CHECKING = False``, which type checkers read as true; :func:`overload` here
is typing's for them and a pass-through at run time, which is all typing's does that matters
to a caller).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import overload as overload
else:

    def overload(function: object) -> object:
        """typing.overload for type checkers; at run time the function itself (the last
        definition, the implementation, is the one that stays)."""
        return function


class Record:
    """Equality and repr from ``__slots__`` (every slot of the class and its bases, in order):
    two records are equal when they are of one class and every slot is equal. Hashable when
    a subclass says so (``__hash__ = Record.value_hash``), as a frozen dataclass is."""

    __slots__ = ()

    def _slots(self) -> Iterator[str]:
        for klass in reversed(type(self).__mro__):
            yield from getattr(klass, "__slots__", ())

    def _values(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self._slots())

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, Record)
        return self._values() == other._values()

    __hash__ = None  # type: ignore[assignment]  # as a mutable dataclass: unhashable

    def value_hash(self) -> int:
        """A hash of every slot's value (for records that never change)."""
        return hash(self._values())

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._slots())
        return f"{type(self).__name__}({fields})"
