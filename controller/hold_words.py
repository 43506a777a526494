"""The words of the table's holds: the dealer's choices and which card a hold
is about.  Kept apart from the core so every hold speaks alike."""

from __future__ import annotations

from controller.rules import CardNeed


def whose_card(need: CardNeed) -> str:
    """The card the dealer must look at, named by where it was going: with
    several face-down cards out of the shoe, "the card" alone says too little."""
    if need.purpose == "cut":
        return f"the cut card for {need.recipient}"
    if need.to_bank:
        return f"the bank's card ({need.recipient})"
    return f"{need.recipient}'s card for hand {need.hand}"


def choice(id_: str, label: str) -> dict[str, str]:
    """One button of a hold: ``id_`` goes back to the core, ``label`` to the dealer."""
    return {"id": id_, "label": label}


def void_choice() -> dict[str, str]:
    return choice("void", "Void the deal")
