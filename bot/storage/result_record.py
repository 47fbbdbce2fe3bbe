"""A finished duel's result as the repositories hand it, and its row in table results: one
module below both the results' repository and the standings kept from them
(bot.storage.standings), which reads results to rebuild its rows."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bot.storage.db import Row


class ResultReason(StrEnum):
    NORMAL = "normal"  # after the last bullet, or a player ran out of chips
    SURRENDER = "surrender"
    TIMEOUT = "timeout"
    TIEBREAK = "tiebreak"  # decided by tiebreak bullets


@dataclass(frozen=True, slots=True)
class DuelResult:
    """Tuples are indexed like `players` (player 0, player 1 of the duel)."""

    duel_id: int
    chat_id: int
    players: tuple[int, int]
    final_stacks: tuple[int, int]
    start_stack: int
    winner_id: int | None  # None: a draw
    reason: ResultReason
    best_hands: tuple[int | None, int | None]  # HandValue.strength of each one's best hand shown
    bonus_chips: tuple[int, int]  # bonus chips each player won
    bullets: int  # bullets played
    finished_at: int

    def __post_init__(self) -> None:
        if self.players[0] == self.players[1]:
            raise ValueError("a duel has two different players")
        if self.winner_id is not None and self.winner_id not in self.players:
            raise ValueError("the winner must be one of the players")

    @property
    def loser_id(self) -> int | None:
        if self.winner_id is None:
            return None
        return self.players[1] if self.winner_id == self.players[0] else self.players[0]


COLUMNS = (
    "duel_id, chat_id, player0_id, player1_id, stack0, stack1, start_stack, winner_id, reason,"
    " best0, best1, bonus0, bonus1, bullets, finished_at"
)


def result_of(row: Row) -> DuelResult:
    return DuelResult(
        duel_id=row["duel_id"], chat_id=row["chat_id"],
        players=(row["player0_id"], row["player1_id"]),
        final_stacks=(row["stack0"], row["stack1"]), start_stack=row["start_stack"],
        winner_id=row["winner_id"], reason=ResultReason(row["reason"]),
        best_hands=(row["best0"], row["best1"]), bonus_chips=(row["bonus0"], row["bonus1"]),
        bullets=row["bullets"], finished_at=row["finished_at"],
    )
