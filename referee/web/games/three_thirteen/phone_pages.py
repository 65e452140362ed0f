"""A Three Thirteen sheet started on this phone, drawn on the phone (:mod:`referee.web.phone_pages`)
as the server's views (:mod:`referee.web.games.three_thirteen.views`) draw it: the same templates,
and the same Flask-free parts (:mod:`referee.web.games.three_thirteen.pages`,
:mod:`referee.web.games.three_thirteen.sheet`).

What it answers: the sheet, a round's page, a seat's preview, a round's save, undo and redo.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from referee import stats
from referee.errors import RefereeError
from referee.web import events, words
from referee.web.evening_ends import undo_label
from referee.web.feedback import Feedback
from referee.web.games.three_thirteen import answers as tt_answers
from referee.web.games.three_thirteen import pages as tt
from referee.web.games.three_thirteen.answers import rules_from_form, stored_rules
from referee.web.games.three_thirteen.sheet import KIND, Sheet, build_sheet
from referee.web.numbers import MAX_PLAYERS, whole_number
from referee.web.phone import Form
from referee.web.phone_pages import (
    GAMES,
    STARTS,
    Answer,
    Asked,
    Followed,
    PhoneGame,
    Refused,
    kit,
    render,
)
from referee.web.players import read_players


def read_start(form: Form) -> tuple[str, list[str], dict[str, Any], dict[str, Any]]:
    """A kept new-sheet form read as the server's ``new_game`` reads it (a form the server would
    refuse makes no game: :class:`~referee.web.phone_pages.Refused`)."""
    players = read_players(form, least=2, most=MAX_PLAYERS, mark="dealer", default_mark=0)
    try:
        rules = rules_from_form(form)
    except RefereeError as exc:
        raise Refused(422, words.say(exc)) from None
    if players.error or players.marked is None:
        raise Refused(422, players.error or "")
    return KIND, list(players.names), stored_rules(rules), {"first_dealer": players.marked}


class Sheets(Followed):
    """A Three Thirteen sheet on the phone (:mod:`referee.web.games.three_thirteen.views`)."""

    endpoint = "three_thirteen.game"
    template = "three_thirteen/game.html"
    fragment = "three_thirteen/_sheet.html"
    live = "sheet"

    def state(self) -> Sheet:
        return build_sheet(self.game, lambda: self.game.events)

    def last_move(self) -> str | None:
        live = events.effective_events(self.game.events)
        return events.undo_words(live, undo_label, lambda e: tt.round_words(e.kind, e.payload))

    def sheet_context(self, asked: Asked, sheet: Sheet) -> dict[str, Any]:
        money = self.money(stats.three_thirteen_results(sheet.state), with_settle=True, final=sheet.state.finished)
        return {**self.shared(asked), "sheet": sheet, "chart": tt.running_chart(sheet), **money}

    def context(self, asked: Asked, feedback: Feedback) -> dict[str, Any]:
        saved_round = whole_number(asked.args.get("saved", ""), low=1, high=999)
        return {**self.sheet_context(asked, self.state()), "feedback": feedback, "saved_round": saved_round,
                "undo_label": self.last_move()}

    def routes(self, asked: Asked) -> list[tuple[str, str, Callable[[dict[str, str]], Answer]]]:
        return [*super().routes(asked),
                ("GET", "three_thirteen.round_page", lambda a: self.round_page(asked, int(a["number"]))),
                ("GET", "three_thirteen.preview", lambda a: self.preview(asked, int(a["number"]), int(a["seat"]))),
                ("POST", "three_thirteen.save_round", lambda a: self.save_round(asked, int(a["number"]))),
                ("POST", "three_thirteen.settle_money", lambda a: self.set_stake(asked))]

    def round_page(self, asked: Asked, number: int, entry: Any = None, *, status: int = 200,
                   splits: Any = None, stale: bool = False, with_previews: bool | None = None) -> Answer:
        sheet = self.state()
        if entry is None:
            if not tt.round_is_open(sheet, number):
                raise Refused(404, tt.no_such_round(number))
            entry = tt.shown_entry(sheet, number)
            splits = tt.saved_splits(sheet, number)
            with_previews = sheet.saved(number) is None
        context = {**tt.round_context(sheet, number, entry, saved_splits=splits, stale=stale,
                                      with_previews=True if with_previews is None else with_previews),
                   **self.sheet_context(asked, sheet), "feedback": Feedback(stale=stale)}
        return Answer(status, render("three_thirteen/round.html", asked, context,
                                     {"token": self.token, "number": number}))

    def preview(self, asked: Asked, number: int, seat: int) -> Answer:
        sheet = self.state()
        if not tt.round_is_open(sheet, number):
            raise Refused(404, tt.no_such_round(number))
        if not 0 <= seat < sheet.players:
            raise Refused(404, "")
        answer = tt_answers.preview_screen(tt.phone_setup(sheet, number), seat, asked.args)
        return Answer(answer.status, render(answer.fragment, asked, answer.context, {"token": self.token}))

    def save_round(self, asked: Asked, number: int) -> Answer:
        seen = self.keeper(asked)
        sheet = self.state()
        if not (seen != self.game.version and 1 <= number <= sheet.schedule.rounds) and not tt.round_is_open(sheet, number):
            raise Refused(404, tt.no_such_round(number))
        cards, points, out, entry = tt.read_round(asked.form, asked.form.getlist("out"), number, sheet.players)
        if seen != self.game.version:
            shown = tt.stale_round(sheet, number)
            return self.round_page(asked, shown, entry, status=409, splits=tt.saved_splits(sheet, shown), stale=True)
        try:
            record = tt.enter_round(sheet, number, cards, points, out)
        except RefereeError as exc:
            return self.round_page(asked, number, exc.detail if exc.detail is not None else entry, status=exc.status)
        payload = record.to_dict()
        self.append(asked, str(payload["action"]), payload)
        return self.done(asked, after={"saved": number})


def warm_up(now: datetime) -> None:
    """A made-up sheet's page and round page drawn once (:func:`referee.web.phone_pages.warm_up`,
    in the reader's language): their templates are compiled before the first tap."""
    game = PhoneGame(KIND, ["A", "B"], {}, {"first_dealer": 0}, "k" * 32, "w" * 32, now)
    path = kit().url_for(Sheets.endpoint, token=game.keeper_token)
    asked = Asked("GET", path, "", Form([]), True, True, "", {"base": "", "source": "request"}, now)
    Sheets(game, game.keeper_token).page(asked)
    Sheets(game, game.keeper_token).round_page(asked, 1)


GAMES[KIND] = Sheets
STARTS["three_thirteen.new_game"] = read_start
