"""Panel UX: amounts move within the engine's range; presses_for reaches the wanted action."""

from __future__ import annotations

from controller.panel_ux import PanelUx, presses_for
from controller.rules import Decide, LegalAction, PlaceStake, StakeNeed
from firmware_bridge.wire import Button, button_light

NEED = StakeNeed("Ann", 1, 5, ("Ann", "Bob"))
LEGAL = [
    LegalAction(PlaceStake, player="Ann", minimum=1, maximum=5),
    LegalAction(PlaceStake, player="Bob", minimum=1, maximum=5),
]


def test_stake_is_chosen_with_up_down_and_confirmed() -> None:
    ux = PanelUx()
    view = ux.seat_view("Ann", NEED, LEGAL, banker="Dan")
    assert view.text.endswith("Stake 1? CONFIRM")
    for button in (Button.STAKE_UP, Button.STAKE_UP, Button.CONFIRM):
        assert view.lights & button_light(button)
    assert not view.lights & button_light(Button.TWIST)
    for _ in range(2):
        assert ux.press("Ann", Button.STAKE_UP, NEED, LEGAL, banker="Dan").changed
    press = ux.press("Ann", Button.CONFIRM, NEED, LEGAL, banker="Dan")
    assert press.action == PlaceStake("Ann", 3)


def test_amount_stops_at_the_limits_with_a_reason() -> None:
    ux = PanelUx()
    refused = ux.press("Ann", Button.STAKE_DOWN, NEED, LEGAL, banker="Dan")
    assert refused.action is None and refused.refusal == "1 is the least allowed"
    for _ in range(10):
        ux.press("Ann", Button.STAKE_UP, NEED, LEGAL, banker="Dan")
    assert ux.press("Ann", Button.CONFIRM, NEED, LEGAL, banker="Dan").action == PlaceStake("Ann", 5)


def test_presses_for_walks_from_the_shown_amount() -> None:
    up = Button.STAKE_UP
    assert presses_for(PlaceStake("Ann", 3), 1) == [up, up, Button.CONFIRM]
    assert presses_for(Decide("Ann", "buy", 2), 4) == [Button.STAKE_DOWN] * 2 + [Button.BUY]
    assert presses_for(Decide("Ann", "twist"), None) == [Button.TWIST]


def test_a_player_not_asked_is_told_to_wait() -> None:
    ux = PanelUx()
    from controller.rules import DecisionNeed

    need = DecisionNeed("Bob", 1, ("twist", "stick"))
    legal = [LegalAction(Decide, player="Bob", word="twist")]
    press = ux.press("Ann", Button.TWIST, need, legal, banker="Dan")
    assert press.action is None and press.refusal == "Wait: Bob's turn"
    press = ux.press("Bob", Button.STICK, need, legal, banker="Dan")
    assert press.refusal == "No stick: TWIST/STICK"
