"""The standings board's buttons, as callback data: the kind writes and parses its own fields,
framed by `bot.telegram.callbacks` (the kinds: `PAYLOADS`):

    b:n|l|a                               the chat's standings: this season, the last, all time
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar

from bot.telegram.callbacks import CallbackDataError, Payload
from bot.telegram.styles import Meaning


class BoardScope(StrEnum):
    """Which results a chat's standings board counts (bot.stats.seasons)."""

    SEASON = "n"  # the current season
    LAST = "l"  # the season before it
    ALL = "a"  # all time


@dataclass(frozen=True, slots=True)
class BoardPress:
    """Show the standings of the pressed message's chat for a scope, to whoever pressed."""

    PREFIX: ClassVar[str] = "b"

    scope: BoardScope

    def __post_init__(self) -> None:
        if not isinstance(self.scope, BoardScope):
            raise CallbackDataError("scope must be a BoardScope")

    def fields(self) -> tuple[str, ...]:
        return (self.scope.value,)

    @classmethod
    def parse(cls, fields: list[str]) -> BoardPress:
        if len(fields) != 1 or fields[0] not in {s.value for s in BoardScope}:
            raise CallbackDataError("a standings press has a scope")
        return cls(BoardScope(fields[0]))

    @property
    def meaning(self) -> Meaning | None:  # a choice among equals: no colour
        return None


PAYLOADS: tuple[type[Payload], ...] = (BoardPress,)
