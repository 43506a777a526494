"""The floor's wire contract: topics and message bodies, versioned (pure, no I/O).

Every message is one UTF-8 JSON object with ``"v": SCHEMA``.  A reader that
meets another ``v`` refuses the message (``BadMessage("schema", ...)``) rather
than guess; a new version gets new topics (``pontoon/v2/...``) so old and new
tables can share a broker during an upgrade.

Topics, for a table id ``T`` (``TABLE_ID``: lower-case letters, digits, ``-``):

``pontoon/v1/tables/T/journal``  (table -> floor, QoS 1, not retained)
    one journal row per message (:class:`JournalEntry`), in ``seq`` order.
``pontoon/v1/tables/T/status``   (table -> floor, QoS 1, retained)
    the table's state at a glance (:class:`TableStatus`); the table's MQTT
    last will is the same topic with ``online: false``.
``pontoon/v1/tables/T/resend``   (floor -> table, QoS 1, retained)
    ``{"v": 1, "from": N}``: the floor is missing rows from ``N`` on (it found
    a gap, e.g. after a broker lost its queue); the table publishes again
    from ``N``.  Duplicates that this causes are recognised by ``(table, seq,
    hash)`` and stored once.

The journal row is published exactly as stored (``body`` and ``meta`` as the
canonical JSON text the hash covers), so the floor recomputes the chain with
:func:`controller.journal.chain_hash` and refuses a row that breaks it.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from typing import Any

SCHEMA = 1
ROOT = f"pontoon/v{SCHEMA}/tables"
#: larger payloads are refused unread (a journal row is a few hundred bytes)
MAX_PAYLOAD = 64 * 1024
TABLE_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,31}$")
_HASH = re.compile(r"^[0-9a-f]{64}$")
JOURNAL, STATUS, RESEND = "journal", "status", "resend"


class BadMessage(ValueError):
    """A message the floor or a table refuses; ``code`` is for counters, the text for the log."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(detail)
        self.code = code  # "size", "json", "schema", "topic", "table", "field"


def topic(table_id: str, kind: str) -> str:
    """``pontoon/v1/tables/<id>/<kind>`` for a valid table id."""
    if not TABLE_ID.match(table_id):
        raise BadMessage(
            "table", f"table id {table_id!r} is not lower-case letters, digits and '-'"
        )
    return f"{ROOT}/{table_id}/{kind}"


def parse_topic(name: str) -> tuple[str, str]:
    """``(table_id, kind)`` of a floor topic, or :class:`BadMessage`."""
    parts = name.split("/")
    if len(parts) != 5 or "/".join(parts[:3]) != ROOT or parts[4] not in (JOURNAL, STATUS, RESEND):
        raise BadMessage("topic", f"topic {name!r} is not a pontoon/v{SCHEMA} table topic")
    if not TABLE_ID.match(parts[3]):
        raise BadMessage("table", f"table id {parts[3]!r} in topic {name!r} is not valid")
    return parts[3], parts[4]


@dataclass(frozen=True)
class JournalEntry:
    """One journal row as a table publishes it (``prev``: the previous row's hash)."""

    table: str
    seq: int
    game: int
    kind: str
    body: str
    meta: str
    at: float
    prev: str
    hash: str


@dataclass(frozen=True)
class TableStatus:
    """A table at a glance; retained, so a floor that starts late sees every table."""

    table: str
    online: bool
    at: float = 0.0
    phase: str = ""
    game: int = 0
    deal: int = 0
    last_seq: int = 0
    holds: tuple[str, ...] = ()  # in a dealer's words
    alarms: tuple[str, ...] = ()  # in a dealer's words
    devices: dict[str, Any] = field(default_factory=dict)  # name -> {"up": bool, ...}


def _dump(value: dict[str, Any]) -> bytes:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def _load(payload: bytes) -> dict[str, Any]:
    if len(payload) > MAX_PAYLOAD:
        raise BadMessage(
            "size", f"message of {len(payload)} bytes is over the {MAX_PAYLOAD}-byte limit"
        )
    try:
        value = json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        raise BadMessage("json", f"message is not UTF-8 JSON ({error})") from None
    if not isinstance(value, dict):
        raise BadMessage("json", "message is not a JSON object")
    if value.get("v") != SCHEMA:
        raise BadMessage("schema", f"message schema {value.get('v')!r} is not {SCHEMA}")
    return value


def _field(value: dict[str, Any], name: str, kind: type | tuple[type, ...]) -> Any:
    item = value.get(name)
    if not isinstance(item, kind) or (isinstance(item, bool) and kind is not bool):
        raise BadMessage(
            "field", f"field {name!r} is missing or not {getattr(kind, '__name__', kind)}"
        )
    return item


def encode_entry(entry: JournalEntry) -> bytes:
    return _dump(
        {
            "v": SCHEMA,
            "table": entry.table,
            "seq": entry.seq,
            "game": entry.game,
            "kind": entry.kind,
            "body": entry.body,
            "meta": entry.meta,
            "at": entry.at,
            "prev": entry.prev,
            "hash": entry.hash,
        }
    )


def decode_entry(table_id: str, payload: bytes) -> JournalEntry:
    """A journal message of ``table_id``'s topic; refuses one claiming another table."""
    value = _load(payload)
    entry = JournalEntry(
        table=_field(value, "table", str),
        seq=_field(value, "seq", int),
        game=_field(value, "game", int),
        kind=_field(value, "kind", str),
        body=_field(value, "body", str),
        meta=_field(value, "meta", str),
        at=float(_field(value, "at", (int, float))),
        prev=_field(value, "prev", str),
        hash=_field(value, "hash", str),
    )
    if entry.table != table_id:
        raise BadMessage(
            "table", f"a row of table {entry.table!r} was published under {table_id!r}"
        )
    if entry.seq < 1 or entry.game < 0 or not math.isfinite(entry.at):
        raise BadMessage("field", f"row {entry.seq} has an impossible number")
    if not (_HASH.match(entry.hash) and _HASH.match(entry.prev)):
        raise BadMessage("field", f"row {entry.seq} has a malformed hash")
    return entry


def encode_status(status: TableStatus) -> bytes:
    return _dump(
        {
            "v": SCHEMA,
            "table": status.table,
            "online": status.online,
            "at": status.at,
            "phase": status.phase,
            "game": status.game,
            "deal": status.deal,
            "last_seq": status.last_seq,
            "holds": list(status.holds),
            "alarms": list(status.alarms),
            "devices": status.devices,
        }
    )


def decode_status(table_id: str, payload: bytes) -> TableStatus:
    value = _load(payload)
    table = _field(value, "table", str)
    if table != table_id:
        raise BadMessage("table", f"a status of table {table!r} was published under {table_id!r}")
    online = _field(value, "online", bool)
    if not online:  # the last will carries only who and that it is gone
        return TableStatus(table=table, online=False, at=float(value.get("at") or 0.0))
    holds = _field(value, "holds", list)
    alarms = _field(value, "alarms", list)
    if not all(isinstance(x, str) for x in [*holds, *alarms]):
        raise BadMessage("field", "holds and alarms must be lists of words")
    return TableStatus(
        table=table,
        online=True,
        at=float(_field(value, "at", (int, float))),
        phase=_field(value, "phase", str),
        game=_field(value, "game", int),
        deal=_field(value, "deal", int),
        last_seq=_field(value, "last_seq", int),
        holds=tuple(holds),
        alarms=tuple(alarms),
        devices=_field(value, "devices", dict),
    )


def encode_resend(first_missing: int) -> bytes:
    return _dump({"v": SCHEMA, "from": first_missing})


def decode_resend(payload: bytes) -> int:
    value = _load(payload)
    first = _field(value, "from", int)
    if first < 1:
        raise BadMessage("field", f"resend from {first} is not a row number")
    return int(first)
