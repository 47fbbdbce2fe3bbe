"""One shell loop for every game: act on a press, present what is saved, resync what lags.

A game plugs in with two halves: a `Game` (its records in storage and its rules: load, seat,
apply, save, which version a message shows) and a `Screen` (its messages: show a record, what
to do when the chat is gone).
`Live` runs the same steps for every game:

    press    load by id, once -> the screen looks at the pressed message (adopts a send that
             arrived after all; an old copy of the live message acts on nothing, and loses
             its buttons) -> act on the record loaded
    act      the checks and the rules, saved by compare-and-swap (`bot.common.game`)
    present  bring the messages from the version they show to the saved one; a chat that
             threw the bot out, or became a supergroup, is handled here for every game
    sync     one job (`bot.common.sync`) redraws every game's lagging messages

A game's buttons need no handler of its own: `handler(kind)` decodes its press (a payload
with the record's id, the version and the action) and runs `press`. No game rule here, and
no game: each game's package registers its `Live`'s handler and plugs it into the sync job
(`sync.plug`) in its `register(app)`.
"""

from __future__ import annotations

import asyncio
import logging
from abc import ABC, abstractmethod
from typing import Any, Generic, Protocol, TypeVar

from telegram import Bot, CallbackQuery, MaybeInaccessibleMessage, Update
from telegram.ext import CallbackQueryHandler, ContextTypes

from bot.common.chats import migrate_chat
from bot.common.errors import answer_quietly
from bot.common.game import REPEATED, A, Applied, E, Game, R, Record, S, act, act_on
from bot.common.handlers import pressed, toast
from bot.common.refusal import Refusal
from bot.common.sync import SYNC_EVERY, SYNC_GRACE, SYNC_MOST, Retries
from bot.i18n import Translator
from bot.services import Services
from bot.telegram import callbacks, intake, send

__all__ = ["REPEATED", "Applied", "Game", "Live", "Press", "Record", "Screen", "act", "act_on"]

A_co = TypeVar("A_co", covariant=True)

log = logging.getLogger(__name__)


class Screen(ABC, Generic[R]):
    """A game's messages."""

    @abstractmethod
    async def show(self, svc: Services, bot: Bot, record: R, note: str | None = None) -> None:
        """Bring the record's messages up to its saved version (`note`: a line to say with
        it, such as what the clock did); send.ChatGone or send.ChatMoved when Telegram says
        the chat is gone or moved."""

    @abstractmethod
    async def gone(self, svc: Services, record: R) -> None:
        """The chat threw the bot out while the record was shown."""

    async def presented(self, svc: Services, record: R) -> None:
        """Run after every present (the duel's turn timers follow it)."""

    async def pressed_on(self, svc: Services, bot: Bot, record: R,
                         message: MaybeInaccessibleMessage | None,
                         version: int) -> tuple[R, bool]:
        """A player's button on `message`, about to be acted on: the record to act on (the
        screen may take the message as the live one: a send that arrived after all), and
        whether `message` is an old one, no longer the record's live message (a press there
        moves nothing). None are, unless the screen keeps track of its messages."""
        return record, False

    async def retire(self, svc: Services, bot: Bot, record: R,
                     message: MaybeInaccessibleMessage | None, version: int) -> None:
        """A player pressed on an old message of a live record (`pressed_on` said so): it
        must not keep live buttons."""


class Press(callbacks.Payload, Protocol[A_co]):
    """A game's button payload (`bot.telegram.callbacks.Payload`): the record it is for, the
    version its button was drawn for, and the action."""

    @property
    def record_id(self) -> int: ...

    @property
    def version(self) -> int: ...

    @property
    def action(self) -> A_co: ...


class Live(Generic[R, S, A, E]):
    def __init__(self, game: Game[R, S, A, E], screen: Screen[R]) -> None:
        self.game = game
        self.screen = screen
        self.retries = Retries(SYNC_EVERY, SYNC_MOST)  # the sync job's tries of each lag

    def lock(self, svc: Services, record_id: int) -> asyncio.Lock:
        """One lock per game, so its taps are handled one after another."""
        return svc.lock(f"{self.game.kind}:{record_id}")

    def name(self, record_id: int) -> str:
        return f"{self.game.label} {record_id}"

    def handler(self, kind: type[Press[A]]) -> CallbackQueryHandler[Any, None]:
        """The handler of the game's presses of `kind`: decoded (anything else is told "not
        valid"), in the presser's language, then `press`."""

        async def on_press(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
            p = await pressed(update, context, kind)
            if p is not None:
                await self.press(p.svc, context.bot, p.query, p.tr, p.user.id,
                                 p.payload.record_id, p.payload.version, p.payload.action)

        on_press.__name__ = f"on_{self.game.kind}"
        return callbacks.handler(kind, on_press)

    async def press(self, svc: Services, bot: Bot, query: CallbackQuery, tr: Translator,
                    user_id: int, record_id: int, version: int, action: A) -> None:
        """A player's button, under the game's lock: the record loaded once, a toast saying
        why nothing happened, or the action saved and shown."""
        async with self.lock(svc, record_id):
            await self._press(svc, bot, query, tr, user_id, record_id, version, action)

    async def _press(self, svc: Services, bot: Bot, query: CallbackQuery, tr: Translator,
                     user_id: int, record_id: int, version: int, action: A) -> None:
        game = self.game
        record = await game.load(svc, record_id)
        message = query.message
        old = False
        if record is not None:
            record, old = await self.screen.pressed_on(svc, bot, record, message, version)
        seat = None if record is None else game.seat(record, user_id)
        if record is not None and old and seat is not None:
            if game.repeats(record, seat, version, action):
                # A double tap on the move that closed this message: it has lost its
                # buttons already (dropping them again is an edit Telegram refuses).
                await self._refused(query, tr, user_id, record_id, REPEATED)
                return
            if record.is_live:  # a button on a copy that is no longer the live message
                await self._refused(query, tr, user_id, record_id, game.stale)
                await self.screen.retire(svc, bot, record, message, version)
                return
        outcome = await act_on(game, svc, record, version, user_id, action)
        if isinstance(outcome, Refusal):
            await self._refused(query, tr, user_id, record_id, outcome)
            return
        # Saved: show it whether or not the answer gets through (a slow Telegram, a query
        # too old), and without waiting for the answer first; answered, the press is settled
        # (showing it again is the restart's job from here on).
        answering = asyncio.ensure_future(_answer_and_settle(query))
        try:
            await self.present(svc, bot, outcome.record)
        finally:
            await answering

    async def _refused(self, query: CallbackQuery, tr: Translator, user_id: int,
                       record_id: int, refusal: Refusal) -> None:
        log.info("%s: a press by user %d refused: %s", self.name(record_id), user_id, refusal)
        if refusal.quiet:
            await answer_quietly(query)
        else:
            await toast(query, refusal.text(tr))
        await intake.settled()

    # --- present -----------------------------------------------------------------------

    async def present(self, svc: Services, bot: Bot, record: R,
                      note: str | None = None) -> None:
        """Bring the record's messages up to its saved version. A chat that threw the bot out
        is the screen's to handle (`gone`); a group that became a supergroup takes its games
        along, and this one is shown there. A refused or failed send or edit leaves it for
        the sync job. Then the screen's `presented` follows."""
        try:
            await self.screen.show(svc, bot, record, note)
        except send.ChatGone:
            await self.screen.gone(svc, record)
        except send.ChatMoved as e:
            await self.moved(svc, bot, record, e)
        await self.screen.presented(svc, record)

    async def moved(self, svc: Services, bot: Bot, record: R, moved: send.ChatMoved) -> None:
        """Telegram said the chat is a supergroup now: move the chat, then show this record in
        the new chat at once (the chat's other games follow with the sync job)."""
        await migrate_chat(svc, moved.chat_id, moved.new_chat_id)
        fresh = await self.game.load(svc, record.id)
        if fresh is None or self.game.abandoned(fresh) or fresh.chat_id == record.chat_id:
            return
        try:
            await self.screen.show(svc, bot, fresh)
        except send.ChatGone:
            await self.screen.gone(svc, fresh)
        except send.ChatMoved as again:
            log.warning("%s: chat %d moved again, to %d; left to the sync job",
                        self.name(fresh.id), again.chat_id, again.new_chat_id)

    async def edited(self, svc: Services, record: R, message_id: int, edit: send.Edit) -> bool:
        """What an edit of the record's live message came to: True when that is all (done,
        and recorded as showing the saved version; or failed, left to the sync job), False
        when the message is gone and a fresh one is to be sent."""
        if edit is send.Edit.DONE:
            await self.game.set_message(svc, record, message_id, record.version)
            return True
        if edit is send.Edit.FAILED:
            return True  # the sync job tries again
        log.info("%s: its message %d is gone; sending a fresh one", self.name(record.id),
                 message_id)
        return False

    async def sent(self, svc: Services, record: R, message_id: int | None) -> None:
        """A fresh message sent for the record (its id); None (not sent) is left to the sync
        job."""
        if message_id is not None:
            await self.game.set_message(svc, record, message_id, record.version)

    # --- sync --------------------------------------------------------------------------

    async def sync(self, svc: Services, bot: Bot, record_id: int) -> None:
        """Redraw the record if its message lags (a restart, a failed send, a moved chat)."""
        async with self.lock(svc, record_id):
            record = await self.game.load(svc, record_id)
            if record is not None and record.needs_redraw and not self.game.abandoned(record):
                await self.present(svc, bot, record)

    async def resync(self, svc: Services, bot: Bot, grace: int | None = None) -> int:
        """Redraw every lagging record (None: at start) or, for the sync job, those saved at
        least `grace` seconds ago whose turn it is (`retry`: a lag that persists is tried less
        and less often); how many were tried."""
        now = svc.clock()
        # At start on PostgreSQL, other workers may be showing what they saved a moment ago
        # (this one was restarted beside them): those are left to them, and to the sync job.
        recent = grace if grace is not None else (
            None if svc.storage.can.one_process else SYNC_GRACE)
        lagging = [r for r in await self.game.lagging(svc)
                   if recent is None or now - r.updated_at >= recent]
        due = lagging if grace is None else self.retries.due(
            lagging, lambda r: (r.id, r.version), now)
        for record in due:
            await self.sync(svc, bot, record.id)
        return len(due)


async def _answer_and_settle(query: CallbackQuery) -> None:
    await answer_quietly(query)
    await intake.settled()
