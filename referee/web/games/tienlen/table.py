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
from typing import Any

from flask import Blueprint, Response, request
from flask_babel import gettext

from referee.cards import Card, NotationError
from referee.errors import RefereeError
from referee.switches import rules_from_mapping
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
from referee.web.store import Access
from referee.web.tables import (
    BadForm,
    Decide,
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


def game_setup(access: Access) -> Setup:
    return Setup.from_dict(access.game.setup)


def live_state(access: Access) -> Game:
    """The game as the library sees it: the effective events replayed."""
    return replay_game(game_setup(access), live_records(access))


def live_records(access: Access) -> list[dict[str, Any]]:
    return [e.payload for e in store.live_events(access.game)]


def last_move(access: Access) -> str | None:
    """The latest move still in force, for the undo button."""
    live = store.live_events(access.game)
    return describe(live[-1].payload, tuple(access.game.player_names)) if live else None


def render_table(access: Access, feedback: Feedback, status: int = 200) -> Response:
    state = live_state(access)
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
        past_hands=[
            {"number": i + 1, "winner": h.winner, "order": [names[s] for s in h.finishing_order]}
            for i, h in enumerate(state.hands[:-1])
        ],
        table_bomb=_table_bomb(hand),
        kind_label=combo_name,
        instant_label=instant_label,
        can_pass=hand.turn is not None and hand.can_pass(hand.turn),
        undo_label=last_move(access),
        feedback=feedback,
        instant_kinds=[(k.value, instant_label(k)) for k in InstantWinKind],
        can_declare=(rules.instant_wins and not hand.log and not hand.over),
        # The game as the phone's engine replays it to judge the next move by itself.
        # Without the evening's keeper token ("sheet"): the table's page must not hold the sheet's keeper link.
        phone_game={"setup": {k: v for k, v in access.game.setup.items() if k != "sheet"},
                    "records": live_records(access)} if access.can_write else None,
    )


GAME: FollowedGame[object] = FollowedGame(  # no build: its pages read the state themselves
    bp, kind=KIND, endpoint="tienlen_table.table", render=render_table, last_move=last_move)


def _table_bomb(hand: Any) -> bool:
    """Whether the combination on the table went down as a bomb."""
    if hand.table is None:
        return False
    last = next((a for a in reversed(hand.log) if isinstance(a, PlayAction)), None)
    return bool(last and is_bomb_play(last))


def _seat(form: Any, state: Game) -> int:
    seat = whole_number(form.get("seat", ""))
    if seat is None:
        raise BadForm(gettext("The form does not say which player acts; reload the page and try again."))
    if not 0 <= seat < len(state.setup.players):
        raise BadForm(gettext("There is no such seat at this table."))
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
    rows = [" ".join(form.get(f"name{i}", "").split()) for i in range(MAX_PLAYERS)]
    named = [i for i, n in enumerate(rows) if n]
    values = sent_switches(form, TienLenRules)
    leader_raw = form.get("leader", "")
    size_raw = form.get("hand_size", "13").strip() or "13"
    lowest_raw = (form.get("lowest") or str(THREE_OF_SPADES)).strip()[:4]

    names = [rows[i] for i in named]
    try:
        names = store.clean_names(names, least=MIN_PLAYERS, most=MAX_PLAYERS)
    except store.PlayerNamesError as exc:
        errors["names"] = say(exc)
    leader = -1
    leader_row = whole_number(leader_raw)
    if leader_row in named:
        leader = named.index(leader_row)
    else:
        errors["leader"] = gettext("Tap the player who holds 3♠: they lead the first hand.")
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


@bp.route("/g/<token>")
def table(token: str) -> Response:
    return GAME.page(token)  # picker.js carries cards being tapped across a poll


def _decide(do: Callable[[Game], Action]) -> Decide:
    """Judge an action on the table this phone saw; the record becomes the event."""

    def decide(access: Access) -> tuple[str, dict[str, Any]]:
        payload = do(live_state(access)).to_dict()
        return str(payload["action"]), payload

    return decide


def _typed_cards() -> dict[str, str]:
    return {"cards": request.form.get("cards", "")[:200]}


@bp.route("/g/<token>/play", methods=["POST"])
def play(token: str) -> Response:
    cards = _typed_cards()
    return GAME.write(token, _decide(lambda state: state.play(_seat(request.form, state), cards["cards"])),
                      typed=cards, at="cards")


@bp.route("/g/<token>/pass", methods=["POST"])
def pass_(token: str) -> Response:
    return GAME.write(token, _decide(lambda state: state.pass_(_seat(request.form, state))), typed=_typed_cards())


@bp.route("/g/<token>/next", methods=["POST"])
def next_hand(token: str) -> Response:
    return GAME.write(token, _decide(lambda state: state.next_hand()))


@bp.route("/g/<token>/instant", methods=["POST"])
def instant_win(token: str) -> Response:
    def declare(state: Game) -> Action:
        seat = _seat(request.form, state)
        try:
            kind = InstantWinKind(request.form.get("kind", ""))
        except ValueError:
            raise BadForm(gettext("Choose which instant win is declared.")) from None
        return state.declare_instant_win(seat, kind)

    return GAME.write(token, _decide(declare), typed={"seat": request.form.get("seat", "")[:4]})


@bp.route("/g/<token>/undo", methods=["POST"])
def undo(token: str) -> Response:
    return GAME.undo(token, typed=_typed_cards())
