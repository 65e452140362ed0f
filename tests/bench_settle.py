"""Benchmark of settle-up; run with ``python -m tests.bench_settle``.

Times :func:`referee.settle.settle` for 12 people (the goal: under 50 ms each) on random
balances (large amounts: zero-sum groups are rare; small amounts: many), and on the
hardest families found (many people owing the same small amount), and for 16 people (the
most one settle-up takes).  Each case is the best of three runs with the garbage collector
paused, as in timeit; prints the median and the worst per family, in milliseconds.
"""

from __future__ import annotations

import gc
import random
import statistics
import time
from collections.abc import Callable

from referee.settle import settle

Case = dict[str, int]


def zero_sum(values: list[int]) -> Case:
    return {f"P{i:02}": v for i, v in enumerate([*values, -sum(values)])}


def families(rnd: random.Random) -> dict[str, list[Case]]:
    def random_cases(people: int, pick: Callable[[], int]) -> list[Case]:
        return [zero_sum([pick() for _ in range(people - 1)]) for _ in range(200)]

    return {
        "12 people, amounts ±5,000": random_cases(12, lambda: rnd.randint(-5000, 5000)),
        "12 people, amounts ±3": random_cases(12, lambda: rnd.randint(-3, 3)),
        "12 people, amounts in {1, 2, -3}": random_cases(12, lambda: rnd.choice([1, 2, -3])),
        "12 people, 8 owe 1 / 4 owed 2": [{**{f"A{i}": -1 for i in range(8)}, **{f"B{i}": 2 for i in range(4)}}],
        "12 people, 9 owe 1 / 3 owed 3": [{**{f"A{i}": -1 for i in range(9)}, **{f"B{i}": 3 for i in range(3)}}],
        "16 people, amounts ±5,000": random_cases(16, lambda: rnd.randint(-5000, 5000))[:40],
        "16 people, amounts in {1, 2, -3}": random_cases(16, lambda: rnd.choice([1, 2, -3]))[:40],
        "16 people, 12 owe 1 / 4 owed 3": [{**{f"A{i:02}": -1 for i in range(12)}, **{f"B{i}": 3 for i in range(4)}}],
    }


def timed(case: Case) -> float:
    best = float("inf")
    for _ in range(3):
        gc.disable()
        try:
            start = time.perf_counter()
            settle(case)
            best = min(best, time.perf_counter() - start)
        finally:
            gc.enable()
    return best * 1000


def main() -> None:
    rnd = random.Random(2026)
    print("| family | cases | median ms | worst ms |")
    print("|---|---:|---:|---:|")
    for name, cases in families(rnd).items():
        times = [timed(case) for case in cases]
        print(f"| {name} | {len(cases)} | {statistics.median(times):.2f} | {max(times):.2f} |")


if __name__ == "__main__":
    main()
