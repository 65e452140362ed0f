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
from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint, Response, abort, redirect, request, url_for
from flask_babel import gettext

from referee.cards import NotationError, TooManyCopiesError, format_cards
from referee.tienlen import (
    Action,
    ActionError,
    Game,
    InstantWinAction,
    InstantWinKind,
    NextHandAction,
    PassAction,
    PlayAction,
    Setup,
    SwitchError,
    TienLenRules,
    action_from_dict,
    replay_game,
)
from referee.web import store
from referee.web.guard import whole_number
from referee.web.sharing import qr_svg, share_links
from referee.web.store import Access, StaleGame, UndoNothing
from referee.web.tables import (
    open_game,
    poll_unchanged,
    remember_rules,
    remembered_rules,
    require_keeper,
    seen_version,
    switches_from_form,
)
from referee.web.tienlen import combo_name, switch_specs
from referee.web.views import is_htmx, render_page, say

bp = Blueprint("tienlen_table", __name__, url_prefix="/tienlen")

KIND = "tienlen"
MIN_PLAYERS, MAX_PLAYERS = 2, 4
SWITCH_IDS: list[str] = list(TienLenRules.__dataclass_fields__)


# ---------------------------------------------------------------------------
# State: replay of the event log
# ---------------------------------------------------------------------------


def game_setup(access: Access) -> Setup:
    return Setup.from_dict(access.game.setup)


def live_state(access: Access) -> Game:
    """The game as the library sees it: the effective events replayed."""
    payloads = [e.payload for e in store.live_events(access.game)]
    return replay_game(game_setup(access), payloads)


def describe(action: Any, names: tuple[str, ...]) -> str:
    """One log line, in the reader's language: "Bao played 7♠ 8♠ 9♠"."""
    if isinstance(action, dict):
        action = action_from_dict(action)
    if isinstance(action, PlayAction):
        line = gettext("%(player)s played %(cards)s", player=names[action.seat], cards=format_cards(action.cards))
        if action.bomb:
            line += " · " + gettext("bomb")
        if action.went_out:
            line += " · " + gettext("out of cards")
        return line
    if isinstance(action, PassAction):
        line = gettext("%(player)s passed", player=names[action.seat])
        if action.cleared:
            line += " · " + gettext("table cleared")
        return line
    if isinstance(action, InstantWinAction):
        return gettext("%(player)s declared an instant win: %(kind)s", player=names[action.seat],
                       kind=instant_label(action.kind))
    if isinstance(action, NextHandAction):
        return gettext("Next hand, led by %(player)s", player=names[action.leader])
    return str(action)


def instant_label(kind: InstantWinKind) -> str:
    return {
        InstantWinKind.FOUR_TWOS: gettext("four 2s"),
        InstantWinKind.DRAGON: gettext("a dragon (3 to A)"),
        InstantWinKind.SIX_PAIRS: gettext("six pairs"),
    }[kind]


@dataclass
class Feedback:
    """What to tell the phone besides the state: a refusal, a stale notice, what it typed."""

    error: str | None = None
    in_picker: bool = False
    stale: bool = False
    cards: str = ""
    instant_seat: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


def render_table(access: Access, feedback: Feedback | None = None, status: int = 200) -> Response:
    feedback = feedback or Feedback()
    state = live_state(access)
    hand = state.hand
    names = state.setup.players
    last_event = (store.live_events(access.game) or [None])[-1]
    undo_label = describe(last_event.payload, names) if last_event is not None else None
    rules = state.setup.rules
    response = render_page(
        "tienlen/table.html",
        "tienlen/table_fragment.html",
        status=status,
        access=access,
        game=access.game,
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
        token=request.view_args["token"],  # type: ignore[index]
        kind_label=combo_name,
        instant_label=instant_label,
        can_pass=hand.turn is not None and hand.can_pass(hand.turn),
        undo_label=undo_label,
        feedback=feedback,
        links=share_links(access, "tienlen_table.table"),
        qr=qr_svg,
        instant_kinds=[(k.value, instant_label(k)) for k in InstantWinKind],
        can_declare=(rules.instant_wins and not hand.log and not hand.over),
    )
    response.headers["Cache-Control"] = "no-store"
    return response


def _table_bomb(hand: Any) -> bool:
    """Whether the combination on the table went down as a bomb."""
    if hand.table is None:
        return False
    last = next((a for a in reversed(hand.log) if isinstance(a, PlayAction)), None)
    return bool(last and last.bomb)


def after_write(access: Access) -> Response:
    """A write that stood: the fragment for htmx, a 303 to the table otherwise."""
    if is_htmx():
        return render_table(access)
    return redirect(url_for("tienlen_table.table", token=request.view_args["token"]), 303)  # type: ignore[index]


def stale(access: Access, feedback: Feedback) -> Response:
    feedback.stale = True
    return render_table(access, feedback, status=409)


def refused(access: Access, feedback: Feedback) -> Response:
    return render_table(access, feedback, status=422)


def _seat(form: Any, state: Game) -> int:
    seat = whole_number(form.get("seat", ""))
    if seat is None:
        abort(400, gettext("The form does not say which player acts; reload the page and try again."))
    if not 0 <= seat < len(state.setup.players):
        abort(400, gettext("There is no such seat at this table."))
    return seat


def _write(access: Access, seen: int, feedback: Feedback, payload: dict[str, Any]) -> Response:
    try:
        store.append_event(access.game, seen, str(payload["action"]), payload)
    except StaleGame:
        return stale(access, feedback)
    return after_write(access)


# ---------------------------------------------------------------------------
# Creating a game
# ---------------------------------------------------------------------------


@bp.route("/new", methods=["GET", "POST"])
def new() -> Response:
    errors: dict[str, str] = {}
    if request.method == "GET":
        names = [""] * MAX_PLAYERS
        values = _form_rules(remembered_rules(KIND)).to_dict()
        return _new_form(names, values, leader="", hand_size="13", errors=errors)

    form = request.form
    rows = [" ".join(form.get(f"name{i}", "").split()) for i in range(MAX_PLAYERS)]
    named = [i for i, n in enumerate(rows) if n]
    values = switches_from_form(form, SWITCH_IDS)
    leader_raw = form.get("leader", "")
    size_raw = form.get("hand_size", "13").strip() or "13"

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
        rules = TienLenRules.from_dict(values)
    except SwitchError as exc:
        errors["rules"] = say(exc)
        rules = TienLenRules()
    hand_size = whole_number(size_raw) or 0
    top = 52 // max(len(names), MIN_PLAYERS)
    if not 1 <= hand_size <= top:
        errors["hand_size"] = gettext("Each player is dealt 1 to %(n)s cards.", n=top)

    if errors:
        return _new_form(rows, _form_rules(values).to_dict(), leader=leader_raw, hand_size=size_raw, errors=errors, status=422)
    setup = Setup(tuple(names), rules, leader=leader, opening=True, hand_size=hand_size)
    game = store.create_game(KIND, names, rules=rules.to_dict(), setup=setup.to_dict())
    target = url_for("tienlen_table.table", token=game.keeper_token)
    if is_htmx():
        response = Response(status=204)
        response.headers["HX-Redirect"] = target
    else:
        response = redirect(target, 303)  # type: ignore[assignment]
    return remember_rules(response, KIND, rules.to_dict())


def _form_rules(values: dict[str, Any]) -> TienLenRules:
    """Rules to show in the form: what was sent or remembered, or the defaults if that is damaged."""
    try:
        return TienLenRules.from_dict(values)
    except (SwitchError, ValueError, TypeError):
        return TienLenRules()


def _new_form(names: list[str], values: dict[str, Any], *, leader: str, hand_size: str,
              errors: dict[str, str], status: int = 200) -> Response:
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
    )


# ---------------------------------------------------------------------------
# The table and its actions
# ---------------------------------------------------------------------------


@bp.route("/g/<token>")
def table(token: str) -> Response:
    unchanged = poll_unchanged(token, KIND)  # most polls end here: one indexed lookup
    if unchanged is not None:
        return unchanged
    access = open_game(token, KIND)
    return render_table(access, Feedback())  # picker.js carries cards being tapped across a poll


def _act(token: str, feedback: Feedback, do: Callable[[Any], Action], *, in_picker: bool = False,
         keep_cards: bool = True) -> Response:
    """One keeper action: judged on the table this phone saw, written in one transaction.

    A stale phone gets the fresh table (409); a refused action changes nothing (422) and
    keeps what was typed; ``in_picker`` shows the refusal beside the card picker.
    """
    access = open_game(token, KIND)
    require_keeper(access)
    seen = seen_version()
    if seen != access.game.version:
        return stale(access, feedback)
    try:
        record = do(live_state(access))
    except ActionError as exc:
        feedback.error, feedback.in_picker = say(exc.reason), in_picker
        return refused(access, feedback)
    except (NotationError, TooManyCopiesError) as exc:
        feedback.error, feedback.in_picker = say(exc), in_picker
        return refused(access, feedback)
    if not keep_cards:
        feedback.cards = ""
    return _write(access, seen, feedback, record.to_dict())


def _typed_cards() -> str:
    return request.form.get("cards", "")[:200]


@bp.route("/g/<token>/play", methods=["POST"])
def play(token: str) -> Response:
    cards = _typed_cards()
    return _act(token, Feedback(cards=cards), lambda state: state.play(_seat(request.form, state), cards),
                in_picker=True)


@bp.route("/g/<token>/pass", methods=["POST"])
def pass_(token: str) -> Response:
    return _act(token, Feedback(cards=_typed_cards()), lambda state: state.pass_(_seat(request.form, state)),
                keep_cards=False)


@bp.route("/g/<token>/next", methods=["POST"])
def next_hand(token: str) -> Response:
    return _act(token, Feedback(), lambda state: state.next_hand())


@bp.route("/g/<token>/instant", methods=["POST"])
def instant_win(token: str) -> Response:
    def declare(state: Any) -> Action:
        seat = _seat(request.form, state)
        try:
            kind = InstantWinKind(request.form.get("kind", ""))
        except ValueError:
            abort(400, gettext("Choose which instant win is declared."))
        return state.declare_instant_win(seat, kind)

    return _act(token, Feedback(instant_seat=request.form.get("seat", "")), declare)


@bp.route("/g/<token>/undo", methods=["POST"])
def undo(token: str) -> Response:
    access = open_game(token, KIND)
    require_keeper(access)
    seen = seen_version()
    feedback = Feedback(cards=_typed_cards())
    if seen != access.game.version:  # stale first: "nothing to undo" may be news to this phone
        return stale(access, feedback)
    try:
        store.undo_last(access.game, seen)
    except StaleGame:
        return stale(access, feedback)
    except UndoNothing:
        feedback.error = gettext("There is nothing to undo.")
        return refused(access, feedback)
    return after_write(access)
