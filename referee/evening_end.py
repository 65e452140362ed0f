"""The end of an evening: a target score, a number of games, a clock time.

An evening's end switches (``RULES.md``, "End of an evening"; all off by default) are one
frozen :class:`EveningEnd`:

- ``target``: the evening ends when a player reaches this many points, up or down (0: off);
- ``games``: the evening ends after this many games or rounds (0: off);
- ``until``: a clock time ``"HH:MM"``; the game being played when it passes is the last
  (``""``: off).  The clock is the table's: ``utc_offset`` (minutes east of UTC) says
  where the table sits.

:func:`progress` reads an evening's running totals (after each game) and when each game
was entered, and says how far there is to go, whether the evening is over (and at which
game), who won, and how many games were played past the end.  A table may play on; the
games past the end are not the evening's.

>>> end = EveningEnd(games=3)
>>> p = progress(end, ("An", "Binh"), [(2, -2), (5, -5)])
>>> p.over, [str(m) for m in p.to_go]
(False, ['1 game left'])
>>> p = progress(end, ("An", "Binh"), [(2, -2), (5, -5), (1, -1), (4, -4)])
>>> p.over, p.last_game, p.past_end, p.winners, p.totals
(True, 3, 1, ('An',), (1, -1))
>>> str(p.why)
'the evening is over: 3 games played'
>>> progress(EveningEnd(target=10), ("An", "Binh"), [(6, -6)]).to_go[0].params
{'name': 'An', 'count': 4}
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, time, timedelta, timezone

from referee.switches import SwitchError
from referee.text import Message, message, plural

__all__ = ["MAX_GAMES", "MAX_TARGET", "EveningEnd", "Progress", "deadline", "progress"]

#: The largest ``target`` and ``games`` an evening takes.
MAX_TARGET = 100_000
MAX_GAMES = 1_000

_CLOCK = re.compile(r"([01][0-9]|2[0-3]):([0-5][0-9])")


@dataclass(frozen=True, kw_only=True)
class EveningEnd:
    """An evening's end switches; all off by default.

    >>> EveningEnd(target=50).is_set, EveningEnd().is_set
    (True, False)
    >>> EveningEnd(until="25:00")
    Traceback (most recent call last):
    ...
    referee.switches.SwitchError: the end time '25:00' is not a clock time (HH:MM)
    >>> EveningEnd(games=-1)
    Traceback (most recent call last):
    ...
    referee.switches.SwitchError: the number of games -1 is not between 0 and 1000
    """

    target: int = 0
    games: int = 0
    until: str = ""
    utc_offset: int = 0

    def __post_init__(self) -> None:
        if not _whole(self.target) or not 0 <= self.target <= MAX_TARGET:
            raise SwitchError("target", message(
                "the target {value} is not between 0 and {most} points", value=repr(self.target), most=MAX_TARGET))
        if not _whole(self.games) or not 0 <= self.games <= MAX_GAMES:
            raise SwitchError("games", message(
                "the number of games {value} is not between 0 and {most}", value=repr(self.games), most=MAX_GAMES))
        if not isinstance(self.until, str) or (self.until and not _CLOCK.fullmatch(self.until)):
            raise SwitchError("until", message("the end time {value} is not a clock time (HH:MM)", value=repr(self.until)))
        if not _whole(self.utc_offset) or not -16 * 60 <= self.utc_offset <= 16 * 60:
            raise SwitchError("utc_offset", message("the time zone {value} is not one", value=repr(self.utc_offset)))

    @property
    def is_set(self) -> bool:
        """True when any end switch is on."""
        return bool(self.target or self.games or self.until)

    @property
    def clock(self) -> time | None:
        """``until`` as a time of day, or ``None`` when off."""
        if not self.until:
            return None
        hours, minutes = self.until.split(":")
        return time(int(hours), int(minutes))

    def to_dict(self) -> dict[str, object]:
        """The switches as JSON."""
        return {"target": self.target, "games": self.games, "until": self.until, "utc_offset": self.utc_offset}


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def deadline(end: EveningEnd, start: datetime) -> datetime | None:
    """The first moment at or after ``start`` when the table's clock reads ``until``.

    >>> start = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
    >>> deadline(EveningEnd(until="23:30"), start)
    datetime.datetime(2026, 12, 1, 23, 30, tzinfo=datetime.timezone.utc)
    >>> deadline(EveningEnd(until="01:00"), start).day   # after midnight: the next day
    2
    >>> deadline(EveningEnd(until="23:30", utc_offset=7 * 60), start).isoformat()   # 03:00 in Hà Nội
    '2026-12-02T16:30:00+00:00'
    """
    clock = end.clock
    if clock is None:
        return None
    zone = timezone(timedelta(minutes=end.utc_offset))
    local = _aware(start).astimezone(zone)
    moment = datetime.combine(local.date(), clock, tzinfo=zone)
    if moment < local:
        moment += timedelta(days=1)
    return moment.astimezone(UTC)


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class Progress:
    """Where an evening stands against its end switches.

    ``to_go``: how far there is to go, one sentence per switch (empty once over);
    ``over``: the evening has ended; ``last_game``: the game that ended it (1-based);
    ``why``: the sentence saying so; ``past_end``: games played after it;
    ``totals``: the totals at the end (or now, while it goes on); ``winners``: the
    players with the best of those totals once over (empty before).
    """

    over: bool
    to_go: tuple[Message, ...] = ()
    last_game: int | None = None
    why: Message | None = None
    past_end: int = 0
    totals: tuple[int, ...] = ()
    winners: tuple[str, ...] = field(default=())


def progress(
    end: EveningEnd,
    names: Sequence[str],
    running: Sequence[Sequence[int]],
    entered: Sequence[datetime] = (),
    *,
    start: datetime | None = None,
    now: datetime | None = None,
    lowest_wins: bool = False,
) -> Progress:
    """How far an evening is from its end, or how it ended.

    ``running[k]`` is each player's total after game ``k + 1``; ``entered[k]`` when that
    game was entered (finished).  With ``until``, ``start`` is when the evening began (by
    default the first game's time) and ``now`` the time it is.  The best total wins
    (the lowest with ``lowest_wins``, as in Three Thirteen).

    >>> t0 = datetime(2026, 12, 1, 22, 0, tzinfo=UTC)
    >>> end = EveningEnd(until="23:00")
    >>> games = [(1, -1), (3, -3), (-2, 2)]
    >>> at = [t0, t0 + timedelta(minutes=50), t0 + timedelta(minutes=70)]
    >>> p = progress(end, ("An", "Binh"), games[:2], at[:2], start=t0, now=at[1] + timedelta(minutes=15))
    >>> p.over, str(p.to_go[0])
    (False, 'the game being played at 23:00 is the last')
    >>> p = progress(end, ("An", "Binh"), games, at, start=t0, now=at[2])
    >>> p.over, p.last_game, p.winners, str(p.why)
    (True, 3, ('Binh',), 'the evening is over: the game being played at 23:00 was the last')
    >>> progress(EveningEnd(target=5), ("An", "Binh", "Chi"), [(3, -1, -2), (-2, 5, -3)]).why.params
    {'name': 'Binh', 'count': 5}
    """
    count = len(running)
    finish = deadline(end, start if start is not None else (entered[0] if entered else now or datetime.now(UTC)))
    last: int | None = None
    why: Message | None = None
    for number, totals in enumerate(running, start=1):
        if end.target:
            reached = [name for name, total in zip(names, totals, strict=True) if abs(total) >= end.target]
            if reached:
                last, why = number, plural(
                    "the evening is over: {name} reached the target of 1 point",
                    "the evening is over: {name} reached the target of {count} points",
                    end.target, name=", ".join(reached))
                break
        if end.games and number >= end.games:
            last, why = number, plural("the evening is over: 1 game played", "the evening is over: {count} games played",
                                       end.games)
            break
        if finish is not None and number <= len(entered) and _aware(entered[number - 1]) >= finish:
            last, why = number, message(
                "the evening is over: the game being played at {time} was the last", time=end.until)
            break
    if last is not None:
        totals = tuple(running[last - 1])
        best = min(totals) if lowest_wins else max(totals)
        winners = tuple(name for name, total in zip(names, totals, strict=True) if total == best)
        return Progress(over=True, last_game=last, why=why, past_end=count - last, totals=totals, winners=winners)
    now_totals = tuple(running[-1]) if running else tuple(0 for _ in names)
    to_go: list[Message] = []
    if end.target and names:
        closest = max(range(len(names)), key=lambda seat: (abs(now_totals[seat]), -seat))
        away = end.target - abs(now_totals[closest])
        to_go.append(plural("{name} is 1 point from the target", "{name} is {count} points from the target", away,
                            name=names[closest]))
    if end.games:
        left = end.games - count
        to_go.append(plural("1 game left", "{count} games left", left))
    if finish is not None:
        if now is not None and _aware(now) >= finish:
            to_go.append(message("the game being played at {time} is the last", time=end.until))
        else:
            to_go.append(message("the evening ends with the game being played at {time}", time=end.until))
    return Progress(over=False, to_go=tuple(to_go), totals=now_totals)
