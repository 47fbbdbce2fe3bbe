"""Commands that only show something (/stats, /rules, /help, /history, /balance, /settings):
a member's repeats are dropped, and the replies yield to the games.

`shows(callback)` wraps such a command's handler. A member who sends the command again in
the same chat (with the same arguments and reply: `/stats @bob` or `/stats` as a reply after
`/stats` is no repeat) within
`REPEAT_WITHIN` seconds of the one answered gets no second message: the
repeat is dropped at once, never queued (the first reply is on its way or there already).
The answered one's sends are made as `Priority.CHATTER` (its update's handling says so while
it runs: bot.handling), so when the group's flood budget is short they wait behind what a
game needs (bot.telegram.ratelimit). With several workers (the limiter's window is the
database's) the answered asks are counted there, so a repeat is one whichever worker it
reaches.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections import OrderedDict
from collections.abc import Callable, Coroutine
from typing import Any

from telegram import Update
from telegram.ext import ContextTypes

from bot import handling
from bot.telegram.flood import Clock, DatabaseWindow

log = logging.getLogger(__name__)

REPEAT_WITHIN = 5.0  # seconds during which the same member's same command is a repeat
REMEMBER = 4096  # (chat, member) pairs remembered per command

Callback = Callable[[Update, ContextTypes.DEFAULT_TYPE], Coroutine[Any, Any, None]]


class Repeats:
    """When each (chat, member) was last answered; is a new ask a repeat?"""

    def __init__(self, within: float = REPEAT_WITHIN, clock: Clock = time.monotonic) -> None:
        self.within = within
        self.clock = clock
        self._answered: OrderedDict[tuple[int, int, str], float] = OrderedDict()

    def first(self, chat_id: int, user_id: int, text: str = "") -> bool:
        """True (and remembered) unless this member was answered the same `text` in this chat
        lately."""
        now, key = self.clock(), (chat_id, user_id, " ".join(text.split()))
        last = self._answered.get(key)
        if last is not None and now - last < self.within:
            return False
        self._answered[key] = now
        self._answered.move_to_end(key)
        while len(self._answered) > REMEMBER:
            self._answered.popitem(last=False)
        return True

    async def first_shared(self, window: DatabaseWindow, command: str, chat_id: int,
                           user_id: int, text: str = "") -> bool:
        """`first`, counted in the window every worker shares (one ask per `within`)."""
        digest = hashlib.blake2b(" ".join(text.split()).encode(), digest_size=8).hexdigest()
        key = f"repeat:{command}:{chat_id:d}:{user_id:d}:{digest}"
        return await window.take(key, 1, self.within) == 0.0


def _shared(context: Any) -> DatabaseWindow | None:
    """The window every worker shares, if the bot's rate limiter counts in one."""
    window = getattr(getattr(getattr(context, "bot", None), "rate_limiter", None), "window", None)
    return window if isinstance(window, DatabaseWindow) else None


def shows(callback: Callback, repeats: Repeats | None = None) -> Callback:
    """The handler of a command that only shows something: repeats dropped, sends yielding."""
    seen = repeats if repeats is not None else Repeats()

    async def handler(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        chat, user, message = update.effective_chat, update.effective_user, update.effective_message
        text = "" if message is None else (message.text or "")
        if message is not None and message.reply_to_message is not None:  # about whom it asks
            text += f" reply:{message.reply_to_message.message_id}"
        shared = _shared(context)
        if chat is not None and user is not None and not (
                seen.first(chat.id, user.id, text) if shared is None else
                await seen.first_shared(shared, callback.__name__, chat.id, user.id, text)):
            log.info("chat %d: a repeat of %s by user %d dropped", chat.id,
                     callback.__name__, user.id)
            return
        with handling.opened() as within:  # its own sends yield, not those after it
            chatter, within.chatter = within.chatter, True
            try:
                await callback(update, context)
            finally:
                within.chatter = chatter

    handler.__name__ = callback.__name__
    handler.__doc__ = callback.__doc__
    return handler
