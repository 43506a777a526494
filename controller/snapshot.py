"""The table snapshot for the display: the one builder (shape in :mod:`controller.snapshot_schema`).

Built from the engine's own views (hands, bank, pending, legal actions,
results): nothing is computed here that the engine could answer, and every
number shown to the dealer is the engine's.  Face-down cards are included
with ``face_up: false``; the display redacts them for public clients.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, cast

from controller.core import Outputs, TableCore
from controller.publish import TableSnapshot
from controller.rules import (
    BankNeed,
    BetweenDeals,
    CardNeed,
    DecisionNeed,
    GameOver,
    HandView,
    KittyNeed,
    LegalAction,
    Need,
    ShootNeed,
    StakeNeed,
)
from controller.snapshot_schema import (
    Alarm,
    BankSnapshot,
    Choice,
    DealResult,
    HandSnapshot,
    HandStatus,
    Hold,
    LegalFamily,
    LinkCounts,
    LinkInfo,
    Notice,
    Pending,
    Phase,
    SeatSnapshot,
    Snapshot,
)
from firmware_bridge.wire import ADDRESS_DEALER


def _num(value: Any) -> Any:
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else float(value)
    return value


def need_json(need: Need) -> Pending:
    """The engine's pending as JSON: ``kind`` plus the need's own fields."""
    kind = {
        CardNeed: "card",
        StakeNeed: "stakes",
        ShootNeed: "shoot",
        DecisionNeed: "decision",
        BankNeed: "bank",
        KittyNeed: "kitty",
        BetweenDeals: "between_deals",
        GameOver: "game_over",
    }[type(need)]
    out: dict[str, Any] = {"kind": kind}
    for name in need.__slots__:
        value = getattr(need, name)
        out[name] = list(value) if isinstance(value, tuple) else _num(value)
    if isinstance(need, CardNeed):
        out["to"] = need.recipient
    return cast(Pending, out)


def legal_json(legal: list[LegalAction]) -> list[LegalFamily]:
    out: list[LegalFamily] = []
    for family in legal:
        name = family.kind.__name__
        if name == "DealCard":
            out.append({"decision": "card"})
            continue
        item: LegalFamily = {"action": name}
        if family.word is not None:
            item["decision"] = family.word
        if family.player is not None:
            item["player"] = family.player
        if family.minimum is not None:
            item["min"] = _num(family.minimum)
            item["max"] = _num(family.maximum)
        if family.names is not None:
            item["names"] = list(family.names)
        out.append(item)
    return out


def _hand(view: HandView) -> HandSnapshot:
    status: HandStatus
    if view.bust:
        status = "bust"
    elif view.pontoon:
        status = "pontoon"
    elif view.five_card_trick:
        status = "five_card"
    elif view.done:
        status = "stood"
    else:
        status = "playing"
    return {
        "hand": view.hand,
        "stake": _num(view.stake),
        "shoot": _num(view.shoot),
        "total": view.total,
        "soft": view.soft,
        "status": status,
        "in_turn": view.in_turn,
        "cards": [{"code": str(c.card), "face_up": c.face_up} for c in view.cards],
    }


def next_words(core: TableCore, phase: str, need: Need) -> str:
    """The next physical action, in the words a dealer reads at a glance."""
    state = core.state
    hold = core.machine.top_hold()
    if hold is not None:
        return hold.message
    if in_flight := len(core.in_flight):
        return f"Reading {in_flight} card(s)"
    if isinstance(need, CardNeed):
        face = "face-up" if need.face_up else "face-down"
        if need.purpose == "cut":
            return f"Cut: deal a face-up card to {_seat(core, need.recipient)}"
        if need.to_bank:
            return f"Deal a {face} card to the bank ({need.recipient})"
        return f"Deal a {face} card to {_seat(core, need.recipient)}, hand {need.hand}"
    if isinstance(need, StakeNeed):
        return "Stakes: " + ", ".join(need.waiting) + " to choose"
    if isinstance(need, ShootNeed):
        return f"{need.player}: shoot bet (up to {_num(need.maximum)}) or none"
    if isinstance(need, DecisionNeed):
        return f"{need.player}, hand {need.hand}: " + ", ".join(need.words)
    if isinstance(need, BankNeed):
        return f"The bank ({need.banker}): " + " or ".join(need.words)
    if phase in ("settlement", "void_deal"):
        last = state.results[-1] if state.results else {}
        if last.get("void"):
            return "Deal void: take the cards back and shuffle, then press NEXT"
        pays = ", ".join(f"{p} {_signed(n)}" for p, n in (last.get("net") or {}).items())
        return f"Settle: {pays}; then press NEXT"
    if isinstance(need, KittyNeed):
        return f"{need.banker}: put up a kitty ({_num(need.minimum)}-{_num(need.maximum)})"
    if isinstance(need, BetweenDeals):
        last = state.results[-1] if state.results else {}
        pack = "Shuffle the pack" if last.get("shuffle") or not last else (
            "Put the used cards to the bottom of the pack"
        )
        return f"{pack}; then press NEXT for deal {need.next_deal} (bank: {need.banker})"
    if isinstance(need, GameOver):
        return "Game over: " + ", ".join(need.winners) + " won"
    return ""


def _signed(value: Any) -> str:
    value = _num(value)
    return f"+{value}" if value > 0 else str(value)


def _seat(core: TableCore, name: str) -> str:
    address = core.addresses.get(name)
    return f"Seat {address} ({name})" if address is not None else name


def build_snapshot(core: TableCore, outputs: Outputs | None = None) -> TableSnapshot:
    """The display's snapshot of ``core``; ``outputs`` when the caller has just computed them.

    The builder reads the core, never the other way round: the core decides,
    this module only shows.
    """
    state = core.state
    need = core.need()
    legal = core.legal()
    phase = core.phase()
    hold = core.machine.top_hold()
    if outputs is None:
        outputs = core.outputs()
    hands: dict[str, list[HandSnapshot]] = {}
    for view in state.hand_views():
        hands.setdefault(view.player, []).append(_hand(view))
    seats: list[SeatSnapshot] = []
    for name in state.players:
        address = core.addresses.get(name)
        panel = outputs.panels.get(address) if address is not None else None
        seats.append(
            {
                "name": name,
                "seat": address,
                "address": address,
                "banker": name == state.banker,
                "balance": _num(state.balance(name)),
                "hands": hands.get(name, []),
                "lights": panel.buttons() if panel else [],
                "text": panel.text if panel else "",
            }
        )
    bank_view = state.bank_view()
    bank: BankSnapshot | None = None
    if state.banker is not None:
        bank = {
            "name": state.banker,
            "cards": [
                {"code": str(c.card), "face_up": c.face_up} for c in bank_view.cards
            ]
            if bank_view
            else [],
            "total": bank_view.total if bank_view else None,
            "kitty": _num(state.kitty_units) if state.rules.shoot_bets else None,
        }
    last = cast("DealResult | None", state.results[-1] if state.results else None)
    turn = state.turn()
    counted = state.counted
    limit = state.rules.counted_deals
    pack_left = len(state.pack)
    packs = state.pack.packs
    dealer_panel = outputs.panels.get(ADDRESS_DEALER)
    held: Hold | None = None
    if hold is not None:
        held = {"reason": hold.reason, "message": hold.message,
                "choices": cast("list[Choice]", hold.choices)}
        if hold.reason == "unsure_card" and core.unsure is not None and core.unsure.guesses:
            held["guesses"] = [{"card": c, "p": p} for c, p in core.unsure.guesses]
    alarms: list[Alarm] = [
        {"id": a.id, "kind": a.kind, "message": a.message,
         "choices": cast("list[Choice]", a.choices), "card": a.card}
        for a in core.alarms.values()
    ]
    snapshot: Snapshot = {
        "table": core.setup.table,
        "rules": state.rules.preset,
        "phase": cast(Phase, phase),
        # the options in play, the preset's with the table's overrides: the TV's
        # sign must show the limits this table plays to, not the preset's
        "options": state.rules.options(),
        "hold": held,
        "paused": hold is not None,
        "next": next_words(core, phase, need),
        "pending": need_json(need),
        "turn": None if turn is None else {"seat": turn[0], "hand": turn[1]},
        "legal": legal_json(legal),
        "deal": {
            "number": state.deal_number,
            "counted": counted,
            "of": limit,
            "banker": state.banker,
        },
        "seats": seats,
        "bank": bank,
        "settlement": last if phase in ("settlement", "void_deal", "game_over") else None,
        "last_deal": last,
        "alarms": alarms,
        "notice": cast("Notice | None", core.notice),
        "pack": {"left": pack_left, "packs": packs, "dealt": packs * 52 - pack_left},
        "gate": "locked" if outputs.gate_locked else "unlocked",
        "dealer_panel": {
            "lights": dealer_panel.buttons() if dealer_panel else [],
            "text": dealer_panel.text if dealer_panel else "",
        },
        "standings": [{"name": n, "balance": _num(b)} for n, b in state.standings()],
        "game_over": state.game_over,
        "winners": state.winners() if state.game_over else [],
        # new records: the core updates its link records in place, and a snapshot
        # already published must not change with them (the display compares
        # the last view with the new one to send only what changed)
        "links": _links(core),
        "counters": dict(core.counters),
        "manual": core.manual,
    }
    return snapshot


def _links(core: TableCore) -> dict[str, LinkInfo]:
    """Each device link as the core saw it come and go, with its drop counters
    (zeros for a link whose driver has reported none yet)."""
    zeros = {key: 0 for key in sorted(LinkCounts.__required_keys__)}
    links: dict[str, LinkInfo] = {}
    for name, info in core.links.items():
        counts = {key: int(core.link_counts.get(name, {}).get(key, 0)) for key in zeros}
        links[name] = cast("LinkInfo", {**info, "counters": counts})
    return links
