"""Tiến lên's answers that the phone gives too, without Flask: the check screen's verdict and
a followed table's next move (see :mod:`referee.web.checks`).

The server's views (:mod:`.check`, :mod:`.table`) call these functions and render their
fragments; the phone's engine calls them through the game's registry entry
(:data:`PHONE_SCREENS` is read by ``__init__``), with the same forms and the same templates.
The table page carries its game (the setup and the effective records, ``data-local-game``), so
the phone can replay it, apply the moves still waiting on the phone to be sent (offline), and
judge the next play or pass exactly as the server would.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.cards import Card, NotationError, TooManyCopiesError, format_cards
from referee.errors import RefereeError
from referee.switches import rules_from_mapping
from referee.tienlen import (
    INSTANT_WIN_NAMES,
    THREE_OF_SPADES,
    Combination,
    Game,
    InstantWinAction,
    InstantWinKind,
    Kind,
    NextHandAction,
    NotACombinationError,
    PassAction,
    PlayAction,
    Setup,
    TienLenRules,
    Verdict,
    action_from_dict,
    check,
    is_bomb,
    lowest_cards,
    replay_game,
    table_combination,
)
from referee.web.checks import Answer, NotThisMove, Said, read_cards
from referee.web.house_rules import kept_rules, sent_switches
from referee.web.numbers import whole_number
from referee.web.words import gettext, rank_plural, say

#: Every card that can be the lowest dealt at some table (two players: up to the 9♦).
LOWEST_CHOICES: list[str] = [str(c) for c in lowest_cards(2)]


def combo_name(combo: Combination) -> str:
    """The combination's name in the reader's language (English: ``Combination.name``)."""
    kind = combo.kind
    if kind is Kind.SINGLE:
        return gettext("single %(rank)s", rank=combo.rank.symbol)
    if kind is Kind.PAIR:
        return gettext("pair of %(ranks)s", ranks=rank_plural(combo.rank))
    if kind is Kind.TRIPLE:
        return gettext("three %(ranks)s", ranks=rank_plural(combo.rank))
    if kind is Kind.FOUR_OF_A_KIND:
        return gettext("four %(ranks)s", ranks=rank_plural(combo.rank))
    if kind is Kind.SEQUENCE:
        return gettext("sequence of %(count)s cards", count=combo.length)
    return gettext("double sequence of %(count)s pairs", count=combo.pairs)


def lowest_from_form(text: str, errors: dict[str, str]) -> Card:
    """The lowest card dealt the check screen names (the 3♠ when it names none)."""
    if not text:
        return THREE_OF_SPADES
    try:
        card = Card.parse(text)
    except NotationError:
        card = None
    if card is None or str(card) not in LOWEST_CHOICES:
        errors["lowest"] = gettext("Choose the lowest card dealt from the list.")
        return THREE_OF_SPADES
    return card


def check_screen(form: Mapping[str, Any], remembered: Mapping[str, Any], *, oob: bool) -> Answer:
    """The check screen's verdict box (``oob``: field errors travel along for htmx);
    ``remembered`` is the house rules this phone kept.  A form sent while its cards are still
    being tapped in (``live=1``, app.js) answers a table that is no combination yet with its
    sentence and a 200: it is unfinished, not refused (an explicit Check, and the API, say 400)."""
    table_text = (form.get("table") or "").strip()
    play_text = (form.get("play") or "").strip()
    first_play = (form.get("first_play") or "").lower() in ("on", "1", "true", "yes")
    lowest_text = (form.get("lowest") or "").strip()[:4]
    errors: dict[str, str] = {}
    lowest = lowest_from_form(lowest_text, errors)

    sent = sent_switches(form, TienLenRules)
    rules = kept_rules(TienLenRules, remembered)
    save_rules: dict[str, Any] | None = None
    if sent:
        try:
            rules = rules_from_mapping(TienLenRules, {**rules.to_dict(), **sent})
            save_rules = rules.to_dict()
        except RefereeError as exc:
            errors["rules"] = say(exc)

    verdict: Verdict | None = None
    table_cards = read_cards("table", table_text, errors)
    play_cards = read_cards("play", play_text, errors)
    if table_cards and "table" not in errors:
        try:
            table_combination(table_cards, rules)
        except NotACombinationError as exc:
            errors["table"] = say(exc)
    if first_play and table_cards and "table" not in errors:
        errors["first_play"] = gettext(
            "The first play of the game is made on an empty table: clear the table or untick this box."
        )
    if play_cards and not errors:
        try:
            verdict = check(play_cards, table_cards, rules, first_play=first_play, opening_card=lowest)
        except TooManyCopiesError as exc:  # a card both on the table and in the play
            errors["play"] = say(exc)

    return Answer(
        "tienlen/_verdict.html",
        {"table": table_text, "play": play_text, "first_play": first_play, "lowest": str(lowest),
         "lowest_choices": LOWEST_CHOICES, "verdict": verdict, "errors": errors, "values": rules.to_dict(),
         "combo_name": combo_name, "say": say, "oob": oob},
        status=400 if errors and form.get("live") != "1" else 200,
        remember=save_rules,
    )


# --------------------------------------------------------------------------- the followed table


def is_bomb_play(action: PlayAction) -> bool:
    """A play that is a bomb (four of a kind, a double sequence), led or not: the library's judgement."""
    return action.bomb or is_bomb(action.cards)


def describe(action: Any, names: tuple[str, ...]) -> str:
    """One log line, in the reader's language: "Bao played 7♠ 8♠ 9♠"."""
    if isinstance(action, dict):
        action = action_from_dict(action)
    if isinstance(action, PlayAction):
        line = gettext("%(player)s played %(cards)s", player=names[action.seat], cards=format_cards(action.cards))
        if is_bomb_play(action):
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
    """The dealt hand's name, as the library words it, in the reader's language."""
    return say(INSTANT_WIN_NAMES[kind])


def _move(state: Game, action: str, form: Mapping[str, Any]) -> Any:
    seat = whole_number(str(form.get("seat", "")))
    if seat is None or not 0 <= seat < len(state.setup.players):
        raise NotThisMove(f"seat {form.get('seat')!r}")
    if action == "play":
        return state.play(seat, str(form.get("cards", ""))[:200])
    if action == "pass":
        return state.pass_(seat)
    raise NotThisMove(action)


def table_move(game: Mapping[str, Any], pending: Sequence[Mapping[str, Any]], action: str,
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


# --------------------------------------------------------------------------- on the phone


def phone_check(form: Mapping[str, Any], remembered: Mapping[str, Any], setup: Mapping[str, Any] | None) -> Answer:
    return check_screen(form, remembered, oob=True)


def phone_table(form: Mapping[str, Any], remembered: Mapping[str, Any], setup: Mapping[str, Any] | None) -> Answer:
    assert setup is not None
    return table_move(setup["game"], setup.get("pending", []), str(setup["action"]), form)
