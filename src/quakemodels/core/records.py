"""Plain records for the modules every command imports, and ``overload`` without typing.

:class:`Frozen` is a frozen dataclass without compiled methods, for the classes a command's
start-up loads (a one-file export's scene, each format's ``Limits``), and :func:`replace` the
package's one ``replace``, for records and dataclasses alike.

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
    from collections.abc import Callable, Iterator
    from typing import Any, ClassVar, TypeVar, dataclass_transform
    from typing import overload as overload

    _T = TypeVar("_T")
    _R = TypeVar("_R")
else:

    def dataclass_transform(**kwargs: object) -> object:
        """typing.dataclass_transform for type checkers; nothing at run time."""
        return lambda cls: cls

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


class FrozenRecordError(AttributeError):
    """A field of a :class:`Frozen` record was assigned or deleted (as dataclasses'
    ``FrozenInstanceError``, an AttributeError)."""


class _Factory:
    """A field's default made anew for each record (:func:`field`)."""

    __slots__ = ("make",)

    def __init__(self, make: Callable[[], object]) -> None:
        self.make = make


def field(*, default_factory: Callable[[], _T]) -> _T:
    """A :class:`Frozen` field whose default is ``default_factory()``, called for each record
    (a list or dict that no two records share), as ``dataclasses.field``."""
    return _Factory(default_factory)  # type: ignore[return-value]  # the class reads it


_NO_DEFAULT = object()


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
class Frozen:
    """A frozen dataclass without generated code: a subclass's annotated class attributes are
    its fields, in order, with their defaults (:func:`field` for a made one).

    What ``@dataclass(frozen=True)`` gives, from methods shared by every record instead of
    source compiled per class (``exec`` of six functions: about 0.7 ms a class, a tenth of a
    one-file export's own time): ``__init__`` taking the fields by position or name (then
    ``__post_init__`` when the class has one), ``__repr__``, ``__eq__`` and ``__hash__`` over
    the fields (a class keeps any of these it defines itself; a custom ``__eq__`` still gets
    the fields' hash, as a dataclass's does), ``__match_args__``, and assignment refused
    (:class:`FrozenRecordError`). :func:`replace` (and ``copy.replace``) copies one with some
    fields changed. The fields of every ``Frozen`` base come first, in their order;
    ``ClassVar`` annotations are not fields; a default of an unhashable type (a list, a dict)
    is refused, as dataclasses refuse it: :func:`field` makes one for each record.

    A record is not a dataclass: ``dataclasses.replace``, ``fields`` and ``asdict`` refuse it
    (use :func:`replace` and ``__record_fields__``), and it takes no class options
    (``eq=False``, ``InitVar``, ``KW_ONLY``).
    """

    __record_fields__: ClassVar[tuple[str, ...]] = ()
    __record_defaults__: ClassVar[dict[str, object]] = {}

    def __init_subclass__(cls, **options: Any) -> None:
        if options:
            raise TypeError(f"{cls.__name__}: a Frozen record takes no class options {options}")
        super().__init_subclass__()
        names: list[str] = []
        defaults: dict[str, object] = {}
        for base in reversed(cls.__mro__[1:]):  # every Frozen base's fields, as dataclasses
            if issubclass(base, Frozen):
                for name in base.__record_fields__:
                    if name not in names:
                        names.append(name)
                    if name in base.__record_defaults__:
                        defaults[name] = base.__record_defaults__[name]
                    else:
                        defaults.pop(name, None)
        # the class's own annotations (inspect.get_annotations would load inspect, which the
        # light commands never import)
        for name, note in cls.__dict__.get("__annotations__", {}).items():  # noqa: RUF063
            head = str(note).split("[", 1)[0].strip()
            if head == "ClassVar" or head.endswith(".ClassVar"):
                continue
            value = cls.__dict__.get(name, _NO_DEFAULT)
            if isinstance(value, _Factory):
                delattr(cls, name)  # as a dataclass: no class attribute for a made default
            elif value is not _NO_DEFAULT and type(value).__hash__ is None:
                raise ValueError(
                    f"mutable default {type(value)} for field {name} is not allowed: use"
                    " field(default_factory=...)"
                )
            if value is not _NO_DEFAULT:
                defaults[name] = value
            else:
                defaults.pop(name, None)
            if name not in names:
                names.append(name)
        after_default = False
        for name in names:
            if name in defaults:
                after_default = True
            elif after_default:
                raise TypeError(f"non-default argument {name!r} follows default argument")
        cls.__record_fields__ = tuple(names)
        cls.__record_defaults__ = defaults
        setattr(cls, "__match_args__", cls.__record_fields__)  # noqa: B010  # not a Frozen attribute for type checkers
        own = cls.__dict__
        if "__eq__" in own and own.get("__hash__", Frozen.__hash__) is None:
            # Python unset __hash__ for the class's own __eq__; a frozen dataclass still hashes
            # its fields unless the class says otherwise
            cls.__hash__ = Frozen.__hash__  # type: ignore[method-assign]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        names = self.__record_fields__
        if len(args) > len(names):
            raise TypeError(
                f"{type(self).__name__}() takes {len(names)} positional arguments but"
                f" {len(args)} were given"
            )
        values = dict(zip(names, args, strict=False))  # fewer args: the rest by name or default
        for name, value in kwargs.items():
            if name in values:
                raise TypeError(f"{type(self).__name__}() got multiple values for {name!r}")
            if name not in names:
                raise TypeError(f"{type(self).__name__}() got an unexpected keyword {name!r}")
            values[name] = value
        state = self.__dict__
        defaults = self.__record_defaults__
        for name in names:
            if name in values:
                state[name] = values[name]
            elif name in defaults:
                default = defaults[name]
                state[name] = default.make() if isinstance(default, _Factory) else default
            else:
                raise TypeError(f"{type(self).__name__}() missing argument {name!r}")
        post = getattr(self, "__post_init__", None)
        if post is not None:
            post()

    def _fields(self) -> tuple[object, ...]:
        state = self.__dict__
        return tuple(state[name] for name in self.__record_fields__)

    def __repr__(self) -> str:
        state = self.__dict__
        inner = ", ".join(f"{name}={state[name]!r}" for name in self.__record_fields__)
        return f"{type(self).__qualname__}({inner})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Frozen)
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenRecordError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenRecordError(f"cannot delete field {name!r}")

    def __replace__(self, /, **changes: Any) -> Frozen:
        """``copy.replace`` (Python 3.13): :func:`replace`."""
        return replace(self, **changes)


def replace(record: _R, /, **changes: Any) -> _R:
    """A copy of ``record`` (a :class:`Frozen` record or a dataclass) with the fields named in
    ``changes`` set to their values and the others shared, made through its ``__init__`` (so
    ``__post_init__`` runs): ``dataclasses.replace`` for both kinds, the package's one."""
    if not isinstance(record, Frozen):
        import dataclasses

        return dataclasses.replace(record, **changes)  # type: ignore[type-var]
    names = record.__record_fields__
    unknown = [name for name in changes if name not in names]
    if unknown:
        raise TypeError(f"{type(record).__name__} has no field {unknown[0]!r}")
    state = record.__dict__
    return type(record)(**{name: changes.get(name, state[name]) for name in names})
