"""A table run by hand: the rules engine in-process, no devices.

This is the "training / manual table" mode: the dealer types each card that
leaves the shoe (``confirm_card``) and enters the players' decisions, and the
engine judges everything exactly as on the live table.  It implements the same
``TableLink`` seam as :class:`controller.table.Table` and publishes snapshots
of the shape in ``docs/controller.md``, so the display, its tests and its
benchmark run against the real rules engine without any hardware.

Only words are chosen here ("Deal a face-down card to Seat 3 (Cat), hand 2");
every fact (totals, legality, nets, whose turn, face up or down) is read from
the engine.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from controller.publish import CommandResult, Publisher, TableSnapshot
from controller.rules import (
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
    HandView,
    IllegalAction,
    KittyNeed,
    Need,
    PlaceShoot,
    PlaceStake,
    PutKitty,
    ShootNeed,
    StakeNeed,
    StartDeal,
    VoidDeal,
    apply,
    legal_actions,
    load_ruleset,
    new_game,
    pending,
)
from controller.rules.actions import Action
from controller.snapshot import legal_json, need_json


def money(value: Any) -> Any:
    """Engine amounts (int or Fraction) as JSON numbers."""
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else float(value)
    return value


def _range_words(low: Any, high: Any) -> str:
    low, high = money(low), money(high)
    if high is None:
        return f"{low} or more"
    return f"{low}" if low == high else f"{low}–{high}"


def _list_words(words: Sequence[str]) -> str:
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " or " + words[-1]


class Words:
    """Plain words for what the table waits for, using seat numbers a dealer sees."""

    def __init__(self, players: Sequence[str]) -> None:
        self.seat_no = {name: i + 1 for i, name in enumerate(players)}

    def seat(self, name: str) -> str:
        number = self.seat_no.get(name)
        return f"Seat {number} ({name})" if number else name

    def next(self, need: Need, state: GameState) -> str:
        if isinstance(need, CardNeed):
            face = "face-up" if need.face_up else "face-down"
            if need.purpose == "cut":
                return f"Cut for the bank: deal a face-up card to {self.seat(need.recipient)}"
            if need.to_bank:
                who = "the dealer" if need.recipient == "house" else f"the bank ({need.recipient})"
                return f"Deal a {face} card to {who}"
            return f"Deal a {face} card to {self.seat(need.recipient)}, hand {need.hand}"
        if isinstance(need, StakeNeed):
            names = ", ".join(need.waiting)
            return f"Stakes, {_range_words(need.minimum, need.maximum)} units: waiting for {names}"
        if isinstance(need, ShootNeed):
            return (
                f"{self.seat(need.player)} may place a shoot bet "
                f"(0–{money(need.maximum)})"
            )
        if isinstance(need, DecisionNeed):
            return f"{self.seat(need.player)}, hand {need.hand}: {_list_words(need.words)}?"
        if isinstance(need, BankNeed):
            who = "The dealer" if need.banker == "house" else f"The bank ({need.banker})"
            return f"{who}: {_list_words(need.words)}?"
        if isinstance(need, KittyNeed):
            return (
                f"{need.banker} puts up a kitty of "
                f"{_range_words(need.minimum, need.maximum)} units"
            )
        if isinstance(need, BetweenDeals):
            last = state.last_result()
            gather = (
                "Shuffle the pack"
                if last and last.get("shuffle")
                else "Put the used cards under the pack"
            )
            if last is None:
                gather = "Cards ready"
            return f"{gather}, then press Next deal (deal {need.next_deal}, bank: {need.banker})"
        if isinstance(need, GameOver):
            return "Game over: " + (", ".join(need.winners) or "no winner")
        return ""


def _phase(need: Need, state: GameState) -> str:
    if isinstance(need, GameOver):
        return "game_over"
    if isinstance(need, KittyNeed):
        return "kitty"
    if isinstance(need, BetweenDeals):
        return "between_deals" if state.results else "setup"
    if isinstance(need, StakeNeed):
        return "stakes"
    if isinstance(need, ShootNeed):
        return "shoot_bets"
    if isinstance(need, DecisionNeed):
        return "player_turn"
    if isinstance(need, BankNeed):
        return "dealer_turn" if need.banker == "house" else "banker_turn"
    if isinstance(need, CardNeed):
        if need.purpose == "cut":
            return "cut"
        deal = state.deal
        if deal is not None and deal.step == "play":
            return "player_turn"
        if deal is not None and deal.step == "bank":
            return "banker_turn"
        return "dealing"
    return "unknown"


def _status(view: HandView) -> str:
    if view.bust:
        return "bust"
    if view.pontoon:
        return "pontoon"
    if view.five_card_trick:
        return "five_card"
    return "stood" if view.done else "playing"


def _cards(view: HandView) -> list[dict[str, Any]]:
    return [{"code": str(c.card), "face_up": c.face_up} for c in view.cards]


def build_snapshot(
    state: GameState,
    *,
    table: str,
    paused: bool = False,
    settlement_shown: bool = True,
    message: str = "",
) -> TableSnapshot:
    """The controller-shaped snapshot of an engine state (no devices, so no links)."""
    need = pending(state)
    words = Words(state.players)
    deal = state.deal
    banker = deal.banker if deal is not None and state.phase == "deal" else state.banker
    hands: dict[str, list[dict[str, Any]]] = {}
    for view in state.hand_views():
        hands.setdefault(view.player, []).append(
            {
                "hand": view.hand,
                "stake": money(view.stake),
                "total": view.total,
                "status": _status(view),
                "cards": _cards(view),
                "shoot": money(view.shoot),
            }
        )
    balances = state.balances_units()
    seats = [
        {
            "name": name,
            "seat": i + 1,
            "address": None,
            "banker": name == banker,
            "balance": money(balances.get(name, 0)),
            "hands": hands.get(name, []),
        }
        for i, name in enumerate(state.players)
    ]
    bank_view = state.bank_view()
    bank: dict[str, Any] = {
        "name": banker,
        "cards": _cards(bank_view) if bank_view else [],
        "total": bank_view.total if bank_view and bank_view.cards else None,
        "kitty": money(state.kitty_units) if state.rules.shoot_bets else None,
    }
    turn = state.turn()
    settled = state.phase in ("between", "over") and state.results and settlement_shown
    last = state.last_result() if settled else None
    hold = (
        {"reason": "dealer", "message": "Paused by the dealer", "choices": []} if paused else None
    )
    return {
        "table": table,
        "rules": state.rules.preset,
        "phase": _phase(need, state),
        "hold": hold,
        "paused": paused,
        "next": words.next(need, state),
        "pending": need_json(need),
        "turn": {"seat": turn[0], "hand": turn[1]} if turn else None,
        "legal": [] if paused else legal_json(legal_actions(state)),
        "deal": {
            "number": state.deal_number or None,
            "counted": state.counted,
            "of": state.rules.counted_deals,
            "banker": banker,
        },
        "seats": seats,
        "bank": bank,
        "settlement": last,
        "alarms": [],
        "pack": {
            "left": len(state.pack),
            "packs": state.pack.packs,
            "dealt": len(deal.dealt) if deal is not None and state.phase == "deal" else 0,
        },
        "gate": "unlocked",
        "standings": [{"name": n, "balance": money(b)} for n, b in state.standings()],
        "game_over": state.game_over,
        "winners": list(state.winners()) if state.game_over else [],
        "links": {},
        "counters": {},
        "message": message,
        "manual": True,
    }


class ManualTable:
    """A ``TableLink`` over the engine alone: every command is one engine action."""

    def __init__(
        self,
        *,
        rules: str = "house",
        players: Sequence[str] = ("Ann", "Bob", "Cat", "Dan"),
        banker: str | None = None,
        seed: int = 0,
        options: Mapping[str, Any] | None = None,
        name: str = "Manual table",
    ) -> None:
        self.name = name
        self.publisher = Publisher()
        self._setup = (rules, list(players), banker, seed, dict(options or {}))
        self.paused = False
        self.state = self._new_state()
        self._publish()

    def _new_state(self) -> GameState:
        rules, players, banker, seed, options = self._setup
        return new_game(load_ruleset(rules, options), players, banker=banker, seed=seed)

    def snapshot(self) -> TableSnapshot:
        return self.publisher.latest

    def _publish(self, message: str = "") -> None:
        self.publisher.publish(
            build_snapshot(self.state, table=self.name, paused=self.paused, message=message)
        )

    def _act(self, action: Action, done: str) -> CommandResult:
        if self.paused:
            return CommandResult.refused("The table is paused: resume first.")
        try:
            apply(self.state, action)
        except IllegalAction as exc:
            return CommandResult.refused(str(exc))
        self._publish()
        return CommandResult.done(done)

    # -- the TableLink commands -------------------------------------------------------
    async def command(self, name: str, **args: Any) -> CommandResult:
        handler = getattr(self, name, None)
        if name.startswith("_") or name in {"command", "snapshot"} or handler is None:
            return CommandResult.refused(f"There is no command {name!r}.")
        try:
            result: CommandResult = await handler(**args)
        except TypeError as exc:
            return CommandResult.refused(f"Wrong arguments for {name}: {exc}")
        return result

    async def confirm_card(self, code: str) -> CommandResult:
        try:
            card = Card.parse(code)
        except ValueError as exc:
            return CommandResult.refused(str(exc))
        if not isinstance(pending(self.state), CardNeed):
            return CommandResult.refused("No card is due now.")
        return self._act(DealCard(card), f"{card} dealt")

    async def pause(self) -> CommandResult:
        self.paused = True
        self._publish()
        return CommandResult.done("Paused")

    async def resume(self) -> CommandResult:
        self.paused = False
        self._publish()
        return CommandResult.done("Resumed")

    async def void_deal(self) -> CommandResult:
        return self._act(VoidDeal(), "Deal voided")

    async def new_game(self) -> CommandResult:
        self.state = self._new_state()
        self.paused = False
        self._publish()
        return CommandResult.done("New game")

    async def next_deal(self) -> CommandResult:
        return self._act(StartDeal(), "Next deal")

    async def bank_draw(self) -> CommandResult:
        return self._act(BankDecide("draw"), "The bank draws")

    async def bank_stay(self) -> CommandResult:
        return self._act(BankDecide("stay"), "The bank stays")

    async def misdeal(self, choice: str) -> CommandResult:
        return CommandResult.refused("No alarm is open.")

    async def decide(
        self, seat: str, decision: str, amount: int | None = None
    ) -> CommandResult:
        action: Action
        if decision == "stake":
            if amount is None:
                return CommandResult.refused(f"{seat} must say how much to stake.")
            action = PlaceStake(seat, amount)
        elif decision == "shoot" and isinstance(pending(self.state), ShootNeed):
            action = PlaceShoot(seat, amount or 0)
        elif decision == "kitty":
            if amount is None:
                return CommandResult.refused("Say how much goes into the kitty.")
            action = PutKitty(amount)
        else:
            action = Decide(seat, decision, amount)
        return self._act(action, f"{seat}: {decision}" + (f" {amount}" if amount else ""))
