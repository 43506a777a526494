"""What the display shows of the hands: frozen views built from the state.

The views carry every card with whether it is face up; whoever shows them to
the public redacts the face-down ones (``dealer_display`` does).
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Amount, BankNeed, DecisionNeed
from .cards import CARDS, Card
from .hands import Hand
from .money import units
from .pending import pending
from .state import State


@dataclass(frozen=True, slots=True)
class CardView:
    card: Card
    face_up: bool


@dataclass(frozen=True, slots=True)
class HandView:
    """What the display shows of one hand; redact ``cards`` where not ``face_up``."""

    player: str
    hand: int
    cards: tuple[CardView, ...]
    total: int
    soft: bool
    stake: Amount
    shoot: Amount
    net: Amount
    done: bool
    bust: bool
    pontoon: bool
    five_card_trick: bool
    in_turn: bool


def turn(s: State) -> tuple[str, int] | None:
    """Whose hand is being played (player, hand number; 0 for the bank), or None."""
    need = pending(s)
    if isinstance(need, DecisionNeed):
        return need.player, need.hand
    if isinstance(need, BankNeed):
        return need.banker, 0
    return None


def _cards(h: Hand) -> tuple[CardView, ...]:
    return tuple(CardView(CARDS[c], u) for c, u in zip(h.cards, h.up, strict=True))


def hand_views(s: State) -> list[HandView]:
    """Every player hand of the deal in play order (none between games)."""
    d = s.deal
    if d is None:
        return []
    now = turn(s)
    out = []
    for si, hands in enumerate(d.hands):
        for hi, h in enumerate(hands):
            out.append(
                HandView(
                    player=d.seats[si],
                    hand=hi + 1,
                    cards=_cards(h),
                    total=h.total,
                    soft=h.soft,
                    stake=units(h.stake),
                    shoot=units(h.shoot),
                    net=units(h.net),
                    done=h.done,
                    bust=h.bust,
                    pontoon=h.pontoon,
                    five_card_trick=h.five,
                    in_turn=now == (d.seats[si], hi + 1),
                )
            )
    return out


def bank_view(s: State) -> HandView | None:
    """The banker's or dealer's hand (hand 0), or None before the first deal."""
    d = s.deal
    if d is None:
        return None
    b = d.bank
    return HandView(
        player=d.banker,
        hand=0,
        cards=_cards(b),
        total=b.total,
        soft=b.soft,
        stake=0,
        shoot=0,
        net=0,
        done=b.done,
        bust=b.bust,
        pontoon=b.pontoon,
        five_card_trick=b.five,
        in_turn=isinstance(pending(s), BankNeed),
    )
