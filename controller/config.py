"""One TOML file per table, validated once at start.

A table is set up by people who are not programmers, often minutes before play;
a typo must stop the table at once with a message that names the file and the
exact key (``table.toml: seats[2].panel_address must be 1-14``), never surface
later as a stack trace in the middle of a deal.  So every key is checked here,
unknown keys included (a misspelt optional key would otherwise be silently
ignored), and the rest of the controller receives plain frozen dataclasses.

Example (every key; only ``seats`` and ``display.token`` are required)::

    [table]
    name = "Table 1"
    journal = "table-1.sqlite"        # relative to this file

    [rules]
    preset = "house"                  # house, traditional, shoot, casino, ponton
    seed = 7                          # seeds the engine's pack model
    banker = "Dan"                    # left out: the game starts with the cut
    options = { stick_minimum = 16 }

    [[seats]]                         # clockwise seating order
    name = "Ann"
    panel_address = 1

    [devices]
    shoe = "/dev/ttyUSB0"             # a device path or a pyserial URL
    panels = "/dev/ttyUSB1"           # the RS-485 panel bus (dealer panel: address 15)
    baudrate = 115200

    [camera]
    source = 0                        # a camera index, a device path or a URL
    profile = "decks/bicycle.json"    # deck profile for the recognizer
    frames = 3                        # frames that must agree on a card
    mount = "overhead"                # or "in_shoe": the camera under the shoe's window

    [display]
    host = "127.0.0.1"                # localhost unless set: "0.0.0.0" or the LAN address
    port = 8000                       #   lets the dealer's tablet reach and pair with it
    token = "a-long-dealer-secret"    # for scripts; a tablet pairs with the dealer panel

    [backup]
    dir = "/media/usb/pontoon-backups"  # a copy of the journal after each game

    [floor]                           # optional: publish to the event floor (docs/floor.md)
    broker = "mqtts://floor.local:8883"  # mqtt:// or mqtts:// (TLS)
    table_id = "table-1"
    username = "table-1"              # default: the table id
    password = "from init-broker"
    ca = "floor-ca.pem"               # the event's CA (mqtts; default: the system's)
    cert = "table-1.pem"              # a client certificate and its key, if the broker asks
    key = "table-1.key"
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

PRESETS = ("house", "traditional", "shoot", "casino", "ponton")
#: RS-485 addresses of docs/protocol.md: seats 1-14, the dealer panel is 15
SEAT_ADDRESS_MAX = 14
DEALER_PANEL_ADDRESS = 15
MIN_TOKEN_LENGTH = 8


class ConfigError(ValueError):
    """A configuration problem, worded for the person who wrote the file."""


@dataclass(frozen=True)
class SeatConfig:
    name: str
    panel_address: int


@dataclass(frozen=True)
class RulesConfig:
    preset: str = "house"
    options: Mapping[str, Any] = field(default_factory=dict)
    seed: int = 0
    banker: str | None = None


@dataclass(frozen=True)
class DevicesConfig:
    shoe: str = ""
    panels: str = ""
    baudrate: int = 115200


#: where the camera looks from (``camera.mount``)
MOUNTS = ("overhead", "in_shoe")


@dataclass(frozen=True)
class CameraConfig:
    source: str | int = 0
    profile: str | None = None
    frames: int = 3
    #: "overhead" (reads the card on the table after its CARD_OUT) or "in_shoe"
    #: (reads the pass paired with the CARD_OUT, docs/hardware.md section 2.7)
    mount: str = "overhead"


@dataclass(frozen=True)
class DisplayConfig:
    token: str
    host: str = "127.0.0.1"
    port: int = 8000


@dataclass(frozen=True)
class BackupConfig:
    #: where a copy of the journal goes at the end of each game (None: no copies)
    dir: Path | None = None


@dataclass(frozen=True)
class FloorConfig:
    """Where the table publishes its journal for the event floor (``floor.publisher``)."""

    broker: str  # mqtt://host[:port] or mqtts://host[:port]
    table_id: str
    username: str
    password: str
    ca: Path | None = None
    cert: Path | None = None
    key: Path | None = None


#: the floor's table ids (floor.messages.TABLE_ID: the topic's own rule)
_TABLE_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,31}$")


@dataclass(frozen=True)
class TableConfig:
    name: str
    journal: Path
    rules: RulesConfig
    seats: tuple[SeatConfig, ...]
    devices: DevicesConfig
    camera: CameraConfig
    display: DisplayConfig
    source: str = "table.toml"
    backup: BackupConfig = field(default_factory=BackupConfig)
    floor: FloorConfig | None = None

    @property
    def players(self) -> list[str]:
        """The seat names in clockwise order, as the rules engine wants them."""
        return [seat.name for seat in self.seats]


class _Section:
    """Reads one TOML table, remembering its key path for error messages."""

    def __init__(self, file: str, path: str, data: object) -> None:
        self.file = file
        self.path = path
        if not isinstance(data, dict):
            raise self.error("", "must be a table")
        self.data: dict[str, Any] = data
        self.used: set[str] = set()

    def key(self, name: str) -> str:
        return f"{self.path}.{name}" if self.path else name

    def error(self, name: str, problem: str) -> ConfigError:
        where = self.key(name) if name else self.path
        return ConfigError(f"{self.file}: {where} {problem}")

    def _get(self, name: str) -> object:
        self.used.add(name)
        return self.data.get(name)

    def text(self, name: str, default: str | None = None, *, required: bool = False) -> str:
        value = self._get(name)
        if value is None:
            if required or default is None:
                raise self.error(name, "is required")
            return default
        if not isinstance(value, str) or not value.strip():
            raise self.error(name, "must be a non-empty string")
        return value.strip()

    def optional_text(self, name: str) -> str | None:
        if self.data.get(name) is None:
            self.used.add(name)
            return None
        return self.text(name, required=True)

    def integer(self, name: str, default: int, low: int, high: int) -> int:
        value = self._get(name)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(name, f"must be a whole number {low}-{high}")
        if not low <= value <= high:
            raise self.error(name, f"must be {low}-{high} (got {value})")
        return value

    def section(self, name: str) -> _Section:
        value = self._get(name)
        return _Section(self.file, self.key(name), {} if value is None else value)

    def finish(self) -> None:
        """Refuse keys nobody read: they are typos or options from another version."""
        for name in sorted(set(self.data) - self.used):
            raise self.error(name, "is not a known key")


def load_config(path: str | Path) -> TableConfig:
    """Read and validate a table's TOML file; raises ConfigError naming the bad key."""
    path = Path(path)
    file = path.name
    try:
        raw = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{file}: cannot be read ({exc.strerror or exc})") from exc
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{file}: is not UTF-8 text (byte {exc.start})") from exc
    try:
        data = tomllib.loads(raw)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{file}: is not valid TOML ({exc})") from exc
    except RecursionError as exc:
        raise ConfigError(f"{file}: is nested too deeply to be a table's settings") from exc
    return parse_config(data, file=file, base=path.parent)


def parse_config(
    data: Mapping[str, Any], *, file: str = "table.toml", base: Path | None = None
) -> TableConfig:
    """Validate an already-parsed TOML document (the tests use this directly)."""
    base = Path(".") if base is None else base
    top = _Section(file, "", dict(data))

    table = top.section("table")
    name = table.text("name", "Table")
    journal_name = table.text("journal", _slug(name) + ".journal.sqlite")
    journal = Path(journal_name)
    if not journal.is_absolute():
        journal = base / journal
    table.finish()

    seats = _seats(top, file)
    rules = _rules(top.section("rules"), seats)
    devices = _devices(top.section("devices"))
    camera = _camera(top.section("camera"))
    display = _display(top.section("display"))
    backup = _backup(top.section("backup"), base)
    floor = _floor(top.section("floor"), base) if "floor" in data else None
    top.finish()
    return TableConfig(
        name=name,
        journal=journal,
        rules=rules,
        seats=seats,
        devices=devices,
        camera=camera,
        display=display,
        source=file,
        backup=backup,
        floor=floor,
    )


def _seats(top: _Section, file: str) -> tuple[SeatConfig, ...]:
    raw = top._get("seats")
    if raw is None:
        raise top.error("seats", "is required: one [[seats]] table per seat, in clockwise order")
    if not isinstance(raw, list) or not raw:
        raise top.error("seats", "must be a list of [[seats]] tables")
    if len(raw) < 2:
        raise top.error("seats", "needs at least 2 seats")
    if len(raw) > SEAT_ADDRESS_MAX:
        limit = SEAT_ADDRESS_MAX
        raise top.error("seats", f"can have at most {limit} seats (panel addresses 1-{limit})")
    seats: list[SeatConfig] = []
    names: dict[str, int] = {}
    addresses: dict[int, int] = {}
    for index, item in enumerate(raw):
        seat = _Section(file, f"seats[{index + 1}]", item)
        name = seat.text("name", required=True)
        if name.lower() == "house":
            raise seat.error("name", "must not be 'house' (that name is the casino dealer's)")
        if name.casefold() in names:
            other = names[name.casefold()]
            raise seat.error("name", f"repeats the name of seats[{other}] ({name!r})")
        address = seat.integer("panel_address", index + 1, 1, SEAT_ADDRESS_MAX)
        if address in addresses:
            other = addresses[address]
            raise seat.error("panel_address", f"repeats the address of seats[{other}] ({address})")
        seat.finish()
        names[name.casefold()] = index + 1
        addresses[address] = index + 1
        seats.append(SeatConfig(name=name, panel_address=address))
    return tuple(seats)


def _rules(rules: _Section, seats: tuple[SeatConfig, ...]) -> RulesConfig:
    preset = rules.text("preset", "house")
    if preset not in PRESETS:
        raise rules.error("preset", f"must be one of {', '.join(PRESETS)} (got {preset!r})")
    options_raw = rules._get("options")
    if options_raw is None:
        options: dict[str, Any] = {}
    elif isinstance(options_raw, dict):
        options = dict(options_raw)
    else:
        raise rules.error("options", "must be a table of rule options")
    seed = rules.integer("seed", 0, 0, 2**63 - 1)
    banker = rules.optional_text("banker")
    names = [seat.name for seat in seats]
    if banker is not None and banker not in names:
        raise rules.error("banker", f"must be one of the seat names ({', '.join(names)})")
    if banker is not None and preset in ("casino", "ponton"):
        raise rules.error("banker", f"is not used by {preset!r}: the house deals")
    rules.finish()
    _check_ruleset(rules, preset, options)
    return RulesConfig(preset=preset, options=options, seed=seed, banker=banker)


def _check_ruleset(rules: _Section, preset: str, options: dict[str, Any]) -> None:
    """Let the rules engine judge the options: it alone knows what they mean."""
    try:
        from controller.rules import RulesetError, load_ruleset
    except ImportError:  # pragma: no cover - the engine is part of this package
        return
    try:
        load_ruleset(preset, options)
    except RulesetError as exc:
        raise rules.error("options", f"are refused by the {preset!r} rules: {exc}") from exc


def _devices(devices: _Section) -> DevicesConfig:
    shoe = devices.text("shoe", "")
    panels = devices.text("panels", "")
    baudrate = devices.integer("baudrate", 115200, 1200, 4_000_000)
    devices.finish()
    return DevicesConfig(shoe=shoe, panels=panels, baudrate=baudrate)


def _camera(camera: _Section) -> CameraConfig:
    raw = camera._get("source")
    source: str | int
    if raw is None:
        source = 0
    elif isinstance(raw, bool) or not isinstance(raw, int | str):
        raise camera.error("source", "must be a camera index, a device path or a URL")
    elif isinstance(raw, int):
        if raw < 0:
            raise camera.error("source", f"must be a camera index 0 or more (got {raw})")
        source = raw
    else:
        if not raw.strip():
            raise camera.error("source", "must be a camera index, a device path or a URL")
        source = raw.strip()
    profile = camera.optional_text("profile")
    frames = camera.integer("frames", 3, 1, 30)
    mount = camera.text("mount", "overhead")
    if mount not in MOUNTS:
        raise camera.error("mount", f"must be one of {', '.join(MOUNTS)} (got {mount!r})")
    camera.finish()
    return CameraConfig(source=source, profile=profile, frames=frames, mount=mount)


def _display(display: _Section) -> DisplayConfig:
    host = display.text("host", "127.0.0.1")
    port = display.integer("port", 8000, 1, 65535)
    token = display.text("token", required=True)
    if len(token) < MIN_TOKEN_LENGTH:
        raise display.error("token", f"must be at least {MIN_TOKEN_LENGTH} characters")
    display.finish()
    return DisplayConfig(token=token, host=host, port=port)


def _backup(backup: _Section, base: Path) -> BackupConfig:
    folder = backup.optional_text("dir")
    backup.finish()
    if folder is None:
        return BackupConfig()
    path = Path(folder)
    return BackupConfig(dir=path if path.is_absolute() else base / path)


def _floor(floor: _Section, base: Path) -> FloorConfig:
    broker = floor.text("broker", required=True)
    url = urlsplit(broker)
    try:
        url.port  # noqa: B018 - raises on a port that is not a number
    except ValueError:
        raise floor.error("broker", f"has a bad port ({broker!r})") from None
    if url.scheme not in ("mqtt", "mqtts") or not url.hostname:
        raise floor.error(
            "broker", f"must be mqtt://host[:port] or mqtts://host[:port] ({broker!r})"
        )
    table_id = floor.text("table_id", required=True)
    if not _TABLE_ID.match(table_id):
        raise floor.error("table_id", "must be lower-case letters, digits and '-' (up to 32)")
    username = floor.text("username", table_id)
    password = floor.text("password", required=True)

    def file(name: str) -> Path | None:
        value = floor.optional_text(name)
        if value is None:
            return None
        path = Path(value) if Path(value).is_absolute() else base / value
        if not path.is_file():
            raise floor.error(name, f"names a file that is not there ({path})")
        return path

    ca, cert, key = file("ca"), file("cert"), file("key")
    if (cert is None) != (key is None):
        raise floor.error("cert", "and floor.key go together: give both or neither")
    if url.scheme == "mqtt" and (ca or cert):
        raise floor.error("broker", "is plain mqtt://: the TLS files need mqtts://")
    floor.finish()
    return FloorConfig(broker, table_id, username, password, ca, cert, key)


def _slug(name: str) -> str:
    slug = "".join(ch.lower() if ch.isalnum() else "-" for ch in name).strip("-")
    return slug or "table"
