"""A game's new-table form, declared once: its page draws the form with the house rules this
phone used last, and ``POST /new`` reads it, says each mistake beside its field (a 422 with
everything typed kept) or starts the game (:meth:`~referee.web.tables.FollowedGame.start`: a
303 to its keeper page, the house rules kept on the phone, the phone's own tokens taken).

What a game writes is only what is its own: the template holding the form (given ``form``,
``errors``, ``specs`` and ``rules``) and ``read``, which makes the game's setup from the form
once the house rules are read (:func:`~referee.web.house_rules.rules_from_form`), putting each
mistake in ``errors`` under its field's name::

    NewTable(GAME, page="cards/index.html", rules=CardsRules, words=switch_specs, read=read_setup).register()
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from flask import Response, request

from referee.web.house_rules import SwitchLabel, rules_from_form
from referee.web.tables import FollowedGame, remembered
from referee.web.views import render_page


class Setup(Protocol):
    """A game's setup as the library makes it: its players' names and its stored form."""

    @property
    def players(self) -> Sequence[str]: ...

    def to_dict(self) -> dict[str, Any]: ...


class Rules(Protocol):
    def to_dict(self) -> dict[str, Any]: ...


R = TypeVar("R", bound=Rules)


@dataclass(frozen=True)
class NewTable(Generic[R]):
    """One game's new-table form (see the module docstring)."""

    game: FollowedGame[Any]
    page: str
    """The template of the page holding the form (drawn whole, or as htmx's fragment)."""
    rules: type[R]
    words: Callable[[], list[SwitchLabel]]
    """The house rules' words (the game's ``switch_specs``)."""
    read: Callable[[Mapping[str, str], R, dict[str, str]], Setup | None]
    """The setup from the form and its house rules, or ``None`` with the mistakes in ``errors``."""
    shown: Callable[[Mapping[str, str]], Mapping[str, Any]] | None = None
    """What the form shows again after a mistake, from what was sent (default: as it was sent)."""

    def register(self, *, index: str = "index", new: str = "new") -> None:
        """``GET /`` (endpoint ``index``) draws the form, ``POST /new`` (``new``) reads it."""
        self.game.blueprint.add_url_rule("/", index, self.index)
        self.game.blueprint.add_url_rule("/new", new, self.new, methods=["POST"])

    def index(self) -> Response:
        return self.show({}, {}, remembered(self.rules, self.game.kind))

    def new(self) -> Response:
        form = request.form
        errors: dict[str, str] = {}
        rules = rules_from_form(form, self.rules, errors)
        setup = self.read(form, rules, errors)
        if setup is None or errors:
            return self.show(self.shown(form) if self.shown else form, errors, rules, status=422)
        return self.game.start(setup.players, rules=rules.to_dict(), setup=setup.to_dict())

    def show(self, form: Mapping[str, Any], errors: Mapping[str, str], rules: R, status: int = 200) -> Response:
        return render_page(self.page, self.page, status=status, form=form, errors=errors, specs=self.words(),
                           rules=rules.to_dict())
