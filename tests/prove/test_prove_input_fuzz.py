"""Malformed scenario files and table configurations get one clear line, never a traceback.

A scenario or a ``table.toml`` is typed by a person; whatever they type, the
answer must be a refusal they can act on: ``replay`` exits 2 with one line on
stderr, ``load_config`` raises ``ConfigError`` naming the file.  Each example
runs under an alarm, so a hang is a failure too (e.g. ``"1e999999999"`` once
made ``Fraction`` compute a billion-digit number).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller import cli
from controller.config import ConfigError, load_config, parse_config

T = TypeVar("T")
ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted(
    p
    for p in (ROOT / "tests" / "scenarios").glob("*.json")
    if not p.name.endswith(".expected.json")
)
FUZZ = settings(
    max_examples=int(os.environ.get("PROVE_EXAMPLES", "250")), deadline=None,
    derandomize="PROVE_EXAMPLES" not in os.environ, suppress_health_check=list(HealthCheck)
)
ALARM_SECONDS = 5


@contextlib.contextmanager
def alarm(seconds: int = ALARM_SECONDS) -> Iterator[None]:
    """Turn a hang into a failure that names the input."""

    def expire(signum: int, frame: object) -> None:
        raise TimeoutError(f"no answer within {seconds} s")

    old = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


# --- JSON values that look like what people type ------------------------------------------

words = st.sampled_from(
    ["stick", "twist", "buy 3", "buy", "split", "draw", "stay", "even money", "insurance",
     "buy 1e999999999", "buy -2", "buy 1/0", "buy 2.5", "double", "", " ", "Stick 2 3"]
)
cards = st.sampled_from(["AS", "10H", "TH", "KC", "2D", "1S", "ZZ", "", "A", "AH "])
amounts = st.one_of(
    st.integers(-10, 10**6), st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(["3", "2.5", "1/2", "1e999999999", "nan", "inf", "-1", "x", "1e-99999"]),
)
names = st.sampled_from(["Ann", "Ben", "Cat", "Dan", "house", "Zed", ""])
scalars = st.one_of(st.none(), st.booleans(), amounts, words, cards, names, st.text(max_size=8))
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.one_of(names, st.text(max_size=6)), inner,
                                                     max_size=4)
    ),
    max_leaves=10,
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, (*prefix, i))


def _set(doc: Any, path: tuple[Any, ...], value: Any, delete: bool) -> Any:
    if not path:
        return value
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    if delete:
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    return doc


@st.composite
def mutated_scenarios(draw: st.DrawFn) -> Any:
    doc = json.loads(draw(st.sampled_from(SCENARIOS)).read_text())
    for _ in range(draw(st.integers(1, 3))):
        paths = list(_paths(doc))
        path = draw(st.sampled_from(paths))
        delete = bool(path) and draw(st.booleans())
        doc = _set(doc, path, draw(json_values), delete)
    return doc


def replay(text: bytes) -> tuple[int, str]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "scenario.json"
        path.write_bytes(text)
        err, out = io.StringIO(), io.StringIO()
        with alarm(), contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
            code = cli.main(["replay", str(path), "--compact"])
    return code, err.getvalue()


def assert_clear_refusal_or_result(code: int, err: str) -> None:
    assert code in (0, 2), f"exit {code}: {err}"
    if code == 2:
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].strip(), f"not one clear line: {err!r}"
        assert "Traceback" not in err
    else:
        assert err == ""


@FUZZ
@given(mutated_scenarios())
def test_replay_refuses_any_malformed_scenario_in_one_line(doc: Any) -> None:
    code, err = replay(json.dumps(doc).encode())
    assert_clear_refusal_or_result(code, err)


@FUZZ
@given(st.sampled_from(SCENARIOS), st.data())
def test_replay_survives_damaged_bytes(path: Path, data: st.DataObject) -> None:
    raw = bytearray(path.read_bytes())
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(raw) - 1))
        op = data.draw(st.sampled_from(["flip", "cut", "insert"]))
        if op == "flip":
            raw[i] = data.draw(st.integers(0, 255))
        elif op == "cut":
            del raw[i:]
        else:
            raw[i:i] = data.draw(st.binary(min_size=1, max_size=8))
        if not raw:
            break
    assert_clear_refusal_or_result(*replay(bytes(raw)))


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (b"\xff\xfe{", "not UTF-8"),
        (b"[" * 100_000, "nested too deeply"),
        (b'{"rules": [], "players": ["a", "b"], "deals": []}', "rules must be a preset name"),
        (b'{"players": ["a","b"], "banker": "a", "deals": [{"stakes": {"b": "1e999999999"}}]}',
         "not an amount"),
        (b'{"players": ["a","b"], "seed": ' + b"9" * 5000 + b', "deals": []}', "not a usable"),
        (b'{"players": ["a","b"], "options": {"max_stake": "x"}, "deals": []}', "max_stake"),
        (b'{"players": ["a","b"], "deals": [{"top": [5, null]}]}', "not a card"),
    ],
)
def test_known_bad_scenarios_found_by_fuzzing_are_refused(text: bytes, words: str) -> None:
    code, err = replay(text)
    assert code == 2 and words in err and len(err.strip().splitlines()) == 1, err


# --- the table's TOML configuration ------------------------------------------------------------

GOOD_TOML = """\
[table]
name = "Table 1"
journal = "table-1.sqlite"

[rules]
preset = "house"
seed = 7
banker = "Dan"
options = { stick_minimum = 16 }

[[seats]]
name = "Ann"
panel_address = 1

[[seats]]
name = "Dan"
panel_address = 2

[devices]
shoe = "/dev/ttyUSB0"
panels = "/dev/ttyUSB1"
baudrate = 115200

[camera]
source = 0
profile = "decks/bicycle.json"
frames = 3

[display]
host = "127.0.0.1"
port = 8000
token = "a-long-dealer-secret"
"""


def _good_dict() -> dict[str, Any]:
    import tomllib

    return tomllib.loads(GOOD_TOML)


toml_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(),
              st.text(max_size=10), st.sampled_from(["house", "casino", "Ann", "Dan", "auto"])),
    lambda inner: st.one_of(st.lists(inner, max_size=3),
                            st.dictionaries(st.text(max_size=12), inner, max_size=3)),
    max_leaves=8,
)


def test_the_good_example_loads(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text(GOOD_TOML)
    config = load_config(path)
    assert config.players == ["Ann", "Dan"] and config.display.host == "127.0.0.1"


def _config_refusal(call: Callable[[], T]) -> T | None:
    try:
        with alarm():
            return call()
    except ConfigError as exc:
        message = str(exc)
        assert message.startswith("table.toml: "), message
        assert "\n" not in message.split(" (", 1)[0], message
        return None


@FUZZ
@given(st.data())
def test_config_refuses_any_malformed_document_by_name(data: st.DataObject) -> None:
    doc = _good_dict()
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(list(_paths(doc))))
        delete = bool(path) and data.draw(st.booleans())
        doc = _set(doc, path, data.draw(toml_values), delete)
    if not isinstance(doc, dict):
        doc = {"x": doc}
    _config_refusal(lambda: parse_config(doc, file="table.toml"))


@FUZZ
@given(st.data())
def test_config_file_survives_damaged_bytes(data: st.DataObject) -> None:
    raw = bytearray(GOOD_TOML.encode())
    for _ in range(data.draw(st.integers(1, 4))):
        if not raw:
            break
        i = data.draw(st.integers(0, len(raw) - 1))
        op = data.draw(st.sampled_from(["flip", "cut", "insert"]))
        if op == "flip":
            raw[i] = data.draw(st.integers(0, 255))
        elif op == "cut":
            del raw[i:]
        else:
            raw[i:i] = data.draw(st.binary(min_size=1, max_size=8))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "table.toml"
        path.write_bytes(bytes(raw))
        _config_refusal(lambda: load_config(path))


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (b"\xff\xfe", "not UTF-8"),
        (b"a = " + b"[" * 5000 + b"]" * 5000, "nested too deeply"),
        (GOOD_TOML.replace('"a-long-dealer-secret"', "5").encode(), "display.token"),
    ],
)
def test_known_bad_configs_found_by_fuzzing_are_refused(
    tmp_path: Path, text: bytes, words: str
) -> None:
    path = tmp_path / "table.toml"
    path.write_bytes(text)
    with pytest.raises(ConfigError, match=words):
        load_config(path)
