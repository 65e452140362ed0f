"""An independent Tiến lên scorer, written from RULES.md ("Tiến lên scores") for the property tests.

It reads a hand as it was dealt and played (the deal, and each action: a play, a pass and
whether that pass cleared the table, an instant win) and the keeper's entries, and works out
the points by itself: the moment the first player went out, who had played nothing by then,
what each hand held then, every chop chain and its payments.  It shares no code with
``referee.tienlen_scores`` (only the card type and the scoring amounts' names).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from referee.cards import Card, Rank

ORDER = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"]
RED = {"♦", "♥"}


def rank_of(card: Card) -> int:
    return ORDER.index(card.rank.symbol)


def is_red(card: Card) -> bool:
    return card.suit.symbol in RED


def is_twos(cards: tuple[Card, ...]) -> bool:
    return bool(cards) and all(c.rank is Rank.TWO for c in cards)


def is_bomb(cards: tuple[Card, ...]) -> bool:
    """Four of a kind, or three or more pairs of consecutive ranks without a 2."""
    ranks = sorted(rank_of(c) for c in cards)
    if len(cards) == 4 and len(set(ranks)) == 1:
        return True
    if len(cards) < 6 or len(cards) % 2 or 12 in ranks:
        return False
    pairs = ranks[::2]
    return ranks[1::2] == pairs and pairs == list(range(pairs[0], pairs[0] + len(pairs)))


def most_bombs(cards: tuple[Card, ...]) -> list[tuple[Card, ...]]:
    """The most disjoint bombs (fours of a kind, three pairs in a row; four 2s are one too)."""
    by_rank: dict[int, list[Card]] = {}
    for c in sorted(cards, key=lambda c: (rank_of(c), c.suit.symbol)):
        by_rank.setdefault(rank_of(c), []).append(c)
    counts = tuple(len(by_rank.get(r, [])) for r in range(12))

    @cache
    def best(counts: tuple[int, ...]) -> tuple[tuple[str, int], ...]:
        top: tuple[tuple[str, int], ...] = ()
        for r in range(12):
            if counts[r] == 4:
                rest = best(counts[:r] + (0,) + counts[r + 1:])
                if len(rest) + 1 > len(top):
                    top = (("quad", r), *rest)
            if r <= 9 and all(counts[r + i] >= 2 for i in range(3)):
                less = list(counts)
                for i in range(3):
                    less[r + i] -= 2
                rest = best(tuple(less))
                if len(rest) + 1 > len(top):
                    top = (("run", r), *rest)
        return top

    found: list[tuple[Card, ...]] = []
    pools = {r: list(cs) for r, cs in by_rank.items()}
    for kind, r in best(counts):
        if kind == "quad":
            found.append(tuple(pools[r][:4]))
            pools[r] = pools[r][4:]
        else:
            taken: list[Card] = []
            for i in range(3):
                taken += pools[r + i][:2]
                pools[r + i] = pools[r + i][2:]
            found.append(tuple(taken))
    if len(by_rank.get(12, [])) == 4:
        found.append(tuple(by_rank[12]))
    return found


@dataclass
class Step:
    by: int
    on: int
    twos: tuple[Card, ...]
    at: int = 0  # the action's index in the hand


@dataclass
class Account:
    """What the reference made of a hand."""

    winner: int
    held: list[tuple[Card, ...]]  # each seat's cards when the first player went out
    frozen: list[bool]
    order: list[int]
    chains: list[list[Step]] = field(default_factory=list)
    instant: bool = False
    out_at: int = -1  # the index of the play that took the first player out

    def moments(self) -> list[list[bool]]:
        """For each chop, whether it fell after the first player went out."""
        return [[step.at > self.out_at for step in chain] for chain in self.chains]


def account(players: int, deal: list[tuple[Card, ...]], actions: list[tuple]) -> Account:  # type: ignore[type-arg]
    """Walk the hand: ``actions`` are ("play", seat, cards), ("pass", seat, cleared) or ("instant", seat)."""
    played: list[list[Card]] = [[] for _ in range(players)]
    out: list[int] = []
    held: list[tuple[Card, ...]] | None = None
    frozen: list[bool] | None = None
    trick: list[tuple[int, tuple[Card, ...]]] = []
    chains: list[list[Step]] = []
    chain_open = False
    out_at = -1
    for at, action in enumerate(actions):
        if action[0] == "instant":
            seat = action[1]
            return Account(seat, [() if s == seat else tuple(deal[s]) for s in range(players)],
                           [False] * players, [], [], instant=True)
        if action[0] == "pass":
            if action[2]:
                trick, chain_open = [], False
            continue
        _, seat, cards = action
        if trick and trick[-1][0] == seat:  # leading again: the table was cleared
            trick, chain_open = [], False
        if trick and is_bomb(cards):
            on, beaten = trick[-1]
            if is_twos(beaten):
                chains.append([Step(seat, on, beaten, at)])
                chain_open = True
            elif is_bomb(beaten):
                if chain_open and chains[-1][-1].by == on:
                    chains[-1].append(Step(seat, on, (), at))
                else:
                    chains.append([Step(seat, on, (), at)])
                    chain_open = True
        trick.append((seat, cards))
        played[seat] += cards
        if len(played[seat]) == len(deal[seat]) and seat not in out:
            out.append(seat)
            if held is None:
                out_at = at
                held = [tuple(c for c in deal[s] if c not in played[s]) for s in range(players)]
                frozen = [not played[s] for s in range(players)]
    assert held is not None and frozen is not None
    order = out + [s for s in range(players) if s not in out]
    return Account(out[0], held, frozen, order, chains, out_at=out_at)


def points(acc: Account, rules, entered: list[str | None]) -> list[int]:  # type: ignore[no-untyped-def]
    """Each seat's points (RULES.md items 1–5); ``entered`` per seat: None, "leftover" or "caught"."""
    n = len(acc.held)
    total = [0] * n

    def pay(payer: int, payee: int, amount: int) -> None:
        total[payer] -= amount
        total[payee] += amount

    w = acc.winner
    if acc.instant:
        for s in range(n):
            if s != w:
                pay(s, w, rules.instant_stake)
        return total
    losers = [s for s in range(n) if s != w]
    if rules.score_by == "cards":
        for s in losers:
            left = len(acc.held[s])
            pay(s, w, rules.frozen * left if acc.frozen[s] else left)
    else:
        for s in acc.order:
            if acc.frozen[s]:
                pay(s, w, rules.frozen * rules.first_stake)
        others = [s for s in acc.order if not acc.frozen[s]]
        if len(others) >= 2:
            pay(others[-1], others[0], rules.first_stake)
        if len(others) == 4:
            pay(others[2], others[1], rules.second_stake)
    for s in losers:
        if entered[s] is None:
            continue
        cards = acc.held[s]
        for c in cards:
            if c.rank is Rank.TWO:
                pay(s, w, rules.two_left_red if is_red(c) else rules.two_left_black)
        pay(s, w, rules.bomb_left * len(most_bombs(cards)))
    for chain in acc.chains:
        won = 0
        for i, step in enumerate(chain):
            if i == 0 and step.twos:
                won = sum(rules.chop_red if is_red(c) else rules.chop_black for c in step.twos)
            else:
                won = rules.chop_bomb + won
            pay(step.on, step.by, won)
    return total


def caught_cards(held: tuple[Card, ...]) -> tuple[Card, ...]:
    """Only the 2s and the cards of the most disjoint bombs of a hand (what the keeper taps)."""
    bombs = [c for b in most_bombs(held) for c in b if c.rank is not Rank.TWO]
    return tuple(c for c in held if c.rank is Rank.TWO) + tuple(bombs)
