"""The table's TOML file: good files load, every bad key is named."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from controller.config import ConfigError, load_config, parse_config

GOOD = """
[table]
name = "Table 1"
journal = "t1.sqlite"

[rules]
preset = "house"
seed = 7
banker = "Dan"

[[seats]]
name = "Ann"
panel_address = 1

[[seats]]
name = "Bob"
panel_address = 2

[[seats]]
name = "Dan"
panel_address = 5

[devices]
shoe = "/dev/ttyUSB0"
panels = "socket://127.0.0.1:7001"

[camera]
source = 0
frames = 3

[display]
port = 8080
token = "a-long-secret"
"""


def base() -> dict[str, Any]:
    return {
        "seats": [{"name": "Ann", "panel_address": 1}, {"name": "Bob", "panel_address": 2}],
        "display": {"token": "secret-token"},
    }


def test_good_file_loads_with_paths_relative_to_it(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text(GOOD)
    config = load_config(path)
    assert config.players == ["Ann", "Bob", "Dan"]
    assert config.rules.banker == "Dan"
    assert config.rules.seed == 7
    assert config.seats[2].panel_address == 5
    assert config.journal == tmp_path / "t1.sqlite"
    assert config.devices.panels == "socket://127.0.0.1:7001"
    assert config.display.port == 8080
    assert config.camera.source == 0


def test_defaults_fill_in_optional_sections() -> None:
    config = parse_config(base())
    assert config.rules.preset == "house"
    assert config.rules.banker is None
    assert config.display.host == "127.0.0.1"
    assert config.journal.name == "table.journal.sqlite"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["seats"].append({"name": "Cat", "panel_address": 40}),
         "table.toml: seats[3].panel_address must be 1-14 (got 40)"),
        (lambda d: d["seats"].append({"name": "Cat", "panel_address": 2}),
         "seats[3].panel_address repeats the address of seats[2]"),
        (lambda d: d["seats"].append({"name": "ann", "panel_address": 3}),
         "seats[3].name repeats the name of seats[1]"),
        (lambda d: d["seats"][0].update(colour="red"), "seats[1].colour is not a known key"),
        (lambda d: d["seats"][1].pop("name"), "seats[2].name is required"),
        (lambda d: d.update(rules={"preset": "blackjack"}), "rules.preset must be one of house"),
        (lambda d: d.update(rules={"banker": "Zed"}), "rules.banker must be one of the seat names"),
        (lambda d: d.update(rules={"preset": "casino", "banker": "Ann"}),
         "rules.banker is not used"),
        (lambda d: d.update(rules={"seed": "x"}), "rules.seed must be a whole number"),
        (lambda d: d.update(display={"token": "short"}), "display.token must be at least 8"),
        (lambda d: d.update(display={}), "display.token is required"),
        (lambda d: d["display"].update(port=0), "display.port must be 1-65535"),
        (lambda d: d.update(devices={"dealer_panel_address": 2}),
         "devices.dealer_panel_address is not a known key"),
        (lambda d: d.update(camera={"source": -1}),
         "camera.source must be a camera index 0 or more"),
        (lambda d: d.update(camera={"frames": 0}), "camera.frames must be 1-30"),
        (lambda d: d.update(cameras={}), "cameras is not a known key"),
        (lambda d: d.update(seats=[{"name": "Ann"}]), "seats needs at least 2 seats"),
        (lambda d: d.pop("seats"), "seats is required"),
        (lambda d: d.update(table={"name": 3}), "table.name must be a non-empty string"),
    ],
)
def test_bad_keys_are_named(change: Any, message: str) -> None:
    data = base()
    change(data)
    with pytest.raises(ConfigError) as caught:
        parse_config(data)
    assert message in str(caught.value)


def test_rule_options_are_judged_by_the_engine() -> None:
    data = base()
    data["rules"] = {"options": {"stick_minimum": 30}}
    with pytest.raises(ConfigError, match=r"rules\.options are refused by the 'house' rules"):
        parse_config(data)
    data["rules"] = {"options": {"no_such_option": 1}}
    with pytest.raises(ConfigError, match=r"rules\.options"):
        parse_config(data)


def test_unreadable_and_invalid_files_say_so(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"missing\.toml: cannot be read"):
        load_config(tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[table\nname=")
    with pytest.raises(ConfigError, match=r"bad\.toml: is not valid TOML"):
        load_config(bad)
