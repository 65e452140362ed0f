"""The Three Thirteen score sheet as a state machine (:class:`Sheet`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.errors import RefereeError, RefusedAction
from referee.states import StateMachine, can
from referee.text import message
from referee.three_thirteen import (
    RoundNumberError,
    Schedule,
    ThreeThirteenRules,
)
from referee.three_thirteen_sheet.judging import (
    HandPreview,
    RoundRefused,
    RoundVerdict,
    judge_round,
    preview_hand,
)
from referee.three_thirteen_sheet.records import (
    RoundCorrected,
    RoundEntered,
    SheetSetup,
    record_from_dict,
)

# ---------------------------------------------------------------------------
# The sheet


@dataclass(frozen=True, slots=True)
class ScoredRound:
    """A round on the sheet: its record, whether it was corrected, the totals after it."""

    record: RoundEntered
    corrected: bool
    totals: tuple[int, ...]

    @property
    def number(self) -> int:
        return self.record.round_number


class Sheet(StateMachine["SheetSetup", "RoundEntered"]):
    """An eleven-round (or longer) score sheet, one record per round entered.

    ``check_enter_round`` raises :class:`RoundRefused` (carrying the whole
    :class:`RoundVerdict`) for an entry with problems, or :class:`RefusedAction`
    for a round that is not open yet; ``can_enter_round`` answers whether
    ``enter_round`` would save it; ``enter_round`` appends the record.
    """

    def __init__(self, setup: SheetSetup) -> None:
        super().__init__(setup)
        self._rounds: dict[int, tuple[RoundEntered, bool]] = {}

    # -- what the sheet shows -------------------------------------------------------
    @property
    def rules(self) -> ThreeThirteenRules:
        return self.setup.rules

    @property
    def names(self) -> tuple[str, ...]:
        return self.setup.players

    @property
    def players(self) -> int:
        return len(self.setup.players)

    @property
    def schedule(self) -> Schedule:
        return Schedule(self.rules)

    @property
    def decks(self) -> int:
        return self.setup.decks

    @property
    def rounds(self) -> tuple[ScoredRound, ...]:
        """The rounds saved, in order, each with the running totals."""
        totals = [0] * self.players
        scored = []
        for n in sorted(self._rounds):
            record, corrected = self._rounds[n]
            totals = [a + b for a, b in zip(totals, record.points, strict=True)]
            scored.append(ScoredRound(record, corrected, tuple(totals)))
        return tuple(scored)

    @property
    def totals(self) -> tuple[int, ...]:
        rounds = self.rounds
        return rounds[-1].totals if rounds else (0,) * self.players

    @property
    def next_round(self) -> int | None:
        """The round to enter next, or ``None`` once every round is saved."""
        n = len(self._rounds) + 1
        return n if n <= self.schedule.rounds else None

    @property
    def finished(self) -> bool:
        return self.next_round is None

    @property
    def leaders(self) -> tuple[int, ...]:
        """Seats with the lowest total (after at least one round)."""
        if not self._rounds:
            return ()
        totals = self.totals
        return tuple(s for s, t in enumerate(totals) if t == min(totals))

    @property
    def winners(self) -> tuple[int, ...]:
        return self.leaders if self.finished else ()

    def saved(self, round_number: int) -> RoundEntered | None:
        entry = self._rounds.get(round_number)
        return entry[0] if entry else None

    def dealer(self, round_number: int) -> int:
        return self.schedule.dealer(round_number, first_dealer=self.setup.first_dealer, players=self.players)

    def starter(self, round_number: int) -> int:
        return self.schedule.starter(round_number, first_dealer=self.setup.first_dealer, players=self.players)

    # -- entering a round ---------------------------------------------------------------
    def judge_round(
        self, round_number: int, cards: Sequence[str], points: Sequence[str | int | None], out: Iterable[int]
    ) -> RoundVerdict:
        """The verdict on an entry, problems and all (see :func:`judge_round`)."""
        return judge_round(self.rules, self.players, round_number, cards, points, out)

    def preview_hand(self, round_number: int, text: str, *, out: bool) -> HandPreview:
        return preview_hand(self.rules, self.players, round_number, text, out=out)

    def check_round_open(self, round_number: int) -> None:
        """Raise unless ``round_number`` may be entered: the next round, or a saved one (to correct)."""
        limit = self.next_round or self.schedule.rounds
        if isinstance(round_number, bool) or not isinstance(round_number, int) or not 1 <= round_number <= limit:
            if isinstance(round_number, int) and 1 <= round_number <= self.schedule.rounds:
                raise RefusedAction(message(
                    "round {round} cannot be entered before round {next}", round=round_number, next=limit
                ))
            raise RoundNumberError(round_number, self.schedule.rounds)

    def check_enter_round(
        self, round_number: int, cards: Sequence[str], points: Sequence[str | int | None], out: Iterable[int]
    ) -> RoundVerdict:
        """Raise unless the entry may be saved; otherwise return its clean verdict."""
        self.check_round_open(round_number)
        verdict = self.judge_round(round_number, cards, points, out)
        if not verdict.ok:
            raise RoundRefused(verdict)
        return verdict

    can_enter_round = can(check_enter_round)

    def enter_round(
        self, round_number: int, cards: Sequence[str], points: Sequence[str | int | None], out: Iterable[int]
    ) -> RoundEntered:
        """Save the round (a correction if it was saved before); returns the record."""
        verdict = self.check_enter_round(round_number, cards, points, out)
        return self._append(verdict.record(corrected=round_number in self._rounds))

    # -- replay and undo -----------------------------------------------------------------
    def apply(self, action: RoundEntered | Mapping[str, Any]) -> RoundEntered:
        """Add a saved record again (its points are trusted, not worked out again)."""
        record = record_from_dict(action) if isinstance(action, Mapping) else action
        self.check_round_open(record.round_number)
        if len(record.points) != self.players or len(record.hands) not in (0, self.players):
            raise RefereeError(message(
                "round {round} has {count} scores, but the table has {players} players",
                round=record.round_number, count=len(record.points), players=self.players,
            ))
        return self._append(record)

    def _append(self, record: RoundEntered) -> RoundEntered:
        n = record.round_number
        self._rounds[n] = (record, isinstance(record, RoundCorrected) or n in self._rounds)
        self.log.append(record)
        return record

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": list(self.names),
            "rounds": [{"round": r.number, "points": list(r.record.points), "totals": list(r.totals),
                        "corrected": r.corrected} for r in self.rounds],
            "totals": list(self.totals),
            "next_round": self.next_round,
            "winners": list(self.winners),
        }


def replay(setup: SheetSetup, actions: Iterable[RoundEntered | Mapping[str, Any]]) -> Sheet:
    """Rebuild a sheet from its setup and its records (or their dicts)."""
    return Sheet.replay(setup, actions)
