"""The end of an evening on a sheet, and the stake and end records, with no Flask: the server's
:mod:`referee.web.settle_up` and the phone drawing a sheet started offline
(a game's module, :mod:`referee.web.phone_pages`) both read them here, so both say the same.

An event is anything :mod:`referee.web.events` reads (the store's, or the phone's own records).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from referee.errors import RefereeError
from referee.evening_end import EveningEnd, Progress, progress
from referee.switches import rules_from_mapping
from referee.text import Message, message
from referee.web.events import StoredEvent
from referee.web.words import gettext, ngettext, say

__all__ = ["END", "END_FIELDS", "EVENT_KINDS", "MONEY", "EndView", "decide_end", "end_from", "end_view", "entered_at",
           "read_end", "undo_label"]

MONEY = "money"
"""The event kind of a sheet's stake and currency."""
END = "end"
"""The event kind of a sheet's end switches (``target``, ``games``, ``until``)."""
EVENT_KINDS = frozenset({MONEY, END})
"""The event kinds of a sheet's money and end: a sheet's replay leaves them out."""
END_FIELDS = ("target", "games", "until", "utc_offset")


def end_from(live: Sequence[StoredEvent], setup: Mapping[str, Any] | None) -> EveningEnd:
    """A sheet's end switches: its latest :data:`END` event of ``live`` (the events still in
    force), else those it was started with (``setup["end"]``), else all off."""
    found = [event for event in live if event.kind == END]
    raw = found[-1].payload if found else (setup or {}).get("end") or {}
    try:
        return rules_from_mapping(EveningEnd, raw)
    except RefereeError:
        return EveningEnd()


def entered_at(live: Sequence[Any], kind: str) -> list[datetime]:
    """When each game of a sheet was entered: its events of ``kind`` among ``live``, in order."""
    return [event.created_at for event in live if event.kind == kind]


def undo_label(event: StoredEvent) -> str | None:
    """The undo button's words for a stake or an end event, else ``None``."""
    if event.kind == MONEY:
        return gettext("Stake changed")
    if event.kind == END:
        return gettext("End of the evening changed")
    return None


@dataclass(frozen=True)
class EndView:
    """The end of the evening on a sheet (``partials/evening_end.html``): how far there is to go
    (``lines``), or that it is over (``over``, ``winners``, ``past_end``), and the keeper's end
    form (``action``, ``version``; what was typed comes back through ``feedback.typed``)."""

    progress: Progress
    end: EveningEnd
    lines: tuple[str, ...]
    over: str | None
    winners: str | None
    past_end: str | None
    action: str
    version: int
    switches: tuple[str, ...] = ("target", "games", "until")
    """The end switches the game takes (the form shows these)."""
    target_label: str | None = None
    """The target field's words when the target is not points (a table that counts games won)."""

    def value(self, name: str) -> str:
        """A stored end switch as the form shows it (off: empty)."""
        raw = self.end.to_dict()[name]
        return "" if raw in (0, "") else str(raw)


def end_view(end: EveningEnd, names: Sequence[str], running: Sequence[Sequence[int]], entered: Sequence[datetime],
             *, start: datetime, action: str, version: int, lowest_wins: bool = False,
             switches: tuple[str, ...] = ("target", "games", "until"), target_label: str | None = None,
             got: Progress | None = None) -> EndView:
    """Where the evening stands against its end switches, in the reader's words (``got``: the
    progress already read, else read from ``running``)."""
    if got is None:
        got = progress(end, names, running, entered, start=start, now=datetime.now(UTC), lowest_wins=lowest_wins)
    over = say(got.why) if got.why is not None else None
    winners = None
    if got.over and got.winners:
        winners = ngettext("%(names)s won the evening.", "%(names)s won the evening.", len(got.winners),
                           names=_and(got.winners))
    past = None
    if got.past_end:
        past = ngettext("%(num)d game was played past the end; it is not in the result.",
                        "%(num)d games were played past the end; they are not in the result.", got.past_end)
    return EndView(got, end, tuple(say(m) for m in got.to_go), over, winners, past, action, version, switches,
                   target_label)


def _and(names: Sequence[str]) -> str:
    if len(names) < 2:
        return "".join(names)
    return gettext("%(first)s and %(last)s", first=", ".join(names[:-1]), last=names[-1])


def read_end(form: Mapping[str, Any], errors: dict[str, str] | None = None) -> EveningEnd:
    """The end switches of a form (empty fields: off); a mistake raises :class:`~referee.errors.RefereeError`
    at the field (or, with ``errors``, is put there and all off is answered)."""
    raw = {key: str(form.get(key, ""))[:12].strip() for key in END_FIELDS}
    values: dict[str, Any] = {}
    for key in ("target", "games"):
        if raw[key]:
            values[key] = raw[key]
    if raw["until"]:
        values["until"] = raw["until"]
    offset = raw["utc_offset"]
    if offset.lstrip("-").isascii() and offset.lstrip("-").isdigit() and len(offset) < 6:
        values["utc_offset"] = int(offset)
    try:
        return rules_from_mapping(EveningEnd, values)
    except RefereeError as exc:
        switch = getattr(exc, "switch", "") or "target"
        if errors is None:
            raise exc.about(switch) from None
        errors[switch] = say(exc)
        return EveningEnd()


def decide_end(typed: Mapping[str, Any], ends: Sequence[str], refusal: Message | None = None) -> dict[str, Any]:
    """The :data:`END` record a keeper's end form asks for (the server's
    :func:`referee.web.settle_up.add_sheet_routes` and the phone's
    :meth:`referee.web.phone_pages.Followed.evening_end` both decide it here): ``ends`` are the
    switches the game takes (``RULES.md``, "End of an evening"); a switch it does not take (or any,
    when it takes none) is refused with ``refusal`` at that switch's field, a mistake at its own
    field (:class:`~referee.errors.RefereeError`)."""
    asked = read_end(typed)
    wrong = [key for key in ("target", "games", "until") if key not in ends and asked.to_dict()[key]]
    if wrong or not ends:
        said = refusal if refusal is not None else message("This game takes no end of the evening.")
        raise RefereeError(said, field=wrong[0] if wrong and ends else None)
    return asked.to_dict()
