"""A Tiến lên evening for points: the score sheet's state machine.

An evening is the players, the score switches (:class:`~referee.tienlen_scores.ScoreRules`)
and a log of records, kept by :class:`Evening` with the contract of :mod:`referee.errors`:

- :class:`GameAdded` (``"game"``): a game entered by hand (``source="hand"``) or a finished
  hand of a followed table (``source="table"``, with ``table`` and ``hand``);
- :class:`GameCorrected` (``"correct"``): game ``number`` entered again by hand;
- :class:`TableFollowed` (``"follow"``): the sheet follows a Tiến lên table (one followed
  by its link, or one started from the sheet).

A game's record keeps its facts, the amounts it was scored with, the payments and the
points: a replay trusts them, so the totals never depend on a later change of the
scoring code.

A game by hand is its facts (:class:`~referee.tienlen_scores.FinishedGame`, or the JSON
API's body): the sheet knows no form (the web package reads its form into the facts).

>>> evening = Evening(EveningSetup(("An", "Binh", "Chi")))
>>> record = evening.add_by_hand({"players": 3, "winner": 0, "cards_left": [0, 5, 13]})
>>> record.points, evening.totals
((31, -5, -26), (31, -5, -26))
>>> evening.check_add_by_hand({"players": 3, "winner": 1, "cards_left": [13, 0, 12], "frozen": [False, False, False]})
Traceback (most recent call last):
...
referee.tienlen_evening.EntryRefused: An has 13 cards left, so played no card and was frozen
>>> _ = evening.correct(1, {"players": 3, "winner": 0, "cards_left": [0, 5, 12]})
>>> evening.totals, evening.undo().totals
((17, -5, -12), (31, -5, -26))
>>> replay(evening.setup, [r.to_dict() for r in evening.log]).totals
(17, -5, -12)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from referee.errors import RefereeError, RefusedAction
from referee.records import Records
from referee.states import StateMachine, can
from referee.switches import rules_from_mapping
from referee.text import Message, message
from referee.tienlen import Hand
from referee.tienlen_scores import (
    DEFAULT_SCORE_RULES,
    FinishedGame,
    NoSuchSeatError,
    Payment,
    ScoreError,
    ScoreRules,
    check_players,
    finished_game_from_hand,
    score,
)

__all__ = [
    "EveningSetup",
    "GameAdded",
    "GameCorrected",
    "TableFollowed",
    "RECORDS",
    "HandVerdict",
    "EntryRefused",
    "EveningRefused",
    "NotFollowedError",
    "HandNotOverError",
    "NOTHING_SAVED",
    "Facts",
    "finished_hand",
    "SheetGame",
    "Evening",
    "replay",
    "judge_by_hand",
    "judge_from_table",
    "seat_map",
    "remap",
]

NOTHING_SAVED = message("Nothing was saved: fix what is marked below.")


# ---------------------------------------------------------------------------
# Setup and records
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EveningSetup:
    """The evening's players (2 to 4) and its amounts.

    >>> EveningSetup(("An",))
    Traceback (most recent call last):
    ...
    referee.tienlen_scores.NoSuchSeatError: Tiến lên is scored for 2 to 4 players, not 1
    """

    players: tuple[str, ...]
    rules: ScoreRules = DEFAULT_SCORE_RULES

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", tuple(self.players))
        check_players(len(self.players))


@dataclass(frozen=True, slots=True)
class GameAdded:
    """A game on the sheet: its facts (``FinishedGame.to_dict()``), the amounts it was scored
    with, its payments and points; ``table``/``hand`` when it came from a followed table."""

    action: ClassVar[str] = "game"
    facts: Mapping[str, Any]
    rules: ScoreRules
    points: tuple[int, ...]
    payments: tuple[Payment, ...]
    source: str = "hand"
    table: int | None = None
    hand: int | None = None

    @property
    def from_table(self) -> tuple[int, int] | None:
        """(table id, hand index) when the game came from a followed table."""
        return (self.table, self.hand) if self.table is not None and self.hand is not None else None

    def finished_game(self, names: Sequence[str] = ()) -> FinishedGame:
        return FinishedGame.from_dict(self.facts, names)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"action": self.action, "source": self.source}
        if self.table is not None:
            data["table"], data["hand"] = self.table, self.hand
        data.update(facts=dict(self.facts), rules=self.rules.to_dict(), points=list(self.points),
                    payments=[p.to_record() for p in self.payments])
        return data

    @classmethod
    def _fields(cls, data: Mapping[str, Any]) -> dict[str, Any]:
        table = data.get("table")
        return {
            "facts": dict(data["facts"]), "rules": rules_from_mapping(ScoreRules, data.get("rules") or {}),
            "points": tuple(int(p) for p in data["points"]),
            "payments": tuple(Payment.from_record(p) for p in data["payments"]),
            "source": str(data.get("source", "hand")),
            "table": int(table) if table is not None else None,
            "hand": int(data["hand"]) if table is not None else None,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameAdded:
        return cls(**cls._fields(data))


@dataclass(frozen=True, slots=True)
class GameCorrected(GameAdded):
    """Game ``number`` entered again (it keeps the table hand it stood for)."""

    action: ClassVar[str] = "correct"
    number: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {**GameAdded.to_dict(self), "number": self.number}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameCorrected:
        return cls(**cls._fields(data), number=int(data["number"]))


@dataclass(frozen=True, slots=True)
class TableFollowed:
    """The sheet follows the Tiến lên table ``table`` (its stored id)."""

    action: ClassVar[str] = "follow"
    table: int

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.action, "table": self.table}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TableFollowed:
        return cls(int(data["table"]))


Record = GameAdded | TableFollowed
RECORDS: Records[Record] = Records("Tiến lên evening", GameAdded, GameCorrected, TableFollowed)


# ---------------------------------------------------------------------------
# Judging a game entered by hand
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class HandVerdict:
    """What the referee made of a game's facts: the ``record`` to add, or why not: ``error``
    (the :class:`~referee.tienlen_scores.ScoreError`, with the seat and the field of the
    facts it is about) or one ``problem`` of the whole entry."""

    problem: Message | None = None
    error: ScoreError | None = None
    facts: FinishedGame | None = None
    record: GameAdded | None = None

    @property
    def ok(self) -> bool:
        return self.record is not None

    @property
    def reason(self) -> Message:
        """One sentence for a refused entry."""
        if self.problem is not None:
            return self.problem
        return self.error.reason if self.error is not None else NOTHING_SAVED


class EntryRefused(RefusedAction):
    """A game entry that cannot be saved; ``verdict`` keeps each mistake beside its field."""

    def __init__(self, verdict: HandVerdict) -> None:
        self.verdict = verdict
        super().__init__(verdict.reason)


class EveningRefused(RefusedAction):
    """An action the sheet refuses as it stands (a game it does not have, a table it follows)."""


class HandNotOverError(EveningRefused):
    """A hand of a followed table that is not over (or that the table does not have)."""

    def __init__(self) -> None:
        super().__init__(message("That hand of the table is not over yet."))


class NotFollowedError(EveningRefused):
    """A table the sheet does not follow (or that is gone)."""

    def __init__(self) -> None:
        super().__init__(message("This sheet does not follow that table."))


Facts = FinishedGame | Mapping[str, Any]
"""A game's facts: the value, or the JSON API's body (``FinishedGame.to_dict()``)."""


def _refused(exc: ScoreError) -> HandVerdict:
    return HandVerdict(error=exc)


def _scored(facts: FinishedGame, rules: ScoreRules, **where: Any) -> HandVerdict:
    try:
        result = score(facts, rules)
    except ScoreError as exc:
        return _refused(exc)
    record = GameAdded(facts.to_dict(), rules, result.points, result.payments, **where)
    return HandVerdict(facts=facts, record=record)


def judge_by_hand(names: Sequence[str], rules: ScoreRules, facts: Facts) -> HandVerdict:
    """A game entered by hand: its facts (with or without the finishing order), checked and scored.

    >>> v = judge_by_hand(("An", "Binh"), ScoreRules(), {"players": 2, "winner": 0, "cards_left": [0, 14]})
    >>> v.ok, str(v.reason), v.error.seat, v.error.field
    (False, "Binh's cards left must be a whole number from 0 to 13, not 14", 1, 'cards_left')
    """
    try:
        game = facts if isinstance(facts, FinishedGame) else FinishedGame.from_dict(facts, names)
        if game.players != len(names):
            raise NoSuchSeatError(message("the sheet has {players} players, not {count}",
                                          players=len(names), count=game.players))
        if tuple(game.names) != tuple(names):
            game = dataclasses.replace(game, names=tuple(names))
    except ScoreError as exc:
        return _refused(exc)
    return _scored(game, rules, source="hand")


# ---------------------------------------------------------------------------
# A finished hand of a followed table
# ---------------------------------------------------------------------------


def seat_map(names: Sequence[str], table_names: Sequence[str]) -> list[int] | None:
    """For each table seat, the sheet seat of the same player; ``None`` when the players differ.

    >>> seat_map(["An", "Binh"], ["binh", "An"]), seat_map(["An", "Binh"], ["An", "Chi"])
    ([1, 0], None)
    """
    folded = [n.casefold() for n in names]
    mapping = [folded.index(n.casefold()) if n.casefold() in folded else -1 for n in table_names]
    if len(table_names) != len(names) or -1 in mapping or len(set(mapping)) != len(mapping):
        return None
    return mapping


def remap(facts: FinishedGame, mapping: Sequence[int], names: Sequence[str]) -> FinishedGame:
    """The same facts with the table's seats renumbered as the sheet's."""
    if list(mapping) == list(range(len(mapping))):
        return dataclasses.replace(facts, names=tuple(names))
    data = facts.to_dict()

    def per_seat(values: list[Any] | None) -> list[Any] | None:
        if values is None:
            return None
        out: list[Any] = [None] * len(mapping)
        for seat, value in enumerate(values):
            out[mapping[seat]] = value
        return out

    data["winner"] = mapping[data["winner"]]
    if data["order"] is not None:
        data["order"] = [mapping[s] for s in data["order"]]
    for key in ("cards_left", "leftover", "frozen", "caught"):
        if key in data:
            data[key] = per_seat(data[key])
    data["chops"] = [[{**step, "by": mapping[step["by"]], "from": mapping[step["from"]]} for step in chain]
                     for chain in data["chops"]]
    if data["instant_win"] is not None:
        data["instant_win"] = mapping[data["instant_win"]]
    return FinishedGame.from_dict(data, names)


def finished_hand(hands: Sequence[Hand], index: int) -> Hand:
    """Hand ``index`` of a followed table, once it is over (else :class:`HandNotOverError`)."""
    if not 0 <= index < len(hands) or not hands[index].over:
        raise HandNotOverError()
    return hands[index]


def judge_from_table(names: Sequence[str], rules: ScoreRules, table: int, hands: Sequence[Hand],
                     hand_index: int, leftover: Mapping[int, str],
                     caught: Mapping[int, str] | None = None) -> HandVerdict:
    """A finished hand of a followed table with the keeper's leftover cards, or only the 2s
    and bomb cards caught (``caught``), by sheet seat, checked against the plays; the table's
    ``play_on`` and ``instant_wins`` score it."""
    try:
        hand = finished_hand(hands, hand_index)
    except HandNotOverError as exc:
        return HandVerdict(problem=exc.reason)
    mapping = seat_map(names, hand.players)
    if mapping is None:
        return HandVerdict(problem=message("This table's players are not the players of this sheet."))
    given: list[str | None] = [str(leftover.get(mapping[seat], "")).strip() or None for seat in range(len(mapping))]
    given[hand.winner or 0] = None
    caught = caught or {}
    taken: list[str | None] = [str(caught.get(mapping[seat], "")).strip() or None for seat in range(len(mapping))]
    try:
        facts = finished_game_from_hand(hand, given, taken if any(taken) else None)
    except ScoreError as exc:
        if exc.seat is not None:
            exc.seat = mapping[exc.seat]
        return _refused(exc)
    try:
        effective = dataclasses.replace(rules, play_on=hand.rules.play_on, instant_wins=hand.rules.instant_wins)
    except RefereeError as exc:  # score_by places on a table that does not play on
        return HandVerdict(problem=exc.reason)
    return _scored(remap(facts, mapping, names), effective, source="table", table=table, hand=hand_index)


# ---------------------------------------------------------------------------
# The evening
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SheetGame:
    """A game as the sheet shows it: its number, its record, whether it was corrected, the
    totals after it."""

    number: int
    record: GameAdded
    corrected: bool
    totals: tuple[int, ...]

    @property
    def points(self) -> tuple[int, ...]:
        return self.record.points

    @property
    def payments(self) -> tuple[Payment, ...]:
        return self.record.payments

    @property
    def source(self) -> str:
        return self.record.source

    @property
    def table(self) -> tuple[int, int] | None:
        return self.record.from_table


class Evening(StateMachine[EveningSetup, Record]):
    """The sheet of an evening: games added (by hand or from a followed table), corrected,
    tables followed; ``check_x`` / ``can_x`` / ``x`` for each, ``undo`` and :func:`replay`."""

    def __init__(self, setup: EveningSetup) -> None:
        super().__init__(setup)
        self._games: list[tuple[GameAdded, bool]] = []
        self.tables: list[int] = []

    # -- what the sheet shows ------------------------------------------------------------
    @property
    def names(self) -> tuple[str, ...]:
        return self.setup.players

    @property
    def players(self) -> int:
        return len(self.setup.players)

    @property
    def rules(self) -> ScoreRules:
        return self.setup.rules

    @property
    def games(self) -> tuple[SheetGame, ...]:
        totals = (0,) * self.players
        shown = []
        for i, (record, corrected) in enumerate(self._games):
            totals = tuple(a + b for a, b in zip(totals, record.points, strict=True))
            shown.append(SheetGame(i + 1, record, corrected, totals))
        return tuple(shown)

    @property
    def totals(self) -> tuple[int, ...]:
        games = self.games
        return games[-1].totals if games else (0,) * self.players

    @property
    def leaders(self) -> tuple[int, ...]:
        if not self._games:
            return ()
        totals = self.totals
        return tuple(s for s, t in enumerate(totals) if t == max(totals))

    @property
    def added(self) -> frozenset[tuple[int, int]]:
        """The followed tables' hands already on the sheet."""
        return frozenset(r.from_table for r, _ in self._games if r.from_table is not None)

    def saved(self, number: int) -> SheetGame | None:
        games = self.games
        return games[number - 1] if 1 <= number <= len(games) else None

    # -- a game by hand ------------------------------------------------------------------
    def check_add_by_hand(self, facts: Facts) -> GameAdded:
        """Raise :class:`EntryRefused` unless the game entered by hand can be added; its record otherwise."""
        verdict = judge_by_hand(self.names, self.rules, facts)
        if verdict.record is None:
            raise EntryRefused(verdict)
        return verdict.record

    can_add_by_hand = can(check_add_by_hand)

    def add_by_hand(self, facts: Facts) -> GameAdded:
        record = self.check_add_by_hand(facts)
        self._append(record)
        return record

    # -- a correction --------------------------------------------------------------------
    def check_game_saved(self, number: int) -> SheetGame:
        saved = self.saved(number) if isinstance(number, int) and not isinstance(number, bool) else None
        if saved is None:
            raise EveningRefused(message("This sheet has no game {n} yet.", n=number))
        return saved

    def check_correct(self, number: int, facts: Facts) -> GameCorrected:
        """Raise unless game ``number`` can be entered again so; the correction's record otherwise
        (it still stands for the table hand the game came from, scored with that table's
        ``play_on`` and ``instant_wins``)."""
        old = self.check_game_saved(number).record
        rules = self.rules
        if old.source == "table":  # the table's play_on and instant_wins scored it
            rules = dataclasses.replace(rules, play_on=old.rules.play_on, instant_wins=old.rules.instant_wins)
        verdict = judge_by_hand(self.names, rules, facts)
        if verdict.record is None:
            raise EntryRefused(verdict)
        new = verdict.record
        return GameCorrected(new.facts, new.rules, new.points, new.payments, new.source, old.table, old.hand,
                             number=number)

    can_correct = can(check_correct)

    def correct(self, number: int, facts: Facts) -> GameCorrected:
        record = self.check_correct(number, facts)
        self._append(record)
        return record

    # -- a followed table ----------------------------------------------------------------
    def check_follows(self, table: int) -> None:
        if table not in self.tables:
            raise NotFollowedError()

    def check_add_from_table(self, table: int, hands: Sequence[Hand], hand_index: int,
                             leftover: Mapping[int, str], caught: Mapping[int, str] | None = None) -> GameAdded:
        """Raise unless hand ``hand_index`` of the followed table ``table`` (its hands
        replayed) can be added with these leftover cards, or only the 2s and bomb cards
        ``caught`` (by sheet seat)."""
        self.check_follows(table)
        if (table, hand_index) in self.added:
            raise EveningRefused(message("This hand of the table is already on the sheet."))
        verdict = judge_from_table(self.names, self.rules, table, hands, hand_index, leftover, caught)
        if verdict.record is None:
            raise EntryRefused(verdict)
        return verdict.record

    can_add_from_table = can(check_add_from_table)

    def add_from_table(self, table: int, hands: Sequence[Hand], hand_index: int,
                       leftover: Mapping[int, str], caught: Mapping[int, str] | None = None) -> GameAdded:
        record = self.check_add_from_table(table, hands, hand_index, leftover, caught)
        self._append(record)
        return record

    def check_follow(self, table: int, table_names: Sequence[str]) -> TableFollowed:
        """Raise unless the table (stored id, its players) can be followed."""
        if seat_map(self.names, table_names) is None:
            raise EveningRefused(message("That table's players ({them}) are not this sheet's ({us}).",
                                         them=", ".join(table_names), us=", ".join(self.names)))
        if table in self.tables:
            raise EveningRefused(message("This sheet already follows that table."))
        return TableFollowed(table)

    can_follow = can(check_follow)

    def follow(self, table: int, table_names: Sequence[str]) -> TableFollowed:
        record = self.check_follow(table, table_names)
        self._append(record)
        return record

    # -- replay and undo -----------------------------------------------------------------
    def apply(self, action: Record | Mapping[str, Any]) -> Record:
        """Add a stored record again (its points are trusted, not worked out again)."""
        record = RECORDS.from_dict(action) if isinstance(action, Mapping) else action
        if isinstance(record, GameAdded) and len(record.points) != self.players:
            raise RefereeError(message("a game has {count} scores, but the sheet has {players} players",
                                       count=len(record.points), players=self.players))
        return self._append(record)

    def _append(self, record: Record) -> Record:
        if isinstance(record, GameCorrected):
            if 1 <= record.number <= len(self._games):
                self._games[record.number - 1] = (record, True)
        elif isinstance(record, GameAdded):
            self._games.append((record, False))
        elif record.table not in self.tables:
            self.tables.append(record.table)
        self.log.append(record)
        return record

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": list(self.names),
            "games": [{"game": g.number, "points": list(g.points), "totals": list(g.totals),
                       "corrected": g.corrected, "source": g.source} for g in self.games],
            "totals": list(self.totals),
            "tables": list(self.tables),
        }


def replay(setup: EveningSetup, actions: Iterable[Record | Mapping[str, Any]]) -> Evening:
    """Rebuild an evening from its setup and its records (or their dicts)."""
    return Evening.replay(setup, actions)
