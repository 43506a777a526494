"""A second, deliberately simple Pontoon engine written from the rule book
alone, used only by the tests to check the real engine (see ``engine.py``)."""

from .engine import NotStacked, replay, replay_file
from .rulebook import Refused

__all__ = ["NotStacked", "Refused", "replay", "replay_file"]
