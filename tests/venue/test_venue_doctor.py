"""``pontoon-table doctor`` against the simulator's devices, one fault at a time.

One ``sim-hw`` process serves a shoe and a panel bus (seats 1-2 and the dealer
panel) on ptys and a camera stream at 25 frames a second, 640x480, and writes
``table.toml``.  Each test copies that file with one part missing or wrong and
asserts that exactly the check for that part fails, for the reason a person
at the table needs to read.  The "right" devices and the wrong ones (a seat
panel where the shoe should be, a shoe of protocol 2.0) are real device cores
on real ptys (``firmware_bridge.device_runner``), never mocks of pyserial.
"""

from __future__ import annotations

import re
import socket
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from venue_simhw import SimHw

from controller.cli import main
from firmware_bridge.device import (
    DeviceCore,
    DeviceIdentity,
    RecordingHardware,
    seat_identity,
    shoe_identity,
)
from firmware_bridge.device_runner import DeviceRunner, PtyPort
from firmware_bridge.wire import PROTOCOL_MAJOR, PROTOCOL_MINOR

pytestmark = pytest.mark.slow

#: the simulator's camera sends 25 frames a second (sim-hw's default for overhead)
FPS = "10"
LINE = re.compile(r"^(ok|FAIL|unknown|skipped)\s+([^:]+): (.*)$")


@pytest.fixture(scope="module")
def sim(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SimHw]:
    hw = SimHw(tmp_path_factory.mktemp("doctor"), "--no-dealer")
    yield hw
    hw.stop()


def variant(sim: SimHw, tmp_path: Path, **changes: str) -> Path:
    """sim-hw's table.toml with ``key = value`` lines replaced (values are TOML)."""
    text = sim.config.read_text()
    text = text.replace('host = "127.0.0.1"', 'host = "0.0.0.0"')  # reachable on the LAN
    for key, value in changes.items():
        text, count = re.subn(rf"(?m)^{key} = .*$", f"{key} = {value}", text)
        assert count == 1, key
    path = tmp_path / "table.toml"
    path.write_text(text)
    return path


def doctor(capsys: pytest.CaptureFixture[str], config: Path, *extra: str
           ) -> tuple[int, dict[str, tuple[str, str]]]:
    code = main(["doctor", "--config", str(config), "--fps", FPS, "--timeout", "2", *extra])
    out = capsys.readouterr().out
    found: dict[str, tuple[str, str]] = {}
    for line in out.splitlines():
        match = LINE.match(line)
        if match:
            found[match[2]] = (match[1], match[3])
    return code, found


def failed(found: dict[str, tuple[str, str]]) -> dict[str, str]:
    return {name: detail for name, (status, detail) in found.items() if status == "FAIL"}


def test_the_simulated_table_passes_every_check(
    sim: SimHw, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, found = doctor(capsys, variant(sim, tmp_path), "--no-card")
    assert failed(found) == {}
    assert found["shoe"][0] == "ok" and "a shoe" in found["shoe"][1]
    assert f"protocol {PROTOCOL_MAJOR}.{PROTOCOL_MINOR}, firmware 1.0.0" in found["shoe"][1]
    assert found["panel 2 (Ben)"][0] == "ok" and found["dealer panel"][0] == "ok"
    assert "640x480" in found["camera"][1]
    assert found["test card"] == ("skipped", "left out (--no-card)")
    assert found["clock"][0] in ("ok", "unknown")
    assert code == 0


def test_no_card_in_front_of_the_camera_is_said(
    sim: SimHw, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Nobody holds a card under the simulated camera (the table is empty)."""
    code, found = doctor(capsys, variant(sim, tmp_path))
    assert code == 1
    assert list(failed(found)) == ["test card"]
    assert failed(found)["test card"].startswith("no card read")


def test_a_missing_port_is_named(
    sim: SimHw, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "ttyACM9"
    code, found = doctor(capsys, variant(sim, tmp_path, shoe=f'"{missing}"'), "--no-card")
    assert code == 1
    assert failed(found) == {"shoe": f"{missing} does not exist"}


def test_a_seat_panel_where_the_shoe_should_be_is_refused(
    sim: SimHw, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    panel = DeviceCore(seat_identity(3), RecordingHardware(), address=0)
    with DeviceRunner(panel, PtyPort(str(tmp_path / "port"))) as runner:
        code, found = doctor(capsys, variant(sim, tmp_path, shoe=f'"{runner.url}"'), "--no-card")
    assert code == 1
    assert list(failed(found)) == ["shoe"]
    assert failed(found)["shoe"].startswith(f"{runner.url} answers as seat panel 3, not a shoe")


def test_a_shoe_of_another_protocol_version_is_refused(
    sim: SimHw, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    identity = DeviceIdentity(shoe_identity().kind, shoe_identity().capabilities,
                              firmware=(2, 3, 1), protocol=(2, 0))
    shoe = DeviceCore(identity, RecordingHardware())
    with DeviceRunner(shoe, PtyPort(str(tmp_path / "port"))) as runner:
        code, found = doctor(capsys, variant(sim, tmp_path, shoe=f'"{runner.url}"'), "--no-card")
    assert code == 1
    assert list(failed(found)) == ["shoe"]
    assert "speaks protocol 2.0; this software speaks 1." in failed(found)["shoe"]
    assert "firmware 2.3.1" in failed(found)["shoe"]


def test_a_dead_camera_url_is_said(
    sim: SimHw, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as closed:  # a port nothing listens on
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    url = f"http://127.0.0.1:{port}/stream.mjpg"
    code, found = doctor(capsys, variant(sim, tmp_path, source=f'"{url}"'), "--no-card")
    assert code == 1
    assert list(failed(found)) == ["camera"]
    assert failed(found)["camera"].startswith(f"camera '{url}': ")


def test_a_camera_slower_or_smaller_than_needed_is_said(
    sim: SimHw, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """25 frames a second at 640x480 against 100 at 1280x720."""
    main(["doctor", "--config", str(variant(sim, tmp_path)), "--no-card", "--fps", "100",
          "--size", "1280x720", "--timeout", "2"])
    out = capsys.readouterr().out
    assert "camera: camera " in out
    assert "sends 640x480 pictures; the deck needs 1280x720" in out
    assert "frames a second; at least 100 are needed" in out


def test_a_missing_deck_profile_is_said(
    sim: SimHw, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, found = doctor(capsys, variant(sim, tmp_path, profile=f'"{tmp_path / "deck.npz"}"'),
                         "--no-card")
    assert code == 1
    assert list(failed(found)) == ["deck profile"]
    assert "deck.npz" in failed(found)["deck profile"]


def test_a_display_port_in_use_is_said(
    sim: SimHw, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as taken:
        taken.bind(("0.0.0.0", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        code, found = doctor(capsys, variant(sim, tmp_path, port=str(port)), "--no-card")
    assert code == 1
    assert failed(found) == {"display": f"port {port} is already in use on 0.0.0.0"}


def test_a_display_only_on_localhost_is_not_reachable_from_the_lan(
    sim: SimHw, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = variant(sim, tmp_path)
    config.write_text(config.read_text().replace('host = "0.0.0.0"', 'host = "127.0.0.1"'))
    code, found = doctor(capsys, config, "--no-card")
    assert code == 1
    assert list(failed(found)) == ["display"]
    assert "listens on 127.0.0.1 only" in failed(found)["display"]


def test_a_corrupt_journal_is_named(
    sim: SimHw, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = tmp_path / "bad.sqlite"
    journal.write_bytes(b"this is not a journal, just bytes " * 200)
    code, found = doctor(capsys, variant(sim, tmp_path, journal=f'"{journal}"'), "--no-card")
    assert code == 1
    assert list(failed(found)) == ["journal"]
    assert "cannot be read by SQLite" in failed(found)["journal"]


def test_an_edited_journal_row_is_named(
    sim: SimHw, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from controller.journal import Journal

    journal = tmp_path / "edited.sqlite"
    with Journal(journal) as j:
        j.start_game({"players": ["Ann", "Ben"]})
        j.note({"event": "one"})
    with sqlite3.connect(journal) as db:
        db.execute("UPDATE rows SET body = '{\"event\":\"two\"}' WHERE seq = 2")
    code, found = doctor(capsys, variant(sim, tmp_path, journal=f'"{journal}"'), "--no-card")
    assert code == 1
    assert "row 2 does not match its checksum" in failed(found)["journal"]


def test_a_full_disk_is_said(
    sim: SimHw, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """No disk here has an exabyte free: the threshold stands for a full disk."""
    code, found = doctor(capsys, variant(sim, tmp_path), "--no-card", "--min-free-mb", "1e12")
    assert code == 1
    assert list(failed(found)) == ["journal disk"]
    assert "MB are wanted" in failed(found)["journal disk"]


def test_a_broken_config_is_said_and_the_rest_skipped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "table.toml"
    config.write_text('[table]\nname = "T"\n[[seats]]\nname = "Ann"\npanel_addres = 1\n')
    code, found = doctor(capsys, config)
    assert code == 1
    assert failed(found) == {"config": "table.toml: seats needs at least 2 seats"}
    assert found["shoe"] == ("skipped", "the configuration did not load")


def test_a_card_held_under_the_camera_is_read(
    sim: SimHw, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The simulated camera (sim-hw's own deck design, whose profile sim-hw wrote)
    with the queen of hearts under it, served as a stream as sim-hw serves it."""
    from hardware_sim.camera import SimCamera
    from hardware_sim.camera_stream import CameraStream

    camera = SimCamera("builtin", seed=5, mode="overhead")
    camera.show("QH")
    stream = CameraStream(camera, port=0, fps=25).start()
    try:
        _code, found = doctor(capsys, variant(sim, tmp_path, source=f'"{stream.url}"'))
    finally:
        stream.stop()
    assert found["test card"] == ("ok", "read QH")
    assert failed(found) == {}
