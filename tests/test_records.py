"""machikoro.records: the package's value objects, what frozen dataclasses gave it (docs/speed.md,
"Records, not dataclasses")."""

from __future__ import annotations

import copy
import pickle
import subprocess
import sys
import weakref
from collections import Counter, defaultdict, namedtuple
from typing import ClassVar

import pytest

from machikoro.records import (
    FrozenRecordError,
    Record,
    as_dict,
    field,
    fields,
    is_record,
    replace,
)


class Point(Record):
    x: int
    y: int = 0
    label: str = field(default="", compare=False)
    notes: list = field(default_factory=list, repr=False, compare=False)
    kind: ClassVar[str] = "point"


class Scaled(Point):
    """A subclass: its fields follow the base's; __post_init__ fixes a derived value."""

    factor: int = 1
    area: int = field(default=0, init=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "area", self.x * self.y * self.factor)


class Holder(Record, eq=False):
    name: str


class Tally(Record, frozen=False):
    counts: dict = field(default_factory=dict)


Pair = namedtuple("Pair", "a b")


def test_fields_come_from_annotations_in_order_bases_first_class_variables_left_out():
    assert fields(Point) == ("x", "y", "label", "notes")
    assert fields(Scaled(1)) == ("x", "y", "label", "notes", "factor", "area")
    assert Point.kind == "point" and "kind" not in Point(1).__dict__


def test_positional_and_keyword_arguments_and_defaults():
    p = Point(1, 2, label="a")
    assert (p.x, p.y, p.label, p.notes) == (1, 2, "a", [])
    assert Point(y=3, x=4) == Point(4, 3)
    assert Point(1).y == 0


def test_a_default_factory_makes_a_new_value_for_each_instance():
    a, b = Point(1), Point(1)
    a.notes.append("x")
    assert b.notes == [] and a.notes is not b.notes


@pytest.mark.parametrize(("call", "message"), [
    (lambda: Point(), "missing required argument(s): 'x'"),
    (lambda: Point(1, x=2), "got multiple values for argument 'x'"),
    (lambda: Point(1, z=2), "unexpected keyword argument 'z'"),
    (lambda: Point(z=2), "unexpected keyword argument 'z'"),
    (lambda: Point(1, 2, "", [], 5), "takes 4 positional arguments but 5 were given"),
    (lambda: Scaled(1, area=3), "unexpected keyword argument 'area'"),
])
def test_a_bad_call_names_the_argument(call, message):
    with pytest.raises(TypeError, match=message.replace("(", r"\(").replace(")", r"\)")):
        call()


def test_a_field_without_default_after_one_with_a_default_is_refused():
    with pytest.raises(TypeError, match="'b' without a default follows field 'a'"):
        class Bad(Record):
            a: int = 1
            b: int


def test_records_are_frozen_and_post_init_may_still_set_values():
    p = Scaled(2, 3, factor=2)
    assert p.area == 12
    with pytest.raises(FrozenRecordError):
        p.x = 5
    with pytest.raises(AttributeError):  # FrozenRecordError is one
        del p.y
    assert p.x == 2


def test_equality_and_hash_use_the_compared_fields_of_the_same_class():
    assert Point(1, 2, label="a") == Point(1, 2, label="b")
    assert hash(Point(1, 2, label="a")) == hash(Point(1, 2, label="b"))
    assert Point(1, 2) != Point(2, 1)
    assert Point(1) != Scaled(1) and Point(1) != (1, 0)
    assert len({Point(1), Point(1), Point(2)}) == 2


def test_repr_shows_the_class_and_the_fields_with_repr():
    assert repr(Point(1, 2, label="a")) == "Point(x=1, y=2, label='a')"
    assert repr(Scaled(1, 1)) == "Scaled(x=1, y=1, label='', factor=1, area=1)"


def test_methods_the_class_writes_are_kept():
    class Named(Record):
        name: str

        def __repr__(self) -> str:
            return f"<{self.name}>"

        def __eq__(self, other) -> bool:
            return isinstance(other, Named) and other.name.lower() == self.name.lower()

        def __hash__(self) -> int:
            return hash(self.name.lower())

    assert repr(Named("a")) == "<a>" and Named("a") == Named("A")
    assert hash(Named("a")) == hash(Named("A"))


def test_eq_false_keeps_identity_equality_and_hashing():
    a = Holder("x")
    assert a.__eq__(a) is True and a != Holder("x") and hash(a) == object.__hash__(a)
    table = weakref.WeakKeyDictionary({a: 1})
    assert table[a] == 1


def test_a_mutable_record_allows_assignment_and_is_not_hashable():
    t = Tally()
    t.counts = {"a": 1}
    assert t == Tally({"a": 1})
    with pytest.raises(TypeError):
        hash(t)


def test_replace_makes_a_new_record_and_runs_post_init_again():
    p = Scaled(2, 3)
    q = replace(p, factor=10)
    assert (q.x, q.y, q.factor, q.area) == (2, 3, 10, 60) and p.area == 6
    with pytest.raises(TypeError, match="no field 'z'"):
        replace(p, z=1)
    with pytest.raises(ValueError, match="init=False"):
        replace(p, area=1)


def test_as_dict_recurses_into_records_lists_tuples_and_dicts():
    inner = Point(1, 2, notes=[Point(3)])
    outer = Tally({"p": inner, "pairs": [Pair(Point(4), 5)], "t": (Point(6),),
                   "c": Counter(a=2), "d": defaultdict(list, k=[1])})
    got = as_dict(outer)
    point = {"x": 1, "y": 2, "label": "", "notes": [{"x": 3, "y": 0, "label": "", "notes": []}]}
    assert got["counts"]["p"] == point
    assert got["counts"]["pairs"] == [Pair({"x": 4, "y": 0, "label": "", "notes": []}, 5)]
    assert got["counts"]["t"] == ({"x": 6, "y": 0, "label": "", "notes": []},)
    assert got["counts"]["c"] == Counter(a=2) and type(got["counts"]["c"]) is Counter
    assert got["counts"]["d"]["new"] == []  # a defaultdict keeps its default
    assert got["counts"]["p"]["notes"] is not inner.notes
    with pytest.raises(TypeError):
        as_dict({"x": 1})


def test_is_record_and_fields_of_non_records():
    assert is_record(Point(1)) and not is_record(Point) and not is_record((1, 2))
    with pytest.raises(TypeError):
        fields(int)


def test_pickling_and_copies_keep_values_and_stay_frozen():
    p = Scaled(2, 3, label="a", notes=[1], factor=2)
    for other in (pickle.loads(pickle.dumps(p)), copy.copy(p), copy.deepcopy(p)):
        assert other == p and other is not p and type(other) is Scaled
        assert (other.label, other.notes, other.area) == ("a", [1], 12)
        with pytest.raises(FrozenRecordError):
            other.x = 1
    assert copy.deepcopy(p).notes is not p.notes and copy.copy(p).notes is p.notes
    h = Holder("x")
    assert pickle.loads(pickle.dumps(h)).name == "x"


def test_annotations_that_are_no_strings_work_too():
    """A module without ``from __future__ import annotations`` gives types, not text."""
    source = ("from typing import ClassVar\nfrom machikoro.records import Record, fields\n"
              "class A(Record):\n    a: int\n    b: ClassVar[int] = 2\n    c: str = 'x'\n"
              "print(fields(A), A(1))\n")
    out = subprocess.run([sys.executable, "-c", source], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "('a', 'c') A(a=1, c='x')"


def test_the_package_never_imports_dataclasses():
    """Start-up: ``import dataclasses`` alone costs about 20 ms (docs/speed.md)."""
    code = ("import sys, machikoro.rules.ruleset, machikoro.agents.registry, machikoro.cli;"
            "print('dataclasses' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "False"
