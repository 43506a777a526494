"""The table's state machines: what the table waits for next.

Two layers, each a ``transitions`` machine:

* the **phase machine** follows the game: setup, cut, first card round, stakes,
  second card round, the banker's pontoon check, the players' turns, the
  banker's or dealer's turn, settlement, between deals, game over (plus kitty and
  shoot bets for ``shoot``, insurance for ``ponton``, and void deal).  The rules
  engine is the only judge of where the game is: after every action the table
  computes the phase from the engine's ``pending`` (:func:`phase_of`) and calls
  :meth:`TableMachine.sync`, which moves along a *declared* transition or raises
  :class:`PhaseError`.  The declared graph is thus both the exported diagram
  and a check that the engine never surprises the table.
* the **hold layer** overlays faults on any phase: a link down, a jammed gate,
  card events the shoe lost, a misdeal, an unsure card waiting for the dealer,
  the dealer's own pause.  Several can be
  active at once (a cable pulled while the dealer checks a card); the layer's
  state is the most serious one, and the table runs only when none is left.

Both diagrams are exported with transitions' mermaid engine into
``docs/table-states.md`` (``python -m controller.machine > docs/table-states.md``);
a test fails when the committed file is stale.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Any

from transitions import Machine
from transitions.extensions import GraphMachine

# -- the phase machine --------------------------------------------------------------

PHASES: tuple[str, ...] = (
    "setup",
    "cut",
    "kitty",
    "first_card",
    "stakes",
    "shoot_bets",
    "second_card",
    "bank_pontoon_check",
    "insurance",
    "player_turn",
    "banker_turn",
    "dealer_turn",
    "settlement",
    "between_deals",
    "void_deal",
    "game_over",
)

#: phases in which cards of a deal are on the table (a void deal is possible)
DEALING = frozenset(
    {
        "first_card",
        "stakes",
        "shoot_bets",
        "second_card",
        "bank_pontoon_check",
        "insurance",
        "player_turn",
        "banker_turn",
        "dealer_turn",
    }
)

#: (trigger, source, dest): every move of the game the table accepts
PHASE_TRANSITIONS: tuple[tuple[str, str | list[str], str], ...] = (
    ("start_cut", "setup", "cut"),
    ("ready", "setup", "between_deals"),
    ("ask_kitty", "setup", "kitty"),
    ("cut_card", "cut", "cut"),
    ("cut_done", "cut", "between_deals"),
    ("ask_kitty", "cut", "kitty"),
    ("put_kitty", "kitty", "between_deals"),
    ("deal_card", "first_card", "first_card"),
    ("ask_stakes", "first_card", "stakes"),
    ("round_done", "first_card", "second_card"),
    ("place_stake", "stakes", "stakes"),
    ("ask_shoots", "stakes", "shoot_bets"),
    ("stakes_done", "stakes", "second_card"),
    ("deal_first", "stakes", "first_card"),
    ("place_shoot", "shoot_bets", "shoot_bets"),
    ("shoots_done", "shoot_bets", "second_card"),
    ("deal_card", "second_card", "second_card"),
    ("round_done", "second_card", "bank_pontoon_check"),
    ("bank_pontoon", "bank_pontoon_check", "settlement"),
    ("offer_insurance", "bank_pontoon_check", "insurance"),
    ("players_play", "bank_pontoon_check", "player_turn"),
    ("banker_plays", "bank_pontoon_check", "banker_turn"),
    ("dealer_plays", "bank_pontoon_check", "dealer_turn"),
    ("decide", "insurance", "insurance"),
    ("players_play", "insurance", "player_turn"),
    ("dealer_plays", "insurance", "dealer_turn"),
    ("insurance_done", "insurance", "settlement"),
    ("decide", "player_turn", "player_turn"),
    ("offer_insurance", "player_turn", "insurance"),
    ("banker_plays", "player_turn", "banker_turn"),
    ("dealer_plays", "player_turn", "dealer_turn"),
    ("all_settled", "player_turn", "settlement"),
    ("bank_decide", "banker_turn", "banker_turn"),
    ("bank_done", "banker_turn", "settlement"),
    ("dealer_draw", "dealer_turn", "dealer_turn"),
    ("dealer_done", "dealer_turn", "settlement"),
    ("payouts_done", ["settlement", "void_deal"], "between_deals"),
    ("kitty_due", ["settlement", "void_deal"], "kitty"),
    ("game_ends", "settlement", "game_over"),
    ("start_deal", "between_deals", "first_card"),
    ("ask_bets", "between_deals", "stakes"),
    ("sell_bank", "between_deals", "between_deals"),
    ("bank_sold", "between_deals", "kitty"),
    ("add_kitty", "between_deals", "between_deals"),
    ("void", sorted(DEALING), "void_deal"),
    ("new_game", [p for p in PHASES if p != "setup"], "setup"),
)

# -- the hold layer -----------------------------------------------------------------

#: most serious first: the hold shown is the first active one in this order
HOLDS: tuple[str, ...] = (
    "link_down",
    "gate_jammed",
    "events_lost",
    "shoe_rebooted",
    "pack_loaded",
    "misdeal",
    "unsure_card",
    "dealer",
)
HOLD_STATES: tuple[str, ...] = ("running", *HOLDS)


class PhaseError(RuntimeError):
    """The engine moved the game somewhere the table's diagram does not allow."""


class _Model:
    """Plain attribute holder that ``transitions`` decorates with ``state`` and triggers."""

    state: str


def _phase_machine(model: object, graph: bool) -> Machine:
    cls = GraphMachine if graph else Machine
    kwargs: dict[str, Any] = {"graph_engine": "mermaid", "title": "Table phases"} if graph else {}
    return cls(
        model=model,
        states=list(PHASES),
        transitions=[
            {"trigger": t, "source": s, "dest": d} for t, s, d in PHASE_TRANSITIONS
        ],
        initial="setup",
        auto_transitions=False,
        ignore_invalid_triggers=False,
        **kwargs,
    )


def _hold_machine(model: object, graph: bool) -> Machine:
    cls = GraphMachine if graph else Machine
    kwargs: dict[str, Any] = {"graph_engine": "mermaid", "title": "Holds (faults and pauses)"}
    transitions: list[dict[str, Any]] = []
    for hold in HOLDS:
        transitions.append({"trigger": f"hold_{hold}", "source": "*", "dest": hold})
    transitions.append({"trigger": "release", "source": list(HOLDS), "dest": "running"})
    return cls(
        model=model,
        states=list(HOLD_STATES),
        transitions=transitions,
        initial="running",
        auto_transitions=False,
        **(kwargs if graph else {}),
    )


@dataclass
class Hold:
    """One active reason the table cannot go on, with what the dealer can do."""

    reason: str
    message: str
    choices: list[dict[str, str]] = field(default_factory=list)


class TableMachine:
    """The phase machine plus the hold layer, as one object the table asks."""

    def __init__(self) -> None:
        self._phase = _Model()
        self._hold = _Model()
        self._phase_machine = _phase_machine(self._phase, graph=False)
        self._hold_machine = _hold_machine(self._hold, graph=False)
        self._routes: dict[tuple[str, str], str] = {}
        for trigger, sources, dest in PHASE_TRANSITIONS:
            for source in [sources] if isinstance(sources, str) else sources:
                self._routes[(source, dest)] = trigger
        self.holds: dict[str, Hold] = {}

    # -- phases ------------------------------------------------------------------

    @property
    def phase(self) -> str:
        return self._phase.state

    def sync(self, phase: str) -> list[str]:
        """Move to ``phase`` (computed from the engine) along declared transitions.

        Returns the triggers fired (empty when the phase did not change, or for
        a self-transition that needs no announcement).  A phase that cannot be
        reached is a bug, raised as PhaseError rather than papered over.
        """
        if phase not in PHASES:
            raise PhaseError(f"unknown phase {phase!r}")
        fired: list[str] = []
        current = self.phase
        if current == phase:
            return fired
        path = [phase]
        if current == "second_card" and phase != "bank_pontoon_check":
            path = ["bank_pontoon_check", phase]
        for step in path:
            trigger = self._routes.get((self.phase, step))
            if trigger is None:
                raise PhaseError(f"the table cannot go from {self.phase} to {step}")
            self._phase.trigger(trigger)  # type: ignore[attr-defined]
            fired.append(trigger)
        return fired

    def reset(self, phase: str = "setup") -> None:
        """Jump straight to ``phase``: used once, after rebuilding from the journal."""
        if phase not in PHASES:
            raise PhaseError(f"unknown phase {phase!r}")
        self._phase_machine.set_state(phase)

    # -- holds -------------------------------------------------------------------

    @property
    def hold_state(self) -> str:
        return self._hold.state

    @property
    def running(self) -> bool:
        return not self.holds

    def hold(self, reason: str, message: str, choices: list[dict[str, str]] | None = None) -> None:
        """Add (or update) a reason to hold the table."""
        if reason not in HOLDS:
            raise ValueError(f"unknown hold {reason!r}")
        self.holds[reason] = Hold(reason, message, list(choices or []))
        self._show_top()

    def release(self, reason: str) -> bool:
        """Clear a reason; returns True when the table runs again."""
        self.holds.pop(reason, None)
        self._show_top()
        return self.running

    def top_hold(self) -> Hold | None:
        for reason in HOLDS:
            if reason in self.holds:
                return self.holds[reason]
        return None

    def _show_top(self) -> None:
        top = self.top_hold()
        wanted = "running" if top is None else top.reason
        if self.hold_state == wanted:
            return
        if top is None:
            self._hold.trigger("release")  # type: ignore[attr-defined]
        else:
            self._hold.trigger(f"hold_{top.reason}")  # type: ignore[attr-defined]


def diagram() -> str:
    """The Markdown of ``docs/table-states.md``: both machines as mermaid diagrams."""
    phase_model, hold_model = _Model(), _Model()
    phases = _phase_machine(phase_model, graph=True)
    holds = _hold_machine(hold_model, graph=True)
    del phases, holds
    parts = [
        "# Table states",
        "",
        "Generated by `python -m controller.machine > docs/table-states.md` from",
        "`controller/machine.py`; a test fails when this file is stale.",
        "",
        "The phase follows the rules engine's `pending`; the hold layer overlays",
        "faults and pauses on any phase (the table runs only in `running`).",
        "",
        "## Phases",
        "",
        "```mermaid",
        str(phase_model.get_graph().draw(None)).rstrip(),  # type: ignore[attr-defined]
        "```",
        "",
        "## Holds",
        "",
        "```mermaid",
        str(hold_model.get_graph().draw(None)).rstrip(),  # type: ignore[attr-defined]
        "```",
        "",
    ]
    return "\n".join(parts)


if __name__ == "__main__":
    sys.stdout.write(diagram())
