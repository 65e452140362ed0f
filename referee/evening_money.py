"""What each person wins or pays on an evening: one source for every page (``RULES.md``,
"Settling up an evening" and "A group's evenings and stats").

A sheet or table that plays for money is one :class:`Sitting`: its games read into
:class:`~referee.stats.Result` values (by the game's own state machine), its stake and currency
(and a Three Thirteen sheet's ``settle`` switch), and how many of its games count (``counted``:
the game that ended it, when an end switch ended it; the games past the end count nowhere).

- :func:`balances` is what the sheet's or table's own page says each player wins (positive) or
  pays (negative), in the currency's smallest unit;
- :func:`evening_balances` is a group's evening: for each currency, each person's sum of what
  every sitting's :func:`balances` says, so the group's page and the sheets cannot disagree;
- :func:`end_progress` reads a sitting's games against its end switches (points: a Tiến lên
  sheet's totals, a Trece table's games won; games: its finished games) and :func:`counted`
  says how many of them count.

>>> from referee.stats import Result, TIENLEN, TRECE
>>> game1 = Result(TIENLEN, ("An", "Binh"), True, (0,), (1, 2), (5, -5))
>>> game2 = Result(TIENLEN, ("An", "Binh"), True, (1,), (2, 1), (-9, 9))
>>> sheet = Sitting(results=(game1, game2), stake=100, currency="USD", counted=1)
>>> balances(sheet)   # the sheet ended after its first game: the second counts nowhere
{'An': 500, 'Binh': -500}
>>> table = Sitting(results=(Result(TRECE, ("Ana", "Luis"), True, (1,), (2, 1)),), stake=250, currency="USD")
>>> balances(table)
{'Ana': -250, 'Luis': 250}
>>> evening_balances([sheet, table])
{'USD': {'An': 500, 'Binh': -500, 'Ana': -250, 'Luis': 250}}
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from datetime import UTC, datetime
from typing import Any

from referee.evening_end import EveningEnd, Progress, progress
from referee.settle import SETTLE_CHOICES, three_thirteen_balances
from referee.stats import THREE_THIRTEEN, TIENLEN, TRECE, Counts, Result

__all__ = [
    "FORMAT", "Sitting", "balances", "counted", "end_progress", "evening_balances", "evening_cut", "finished",
    "running_totals",
]

FORMAT = 3
"""The version of :meth:`Sitting.to_dict`'s JSON: a stored one of another format is read again
from its game's records."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Sitting:
    """One sheet or table of an evening, as far as money goes.

    ``results``: its games (a Tiến lên sheet: one per game; a Three Thirteen sheet: one, its
    totals; a Trece table: one per game); ``stake``: per point or per game won, in
    ``currency``'s smallest unit (0: it does not play for money); ``settle``: a Three Thirteen
    sheet's switch; ``counted``: how many of its finished games count (``None``: all).
    """

    results: tuple[Result, ...]
    stake: int = 0
    currency: str = ""
    settle: str = "winner"
    counted: int | None = None
    entered: tuple[datetime, ...] = ()
    """When each finished game was entered (for a group's end over its evening), in order."""

    def __post_init__(self) -> None:
        if not isinstance(self.stake, int) or isinstance(self.stake, bool) or self.stake < 0:
            raise ValueError(f"a stake is a whole number of the smallest unit, 0 or more, not {self.stake!r}")
        if self.settle not in SETTLE_CHOICES:
            raise ValueError(f"settle is one of {', '.join(SETTLE_CHOICES)}, not {self.settle!r}")
        if self.counted is not None and self.counted < 0:
            raise ValueError(f"counted is 0 or more, not {self.counted!r}")

    def to_dict(self) -> dict[str, Any]:
        """The sitting as JSON (kept with its game, so a fresh process need not replay it).

        >>> from referee.stats import Result, TRECE
        >>> one = Sitting(results=(Result(TRECE, ("Ana", "Luis"), True, (1,), (2, 1)),), stake=5, currency="EUR")
        >>> Sitting.from_dict(one.to_dict()) == one
        True
        """
        return {"format": FORMAT, "stake": self.stake, "currency": self.currency, "settle": self.settle,
                "counted": self.counted, "results": [_result_dict(r) for r in self.results],
                "entered": [_aware(at).isoformat() for at in self.entered]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Sitting:
        """A sitting from :meth:`to_dict` (``ValueError`` for another format or a broken one)."""
        if data.get("format") != FORMAT:
            raise ValueError(f"a sitting of format {data.get('format')!r}, not {FORMAT}")
        try:
            return cls(results=tuple(_result_of(r) for r in data["results"]), stake=int(data["stake"]),
                       currency=str(data["currency"]), settle=str(data["settle"]),
                       counted=None if data["counted"] is None else int(data["counted"]),
                       entered=tuple(datetime.fromisoformat(str(at)) for at in data["entered"]))
        except (KeyError, TypeError) as exc:
            raise ValueError(f"a broken sitting: {exc}") from None

    def without_hands(self, scored: frozenset[tuple[int, int]]) -> Sitting:
        """The sitting with each followed table's hand that a sheet scored left out (the sheet's
        game is that hand: :func:`referee.stats.once`), with when it was entered.

        >>> from referee.stats import Result, TIENLEN
        >>> hand = Result(TIENLEN, ("An", "Bo"), True, (0,), (1, 2), (0, 0), scored=False, hand=(7, 0))
        >>> t0 = datetime(2026, 12, 4, 20, 0, tzinfo=UTC)
        >>> table = Sitting(results=(hand, replace(hand, hand=(7, 1))), entered=(t0, t0.replace(minute=5)))
        >>> left = table.without_hands(frozenset({(7, 0)}))
        >>> [r.hand for r in left.results], [at.minute for at in left.entered]
        ([(7, 1)], [5])
        """
        if not any(not r.scored and r.hand in scored for r in self.results):
            return self
        results: list[Result] = []
        entered: list[datetime] = []
        number = 0
        for result in self.results:
            drop = not result.scored and result.hand in scored
            if result.finished:
                if not drop and number < len(self.entered):
                    entered.append(self.entered[number])
                number += 1
            if not drop:
                results.append(result)
        return replace(self, results=tuple(results), entered=tuple(entered))

    @property
    def plays_for_money(self) -> bool:
        """Whether it has a stake (and so a say in the evening's settle-up)."""
        return bool(self.stake and self.currency)

    @property
    def counted_results(self) -> tuple[Result, ...]:
        """Its games that count: every game up to the one that ended it (a game not yet
        finished, such as a Three Thirteen sheet's rounds so far, stays)."""
        if self.counted is None:
            return self.results
        kept: list[Result] = []
        done = 0
        for result in self.results:
            if result.finished:
                if done >= self.counted:
                    continue
                done += 1
            kept.append(result)
        return tuple(kept)


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _result_dict(result: Result) -> dict[str, Any]:
    return {"game": result.game, "names": list(result.names), "finished": result.finished,
            "winners": list(result.winners), "places": list(result.places), "points": list(result.points),
            "counts": [[getattr(c, f.name) for f in fields(Counts)] for c in result.counts],
            "rounds": [list(r) for r in result.rounds], "scored": result.scored,
            "hand": list(result.hand) if result.hand is not None else None}


def _result_of(data: Mapping[str, Any]) -> Result:
    return Result(str(data["game"]), tuple(str(n) for n in data["names"]), bool(data["finished"]),
                  tuple(int(w) for w in data["winners"]), tuple(int(p) for p in data["places"]),
                  tuple(int(p) for p in data["points"]), tuple(Counts(*(int(x) for x in c)) for c in data["counts"]),
                  tuple(tuple(int(x) for x in r) for r in data["rounds"]), bool(data["scored"]),
                  (int(data["hand"][0]), int(data["hand"][1])) if data.get("hand") is not None else None)


def finished(results: Iterable[Result]) -> tuple[Result, ...]:
    """The games that were played to their end (a Three Thirteen sheet counts as one game once
    its rounds are all in)."""
    return tuple(r for r in results if r.finished)


def running_totals(results: Sequence[Result]) -> list[tuple[int, ...]]:
    """What an end's ``target`` counts, after each finished game: a Tiến lên sheet's running
    points; a Trece table's games won.

    >>> from referee.stats import Result
    >>> running_totals([Result(TRECE, ("Ana", "Luis"), True, (0,)), Result(TRECE, ("Ana", "Luis"), False),
    ...                 Result(TRECE, ("Ana", "Luis"), True, (0,))])
    [(1, 0), (2, 0)]
    """
    played = finished(results)
    if not played:
        return []
    totals = [0] * len(played[0].names)
    out: list[tuple[int, ...]] = []
    for result in played:
        if result.game == TRECE:
            for seat in result.winners:
                totals[seat] += 1
        else:
            for seat, points in enumerate(result.points):
                totals[seat] += points
        out.append(tuple(totals))
    return out


def end_progress(end: EveningEnd, names: Sequence[str], results: Sequence[Result], entered: Sequence[datetime] = (),
                 *, start: datetime | None = None, now: datetime | None = None) -> Progress:
    """Where a sheet or table stands against its end switches (:func:`referee.evening_end.progress`
    over :func:`running_totals`; ``entered[k]``: when finished game ``k + 1`` was entered).

    >>> from referee.stats import Result
    >>> win = Result(TRECE, ("Ana", "Luis"), True, (1,))
    >>> p = end_progress(EveningEnd(target=2), ("Ana", "Luis"), [win, win, win])
    >>> p.over, p.last_game, p.past_end, p.winners
    (True, 2, 1, ('Luis',))
    """
    return progress(end, names, running_totals(results), entered, start=start, now=now)


def counted(end: EveningEnd, names: Sequence[str], results: Sequence[Result], entered: Sequence[datetime] = (),
            *, start: datetime | None = None) -> int | None:
    """How many finished games count (:attr:`Sitting.counted`): the game that ended the evening,
    else ``None`` (all of them).  An ``until`` end is read from when the games were entered
    only, so it does not change with the time the page is read."""
    if not end.is_set:
        return None
    got = progress(end, names, running_totals(results), entered, start=start, now=start)
    return got.last_game if got.over else None


def balances(sitting: Sitting) -> dict[str, int]:
    """What the sheet's or table's page says each of its players wins (positive) or pays
    (negative), zero-sum, in seat order; empty when it does not play for money.

    - a Tiến lên sheet: each counted game's points × the stake;
    - a Three Thirteen sheet: its totals by its ``settle`` switch (once a round is in);
    - a Trece table: the loser of each counted finished game pays the winner the stake.

    >>> from referee.stats import Result
    >>> three = Result(THREE_THIRTEEN, ("An", "Binh", "Chi"), False, points=(10, 12, 13), rounds=((10,), (12,), (13,)))
    >>> balances(Sitting(results=(three,), stake=1, currency="EUR", settle="each"))
    {'An': 5, 'Binh': -1, 'Chi': -4}
    >>> balances(Sitting(results=(three,), stake=0, currency="EUR"))
    {}
    """
    if not sitting.plays_for_money:
        return {}
    out: dict[str, int] = {}
    for result in sitting.counted_results:
        part: dict[str, int] = {}
        if result.game == THREE_THIRTEEN:
            if result.rounds and result.rounds[0]:
                part = three_thirteen_balances(list(zip(result.names, result.points, strict=True)),
                                               sitting.stake, sitting.settle)
        elif result.game == TRECE:
            if result.finished and result.winners:
                winner = result.winners[0]
                part = {name: sitting.stake if seat == winner else -sitting.stake
                        for seat, name in enumerate(result.names)}
        elif result.game == TIENLEN and result.scored and result.points:
            part = {name: points * sitting.stake for name, points in zip(result.names, result.points, strict=True)}
        for name, amount in part.items():
            out[name] = out.get(name, 0) + amount
    return out


def evening_balances(sittings: Iterable[Sitting],
                     person: Callable[[str], str] = lambda name: name) -> dict[str, dict[str, int]]:
    """A group's evening: for each currency staked, each person's sum of :func:`balances` over
    the sittings (``person`` maps a seat's name to the group's person), people in first-seen
    order; a currency whose balances are all zero is still said.

    >>> from referee.stats import Result
    >>> a = Sitting(results=(Result(TRECE, ("Ana", "Luis"), True, (0,)),), stake=100, currency="EUR")
    >>> b = Sitting(results=(Result(TRECE, ("ana", "Luis"), True, (1,)),), stake=300, currency="EUR")
    >>> evening_balances([a, b], person=str.capitalize)
    {'EUR': {'Ana': -200, 'Luis': 200}}
    """
    out: dict[str, dict[str, int]] = {}
    for sitting in sittings:
        if not sitting.plays_for_money:
            continue
        got = balances(sitting)
        if not got:
            continue
        total = out.setdefault(sitting.currency, {})
        for name, amount in got.items():
            who = person(name)
            total[who] = total.get(who, 0) + amount
    return out


def evening_cut(sittings: Sequence[Sitting], end: EveningEnd,
                person: Callable[[str], str] = lambda name: name) -> tuple[tuple[Sitting, ...], Progress]:
    """A group's evening against the group's end switches (``RULES.md``, "End of an evening": a
    group's evening takes all three over everything it holds that evening): its finished games
    (each sitting's, up to its own end) in the order they were entered; points are each person's
    money balance in the smallest unit when the sittings that play for money all do so in one
    currency, else the Tiến lên points; games are every finished game.  Answers the sittings with
    the games past the group's end left out (``counted``), and where the evening stands.

    >>> from referee.stats import Result, TIENLEN
    >>> t0 = datetime(2026, 12, 4, 20, 0, tzinfo=UTC)
    >>> game = Result(TIENLEN, ("An", "Binh"), True, (0,), (1, 2), (5, -5))
    >>> sheet = Sitting(results=(game, game, game), stake=10, currency="USD", entered=(t0, t0, t0))
    >>> table = Sitting(results=(Result(TRECE, ("An", "Binh"), True, (1,), (2, 1)),), stake=100, currency="USD",
    ...                 entered=(t0.replace(minute=30),))
    >>> cut, got = evening_cut([sheet, table], EveningEnd(games=2))
    >>> [s.counted for s in cut], got.over, str(got.why)
    ([2, 0], True, 'the evening is over: 2 games played')
    >>> evening_balances(cut)
    {'USD': {'An': 100, 'Binh': -100}}

    A Three Thirteen sheet still being played when the evening ended counts nowhere either:

    >>> rounds = Result(THREE_THIRTEEN, ("An", "Binh"), False, points=(0, 30), rounds=((0,), (30,)))
    >>> rummy = Sitting(results=(rounds,), stake=1, currency="USD")
    >>> cut, got = evening_cut([sheet, rummy], EveningEnd(games=1))
    >>> got.over, evening_balances(cut)
    (True, {'USD': {'An': 50, 'Binh': -50}})
    """
    played: list[tuple[datetime, int, int, Result]] = []
    for index, sitting in enumerate(sittings):
        for number, result in enumerate(finished(sitting.counted_results)):
            at = sitting.entered[number] if number < len(sitting.entered) else datetime.max.replace(tzinfo=UTC)
            played.append((_aware(at), index, number, result))
    played.sort(key=lambda game: (game[0], game[1], game[2]))
    currencies = {s.currency for s in sittings if s.plays_for_money}
    by_money = len(currencies) == 1
    people: list[str] = []
    for *_, result in played:
        for name in result.names:
            if person(name) not in people:
                people.append(person(name))
    totals = dict.fromkeys(people, 0)
    running: list[tuple[int, ...]] = []
    for _, index, _, result in played:
        sitting = sittings[index]
        if by_money:
            part = balances(replace(sitting, results=(result,), counted=None)) if sitting.plays_for_money else {}
        elif result.game == TIENLEN and result.scored and result.points:
            part = dict(zip(result.names, result.points, strict=True))
        else:
            part = {}
        for name, amount in part.items():
            totals[person(name)] += amount
        running.append(tuple(totals[p] for p in people))
    start = played[0][0] if played else None
    got = progress(end, people, running, [game[0] for game in played], start=start, now=start)
    if not got.over or got.last_game is None:
        return tuple(sittings), got
    kept = [0] * len(sittings)
    for _, index, _, _ in played[:got.last_game]:
        kept[index] += 1
    # Once the evening is over, what is still being played (a Three Thirteen sheet whose rounds are
    # not all in) is played past the end too: only the games up to the one that ended it count.
    cut = tuple(replace(s, results=finished(s.counted_results)[:kept[i]], counted=kept[i], entered=s.entered[:kept[i]])
                for i, s in enumerate(sittings))
    return cut, got
