"""Share links and their QR codes (SVG drawn by the server, no outside service).

A link is only useful if the phones that scan it can reach it, so the address it holds is
chosen, in this order:

1. ``PUBLIC_URL`` when it is configured (a hosted server: ``https://thirteen.example.org``);
2. this computer's address on the local network when the keeper opened the app on a loopback
   address (``http://127.0.0.1:8000`` is this computer for the keeper, nobody else's phone) and
   the server listens on the network (``LAN_SHARING``: the LAN server turns it on unless it was
   started with ``--host 127.0.0.1``; off for any other server, which only the host knows);
3. otherwise the address the keeper's own page was opened at.

The game page says which address the codes hold and why (:attr:`ShareLinks.source`).
"""

from __future__ import annotations

import io
import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

import qrcode
import qrcode.image.svg
from flask import Blueprint, Response, abort, current_app, request, url_for
from markupsafe import Markup

from referee.web.bounded import ADDRESS_SHOWN
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
    """The QR code of a link to this server, at the address it is opened at or the one its share
    links hold (only those: this is no QR service for others)."""
    link = request.args.get("link", "")
    ours = (request.host_url, public_base()[0] + "/")  # the share links this server hands out
    if not link or len(link) > QR_MAX or not link.startswith(ours):
        abort(404)
    response = Response(draw_qr(link), mimetype="image/svg+xml")
    # The code holds a share link (a keeper's may enter plays): kept by no cache, as the game's pages.
    response.headers["Cache-Control"] = "no-store"
    return response


def lan_address() -> str:
    """This machine's address on the local network (no packet is sent); 127.0.0.1 if it has none."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("192.0.2.1", 9))  # TEST-NET: a UDP connect only picks the route
            return str(s.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def is_loopback(host: str | None) -> bool:
    """Whether ``host`` (a name or an address) is this computer only.

    >>> is_loopback("127.0.0.1"), is_loopback("localhost"), is_loopback("::1"), is_loopback("192.168.1.20")
    (True, True, True, False)
    """
    if not host:
        return False
    if host.lower() == "localhost" or host.lower().endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True)
class ShareLinks:
    """A game's absolute links; ``base`` is the address they hold and ``source`` why:
    ``"configured"`` (``PUBLIC_URL``), ``"lan"`` (this computer on the local network)
    or ``"request"`` (the address the page was opened at), ``"loopback"`` when that address
    reaches this computer only."""

    watch: str
    keeper: str | None
    base: str
    source: str


def public_base() -> tuple[str, str]:
    """The address share links start with, and where it comes from (see the module's notes).
    The answer being drawn is marked as showing the address (:data:`bounded.ADDRESS_SHOWN`)."""
    base, source = _public_base()
    request.environ[ADDRESS_SHOWN] = base
    return base, source


def _public_base() -> tuple[str, str]:
    configured = current_app.config.get("PUBLIC_URL")
    if configured:
        return str(configured).rstrip("/"), "configured"
    here = urlsplit(request.host_url)
    if is_loopback(here.hostname) and current_app.config.get("LAN_SHARING"):
        lan = lan_address()
        if not is_loopback(lan):
            port = f":{here.port}" if here.port else ""
            return f"{here.scheme}://{lan}{port}{request.script_root}", "lan"
    source = "loopback" if is_loopback(here.hostname) else "request"
    return request.host_url.rstrip("/") + request.script_root, source


def share_links(access: Access, endpoint: str) -> ShareLinks:
    """The absolute watch and keeper links of a game (keeper only for a keeper)."""
    base, source = public_base()

    def link(token: str) -> str:
        path = url_for(endpoint, token=token)
        return base + path[len(request.script_root):]

    keeper = link(access.game.keeper_token) if access.can_write else None
    return ShareLinks(link(access.game.watch_token), keeper, base, source)
