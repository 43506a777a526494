"""The physical table: the cards in the shoe, its gate, the card under the camera,
and where each dealt card was put.

Nothing here speaks a protocol; the device emulators (:mod:`hardware_sim.devices`)
read and change this state the way firmware reads sensors and drives motors,
and the simulated people (:mod:`hardware_sim.people`) act on it with their
hands. Keeping it in one place lets a test or a trainer ask what really
happened at the table (which seat a card landed at, which mistakes were made)
independently of what the controller believes.

The order of the cards comes from the rules engine's own :class:`Pack`, so a
seeded shoe and the engine agree card for card; a scenario's exact order is a
:class:`ScriptedSource` (see :func:`hardware_sim.scenario_deck.scenario_cards`).

Example::

    world = World(source=PackSource(packs=1, seed=7))
    world.shoe.gate_locked = False
    outcome = world.shoe.pull()            # a hand pulls the next card out
    outcome.card                           # "7H"
    world.place(outcome.card, seat="Ann", hand=1, face_up=False)
    world.collect(shuffle=False)           # end of deal: cards to the bottom
"""

from __future__ import annotations

import threading
from collections import Counter, deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from controller.rules import Card, Pack


class CardSource(Protocol):
    """Where the shoe's next card comes from."""

    def draw(self) -> str | None:
        """The next card's code, or None when the shoe is empty."""

    def remaining(self) -> int: ...

    def collect(self, cards: Sequence[str], shuffle: bool) -> None:
        """The dealer gathers ``cards`` back: to the bottom in order, or shuffled in."""


class PackSource:
    """A real pack in the shoe, ordered by the engine's :class:`Pack` and seed."""

    def __init__(self, packs: int = 1, seed: int = 0, *, shuffled: bool = True) -> None:
        self.pack = Pack(packs, seed)
        if shuffled:
            self.pack.shuffle()

    def draw(self) -> str | None:
        return str(self.pack.draw()) if len(self.pack) else None

    def remaining(self) -> int:
        return len(self.pack)

    def collect(self, cards: Sequence[str], shuffle: bool) -> None:
        ids = [int(Card.parse(c)) for c in cards]
        if shuffle:
            self.pack.shuffle(ids)
        else:
            self.pack.to_bottom(ids)

    def stack_top(self, cards: Iterable[str]) -> None:
        """A trainer arranges cards on top (taken from wherever they are)."""
        self.pack.stack_top(int(Card.parse(c)) for c in cards)


class ScriptedSource:
    """Exactly the given order first (a scenario's cards), then ``rest`` if any."""

    def __init__(self, cards: Iterable[str], rest: CardSource | None = None) -> None:
        self.cards: deque[str] = deque(str(Card.parse(c)) for c in cards)
        self.rest = rest

    def draw(self) -> str | None:
        if self.cards:
            return self.cards.popleft()
        return self.rest.draw() if self.rest is not None else None

    def remaining(self) -> int:
        return len(self.cards) + (self.rest.remaining() if self.rest is not None else 0)

    def collect(self, cards: Sequence[str], shuffle: bool) -> None:
        # The script already says every card to come; collected cards go back
        # behind it so that running past the script still deals real cards.
        if self.rest is not None:
            self.rest.collect(cards, shuffle)


@dataclass(frozen=True)
class Pull:
    """What happened when a hand (or the motor) tried to take a card."""

    card: str | None
    refused: bool = False
    """the gate held the card back"""
    forced: bool = False
    """the gate was locked but the card was pulled past it"""
    empty: bool = False
    jammed: bool = False


@dataclass
class ShoeState:
    """The mechanics of the shoe: the cards, the gate, the lights, the motor."""

    source: CardSource
    gate_locked: bool = True
    jammed: bool = False
    has_motor: bool = True
    lights: int = 0
    cards_out: int = 0
    refused: int = 0
    forced: int = 0

    def pull(self, *, force: bool = False, motor: bool = False) -> Pull:
        """A hand pulls the top card: a locked gate refuses unless forced past it.
        The motor (``motor``) pushes a card out through the gate's own way."""
        if self.jammed:
            return Pull(None, jammed=True)
        against_gate = self.gate_locked and not motor
        if against_gate and not force:
            self.refused += 1
            return Pull(None, refused=True)
        card = self.source.draw()
        if card is None:
            return Pull(None, empty=True, forced=against_gate)
        self.cards_out += 1
        if against_gate:
            self.forced += 1
        return Pull(card, forced=against_gate)

    def remaining(self) -> int:
        return self.source.remaining()


@dataclass
class PlacedCard:
    """A card on the table: where the dealer put it and where it should have gone."""

    code: str
    seat: str | None
    hand: int
    face_up: bool
    wanted_seat: str | None = None
    """where the controller asked for it (None when not known)"""


@dataclass
class World:
    """Everything physical at one table, shared by the devices and the people."""

    source: CardSource
    shoe: ShoeState = field(init=False)
    under_camera: str | None = None
    #: the cards taken out of the shoe since the dealer last gathered them, in order
    pulled: list[str] = field(default_factory=list)
    on_table: list[PlacedCard] = field(default_factory=list)
    mistakes: Counter[str] = field(default_factory=Counter)
    lock: threading.RLock = field(default_factory=threading.RLock, repr=False)

    def __post_init__(self) -> None:
        self.shoe = ShoeState(self.source)

    def took_out(self, code: str) -> None:
        """A card left the shoe: it is under the camera now."""
        with self.lock:
            self.under_camera = code
            self.pulled.append(code)

    def unaccounted(self, dealt: Sequence[str]) -> str | None:
        """The oldest card out of the shoe that ``dealt`` (the cards the table
        shows) does not hold: the card a dealer finds on the felt when the table
        asks about one it could not read.

        Why not simply the card under the camera: when two cards left the
        shoe while the controller was down, the table asks about the first
        of them, and naming the second there journals a wrong card (a run
        once did, then stuck on "not in the shoe").  Falls back to the card
        under the camera when every card pulled is accounted for.
        """
        with self.lock:
            left = Counter(dealt)
            for code in self.pulled:
                if left[code]:
                    left[code] -= 1
                else:
                    return code
            return self.under_camera

    def place(
        self,
        code: str,
        *,
        seat: str | None,
        hand: int = 1,
        face_up: bool = False,
        wanted_seat: str | None = None,
    ) -> PlacedCard:
        with self.lock:
            placed = PlacedCard(code, seat, hand, face_up, wanted_seat)
            self.on_table.append(placed)
            if wanted_seat is not None and seat != wanted_seat:
                self.mistakes["wrong_seat"] += 1
            return placed

    def cards_at(self, seat: str, hand: int | None = None) -> list[str]:
        with self.lock:
            return [
                p.code
                for p in self.on_table
                if p.seat == seat and (hand is None or p.hand == hand)
            ]

    def collect(self, *, shuffle: bool) -> list[str]:
        """End of a deal: the dealer gathers every card on the table back into the shoe."""
        with self.lock:
            cards = [p.code for p in self.on_table]
            self.on_table.clear()
            self.under_camera = None
            self.pulled.clear()
            self.shoe.source.collect(cards, shuffle)
            return cards
