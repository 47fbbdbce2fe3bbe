"""Turn timers as saved: each live duel's deadline and each player's timeouts in a row.

What `bot.duel.timers` arms the duel's next alarm (a due row, bot.storage.jobs) from, and what
an alarm checks when it fires. One row per duel. `version` is the duel version the row is up
to date with: its deadline is for the move at that version, and its counts include every move
up to it.

A row goes with its duel's end: the finished duel's last present() deletes it (`delete`), and
`prune` drops those of duels that ended without one (abandoned with their chat: when the chat
is forgotten, and at every start), so the table holds the live duels' rows only.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage.db import Database, Row


@dataclass(frozen=True, slots=True)
class TimerRecord:
    duel_id: int
    version: int
    seconds: int  # the chat's turn timer when this move was armed (0: off), not scaled
    remind_at: float | None  # unix seconds
    deadline: float | None  # None: no timer on this move
    reminded: bool
    timeouts: tuple[int, int]  # each player's timeouts in a row

    @property
    def armed(self) -> bool:
        return self.deadline is not None


def _timer(row: Row) -> TimerRecord:
    return TimerRecord(
        duel_id=row["duel_id"], version=row["version"], seconds=row["seconds"],
        remind_at=row["remind_at"], deadline=row["deadline"], reminded=bool(row["reminded"]),
        timeouts=(row["timeouts0"], row["timeouts1"]),
    )


class TimerRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def get(self, duel_id: int) -> TimerRecord | None:
        row = await self.db.fetchone("SELECT * FROM turn_timers WHERE duel_id = ?", (duel_id,))
        return _timer(row) if row else None

    async def put(self, t: TimerRecord) -> None:
        await self.db.execute(
            "INSERT INTO turn_timers (duel_id, version, seconds, remind_at, deadline, reminded,"
            " timeouts0, timeouts1) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (duel_id) DO UPDATE SET version = excluded.version,"
            " seconds = excluded.seconds, remind_at = excluded.remind_at,"
            " deadline = excluded.deadline, reminded = excluded.reminded,"
            " timeouts0 = excluded.timeouts0, timeouts1 = excluded.timeouts1"
            " WHERE turn_timers.version <= excluded.version",  # never back to an older move
            (t.duel_id, t.version, t.seconds, t.remind_at, t.deadline, int(t.reminded),
             t.timeouts[0], t.timeouts[1]),
        )

    async def mark_reminded(self, duel_id: int, version: int) -> bool:
        """Note that the reminder for `version` went out; False if the row moved on (or it
        had gone out already), so a reminder is sent at most once."""
        changed = await self.db.execute(
            "UPDATE turn_timers SET reminded = 1"
            " WHERE duel_id = ? AND version = ? AND reminded = 0",
            (duel_id, version),
        )
        return changed == 1

    async def delete(self, duel_id: int) -> None:
        await self.db.execute("DELETE FROM turn_timers WHERE duel_id = ?", (duel_id,))

    async def prune(self) -> int:
        """Drop the rows of duels that are no longer live (e.g. abandoned with their chat)."""
        return await self.db.execute(
            "DELETE FROM turn_timers WHERE duel_id NOT IN"
            " (SELECT id FROM duels WHERE status = 'live')"
        )
