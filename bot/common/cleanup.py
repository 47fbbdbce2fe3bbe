"""What a dead worker left to delete (bot.telegram.janitor's journal), deleted by a live one.

Every write to the journal arms (pushes back) a due row of the chat (kind `janitor.orphans`,
key the chat's id: bot.common.due) for `AFTER` seconds later, unless this process armed it
less than `REARM` seconds ago. A live worker deletes what it
wrote within the janitor's `MAX_WAIT`, so what the journal still holds when the row comes due
was left by a worker that died (or by this process's own failed cross-off): the worker that
claims the row deletes it, as a restart's `Janitor.resume` would. Fired twice, a message
deleted already is gone from the journal, and Telegram's "not found" crosses off the rest.
"""

from __future__ import annotations

from typing import Any

from bot.common import due
from bot.services import services
from bot.telegram import App
from bot.telegram.janitor import MAX_WAIT

ORPHANS = "janitor.orphans"  # the due rows' kind
AFTER = MAX_WAIT + 30.0  # seconds after the last write of a chat's deletes
# Seconds within which a chat's row armed by this process is not pushed back again (a
# statement a tap in a busy chat): it then comes due at least AFTER - REARM after any write,
# still well past MAX_WAIT, and it cannot have fired meanwhile (AFTER > REARM).
REARM = 20.0
_REMEMBERED = 4096  # chats whose last arming this process keeps in mind


async def adopt_orphans(app: App, key: str, data: Any) -> None:
    svc, chat_id = services(app.bot_data), int(key)
    left = [m for m in await svc.storage.deletes.pending_in(chat_id)
            if not svc.janitor.handled(chat_id, m)]  # this process's own are on their way
    if left:
        svc.janitor.adopt(app.bot, chat_id, left)


def arm(app: App) -> None:
    """Hook the janitor's writes to the fallback row: on PostgreSQL only. On SQLite this is
    the one process (its file lock), and a restart's `Janitor.resume` deletes what it left:
    the row would cost a statement a tap for nobody."""
    scheduler = due.of(app)
    if scheduler.can.one_process:
        return

    armed: dict[int, float] = {}  # chat -> when this process last armed its row

    async def written(chat_id: int) -> None:
        now = scheduler.clock()
        if now - armed.get(chat_id, -REARM) < REARM:
            return
        await scheduler.later(ORPHANS, str(chat_id), AFTER)
        armed[chat_id] = now
        if len(armed) > _REMEMBERED:
            for chat in [c for c, at in armed.items() if now - at >= REARM]:
                del armed[chat]

    services(app.bot_data).janitor.written = written
