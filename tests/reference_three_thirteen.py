"""A deliberately simple Three Thirteen solver: the correctness reference.

It tries every way to split the hand into melds and leftover cards, checks each
meld literally against the rules, and counts every leftover card (wild cards
included) at its value.  Exponential: fine up to about ten cards.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache

from referee.cards import AnyCard, Card, Joker, Rank
from referee.three_thirteen import Meld, RankOnly, Split, ThreeThirteenRules, card_points


def wild(card: AnyCard, wild_rank: int) -> bool:
    return isinstance(card, Joker) or int(card.rank) == wild_rank


def is_set(cards: Sequence[AnyCard], wild_rank: int) -> bool:
    """Three or more cards; the natural ones all of one rank."""
    ranks = {int(c.rank) for c in cards if not wild(c, wild_rank)}
    return len(cards) >= 3 and len(ranks) <= 1


def is_run(cards: Sequence[AnyCard], wild_rank: int, aces_high: bool) -> bool:
    """Three to thirteen cards; some window of consecutive positions holds each
    natural card at its own position (an ace at 1, or at 14 with aces high)."""
    n = len(cards)
    if not 3 <= n <= 13:
        return False
    naturals = [c for c in cards if not wild(c, wild_rank)]
    if len({c.suit for c in naturals}) > 1:
        return False
    last = 14 if aces_high else 13
    for low in range(1, last - n + 2):
        window = range(low, low + n)
        taken = set()
        ok = True
        for c in naturals:
            rank = int(c.rank)
            if rank in window:
                pos = rank
            elif rank == 1 and 14 in window:
                pos = 14
            else:
                ok = False
                break
            if pos in taken:
                ok = False
                break
            taken.add(pos)
        if ok:
            return True
    return False


def is_meld(cards: Sequence[AnyCard], wild_rank: int, aces_high: bool) -> bool:
    return is_set(cards, wild_rank) or is_run(cards, wild_rank, aces_high)


def reference_points(hand: Sequence[AnyCard], wild_rank: int, rules: ThreeThirteenRules) -> int:
    """The fewest leftover points over every split of the hand."""
    cards = list(hand)
    n = len(cards)
    wr = int(wild_rank)
    pts = [card_points(c, rules) for c in cards]

    @cache
    def meld_ok(mask: int) -> bool:
        return is_meld([cards[i] for i in range(n) if mask >> i & 1], wr, rules.aces_high)

    @cache
    def best(mask: int) -> int:
        if not mask:
            return 0
        i = (mask & -mask).bit_length() - 1
        rest = mask & ~(1 << i)
        result = pts[i] + best(rest)
        sub = rest
        while sub:
            if sub & (sub - 1) and meld_ok(sub | (1 << i)):  # two or more others
                result = min(result, best(rest & ~sub))
            sub = (sub - 1) & rest
        return result

    return best((1 << n) - 1)


def split_problems(
    split: Split, hand: Sequence[AnyCard], wild_rank: int, rules: ThreeThirteenRules, decks: int | None = None
) -> list[str]:
    """Everything wrong with a split the solver returned (empty when valid); with
    ``decks``, also every wild card standing for a card the decks cannot supply."""
    problems = []
    if decks is not None:
        problems.extend(label_problems(split, decks))
    used = [c for m in split.melds for c in m.cards] + list(split.leftover)
    if sorted(map(repr, used)) != sorted(map(repr, hand)):
        problems.append(f"cards used {used} are not the hand {list(hand)}")
    for m in split.melds:
        problems.extend(meld_problems(m, wild_rank, rules))
    if sum(card_points(c, rules) for c in split.leftover) != split.points:
        problems.append("points do not add up")
    return problems


def meld_problems(m: Meld, wild_rank: int, rules: ThreeThirteenRules) -> list[str]:
    """Check a meld against its faces: naturals stand for themselves, faces make a set or run."""
    problems = []
    if len(m.cards) != len(m.faces) or len(m.cards) < 3:
        return [f"{m} is too short or malformed"]
    for c, f in zip(m.cards, m.faces, strict=True):
        if c != f and not wild(c, wild_rank):
            problems.append(f"natural {c} stands for {f} in {m}")
        if not isinstance(f, (Card, RankOnly)):
            problems.append(f"face {f} is not a card")
    faces = list(m.faces)
    if m.kind == "set":
        if len({f.rank for f in faces}) != 1:
            problems.append(f"set {m} mixes ranks")
    elif m.kind == "run":
        if len({f.suit for f in faces if isinstance(f, Card)}) != 1:
            problems.append(f"run {m} mixes suits")
        positions = [int(f.rank) for f in faces]
        if rules.aces_high and positions[0] != 1 and Rank.ACE in [f.rank for f in faces]:
            positions = [14 if p == 1 else p for p in positions]
        if positions != list(range(positions[0], positions[0] + len(positions))) or len(positions) > 13:
            problems.append(f"run {m} is not consecutive")
    else:
        problems.append(f"unknown kind {m.kind}")
    return problems


def label_problems(split: Split, decks: int) -> list[str]:
    """Cards that wild cards stand for more often than the decks hold them besides
    the copies in the hand (a set's wild card may stand for its rank alone)."""
    held = Counter(c for c in split.cards if isinstance(c, Card))
    labels = Counter(f for m in split.melds for c, f in zip(m.cards, m.faces, strict=True) if c != f)
    return [
        f"{label} is stood for {n} times, but {decks} deck(s) hold it only {decks - held[label]} more"
        for label, n in labels.items()
        if isinstance(label, Card) and held[label] + n > decks
    ]
