"""Pairing the dealer's tablet on ``/dealer`` in Debian's Chromium, at three sizes.

The display runs over a hand-run table (``test_dealer_tablet.Served``), which
has no dealer panel: the dealer's three CONFIRM presses are given to the
table's :class:`controller.tablets.Tablets` as the bridge would hand them
over (the panel path itself is tested end to end over the simulator in
``tests/dealer_display/test_pairing_e2e.py``).  The page must offer the six
digit form with no token, refuse a wrong code in words, open the dealer's
view with the right one (the session an HttpOnly cookie no script can read),
and come back to the form, saying why, when the panel unpairs the tablet.

Screenshots go to pytest's temporary directory (their paths are printed).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from axe_check import axe_violations, describe
from browser_kit import shot
from test_dealer_tablet import Served, serve

from firmware_bridge.wire import Button

pytestmark = [pytest.mark.browser, pytest.mark.slow]

sync_api = pytest.importorskip("playwright.sync_api")

SIZES = {
    "tv": {"width": 1920, "height": 1080},
    "tablet": {"width": 1024, "height": 768},
    "phone": {"width": 390, "height": 844},
}


def panel_code(served: Served) -> str:
    """CONFIRM three times on the (absent) dealer panel; the code it would show."""

    async def press() -> str:
        tablets = served.table.tablets
        for ms in (1000, 1300, 1600):
            tablets.press(Button.CONFIRM, ms, 77)
        text = tablets.panel_text()
        assert text is not None and text.startswith("Tablet code\n"), text
        return text.split("\n")[1][:6]

    return str(served.call(press))


@pytest.mark.parametrize("size", list(SIZES))
def test_a_tablet_pairs_on_the_page_and_is_sent_back_when_unpaired(
    browser: Any, tmp_path: Path, size: str
) -> None:
    served = serve("house", ["Ann", "Bob", "Cat", "Dan"], banker="Dan", seed=1)
    served.table.tablets.has_panel = True  # as if the bus had a dealer panel
    page = browser.new_page(viewport=SIZES[size])
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(f"{served.base}/dealer")  # no token, no session
        form = page.locator("#pair-form")
        sync_api.expect(form).to_be_visible()
        sync_api.expect(page.locator("#pair-title")).to_have_text("Pair this tablet with the table")
        sync_api.expect(page.locator("#main > #play")).to_be_hidden()
        sync_api.expect(page.locator("#pair-code")).to_be_focused()
        box = page.locator("#pair-code").bounding_box()
        button = page.locator("#btn-pair").bounding_box()
        assert box["height"] >= 44 and button["height"] >= 44, (box, button)  # a thumb's size
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
        problems = axe_violations(page)
        assert not problems, describe(problems)
        print(shot(page, tmp_path, f"pair-form-{size}"))

        code = panel_code(served)
        wrong = f"{(int(code) + 1) % 10**6:06d}"
        page.fill("#pair-code", wrong)
        page.click("#btn-pair")
        sync_api.expect(page.locator("#pair-error")).to_have_text(
            "That is not the code on the dealer panel."
        )
        print(shot(page, tmp_path, f"pair-wrong-{size}"))

        page.fill("#pair-code", code)
        page.keyboard.press("Enter")
        sync_api.expect(page.locator("#conn")).to_have_text("live")
        sync_api.expect(form).to_be_hidden()
        sync_api.expect(page.locator("#play")).to_be_visible()
        assert "pontoon_dealer" not in page.evaluate("document.cookie")  # HttpOnly
        page.click("#btn-pause")
        sync_api.expect(page.locator("#btn-resume")).to_be_visible()  # the session commands
        print(shot(page, tmp_path, f"paired-{size}"))

        served.call(_unpair_all(served))
        sync_api.expect(form).to_be_visible()
        sync_api.expect(page.locator("#pair-title")).to_have_text("This tablet was unpaired")
        sync_api.expect(page.locator("#pair-error")).to_contain_text("ended this tablet's session")
        print(shot(page, tmp_path, f"unpaired-{size}"))
        assert errors == []
    finally:
        page.close()
        served.stop()


def _unpair_all(served: Served) -> Any:
    async def go() -> None:
        served.table.tablets.revoke_all(by="dealer panel")
        await asyncio.sleep(0)

    return go
