"""A tournament's buttons, as callback data (`bot.telegram.callbacks` frames them):

    t:<tournament id>:j|l|s|x             its sign-up: join, leave, start, cancel
    t:<tournament id>:m<pairing>          play that pairing of its schedule
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bot.telegram.callbacks import CallbackDataError, check_number, number, register


class TournamentOp(StrEnum):
    JOIN = "j"
    LEAVE = "l"
    START = "s"
    CANCEL = "x"
    MATCH = "m"  # play the pairing `match` of the schedule


@dataclass(frozen=True, slots=True)
class TournamentPress:
    """A tournament's sign-up button, or a scheduled pairing's "play" (with its index)."""

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


def _fields(p: TournamentPress) -> tuple[str, str]:
    return str(p.tournament_id), p.op.value + ("" if p.match is None else str(p.match))


def _parse(fields: list[str]) -> TournamentPress:
    if len(fields) != 2 or not fields[1]:
        raise CallbackDataError("a tournament press has an id and an operation")
    tournament_id, op = number(fields[0]), fields[1]
    if op[0] == TournamentOp.MATCH.value:
        return TournamentPress(tournament_id, TournamentOp.MATCH, number(op[1:]))
    if op not in {o.value for o in TournamentOp}:
        raise CallbackDataError("unknown tournament operation")
    return TournamentPress(tournament_id, TournamentOp(op))


register("t", TournamentPress, _fields, _parse)
