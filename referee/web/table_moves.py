"""A followed table's next move (Tiến lên, Trece), judged without Flask: on the server and on the phone.

The table page carries its game (the setup and the effective records, ``data-local-game``), so
the phone's engine (:mod:`referee.web.phone`) can replay it, apply the moves still waiting on
the phone to be sent (offline), and judge the next play or pass exactly as the server would:
the refusal in the rule's words, or the line the server's table shows after the move ("Bao
played 7♠ 8♠ 9♠") and whose turn it is, drawn by the same template (``tienlen/_dock.html``).
The server's tables word their logs with :func:`describe` and :func:`trece_describe`, and
Trece's moves are judged by :func:`trece_judge` on both sides.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.cards import NotationError, TooManyCopiesError, format_cards, parse_cards
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
from referee.trece import Draw, EmptyPlayError, IllegalPlayError, LastCard, Play, Thirteen
from referee.trece import Record as TreceRecord
from referee.trece import State as TreceState
from referee.trece import replay as trece_replay
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


# --------------------------------------------------------------------------- Trece


def trece_describe(record: TreceRecord, state: TreceState) -> str:
    """One line of the move log, naming who did what."""
    names = state.players
    who = names[record.player]
    if isinstance(record, Play):
        text = gettext("%(name)s played %(cards)s", name=who, cards=" ".join(str(c) for c in record.cards))
        if record.demands_suit is not None:
            text += " — " + gettext("%(other)s must play a %(suit)s", other=names[1 - record.player],
                                   suit=record.demands_suit.symbol)
        if record.won:
            text += " — " + gettext("%(name)s is out and wins", name=who)
        return text
    if isinstance(record, Draw):
        if record.penalty:
            text = gettext("%(name)s could not follow the joker and picked up %(count)s", name=who,
                           count=record.count)
        elif record.count == 1:
            text = gettext("%(name)s drew a card", name=who)
        else:
            text = gettext("%(name)s drew %(count)s", name=who, count=record.count)
        if record.returned:
            text += " — " + gettext("the pile became the new stock")
        return text
    if isinstance(record, LastCard):
        return gettext("%(name)s said “last card”", name=who)
    if isinstance(record, Thirteen):
        text = gettext("%(name)s said “thirteen”: %(other)s had not said “last card” and picked up %(count)s",
                       name=who, other=names[record.target], count=record.count)
        if record.returned:
            text += " — " + gettext("the pile became the new stock")
        return text
    return str(record)  # pragma: no cover


class MoveRefused(Exception):
    """A move the rules refuse: ``reason`` (a library error or a sentence), shown ``at`` a field."""

    def __init__(self, reason: Any, at: str | None) -> None:
        super().__init__(str(reason))
        self.reason = reason
        self.at = at


class MoveUnreadable(ValueError):
    """A form that cannot be read (the server answers 400)."""


def trece_judge(state: TreceState, form: Mapping[str, Any]) -> TreceRecord:
    """The Trece action the form asks for, done on ``state`` (its record), or why not."""
    action = form.get("action", "")
    if action == "play":
        try:
            cards = parse_cards(form.get("cards", ""))
        except NotationError as exc:
            raise MoveRefused(exc, "cards") from None
        if not cards:
            raise MoveRefused(gettext("Tap the cards played, in order, then Play."), "cards")
        try:
            return state.play(cards)
        except IllegalPlayError as exc:
            raise MoveRefused(exc, "play") from None
        except (TooManyCopiesError, EmptyPlayError) as exc:
            raise MoveRefused(exc, "cards") from None
    if action == "draw":
        return state.draw()
    if action in ("last_card", "thirteen"):
        player = form.get("player", "")
        if player not in ("0", "1"):
            raise MoveUnreadable(gettext("Say which player calls."))
        return state.call_last_card(int(player)) if action == "last_card" else state.call_thirteen(int(player))
    raise MoveUnreadable(gettext("Unknown action: play, draw, last card or thirteen."))


def trece_move(game: Mapping[str, Any], pending: Sequence[Mapping[str, Any]], form: Mapping[str, Any]) -> Answer:
    """Judge the Trece move ``form`` asks for on the table ``game`` after the ``pending`` moves:
    the lines beside Play (``trece/_dock.html``), 422 for a refusal as the server answers."""
    state = trece_replay(game["setup"], list(game["records"]))
    for waiting in pending:
        trece_judge(state, waiting["form"])
    context: dict[str, Any] = {"state": state, "log": [],
                               "demand_red": state.demand is not None and state.demand.is_red}
    try:
        record = trece_judge(state, form)
    except MoveRefused as exc:
        context.update(feedback=Said(error=say(exc.reason), at=exc.at), turn=None)
        return Answer("trece/_dock.html", context, status=422)
    except RefereeError as exc:
        context.update(feedback=Said(error=say(exc)), turn=None)
        return Answer("trece/_dock.html", context, status=422)
    context.update(feedback=Said(), log=[trece_describe(record, state)], turn=None,
                   demand_red=state.demand is not None and state.demand.is_red)
    return Answer("trece/_dock.html", context)


# --------------------------------------------------------------------------- the dock


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
