"""Turn timers and /settings through the real bot process, with timers sped up 100 times
(SIXSHOOTER_TIME_SCALE=0.01: the default 5-minute turn lasts 3 seconds)."""

from __future__ import annotations

import asyncio

import pytest

from tests.support.botprocess import LaunchBot
from tests.support.driver import (
    Table,
    actor,
    duel_keyboard,
    live_duel_message,
    open_duel,
)
from tests.support.fakeapi import FakeTelegramAPI
from tests.support.fakeapi.model import FakeMessage, FakeUser

# The state that matters survives on both engines: SQLite and PostgreSQL (tests/e2e/conftest.py).
pytestmark = pytest.mark.usefixtures("on_every_engine")

FAST = {"SIXSHOOTER_TIME_SCALE": "0.01"}
WAIT = 20.0
DELETE_WAIT = 75.0  # a delete may wait for room in the chat's flood budget


def _table(api: FakeTelegramAPI) -> Table:
    alice = api.add_user("Alice", username="alice", language_code="en")  # the group's creator
    bob = api.add_user("Bob", username="bob", language_code="en")
    return Table(api, api.create_group(members=[alice, bob]), (alice, bob))


def _first_line_mentions(m: FakeMessage) -> list[int]:
    """Who is mentioned in the first line of a message (where a live message says its news)."""
    text = m.content_text or ""
    end = len(text.split("\n")[0].encode("utf-16-le")) // 2
    entities = m.caption_entities if m.caption is not None else m.entities
    return [e["user"]["id"] for e in entities
            if e.get("type") == "text_mention" and e["offset"] < end]


def _texts(api: FakeTelegramAPI, table: Table, word: str, user: FakeUser) -> list[FakeMessage]:
    """The bot's messages (deleted ones too: a newer live message replaces each) whose first
    line contains `word` and mentions `user`: the clock's news comes first in a fresh live
    message."""
    return [m for m in api.bot_messages(table.chat, include_deleted=True)
            if word in (m.content_text or "").split("\n")[0]
            and user.id in _first_line_mentions(m)]


def _no_text_of_their_own(api: FakeTelegramAPI, table: Table) -> None:
    """Reminders and the clock's notices are not messages of their own, but live photos."""
    said = [m.text for m in api.bot_messages(table.chat, include_deleted=True) if m.text
            and any(w in m.text for w in ("your move", "ran out of time"))]
    assert not said, said


async def _wait_text(api: FakeTelegramAPI, table: Table, word: str, user: FakeUser,
                     count: int = 1) -> FakeMessage:
    found = await api.wait_for(
        lambda: (lambda ms: ms[count - 1] if len(ms) >= count else None)(
            _texts(api, table, word, user)),
        WAIT, f"message {count} with {word!r} for {user.first_name}")
    assert isinstance(found, FakeMessage)
    return found


async def test_reminder_restart_expiry_once_then_forfeit(fake_api: FakeTelegramAPI,
                                                         launch_bot: LaunchBot) -> None:
    bot = await launch_bot(env=FAST)
    table = _table(fake_api)
    first = await open_duel(fake_api, table)
    late = next(p for p in table.players if p.id == actor(first))
    other = next(p for p in table.players if p is not late)

    reminder = await _wait_text(fake_api, table, "your move", late)  # at half time
    assert reminder.photo is not None and duel_keyboard(reminder)  # the live duel, anew
    assert actor(reminder) == late.id
    await fake_api.wait_for(lambda: first.deleted, DELETE_WAIT, "the message it replaces deleted")
    await bot.restart()  # kill -9 between the reminder and the expiry
    notice = await _wait_text(fake_api, table, "ran out of time", late)
    assert "passed for them" in (notice.caption or "")
    assert notice.photo is not None and duel_keyboard(notice)
    await fake_api.wait_for(lambda: reminder.deleted, DELETE_WAIT, "the reminder replaced")

    # The other player's turn runs its own timer; by its reminder, a second expiry of the
    # first turn would have shown.
    await _wait_text(fake_api, table, "your move", other)
    assert len(_texts(fake_api, table, "ran out of time", late)) == 1
    assert len(_texts(fake_api, table, "your move", late)) == 1  # not reminded again

    # Nobody plays on: the other player times out once, then `late` a second time in a row.
    await _wait_text(fake_api, table, "ran out of time", other)
    await _wait_text(fake_api, table, "twice in a row", late)
    result = await fake_api.wait_for_message(
        table.chat, lambda m: "wins the duel" in (m.caption or ""),
        after_message_id=first.message_id, timeout=WAIT)
    assert f"{other.first_name} wins the duel" in (result.caption or "")
    assert "ran out of time" in (result.caption or "")
    await fake_api.wait_for(lambda: live_duel_message(fake_api, table.chat) is None, DELETE_WAIT,
                            "the last live message deleted")
    assert fake_api.bot_messages(table.chat)[-1] is result
    _no_text_of_their_own(fake_api, table)


async def test_settings_by_admins_turn_the_timer_off(fake_api: FakeTelegramAPI,
                                                     launch_bot: LaunchBot) -> None:
    await launch_bot(env=FAST)
    table = _table(fake_api)
    alice, bob = table.players

    fake_api.send_command(bob, table.chat, "settings")
    panel = await fake_api.wait_for_message(table.chat, lambda m: any(
        d.startswith("s:") for d in m.callback_data()), timeout=WAIT)
    refused = await fake_api.wait_for_answer(fake_api.press_button(bob, panel, "s:t:0"),
                                             timeout=WAIT)
    assert refused.text == "Only the chat's admins can change the settings."
    saved = await fake_api.wait_for_answer(fake_api.press_button(alice, panel, "s:t:0"),
                                           timeout=WAIT)
    assert saved.text == "Saved."
    await fake_api.wait_for(lambda: "Turn timer: off" in (panel.text or ""), WAIT, "the edit")

    first = await open_duel(fake_api, table)
    await asyncio.sleep(4.0)  # longer than a whole 3-second turn
    assert not _texts(fake_api, table, "your move", alice)
    assert not _texts(fake_api, table, "your move", bob)
    assert duel_keyboard(first) and live_duel_message(fake_api, table.chat) is first


async def test_settings_in_private_work_for_anyone(fake_api: FakeTelegramAPI,
                                                   launch_bot: LaunchBot) -> None:
    await launch_bot()
    carol = fake_api.add_user("Carol", language_code="en")
    chat = fake_api.private_chat(carol)
    fake_api.send_command(carol, chat, "settings")
    panel = await fake_api.wait_for_message(chat, lambda m: bool(m.callback_data()),
                                            timeout=WAIT)
    assert not any(d.startswith("s:t:") for d in panel.callback_data())  # no duels here
    saved = await fake_api.wait_for_answer(fake_api.press_button(carol, panel, "s:l:ru"),
                                           timeout=WAIT)
    assert saved.text == "Сохранено."
    await fake_api.wait_for(lambda: "Язык" in (panel.text or ""), WAIT, "the edit in Russian")
    fake_api.send_command(carol, chat, "rules")
    rules = await fake_api.wait_for_message(chat, lambda m: not m.callback_data(),
                                            after_message_id=panel.message_id, timeout=WAIT)
    assert "У каждого игрока одинаковый стек" in (rules.text or "")  # the chat's language
