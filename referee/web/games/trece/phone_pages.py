"""A Trece table started on this phone, drawn on the phone (:mod:`referee.web.phone_pages`) as
the server's views (:mod:`referee.web.games.trece.views`) draw it: the same templates, and the
same Flask-free parts (:mod:`referee.web.games.trece.pages`, :mod:`referee.web.games.trece.answers`).

What it answers: the table, a move, undo and redo, and the end of the evening (its form: games
and games won, the clock refused as the server refuses it; shown as the server shows it).  The
stake form is left to the network (Babel reads and formats money, on the server only).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from referee import stats
from referee.cards import Card
from referee.trece import Setup, TreceRules
from referee.web import events
from referee.web.evening_ends import end_from
from referee.web.feedback import Feedback
from referee.web.games.trece import pages as tc
from referee.web.games.trece.answers import judge
from referee.web.games.trece.pages import KIND
from referee.web.house_rules import rules_from_form as rules_from_switches
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
)


def read_start(form: Form) -> tuple[str, list[str], dict[str, Any], dict[str, Any]]:
    """A kept new-table form read as the server's ``trece.new_game`` reads it (a form the server
    would refuse makes no game: :class:`~referee.web.phone_pages.Refused`)."""
    errors: dict[str, str] = {}
    rules = rules_from_switches(form, TreceRules, errors)
    setup = tc.read_setup(form, rules, errors)
    if setup is None or errors:
        raise Refused(422, "")
    return KIND, list(setup.players), rules.to_dict(), setup.to_dict()


class Treces(Followed):
    """A Trece table on the phone (:mod:`referee.web.games.trece.views`)."""

    endpoint = "trece.table"
    template = "trece/table.html"
    fragment = "trece/_table.html"

    def state(self) -> Any:
        return tc.game_state(self.game.setup, self.game.events)

    def last_move(self) -> str | None:
        return tc.last_move(self.game.events, self.state())

    def context(self, asked: Asked, feedback: Feedback) -> dict[str, Any]:
        k, game, state = kit(), self.game, self.state()
        ended = tc.evening_end(state, game.setup, game.events, start=game.created_at, version=game.version,
                               action=k.url_for("trece.evening_end", token=game.keeper_token))
        money = self.money(stats.trece_results(state), end=end_from(events.effective_events(game.events), game.setup),
                           per="game", note=ended.past_end, final=state.winner is not None)
        return {**self.shared(asked), "feedback": feedback,
                **tc.table_context(state, game.setup, game.events, self.access.can_write),
                "evening_end": ended, **money}

    def routes(self, asked: Asked) -> list[tuple[str, str, Callable[[dict[str, str]], Answer]]]:
        form = asked.form
        return [*super().routes(asked),
                ("POST", "trece.act", lambda a: self.write(asked, lambda s: judge(s, form), typed=("cards",))),
                ("POST", "trece.evening_end", lambda a: self.evening_end(asked, tc.ENDS, tc.NO_UNTIL)),
                ("POST", "trece.settle_money", lambda a: self.set_stake(asked))]


def warm_up(now: datetime) -> None:
    """A made-up table drawn once (:func:`referee.web.phone_pages.warm_up`, in the reader's
    language): its templates are compiled before the first tap."""
    pile = Setup(("A", "B"), Card.parse("Q♥")).to_dict()
    trece = PhoneGame(KIND, ["A", "B"], {}, pile, "k" * 32, "w" * 32, now)
    Treces(trece, trece.keeper_token).page(Asked("GET", kit().url_for(Treces.endpoint, token=trece.keeper_token),
                                                 "", Form([]), True, True, "", {"base": "", "source": "request"}, now))


GAMES[KIND] = Treces
STARTS["trece.new_game"] = read_start
