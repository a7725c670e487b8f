"""quakemodels.core.records: ``Frozen`` records behave as ``@dataclass(frozen=True)`` does.

Each record class here has a dataclass twin made from the same annotations and defaults;
the two must agree on construction (by position, by name, defaults, made defaults), repr,
equality, hash, refused assignment, ``replace`` and every error a wrong call gets. Every
``Frozen`` class of the package is held to its twin's fields and defaults.
"""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
from typing import Any, ClassVar

import numpy as np
import pytest

import quakemodels
from quakemodels.core.records import Frozen, FrozenRecordError, field, replace


class Point(Frozen):
    x: int
    y: int = 0
    label: str = "p"
    tags: list[str] = field(default_factory=list)
    scale: ClassVar[float] = 2.0  # not a field


@dataclasses.dataclass(frozen=True)
class PointTwin:
    x: int
    y: int = 0
    label: str = "p"
    tags: list[str] = dataclasses.field(default_factory=list)
    scale: ClassVar[float] = 2.0


class Tagged(Point):
    weight: float = 1.0


class Checked(Frozen):
    values: list[int]
    seen: ClassVar[list[str]] = []

    def __post_init__(self) -> None:
        Checked.seen.append("post")
        object.__setattr__(self, "values", tuple(self.values))


class Own(Frozen):
    a: int

    def __repr__(self) -> str:
        return "own"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Own) and other.a % 10 == self.a % 10


CALLS: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
    ((1,), {}),
    ((1, 2), {}),
    ((1, 2, "q"), {}),
    ((1, 2, "q", ["a"]), {}),
    ((), {"x": 3}),
    ((), {"x": 3, "tags": ["b"], "label": "r"}),
    ((4,), {"label": "s"}),
]


def _shown(obj: object) -> str:
    return repr(obj).replace(type(obj).__qualname__, "C", 1)


@pytest.mark.parametrize(("args", "kwargs"), CALLS)
def test_construction_repr_eq_and_hash_agree_with_a_dataclass(
    args: tuple[Any, ...], kwargs: dict[str, Any]
) -> None:
    ours, twin = Point(*args, **kwargs), PointTwin(*args, **kwargs)
    assert _shown(ours) == _shown(twin)
    assert (ours.x, ours.y, ours.label, ours.tags) == (twin.x, twin.y, twin.label, twin.tags)
    assert ours == Point(*args, **kwargs) and twin == PointTwin(*args, **kwargs)
    assert (ours != Point(9)) == (twin != PointTwin(9))
    assert (ours == twin) is False  # another class is never equal, as for dataclasses
    with pytest.raises(TypeError, match="unhashable"):
        hash(ours)  # a list field, as the twin
    with pytest.raises(TypeError, match="unhashable"):
        hash(twin)


def test_made_defaults_are_not_shared_and_not_class_attributes() -> None:
    a, b = Point(1), Point(1)
    assert a.tags == [] and a.tags is not b.tags
    assert "tags" not in Point.__dict__ and "tags" not in PointTwin.__dict__
    assert Point.label == PointTwin.label == "p"  # a plain default stays on the class


def test_hash_of_hashable_fields_matches_the_dataclass_rule() -> None:
    ours = {Point(1, 2, "a", ()), Point(1, 2, "a", ())}  # type: ignore[arg-type]
    assert len(ours) == 1
    assert hash(Point(1, 2, "a", ())) == hash((1, 2, "a", ()))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [((), {}), ((1, 2, "q", [], 5), {}), ((1,), {"x": 2}), ((1,), {"nope": 2})],
)
def test_wrong_calls_are_type_errors_as_for_a_dataclass(
    args: tuple[Any, ...], kwargs: dict[str, Any]
) -> None:
    with pytest.raises(TypeError):
        PointTwin(*args, **kwargs)
    with pytest.raises(TypeError, match="Point"):
        Point(*args, **kwargs)


def test_assignment_and_deletion_are_refused() -> None:
    p = Point(1)
    with pytest.raises(FrozenRecordError, match="'x'"):
        p.x = 2  # type: ignore[misc]
    with pytest.raises(AttributeError):  # what dataclasses' FrozenInstanceError is too
        del p.y  # type: ignore[misc]
    assert p.x == 1 and p.y == 0


def test_replace_agrees_with_dataclasses_replace() -> None:
    ours, twin = Point(1, 2, "a", ["t"]), PointTwin(1, 2, "a", ["t"])
    changed, twin_changed = replace(ours, y=5), dataclasses.replace(twin, y=5)
    assert _shown(changed) == _shown(twin_changed)
    assert changed.tags is ours.tags and twin_changed.tags is twin.tags  # the others shared
    with pytest.raises(TypeError, match="'z'"):
        replace(ours, z=1)
    assert replace(twin, label="b") == PointTwin(1, 2, "b", ["t"])  # dataclasses go through


def test_subclass_fields_follow_the_base_fields() -> None:
    t = Tagged(1, 2, "a", [], 0.5)
    assert Tagged.__record_fields__ == ("x", "y", "label", "tags", "weight")
    assert repr(t) == "Tagged(x=1, y=2, label='a', tags=[], weight=0.5)"
    assert Tagged(1).weight == 1.0 and Tagged(1) != Point(1)


def test_post_init_runs_on_construction_and_replace() -> None:
    Checked.seen.clear()
    c = Checked([1, 2])
    assert c.values == (1, 2)
    assert replace(c, values=[3]).values == (3,)
    assert Checked.seen == ["post", "post"]


@dataclasses.dataclass(frozen=True)
class OwnTwin:
    a: int

    def __repr__(self) -> str:
        return "own"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, OwnTwin) and other.a % 10 == self.a % 10


def test_a_class_keeps_the_methods_it_defines() -> None:
    assert repr(Own(1)) == repr(OwnTwin(1)) == "own"
    assert Own(1) == Own(11) and Own(1) != Own(2)
    assert OwnTwin(1) == OwnTwin(11) and OwnTwin(1) != OwnTwin(2)
    # a custom __eq__ still gets the fields' hash, as the frozen dataclass's does
    assert hash(Own(1)) == hash(OwnTwin(1)) == hash((1,))


def test_match_args_and_copy_replace() -> None:
    match Point(1, 2):
        case Point(x, y):
            assert (x, y) == (1, 2)
    assert Point.__match_args__ == PointTwin.__match_args__  # type: ignore[misc]
    assert Point(1).__replace__(y=3) == Point(1, 3)  # what copy.replace calls (Python 3.13)


def test_fields_of_every_frozen_base_come_first() -> None:
    class A(Frozen):
        a: int = 0

    class B(Frozen):
        b: int = 1

    class C(A, B):
        c: int = 2

    @dataclasses.dataclass(frozen=True)
    class At:
        a: int = 0

    @dataclasses.dataclass(frozen=True)
    class Bt:
        b: int = 1

    @dataclasses.dataclass(frozen=True)
    class Ct(At, Bt):
        c: int = 2

    assert C.__record_fields__ == tuple(f.name for f in dataclasses.fields(Ct)) == ("b", "a", "c")
    assert repr(C()).removeprefix(C.__qualname__) == repr(Ct()).removeprefix(Ct.__qualname__)


def test_refused_as_dataclasses_refuse() -> None:
    with pytest.raises(ValueError, match="mutable default <class 'list'> for field x"):

        class Shared(Frozen):
            x: list[int] = []  # noqa: RUF012  # what the test is about

    with pytest.raises(TypeError, match="class options"):

        class Options(Frozen, eq=False):  # type: ignore[call-arg]
            x: int

    import typing as t

    class Aliased(Frozen):
        x: int = 0
        count: t.ClassVar[int] = 3  # a ClassVar through a module alias: not a field

    assert Aliased.__record_fields__ == ("x",) and Aliased.count == 3


def test_a_field_without_default_after_one_with_is_refused() -> None:
    with pytest.raises(TypeError, match="'b' follows default"):

        class Bad(Frozen):
            a: int = 0
            b: int


def _package_records() -> list[type[Frozen]]:
    found: dict[str, type[Frozen]] = {}
    for info in pkgutil.walk_packages(quakemodels.__path__, "quakemodels."):
        if ".kaitai." in info.name or info.name.endswith(("__main__", "_weld", "_scan")):
            continue
        try:
            module = importlib.import_module(info.name)
        except ImportError:  # an optional compiled module or extra that is not installed
            continue
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, Frozen) and value is not Frozen:
                found[f"{value.__module__}.{value.__qualname__}"] = value
    return [found[k] for k in sorted(found)]


RECORDS = _package_records()


def test_the_package_has_records() -> None:
    names = {r.__name__ for r in RECORDS}
    assert {"ExportModel", "Surface", "Tag", "Material", "Mesh", "Span", "Limits"} <= names


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: r.__qualname__)
def test_package_records_take_what_their_dataclass_twin_takes(record: type[Frozen]) -> None:
    """A dataclass made from the same annotations and defaults has the same fields in the same
    order (ClassVars left out, a base's first, no default before a required one), and its
    ``__init__`` the same defaults."""
    notes: dict[str, Any] = {}
    for klass in reversed(record.__mro__):
        if issubclass(klass, Frozen) and klass is not Frozen:
            notes.update(vars(klass).get("__annotations__", {}))
    body: dict[str, Any] = {"__annotations__": notes}
    for name, value in record.__record_defaults__.items():
        made = getattr(value, "make", None)
        body[name] = value if made is None else dataclasses.field(default_factory=made)
    twin = dataclasses.dataclass(frozen=True)(type("Twin", (), body))
    assert record.__record_fields__ == tuple(f.name for f in dataclasses.fields(twin))
    for f in dataclasses.fields(twin):
        if f.default is not dataclasses.MISSING:
            assert getattr(record, f.name) is f.default, f.name  # a plain default on the class


def test_export_model_select_keeps_arrays_and_names() -> None:
    """The scene's own use of replace: select and scaled build records through __init__."""
    from quakemodels.core.scene import ExportModel, Surface, Tag

    pos = np.arange(2 * 3 * 3, dtype=np.float32).reshape(2, 3, 3)
    surface = Surface(
        "s", pos, pos.copy(), np.zeros((3, 2), np.float32), np.zeros((1, 3), np.uint32)
    )
    tag = Tag("t", np.ones((2, 3), np.float32), np.zeros((2, 3, 3), np.float32))
    em = ExportModel("m", [surface], {"all": range(2)}, [tag], frame_names=["a", "b"])
    one = em.select([1])
    assert one.frame_names == ["b"] and one.clips == {}
    assert np.array_equal(one.surfaces[0].positions, pos[[1]])
    assert np.array_equal(em.scaled(2.0).tags[0].origins, tag.origins * 2)
    assert em.scaled(1.0) is em


def test_pickle_and_copy_give_equal_records() -> None:
    """A batch's workers send records through pickle; copy and deepcopy work as for a
    dataclass (the state goes into the instance without the refused __setattr__)."""
    import copy
    import pickle

    from quakemodels.core.scene import AlphaTest, Material
    from quakemodels.formats.md2.limits import VANILLA

    for record in (VANILLA, Material("both", AlphaTest("gt", 0.5, "GT0")), Point(1, 2, "a", ())):  # type: ignore[arg-type]
        for again in (pickle.loads(pickle.dumps(record)), copy.copy(record), copy.deepcopy(record)):
            assert again == record and type(again) is type(record)
            assert hash(again) == hash(record)
