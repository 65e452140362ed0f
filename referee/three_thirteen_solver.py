"""The Three Thirteen solver: the split of a hand that leaves the fewest points.

:func:`solve` takes the hand as counts of natural cards (``(rank, suit) -> copies``;
wild cards only as their number) and returns a :class:`Plan`: the runs, the sets
and the leftover natural cards of a best split.  :func:`referee.three_thirteen.best_split`
then deals the wild cards into the plan's gaps and names what each stands for.

**The search.**  Natural cards sit at positions 1 to 13 by rank; with aces high or
low an ace may also sit at position 14.  The search walks the positions upwards.
Its state holds, per suit, the open runs (as small codes, below), the aces kept
back for position 14, and the wild cards spent so far.  At each position every
open run takes a natural card of its suit, takes a wild card (only if a natural
of that suit lies within reach higher up), or closes (wild cards pad it to
three); natural cards may start new runs; the rest of the rank goes to the
rank's one set or is left over.  The search minimises one key: the leftover
points, then the number of leftover cards, then the number of melds
(``points * BIG + cards * MID + melds``).

**Best first.**  States are taken best first (A*, :func:`_solve`): by key so far
plus a lower bound on what finishing costs (:class:`_Bound`: one meld per open
run, and the leftover no finish can avoid), so states that cannot beat the best
split are never expanded, and the first finished state taken is a best split.
Each position's moves are worked out once per state shape and cached
(:func:`_transitions`, :func:`_suit_options`).

**Why it is small and exact.**  One set per rank is enough (two sets of a rank
merge into one needing no more wild cards), so only how many cards of a rank stay
out of runs matters.  And a run is only worth having with at least two natural
cards and a natural card at its top (a run with one natural card is no better than
a set of it; trailing wild cards are padding): a run may not close after a wild
card, nor with a single card.

Run codes: 1 = one card; 2 = two cards, ending in a natural; 3 = three or more,
ending in a natural; 4 = ending in a wild (two cards or more: what follows is the
same either way).

>>> from collections import Counter
>>> points = {p: min(p if p <= 13 else 1, 10) for p in range(1, 15)}  # what each position counts
>>> plan = solve(Counter({(9, 0): 1, (9, 3): 1, (9, 1): 1, (4, 3): 1, (5, 3): 1}), 1, False, points)
>>> plan.points, [(r.symbol, [str(c) for c in cards]) for r, cards in plan.sets], plan.runs
(0, [('9', ['9♠', '9♣', '9♥'])], ((3, ((4, True), (5, True))),))
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from referee.cards import Card, Rank, Suit

__all__ = ["Plan", "solve", "BIG", "MID", "position_rank"]


@dataclass(frozen=True, slots=True)
class Plan:
    """A best split before the wild cards are dealt into it.

    ``runs``: per run its suit and its ``(position, natural?)`` entries, low to high
    (a run shorter than three is padded with wild cards by the caller); ``sets``:
    per set its rank and natural cards; ``dead``: the natural cards left over.
    ``key`` is the search's key (``points * BIG + cards * MID + melds``).
    """

    key: int
    runs: tuple[tuple[int, tuple[tuple[int, bool], ...]], ...]
    sets: tuple[tuple[Rank, tuple[Card, ...]], ...]
    dead: tuple[Card, ...]

    @property
    def points(self) -> int:
        """What the natural leftover costs."""
        return self.key // BIG


def solve(counts: Mapping[tuple[int, int], int], wilds: int, aces_high: bool, points: Mapping[int, int]) -> Plan:
    """The best :class:`Plan` for natural cards ``counts`` (``(rank, suit) -> copies``)
    and ``wilds`` wild cards; ``points[p]`` is what a card at position ``p`` costs."""
    key, decisions = _solve(counts, wilds, aces_high, points)
    return _plan(key, decisions, aces_high)


def _plan(key: int, decisions: Sequence[_Decision | None], aces_high: bool) -> Plan:
    """Walk the decisions position by position into runs, sets and leftover cards."""
    top = 14 if aces_high else 13
    open_runs: list[list[list[tuple[int, bool]]]] = [[], [], [], []]
    runs: list[tuple[int, tuple[tuple[int, bool], ...]]] = []
    sets: list[tuple[Rank, tuple[Card, ...]]] = []
    dead: list[Card] = []
    for p in range(1, top + 1):
        dec = decisions[p - 1]
        if dec is None:
            continue
        combo, verdict = dec
        pool: list[Card] = []
        for s in range(4):
            _state, left, _w, _closed, actions, new = combo[s]
            still: list[list[tuple[int, bool]]] = []
            for run, act in zip(open_runs[s], actions, strict=True):
                if act == "C":
                    runs.append((s, tuple(run)))
                else:
                    run.append((p, act == "N"))
                    still.append(run)
            still.extend([[(p, True)] for _ in range(new)])
            still.sort(key=_run_code)
            open_runs[s] = still
            pool.extend([Card(position_rank(p), Suit(s))] * left)
        if verdict == "set":
            sets.append((position_rank(p), tuple(pool)))
        elif verdict == "dead":
            dead.extend(pool)
    for s in range(4):
        runs.extend((s, tuple(run)) for run in open_runs[s])
    return Plan(key, tuple(runs), tuple(sets), tuple(dead))


def position_rank(p: int) -> Rank:
    """The rank at search position ``p`` (14 is the high ace)."""
    return Rank.ACE if p == 14 else Rank(p)


BIG = 1_000_000
MID = 1_000

_AFTER_NATURAL = {1: 2, 2: 3, 3: 3, 4: 3}
_AFTER_WILD = {1: 4, 2: 4, 3: 4, 4: 4}
_CLOSE_PAD = {2: 1, 3: 0}

# Per-suit moves: (new open runs, naturals left for the set, wilds spent, runs closed, actions, runs started)
_Option = tuple[tuple[int, ...], int, int, int, tuple[str, ...], int]
_IDLE: _Option = ((), 0, 0, 0, (), 0)
"""The move of a suit with no open run and no card at a position."""


def _run_code(entries: Sequence[tuple[int, bool]]) -> int:
    """The code of a run from its (position, natural?) entries."""
    n = len(entries)
    return min(n, 3) if entries[-1][1] else 4


def _suit_case(
    runs: tuple[int, ...], k: int, can_wild: bool, can_start: bool, ahead: int
) -> tuple[tuple[int, ...], int, bool, bool, int]:
    """The arguments of :func:`_suit_options` without what cannot matter (so that
    more positions share them): wild cards only extend runs, new runs need natural
    cards, and no more runs than there are can wait for natural cards ahead."""
    return runs, k, can_wild and bool(runs), can_start and k > 0, min(ahead, len(runs) + k)


@lru_cache(maxsize=8192)
def _suit_options(
    runs: tuple[int, ...], k: int, can_wild: bool, can_start: bool, ahead: int
) -> tuple[_Option, ...]:
    """Every way the open runs of one suit can meet ``k`` natural cards at a position.

    ``ahead`` natural cards of the suit lie higher up: each run still waiting for
    a natural card (codes 1 and 4) needs one of its own."""
    choices = []
    for code in runs:
        acts = ["N"] if k else []
        if code in _CLOSE_PAD:
            acts.append("C")
        if can_wild:
            acts.append("W")
        choices.append(acts)
    seen: set[tuple[tuple[int, ...], int, int, int]] = set()
    out: list[_Option] = []
    for combo in itertools.product(*choices):
        naturals = combo.count("N")
        if naturals > k:
            continue
        wilds = 0
        closed = 0
        cont: list[int] = []
        for code, act in zip(runs, combo, strict=True):
            if act == "C":
                closed += 1
                wilds += _CLOSE_PAD[code]
            elif act == "N":
                cont.append(_AFTER_NATURAL[code])
            else:
                wilds += 1
                cont.append(_AFTER_WILD[code])
        for new in range(k - naturals + 1 if can_start else 1):
            state = tuple(sorted(cont + [1] * new))
            if sum(code != 2 and code != 3 for code in state) > ahead:
                continue
            left = k - naturals - new
            sig = (state, left, wilds, closed)
            if sig in seen:
                continue
            seen.add(sig)
            out.append((state, left, wilds, closed, combo, new))
    return tuple(out)


def _moves(
    runs: tuple[tuple[int, ...], ...],
    ks: tuple[int, ...],
    can_wild: tuple[bool, ...],
    can_start: tuple[bool, ...],
    aheads: tuple[int, ...],
    keep_aces: bool,
    spare: int,
) -> tuple[tuple[tuple[tuple[int, ...], ...], tuple[int, ...], int, int, int, tuple[_Option, ...], int], ...]:
    """The four suits' moves combined, without the duplicates that only differ in
    which suit's naturals go to the set: (new runs, naturals left (per suit when
    aces are kept back, else their number), wilds spent, runs closed, per-suit moves, runs open after)."""
    per_suit = [
        [o for o in _suit_options(*_suit_case(runs[s], ks[s], can_wild[s], can_start[s], aheads[s])) if o[2] <= spare]
        if runs[s] or ks[s]
        else [_IDLE]
        for s in range(4)
    ]
    seen: set[tuple[object, ...]] = set()
    out = []
    for combo in itertools.product(*per_suit):
        spent = combo[0][2] + combo[1][2] + combo[2][2] + combo[3][2]
        if spent > spare:
            continue
        closed = combo[0][3] + combo[1][3] + combo[2][3] + combo[3][3]
        new_runs = (combo[0][0], combo[1][0], combo[2][0], combo[3][0])
        lefts = (combo[0][1], combo[1][1], combo[2][1], combo[3][1])
        total = lefts[0] + lefts[1] + lefts[2] + lefts[3]
        sig = (new_runs, lefts if keep_aces else total, spent, closed)
        if sig in seen:
            continue
        seen.add(sig)
        n_open = len(new_runs[0]) + len(new_runs[1]) + len(new_runs[2]) + len(new_runs[3])
        out.append((new_runs, lefts, total, spent, closed, combo, n_open))
    return tuple(out)


def _set_options(m: int, pts: int) -> tuple[tuple[int, int, int, int, str | None], ...]:
    """(wilds, points, leftover cards, melds, verdict) for the ``m`` naturals of a rank outside runs."""
    if m == 0:
        return ((0, 0, 0, 0, None),)
    if m >= 3:
        return ((0, 0, 0, 1, "set"),)
    return ((3 - m, 0, 0, 1, "set"), (0, m * pts, m, 0, "dead"))


_Decision = tuple[tuple[_Option, ...], str | None]
"""At one position: each suit's move, and ``"set"``, ``"dead"`` or ``None`` for the rest of the rank."""
_Move = tuple[int, tuple[tuple[int, ...], ...], "tuple[int, ...] | None", int, int, _Decision]


@lru_cache(maxsize=65536)
def _transitions(
    runs: tuple[tuple[int, ...], ...],
    ks: tuple[int, ...],
    can_wild: tuple[bool, ...],
    can_start: tuple[bool, ...],
    aheads: tuple[int, ...],
    keep_aces: bool,
    pts: int,
    spare: int,
) -> tuple[_Move, ...]:
    """Every way to play a position: the suits' moves (:func:`_moves`), then the
    rank's set or leftover (aces kept back for the top go nowhere yet).  Each is
    (wilds spent, new runs, aces kept back or None, key added, runs open after,
    decision), fewest wild cards first; none spends more than ``spare``."""
    out: list[_Move] = []
    moves = _moves(runs, ks, can_wild, can_start, aheads, keep_aces, spare)
    for new_runs, lefts, total, spent, closed, combo, n_open in moves:
        if keep_aces:
            out.append((spent, new_runs, lefts, closed, n_open, (combo, None)))
            continue
        for w, pt, dead, melds, verdict in _set_options(total, pts):
            if spent + w > spare:
                continue
            delta = pt * BIG + dead * MID + closed + melds
            out.append((spent + w, new_runs, None, delta, n_open, (combo, verdict)))
    out.sort(key=lambda move: move[0])
    return tuple(out)


def _reach(counts: Mapping[tuple[int, int], int], top: int) -> tuple[list[list[int]], list[list[int]], list[list[int]]]:
    """Per position and suit: the natural cards there (``avail``), how many positions lie
    between it and the suit's next natural card above (``gap``, 99 if none), and how
    many natural cards of the suit lie above it (``ahead``)."""
    avail = [[0] * 4 for _ in range(top + 2)]
    for (rank, suit), n in counts.items():
        avail[rank][suit] += n
    far = 99
    gap = [[far] * 4 for _ in range(top + 2)]
    ahead = [[0] * 4 for _ in range(top + 2)]
    for s in range(4):
        next_at = None
        above = 0
        for p in range(top, 0, -1):
            gap[p][s] = far if next_at is None else next_at - p - 1
            ahead[p][s] = above
            here = avail[1][s] if p == 14 else avail[p][s]
            if here:
                next_at = p
                above += here
    return avail, gap, ahead


_EMPTY_RUNS: tuple[tuple[int, ...], ...] = ((), (), (), ())
_NO_ACES = (0, 0, 0, 0)

# A search node: (position to play next, open runs per suit, aces kept back per suit, wilds spent).
_Node = tuple[int, tuple[tuple[int, ...], ...], tuple[int, ...], int]


def _needs(avail: list[list[int]], top: int) -> list[list[int]]:
    """``need[p][s]``: the fewest wild cards in any meld that holds a natural card at
    position ``p`` of suit ``s``, counting on every natural card of the hand (0, 1 or 2:
    two wild cards make a set of any card).  Only positions holding a card are filled in."""
    held = [[False] * 4 for _ in range(top + 1)]
    for q in range(1, top + 1):
        held[q] = [n > 0 for n in (avail[1] if q == 14 else avail[q])]
    need = [[2] * 4 for _ in range(top + 2)]
    for p in range(1, top + 1):
        total = sum(avail[1] if p == 14 else avail[p])
        set_need = 3 - total if total < 3 else 0
        for s in range(4):
            if not held[p][s]:
                continue
            fewest = min(set_need, 2)
            for low in range(max(1, p - 2), min(p, top - 2) + 1):
                missing = (not held[low][s]) + (not held[low + 1][s]) + (not held[low + 2][s])
                fewest = min(fewest, missing)
            need[p][s] = fewest
    if top == 14:  # an ace may sit low or high
        for s in range(4):
            need[1][s] = need[14][s] = min(need[1][s], need[14][s])
    return need


class _Bound:
    """An admissible estimate of what the cards still to place will cost: the
    leftover points (and cards) that no way of finishing can avoid.

    A card is *free* if an open run of its suit can reach it (through natural
    cards, and gaps no more than the wild cards to spare).  Any other card whose
    melds all need a wild card is left over once the wild cards are spent.  One
    whose melds all need two is left over with fewer than two to spare, and each
    wild card rescues at most one of them: its meld holds two wild cards within two
    places of it, and a wild card lies within two places of at most two of them.
    """

    def __init__(self, avail: list[list[int]], top: int, points: Mapping[int, int]) -> None:
        self.avail = avail
        self.top = top
        self.points = points
        self.need = need = _needs(avail, top)
        self.memo: dict[tuple[object, ...], int] = {}
        self.reaches: dict[tuple[int, int, int, bool], int] = {}
        held = [(need[q][s], avail[1 if q == 14 else q][s]) for q in range(1, top + 1) for s in range(4)]
        self.needing_one = sum(n for need_here, n in held if need_here == 1)
        self.needing_two = sum(n for need_here, n in held if need_here == 2)
        # Per suit and first position: the cards from there to the king needing one
        # wild card (points, cards) and the points of those needing two.
        self.ones: list[list[tuple[int, int]]] = []
        self.twos: list[list[tuple[int, ...]]] = []
        for s in range(4):
            ones = [(0, 0)] * (top + 2)
            twos: list[tuple[int, ...]] = [()] * (top + 2)
            for q in range(13, 0, -1):
                n = avail[q][s]
                ones[q] = ones[q + 1]
                twos[q] = twos[q + 1]
                if n and need[q][s] == 1:
                    ones[q] = (ones[q][0] + n * points[q], ones[q][1] + n)
                elif n and need[q][s] == 2:
                    twos[q] = twos[q] + (points[q],) * n
            self.ones.append(ones)
            self.twos.append(twos)

    def __call__(self, node: _Node, spare: int) -> int:
        p, runs, carry, _used = node
        if p > self.top or self.needing_two <= spare and (spare >= 2 or not self.needing_two) and (
            spare or not self.needing_one
        ):
            return 0  # enough wild cards for every card that needs them
        mask = (bool(runs[0]), bool(runs[1]), bool(runs[2]), bool(runs[3]))
        memo_key = (p, mask, carry, spare)
        value = self.memo.get(memo_key)
        if value is None:
            value = self.memo[memo_key] = self._estimate(p, mask, carry, spare)
        return value

    def _reach(self, s: int, first: int, spare: int, high_ace: bool) -> int:
        """The first position an open run of suit ``s`` cannot reach from ``first``."""
        memo_key = (s, first, spare, high_ace)
        reach = self.reaches.get(memo_key)
        if reach is None:
            reach = first
            gaps = 0
            while reach <= self.top:
                if not (high_ace if reach == 14 else self.avail[reach][s]):
                    gaps += 1
                    if gaps > spare:
                        break
                reach += 1
            self.reaches[memo_key] = reach
        return reach

    def _estimate(self, p: int, mask: tuple[bool, ...], carry: tuple[int, ...], spare: int) -> int:
        """The estimate before position ``p`` is played."""
        one_points = one_cards = 0
        twos: list[int] = []
        for s in range(4):
            reach = self._reach(s, p, spare, carry[s] > 0) if mask[s] else p
            if reach <= 13:
                one_points += self.ones[s][reach][0]
                one_cards += self.ones[s][reach][1]
                twos.extend(self.twos[s][reach])
            if carry[s] and reach <= 14 and self.need[14][s]:  # aces kept back for the top
                if self.need[14][s] == 1:
                    one_points += carry[s] * self.points[14]
                    one_cards += carry[s]
                else:
                    twos.extend([self.points[14]] * carry[s])
        if spare == 0:
            return (one_points + sum(twos)) * BIG + (one_cards + len(twos)) * MID
        if spare == 1:
            return sum(twos) * BIG + len(twos) * MID
        if len(twos) <= spare:
            return 0
        dead = sorted(twos)[: len(twos) - spare]
        return sum(dead) * BIG + len(dead) * MID


def _solve(
    counts: Mapping[tuple[int, int], int], wilds: int, aces_high: bool, points: Mapping[int, int]
) -> tuple[int, list[_Decision | None]]:
    """The best key and the decisions at each position (index 0 = position 1).

    A best-first (A*) walk over the positions.  A node's priority is its key so
    far plus what finishing must still cost at least: one meld for each open run
    (each closes exactly once) and the leftover that no finish avoids
    (:class:`_Bound`).  The estimate never exceeds the truth, so the first
    finished node taken off the heap is the best, and nodes whose estimate
    exceeds the best are never expanded.  (It may fall along a path, so a node
    reached again more cheaply is expanded again.)  Among equal priorities the
    furthest node goes first: it finishes soonest."""
    top = 14 if aces_high else 13
    avail, gap, ahead = _reach(counts, top)
    start: _Node = (1, _EMPTY_RUNS, _NO_ACES, 0)
    # node -> (key, parent, decision at the parent's position)
    best: dict[_Node, tuple[int, _Node | None, _Decision | None]] = {start: (0, None, None)}
    bound = _Bound(avail, top, points)
    can_play: dict[tuple[int, int], tuple[tuple[bool, ...], tuple[bool, ...]]] = {}
    expanded: dict[tuple[object, ...], list[tuple[int, int]]] = {}  # (position, runs, aces) -> [(wilds, key)]
    # (priority, -position, wilds spent, order, key, node)
    heap: list[tuple[int, int, int, int, int, _Node]] = [(0, -1, 0, 0, 0, start)]
    seq = 0
    finish = top + 1
    goal = top + 2

    def push(node: _Node, key: int, open_runs: int, parent: _Node, decision: _Decision | None) -> None:
        nonlocal seq
        entry = best.get(node)
        if entry is None or key < entry[0]:
            best[node] = (key, parent, decision)
            seq += 1
            f = key + open_runs + bound(node, wilds - node[3])
            heapq.heappush(heap, (f, -node[0], node[3], seq, key, node))

    while heap:
        _f, _neg_p, used, _order, key, node = heapq.heappop(heap)
        if best[node][0] < key:
            continue  # a cheaper way here was found after this one was queued
        p, runs, carry, _used = node
        if p == goal:
            return key, _decisions(best, node, top)
        shape = (p, runs, carry)
        done = expanded.setdefault(shape, [])
        if any(u <= used and k <= key for u, k in done):
            continue  # the same runs were expanded as cheaply with no more wild cards spent
        done.append((used, key))
        if p == finish:
            codes = [code for suit_runs in runs for code in suit_runs]
            if all(code in _CLOSE_PAD for code in codes) and used + sum(_CLOSE_PAD[c] for c in codes) <= wilds:
                push((goal, _EMPTY_RUNS, _NO_ACES, used), key + len(codes), 0, node, None)
            continue
        ks = carry if p == 14 else avail[p]
        if runs == _EMPTY_RUNS and not any(ks):
            push((p + 1, runs, carry, used), key, 0, node, None)
            continue
        flags = can_play.get((p, used))
        if flags is None:
            spare = wilds - used
            flags = can_play[(p, used)] = (
                tuple(g < spare for g in gap[p]),
                tuple(g <= spare for g in gap[p]),
            )
        keep_aces = aces_high and p == 1
        # No move spends more than a wild card per open run and two for the set.
        spare = min(wilds - used, len(runs[0]) + len(runs[1]) + len(runs[2]) + len(runs[3]) + 2)
        moves = _transitions(runs, tuple(ks), flags[0], flags[1], tuple(ahead[p]), keep_aces, points[p], spare)
        next_carry = carry if aces_high and p < 14 else _NO_ACES
        for spent, new_runs, kept, delta, n_open, decision in moves:
            push((p + 1, new_runs, kept or next_carry, used + spent), key + delta, n_open, node, decision)
    raise AssertionError("no split found")  # unreachable: leaving every card over is a split


def _decisions(
    best: Mapping[_Node, tuple[int, _Node | None, _Decision | None]], node: _Node, top: int
) -> list[_Decision | None]:
    """Walk back from the finished node: the decision taken at each position."""
    decisions: list[_Decision | None] = [None] * top
    at: _Node | None = node
    while at is not None:
        _key, parent, decision = best[at]
        if parent is not None and parent[0] <= top:
            decisions[parent[0] - 1] = decision
        at = parent
    return decisions
