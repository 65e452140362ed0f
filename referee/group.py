"""A group: a table of friends who play together evening after evening, as a state machine.

A group is its name, its first people (:class:`GroupSetup`) and a log of records, kept by
:class:`Group` with the contract of :mod:`referee.errors`:

- :class:`PersonAdded` (``"add"``): a person joins the group (their name typed once);
- :class:`PersonRenamed` (``"rename"``): a person's name changes; the games played under
  the old name stay theirs (:meth:`Group.person_of` knows every name a person had);
- :class:`PersonRemoved` (``"remove"``): a person is no longer offered when a game starts
  (their games and stats stay);
- :class:`GameMoved` (``"move"``): a game of the group counts for another evening than the
  day it was started (``game`` is whatever key the caller gives games; ``day`` an ISO date).

The games themselves are not in the group's log: each is a sheet or table of its own.

>>> group = Group(GroupSetup("Fridays", ("An", "Binh", "Chi")))
>>> group.add_person("Dung")
PersonAdded(name='Dung')
>>> [p.name for p in group.people]
['An', 'Binh', 'Chi', 'Dung']
>>> group.check_add_person("binh")
Traceback (most recent call last):
...
referee.group.NameTakenError: the group already has someone called 'binh'
>>> _ = group.rename_person(1, "Bình")
>>> group.person_of("binh"), group.person_of("Bình"), group.person_of("Eve")
(1, 1, None)
>>> _ = group.move_game("g7", "2026-11-27")
>>> group.evening_of("g7", "2026-11-28"), group.evening_of("g8", "2026-11-28")
('2026-11-27', '2026-11-28')
>>> [p.name for p in group.undo().undo().people]
['An', 'Binh', 'Chi', 'Dung']
>>> replay(group.setup, [r.to_dict() for r in group.log]).person_of("Bình")
1
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any, ClassVar, TypeVar

from referee.errors import RefereeError, RefusedAction
from referee.records import Records
from referee.states import StateMachine, can
from referee.text import message

__all__ = [
    "NAME_MAX", "GroupSetup", "Person", "PersonAdded", "PersonRenamed", "PersonRemoved", "GameMoved",
    "RECORDS", "Group", "replay", "GroupError", "NameError_", "NameTakenError", "NoSuchPersonError",
    "DayError", "clean_name",
]

NAME_MAX = 40
"""The longest name (as a game's players' names)."""
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


class GroupError(RefusedAction):
    """A change the group refuses (its sentence names why)."""


class NameError_(GroupError):  # noqa: N801  # "NameError" is Python's own
    """A name nobody can be called: empty, too long, or holding a control character."""


class NameTakenError(GroupError):
    """A name someone in the group has, or had before a rename."""

    def __init__(self, name: str) -> None:
        self.name = name
        super().__init__(message("the group already has someone called {name}", name=repr(name)))


class NoSuchPersonError(GroupError):
    """A person number the group does not have (or one already removed)."""

    def __init__(self, person: object) -> None:
        self.person = person
        super().__init__(message("the group has no person number {person}", person=person))


class DayError(RefereeError):
    """A day that is not a date written ``YYYY-MM-DD``."""

    def __init__(self, day: object) -> None:
        self.day = day
        super().__init__(message("{day} is not a day written as year-month-day (2026-11-27)", day=repr(day)))


def clean_name(name: str) -> str:
    """A person's name with its spaces tidied; refused when it cannot be a name.

    >>> clean_name("  Thu   Hà ")
    'Thu Hà'
    >>> clean_name("   ")
    Traceback (most recent call last):
    ...
    referee.group.NameError_: a name cannot be empty
    """
    if _CONTROL.search(name):
        raise NameError_(message("the name {name} holds a control character (such as NUL) that nobody can type",
                                 name=repr(_CONTROL.sub("", name)[:NAME_MAX])))
    cleaned = " ".join(name.split())
    if not cleaned:
        raise NameError_(message("a name cannot be empty"))
    if len(cleaned) > NAME_MAX:
        raise NameError_(message("the name {name}… is longer than {most} characters",
                                 name=repr(cleaned[:NAME_MAX]), most=NAME_MAX))
    return cleaned


def _day(day: object) -> str:
    if not isinstance(day, str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", day):
        raise DayError(day)
    try:
        return date.fromisoformat(day).isoformat()
    except ValueError:
        raise DayError(day) from None


@dataclass(frozen=True, slots=True)
class GroupSetup:
    """The group's name and the people it starts with, in order."""

    name: str
    people: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "name", clean_name(self.name))
        object.__setattr__(self, "people", tuple(clean_name(p) for p in self.people))
        folded = [p.casefold() for p in self.people]
        for person in self.people:
            if folded.count(person.casefold()) > 1:
                raise NameTakenError(person)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "people": list(self.people)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GroupSetup:
        return cls(str(data.get("name", "")), tuple(str(p) for p in data.get("people", ())))


@dataclass(frozen=True, slots=True)
class Person:
    """One person of the group: their number (the order they joined), name, and former names."""

    number: int
    name: str
    former: tuple[str, ...] = ()
    removed: bool = False

    @property
    def names(self) -> tuple[str, ...]:
        """Every name this person has had, the current one first."""
        return (self.name, *self.former)


@dataclass(frozen=True, slots=True)
class PersonAdded:
    action: ClassVar[str] = "add"
    name: str

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.action, "name": self.name}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PersonAdded:
        return cls(str(data["name"]))


@dataclass(frozen=True, slots=True)
class PersonRenamed:
    action: ClassVar[str] = "rename"
    person: int
    name: str

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.action, "person": self.person, "name": self.name}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PersonRenamed:
        return cls(int(data["person"]), str(data["name"]))


@dataclass(frozen=True, slots=True)
class PersonRemoved:
    action: ClassVar[str] = "remove"
    person: int

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.action, "person": self.person}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PersonRemoved:
        return cls(int(data["person"]))


@dataclass(frozen=True, slots=True)
class GameMoved:
    action: ClassVar[str] = "move"
    game: str
    day: str

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.action, "game": self.game, "day": self.day}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameMoved:
        return cls(str(data["game"]), str(data["day"]))


Record = PersonAdded | PersonRenamed | PersonRemoved | GameMoved
R = TypeVar("R", PersonAdded, PersonRenamed, PersonRemoved, GameMoved)
RECORDS: Records[Record] = Records("group", PersonAdded, PersonRenamed, PersonRemoved, GameMoved)


@dataclass
class Group(StateMachine[GroupSetup, Record]):
    """The group as it stands after its log (see the module docstring): a state machine of the
    one contract (:class:`~referee.states.StateMachine` gives ``replay`` and ``undo``, each
    ``can_x`` is :func:`~referee.states.can` of its ``check_x``)."""

    setup: GroupSetup
    log: list[Record] = field(default_factory=list)
    _people: list[Person] = field(default_factory=list, repr=False)
    _moved: dict[str, str] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if not self._people:
            self._people = [Person(i, name) for i, name in enumerate(self.setup.people)]

    @property
    def name(self) -> str:
        return self.setup.name

    @property
    def people(self) -> tuple[Person, ...]:
        """The people still in the group, in the order they joined."""
        return tuple(p for p in self._people if not p.removed)

    @property
    def everyone(self) -> tuple[Person, ...]:
        """Everyone who was ever in the group, removed people too."""
        return tuple(self._people)

    def person_of(self, name: str) -> int | None:
        """The number of the person who has or had ``name`` (any case), or ``None``."""
        folded = " ".join(name.split()).casefold()
        for person in self._people:
            if any(n.casefold() == folded for n in person.names):
                return person.number
        return None

    def evening_of(self, game: str, day: str) -> str:
        """The evening (a day) a game counts for: where the keeper moved it, else its own ``day``."""
        return self._moved.get(game, day)

    # -- checks and actions ----------------------------------------------------------
    def _free(self, name: str, person: int | None = None) -> str:
        cleaned = clean_name(name)
        owner = self.person_of(cleaned)
        if owner is not None and owner != person:
            raise NameTakenError(cleaned)
        return cleaned

    def _person(self, person: object) -> Person:
        if not isinstance(person, int) or not 0 <= person < len(self._people) or self._people[person].removed:
            raise NoSuchPersonError(person)
        return self._people[person]

    def check_add_person(self, name: str) -> PersonAdded:
        return PersonAdded(self._free(name))

    can_add_person = can(check_add_person)

    def add_person(self, name: str) -> PersonAdded:
        return self._do(self.check_add_person(name))

    def check_rename_person(self, person: int, name: str) -> PersonRenamed:
        self._person(person)
        return PersonRenamed(person, self._free(name, person))

    can_rename_person = can(check_rename_person)

    def rename_person(self, person: int, name: str) -> PersonRenamed:
        return self._do(self.check_rename_person(person, name))

    def check_remove_person(self, person: int) -> PersonRemoved:
        self._person(person)
        return PersonRemoved(person)

    can_remove_person = can(check_remove_person)

    def remove_person(self, person: int) -> PersonRemoved:
        return self._do(self.check_remove_person(person))

    def check_move_game(self, game: str, day: str) -> GameMoved:
        return GameMoved(str(game), _day(day))

    can_move_game = can(check_move_game)

    def move_game(self, game: str, day: str) -> GameMoved:
        return self._do(self.check_move_game(game, day))

    def apply(self, action: Record | Mapping[str, Any]) -> Record:
        """Do again what a record (or its ``to_dict()``) says, checked as when it was made."""
        record = RECORDS.from_dict(action) if isinstance(action, Mapping) else action
        if isinstance(record, PersonAdded):
            return self.add_person(record.name)
        if isinstance(record, PersonRenamed):
            return self.rename_person(record.person, record.name)
        if isinstance(record, PersonRemoved):
            return self.remove_person(record.person)
        return self.move_game(record.game, record.day)

    def _do(self, record: R) -> R:
        if isinstance(record, PersonAdded):
            self._people.append(Person(len(self._people), record.name))
        elif isinstance(record, PersonRenamed):
            old: Person = self._people[record.person]
            former = tuple(n for n in (old.name, *old.former) if n.casefold() != record.name.casefold())
            self._people[record.person] = Person(old.number, record.name, former)
        elif isinstance(record, PersonRemoved):
            gone: Person = self._people[record.person]
            self._people[record.person] = Person(gone.number, gone.name, gone.former, removed=True)
        else:
            self._moved[record.game] = record.day
        self.log.append(record)
        return record

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "people": [{"number": p.number, "name": p.name, "former": list(p.former), "removed": p.removed}
                       for p in self._people],
            "moved": dict(self._moved),
        }


def replay(setup: GroupSetup, actions: Iterable[Record | Mapping[str, Any]]) -> Group:
    """Rebuild a group from its setup and its log (:meth:`Group.replay`)."""
    return Group.replay(setup, actions)
