"""Old messages are deleted when the chat's flood budget has room: at once in a quiet chat,
together (one deleteMessages) once a busy chat has room again, after MAX_WAIT whatever the
budget; never twice; what is pending at shutdown is deleted then, or by the next start if the
group's budget holds it back."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, cast

import pytest
from telegram import Bot

from bot.storage import Storage
from bot.telegram import janitor
from bot.telegram.janitor import Janitor


class FakeBot:
    def __init__(self) -> None:
        self.calls: list[tuple[str, int, tuple[int, ...]]] = []

    async def delete_message(self, chat_id: int, message_id: int, **kw: Any) -> bool:
        self.calls.append(("deleteMessage", chat_id, (message_id,)))
        return True

    async def delete_messages(self, chat_id: int, message_ids: list[int], **kw: Any) -> bool:
        self.calls.append(("deleteMessages", chat_id, tuple(message_ids)))
        return True


def room_when(has_room: Callable[[int], bool]) -> janitor.Room:
    """The rate limiter's question, answered by `has_room`."""
    async def room(chat: int) -> bool:
        return has_room(chat)
    return room


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(janitor, "POLL", 0.01)
    monkeypatch.setattr(janitor, "MAX_WAIT", 0.2)
    monkeypatch.setattr(janitor, "WRITE_WITHIN", 0.005)


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0.02)


async def test_a_quiet_chat_deletes_at_once_one_by_one() -> None:
    fake = FakeBot()
    j = Janitor()
    j.delete_later(cast(Bot, fake), -5, 10)
    await settle()
    j.delete_later(cast(Bot, fake), -5, 11)
    await settle()
    assert fake.calls == [("deleteMessage", -5, (10,)), ("deleteMessage", -5, (11,))]
    assert j.handled(-5, 10) and j.handled(-5, 11) and not j.handled(-5, 12)
    assert not j.handled(-6, 10)  # per chat


async def test_a_busy_chat_waits_for_room_then_deletes_everything_in_one_call() -> None:
    fake, busy = FakeBot(), {-5}
    j = Janitor(room=room_when(lambda chat: chat not in busy))
    for message_id in (10, 11, 12):
        j.delete_later(cast(Bot, fake), -5, message_id)
    j.delete_later(cast(Bot, fake), -7, 3)  # another chat is not held back
    await asyncio.sleep(0.05)
    assert fake.calls == [("deleteMessage", -7, (3,))]
    assert j.pending(-5) == (10, 11, 12) and j.handled(-5, 11)
    busy.clear()
    await settle()
    assert fake.calls[1:] == [("deleteMessages", -5, (10, 11, 12))]
    assert j.pending(-5) == ()


async def test_after_max_wait_it_deletes_whatever_the_budget() -> None:
    fake = FakeBot()
    j = Janitor(room=room_when(lambda chat: False))
    j.delete_later(cast(Bot, fake), -5, 10)
    j.delete_later(cast(Bot, fake), -5, 10)  # the same message twice: deleted once
    await asyncio.sleep(0.1)
    assert fake.calls == []
    await asyncio.sleep(0.3)
    assert fake.calls == [("deleteMessage", -5, (10,))]


async def test_what_is_pending_at_shutdown_is_deleted_then() -> None:
    fake = FakeBot()
    j = Janitor(room=room_when(lambda chat: False))
    j.delete_later(cast(Bot, fake), -5, 10)
    j.delete_later(cast(Bot, fake), -5, 11)
    await j.close(cast(Bot, fake))
    assert fake.calls == [("deleteMessages", -5, (10, 11))]


class HeldBot(FakeBot):
    """Deletes in chat -5 wait in the rate limiter (the group's budget is spent) until
    cancelled; others go through."""

    async def delete_messages(self, chat_id: int, message_ids: list[int], **kw: Any) -> bool:
        if chat_id == -5:
            await asyncio.Event().wait()
        return await super().delete_messages(chat_id, message_ids, **kw)


async def test_a_stop_gives_a_held_delete_close_wait_and_the_next_start_deletes_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(janitor, "CLOSE_WAIT", 0.2)
    storage = await Storage.open(tmp_path / "j.db")
    try:
        held = HeldBot()
        j = Janitor(room=room_when(lambda chat: False), journal=storage.deletes)
        for chat_id, message_id in ((-5, 10), (-5, 11), (-8, 4), (-8, 5)):
            j.delete_later(cast(Bot, held), chat_id, message_id)  # closed before any sweep ran
        loop = asyncio.get_running_loop()
        started = loop.time()
        await j.close(cast(Bot, held))
        assert loop.time() - started < 1.0  # not the group's minute
        assert held.calls == [("deleteMessages", -8, (4, 5))]  # the free chat went on
        assert await storage.deletes.pending() == {-5: [10, 11]}
        fresh = FakeBot()
        again = Janitor(journal=storage.deletes)
        assert await again.resume(cast(Bot, fresh)) == 2
        await settle()
        assert fresh.calls == [("deleteMessages", -5, (10, 11))]
        await again.crossed_off()
        assert await storage.deletes.pending() == {}
    finally:
        await storage.close()


# --- the journal: what waits to be deleted survives a kill -----------------------------------


async def test_what_waits_is_written_down_first_and_crossed_off_once_deleted(
        tmp_path: Path) -> None:
    storage = await Storage.open(tmp_path / "j.db")
    try:
        fake, busy = FakeBot(), {-5}
        j = Janitor(room=room_when(lambda chat: chat not in busy), journal=storage.deletes)
        for message_id in (10, 11):
            j.delete_later(cast(Bot, fake), -5, message_id)
        await asyncio.sleep(0.05)
        assert fake.calls == [] and await storage.deletes.pending() == {-5: [10, 11]}
        j.delete_later(cast(Bot, fake), -5, 12)  # added while waiting: written down too
        await asyncio.sleep(0.05)
        assert await storage.deletes.pending() == {-5: [10, 11, 12]}
        busy.clear()
        await settle()
        assert fake.calls == [("deleteMessages", -5, (10, 11, 12))]
        assert await storage.deletes.pending() == {-5: [10, 11, 12]}  # crossed off together,
        await j.crossed_off()  # within a second (CROSS_OFF_EVERY)
        assert await storage.deletes.pending() == {}
    finally:
        await storage.close()


async def test_after_a_kill_the_journal_deletes_what_was_left(tmp_path: Path) -> None:
    """A janitor killed while its chat had no room (the process died: nothing ran after);
    the next one, over the same database, deletes what was written down, once."""
    storage = await Storage.open(tmp_path / "j.db")
    try:
        killed = Janitor(room=room_when(lambda chat: False), journal=storage.deletes)
        killed.delete_later(cast(Bot, FakeBot()), -5, 10)
        killed.delete_later(cast(Bot, FakeBot()), -8, 4)
        await asyncio.sleep(0.05)
        for task in list(killed._tasks.values()):  # the kill: no shutdown, no delete
            task.cancel()
        await asyncio.sleep(0.01)
        assert await storage.deletes.pending() == {-8: [4], -5: [10]}
        fake = FakeBot()
        fresh = Janitor(journal=storage.deletes)
        assert await fresh.resume(cast(Bot, fake)) == 2
        assert fresh.handled(-5, 10)  # a press on it now is known as already handled
        await settle()
        assert sorted(fake.calls) == [("deleteMessage", -8, (4,)), ("deleteMessage", -5, (10,))]
        await fresh.crossed_off()
        assert await storage.deletes.pending() == {}
        assert await Janitor(journal=storage.deletes).resume(cast(Bot, fake)) == 0
    finally:
        await storage.close()


async def test_a_journaled_delete_is_written_down_before_it_returns(tmp_path: Path) -> None:
    """`delete_journaled`: killed the moment it returns (its task never ran), the next
    janitor still deletes it; `delete_later` writes down in its task, after returning."""
    storage = await Storage.open(tmp_path / "j.db")
    try:
        killed = Janitor(room=room_when(lambda chat: False), journal=storage.deletes)
        await killed.delete_journaled(cast(Bot, FakeBot()), 7, 41)
        for task in list(killed._tasks.values()):  # the kill, before the task's first step
            task.cancel()
        await asyncio.sleep(0.01)
        assert await storage.deletes.pending() == {7: [41]}
        fake = FakeBot()
        assert await Janitor(journal=storage.deletes).resume(cast(Bot, fake)) == 1
        await settle()
        assert fake.calls == [("deleteMessage", 7, (41,))]
    finally:
        await storage.close()


class Recording:
    """A journal that notes each call."""

    def __init__(self) -> None:
        self.added: list[tuple[tuple[int, int], ...]] = []
        self.dropped: list[tuple[tuple[int, int], ...]] = []
        self.crossed = asyncio.Event()

    async def add(self, messages: Sequence[tuple[int, int]]) -> None:
        self.added.append(tuple(messages))

    async def drop(self, messages: Sequence[tuple[int, int]]) -> None:
        self.dropped.append(tuple(messages))
        self.crossed.set()

    async def pending(self) -> dict[int, list[int]]:
        return {}


async def test_deletes_in_every_chat_are_written_down_and_crossed_off_together(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """One statement writes down what a moment's deletes wait for, and one crosses off what a
    while's deletes left, whatever their chats (a busy bot deletes a message at every turn):
    each by itself, once WRITE_WITHIN or CROSS_OFF_EVERY is over."""
    monkeypatch.setattr(janitor, "CROSS_OFF_EVERY", 0.5)
    monkeypatch.setattr(janitor, "WRITE_WITHIN", 0.03)
    journal, fake = Recording(), FakeBot()
    j = Janitor(journal=journal)
    for chat_id, message_id in ((-5, 10), (-8, 4), (-5, 11)):
        j.delete_later(cast(Bot, fake), chat_id, message_id)
    await settle()
    assert sorted(fake.calls) == [("deleteMessage", -8, (4,)), ("deleteMessages", -5, (10, 11))]
    assert len(journal.added) == 1 and sorted(journal.added[0]) == [(-8, 4), (-5, 10), (-5, 11)]
    assert journal.dropped == []  # deleted, still written down
    async with asyncio.timeout(5):
        await journal.crossed.wait()
    assert len(journal.dropped) == 1 and sorted(journal.dropped[0]) == [
        (-8, 4), (-5, 10), (-5, 11)]
    j.delete_later(cast(Bot, fake), -5, 12)
    await settle()
    await j.close(cast(Bot, fake))  # a stop crosses off at once what is deleted
    assert journal.dropped[1:] == [((-5, 12),)]


async def test_a_stop_writes_down_every_chats_waiting_deletes_in_one_statement() -> None:
    journal, fake = Recording(), FakeBot()
    j = Janitor(room=room_when(lambda chat: False), journal=journal)
    for chat_id in range(-10, -5):
        j.delete_later(cast(Bot, fake), chat_id, 7)
    await j.close(cast(Bot, fake))  # before any sweep wrote: the stop writes, together
    assert len(journal.added) == 1 and sorted(journal.added[0]) == [
        (chat_id, 7) for chat_id in range(-10, -5)]
    assert sorted(fake.calls) == [("deleteMessage", chat_id, (7,)) for chat_id in range(-10, -5)]
    assert sorted(journal.dropped[0]) == sorted(journal.added[0])


async def test_a_journal_that_fails_never_stops_a_delete() -> None:
    class Broken:
        async def add(self, messages: Sequence[tuple[int, int]]) -> None:
            raise OSError("disk full")

        async def drop(self, messages: Sequence[tuple[int, int]]) -> None:
            raise OSError("disk full")

        async def pending(self) -> dict[int, list[int]]:
            return {}

    fake = FakeBot()
    j = Janitor(journal=Broken())
    j.delete_later(cast(Bot, fake), -5, 10)
    await settle()
    assert fake.calls == [("deleteMessage", -5, (10,))]
