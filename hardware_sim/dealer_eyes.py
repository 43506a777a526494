"""The simulated dealer's eyes on the dealer display of a controller in another process.

When the camera cannot read a card, a real table holds and the dealer looks at
the card on the felt and taps it on the display (``confirm_card``).  In
``pontoon-table sim-hw`` the controller (``pontoon-table run``) is another
process, so the simulated dealer does the same over HTTP with the dealer's
token: it watches ``/api/dealer`` and, on an ``unsure_card`` hold, confirms
the card that really is under the camera (the simulator's ground truth, as a
dealer's eyes are).  It resolves nothing else: a misdeal or a lost-events
alarm is for a person (or a test) to see.
"""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any


class DealerEyes:
    """Poll a dealer display and confirm unsure cards with ``truth(dealt)``:
    the card to confirm, given the cards the display shows dealt."""

    def __init__(
        self,
        display_url: str,
        token: str,
        truth: Callable[[list[str]], str | None],
        *,
        interval: float = 0.25,
    ) -> None:
        self.base = display_url.rstrip("/")
        self.token = token
        self.truth = truth
        self.interval = interval
        self.confirmed: list[str] = []
        self.last_problem: str | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="dealer-eyes", daemon=True)

    def start(self) -> DealerEyes:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=3)

    def _request(self, path: str, body: dict[str, Any] | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.base + path,
            data=data,
            headers={"Authorization": f"Bearer {self.token}",
                     "Content-Type": "application/json"},
            method="GET" if body is None else "POST",
        )
        with urllib.request.urlopen(request, timeout=2.0) as reply:
            return json.loads(reply.read() or b"null")

    def look(self) -> str | None:
        """One glance at the display; the card confirmed, if any."""
        snapshot = self._request("/api/dealer")
        hold = snapshot.get("hold") if isinstance(snapshot, dict) else None
        if not isinstance(hold, dict) or hold.get("reason") != "unsure_card":
            return None
        card = self.truth(dealt_cards(snapshot))
        if card is None:
            return None
        try:
            self._request("/api/confirm-card", {"code": card})
        except urllib.error.HTTPError as exc:  # refused (409): look again next time
            self.last_problem = f"confirm {card} refused: {exc.code} {_message(exc)}".rstrip()
            return None
        self.confirmed.append(card)
        return card

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            try:
                self.look()
            except (OSError, ValueError) as exc:  # the controller is not (yet) up
                self.last_problem = str(exc)


def _message(exc: urllib.error.HTTPError) -> str:
    """The display's one-sentence reason (``{"ok": false, "message": ...}``), if any:
    a report that says only "409" leaves a failed run's reader guessing."""
    try:
        body = json.loads(exc.read() or b"null")
    except (OSError, ValueError):
        return ""
    message = body.get("message") if isinstance(body, dict) else None
    return f"({message})" if isinstance(message, str) else ""


def dealt_cards(snapshot: dict[str, Any]) -> list[str]:
    """Every card the dealer's display shows on the table: the seats' hands and the bank's."""
    cards = [card["code"] for seat in snapshot.get("seats") or ()
             for hand in seat.get("hands") or () for card in hand.get("cards") or ()]
    bank = snapshot.get("bank") or {}
    return cards + [card["code"] for card in bank.get("cards") or ()]
