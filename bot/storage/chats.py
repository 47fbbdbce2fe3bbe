"""Chats the bot is in, and each chat's settings."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from bot.i18n import LANGUAGES
from bot.storage.db import Database, Row, chat_lock
from bot.storage.row_cache import RowCache
from rules.duel import DEFAULT_STACK, MAX_STACK, MIN_STACK

log = logging.getLogger(__name__)

# Seconds a player has for a move: 0 turns the timer off, else TURN_TIMER_MIN..TURN_TIMER_MAX.
TURN_TIMER_OFF, TURN_TIMER_MIN, TURN_TIMER_MAX, TURN_TIMER_DEFAULT = 0, 30, 24 * 3600, 300
# The standings' seasons (bot.stats.seasons.KINDS, in UTC): none (all time only), month, quarter.
SEASON_KINDS, SEASON_DEFAULT = ("none", "month", "quarter"), "month"


@dataclass(frozen=True, slots=True)
class ChatRecord:
    id: int
    type: str  # private, group, supergroup, channel
    title: str | None
    is_forum: bool
    active: bool  # False once the bot was removed from the chat
    updated_at: int


@dataclass(frozen=True, slots=True)
class ChatSettings:
    """Per-chat settings; every field has a default, so an unknown chat has settings too."""

    language: str | None = None  # "en" / "ru" for everyone, or None: each user's own language
    turn_timer: int = TURN_TIMER_DEFAULT  # seconds a player has for a move; 0: no timer
    default_stack: int = DEFAULT_STACK  # chips each player starts a duel with
    show_cards_out: bool = True  # draw the grid of cards already out of play
    keep_reveals: bool = False  # every bullet's reveal stays as its own message
    season: str = SEASON_DEFAULT  # the standings' season: "none", "month" or "quarter" (UTC)
    season_reset: bool = False  # a season's ratings start from a newcomer's, not carry on
    # A private chat's: tell its user when it is their turn in a duel through inline mode.
    nudges: bool = True
    four_colour_deck: bool = False  # pictures colour ♦ blue and ♣ green (render.Deck.FOUR)

    def __post_init__(self) -> None:
        if self.language is not None and self.language not in LANGUAGES:
            raise ValueError(f"language must be one of {LANGUAGES} or None")
        if not (_int_in(self.turn_timer, TURN_TIMER_MIN, TURN_TIMER_MAX)
                or _int_in(self.turn_timer, TURN_TIMER_OFF, TURN_TIMER_OFF)):
            raise ValueError(f"turn_timer must be {TURN_TIMER_OFF} (off) or "
                             f"{TURN_TIMER_MIN}..{TURN_TIMER_MAX} seconds")
        if not _int_in(self.default_stack, MIN_STACK, MAX_STACK):
            raise ValueError(f"default_stack must be {MIN_STACK}..{MAX_STACK}")
        if not isinstance(self.show_cards_out, bool):
            raise ValueError("show_cards_out must be a bool")
        if not isinstance(self.keep_reveals, bool):
            raise ValueError("keep_reveals must be a bool")
        if self.season not in SEASON_KINDS:
            raise ValueError(f"season must be one of {SEASON_KINDS}")
        if not isinstance(self.season_reset, bool):
            raise ValueError("season_reset must be a bool")
        if not isinstance(self.nudges, bool):
            raise ValueError("nudges must be a bool")
        if not isinstance(self.four_colour_deck, bool):
            raise ValueError("four_colour_deck must be a bool")

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> ChatSettings:
        """Tolerant: unknown keys are dropped and invalid values fall back to the default."""
        try:
            data = json.loads(text)
        except ValueError:
            data = None
        if not isinstance(data, dict):
            log.warning("chat settings are not a JSON object; using the defaults")
            return cls()
        settings = cls()
        for f in fields(cls):
            if f.name in data:
                try:
                    settings = replace(settings, **{f.name: data[f.name]})
                except (ValueError, TypeError):
                    log.warning("chat setting %s=%r is invalid; using the default", f.name,
                                data[f.name])
        return settings


def _int_in(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def settings_of(stored: str | None) -> ChatSettings:
    """A chat's settings as stored (None: never changed, the defaults)."""
    return ChatSettings() if stored is None else ChatSettings.from_json(stored)


def _chat(row: Row) -> ChatRecord:
    return ChatRecord(
        id=row["id"], type=row["type"], title=row["title"], is_forum=bool(row["is_forum"]),
        active=bool(row["active"]), updated_at=row["updated_at"],
    )


class ChatRepo:
    """The chats and their settings, read on every move, are kept in memory once read or
    written (`bot.storage.row_cache`: on SQLite for the process, this process being the database's
    only writer; on PostgreSQL, where any worker may write them, for one update). A cache
    for a PostgreSQL process would need a read to know it is still true (LISTEN/NOTIFY arrives
    after the next update may have been read), and a read of one row by its key costs the
    same round trip as that check."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._settings: RowCache[ChatSettings] = RowCache(db)
        self._chats: RowCache[ChatRecord] = RowCache(db)

    async def upsert(
        self, chat_id: int, chat_type: str, title: str | None, is_forum: bool, *, now: int
    ) -> ChatRecord:
        """Record a chat seen in an update; it is active again if the bot had been removed."""
        await self.db.execute(
            "INSERT INTO chats (id, type, title, is_forum, active, updated_at)"
            " VALUES (?, ?, ?, ?, 1, ?)"
            " ON CONFLICT (id) DO UPDATE SET type = excluded.type, title = excluded.title,"
            " is_forum = excluded.is_forum, active = 1, updated_at = excluded.updated_at",
            (chat_id, chat_type, title, int(is_forum), now),
        )
        record = ChatRecord(chat_id, chat_type, title, is_forum, True, now)
        self._chats.put(chat_id, record)
        return record

    async def remember(self, chat_id: int, chat_type: str, title: str | None, is_forum: bool,
                       *, now: int) -> bool:
        """`upsert` only if the chat's row says otherwise (or it is not active); True if
        written. Every update calls it, and most change nothing."""
        known = self._chats.get(chat_id) if self._chats.whole else await self._with_settings(
            chat_id)
        if (known is not None and known.active
                and (known.type, known.title, known.is_forum) == (chat_type, title, is_forum)):
            return False
        await self.upsert(chat_id, chat_type, title, is_forum, now=now)
        return True

    async def get(self, chat_id: int) -> ChatRecord | None:
        async def load() -> ChatRecord | None:
            row = await self.db.fetchone("SELECT * FROM chats WHERE id = ?", (chat_id,))
            return _chat(row) if row else None

        return await self._chats.read(chat_id, load)

    async def _with_settings(self, chat_id: int) -> ChatRecord | None:
        """The chat's row, and its settings kept beside it: the update that remembers its
        chat reads its settings next, so both come in one statement, not one each."""
        known = self._chats.get(chat_id)
        if known is not None:
            return known
        row = await self.db.fetchone(
            "SELECT c.*, s.settings FROM chats c LEFT JOIN chat_settings s ON s.chat_id = c.id"
            " WHERE c.id = ?", (chat_id,))
        if row is None:
            return None
        record = _chat(row)
        self.keep(record, settings_of(row["settings"]))
        return record

    def keep(self, record: ChatRecord, settings: ChatSettings) -> None:
        """The chat's row and settings as just read (here, or with others:
        bot.storage.update_rows)."""
        self._chats.put(record.id, record)
        self._settings.put(record.id, settings)

    async def mark_left(self, chat_id: int, *, now: int) -> bool:
        """The bot was removed from the chat. False if the chat was unknown."""
        return await self._set_active(chat_id, False, now)

    async def mark_active(self, chat_id: int, *, now: int) -> bool:
        return await self._set_active(chat_id, True, now)

    async def _set_active(self, chat_id: int, active: bool, now: int) -> bool:
        changed = await self.db.execute(
            "UPDATE chats SET active = ?, updated_at = ? WHERE id = ?", (int(active), now, chat_id)
        )
        self._chats.drop(chat_id)
        return changed > 0

    async def get_settings(self, chat_id: int) -> ChatSettings:
        known = self._settings.get(chat_id)
        if known is not None:
            return known
        row = await self.db.fetchone(
            "SELECT settings FROM chat_settings WHERE chat_id = ?", (chat_id,)
        )
        settings = ChatSettings.from_json(row["settings"]) if row else ChatSettings()
        self._settings.put(chat_id, settings)
        return settings

    def forget_cached(self, *chat_ids: int) -> None:
        """Drop what is kept in memory for these chats (their rows moved: a group upgraded to
        a supergroup); the next read goes to the database."""
        for chat_id in chat_ids:
            self._settings.drop(chat_id)
            self._chats.drop(chat_id)

    async def set_settings(self, chat_id: int, settings: ChatSettings) -> None:
        await self.db.execute(
            "INSERT INTO chat_settings (chat_id, settings) VALUES (?, ?)"
            " ON CONFLICT (chat_id) DO UPDATE SET settings = excluded.settings",
            (chat_id, settings.to_json()),
        )
        self._settings.put(chat_id, settings)

    async def update_settings(
        self, chat_id: int, change: Callable[[ChatSettings], ChatSettings]
    ) -> tuple[ChatSettings, ChatSettings]:
        """The chat's settings changed by `change` (given them as they are), as (before,
        after), under the chat's lock: two changes on two workers at once both hold, one after
        the other. Nothing is written when they are equal, or when `change` raises."""
        async with self.db.transaction(chat_lock(chat_id)):
            before = await self.get_settings(chat_id)
            after = change(before)
            if after != before:
                await self.set_settings(chat_id, after)
        self._settings.put(chat_id, after)
        return before, after
