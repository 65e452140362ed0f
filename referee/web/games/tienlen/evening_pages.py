"""What the Tiến lên score sheet's pages show and how its forms are read, with no Flask: the
server's views (:mod:`referee.web.games.tienlen.scores`) and the phone drawing an evening started
offline (:mod:`referee.web.games.tienlen.score_pages`) both build their pages with these, so both
say the same.

An event is anything :mod:`referee.web.events` reads (the store's, or the phone's own records).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from referee import stats
from referee.errors import RefereeError
from referee.evening_end import EveningEnd
from referee.switches import rules_from_mapping
from referee.tienlen import lowest_cards
from referee.tienlen_evening import NOTHING_SAVED, EntryRefused, Evening, EveningSetup, GameAdded, replay
from referee.tienlen_scores import FinishedGame, Payment, ScoreError, ScoreRules
from referee.web import sheets
from referee.web.evening_ends import (
    EVENT_KINDS,
    EndView,
    end_from,
    end_view,
    entered_at,
    read_end,
    undo_label,
)
from referee.web.events import StoredEvent, records_of, undo_words
from referee.web.games.tienlen.forms import (
    MIN_CHOP_ROWS,
    FormVerdict,
    chop_rows,
    form_verdict,
    read_game,
    reading_verdict,
)
from referee.web.games.tienlen.forms import typed_from_facts as _typed_from_facts
from referee.web.house_rules import rules_from_form, sent_switches
from referee.web.money_words import money_view
from referee.web.numbers import whole_number
from referee.web.players import read_players
from referee.web.words import gettext, say

KIND = "tienlen_scores"
"""The store's name for an evening's score sheet."""
TABLE_KIND = "tienlen"
GAME = "game"
CORRECT = "correct"
FOLLOW = "follow"
MIN_PLAYERS, MAX_PLAYERS = 2, 4

Sheet = Evening
"""The sheet the pages show is the library's :class:`~referee.tienlen_evening.Evening`."""


# ---------------------------------------------------------------------------
# The sheet


def rules_of(raw: Mapping[str, Any] | None) -> ScoreRules:
    return rules_from_mapping(ScoreRules, dict(raw or {}))


def replayed(names: Sequence[str], rules: Mapping[str, Any] | None, live: Sequence[StoredEvent]) -> Evening:
    """The evening of ``live`` (its events still in force) replayed
    (:func:`referee.tienlen_evening.replay`); the stake and the end are not games."""
    return replay(EveningSetup(tuple(names), rules_of(rules)), records_of(live, leave=EVENT_KINDS))


def describe(payment: Payment, names: Sequence[str]) -> str:
    """One payment in plain words, in the reader's language."""
    return say(payment.sentence(names))


def last_move(sheet: Evening, live: Sequence[StoredEvent]) -> str | None:
    """The latest entry of ``live`` still in force, in the players' words (the undo button)."""

    def entry_words(event: StoredEvent) -> str:
        if event.kind == CORRECT:
            return gettext("Game %(n)s corrected", n=event.payload.get("number"))
        if event.kind == FOLLOW:
            return gettext("Following a table")
        return gettext("Game %(n)s added", n=len(sheet.games))

    return undo_words(live, undo_label, entry_words)


def running_chart(sheet: Evening) -> sheets.Chart | None:
    """The running totals, one line a player (inline SVG drawn by the sheet's template)."""
    steps = [(g.number, g.totals) for g in sheet.games]
    return sheets.running_chart(sheet.names, steps, len(sheet.games), sheet.totals, below_zero=True)


def evening_end(sheet: Evening, live: Sequence[Any], setup: Mapping[str, Any] | None, *, start: datetime,
                action: str, version: int) -> EndView:
    """Where the evening stands against its end switches (``action``: the end form's address)."""
    return end_view(end_from(live, setup), sheet.names, [g.totals for g in sheet.games], entered_at(live, GAME),
                    start=start, action=action, version=version)


def money_context(sheet: Evening, live: Sequence[StoredEvent], setup: Mapping[str, Any] | None, ended: EndView, *,
                  start: datetime, action: str, version: int, currency: str) -> dict[str, Any]:
    """What the sheet shows of the money, as the server's
    :func:`referee.web.games.tienlen.evening_money.evening_context` draws it for a sheet in no
    group: the stake form (``currency`` when no stake is set: the reader's) and the settle-up
    (each counted game's points × the stake; ``None`` until a stake is set)."""
    return money_view(live, stats.tienlen_sheet_results(sheet), entered_at(live, GAME), end_from(live, setup),
                      sheet.names, start=start, action=action, version=version, currency=currency,
                      note=ended.past_end, final=ended.progress.over, square=sheet.names)


def sheet_context(sheet: Evening, live: Sequence[StoredEvent]) -> dict[str, Any]:
    """What every page of the sheet shows of it besides the share box and the money."""
    return {"sheet": sheet, "chart": running_chart(sheet), "describe": describe, "undo_label": last_move(sheet, live)}


def page_context(sheet: Evening, added: str) -> dict[str, Any]:
    """What the sheet's own page shows besides :func:`sheet_context` (and the followed tables'
    hands, which the server reads from its store): the lowest cards a table can start with, and
    the game just added (``?added=``)."""
    return {"lowest_choices": [str(c) for c in lowest_cards(sheet.players)], "added": whole_number(added, high=9999)}


# ---------------------------------------------------------------------------
# An entry on the page


@dataclass
class Entry:
    """What a form sent for one game, and the referee's verdict in the reader's language."""

    typed: dict[str, str]
    errors: dict[str, str] = field(default_factory=dict)
    problem: str | None = None
    record: GameAdded | None = None
    payments: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.record is not None

    def value(self, name: str) -> str:
        return self.typed.get(name, "")

    def take(self, verdict: FormVerdict, names: Sequence[str]) -> Entry:
        """Show the library's verdict: each mistake beside its field, or the payments."""
        self.errors = {name: say(why) for name, why in verdict.errors.items()}
        self.problem = say(verdict.problem) if verdict.problem is not None else None
        if self.errors and self.problem is None:
            self.problem = say(NOTHING_SAVED)
        self.record = verdict.record if isinstance(verdict.record, GameAdded) else None
        if self.record is not None:
            self.payments = [describe(p, names) for p in self.record.payments]
        return self


def refused_entry(typed: Mapping[str, str], exc: EntryRefused, names: Sequence[str], *,
                  left_field: str = "left") -> RefereeError:
    """The sheet's refusal of an entry, with the entry judged (each mistake beside its field) as
    its ``detail``."""
    verdict = form_verdict(exc.verdict, typed, left_field=left_field)
    shown = Entry(dict(typed)).take(verdict, names)
    return RefereeError(verdict.problem or (NOTHING_SAVED if shown.errors else exc.reason), detail=shown)


def typed_from_facts(facts: Mapping[str, Any], names: Sequence[str]) -> dict[str, str]:
    """The by-hand form filled in from a saved game's facts (to correct it); facts saved before
    a check was added, that it now refuses, fill in only who went out."""
    try:
        return _typed_from_facts(FinishedGame.from_dict(facts, names))
    except ScoreError:
        return {"out": str(facts.get("winner", ""))}


def entry_context(sheet: Evening, number: int | None, entry: Entry) -> dict[str, Any]:
    """What the by-hand page (a new game, or game ``number`` corrected) shows besides the sheet."""
    rows = max(MIN_CHOP_ROWS, chop_rows({k: v for k, v in entry.typed.items() if v}) + 1, chop_rows(entry.typed))
    saved = sheet.saved(number) if number else None
    return {"entry": entry, "number": number, "saved": saved, "chop_rows": range(rows), "blank_entry": Entry({}),
            "play_on": sheet.rules.play_on or (saved is not None and saved.record.rules.play_on)}


def saved_entry(sheet: Evening, number: int) -> Entry:
    """Game ``number``'s form filled in to correct it (a :class:`~referee.errors.RefereeError`
    when the sheet has no such game)."""
    saved = sheet.check_game_saved(number)
    return Entry(typed_from_facts(saved.record.facts, sheet.names))


def enter_by_hand(evening: Evening, number: int | None, typed: Mapping[str, str]) -> GameAdded:
    """A game typed by hand added to ``evening`` (or, with ``number``, that game corrected): its
    record; a :class:`~referee.errors.RefereeError` whose ``detail`` is the entry judged otherwise."""
    old = evening.saved(number) if number is not None else None
    rules = old.record.rules if old is not None and old.source == "table" else evening.rules
    reading = read_game(evening.names, rules, typed)
    if reading.facts is None:
        verdict = reading_verdict(reading)
        shown = Entry(dict(typed)).take(verdict, evening.names)
        raise RefereeError(verdict.problem or (NOTHING_SAVED if shown.errors else verdict.reason), detail=shown)
    try:
        return evening.add_by_hand(reading.facts) if number is None else evening.correct(number, reading.facts)
    except EntryRefused as exc:
        raise refused_entry(typed, exc, evening.names) from None


# ---------------------------------------------------------------------------
# The new-evening form


@dataclass
class NewEvening:
    """The new-evening form as read: the players, the score switches, the end; or its errors."""

    rows: list[str]
    names: list[str]
    values: dict[str, Any]
    rules: ScoreRules
    end: EveningEnd
    errors: dict[str, str]

    @property
    def setup(self) -> dict[str, Any]:
        return {"end": self.end.to_dict()} if self.end.is_set else {}


def read_new_evening(form: Mapping[str, Any]) -> NewEvening:
    """``POST /tienlen/scores/new`` read (the evening starts unless ``errors``)."""
    players = read_players(form, least=MIN_PLAYERS, most=MAX_PLAYERS)
    errors: dict[str, str] = {}
    if players.error:
        errors["names"] = players.error
    values = sent_switches(form, ScoreRules)
    rules = rules_from_form(form, ScoreRules, errors)
    end = read_end(form, errors)
    return NewEvening(list(players.rows), list(players.names), values, rules, end, errors)
