"""Value objects without :mod:`dataclasses`: :class:`Record`, and :func:`replace`,
:func:`fields`, :func:`as_dict` and :func:`is_record` over them.

Why this exists: start-up. Every command that plays a game unpickles the compiled rule set,
which needs every clause class of the effect language (about 55 value classes). Made with
``@dataclass``, each class cost about 0.5 ms (each generated method is source text run
through ``exec``) and ``import dataclasses`` itself about 20 ms (it imports ``inspect``,
``ast``, ``dis``, ``tokenize``): together more than half of ``machikoro play``'s time above
a bare ``python -c pass``. A :class:`Record` subclass is made by plain Python in
:meth:`Record.__init_subclass__`, in a few microseconds, and its methods are shared
functions that read the class's field table.

What it is: what ``@dataclass(frozen=True)`` gave this package, no more. Fields come from the
class's annotations (and its record bases', in order); ``ClassVar[...]`` names are class
constants; a class attribute of a field's name is its default, or :func:`field` gives
per-field options. Instances are frozen (``__post_init__`` may still set a value with
``object.__setattr__``), compare equal by class and compared fields, hash those fields,
and print as ``Name(a=1, b='x')``. Two class keywords: ``eq=False`` keeps identity equality
and hashing (for objects used as weak keys), ``frozen=False`` allows assignment (for the
few mutable holders the loaders fill in; such a record with ``eq`` is unhashable, as a
mutable dataclass is). Pickling, :func:`copy.copy` and :func:`copy.deepcopy` work through
Python's default protocol (the instance's ``__dict__``).
"""

from __future__ import annotations

from operator import attrgetter

_MISSING = object()
_CLASS_VARIABLE = ("ClassVar", "typing.ClassVar")


class FrozenRecordError(AttributeError):
    """Assignment to, or deletion of, a field of a frozen :class:`Record`."""


class Field:
    """One field's options (made by :func:`field`): ``default`` or ``default_factory``
    (a callable of no arguments, called per instance), ``compare`` (takes part in ``==``
    and the hash), ``init`` (an argument of ``__init__``; a field with ``init=False`` gets
    its default, or is set by ``__post_init__``) and ``repr`` (shown by ``repr``)."""

    __slots__ = ("compare", "default", "default_factory", "init", "name", "repr")

    def __init__(self, default=_MISSING, default_factory=_MISSING, compare: bool = True,
                 init: bool = True, repr: bool = True) -> None:
        if default is not _MISSING and default_factory is not _MISSING:
            raise ValueError("a field takes a default or a default_factory, not both")
        self.name = ""
        self.default, self.default_factory = default, default_factory
        self.compare, self.init, self.repr = compare, init, repr

    def has_default(self) -> bool:
        """True when the field may be left out of ``__init__``'s arguments."""
        return self.default is not _MISSING or self.default_factory is not _MISSING

    def value(self):
        """The default value of a new instance (raises KeyError when there is none)."""
        if self.default_factory is not _MISSING:
            return self.default_factory()
        if self.default is _MISSING:
            raise KeyError(self.name)
        return self.default


def field(*, default=_MISSING, default_factory=_MISSING, compare: bool = True,
          init: bool = True, repr: bool = True) -> Field:
    """Per-field options for a :class:`Record` class attribute (see :class:`Field`).
    Raises ValueError when given both ``default`` and ``default_factory``."""
    return Field(default, default_factory, compare, init, repr)


def _is_class_variable(annotation) -> bool:
    """True for ``ClassVar[...]`` (the package's modules give string annotations)."""
    if isinstance(annotation, str):
        return annotation.partition("[")[0].strip() in _CLASS_VARIABLE
    from typing import ClassVar  # a hint that is no string was written with typing at hand

    return annotation is ClassVar or getattr(annotation, "__origin__", None) is ClassVar


def _key_of(names: tuple[str, ...]):
    """A function record -> tuple of the named attributes (a tuple even for one name)."""
    if len(names) == 1:
        one = attrgetter(names[0])
        return lambda record: (one(record),)
    if not names:
        return lambda record: ()
    return attrgetter(*names)


def _collect(cls) -> dict[str, Field]:
    """The fields of record class ``cls``: its record bases' (in order), then its own
    annotations; a field named again keeps its place and takes the new options."""
    found: dict[str, Field] = {}
    for base in reversed(cls.__mro__[1:]):
        found.update(base.__dict__.get("_record_fields", {}))
    for name, annotation in cls.__annotations__.items():  # the class's own (Python >= 3.10)
        if _is_class_variable(annotation):
            continue
        value = getattr(cls, name, _MISSING)
        if isinstance(value, Field):
            spec = value
            if value.default is _MISSING:
                delattr(cls, name)  # no class attribute to shadow a missing value
            else:
                setattr(cls, name, value.default)
        else:
            spec = Field(default=value)
        spec.name = name
        found[name] = spec
    return found


def _check_order(cls, specs: dict[str, Field]) -> None:
    """TypeError when an argument without a default follows one with a default."""
    seen_default = None
    for spec in specs.values():
        if not spec.init:
            continue
        if spec.has_default():
            seen_default = spec.name
        elif seen_default:
            raise TypeError(f"{cls.__qualname__}: field {spec.name!r} without a default "
                            f"follows field {seen_default!r} with one")


def _refuse(cls, unused: dict, given: dict, missing: list) -> None:
    """Raise the TypeError of a bad call of ``cls``'s ``__init__``: an unknown or repeated
    keyword argument first (``unused``: those not taken yet; ``given``: those taken), else
    the missing arguments."""
    for name in unused:
        if name in given:
            raise TypeError(f"{cls.__qualname__}() got multiple values for argument {name!r}")
        if not any(s.name == name for s in cls._record_init):
            raise TypeError(f"{cls.__qualname__}() got an unexpected keyword argument "
                            f"{name!r}")
    raise TypeError(f"{cls.__qualname__}() missing required argument(s): "
                    + ", ".join(repr(n) for n in missing))


class Record:
    """The base of value objects (see the module's docstring): subclass it and annotate the
    fields. Class keywords ``eq`` (default True) and ``frozen`` (default True).

    ``__init__`` takes the ``init`` fields in order, positionally or by name; it raises
    TypeError naming a missing, unknown or repeated argument, or saying how many positional
    arguments it takes; then calls ``__post_init__()`` when the class has one.
    """

    # each subclass's field table, set by __init_subclass__ (``_record_fields`` too)
    _record_init = ()
    _record_later = ()
    _record_names = ()
    _record_repr = ()
    _record_key = staticmethod(_key_of(()))
    _record_post_init = None

    def __init_subclass__(cls, *, eq: bool = True, frozen: bool = True, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        specs = _collect(cls)
        _check_order(cls, specs)
        cls._record_fields = specs
        cls._record_init = tuple(s for s in specs.values() if s.init)
        cls._record_later = tuple(s for s in specs.values() if not s.init)
        cls._record_names = tuple(specs)
        cls._record_post_init = getattr(cls, "__post_init__", None)
        cls._record_repr = tuple(s.name for s in specs.values() if s.repr)
        cls._record_key = staticmethod(_key_of(tuple(s.name for s in specs.values()
                                                     if s.compare)))
        own = cls.__dict__
        for name in ("__init__", "__repr__"):
            if name not in own:
                setattr(cls, name, getattr(Record, name))
        explicit_hash = "__hash__" in own and not (own["__hash__"] is None and "__eq__" in own)
        if "__eq__" not in own:
            cls.__eq__ = Record.__eq__ if eq else object.__eq__
        if not explicit_hash:
            cls.__hash__ = (Record.__hash__ if frozen else None) if eq else object.__hash__
        if "__setattr__" not in own:
            cls.__setattr__ = Record.__setattr__ if frozen else object.__setattr__
        if "__delattr__" not in own:
            cls.__delattr__ = Record.__delattr__ if frozen else object.__delattr__

    def __init__(self, *args, **kwargs) -> None:
        cls = type(self)
        specs = cls._record_init
        if len(args) > len(specs):
            raise TypeError(f"{cls.__qualname__}() takes {len(specs)} positional arguments "
                            f"but {len(args)} were given")
        values = self.__dict__
        for spec, value in zip(specs, args):
            values[spec.name] = value
        for spec in specs[len(args):]:
            name = spec.name
            if name in kwargs:
                values[name] = kwargs.pop(name)
            elif spec.has_default():
                values[name] = spec.value()
            else:
                _refuse(cls, kwargs, values, [s.name for s in specs[len(args):]
                                              if s.name not in kwargs and s.name not in values
                                              and not s.has_default()])
        if kwargs:
            _refuse(cls, kwargs, values, [])
        for spec in cls._record_later:
            if spec.has_default():
                values[spec.name] = spec.value()
        if cls._record_post_init is not None:
            cls._record_post_init(self)

    def __repr__(self) -> str:
        cls = type(self)
        inner = ", ".join(f"{name}={getattr(self, name)!r}" for name in cls._record_repr)
        return f"{cls.__qualname__}({inner})"

    def __eq__(self, other) -> bool:
        if other.__class__ is self.__class__:
            key = self.__class__._record_key
            return key(self) == key(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.__class__._record_key(self))

    def __setattr__(self, name: str, value) -> None:
        raise FrozenRecordError(f"cannot assign to field {name!r} of a frozen "
                                f"{type(self).__qualname__}")

    def __delattr__(self, name: str) -> None:
        raise FrozenRecordError(f"cannot delete field {name!r} of a frozen "
                                f"{type(self).__qualname__}")


def is_record(value) -> bool:
    """True for an instance of a :class:`Record` class (not for the class itself)."""
    return isinstance(value, Record)


def fields(record_or_class) -> tuple[str, ...]:
    """The field names of a record or record class, in order. Raises TypeError for
    anything else."""
    cls = record_or_class if isinstance(record_or_class, type) else type(record_or_class)
    if not issubclass(cls, Record) or cls is Record:
        raise TypeError(f"{cls.__qualname__} is not a record class")
    return cls._record_names


def replace(record: Record, **changes) -> Record:
    """A new record of the same class with ``changes`` (field name -> value) applied;
    ``__post_init__`` runs again. Raises TypeError for an unknown field and ValueError
    for a field that ``__init__`` does not take (``init=False``)."""
    cls = type(record)
    for name in changes:
        spec = cls.__dict__.get("_record_fields", {}).get(name) if is_record(record) else None
        if spec is None:
            raise TypeError(f"{cls.__qualname__} has no field {name!r}")
        if not spec.init:
            raise ValueError(f"field {name!r} of {cls.__qualname__} is set by the class "
                             f"(init=False) and cannot be replaced")
    values = {s.name: getattr(record, s.name) for s in cls._record_init}
    values.update(changes)
    return cls(**values)


def as_dict(record: Record) -> dict:
    """The record as a dict of its fields, recursively: records become dicts; lists,
    tuples (named tuples keep their class) and dicts are rebuilt with their items
    converted; anything else is deep-copied. Raises TypeError for a non-record."""
    if not is_record(record):
        raise TypeError(f"as_dict() needs a record, not {type(record).__qualname__}")
    return _converted(record)


def _converted(value):
    if is_record(value):
        return {name: _converted(getattr(value, name)) for name in type(value)._record_names}
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return type(value)(*[_converted(v) for v in value])
    if isinstance(value, (list, tuple)):
        return type(value)(_converted(v) for v in value)
    if isinstance(value, dict):
        items = {_converted(k): _converted(v) for k, v in value.items()}
        if type(value) is dict:
            return items
        make_default = getattr(value, "default_factory", _MISSING)  # a defaultdict keeps it
        return (type(value)(items) if make_default is _MISSING
                else type(value)(make_default, items))
    import copy  # only for as_dict (the lab's reports): not at start-up

    return copy.deepcopy(value)
