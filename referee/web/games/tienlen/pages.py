"""What a followed Tiến lên table's page shows, how its new-table form and its moves are read,
with no Flask: the server's views (:mod:`referee.web.games.tienlen.table`) and the phone drawing
a table started offline (:mod:`referee.web.phone_pages`) both go through these.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.cards import Card, NotationError
from referee.errors import RefereeError, UnreadableInput
from referee.switches import rules_from_mapping
from referee.text import message
from referee.tienlen import (
    THREE_OF_SPADES,
    Action,
    Game,
    InstantWinKind,
    PlayAction,
    Setup,
    SwitchError,
    TienLenRules,
    check_lowest_card,
    lowest_cards,
    replay_game,
)
from referee.web.events import effective_events, records_of
from referee.web.games.tienlen.answers import combo_name, describe, instant_label, is_bomb_play
from referee.web.house_rules import sent_switches
from referee.web.numbers import whole_number
from referee.web.players import read_players
from referee.web.words import gettext, say

KIND = "tienlen"
"""The store's name for a followed table."""
MIN_PLAYERS, MAX_PLAYERS = 2, 4


def live_state(setup: Mapping[str, Any], events: Sequence[Any]) -> Game:
    """The game as the library sees it: the effective events of ``events`` (every event of the
    game as of its version) replayed on its stored ``setup``."""
    return replay_game(Setup.from_dict(dict(setup)), records_of(effective_events(events)))


def last_move(events: Sequence[Any], players: tuple[str, ...]) -> str | None:
    """The latest move still in force, for the undo button."""
    live = effective_events(events)
    return describe(live[-1].payload, players) if live else None


@dataclass(frozen=True, slots=True, kw_only=True)
class PastHand:
    """A finished hand of the table, as its list of past hands says it."""

    number: int
    winner: int | None
    order: tuple[str, ...]
    """The players in the order they went out."""


def table_context(state: Game, setup: Mapping[str, Any], events: Sequence[Any], keeper: bool) -> dict[str, Any]:
    """What ``tienlen/table_fragment.html`` shows besides what every followed page does."""
    hand = state.hand
    names = state.setup.players
    rules = state.setup.rules
    return {
        "state": state, "hand": hand, "names": names, "rules": rules, "hand_number": len(state.hands),
        "hand_log": [describe(a, names) for a in hand.log],
        "past_hands": [PastHand(number=i + 1, winner=h.winner, order=tuple(names[s] for s in h.finishing_order))
                       for i, h in enumerate(state.hands[:-1])],
        "table_bomb": _table_bomb(hand), "kind_label": combo_name, "instant_label": instant_label,
        "can_pass": hand.turn is not None and hand.can_pass(hand.turn),
        "undo_label": last_move(events, names),
        "instant_kinds": [(k.value, instant_label(k)) for k in InstantWinKind],
        "can_declare": (rules.instant_wins and not hand.log and not hand.over),
        # The game as the phone's engine replays it to judge the next move by itself.
        # Without the evening's keeper token ("sheet"): the table's page must not hold the sheet's keeper link.
        "phone_game": {"setup": {k: v for k, v in setup.items() if k != "sheet"},
                       "records": records_of(effective_events(events))} if keeper else None,
    }


def _table_bomb(hand: Any) -> bool:
    """Whether the combination on the table went down as a bomb."""
    if hand.table is None:
        return False
    last = next((a for a in reversed(hand.log) if isinstance(a, PlayAction)), None)
    return bool(last and is_bomb_play(last))


def seat_of(form: Mapping[str, Any], state: Game) -> int:
    """The seat a move's form names (400 when it names none there is)."""
    seat = whole_number(form.get("seat", ""))
    if seat is None:
        raise UnreadableInput(message("The form does not say which player acts; reload the page and try again."),
                              field="seat")
    if not 0 <= seat < len(state.setup.players):
        raise UnreadableInput(message("There is no such seat at this table."), field="seat")
    return seat


def play(state: Game, form: Mapping[str, Any]) -> Action:
    return state.play(seat_of(form, state), str(form.get("cards", ""))[:200])


def pass_(state: Game, form: Mapping[str, Any]) -> Action:
    return state.pass_(seat_of(form, state))


def declare(state: Game, form: Mapping[str, Any]) -> Action:
    seat = seat_of(form, state)
    try:
        kind = InstantWinKind(form.get("kind", ""))
    except ValueError:
        raise UnreadableInput(message("Choose which instant win is declared."), field="kind") from None
    return state.declare_instant_win(seat, kind)


# ---------------------------------------------------------------------------
# The new-table form


@dataclass
class NewTable:
    """A new-table form as read: what to put back in it, its errors, and the game it starts."""

    rows: list[str]
    values: dict[str, Any]
    leader_raw: str
    size_raw: str
    lowest_raw: str
    names: list[str]
    hand_size: int
    errors: dict[str, str] = field(default_factory=dict)
    rules: TienLenRules = field(default_factory=TienLenRules)
    setup: Setup | None = None


def read_new_table(form: Mapping[str, Any]) -> NewTable:
    """``POST /tienlen/new`` read: the players in seat order, the switches, who leads, the hand
    size and the lowest card dealt; ``setup`` is the game's unless ``errors``."""
    players = read_players(form, least=MIN_PLAYERS, most=MAX_PLAYERS, mark="leader")
    rows = list(players.rows)
    values = sent_switches(form, TienLenRules)
    size_raw = str(form.get("hand_size", "13")).strip() or "13"
    lowest_raw = str(form.get("lowest") or str(THREE_OF_SPADES)).strip()[:4]
    names = list(players.names) or [n for n in rows if n.split()]
    read = NewTable(rows, values, str(form.get("leader", "")), size_raw, lowest_raw, names, whole_number(size_raw) or 0)
    if players.error:
        read.errors["names"] = players.error
    leader = -1 if players.marked is None else players.marked
    if players.marked is None:
        read.errors["leader"] = tap_the_leader(lowest_raw, len(names))
    try:
        read.rules = rules_from_mapping(TienLenRules, values)
    except SwitchError as exc:
        read.errors["rules"] = say(exc)
    top = 52 // max(len(names), MIN_PLAYERS)
    if not 1 <= read.hand_size <= top:
        read.errors["hand_size"] = gettext("Each player is dealt 1 to %(n)s cards.", n=top)
    lowest = lowest_card(lowest_raw, len(names), read.hand_size, read.errors)
    if not read.errors:
        read.setup = Setup(tuple(names), read.rules, leader=leader, opening=True, hand_size=read.hand_size,
                           lowest_card=lowest)
    return read


def lowest_choices(players: int, hand_size: int) -> list[str]:
    """The cards that can be the lowest dealt at this table (before its size is known: 2 players)."""
    try:
        return [str(c) for c in lowest_cards(players, hand_size)]
    except RefereeError:
        return [str(c) for c in lowest_cards(MIN_PLAYERS)]


def tap_the_leader(lowest_raw: str, players: int) -> str:
    """Who to tap: the holder of the 3♠ with four players; with 2 or 3, of the lowest card dealt
    (the card chosen on the form, when it reads as one)."""
    if players == 4:
        return gettext("Tap the player who holds 3♠: they lead the first hand.")
    try:
        card = str(Card.parse(lowest_raw))
    except (NotationError, ValueError):
        return gettext("Tap the player who holds the lowest card dealt: they lead the first hand.")
    return gettext("Tap the player who holds %(card)s, the lowest card dealt: they lead the first hand.", card=card)


def lowest_card(raw: str, players: int, hand_size: int, errors: dict[str, str]) -> Card:
    """The lowest card dealt, as the form named it (the 3♠ unless 2–3 players say otherwise)."""
    try:
        card = Card.parse(raw)
    except (NotationError, ValueError):
        errors["lowest"] = gettext("Choose the lowest card dealt from the list.")
        return THREE_OF_SPADES
    if "names" in errors or "hand_size" in errors:
        return card
    try:
        check_lowest_card(card, players * hand_size)
    except RefereeError as exc:
        errors["lowest"] = say(exc)
    return card
