"""The Tiến lên table: follow a whole game at the table, turn by turn.

A game is stored as its :class:`referee.tienlen.Setup` (players in seat order, the
house rules, the holder of the 3♠) and an event log whose payloads are the
library's action records (``PlayAction.to_dict()`` …).  The state shown is always
``replay_game(setup, effective events)``: undo, the watch view and a restarted
server all come from the same replay.

Routes (blueprint ``tienlen_table``, under ``/tienlen``):

* ``GET/POST /tienlen/new`` — create a game (names in seat order, switches, who holds 3♠).
* ``GET /tienlen/g/<token>`` — the table (``?since=<version>`` answers 204 while unchanged).
* ``POST /tienlen/g/<token>/play|pass|undo|next|instant`` — keeper writes, each one
  event guarded by the ``version`` field (409 with the fresh table when stale).

Without JavaScript every form is a plain POST answered by a 303 to the table; with
htmx the table fragment comes back directly.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, Response, request
from flask_babel import gettext

from referee.cards import Card, NotationError
from referee.errors import RefereeError, UnreadableInput
from referee.switches import rules_from_mapping
from referee.text import message
from referee.tienlen import RECORDS as TIENLEN_RECORDS
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
from referee.web import store
from referee.web.games.tienlen.answers import describe, instant_label, is_bomb_play
from referee.web.games.tienlen.check import combo_name, switch_specs
from referee.web.guard import whole_number
from referee.web.house_rules import sent_switches
from referee.web.models import Game as StoredGame
from referee.web.players import read_players
from referee.web.store import Access
from referee.web.tables import Action as TableAction
from referee.web.tables import (
    Decide,
    Done,
    Feedback,
    FollowedGame,
    remembered,
)
from referee.web.views import render_page, say

bp = Blueprint("tienlen_table", __name__, url_prefix="/tienlen")

KIND = "tienlen"
MIN_PLAYERS, MAX_PLAYERS = 2, 4


# ---------------------------------------------------------------------------
# State: replay of the event log
# ---------------------------------------------------------------------------


def live_state(game: StoredGame) -> Game:
    """The game as the library sees it: the effective events replayed."""
    return replay_game(Setup.from_dict(game.setup), live_records(game))


def live_records(game: StoredGame) -> list[dict[str, Any]]:
    return store.records_of(store.live_events(game))


def last_move(access: Access, state: Game) -> str | None:
    """The latest move still in force, for the undo button."""
    live = store.live_events(access.game)
    return describe(live[-1].payload, state.setup.players) if live else None


@dataclass(frozen=True, slots=True, kw_only=True)
class PastHand:
    """A finished hand of the table, as its list of past hands says it."""

    number: int
    winner: int | None
    order: tuple[str, ...]
    """The players in the order they went out."""


def render_table(access: Access, state: Game, feedback: Feedback, status: int = 200) -> Response:
    hand = state.hand
    names = state.setup.players
    rules = state.setup.rules
    return render_page(
        "tienlen/table.html",
        "tienlen/table_fragment.html",
        status=status,
        **GAME.context(access),
        state=state,
        hand=hand,
        names=names,
        rules=rules,
        hand_number=len(state.hands),
        hand_log=[describe(a, names) for a in hand.log],
        past_hands=[PastHand(number=i + 1, winner=h.winner, order=tuple(names[s] for s in h.finishing_order))
                    for i, h in enumerate(state.hands[:-1])],
        table_bomb=_table_bomb(hand),
        kind_label=combo_name,
        instant_label=instant_label,
        can_pass=hand.turn is not None and hand.can_pass(hand.turn),
        undo_label=last_move(access, state),
        feedback=feedback,
        instant_kinds=[(k.value, instant_label(k)) for k in InstantWinKind],
        can_declare=(rules.instant_wins and not hand.log and not hand.over),
        # The game as the phone's engine replays it to judge the next move by itself.
        # Without the evening's keeper token ("sheet"): the table's page must not hold the sheet's keeper link.
        phone_game={"setup": {k: v for k, v in access.game.setup.items() if k != "sheet"},
                    "records": live_records(access.game)} if access.can_write else None,
    )


GAME: FollowedGame[Game] = FollowedGame(
    bp, kind=KIND, endpoint="tienlen_table.table", build=live_state, render=render_table, last_move=last_move,
    events=frozenset(TIENLEN_RECORDS.classes))


def _table_bomb(hand: Any) -> bool:
    """Whether the combination on the table went down as a bomb."""
    if hand.table is None:
        return False
    last = next((a for a in reversed(hand.log) if isinstance(a, PlayAction)), None)
    return bool(last and is_bomb_play(last))


def _seat(form: Any, state: Game) -> int:
    seat = whole_number(form.get("seat", ""))
    if seat is None:
        raise UnreadableInput(message("The form does not say which player acts; reload the page and try again."),
                              field="seat")
    if not 0 <= seat < len(state.setup.players):
        raise UnreadableInput(message("There is no such seat at this table."), field="seat")
    return seat


# ---------------------------------------------------------------------------
# Creating a game
# ---------------------------------------------------------------------------


@bp.route("/new", methods=["GET", "POST"])
def new() -> Response:
    errors: dict[str, str] = {}
    if request.method == "GET":
        names = [""] * MAX_PLAYERS
        values = remembered(TienLenRules, KIND).to_dict()
        return _new_form(names, values, leader="", hand_size="13", errors=errors, lowest=str(THREE_OF_SPADES))

    form = request.form
    players = read_players(form, least=MIN_PLAYERS, most=MAX_PLAYERS, mark="leader")
    rows = list(players.rows)
    values = sent_switches(form, TienLenRules)
    leader_raw = form.get("leader", "")
    size_raw = form.get("hand_size", "13").strip() or "13"
    lowest_raw = (form.get("lowest") or str(THREE_OF_SPADES)).strip()[:4]

    names = list(players.names) or [n for n in rows if n.split()]
    if players.error:
        errors["names"] = players.error
    leader = -1 if players.marked is None else players.marked
    if players.marked is None:
        errors["leader"] = _tap_the_leader(lowest_raw, len(names))
    try:
        rules = rules_from_mapping(TienLenRules, values)
    except SwitchError as exc:
        errors["rules"] = say(exc)
        rules = TienLenRules()
    hand_size = whole_number(size_raw) or 0
    top = 52 // max(len(names), MIN_PLAYERS)
    if not 1 <= hand_size <= top:
        errors["hand_size"] = gettext("Each player is dealt 1 to %(n)s cards.", n=top)

    lowest = _lowest_card(lowest_raw, len(names), hand_size, errors)
    if errors:
        return _new_form(rows, _form_rules(values).to_dict(), leader=leader_raw, hand_size=size_raw, errors=errors,
                         status=422, lowest=lowest_raw,
                         choices=lowest_choices(MIN_PLAYERS if "names" in errors else len(names), hand_size))
    setup = Setup(tuple(names), rules, leader=leader, opening=True, hand_size=hand_size, lowest_card=lowest)
    return GAME.start(names, rules=rules.to_dict(), setup=setup.to_dict())


def lowest_choices(players: int, hand_size: int) -> list[str]:
    """The cards that can be the lowest dealt at this table (before its size is known: 2 players)."""
    try:
        return [str(c) for c in lowest_cards(players, hand_size)]
    except RefereeError:
        return [str(c) for c in lowest_cards(MIN_PLAYERS)]


def _tap_the_leader(lowest_raw: str, players: int) -> str:
    """Who to tap: the holder of the 3♠ with four players; with 2 or 3, of the lowest card dealt
    (the card chosen on the form, when it reads as one)."""
    if players == 4:
        return gettext("Tap the player who holds 3♠: they lead the first hand.")
    try:
        card = str(Card.parse(lowest_raw))
    except (NotationError, ValueError):
        return gettext("Tap the player who holds the lowest card dealt: they lead the first hand.")
    return gettext("Tap the player who holds %(card)s, the lowest card dealt: they lead the first hand.", card=card)


def _lowest_card(raw: str, players: int, hand_size: int, errors: dict[str, str]) -> Card:
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


def _form_rules(values: dict[str, Any]) -> TienLenRules:
    """Rules to show in the form: what was sent or remembered, or the defaults if that is damaged."""
    try:
        return rules_from_mapping(TienLenRules, values)
    except (SwitchError, ValueError, TypeError):
        return TienLenRules()


def _new_form(names: list[str], values: dict[str, Any], *, leader: str, hand_size: str,
              errors: dict[str, str], status: int = 200, lowest: str = "3♠",
              choices: list[str] | None = None) -> Response:
    return render_page(
        "tienlen/new.html",
        "tienlen/new_form.html",
        status=status,
        names=names,
        values=values,
        leader=leader,
        hand_size=hand_size,
        errors=errors,
        specs=switch_specs(),
        lowest=lowest,
        lowest_choices=choices or lowest_choices(MIN_PLAYERS, 13),
    )


# ---------------------------------------------------------------------------
# The table and its actions
# ---------------------------------------------------------------------------


def _decide(do: Callable[[Game], Action]) -> Decide[Game]:
    """Judge an action on the table this phone saw; the record becomes the event."""

    def decide(access: Access, state: Game) -> Done:
        return Done.of(do(state))

    return decide


def _declare(state: Game) -> Action:
    seat = _seat(request.form, state)
    try:
        kind = InstantWinKind(request.form.get("kind", ""))
    except ValueError:
        raise UnreadableInput(message("Choose which instant win is declared."), field="kind") from None
    return state.declare_instant_win(seat, kind)


# The table page (picker.js carries cards being tapped across a poll), its four actions, undo and redo.
GAME.routes({
    "play": TableAction(_decide(lambda state: state.play(_seat(request.form, state), request.form.get("cards", "")[:200])),
                        typed=("cards",), at="cards"),
    "pass": TableAction(_decide(lambda state: state.pass_(_seat(request.form, state))), typed=("cards",)),
    "next": TableAction(_decide(lambda state: state.next_hand())),
    "instant": TableAction(_decide(_declare), typed=("seat",)),
}, typed=("cards",))
