"""The table's paired tablets: :class:`controller.pairing.Pairing` with a clock,
the journal and the dealer panel around it (a thin edge: it decides nothing).

:class:`Tablets` is what the display is given to pair and check tablets
(``dealer_display.auth.PairingLink``) and what :class:`controller.table.Table`
hands the dealer panel's presses to.  Every pairing event is written to the
journal as a ``table`` row (``{"event": "tablet_paired", "session": ...}``;
never a code or a session's secret) before the answer leaves, and logged with
the table's name; a wrong code is only logged (a guesser must not fill the
journal).  ``changed`` is called whenever the dealer panel's text may differ
(the table then refreshes its outputs), and once more when a code or notice
runs out by itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Mapping
from typing import Any

from controller.pairing import Pairing, PairResult, Session

log = logging.getLogger(__name__)

Clock = Callable[[], float]


class Tablets:
    """One table's pairing, on the table's loop (every call comes from that loop)."""

    def __init__(
        self,
        *,
        note: Callable[[Mapping[str, Any]], Any] | None = None,
        changed: Callable[[], None] | None = None,
        clock: Clock = time.monotonic,
        table: str = "table",
        pairing: Pairing | None = None,
        has_panel: bool = True,
    ) -> None:
        self.pairing = pairing or Pairing()
        #: a dealer panel can show codes (a table run by hand has none: the token only)
        self.has_panel = has_panel
        self.note = note
        self.changed = changed
        self.clock = clock
        self.table = table
        self._timer: asyncio.TimerHandle | None = None
        #: called with no argument after sessions end (the display closes their sockets)
        self.on_revoke: list[Callable[[], None]] = []

    # -- the dealer panel -------------------------------------------------------------

    def press(self, button: int, device_ms: int, boot_id: int) -> str | None:
        """A dealer-panel press (every one, whatever else it does)."""
        done = self.pairing.press(button, device_ms, boot_id, self.clock())
        if done == "pair":
            log.warning("%s: a tablet pairing code is shown on the dealer panel", self.table)
        elif done == "revoke":
            log.warning("%s: every tablet unpaired from the dealer panel", self.table)
        if done is not None:
            self._settle(revoked=done == "revoke")
        return done

    def panel_text(self) -> str | None:
        """The dealer panel's text while a code or notice is up (else the game's)."""
        now = self.clock()
        self._wake_at(self.pairing.next_change(now), now)
        return self.pairing.panel_text(now)

    # -- the display's side (dealer_display.auth.PairingLink) ---------------------------

    def pair(self, code: str, *, client: str = "", label: str = "") -> PairResult:
        result = self.pairing.redeem(code, self.clock(), client=client, label=label)
        if result.ok and result.session is not None:
            log.warning("%s: tablet %s paired from %s", self.table, result.session.id, client)
        else:
            log.warning("%s: pairing code refused (%s) from %s", self.table, result.reason, client)
        self._settle()
        return result

    def session(self, token: str | None) -> Session | None:
        return self.pairing.session(token, self.clock())

    def alive(self, session_id: str) -> bool:
        return self.pairing.alive(session_id, self.clock())

    def sessions(self) -> list[dict[str, Any]]:
        now = self.clock()
        return [s.to_json(now) for s in self.pairing.sessions(now)]

    def revoke(self, session_id: str, *, by: str = "dealer") -> bool:
        done = self.pairing.revoke(session_id, self.clock(), by=by)
        if done:
            log.warning("%s: tablet %s unpaired (%s)", self.table, session_id, by)
        self._settle(revoked=done)
        return done

    def revoke_all(self, *, by: str = "dealer") -> int:
        count = self.pairing.revoke_all(self.clock(), by=by)
        log.warning("%s: every tablet unpaired (%d, %s)", self.table, count, by)
        self._settle(revoked=True)
        return count

    # -- plumbing -----------------------------------------------------------------------

    def _settle(self, *, revoked: bool = False) -> None:
        """Journal what happened, then let the panel and the display catch up
        (nothing happened, e.g. a wrong code: nothing to journal or refresh)."""
        events = self.pairing.take_events()
        for event in events:
            if self.note is not None:
                self.note(event)
        if revoked:
            for listener in list(self.on_revoke):
                listener()
        if events and self.changed is not None:
            self.changed()

    def _wake_at(self, when: float | None, now: float) -> None:
        """Refresh the table once more when the panel's text runs out by itself."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if when is None or self.changed is None:
            return
        with contextlib.suppress(RuntimeError):  # no loop: a plain call from a test
            loop = asyncio.get_running_loop()
            self._timer = loop.call_later(max(0.0, when - now) + 0.05, self.changed)
