"""The split of a Three Thirteen hand that leaves the fewest points, and why a hand cannot go out."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Sequence

from referee.cards import (
    JOKER,
    AnyCard,
    Card,
    Rank,
    Suit,
    check_copies,
)
from referee.errors import RefereeError
from referee.text import Message, message
from referee.three_thirteen.melds import (
    Face,
    Meld,
    RankOnly,
    Split,
    _face_key,
    _rank_points,
    _sort_key,
    _sorted,
    card_points,
    is_wild,
)
from referee.three_thirteen.rules import (
    _DEFAULT_RULES,
    _MAX_DECKS,
    MAX_HAND,
    ThreeThirteenRules,
)
from referee.three_thirteen_solver import BIG, Plan, position_rank, solve

# ---------------------------------------------------------------------------
# Errors


class HandSizeError(RefereeError):
    """A hand with the wrong number of cards for the round."""

    def __init__(self, hand: Sequence[AnyCard], expected: int | None, round_number: int | None = None) -> None:
        self.hand = tuple(hand)
        self.expected = expected
        self.round_number = round_number
        if expected is None:
            reason = message("A hand holds at most {most} cards; this one has {count}.", most=MAX_HAND, count=len(self.hand))
        else:
            reason = message(
                "Round {round} deals {dealt} cards; this hand has {count}.",
                round=round_number, dealt=expected, count=len(self.hand),
            )
        super().__init__(reason)


class ImpossibleHandError(RefereeError):
    """A hand that cannot go out: the cards its best split leaves over are in ``leftover``
    (``fit_elsewhere``: some of them would fit a meld that another card already fills)."""

    def __init__(
        self, hand: Sequence[AnyCard], split: Split, penalty: int | None = None, *, fit_elsewhere: bool = False
    ) -> None:
        self.hand = tuple(hand)
        self.split = split
        self.leftover = split.leftover
        self.penalty = penalty
        self.fit_elsewhere = fit_elsewhere
        self.verdict = _why_not_out(split.leftover, fit_elsewhere, None)
        super().__init__(self.verdict)


def _why_not_out(leftover: Sequence[AnyCard], fit_elsewhere: bool, penalty: int | None) -> Message:
    """The sentence that refuses an out (or, with a ``penalty``, charges a false one):
    the leftover cards fit no meld at all, or (one card, one job) they would fit one
    that another card of the hand already fills, so the melds cannot take them all."""
    cards = list(leftover)
    if penalty is None:
        if fit_elsewhere:
            return message(
                "no split puts every card in a set or run (the best leaves {leftover} over), "
                "so this hand cannot go out",
                leftover=cards,
            )
        if len(cards) == 1:
            return message("{leftover} fits no set or run, so this hand cannot go out", leftover=cards)
        return message("{leftover} fit no set or run, so this hand cannot go out", leftover=cards)
    if fit_elsewhere:
        return message(
            "no split puts every card in a set or run (the best leaves {leftover} over), "
            "so this false claim adds {penalty} points",
            leftover=cards,
            penalty=penalty,
        )
    if len(cards) == 1:
        return message(
            "{leftover} fits no set or run, so this false claim adds {penalty} points", leftover=cards, penalty=penalty
        )
    return message("{leftover} fit no set or run, so this false claim adds {penalty} points", leftover=cards, penalty=penalty)


def _fits_a_meld(card: AnyCard, others: Sequence[AnyCard], wild_rank: Rank, aces_high: bool) -> bool:
    """Whether ``card`` makes a meld with some two of ``others`` (any meld holding a
    card holds a three-card one that does: three of its set, or three in a row of its run)."""
    for a, b in itertools.combinations(others, 2):
        naturals = [c for c in (card, a, b) if isinstance(c, Card) and not is_wild(c, wild_rank)]
        if len({c.rank for c in naturals}) <= 1:
            return True
        if len({c.suit for c in naturals}) != 1:
            continue
        ranks = sorted(int(c.rank) for c in naturals)
        for row in (ranks, sorted(14 if r == 1 else r for r in ranks) if aces_high else None):
            if row is not None and len(set(row)) == len(row) and row[-1] - row[0] <= 2:
                return True
    return False


def best_split(
    hand: Iterable[AnyCard],
    wild_rank: Rank | int,
    rules: ThreeThirteenRules = _DEFAULT_RULES,
    *,
    decks: int | None = None,
) -> Split:
    """The split of ``hand`` into melds that leaves the fewest points.

    A **set** is three or more cards of one rank; with two decks or more it may
    hold twin cards.  A **run** is three or more cards of one suit in a row,
    each rank once; aces are low and nothing wraps.  A wild card stands in for
    any card of a set or run, a meld may hold several, even be all wild, and a
    card belongs to one meld at most.  On equal points the split leaves fewer
    cards, then uses fewer (longer) melds.

    >>> from referee.cards import parse_cards
    >>> print(best_split(parse_cards("4h 6h 5d"), Rank.FIVE))
    4♥ 5♦(5♥) 6♥ | leftover: none, 0 points
    >>> print(best_split(parse_cards("9d 5s 5h"), Rank.FIVE))
    9♦ 5♠(9♠) 5♥(9♣) | leftover: none, 0 points
    >>> print(best_split(parse_cards("2c 6c 9c"), Rank.THREE))
    leftover: 2♣ 6♣ 9♣, 17 points
    >>> print(best_split(parse_cards("5s 6s 7s 6h 6d"), Rank.KING))
    6♠ 6♦ 6♥ | leftover: 5♠ 7♠, 12 points
    >>> print(best_split(parse_cards("9h 9h 9s"), Rank.THREE, decks=2))
    9♠ 9♥ 9♥ | leftover: none, 0 points
    >>> print(best_split(parse_cards("Qh Kh Ah"), Rank.THREE))
    leftover: A♥ Q♥ K♥, 21 points
    >>> print(best_split(parse_cards("Qh Kh Ah"), Rank.THREE, ThreeThirteenRules(aces="high_or_low")))
    Q♥ K♥ A♥ | leftover: none, 0 points
    """
    rules = rules if rules is not None else _DEFAULT_RULES
    cards = tuple(hand)
    wild = Rank(int(wild_rank))
    _check_cards(cards, rules, decks)
    faces_rank = rules.faces == "rank"
    aces_high = rules.aces_high
    wild_cards = [c for c in cards if is_wild(c, wild)]
    naturals = [c for c in cards if isinstance(c, Card) and not is_wild(c, wild)]
    counts = Counter((int(c.rank), int(c.suit)) for c in naturals)
    points = {p: _rank_points(p if p <= 13 else 1, faces_rank, aces_high) for p in range(1, 15)}
    plan = solve(counts, len(wild_cards), aces_high, points)
    split = _rebuild(plan, wild_cards, wild, aces_high, rules)
    return _fix_labels(split, decks if decks is not None else (rules.decks or _MAX_DECKS), rules)


def _rebuild(
    plan: Plan,
    wild_cards: list[AnyCard],
    wild_rank: Rank,
    aces_high: bool,
    rules: ThreeThirteenRules,
) -> Split:
    """Deal the wild cards into the plan's gaps (and spare ones into a meld)."""
    top = 14 if aces_high else 13
    runs = [(s, list(entries)) for s, entries in plan.runs]
    sets = [(rank, list(naturals)) for rank, naturals in plan.sets]
    dead: list[AnyCard] = list(plan.dead)
    key = plan.key
    wilds = sorted(wild_cards, key=_sort_key)
    # Run slots: (run index, position) needing a wild card.
    run_slots: list[list[int]] = []
    run_specs: list[tuple[int, list[tuple[int, bool]]]] = []
    for s, entries in runs:
        positions = [p for p, _n in entries]
        low, high = positions[0], positions[-1]
        while high - low + 1 < 3:
            if high < top and not (low == 1 and high + 1 == 14):
                high += 1
                entries = entries + [(high, False)]
            else:
                low -= 1
                entries = [(low, False)] + entries
        if high - low + 1 > 13:  # ace low and ace high: two runs instead
            run_specs.append((s, entries[:7]))
            run_specs.append((s, entries[7:]))
        else:
            run_specs.append((s, entries))
    for _s, entries in run_specs:
        run_slots.append([p for p, natural in entries if not natural])
    # Wild cards that can stand for themselves in a run go there first.
    assigned: dict[tuple[int, int], AnyCard] = {}
    for i, (s, _entries) in enumerate(run_specs):
        for p in run_slots[i]:
            me = Card(position_rank(p), Suit(s))
            if me in wilds:
                wilds.remove(me)
                assigned[(i, p)] = me
    melds: list[Meld] = []
    for i, (s, entries) in enumerate(run_specs):
        cards: list[AnyCard] = []
        faces: list[Card] = []
        for p, natural in entries:
            face = Card(position_rank(p), Suit(s))
            if natural:
                cards.append(face)
            elif (i, p) in assigned:
                cards.append(assigned[(i, p)])
            else:
                cards.append(wilds.pop(0))
            faces.append(face)
        melds.append(Meld("run", tuple(cards), tuple(faces)))
    for rank, naturals in sets:
        need = max(0, 3 - len(naturals))
        extra = [wilds.pop(0) for _ in range(need)]
        melds.append(_make_set(rank, naturals, extra))
    if not melds and len(wilds) >= 3:
        melds.append(_make_set(wild_rank, [], wilds))  # all wild: a set of the wild rank
        wilds = []
    if melds and wilds:
        melds = _absorb(melds, wilds, top)
        wilds = []
    leftover = _sorted(dead + wilds)
    melds.sort(key=lambda m: (_face_key(m.faces[0]), m.kind))
    points = sum(card_points(c, rules) for c in leftover)
    if not wilds:
        assert points == key // BIG, (points, key)
    return Split(tuple(melds), leftover, points)


def _fix_labels(split: Split, decks: int, rules: ThreeThirteenRules) -> Split:
    """Name what each wild card stands for with cards the decks can supply.

    A card the hand holds as many times as the decks hold it cannot also be stood
    for.  A run's wild card stands for a fixed card: when the hand holds every copy
    of it, one held in a set (or, at equal points, left over) trades places with the
    wild card; when none can, the wild card stands for the rank's place in the run
    (:class:`RankOnly`).  A set's wild cards then stand for cards of its rank still
    to be had (suits the set lacks first), or for the rank alone.  Points never change.

    >>> from referee.cards import parse_cards
    >>> print(best_split(parse_cards("9d 5s 5h 9h 9s"), Rank.FIVE, decks=1))  # 9♣, then a 9 alone
    9♠ 9♦ 9♥ 5♠(9♣) 5♥(9) | leftover: none, 0 points
    >>> print(best_split(parse_cards("4h 6h 5d 5c 7h"), Rank.FIVE, decks=1))
    4♥ 5♣(5♥) 6♥ 7♥ 5♦(8♥) | leftover: none, 0 points
    """
    labels = _Labels(split, decks)
    for i, kind in enumerate(labels.kinds):
        if kind == "run":
            labels.name_run(i, rules)
    for i, kind in enumerate(labels.kinds):
        if kind == "set":
            labels.name_set(i)
    return labels.split(split.points, rules)


class _Labels:
    """The melds of a split being named (:func:`_fix_labels`): their cards and faces as lists,
    the copies the hand holds and the copies the wild cards named so far stand for."""

    def __init__(self, split: Split, decks: int) -> None:
        self.decks = decks
        self.held = Counter(c for c in split.cards if isinstance(c, Card))
        self.used: Counter[Card] = Counter()
        self.cards = [list(m.cards) for m in split.melds]
        self.faces: list[list[Face]] = [list(m.faces) for m in split.melds]
        self.kinds = [m.kind for m in split.melds]
        self.leftover = list(split.leftover)

    def room(self, card: Card) -> int:
        """Copies of ``card`` the decks still have for a wild card to stand for.

        >>> from referee.cards import parse_cards
        >>> labels = _Labels(Split((), tuple(parse_cards("9h")), 9), decks=2)
        >>> labels.room(Card.parse("9h")), labels.room(Card.parse("9s"))
        (1, 2)
        """
        return self.decks - self.held[card] - self.used[card]

    def name_run(self, i: int, rules: ThreeThirteenRules) -> None:
        """Each wild card of run ``i`` stands for its card, or a held copy trades places with
        it, or it stands for the rank's place alone."""
        for j, (card, face) in enumerate(zip(self.cards[i], self.faces[i], strict=True)):
            if card == face or not isinstance(face, Card):
                continue
            if self.room(face) <= 0:
                _trade(face, card, i, j, self.cards, self.faces, self.kinds, self.leftover, rules)
            if self.cards[i][j] == face:
                continue
            if self.room(face) > 0:
                self.used[face] += 1
            else:  # every copy is held and none can trade places: the wild card fills the rank's place
                self.faces[i][j] = RankOnly(face.rank)

    def name_set(self, i: int) -> None:
        """Set ``i``'s naturals first, then each wild card naming a card of the rank still to be
        had (the suits the set lacks first), or the rank alone."""
        rank = self.faces[i][0].rank
        pairs = list(zip(self.cards[i], self.faces[i], strict=True))
        naturals = sorted(c for c, f in pairs if c == f and isinstance(c, Card))
        suits = [s for s in Suit if all(c.suit != s for c in naturals)]
        suits += [s for s in Suit if s not in suits]
        self.cards[i], self.faces[i] = list(naturals), list(naturals)
        for wild in (c for c, f in pairs if c != f):
            self.cards[i].append(wild)
            self.faces[i].append(self._set_label(rank, suits))

    def _set_label(self, rank: Rank, suits: list[Suit]) -> Face:
        """The card of ``rank`` a set's wild card stands for (the first suit with room; that suit
        goes last for the next wild card), or the rank alone."""
        for k, suit in enumerate(suits):
            if self.room(Card(rank, suit)) > 0:
                label = Card(rank, suit)
                self.used[label] += 1
                suits.append(suits.pop(k))
                return label
        return RankOnly(rank)

    def split(self, points: int, rules: ThreeThirteenRules) -> Split:
        melds = tuple(Meld(k, tuple(c), tuple(f)) for k, c, f in zip(self.kinds, self.cards, self.faces, strict=True))
        rest = _sorted(self.leftover)
        total = sum(card_points(c, rules) for c in rest)
        assert total == points, (total, points)
        return Split(melds, rest, total)


def _trade(
    face: Card, wild: AnyCard, i: int, j: int, cards: list[list[AnyCard]], faces: list[list[Face]],
    kinds: list[str], leftover: list[AnyCard], rules: ThreeThirteenRules,
) -> None:
    """Put a held copy of ``face`` in run ``i`` at ``j`` in place of ``wild``, which takes
    its place: a wild card standing for another card in a run, any card of a set, or a
    card left over that costs the same."""
    for k, kind in enumerate(kinds):
        for m, (card, stands) in enumerate(zip(cards[k], faces[k], strict=True)):
            if card != face or (k, m) == (i, j):
                continue
            if kind == "run" and stands != card:  # a wild card standing for another card: they swap
                cards[k][m] = wild
            elif kind == "set":
                cards[k][m], faces[k][m] = wild, RankOnly(face.rank)  # named again with the set
            else:
                continue
            cards[i][j] = face
            return
    for m, card in enumerate(leftover):
        if card == face and card_points(card, rules) == card_points(wild, rules):
            leftover[m] = wild
            cards[i][j] = face
            return


def _make_set(rank: Rank, naturals: list[Card], extra: list[AnyCard]) -> Meld:
    """A set of ``rank``; each wild card stands for a suit the set lacks, if any."""
    naturals = sorted(naturals)
    missing = [s for s in Suit if all(c.suit != s for c in naturals)] or list(Suit)
    cards: list[AnyCard] = list(naturals)
    faces: list[Card] = list(naturals)
    for i, w in enumerate(extra):
        cards.append(w)
        if isinstance(w, Card) and w.rank == rank:
            faces.append(w)
        else:
            faces.append(Card(rank, missing[i % len(missing)]))
    return Meld("set", tuple(cards), tuple(faces))


def _absorb(melds: list[Meld], wilds: list[AnyCard], top: int) -> list[Meld]:
    """Put spare wild cards into a meld: a set takes any number, a run grows to 13."""
    for i, m in enumerate(melds):
        if m.kind == "set":
            naturals = [c for c, f in zip(m.cards, m.faces, strict=True) if c == f]
            others = [c for c, f in zip(m.cards, m.faces, strict=True) if c != f]
            melds[i] = _make_set(m.faces[0].rank, naturals, others + wilds)
            return melds
    for i, m in enumerate(melds):
        cards, faces = list(m.cards), [f for f in m.faces if isinstance(f, Card)]  # a run's faces are cards
        positions = [_run_position(f, j, faces) for j, f in enumerate(faces)]
        suit = faces[0].suit
        while wilds and positions[-1] - positions[0] + 1 < 13:
            if positions[-1] < top and not (positions[0] == 1 and positions[-1] == 13):
                positions.append(positions[-1] + 1)
                cards.append(wilds.pop(0))
                faces.append(Card(position_rank(positions[-1]), suit))
            else:
                positions.insert(0, positions[0] - 1)
                cards.insert(0, wilds.pop(0))
                faces.insert(0, Card(position_rank(positions[0]), suit))
        melds[i] = Meld("run", tuple(cards), tuple(faces))
        if not wilds:
            return melds
    # Only thirteen-card runs: two spare wilds make a set with the run's top card;
    # one splits the run and extends its lower half (standing for a card the upper half holds too).
    m = melds[0]
    if len(wilds) >= 2:
        melds[0] = Meld("run", m.cards[:-1], m.faces[:-1])
        rank = m.faces[-1].rank
        top_card = m.cards[-1]
        naturals = [top_card] if top_card == m.faces[-1] else []
        melds.append(_make_set(rank, naturals, ([] if naturals else [top_card]) + wilds))
    else:
        low = Meld("run", m.cards[:6] + (wilds[0],), m.faces[:7])
        melds[0] = low
        melds.append(Meld("run", m.cards[6:], m.faces[6:]))
    return melds


def _run_position(face: Card, index: int, faces: list[Card]) -> int:
    """Position 1..14 of a run card: an ace is 14 when it follows a king."""
    if face.rank == Rank.ACE and index > 0:
        return 14
    return int(face.rank)


def _check_cards(cards: Sequence[AnyCard], rules: ThreeThirteenRules, decks: int | None) -> None:
    if len(cards) > MAX_HAND:
        raise HandSizeError(cards, None)
    n = decks if decks is not None else (rules.decks or _MAX_DECKS)
    check_copies(cards, decks=n, jokers={JOKER: 2 * n} if rules.jokers else None)
