"""What the floor page shows: every table at a glance and the alarm board.

Kept apart from the store and the MQTT client so the page's words can be
tested alone.  A table's own words (its holds and alarms, in a dealer's
language) come from its retained status; the floor adds its own alarms: a
table gone offline, and rows it refused (a chain break, a conflict).  The
alarm board lists them oldest first: the one waiting longest is first.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .messages import TableStatus


@dataclass
class Alarm:
    """One thing the organiser should look at; ``since`` is when the floor first saw it."""

    table: str
    text: str
    since: float
    source: str  # "hold", "alarm" (the table's words), "offline", "chain" (the floor's)
    key: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"table": self.table, "text": self.text, "since": self.since, "source": self.source}


@dataclass
class TableCard:
    """One table on the floor page."""

    table: str
    status: TableStatus | None = None
    last_heard: float = 0.0
    stored: int = 0  # the floor's head: rows stored
    duplicates: int = 0
    refused: int = 0


@dataclass
class Board:
    """Every table's card and the open alarms."""

    tables: dict[str, TableCard] = field(default_factory=dict)
    alarms: dict[str, Alarm] = field(default_factory=dict)  # key -> alarm

    def card(self, table: str) -> TableCard:
        if table not in self.tables:
            self.tables[table] = TableCard(table)
        return self.tables[table]

    def heard(self, table: str, now: float) -> None:
        self.card(table).last_heard = now

    def set_status(self, status: TableStatus, now: float) -> None:
        """A table's new status: its holds and alarms open or close on the board."""
        card = self.card(status.table)
        card.status = status
        card.last_heard = now
        wanted: dict[str, tuple[str, str]] = {}
        if not status.online:
            wanted[f"{status.table}/offline"] = (
                "offline",
                f"{status.table} is offline: its link to the broker is gone "
                "(the table plays on and sends its rows when the link is back)",
            )
        else:
            for text in status.holds:
                wanted[f"{status.table}/hold/{text}"] = ("hold", f"On hold: {text}")
            for text in status.alarms:
                wanted[f"{status.table}/alarm/{text}"] = ("alarm", text)
        prefix = f"{status.table}/"
        for key in [
            k
            for k, a in self.alarms.items()
            if k.startswith(prefix) and a.source != "chain" and k not in wanted
        ]:
            del self.alarms[key]
        for key, (source, text) in wanted.items():
            if key not in self.alarms:
                self.alarms[key] = Alarm(status.table, text, now, source, key)

    def chain_alarm(self, table: str, seq: int, text: str, at: float) -> None:
        """A refused row: stays on the board (it is evidence, not a passing state)."""
        key = f"{table}/chain/{seq}/{text}"
        if key not in self.alarms:
            self.alarms[key] = Alarm(table, text, at, "chain", key)

    def view(self) -> dict[str, Any]:
        """The page's JSON: tables in id order, alarms oldest first."""
        tables = []
        for table in sorted(self.tables):
            card = self.tables[table]
            status = card.status
            online = bool(status and status.online)  # the last will says when it is not
            tables.append(
                {
                    "table": table,
                    "online": online,
                    "last_heard": card.last_heard,
                    "phase": status.phase if status else "",
                    "game": status.game if status else 0,
                    "deal": status.deal if status else 0,
                    "last_seq": status.last_seq if status else 0,
                    "stored": card.stored,
                    "duplicates": card.duplicates,
                    "refused": card.refused,
                    "holds": list(status.holds) if status else [],
                    "alarms": list(status.alarms) if status else [],
                    "devices": _devices(status.devices) if status else [],
                }
            )
        alarms = sorted(self.alarms.values(), key=lambda a: (a.since, a.table, a.text))
        return {"tables": tables, "alarms": [a.to_json() for a in alarms]}


def _devices(devices: dict[str, Any]) -> list[dict[str, Any]]:
    """A table's devices as ``[{name, up, words}]``, whatever extra fields they carry."""
    listed = []
    for name in sorted(devices):
        info = devices[name]
        up = bool(info.get("up")) if isinstance(info, dict) else bool(info)
        words = ""
        if isinstance(info, dict):
            extra = [
                f"{k} {v}"
                for k, v in sorted(info.items())
                if k != "up" and isinstance(v, str | int | float) and not isinstance(v, bool)
            ]
            words = ", ".join(extra[:3])
        listed.append({"name": str(name), "up": up, "words": words})
    return listed
