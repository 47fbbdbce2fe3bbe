"""A group upgraded to a supergroup: every row of the old chat id moved to the new one.

Telegram gives the supergroup a new chat id and makes the old group read-only. `move_chat`
moves what the bot keeps about the chat, in one transaction (all or nothing), and is
idempotent: both of Telegram's signals (the old group's `migrate_to_chat_id`, the supergroup's
`migrate_from_chat_id`, or a send refused with `ChatMigrated`) may arrive, in any order, and
the later ones find nothing left to move.

Rows that may exist under the new id already (the new chat seen first):

* `chats`: the new row (it is the newer) is kept, the old one dropped; if there is no new row
  the old one becomes it, as a supergroup.
* `chat_settings`: the new id's own row wins when it has one (someone changed /settings in
  the supergroup first); otherwise the group's settings move.
* `balances` with the same (chat, user) on both sides are merged: balance, games, net and
  rebuys are summed (the player keeps everything they hold on either side), the latest rebuy
  time is kept, and the version moves past both (a compare-and-swap that read either fails).
* `ratings` with the same (chat, user) on both sides: the one moved by more duels is kept
  (a rating is not a sum; the longer record is the better estimate), the other dropped.
* the standings kept from the results (bot.storage.standings) are dropped under both ids and
  written again from the moved chat's results, as its replay computes them (one-off, bounded
  by that chat's history).

The old group's messages can no longer be edited, and its message ids mean nothing in the new
chat (whose ids start again at 1): every moved challenge and game (each game's repository the
storage built, `LiveGames.move_chat`: the duels, six-card's, any other) forgets its message id,
and live games forget which version they show, so the sync job (or the caller) shows them again
in the new chat. Pending challenges expire: their message stays in the read-
only old group, and a challenger simply challenges again in the supergroup. Turn timers are
keyed by duel id and need no change.

A player with a live six-card game under both ids cannot keep two (one live game per player
per chat): the caller closes the old one (refunded) first, inside the same transaction
(`bot.common.chats.migrate_chat`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.storage.db import Database
from bot.storage.games import LiveGames
from bot.storage.standings import rebuild_chat
from bot.storage.tournaments import TournamentRepo


@dataclass(frozen=True, slots=True)
class ChatMove:
    """What `move_chat` did."""

    old_id: int
    new_id: int
    rows: int  # rows of games, results, settings and balances moved (0: none were left)
    live: Mapping[str, tuple[int, ...]]  # each game's (by its kind) to show again in the new chat
    expired_challenges: int
    merged_balances: int

    @property
    def moved(self) -> bool:
        return self.rows > 0

    def live_of(self, kind: str) -> tuple[int, ...]:
        """The live games of that kind moved (to show again in the new chat)."""
        return self.live.get(kind, ())


async def move_chat(db: Database, old_id: int, new_id: int, *, now: int,
                    games: Iterable[LiveGames[Any, Any]] = ()) -> ChatMove:
    """Move every row of chat `old_id` to `new_id`, in one transaction (joining the caller's,
    if any); of the games, those of `games` (`Storage.move_chat` gives every one it has).
    Moving a chat onto itself is refused."""
    if old_id == new_id:
        raise ValueError("a chat cannot move onto itself")
    rows = 0
    live: dict[str, tuple[int, ...]] = {}
    async with db.transaction():
        await db.execute(
            "INSERT INTO chats (id, type, title, is_forum, active, updated_at)"
            " SELECT ?, 'supergroup', title, is_forum, 1, ? FROM chats WHERE id = ?"
            " ON CONFLICT (id) DO NOTHING",
            (new_id, now, old_id))
        await db.execute("DELETE FROM chats WHERE id = ?", (old_id,))

        await db.execute(
            "INSERT INTO chat_settings (chat_id, settings)"
            " SELECT ?, settings FROM chat_settings WHERE chat_id = ?"
            " ON CONFLICT (chat_id) DO NOTHING",
            (new_id, old_id))
        rows += await db.execute("DELETE FROM chat_settings WHERE chat_id = ?", (old_id,))

        expired = await db.execute(
            "UPDATE challenges SET status = 'expired', version = version + 1"
            " WHERE chat_id = ? AND status = 'pending'", (old_id,))
        rows += await db.execute(
            "UPDATE challenges SET chat_id = ?, message_id = NULL WHERE chat_id = ?",
            (new_id, old_id))

        for game in games:
            ids, moved = await game.move_chat(old_id, new_id)
            live[game.kind] = tuple(ids)
            rows += moved
        results = await db.execute(
            "UPDATE results SET chat_id = ? WHERE chat_id = ?", (new_id, old_id))
        rows += results
        # The old group is read-only: its messages can no longer be replied to.
        await db.execute("DELETE FROM duel_messages WHERE chat_id = ?", (old_id,))

        merged = await db.execute(
            "UPDATE balances AS n SET balance = n.balance + o.balance,"
            " version = n.version + o.version + 1, rebuys = n.rebuys + o.rebuys,"
            " last_rebuy_at = CASE WHEN o.last_rebuy_at IS NULL THEN n.last_rebuy_at"
            "   WHEN n.last_rebuy_at IS NULL OR o.last_rebuy_at > n.last_rebuy_at"
            "   THEN o.last_rebuy_at ELSE n.last_rebuy_at END,"
            " games = n.games + o.games, net = n.net + o.net,"
            " created_at = CASE WHEN o.created_at < n.created_at THEN o.created_at"
            "   ELSE n.created_at END, updated_at = ?"
            " FROM balances AS o"
            " WHERE n.chat_id = ? AND o.chat_id = ? AND o.user_id = n.user_id",
            (now, new_id, old_id))
        await db.execute(
            "DELETE FROM balances WHERE chat_id = ?"
            " AND user_id IN (SELECT user_id FROM balances WHERE chat_id = ?)",
            (old_id, new_id))
        rows += merged + await db.execute(
            "UPDATE balances SET chat_id = ? WHERE chat_id = ?", (new_id, old_id))

        await db.execute(
            "UPDATE ratings AS n SET mu = o.mu, sigma = o.sigma, duels = o.duels"
            " FROM ratings AS o"
            " WHERE n.chat_id = ? AND o.chat_id = ? AND o.user_id = n.user_id"
            " AND o.duels > n.duels",
            (new_id, old_id))
        await db.execute(
            "DELETE FROM ratings WHERE chat_id = ?"
            " AND user_id IN (SELECT user_id FROM ratings WHERE chat_id = ?)",
            (old_id, new_id))
        await db.execute("UPDATE ratings SET chat_id = ? WHERE chat_id = ?", (new_id, old_id))
        if results:
            await rebuild_chat(db, old_id)  # none left: its rows go
            await rebuild_chat(db, new_id)

        # tournaments: their tables are posted again in the new chat by their job
        rows += await TournamentRepo(db).migrate_chat(old_id, new_id)
    return ChatMove(old_id, new_id, rows, live, expired, merged)
