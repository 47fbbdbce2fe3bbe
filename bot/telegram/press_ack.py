"""A button press is answered within a second, whatever waits in its chat.

Telegram shows a spinner on the pressed button until the bot answers the callback query, and
refuses an answer that comes too late. A press's handler answers it (a toast, or quietly) as
soon as it knows what the press did, but that may wait: for a place in its chat's line, for
its game's lock while the previous move's table waits for the group's flood budget. So the
update processor `watch`es every press: if its handler has not answered within
`ACK_WITHIN` seconds, the press is acknowledged quietly then, and the handler's own answer
(`claim` says no) is skipped: its toast is lost, the press itself is handled all the same.
Whether the press is answered is the update's `Handling` (bot.handling), which the tasks the
handler starts share.
Answering a press carries no chat id, so it is never paced nor counted against a budget
(bot.telegram.ratelimit).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

from telegram import CallbackQuery, Update
from telegram.error import TelegramError

from bot import handling
from bot.handling import Handling

log = logging.getLogger(__name__)

ACK_WITHIN = 0.8  # seconds a press may go unanswered before it is acknowledged quietly


def claim(within: Handling | None = None) -> bool:
    """May the handler answer the press it handles (nobody answered it yet)? Only one may: a
    True is the answer's to give. `within`: the update's handling (else the current one)."""
    press = within if within is not None else handling.current()
    if press is None or not press.press:
        return True  # not within a watched press (a test calling a handler directly)
    if press.claimed:
        return False
    press.claimed = True
    return True


async def _acknowledge(query: CallbackQuery, press: Handling, after: float) -> None:
    await asyncio.sleep(after)
    if not claim(press):
        return
    log.info("a press not answered within %.1f s: acknowledged quietly", after)
    await _quietly(query)


async def _quietly(query: CallbackQuery) -> None:
    try:
        await query.answer()
    except TelegramError as e:
        log.warning("could not acknowledge a button press: %s", e)


@contextlib.asynccontextmanager
async def watch(update: object, after: float = ACK_WITHIN,
                within: Handling | None = None) -> AsyncIterator[None]:
    """Within this block (an update's whole handling, its wait for a place included), a press
    not answered after `after` seconds is acknowledged quietly, and one its handling ended
    without answering is acknowledged quietly then. `within`: the update's handling (else the
    current one, else one for this block)."""
    query = update.callback_query if isinstance(update, Update) else None
    if query is None:
        yield
        return
    with handling.opened(within) as press:
        press.press, press.claimed = True, False
        watchdog = asyncio.ensure_future(_acknowledge(query, press, after))
        try:
            yield
            if claim(press):  # handled without a word (before the watchdog's turn): the
                watchdog.cancel()  # press is not left spinning until Telegram gives up
                await _quietly(query)
        finally:
            watchdog.cancel()
