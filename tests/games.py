"""The games the shared suites run over, read from the app's registry (names no game).

Every test app registers the app's game packages plus the tests' toy game (``tests/toy``: a game
defined only in the tests), so each parametrised suite gets a row per followed game of the
registry, the toy's included, with no list written here.  A row is one followed game (a store
kind) with its registry entry and the worked :class:`~tests.worked.Example` of its forms
(``tests/worked/<slug>.py``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee.web import registry
from referee.web.registry import GameEntry
from referee.web.tables import FollowedGame
from tests.worked import Example, Worked, worked

TOY = "tests.toy"
PACKAGES: tuple[str, ...] = (*registry.GAME_PACKAGES, TOY)
"""The game packages of every test app (``GAME_PACKAGES``, set by conftest)."""

ENTRIES: tuple[GameEntry, ...] = registry.load(PACKAGES)
WORKED: dict[str, Worked] = {entry.slug: worked(entry) for entry in ENTRIES}
"""Each game's worked examples (``tests/worked/<slug>.py``), by slug."""


@dataclass(frozen=True)
class Row:
    """One followed game, as the shared suites drive it."""

    entry: GameEntry
    followed: FollowedGame[Any]
    example: Example

    @property
    def name(self) -> str:
        return self.followed.kind

    kind = name

    @property
    def prefix(self) -> str:
        """The address every page of the game starts with (its blueprint's prefix)."""
        return self.followed.blueprint.url_prefix or ""

    @property
    def new(self) -> Mapping[str, Any]:
        return self.example.new

    @property
    def new_form(self) -> dict[str, Any]:
        return dict(self.example.new)

    @property
    def legal(self) -> tuple[str, Mapping[str, Any]]:
        return self.example.legal

    @property
    def refused(self) -> tuple[str, Mapping[str, Any]]:
        return self.example.refused

    @property
    def typed(self) -> str:
        return self.example.typed

    @property
    def unreadable(self) -> tuple[str, Mapping[str, Any]]:
        return self.example.unreadable

    @property
    def extra_pages(self) -> tuple[str, ...]:
        return self.example.extra_pages

    @property
    def live(self) -> str:
        return self.followed.live

    def start(self, client) -> tuple[str, str]:  # type: ignore[no-untyped-def]
        """Start a game through its form: the keeper and watch tokens."""
        from referee.web.store import find_by_token

        response = client.post(f"{self.prefix}/new", data=dict(self.new))
        assert response.status_code == 303, response.get_data(as_text=True)
        keeper = re.search(r"/g/([\w-]+)", response.headers["Location"]).group(1)  # type: ignore[union-attr]
        with client.application.app_context():
            access = find_by_token(keeper)
            assert access is not None
            return keeper, access.game.watch_token

    create = start

    def page(self, token: str) -> str:
        return f"{self.prefix}/g/{token}"

    def post(self, client, token: str, what: tuple[str, Mapping[str, Any]], version: int, **kw):  # type: ignore[no-untyped-def]
        path, form = what
        return client.post(f"{self.prefix}/g/{token}{path}", data={**form, "version": str(version)}, **kw)

    def undo(self, client, token: str, seen: Any):  # type: ignore[no-untyped-def]
        return client.post(f"{self.page(token)}/undo", data={"version": str(seen)})

    def write(self, client, token: str, version: int):  # type: ignore[no-untyped-def]
        """The write the rules accept, sent as the phone that saw ``version``."""
        return self.post(client, token, self.legal, version)


ROWS: list[Row] = [Row(e, f, WORKED[e.slug].examples[f.kind]) for e in ENTRIES for f in e.followed]
IDS: list[str] = [row.name for row in ROWS]


def row(kind: str) -> Row:
    """The row of one store kind (a game's own tests may ask for its own)."""
    return next(r for r in ROWS if r.kind == kind)
