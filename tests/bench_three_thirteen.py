"""Benchmark of the Three Thirteen solver; run with ``python -m tests.bench_three_thirteen``.

Times :func:`referee.three_thirteen.best_split` per hand on random hands of every
round size, on dense families (one suit, twins, many wild cards) and on a fixed
list of the worst hands found by random search (``ADVERSARIAL``), and the simple
reference solver on the hands it can do (ten cards or fewer), in the same run.

Each hand is timed *cold* (the solver's caches cleared before the call, as for
the first hand a fresh process sees) and *warm* (the same hand again); each is
the best of three passes over the category (a machine pause then hits one
run of a hand, not all three), with the garbage collector paused as in timeit.
Prints a Markdown table; the ratio is the reference's median over the cold median.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import time
from collections.abc import Callable
from functools import partial

import referee.three_thirteen_solver as solver
from referee.cards import JOKER, AnyCard, Card, Rank, Suit, parse_cards
from referee.three_thirteen import ThreeThirteenRules, best_split
from tests.reference_three_thirteen import reference_points

Hand = tuple[list[AnyCard], int, ThreeThirteenRules, int]
REFERENCE_MAX = 10


def deck(decks: int, jokers: bool) -> list[AnyCard]:
    cards: list[AnyCard] = [Card(r, s) for r in Rank for s in Suit] * decks
    return cards + [JOKER] * (2 * decks if jokers else 0)


def random_round(rng: random.Random, size: int) -> Hand:
    rules = ThreeThirteenRules(
        jokers=rng.random() < 0.3, aces=rng.choice(["low", "high_or_low"]), faces=rng.choice(["ten", "rank"])
    )
    decks = rng.choice([1, 2, 2, 3])
    wild = size if size <= 13 else size - 13
    return rng.sample(deck(decks, rules.jokers), size), wild, rules, decks


def one_suit(rng: random.Random, size: int) -> Hand:
    suit = rng.choice(list(Suit))
    hand: list[AnyCard] = [Card(r, suit) for r in Rank]
    rng.shuffle(hand)
    wild = rng.choice([r for r in range(1, 14)])
    rules = ThreeThirteenRules(aces=rng.choice(["low", "high_or_low"]))
    extra = [Card(Rank(rng.randint(1, 13)), Suit((suit + 1) % 4)) for _ in range(size - 13)]
    return hand[:13] + extra, wild, rules, 2


def twins(rng: random.Random, size: int) -> Hand:
    decks = rng.choice([2, 3, 4])
    suits = rng.sample(list(Suit), 2)
    low = rng.randint(1, 8)
    pool: list[AnyCard] = [Card(Rank(r), s) for r in range(low, low + 6) for s in suits] * decks
    rules = ThreeThirteenRules(aces=rng.choice(["low", "high_or_low"]))
    wild = rng.choice([low + 2, 13 if low + 6 <= 13 else 1])
    return rng.sample(pool, size), wild, rules, decks


def many_wilds(rng: random.Random, size: int) -> Hand:
    decks = rng.choice([2, 3, 4])
    rules = ThreeThirteenRules(jokers=True, aces=rng.choice(["low", "high_or_low"]), faces="rank")
    wild = size if size <= 13 else size - 13
    n_wild = rng.randint(6, 8)
    wilds: list[AnyCard] = [JOKER] * rng.randint(2, min(n_wild, 2 * decks))
    wilds += rng.sample([Card(Rank(wild), s) for s in Suit] * decks, n_wild - len(wilds))
    naturals = [c for c in deck(decks, False) if isinstance(c, Card) and c.rank != wild]
    suits = rng.sample(list(Suit), 2)
    naturals = [c for c in naturals if c.suit in suits]
    return wilds + rng.sample(naturals, size - n_wild), wild, rules, decks


# The worst hands found by random search over dense hands (12-15 cards, twins, many
# wild cards and jokers, both ace rules), against the layered solver and the A* one:
# (hand, wild rank, aces, faces, jokers, decks).
ADVERSARIAL: list[tuple[str, int, str, str, bool, int]] = [
    # two-deck-or-more twins, ♣/♥ or ♠/♣ A-6, aces high or low
    ("4♣ 3♣ 2♥ 3♥ 2♣ 3♣ 5♣ 6♥ 6♣ A♣ 5♥ A♥ 3♥ 4♥ 4♣", 3, "high_or_low", "ten", False, 4),
    ("5♥ 6♥ 3♣ 6♥ 2♥ 3♣ 4♥ A♥ 5♣ 4♥ 2♣ 4♣ 2♥ 3♥ 4♣", 3, "high_or_low", "ten", False, 2),
    ("2♣ 3♣ A♦ 6♦ 6♣ 4♣ 6♦ A♣ 4♦ 3♣ 4♣ 3♣ 5♦ 6♣", 3, "high_or_low", "ten", False, 3),
    ("6♠ 6♣ 3♠ 4♠ 5♣ 4♣ 5♠ A♣ 6♠ A♠ 3♣ 3♠ 5♠ 4♣ 4♠", 3, "high_or_low", "ten", False, 2),
    ("4♠ 5♥ 4♥ 2♠ 2♠ 4♠ 5♠ 3♠ 5♥ 4♥ 3♥ 6♠ 6♥ 7♠ 7♥", 4, "low", "ten", False, 3),
    ("2♠ 3♦ 6♠ 4♠ 3♠ 6♦ 5♠ 6♠ A♠ A♠ 2♠ 3♠ 5♠ 2♦ A♦", 13, "high_or_low", "ten", False, 3),
    ("5♦ 4♦ 4♥ 2♦ 2♥ K♥ 3♦ 5♦ 2♥ 5♥ A♥ 6♥ K♥ 3♥ 5♥", 13, "high_or_low", "ten", True, 2),
    ("6♣ J♦ 8♠ 9♦ 10♠ 6♣ 10♦ J♠ 10♦ 8♦ J♦ 7♦ 7♠ 7♠ 9♠", 6, "high_or_low", "ten", False, 2),
    ("5♦ 9♠ K♦ 8♦ 6♦ 5♦ 9♥ 4♦ K♦ 2♦ 4♦ 8♦ 2♦ 7♦ 3♦", 9, "low", "rank", False, 3),
    # 6-8 wild cards and jokers
    ("JK JK JK 2♠ 2♦ 2♦ 6♥ A♥ 5♦ 3♦ 3♦ 4♥ 7♦ A♦ K♥", 2, "high_or_low", "rank", True, 4),
    ("JK JK JK JK 2♣ 2♣ 2♦ A♥ 8♣ 10♣ A♥ 7♥ 9♥ Q♣ 10♥", 2, "high_or_low", "rank", True, 4),
    ("JK JK JK JK 2♠ 2♦ 8♠ 6♠ 7♠ Q♥ J♠ 6♥ A♠ 5♠ 10♠", 2, "high_or_low", "rank", True, 2),
    ("JK JK JK JK 2♦ 2♦ Q♦ 10♠ 5♦ 6♦ A♠ 8♦ 7♦ 5♠ 6♠", 2, "high_or_low", "rank", True, 3),
    ("JK JK JK JK JK JK 6♣ J♠ 3♠ A♠ 4♣ K♠ 6♠ 8♠ A♣", 2, "high_or_low", "rank", True, 3),
    # thirteen of a suit and more
    ("3♣ 8♣ Q♣ 5♣ A♣ K♣ J♣ 2♣ 7♣ 9♣ 6♣ 4♣ 10♣ 5♦ 5♦", 5, "high_or_low", "ten", False, 2),
    ("10♥ 7♠ 10♦ 2♠ 3♠ 5♠ J♠ Q♠ Q♠ 4♠ A♠ 5♠ J♠ 2♠ 10♠", 10, "high_or_low", "ten", False, 2),
    # four suits, few wild cards, points left over
    ("A♥ 10♠ 4♣ Q♠ 3♦ 9♠ J♣ 3♠ 2♠ 4♦ 3♣ Q♦ 4♠ 4♥ 3♥", 12, "high_or_low", "ten", True, 1),
    ("4♣ 3♣ 6♠ 10♥ 5♣ 4♠ 8♣ 2♠ Q♠ 10♣ 5♠ 6♠ 8♠ 5♣ 5♠", 10, "low", "rank", True, 4),
    ("9♣ 10♠ 5♠ 4♦ JK 3♣ 6♣ 3♠ 4♥ A♠ 4♠ 6♠ 4♥ JK 2♠", 4, "high_or_low", "ten", True, 3),
    ("K♣ 2♣ 5♣ JK 4♦ 6♣ J♥ 4♣ 5♦ A♦ 4♣ 2♦ 5♦ K♦ J♣", 11, "high_or_low", "ten", True, 2),
    ("2♥ A♣ 5♥ 6♣ Q♠ 2♣ Q♦ 3♣ 10♣ 8♣ Q♥ 5♣ K♥ 2♥", 12, "high_or_low", "rank", False, 2),
]


def adversarial() -> list[Hand]:
    return [
        (list(parse_cards(text)), wild, ThreeThirteenRules(aces=aces, faces=faces, jokers=jokers), decks)
        for text, wild, aces, faces, jokers, decks in ADVERSARIAL
    ]


PASSES = 3


def clear_caches() -> None:
    """Forget everything the solver cached, as in a fresh process."""
    for value in vars(solver).values():
        if callable(getattr(value, "cache_clear", None)):
            value.cache_clear()


def timed(fn: Callable[[], object], repeat: int, *, cold: bool = False) -> float:
    """The best of ``repeat`` calls, with the garbage collector paused during each call
    (as :mod:`timeit` does), so a collection of the benchmark's own garbage is not
    charged to the hand that happens to trigger it."""
    best = float("inf")
    for _ in range(repeat):
        if cold:
            clear_caches()
        gc.collect()
        gc.disable()
        try:
            start = time.perf_counter()
            fn()
            best = min(best, time.perf_counter() - start)
        finally:
            gc.enable()
    return best


def ms(seconds: float) -> str:
    return f"{seconds * 1e3:.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=200, help="hands per category")
    parser.add_argument("--seed", type=int, default=13)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    categories: list[tuple[str, Callable[[], list[Hand]]]] = []
    for size in range(3, 16):
        categories.append((f"random, {size} cards", lambda size=size: [random_round(rng, size) for _ in range(args.hands)]))
    families: list[tuple[str, Callable[[], Hand]]] = [
        ("13 of one suit (+0-2 cards)", lambda: one_suit(rng, rng.randint(13, 15))),
        ("twins, 2-4 decks, 9-15 cards", lambda: twins(rng, rng.randint(9, 15))),
        ("twins, 2-4 decks, 6-10 cards", lambda: twins(rng, rng.randint(6, 10))),
        ("6-8 wilds and jokers, 13-15 cards", lambda: many_wilds(rng, rng.randint(13, 15))),
        ("6-8 wilds and jokers, 9-10 cards", lambda: many_wilds(rng, rng.randint(9, 10))),
    ]
    for name, make in families:
        categories.append((name, lambda make=make: [make() for _ in range(args.hands)]))
    categories.append((f"adversarial (the {len(ADVERSARIAL)} worst found)", adversarial))
    print(
        "| hands | n | cold median | cold worst | warm median | warm worst "
        "| reference median | reference worst | ratio |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    overall = {"cold": 0.0, "warm": 0.0}
    for name, make in categories:
        hands = make()
        calls = [partial(best_split, hand, wild, rules, decks=decks) for hand, wild, rules, decks in hands]
        # Three passes over the whole category, keeping each hand's best: a pause of the
        # (virtual) machine then hits one pass of a hand, not all three of its runs.
        cold = [min(runs) for runs in zip(*(
            [timed(call, 1, cold=True) for call in calls] for _ in range(PASSES)), strict=True)]
        warm = [min(runs) for runs in zip(*([timed(call, 1) for call in calls] for _ in range(PASSES)), strict=True)]
        ref_times = [timed(partial(reference_points, hand, wild, rules), 1)
                     for hand, wild, rules, decks in hands if len(hand) <= REFERENCE_MAX]
        overall["cold"] = max(overall["cold"], max(cold))
        overall["warm"] = max(overall["warm"], max(warm))
        med = statistics.median(cold)
        if ref_times:
            rmed, rworst = statistics.median(ref_times), max(ref_times)
            ref = f"{ms(rmed)} | {ms(rworst)} | {rmed / med:.1f}×"
        else:
            ref = "— | — | —"
        print(
            f"| {name} | {len(hands)} | {ms(med)} | {ms(max(cold))} "
            f"| {ms(statistics.median(warm))} | {ms(max(warm))} | {ref} |"
        )
    print(
        f"\nWorst hand overall: {ms(overall['cold'])} cold, {ms(overall['warm'])} warm "
        f"(best of {PASSES} passes per hand, CPython)."
    )


if __name__ == "__main__":
    main()
