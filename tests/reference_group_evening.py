"""A group's evening settled by hand from ``RULES.md``: the reference the property test checks the
app against.  It reads only what the players did (cards left typed per game, points typed per
Three Thirteen round, who won a Trece game, stakes, ends, undos, corrections, moves) and adds
the money up itself; it calls nothing of ``referee`` (not the money library, not the sheets).

RULES.md, "Settling up an evening" and "A group's evenings and stats":

- Tiến lên (by hand, cards): every other player pays the first out one point per card left; a
  player with 13 cards left played none, and pays 2 × 13;
- Three Thirteen: the totals of the rounds entered (a round entered again replaces it), lowest
  wins; ``winner``: every other player pays the winner (total − lowest) × stake, tied winners
  share it, a remainder to the tied winner seated first; ``each``: every pair squares the
  difference × stake;
- Trece: the loser of a finished game pays the winner the stake;
- an end: ``games`` n counts the first n games; ``target`` t counts up to the first game after
  which a player's total is t or more, up or down; the games after count nowhere;
- an undo takes back the latest change still in force (a game, a correction, a stake, an end);
- an evening: the group's local day the sitting began (turning at 06:00) unless moved;
  each person's balance is the sum over its sittings, per currency;
- the group's own end (``games`` or ``target``) over everything the evening holds: its finished
  games (a Tiến lên game, a whole Three Thirteen sheet once its eleven rounds are in, a Trece
  game; each sheet's and table's up to its own end) in the order they were entered; points are
  each person's money when the sittings that play for money do so in one currency, else the Tiến
  lên points; the games after the one that ended it, and whatever was still being played then
  (a Three Thirteen sheet not yet finished), count nowhere.

Each change of a sitting is made one minute after the one before, the first one minute after it
began (:func:`op_time`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo


@dataclass
class Op:
    """One change to a sitting, as the players made it."""

    what: str
    """``game`` (Tiến lên: cards left per seat, the first out 0), ``correct`` (game ``number``),
    ``round`` (Three Thirteen: number, points per seat), ``win`` (Trece: the winner's seat),
    ``stake`` (amount, currency, settle), ``end`` (games or target), ``undo``."""
    data: dict[str, object] = field(default_factory=dict)


@dataclass
class SittingPlan:
    game: str  # "tienlen", "three_thirteen", "trece"
    names: tuple[str, ...]
    begun: datetime
    ops: list[Op]
    moved_to: str | None = None


def live(ops: list[Op]) -> list[Op]:
    """The changes still in force: each undo takes back the latest one not yet undone."""
    return [op for _, op in live_indexed(ops)]


def live_indexed(ops: list[Op]) -> list[tuple[int, Op]]:
    """The changes still in force with their place among all the changes."""
    stack: list[tuple[int, Op]] = []
    for index, op in enumerate(ops):
        if op.what == "undo":
            if stack:
                stack.pop()
        else:
            stack.append((index, op))
    return stack


def op_time(plan: SittingPlan, index: int) -> datetime:
    """When change ``index`` of a sitting was made."""
    return plan.begun + timedelta(minutes=index + 1)


def tienlen_points(left: list[int]) -> list[int]:
    winner = left.index(0)
    points = [0] * len(left)
    for seat, cards in enumerate(left):
        if seat == winner:
            continue
        owed = 26 if cards == 13 else cards
        points[seat] -= owed
        points[winner] += owed
    return points


def counted_games(games: list[list[int]], end: dict[str, object] | None) -> list[list[int]]:
    """The games an end leaves counted (``games``: the points of each game)."""
    if not end:
        return games
    if end.get("games"):
        return games[: int(str(end["games"]))]
    target = int(str(end.get("target") or 0))
    if target:
        totals = [0] * (len(games[0]) if games else 0)
        for number, points in enumerate(games, start=1):
            totals = [t + p for t, p in zip(totals, points, strict=True)]
            if any(abs(t) >= target for t in totals):
                return games[:number]
    return games


def sitting_money(plan: SittingPlan) -> tuple[str, dict[str, int]] | None:
    """(currency, each player's balance) of one sitting, ``None`` when it does not play for money."""
    ops = live(plan.ops)
    stakes = [op.data for op in ops if op.what == "stake"]
    if not stakes or not stakes[-1]["amount"]:
        return None
    stake = int(str(stakes[-1]["amount"]))
    currency = str(stakes[-1]["currency"])
    ends = [op.data for op in ops if op.what == "end"]
    end = ends[-1] if ends else None
    n = len(plan.names)
    money = dict.fromkeys(plan.names, 0)
    if plan.game == "tienlen":
        games: list[list[int]] = []
        for op in ops:
            if op.what == "game":
                games.append(tienlen_points(list(op.data["left"])))  # type: ignore[call-overload]
            elif op.what == "correct":
                games[int(str(op.data["number"])) - 1] = tienlen_points(list(op.data["left"]))  # type: ignore[call-overload]
        for points in counted_games(games, end):
            for seat, name in enumerate(plan.names):
                money[name] += points[seat] * stake
    elif plan.game == "three_thirteen":
        rounds: dict[int, list[int]] = {}
        for op in ops:
            if op.what == "round":
                rounds[int(str(op.data["number"]))] = list(op.data["points"])  # type: ignore[call-overload]
        if not rounds:
            return currency, money
        totals = [sum(r[seat] for r in rounds.values()) for seat in range(n)]
        if stakes[-1].get("settle") == "each":
            for a in range(n):
                for b in range(n):
                    money[plan.names[a]] += (totals[b] - totals[a]) * stake
        else:
            low = min(totals)
            winners = [seat for seat in range(n) if totals[seat] == low]
            paid = 0
            for seat in range(n):
                if totals[seat] != low:
                    money[plan.names[seat]] -= (totals[seat] - low) * stake
                    paid += (totals[seat] - low) * stake
            for seat in winners:
                money[plan.names[seat]] += paid // len(winners)
            money[plan.names[winners[0]]] += paid % len(winners)
    else:
        wins = [int(str(op.data["seat"])) for op in ops if op.what == "win"]
        for seat in wins:
            money[plan.names[seat]] += stake
            money[plan.names[1 - seat]] -= stake
    return currency, money


def evening_of(plan: SittingPlan, zone: str) -> str:
    if plan.moved_to:
        return plan.moved_to
    return (plan.begun.astimezone(ZoneInfo(zone)) - timedelta(hours=6)).date().isoformat()


def group_evenings(plans: list[SittingPlan], zone: str) -> dict[str, dict[str, dict[str, int]]]:
    """day → currency → person → balance (people who are square kept: the sum of what each says)."""
    out: dict[str, dict[str, dict[str, int]]] = {}
    for plan in plans:
        got = sitting_money(plan)
        if got is None:
            continue
        currency, money = got
        day = out.setdefault(evening_of(plan, zone), {}).setdefault(currency, {})
        for name, amount in money.items():
            day[name] = day.get(name, 0) + amount
    return out


ROUNDS = 11


@dataclass
class Played:
    """One finished game of a sitting, as the group's end counts it."""

    at: datetime
    money: dict[str, int]
    """What it adds to its sitting's settle-up (empty when the sitting does not play for money)."""
    points: dict[str, int]
    """Its Tiến lên points (empty for the other games)."""


def sitting_games(plan: SittingPlan) -> tuple[str | None, list[Played], dict[str, int]]:
    """A sitting's currency (``None``: it does not play for money), its finished games that its own
    end counts, in order, and the money of what is still being played (a Three Thirteen sheet
    whose rounds are not all in)."""
    ops = live_indexed(plan.ops)
    stakes = [op.data for _, op in ops if op.what == "stake"]
    stake = int(str(stakes[-1]["amount"])) if stakes else 0
    currency = str(stakes[-1]["currency"]) if stake else None
    ends = [op.data for _, op in ops if op.what == "end"]
    end = ends[-1] if ends else None
    names = plan.names
    if plan.game == "tienlen":
        games: list[tuple[datetime, list[int]]] = []
        for index, op in ops:
            if op.what == "game":
                games.append((op_time(plan, index), tienlen_points(list(op.data["left"]))))  # type: ignore[call-overload]
            elif op.what == "correct":
                number = int(str(op.data["number"])) - 1
                games[number] = (games[number][0], tienlen_points(list(op.data["left"])))  # type: ignore[call-overload]
        kept = counted_games([points for _, points in games], end)
        return currency, [Played(at, {n: p * stake for n, p in zip(names, points, strict=True)} if currency else {},
                                 dict(zip(names, points, strict=True)))
                          for (at, _), points in zip(games, kept, strict=False)], {}
    if plan.game == "trece":
        wins = [(op_time(plan, index), int(str(op.data["seat"]))) for index, op in ops if op.what == "win"]
        won = [0, 0]
        played: list[Played] = []
        for number, (at, seat) in enumerate(wins, start=1):
            won[seat] += 1
            money = {names[seat]: stake, names[1 - seat]: -stake} if currency else {}
            played.append(Played(at, money, {}))
            if end and ((end.get("games") and number >= int(str(end["games"])))
                        or (end.get("target") and max(won) >= int(str(end["target"])))):
                break
        return currency, played, {}
    rounds = {int(str(op.data["number"])) for _, op in ops if op.what == "round"}
    got = sitting_money(plan)
    money = got[1] if got is not None else {}
    if rounds == set(range(1, ROUNDS + 1)):
        at = max(op_time(plan, index) for index, op in ops if op.what == "round")
        return currency, [Played(at, money, {})], {}
    return currency, [], money


def evening_with_end(plans: list[SittingPlan], end: dict[str, int]) -> dict[str, dict[str, int]]:
    """One evening's currency → person → balance under the group's end (``games`` or ``target``)."""
    games: list[tuple[datetime, str | None, Played]] = []
    unfinished: list[tuple[str | None, dict[str, int]]] = []
    for plan in plans:
        currency, played, still = sitting_games(plan)
        games.extend((p.at, currency, p) for p in played)
        unfinished.append((currency, still))
    games.sort(key=lambda game: game[0])
    currencies = {plan_currency for plan_currency, _, _ in
                  (sitting_games(plan) for plan in plans) if plan_currency is not None}
    by_money = len(currencies) == 1
    totals: dict[str, int] = {}
    last = None
    for number, (_, _, game) in enumerate(games, start=1):
        for name, amount in (game.money if by_money else game.points).items():
            totals[name] = totals.get(name, 0) + amount
        if (end.get("target") and any(abs(t) >= end["target"] for t in totals.values())) \
                or (end.get("games") and number >= end["games"]):
            last = number
            break
    out: dict[str, dict[str, int]] = {}

    def add(currency: str | None, money: dict[str, int]) -> None:
        if currency is None:
            return
        for name, amount in money.items():
            out.setdefault(currency, {})[name] = out.setdefault(currency, {}).get(name, 0) + amount

    for _, currency, game in games[:last]:
        add(currency, game.money)
    if last is None:
        for currency, money in unfinished:
            add(currency, money)
    return out


def group_evenings_with_end(plans: list[SittingPlan], zone: str,
                            end: dict[str, int] | None) -> dict[str, dict[str, dict[str, int]]]:
    """day → currency → person → balance, with the group's own end applied to each evening."""
    if not end:
        return group_evenings(plans, zone)
    days: dict[str, list[SittingPlan]] = {}
    for plan in plans:
        days.setdefault(evening_of(plan, zone), []).append(plan)
    return {day: evening_with_end(day_plans, end) for day, day_plans in days.items()}
