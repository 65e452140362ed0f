"""A Tiến lên evening (its score sheet, ``tienlen_scores``) started on this phone, drawn on the
phone (:mod:`referee.web.phone_pages`) as the server's views (:mod:`referee.web.games.tienlen.scores`)
draw it: the same templates, and the same Flask-free parts
(:mod:`referee.web.games.tienlen.evening_pages`, :mod:`referee.web.evening_ends`).

What it answers: the sheet (whole, its fragment, a poll's 204), a game by hand (its page, its
save: the sheet, or the form again with each mistake beside its field), a correction (its page,
its save), undo and redo, the stake (read and formatted with the money tables generated from
Babel: :mod:`referee.web.money_words`) and the end of the evening (its form).  What it
leaves to the network (the answer ``{"status": 0}``): a table started or followed from the
sheet, the CSV, a rematch, a group.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from referee import stats
from referee.errors import RefereeError
from referee.web import events
from referee.web.evening_ends import end_from, entered_at
from referee.web.feedback import Feedback
from referee.web.games.tienlen import evening_pages as ep
from referee.web.games.tienlen.forms import typed_from
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
from referee.web.words import say


def read_start(form: Form) -> tuple[str, list[str], dict[str, Any], dict[str, Any]]:
    """A kept new-evening form read as the server's ``tienlen_scores.new`` reads it (a form the
    server would refuse makes no game: :class:`~referee.web.phone_pages.Refused`)."""
    read = ep.read_new_evening(form)
    if read.errors:
        raise Refused(422, "")
    return ep.KIND, read.names, read.rules.to_dict(), read.setup


class Evenings(Followed):
    """A Tiến lên score sheet on the phone."""

    endpoint = "tienlen_scores.sheet"
    template = "tienlen_scores/sheet.html"
    fragment = "tienlen_scores/_sheet.html"
    live = "sheet"

    def effective(self) -> list[Any]:
        return events.effective_events(self.game.events)

    def state(self) -> ep.Sheet:
        return ep.replayed(self.game.player_names, self.game.rules, self.effective())

    def last_move(self) -> str | None:
        return ep.last_move(self.state(), self.effective())

    def sheet_context(self, asked: Asked, sheet: ep.Sheet) -> dict[str, Any]:
        """:func:`referee.web.games.tienlen.scores._context`: the share box, the sheet, its end
        and its money (the stake form as the server draws it with no stake set)."""
        k, game = kit(), self.game
        live = self.effective()
        ended = ep.evening_end(sheet, live, game.setup, start=game.created_at, version=game.version,
                               action=k.url_for("tienlen_scores.evening_end", token=game.keeper_token))
        money = self.money(stats.tienlen_sheet_results(sheet), entered=entered_at(live, ep.GAME),
                           end=end_from(live, game.setup), note=ended.past_end, final=ended.progress.over,
                           square=sheet.names)
        return {**self.shared(asked), **ep.sheet_context(sheet, live), "evening_end": ended, **money}

    def context(self, asked: Asked, feedback: Feedback) -> dict[str, Any]:
        sheet = self.state()
        return {**self.sheet_context(asked, sheet), "feedback": feedback, "table_hands": [],
                **ep.page_context(sheet, str(asked.args.get("added", "")))}

    def routes(self, asked: Asked) -> list[tuple[str, str, Callable[[dict[str, str]], Answer]]]:
        return [*super().routes(asked),
                ("GET", "tienlen_scores.add_page", lambda a: self.entry_page(asked, None)),
                ("GET", "tienlen_scores.game_page", lambda a: self.entry_page(asked, int(a["number"]))),
                ("POST", "tienlen_scores.add_by_hand", lambda a: self.save_by_hand(asked, None)),
                ("POST", "tienlen_scores.correct", lambda a: self.save_by_hand(asked, int(a["number"]))),
                ("POST", "tienlen_scores.evening_end", lambda a: self.end(asked)),
                ("POST", "tienlen_scores.settle_money", lambda a: self.stake(asked))]

    # --- a game by hand, or a correction

    def entry(self, asked: Asked, number: int | None, entry: ep.Entry, *, status: int = 200,
              feedback: Feedback | None = None) -> Answer:
        """:func:`referee.web.games.tienlen.scores._render_entry` (the same template whole or for htmx)."""
        sheet = self.state()
        feedback = feedback or Feedback()
        context = {**self.sheet_context(asked, sheet), **ep.entry_context(sheet, number, entry), "feedback": feedback}
        return Answer(status, render("tienlen_scores/entry.html", asked, context,
                                     {"token": self.token, **({"number": number} if number else {})}))

    def entry_page(self, asked: Asked, number: int | None) -> Answer:
        if number is None:
            return self.entry(asked, None, ep.Entry({}))
        try:
            entry = ep.saved_entry(self.state(), number)
        except RefereeError as exc:
            raise Refused(404, say(exc)) from None
        return self.entry(asked, number, entry)

    def refused_entry(self, asked: Asked, number: int | None, feedback: Feedback, status: int) -> Answer:
        """The by-hand form again (a refusal, a stale write), with what was typed (:class:`FollowedGame.show`)."""
        feedback.redo = self.access.can_write and self.last_undo() is not None
        entry = feedback.detail if isinstance(feedback.detail, ep.Entry) else ep.Entry(dict(feedback.typed))
        return self.entry(asked, number, entry, status=status, feedback=feedback)

    def save_by_hand(self, asked: Asked, number: int | None) -> Answer:
        """:func:`referee.web.games.tienlen.scores._save_by_hand`, in its order (403, a game an
        undo took away meanwhile, 404, 400, 409, the referee's verdict)."""
        if not self.access.can_write:
            self.keeper(asked)  # the watch link's 403
        sheet = self.state()
        typed = typed_from(asked.form, sheet.players)
        if number is not None and sheet.saved(number) is None and self.keeper(asked) != self.game.version:
            return self.refused_entry(asked, None, Feedback(typed=dict(typed), stale=True), 409)
        if number is not None:
            try:
                sheet.check_game_saved(number)
            except RefereeError as exc:
                raise Refused(404, say(exc)) from None
        seen = self.keeper(asked)
        added = number or len(sheet.games) + 1
        feedback = Feedback(typed=dict(typed), detail=ep.Entry(typed))
        if seen != self.game.version:
            feedback.stale = True
            return self.refused_entry(asked, number, feedback, 409)
        try:
            record = ep.enter_by_hand(sheet, number, typed)
        except RefereeError as exc:
            if exc.detail is not None:
                feedback.detail = exc.detail
            feedback.error, feedback.at = say(exc.said), exc.field
            return self.refused_entry(asked, number, feedback, exc.status)
        payload = record.to_dict()
        self.append(asked, str(payload["action"]), payload)
        return self.done(asked, after={"added": added})

    # --- the stake and the end of the evening

    def stake(self, asked: Asked) -> Answer:
        """:func:`referee.web.settle_up.add_sheet_routes`' stake form (:meth:`Followed.set_stake`)."""
        return self.set_stake(asked)

    def end(self, asked: Asked) -> Answer:
        """:func:`referee.web.settle_up.add_sheet_routes`' end form (a Tiến lên sheet takes every end switch)."""
        return self.evening_end(asked)

def warm_up(now: datetime) -> None:
    """A made-up evening's sheet and by-hand page drawn once (:func:`referee.web.phone_pages.warm_up`,
    in the reader's language): their templates are compiled before the first tap."""
    game = PhoneGame(ep.KIND, ["A", "B"], {}, {}, "k" * 32, "w" * 32, now)
    path = kit().url_for(Evenings.endpoint, token=game.keeper_token)
    asked = Asked("GET", path, "", Form([]), True, True, "", {"base": "", "source": "request"}, now)
    Evenings(game, game.keeper_token).page(asked)
    Evenings(game, game.keeper_token).entry_page(asked, None)


GAMES[ep.KIND] = Evenings
STARTS["tienlen_scores.new"] = read_start
