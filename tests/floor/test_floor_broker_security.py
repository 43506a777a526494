"""The files init-broker writes, run by a real Mosquitto: passwords, ACL, TLS.

Expected results are the MQTT 5 specification's reason codes (0x87 "Not
authorized" in a PUBACK, 0x86/0x87 in a CONNACK) and the ACL the issue asks
for: a table writes only under its own id, the floor only reads journals.
"""

from __future__ import annotations

import socket
import ssl
import threading
import time
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from broker_kit import BrokerKit, Listener, TcpProxy
from paho.mqtt.enums import CallbackAPIVersion

from controller.config import FloorConfig
from controller.journal import Journal
from floor.broker_setup import make_certificates, password_line
from floor.messages import decode_entry, decode_status, topic
from floor.publisher import FloorPublisher


class Probe:
    """A paho client that records CONNACK and PUBACK reason codes."""

    def __init__(self, port: int, user: str, password: str, tls_ca: Path | None = None) -> None:
        self.connack: object = None
        self.pubacks: dict[int, object] = {}
        self.done = threading.Condition()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
        self.client.username_pw_set(user, password)
        if tls_ca is not None:
            self.client.tls_set_context(ssl.create_default_context(cafile=str(tls_ca)))
        self.client.on_connect = self._on_connect
        self.client.on_publish = self._on_publish
        self.client.connect_async("localhost" if tls_ca else "127.0.0.1", port)
        self.client.loop_start()

    def _on_connect(self, _c: object, _u: object, _f: object, reason: object, _p: object) -> None:
        with self.done:
            self.connack = reason
            self.done.notify_all()

    def _on_publish(self, _c: object, _u: object, mid: int, reason: object, _p: object) -> None:
        with self.done:
            self.pubacks[mid] = reason
            self.done.notify_all()

    def wait_connack(self) -> object:
        with self.done:
            assert self.done.wait_for(lambda: self.connack is not None, 10)
        return self.connack

    def publish(self, name: str, payload: bytes) -> object:
        info = self.client.publish(name, payload, qos=1)
        with self.done:
            assert self.done.wait_for(lambda: info.mid in self.pubacks, 10)
            return self.pubacks[info.mid]

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def test_password_line_matches_the_mosquitto_format() -> None:
    """Reference: a line `mosquitto_passwd -U` wrote for user u, password 'secret'."""
    reference = (
        "u:$7$101$YAs+nb8b9hpGxx/t$Y1P+02TaWLFuUbxKYVyWoC9CUJwBCqBqu9hm+iNbKi2JxHY7+q1tLvpl5bIW"
        "wadDFLyyYRQlBGdlmHukEfZdrg=="
    )
    import base64

    salt = base64.b64decode("YAs+nb8b9hpGxx/t")
    assert password_line("u", "secret", salt=salt) == reference


def test_a_table_cannot_publish_as_another_table(broker: BrokerKit) -> None:
    listener = Listener(broker.plain_port, broker.floor, ["pontoon/v1/tables/+/journal"])
    assert listener.subscribed.wait(10)
    probe = Probe(broker.plain_port, "table-2", broker.table("table-2").password)
    try:
        assert not probe.wait_connack().is_failure  # type: ignore[attr-defined]
        forged = b'{"v":1,"forged":true}'
        refused = probe.publish(topic("table-1", "journal"), forged)
        assert refused.value == 0x87  # type: ignore[attr-defined]  # Not authorized
        own = probe.publish(topic("table-2", "journal"), b'{"v":1,"own":true}')
        assert not own.is_failure  # type: ignore[attr-defined]
        # the floor got table-2's own message and never the forged one
        assert listener.wait_for(lambda m: len(m) >= 1, 10)
        # (one connection's messages are routed in order: a forged one would be first)
        assert [t for t, _ in listener.messages] == [topic("table-2", "journal")]
        # nor may a table write a resend request, nor the floor write a journal
        assert probe.publish(topic("table-2", "resend"), b"{}").value == 0x87  # type: ignore[attr-defined]
    finally:
        probe.close()
        listener.close()
    floor = Probe(broker.plain_port, "floor", broker.floor.password)
    try:
        assert floor.wait_connack() is not None
        assert floor.publish(topic("table-1", "journal"), b"{}").value == 0x87  # type: ignore[attr-defined]
    finally:
        floor.close()


def test_wrong_password_and_unknown_user_are_refused(broker: BrokerKit) -> None:
    for user, password in (("table-1", "wrong"), ("nobody", "x"), ("table-1", "")):
        probe = Probe(broker.plain_port, user, password)
        try:
            reason = probe.wait_connack()
            assert reason.is_failure, (user, reason)  # type: ignore[attr-defined]
        finally:
            probe.close()


def test_the_publisher_logs_a_refused_row_and_keeps_it(broker: BrokerKit, tmp_path: Path) -> None:
    """table-2's account configured with table_id table-1: the broker refuses each row."""
    path = tmp_path / "t.sqlite"
    journal = Journal(path, durable=False)
    journal.start_game({"players": ["A", "B"]})
    config = FloorConfig(broker.url, "table-1", "table-2", broker.table("table-2").password)
    publisher = FloorPublisher(config, path)
    publisher.start()
    try:
        end = time.monotonic() + 15
        while publisher.stats.refused == 0 and time.monotonic() < end:
            time.sleep(0.02)  # polling the publisher's counter
        assert publisher.stats.refused >= 1
        assert "not authorized" in publisher.stats.last_problem.lower()
        assert "'table-2' may publish as 'table-1'" in publisher.stats.last_problem
        assert publisher.acked == 0
    finally:
        publisher.stop()
        journal.close()
    assert not (tmp_path / "t.sqlite.floor.json").exists()


def test_tls_with_the_generated_ca_delivers(broker: BrokerKit, tmp_path: Path) -> None:
    listener = Listener(broker.plain_port, broker.floor, [topic("table-1", "journal")])
    assert listener.subscribed.wait(10)
    path = tmp_path / "t.sqlite"
    journal = Journal(path, durable=False)
    journal.start_game({"players": ["A", "B"]})
    journal.append({"action": "x"})
    config = FloorConfig(
        broker.tls_url, "table-1", "table-1", broker.table("table-1").password, broker.files.ca
    )
    publisher = FloorPublisher(config, path)
    publisher.start()
    try:
        assert listener.wait_for(lambda m: len(m) >= 2, 20)
        assert [decode_entry("table-1", p).seq for _, p in listener.messages] == [1, 2]
    finally:
        publisher.stop()
        journal.close()
        listener.close()


def test_tls_with_another_ca_is_refused(broker: BrokerKit, tmp_path: Path) -> None:
    other = tmp_path / "other"
    other.mkdir()
    wrong_ca, _, _ = make_certificates(other, "localhost")
    context = ssl.create_default_context(cafile=str(wrong_ca))
    with (
        socket.create_connection(("127.0.0.1", broker.tls_port), timeout=5) as raw,
        pytest.raises(ssl.SSLCertVerificationError),
    ):
        context.wrap_socket(raw, server_hostname="localhost")
    right = ssl.create_default_context(cafile=str(broker.files.ca))
    with (
        socket.create_connection(("127.0.0.1", broker.tls_port), timeout=5) as raw,
        right.wrap_socket(raw, server_hostname="localhost") as tls,
    ):
        assert tls.version() in ("TLSv1.2", "TLSv1.3")
    # the publisher with the wrong CA never connects and says why
    path = tmp_path / "t.sqlite"
    Journal(path, durable=False).close()
    config = FloorConfig(broker.tls_url, "table-1", "table-1", broker.table("table-1").password,
                         wrong_ca)  # fmt: skip
    publisher = FloorPublisher(config, path)
    publisher.start()
    try:
        end = time.monotonic() + 10
        while "cannot reach the broker" not in publisher.stats.last_problem:
            assert time.monotonic() < end, publisher.stats.last_problem
            time.sleep(0.02)  # polling the publisher's words
        assert not publisher.connected
    finally:
        publisher.stop()


def test_status_is_retained_in_plain_words_and_the_will_says_offline(
    broker: BrokerKit, tmp_path: Path
) -> None:
    path = tmp_path / "t.sqlite"
    journal = Journal(path, durable=False)
    journal.start_game({"players": ["A", "B"]})
    publisher = FloorPublisher(
        FloorConfig(broker.url, "table-1", "table-1", broker.table("table-1").password), path
    )
    snapshot = {
        "phase": "dealing",
        "hold": {"reason": "unsure_card", "message": "Unsure card: confirm it", "choices": []},
        "alarms": [{"id": 1, "kind": "link", "message": "Seat 2's panel is not answering"}],
        "deal": {"number": 3},
        "links": {"shoe": {"up": True, "reboots": 0, "drops": 1}, "panels": {"up": False,
                  "reboots": 0, "drops": 4, "reason": "no answer"}},
    }  # fmt: skip
    publisher.on_snapshot(snapshot)
    publisher.start()
    try:
        assert _until(lambda: publisher.stats.statuses >= 1)
    finally:
        publisher.stop()
        journal.close()
    # a floor that starts late still sees the last status: retained, here "offline" after stop
    listener = Listener(broker.plain_port, broker.floor, [topic("table-1", "status")])
    try:
        assert listener.wait_for(lambda m: len(m) >= 1, 10)
        assert decode_status("table-1", listener.messages[-1][1]).online is False
    finally:
        listener.close()
    # and while it ran, the status carried the table's words
    proxy = TcpProxy(broker.plain_port)
    second = FloorPublisher(
        FloorConfig(proxy.url, "table-1", "table-1", broker.table("table-1").password), path
    )
    listener = Listener(broker.plain_port, broker.floor, [topic("table-1", "status")])
    assert listener.subscribed.wait(10)
    second.on_snapshot(snapshot)
    second.start()
    try:
        assert listener.wait_for(
            lambda m: any(decode_status("table-1", p).online for _, p in m), 10
        )
        status = next(
            s for s in (decode_status("table-1", p) for _, p in listener.messages) if s.online
        )
        assert status.phase == "dealing" and status.deal == 3 and status.last_seq == 1
        assert status.holds == ("Unsure card: confirm it",)
        assert status.alarms == ("Seat 2's panel is not answering",)
        assert status.devices == {
            "shoe": {"up": True, "drops": 1},
            "panels": {"up": False, "drops": 4, "reason": "no answer"},
        }
        # the cable is pulled: the broker sees the connection go and publishes the will
        proxy.cut()
        assert listener.wait_for(lambda m: not decode_status("table-1", m[-1][1]).online, 40)
    finally:
        second.stop(timeout=0.5)
        proxy.close()
        listener.close()


def _until(condition: object, timeout: float = 10) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():  # type: ignore[operator]
            return True
        time.sleep(0.02)  # polling another thread's counters
    return False
