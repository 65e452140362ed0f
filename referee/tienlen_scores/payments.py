"""Payments: every item of a game's score as one payment from a seat to another, and :func:`score`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.cards import Card, Rank, format_cards
from referee.text import Message, message
from referee.tienlen_scores.bombs import bombs_in
from referee.tienlen_scores.errors import ChopChainError, InstantWinError, OrderError, ScoreInputError
from referee.tienlen_scores.facts import FinishedGame
from referee.tienlen_scores.reading import read_cards, who
from referee.tienlen_scores.rules import DEFAULT_SCORE_RULES, ITEMS, ScoreRules

__all__ = ['Payment', 'Score', 'score']

@dataclass(frozen=True, slots=True)
class Payment:
    """One item of a game's score: ``payer`` pays ``payee`` ``points`` for ``item``.

    ``count`` is the cards left (``cards``, ``frozen`` with cards), the stake
    multiplied (``frozen`` with places), or for a ``places`` payment the payer's
    finishing place when frozen players finished after them (0: the payer came
    last); ``place`` is 1 for first-from-last and 2 for second-from-third; ``cards`` are the 2s chopped or caught, or the
    bomb caught; ``passed_on`` is what a bombed bomb had won before.
    """

    payer: int
    payee: int
    points: int
    item: str
    count: int = 0
    place: int = 0
    cards: tuple[Card, ...] = ()
    passed_on: int = 0

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"from": self.payer, "to": self.payee, "points": self.points, "item": self.item}
        if self.cards:
            data["cards"] = format_cards(self.cards)
        return data

    def to_record(self) -> dict[str, Any]:
        """Everything, for storing (:meth:`from_record` gives it back).

        >>> p = Payment(1, 3, 2, "chop", cards=(Card.parse("2h"),))
        >>> Payment.from_record(p.to_record()) == p
        True
        """
        return {"from": self.payer, "to": self.payee, "points": self.points, "item": self.item,
                "count": self.count, "place": self.place, "cards": format_cards(self.cards),
                "passed_on": self.passed_on}

    @classmethod
    def from_record(cls, data: Mapping[str, Any]) -> Payment:
        cards = read_cards(str(data.get("cards") or ""), message("the payment's cards"))
        item = str(data["item"])
        if item not in ITEMS:
            raise ScoreInputError(message("{item} is not an item of the score", item=repr(item)))
        return cls(int(data["from"]), int(data["to"]), int(data["points"]), item, int(data.get("count", 0)),
                   int(data.get("place", 0)), cards, int(data.get("passed_on", 0)))

    def sentence(self, names: Sequence[str] = ()) -> Message:
        """The payment in plain words: "D chopped B's 2♥: B pays D 2"."""
        payer, payee, points = who(self.payer, names), who(self.payee, names), self.points
        pays = message("{payer} pays {payee} {points}", payer=payer, payee=payee, points=points)
        if self.item == "cards":
            if self.count == 1:
                why = message("{payer} had 1 card left", payer=payer)
            else:
                why = message("{payer} had {count} cards left", payer=payer, count=self.count)
        elif self.item == "frozen":
            why = message("{payer} had played no card when {payee} went out", payer=payer, payee=payee)
            pays = message("{payer} pays {payee} {factor} × {count} = {points}", payer=payer, payee=payee,
                           factor=points // max(self.count, 1), count=self.count, points=points)
        elif self.item == "places":
            if self.place == 2:
                why = message("{payee} came second and {payer} third", payer=payer, payee=payee)
            elif self.count == 2:
                why = message("{payee} went out first and {payer} came second, the last of the players not frozen",
                              payer=payer, payee=payee)
            elif self.count == 3:
                why = message("{payee} went out first and {payer} came third, the last of the players not frozen",
                              payer=payer, payee=payee)
            else:
                why = message("{payee} went out first and {payer} came last", payer=payer, payee=payee)
        elif self.item == "caught":
            if not self.count:
                why = message("{payer} was caught holding {cards}", payer=payer, cards=self.cards)
            else:
                why = message("{payer} was caught holding a bomb: {cards}", payer=payer, cards=self.cards)
        elif self.item == "chop":
            if self.cards:
                why = message("{payee} chopped {payer}'s {cards}", payer=payer, payee=payee, cards=self.cards)
            else:
                why = message("{payee} bombed {payer}'s bomb", payer=payer, payee=payee)
                if self.passed_on:
                    pays = message("{payer} pays {payee} {stake} + {passed} = {points}", payer=payer, payee=payee,
                                   stake=points - self.passed_on, passed=self.passed_on, points=points)
        else:
            why = message("{payee} won at once", payee=payee)
        return message("{why}: {pays}", why=why, pays=pays)


@dataclass(frozen=True, slots=True)
class Score:
    """A game's payments and each seat's points (they add up to zero)."""

    payments: tuple[Payment, ...]
    points: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"points": list(self.points), "payments": [p.to_dict() for p in self.payments]}


def score(game: FinishedGame, rules: ScoreRules = DEFAULT_SCORE_RULES) -> Score:
    """Score a finished game: the payments of every item of RULES.md, and the points.

    >>> two = FinishedGame(players=2, winner=1, cards_left=(4, 0))
    >>> score(two).points
    (-4, 4)
    >>> placed = FinishedGame(players=4, winner=2, cards_left=(3, 5, 0, 1), order=(2, 3, 0, 1))
    >>> [(p.payer, p.payee, p.points) for p in score(placed, ScoreRules(score_by="places", play_on=True)).payments]
    [(1, 2, 2), (0, 3, 1)]
    >>> score(placed, ScoreRules(score_by="places", play_on=True, first_stake=0)).points
    (-1, 0, 0, 1)
    """
    _check_scorable(game, rules)
    if game.instant_win is not None:
        items = [Payment(seat, game.winner, rules.instant_stake, "instant") for seat in game.losers]
    else:
        result = _by_cards if rules.score_by == "cards" else _by_places
        items = [*result(game, rules), *_caught(game, rules), *_chopped(game, rules)]
    return _total(game.players, [p for p in items if p.points])


def _check_scorable(game: FinishedGame, rules: ScoreRules) -> None:
    """Refuse a game these rules cannot score: places without the order, an instant win with
    ``instant_wins`` off, a bomb after the first out with ``play_on`` off.

    >>> _check_scorable(FinishedGame(players=2, winner=1, cards_left=(4, 0)), ScoreRules(score_by="places", play_on=True))
    Traceback (most recent call last):
    ...
    referee.tienlen_scores.OrderError: score_by places needs the finishing order
    """
    if rules.score_by == "places" and game.order is None and game.instant_win is None:
        raise OrderError(message("score_by places needs the finishing order"))
    if game.instant_win is not None and not rules.instant_wins:
        raise InstantWinError(message("instant wins are off (house rule instant_wins)"))
    if game.late_chops and not rules.play_on:
        raise ChopChainError(message("a bomb fell after {winner} went out, but play_on is off: the hand ended then",
                                     winner=who(game.winner, game.names)))


def _by_cards(game: FinishedGame, rules: ScoreRules) -> list[Payment]:
    """``score_by`` cards: each loser pays the winner a point a card left (``frozen`` times that
    when they had played nothing).

    >>> game = FinishedGame(players=3, winner=0, cards_left=(0, 13, 2))  # seat 1 played nothing
    >>> [(p.payer, p.points, p.item) for p in _by_cards(game, DEFAULT_SCORE_RULES)]
    [(1, 26, 'frozen'), (2, 2, 'cards')]
    """
    frozen = set(game.frozen_seats)
    paid = []
    for seat in game.losers:
        left = game.cards_left[seat]
        if seat in frozen:
            paid.append(Payment(seat, game.winner, rules.frozen * left, "frozen", count=left))
        else:
            paid.append(Payment(seat, game.winner, left, "cards", count=left))
    return paid


def _by_places(game: FinishedGame, rules: ScoreRules) -> list[Payment]:
    """``score_by`` places: each frozen player pays the first, then the first of the others wins
    ``first_stake`` from the last of them (and the second ``second_stake`` from the third of four).

    >>> placed = FinishedGame(players=4, winner=2, cards_left=(3, 5, 0, 1), order=(2, 3, 0, 1))
    >>> [(p.payer, p.payee, p.points) for p in _by_places(placed, ScoreRules(score_by="places", play_on=True))]
    [(1, 2, 2), (0, 3, 1)]
    """
    assert game.order is not None
    frozen = set(game.frozen_seats)
    paid = [Payment(seat, game.winner, rules.frozen * rules.first_stake, "frozen", count=rules.first_stake)
            for seat in game.order if seat in frozen]
    others = [s for s in game.order if s not in frozen]
    if len(others) >= 2:
        # The last of the others may have finished ahead of a frozen player: the sentence says where.
        at = game.order.index(others[-1]) + 1
        paid.append(Payment(others[-1], others[0], rules.first_stake, "places", place=1,
                            count=0 if at == game.players else at))
    if len(others) == 4:
        paid.append(Payment(others[2], others[1], rules.second_stake, "places", place=2))
    return paid


def _caught(game: FinishedGame, rules: ScoreRules) -> list[Payment]:
    """Caught holding: the 2s and bombs each loser's leftover (or caught) cards hold, paid to
    the winner; nothing when no cards were entered.

    >>> game = FinishedGame(players=2, winner=1, cards_left=(2, 0), leftover=("2h 2s", None))
    >>> [(p.points, p.item) for p in _caught(game, DEFAULT_SCORE_RULES)]
    [(3, 'caught')]
    """
    if game.leftover is None and game.caught is None:
        return []
    paid = []
    for seat in game.losers:
        hand = game.scoring_hand(seat)
        if hand is None:
            continue
        cards = hand[0]
        twos = tuple(c for c in cards if c.rank is Rank.TWO)
        owed = sum(rules.two_left_red if c.is_red else rules.two_left_black for c in twos)
        paid.append(Payment(seat, game.winner, owed, "caught", cards=twos))
        paid += [Payment(seat, game.winner, rules.bomb_left, "caught", count=1, cards=bomb) for bomb in bombs_in(cards)]
    return paid


def _chopped(game: FinishedGame, rules: ScoreRules) -> list[Payment]:
    """Each chop chain: the 2s' player pays the first bomber per 2, then each beaten bomb's player
    pays ``chop_bomb`` plus everything the beaten bomb had won.

    >>> from referee.tienlen.actions import Chop
    >>> from referee.cards import cards_of
    >>> game = FinishedGame(players=3, winner=0, cards_left=(0, 4, 5),
    ...                     chops=((Chop(by=2, on=1, twos=cards_of("2h")), Chop(by=0, on=2)),))
    >>> [(p.payer, p.payee, p.points) for p in _chopped(game, DEFAULT_SCORE_RULES)]
    [(1, 2, 2), (2, 0, 4)]
    """
    paid = []
    for chain in game.chops:
        won = 0
        for i, step in enumerate(chain):
            if i == 0 and step.twos:
                points = sum(rules.chop_red if c.is_red else rules.chop_black for c in step.twos)
                paid.append(Payment(step.on, step.by, points, "chop", cards=step.twos))
            else:
                points = rules.chop_bomb + won
                paid.append(Payment(step.on, step.by, points, "chop", passed_on=won))
            won = points
    return paid


def _total(players: int, payments: list[Payment]) -> Score:
    points = [0] * players
    for p in payments:
        points[p.payer] -= p.points
        points[p.payee] += p.points
    return Score(tuple(payments), tuple(points))

