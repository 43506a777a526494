"""The TV at the table (``/table``) in Debian's Chromium, at 1920x1080 and 1280x720.

The display is served in this process over a hand-run
:class:`~dealer_display.manual.ManualTable` (the real rules engine, app and
page; the server helpers are the dealer tablet test's).  Scripted dealers play
whole games: 8 seats with a house dealer, 7 seats and a player bank, the shoot
preset with its kitty (one seat twisting low cards into five-card hands), and
random games of every legal move (which split hands).  At sampled moments the
TV is measured as a viewer sees it:

- nothing scrolls (``scrollHeight <= innerHeight``, the same for the width);
- the bank, every seat and every card lie inside the viewport;
- the turn line is never blank, and names the seat whose turn the public
  view says it is;
- the stakes phase says "place your stakes"; the table sign shows the
  preset's stake limits (written here from RULES.md's presets by hand: house
  1 to 5, traditional and shoot 1 to 10, casino 1 to 100).

Screenshots go to pytest's temporary directory (their paths are printed).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from test_dealer_tablet import Served, move, serve

from dealer_display.autoplay import step

pytestmark = [pytest.mark.browser, pytest.mark.slow]

sync_api = pytest.importorskip("playwright.sync_api")

SIZES = {"hd": {"width": 1920, "height": 1080}, "720p": {"width": 1280, "height": 720}}
#: stake limits per preset, from the rules' preset tables (RULES.md), by hand
LIMITS = {"house": "1 to 5", "traditional": "1 to 10", "shoot": "1 to 10", "casino": "1 to 100"}

GAMES = [
    # (rules, players, banker, seed, the seat twisting low cards (None: random moves), moves)
    ("casino", [f"P{i}" for i in range(1, 9)], None, 5, "P3", 90),
    ("traditional", ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"], "Hal", 4, "Cat", 75),
    ("shoot", ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"], "Fay", 2, "Cat", 70),
    ("house", ["Ann", "Ben", "Cat", "Dan", "Eve"], "Eve", 14, None, 60),  # splits by move 21
]


def open_tv(browser: Any, served: Served, size: str) -> Any:
    page = browser.new_page(viewport=SIZES[size])
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(f"{served.base}/table")
    sync_api.expect(page.locator("#conn")).to_have_text("live")
    return page


def public_caught_up(page: Any, served: Served) -> None:
    """Wait until the TV has drawn the public channel's latest view."""

    async def settled() -> int:
        return int(served.app.state.hub["public"].version)

    version = served.call(settled)
    page.wait_for_function("v => Number(document.body.dataset.version) >= v", arg=version)


def measure(page: Any) -> dict[str, Any]:
    return page.evaluate(
        """() => {
          const de = document.documentElement;
          const inView = (e) => { const r = e.getBoundingClientRect();
            return r.width > 0 && r.top >= 0 && r.left >= 0
              && r.bottom <= innerHeight + 0.5 && r.right <= innerWidth + 0.5; };
          const seats = Array.from(document.querySelectorAll('#seats .seat'));
          const turn = document.querySelector('#seats .seat.turn');
          return { sh: de.scrollHeight, sw: de.scrollWidth, h: innerHeight, w: innerWidth,
                   seats: seats.map((e) => e.dataset.seat),
                   seatsOut: seats.filter((e) => !inView(e)).map((e) => e.dataset.seat),
                   bankIn: inView(document.getElementById('bank')),
                   cardsOut: Array.from(document.querySelectorAll('img.card'))
                     .filter((e) => !inView(e)).length,
                   turnLine: document.getElementById('turn').textContent.trim(),
                   turnInView: inView(document.getElementById('turn')),
                   turnSeat: turn ? turn.dataset.seat : null,
                   bankTurn: document.getElementById('bank').classList.contains('turn'),
                   limits: document.querySelector('#sign .limits')?.textContent || '',
                   fiveCards: document.querySelectorAll(
                     '#seats .cards:has(> :nth-child(5))').length,
                   splits: Array.from(document.querySelectorAll('#seats .seat'))
                     .filter((e) => e.querySelectorAll('.hand').length > 1).length,
                   settled: document.querySelectorAll('#seats .seat.win, #seats .seat.lose').length,
                   scale: document.body.dataset.scale };
        }"""
    )


def shot(page: Any, tmp_path: Path, name: str) -> None:
    path = tmp_path / f"tv-{name}.png"
    page.screenshot(path=str(path))
    print(f"screenshot: {path}")


@pytest.mark.parametrize("size", list(SIZES))
def test_the_whole_table_fits_the_tv(browser: Any, size: str, tmp_path: Path) -> None:
    """Every sampled moment of four games fits one screen: no scrolling, the bank,
    all seats and all cards in view, a turn line that is never blank and matches
    the public view's turn; the stakes phase and the sign's limits are shown."""
    five_seen = split_seen = stakes_seen = False
    for rules, players, banker, seed, twister, moves in GAMES:
        served = serve(rules, players, banker, seed)
        rng = random.Random(seed)
        try:
            page = open_tv(browser, served, size)
            shots: set[str] = set()
            for n in range(moves):
                if twister is None:
                    table = served.table
                    if not served.call(lambda t=table, r=rng: step(t, r)):
                        break
                elif not move(served, twister):
                    break
                if n % 3:
                    continue
                public_caught_up(page, served)
                m = measure(page)
                view = served.app.state.hub["public"].view
                where = f"{rules} {size} move {n}: {m}"
                assert m["sh"] <= m["h"] and m["sw"] <= m["w"], where
                want = [s["name"] for s in view["seats"] if not s["banker"]]
                assert m["seats"] == want, where
                assert not m["seatsOut"] and m["bankIn"] and not m["cardsOut"], where
                assert m["turnLine"] and m["turnInView"], where
                assert LIMITS[rules] in m["limits"], where
                turn = view["turn"]
                if turn and view["phase"] not in ("stakes", "shoot_bets"):
                    assert m["turnLine"].startswith(f"{turn['seat']}'s turn"), where
                    if turn["seat"] == view["deal"]["banker"]:
                        assert m["bankTurn"], where
                    else:
                        assert m["turnSeat"] == turn["seat"], where
                if view["phase"] == "stakes":
                    assert "Place your stakes" in m["turnLine"], where
                    stakes_seen = True
                    if "stakes" not in shots:
                        shots.add("stakes")
                        shot(page, tmp_path, f"{size}-{rules}-{len(players)}p-stakes")
                for what, seen in (("five", m["fiveCards"]), ("split", m["splits"]),
                                   ("settled", m["settled"])):
                    if seen and what not in shots:
                        shots.add(what)
                        shot(page, tmp_path, f"{size}-{rules}-{len(players)}p-{what}")
                five_seen = five_seen or m["fiveCards"] > 0
                split_seen = split_seen or m["splits"] > 0
                if n in (30, 60):
                    shot(page, tmp_path, f"{size}-{rules}-{len(players)}p-move{n}")
            assert not page.errors, page.errors
            page.close()
        finally:
            served.stop()
    assert five_seen, "no five-card hand was ever shown"
    assert stakes_seen, "the stakes phase was never sampled"
    assert split_seen, "no split hand was ever shown"
