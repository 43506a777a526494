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


DEALER_VIEW: TypeAdapter[DealerView] = TypeAdapter(DealerView)
PUBLIC_VIEW: TypeAdapter[PublicView] = TypeAdapter(PublicView)


def json_schemas() -> dict[str, dict[str, Any]]:
    """The snapshot's and both views' JSON Schemas, by name."""
    return {
        "Snapshot": SNAPSHOT.json_schema(),
        "DealerView": DEALER_VIEW.json_schema(),
        "PublicView": PUBLIC_VIEW.json_schema(),
    }


if __name__ == "__main__":
    print(json.dumps(json_schemas(), indent=1))
