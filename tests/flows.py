"""Steps several browser tests take the same way, by touch from a game's new-game form."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect


def start_trece_table(page: Any) -> None:
    """On Trece's page (``/trece/``): Ana and Ben, the Q♥ turned, Start: Ben to play."""
    page.locator("#name0").fill("Ana")
    page.locator("#name1").fill("Ben")
    page.locator("#turned-field label:has(input[value='Q'])").tap()
    page.locator("#turned-field label:has(input[value='h'])").tap()
    page.get_by_role("button", name="Start the table").tap()
    expect(page.locator("#table .turn")).to_have_text("Ben to play")
