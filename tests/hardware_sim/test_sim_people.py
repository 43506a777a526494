"""What simulated people read off panels, the dealer's mistakes, and the clock."""

from __future__ import annotations

import asyncio
import time
from fractions import Fraction

import pytest

from hardware_sim.clock import Clock, ManualClock
from hardware_sim.people import Bot, DealerMistakes, shown_amount, shown_total
from hardware_sim.rig import SimRig
from hardware_sim.world import PackSource, ScriptedSource, World


def test_panel_text_is_read_as_a_person_reads_it() -> None:
    assert shown_amount("Ann\nStake 2? CONFIRM") == ("stake", 2)
    assert shown_amount("Ann H1 9\nBuy 3") == ("buy", 3)
    assert shown_amount("Dan\nKitty 1.5? CONFIRM")[1] * 2 == 3  # type: ignore[index]
    assert shown_amount("Ann\nYour turn") is None
    assert shown_total("Ann H2 18\nYour turn") == 18
    assert shown_total("Ann\nStake 2? CONFIRM") is None


def test_bot_strategies_follow_the_lamps() -> None:
    from firmware_bridge.wire import Button as B

    with SimRig({"Ann": 1}, camera=None) as rig:
        lit = frozenset({B.TWIST, B.STICK, B.BUY})
        s16 = Bot(rig, "Ann", "stick16")
        assert s16.choose(lit, "Ann H1 16\nYour turn") == [B.STICK]
        assert s16.choose(lit, "Ann H1 15\nYour turn") == [B.TWIST]
        assert Bot(rig, "Ann", "stick17").choose(lit, "Ann H1 16\nYour turn") == [B.TWIST]
        assert Bot(rig, "Ann", "buy11").choose(lit, "Ann H1 11\nBuy 1") == [B.BUY]
        # after a twist only TWIST/STICK are lit: a low hand twists, never buys
        assert Bot(rig, "Ann", "buy11").choose(frozenset({B.TWIST, B.STICK}), "Ann H1 9") == [
            B.TWIST
        ]
        stake = frozenset({B.STAKE_UP, B.STAKE_DOWN, B.CONFIRM})
        assert s16.choose(stake, "Ann\nStake 1? CONFIRM") == [B.CONFIRM]
        shoot = frozenset({B.STAKE_UP, B.STAKE_DOWN, B.CONFIRM, B.SHOOT})
        assert s16.choose(shoot, "Ann\nShoot 0? CONFIRM") == [B.CONFIRM]
        # between deals the banker's kitty dial shows 0: CONFIRM alone would be
        # refused, so a bot either leaves it or tops it up by a step
        kitty = frozenset({B.STAKE_UP, B.STAKE_DOWN, B.CONFIRM})
        picks = {tuple(Bot(rig, "Ann", "stick16", seed=n).choose(kitty, "Ann\nKitty 0? CONFIRM"))
                 for n in range(40)}
        assert picks == {(), (B.STAKE_UP, B.CONFIRM)}
        assert s16.choose(kitty, "Ann\nKitty 2? CONFIRM") == [B.CONFIRM]
        rnd = Bot(rig, "Ann", "random", seed=1)
        assert all(rnd.choose(lit, "x")[0] in lit for _ in range(20))
        assert s16.choose(frozenset(), "Ann") == []
        with pytest.raises(ValueError, match="unknown bot strategy"):
            Bot(rig, "Ann", "card-counter")


def test_an_impatient_dealer_is_refused_by_the_gate_or_forces_it() -> None:
    with SimRig({"Ann": 1}, camera=None, cards=ScriptedSource(["AS", "2C", "3D"])) as rig:
        dealer = rig.start_dealer(
            mistakes=DealerMistakes(draw_while_locked=1.0, force_gate=0.5), pace=0.0
        )
        deadline = time.monotonic() + 5
        while rig.report()["gate_forced"] < 1 and time.monotonic() < deadline:
            rig.panels.seat("Ann")  # the rig's loop does the work; just wait
            time.sleep(0.01)
        report = rig.report()
    assert report["gate_forced"] >= 1 and report["pulls_refused"] >= 1
    assert dealer.stats["forced"] >= 1 and dealer.stats["refused_by_gate"] >= 1
    with pytest.raises(ValueError, match="unknown dealer mistake"):
        DealerMistakes.parse("fumble=1")


def test_wrong_seat_mistakes_are_recorded_in_the_world() -> None:
    world = World(source=PackSource(1, seed=2))
    world.place("AS", seat="Ben", wanted_seat="Ann")
    world.place("KD", seat="Ann", wanted_seat="Ann")
    assert world.mistakes["wrong_seat"] == 1
    assert world.cards_at("Ann") == ["KD"]
    before = world.shoe.remaining()
    assert world.collect(shuffle=False) == ["AS", "KD"]
    assert world.shoe.remaining() == before + 2 and world.on_table == []


@pytest.mark.timing  # 0.3 s of real time held to under 1.5 s: run alone (docs/testing.md)
def test_clock_modes() -> None:
    fast = Clock.fast()
    assert fast.is_fast and fast.human(3.0) == 0.0
    real = Clock.realtime(speed=2.0)
    assert real.human(3.0) == 1.5
    # Real time is the point of a real-time clock: 3 s of human time at speed 10
    # is 0.3 s on the wall (never less; a loaded machine may add a little, far
    # from the unscaled 3 s).
    t = time.monotonic()
    asyncio.run(Clock.realtime(speed=10).pause(3.0))
    assert 0.3 <= time.monotonic() - t < 1.5
    manual = ManualClock(5.0)
    manual.advance(1.5)
    assert manual.now() == 6.5
    with pytest.raises(ValueError):
        Clock.from_mode("slow")
    with pytest.raises(ValueError):
        manual.advance(-1)


def test_a_refusal_over_the_amount_is_cleared_with_a_step_the_table_allows() -> None:
    """A refusal at the dial's limit keeps the amount readable ("Buy 4: min"),
    so an overshooting step costs nothing; a message with no amount is cleared
    by alternating steps, one of which the table allows."""
    from firmware_bridge.wire import Button as B
    from hardware_sim.people import _reveal_step

    up, down = B.STAKE_UP, B.STAKE_DOWN
    assert shown_amount("Dan H1 9\nBuy 4: min") == ("buy", 4)
    assert shown_amount("Dan\nStake 12.5: max") == ("stake", Fraction(25, 2))
    assert _reveal_step("Dan\nWait: Ann's turn", 3, [up]) == down
    assert _reveal_step("Dan\nWait: Ann's turn", 3, [down]) == up


def test_the_dealer_does_not_gather_under_a_next_lamp_left_from_before_a_pull() -> None:
    """Text and lamps reach a panel as separate commands: after NEXT the table
    starts the deal and opens the gate, the dealer pulls the first card, and
    the dealer panel's new text can arrive while NEXT is still lit.  Gathering
    then would put the card just pulled back into the shoe."""
    from firmware_bridge.wire import Button, button_light
    from hardware_sim.people import SimDealer

    with SimRig({"Ann": 1}, camera=None) as rig:
        dealer = SimDealer(rig)
        panel = rig.panels.dealer
        assert panel is not None

        def deal_over() -> None:
            panel.listeners.append(dealer._dealer_panel_changed)
            panel.set_lights(button_light(Button.NEXT))
            rig.world.place("AS", seat="Ann")

        rig.call(deal_over)
        assert rig.call(dealer._between_deals)  # the deal is over: gather

        def next_deal_under_way() -> None:
            dealer.pulled += 1  # the first card of the next deal, before the lamp went out
            panel.set_text("Card down to\nAnn H1")

        rig.call(next_deal_under_way)
        assert not rig.call(dealer._between_deals)
        rig.call(lambda: panel.set_lights(0))
        assert not rig.call(dealer._between_deals)
        rig.call(lambda: panel.set_lights(button_light(Button.NEXT)))  # the next deal is over
        assert rig.call(dealer._between_deals)
