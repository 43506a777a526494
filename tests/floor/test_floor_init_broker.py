"""``pontoon-table floor init-broker`` and the ``[floor]`` section of table.toml.

The ACL expected here is written out by hand from the issue's rule (a table
writes only under its own id and reads its own resend requests; the floor
reads journals and statuses and writes resend requests).
"""

from __future__ import annotations

import argparse
import getpass
import shutil
import socket
import ssl
from pathlib import Path

import pytest
from broker_kit import BrokerKit, Listener

from controller.cli import main
from controller.commands import floor as floor_command
from controller.config import ConfigError, load_config
from controller.journal import Journal
from floor.broker_proc import Mosquitto, free_port
from floor.broker_setup import new_password
from floor.messages import decode_entry, topic
from floor.publisher import FloorPublisher

TABLE_TOML = """
[table]
name = "Table 1"
journal = "t1.sqlite"

[[seats]]
name = "Ann"

[[seats]]
name = "Ben"

[display]
token = "a-long-dealer-secret"
"""


def init_broker(argv: list[str]) -> int:
    """``pontoon-table floor init-broker ARGV`` through the command line's own entry."""
    return main(["floor", "init-broker", *argv])


def test_init_broker_writes_the_acl_and_one_snippet_per_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "event"
    assert init_broker(["--tables", "2", "--out", str(out), "--host", "floor.local"]) == 0
    assert "mosquitto -c" in capsys.readouterr().out
    acl = [line for line in (out / "acl").read_text().splitlines() if line and line[0] != "#"]
    assert acl == [
        "user floor",
        "topic read pontoon/v1/tables/+/journal",
        "topic read pontoon/v1/tables/+/status",
        "topic write pontoon/v1/tables/+/resend",
        "user table-1",
        "topic write pontoon/v1/tables/table-1/journal",
        "topic write pontoon/v1/tables/table-1/status",
        "topic read pontoon/v1/tables/table-1/resend",
        "user table-2",
        "topic write pontoon/v1/tables/table-2/journal",
        "topic write pontoon/v1/tables/table-2/status",
        "topic read pontoon/v1/tables/table-2/resend",
    ]
    users = [line.split(":")[0] for line in (out / "passwd").read_text().splitlines()]
    assert users == ["floor", "table-1", "table-2"]
    conf = (out / "mosquitto.conf").read_text()
    assert "allow_anonymous false" in conf and "persistence true" in conf
    assert "listener 8883" in conf and "127.0.0.1" not in conf  # no plain listener asked for
    assert sorted(p.name for p in (out / "tables").iterdir()) == ["table-1.toml", "table-2.toml"]
    assert (out / "passwd").stat().st_mode & 0o077 == 0  # secrets are not world-readable
    # a second run into the same folder is refused, nothing overwritten
    before = (out / "passwd").read_text()
    assert init_broker(["--tables", "2", "--out", str(out)]) == 1
    assert "already holds a broker" in capsys.readouterr().err
    assert (out / "passwd").read_text() == before


def test_generated_passwords_survive_a_command_line() -> None:
    # CI once failed when a generated password began with "-": argparse read
    # "--password -x…" as a missing value.  Letters and digits only, 24 long.
    passwords = [new_password() for _ in range(2000)]
    assert all(len(p) == 24 and p.isascii() and p.isalnum() for p in passwords)
    assert len(set(passwords)) == len(passwords)


def test_floor_serve_takes_a_password_that_begins_with_a_dash() -> None:
    # a password made before this fix (or by hand) may still begin with "-":
    # the "--password=VALUE" spelling must carry it
    parser = argparse.ArgumentParser()
    floor_command.add_arguments(parser)
    args = parser.parse_args(["serve", "--password=-x_Y", "--broker", "mqtt://h"])
    assert args.password == "-x_Y" and args.broker == "mqtt://h"


def test_the_written_configuration_runs_and_serves_tls_for_its_host(tmp_path: Path) -> None:
    """What init-broker writes by default (TLS only) starts under Mosquitto, and its
    certificate verifies against its CA for the --host name."""
    port = free_port()
    out = tmp_path / "event"
    argv = ["--tables", "1", "--out", str(out), "--host", "floor.local", "--port", str(port),
            "--run-as", getpass.getuser()]  # fmt: skip
    assert init_broker(argv) == 0
    broker = Mosquitto(out / "mosquitto.conf", [port])
    broker.start()
    try:
        context = ssl.create_default_context(cafile=str(out / "ca.pem"))
        with (
            socket.create_connection(("127.0.0.1", port), timeout=5) as raw,
            context.wrap_socket(raw, server_hostname="floor.local") as tls,
        ):
            assert tls.getpeercert()["subject"] == ((("commonName", "floor.local"),),)
    finally:
        broker.stop()


def test_the_snippet_makes_a_table_publish_over_tls(broker: BrokerKit, tmp_path: Path) -> None:
    """init-broker's table-1 snippet, appended to a table.toml, is all a table needs."""
    snippet = (broker.files.out / "tables" / "table-1.toml").read_text()
    assert f"mqtts://localhost:{broker.tls_port}" in snippet
    (tmp_path / "table.toml").write_text(TABLE_TOML + "\n" + snippet)
    shutil.copy(broker.files.ca, tmp_path / "floor-ca.pem")
    config = load_config(tmp_path / "table.toml")
    assert config.floor is not None and config.floor.table_id == "table-1"
    assert config.floor.ca == tmp_path / "floor-ca.pem"
    listener = Listener(broker.plain_port, broker.floor, [topic("table-1", "journal")])
    assert listener.subscribed.wait(10)
    journal = Journal(config.journal, durable=False)
    journal.start_game({"players": ["Ann", "Ben"]})
    publisher = FloorPublisher(config.floor, config.journal)
    publisher.start()
    try:
        assert listener.wait_for(lambda m: len(m) >= 1, 20)
        assert decode_entry("table-1", listener.messages[0][1]).seq == 1
    finally:
        publisher.stop()
        journal.close()
        listener.close()


@pytest.mark.parametrize(
    ("floor", "words"),
    [
        ('broker = "http://x"\ntable_id = "t"\npassword = "p"', "floor.broker must be mqtt://"),
        ('broker = "mqtt://x:99999"\ntable_id = "t"\npassword = "p"', "floor.broker has a bad"),
        ('broker = "mqtt://x"\ntable_id = "Table 1"\npassword = "p"', "floor.table_id must be"),
        ('broker = "mqtt://x"\ntable_id = "t"', "floor.password is required"),
        ('broker = "mqtts://x"\ntable_id = "t"\npassword = "p"\nca = "no.pem"', "not there"),
        ('broker = "mqtt://x"\ntable_id = "t"\npassword = "p"\nuser = "t"', "floor.user is not"),
        ('broker = "mqtt://x"\ntable_id = "t"\npassword = "p"\nca = "ca.pem"', "need mqtts"),
        ('broker = "mqtts://x"\ntable_id = "t"\npassword = "p"\ncert = "ca.pem"', "go together"),
    ],
)
def test_floor_section_mistakes_name_the_key(tmp_path: Path, floor: str, words: str) -> None:
    (tmp_path / "ca.pem").write_text("x")
    (tmp_path / "table.toml").write_text(TABLE_TOML + "\n[floor]\n" + floor + "\n")
    with pytest.raises(ConfigError) as error:
        load_config(tmp_path / "table.toml")
    assert words in str(error.value)
    assert str(error.value).startswith("table.toml: floor.")


def test_no_floor_section_means_no_publisher(tmp_path: Path) -> None:
    (tmp_path / "table.toml").write_text(TABLE_TOML)
    assert load_config(tmp_path / "table.toml").floor is None
