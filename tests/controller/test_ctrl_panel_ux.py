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
    assert refused.action is None and refused.refusal == "Stake 1: min"
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


# -- the decision dial: one word at a time, each with its own range -----------------

def _buy_and_shoot() -> tuple[object, list[LegalAction]]:
    from controller.rules import DecisionNeed

    need = DecisionNeed("Ann", 1, ("twist", "buy", "shoot", "stick"))
    legal = [
        LegalAction(Decide, player="Ann", word="twist"),
        LegalAction(Decide, player="Ann", word="stick"),
        LegalAction(Decide, player="Ann", word="buy", minimum=2, maximum=4),
        LegalAction(Decide, player="Ann", word="shoot", minimum=1, maximum=9),
    ]
    return need, legal


def test_the_dial_belongs_to_buy_and_says_so() -> None:
    ux = PanelUx()
    need, legal = _buy_and_shoot()
    view = ux.seat_view("Ann", need, legal, banker="Dan")  # type: ignore[arg-type]
    assert view.text.endswith("Buy 2? BUY")
    for button in (Button.BUY, Button.SHOOT, Button.STAKE_UP, Button.STAKE_DOWN):
        assert view.lights & button_light(button)
    ux.press("Ann", Button.STAKE_UP, need, legal, banker="Dan")  # type: ignore[arg-type]
    press = ux.press("Ann", Button.BUY, need, legal, banker="Dan")  # type: ignore[arg-type]
    assert press.action == Decide("Ann", "buy", 3)


def test_a_shoot_above_the_buy_maximum_is_dialled_after_shoot_moves_the_dial() -> None:
    ux = PanelUx()
    need, legal = _buy_and_shoot()
    ux.press("Ann", Button.STAKE_UP, need, legal, banker="Dan")  # type: ignore[arg-type]
    first = ux.press("Ann", Button.SHOOT, need, legal, banker="Dan")  # type: ignore[arg-type]
    assert first.action is None and first.changed  # the dial moved; nothing placed
    view = ux.seat_view("Ann", need, legal, banker="Dan")  # type: ignore[arg-type]
    assert view.text.endswith("Shoot 1? SHOOT")  # the shoot's own range, from its least
    for _ in range(6):
        assert ux.press("Ann", Button.STAKE_UP, need, legal, banker="Dan").changed  # type: ignore[arg-type]
    assert ux.seat_view("Ann", need, legal, banker="Dan").text.endswith("Shoot 7? SHOOT")  # type: ignore[arg-type]
    press = ux.press("Ann", Button.SHOOT, need, legal, banker="Dan")  # type: ignore[arg-type]
    assert press.action == Decide("Ann", "shoot", 7)  # 7 > the buy maximum of 4


def test_buy_moves_the_dial_back_and_a_recorded_action_resets_it() -> None:
    ux = PanelUx()
    need, legal = _buy_and_shoot()
    ux.press("Ann", Button.SHOOT, need, legal, banker="Dan")  # type: ignore[arg-type]
    back = ux.press("Ann", Button.BUY, need, legal, banker="Dan")  # type: ignore[arg-type]
    assert back.action is None and back.changed
    assert ux.seat_view("Ann", need, legal, banker="Dan").text.endswith("Buy 2? BUY")  # type: ignore[arg-type]
    ux.press("Ann", Button.SHOOT, need, legal, banker="Dan")  # type: ignore[arg-type]
    ux.confirmed(Decide("Ann", "twist"))
    assert ux.seat_view("Ann", need, legal, banker="Dan").text.endswith("Buy 2? BUY")  # type: ignore[arg-type]


def test_plan_and_presses_for_follow_the_dial() -> None:
    ux = PanelUx()
    need, legal = _buy_and_shoot()
    shoot7 = Decide("Ann", "shoot", 7)
    assert presses_for(shoot7, 2, "buy") == [Button.SHOOT]  # first move the dial
    plan = ux.plan("Ann", shoot7, need, legal, banker="Dan")  # type: ignore[arg-type]
    assert plan == [Button.SHOOT] + [Button.STAKE_UP] * 6 + [Button.SHOOT]
    for button in plan:  # the plan, pressed, makes exactly the action
        press = ux.press("Ann", button, need, legal, banker="Dan")  # type: ignore[arg-type]
    assert press.action == shoot7
    buy4 = Decide("Ann", "buy", 4)
    up2 = [Button.STAKE_UP, Button.STAKE_UP]
    # the dial still shows the shoot: BUY moves it back, then from the buy's least
    assert ux.plan("Ann", buy4, need, legal, banker="Dan") == [Button.BUY, *up2, Button.BUY]  # type: ignore[arg-type]
    ux.confirmed(shoot7)
    assert ux.plan("Ann", buy4, need, legal, banker="Dan") == [*up2, Button.BUY]  # type: ignore[arg-type]


def test_shoot_alone_uses_the_dial_directly() -> None:
    from controller.rules import DecisionNeed

    ux = PanelUx()
    need = DecisionNeed("Ann", 1, ("shoot", "stick"))
    legal = [
        LegalAction(Decide, player="Ann", word="stick"),
        LegalAction(Decide, player="Ann", word="shoot", minimum=1, maximum=9),
    ]
    assert ux.seat_view("Ann", need, legal, banker="Dan").text.endswith("Shoot 1? SHOOT")
    ux.press("Ann", Button.STAKE_UP, need, legal, banker="Dan")
    assert ux.press("Ann", Button.SHOOT, need, legal, banker="Dan").action == Decide(
        "Ann", "shoot", 2
    )


def test_a_kitty_put_between_deals_shows_on_the_panel() -> None:
    """After PutKitty the banker's panel starts again at 0: the press visibly took."""
    from controller.rules import BetweenDeals, PutKitty, StartDeal

    ux = PanelUx()
    need = BetweenDeals("Dan", 2, False, True)
    legal = [LegalAction(StartDeal), LegalAction(PutKitty, minimum=1, maximum=None)]
    assert ux.seat_view("Dan", need, legal, banker="Dan").text.endswith("Kitty 0? CONFIRM")
    for _ in range(3):
        ux.press("Dan", Button.STAKE_UP, need, legal, banker="Dan")
    press = ux.press("Dan", Button.CONFIRM, need, legal, banker="Dan")
    assert press.action == PutKitty(3)
    ux.confirmed(PutKitty(3))
    assert ux.seat_view("Dan", need, legal, banker="Dan").text.endswith("Kitty 0? CONFIRM")
