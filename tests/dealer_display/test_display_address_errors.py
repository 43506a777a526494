"""The dealer's printed address (with its QR code) and plain validation refusals."""

from __future__ import annotations

import io
import re

import cv2
import numpy as np
import pytest
from fastapi.testclient import TestClient

from dealer_display import address
from dealer_display.address import dealer_address, print_dealer_address, qr_text

AUTH = {"Authorization": "Bearer test-dealer-token"}
#: raw JSON or pydantic's vocabulary in a message
RAW = re.compile(r"[\[\]{}]|\bloc\b|string_too_long|json_invalid")


def _scan(drawing: str) -> str:
    """Read a QR code drawn with block characters back as a camera would.

    Each character is two modules, top and bottom: a full block is light-light,
    a space dark-dark, an upper half block light over dark, a lower half the
    reverse (light modules drawn in the foreground colour, for a dark terminal).
    The picture is scaled up and decoded by OpenCV's QR detector, a reader
    independent of the library that drew it.
    """
    top = {"█": 255, " ": 0, "▀": 255, "▄": 0}
    bottom = {"█": 255, " ": 0, "▀": 0, "▄": 255}
    lines = drawing.splitlines()
    width = max(len(line) for line in lines)
    rows: list[list[int]] = []
    for line in lines:
        line = line.ljust(width, "█")
        rows.append([top[c] for c in line])
        rows.append([bottom[c] for c in line])
    picture = np.kron(np.array(rows, dtype=np.uint8), np.ones((8, 8), dtype=np.uint8))
    picture = np.pad(picture, 40, constant_values=255)
    text, _, _ = cv2.QRCodeDetector().detectAndDecode(picture)
    return str(text)


def test_the_dealer_address_carries_the_token_in_its_fragment() -> None:
    """Expected addresses written by hand; '/' and ' ' %-escaped so the fragment stays one value."""
    assert dealer_address("http://127.0.0.1:8000/", "s3cret") == (
        "http://127.0.0.1:8000/dealer#token=s3cret"
    )
    assert dealer_address("http://127.0.0.1:8000", "a b/c") == (
        "http://127.0.0.1:8000/dealer#token=a%20b%2Fc"
    )


def test_a_wildcard_bind_prints_an_address_a_tablet_can_open(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(address, "lan_address", lambda: "192.168.1.20")
    assert dealer_address("http://0.0.0.0:8000/", "t") == "http://192.168.1.20:8000/dealer#token=t"
    assert dealer_address("http://[::]:9000/", "t") == "http://192.168.1.20:9000/dealer#token=t"


def test_the_qr_code_scans_to_the_dealer_address() -> None:
    url = "http://192.168.1.20:8000/dealer#token=Zx-9_abcDEF123456"
    assert _scan(qr_text(url)) == url


def test_the_qr_code_is_printed_on_a_terminal_or_when_asked() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    piped = io.StringIO()
    printed = print_dealer_address("http://127.0.0.1:8000/", "tok", out=piped)
    assert printed == "http://127.0.0.1:8000/dealer#token=tok"
    assert piped.getvalue() == f"dealer display: {printed}\n"  # a log file gets one line

    for out, qr in ((Terminal(), None), (io.StringIO(), True)):
        print_dealer_address("http://127.0.0.1:8000/", "tok", qr=qr, out=out)
        first, _, drawing = out.getvalue().partition("\n")
        assert first == f"dealer display: {printed}"
        assert _scan(drawing.partition("\n")[2]) == printed

    quiet = Terminal()
    print_dealer_address("http://127.0.0.1:8000/", "tok", qr=False, out=quiet)
    assert quiet.getvalue().count("\n") == 1


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/confirm-card", {"code": "nullD"}),  # what the old card picker sent
        ("/api/confirm-card", {}),
        ("/api/confirm-card", None),
        ("/api/decide", {"seat": "Ann", "decision": "stake", "amount": -3}),
        ("/api/training", {"players": "Ann"}),
    ],
)
def test_a_malformed_request_gets_one_plain_sentence(
    client: TestClient, path: str, body: object
) -> None:
    r = client.post(path, json=body, headers=AUTH)
    assert r.status_code == 422
    assert r.json()["ok"] is False  # the shape of every refused command
    detail = r.json()["message"]
    assert isinstance(detail, str) and detail.endswith(".") and detail.count(". ") == 0, detail
    assert not RAW.search(detail), detail


def test_malformed_json_gets_one_plain_sentence(client: TestClient) -> None:
    r = client.post("/api/confirm-card", content=b"{bad",
                    headers={**AUTH, "content-type": "application/json"})
    assert r.status_code == 422
    assert r.json()["ok"] is False
    detail = r.json()["message"]
    assert "JSON" in detail and detail.endswith(".") and not RAW.search(detail), detail
