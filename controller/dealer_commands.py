"""Every dealer command, defined once: name, typed arguments, summary, address.

A dealer command used to be written down in six places (a name list, the
display's protocol, the core's methods and its allow-list, wrappers on the
running table, the manual table and the HTTP routes), and they drifted.  Now
:data:`COMMANDS` is the only list:

- :meth:`controller.core.TableCore.command` looks a command up here, checks
  its arguments against the command's pydantic model and calls the core's
  method of the same name (the keyword arguments are the model's fields);
- the dealer display generates one HTTP route per command from it (the body
  schema in the OpenAPI document is the model's), grouped by ``resource``;
- a test walks it: every command has a handler, a route, a legal call that
  works and an illegal one refused in one plain sentence.

Adding a command is one entry here plus the handler on ``TableCore``.  The
models never decide legality (the rules engine does); they only say what shape
of argument each command takes, and :func:`explain` turns a wrong shape into
one sentence a dealer understands instead of a validation error list.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError

#: a player's name as the table knows it
Name = Annotated[str, Field(min_length=1, max_length=40)]
#: a card code as a dealer types it: "TH", "10H", "as"
CardText = Annotated[str, Field(min_length=1, max_length=4)]
_UNITS = re.compile(r"\s*\d{1,7}(\s*/\s*[1-9]\d{0,6})?\s*")


def _units(value: int | str) -> int | str:
    if isinstance(value, str) and not _UNITS.fullmatch(value):
        raise ValueError("is not a number of units (write 5 or 5/2)")
    if isinstance(value, int) and not 0 <= value <= 10_000_000:
        raise ValueError("is not a number of units between 0 and 10000000")
    return value


#: an amount of units: a whole number, or a fraction written "5/2"
Units = Annotated[int | str, AfterValidator(_units)]


class Args(BaseModel):
    """Base of every command's arguments (unknown fields are ignored, as before)."""

    model_config = ConfigDict(extra="ignore", frozen=True)


class NoArgs(Args):
    """The command takes nothing."""


class CardCode(Args):
    code: CardText = Field(description="The card the dealer sees, e.g. 'TH' or '10H'.")


class MisdealChoice(Args):
    choice: str = Field(min_length=1, max_length=40, description="One of the alarm's choice ids.")


class Decision(Args):
    seat: Name = Field(description="The seat's player name.")
    decision: str = Field(
        min_length=1, max_length=20, description="stake, stick, twist, buy, split, double, ..."
    )
    amount: int | None = Field(
        default=None, ge=0, le=1_000_000, description="Units, for a stake, buy or bet."
    )


class SellBank(Args):
    to: Name = Field(description="The player who buys the bank.")
    price: Units = Field(description="Units the buyer pays: a whole number or a fraction '5/2'.")


class StackTop(Args):
    cards: list[CardText] = Field(
        min_length=1, max_length=52, description="Card codes put on top of the shoe, top first."
    )


@dataclass(frozen=True)
class DealerCommand:
    """One command: its arguments, what it does, and where the display serves it."""

    name: str
    args: type[Args]
    summary: str
    #: the group of the API it belongs to (the display's router and OpenAPI tag)
    resource: str
    #: its HTTP path on the dealer display (kept as it always was)
    path: str
    #: refused while the table is held (paused, a device down, an alarm open), as
    #: the seat and dealer panels refuse the same moves
    needs_running: bool = False

    def parse(self, args: Mapping[str, Any] | Args | None) -> Args:
        """The typed arguments; ValidationError when their shape is wrong."""
        if isinstance(args, self.args):
            return args
        if isinstance(args, BaseModel):
            args = args.model_dump()
        return self.args.model_validate(dict(args or {}))


def _commands(*commands: DealerCommand) -> dict[str, DealerCommand]:
    return {c.name: c for c in commands}


#: every dealer command the table accepts, in the order the API lists them
COMMANDS: dict[str, DealerCommand] = _commands(
    DealerCommand("pause", NoArgs, "Pause the table (the shoe gate locks)", "table", "/api/pause"),
    DealerCommand("resume", NoArgs, "Resume after a pause", "table", "/api/resume"),
    DealerCommand("new_game", NoArgs, "Start a new game", "table", "/api/new-game"),
    DealerCommand(
        "next_deal", NoArgs, "The cards are back in the shoe: deal on", "deal", "/api/next-deal"
    ),
    DealerCommand("void_deal", NoArgs, "Void the current deal", "deal", "/api/void-deal"),
    DealerCommand(
        "confirm_card", CardCode,
        "Confirm the card the camera was unsure of (or, on a manual table, the card dealt)",
        "cards", "/api/confirm-card",
    ),
    DealerCommand(
        "stack_top", StackTop, "Training: these cards were put on top of the shoe, in order",
        "cards", "/api/stack-top",
    ),
    DealerCommand(
        "decide", Decision, "Enter a player's decision on their behalf", "seats", "/api/decide",
        needs_running=True,
    ),
    DealerCommand(
        "bank_draw", NoArgs, "The banker draws a card", "bank", "/api/bank/draw",
        needs_running=True,
    ),
    DealerCommand(
        "bank_stay", NoArgs, "The banker stays", "bank", "/api/bank/stay", needs_running=True
    ),
    DealerCommand(
        "sell_bank", SellBank, "The banker sells the bank between deals", "bank",
        "/api/bank/sell",
    ),
    DealerCommand(
        "misdeal", MisdealChoice, "Choose how to recover from an alarm", "alarms", "/api/misdeal"
    ),
)


_SAYS: dict[str, str] = {
    "missing": "is missing",
    "string_type": "must be text",
    "int_type": "must be a whole number",
    "int_parsing": "must be a whole number",
    "int_from_float": "must be a whole number",
    "bool_type": "must be true or false",
    "bool_parsing": "must be true or false",
    "list_type": "must be a list",
    "dict_type": "must be an object",
    "model_type": "must be an object",
    "model_attributes_type": "must be an object",
    "json_invalid": "is not valid JSON",
}


def _field(loc: tuple[int | str, ...]) -> str:
    """``("body", "cards", 3)`` -> ``cards (item 4)``: the words of a location."""
    parts = [p for p in loc if p not in ("body", "query", "path")]
    # a union's alternatives add their type names to the location: not the dealer's business
    parts = [p for p in parts if not (isinstance(p, str) and ("[" in p or "-" in p
                                                              or p in {"int", "str"}))]
    if not parts:
        return "the request"
    words = str(parts[0])
    for part in parts[1:]:
        words += f" (item {part + 1})" if isinstance(part, int) else f" {part}"
    return words


def describe_error(error: Mapping[str, Any]) -> str:
    """One pydantic error as words: ``"code is too long (at most 4 characters)"``."""
    kind = str(error.get("type", ""))
    ctx = error.get("ctx") or {}
    what = _field(tuple(error.get("loc") or ()))
    if kind == "json_invalid":
        return "the request is not valid JSON"
    if kind == "string_too_long":
        return f"{what} is too long (at most {ctx.get('max_length')} characters)"
    if kind == "string_too_short":
        return f"{what} is empty"
    if kind == "too_long":
        return f"{what} has too many entries (at most {ctx.get('max_length')})"
    if kind == "too_short":
        return f"{what} needs at least {ctx.get('min_length')} entries"
    if kind in ("greater_than_equal", "greater_than"):
        return f"{what} must be at least {ctx.get('ge', ctx.get('gt'))}"
    if kind in ("less_than_equal", "less_than"):
        return f"{what} must be at most {ctx.get('le', ctx.get('lt'))}"
    if kind == "value_error" and ctx.get("error"):
        return f"{what} {ctx['error']}"
    said = _SAYS.get(kind)
    if said is None:
        said = str(error.get("msg", "is not right")).rstrip(".")
        said = said[:1].lower() + said[1:]
    return f"{what} {said}"


def explain(errors: list[Mapping[str, Any]]) -> str:
    """A whole validation failure as one sentence (the first problem is enough to act on)."""
    if not errors:
        return "That request is not right."
    first = describe_error(errors[0])
    sentence = first[:1].upper() + first[1:]
    more = len({_field(tuple(e.get("loc") or ())) for e in errors}) - 1
    if more > 0 and errors[0].get("type") != "json_invalid":
        sentence += f" (and {more} more problem{'s' if more > 1 else ''})"
    return sentence + "."


def sentence(message: str) -> str:
    """A refusal as a sentence: capital first letter, a full stop at the end."""
    message = " ".join(message.split()) or "That is not possible now"
    message = message[:1].upper() + message[1:]
    return message if message[-1] in ".!?" else message + "."


def explain_validation(exc: ValidationError) -> str:
    """A pydantic ValidationError as one plain sentence."""
    errors: list[Mapping[str, Any]] = list(exc.errors(include_url=False))
    return explain(errors)
