"""A hand the table followed: its facts (:func:`finished_game_from_hand`), with the keeper's leftover cards checked against the plays."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from referee.cards import Card
from referee.text import message
from referee.tienlen import Hand
from referee.tienlen_scores.errors import CardsLeftError, PlayedCardError, ScoreInputError, about
from referee.tienlen_scores.facts import FinishedGame
from referee.tienlen_scores.reading import read_cards
from referee.tienlen_scores.rules import HAND_SIZE

__all__ = ['finished_game_from_hand']

def finished_game_from_hand(
    hand: Hand, leftover: Sequence[str | Iterable[Card] | None] | None = None,
    caught: Sequence[str | Iterable[Card] | None] | None = None,
) -> FinishedGame:
    """The facts of a hand the table followed, with the keeper's leftover cards checked.

    Leftover cards may not include a card played before the winner went out (or
    one not dealt, or another seat's later play); with ``play_on`` the cards a
    seat played after that were in its hand then, so they must be among them.
    ``caught`` names only the 2s and bomb cards caught in a loser's hand (the count
    is known from the plays), checked the same way against the plays.

    >>> from referee.tienlen import Setup
    >>> from referee.tienlen_scores import score
    >>> h = Hand(Setup(("An", "Bao"), opening=False))
    >>> _ = h.play(0, "3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks As"); _ = h.pass_(1); _ = h.play(0, "2h")
    >>> finished_game_from_hand(h, [None, "3c 4c 5c 6c 7c 8c 9c 10c Jc Qc Kc Ac 5s"])
    Traceback (most recent call last):
    ...
    referee.tienlen_scores.PlayedCardError: 5♠ has already been played: it cannot be among Bao's leftover cards
    >>> game = finished_game_from_hand(h, [None, "3c 4c 5c 6c 7c 8c 9c 10c Jc Qc Kc Ac 2s"])
    >>> game.frozen, score(game).points
    ((False, True), (27, -27))
    >>> score(finished_game_from_hand(h, caught=[None, "2s"])).points
    (27, -27)
    >>> finished_game_from_hand(h, caught=[None, "2h"])
    Traceback (most recent call last):
    ...
    referee.tienlen_scores.PlayedCardError: 2♥ has already been played: it cannot be caught in Bao's hand
    """
    if hand.winner is None:
        raise ScoreInputError(message("the game is not over yet: it is scored once the first player is out"))
    if hand.setup.hand_size != HAND_SIZE:
        raise CardsLeftError(message("a game is scored with 13 cards each, not {size}", size=hand.setup.hand_size))
    names = hand.players
    winner = hand.winner
    assert winner is not None and hand.cards_left_at_first_out is not None
    instant = hand.instant_win is not None
    if instant:  # the declarer wins without playing: scored as out, the others hold 13
        left = tuple(0 if s == winner else HAND_SIZE for s in range(len(names)))
    else:
        left = hand.cards_left_at_first_out
    # With play_on the order is known once everyone is placed (until then, places cannot be scored).
    order = tuple(hand.finishing_order) if hand.rules.play_on and hand.over and not instant else None
    cleaned = _leftover_from_hand(hand, leftover) if leftover is not None else None
    with about("caught"):
        caught_cards = _caught_from_hand(hand, caught)
    silent = set(hand.no_card_at_first_out or ())
    after_out = _after_out(hand)
    return FinishedGame(
        players=len(names), winner=winner, cards_left=left, order=order,
        leftover=tuple(cleaned) if cleaned is not None else None,
        frozen=None if instant else tuple(s in silent for s in range(len(names))),
        chops=tuple(hand.chops), instant_win=hand.instant_win.seat if hand.instant_win else None, names=names,
        caught=tuple(caught_cards) if caught_cards is not None else None,
        after_out=tuple(after_out) if any(any(a) for a in after_out) else None,
    )


def _leftover_from_hand(hand: Hand, leftover: Sequence[str | Iterable[Card] | None]) -> list[tuple[Card, ...] | None]:
    """The leftover cards per seat (``None`` where none were typed), each seat's checked
    against the plays (:func:`_check_leftover`).

    >>> from referee.tienlen import Setup
    >>> h = Hand(Setup(("An", "Bao"), opening=False))
    >>> _leftover_from_hand(h, ["3s"])
    Traceback (most recent call last):
    ...
    referee.tienlen_scores.CardsLeftError: leftover needs one entry per player: 2, not 1
    """
    names = hand.players
    if len(leftover) != len(names):
        raise CardsLeftError(message("leftover needs one entry per player: {n}, not {count}",
                                     n=len(names), count=len(leftover)))
    cleaned: list[tuple[Card, ...] | None] = []
    before = hand.played - {c for later in hand.played_after_first_out for c in later}
    for seat, value in enumerate(leftover):
        if value is None or (isinstance(value, str) and not value.strip()):
            cleaned.append(None)
            continue
        cards = read_cards(value, message("{player}'s leftover cards", player=names[seat]), seat)
        _check_leftover(hand, seat, cards, before)
        cleaned.append(cards)
    return cleaned


def _check_leftover(hand: Hand, seat: int, cards: tuple[Card, ...], before: set[Card] | frozenset[Card]) -> None:
    """Refuse a seat's leftover cards that hold a card played before the first out (``before``)
    or by another seat after it, or one not dealt, or that lack a card the seat played after it.

    >>> from referee.cards import cards_of
    >>> from referee.tienlen import Setup
    >>> h = Hand(Setup(("An", "Bao"), opening=False))
    >>> _ = h.play(0, "3s 4s 5s")
    >>> _check_leftover(h, 1, cards_of("4s 9h"), h.played)
    Traceback (most recent call last):
    ...
    referee.tienlen_scores.PlayedCardError: 4♠ has already been played: it cannot be among Bao's leftover cards
    """
    names, who = hand.players, hand.players[seat]
    for card in cards:
        later_by = next((s for s, c in enumerate(hand.played_after_first_out) if card in c), None)
        if card in before or (later_by is not None and later_by != seat):
            raise PlayedCardError(card, message(
                "{card} has already been played: it cannot be among {player}'s leftover cards",
                card=card, player=who), seat=seat)
        if card in hand.not_dealt:
            raise PlayedCardError(card, message(
                "{card} was not dealt (the lowest card dealt is {lowest}): it cannot be among "
                "{player}'s leftover cards", card=card, lowest=hand.setup.lowest_card, player=who), seat=seat)
    for card in hand.played_after_first_out[seat]:
        if card not in cards:
            raise PlayedCardError(card, message(
                "{player} played {card} after {winner} went out, so it is among {player}'s leftover cards",
                player=who, card=card, winner=names[hand.winner] if hand.winner is not None else ""), seat=seat)


def _after_out(hand: Hand) -> list[tuple[bool, ...]]:
    """Per chop chain (in the order the bombs fell), which of its bombs fell after the first out.

    >>> from referee.tienlen import Setup
    >>> _after_out(Hand(Setup(("An", "Bao"), opening=False)))
    []
    """
    early, fallen = steps_before_first_out(hand), 0
    after_out: list[tuple[bool, ...]] = []
    for chain in hand.chops:
        after_out.append(tuple(fallen + i >= early for i in range(len(chain))))
        fallen += len(chain)
    return after_out


def steps_before_first_out(hand: Hand) -> int:
    """How many bombs of the hand's chop chains (in the order they fell) came before the first
    player went out (including a bomb that was the last play out): the hand replayed to then.

    >>> from referee.tienlen import Setup, TienLenRules
    >>> h = Hand(Setup(("A", "B", "C"), TienLenRules(play_on=True), opening=False, hand_size=7))
    >>> _ = h.play(0, "3s 4s 5s 6s 7s 8s"); _ = h.pass_(1); _ = h.pass_(2); _ = h.play(0, "2c")
    >>> _ = h.play(1, "2h"); _ = h.play(2, "5c 5d 6c 6d 7c 7d")
    >>> steps_before_first_out(h), len(h.chops)
    (0, 1)
    """
    if hand.cards_left_at_first_out is None:
        return sum(len(chain) for chain in hand.chops)
    again = Hand(hand.setup)
    for action in hand.log:
        again.apply(action)
        if again.cards_left_at_first_out is not None:
            break
    return sum(len(chain) for chain in again.chops)


def _caught_from_hand(hand: Hand, caught: Sequence[str | Iterable[Card] | None] | None
                      ) -> list[tuple[Card, ...] | None] | None:
    """The caught cards read and checked against the plays of a followed hand."""
    names = hand.players
    caught_cards: list[tuple[Card, ...] | None] | None = None
    if caught is not None:
        if len(caught) != len(names):
            raise CardsLeftError(message("caught needs one entry per player: {n}, not {count}",
                                         n=len(names), count=len(caught)))
        caught_cards = []
        before = hand.played - {c for later in hand.played_after_first_out for c in later}
        for seat, value in enumerate(caught):
            if value is None or (isinstance(value, str) and not value.strip()):
                caught_cards.append(None)
                continue
            who = names[seat]
            cards = read_cards(value, message("{player}'s caught cards", player=who), seat)
            for card in cards:
                later_by = next((s for s, c in enumerate(hand.played_after_first_out) if card in c), None)
                if card in before or (later_by is not None and later_by != seat) or card in hand.not_dealt:
                    raise PlayedCardError(card, message(
                        "{card} has already been played: it cannot be caught in {player}'s hand",
                        card=card, player=who) if card not in hand.not_dealt else message(
                        "{card} was not dealt (the lowest card dealt is {lowest}): it cannot be caught in "
                        "{player}'s hand", card=card, lowest=hand.setup.lowest_card, player=who), seat=seat)
            caught_cards.append(cards)
    return caught_cards

