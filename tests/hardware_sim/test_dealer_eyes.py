"""The simulated dealer's eyes against a real HTTP server standing in for the display."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar

import pytest

from hardware_sim.dealer_eyes import DealerEyes, dealt_cards
from hardware_sim.world import PackSource, World

HOLD = {
    "hold": {"reason": "unsure_card", "message": "confirm the card"},
    "seats": [{"hands": [{"cards": [{"code": "AS", "face_up": False}]}]},
              {"hands": [{"cards": [{"code": "7H", "face_up": False}]}, {"cards": []}]}],
    "bank": {"cards": [{"code": "QC", "face_up": False}]},
}


class _Display(BaseHTTPRequestHandler):
    #: what the confirm answers: (status, body)
    confirm: ClassVar[tuple[int, dict[str, Any]]] = (200, {"ok": True, "message": "KD dealt"})
    posted: ClassVar[list[dict[str, Any]]] = []

    def _send(self, status: int, body: object) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:
        self._send(200, HOLD)

    def do_POST(self) -> None:
        length = int(self.headers["Content-Length"])
        _Display.posted.append(json.loads(self.rfile.read(length)))
        self._send(*_Display.confirm)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def display() -> Iterator[str]:
    _Display.posted = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Display)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_an_unsure_hold_is_confirmed_with_the_card_under_the_camera(display: str) -> None:
    _Display.confirm = (200, {"ok": True, "message": "KD dealt"})
    seen: list[list[str]] = []
    eyes = DealerEyes(display, "token", lambda dealt: seen.append(dealt) or "KD")
    assert eyes.look() == "KD"
    assert _Display.posted == [{"code": "KD"}] and eyes.confirmed == ["KD"]
    assert seen == [["AS", "7H", "QC"]]  # the hands' and the bank's cards, as HOLD shows them


def test_a_refused_confirmation_keeps_the_displays_reason(display: str) -> None:
    # a failed end-to-end run once reported only "confirm KD refused: 409"
    _Display.confirm = (409, {"ok": False, "message": "KD is not in the shoe: look again"})
    eyes = DealerEyes(display, "token", lambda dealt: "KD")
    assert eyes.look() is None and eyes.confirmed == []
    assert eyes.last_problem == "confirm KD refused: 409 (KD is not in the shoe: look again)"


def test_the_card_asked_about_is_the_oldest_one_the_table_has_not_dealt() -> None:
    # Two cards left the shoe while the controller was down (QH, then KD, the
    # one under the camera now); the table, having dealt AS, asks about QH first.
    world = World(source=PackSource(1, seed=2))
    for code in ("AS", "QH", "KD"):
        world.took_out(code)
    assert world.under_camera == "KD"
    assert world.unaccounted(["AS"]) == "QH"
    assert world.unaccounted(["AS", "QH"]) == "KD"
    # every card pulled is on the display: the card under the camera, as before
    assert world.unaccounted(["AS", "QH", "KD"]) == "KD"
    # a card returned to the shoe and pulled again counts once per pull
    world.took_out("QH")
    assert world.unaccounted(["AS", "QH", "KD"]) == "QH"
    world.collect(shuffle=False)
    assert world.pulled == [] and world.unaccounted([]) is None


def test_dealt_cards_reads_an_empty_table() -> None:
    assert dealt_cards({"seats": [], "bank": None}) == []
    assert dealt_cards({}) == []
