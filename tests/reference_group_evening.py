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
  each person's balance is the sum over its sittings, per currency.
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
    stack: list[Op] = []
    for op in ops:
        if op.what == "undo":
            if stack:
                stack.pop()
        else:
            stack.append(op)
    return stack


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
