"""Stats per person, read from the games' own records (never typed twice).

Each sheet or table is first read into :class:`Result` values, one per game played in it,
through the game's own state machine (so an undo or a correction, which those replay, changes
the stats at once):

- :func:`tienlen_sheet_results`: each game of a Tiến lên score sheet
  (:class:`~referee.tienlen_evening.Evening`): its points, who was frozen, the chops, an
  instant win;
- :func:`tienlen_table_results`: each finished hand of a followed Tiến lên table
  (:class:`~referee.tienlen.Game`), unscored: who went out, in what order, the chops;
- :func:`three_thirteen_results`: a Three Thirteen sheet
  (:class:`~referee.three_thirteen_sheet.Sheet`) is one game (its winners once every round is
  in) and its rounds;
- :func:`trece_results`: a Trece table (:class:`~referee.trece.State`) is one game.

Then :func:`tally` adds the results of any number of evenings up per person into
:class:`PersonStats`.  A game counts (games played, wins, places) once it is finished; the rounds
of an unfinished Three Thirteen sheet count as rounds.

Places are "1224" ranks: equal players share the best place of their group.  A Tiến lên game
ranks by its finishing order when it was entered, else the winner first and the others by the
game's points (a followed table's hand: the others by cards left); a Three Thirteen sheet by its
totals, lowest first.

>>> from referee.tienlen_evening import Evening, EveningSetup
>>> evening = Evening(EveningSetup(("An", "Binh", "Chi")))
>>> _ = evening.add_by_hand({"players": 3, "winner": 0, "cards_left": [0, 5, 13]})
>>> _ = evening.add_by_hand({"players": 3, "winner": 1, "cards_left": [2, 0, 4]})
>>> results = tienlen_sheet_results(evening)
>>> [r.winners for r in results], results[0].places
([(0,), (1,)], (1, 2, 3))
>>> stats = tally([results])
>>> an = stats["An"]
>>> an.games, an.wins, an.win_rate, an.average_place, an.points_won, an.points_lost
(2, 1, 0.5, 1.5, 31, 2)
>>> stats["Chi"].frozen, stats["Chi"].evenings
(1, 1)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields

from referee.three_thirteen_sheet import Sheet
from referee.tienlen import Chop
from referee.tienlen import Game as TienLenTable
from referee.tienlen_evening import Evening
from referee.trece import State as TreceTable

__all__ = [
    "TIENLEN", "THREE_THIRTEEN", "TRECE", "Counts", "Result", "PersonStats", "ranks",
    "tienlen_sheet_results", "tienlen_table_results", "three_thirteen_results", "trece_results", "tally",
    "once", "scored_hands",
]

TIENLEN = "tienlen"
THREE_THIRTEEN = "three_thirteen"
TRECE = "trece"


@dataclass(frozen=True, slots=True)
class Counts:
    """What one seat did in one game, counted (all 0 when the game does not have it)."""

    frozen: int = 0
    """Tiến lên: frozen (cóng), no card played when the first player went out."""
    twos_chopped: int = 0
    """Tiến lên: 2s this player chopped with a bomb."""
    chopped_from: int = 0
    """Tiến lên: 2s of this player's chopped by someone else's bomb."""
    bombs: int = 0
    """Tiến lên: bombs played that chopped something (a play of 2s or a bomb)."""
    instant_wins: int = 0
    rounds_out: int = 0
    """Three Thirteen: rounds this player went out (a false claim is not one)."""
    false_outs: int = 0

    def __add__(self, other: Counts) -> Counts:
        return Counts(*(getattr(self, f.name) + getattr(other, f.name) for f in fields(Counts)))


@dataclass(frozen=True, slots=True)
class Result:
    """One game's outcome, seat by seat (``names`` in seat order)."""

    game: str
    """:data:`TIENLEN`, :data:`THREE_THIRTEEN` or :data:`TRECE`."""
    names: tuple[str, ...]
    finished: bool
    winners: tuple[int, ...] = ()
    places: tuple[int, ...] = ()
    points: tuple[int, ...] = ()
    """The game's points per seat (Tiến lên: won or lost; Three Thirteen: the totals; Trece: none)."""
    counts: tuple[Counts, ...] = ()
    rounds: tuple[tuple[int, ...], ...] = ()
    """Three Thirteen: each round's points per seat (``rounds[seat]``)."""
    scored: bool = True
    """Whether ``points`` were scored (a followed Tiến lên table's hands are not)."""
    hand: tuple[int, int] | None = None
    """The followed table's hand this game is, (the table's game id, the hand's index): a table's
    finished hand, and a sheet's game scored from one.  A hand a sheet scored is one game, the
    sheet's (:func:`once`)."""


def ranks(values: Sequence[int], *, lowest_first: bool = False) -> tuple[int, ...]:
    """Competition ranks ("1224") of ``values``, highest first unless ``lowest_first``.

    >>> ranks([5, 9, 5, 1]), ranks([5, 9, 5, 1], lowest_first=True)
    ((2, 1, 2, 4), (2, 4, 2, 1))
    """
    sign = 1 if lowest_first else -1
    return tuple(1 + sum(1 for w in values if sign * w < sign * v) for v in values)


def _chop_counts(players: int, chains: Iterable[Sequence[Chop]]) -> list[Counts]:
    counts = [Counts() for _ in range(players)]
    for chain in chains:
        for chop in chain:
            counts[chop.by] += Counts(bombs=1, twos_chopped=len(chop.twos))
            if chop.twos:
                counts[chop.on] += Counts(chopped_from=len(chop.twos))
    return counts


def _places(players: int, winner: int, order: Sequence[int] | None, others: Sequence[int]) -> tuple[int, ...]:
    """The winner first, then ``order`` when it is known, else the others ranked by ``others``
    (higher better)."""
    if order and len(order) == players:
        return tuple(1 + list(order).index(seat) for seat in range(players))
    rest = [s for s in range(players) if s != winner]
    behind = ranks([others[s] for s in rest])
    place = {winner: 1} | {s: 1 + r for s, r in zip(rest, behind, strict=True)}
    return tuple(place[s] for s in range(players))


def tienlen_sheet_results(evening: Evening) -> tuple[Result, ...]:
    """One result per game of a Tiến lên score sheet, as it stands (corrections and undos in)."""
    names = evening.names
    results = []
    for game in evening.games:
        facts = game.record.finished_game(names)
        n = facts.players
        counts = _chop_counts(n, facts.chops)
        if facts.instant_win is not None:
            winner = facts.instant_win
            counts[winner] += Counts(instant_wins=1)
        else:
            winner = facts.winner
            for seat in facts.frozen_seats:
                counts[seat] += Counts(frozen=1)
        points = tuple(game.points)
        results.append(Result(
            TIENLEN, names, True, (winner,), _places(n, winner, facts.order, points), points, tuple(counts),
            hand=game.table))
    return tuple(results)


def tienlen_table_results(table: TienLenTable, table_id: int | None = None) -> tuple[Result, ...]:
    """One result per finished hand of a followed Tiến lên table (its points are scored on a
    sheet, if at all: ``scored`` is false); with ``table_id`` (the stored table's id, as a sheet
    that scores its hands names it), each says which hand it is (:attr:`Result.hand`)."""
    names = table.setup.players
    results = []
    for index, hand in enumerate(table.hands):
        winner = hand.winner
        if winner is None:
            continue
        counts = _chop_counts(len(names), hand.chops)
        if hand.instant_win is not None:
            counts[winner] += Counts(instant_wins=1)
        else:
            for seat in hand.no_card_at_first_out or ():
                counts[seat] += Counts(frozen=1)
        left = [-c for c in hand.cards_left]
        order = hand.finishing_order if len(hand.finishing_order) == len(names) else None
        results.append(Result(TIENLEN, names, True, (winner,), _places(len(names), winner, order, left),
                              (0,) * len(names), tuple(counts), scored=False,
                              hand=(table_id, index) if table_id is not None else None))
    return tuple(results)


def three_thirteen_results(sheet: Sheet) -> tuple[Result, ...]:
    """A Three Thirteen sheet as one game (finished once every round is saved) and its rounds."""
    names = sheet.names
    n = len(names)
    rounds = [r.record for r in sheet.rounds]
    counts = tuple(
        Counts(rounds_out=sum(1 for r in rounds if s in r.out and s not in r.false_out),
               false_outs=sum(1 for r in rounds if s in r.false_out))
        for s in range(n))
    totals = sheet.totals
    return (Result(THREE_THIRTEEN, names, sheet.finished, sheet.winners if sheet.finished else (),
                   ranks(totals, lowest_first=True), tuple(totals), counts,
                   tuple(tuple(r.points[s] for r in rounds) for s in range(n))),)


def trece_results(table: TreceTable) -> tuple[Result, ...]:
    """A Trece table as one game, won by the first player with no cards."""
    winner = table.winner
    names = table.players
    if winner is None:
        return (Result(TRECE, names, False, counts=(Counts(), Counts()), scored=False),)
    return (Result(TRECE, names, True, (winner,), tuple(1 if s == winner else 2 for s in range(2)),
                   (0, 0), (Counts(), Counts()), scored=False),)


@dataclass(frozen=True, slots=True)
class PersonStats:
    """One person's stats over some evenings (see :func:`tally`)."""

    name: str
    evenings: int = 0
    games: int = 0
    wins: int = 0
    place_sum: int = 0
    points_won: int = 0
    """Tiến lên: the points won, game by game."""
    points_lost: int = 0
    """Tiến lên: the points lost, game by game (a positive number)."""
    counts: Counts = field(default_factory=Counts)
    rounds: int = 0
    round_sum: int = 0
    best_round: int | None = None
    """Three Thirteen: the fewest points in one round."""
    worst_round: int | None = None
    trece_games: int = 0
    trece_wins: int = 0

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.games if self.games else None

    @property
    def average_place(self) -> float | None:
        return self.place_sum / self.games if self.games else None

    @property
    def average_round(self) -> float | None:
        return self.round_sum / self.rounds if self.rounds else None

    def __getattr__(self, name: str) -> int:
        """The counted things read as attributes (``stats.frozen``)."""
        if name in _COUNTED:
            value: int = getattr(self.counts, name)
            return value
        raise AttributeError(name)


_COUNTED = frozenset(f.name for f in fields(Counts))


def _same(name: str) -> str:
    return name


def tally(evenings: Iterable[Iterable[Result]], person: Callable[[str], str] = _same,
          people: Sequence[str] = ()) -> dict[str, PersonStats]:
    """Each person's stats over ``evenings`` (each an iterable of results).

    ``person`` gives the person a seat's name stands for (a group: the person's name now, for
    any name they had); everyone in ``people`` is in the answer, played or not, first and in
    that order, then anyone else met in the results.  A person played an evening when they sat
    in one of its games that finished, or in a sheet with a round entered.
    """
    sums: dict[str, _Sums] = {p: _Sums() for p in people}
    for results in evenings:
        seen: set[str] = set()
        for result in results:
            for seat, raw in enumerate(result.names):
                who = person(raw)
                if result.finished or any(result.rounds):  # a sheet with nothing in it is no evening played
                    seen.add(who)
                sums.setdefault(who, _Sums()).add(result, seat)
        for who in seen:
            sums[who].evenings += 1
    return {who: s.stats(who) for who, s in sums.items()}


_COUNT_NAMES = tuple(f.name for f in fields(Counts))


@dataclass(slots=True)
class _Sums:
    """One person's running sums while :func:`tally` reads the results."""

    evenings: int = 0
    games: int = 0
    wins: int = 0
    place_sum: int = 0
    points_won: int = 0
    points_lost: int = 0
    counts: list[int] = field(default_factory=lambda: [0] * len(_COUNT_NAMES))
    rounds: int = 0
    round_sum: int = 0
    best: int | None = None
    worst: int | None = None
    trece_games: int = 0
    trece_wins: int = 0

    def add(self, r: Result, seat: int) -> None:
        if r.counts:
            mine = r.counts[seat]
            if mine != _NONE:
                for i, name in enumerate(_COUNT_NAMES):
                    self.counts[i] += getattr(mine, name)
        if r.finished:
            won = seat in r.winners
            self.games += 1
            self.wins += won
            self.place_sum += r.places[seat]
            if r.game == TRECE:
                self.trece_games += 1
                self.trece_wins += won
        if r.game == TIENLEN and r.scored:
            p = r.points[seat]
            if p > 0:
                self.points_won += p
            else:
                self.points_lost -= p
        if r.rounds and r.rounds[seat]:
            played = r.rounds[seat]
            low, high = min(played), max(played)
            self.best = low if self.best is None else min(self.best, low)
            self.worst = high if self.worst is None else max(self.worst, high)
            self.rounds += len(played)
            self.round_sum += sum(played)

    def stats(self, name: str) -> PersonStats:
        return PersonStats(name, self.evenings, self.games, self.wins, self.place_sum, self.points_won,
                           self.points_lost, Counts(*self.counts), self.rounds, self.round_sum, self.best,
                           self.worst, self.trece_games, self.trece_wins)


_NONE = Counts()


def winners(results: Iterable[Result], person: Callable[[str], str] = _same) -> tuple[str, ...]:
    """Who won the most finished games among ``results`` (several when tied; none when no game
    finished): an evening's winners.

    >>> winners([Result(TRECE, ("An", "Bo"), True, (1,), (2, 1)), Result(TRECE, ("An", "Bo"), False)])
    ('Bo',)
    """
    wins: dict[str, int] = {}
    for r in results:
        if r.finished:
            for seat in r.winners:
                who = person(r.names[seat])
                wins[who] = wins.get(who, 0) + 1
    top = max(wins.values(), default=0)
    return tuple(w for w, n in wins.items() if n == top and top)


def once(results: Iterable[Result], scored: Iterable[tuple[int, int]] | None = None) -> tuple[Result, ...]:
    """``results`` with each followed table's hand that a sheet scored counted once: the sheet's
    game is that hand (its points, its counts, its finishing order); the table's own record of it
    (unscored) is left out.  ``scored``: the hands scored on any sheet (by default, those among
    ``results``).

    >>> table = Result(TIENLEN, ("An", "Bo"), True, (0,), (1, 2), (0, 0), scored=False, hand=(7, 0))
    >>> other = Result(TIENLEN, ("An", "Bo"), True, (1,), (2, 1), (0, 0), scored=False, hand=(7, 1))
    >>> sheet = Result(TIENLEN, ("An", "Bo"), True, (0,), (1, 2), (3, -3), hand=(7, 0))
    >>> once([table, other, sheet]) == (other, sheet)
    True
    """
    results = tuple(results)
    done = set(scored_hands(results) if scored is None else scored)
    return tuple(r for r in results if r.scored or r.hand is None or r.hand not in done)


def scored_hands(results: Iterable[Result]) -> frozenset[tuple[int, int]]:
    """The followed tables' hands that ``results`` scored (a sheet's games from a table)."""
    return frozenset(r.hand for r in results if r.scored and r.hand is not None)


def totals(results: Iterable[Result], person: Callable[[str], str] = _same) -> Mapping[str, int]:
    """Each person's scored points summed over ``results``: a sheet's totals (Tiến lên: won
    or lost; Three Thirteen: the sheet's totals, lowest best).

    >>> totals([Result(TIENLEN, ("An", "Bo"), True, (0,), (1, 2), (3, -3))])
    {'An': 3, 'Bo': -3}
    """
    out: dict[str, int] = {}
    for r in results:
        if r.scored:
            for seat, raw in enumerate(r.names):
                who = person(raw)
                out[who] = out.get(who, 0) + r.points[seat]
    return out
