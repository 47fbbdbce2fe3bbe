"""Old messages are deleted when the chat's flood budget has room: at once in a quiet chat,
together (one deleteMessages) once a busy chat has room again, after MAX_WAIT whatever the
budget; never twice; what is pending at shutdown is deleted then."""

from __future__ import annotations

import asyncio
from typing import Any, cast

import pytest
from telegram import Bot

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


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(janitor, "POLL", 0.01)
    monkeypatch.setattr(janitor, "MAX_WAIT", 0.2)


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
    j = Janitor(room=lambda chat: chat not in busy)
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
    j = Janitor(room=lambda chat: False)
    j.delete_later(cast(Bot, fake), -5, 10)
    j.delete_later(cast(Bot, fake), -5, 10)  # the same message twice: deleted once
    await asyncio.sleep(0.1)
    assert fake.calls == []
    await asyncio.sleep(0.3)
    assert fake.calls == [("deleteMessage", -5, (10,))]


async def test_what_is_pending_at_shutdown_is_deleted_then() -> None:
    fake = FakeBot()
    j = Janitor(room=lambda chat: False)
    j.delete_later(cast(Bot, fake), -5, 10)
    j.delete_later(cast(Bot, fake), -5, 11)
    await j.close(cast(Bot, fake))
    assert fake.calls == [("deleteMessages", -5, (10, 11))]
