"""A followed Tiến lên table started on this phone, drawn on the phone
(:mod:`referee.web.phone_pages`) as the server's views (:mod:`referee.web.games.tienlen.table`)
draw it: the same templates, and the same Flask-free parts (:mod:`referee.web.games.tienlen.pages`).

What it answers: the table, a play, a pass, the next hand, an instant win, undo and redo.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from referee.tienlen import Setup, TienLenRules
from referee.web.feedback import Feedback
from referee.web.games.tienlen import pages as tl
from referee.web.games.tienlen.pages import KIND
from referee.web.phone import Form
from referee.web.phone_pages import GAMES, STARTS, Answer, Asked, Followed, PhoneGame, Refused, kit


def read_start(form: Form) -> tuple[str, list[str], dict[str, Any], dict[str, Any]]:
    """A kept new-table form read as the server's ``tienlen_table.new`` reads it (a form the
    server would refuse makes no game: :class:`~referee.web.phone_pages.Refused`)."""
    read = tl.read_new_table(form)
    if read.setup is None:
        raise Refused(422, "")
    return KIND, read.names, read.rules.to_dict(), read.setup.to_dict()


class Tables(Followed):
    """A followed Tiến lên table on the phone (:mod:`referee.web.games.tienlen.table`)."""

    endpoint = "tienlen_table.table"
    template = "tienlen/table.html"
    fragment = "tienlen/table_fragment.html"
    undo_typed = ("cards",)

    def state(self) -> Any:
        return tl.live_state(self.game.setup, self.game.events)

    def last_move(self) -> str | None:
        return tl.last_move(self.game.events, tuple(self.game.player_names))

    def context(self, asked: Asked, feedback: Feedback) -> dict[str, Any]:
        return {**self.shared(asked), "feedback": feedback,
                **tl.table_context(self.state(), self.game.setup, self.game.events, self.access.can_write)}

    def routes(self, asked: Asked) -> list[tuple[str, str, Callable[[dict[str, str]], Answer]]]:
        form = asked.form
        return [*super().routes(asked),
                ("POST", "tienlen_table.play",
                 lambda a: self.write(asked, lambda s: tl.play(s, form), typed=("cards",), at="cards")),
                ("POST", "tienlen_table.pass", lambda a: self.write(asked, lambda s: tl.pass_(s, form), typed=("cards",))),
                ("POST", "tienlen_table.next", lambda a: self.write(asked, lambda s: s.next_hand())),
                ("POST", "tienlen_table.instant", lambda a: self.write(asked, lambda s: tl.declare(s, form), typed=("seat",)))]


def warm_up(now: datetime) -> None:
    """A made-up table drawn once (:func:`referee.web.phone_pages.warm_up`, in the reader's
    language): its templates are compiled before the first tap."""
    setup = Setup(("A", "B"), TienLenRules(), leader=0, opening=True).to_dict()
    table = PhoneGame(KIND, ["A", "B"], {}, setup, "k" * 32, "w" * 32, now)
    Tables(table, table.keeper_token).page(Asked("GET", kit().url_for(Tables.endpoint, token=table.keeper_token),
                                                 "", Form([]), True, True, "", {"base": "", "source": "request"}, now))


GAMES[KIND] = Tables
STARTS["tienlen_table.new"] = read_start
