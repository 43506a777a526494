"""Why each hand of a settled deal was paid what it was, told by the engine.

A training screen explains a payout ("stake 3 x 2 for a five-card trick"):
the words come from here, from the same judgement that booked the money
(:func:`~controller.rules.settle.judge`), so no screen re-implements a rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .actions import Amount
from .money import units
from .settle import judge
from .state import State, Step


@dataclass(frozen=True, slots=True)
class HandOutcome:
    """How the engine settled one hand of a finished deal, so a screen can say why.

    ``multiple`` is what the stake was multiplied by (2: paid double, -1: the
    stake lost, 0: returned); ``why`` names the deciding rule: ``bust``,
    ``bank_bust``, ``bank_pontoon`` (the bank's pontoon takes double),
    ``bank_five_card`` (the bank's five-card trick takes double),
    ``beats_bank_five_card`` (only a pontoon beats it), ``five_card_always``
    (a five-card trick wins whatever the bank holds), ``higher``, ``lower``,
    ``tie`` (the bank wins it), ``push`` (the stake is returned),
    ``even_money`` or ``three_of_a_kind`` (paid during the deal).  ``kind`` is
    the hand's standing: ``pontoon``, ``five_card`` or ``total``.  ``net`` is
    the hand's whole net: its stake, its shoot and, on hand 1, the insurance.
    """

    player: str
    hand: int
    kind: str
    total: int
    stake: Amount
    shoot: Amount
    multiple: Fraction
    why: str
    insurance: Amount
    insurance_net: Amount
    net: Amount


def outcomes(s: State) -> list[HandOutcome]:
    """Each hand of the deal just settled, with the rule that settled it.

    Empty while a deal is in play and for a voided deal: only a settled deal
    has outcomes.
    """
    d = s.deal
    if d is None or d.step != Step.DONE or (s.results and s.results[-1]["void"]):
        return []
    out = []
    for si, hands in enumerate(d.hands):
        ins = d.insurance[si]
        ins_net = (2 * ins if d.bank.pontoon else -ins) if ins else 0
        for hi, h in enumerate(hands):
            multiple: Fraction | int
            if h.bust:
                multiple, why = -1, "bust"
            elif h.paid:
                if h.pontoon:
                    multiple, why = 1, "even_money"
                else:
                    multiple, why = s.rules.three_of_a_kind_pays or 0, "three_of_a_kind"
            else:
                multiple, why = judge(s, d, h)
            kind = "pontoon" if h.pontoon else "five_card" if h.five else "total"
            first = hi == 0
            out.append(
                HandOutcome(
                    player=d.seats[si],
                    hand=hi + 1,
                    kind=kind,
                    total=h.total,
                    stake=units(h.stake),
                    shoot=units(h.shoot),
                    multiple=Fraction(multiple),
                    why=why,
                    insurance=units(ins) if first else 0,
                    insurance_net=units(ins_net) if first else 0,
                    net=units(h.net),
                )
            )
    return out
