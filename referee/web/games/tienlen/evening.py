"""The Tiến lên score sheet: judging a game's entry and replaying the evening's log.

An evening is a stored game of kind ``tienlen_scores`` (players, the score switches).
Each game of the evening is one event (``game``, or ``correct`` to re-enter game N)
whose payload holds the facts (:meth:`FinishedGame.to_dict`), where they came from (a
followed table's hand, or typed by hand), and the payments and points the referee
gave: the totals never depend on a later change of the scoring code.  A ``follow``
event links a followed Tiến lên table whose finished hands can then be added.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from flask_babel import gettext

from referee.cards import Card, NotationError, parse_cards
from referee.tienlen import Chop, Game, Setup, replay_game
from referee.tienlen_scores import (
    HAND_SIZE,
    CardsLeftError,
    CardTwiceError,
    ChopChainError,
    FinishedGame,
    InstantWinError,
    NoSuchSeatError,
    OrderError,
    Payment,
    PlayedCardError,
    ScoreError,
    ScoreInputError,
    ScoreRules,
    ScoreSwitchError,
    finished_game_from_hand,
    score,
)
from referee.web.derived import per_request
from referee.web.extensions import db
from referee.web.guard import whole_number
from referee.web.models import Game as StoredGame
from referee.web.store import history, live_events
from referee.web.views import say

KIND = "tienlen_scores"
TABLE_KIND = "tienlen"
GAME = "game"
CORRECT = "correct"
FOLLOW = "follow"
CHOP_ROWS = 4
MAX_TYPED = 200


# ---------------------------------------------------------------------------
# The sheet


@dataclass
class SheetGame:
    number: int
    source: str  # "table" or "hand"
    facts: FinishedGame
    points: list[int]
    payments: list[Payment]
    totals: list[int]
    corrected: bool
    payload: dict[str, Any]

    @property
    def table(self) -> tuple[int, int] | None:
        """(table game id, hand index) when the game came from a followed table."""
        if self.payload.get("table") is None:
            return None
        return int(self.payload["table"]), int(self.payload["hand"])


@dataclass
class Sheet:
    names: list[str]
    rules: ScoreRules
    games: list[SheetGame]
    tables: list[int]
    history: list[dict[str, Any]] = field(default_factory=list)

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def totals(self) -> list[int]:
        return self.games[-1].totals if self.games else [0] * self.players

    @property
    def leaders(self) -> list[int]:
        if not self.games:
            return []
        top = max(self.totals)
        return [s for s, t in enumerate(self.totals) if t == top]

    def saved(self, number: int) -> SheetGame | None:
        return self.games[number - 1] if 1 <= number <= len(self.games) else None

    @property
    def added(self) -> set[tuple[int, int]]:
        return {g.table for g in self.games if g.table is not None}


def rules_of(raw: Mapping[str, Any] | None) -> ScoreRules:
    return ScoreRules.from_dict(dict(raw or {}))


def build_sheet(game: StoredGame) -> Sheet:
    """The evening's sheet, built once per request (it reads the followed tables too, which move
    on without the sheet's version: :func:`referee.web.derived.per_request`)."""
    return per_request(game, "tienlen.evening", _build_sheet)


def _build_sheet(game: StoredGame) -> Sheet:
    """Replay the evening's effective events into the sheet."""
    names = game.player_names
    rules = rules_of(game.rules)
    entries: list[tuple[dict[str, Any], bool]] = []
    tables: list[int] = []
    for event in live_events(game):
        payload = event.payload
        if event.kind == GAME:
            entries.append((payload, False))
        elif event.kind == CORRECT:
            n = int(payload["number"])
            if 1 <= n <= len(entries):
                entries[n - 1] = (payload, True)
        elif event.kind == FOLLOW and int(payload["table"]) not in tables:
            tables.append(int(payload["table"]))
    games: list[SheetGame] = []
    totals = [0] * len(names)
    for i, (payload, corrected) in enumerate(entries):
        points = [int(p) for p in payload["points"]]
        totals = [a + b for a, b in zip(totals, points, strict=True)]
        games.append(SheetGame(
            number=i + 1, source=str(payload.get("source", "hand")),
            facts=FinishedGame.from_dict(payload["facts"], names),
            points=points, payments=[Payment.from_record(p) for p in payload["payments"]],
            totals=list(totals), corrected=corrected, payload=dict(payload),
        ))
    undone = {e.payload.get("undoes") for e in history(game) if e.kind == "undo"}
    changes = [{"seq": e.seq, "kind": e.kind, "when": e.created_at, "number": e.payload.get("number"),
                "points": e.payload.get("points"), "undoes": e.payload.get("undoes"), "undone": e.seq in undone}
               for e in history(game)]
    return Sheet(names, rules, games, tables, changes)


def describe(payment: Payment, names: Sequence[str]) -> str:
    """One payment in plain words, in the reader's language."""
    return say(payment.sentence(names))


def last_move(sheet: Sheet, game: StoredGame) -> str | None:
    """The latest entry still in force, in the players' words (the undo button)."""
    live = live_events(game)
    if not live:
        return None
    event = live[-1]
    if event.kind == CORRECT:
        return gettext("Game %(n)s corrected", n=event.payload.get("number"))
    if event.kind == FOLLOW:
        return gettext("Following a table")
    return gettext("Game %(n)s added", n=len(sheet.games))


# ---------------------------------------------------------------------------
# Followed tables


@dataclass
class TableHand:
    """A finished hand of a followed table, ready to be added to the sheet."""

    table: int
    hand: int
    winner: str
    added: bool
    token: str


def followed_table(table_id: int) -> StoredGame | None:
    game = db.session.get(StoredGame, table_id)
    return game if game is not None and game.kind == TABLE_KIND else None


def table_state(table: StoredGame) -> Game:
    return replay_game(Setup.from_dict(table.setup), [e.payload for e in live_events(table)])


def seat_map(names: Sequence[str], table_names: Sequence[str]) -> list[int] | None:
    """For each table seat, the sheet seat of the same player; ``None`` when the players differ."""
    folded = [n.casefold() for n in names]
    mapping = [folded.index(n.casefold()) if n.casefold() in folded else -1 for n in table_names]
    if len(table_names) != len(names) or -1 in mapping or len(set(mapping)) != len(mapping):
        return None
    return mapping


def table_hands(sheet: Sheet) -> list[TableHand]:
    """Every finished hand of the followed tables, newest first, marked when already added."""
    found: list[TableHand] = []
    added = sheet.added
    for table_id in sheet.tables:
        table = followed_table(table_id)
        if table is None:
            continue
        state = table_state(table)
        for i, hand in enumerate(state.hands):
            if hand.over and hand.winner is not None:
                found.append(TableHand(table_id, i, hand.players[hand.winner], (table_id, i) in added,
                                       table.keeper_token))
    return list(reversed(found))


# ---------------------------------------------------------------------------
# Judging an entry


@dataclass
class Entry:
    """What a form sent for one game, and what the referee made of it."""

    typed: dict[str, str]
    errors: dict[str, str] = field(default_factory=dict)
    problem: str | None = None
    payload: dict[str, Any] | None = None
    payments: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.payload is not None

    def value(self, name: str) -> str:
        return self.typed.get(name, "")


NOT_FROZEN = "no"
"""The by-hand form's ``frozen_<seat>`` when the keeper says a 13-card loser was not frozen."""


def hand_fields(players: int) -> list[str]:
    names = ["out", "instant"]
    for seat in range(players):
        names += [f"place_{seat}", f"left_{seat}", f"cards_{seat}", f"frozen_{seat}"]
    for row in range(CHOP_ROWS):
        names += [f"chop_by_{row}", f"chop_on_{row}", f"chop_twos_{row}"]
    return names


def typed_from(form: Mapping[str, Any], players: int) -> dict[str, str]:
    return {name: str(form.get(name, ""))[:MAX_TYPED].strip() for name in hand_fields(players)}


def _seat(raw: str, players: int) -> int | None:
    return whole_number(raw, high=players - 1)


def _place_error(exc: ScoreError, entry: Entry, *, left_field: str = "left") -> None:
    """Put a library refusal beside the field it is about."""
    sentence = say(exc)
    seat = exc.seat
    if isinstance(exc, (CardTwiceError, PlayedCardError)) and seat is not None:
        entry.errors[f"cards_{seat}"] = sentence
    elif isinstance(exc, CardsLeftError) and seat is not None:
        key = f"cards_{seat}" if entry.value(f"cards_{seat}") else f"{left_field}_{seat}"
        entry.errors[key] = sentence
    elif isinstance(exc, ChopChainError | CardTwiceError):
        entry.errors["chops"] = sentence
    elif isinstance(exc, OrderError):
        entry.errors["order"] = sentence
    elif isinstance(exc, InstantWinError):
        entry.errors["instant"] = sentence
    elif isinstance(exc, NoSuchSeatError):
        entry.errors["out"] = sentence
    else:
        entry.problem = sentence
    if entry.problem is None:
        entry.problem = gettext("Nothing was saved: fix what is marked below.")


def _finish(entry: Entry, facts: FinishedGame, rules: ScoreRules, extra: dict[str, Any]) -> Entry:
    try:
        result = score(facts, rules)
    except ScoreError as exc:
        _place_error(exc, entry)
        return entry
    entry.payments = [describe(p, facts.names) for p in result.payments]
    entry.payload = {
        **extra,
        "facts": facts.to_dict(),
        "rules": rules.to_dict(),
        "points": list(result.points),
        "payments": [p.to_record() for p in result.payments],
    }
    return entry


def judge_by_hand(names: Sequence[str], rules: ScoreRules, typed: dict[str, str]) -> Entry:
    """A game typed by hand: the winner (or order), cards left or leftover cards, the chops."""
    entry = Entry(typed)
    n = len(names)
    instant = _seat(entry.value("instant"), n)
    if entry.value("instant") and instant is None:
        entry.errors["instant"] = gettext("Choose who declared the instant win.")
    winner = instant if instant is not None else _seat(entry.value("out"), n)
    if winner is None:
        entry.errors["out"] = gettext("Tap who went out first.")
    left: list[int] = []
    leftover: list[tuple[Card, ...] | None] = []
    not_frozen: list[bool] = []
    for seat in range(n):
        count_raw, cards_raw = entry.value(f"left_{seat}"), entry.value(f"cards_{seat}")
        cards: tuple[Card, ...] | None = None
        if cards_raw:
            try:
                parsed = parse_cards(cards_raw)
            except NotationError as exc:
                entry.errors[f"cards_{seat}"] = say(exc)
                parsed = ()
            if any(not isinstance(c, Card) for c in parsed):
                entry.errors[f"cards_{seat}"] = gettext("Tiến lên is played without jokers.")
            cards = tuple(c for c in parsed if isinstance(c, Card))
        count: int | None = None
        if count_raw:
            count = whole_number(count_raw, high=HAND_SIZE)
            if count is None:
                entry.errors[f"left_{seat}"] = gettext("Cards left is a whole number from 0 to 13.")
        if seat == winner:
            count = 0 if count is None else count
            cards = None if not cards else cards
        elif instant is not None:
            count = HAND_SIZE
            cards = None
        elif count is None and cards is not None:
            count = len(cards)
        elif count is None and f"left_{seat}" not in entry.errors and f"cards_{seat}" not in entry.errors:
            entry.errors[f"left_{seat}"] = gettext("Enter how many cards %(player)s had left, or the cards.",
                                                   player=names[seat])
        left.append(count if count is not None else 0)
        leftover.append(cards)
        frozen_raw = entry.value(f"frozen_{seat}")
        if frozen_raw not in ("", NOT_FROZEN):
            entry.errors[f"frozen_{seat}"] = gettext("Frozen is a tick or nothing.")
        not_frozen.append(frozen_raw == NOT_FROZEN)
    order: tuple[int, ...] | None = None
    places = {seat: entry.value(f"place_{seat}") for seat in range(n)}
    if instant is None and (any(places.values()) or rules.score_by == "places"):
        ranks = [whole_number(p, low=1, high=n) for p in places.values()]
        if None in ranks or len(set(ranks)) != n:
            entry.errors["order"] = gettext("Give every player a different place, 1 to %(n)s.", n=n)
        else:
            order = tuple(sorted(range(n), key=lambda s: ranks[s] or 0))
    chains: list[tuple[Chop, ...]] = []
    for row in range(CHOP_ROWS):
        by, on = _seat(entry.value(f"chop_by_{row}"), n), _seat(entry.value(f"chop_on_{row}"), n)
        twos_raw = entry.value(f"chop_twos_{row}")
        if by is None and on is None and not twos_raw:
            continue
        if by is None or on is None:
            entry.errors["chops"] = gettext("Each chop needs who bombed and whose cards were bombed.")
            continue
        try:
            twos = tuple(c for c in parse_cards(twos_raw) if isinstance(c, Card))
        except NotationError as exc:
            entry.errors["chops"] = say(exc)
            continue
        step = Chop(by, on, twos)
        if not twos and chains and chains[-1][-1].by == on:
            chains[-1] = (*chains[-1], step)  # a bomb on the bomb before: the chain goes on
        else:
            chains.append((step,))
    if entry.errors:
        entry.problem = gettext("Nothing was saved: fix what is marked below.")
        return entry
    assert winner is not None
    # Frozen ("cóng") is counted for a loser with 13 cards left unless the keeper ticked "not
    # frozen"; given that way it goes through the same check as the API's ``frozen``.
    frozen = None
    if any(not_frozen) and instant is None:
        frozen = tuple(left[s] == HAND_SIZE and s != winner and not not_frozen[s] for s in range(n))
    try:
        facts = FinishedGame(players=n, winner=winner, cards_left=tuple(left), order=order,
                             leftover=tuple(leftover) if any(c is not None for c in leftover) else None,
                             frozen=frozen, chops=tuple(chains), instant_win=instant, names=tuple(names))
    except ScoreError as exc:
        _place_error(exc, entry)
        return entry
    return _finish(entry, facts, rules, {"source": "hand"})


def judge_from_table(
    names: Sequence[str], rules: ScoreRules, table: StoredGame, hand_index: int, typed: dict[str, str]
) -> Entry:
    """A finished hand of a followed table, with the keeper's leftover cards (checked against the plays)."""
    entry = Entry(typed)
    state = table_state(table)
    mapping = seat_map(names, state.setup.players)
    if mapping is None:
        entry.problem = gettext("This table's players are not the players of this sheet.")
        return entry
    if not 0 <= hand_index < len(state.hands) or not state.hands[hand_index].over:
        entry.problem = gettext("That hand of the table is not over yet.")
        return entry
    hand = state.hands[hand_index]
    leftover = [entry.value(f"cards_{mapping[seat]}") or None for seat in range(len(mapping))]
    leftover[hand.winner or 0] = None
    try:
        facts = finished_game_from_hand(hand, leftover)
    except NotationError as exc:
        entry.problem = say(exc)
        return entry
    except ScoreError as exc:
        if exc.seat is not None:
            exc.seat = mapping[exc.seat]
        _place_error(exc, entry, left_field="cards")
        return entry
    table_rules = hand.rules
    try:
        effective = dataclasses.replace(rules, play_on=table_rules.play_on, instant_wins=table_rules.instant_wins)
    except ScoreSwitchError as exc:
        entry.problem = say(exc)
        return entry
    facts = remap(facts, mapping, names)
    return _finish(entry, facts, effective, {"source": "table", "table": table.id, "hand": hand_index})


def remap(facts: FinishedGame, mapping: Sequence[int], names: Sequence[str]) -> FinishedGame:
    """The same facts with the table's seats renumbered as the sheet's."""
    if list(mapping) == list(range(len(mapping))):
        return dataclasses.replace(facts, names=tuple(names))
    data = facts.to_dict()
    n = len(mapping)

    def per_seat(values: list[Any] | None) -> list[Any] | None:
        if values is None:
            return None
        out: list[Any] = [None] * n
        for seat, value in enumerate(values):
            out[mapping[seat]] = value
        return out

    data["winner"] = mapping[data["winner"]]
    if data["order"] is not None:
        data["order"] = [mapping[s] for s in data["order"]]
    for key in ("cards_left", "leftover", "frozen"):
        data[key] = per_seat(data[key])
    data["chops"] = [[{**step, "by": mapping[step["by"]], "from": mapping[step["from"]]} for step in chain]
                     for chain in data["chops"]]
    if data["instant_win"] is not None:
        data["instant_win"] = mapping[data["instant_win"]]
    return FinishedGame.from_dict(data, names)


def typed_from_facts(facts: FinishedGame) -> dict[str, str]:
    """The by-hand form filled in from saved facts (to correct a game)."""
    typed = {name: "" for name in hand_fields(facts.players)}
    if facts.instant_win is not None:
        typed["instant"] = str(facts.instant_win)
    typed["out"] = str(facts.winner)
    for seat in range(facts.players):
        typed[f"left_{seat}"] = str(facts.cards_left[seat]) if seat != facts.winner else ""
        cards = facts.leftover[seat] if facts.leftover is not None else None
        typed[f"cards_{seat}"] = " ".join(str(c) for c in cards) if cards else ""
        if facts.frozen is not None and seat not in facts.frozen_seats and facts.cards_left[seat] == HAND_SIZE:
            typed[f"frozen_{seat}"] = NOT_FROZEN
    if facts.order is not None:
        for place, seat in enumerate(facts.order):
            typed[f"place_{seat}"] = str(place + 1)
    row = 0
    for chain in facts.chops:
        for step in chain:
            if row < CHOP_ROWS:
                typed[f"chop_by_{row}"], typed[f"chop_on_{row}"] = str(step.by), str(step.on)
                typed[f"chop_twos_{row}"] = " ".join(str(c) for c in step.twos)
            row += 1
    return typed


__all__ = [
    "KIND", "GAME", "CORRECT", "FOLLOW", "Sheet", "SheetGame", "Entry", "TableHand", "build_sheet",
    "judge_by_hand", "judge_from_table", "table_hands", "typed_from", "typed_from_facts", "seat_map",
    "followed_table", "last_move", "describe", "ScoreInputError",
]
