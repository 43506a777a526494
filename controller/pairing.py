"""Pairing the dealer's tablet by being at the table (pure: every time is passed in).

The dealer presses CONFIRM on the dealer panel three times in quick
succession (each press within :data:`COMBO_GAP_MS` of the one before): the
panel's own text display shows a one-time six-digit code for
:data:`CODE_TTL_S` seconds.  The tablet enters it on ``/dealer`` and gets its
own session, an opaque random cookie.  Three more presses in the same run
(six in all) revoke every tablet session and cancel the code.

Why CONFIRM: on the dealer panel it is the one button that does nothing in
play (the table refuses it in every phase, see :mod:`controller.core`), so a
run of presses on it cannot be a game move, and the code is only ever shown
to whoever stands at the dealer's place.  The panel protocol reports presses
only (no releases, so no "hold"); the run is timed with the panel's own
millisecond clock from each event, which a slow or batched bus poll does not
stretch.

Guessing, in numbers: a code is one of 10^6, lives 60 s and is burned after
:data:`MAX_WRONG_PER_CODE` (5) wrong tries from anyone, so a guesser's chance
is at most 5 in 10^6 per code the dealer makes, and every code needs presses
at the table.  One client address is also locked out for
:data:`CLIENT_LOCK_S` (60 s) after :data:`CLIENT_LOCK_AFTER` (3) wrong tries in
a row, so a single guesser burns no code alone within a code's life.  Tries
while no code is live change nothing and are refused the same way.

Nothing here reads a clock, a socket or the journal: the caller
(:mod:`controller.tablets`) passes ``now`` (seconds, monotonic) and writes the
:attr:`Pairing.events` it collects to the journal.  The code itself is never in
an event (journals are copied to backups and the floor); a session is named
by a short public id, never by its secret.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from firmware_bridge.wire import Button

CODE_DIGITS = 6
CODE_TTL_S = 60.0
MAX_WRONG_PER_CODE = 5
CLIENT_LOCK_AFTER = 3
CLIENT_LOCK_S = 60.0
#: a session lasts an evening; a restart of the table ends every session too
SESSION_TTL_S = 16 * 3600.0
#: a new pairing beyond this many live sessions ends the oldest
MAX_SESSIONS = 8
#: how long a notice ("Tablet paired", "Tablets unpaired") stays on the panel
NOTICE_S = 8.0

COMBO_BUTTON = Button.CONFIRM
#: the longest gap between two presses of one run, in the panel's milliseconds
COMBO_GAP_MS = 1200
PAIR_PRESSES = 3
REVOKE_PRESSES = 6

Randbelow = Callable[[int], int]


@dataclass(frozen=True)
class Session:
    """A paired tablet: ``id`` is public (lists, the journal), the secret is not kept."""

    id: str
    created: float
    expires: float
    client: str = ""
    label: str = ""

    def to_json(self, now: float) -> dict[str, Any]:
        return {
            "id": self.id,
            "age_s": round(now - self.created),
            "expires_in_s": round(self.expires - now),
            "client": self.client,
            "label": self.label,
        }


@dataclass(frozen=True)
class PairResult:
    """The answer to a code: a session and its secret, or a refusal and why.

    ``reason`` is one of ``paired``, ``malformed``, ``wrong``, ``expired``,
    ``used``, ``burned``, ``none`` (no code is live) and ``locked`` (this
    client must wait ``retry_after`` seconds).
    """

    ok: bool
    reason: str
    message: str
    token: str | None = None
    session: Session | None = None
    retry_after: float = 0.0


@dataclass
class _Code:
    #: the digits, kept in memory only to be shown on the panel while they live
    text: str
    issued: float
    wrong: int = 0
    #: "live", "used", "burned" or "cancelled"
    state: str = "live"


@dataclass
class _Client:
    wrong_in_a_row: int = 0
    locked_until: float = 0.0


@dataclass
class Pairing:
    """Codes, tablet sessions and the dealer panel's press runs of one table."""

    randbelow: Randbelow = secrets.randbelow
    token_bytes: Callable[[int], bytes] = secrets.token_bytes
    #: journal rows to write (``{"event": ...}``), collected until :meth:`take_events`
    events: list[dict[str, Any]] = field(default_factory=list)
    _code: _Code | None = None
    #: sha256 of a session's secret -> the session
    _sessions: dict[bytes, Session] = field(default_factory=dict)
    _clients: dict[str, _Client] = field(default_factory=dict)
    _notice: tuple[str, float] | None = None
    #: the current run of COMBO_BUTTON presses: (boot id, last press ms, presses)
    _run: tuple[int, int, int] = (0, 0, 0)

    # -- the dealer panel ---------------------------------------------------------------

    def press(self, button: int, device_ms: int, boot_id: int, now: float) -> str | None:
        """A dealer-panel press; ``"pair"`` or ``"revoke"`` when it completes a run."""
        if button != COMBO_BUTTON:
            self._run = (0, 0, 0)
            return None
        boot, last, count = self._run
        gap = (device_ms - last) & 0xFFFFFFFF
        count = count + 1 if count and boot == boot_id and gap <= COMBO_GAP_MS else 1
        self._run = (boot_id, device_ms, count)
        if count == PAIR_PRESSES:
            self.new_code(now)
            return "pair"
        if count == REVOKE_PRESSES:
            self.revoke_all(now, by="dealer panel")
            return "revoke"
        return None

    def new_code(self, now: float) -> str:
        """A fresh code; it replaces any live one (at most one code is ever live)."""
        code = f"{self.randbelow(10**CODE_DIGITS):0{CODE_DIGITS}d}"
        self._code = _Code(code, now)
        self._notice = None
        self.events.append({"event": "pairing_code", "valid_s": CODE_TTL_S})
        return code

    def live_code(self, now: float) -> str | None:
        """The code to show, while it can still be used."""
        code = self._code
        if code is None or code.state != "live" or now - code.issued >= CODE_TTL_S:
            return None
        return code.text

    def panel_text(self, now: float) -> str | None:
        """What the dealer panel shows instead of the game's text now, if anything."""
        code = self.live_code(now)
        if code is not None:
            # no countdown: the panel's text changes only when the table sends one
            return f"Tablet code\n{code} for {CODE_TTL_S:.0f}s"
        if self._notice is not None and now < self._notice[1]:
            return self._notice[0]
        return None

    def next_change(self, now: float) -> float | None:
        """When :meth:`panel_text` changes by itself (a code or notice ends), if ever."""
        if self.live_code(now) is not None:
            assert self._code is not None
            return self._code.issued + CODE_TTL_S
        if self._notice is not None and now < self._notice[1]:
            return self._notice[1]
        return None

    # -- the tablet ---------------------------------------------------------------------

    def redeem(self, given: str, now: float, *, client: str = "", label: str = "") -> PairResult:
        """A tablet offers ``given``; a session when it is the live code."""
        entry = self._clients.get(client)
        if entry is not None and now < entry.locked_until:
            wait = entry.locked_until - now
            return PairResult(
                False,
                "locked",
                f"Too many wrong codes from this device: wait {int(wait) + 1} seconds.",
                retry_after=wait,
            )
        digits = "".join(ch for ch in given if not ch.isspace() and ch != "-")
        if len(digits) != CODE_DIGITS or not digits.isascii() or not digits.isdigit():
            return PairResult(False, "malformed", "The code is the six digits on the dealer panel.")
        code = self._code
        if code is None:
            return self._wrong(
                client,
                now,
                "none",
                "No code is waiting: press CONFIRM three times on the dealer panel for one.",
            )
        matches = hmac.compare_digest(digits.encode(), code.text.encode())
        if matches and code.state == "live" and now - code.issued < CODE_TTL_S:
            return self._paired(now, client, label)
        if matches:
            reason = "expired" if code.state == "live" else code.state
            words = {
                "expired": "That code has expired",
                "used": "That code was already used",
                "burned": "That code was blocked after too many wrong tries",
                "cancelled": "That code was cancelled",
            }[reason]
            return self._wrong(
                client,
                now,
                reason,
                words + ": press CONFIRM three times on the dealer panel for a new one.",
                counts=False,
            )
        if code.state == "live" and now - code.issued < CODE_TTL_S:
            code.wrong += 1
            if code.wrong >= MAX_WRONG_PER_CODE:
                code.state = "burned"
                self._notice = ("Code blocked:\ntoo many wrong", now + NOTICE_S)
                self.events.append({"event": "pairing_code_blocked", "wrong": code.wrong})
        return self._wrong(client, now, "wrong", "That is not the code on the dealer panel.")

    def _wrong(
        self, client: str, now: float, reason: str, message: str, *, counts: bool = True
    ) -> PairResult:
        if counts:
            entry = self._clients.setdefault(client, _Client())
            entry.wrong_in_a_row += 1
            if entry.wrong_in_a_row >= CLIENT_LOCK_AFTER:
                entry.wrong_in_a_row = 0
                entry.locked_until = now + CLIENT_LOCK_S
            self._prune_clients(now)
        return PairResult(False, reason, message)

    def _prune_clients(self, now: float) -> None:
        """Forget clients with nothing against them (the map cannot grow without end)."""
        if len(self._clients) > 256:
            for key in [k for k, c in self._clients.items() if c.locked_until <= now]:
                del self._clients[key]

    def _paired(self, now: float, client: str, label: str) -> PairResult:
        assert self._code is not None
        self._code.state = "used"
        self._clients.pop(client, None)
        self._drop_expired(now)
        while len(self._sessions) >= MAX_SESSIONS:
            oldest = min(self._sessions, key=lambda k: self._sessions[k].created)
            gone = self._sessions.pop(oldest)
            self.events.append({"event": "tablet_unpaired", "session": gone.id, "by": "limit"})
        token = self.token_bytes(32).hex()
        session = Session(
            self.token_bytes(4).hex(), now, now + SESSION_TTL_S, client[:64], label[:80]
        )
        self._sessions[_digest(token)] = session
        self._notice = ("Tablet paired", now + NOTICE_S)
        self.events.append(
            {"event": "tablet_paired", "session": session.id, "client": session.client}
        )
        return PairResult(True, "paired", "This tablet is paired with the table.", token, session)

    def session(self, token: str | None, now: float) -> Session | None:
        """The live session whose secret is ``token`` (None: unknown, revoked or expired)."""
        if not token or len(token) > 256:
            return None
        found = self._sessions.get(_digest(token))
        if found is None or now >= found.expires:
            return None
        return found

    def alive(self, session_id: str, now: float) -> bool:
        return any(s.id == session_id and now < s.expires for s in self._sessions.values())

    def sessions(self, now: float) -> list[Session]:
        self._drop_expired(now)
        return sorted(self._sessions.values(), key=lambda s: s.created)

    def revoke(self, session_id: str, now: float, *, by: str = "dealer") -> bool:
        for key, found in list(self._sessions.items()):
            if found.id == session_id:
                del self._sessions[key]
                self.events.append({"event": "tablet_unpaired", "session": found.id, "by": by})
                return True
        return False

    def revoke_all(self, now: float, *, by: str = "dealer") -> int:
        """End every tablet session and cancel a live code."""
        count = len(self._sessions)
        self._sessions.clear()
        if self._code is not None and self._code.state == "live":
            self._code.state = "cancelled"
        self._notice = (f"Tablets unpaired\n{count} ended", now + NOTICE_S)
        self.events.append({"event": "tablets_unpaired", "sessions": count, "by": by})
        return count

    def take_events(self) -> list[dict[str, Any]]:
        events, self.events = self.events, []
        return events

    def _drop_expired(self, now: float) -> None:
        for key in [k for k, s in self._sessions.items() if now >= s.expires]:
            del self._sessions[key]


def _digest(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8")).digest()
