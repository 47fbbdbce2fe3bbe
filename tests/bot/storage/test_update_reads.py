"""What one update reads of its chat and its users costs in statements, on every engine: a
duel's table names both players in one read, the chat's row brings its settings along, and an
update's first read brings its user, chat and settings in one statement."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from bot.storage import Storage
from bot.storage.chats import ChatSettings
from bot.storage.row_cache import one_update
from bot.storage.watch import watch

ALICE, BOB, CAROL = 101, 202, 303
CHAT = -100123


class Counter:
    def __init__(self) -> None:
        self.statements = 0

    def statement(self, engine: str, seconds: float, error: Exception | None) -> None:
        self.statements += 1

    def committed(self, engine: str) -> None:
        pass


@contextmanager
def counted() -> Iterator[Counter]:
    counter = Counter()
    before = watch(counter)
    try:
        yield counter
    finally:
        watch(before)


async def test_several_users_are_read_in_one_statement_and_an_unknown_one_is_none(
        store: Storage) -> None:
    await store.users.upsert(ALICE, "Alice", now=1)
    await store.users.upsert(BOB, "Bob", "B.", now=1)
    fresh = await Storage.open(store.db.path) if store.can.one_process else store
    try:
        with one_update(), counted() as seen:
            found = await fresh.users.get_many([BOB, ALICE, CAROL, BOB])
            assert seen.statements == 1
            assert list(found) == [BOB, ALICE, CAROL]
            assert found[CAROL] is None
            assert (found[ALICE].first_name, found[BOB].last_name) == ("Alice", "B.")  # type: ignore[union-attr]
            assert await fresh.users.get(BOB) == found[BOB]  # kept for the update
            assert await fresh.users.get_many([ALICE]) == {ALICE: found[ALICE]}
            assert seen.statements == 1
    finally:
        if fresh is not store:
            await fresh.close()


async def test_the_chat_remembered_brings_its_settings_along(store: Storage) -> None:
    await store.chats.upsert(CHAT, "group", "Table", False, now=1)
    await store.chats.set_settings(CHAT, ChatSettings(language="de", turn_timer=60))
    await store.chats.upsert(-5, "group", "Bare", False, now=1)
    # One process (SQLite) keeps both from their writes (the bare chat's default settings,
    # never written, are read once); on PostgreSQL an update reads each chat's row and its
    # settings in one statement.
    with one_update(), counted() as seen:
        assert not await store.chats.remember(CHAT, "group", "Table", False, now=2)
        settings = await store.chats.get_settings(CHAT)
        assert (settings.language, settings.turn_timer) == ("de", 60)
        assert not await store.chats.remember(-5, "group", "Bare", False, now=2)
        assert await store.chats.get_settings(-5) == ChatSettings()
        assert seen.statements == (1 if store.can.one_process else 2)
    # A change of the chat (renamed) is written, and its settings stay as they were.
    assert await store.chats.remember(CHAT, "group", "Renamed", False, now=3)
    assert (await store.chats.get_settings(CHAT)).language == "de"


async def test_an_updates_user_chat_and_settings_come_in_one_statement(store: Storage) -> None:
    await store.users.upsert(ALICE, "Alice", now=1)
    await store.chats.upsert(CHAT, "group", "Table", False, now=1)
    await store.chats.set_settings(CHAT, ChatSettings(language="de"))
    # What bot.common.chats.remember does with every update: on PostgreSQL one statement
    # (before it, two: the user's row, then the chat's with its settings); SQLite keeps all
    # three from their writes and reads nothing.
    with one_update(), counted() as seen:
        await store.read_first(ALICE, CHAT)
        assert not await store.users.remember(ALICE, "Alice", None, None, None, False, now=2)
        assert not await store.chats.remember(CHAT, "group", "Table", False, now=2)
        assert (await store.chats.get_settings(CHAT)).language == "de"
        assert (await store.users.get(ALICE)).first_name == "Alice"  # type: ignore[union-attr]
        assert seen.statements == (0 if store.can.one_process else 1)
    # Neither known yet (a new user in a new chat): each is written, as before.
    with one_update():
        await store.read_first(BOB, -5)
        assert await store.users.remember(BOB, "Bob", None, None, None, False, now=3)
        assert await store.chats.remember(-5, "group", "New", False, now=3)
    assert (await store.users.get(BOB)).first_name == "Bob"  # type: ignore[union-attr]
    assert (await store.chats.get(-5)).title == "New"  # type: ignore[union-attr]
