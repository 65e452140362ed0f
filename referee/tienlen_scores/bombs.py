"""Bombs: the most disjoint bombs a hand's cards can make, and the smallest bomb a chop needs."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import combinations

from referee.cards import Card, Rank, parse_cards
from referee.tienlen import RANK_ORDER, card_power, sort_cards

__all__ = ["bombs_in", "card_in_no_bomb", "card_too_many", "count_bombs", "smallest_bomb", "splits_into_bombs"]

def smallest_bomb(twos: Sequence[Card]) -> int:
    """The fewest cards of a bomb in a chain that began on ``twos`` (none: on a bomb).

    A later bomb of the chain is of the same kind as the one it beats, so it is as big.
    Four of a kind (4 cards) beats a single 2 or a bomb (and, with a house rule, a pair of
    2s); three 2s fall only to five pairs in a row (10 cards).

    >>> smallest_bomb(()), smallest_bomb(parse_cards("2h")), smallest_bomb(parse_cards("2h 2d 2s"))
    (4, 4, 10)
    """
    return 10 if len(twos) == 3 else 4


_RUN_RANKS = RANK_ORDER[:-1]  # 3 … A: a double sequence holds no 2


def bombs_in(cards: str | Iterable[Card]) -> tuple[tuple[Card, ...], ...]:
    """The most disjoint bombs the cards can make (four of a kind, double sequence of 3 pairs).

    A longer double sequence counts once, or as two when it splits into two of
    three pairs; four 2s are one bomb (and still four 2s).  A bomb is shown as it lies: a
    double sequence takes in the pairs beside it that no other bomb needs.

    >>> from referee.cards import format_cards
    >>> [format_cards(b) for b in bombs_in("3s 3c 4s 4c 5s 5c 6s 6c 7s 7c 8s 8c")]
    ['3♠ 3♣ 4♠ 4♣ 5♠ 5♣', '6♠ 6♣ 7♠ 7♣ 8♠ 8♣']
    >>> count_bombs("3s 3c 3d 3h 4s 4c 4d 4h 5s 5c 5d 5h"), count_bombs("3s 3c 4s 4c 5s 5c 6s 6c")
    (3, 1)
    >>> count_bombs("2s 2c 2d 2h 9s")
    1
    >>> [format_cards(b) for b in bombs_in("3s 3c 4s 4c 5s 5c 6s 6c 9h")]
    ['3♠ 3♣ 4♠ 4♣ 5♠ 5♣ 6♠ 6♣']
    """
    hand = sort_cards(cards)
    by_rank: dict[Rank, list[Card]] = {}
    for card in hand:
        by_rank.setdefault(card.rank, []).append(card)
    counts = tuple(len(by_rank.get(r, ())) for r in _RUN_RANKS)
    bombs: list[tuple[Card, ...]] = []
    runs: list[list[int]] = []
    for kind, at in _plan(counts)[1]:
        if kind == "quad":
            bombs.append(tuple(by_rank.pop(_RUN_RANKS[at])))
        else:
            runs.append([at, at + 2])
            for rank in _RUN_RANKS[at:at + 3]:
                del by_rank[rank][:2]
    for run in runs:  # a double sequence shown as it lies: the pairs left beside it are part of it
        while run[0] > 0 and len(by_rank.get(_RUN_RANKS[run[0] - 1], ())) >= 2:
            run[0] -= 1
            del by_rank[_RUN_RANKS[run[0]]][:2]
        while run[1] < len(_RUN_RANKS) - 1 and len(by_rank.get(_RUN_RANKS[run[1] + 1], ())) >= 2:
            run[1] += 1
            del by_rank[_RUN_RANKS[run[1]]][:2]
    pairs = {r: [c for c in hand if c.rank is r] for r in _RUN_RANKS}
    used: dict[Rank, int] = {}
    for low, high in sorted(runs):
        taken: list[Card] = []
        for rank in _RUN_RANKS[low:high + 1]:
            start = used.get(rank, 0)
            taken.extend(pairs[rank][start:start + 2])
            used[rank] = start + 2
        bombs.append(tuple(taken))
    if len(by_rank.get(Rank.TWO, ())) == 4:
        bombs.append(tuple(by_rank[Rank.TWO]))
    return tuple(sorted(bombs, key=lambda b: card_power(b[0])))


def count_bombs(cards: str | Iterable[Card]) -> int:
    """How many bombs :func:`bombs_in` finds."""
    return len(bombs_in(cards))


@lru_cache(maxsize=4096)
def _plan(counts: tuple[int, ...], at: int = 0, runs: tuple[int, ...] = ()) -> tuple[int, tuple[tuple[str, int], ...]]:
    """(most bombs, which) from rank index ``at`` on; ``runs`` are the starts of open double sequences.

    A double sequence is closed as soon as it has three pairs: a longer one makes no more bombs.
    """
    if at == len(counts):
        return 0, ()
    count = counts[at]
    best = _plan(counts, at + 1, ())
    if count == 4:
        rest = _plan(counts, at + 1, ())
        best = max(best, (rest[0] + 1, (("quad", at), *rest[1])), key=lambda p: p[0])
    for pairs in range(1, count // 2 + 1):
        for kept in range(min(pairs, len(runs)) + 1):
            for going_on in combinations(runs, kept):
                closed = tuple(s for s in going_on if at - s == 2)
                still = tuple(s for s in going_on if at - s < 2) + (at,) * (pairs - kept)
                rest = _plan(counts, at + 1, tuple(sorted(still)))
                option = (rest[0] + len(closed), (*(("run", s) for s in closed), *rest[1]))
                best = max(best, option, key=lambda p: p[0])
    return best


def splits_into_bombs(cards: str | Iterable[Card]) -> bool:
    """Whether the cards are bombs and nothing else, however the bombs lie: fours of a kind
    and double sequences of three or more pairs (4, 5, 7 pairs… each one bomb), no 2.

    >>> splits_into_bombs("3c 3d 4c 4d 5c 5d 6c 6d"), splits_into_bombs("3c 3d 4c 4d 5c 5d 6c")
    (True, False)
    >>> splits_into_bombs("3c 3d 4c 4d 5c 5d 6c 6d 7c 7d 8c 8d 9c 9d 9s 9h Ks Kc Kd Kh")
    True
    """
    counts = [0] * len(_RUN_RANKS)
    for card in (parse_cards(cards) if isinstance(cards, str) else cards):
        if not isinstance(card, Card) or card.rank is Rank.TWO:
            return False
        counts[_RUN_RANKS.index(card.rank)] += 1
    return _covers(tuple(counts))


@lru_cache(maxsize=4096)
def _covers(counts: tuple[int, ...], at: int = 0, runs: tuple[int, ...] = ()) -> bool:
    """Whether the counts from rank index ``at`` on are used up by fours of a kind and double
    sequences; ``runs`` are the lengths (capped at 3) of the double sequences still open."""
    if at == len(counts):
        return all(r >= 3 for r in runs)
    count = counts[at]
    if count == 0:
        return all(r >= 3 for r in runs) and _covers(counts, at + 1, ())
    if count == 4 and all(r >= 3 for r in runs) and _covers(counts, at + 1, ()):
        return True
    if count % 2:
        return False
    pairs = count // 2
    for kept in range(min(pairs, len(runs)) + 1):
        for going_on in combinations(range(len(runs)), kept):
            if any(runs[i] < 3 for i in range(len(runs)) if i not in going_on):
                continue
            still = tuple(sorted(min(runs[i] + 1, 3) for i in going_on)) + (1,) * (pairs - kept)
            if _covers(counts, at + 1, tuple(sorted(still))):
                return True
    return False


def card_in_no_bomb(cards: Sequence[Card]) -> Card | None:
    """A card of ``cards`` (no 2s) that no bomb made of ``cards`` holds, or ``None``.

    A card is in a bomb when its rank is four of a kind here, or its rank is in a run of three
    or more ranks of at least two cards each (a double sequence holds no 2).

    >>> card_in_no_bomb(parse_cards("3c 3d 4c 4d 5c 5d 9h")), card_in_no_bomb(parse_cards("3c 3d 3h 4c 4d 5c 5d"))
    (Card.parse('9♥'), None)
    """
    count = {rank: sum(1 for c in cards if c.rank is rank) for rank in RANK_ORDER}
    in_runs: set[Rank] = set()
    run: list[Rank] = []
    for rank in (*_RUN_RANKS, None):
        if rank is not None and count[rank] >= 2:
            run.append(rank)
            continue
        if len(run) >= 3:
            in_runs.update(run)
        run = []
    for card in sorted(cards, key=card_power):
        if count[card.rank] != 4 and card.rank not in in_runs:
            return card
    return None


def card_too_many(cards: Sequence[Card]) -> Card | None:
    """A card without which ``cards`` (no 2s) are bombs and nothing else (from the top), or ``None``.

    >>> card_too_many(parse_cards("3c 3d 4c 4d 5c 5d 5h")), card_too_many(parse_cards("3s 3c 3d 3h 4s 4c 5s 5c"))
    (Card.parse('5♥'), None)
    """
    ordered = sorted(cards, key=card_power)
    for card in reversed(ordered):
        rest = list(ordered)
        rest.remove(card)
        if splits_into_bombs(rest):
            return card
    return None
