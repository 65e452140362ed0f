"""What a Trece table's page shows and how its new-table form is read, with no Flask: the
server's views (:mod:`referee.web.games.trece.views`, :mod:`referee.web.games.trece.money`) and
the phone drawing a table started offline (:mod:`referee.web.phone_pages`) both go through these.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from referee import evening_money, stats
from referee.cards import Card
from referee.text import message
from referee.trece import Setup, SetupError, State, TreceRules, replay
from referee.web.evening_ends import EVENT_KINDS, EndView, end_from, end_view, undo_label
from referee.web.events import effective_events, records_of
from referee.web.games.trece.answers import describe, read_one_card
from referee.web.players import read_players
from referee.web.words import gettext, say

KIND = "trece"
"""The store's name for a Trece table."""
ENDS = ("target", "games")
"""The end switches a Trece table takes."""
NO_UNTIL = message("A Trece table ends by its games or by the games a player won, not by the clock.")
"""The refusal of an ``until`` end (RULES.md: a Trece table takes ``games`` and ``target``)."""


def read_setup(form: Mapping[str, str], rules: TreceRules, errors: dict[str, str]) -> Setup | None:
    """The table's setup from its new-table form (the house rules read already)."""
    players = read_players(form, least=2, most=2, mark="dealer")
    if players.error:
        errors["names"] = players.error
    turned, _, _ = read_one_card(form, "turned", errors, jokers=False)
    if turned is None and "turned" not in errors:
        errors["turned"] = gettext("Choose the card turned face up to start the pile (rank and suit).")
    if errors or not isinstance(turned, Card):  # read with jokers=False: never a joker
        return None
    try:
        return Setup((players.names[0], players.names[1]), turned, dealer=1 if players.marked_row == 1 else 0,
                     rules=rules)
    except SetupError as exc:
        errors["names"] = say(exc)
        return None


def moves(events: Sequence[Any]) -> list[dict[str, Any]]:
    """The table's records still in force (the stake and the end are no move)."""
    return records_of(effective_events(events), leave=EVENT_KINDS)


def game_state(setup: Mapping[str, Any], events: Sequence[Any]) -> State:
    return replay(dict(setup), moves(events))


def last_move(events: Sequence[Any], state: State) -> str | None:
    """The latest move still in force, for the undo button (a stake or an end in their words)."""
    live = effective_events(events)
    if live and (label := undo_label(live[-1])) is not None:
        return label
    return describe(state.log[-1], state) if state.log else None


def table_context(state: State, setup: Mapping[str, Any], events: Sequence[Any], keeper: bool) -> dict[str, Any]:
    """What ``trece/_table.html`` shows besides what every followed page does and the money."""
    log = [describe(r, state) for r in state.log]
    live = effective_events(events)
    stake_undone = undo_label(live[-1]) if live else None
    return {
        "state": state, "info": state.to_dict(), "log": log, "undo_label": stake_undone or (log[-1] if log else None),
        "calls_last": [p for p in (0, 1) if state.can_call_last_card(p)],
        "calls_thirteen": [p for p in (0, 1) if state.can_call_thirteen(p)],
        "top_red": getattr(state.top, "is_red", False),
        "demand_red": state.demand is not None and state.demand.is_red,
        # The game as the phone's engine replays it to judge the next move by itself.
        "phone_game": {"setup": dict(setup), "records": moves(events)} if keeper else None,
    }


def evening_end(state: State, setup: Mapping[str, Any], events: Sequence[Any], *, start: datetime, action: str,
                version: int) -> EndView:
    """Where the table's evening stands against its end switches (games, target)."""
    end = end_from(effective_events(events), dict(setup))
    got = evening_money.end_progress(end, state.players, stats.trece_results(state), start=start)
    return end_view(end, state.players, [], [], start=start, action=action, version=version, switches=ENDS, got=got,
                    target_label=gettext("Target: ends when a player has won this many games"))
