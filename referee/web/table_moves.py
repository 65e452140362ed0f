"""A followed Tiến lên table's next move, judged without Flask: on the server and on the phone.

The table page carries its game (the setup and the effective records, ``data-local-game``), so
the phone's engine (:mod:`referee.web.phone`) can replay it, apply the moves still waiting on
the phone to be sent (offline), and judge the next play or pass exactly as the server would:
the refusal in the rule's words, or the line the server's table shows after the move ("Bao
played 7♠ 8♠ 9♠") and whose turn it is, drawn by the same template (``tienlen/_dock.html``).
The server's table (:mod:`referee.web.tienlen_table`) words its log with :func:`describe`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.cards import format_cards
from referee.errors import RefereeError
from referee.tienlen import (
    Game,
    InstantWinAction,
    InstantWinKind,
    NextHandAction,
    PassAction,
    PlayAction,
    Setup,
    action_from_dict,
    replay_game,
)
from referee.web.checks import Answer
from referee.web.numbers import whole_number
from referee.web.words import gettext, say


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
class Said:
    """The part of the server's feedback the dock shows (see referee.web.tables.Feedback)."""

    error: str | None = None
    at: str | None = None
    stale: bool = False
    notice: str | None = None


class NotThisMove(ValueError):
    """A move the phone does not judge (an unknown action or seat): the server answers it."""


def _move(state: Game, action: str, form: Mapping[str, Any]) -> Any:
    seat = whole_number(str(form.get("seat", "")))
    if seat is None or not 0 <= seat < len(state.setup.players):
        raise NotThisMove(f"seat {form.get('seat')!r}")
    if action == "play":
        return state.play(seat, str(form.get("cards", ""))[:200])
    if action == "pass":
        return state.pass_(seat)
    raise NotThisMove(action)


def tienlen_move(game: Mapping[str, Any], pending: Sequence[Mapping[str, Any]], action: str,
                 form: Mapping[str, Any]) -> Answer:
    """Judge ``action`` ("play" or "pass", with the form's ``seat`` and ``cards``) on the table
    ``game`` (its ``setup`` and ``records``) after the ``pending`` moves (each ``action`` and
    ``form``) waiting on this phone.  The answer is the dock's lines, status 422 for a refusal
    (as the server answers), and ``turn``: the seat that plays next (``None``: the hand is over)."""
    state = replay_game(Setup.from_dict(game["setup"]), list(game["records"]))
    for waiting in pending:
        _move(state, str(waiting["action"]), waiting["form"])
    names = state.setup.players
    try:
        done = _move(state, action, form)
    except RefereeError as exc:
        said = Said(error=say(exc), at="cards" if action == "play" else None)
        return Answer("tienlen/_dock.html", {"feedback": said, "hand_log": [], "names": names, "hand": state.hand,
                                             "turn": state.hand.turn}, status=422)
    hand = state.hand
    return Answer("tienlen/_dock.html", {"feedback": Said(), "hand_log": [describe(done, names)], "names": names,
                                         "hand": hand, "turn": hand.turn})
