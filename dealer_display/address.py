"""The dealer's address as the table prints it at start, with a QR code for a tablet.

The token rides in the address's fragment (``/dealer#token=...``): a browser
never sends the fragment to the server, so it stays out of access logs; the
dealer page stores it and removes it from the address bar at once.  A tablet
scans the QR code printed in the terminal instead of typing a long token.

A server bound to every interface (``0.0.0.0``) is reached from a tablet by
the machine's own network address, so that is the address printed.
"""

from __future__ import annotations

import contextlib
import io
import socket
import sys
from typing import TextIO
from urllib.parse import quote, urlsplit, urlunsplit

import segno

#: bind addresses that mean "every interface": no client can open them
_WILDCARDS = {"0.0.0.0", "::", "[::]", ""}


def lan_address() -> str:
    """This machine's address on its network (the one a default route leaves by).

    Connecting a UDP socket sends nothing; it only makes the kernel choose the
    outgoing interface.  Without a network the loopback address is the answer.
    """
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed anywhere real
        return str(s.getsockname()[0])
    return "127.0.0.1"


def dealer_address(url: str, token: str) -> str:
    """``url`` (the display's base, e.g. ``http://0.0.0.0:8000/``) to the dealer page's address.

    >>> dealer_address("http://127.0.0.1:8000/", "s3cret")
    'http://127.0.0.1:8000/dealer#token=s3cret'
    """
    parts = urlsplit(url)
    host = parts.hostname or ""
    netloc = parts.netloc
    if host in _WILDCARDS or f"[{host}]" in _WILDCARDS:
        netloc = lan_address() + (f":{parts.port}" if parts.port else "")
    path = parts.path.rstrip("/") + "/dealer"
    return urlunsplit((parts.scheme, netloc, path, "", "token=" + quote(token, safe="")))


def tablet_address(url: str) -> str:
    """The address a tablet opens to pair (no token in it: the code comes from the panel).

    >>> tablet_address("http://10.0.0.7:8000/")
    'http://10.0.0.7:8000/dealer'
    """
    return dealer_address(url, "").split("#", 1)[0]


def print_pairing_hint(url: str, *, out: TextIO | None = None) -> str:
    """Say where a tablet pairs, or why it cannot reach this display; return the address."""
    stream = out if out is not None else sys.stdout
    address = tablet_address(url)
    host = urlsplit(url).hostname or ""
    if host == "localhost" or host.startswith("127.") or host == "::1":
        print(f"tablets: none can reach this display (it listens on {host} only); set "
              '[display] host = "0.0.0.0" or this box\'s LAN address to let one pair',
              file=stream, flush=True)
    else:
        print(f"pair the dealer's tablet: open {address} and press CONFIRM three times "
              "on the dealer panel", file=stream, flush=True)
    return address


def qr_text(data: str) -> str:
    """``data`` as a QR code drawn with block characters, two modules a line.

    Light modules are drawn as full blocks, so the code reads on a dark
    terminal; the quiet zone around it is part of the drawing.
    """
    out = io.StringIO()
    segno.make(data, error="m").terminal(out=out, compact=True)
    return out.getvalue()


def print_dealer_address(
    url: str, token: str, *, qr: bool | None = None, out: TextIO | None = None
) -> str:
    """Print the dealer's address (and, for a tablet, its QR code); return the address.

    ``qr=None`` draws the code only when ``out`` is a terminal: in a log file or
    a pipe it would be noise.  ``True`` or ``False`` (``--qr`` / ``--no-qr``)
    decide it outright.
    """
    stream = out if out is not None else sys.stdout
    address = dealer_address(url, token)
    print(f"dealer display: {address}", file=stream, flush=True)
    show = _is_tty(stream) if qr is None else qr
    if show:
        print("scan with the dealer's tablet:", file=stream)
        print(qr_text(address), file=stream, end="", flush=True)
    return address


def _is_tty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False

