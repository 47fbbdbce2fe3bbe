"""A tournament's buttons, as callback data: the kind writes and parses its own fields, framed by
`bot.telegram.callbacks` (the kinds: `PAYLOADS`):

    t:<tournament id>:j|l|s|x             its sign-up: join, leave, start, cancel
    t:<tournament id>:m<pairing>          play that pairing of its schedule
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar

from bot.telegram.callbacks import CallbackDataError, Payload, check_number, number
from bot.telegram.styles import Meaning


class TournamentOp(StrEnum):
    JOIN = "j"
    LEAVE = "l"
    START = "s"
    CANCEL = "x"
    MATCH = "m"  # play the pairing `match` of the schedule


# What each button means, for its colour (bot.telegram.styles); a pairing has none: the
# table lists them all, each as much a choice as the next.
_MEANINGS = {TournamentOp.JOIN: Meaning.ACCEPT, TournamentOp.LEAVE: Meaning.WITHDRAW,
             TournamentOp.START: Meaning.PROCEED, TournamentOp.CANCEL: Meaning.CANCEL}


@dataclass(frozen=True, slots=True)
class TournamentPress:
    """A tournament's sign-up button, or a scheduled pairing's "play" (with its index)."""

    PREFIX: ClassVar[str] = "t"

    tournament_id: int
    op: TournamentOp
    match: int | None = None

    def __post_init__(self) -> None:
        check_number("tournament_id", self.tournament_id)
        if not isinstance(self.op, TournamentOp):
            raise CallbackDataError("op must be a TournamentOp")
        if self.op is TournamentOp.MATCH:
            if self.match is None:
                raise CallbackDataError("a match press names the pairing")
            check_number("match", self.match)
        elif self.match is not None:
            raise CallbackDataError("only a match press names a pairing")

    def fields(self) -> tuple[str, ...]:
        return str(self.tournament_id), self.op.value + (
            "" if self.match is None else str(self.match))

    @classmethod
    def parse(cls, fields: list[str]) -> TournamentPress:
        if len(fields) != 2 or not fields[1]:
            raise CallbackDataError("a tournament press has an id and an operation")
        tournament_id, op = number(fields[0]), fields[1]
        if op[0] == TournamentOp.MATCH.value:
            return cls(tournament_id, TournamentOp.MATCH, number(op[1:]))
        if op not in {o.value for o in TournamentOp}:
            raise CallbackDataError("unknown tournament operation")
        return cls(tournament_id, TournamentOp(op))

    @property
    def meaning(self) -> Meaning | None:
        return _MEANINGS.get(self.op)


PAYLOADS: tuple[type[Payload], ...] = (TournamentPress,)
