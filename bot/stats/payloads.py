"""The standings board's buttons, as callback data (`bot.telegram.callbacks` frames them):

    b:n|l|a                               the chat's standings: this season, the last, all time
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bot.telegram.callbacks import CallbackDataError, register


class BoardScope(StrEnum):
    """Which results a chat's standings board counts (bot.stats.seasons)."""

    SEASON = "n"  # the current season
    LAST = "l"  # the season before it
    ALL = "a"  # all time


@dataclass(frozen=True, slots=True)
class BoardPress:
    """Show the standings of the pressed message's chat for a scope, to whoever pressed."""

    scope: BoardScope

    def __post_init__(self) -> None:
        if not isinstance(self.scope, BoardScope):
            raise CallbackDataError("scope must be a BoardScope")


def _parse(fields: list[str]) -> BoardPress:
    if len(fields) != 1 or fields[0] not in {s.value for s in BoardScope}:
        raise CallbackDataError("a standings press has a scope")
    return BoardPress(BoardScope(fields[0]))


register("b", BoardPress, lambda p: (p.scope.value,), _parse)
