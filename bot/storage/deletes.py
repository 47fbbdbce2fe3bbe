"""The bot's messages waiting to be deleted (the janitor's journal, `bot.telegram.janitor`):
written before the wait for room in the chat's budget, removed once deleted (or found gone),
so a restart deletes what a kill left pending."""

from __future__ import annotations

from collections.abc import Sequence

from bot.storage.db import Database

CHUNK = 200  # messages a statement writes or crosses off (400 parameters)


class DeleteRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def add(self, messages: Sequence[tuple[int, int]]) -> None:
        """Write these (chat id, message id) down, whatever their chats: one statement for up
        to `CHUNK` of them (the janitor writes a moment's deletes at once)."""
        await self._each(
            "INSERT INTO pending_deletes (chat_id, message_id) VALUES {} ON CONFLICT DO NOTHING",
            "(?, ?)", ", ", messages)

    async def drop(self, messages: Sequence[tuple[int, int]]) -> None:
        """Cross these (chat id, message id) off, whatever their chats: one statement for up
        to `CHUNK` of them (the janitor crosses off a while's deletes at once)."""
        await self._each("DELETE FROM pending_deletes WHERE {}",
                         "(chat_id = ? AND message_id = ?)", " OR ", messages)

    async def _each(self, sql: str, one: str, joint: str,
                    messages: Sequence[tuple[int, int]]) -> None:
        chunks = [messages[i:i + CHUNK] for i in range(0, len(messages), CHUNK)]
        async with self.db.together(len(chunks)):
            for chunk in chunks:
                await self.db.execute(sql.format(joint.join([one] * len(chunk))),
                                      tuple(v for pair in chunk for v in pair))

    async def pending(self) -> dict[int, list[int]]:
        """Every chat's messages still to delete, oldest first."""
        out: dict[int, list[int]] = {}
        for row in await self.db.fetchall(
                "SELECT chat_id, message_id FROM pending_deletes ORDER BY chat_id, message_id"):
            out.setdefault(int(row["chat_id"]), []).append(int(row["message_id"]))
        return out

    async def pending_in(self, chat_id: int) -> list[int]:
        """One chat's messages still to delete, oldest first."""
        rows = await self.db.fetchall("SELECT message_id FROM pending_deletes WHERE chat_id = ?"
                                      " ORDER BY message_id", (chat_id,))
        return [int(r["message_id"]) for r in rows]
