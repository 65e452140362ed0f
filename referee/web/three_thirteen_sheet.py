"""The Three Thirteen score sheet: judging a round's entry and replaying the log.

A round entry is one event (``round`` for a new round, ``correct`` to re-enter a
past one) whose payload holds what was typed for every seat and the points the
referee gave; the sheet is rebuilt by replaying the effective events, so undo and
corrections come for free and the totals never depend on a later solver change.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from flask_babel import gettext

from referee.cards import JOKER, AnyCard, Card, NotationError, TooManyCopiesError, check_copies, parse_cards
from referee.switches import rules_from_mapping, rules_to_dict
from referee.three_thirteen import (
    FALSE_OUT_PENALTY,
    ImpossibleHandError,
    Schedule,
    Split,
    ThreeThirteenRules,
    best_split,
    check_out,
    decks_for,
    go_out,
)
from referee.web.i18n import rank_plural
from referee.web.store import history, live_events
from referee.web.views import say

KIND = "three_thirteen"
ROUND = "round"
CORRECT = "correct"
MAX_TYPED = 999
_DIGITS = re.compile(r"^\d{1,3}$")


# ---------------------------------------------------------------------------
# Rules and table


def rules_of(raw: Mapping[str, Any] | None) -> ThreeThirteenRules:
    return rules_from_mapping(ThreeThirteenRules, dict(raw or {}))


def stored_rules(rules: ThreeThirteenRules) -> dict[str, Any]:
    return rules_to_dict(rules)


def jokers_for(rules: ThreeThirteenRules, decks: int) -> dict | None:
    return {JOKER: 2 * decks} if rules.jokers else None


# ---------------------------------------------------------------------------
# Drawing splits


def card_view(card: AnyCard, stands_for: Card | None = None) -> dict[str, Any]:
    return {"text": str(card), "red": card.is_red, "as": str(stands_for) if stands_for is not None else None}


def split_view(split: Split, factor: int = 1) -> dict[str, Any]:
    """A split ready for a template: melds as card groups, wild cards with what they stand for."""
    melds = []
    for meld in split.melds:
        cards = [card_view(c, f if c != f else None) for c, f in zip(meld.cards, meld.faces, strict=True)]
        melds.append({"kind": meld.kind, "cards": cards})
    return {
        "melds": melds,
        "leftover": [card_view(c) for c in split.leftover],
        "points": split.points,
        "score": split.points * factor,
        "out": split.is_out,
    }


# ---------------------------------------------------------------------------
# Judging one round's entry


@dataclass
class RoundEntry:
    """What the form sent for a round, and what the referee made of it."""

    round_number: int
    cards: list[str]
    points: list[str]
    out: set[int]
    errors: dict[int, str] = field(default_factory=dict)
    problem: str | None = None
    splits: dict[int, dict[str, Any]] = field(default_factory=dict)
    payload: dict[str, Any] | None = None

    @property
    def ok(self) -> bool:
        return self.payload is not None


def _say_copies(exc: TooManyCopiesError, table: bool) -> str:
    if exc.limit == 0:
        return gettext("%(card)s is not in this game's deck: it is played without jokers", card=str(exc.card))
    if table:
        return gettext(
            "%(card)s is entered %(count)s times at this table, but the decks hold only %(limit)s",
            card=str(exc.card), count=exc.count, limit=exc.limit,
        )
    return gettext(
        "%(card)s appears %(count)s times, but the decks hold only %(limit)s",
        card=str(exc.card), count=exc.count, limit=exc.limit,
    )


def judge_round(
    rules: ThreeThirteenRules, players: int, round_number: int,
    cards: Sequence[str], points: Sequence[str], out: set[int],
) -> RoundEntry:
    """Check a whole round's entry; every problem is kept beside its seat."""
    entry = RoundEntry(round_number, [c.strip() for c in cards], [p.strip() for p in points], set(out))
    schedule = Schedule(rules)
    dealt = schedule.cards_dealt(round_number)
    wild = schedule.wild_rank(round_number)
    factor = 2 if schedule.is_doubled(round_number) else 1
    decks = decks_for(players, rules)
    jokers = jokers_for(rules, decks)
    if not entry.out:
        entry.problem = gettext("Mark who went out (at least one player).")
    hands: dict[int, tuple[AnyCard, ...]] = {}
    for seat in range(players):
        text, typed = entry.cards[seat], entry.points[seat]
        if text and typed:
            entry.errors[seat] = gettext("Enter the cards or the points, not both.")
            continue
        if not text:
            if seat in entry.out:
                entry.errors[seat] = gettext("A player who went out enters the hand, so the referee can check it.")
            elif not typed:
                entry.errors[seat] = gettext("Enter the cards left in the hand, or type the points.")
            elif not _DIGITS.match(typed):
                entry.errors[seat] = gettext("Points are a whole number from 0 to %(most)s.", most=MAX_TYPED)
            continue
        try:
            hand = parse_cards(text)
            check_copies(hand, decks=decks, jokers=jokers)
        except NotationError as exc:
            entry.errors[seat] = gettext("%(piece)s is not a card.", piece=repr(exc.piece))
            continue
        except TooManyCopiesError as exc:
            entry.errors[seat] = _say_copies(exc, table=False)
            continue
        if len(hand) != dealt:
            entry.errors[seat] = gettext(
                "Round %(round)s deals %(dealt)s cards; this hand has %(count)s.",
                round=round_number, dealt=dealt, count=len(hand),
            )
            continue
        hands[seat] = hand
    # Cards the decks cannot hold that many times across the whole table.
    table = Counter(c for hand in hands.values() for c in hand)
    try:
        check_copies(list(table.elements()), decks=decks, jokers=jokers)
    except TooManyCopiesError:
        for card, count in table.items():
            limit = 2 * decks if card == JOKER else decks
            if count > limit:
                for seat, hand in hands.items():
                    if card in hand and seat not in entry.errors:
                        entry.errors[seat] = gettext(
                            "%(card)s is entered %(count)s times at this table, but the decks hold only %(limit)s",
                            card=str(card), count=count, limit=limit,
                        )
    scores: list[int] = [0] * players
    hands_out: list[dict[str, Any]] = []
    penalties: list[int] = []
    for seat in range(players):
        hand = hands.get(seat)
        if hand is None:
            typed = entry.points[seat]
            if seat not in entry.errors:
                scores[seat] = int(typed) * factor
            hands_out.append({"points": int(typed) if _DIGITS.match(typed or "") else None})
            continue
        hands_out.append({"cards": " ".join(str(c) for c in hand)})
        if seat in entry.errors:
            continue
        if seat in entry.out:
            try:
                claim = go_out(hand, round_number, rules, decks=decks)
            except ImpossibleHandError as exc:
                entry.errors[seat] = say(exc.verdict)
                entry.splits[seat] = split_view(exc.split, factor)
                continue
            entry.splits[seat] = split_view(claim.split, factor)
            if claim.penalty:
                # A false out adds the penalty to what the hand counts (doubled in a doubled
                # round); the penalty itself is a flat 20.
                penalties.append(seat)
                scores[seat] = claim.split.points * factor + claim.penalty
                entry.splits[seat]["penalty"] = claim.penalty
                entry.splits[seat]["score"] = scores[seat]
                entry.splits[seat]["reason"] = say(claim.reason)
            continue
        split = best_split(hand, wild, rules, decks=decks)
        entry.splits[seat] = split_view(split, factor)
        scores[seat] = split.points * factor
    if entry.errors or entry.problem:
        return entry
    entry.payload = {
        "round": round_number,
        "out": sorted(entry.out),
        "hands": hands_out,
        "points": scores,
        "doubled": factor == 2,
        "false_out": penalties,
    }
    return entry


def preview_hand(
    rules: ThreeThirteenRules, players: int, round_number: int, text: str, *, out: bool
) -> dict[str, Any]:
    """The split of one hand while it is being tapped in (or why there is none yet)."""
    schedule = Schedule(rules)
    dealt = schedule.cards_dealt(round_number)
    decks = decks_for(players, rules)
    result: dict[str, Any] = {"dealt": dealt, "count": 0}
    try:
        hand = parse_cards(text or "")
        check_copies(hand, decks=decks, jokers=jokers_for(rules, decks))
    except NotationError as exc:
        result["error"] = gettext("%(piece)s is not a card.", piece=repr(exc.piece))
        return result
    except TooManyCopiesError as exc:
        result["error"] = _say_copies(exc, table=False)
        return result
    result["count"] = len(hand)
    if len(hand) != dealt:
        return result
    factor = 2 if schedule.is_doubled(round_number) else 1
    split = best_split(hand, schedule.wild_rank(round_number), rules, decks=decks)
    result["split"] = split_view(split, factor)
    if out and not split.is_out:
        if rules.false_out:
            result["warning"] = gettext(
                "These cards do not all fit: a false out adds %(points)s points to them.", points=FALSE_OUT_PENALTY
            )
        else:
            # The referee's own verdict: it names the leftover truthfully even when
            # those cards would fit a meld that another card already fills.
            try:
                check_out(hand, round_number, rules, decks=decks)
            except ImpossibleHandError as exc:
                result["error"] = say(exc.verdict)
    return result


def entry_from_payload(payload: Mapping[str, Any], players: int) -> RoundEntry:
    """The form values of a saved round (to correct it)."""
    hands = list(payload.get("hands", []))
    cards = [str(h.get("cards", "")) if h.get("cards") else "" for h in hands]
    points = [str(h["points"]) if h.get("points") is not None else "" for h in hands]
    while len(cards) < players:
        cards.append("")
        points.append("")
    return RoundEntry(int(payload["round"]), cards, points, set(payload.get("out", [])))


# ---------------------------------------------------------------------------
# The sheet


@dataclass
class SheetRound:
    number: int
    dealt: int
    wild: str
    doubled: bool
    points: list[int]
    typed: list[bool]
    out: list[int]
    false_out: list[int]
    totals: list[int]
    corrected: bool
    payload: dict[str, Any]


@dataclass
class Sheet:
    rules: ThreeThirteenRules
    names: list[str]
    first_dealer: int
    rounds: list[SheetRound]
    history: list[dict[str, Any]]

    @property
    def schedule(self) -> Schedule:
        return Schedule(self.rules)

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def decks(self) -> int:
        return decks_for(self.players, self.rules)

    @property
    def totals(self) -> list[int]:
        return self.rounds[-1].totals if self.rounds else [0] * self.players

    @property
    def next_round(self) -> int | None:
        n = len(self.rounds) + 1
        return n if n <= self.schedule.rounds else None

    @property
    def finished(self) -> bool:
        return self.next_round is None

    @property
    def leaders(self) -> list[int]:
        """Seats with the lowest total (after at least one round)."""
        if not self.rounds:
            return []
        low = min(self.totals)
        return [s for s, t in enumerate(self.totals) if t == low]

    @property
    def winners(self) -> list[int]:
        return self.leaders if self.finished else []

    @property
    def winner_names(self) -> list[str]:
        return [self.names[s] for s in self.winners]

    @property
    def can_undo(self) -> bool:
        return any(e["kind"] != "undo" and not e["undone"] for e in self.history)

    def round_info(self, number: int) -> dict[str, Any]:
        s = self.schedule
        dealer = s.dealer(number, first_dealer=self.first_dealer, players=self.players)
        starter = s.starter(number, first_dealer=self.first_dealer, players=self.players)
        wild = s.wild_rank(number)
        return {
            "number": number,
            "rounds": s.rounds,
            "dealt": s.cards_dealt(number),
            "wild": wild.symbol,
            "wild_plural": rank_plural(wild),
            "doubled": s.is_doubled(number),
            "dealer": self.names[dealer],
            "starter": self.names[starter],
            "short": s.cards_dealt(number) <= 5,
        }

    def all_rounds(self) -> list[dict[str, Any]]:
        return [self.round_info(n) for n in range(1, self.schedule.rounds + 1)]

    def saved(self, number: int) -> SheetRound | None:
        return self.rounds[number - 1] if 1 <= number <= len(self.rounds) else None


def build_sheet(game: Any) -> Sheet:
    """Replay the game's effective events into the sheet."""
    rules = rules_of(game.rules)
    names = game.player_names
    schedule = Schedule(rules)
    by_round: dict[int, tuple[dict[str, Any], bool]] = {}
    for event in live_events(game):
        if event.kind in (ROUND, CORRECT):
            n = int(event.payload["round"])
            by_round[n] = (event.payload, event.kind == CORRECT or by_round.get(n, ({}, False))[1])
    rounds: list[SheetRound] = []
    totals = [0] * len(names)
    for n in sorted(by_round):
        payload, corrected = by_round[n]
        pts = [int(p) for p in payload["points"]]
        totals = [a + b for a, b in zip(totals, pts, strict=True)]
        rounds.append(SheetRound(
            number=n, dealt=schedule.cards_dealt(n), wild=schedule.wild_rank(n).symbol,
            doubled=bool(payload.get("doubled")), points=pts,
            typed=["cards" not in h for h in payload["hands"]],
            out=list(payload.get("out", [])), false_out=list(payload.get("false_out", [])),
            totals=list(totals), corrected=corrected, payload=dict(payload),
        ))
    log = history(game)
    undone = {e.payload.get("undoes") for e in log if e.kind == "undo"}
    changes = []
    for event in log:
        changes.append({
            "seq": event.seq, "kind": event.kind, "when": event.created_at,
            "round": event.payload.get("round"), "points": event.payload.get("points"),
            "undoes": event.payload.get("undoes"), "undone": event.seq in undone,
        })
    return Sheet(rules, names, int(game.setup.get("first_dealer", 0)), rounds, changes)
