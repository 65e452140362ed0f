"""Every chop and its moment: the chains checked against what each seat had played and held.

"Cards left" are counted when the first player went out (RULES.md, "Tiến lên scores"),
so every count check is made from one account of that moment, whatever else was
entered (the finishing order only places need).  A bomb that fell *before* the first
player went out was played from the cards a seat had played by then; a bomb that fell
*after* it (``play_on``: a step marked ``after_out``) was played from the cards the seat
still held then, and so were the 2s it chopped, unless they were the first out's last
play: those 2s count twice, caught holding and chopped.

>>> from referee.cards import parse_cards
>>> from referee.tienlen import Chop
>>> from referee.tienlen_scores import FinishedGame, ScoreRules, score
>>> FinishedGame(players=2, winner=0, cards_left=(0, 12), order=(0, 1),
...              chops=((Chop(1, 0, parse_cards("2h")),),))
Traceback (most recent call last):
...
referee.tienlen_scores.ChopChainError: seat 1 had played 1 of 13 cards when seat 0 went out, fewer than the 4 cards of a bomb
>>> late = FinishedGame(players=3, winner=0, cards_left=(0, 13, 13), caught=(None, "2h", None),
...                     chops=((Chop(2, 1, parse_cards("2h")),),), after_out=((True,),))
>>> score(late, ScoreRules(play_on=True)).points
(54, -30, -24)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from referee.cards import Card, Rank
from referee.text import message, plural
from referee.tienlen import Chop
from referee.tienlen_scores.bombs import smallest_bomb
from referee.tienlen_scores.errors import CardsLeftError, CardTwiceError, ChopChainError, PlayedCardError
from referee.tienlen_scores.reading import read_cards, who
from referee.tienlen_scores.rules import HAND_SIZE

if TYPE_CHECKING:
    from referee.tienlen_scores.facts import FinishedGame

__all__ = ["Seen", "SeatAccount", "check_chops"]

Seen = dict[Card, tuple[int, str]]
"""Each card entered in a hand at the first out: (seat, ``"leftover"`` or ``"caught"``)."""


@dataclass
class SeatAccount:
    """What one seat's chops took: cards played before the first out, cards held then and
    played after, the 2s held then and chopped after, the bombs played after."""

    before: int = 0
    before_items: int = 0
    before_twos: tuple[Card, ...] = ()
    after: int = 0
    twos_after: tuple[Card, ...] = ()
    bombs_after: int = 0


def check_chops(game: FinishedGame, seen: Seen) -> tuple[tuple[tuple[Chop, ...], ...], tuple[tuple[bool, ...], ...]]:
    """The chains and their moments, checked; raises a :class:`ChopChainError` (or a card's error)."""
    names, winner = game.names, game.winner
    out = who(winner, names)
    moments = _moments(game)
    chains: list[tuple[Chop, ...]] = []
    chopped: set[Card] = set()
    frozen = set(game.frozen_seats)
    account = [SeatAccount() for _ in range(game.players)]
    for raw, late_chain in zip(game.chops, moments, strict=True):
        chain = tuple(raw)
        if not chain:
            raise ChopChainError(message("a chop chain needs at least one bomb"))
        steps: list[Chop] = []
        size = 4
        for i, step in enumerate(chain):
            late = late_chain[i]
            game.check_seat(step.by, message("the seat that bombed"))
            game.check_seat(step.on, message("the seat whose play was bombed"))
            by, on = who(step.by, names), who(step.on, names)
            if step.by == step.on:
                raise ChopChainError(message("{player} cannot bomb their own play", player=by))
            if i > 0 and step.on != chain[i - 1].by:
                raise ChopChainError(message(
                    "a chain is broken: {player} bombed {victim}, but the bomb before was {last}'s",
                    player=by, victim=on, last=who(chain[i - 1].by, names)))
            twos = read_cards(step.twos, message("the 2s {player} chopped", player=by))
            if i > 0 and twos:
                raise ChopChainError(message(
                    "only the first bomb of a chain beats 2s; {player} bombed {victim}'s bomb",
                    player=by, victim=on))
            for card in twos:
                if card.rank is not Rank.TWO:
                    raise ChopChainError(message("{card} is not a 2: only 2s are chopped", card=card))
            if len(twos) == 4:
                raise ChopChainError(message("nothing beats four 2s"))
            if i == 0:
                size = smallest_bomb(twos)
            if late:
                _check_late_step(game, step, i, late_chain, frozen)
            elif i > 0 and late_chain[i - 1]:
                raise ChopChainError(message(
                    "{victim} bombed after {winner} went out, so {player}'s bomb on it came after too",
                    victim=on, winner=out, player=by))
            elif step.by in frozen or step.on in frozen:
                silent = step.by if step.by in frozen else step.on
                raise ChopChainError(message(
                    "{player} had played no card when {winner} went out, so was in no chop until then",
                    player=who(silent, names), winner=out), seat=silent)
            for card in twos:
                if card in chopped:
                    raise CardTwiceError(card, message("{card} is chopped twice", card=card))
                chopped.add(card)
                _check_chopped_two(game, seen, card, step.on, held=late and step.on != winner)
            _count(account, step, i, late, size, len(twos), winner)
            _check_step(game, step, i, late, size, twos)
            steps.append(Chop(step.by, step.on, twos))
        chains.append(tuple(steps))
    for seat, seat_account in enumerate(account):
        _check_counts(game, seat, seat_account, seen)
    return tuple(chains), moments


def _moments(game: FinishedGame) -> tuple[tuple[bool, ...], ...]:
    """``after_out`` in the chains' shape (none given: every bomb before the first out)."""
    given = game.after_out
    if given is None:
        return tuple(tuple(False for _ in chain) for chain in game.chops)
    shaped = tuple(tuple(chain) for chain in given)
    if len(shaped) != len(game.chops) or any(len(a) != len(c) for a, c in zip(shaped, game.chops, strict=False)):
        raise ChopChainError(message("after_out needs one true or false per bomb of every chain"))
    for chain in shaped:
        for value in chain:
            if not isinstance(value, bool):
                raise ChopChainError(message("after_out is true or false for each bomb, not {value}",
                                             value=repr(value)))
    return shaped


def _check_late_step(game: FinishedGame, step: Chop, i: int, late_chain: Sequence[bool], frozen: set[int]) -> None:
    """A bomb after the first out: a game of three or more, not by the first out, on a play made
    after the out (or on the first out's last play, still on the table)."""
    names, winner = game.names, game.winner
    out, by, on = who(winner, names), who(step.by, names), who(step.on, names)
    if game.players == 2:
        raise ChopChainError(message(
            "with two players the hand is over when {winner} goes out: no bomb falls after that", winner=out))
    if game.instant_win is not None:
        raise ChopChainError(message("after an instant win nobody has played, so nobody was chopped"))
    if step.by == winner:
        raise ChopChainError(message("{winner} went out, so bombed nothing after going out", winner=out),
                             seat=winner)
    if i > 0 and not late_chain[i - 1] and step.on != winner:
        raise ChopChainError(message(
            "{victim} bombed before {winner} went out, so {player}'s bomb on it came before too",
            victim=on, winner=out, player=by))


def _check_chopped_two(game: FinishedGame, seen: Seen, card: Card, on: int, *, held: bool) -> None:
    """A chopped 2 is in no hand entered at the first out, unless it was held then and chopped
    after (``held``): then it is in the hand of its player, when that hand is entered."""
    names = game.names
    place = seen.get(card)
    if place is not None and (not held or place[0] != on):
        holder, where = place
        if where == "caught" and holder == on:
            raise CardTwiceError(card, message(
                "{card} was chopped before {winner} went out, so it is not among {player}'s caught cards",
                card=card, winner=who(game.winner, names), player=who(holder, names)), seat=holder)
        if where == "caught":
            raise CardTwiceError(card, message(
                "{card} was chopped from {victim}'s play, so it is not among {player}'s caught cards",
                card=card, victim=who(on, names), player=who(holder, names)), seat=holder)
        if holder == on:
            raise CardTwiceError(card, message(
                "{card} was chopped before {winner} went out, so it is not among {player}'s leftover cards",
                card=card, winner=who(game.winner, names), player=who(holder, names)), seat=holder)
        raise CardTwiceError(card, message(
            "{card} was chopped from {victim}'s play, so it is not among {player}'s leftover cards",
            card=card, victim=who(on, names), player=who(holder, names)), seat=holder)


def _count(account: list[SeatAccount], step: Chop, i: int, late: bool, size: int, twos: int, winner: int) -> None:
    """What the step took from each seat, before or after the first out."""
    by, on = account[step.by], account[step.on]
    if late:
        by.after += size
        by.bombs_after += 1
        if i == 0 and step.on != winner:  # the 2s (or the bomb) played after the out, from the hand held then
            on.after += twos or size
            on.twos_after = (*on.twos_after, *step.twos)
            if not twos:
                on.bombs_after += 1
            return
    else:
        by.before += size
        by.before_items += 1
    if i == 0:  # played before the out (or the first out's last play)
        on.before += twos or size
        on.before_items += 1
        on.before_twos = (*on.before_twos, *step.twos)


def _check_step(game: FinishedGame, step: Chop, i: int, late: bool, size: int, twos: tuple[Card, ...]) -> None:
    """One bomb alone fits: its bomber (and, first in the chain, the player of the 2s or the
    bomb it beat) had played that many cards by the first out, or held them then."""
    seats = ([(step.on, len(twos) or size, twos)] if i == 0 else []) + [(step.by, size, ())]
    for seat, cards, chopped in seats:
        acc = SeatAccount()
        after = late and not (seat == step.on and seat == game.winner)
        if after:
            acc.after = cards
        else:
            acc.before, acc.before_items, acc.before_twos = cards, 1, chopped
        _check_counts(game, seat, acc, {})


def _check_counts(game: FinishedGame, seat: int, acc: SeatAccount, seen: Seen) -> None:
    """The seat's chops fit what it had played before the first out and what it held then; the
    2s it held then and had chopped later are among its hand, when the hand is entered."""
    names = game.names
    player, out = who(seat, names), who(game.winner, names)
    played = HAND_SIZE - game.cards_left[seat]
    if acc.before > played:
        if acc.before_items > 1:
            why = message("{player} had played {played} of 13 cards when {winner} went out, fewer than the {count} "
                          "cards of their bombs and chopped 2s until then",
                          player=player, played=played, winner=out, count=acc.before)
        elif acc.before_twos:
            why = message("{player} had played {played} of 13 cards when {winner} went out, so could not have played "
                          "the chopped {cards}", player=player, played=played, winner=out, cards=acc.before_twos)
        else:
            why = message("{player} had played {played} of 13 cards when {winner} went out, fewer than the {count} "
                          "cards of a bomb", player=player, played=played, winner=out, count=acc.before)
        raise ChopChainError(why, seat=seat)
    held = game.cards_left[seat]
    if acc.after > held:
        raise ChopChainError(plural(
            "{player} held 1 card when {winner} went out, fewer than the {bombed} cards they bombed "
            "with or had chopped after that",
            "{player} held {count} cards when {winner} went out, fewer than the {bombed} cards they bombed "
            "with or had chopped after that", held, player=player, winner=out, bombed=acc.after), seat=seat)
    hand = game.scoring_hand(seat)
    if hand is None or not seen:
        return
    cards, where = hand
    for card in acc.twos_after:
        if card not in cards:
            raise PlayedCardError(card, message(
                "{player} played {card} after {winner} went out, so it is among {player}'s leftover cards",
                player=player, card=card, winner=out) if where == "leftover" else message(
                "{player} played {card} after {winner} went out, so it is among {player}'s caught cards",
                player=player, card=card, winner=out), seat=seat)
    if acc.bombs_after and game.bombs_held(seat) < acc.bombs_after:
        raise CardsLeftError(message(
            "{player} bombed after {winner} went out, so the bomb is among {player}'s leftover cards",
            player=player, winner=out) if where == "leftover" else message(
            "{player} bombed after {winner} went out, so the bomb is among {player}'s caught cards",
            player=player, winner=out), seat=seat)

