"""Trece's answers that the phone gives too, without Flask: the check screen's verdict and a
followed table's next move (see :mod:`referee.web.checks`).

The server's views (:mod:`.views`) call these functions and render their fragments; the
phone's engine calls them through the game's registry entry, with the same forms and the same
templates.  The server's table words its log with :func:`describe` and judges a move with
:func:`judge`, as the phone does.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.cards import AnyCard, Joker, NotationError, Suit, TooManyCopiesError, parse_card, parse_cards
from referee.errors import RefereeError, UnreadableInput
from referee.text import message
from referee.trece import (
    DemandError,
    Draw,
    EmptyPlayError,
    IllegalPlayError,
    LastCard,
    Play,
    Record,
    State,
    Thirteen,
    TreceRules,
    Verdict,
    check_play,
    replay,
)
from referee.web.checks import Answer, Said
from referee.web.house_rules import kept_rules, rules_from_form, sent_switches
from referee.web.words import gettext, say

JOKER_CODES = ("RJ", "BJ")


def card_parts(card: AnyCard | None) -> tuple[str, str]:
    """The rank and suit letter a one-card chooser shows checked for ``card``."""
    if card is None:
        return "", ""
    if isinstance(card, Joker):
        return str(card), ""
    return card.rank.symbol, card.suit.letter


def read_one_card(
    form: Mapping[str, Any], name: str, errors: dict[str, str], *, jokers: bool
) -> tuple[AnyCard | None, str, str]:
    """Read a one-card chooser (``<name>_rank`` + ``<name>_suit`` radios, or a ``<name>`` text).

    Returns the card (or ``None`` when not chosen yet) and the rank and suit to show checked.
    """
    text = (form.get(name) or "").strip()
    rank = (form.get(f"{name}_rank") or "").strip()
    suit = (form.get(f"{name}_suit") or "").strip()
    if text:
        try:
            card = parse_card(text)
        except NotationError as exc:
            errors[name] = say(exc)
            return None, "", ""
    elif not rank:
        return None, "", suit
    elif rank.upper() in JOKER_CODES:
        card = parse_card(rank)
    elif not suit:
        return None, rank, ""
    else:
        try:
            card = parse_card(rank + suit)
        except NotationError as exc:
            errors[name] = say(exc)
            return None, rank, suit
    if isinstance(card, Joker) and (not jokers or str(card) not in JOKER_CODES):
        errors[name] = gettext("%(card)s cannot be here: choose a card with a suit", card=str(card))
        return None, "", ""
    shown_rank, shown_suit = card_parts(card)
    return card, shown_rank, shown_suit or suit


@dataclass(frozen=True, slots=True, kw_only=True)
class VerdictView:
    """The verdict box of the check screen: legal or not and why, whether a joker made it
    legal, and the suit a joker on top now asks the other player for."""

    legal: bool
    reason: str
    joker: bool
    """A joker in the play made it legal."""
    demands: str | None
    """The suit's symbol the other player must now play, or ``None``."""
    demands_red: bool
    """That suit is red (the sentence is drawn in its colour)."""

    @classmethod
    def of(cls, verdict: Verdict) -> VerdictView:
        demands = verdict.demands_suit
        return cls(legal=verdict.legal, reason=say(verdict.reason), joker=verdict.joker,
                   demands=None if demands is None else demands.symbol,
                   demands_red=demands is not None and demands.is_red)


def check_screen(form: Mapping[str, Any], remembered: Mapping[str, Any], *, posted: bool) -> Answer:
    """The check screen's verdict box (``posted``: the form was sent, not opened by a link);
    ``remembered`` is the house rules this phone kept."""
    errors: dict[str, str] = {}
    top, top_rank, top_suit = read_one_card(form, "top", errors, jokers=True)
    play_text = form.get("play", "") or ""
    play: tuple[AnyCard, ...] = ()
    try:
        play = parse_cards(play_text)
    except NotationError as exc:
        errors["play"] = say(exc)
    demand_raw = (form.get("must_follow") or "").strip()
    must_follow: Suit | None = None
    if demand_raw and isinstance(top, Joker):
        try:
            must_follow = Suit.parse(demand_raw)
        except ValueError as exc:
            errors["must_follow"] = say(exc)

    if posted or sent_switches(form, TreceRules):
        rules = rules_from_form(form, TreceRules, errors)
    else:
        rules = kept_rules(TreceRules, remembered)

    verdict: VerdictView | None = None
    waiting: str | None = None
    if not errors:
        if top is None:
            waiting = gettext("Choose the top card of the pile.")
        elif isinstance(top, Joker) and must_follow is None:
            waiting = gettext("A joker on top demands a suit: choose it.")
        elif not play:
            waiting = gettext("Tap the cards of the play, in the order they were played.")
        else:
            try:
                verdict = VerdictView.of(check_play(top, play, must_follow, rules))
            except DemandError as exc:
                errors["must_follow"] = say(exc)
            except (TooManyCopiesError, EmptyPlayError) as exc:
                errors["play"] = say(exc)

    return Answer(
        "trece/_check_result.html",
        {"top_rank": top_rank, "top_suit": top_suit, "play": play_text, "must_follow": demand_raw,
         "errors": errors, "verdict": verdict, "waiting": waiting, "rules": rules.to_dict()},
        status=400 if errors else 200,
        remember=rules.to_dict() if posted and "rules" not in errors else None,
    )


# --------------------------------------------------------------------------- the followed table


def describe(record: Record, state: State) -> str:
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


def judge(state: State, form: Mapping[str, Any]) -> Record:
    """The action the form asks for, done on ``state`` (its record), or why not."""
    action = form.get("action", "")
    if action == "play":
        try:
            cards = parse_cards(form.get("cards", ""))
        except NotationError as exc:
            raise exc.about("cards") from None
        if not cards:
            raise RefereeError(message("Tap the cards played, in order, then Play."), field="cards")
        try:
            return state.play(None, cards)
        except IllegalPlayError as exc:
            raise exc.about("play") from None
        except (TooManyCopiesError, EmptyPlayError) as exc:
            raise exc.about("cards") from None
    if action == "draw":
        return state.draw()
    if action in ("last_card", "thirteen"):
        player = form.get("player", "")
        if player not in ("0", "1"):
            raise UnreadableInput(message("Say which player calls."), field="player")
        return state.call_last_card(int(player)) if action == "last_card" else state.call_thirteen(int(player))
    raise UnreadableInput(message("Unknown action: play, draw, last card or thirteen."), field="action")


def table_move(game: Mapping[str, Any], pending: Sequence[Mapping[str, Any]], form: Mapping[str, Any]) -> Answer:
    """Judge the move ``form`` asks for on the table ``game`` after the ``pending`` moves:
    the lines beside Play (``trece/_dock.html``), 422 for a refusal as the server answers."""
    state = replay(game["setup"], list(game["records"]))
    for waiting in pending:
        judge(state, waiting["form"])
    context: dict[str, Any] = {"state": state, "log": [],
                               "demand_red": state.demand is not None and state.demand.is_red}
    try:
        record = judge(state, form)
    except RefereeError as exc:
        context.update(feedback=Said(error=say(exc.said), at=exc.field), turn=None)
        return Answer("trece/_dock.html", context, status=exc.status)
    context.update(feedback=Said(), log=[describe(record, state)], turn=None,
                   demand_red=state.demand is not None and state.demand.is_red)
    return Answer("trece/_dock.html", context)


# --------------------------------------------------------------------------- on the phone


def phone_check(form: Mapping[str, Any], remembered: Mapping[str, Any], setup: Mapping[str, Any] | None) -> Answer:
    return check_screen(form, remembered, posted=True)


def phone_table(form: Mapping[str, Any], remembered: Mapping[str, Any], setup: Mapping[str, Any] | None) -> Answer:
    assert setup is not None
    return table_move(setup["game"], setup.get("pending", []), form)
