"""From a table snapshot to what each screen is sent.

Two views are built from every snapshot (shape in ``docs/controller.md``):

- the **dealer view**: the snapshot itself plus words the dealer acts on
  (payouts seat by seat, bank transfers); it carries face-down cards, so it
  goes only to clients holding the dealer's token;
- the **public view**: built field by field from a whitelist, never by
  copying and deleting, so a field the controller adds later cannot leak.  A
  card's code is copied only when the snapshot marks that card face up at this
  moment; totals, statuses and panel texts (which give away hidden cards)
  appear only when every card of the hand is face up (a hand holding a
  face-down card shows the status "hidden", the same for every such hand);
  the settlement's per-hand card lists, the pack order and alarm details are
  never copied.

Nothing here decides the game: totals, nets, legality and the next action come
from the snapshot, which comes from the rules engine.  This module only
chooses words and hides what players must not see.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from controller.rules import PRESETS, Ruleset, RulesetError, ruleset_from_dict

#: the table snapshot (typed in controller/snapshot_schema.py), read as a mapping
Snapshot = Mapping[str, Any]
View = dict[str, Any]

#: Calm words for the players' screen when the table holds (details stay with the dealer).
PUBLIC_HOLD_TEXT = {
    "link_down": "One moment: the table is reconnecting a device.",
    "unsure_card": "One moment: the dealer is checking a card.",
    "gate_jammed": "One moment: the dealer is freeing the shoe.",
    "events_lost": "One moment: the dealer is checking the cards on the table.",
    "shoe_rebooted": "One moment: the dealer is checking the cards on the table.",
    "pack_loaded": "One moment: the dealer is checking the shoe.",
    "misdeal": "One moment: the dealer is correcting the deal.",
    "dealer": "The table is paused.",
}


def _number(value: Any) -> Any:
    """Amounts come as ints, floats or fraction strings ("5/2"); show them as numbers."""
    if isinstance(value, str) and "/" in value:
        top, _, bottom = value.partition("/")
        try:
            return int(top) / int(bottom)
        except (ValueError, ZeroDivisionError):
            return value
    return value


def _fmt(value: Any) -> str:
    value = _number(value)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, float):
        return f"{value:.1f}"
    return str(value)


def _seat_label(seat: dict[str, Any]) -> str:
    number = seat.get("seat")
    name = seat.get("name", "?")
    return f"Seat {number} ({name})" if number is not None else str(name)


def payouts(snapshot: Snapshot) -> list[dict[str, Any]]:
    """The settlement's nets as instructions, in seat order ("Pay Seat 2 (Bob): 10")."""
    settlement = snapshot.get("settlement") or {}
    net = settlement.get("net") or {}
    banker = (snapshot.get("deal") or {}).get("banker")
    out: list[dict[str, Any]] = []
    for seat in snapshot.get("seats") or []:
        name = seat.get("name")
        if name not in net or name == banker:
            continue
        amount = _number(net[name])
        label = _seat_label(seat)
        if amount > 0:
            text = f"Pay {label}: {_fmt(amount)}"
            kind = "pay"
        elif amount < 0:
            text = f"Collect from {label}: {_fmt(-amount)}"
            kind = "collect"
        else:
            text = f"{label}: nothing to pay"
            kind = "none"
        out.append({"name": name, "seat": seat.get("seat"), "amount": amount, "kind": kind,
                    "text": text})
    if banker in net:
        amount = _number(net[banker])
        who = "The house" if banker == "house" else f"The bank ({banker})"
        verb = "wins" if amount > 0 else "loses" if amount < 0 else "breaks even"
        out.append({"name": banker, "seat": None, "amount": amount, "kind": "bank",
                    "text": f"{who} {verb} {_fmt(abs(amount)) if amount else ''}".strip()})
    return out


def transfers(snapshot: Snapshot) -> list[str]:
    """Bank transfers and the shuffle, as announced after a deal."""
    settlement = snapshot.get("settlement") or {}
    banker = (snapshot.get("deal") or {}).get("banker")
    lines = []
    nxt = settlement.get("next_banker")
    if nxt and banker and nxt != banker:
        lines.append(f"The bank passes to {nxt}.")
    if settlement.get("shuffle"):
        lines.append("Shuffle the pack before the next deal.")
    return lines


#: legal-action families the dealer may enter for a person, by the engine's action name
_ACTION_WORDS = {"PlaceStake": "stake", "PlaceShoot": "shoot", "PutKitty": "kitty"}
_BANK_WORDS = ("draw", "stay")


def decisions(snapshot: Snapshot) -> list[dict[str, Any]]:
    """The snapshot's legal families as buttons: who, which word, what amount range.

    Only the decisions a person makes are listed; dealing cards, starting a deal
    and voiding have their own controls.
    """
    turn = snapshot.get("turn") or {}
    banker = (snapshot.get("deal") or {}).get("banker")
    out = []
    for family in snapshot.get("legal") or []:
        action = family.get("action")
        word = _ACTION_WORDS.get(str(action)) or family.get("decision")
        if not word or word == "card" or action in ("StartDeal", "StackTop", "VoidDeal",
                                                    "SellBank"):
            continue
        if word in _BANK_WORDS:
            seat = banker
        else:
            seat = family.get("player") or family.get("seat") or turn.get("seat")
            if word == "kitty":
                seat = banker
        entry = {"seat": seat, "decision": word}
        if "min" in family:
            entry["min"], entry["max"] = family["min"], family.get("max")
        out.append(entry)
    return out


def dealer_view(snapshot: Snapshot) -> View:
    """Everything for the dealer's tablet (face-down cards included)."""
    view = dict(snapshot)
    view.pop("version", None)  # the hub numbers its own messages
    view["decisions"] = decisions(snapshot)
    view["payouts"] = payouts(snapshot)
    view["transfers"] = transfers(snapshot)
    return view


# ----------------------------------------------------------------------------- public
#: The status of every hand holding a face-down card (see ``_public_hand``).
HIDDEN_STATUS = "hidden"


def _public_cards(cards: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], bool]:
    out: list[dict[str, Any]] = []
    all_up = True
    for card in cards or []:
        if card.get("face_up") is True and isinstance(card.get("code"), str):
            out.append({"code": card["code"], "face_up": True})
        else:
            out.append({"face_up": False})
            all_up = False
    return out, all_up


def _public_hand(hand: dict[str, Any]) -> dict[str, Any]:
    """A hand as the players see it.

    While any card of it is face down, everything worked out from its cards
    (status, total) is replaced by the one word every such hand shows, whatever
    its cards: a pontoon, a hand that stood, one still playing all look alike.
    Whose turn it is stays public through the view's ``turn``.
    """
    cards, all_up = _public_cards(hand.get("cards") or [])
    out: dict[str, Any] = {
        "hand": hand.get("hand"),
        "stake": _number(hand.get("stake")),
        "status": hand.get("status") if all_up else HIDDEN_STATUS,
        "cards": cards,
    }
    if all_up and cards:
        out["total"] = hand.get("total")
    if hand.get("shoot"):
        out["shoot"] = _number(hand.get("shoot"))
    return out


def _pays(ratio: Fraction) -> str:
    """A payout ratio as a table sign says it: 2 is "double", 3/2 is "3 to 2"."""
    if ratio == 2:
        return "double"
    if ratio.denominator == 1:
        return f"{ratio.numerator} to 1"
    return f"{ratio.numerator} to {ratio.denominator}"


def table_sign(rules: Ruleset) -> dict[str, Any]:
    """The sign at the table: stake limits and what pays more than evens.

    Public information (printed on any real table's sign), read from the preset
    the snapshot names; nothing here depends on a card.
    """
    pays = [f"Pontoon pays {_pays(rules.pay_pontoon)}",
            f"Five-card trick pays {_pays(rules.pay_five_card)}"]
    if rules.three_of_a_kind_pays:
        rate = rules.three_of_a_kind_pays
        pays.append(f"Three of a kind pays {rate.numerator} to {rate.denominator} at once")
    if rules.five_card_always_wins:
        pays.append("A five-card trick always wins")
    if rules.shoot_bets:
        pays.append("Shoot bets on the kitty")
    ties = "Ties: stake returned" if rules.ties == "push" else (
        "Ties go to the dealer" if rules.house_dealer else "Ties go to the bank")
    return {"min_stake": rules.min_stake, "max_stake": rules.max_stake, "pays": pays,
            "ties": ties}


def _rules_in_play(snapshot: Snapshot) -> Ruleset | None:
    """The ruleset the snapshot's table plays: its preset with the options it
    names (a table may override the preset's limits or payouts, and its sign
    must say so).  None, and so no sign, for a preset this build does not
    know or options it cannot read: a sign showing the wrong limits is worse
    than none."""
    if str(snapshot.get("rules")) not in PRESETS:
        return None
    options = snapshot.get("options")
    try:
        return ruleset_from_dict({"preset": snapshot.get("rules"), "options": options or {}})
    except (RulesetError, TypeError, ValueError):
        return None


def public_view(snapshot: Snapshot) -> View:
    """What the players' screen may show: only what is face up at a real table."""
    deal = snapshot.get("deal") or {}
    turn = snapshot.get("turn")
    hold = snapshot.get("hold")
    seats = []
    for seat in snapshot.get("seats") or []:
        seats.append(
            {
                "name": seat.get("name"),
                "seat": seat.get("seat"),
                "banker": bool(seat.get("banker")),
                "balance": _number(seat.get("balance")),
                "hands": [_public_hand(h) for h in seat.get("hands") or []],
            }
        )
    bank_in = snapshot.get("bank") or {}
    bank_cards, bank_up = _public_cards(bank_in.get("cards") or [])
    bank: dict[str, Any] = {"name": bank_in.get("name"), "cards": bank_cards}
    if bank_up and bank_cards:
        bank["total"] = bank_in.get("total")
    if bank_in.get("kitty") is not None:
        bank["kitty"] = _number(bank_in.get("kitty"))
    settlement = snapshot.get("settlement")
    results = None
    if settlement:
        results = {
            "net": {str(k): _number(v) for k, v in (settlement.get("net") or {}).items()},
            "transfers": transfers(snapshot),
        }
    rules = _rules_in_play(snapshot)
    last = snapshot.get("last_deal")
    last_deal = None
    if isinstance(last, Mapping):
        # a finished deal: every card was shown at its settlement, the nets were announced
        last_deal = {
            "number": last.get("number"),
            "void": bool(last.get("void")),
            "net": {str(k): _number(v) for k, v in (last.get("net") or {}).items()},
        }
    view: View = {
        "table": snapshot.get("table"),
        "rules": snapshot.get("rules"),
        "phase": snapshot.get("phase"),
        "paused": bool(snapshot.get("paused")),
        "notice": PUBLIC_HOLD_TEXT.get(str((hold or {}).get("reason")), "The table is paused.")
        if hold or snapshot.get("paused")
        else None,
        "turn": {"seat": turn.get("seat"), "hand": turn.get("hand")}
        if isinstance(turn, dict)
        else None,
        "deal": {
            "number": deal.get("number"),
            "counted": deal.get("counted"),
            "of": deal.get("of"),
            "banker": deal.get("banker"),
        },
        "seats": seats,
        "bank": bank,
        "results": results,
        "standings": [
            {"name": s.get("name"), "balance": _number(s.get("balance"))}
            for s in snapshot.get("standings") or []
        ],
        "game_over": bool(snapshot.get("game_over")),
        "winners": list(snapshot.get("winners") or []),
        "sign": table_sign(rules) if rules is not None else None,
        "last_deal": last_deal,
    }
    return view
