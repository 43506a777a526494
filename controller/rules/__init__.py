"""The rules engine: every rule of Pontoon, pure and deterministic.

No I/O, no clocks, no global random state.  The engine is event driven: the
table asks :func:`pending` what it waits for, then :func:`apply` an action (a
card that left the shoe, a stake, a decision...).  :func:`legal_actions` lists
exactly what :func:`apply` accepts, so panels light only those buttons.
``apply`` updates the state in place (and returns it) for speed; an illegal
action raises :class:`IllegalAction` and changes nothing.  ``GameState.copy()``
or ``to_json``/``from_json`` give independent copies.
"""

from .actions import (
    Action,
    Amount,
    BankDecide,
    BankNeed,
    BetweenDeals,
    CardNeed,
    DealCard,
    Decide,
    DecisionNeed,
    GameOver,
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
)
from .cards import CARDS, Card
from .game import GameState, check_players, new_game
from .hands import hand_total, is_bust, is_five_card_trick, is_pontoon, is_soft
from .outcomes import HandOutcome
from .pack import Pack, PackError
from .pending import legal_actions, pending
from .play import apply
from .ruleset import (
    PRESETS,
    Ruleset,
    RulesetError,
    load_ruleset,
    ruleset_from_dict,
    ruleset_to_dict,
)
from .state import Phase, Step
from .views import CardView, HandView

__all__ = [
    "CARDS",
    "PRESETS",
    "Action",
    "Amount",
    "BankDecide",
    "BankNeed",
    "BetweenDeals",
    "Card",
    "CardNeed",
    "CardView",
    "DealCard",
    "Decide",
    "DecisionNeed",
    "GameOver",
    "GameState",
    "HandOutcome",
    "HandView",
    "IllegalAction",
    "KittyNeed",
    "LegalAction",
    "Need",
    "Pack",
    "PackError",
    "Phase",
    "PlaceShoot",
    "PlaceStake",
    "PutKitty",
    "Ruleset",
    "RulesetError",
    "SellBank",
    "ShootNeed",
    "StackTop",
    "StakeNeed",
    "StartDeal",
    "Step",
    "VoidDeal",
    "action_from_dict",
    "action_to_dict",
    "apply",
    "check_players",
    "hand_total",
    "is_bust",
    "is_five_card_trick",
    "is_pontoon",
    "is_soft",
    "legal_actions",
    "load_ruleset",
    "new_game",
    "pending",
    "ruleset_from_dict",
    "ruleset_to_dict",
]
