"""The Tiến lên score sheet's forms: a game typed by hand read into the library's facts, and back.

The library (:mod:`referee.tienlen_evening`, :mod:`referee.tienlen_scores`) knows no form:
it takes a :class:`~referee.tienlen_scores.FinishedGame`.  This module reads the by-hand
form's fields into one (:func:`read_game`), fills the form from saved facts to correct
a game (:func:`typed_from_facts`: every fact, so a correction saved unchanged scores the
same), and puts each of the referee's refusals beside the field it is about
(:func:`field_of`).  It imports no Flask, so it reads any mapping of the posted fields.

The fields, for each seat: ``place_<s>`` (with ``play_on``), ``left_<s>`` (cards left),
``cards_<s>`` (the leftover cards), ``caught_<s>`` (only the 2s and bomb cards caught),
``frozen_<s>`` (the "not frozen" box); and one row per bomb, as many as the game had:
``chop_by_<r>``, ``chop_on_<r>``, ``chop_twos_<r>``, ``chop_new_<r>`` (a new trick began),
``chop_after_<r>`` (the bomb fell after the first player went out).

>>> from referee.tienlen_scores import ScoreRules
>>> reading = read_game(("An", "Bao"), ScoreRules(), {"out": "0", "left_1": "x"})
>>> reading.facts, {k: str(m) for k, m in reading.errors.items()}
(None, {'left_1': 'Cards left is a whole number from 0 to 13.'})
>>> facts = read_game(("An", "Bao", "Chi"), ScoreRules(play_on=True), {
...     "out": "0", "left_1": "13", "left_2": "13", "caught_1": "2h",
...     "chop_by_0": "2", "chop_on_0": "1", "chop_twos_0": "2h", "chop_after_0": "yes"}).facts
>>> facts.caught, facts.after_out
((None, (Card.parse('2♥'),), None), ((True,),))
>>> typed = typed_from_facts(facts)
>>> typed["caught_1"], typed["chop_after_0"], read_game(("An", "Bao", "Chi"), ScoreRules(play_on=True), typed).facts == facts
('2♥', 'yes', True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from referee.cards import Card, NotationError, parse_cards
from referee.text import Message, message
from referee.tienlen import Chop
from referee.tienlen_evening import NOTHING_SAVED, HandVerdict
from referee.tienlen_scores import (
    HAND_SIZE,
    CardsLeftError,
    CardTwiceError,
    ChopChainError,
    FinishedGame,
    InstantWinError,
    NoSuchSeatError,
    OrderError,
    PlayedCardError,
    ScoreError,
    ScoreInputError,
    ScoreRules,
)

__all__ = [
    "MIN_CHOP_ROWS", "MAX_CHOP_ROWS", "NOT_FROZEN", "NEW_TRICK", "AFTER_OUT", "NOTHING_SAVED", "MAX_TYPED",
    "FormVerdict", "Reading", "hand_fields", "chop_rows", "typed_from", "read_game", "typed_from_facts",
    "field_of", "form_verdict",
]

MIN_CHOP_ROWS = 4
"""The empty chop rows a new game's form shows (a correction shows every chop, and one more)."""
MAX_CHOP_ROWS = 52
"""The most chop rows read from one form (a hand has 52 cards: no game has more bombs)."""
NOT_FROZEN = "no"
"""``frozen_<seat>`` saying a 13-card loser was not frozen (always refused: 13 cards left means
no card was played by the first out)."""
NEW_TRICK = "yes"
"""``chop_new_<row>``: this bomb fell in a new trick, not on the row before."""
AFTER_OUT = "yes"
"""``chop_after_<row>``: this bomb fell after the first player went out (``play_on``)."""
MAX_TYPED = 200
SEAT_FIELDS = ("place", "left", "cards", "caught", "frozen")
CHOP_FIELDS = ("chop_by", "chop_on", "chop_twos", "chop_new", "chop_after")


def hand_fields(players: int, rows: int = MIN_CHOP_ROWS) -> list[str]:
    """The by-hand form's fields, by name, with ``rows`` chop rows.

    >>> hand_fields(2)[:7], hand_fields(2)[-5:]
    (['out', 'instant', 'place_0', 'left_0', 'cards_0', 'caught_0', 'frozen_0'], ['chop_by_3', 'chop_on_3', 'chop_twos_3', 'chop_new_3', 'chop_after_3'])
    """
    names = ["out", "instant"]
    for seat in range(players):
        names += [f"{name}_{seat}" for name in SEAT_FIELDS]
    for row in range(rows):
        names += [f"{name}_{row}" for name in CHOP_FIELDS]
    return names


def chop_rows(typed: Mapping[str, object], least: int = 0) -> int:
    """How many chop rows the form sent (or ``least``): one past the last row with a field.

    >>> chop_rows({"chop_by_0": "1", "chop_on_6": ""}), chop_rows({}, least=4)
    (7, 4)
    """
    rows = least
    for name in typed:
        for prefix in CHOP_FIELDS:
            tail = name.removeprefix(prefix + "_")
            if tail != name and tail.isascii() and tail.isdigit() and len(tail) <= 3:
                rows = max(rows, min(int(tail) + 1, MAX_CHOP_ROWS))
    return rows


def typed_from(form: Mapping[str, object], players: int) -> dict[str, str]:
    """What the form sent, field by field (every chop row it sent), trimmed."""
    return {name: str(form.get(name, ""))[:MAX_TYPED].strip()
            for name in hand_fields(players, chop_rows(form, MIN_CHOP_ROWS))}


# ---------------------------------------------------------------------------
# Reading the form into the facts


@dataclass
class Reading:
    """A by-hand entry read: the facts, or the mistakes beside their fields."""

    typed: Mapping[str, str]
    players: int
    errors: dict[str, Message] = field(default_factory=dict)
    facts: FinishedGame | None = None
    problem: Message | None = None

    def value(self, name: str) -> str:
        return str(self.typed.get(name, "")).strip()

    def seat(self, name: str) -> int | None:
        return _whole(self.value(name), 0, self.players - 1)


def _whole(raw: str, low: int, high: int) -> int | None:
    """A whole number typed in ASCII digits, from ``low`` to ``high``; ``None`` otherwise."""
    if not raw or len(raw) > 4 or not all("0" <= c <= "9" for c in raw):
        return None
    value = int(raw)
    return value if low <= value <= high else None


def _read_winner(r: Reading) -> tuple[int | None, int | None]:
    """(winner, instant winner) from the ``out`` and ``instant`` fields."""
    instant = r.seat("instant")
    if r.value("instant") and instant is None:
        r.errors["instant"] = message("Choose who declared the instant win.")
    winner = instant if instant is not None else r.seat("out")
    if winner is None:
        r.errors["out"] = message("Tap who went out first.")
    return winner, instant


def _read_cards(r: Reading, name: str) -> tuple[Card, ...] | None:
    raw = r.value(name)
    if not raw:
        return None
    try:
        parsed = parse_cards(raw)
    except NotationError as exc:
        r.errors[name] = exc.reason
        return ()
    if any(not isinstance(c, Card) for c in parsed):
        r.errors[name] = message("Tiến lên is played without jokers.")
    return tuple(c for c in parsed if isinstance(c, Card))


def _read_seat(r: Reading, seat: int, winner: int | None, instant: int | None,
               names: Sequence[str]) -> tuple[int, tuple[Card, ...] | None]:
    """A seat's cards left (a count, or the cards themselves) when the first player went out."""
    cards = _read_cards(r, f"cards_{seat}")
    count: int | None = None
    if r.value(f"left_{seat}"):
        count = _whole(r.value(f"left_{seat}"), 0, HAND_SIZE)
        if count is None:
            r.errors[f"left_{seat}"] = message("Cards left is a whole number from 0 to 13.")
    if seat == winner:
        return (0 if count is None else count), (cards or None)
    if instant is not None:
        return HAND_SIZE, None
    if count is None and cards is not None:
        count = len(cards)
    elif count is None and f"left_{seat}" not in r.errors and f"cards_{seat}" not in r.errors:
        r.errors[f"left_{seat}"] = message("Enter how many cards {player} had left, or the cards.",
                                           player=names[seat])
    return (count if count is not None else 0), cards


def _read_not_frozen(r: Reading, seat: int) -> bool:
    raw = r.value(f"frozen_{seat}")
    if raw not in ("", NOT_FROZEN):
        r.errors[f"frozen_{seat}"] = message("The “not frozen” box is either ticked or left empty.")
    return raw == NOT_FROZEN


def _read_order(r: Reading, rules: ScoreRules, instant: int | None) -> tuple[int, ...] | None:
    """The finishing order from the places, when given (or needed: ``score_by`` places)."""
    n = r.players
    places = [r.value(f"place_{seat}") for seat in range(n)]
    if instant is not None or not (any(places) or rules.score_by == "places"):
        return None
    ranks = [_whole(p, 1, n) for p in places]
    if None in ranks or len(set(ranks)) != n:
        r.errors["order"] = message("Give every player a different place, 1 to {n}.", n=n)
        return None
    return tuple(sorted(range(n), key=lambda s: ranks[s] or 0))


def _read_chops(r: Reading) -> tuple[tuple[tuple[Chop, ...], ...], tuple[tuple[bool, ...], ...]]:
    """The chop rows as chains, and each bomb's moment: a row without 2s goes on the chain of
    the row before when it bombed that row's bomber, unless the row says a new trick began."""
    chains: list[tuple[Chop, ...]] = []
    moments: list[tuple[bool, ...]] = []
    for row in range(chop_rows(r.typed)):
        by, on = r.seat(f"chop_by_{row}"), r.seat(f"chop_on_{row}")
        twos_raw = r.value(f"chop_twos_{row}")
        if by is None and on is None and not twos_raw:
            continue
        if by is None or on is None:
            r.errors["chops"] = message("Each chop needs who bombed and whose cards were bombed.")
            continue
        try:
            twos = tuple(c for c in parse_cards(twos_raw) if isinstance(c, Card))
        except NotationError as exc:
            r.errors["chops"] = exc.reason
            continue
        step = Chop(by, on, twos)
        after = r.value(f"chop_after_{row}") == AFTER_OUT
        new_trick = r.value(f"chop_new_{row}") == NEW_TRICK
        if not twos and not new_trick and chains and chains[-1][-1].by == on:
            chains[-1] = (*chains[-1], step)
            moments[-1] = (*moments[-1], after)
        else:
            chains.append((step,))
            moments.append((after,))
    return tuple(chains), tuple(moments)


def read_game(names: Sequence[str], rules: ScoreRules, typed: Mapping[str, str]) -> Reading:
    """A game typed by hand (the fields of :func:`hand_fields`) read into its facts: the winner
    or the order, each loser's cards left, leftover or caught cards, the chops and their moments."""
    r = Reading(typed, len(names))
    winner, instant = _read_winner(r)
    left: list[int] = []
    leftover: list[tuple[Card, ...] | None] = []
    caught: list[tuple[Card, ...] | None] = []
    not_frozen: list[bool] = []
    for seat in range(len(names)):
        count, cards = _read_seat(r, seat, winner, instant, names)
        left.append(count)
        leftover.append(cards)
        caught.append(_read_cards(r, f"caught_{seat}") or None)
        not_frozen.append(_read_not_frozen(r, seat))
    order = _read_order(r, rules, instant)
    chops, moments = _read_chops(r)
    if r.errors or winner is None:
        return r
    frozen = None
    if any(not_frozen) and instant is None:  # "not frozen" goes through the library's check
        frozen = tuple(left[s] == HAND_SIZE and s != winner and not not_frozen[s] for s in range(len(names)))
    try:
        r.facts = FinishedGame(
            players=len(names), winner=winner, cards_left=tuple(left), order=order,
            leftover=tuple(leftover) if any(c is not None for c in leftover) else None,
            caught=tuple(caught) if any(c is not None for c in caught) else None,
            frozen=frozen, chops=chops, instant_win=instant, names=tuple(names),
            after_out=moments if any(any(m) for m in moments) else None)
    except ScoreError as exc:
        name = field_of(exc, typed)
        if name:
            r.errors[name] = exc.reason
        else:
            r.problem = exc.reason
    return r


def typed_from_facts(facts: FinishedGame) -> dict[str, str]:
    """The by-hand form filled in from saved facts (to correct a game): every fact, every chop."""
    steps = sum(len(chain) for chain in facts.chops)
    typed = {name: "" for name in hand_fields(facts.players, max(MIN_CHOP_ROWS, steps + 1))}
    if facts.instant_win is not None:
        typed["instant"] = str(facts.instant_win)
    typed["out"] = str(facts.winner)
    for seat in range(facts.players):
        typed[f"left_{seat}"] = str(facts.cards_left[seat]) if seat != facts.winner else ""
        for name, per_seat in (("cards", facts.leftover), ("caught", facts.caught)):
            cards = per_seat[seat] if per_seat is not None else None
            typed[f"{name}_{seat}"] = " ".join(str(c) for c in cards) if cards else ""
    if facts.order is not None:
        for place, seat in enumerate(facts.order):
            typed[f"place_{seat}"] = str(place + 1)
    row = 0
    for c, chain in enumerate(facts.chops):
        for i, step in enumerate(chain):
            typed[f"chop_by_{row}"], typed[f"chop_on_{row}"] = str(step.by), str(step.on)
            typed[f"chop_twos_{row}"] = " ".join(str(card) for card in step.twos)
            typed[f"chop_new_{row}"] = NEW_TRICK if i == 0 and row > 0 and not step.twos else ""
            late = facts.after_out is not None and facts.after_out[c][i]
            typed[f"chop_after_{row}"] = AFTER_OUT if late else ""
            row += 1
    return typed


# ---------------------------------------------------------------------------
# A refusal beside its field


def field_of(exc: ScoreError, typed: Mapping[str, str], *, left_field: str = "left") -> str | None:
    """The form field a scoring mistake is shown beside (``None``: above the form)."""
    seat = exc.seat
    if exc.field == "caught" and seat is not None:
        return f"caught_{seat}"
    if isinstance(exc, CardTwiceError | PlayedCardError) and seat is not None and \
            str(typed.get(f"caught_{seat}", "")).strip() and not str(typed.get(f"cards_{seat}", "")).strip():
        return f"caught_{seat}"
    if isinstance(exc, CardTwiceError | PlayedCardError | ScoreInputError) and seat is not None:
        return f"cards_{seat}"
    if isinstance(exc, CardsLeftError) and seat is not None and exc.field != "chops":
        if str(typed.get(f"frozen_{seat}", "")) == NOT_FROZEN:
            return f"frozen_{seat}"
        return f"cards_{seat}" if str(typed.get(f"cards_{seat}", "")).strip() else f"{left_field}_{seat}"
    for kind, name in ((ChopChainError | CardTwiceError | CardsLeftError, "chops"), (OrderError, "order"),
                       (InstantWinError, "instant"), (NoSuchSeatError, "out")):
        if isinstance(exc, kind):
            return name
    return None


@dataclass(frozen=True)
class FormVerdict:
    """What the referee made of a form: every mistake beside its field (``errors``, plus
    ``"order"``, ``"chops"``), or one ``problem`` of the whole entry; else the game's record."""

    errors: Mapping[str, Message] = field(default_factory=dict)
    problem: Message | None = None
    record: object | None = None

    @property
    def ok(self) -> bool:
        return self.record is not None

    @property
    def reason(self) -> Message:
        """One sentence for a refused entry: the problem, or the first field's."""
        if self.problem is not None:
            return self.problem
        return next(iter(self.errors.values()), NOTHING_SAVED)


def form_verdict(verdict: HandVerdict, typed: Mapping[str, str], *, left_field: str = "left") -> FormVerdict:
    """The library's verdict on the facts, its refusal put beside the field it is about."""
    if verdict.record is not None:
        return FormVerdict(record=verdict.record)
    if verdict.error is not None:
        name = field_of(verdict.error, typed, left_field=left_field)
        if name:
            return FormVerdict(errors={name: verdict.error.reason})
    return FormVerdict(problem=verdict.reason)


def reading_verdict(reading: Reading) -> FormVerdict:
    """The mistakes found while reading the form (before the referee scored anything)."""
    return FormVerdict(errors=dict(reading.errors), problem=reading.problem)
