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

from collections.abc import Callable, Mapping
from typing import Any

from flask import Blueprint, Response, request

from referee.switches import rules_from_mapping
from referee.tienlen import RECORDS as TIENLEN_RECORDS
from referee.tienlen import (
    THREE_OF_SPADES,
    Action,
    Game,
    SwitchError,
    TienLenRules,
)
from referee.web import store
from referee.web.games.tienlen import pages
from referee.web.games.tienlen.check import switch_specs
from referee.web.games.tienlen.pages import KIND as KIND  # the store's name for a table
from referee.web.games.tienlen.pages import (
    MAX_PLAYERS as MAX_PLAYERS,  # the new-table form's bounds, read by the registry
)
from referee.web.games.tienlen.pages import MIN_PLAYERS as MIN_PLAYERS
from referee.web.games.tienlen.pages import lowest_choices
from referee.web.models import Game as StoredGame
from referee.web.store import Access
from referee.web.tables import Action as TableAction
from referee.web.tables import (
    Decide,
    Done,
    Feedback,
    FollowedGame,
    remembered,
)
from referee.web.views import render_page

bp = Blueprint("tienlen_table", __name__, url_prefix="/tienlen")



# ---------------------------------------------------------------------------
# State: replay of the event log
# ---------------------------------------------------------------------------


def live_state(game: StoredGame) -> Game:
    """The game as the library sees it: the effective events replayed."""
    return pages.live_state(game.setup, store.history(game))


def last_move(access: Access, state: Game) -> str | None:
    """The latest move still in force, for the undo button."""
    return pages.last_move(store.history(access.game), state.setup.players)


def render_table(access: Access, state: Game, feedback: Feedback, status: int = 200) -> Response:
    return render_page("tienlen/table.html", "tienlen/table_fragment.html", status=status, **GAME.context(access),
                       feedback=feedback,
                       **pages.table_context(state, access.game.setup, store.history(access.game), access.can_write))


GAME: FollowedGame[Game] = FollowedGame(
    bp, kind=KIND, endpoint="tienlen_table.table", build=live_state, render=render_table, last_move=last_move,
    events=frozenset(TIENLEN_RECORDS.classes))


# ---------------------------------------------------------------------------
# Creating a game
# ---------------------------------------------------------------------------


@bp.route("/new", methods=["GET", "POST"])
def new() -> Response:
    if request.method == "GET":
        names = [""] * MAX_PLAYERS
        values = remembered(TienLenRules, KIND).to_dict()
        return _new_form(names, values, leader="", hand_size="13", errors={}, lowest=str(THREE_OF_SPADES))
    read = pages.read_new_table(request.form)
    if read.setup is None:
        return _new_form(read.rows, _form_rules(read.values).to_dict(), leader=read.leader_raw, hand_size=read.size_raw,
                         errors=read.errors, status=422, lowest=read.lowest_raw,
                         choices=lowest_choices(MIN_PLAYERS if "names" in read.errors else len(read.names),
                                                read.hand_size))
    return GAME.start(read.names, rules=read.rules.to_dict(), setup=read.setup.to_dict())


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


def _decide(do: Callable[[Game, Mapping[str, Any]], Action]) -> Decide[Game]:
    """Judge an action on the table this phone saw; the record becomes the event."""

    def decide(access: Access, state: Game) -> Done:
        return Done.of(do(state, request.form))

    return decide


# The table page (picker.js carries cards being tapped across a poll), its four actions, undo and redo.
GAME.routes({
    "play": TableAction(_decide(pages.play), typed=("cards",), at="cards"),
    "pass": TableAction(_decide(pages.pass_), typed=("cards",)),
    "next": TableAction(_decide(lambda state, form: state.next_hand())),
    "instant": TableAction(_decide(pages.declare), typed=("seat",)),
}, typed=("cards",))
