"""The floor's subscriber against a real Mosquitto (the init-broker files, ACL on).

Expected rows come from the table's journal read with plain SQLite, or from
the rows the test wrote (floor_rows.py, hashed from the documented formula);
expected standings from the scenario's hand-written expected result.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import shutil
import threading
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from broker_kit import BrokerKit
from floor_rows import (
    chain,
    digest,
    expected_result,
    forged,
    journal_rows,
    sim_journal,
    small_game,
)
from pg_kit import fresh_database, pg_server

from controller.config import FloorConfig
from floor.ingest import Floor
from floor.messages import JournalEntry, encode_entry, topic
from floor.publisher import FloorPublisher
from floor.service import FloorService, FloorSettings
from floor.store import open_store

__all__ = ["pg_server", "sim_journal"]  # fixtures
_names = itertools.count()


class Table:
    """A table's broker account publishing by hand (QoS 1, waits for the PUBACK)."""

    def __init__(self, broker: BrokerKit, user: str = "table-1") -> None:
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"hand-{user}")
        self.client.username_pw_set(user, broker.table(user).password)
        self.resends: list[bytes] = []
        self.client.on_message = lambda _c, _u, m: self.resends.append(bytes(m.payload))
        subscribed = threading.Event()
        self.client.on_subscribe = lambda *_: subscribed.set()
        self.client.connect("127.0.0.1", broker.plain_port)
        self.client.loop_start()
        self.client.subscribe(topic(user, "resend"), qos=1)
        assert subscribed.wait(60), "the table's resend subscription was not acknowledged"

    def send(self, name: str, payload: bytes) -> None:
        self.client.publish(name, payload, qos=1).wait_for_publish(10)

    def rows(self, rows: list[JournalEntry], table: str = "table-1") -> None:
        for row in rows:
            self.send(topic(table, "journal"), encode_entry(row))

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


def settings(broker: BrokerKit, db: str, **more: Any) -> FloorSettings:
    return FloorSettings(
        broker=broker.url, db=db, username=broker.floor.user, password=broker.floor.password, **more
    )


async def until(check: Callable[[], bool], timeout: float = 90.0) -> None:
    async with asyncio.timeout(timeout):
        while not check():
            await asyncio.sleep(0.02)


def test_bad_input_is_counted_and_refused_and_the_floor_goes_on(
    broker: BrokerKit, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    rows = small_game(count=2)

    async def scenario() -> Floor:
        service = FloorService(
            settings(
                broker, f"sqlite:///{tmp_path / 'f.db'}", tables=frozenset({"table-1", "table-2"})
            )
        )
        await service.start()
        t1, t3 = Table(broker), Table(broker, "table-3")
        try:
            journal = topic("table-1", "journal")
            t1.send(journal, b"{not json")
            t1.send(journal, b'{"v": 2, "table": "table-1"}')
            t1.send(journal, encode_entry(replace(rows[0], table="table-2")))  # claims another
            t1.send(topic("table-1", "status"), b'{"v": 1, "table": "table-1", "online": 3}')
            t3.rows(chain("table-3", [("game", {"a": 1})]), table="table-3")  # not on the list
            t1.rows(rows)  # and the floor still stores good rows
            await until(lambda: service.floor.store.count("table-1") == 2)
            return service.floor
        finally:
            t1.close()
            t3.close()
            await service.stop()

    with caplog.at_level(logging.WARNING, logger="floor"):
        floor = asyncio.run(scenario())
    assert dict(floor.refused) == {"json": 1, "schema": 1, "table": 1, "field": 1, "unknown": 1}
    # the listed tables are on the board from the start, table-3 is not
    assert [t["table"] for t in floor.board.view()["tables"]] == ["table-1", "table-2"]
    assert floor.board.view()["tables"][1]["last_heard"] == 0.0
    refusals = [r.getMessage() for r in caplog.records if "refused a message" in r.getMessage()]
    assert len(refusals) == 5
    assert any("table-3" in line and "not on this floor's list" in line for line in refusals)


def test_bad_input_the_broker_cannot_carry_is_refused_by_the_core(tmp_path: Path) -> None:
    """Oversized payloads and invalid table ids never pass the generated broker
    (max_packet_size, the ACL): the core refuses them all the same."""
    floor = Floor(open_store(f"sqlite:///{tmp_path / 'f.db'}"))
    out = floor.handle(
        [
            (topic("table-1", "journal"), b" " * (64 * 1024 + 1)),
            ("pontoon/v1/tables/Table_1/journal", b"{}"),
            ("pontoon/v1/tables/table-1/other", b"{}"),
            ("pontoon/v1/tables/table-1/journal", b'{"v":1}'),
        ]
    )
    assert out == []
    assert dict(floor.refused) == {"size": 1, "table": 1, "topic": 1, "field": 1}


def test_forged_and_replayed_rows_are_refused_and_alarmed(
    broker: BrokerKit, tmp_path: Path
) -> None:
    rows = small_game(count=4)
    # row 2 rewritten by someone who knows the formula
    body = '{"type":"Abandon"}'
    edited = replace(
        rows[1],
        body=body,
        hash=digest(rows[0].hash, 2, 1, "action", body, rows[1].meta, rows[1].at),
    )

    async def scenario() -> tuple[Floor, list[JournalEntry]]:
        service = FloorService(settings(broker, f"sqlite:///{tmp_path / 'f.db'}"))
        await service.start()
        t1 = Table(broker)
        try:
            t1.rows(rows[:3])
            t1.rows([rows[1]])  # replayed
            t1.rows([forged(rows[3], body='{"card":"AH","type":"DealCard"}')])  # forged body
            t1.rows([edited])  # an edited history
            t1.rows([rows[3]])  # the true row still goes in
            await until(lambda: service.floor.counts["stored"] == 4)
            await until(lambda: service.floor.counts["conflict"] == 1)
            return service.floor, service.floor.store.rows("table-1")
        finally:
            t1.close()
            await service.stop()

    floor, stored = asyncio.run(scenario())
    assert stored == rows
    assert floor.counts["duplicate"] == 1
    assert floor.counts["broken"] == 1 and floor.counts["conflict"] == 1
    texts = [a["text"] for a in floor.board.view()["alarms"]]
    assert len(texts) == 2 and all(t.startswith("Refused row") for t in texts)
    again = Floor(open_store(f"sqlite:///{tmp_path / 'f.db'}"))  # the alarms are kept
    assert len(again.board.view()["alarms"]) == 2


def test_a_gap_asks_the_table_to_resend_and_the_request_is_cleared(
    broker: BrokerKit, tmp_path: Path
) -> None:
    rows = small_game(count=4)

    async def scenario() -> tuple[list[bytes], list[JournalEntry]]:
        service = FloorService(settings(broker, f"sqlite:///{tmp_path / 'f.db'}"))
        await service.start()
        t1 = Table(broker)
        try:
            t1.rows([rows[0], rows[2]])  # row 2 lost on the way
            await until(lambda: b'{"v":1,"from":2}' in t1.resends)
            t1.rows(rows[1:])  # the table resends from 2
            await until(lambda: service.floor.store.count("table-1") == 4)
            await until(lambda: b"" in t1.resends)  # caught up: the retained request goes
            return t1.resends, service.floor.store.rows("table-1")
        finally:
            t1.close()
            await service.stop()

    resends, stored = asyncio.run(scenario())
    assert stored == rows
    assert resends == [b'{"v":1,"from":2}', b""]


def test_rows_sent_while_the_floor_is_down_arrive_when_it_is_back(
    broker: BrokerKit, tmp_path: Path
) -> None:
    rows = small_game(count=4)
    db = f"sqlite:///{tmp_path / 'f.db'}"

    async def scenario() -> list[JournalEntry]:
        service = FloorService(settings(broker, db))
        await service.start()
        t1 = Table(broker)
        try:
            t1.rows(rows[:2])
            await until(lambda: service.floor.store.count("table-1") == 2)
            await service.stop()
            t1.rows(rows[2:])  # the broker keeps them for the floor's session
            service = FloorService(settings(broker, db))
            await service.start()
            await until(lambda: service.floor.store.count("table-1") == 4)
            return service.floor.store.rows("table-1")
        finally:
            t1.close()
            await service.stop()

    assert asyncio.run(scenario()) == rows


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_simulated_tables_journal_is_stored_equal_and_its_standings_are_the_rules(
    kind: str, broker: BrokerKit, sim_journal: Path, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    if kind == "sqlite":
        db = f"sqlite:///{tmp_path / 'f.db'}"
    else:
        db = fresh_database(request.getfixturevalue("pg_server"), f"svc_{next(_names)}")
    journal = tmp_path / "table-1.sqlite"  # a fresh copy: the publisher keeps its cursor beside it
    shutil.copyfile(sim_journal, journal)
    want = journal_rows(journal)

    async def scenario() -> Floor:
        service = FloorService(settings(broker, db))
        await service.start()
        publisher = FloorPublisher(
            FloorConfig(broker.url, "table-1", "table-1", broker.table("table-1").password),
            journal,
        )
        publisher.start()
        try:
            await until(lambda: service.floor.store.count("table-1") == len(want), 60)
            return service.floor
        finally:
            publisher.stop()
            await service.stop()

    floor = asyncio.run(scenario())
    store = open_store(db)
    got = [(e.seq, e.game, e.kind, e.body, e.meta, e.at, e.hash) for e in store.rows("table-1")]
    store.close()
    assert got == want  # entry for entry, in order, exactly once
    expected = expected_result()["balances"]
    board = {row["player"]: row["units"] for row in floor.standings.leaderboard()}
    assert board == {p: v for p, v in expected.items() if p != "house"}


def test_a_lost_database_connection_loses_no_row(
    broker: BrokerKit, request: pytest.FixtureRequest, caplog: pytest.LogCaptureFixture
) -> None:
    """PostgreSQL drops the floor's connection (pg_terminate_backend): the batch
    is not acknowledged, the floor reconnects and the broker delivers it again."""
    import psycopg

    db = fresh_database(request.getfixturevalue("pg_server"), f"lost_{next(_names)}")
    rows = small_game(count=6)
    check = open_store(db)

    async def scenario() -> None:
        service = FloorService(settings(broker, db, reconnect_s=0.2))
        await service.start()
        t1 = Table(broker)
        try:
            t1.rows(rows[:2])
            await until(lambda: check.count("table-1") == 2)
            with psycopg.connect(db, autocommit=True) as admin:
                admin.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid()"
                    " AND pid <> %s",
                    (check._db.info.backend_pid,),  # type: ignore[attr-defined]
                )
            t1.rows(rows[2:])
            await until(lambda: check.count("table-1") == 6)
        finally:
            t1.close()
            await service.stop()

    with caplog.at_level(logging.ERROR, logger="floor"):
        asyncio.run(scenario())
    assert check.rows("table-1") == rows
    check.close()
    assert any("storing failed" in r.getMessage() for r in caplog.records)


def test_the_floor_reads_over_tls_with_the_events_ca(broker: BrokerKit, tmp_path: Path) -> None:
    """mqtts:// with init-broker's CA: subscribed, and a row arrives; another CA is refused."""
    rows = small_game(count=1)
    tls = FloorSettings(
        broker=broker.tls_url,
        db=f"sqlite:///{tmp_path / 'f.db'}",
        username=broker.floor.user,
        password=broker.floor.password,
        ca=str(broker.files.ca),
    )

    async def scenario() -> list[JournalEntry]:
        service = FloorService(tls)
        await service.start()
        t1 = Table(broker)
        try:
            t1.rows(rows)
            await until(lambda: service.floor.store.count("table-1") == 1)
            return service.floor.store.rows("table-1")
        finally:
            t1.close()
            await service.stop()

    assert asyncio.run(scenario()) == rows

    async def stranger() -> None:
        # a CA of its own: the broker's certificate does not verify, never subscribed
        other = FloorService(replace(tls, ca=str(tmp_path / "other-ca.pem")))
        with pytest.raises((TimeoutError, OSError)):
            await other.start(timeout=5)
        await other.stop()

    import subprocess

    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:P-256",
            "-nodes",
            "-keyout",
            str(tmp_path / "other.key"),
            "-out",
            str(tmp_path / "other-ca.pem"),
            "-subj",
            "/CN=someone else",
            "-days",
            "1",
        ],
        check=True,
        capture_output=True,
    )
    asyncio.run(stranger())


def test_stop_ends_the_subscriber_while_the_broker_is_gone(
    broker: BrokerKit, tmp_path: Path
) -> None:
    """The broker crashes; the subscriber is then between its lost session and
    its next try.  ``stop`` must end it there, within a few seconds, and not
    leave the floor's shutdown waiting for a broker that is not coming back."""

    async def scenario() -> bool:
        service = FloorService(settings(broker, f"sqlite:///{tmp_path / 'f.db'}"))
        await service.start()
        broker.kill()
        await until(lambda: not service.connected.is_set(), 30)
        async with asyncio.timeout(10):
            await service.stop()
        return service._task is None

    assert asyncio.run(scenario())
