"""Serve Thirteen on the local network and print its address as a QR code.

``python -m referee.web.serve [--port 8000] [--host 0.0.0.0]``
"""

from __future__ import annotations

import argparse
import io
import socket

import qrcode
from waitress import serve


def lan_address() -> str:
    """This machine's address on the local network (no packet is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("192.0.2.1", 9))  # TEST-NET: UDP connect sends nothing
            return s.getsockname()[0]
        except OSError:
            return "127.0.0.1"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--host", default="0.0.0.0")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args()

    from app import create_app

    app = create_app()
    url = f"http://{lan_address()}:{args.port}/"
    qr = qrcode.QRCode(border=1)
    qr.add_data(url)
    out = io.StringIO()
    qr.print_ascii(out=out, invert=True)
    print(out.getvalue())
    print(f"Thirteen is at {url}  (scan the code above with a phone on the same Wi-Fi)")
    serve(app, host=args.host, port=args.port, threads=8)


if __name__ == "__main__":
    main()
