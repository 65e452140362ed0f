"""Three Thirteen's answers that the phone gives too, without Flask: the score page's split of
a hand and a round's live count and split (see :mod:`referee.web.checks`).

The server's views (:mod:`.views`, :mod:`.sheet`) call these functions and render their
fragments; the phone's engine calls them through the game's registry entry, with the same forms
and the same templates.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from referee.cards import AnyCard, NotationError, Rank, TooManyCopiesError, parse_cards
from referee.errors import RefereeError
from referee.switches import rules_from_mapping, rules_to_dict
from referee.three_thirteen import (
    Face,
    HandSizeError,
    Schedule,
    Split,
    ThreeThirteenRules,
    best_split,
    decks_for,
    split_hand,
)
from referee.three_thirteen_sheet import RoundVerdict, SeatVerdict
from referee.three_thirteen_sheet import judge_round as rules_judge_round
from referee.three_thirteen_sheet import preview_hand as rules_preview_hand
from referee.web.checks import Answer, all_values
from referee.web.house_rules import sent_switches
from referee.web.numbers import MAX_PLAYERS, whole_number
from referee.web.words import say

SCORE_SWITCHES = ["faces", "aces", "jokers", "longer_game"]
"""The switches the score page asks for (the others change the schedule or the sheet only)."""


def rules_of(raw: Mapping[str, Any] | None) -> ThreeThirteenRules:
    return rules_from_mapping(ThreeThirteenRules, dict(raw or {}))


def stored_rules(rules: ThreeThirteenRules) -> dict[str, Any]:
    return rules_to_dict(rules)


def form_values(rules: ThreeThirteenRules) -> dict[str, Any]:
    values = stored_rules(rules)
    values["decks"] = "" if rules.decks is None else str(rules.decks)
    return values


def rules_from_form(form: Any, ids: Sequence[str] | None = None) -> ThreeThirteenRules:
    values = sent_switches(form, ThreeThirteenRules, ids)
    if values.get("decks") in ("", None):
        values.pop("decks", None)
    return rules_of(values)


@dataclass(frozen=True, slots=True, kw_only=True)
class CardView:
    """A card as a split shows it: its text and colour, and for a wild card the card it
    stands for (``None`` for a card that is just itself)."""

    text: str
    red: bool
    stands_for: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class MeldView:
    """One meld of a split: a set or a run, and its cards in order."""

    kind: str
    """``"set"`` or ``"run"``."""
    cards: tuple[CardView, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class SplitView:
    """A hand split as the pages draw it: the melds, the cards left over, what they count."""

    melds: tuple[MeldView, ...]
    leftover: tuple[CardView, ...]
    points: int
    """What the cards left over count."""
    score: int
    """What the hand scores in this round: doubled in a doubled round, plus a false out's penalty."""
    out: bool
    """Every card fits (the hand can go out)."""
    penalty: int = 0
    """The points added for claiming to go out with a hand that could not."""
    reason: str | None = None
    """Why the claim to go out was false."""


def card_view(card: AnyCard, stands_for: Face | None = None) -> CardView:
    return CardView(text=str(card), red=card.is_red, stands_for=str(stands_for) if stands_for is not None else None)


def split_view(split: Split, factor: int = 1) -> SplitView:
    """A split ready for a template: melds as card groups, wild cards with what they stand for."""
    melds = tuple(
        MeldView(kind=meld.kind,
                 cards=tuple(card_view(c, f if c != f else None) for c, f in zip(meld.cards, meld.faces, strict=True)))
        for meld in split.melds
    )
    return SplitView(melds=melds, leftover=tuple(card_view(c) for c in split.leftover), points=split.points,
                     score=split.points * factor, out=split.is_out)


def seat_split(seat: SeatVerdict, factor: int) -> SplitView | None:
    """A judged seat's split as the pages draw it (with a false out's penalty and why)."""
    if seat.split is None:
        return None
    view = split_view(seat.split, factor)
    if seat.penalty:
        score = seat.score if seat.score is not None else view.score + seat.penalty  # the library gives it beside a penalty
        view = replace(view, penalty=seat.penalty, score=score, reason=say(seat.reason) if seat.reason else None)
    return view


def _bounded(raw: str | None, default: int, low: int, high: int) -> int:
    value = whole_number(raw or str(default))
    return default if value is None else min(max(value, low), high)


def score_screen(args: Mapping[str, Any]) -> Answer:
    """The score page's split of one hand (the fragment under the form)."""
    ctx: dict[str, Any] = {"error": None, "result": None}
    try:
        rules = rules_from_form(args, SCORE_SWITCHES)
    except RefereeError as exc:
        rules = ThreeThirteenRules()
        ctx["error"] = say(exc)
    schedule = Schedule(rules)
    round_number = _bounded(args.get("round"), 4, 1, schedule.rounds)
    players = _bounded(args.get("players"), 4, 2, MAX_PLAYERS)
    wild_text = args.get("wild", "")
    hand_text = args.get("hand", "")
    decks = decks_for(players, rules)
    ctx.update(
        values=form_values(rules), rounds=[Schedule(rules).wild_rank(n) for n in range(1, schedule.rounds + 1)],
        deals=schedule.deals, round_number=round_number, players=players, wild_text=wild_text, hand=hand_text,
        decks=decks, jokers=("JK",) if rules.jokers else (), ranks=list(Rank),
    )
    wild = Rank.parse(wild_text) if wild_text in {r.symbol for r in Rank} else schedule.wild_rank(round_number)
    ctx["wild"] = wild
    if hand_text.strip() and not ctx["error"]:
        try:
            cards = parse_cards(hand_text)
            if wild_text:
                split = best_split(cards, wild, rules, decks=decks)
            else:
                split = split_hand(cards, round_number, rules, decks=decks)
            factor = 2 if not wild_text and schedule.is_doubled(round_number) else 1
            ctx["result"] = split_view(split, factor)
        except HandSizeError as exc:
            ctx["error"] = say(exc)
            ctx["count"] = len(exc.hand)
        except (NotationError, TooManyCopiesError) as exc:
            ctx["error"] = say(exc)
    return Answer("three_thirteen/_score_result.html", ctx)


@dataclass(frozen=True, slots=True, kw_only=True)
class LiveSplit:
    """A hand while it is being tapped in: how many cards of the round's deal are in, and
    the split once they all are (or what is wrong with them)."""

    dealt: int
    """The cards the round deals each player."""
    count: int
    """The cards tapped in so far."""
    split: SplitView | None = None
    error: str | None = None
    warning: str | None = None
    """Said above the split: these cards claim to go out but do not all fit (a false out)."""


def preview_hand(
    rules: ThreeThirteenRules, players: int, round_number: int, text: str, *, out: bool
) -> LiveSplit:
    """The split of one hand while it is being tapped in (or why there is none yet)."""
    preview = rules_preview_hand(rules, players, round_number, text, out=out)
    return LiveSplit(
        dealt=preview.dealt, count=preview.count,
        split=split_view(preview.split, preview.factor) if preview.split is not None else None,
        error=say(preview.problem) if preview.problem is not None else None,
        warning=say(preview.warning) if preview.warning is not None else None,
    )


def preview_screen(setup: Mapping[str, Any], seat: int, form: Mapping[str, Any]) -> Answer:
    """The round entry's live count and split of one hand; ``setup`` is the sheet's ``rules``,
    ``players`` and round ``number`` (the round page carries them for the phone)."""
    text = str(form.get(f"cards_{seat}", ""))[:400]
    out = str(seat) in all_values(form, "out")
    result = preview_hand(rules_of(setup["rules"]), int(setup["players"]), int(setup["number"]), text, out=out)
    return Answer("three_thirteen/_preview.html", {"p": result, "seat": seat})


@dataclass(frozen=True, slots=True, kw_only=True)
class JudgedHand:
    """One hand of a round judged whole, as ``_round_judged.html`` draws it."""

    seat: int
    name: str
    points: int | None
    out: bool
    split: SplitView | None
    """The hand's split (:func:`seat_split`), or ``None`` for typed points."""
    typed: bool
    """The points were typed, not the cards."""
    error: str | None


def round_screen(setup: Mapping[str, Any], form: Mapping[str, Any]) -> Answer:
    """A round's entry judged whole, as Save would have it judged: each hand's split and points
    (shown at once when the round is saved offline and waits on the phone to be sent);
    ``setup`` is the sheet's ``rules``, ``players``, ``names`` and round ``number``."""
    players, number = int(setup["players"]), int(setup["number"])
    out = {seat for seat in (whole_number(raw, high=players - 1) for raw in all_values(form, "out")) if seat is not None}
    cards = [str(form.get(f"cards_{i}", ""))[:400] for i in range(players)]
    points = [str(form.get(f"points_{i}", ""))[:10] for i in range(players)]
    verdict: RoundVerdict = rules_judge_round(rules_of(setup["rules"]), players, number, cards, points, out)
    hands = [JudgedHand(seat=s.seat, name=str(setup["names"][s.seat]), points=s.score, out=s.seat in verdict.out,
                        split=seat_split(s, verdict.factor), typed=s.hand is None,
                        error=say(s.problem) if s.problem is not None else None) for s in verdict.seats]
    return Answer("three_thirteen/_round_judged.html",
                  {"hands": hands, "number": number, "ok": verdict.ok,
                   "problem": say(verdict.problem) if verdict.problem is not None else None})


# --------------------------------------------------------------------------- on the phone


def phone_score(form: Mapping[str, Any], remembered: Mapping[str, Any], setup: Mapping[str, Any] | None) -> Answer:
    return score_screen(form)


def phone_preview(form: Mapping[str, Any], remembered: Mapping[str, Any], setup: Mapping[str, Any] | None) -> Answer:
    assert setup is not None
    return preview_screen(setup, int(setup["seat"]), form)


def phone_round(form: Mapping[str, Any], remembered: Mapping[str, Any], setup: Mapping[str, Any] | None) -> Answer:
    assert setup is not None
    return round_screen(setup, form)
