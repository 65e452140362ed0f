"""Share links and their QR codes (SVG drawn by the server, no outside service)."""

from __future__ import annotations

import io

import qrcode
import qrcode.image.svg
from flask import url_for
from markupsafe import Markup

from referee.web.store import Access


def qr_svg(data: str) -> Markup:
    """An inline SVG QR code for ``data``; it scales to its box."""
    image = qrcode.make(data, image_factory=qrcode.image.svg.SvgPathImage, border=2, box_size=10)
    buf = io.BytesIO()
    image.save(buf)
    svg = buf.getvalue().decode("utf-8")
    svg = svg[svg.index("<svg") :]
    return Markup(svg.replace("<svg ", '<svg class="qr" role="img" aria-label="QR code" ', 1))


def share_links(access: Access, endpoint: str) -> dict[str, str]:
    """The absolute watch and keeper links of a game (keeper only for a keeper)."""
    links = {"watch": url_for(endpoint, token=access.game.watch_token, _external=True)}
    if access.can_write:
        links["keeper"] = url_for(endpoint, token=access.game.keeper_token, _external=True)
    return links
