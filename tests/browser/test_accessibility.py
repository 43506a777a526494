"""axe-core on every page, in the states people see: no serious or critical violation.

The pages are served in this process over a hand-run
:class:`~dealer_display.manual.ManualTable` (the dealer tablet test's
helpers) and checked in Debian's Chromium with axe-core from the npm registry
(``axe_check``): the TV (``/table``) during play and at a settlement, the
dealer's tablet during play and in a hold (a pause), and the training page
before and after its session starts.  axe-core's own rules decide (contrast
at least 4.5:1, names of controls and images, landmarks, ARIA use).
"""

from __future__ import annotations

from typing import Any

import pytest
from axe_check import axe_violations, describe
from test_dealer_tablet import TOKEN, Served, move, serve

pytestmark = [pytest.mark.browser, pytest.mark.slow]

sync_api = pytest.importorskip("playwright.sync_api")

HD = {"width": 1920, "height": 1080}
TABLET = {"width": 1024, "height": 768}


def open_page(browser: Any, served: Served, path: str, viewport: dict[str, int]) -> Any:
    page = browser.new_page(viewport=viewport)
    page.goto(f"{served.base}{path}")
    return page


def play_until(served: Served, *phases: str, limit: int = 200) -> None:
    """Scripted dealer moves (stakes at the least, everyone sticks) until one of ``phases``."""
    for _ in range(limit):
        if served.table.snapshot()["phase"] in phases:
            return
        assert move(served, None)
    raise AssertionError(f"the game never reached {phases}")


def assert_clean(page: Any, where: str) -> None:
    found = axe_violations(page)
    assert not found, f"{where}:\n{describe(found)}"


def test_the_tv_and_the_dealer_tablet(browser: Any) -> None:
    """The TV and the tablet during play, in a hold and at a settlement."""
    expect = sync_api.expect
    served = serve("house", ["Ann", "Ben", "Cat", "Dan"], "Dan", 7)
    try:
        tv = open_page(browser, served, "/table", HD)
        dealer = open_page(browser, served, f"/dealer#token={TOKEN}", TABLET)
        expect(tv.locator("#conn")).to_have_text("live")
        expect(dealer.locator("#conn")).to_have_text("live")
        play_until(served, "player_turn")
        expect(tv.locator("#seats .seat.turn")).to_have_count(1)
        expect(dealer.locator("#decisions [data-decision]").first).to_be_visible()
        assert_clean(tv, "/table in play")
        assert_clean(dealer, "/dealer in play")

        served.command("pause")
        expect(dealer.locator("#hold")).to_contain_text("Paused")
        expect(tv.locator(".notice")).to_have_text("The table is paused.")
        assert_clean(dealer, "/dealer in a hold (paused)")
        assert_clean(tv, "/table in a hold (paused)")
        served.command("resume")

        play_until(served, "settlement", "between_deals")
        expect(tv.locator("#seats .seat.win, #seats .seat.lose")).not_to_have_count(0)
        assert_clean(tv, "/table at a settlement")
        assert_clean(dealer, "/dealer at a settlement")
    finally:
        served.stop()


def test_the_training_page(browser: Any) -> None:
    """The training page before Start and with a session under way."""
    expect = sync_api.expect
    served = serve("house", ["Ann", "Ben", "Cat", "Dan"], "Dan", 7)
    try:
        page = open_page(browser, served, f"/training#token={TOKEN}", TABLET)
        expect(page.locator("#start-box")).to_be_visible()
        assert_clean(page, "/training before Start")
        page.select_option("#rules", "house")
        page.click("#btn-start")
        expect(page.locator("#play")).to_be_visible()
        assert_clean(page, "/training in a session")
    finally:
        served.stop()


def test_the_check_finds_what_it_looks_for(browser: Any) -> None:
    """The helper is not blind: a nameless button and grey-on-grey text (about
    1.4:1, far under 4.5:1) are reported as serious or critical."""
    page = browser.new_page()
    page.set_content('<html lang="en"><head><title>t</title></head><body><main>'
                     '<p style="color:#999;background:#bbb">hard to read</p>'
                     '<button></button></main></body></html>')
    found = {v["id"] for v in axe_violations(page)}
    assert {"color-contrast", "button-name"} <= found, found
    page.close()
