"""The bot table of ``pontoon-table sim``: its simulated dealer answers a shoe
reboot mid-deal, so the bots' game goes on (emulated devices over real ptys,
the simulated camera read by the recogniser)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from controller.publish import TableSnapshot
from controller.rules import CardNeed
from hardware_sim.table.bot_table import bot_table, cards_shown

pytestmark = pytest.mark.timeout(120)


async def until(condition: Callable[[], bool], what: str, timeout: float) -> None:
    """Wait for ``condition`` rather than sleep a guess."""
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, f"{what}: not within {timeout:g} s"
        await asyncio.sleep(0.01)


def test_cards_shown_counts_every_hand_and_the_bank() -> None:
    """By hand: 2 + 1 cards in Ann's two hands, none in Ben's, 2 in the bank."""
    snap: dict[str, Any] = {
        "seats": [{"hands": [{"cards": [{}, {}]}, {"cards": [{}]}]}, {"hands": []}],
        "bank": {"cards": [{}, {}]},
    }
    assert cards_shown(snap) == 5
    assert cards_shown({"seats": [], "bank": None}) == 0


@pytest.mark.slow
def test_the_simulated_dealer_answers_a_shoe_reboot_and_the_bots_play_on(tmp_path: Path) -> None:
    """docs/protocol.md section 5.3: a shoe reboot mid-deal is an alarm the
    dealer answers, and the table holds until then.  The rig reboots the shoe
    while a card is due and nothing is unacknowledged, so the cards on the
    table are those the display shows: the simulated dealer answers
    "continue", no deal is voided, and the bots' game (about 60 cards, a few
    seconds at pace 0) goes on to its end.  (Before, nobody answered: the bot
    table held for ever.)"""

    async def main() -> None:
        async with bot_table(
            ("Ann", "Ben", "Cat"),
            "house",
            seed=4,
            pace=0,
            journal_path=str(tmp_path / "bots.sqlite"),
        ) as (table, rig):
            core = table.core
            alarms: list[str] = []

            def seen(snapshot: TableSnapshot) -> None:
                alarms.extend(a["kind"] for a in snapshot["alarms"] if a["kind"] not in alarms)

            table.add_listener(seen)

            def card_due() -> bool:  # mid-deal, and the deal cannot end without a card
                return (
                    core.state.phase == "deal"
                    and core.cards_out_seen >= 2
                    and isinstance(core.need(), CardNeed)
                )

            while True:
                await until(card_due, "a card due in a deal", 30)
                if await asyncio.to_thread(rig.reboot, "shoe", lossy=False) and card_due():
                    break  # else the shoe had a frame unacknowledged: the next card
            await until(lambda: core.counters["reboots"] == 1, "the reboot reported", 10)
            await until(lambda: core.phase() == "game_over", "the game's end", 60)
            assert alarms == ["reboot"]  # raised, and answered: the game went on
            assert not any(r.get("void") for r in core.state.results), core.state.results

    asyncio.run(main())
