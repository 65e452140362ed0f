"""One kind of refusal: the library's RefereeError is what every view raises and every handler
answers (a page, a fragment, the JSON API); anything else a view raises is a bug, a 500."""

from __future__ import annotations

from typing import Any

import pytest

from referee.errors import REFUSED, UNREADABLE, RefereeError, UnreadableInput
from referee.text import message
from referee.web import api

HTMX = {"HX-Request": "true"}


def test_a_refusal_carries_its_sentence_its_field_and_the_status_it_means() -> None:
    refused = RefereeError(message("a play needs at least one card"))
    unreadable = UnreadableInput(message("say which player acts"), field="seat")
    assert (refused.status, refused.field, unreadable.status, unreadable.field) == (REFUSED, None, UNREADABLE, "seat")
    assert refused.about("cards").field == "cards" and refused.field is None  # the same mistake, placed


def test_a_bug_in_an_api_view_is_a_500_not_bad_input(client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(text: str) -> Any:
        raise ValueError("a bug, not the request's mistake")

    monkeypatch.setattr(api, "parse_cards", broken)
    response = client.post("/api/cards/parse", json={"cards": "3s"})
    assert response.status_code == 500
    assert "internal error" in response.get_json()["error"]


def test_a_refusal_in_an_api_view_is_422_with_its_field(client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """(A body the document allows: refused by the view, it is a 422.)"""
    def refusing(text: str) -> Any:
        raise UnreadableInput(message("say which player acts"), field="cards")

    monkeypatch.setattr(api, "parse_cards", refusing)
    response = client.post("/api/cards/parse", json={"cards": "3s"})
    assert response.status_code == 422
    assert response.get_json() == {"error": "say which player acts", "reason_code": "say which player acts",
                                   "params": {}, "field": "cards"}


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["page", "htmx"])
def test_a_refusal_outside_a_followed_game_is_its_status_with_its_sentence(client: Any, headers: dict[str, str]) -> None:
    """A refusal before any view (a body too large: 413) is answered by the same handler."""
    response = client.post("/", data="x" * (client.application.config["MAX_CONTENT_LENGTH"] + 1),
                           headers={**headers, "Content-Type": "text/plain"})
    assert response.status_code == 413
    assert "too much to send at once" in response.get_data(as_text=True)
