"""End to end in Debian's Chromium: the three pages against a running server.

A deal is played through the dealer page's own controls (Next deal, the stake
and decision buttons, the two-tap card entry, Bank stays) on a hand-run table
served by ``python -m dealer_display`` (the real rules engine behind the real
app), and after each step the dealer page, the public page and the training
page are checked for what they must (and must not) show.  ``pontoon-table
sim`` (the controller's bot table) is opened too, with its emulated panels
playing.  Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import re
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
from browser_kit import free_port, stop, wait_up

pytestmark = [pytest.mark.browser, pytest.mark.slow]

sync_api = pytest.importorskip("playwright.sync_api")

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
TOKEN = "browser-test-token"


def start(cmd: list[str], base: str) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    wait_up(base, proc)
    return proc


def manual_cmd(port: int) -> list[str]:
    return [sys.executable, "-m", "dealer_display", "--port", str(port), "--token", TOKEN,
            "--banker", "Dan", "--players", "Ann,Bob,Cat,Dan", "--seed", "3"]


def shot(page: object, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"display-{name}.png"), full_page=True)  # type: ignore[attr-defined]


def public_cards(page: object) -> list[str]:
    return page.eval_on_selector_all(  # type: ignore[attr-defined]
        "img.card", "els => els.map(e => e.dataset.card)"
    )


def tap(page: object, selector: str) -> None:
    """Click as a person would: on the page in front (a page behind is throttled)."""
    page.bring_to_front()  # type: ignore[attr-defined]
    page.click(selector)  # type: ignore[attr-defined]


def enter_card(dealer: object, code: str) -> None:
    tap(dealer, f"#entry [data-rank='{code[0]}']")
    tap(dealer, f"#entry [data-suit='{code[1]}']")


def expect_next(dealer: object, text: str) -> None:
    sync_api.expect(dealer.locator("#next")).to_contain_text(text)  # type: ignore[attr-defined]


def test_a_deal_through_the_dealer_page(browser: object) -> None:
    expect = sync_api.expect
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start(manual_cmd(port), base)
    try:
        ctx = browser.new_context(viewport={"width": 1280, "height": 900})  # type: ignore[attr-defined]
        ctx.on("dialog", lambda d: d.accept())
        dealer = ctx.new_page()
        errors: list[str] = []
        dealer.on("pageerror", lambda e: errors.append(str(e)))
        dealer.goto(f"{base}/dealer#token={TOKEN}")
        public = ctx.new_page()
        public.on("pageerror", lambda e: errors.append(str(e)))
        public.goto(f"{base}/table")
        expect(dealer.locator("#conn")).to_have_text("live")
        expect(public.locator("#conn")).to_have_text("live")
        assert "token" not in dealer.url, "the token must leave the address bar"
        expect_next(dealer, "then press NEXT for deal 1")
        shot(dealer, "dealer-0-ready")

        tap(dealer, "#btn-next-deal")
        expect_next(dealer, "Deal a face-down card to Seat 1 (Ann), hand 1")
        for code, who in [("TC", "Bob"), ("9D", "Cat"), ("5S", "the bank"), ("TH", None)]:
            enter_card(dealer, code)
            if who:
                expect_next(dealer, who)
        expect_next(dealer, "Stakes")
        # The dealer sees Ann's face-down ten; the players' screen shows only a back.
        expect(dealer.locator("[data-seat='Ann'] img.card")).to_have_attribute("data-card", "TC")
        expect(public.locator("[data-seat='Ann'] img.card")).to_have_attribute("data-card", "back")
        assert set(public_cards(public)) == {"back"}
        shot(public, "table-1-first-cards")

        for seat in ("Ann", "Bob", "Cat"):
            tap(dealer, f"#decisions [data-seat='{seat}'] [data-decision='stake']")
            expect(public.locator(f"[data-seat='{seat}']")).to_contain_text("Stake 1")
        for code in ("8H", "7S", "6D", "7H"):
            enter_card(dealer, code)
        expect_next(dealer, "Ann, hand 1: stick, twist, buy")
        expect(public.locator("#turn")).to_have_text("Ann's turn")
        shot(dealer, "dealer-2-ann-to-play")

        tap(dealer, "#decisions [data-decision='stick']")  # Ann 18
        expect(public.locator("#turn")).to_have_text("Bob's turn")
        tap(dealer, "#decisions [data-decision='stick']")  # Bob 16
        expect(public.locator("#turn")).to_have_text("Cat's turn")
        tap(dealer, "#decisions [data-decision='twist']")  # Cat 11 twists: face up
        expect_next(dealer, "Deal a face-up card to Seat 3 (Cat)")
        enter_card(dealer, "KS")
        expect(public.locator("[data-seat='Cat'] img.card[data-card='KS']")).to_be_visible()
        expect_next(dealer, "The bank (Dan)")
        # The bank's turn: its two cards are turned up; the players' stay down.
        assert sorted(public_cards(public)) == ["7H", "KS", "TH"] + ["back"] * 6
        expect(dealer.locator("#btn-stay")).to_be_visible()
        shot(public, "table-3-cat-twisted")

        tap(dealer, "#btn-stay")  # the bank stays on 17
        expect(dealer.locator("#payouts")).to_contain_text("Pay Seat 1 (Ann): 1")
        expect(dealer.locator("#payouts")).to_contain_text("Collect from Seat 2 (Bob): 1")
        expect(dealer.locator("#payouts")).to_contain_text("Pay Seat 3 (Cat): 1")
        expect(dealer.locator("#payouts")).to_contain_text("The bank (Dan) loses 1")
        expect(public.locator("#turn")).to_have_text("Deal 1 settled — next: deal 2")
        expect(public.locator("[data-seat='Ann'] .net-pos")).to_have_text("+1")
        expect(public.locator("[data-seat='Bob'] .net-neg")).to_have_text("−1")
        expect(public.locator("#standings")).to_contain_text("Dan -1 units")
        # Settled: every live hand is laid open to be compared (RULES.md §2.7):
        # Ann TC 8H, Bob 9D 7S, Cat 5S 6D KS, the bank TH 7H; no back is left.
        assert sorted(public_cards(public)) == sorted(
            ["TC", "8H", "9D", "7S", "5S", "6D", "KS", "TH", "7H"])
        shot(dealer, "dealer-4-settled")
        shot(public, "table-4-settled")

        # A refusal is told to the dealer in words.
        tap(dealer, "#btn-pause")
        expect(dealer.locator("#hold")).to_contain_text("Paused")
        expect(public.locator(".notice")).to_have_text("The table is paused.")
        tap(dealer, "#btn-resume")
        expect(public.locator(".notice")).to_have_count(0)

        # The server goes away: both pages say so, then recover by themselves.
        stop(proc)
        expect(public.locator("#conn")).to_have_text("Reconnecting…", timeout=10_000)
        expect(dealer.locator("#conn")).to_have_text("Reconnecting…")
        shot(public, "table-5-reconnecting")
        proc = start(manual_cmd(port), base)
        expect(public.locator("#conn")).to_have_text("live", timeout=20_000)
        expect(dealer.locator("#conn")).to_have_text("live", timeout=20_000)
        assert not errors, errors
        ctx.close()
    finally:
        stop(proc)


def test_training_page_scores_and_reports(browser: object) -> None:
    expect = sync_api.expect
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start(manual_cmd(port), base)
    try:
        page = browser.new_page(viewport={"width": 1280, "height": 900})  # type: ignore[attr-defined]
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{base}/training#token={TOKEN}")
        page.select_option("#rules", "house")
        tap(page, "#btn-start")
        expect(page.locator("#play")).to_be_visible()
        # House rules, Dan banks: the first card goes face down to Ann.
        tap(page, "[data-deal='Ann'][data-face='down']")
        expect(page.locator("#feedback .correct")).to_have_count(2)
        tap(page, "[data-deal='Ann'][data-face='down']")  # Bob's card, given to Ann
        expect(page.locator("#feedback .mistake")).to_contain_text("Dealt to the wrong seat")
        expect(page.locator("#feedback .mistake")).to_contain_text("The card goes to Bob")
        tap(page, "[data-deal='Cat'][data-face='up']")  # right seat, wrong face
        latest = page.locator("#feedback .mistake").first
        expect(latest).to_contain_text("face up instead of face down")
        expect(page.locator("#score")).to_contain_text("2 mistakes")
        shot(page, "training-1-mistakes")
        tap(page, "#btn-end")
        expect(page.locator("#report")).to_be_visible()
        expect(page.locator("#report [data-kind='wrong_seat']")).to_contain_text("1")
        expect(page.locator("#report [data-kind='wrong_face']")).to_contain_text("1")
        href = page.get_attribute("#report a", "href")
        assert href and href.endswith("format=csv")
        with urllib.request.urlopen(base + href) as r:
            csv_text = r.read().decode()
        assert re.search(r"wrong_seat,Dealt to the wrong seat", csv_text)
        shot(page, "training-2-report")
        assert not errors, errors
    finally:
        stop(proc)


def test_the_simulated_table_plays_live(browser: object) -> None:
    expect = sync_api.expect
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start([sys.executable, "-m", "controller.cli", "sim", "--port", str(port), "--token",
                  TOKEN, "--pace", "0.05", "--seed", "2"], base)
    try:
        ctx = browser.new_context(viewport={"width": 1280, "height": 900})  # type: ignore[attr-defined]
        dealer = ctx.new_page()
        dealer.goto(f"{base}/dealer#token={TOKEN}")
        public = ctx.new_page()
        public.goto(f"{base}/table")
        expect(dealer.locator("#conn")).to_have_text("live")
        expect(public.locator("#conn")).to_have_text("live")
        expect(public.locator("img.card").first).to_be_visible(timeout=30_000)
        seen_versions = set()
        for _ in range(20):
            snap = dealer.evaluate("() => document.body.dataset.version")
            seen_versions.add(snap)
            # Every name on the public page is face up in the dealer's view (the two
            # pages get the same change a moment apart, so look again before failing).
            for _attempt in range(10):
                pub = {c for c in public_cards(public) if c != "back"}
                up = set(dealer.eval_on_selector_all(
                    "img.card.up", "els => els.map(e => e.dataset.card)"))
                if pub <= up:
                    break
                public.wait_for_timeout(100)
            assert pub <= up, (pub, up)
            public.wait_for_timeout(250)
        assert len(seen_versions) > 2, "the simulated table did not move"
        shot(dealer, "sim-dealer")
        shot(public, "sim-table")
        ctx.close()
    finally:
        stop(proc)
