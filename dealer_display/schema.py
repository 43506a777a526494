"""The two views the display sends, typed: the dealer's and the players'.

Both are built from the one table snapshot
(:class:`controller.snapshot_schema.Snapshot`) by :mod:`dealer_display.views`:
the dealer's view is the snapshot plus words to act on; the public view is
built field by field and carries no face-down card.  The JSON Schemas are
published in the OpenAPI document (``/api/dealer``, ``/api/public``; the
sockets send the same views) and in ``docs/display.md``; the tests validate
every view of simulated games against them.
"""

from __future__ import annotations

import json
from typing import Any, Literal, NotRequired

from pydantic import TypeAdapter
from typing_extensions import TypedDict

from controller.snapshot_schema import (
    SNAPSHOT,
    DealInfo,
    HandStatus,
    Number,
    Phase,
    Snapshot,
    Standing,
    Turn,
    closed,
)


@closed
class DecisionButton(TypedDict):
    """A decision the dealer may enter for a person (``/api/decide``)."""

    seat: str | None
    decision: str
    min: NotRequired[Number]
    max: NotRequired[Number | None]


@closed
class Payout(TypedDict):
    name: str
    seat: int | None
    amount: Number
    kind: Literal["pay", "collect", "none", "bank"]
    text: str


@closed
class DealerView(Snapshot):
    """The dealer's view: the whole snapshot, plus what to do with it."""

    decisions: list[DecisionButton]
    payouts: list[Payout]
    transfers: list[str]


@closed
class PublicCard(TypedDict):
    """A card as the players see it: its code only while it lies face up."""

    code: NotRequired[str]
    face_up: bool


@closed
class PublicHand(TypedDict):
    hand: int
    stake: Number
    status: HandStatus | Literal["hidden"]
    cards: list[PublicCard]
    total: NotRequired[int]
    shoot: NotRequired[Number]


@closed
class PublicSeat(TypedDict):
    name: str
    seat: int | None
    banker: bool
    balance: Number
    hands: list[PublicHand]


@closed
class PublicBank(TypedDict):
    name: str | None
    cards: list[PublicCard]
    total: NotRequired[int | None]
    kitty: NotRequired[Number]


@closed
class PublicResults(TypedDict):
    net: dict[str, Number]
    transfers: list[str]


@closed
class TableSign(TypedDict):
    """The table's sign: stake limits and what pays more than evens (public rules)."""

    min_stake: int
    max_stake: int
    pays: list[str]
    ties: str


@closed
class PublicLastDeal(TypedDict):
    """The last finished deal's announced nets (for the TV's strip of results)."""

    number: int
    void: bool
    net: dict[str, Number]


@closed
class PublicView(TypedDict):
    """What the players' screen may show: only what is face up at a real table."""

    table: str
    rules: str
    phase: Phase
    paused: bool
    notice: str | None
    turn: Turn | None
    deal: DealInfo
    seats: list[PublicSeat]
    bank: PublicBank
    results: PublicResults | None
    standings: list[Standing]
    game_over: bool
    winners: list[str]
    sign: TableSign | None
    last_deal: PublicLastDeal | None


DEALER_VIEW: TypeAdapter[DealerView] = TypeAdapter(DealerView)
PUBLIC_VIEW: TypeAdapter[PublicView] = TypeAdapter(PublicView)


def json_schemas() -> dict[str, Any]:
    """The snapshot's and both views' JSON Schemas, sharing one ``$defs``."""
    refs, defs = TypeAdapter.json_schemas(
        [
            ("Snapshot", "validation", SNAPSHOT),
            ("DealerView", "validation", DEALER_VIEW),
            ("PublicView", "validation", PUBLIC_VIEW),
        ],
        ref_template="#/$defs/{model}",
    )
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "oneOf": [refs[(name, "validation")] for name in ("Snapshot", "DealerView", "PublicView")],
        **defs,
    }


def schema_text() -> str:
    """The schemas as ``docs/display.md`` shows them: one definition per line."""
    doc = json_schemas()
    defs: dict[str, Any] = doc["$defs"]
    lines = [f'  "{name}": {json.dumps(body, separators=(",", ":"))}'
             for name, body in sorted(defs.items())]
    head = {k: v for k, v in doc.items() if k != "$defs"}
    return (
        "{\n"
        + "".join(f' "{k}": {json.dumps(v, separators=(",", ":"))},\n' for k, v in head.items())
        + ' "$defs": {\n' + ",\n".join(lines) + "\n }\n}\n"
    )


if __name__ == "__main__":
    print(schema_text(), end="")
