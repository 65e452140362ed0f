"""Benchmark of the Three Thirteen solver; run with ``python -m tests.bench_three_thirteen``.

Times :func:`referee.three_thirteen.best_split` per hand on random hands of every
round size and on adversarial ones, and the simple reference solver on the hands
it can do (ten cards or fewer), in the same run.  Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from functools import partial

from referee.cards import JOKER, AnyCard, Card, Rank, Suit
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


def timed(fn: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=200, help="hands per category")
    parser.add_argument("--seed", type=int, default=13)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    categories: list[tuple[str, Callable[[], Hand]]] = []
    for size in range(3, 16):
        categories.append((f"random, {size} cards", lambda size=size: random_round(rng, size)))
    categories += [
        ("13 of one suit (+0-2 cards)", lambda: one_suit(rng, rng.randint(13, 15))),
        ("twins, 2-4 decks, 9-15 cards", lambda: twins(rng, rng.randint(9, 15))),
        ("twins, 2-4 decks, 6-10 cards", lambda: twins(rng, rng.randint(6, 10))),
        ("6-8 wilds and jokers, 13-15 cards", lambda: many_wilds(rng, rng.randint(13, 15))),
        ("6-8 wilds and jokers, 9-10 cards", lambda: many_wilds(rng, rng.randint(9, 10))),
    ]
    print("| hands | n | best_split median | best_split worst | reference median | reference worst | ratio |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    overall_worst = 0.0
    for name, make in categories:
        hands = [make() for _ in range(args.hands)]
        times = []
        ref_times = []
        for hand, wild, rules, decks in hands:
            times.append(timed(partial(best_split, hand, wild, rules, decks=decks), 3))
            if len(hand) <= REFERENCE_MAX:
                ref_times.append(timed(partial(reference_points, hand, wild, rules), 1))
        overall_worst = max(overall_worst, max(times))
        med, worst = statistics.median(times), max(times)
        if ref_times:
            rmed, rworst = statistics.median(ref_times), max(ref_times)
            ref = f"{rmed * 1e3:.2f} ms | {rworst * 1e3:.1f} ms | {rmed / med:.1f}×"
        else:
            ref = "— | — | —"
        print(f"| {name} | {len(hands)} | {med * 1e3:.2f} ms | {worst * 1e3:.2f} ms | {ref} |")
    print(f"\nWorst hand overall: {overall_worst * 1e3:.2f} ms (best of 3 runs per hand, CPython).")


if __name__ == "__main__":
    main()
