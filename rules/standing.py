"""A player's running record and the keys of the seasons a result counts in, pure: what the
standings' replay (bot.stats.standings) and the rows kept as results are saved
(bot.storage.standings) both compute, so the two can never tell different numbers.

    Tally().add(net, bonus, best, outcome)  # one duel, oldest first; outcome WIN, DRAW or LOSS
    keys(finished_at)                       -> ("all", "2026-12", "2026-Q4"): where it counts

Seasons are calendar months and quarters in UTC (bot.stats.seasons names and labels them);
`month_key` and `quarter_key` are its `Season.key`s, computed from a second alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

WIN, DRAW, LOSS = 1, 0, -1  # a duel's outcome for one of its players
ALL = "all"  # the key of all time


@dataclass(slots=True)
class Tally:
    """W-D-L, net chips, the best hand shown (HandValue strength), the biggest bonus and the
    streak (> 0 wins in a row, < 0 losses in a row, 0 after a draw)."""

    played: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    net: int = 0
    best: int | None = None
    top_bonus: int = 0
    streak: int = 0

    def add(self, net: int, bonus: int, best: int | None, outcome: int) -> None:
        self.played += 1
        self.net += net
        self.top_bonus = max(self.top_bonus, bonus)
        if best is not None and (self.best is None or best > self.best):
            self.best = best
        if outcome == DRAW:
            self.draws += 1
            self.streak = 0
        elif outcome == WIN:
            self.wins += 1
            self.streak = self.streak + 1 if self.streak > 0 else 1
        else:
            self.losses += 1
            self.streak = self.streak - 1 if self.streak < 0 else -1


def outcome(winner_id: int | None, me: int) -> int:
    """WIN, DRAW (no winner) or LOSS for player `me` (a user id)."""
    return DRAW if winner_id is None else WIN if winner_id == me else LOSS


def month_key(timestamp: int) -> str:
    """"2026-12": the UTC month holding `timestamp` (Unix seconds)."""
    when = datetime.fromtimestamp(timestamp, UTC)
    return f"{when.year}-{when.month:02d}"


def quarter_key(timestamp: int) -> str:
    """"2026-Q4": the UTC quarter holding `timestamp`."""
    when = datetime.fromtimestamp(timestamp, UTC)
    return f"{when.year}-Q{(when.month - 1) // 3 + 1}"


def keys(timestamp: int) -> tuple[str, str, str]:
    """Every window a result finished at `timestamp` counts in: all time, its month, its
    quarter."""
    return ALL, month_key(timestamp), quarter_key(timestamp)
