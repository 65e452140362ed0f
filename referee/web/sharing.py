"""Share links and their QR codes (SVG drawn by the server, no outside service)."""

from __future__ import annotations

import io

import qrcode
import qrcode.image.svg
from flask import Blueprint, Response, abort, request, url_for
from markupsafe import Markup

from referee.web.store import Access

bp = Blueprint("sharing", __name__)

QR_MAX = 300


def draw_qr(data: str) -> str:
    """An SVG QR code for ``data``; it scales to its box."""
    image = qrcode.make(data, image_factory=qrcode.image.svg.SvgPathImage, border=2, box_size=10)
    buf = io.BytesIO()
    image.save(buf)
    svg = buf.getvalue().decode("utf-8")
    return svg[svg.index("<svg") :]


def qr_svg(data: str) -> Markup:
    """The QR code of a share link, as an image drawn by :func:`qr_image` when the share box is
    opened (``loading="lazy"``): a game page stays light on a slow network."""
    src = url_for("sharing.qr_image", link=data)
    return Markup('<img class="qr" alt="QR code" loading="lazy" width="240" height="240" src="{}">').format(src)


@bp.route("/qr.svg")
def qr_image() -> Response:
    """The QR code of a link to this server (only those: this is no QR service for others)."""
    link = request.args.get("link", "")
    if not link or len(link) > QR_MAX or not link.startswith(request.host_url):
        abort(404)
    response = Response(draw_qr(link), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "public, max-age=31536000, immutable"  # the same link, the same code
    return response


def share_links(access: Access, endpoint: str) -> dict[str, str]:
    """The absolute watch and keeper links of a game (keeper only for a keeper)."""
    links = {"watch": url_for(endpoint, token=access.game.watch_token, _external=True)}
    if access.can_write:
        links["keeper"] = url_for(endpoint, token=access.game.keeper_token, _external=True)
    return links
