"""What an update reads first, in one statement where rows are kept for one update alone
(PostgreSQL, `bot.storage.row_cache`): its user's row, its chat's row and the chat's settings,
which `bot.common.chats.remember` then holds against what Telegram says (most updates change
nothing). Three reads by key cost a round trip and a statement each, so one statement instead
of two saves a tap one of each. Where the process keeps them (SQLite) nothing is read."""

from __future__ import annotations

from bot.storage.chats import ChatRecord, ChatRepo, settings_of
from bot.storage.db import Database
from bot.storage.users import UserRepo, user_of

_CHAT = ("id", "type", "title", "is_forum", "active", "updated_at", "settings")
_SQL = ("SELECT u.*, " + ", ".join(
    f"{'s' if c == 'settings' else 'c'}.{c} AS chat_{c}" for c in _CHAT)
    + " FROM (SELECT 1 AS one) AS one LEFT JOIN users u ON u.id = ?"
      " LEFT JOIN chats c ON c.id = ? LEFT JOIN chat_settings s ON s.chat_id = c.id")


async def read_first(db: Database, users: UserRepo, chats: ChatRepo, user_id: int,
                     chat_id: int) -> None:
    """Keep the user's and the chat's rows (and settings) for this update, read together."""
    if db.can.one_process:
        return
    row = await db.fetchone(_SQL, (user_id, chat_id))
    if row is None:
        return
    if row["id"] is not None:
        users.keep(user_of(row))
    if row["chat_id"] is not None:
        chats.keep(ChatRecord(row["chat_id"], row["chat_type"], row["chat_title"],
                              bool(row["chat_is_forum"]), bool(row["chat_active"]),
                              row["chat_updated_at"]), settings_of(row["chat_settings"]))
