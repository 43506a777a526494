"""The table snapshot's shape, defined once: typed dicts with a published JSON Schema.

:func:`controller.snapshot.build_snapshot` is the one builder; it constructs a
:class:`Snapshot`, so mypy checks every key and value it writes against this
module.  The models are ``TypedDict``\\ s rather than pydantic classes on
purpose: the snapshot is built after every card and button press, and a typed
dict costs nothing at run time (no validation, no copy), while pydantic still
reads it (:data:`SNAPSHOT`, a ``TypeAdapter``) to publish the JSON Schema in
the display's OpenAPI document and ``docs/display.md``, and to validate every
snapshot a simulated game publishes in the tests.

The players' view (face-down cards removed) is typed beside the dealer's in
``dealer_display/schema.py``.  Amounts are JSON numbers: whole units as
integers, half units as floats (``7.5``).
"""

from __future__ import annotations

import json
from typing import Any, Literal, NotRequired

from pydantic import ConfigDict, TypeAdapter, with_config
from typing_extensions import TypedDict

#: an amount of units: whole units are integers, half units floats
Number = int | float

#: the table's phases (controller.machine.PHASES)
Phase = Literal[
    "setup", "cut", "kitty", "first_card", "stakes", "shoot_bets", "second_card",
    "bank_pontoon_check", "insurance", "player_turn", "banker_turn", "dealer_turn",
    "settlement", "between_deals", "void_deal", "game_over",
]
HandStatus = Literal["playing", "stood", "bust", "pontoon", "five_card"]

#: every model is closed: a key the schema does not name fails validation, so the
#: schema cannot silently fall behind the builder
CLOSED = ConfigDict(extra="forbid")
closed = with_config(CLOSED)


@closed
class CardFace(TypedDict):
    """A card on the table; ``face_up`` says whether the players may see it."""

    code: str
    face_up: bool


@closed
class HandSnapshot(TypedDict):
    hand: int
    stake: Number
    shoot: Number
    total: int
    soft: bool
    status: HandStatus
    in_turn: bool
    cards: list[CardFace]


@closed
class SeatSnapshot(TypedDict):
    name: str
    seat: int | None
    address: int | None
    banker: bool
    balance: Number
    hands: list[HandSnapshot]
    #: the seat panel's lit buttons and its two lines of text
    lights: list[str]
    text: str


@closed
class BankSnapshot(TypedDict):
    name: str
    cards: list[CardFace]
    total: int | None
    kitty: Number | None


@closed
class Choice(TypedDict):
    id: str
    label: str


@closed
class Guess(TypedDict):
    """A card the camera thinks likely, with its probability (0 to 1)."""

    card: str
    p: float


@closed
class Hold(TypedDict):
    """Why the table waits (``reason``: link_down, misdeal, unsure_card, dealer)."""

    reason: str
    message: str
    choices: list[Choice]
    #: ``unsure_card`` only: the camera's likeliest cards, for the confirm screen
    #: (the dealer's view only; the players' screen never shows them)
    guesses: NotRequired[list[Guess]]


@closed
class Pending(TypedDict):
    """What the rules engine waits for: ``kind`` plus that need's own fields."""

    kind: Literal[
        "card", "stakes", "shoot", "decision", "bank", "kitty", "between_deals", "game_over"
    ]
    recipient: NotRequired[str]
    to: NotRequired[str]
    hand: NotRequired[int]
    face_up: NotRequired[bool]
    to_bank: NotRequired[bool]
    purpose: NotRequired[str]
    player: NotRequired[str]
    minimum: NotRequired[Number]
    maximum: NotRequired[Number | None]
    waiting: NotRequired[list[str]]
    words: NotRequired[list[str]]
    banker: NotRequired[str]
    can_sell: NotRequired[bool]
    next_deal: NotRequired[int]
    can_add_kitty: NotRequired[bool]
    winners: NotRequired[list[str]]


@closed
class LegalFamily(TypedDict):
    """One family of legal actions (``decision: card``: deal the card due)."""

    action: NotRequired[str]
    decision: NotRequired[str]
    player: NotRequired[str]
    min: NotRequired[Number]
    max: NotRequired[Number | None]
    names: NotRequired[list[str]]


@closed
class Turn(TypedDict):
    seat: str
    hand: int


@closed
class DealInfo(TypedDict):
    number: int
    counted: int
    of: int | None
    banker: str | None


Sale = TypedDict("Sale", {"from": str, "to": str, "price": Number})
Sale.__pydantic_config__ = CLOSED  # type: ignore[attr-defined]


@closed
class ResultBank(TypedDict):
    cards: list[str]
    total: int


@closed
class ResultHand(TypedDict):
    player: str
    hand: int
    cards: list[str]
    stake: Number
    shoot: NotRequired[Number]
    total: int
    net: Number


@closed
class DealResult(TypedDict):
    """The rules engine's record of a finished (or void) deal."""

    number: int
    counted: bool
    void: bool
    banker: str
    sale: NotRequired[Sale]
    bank: ResultBank
    hands: list[ResultHand]
    net: dict[str, Number]
    kitty: NotRequired[Number]
    shuffle: bool
    next_banker: str


@closed
class Alarm(TypedDict):
    id: str
    kind: str
    message: str
    choices: list[Choice]
    card: str | None


@closed
class Notice(TypedDict):
    seat: str
    message: str


@closed
class PackInfo(TypedDict):
    left: int
    packs: int
    dealt: int


@closed
class PanelText(TypedDict):
    lights: list[str]
    text: str


@closed
class Standing(TypedDict):
    name: str
    balance: Number


@closed
class LinkCounts(TypedDict):
    """What a device link dropped or sent again since the table started
    (docs/protocol.md: damaged frames are "dropped and counted"); 0 before
    the link was first opened."""

    crc_errors: int
    truncated: int
    oversized: int
    bad_cobs: int
    out_of_window: int
    duplicates: int
    retransmissions: int
    bad_bodies: int


@closed
class LinkInfo(TypedDict):
    up: bool
    reboots: int
    drops: int
    reason: NotRequired[str]
    #: the link's drop counters (the dealer's devices panel; never the public view)
    counters: LinkCounts


@closed
class Snapshot(TypedDict):
    """Everything the dealer's display shows, face-down cards included."""

    table: str
    rules: str
    phase: Phase
    #: every option of the rules in play (docs/rules.md): the preset's values
    #: with this table's overrides, fractions as numbers
    options: dict[str, Any]
    hold: Hold | None
    paused: bool
    #: the next physical action, in the words a dealer reads at a glance
    next: str
    pending: Pending
    turn: Turn | None
    legal: list[LegalFamily]
    deal: DealInfo
    seats: list[SeatSnapshot]
    bank: BankSnapshot | None
    #: the last deal's result while its payouts are being made
    settlement: DealResult | None
    last_deal: DealResult | None
    alarms: list[Alarm]
    notice: Notice | None
    pack: PackInfo
    gate: Literal["locked", "unlocked"]
    dealer_panel: PanelText
    standings: list[Standing]
    game_over: bool
    winners: list[str]
    links: dict[str, LinkInfo]
    counters: dict[str, int]
    #: cards are entered by the dealer (a manual / training table)
    manual: bool
    #: the publisher's running number (absent from a snapshot not yet published)
    version: NotRequired[int]


#: reads, validates and describes snapshots (tests, the OpenAPI document)
SNAPSHOT: TypeAdapter[Snapshot] = TypeAdapter(Snapshot)


def json_schema() -> dict[str, Any]:
    """The snapshot's JSON Schema (draft 2020-12, as pydantic writes it)."""
    return SNAPSHOT.json_schema()


if __name__ == "__main__":
    print(json.dumps(json_schema(), indent=1))
