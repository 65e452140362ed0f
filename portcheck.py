"""Whether the LAN server can listen where it was asked to, said before anything slow.

Standard library only: ``scripts/serve`` runs it with the system's Python before it builds the
virtual environment, and ``python -m referee.web.serve`` asks it before it builds the app.

``python portcheck.py [--host H] [--port P] [other serve options]`` exits 2 with the reason.
"""

from __future__ import annotations

import argparse
import errno
import socket
import sys


def cannot_listen(host: str, port: int) -> str | None:
    """The plain sentence why ``host:port`` cannot be listened on, or ``None`` if it can.

    >>> cannot_listen("127.0.0.1", 0) is None
    True
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_STREAM) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as waitress binds
            s.bind((host, port))
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            return (f"Port {port} is already in use on {host}: another server (perhaps Thirteen itself) "
                    f"is running there. Stop it, or choose another port with --port.")
        return f"Cannot listen on {host}:{port}: {exc.strerror or exc}."
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--host", default="0.0.0.0")
    parser.add_argument("--port", type=int, default=8000)
    args, _ = parser.parse_known_args(argv)
    reason = cannot_listen(args.host, args.port)
    if reason:
        print(reason, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
