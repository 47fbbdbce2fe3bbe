"""One shell loop for every game: act on a press, present what is saved, resync what lags.

A game plugs in with two halves: a `Game` (its records in storage and its rules: load, seat,
apply, save, which version a message shows) and a `Screen` (its messages: show a record, what
to do when the chat is gone).
`Live` runs the same steps for every game:

    act      load by id -> is the user a player? the same press again on the move it just made
             (answered quietly)? is it live? is the version the pressed one?
             -> apply (the rules decide) -> save by compare-and-swap (saved before shown)
    present  bring the messages from the version they show to the saved one; a chat that
             threw the bot out, or became a supergroup, is handled here for every game
    sync     one job (`bot.common.sync`) redraws every game's lagging messages

No game rule here, and no game: each game's package plugs its `Live` in (`sync.plug`).
"""

from __future__ import annotations

import asyncio
import logging
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from telegram import Bot, CallbackQuery, Message

from bot.common.chats import migrate_chat
from bot.common.errors import answer_quietly
from bot.common.handlers import toast
from bot.common.refusal import Refusal
from bot.common.sync import SYNC_EVERY, SYNC_MOST, Retries
from bot.i18n import Translator
from bot.services import Services
from bot.telegram import intake, send

log = logging.getLogger(__name__)


# A press repeating the move just made from it (a double tap): answered with no toast.
REPEATED = Refusal("repeated", quiet=True)


class Record(Protocol):
    """A game as stored: its version grows with every applied action, `shown_version` is
    what its message shows."""

    @property
    def id(self) -> int: ...
    @property
    def chat_id(self) -> int: ...
    @property
    def version(self) -> int: ...
    @property
    def status(self) -> str: ...  # "live", "finished" or "abandoned" (each game's StrEnum)
    @property
    def is_live(self) -> bool: ...
    @property
    def needs_redraw(self) -> bool: ...
    @property
    def updated_at(self) -> int: ...


R = TypeVar("R", bound=Record)
S = TypeVar("S")  # the rules' state of the game
A = TypeVar("A")  # an action of the rules
E = TypeVar("E")  # an event the rules report


@dataclass(frozen=True, slots=True)
class Applied(Generic[R, S, E]):
    record: R  # as saved
    state: S  # after the action
    events: tuple[E, ...]


class Game(ABC, Generic[R, S, A, E]):
    """A game's records and rules, as the loop needs them."""

    def __init__(self, kind: str, label: str, *, stale: Refusal, not_player: Refusal,
                 over: Refusal) -> None:
        self.kind = kind  # its records' lock is f"{kind}:{id}"
        self.label = label  # how log lines name one: "duel 7", "six-card game 3"
        self.stale = stale  # an older version's button, or not a move of this moment
        self.not_player = not_player
        self.over = over

    def finished(self, record: R) -> bool:
        """Over (played to its end or given up), rather than abandoned."""
        return record.status == "finished"

    def abandoned(self, record: R) -> bool:
        """Closed without counting (its chat went away): never shown again."""
        return record.status == "abandoned"

    def repeats(self, record: R, seat: int, version: int, action: A) -> bool:
        """Is a press of `action` by `seat` on `version` the very move that took the saved
        record from `version` to the next one (a double tap)? None are, unless the game can
        tell from its rules."""
        return False

    def carries_over(self, record: R, seat: int, version: int, action: A) -> bool:
        """May a press made on the older `version` still go through (a move that none of
        the moves since changed, such as two players answering one question at once)? The
        rules still check it. None may, unless the game can tell."""
        return False

    @abstractmethod
    async def load(self, svc: Services, record_id: int) -> R | None: ...

    @abstractmethod
    def seat(self, record: R, user_id: int) -> int | None:
        """The user's seat at the game, None for anyone else."""

    @abstractmethod
    def apply(self, svc: Services, record: R, seat: int, action: A) -> tuple[S, list[E]] | Refusal:
        """The state after `action` and what happened, or why the rules refuse it."""

    @abstractmethod
    async def save(self, svc: Services, record: R, state: S, now: int) -> R | None:
        """Save `state` if `record.version` is still the saved one: the record as saved,
        or None when a concurrent action won the race."""

    @abstractmethod
    def summary(self, state: S, events: Sequence[E]) -> str:
        """One line of what happened, with no card in it."""

    @abstractmethod
    async def lagging(self, svc: Services) -> Sequence[R]:
        """Every record whose message does not show its saved version."""

    @abstractmethod
    async def set_message(self, svc: Services, record_id: int, message_id: int,
                          version: int) -> bool:
        """Record that `message_id` shows `version` (False: the record moved on meanwhile)."""


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


async def act(game: Game[R, S, A, E], svc: Services, record_id: int, version: int | None,
              user_id: int, action: A) -> Applied[R, S, E] | Refusal:
    """Apply `action` for `user_id` if `version` is still current (None: whatever is current,
    for commands such as /surrender). Saved before it returns."""
    record = await game.load(svc, record_id)
    if record is None:
        return game.stale
    seat = game.seat(record, user_id)
    if seat is None:
        return game.not_player
    if version is not None and version != record.version and game.repeats(
            record, seat, version, action):
        return REPEATED  # the same tap again, on the move it has just made
    if not record.is_live:
        return game.over if game.finished(record) else game.stale
    if version is not None and version != record.version and not game.carries_over(
            record, seat, version, action):
        return game.stale
    moved = game.apply(svc, record, seat, action)
    if isinstance(moved, Refusal):
        return moved
    state, events = moved
    saved = await game.save(svc, record, state, svc.clock())
    if saved is None:
        return game.stale  # a concurrent tap or a replayed update won the race
    log.info("%s %d v%d: user %d (seat %d) %s -> %s", game.label, record.id, saved.version,
             user_id, seat, action, game.summary(state, events))
    return Applied(saved, state, tuple(events))


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

    async def press(self, svc: Services, bot: Bot, query: CallbackQuery, tr: Translator,
                    user_id: int, record_id: int, version: int, action: A) -> None:
        """A player's button, with the game's lock held: a toast saying why nothing happened,
        or the action saved and shown."""
        outcome = await act(self.game, svc, record_id, version, user_id, action)
        if isinstance(outcome, Refusal):
            log.info("%s: a press by user %d refused: %s", self.name(record_id), user_id,
                     outcome)
            if outcome.quiet:
                await answer_quietly(query)
            else:
                await toast(query, outcome.text(tr))
            await intake.settled()
            return
        # Saved: show it whether or not the answer gets through (a slow Telegram, a query
        # too old), and without waiting for the answer first; answered, the press is settled
        # (showing it again is the restart's job from here on).
        answering = asyncio.ensure_future(_answer_and_settle(query))
        try:
            await self.present(svc, bot, outcome.record)
        finally:
            await answering

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
            await self.game.set_message(svc, record.id, message_id, record.version)
            return True
        if edit is send.Edit.FAILED:
            return True  # the sync job tries again
        log.info("%s: its message %d is gone; sending a fresh one", self.name(record.id),
                 message_id)
        return False

    async def sent(self, svc: Services, record: R, message: Message | None) -> None:
        """A fresh message sent for the record; None (not sent) is left to the sync job."""
        if message is not None:
            await self.game.set_message(svc, record.id, message.message_id, record.version)

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
        lagging = [r for r in await self.game.lagging(svc)
                   if grace is None or now - r.updated_at >= grace]
        due = lagging if grace is None else self.retries.due(
            lagging, lambda r: (r.id, r.version), now)
        for record in due:
            await self.sync(svc, bot, record.id)
        return len(due)


async def _answer_and_settle(query: CallbackQuery) -> None:
    await answer_quietly(query)
    await intake.settled()
