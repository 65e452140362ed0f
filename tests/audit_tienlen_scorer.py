"""An independent Tiến lên scorer and a random hand player, for the scores audit (issue 27).

Written from ``RULES.md`` ("Tiến lên scores" and the switches it names) only, without the
library's scoring code (``referee.tienlen_scores``, ``referee.tienlen_evening``) or the web
package's: it works out every payment from the deal and the plays themselves, so a test that
compares it with the library checks the library against the rules, not against itself.

The engine (``referee.tienlen.Hand``) is used only by :func:`play_random_hand`, to ask whether a
play is legal and whose turn it is; the scorer keeps its own account of tricks, chops and the
moment the first player went out.

>>> hand = FollowedHand(players=2, deal=(tuple(cards("3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks As 2h")),
...     tuple(cards("3c 4c 5c 6c 7c 8c 9c 10c Jc Qc Kc Ac 2s"))), events=(
...     ("play", 0, tuple(cards("3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks As"))), ("pass", 1, ()),
...     ("play", 0, tuple(cards("2h")))))
>>> audit_score(hand).points
(27, -27)
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from referee.cards import Card, parse_cards

RANKS = "3 4 5 6 7 8 9 10 J Q K A 2".split()
SUITS = "shdc"  # parsing only; the order is below
SUIT_ORDER = {"s": 0, "c": 1, "d": 2, "h": 3}
TWO = 12  # the index of rank 2 in RANKS

AMOUNTS = {"score_by": "cards", "first_stake": 2, "second_stake": 1, "frozen": 2, "two_left_black": 1,
           "two_left_red": 2, "bomb_left": 4, "chop_black": 1, "chop_red": 2, "chop_bomb": 2,
           "instant_stake": 26}


def cards(text: str) -> list[Card]:
    return list(parse_cards(text))


def rank_of(card: Card) -> int:
    """0 for a 3 … 11 for an ace, 12 for a 2 (the order of RULES.md)."""
    return RANKS.index(_rank_text(card))


def _rank_text(card: Card) -> str:
    text = str(card)
    return text[:-1]


def suit_of(card: Card) -> int:
    return "♠♣♦♥".index(str(card)[-1])


def power(card: Card) -> int:
    return rank_of(card) * 4 + suit_of(card)


def is_red(card: Card) -> bool:
    return suit_of(card) >= 2


def note(cs: tuple[Card, ...] | list[Card]) -> str:
    """Cards as ASCII notation (``10h 2s``), the way a keeper types them."""
    return " ".join(_rank_text(c) + "scdh"[suit_of(c)] for c in sorted(cs, key=power))


DECK = tuple(sorted(cards(" ".join(r + s for r in RANKS for s in "scdh")), key=power))


# --- what a set of cards is (RULES.md "Combinations", only what scoring needs) ----------------

def is_four_of_a_kind(cs: tuple[Card, ...]) -> bool:
    return len(cs) == 4 and len({rank_of(c) for c in cs}) == 1


def is_double_sequence(cs: tuple[Card, ...]) -> bool:
    if len(cs) < 6 or len(cs) % 2:
        return False
    ranks = sorted(rank_of(c) for c in cs)
    pairs = ranks[::2]
    if ranks[1::2] != pairs or TWO in pairs:
        return False
    return all(b == a + 1 for a, b in zip(pairs, pairs[1:], strict=False))


def is_bomb(cs: tuple[Card, ...]) -> bool:
    """RULES.md: a bomb is four of a kind or a double sequence of three or more pairs."""
    return is_four_of_a_kind(cs) or is_double_sequence(cs)


def is_twos(cs: tuple[Card, ...]) -> bool:
    return 1 <= len(cs) <= 3 and all(rank_of(c) == TWO for c in cs)


def most_bombs(cs: tuple[Card, ...] | list[Card]) -> int:
    """The most disjoint bombs the cards can make (four 2s are one bomb)."""
    counts = [0] * 13
    for c in cs:
        counts[rank_of(c)] += 1
    return _most_bombs(tuple(counts))


@cache
def _most_bombs(counts: tuple[int, ...]) -> int:
    low = next((r for r, n in enumerate(counts) if n), None)
    if low is None:
        return 0
    rest = list(counts)
    rest[low] = 0
    best = _most_bombs(tuple(rest))  # the lowest rank's cards in no bomb
    if counts[low] == 4:
        best = max(best, 1 + _most_bombs(tuple(rest)))
    if low + 2 < TWO and all(counts[r] >= 2 for r in (low, low + 1, low + 2)):
        # a double sequence of exactly three pairs from the lowest rank: a longer one would be
        # one bomb too, with more cards
        after = list(counts)
        for r in (low, low + 1, low + 2):
            after[r] -= 2
        best = max(best, 1 + _most_bombs(tuple(after)))
    return best


def bomb_cards(cs: tuple[Card, ...] | list[Card]) -> tuple[Card, ...]:
    """Every card of ``cs`` that lies in some bomb of ``cs`` (the keeper's generous reading)."""
    by_rank: dict[int, list[Card]] = {}
    for c in cs:
        by_rank.setdefault(rank_of(c), []).append(c)
    keep: set[Card] = set()
    for group in by_rank.values():
        if len(group) == 4:
            keep.update(group)
    run: list[int] = []
    for r in range(TWO + 1):
        if r < TWO and len(by_rank.get(r, ())) >= 2:
            run.append(r)
            continue
        if len(run) >= 3:
            for q in run:
                keep.update(by_rank[q])
        run = []
    return tuple(sorted(keep, key=power))


def bomb_cover(cs: tuple[Card, ...] | list[Card]) -> tuple[Card, ...]:
    """The cards of one largest set of disjoint bombs (the keeper's tight reading)."""
    remaining = list(cs)
    chosen: list[Card] = []
    target = most_bombs(remaining)
    while target:
        for bomb in _bombs_in(remaining):
            rest = [c for c in remaining if c not in bomb]
            if most_bombs(rest) == target - 1:
                chosen.extend(bomb)
                remaining = rest
                target -= 1
                break
        else:  # pragma: no cover - most_bombs found a bomb
            raise AssertionError("no bomb found")
    return tuple(sorted(chosen, key=power))


def _bombs_in(cs: list[Card]) -> list[tuple[Card, ...]]:
    by_rank: dict[int, list[Card]] = {}
    for c in sorted(cs, key=power):
        by_rank.setdefault(rank_of(c), []).append(c)
    found: list[tuple[Card, ...]] = [tuple(g) for g in by_rank.values() if len(g) == 4]
    for low in range(TWO - 2):
        if all(len(by_rank.get(r, ())) >= 2 for r in (low, low + 1, low + 2)):
            found.append(tuple(c for r in (low, low + 1, low + 2) for c in by_rank[r][:2]))
    return found


# --- a followed hand and its score -----------------------------------------------------------

Event = tuple[str, int, tuple[Card, ...]]  # ("play"|"pass"|"instant", seat, cards)


@dataclass
class FollowedHand:
    """A hand as it was played: the deal per seat and every play and pass, in order."""

    players: int
    deal: tuple[tuple[Card, ...], ...]
    events: tuple[Event, ...]
    play_on: bool = False
    bomb_after_pass: bool = False
    #: the engine's word, per event, whether the table was empty before it (checked, not used)
    leads: tuple[bool, ...] | None = None


@dataclass
class Account:
    """What the hand's plays say, worked out by the audit alone."""

    winner: int
    held_at_out: list[tuple[Card, ...]]  # every seat's cards when the first player went out
    frozen: list[bool]
    order: list[int]  # the finishing order (complete only with play_on)
    chains: list[list[dict[str, Any]]]  # per trick with bombs: {"by", "from", "twos", "after_out"}
    instant: int | None = None


@dataclass
class AuditScore:
    points: tuple[int, ...]
    payments: list[tuple[str, int, int, int]] = field(default_factory=list)  # item, payer, payee, points


def account(hand: FollowedHand) -> Account:
    """Follow the plays: the first out, who held what then, who was frozen, every chop chain."""
    n = hand.players
    held = [list(h) for h in hand.deal]
    played_any = [False] * n
    in_hand = list(range(n))
    out_order: list[int] = []
    winner: int | None = None
    held_at_out: list[tuple[Card, ...]] = []
    frozen: list[bool] = []
    chains: list[list[dict[str, Any]]] = []
    table: tuple[Card, ...] | None = None
    last: int | None = None
    locked: set[int] = set()
    passed: set[int] = set()  # passed since the last play
    chain: list[dict[str, Any]] = []
    for index, (kind, seat, cs) in enumerate(hand.events):
        if hand.leads is not None:
            assert hand.leads[index] == (table is None), f"the audit lost the table at event {index}"
        if kind == "instant":
            return Account(seat, [tuple(h) for h in held], [False] * n, [seat], [], instant=seat)
        if kind == "pass":
            locked.add(seat)
            passed.add(seat)
        else:
            if table is not None:
                if is_bomb(cs) and is_twos(table):
                    chain.append({"by": seat, "from": last, "twos": tuple(table),
                                  "after_out": winner is not None})
                elif is_bomb(cs) and is_bomb(table):
                    chain.append({"by": seat, "from": last, "twos": (), "after_out": winner is not None})
            for c in cs:
                held[seat].remove(c)
            played_any[seat] = True
            table, last = cs, seat
            locked.discard(seat)
            passed = set()
            if not held[seat]:
                in_hand.remove(seat)
                out_order.append(seat)
                if winner is None:
                    winner = seat
                    held_at_out = [tuple(h) for h in held]
                    frozen = [not p for p in played_any]
        # the table clears once every other player still in the hand has passed since the last
        # play (a player locked out of the trick is skipped, except that with bomb_after_pass
        # they are asked again while 2s are on the table)
        asked_again = hand.bomb_after_pass and table is not None and is_twos(table)
        done = passed | (set() if asked_again else locked)
        if table is not None and all(s in done for s in in_hand if s != last):
            if chain:
                chains.append(chain)
            chain, table, last, locked, passed = [], None, None, set(), set()
        if winner is not None and (not hand.play_on or len(in_hand) <= 1):
            break
    if chain:
        chains.append(chain)
    assert winner is not None, "the hand is not over"
    order = out_order + [s for s in in_hand if s not in out_order]
    return Account(winner, held_at_out, frozen, order, chains)


def audit_score(hand: FollowedHand, amounts: dict[str, Any] | None = None) -> AuditScore:
    """Each seat's points for the hand, every item of RULES.md "Tiến lên scores"."""
    a = {**AMOUNTS, **(amounts or {})}
    acc = account(hand)
    return score_account(acc, hand.players, a)


def score_account(acc: Account, n: int, a: dict[str, Any]) -> AuditScore:
    points = [0] * n
    payments: list[tuple[str, int, int, int]] = []

    def pay(item: str, payer: int, payee: int, amount: int) -> None:
        if amount and payer != payee:
            points[payer] -= amount
            points[payee] += amount
            payments.append((item, payer, payee, amount))

    w = acc.winner
    if acc.instant is not None:  # 5. nothing else is scored
        for s in range(n):
            pay("instant", s, w, a["instant_stake"])
        return AuditScore(tuple(points), payments)
    losers = [s for s in range(n) if s != w]
    # 1. and 2. the result, frozen players
    if a["score_by"] == "cards":
        for s in losers:
            if acc.frozen[s]:
                pay("frozen", s, w, a["frozen"] * 13)
            else:
                pay("cards", s, w, len(acc.held_at_out[s]))
    else:
        for s in losers:
            if acc.frozen[s]:
                pay("frozen", s, w, a["frozen"] * a["first_stake"])
        others = [s for s in acc.order if not acc.frozen[s]]
        assert others[0] == w
        if len(others) >= 2:
            pay("place", others[-1], w, a["first_stake"])
        if len(others) == 4:
            pay("place", others[2], others[1], a["second_stake"])
    # 3. caught holding, when the first player went out
    for s in losers:
        left = acc.held_at_out[s]
        for c in left:
            if rank_of(c) == TWO:
                pay("two_left", s, w, a["two_left_red"] if is_red(c) else a["two_left_black"])
        pay("bomb_left", s, w, a["bomb_left"] * most_bombs(left))
    # 4. chopped, with everything the beaten bomb had won passed on
    for chain in acc.chains:
        won = 0
        for step in chain:
            if step["twos"]:
                won = sum(a["chop_red"] if is_red(c) else a["chop_black"] for c in step["twos"])
            else:
                won = a["chop_bomb"] + won
            pay("chop", step["from"], step["by"], won)
    assert sum(points) == 0
    return AuditScore(tuple(points), payments)


def facts_of(acc: Account, n: int, *, with_order: bool, cards_entered: str = "leftover",
             rng: random.Random | None = None) -> dict[str, Any]:
    """The hand retyped by hand: the API's / evening's facts, from the audit's own account.

    ``cards_entered``: ``"leftover"`` (every leftover card), ``"caught"`` (only the 2s and bomb
    cards, however the keeper groups them) or ``"none"`` (counts only: item 3 is then not scored).
    """
    facts: dict[str, Any] = {"players": n, "winner": acc.winner,
                             "cards_left": [len(h) for h in acc.held_at_out]}
    if acc.instant is not None:
        facts = {"players": n, "winner": acc.instant, "cards_left": [0 if s == acc.instant else 13 for s in range(n)],
                 "instant_win": acc.instant}
        return facts
    if with_order:
        facts["order"] = list(acc.order)
    if cards_entered == "leftover":
        facts["leftover"] = [None if s == acc.winner else note(acc.held_at_out[s]) for s in range(n)]
    elif cards_entered == "caught":
        facts["caught"] = [None if s == acc.winner else note(caught_cards(acc.held_at_out[s], rng)) for s in range(n)]
    if acc.chains:
        facts["chops"] = [[_step(st) for st in chain] for chain in acc.chains]
    return facts


def lays_out_as_bombs(cs: tuple[Card, ...] | list[Card]) -> bool:
    """Whether the cards (no 2s) are bombs and nothing else: each card in exactly one bomb."""
    counts = [0] * 13
    for c in cs:
        counts[rank_of(c)] += 1
    return not counts[TWO] and _lays_out(tuple(counts))


@cache
def _lays_out(counts: tuple[int, ...]) -> bool:
    low = next((r for r, n in enumerate(counts) if n), None)
    if low is None:
        return True
    if counts[low] == 4 and _lays_out((0,) * (low + 1) + counts[low + 1:]):
        return True
    after = list(counts)
    for top in range(low, TWO):  # a double sequence from the lowest rank, as long as it goes
        if after[top] < 2:
            return False
        after[top] -= 2
        if top - low >= 2 and _lays_out(tuple(after)):
            return True
    return False


def caught_cards(left: tuple[Card, ...], rng: random.Random | None) -> tuple[Card, ...]:
    """What a keeper taps as caught: the 2s and the bomb cards, the bombs as tight as they can
    be (three pairs) or, half the time, as long as they lie (every pair of a run, a four of a
    kind beside it) when those still lay out as bombs and nothing else."""
    twos = [c for c in left if rank_of(c) == TWO]
    rest = [c for c in left if rank_of(c) != TWO]
    chosen = bomb_cover(rest)
    if rng is not None and rng.random() < 0.5 and lays_out_as_bombs(bomb_cards(rest)):
        chosen = bomb_cards(rest)
    return tuple(sorted(set(twos) | set(chosen), key=power))


def _step(step: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"by": step["by"], "from": step["from"]}
    if step["twos"]:
        out["twos"] = note(step["twos"])
    if step["after_out"]:
        out["after_out"] = True
    return out


# --- a random player of legal hands (the engine says what is legal) ---------------------------

def candidate_plays(held: list[Card]) -> list[tuple[Card, ...]]:
    """Singles, pairs, triples, fours, sequences and double sequences from a hand."""
    by_rank: dict[int, list[Card]] = {}
    for c in sorted(held, key=power):
        by_rank.setdefault(rank_of(c), []).append(c)
    out: list[tuple[Card, ...]] = [(c,) for c in held]
    for group in by_rank.values():
        for size in (2, 3, 4):
            if len(group) >= size:
                out.append(tuple(group[:size]))
                out.append(tuple(group[-size:]))
    for low in range(13):
        for high in range(low + 2, 13):
            if not all(r in by_rank for r in range(low, high + 1)):
                break
            out.append(tuple(by_rank[r][0] for r in range(low, high + 1)))
            out.append(tuple(by_rank[r][-1] for r in range(low, high + 1)))
        for high in range(low + 2, 12):
            if not all(len(by_rank.get(r, ())) >= 2 for r in range(low, high + 1)):
                break
            out.append(tuple(c for r in range(low, high + 1) for c in by_rank[r][:2]))
            out.append(tuple(c for r in range(low, high + 1) for c in by_rank[r][-2:]))
    return list(dict.fromkeys(out))


def deal(rng: random.Random, n: int, *, rigged: bool = False) -> tuple[tuple[Card, ...], ...]:
    """13 cards to each of ``n`` seats; ``rigged`` swaps bombs and 2s into some hands (still a
    deal: every card once), so chops, chains and caught bombs are common."""
    deck = list(DECK)
    rng.shuffle(deck)
    piles = [deck[13 * s:13 * s + 13] for s in range(n)] + [deck[13 * n:]]
    if rigged:
        for seat in range(n):
            if rng.random() < 0.5:
                _swap_in(rng, piles, seat, _a_bomb(rng))
            if rng.random() < 0.4:
                _swap_in(rng, piles, seat, rng.sample([c for c in DECK if rank_of(c) == TWO], rng.randint(1, 2)))
    return tuple(tuple(sorted(piles[s], key=power)) for s in range(n))


def _a_bomb(rng: random.Random) -> list[Card]:
    by_rank = [[c for c in DECK if rank_of(c) == r] for r in range(13)]
    if rng.random() < 0.35:
        return by_rank[rng.randrange(12)]
    pairs = rng.choice((3, 3, 4, 5, 6))
    low = rng.randrange(12 - pairs + 1)
    return [c for r in range(low, low + pairs) for c in rng.sample(by_rank[r], 2)]


def _swap_in(rng: random.Random, piles: list[list[Card]], seat: int, wanted: list[Card]) -> None:
    hand = piles[seat]
    for card in wanted:
        if card in hand:
            continue
        pile = next(p for p in piles if card in p)
        out = rng.choice([c for c in hand if c not in wanted])
        hand[hand.index(out)] = card
        pile[pile.index(card)] = out


def play_random_hand(rng: random.Random, hand: Any, dealt: tuple[tuple[Card, ...], ...],
                     *, shy: frozenset[int] = frozenset(), instant: bool = False) -> FollowedHand:
    """Play ``hand`` (a ``referee.tienlen.Hand``) to its end with random legal plays.

    ``shy`` seats pass whenever they may until the first player is out (frozen players);
    bombs are kept for 2s and bombs, so that chops, chains and caught bombs are common.
    """
    n = len(dealt)
    held = [list(h) for h in dealt]
    events: list[Event] = []
    leads: list[bool] = []
    if instant:
        for seat in range(n):
            for kind in ("four_twos", "dragon", "six_pairs"):
                if hand.can_declare_instant_win(seat, kind, note(dealt[seat])):
                    hand.declare_instant_win(seat, kind, note(dealt[seat]))
                    events.append(("instant", seat, ()))
                    return FollowedHand(n, dealt, tuple(events), hand.rules.play_on, hand.rules.bomb_after_pass)
    steps = 0
    while not hand.over:
        steps += 1
        assert steps < 2000, "a hand that does not end"
        seat = hand.turn
        table = hand.table
        options = [p for p in candidate_plays(held[seat])
                   if (table is None or len(p) == len(table.cards) or is_bomb(p)) and hand.can_play(seat, note(p))]
        can_pass = hand.can_pass(seat)
        choice: tuple[Card, ...] | None
        if not options:
            choice = None
        elif can_pass and seat in shy and hand.winner is None:
            choice = None
        else:
            bombs = [p for p in options if is_bomb(p)]
            others = [p for p in options if not is_bomb(p)]
            on_two_or_bomb = table is not None and (is_twos(table.cards) or is_bomb(table.cards))
            if bombs and on_two_or_bomb and rng.random() < 0.8:
                choice = rng.choice(bombs)
            elif others and (not can_pass or rng.random() < 0.8):
                choice = rng.choice(others) if rng.random() < 0.6 else max(others, key=len)
            elif bombs and (not can_pass or rng.random() < 0.15):
                choice = rng.choice(bombs)
            else:
                choice = None
            if choice is None and not can_pass:
                choice = rng.choice(options)
        leads.append(table is None)
        if choice is None:
            hand.pass_(seat)
            events.append(("pass", seat, ()))
        else:
            hand.play(seat, note(choice))
            for c in choice:
                held[seat].remove(c)
            events.append(("play", seat, tuple(choice)))
    return FollowedHand(n, dealt, tuple(events), hand.rules.play_on, hand.rules.bomb_after_pass, tuple(leads))
