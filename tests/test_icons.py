"""The manifest's PNG icons are drawn from static/icon.svg once, not at every start or release."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from referee.web import assets


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The size of every icon resvg draws."""
    sizes: list[int] = []
    real = assets.resvg_py.svg_to_bytes

    def counting(**kwargs: Any) -> Any:
        sizes.append(kwargs["width"])
        return real(**kwargs)

    monkeypatch.setattr(assets.resvg_py, "svg_to_bytes", counting)
    return sizes


def test_the_icons_are_drawn_once_and_copied_into_every_later_release(tmp_path: Path, drawn: list[int]) -> None:
    first, second = tmp_path / "release-1", tmp_path / "release-2"
    assets.render_icons(first, tmp_path / "icons")
    assets.render_icons(second, tmp_path / "icons")
    assert sorted(drawn) == sorted(size for _name, size, _maskable in assets.ICONS)  # drawn for the first only
    for name, _size, _maskable in assets.ICONS:
        png = (second / name).read_bytes()
        assert png.startswith(b"\x89PNG") and png == (first / name).read_bytes()


def test_a_changed_icon_is_drawn_again(tmp_path: Path, drawn: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    assets.render_icons(tmp_path / "release-1", tmp_path / "icons")
    changed = tmp_path / "icon.svg"
    changed.write_text(assets.ICON_SVG.read_text(encoding="utf-8").replace("#0f5132", "#14532d"), encoding="utf-8")
    monkeypatch.setattr(assets, "ICON_SVG", changed)
    assets.render_icons(tmp_path / "release-2", tmp_path / "icons")
    assert len(drawn) == 2 * len(assets.ICONS)
    assert (tmp_path / "release-1" / assets.ICONS[0][0]).read_bytes() != (tmp_path / "release-2" / assets.ICONS[0][0]).read_bytes()
