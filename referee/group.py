"""A group: a table of friends who play together evening after evening, as a state machine.

A group is its name, its first people (:class:`GroupSetup`) and a log of records, kept by
:class:`Group` with the contract of :mod:`referee.errors`:

- :class:`PersonAdded` (``"add"``): a person joins the group (their name typed once);
- :class:`PersonRenamed` (``"rename"``): a person's name changes; the games played under
  the old name stay theirs (:meth:`Group.person_of` knows every name a person had);
- :class:`PersonRemoved` (``"remove"``): a person is no longer offered when a game starts
  (their games and stats stay);
- :class:`GameMoved` (``"move"``): a game of the group counts for another evening than the
  day it was started (``game`` is whatever key the caller gives games; ``day`` an ISO date);
- :class:`EndChanged` (``"end"``): the end switches of the group's evenings (``target``,
  ``games``, ``until``: :class:`referee.evening_end.EveningEnd`), over everything an evening holds;
- :class:`ZoneChanged` (``"zone"``): the group's time zone (an IANA name such as
  ``"Asia/Ho_Chi_Minh"``; first the one of the phone that made the group, in :class:`GroupSetup`).

An evening is the games begun on one local day of the group, the day turning at 06:00 so that a
night that goes past midnight stays one evening (:meth:`Group.day_of`).

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

A game at 23:30 and one at 01:30 are one evening (the zones of the world are checked against
the zone database, ``zoneinfo``, which the phone's engine does not carry: their examples are in
``tests/test_group_evenings_web.py``; the phone knows UTC):

>>> night = Group(GroupSetup("Fridays", ("An",)))
>>> night.day_of(datetime(2026, 12, 4, 23, 30, tzinfo=UTC)), night.day_of(datetime(2026, 12, 5, 1, 30, tzinfo=UTC))
('2026-12-04', '2026-12-04')
>>> night.check_change_zone("Mars/Olympus")
Traceback (most recent call last):
...
referee.group.ZoneError: 'Mars/Olympus' is not a time zone (such as America/Bogota or Asia/Ho_Chi_Minh)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta, tzinfo
from typing import Any, ClassVar, TypeVar
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from referee.errors import RefereeError, RefusedAction
from referee.evening_end import EveningEnd
from referee.records import Records
from referee.states import StateMachine, can
from referee.switches import rules_from_mapping
from referee.text import message

__all__ = [
    "NAME_MAX", "GroupSetup", "Person", "PersonAdded", "PersonRenamed", "PersonRemoved", "GameMoved",
    "RECORDS", "Group", "replay", "GroupError", "NameError_", "NameTakenError", "NoSuchPersonError",
    "DayError", "clean_name", "EndChanged", "ZoneChanged", "ZoneError", "DAY_TURNS", "check_zone", "evening_day",
]

DAY_TURNS = timedelta(hours=6)
"""When a group's day turns: a night that goes past midnight stays one evening."""
_ZONE = re.compile(r"[A-Za-z][A-Za-z0-9_+\-]*(/[A-Za-z0-9_+\-]+){0,2}")

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


class ZoneError(RefereeError):
    """A time zone the server does not know (an IANA name is expected)."""

    def __init__(self, zone: object) -> None:
        self.zone = zone
        super().__init__(message("{zone} is not a time zone (such as America/Bogota or Asia/Ho_Chi_Minh)",
                                 zone=repr(str(zone)[:60])), field="zone")


_ZONES: dict[str, tzinfo] = {}


def check_zone(zone: object) -> str:
    """An IANA time zone's name, checked against the zone database (``zoneinfo``).

    >>> check_zone("UTC")
    'UTC'
    >>> check_zone("../etc/passwd")
    Traceback (most recent call last):
    ...
    referee.group.ZoneError: '../etc/passwd' is not a time zone (such as America/Bogota or Asia/Ho_Chi_Minh)
    """
    if not isinstance(zone, str) or len(zone) > 60 or not _ZONE.fullmatch(zone):
        raise ZoneError(zone)
    if zone == "UTC":
        _ZONES.setdefault(zone, UTC)  # without the zone database too (the phone's engine)
    if zone not in _ZONES:
        try:
            _ZONES[zone] = ZoneInfo(zone)
        except (ZoneInfoNotFoundError, ValueError, OSError):
            raise ZoneError(zone) from None
    return zone


def evening_day(moment: datetime, zone: str = "UTC") -> str:
    """The evening (a local day, ISO) a game begun at ``moment`` is on: the day in ``zone``,
    turning at 06:00 (:data:`DAY_TURNS`).  A naive ``moment`` is UTC.

    >>> evening_day(datetime(2026, 12, 5, 4, 0, tzinfo=UTC)), evening_day(datetime(2026, 12, 5, 7, 0, tzinfo=UTC))
    ('2026-12-04', '2026-12-05')
    """
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    check_zone(zone)
    return (moment.astimezone(_ZONES[zone]) - DAY_TURNS).date().isoformat()


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
    zone: str = "UTC"
    """The group's time zone when it was made (the keeper's phone's)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "name", clean_name(self.name))
        check_zone(self.zone)
        object.__setattr__(self, "people", tuple(clean_name(p) for p in self.people))
        folded = [p.casefold() for p in self.people]
        for person in self.people:
            if folded.count(person.casefold()) > 1:
                raise NameTakenError(person)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"name": self.name, "people": list(self.people)}
        if self.zone != "UTC":
            data["zone"] = self.zone
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GroupSetup:
        return cls(str(data.get("name", "")), tuple(str(p) for p in data.get("people", ())),
                   str(data.get("zone", "UTC")))


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


@dataclass(frozen=True, slots=True)
class ZoneChanged:
    action: ClassVar[str] = "zone"
    zone: str

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.action, "zone": self.zone}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ZoneChanged:
        return cls(str(data["zone"]))


@dataclass(frozen=True, slots=True)
class EndChanged:
    action: ClassVar[str] = "end"
    end: EveningEnd

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.action, **self.end.to_dict()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> EndChanged:
        return cls(rules_from_mapping(EveningEnd, {k: v for k, v in data.items() if k != "action"}))


Record = PersonAdded | PersonRenamed | PersonRemoved | GameMoved | ZoneChanged | EndChanged
R = TypeVar("R", PersonAdded, PersonRenamed, PersonRemoved, GameMoved, ZoneChanged, EndChanged)
RECORDS: Records[Record] = Records("group", PersonAdded, PersonRenamed, PersonRemoved, GameMoved, ZoneChanged,
                                   EndChanged)


@dataclass
class Group(StateMachine[GroupSetup, Record]):
    """The group as it stands after its log (see the module docstring): a state machine of the
    one contract (:class:`~referee.states.StateMachine` gives ``replay`` and ``undo``, each
    ``can_x`` is :func:`~referee.states.can` of its ``check_x``)."""

    setup: GroupSetup
    log: list[Record] = field(default_factory=list)
    _people: list[Person] = field(default_factory=list, repr=False)
    _moved: dict[str, str] = field(default_factory=dict, repr=False)
    _zone: str = field(default="", repr=False)
    _end: EveningEnd = field(default_factory=EveningEnd, repr=False)

    def __post_init__(self) -> None:
        if not self._people:
            self._people = [Person(i, name) for i, name in enumerate(self.setup.people)]
        if not self._zone:
            self._zone = self.setup.zone

    @property
    def zone(self) -> str:
        """The group's time zone (an IANA name): its evenings are its local days."""
        return self._zone

    @property
    def end(self) -> EveningEnd:
        """The end switches of the group's evenings (all off by default)."""
        return self._end

    def day_of(self, moment: datetime) -> str:
        """The evening a game begun at ``moment`` is on (:func:`evening_day` in the group's zone)."""
        return evening_day(moment, self._zone)

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

    def check_change_zone(self, zone: str) -> ZoneChanged:
        return ZoneChanged(check_zone(zone))

    can_change_zone = can(check_change_zone)

    def change_zone(self, zone: str) -> ZoneChanged:
        return self._do(self.check_change_zone(zone))

    def check_change_end(self, end: EveningEnd) -> EndChanged:
        return EndChanged(end)

    can_change_end = can(check_change_end)

    def change_end(self, end: EveningEnd) -> EndChanged:
        return self._do(self.check_change_end(end))

    def apply(self, action: Record | Mapping[str, Any]) -> Record:
        """Do again what a record (or its ``to_dict()``) says, checked as when it was made."""
        record = RECORDS.from_dict(action) if isinstance(action, Mapping) else action
        if isinstance(record, PersonAdded):
            return self.add_person(record.name)
        if isinstance(record, PersonRenamed):
            return self.rename_person(record.person, record.name)
        if isinstance(record, PersonRemoved):
            return self.remove_person(record.person)
        if isinstance(record, ZoneChanged):
            return self.change_zone(record.zone)
        if isinstance(record, EndChanged):
            return self.change_end(record.end)
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
        elif isinstance(record, ZoneChanged):
            self._zone = record.zone
        elif isinstance(record, EndChanged):
            self._end = record.end
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
            "zone": self._zone,
        }


def replay(setup: GroupSetup, actions: Iterable[Record | Mapping[str, Any]]) -> Group:
    """Rebuild a group from its setup and its log (:meth:`Group.replay`)."""
    return Group.replay(setup, actions)
