"""The table's decisions, without I/O: device events and dealer commands in,
the wanted device state and snapshots out.

Like a sans-I/O protocol, :class:`TableCore` never touches a port, a camera or
a clock.  The asyncio wiring (:mod:`controller.table`) feeds it events (a card
left the shoe, the camera read it, a button was pressed, a link went down),
then reads :meth:`TableCore.outputs` (gate, lamps, panel texts) and the
snapshot (:func:`controller.snapshot.build_snapshot`, which reads the core) and
pushes whatever changed.  Outputs are *wanted state*, not commands, so a
rebooted device is simply given the wanted state again.

Every change to the game goes through :meth:`TableCore._record`: the engine
action is written to the journal, and applied to the engine inside the same
transaction (before the commit returns nothing is visible anywhere).  The
rules engine judges every action; this module only decides what the table
waits for and what to ask the dealer when the devices and the engine disagree.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from pydantic import ValidationError

from controller import dealer_commands
from controller.hold_words import choice, void_choice, whose_card
from controller.journal import Journal
from controller.machine import TableMachine
from controller.panel_ux import DEALER, PanelUx, PanelView
from controller.publish import CommandResult
from controller.rules import (
    Action,
    BankDecide,
    BankNeed,
    BetweenDeals,
    Card,
    CardNeed,
    DealCard,
    Decide,
    DecisionNeed,
    GameOver,
    GameState,
    IllegalAction,
    KittyNeed,
    LegalAction,
    Need,
    PlaceShoot,
    PlaceStake,
    PutKitty,
    SellBank,
    ShootNeed,
    StackTop,
    StakeNeed,
    StartDeal,
    VoidDeal,
    action_from_dict,
    action_to_dict,
    apply,
    legal_actions,
    load_ruleset,
    new_game,
    pending,
)
from controller.rules.ruleset import Ruleset, ruleset_from_dict, ruleset_to_dict
from firmware_bridge.host import (
    ButtonPressed,
    CardOut,
    DeviceEvent,
    GateForced,
    GateJammed,
    PackLoaded,
    ShoeEmpty,
)
from firmware_bridge.wire import ADDRESS_DEALER, Button, Light

# -- events --------------------------------------------------------------------------
# The devices' physical facts are the bridge's own events (firmware_bridge.host:
# CardOut, ButtonPressed, GateForced, ...); the table adds only what it derives.


@dataclass(frozen=True)
class CardRead:
    """The camera's final reading for a card-out: a code, or None when unsure."""

    event_no: int
    card: str | None
    detail: str = ""
    #: when unsure: the camera's likeliest cards and their probabilities, for
    #: the dealer's confirm screen
    guesses: tuple[tuple[str, float], ...] = ()


@dataclass(frozen=True)
class LinkChanged:
    """A device link went up or down (``device``: "shoe", "panels" or "seat N")."""

    device: str
    up: bool
    rebooted: bool = False
    events_lost: int = 0
    reason: str = ""


Event = DeviceEvent | CardRead | LinkChanged


@dataclass(frozen=True)
class GameSetup:
    """What a game is started from; stored as the journal's ``game`` row.

    The row pins the whole ruleset (``ruleset``), not only the preset's name
    and the overrides: a software update that changes a preset's default
    between the evenings of a two-day event must not change how an unfinished
    game resumes or replays.  A setup read from an old journal without it
    works the rules out from ``preset`` and ``options``, as they were written.
    """

    preset: str
    players: tuple[str, ...]
    banker: str | None = None
    seed: int = 0
    options: Mapping[str, Any] = field(default_factory=dict)
    table: str = "Table"
    #: the pinned ruleset (``ruleset_to_dict``); None: from ``preset`` and ``options``
    ruleset: Mapping[str, Any] | None = None

    def rules(self) -> Ruleset:
        """The rules this game is played by (the pinned ones when stored)."""
        if self.ruleset is not None:
            return ruleset_from_dict(self.ruleset)
        return load_ruleset(self.preset, dict(self.options))

    def _choices(self) -> dict[str, Any]:
        return {
            "rules": self.preset,
            "options": dict(self.options),
            "players": list(self.players),
            "banker": self.banker,
            "seed": self.seed,
            "table": self.table,
        }

    def to_json(self) -> dict[str, Any]:
        ruleset = self.ruleset if self.ruleset is not None else ruleset_to_dict(self.rules())
        return self._choices() | {"ruleset": dict(ruleset)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameSetup:
        ruleset = data.get("ruleset")
        return cls(
            preset=str(data["rules"]),
            players=tuple(data["players"]),
            banker=data.get("banker"),
            seed=int(data.get("seed", 0)),
            options=dict(data.get("options") or {}),
            table=str(data.get("table", "Table")),
            ruleset=dict(ruleset) if isinstance(ruleset, Mapping) else None,
        )

    def same_game(self, other: GameSetup) -> bool:
        """Same choices and people (the table's name may change between runs, and
        the pinned ruleset stays the one the game started with)."""
        return self._choices() | {"table": ""} == other._choices() | {"table": ""}

    def start(self) -> GameState:
        return new_game(self.rules(), list(self.players), banker=self.banker, seed=self.seed)


@dataclass(frozen=True)
class Outputs:
    """Wanted device state: the wiring sends whatever differs from what it sent."""

    gate_locked: bool
    shoe_lights: int
    panels: dict[int, PanelView]


@dataclass
class Alarm:
    id: str
    kind: str
    message: str
    choices: list[dict[str, str]]
    card: str | None = None


#: the hold each kind of alarm puts on the table (``Alarm.kind`` -> a machine hold)
ALARM_HOLDS: dict[str, str] = {
    "jam": "gate_jammed",
    "lost": "events_lost",
    "reboot": "shoe_rebooted",
    "pack": "pack_loaded",
    "misdeal": "misdeal",
}


class TableCore:
    """One table's game plus everything the table is waiting for."""

    def __init__(
        self,
        setup: GameSetup,
        journal: Journal,
        *,
        seats: Mapping[str, int] | None = None,
        new_game_if_over: bool = False,
        manual: bool = False,
    ) -> None:
        self.setup = setup
        #: cards are entered by the dealer (``confirm_card``), not read by a camera
        self.manual = manual
        self.journal = journal
        self.addresses: dict[str, int] = dict(
            seats or {name: i + 1 for i, name in enumerate(setup.players)}
        )
        self.by_address: dict[int, str] = {a: n for n, a in self.addresses.items()}
        self.machine = TableMachine()
        self.ux = PanelUx()
        self.acked = 0
        self.state = self._load(new_game_if_over)
        #: card-outs waiting for their reading (event numbers, in order)
        self.in_flight: deque[int] = deque()
        self.reads: dict[int, CardRead] = {}
        self.unsure: CardRead | None = None
        self.alarms: dict[str, Alarm] = {}
        self.refusals: dict[int, str] = {}
        self.notice: dict[str, str] | None = None
        self.links: dict[str, dict[str, Any]] = {}
        #: per device link, its drop counters as its driver last reported them
        #: (:meth:`note_link_counts`; the I/O layer reads them, the core only keeps them)
        self.link_counts: dict[str, dict[str, int]] = {}
        self.counters: dict[str, int] = {
            "cards": 0,
            "refused": 0,
            "unsure": 0,
            "misdeals": 0,
            "link_drops": 0,
            "reboots": 0,
        }
        self._alarm_no = 0
        #: card-out events received since this process started
        self.cards_out_seen = 0
        self._sync_machine(initial=True)

    # -- start and rebuild ------------------------------------------------------------

    def _load(self, new_game_if_over: bool) -> GameState:
        journal = self.journal
        if journal.game:
            stored = GameSetup.from_json(journal.setup())
            if stored.same_game(self.setup):
                state = self._rebuild(stored)
                if not (new_game_if_over and state.game_over):
                    return state
        journal.start_game(self.setup.to_json())
        self.acked = 0
        return self.setup.start()

    def _rebuild(self, setup: GameSetup) -> GameState:
        """New game plus every journalled action: the state before the crash."""
        state = setup.start()
        self.acked = 0
        for row in self.journal.rows():
            if row.kind == "action":
                try:
                    apply(state, action_from_dict(row.body))
                except (IllegalAction, ValueError) as exc:
                    raise IllegalAction(
                        f"journal {self.journal.path}: row {row.seq} is refused by the rules "
                        f"engine ({exc}); the last consistent point is "
                        f"{self.journal.describe(row.seq - 1)}. Start with --recover."
                    ) from exc
            elif row.kind == "table" and row.body.get("event") == "payouts_done":
                self.acked = int(row.body.get("entries", self.acked))
        return state

    # -- recording --------------------------------------------------------------------

    def legal(self) -> list[LegalAction]:
        return legal_actions(self.state)

    def need(self) -> Need:
        return pending(self.state)

    def is_legal(self, action: Action) -> bool:
        return any(family.accepts(action) for family in self.legal())

    def _record(self, action: Action, meta: Mapping[str, Any] | None = None) -> None:
        """Journal, then apply (inside the journal's transaction); IllegalAction if refused."""
        if not self.is_legal(action):
            apply(self.state.copy(), action)  # the engine words the refusal, if it can
            raise IllegalAction("that is not possible now")
        self.journal.append(
            action_to_dict(action), meta, effect=lambda: apply(self.state, action)
        )
        self.ux.confirmed(action)
        self.refusals.clear()
        if isinstance(action, DealCard):
            self.counters["cards"] += 1
        self._sync_machine()

    def try_action(self, action: Action, meta: Mapping[str, Any] | None = None) -> CommandResult:
        try:
            self._record(action, meta)
        except IllegalAction as exc:
            self.counters["refused"] += 1
            return CommandResult.refused(str(exc))
        return CommandResult.done()

    # -- phases -----------------------------------------------------------------------

    def phase(self) -> str:
        return phase_of(self.state, self.acked)

    def _sync_machine(self, initial: bool = False) -> None:
        phase = self.phase()
        if initial:
            self.machine.reset(phase)
        else:
            self.machine.sync(phase)

    # -- events -------------------------------------------------------------------------

    def handle(self, event: Event) -> None:
        """One event in; an event this table has no handler for is ignored."""
        handler = _HANDLERS.get(type(event))
        if handler is not None:
            handler(self, event)

    def _card_out(self, event: CardOut) -> None:
        self.cards_out_seen += 1
        self.in_flight.append(event.event_no)

    def _card_read(self, event: CardRead) -> None:
        self.reads[event.event_no] = event
        self._drain()

    def _gate_forced(self, event: GateForced) -> None:
        # The card-out that follows decides: a card nobody was due is a misdeal.
        self.counters["gate_forced"] = self.counters.get("gate_forced", 0) + 1
        self.notice = {"seat": "", "message": "The shoe's gate was forced"}

    def _gate_jammed(self, event: GateJammed) -> None:
        choices = [choice("continue", "The gate is free again")]
        self._raise_alarm("jam", "The shoe's gate is jammed: free it", choices)

    def _shoe_empty(self, event: ShoeEmpty) -> None:
        self.notice = {"seat": "", "message": "The shoe is empty"}

    def _pack_loaded(self, event: PackLoaded) -> None:
        """Protocol 1.1 (docs/protocol.md section 12): a pack closed into the shoe.
        Between deals (or before a deal's first card) it is the new pack: a
        notice.  Once cards of the deal have left the shoe it is an alarm: the
        cards were put back as they were, or the deal is void."""
        deal = self.state.deal
        if self.state.phase == "deal" and deal is not None and deal.dealt:
            message = "A pack was loaded into the shoe during the deal: put it back as it was"
            self._raise_alarm("pack", message + ", or void the deal", [
                choice("continue", "The pack is back as it was: go on"), void_choice()])
            return
        self.notice = {"seat": "", "message": "A pack was loaded into the shoe"}

    def _drain(self) -> None:
        """Turn read card-outs into dealt cards, strictly in the order they left the shoe."""
        while self.in_flight and self.unsure is None:
            event_no = self.in_flight[0]
            read = self.reads.get(event_no)
            if read is None:
                return
            if self.alarms:  # a misdeal is open: every card waits for the dealer
                return
            need = self.need()
            if not isinstance(need, CardNeed) or "dealer" in self.machine.holds:
                self.in_flight.popleft()
                self.reads.pop(event_no, None)
                self._misdeal(
                    f"A card ({read.card or 'unread'}) left the shoe while none was due",
                    card=read.card,
                )
                return
            if read.card is None:
                self._ask_dealer(
                    read, f"The camera could not read {whose_card(need)} ({read.detail})")
                return
            try:
                card = Card.parse(read.card)
            except ValueError:
                self._ask_dealer(read, f"The camera read {read.card!r} as {whose_card(need)}, "
                                       "which is not a card")
                return
            action = DealCard(card)
            if not self.is_legal(action):
                self._ask_dealer(read, f"The camera read {card} as {whose_card(need)}, "
                                       f"but {card} is not in the shoe")
                return
            self.in_flight.popleft()
            self.reads.pop(event_no, None)
            self._record(action, {"event_no": event_no, "source": "camera"})

    def _ask_dealer(self, read: CardRead, message: str) -> None:
        self.unsure = read
        self.counters["unsure"] += 1
        if len(self.in_flight) > 1:
            # the dealer holds several face-down cards: say which one to turn over
            message += f"; it is the first of the {len(self.in_flight)} cards out of the shoe"
        self.machine.hold("unsure_card", message + ": confirm the card on the display")

    def _misdeal(self, message: str, card: str | None = None) -> None:
        self.counters["misdeals"] += 1
        choices = [choice("return", "The card is back on top of the shoe: go on")]
        if self.state.phase == "deal":
            choices.append(choice("void", "Void the deal"))
        self._raise_alarm("misdeal", message, choices, card)

    def _raise_alarm(
        self, kind: str, message: str, choices: list[dict[str, str]], card: str | None = None
    ) -> None:
        self._alarm_no += 1
        alarm = Alarm(f"{kind}-{self._alarm_no}", kind, message, choices, card)
        self.alarms[alarm.id] = alarm
        self.machine.hold(ALARM_HOLDS[kind], message, choices)

    def _button(self, event: ButtonPressed) -> None:
        try:
            button = Button(event.button)
        except ValueError:
            return  # a code this host does not know: a newer panel's button
        if event.address == ADDRESS_DEALER:
            self._dealer_button(button)
            return
        person = self.by_address.get(event.address)
        if person is None:
            return
        if not self.machine.running:
            # Every seat panel already says "Table paused" while the table holds; a
            # refusal kept for this press would hide the amount after it resumes.
            self._refuse(event.address, "Table paused")
            self.refusals.pop(event.address, None)
            return
        press = self.ux.press(person, button, self.need(), self.legal(), banker=self.state.banker)
        if press.refusal is not None:
            self._refuse(event.address, press.refusal)
        elif press.action is not None:
            try:
                self._record(press.action, {"source": "panel", "seat": person})
            except IllegalAction as exc:
                self._refuse(event.address, exc.reason[:1].upper() + exc.reason[1:])
        else:
            self.refusals.pop(event.address, None)

    def _refuse(self, address: int, message: str) -> None:
        self.counters["refused"] += 1
        self.refusals[address] = message
        who = self.by_address.get(address, "dealer")
        self.notice = {"seat": who, "message": message}

    def _dealer_button(self, button: Button) -> None:
        if button is Button.PAUSE:
            if "dealer" in self.machine.holds:
                self.resume()
            else:
                self.pause()
            return
        if not self.machine.running:
            self._refuse(ADDRESS_DEALER, "Table held: see the display")
            return
        if button is Button.NEXT:
            result = self.next_deal()
            if not result.ok:
                self._refuse(ADDRESS_DEALER, result.message)
            return
        press = self.ux.press(DEALER, button, self.need(), self.legal(), banker=self.state.banker)
        if press.refusal is not None:
            self._refuse(ADDRESS_DEALER, press.refusal)
        elif press.action is not None:
            result = self.try_action(press.action, {"source": "dealer panel"})
            if not result.ok:
                self._refuse(ADDRESS_DEALER, result.message)

    def _link(self, event: LinkChanged) -> None:
        info = self.links.setdefault(event.device, {"up": True, "reboots": 0, "drops": 0})
        if not event.up:
            if info["up"]:
                info["drops"] += 1
                self.counters["link_drops"] += 1
            info["up"] = False
            info["reason"] = event.reason
        else:
            info["up"] = True
            info.pop("reason", None)
            if event.rebooted:
                info["reboots"] += 1
                self.counters["reboots"] += 1
            mid_deal = event.device == "shoe" and self.state.phase == "deal"
            if event.rebooted and mid_deal:
                self._shoe_rebooted(event.events_lost)
            elif event.events_lost and mid_deal:
                self._raise_alarm(
                    "lost",
                    f"The shoe lost {event.events_lost} card event(s): "
                    "check the cards on the table against the display",
                    [
                        choice("continue", "Checked: the display is right"),
                        choice("void", "Void the deal"),
                    ],
                )
        down = sorted(name for name, link in self.links.items() if not link["up"])
        if down:
            self.machine.hold("link_down", f"Lost the link to {', '.join(down)}: reconnecting")
        else:
            self.machine.release("link_down")
        self._drain()

    def note_link_counts(self, device: str, counts: Mapping[str, int]) -> None:
        """The drop counters of a device link (``firmware_bridge.link.LinkCounters.drops``),
        for the snapshot; they decide nothing."""
        self.link_counts[device] = dict(counts)

    def _shoe_rebooted(self, lost: int) -> None:
        """A shoe reboot during a deal is always an alarm (docs/protocol.md 5.3),
        even with no event known lost: a card that left in the last moments
        before it may never have been recorded.  The gate stays locked (the
        hold) until the dealer has checked the cards on the table."""
        known = f"; {lost} card event(s) are known lost" if lost else ""
        self._raise_alarm("reboot", f"The shoe restarted during the deal{known}: check the "
                          "cards on the table against the display",
                          [choice("continue", "Checked: the display is right"), void_choice()])

    # -- dealer commands ----------------------------------------------------------------

    def command(
        self, name: str, args: Mapping[str, Any] | dealer_commands.Args | None = None
    ) -> CommandResult:
        """Run the dealer command ``name`` (see :mod:`controller.dealer_commands`).

        Never raises for bad input: an unknown name, arguments of the wrong
        shape, a held table or a refusal by the rules engine all come back as
        a refused CommandResult whose message is one plain sentence.
        """
        spec = dealer_commands.COMMANDS.get(name)
        if spec is None:
            return CommandResult.refused(f"There is no dealer command {name!r}.")
        try:
            parsed = spec.parse(args)
        except ValidationError as exc:
            return CommandResult.refused(dealer_commands.explain_validation(exc))
        if spec.needs_running and not self.machine.running:
            return self._held_refusal()
        handler: Callable[..., CommandResult] = getattr(self, name)
        result = handler(**dict(parsed))
        if result.ok:
            return result
        return CommandResult.refused(dealer_commands.sentence(result.message))

    def _held_refusal(self) -> CommandResult:
        top = self.machine.top_hold()
        if top is None or top.reason == "dealer":
            return CommandResult.refused("The table is paused: resume first.")
        return CommandResult.refused(f"The table is held ({top.message}): deal with that first.")

    def confirm_card(self, code: str) -> CommandResult:
        if self.unsure is None:
            if self.manual:
                return self._enter_card(code)
            return CommandResult.refused("No card is waiting to be confirmed")
        try:
            card = Card.parse(code)
        except ValueError as exc:
            return CommandResult.refused(str(exc))
        action = DealCard(card)
        if not self.is_legal(action):
            return CommandResult.refused(f"{card} is not in the shoe: look at the card again")
        read = self.unsure
        self.unsure = None
        self.machine.release("unsure_card")
        if self.in_flight and self.in_flight[0] == read.event_no:
            self.in_flight.popleft()
        self.reads.pop(read.event_no, None)
        self._record(action, {"event_no": read.event_no, "source": "dealer"})
        self._drain()
        return CommandResult.done(f"{card} dealt")

    def _enter_card(self, code: str) -> CommandResult:
        """Manual card entry: the dealer types the card that left the shoe."""
        try:
            card = Card.parse(code)
        except ValueError as exc:
            return CommandResult.refused(str(exc))
        if not self.machine.running:
            return self._held_refusal()
        if not isinstance(self.need(), CardNeed):
            return CommandResult.refused("No card is due now.")
        result = self.try_action(DealCard(card), {"source": "dealer"})
        return CommandResult.done(f"{card} dealt") if result.ok else result

    def pause(self) -> CommandResult:
        self.machine.hold("dealer", "Paused by the dealer")
        return CommandResult.done("paused")

    def resume(self) -> CommandResult:
        self.machine.release("dealer")
        if not self.machine.running:
            top = self.machine.top_hold()
            return CommandResult.refused(top.message if top else "The table is held")
        self._drain()
        return CommandResult.done("running")

    def misdeal(self, choice: str) -> CommandResult:
        if not self.alarms:
            return CommandResult.refused("There is no alarm to answer")
        alarm = next(iter(self.alarms.values()))
        if choice not in {c["id"] for c in alarm.choices}:
            options = ", ".join(c["id"] for c in alarm.choices)
            return CommandResult.refused(f"Choose one of: {options}")
        if choice == "void" and self.state.phase == "deal":
            result = self.try_action(VoidDeal("misdeal"), {"source": "dealer", "alarm": alarm.id})
            if not result.ok:
                return result
        del self.alarms[alarm.id]
        if all(other.kind != alarm.kind for other in self.alarms.values()):
            self.machine.release(ALARM_HOLDS[alarm.kind])
        self._drain()
        return CommandResult.done(f"{alarm.kind}: {choice}")

    def void_deal(self) -> CommandResult:
        return self.try_action(VoidDeal("voided by the dealer"), {"source": "dealer"})

    def next_deal(self) -> CommandResult:
        """The dealer's NEXT: payouts done and the pack ready, so deal on.

        One press both confirms the settlement and starts the next deal (when
        the rules let it start: a kitty to put up or the game's end stop there).
        """
        phase = self.phase()
        if phase in ("settlement", "void_deal"):
            self.acked = len(self.state.results)
            self.journal.note({"event": "payouts_done", "entries": self.acked})
            self._sync_machine()
            phase = self.phase()
            if phase != "between_deals":
                return CommandResult.done("payouts done")
        if phase == "between_deals":
            return self.try_action(StartDeal(), {"source": "dealer"})
        if phase == "game_over":
            return CommandResult.refused("The game is over: start a new game")
        return CommandResult.refused(f"Not between deals (the table is at {phase})")

    def new_game(self) -> CommandResult:
        self.journal.start_game(self.setup.to_json())
        self.state = self.setup.start()
        self.acked = 0
        self.in_flight.clear()
        self.reads.clear()
        self.unsure = None
        self.alarms.clear()
        for reason in ("unsure_card", *ALARM_HOLDS.values()):
            self.machine.release(reason)
        self.machine.reset(self.phase())
        return CommandResult.done("new game")

    def bank_draw(self) -> CommandResult:
        return self.try_action(BankDecide("draw"), {"source": "dealer"})

    def bank_stay(self) -> CommandResult:
        return self.try_action(BankDecide("stay"), {"source": "dealer"})

    def stack_top(self, cards: list[str]) -> CommandResult:
        """A trainer arranged these cards on top of the shoe (scenarios, training)."""
        try:
            parsed = tuple(Card.parse(c) for c in cards)
        except ValueError as exc:
            return CommandResult.refused(str(exc))
        return self.try_action(StackTop(parsed), {"source": "trainer"})

    def sell_bank(self, to: str, price: int | str) -> CommandResult:
        try:
            amount = Fraction(price)
        except (ValueError, TypeError):
            return CommandResult.refused(f"Not a price: {price!r}")
        value = int(amount) if amount.denominator == 1 else amount
        return self.try_action(SellBank(to, value), {"source": "dealer"})

    def decide(self, seat: str, decision: str, amount: int | str | None = None) -> CommandResult:
        """A decision on behalf of a seat, from the display."""
        value: Any = None
        if amount is not None:
            try:
                fraction = Fraction(amount)
            except (ValueError, TypeError):
                return CommandResult.refused(f"Not an amount: {amount!r}")
            value = int(fraction) if fraction.denominator == 1 else fraction
        action: Action
        word = decision.strip().lower()
        if word == "stake":
            action = PlaceStake(seat, value)
        elif word == "shoot" and isinstance(self.need(), ShootNeed):
            action = PlaceShoot(seat, value if value is not None else 0)
        elif word == "kitty":
            action = PutKitty(value)
        elif word in ("draw", "stay"):
            action = BankDecide(word)
        else:
            action = Decide(seat, word, value)
        return self.try_action(action, {"source": "display", "seat": seat})

    # -- outputs ------------------------------------------------------------------------

    def gate_locked(self) -> bool:
        return not (
            self.machine.running
            and not self.in_flight
            and isinstance(self.need(), CardNeed)
        )

    def outputs(self) -> Outputs:
        need, legal = self.need(), self.legal()
        running = self.machine.running
        panels: dict[int, PanelView] = {}
        views = {v.player: v for v in self.state.hand_views() if v.in_turn}
        for name, address in self.addresses.items():
            if not running:
                panels[address] = PanelView(int(Light.WAIT), _two_lines(name, "Table paused"))
                continue
            summary = name
            view = views.get(name)
            if view is not None:
                summary = f"{name[:9]} H{view.hand} {view.total}"
            panel = self.ux.seat_view(name, need, legal, banker=self.state.banker, summary=summary)
            refusal = self.refusals.get(address)
            if refusal is not None:
                panel = PanelView(panel.lights, _two_lines(summary, refusal))
            panels[address] = panel
        dealer = self.ux.dealer_view(need, legal, holding=not running)
        if running and self.phase() in ("settlement", "void_deal", "between_deals"):
            dealer = PanelView(dealer.lights | (1 << (Button.NEXT - 1)), dealer.text)
        panels[ADDRESS_DEALER] = dealer
        shoe_lights = int(Light.ALARM) if not running else (
            int(Light.READY) if not self.gate_locked() else int(Light.WAIT)
        )
        return Outputs(self.gate_locked(), shoe_lights, panels)


def _two_lines(first: str, second: str) -> str:
    return f"{first[:16]}\n{second[:16]}"


def phase_of(state: GameState, acked: int) -> str:
    """The machine phase for an engine state (``acked``: deals whose payouts are done)."""
    need = pending(state)
    unacked = len(state.results) > acked
    if isinstance(need, GameOver):
        return "settlement" if unacked else "game_over"
    if state.phase == "cut":
        return "cut"
    if isinstance(need, BetweenDeals | KittyNeed):
        if unacked:
            last = state.results[-1]
            return "void_deal" if last.get("void") else "settlement"
        return "kitty" if isinstance(need, KittyNeed) else "between_deals"
    deal = state.deal
    step = deal.step if deal is not None else ""
    if isinstance(need, CardNeed):
        if step == "first":
            return "first_card"
        if step == "second":
            return "second_card"
        if step == "bank":
            return "dealer_turn" if state.rules.house_dealer else "banker_turn"
        return "player_turn"
    if isinstance(need, StakeNeed):
        return "stakes"
    if isinstance(need, ShootNeed):
        return "shoot_bets"
    if isinstance(need, DecisionNeed):
        if "insurance" in need.words or "even-money" in need.words:
            return "insurance"
        return "player_turn"
    if isinstance(need, BankNeed):
        return "banker_turn"
    return "setup"  # pragma: no cover - every need is covered above


#: event type -> what the table does with it (one entry per kind of event)
_HANDLERS: dict[type, Callable[[TableCore, Any], None]] = {
    CardOut: TableCore._card_out,
    CardRead: TableCore._card_read,
    ButtonPressed: TableCore._button,
    LinkChanged: TableCore._link,
    GateForced: TableCore._gate_forced,
    GateJammed: TableCore._gate_jammed,
    ShoeEmpty: TableCore._shoe_empty,
    PackLoaded: TableCore._pack_loaded,
}
