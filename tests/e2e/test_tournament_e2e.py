"""A round-robin of three friends (issue 13.3), through the real `sixshooter` process and the
fake Bot API: /tournament opens the sign-up, two friends join, only the opener (or an admin)
starts it; the table (a picture) offers each pairing as a button; a pairing's tap challenges
the other player, whose accept starts a normal duel; each result enters the table as it is
shown (a new table message, the old one deleted); the bot is killed in the middle of the
second duel and after the second result, and nothing is lost; the end posts the final table
with the winner, which the test works out itself from the chat's results."""

from __future__ import annotations

import random
import re

import pytest

from bot.storage.tournaments import TournamentStatus
from tests.support import stored
from tests.support.botprocess import LaunchBot
from tests.support.driver import (
    TIMEOUT,
    Table,
    accept,
    command,
    finish,
    move,
    newest_id,
    press,
    refused_calls,
    text_of,
)
from tests.support.fakeapi import FakeTelegramAPI
from tests.support.fakeapi.model import FakeChat, FakeMessage

# The state that matters survives on both engines: SQLite and PostgreSQL (tests/e2e/conftest.py).
pytestmark = pytest.mark.usefixtures("on_both_engines")

HEADING = re.compile(r"Tournament · round (\d) of 3 · (\d) of 3 played")

# Three duels played at machine speed in one group fill its budget (20 calls in any minute),
# and each next message would wait up to a minute for room: this test is about the tournament.
QUICK = {"SIXSHOOTER_RATE_LIMIT": "off"}


def op(m: FakeMessage, code: str) -> str:
    return next(d for d in m.callback_data() if d.startswith("t:") and d.endswith(":" + code))


def pairings(m: FakeMessage) -> dict[str, str]:
    """A table's pairing buttons: "Alice — Bob" -> callback data."""
    return {b["text"].removeprefix("⚔️ "): b["callback_data"] for b in m.buttons()
            if str(b.get("callback_data", "")).startswith("t:")}


async def gone_table(api: FakeTelegramAPI, m: FakeMessage) -> None:
    """A table replaced by a newer one is deleted (when the chat's flood budget has room)."""
    await api.wait_for(lambda: m.deleted, 75.0, "the old table to go")


async def next_table(api: FakeTelegramAPI, chat: FakeChat, after: int,
                     decided: int) -> FakeMessage:
    """The table message that shows `decided` pairings decided (or the final table)."""
    def shows(m: FakeMessage) -> bool:
        text = text_of(m)
        found = HEADING.search(text)
        if found is not None:
            return m.has_media and int(found.group(2)) == decided
        return m.has_media and decided == 3 and "final table" in text
    return await api.wait_for_message(chat, shows, after_message_id=after, timeout=TIMEOUT)


async def test_a_three_player_round_robin_with_restarts(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    bot = await launch_bot(env=QUICK)
    storage = await bot.storage()
    alice = fake_api.add_user("Alice", username="alice", language_code="en")
    bob = fake_api.add_user("Bob", username="bobby", language_code="en")
    carol = fake_api.add_user("Carol", username="carol", language_code="en")
    chat = fake_api.create_group(members=[alice, bob, carol])
    users = {u.first_name: u for u in (alice, bob, carol)}

    signup = await command(fake_api, alice, chat, "tournament")
    assert "Tournament sign-up" in text_of(signup) and "Players (1 of 12): Alice" in text_of(
        signup)
    assert await press(fake_api, bob, signup, op(signup, "s")) == (
        "Only the tournament's opener or an admin can do that.")
    assert await press(fake_api, alice, signup, op(signup, "s")) == (
        "At least 3 players are needed to start.")
    for u in (bob, carol):
        assert await press(fake_api, u, signup, op(signup, "j")) is None
    assert await press(fake_api, carol, signup, op(signup, "j")) == "You are in already."
    await fake_api.wait_for(lambda: "Players (3 of 12): Alice, Bob, Carol" in text_of(signup),
                            TIMEOUT, "the sign-up to list three")
    again = await command(fake_api, bob, chat, "tournament", "double")
    assert text_of(again) == "A tournament is already on here: send /tournament to see it."

    last = newest_id(fake_api, chat)
    assert await press(fake_api, alice, signup, op(signup, "s")) is None
    table = await next_table(fake_api, chat, last, 0)
    assert "Started: 3 duels to play" in text_of(signup) and not signup.buttons()
    assert "round 1 of 3 · 0 of 3 played" in text_of(table)
    assert len(pairings(table)) == 3

    rng = random.Random(13)
    played: list[tuple[str, str, str | None]] = []  # the pair and the winner (None: a draw)
    for n in range(3):
        todo = pairings(table)
        label = sorted(todo)[0]
        first, second = (users[name] for name in label.split(" — "))
        outsider = next(u for u in users.values() if u not in (first, second))
        assert await press(fake_api, outsider, table, todo[label]) == (
            "Only the two players of this pair can start it.")
        last = newest_id(fake_api, chat)
        assert await press(fake_api, first, table, todo[label]) is None
        challenge = await fake_api.wait_for_message(
            chat, lambda m: any(d.startswith("c:") for d in m.callback_data()),
            after_message_id=last, timeout=TIMEOUT)
        assert f"{first.first_name} challenges {second.first_name}" in text_of(challenge)
        assert await press(fake_api, first, table, todo[label]) == (
            "You have challenged already: waiting for your opponent.")
        await accept(fake_api, second, challenge)
        pair = Table(fake_api, chat, (first, second))
        if n == 1:  # a kill in the middle of a duel of the tournament
            for _ in range(2):
                await move(fake_api, pair, rng)
            await bot.restart()
        last = newest_id(fake_api, chat)
        await finish(fake_api, pair, rng)
        result = fake_api.bot_messages(chat)[-1]
        won = re.search(r"🏆 (\w+) wins the duel", text_of(result))
        played.append((first.first_name, second.first_name, won.group(1) if won else None))
        if n == 1:  # a kill right after a result: the table still follows it
            await bot.restart()
        previous = table
        table = await next_table(fake_api, chat, last, n + 1)
        await gone_table(fake_api, previous)
        if n < 2:
            assert label not in pairings(table)

    # The final table may show before the tournament's end is saved (its job saves it).
    [t] = await stored.until(lambda: storage.tournaments.in_chat(chat.id),
                             lambda ts: ts and ts[0].status is TournamentStatus.FINISHED,
                             "the tournament finished")
    assert t.status is TournamentStatus.FINISHED
    assert sorted(tuple(sorted(p[:2])) for p in played) == [
        ("Alice", "Bob"), ("Alice", "Carol"), ("Bob", "Carol")]
    points = dict.fromkeys(users, 0.0)
    for a, b, w in played:
        for name in (a, b):
            points[name] += 0.5 if w is None else float(w == name)
    text = text_of(table)
    assert "The tournament is over: the final table" in text and not table.buttons()
    leaders = [name for name, p in points.items() if p == max(points.values())]
    if len(leaders) == 1:  # ahead on points: the winner whatever the tiebreaks
        assert f"Winner: {leaders[0]} (points: " in text
    else:
        assert "Winner:" in text or "Shared first place:" in text
    results = await storage.results.for_chat(chat.id)
    assert len(results) == 3  # tournament duels count for the chat like any other
    assert refused_calls(fake_api, allow=("message to delete not found",)) == []


async def test_signup_buttons_and_cancel(fake_api: FakeTelegramAPI,
                                         launch_bot: LaunchBot) -> None:
    await launch_bot()
    alice = fake_api.add_user("Alice", username="alice", language_code="ru")
    bob = fake_api.add_user("Bob", username="bobby", language_code="ru")
    chat = fake_api.create_group(members=[alice, bob])
    bad = await command(fake_api, alice, chat, "tournament", "forever")
    assert text_of(bad).startswith("Не понял.")
    signup = await command(fake_api, alice, chat, "tournament", "double 2d")
    text = text_of(signup)
    assert "организатор: Alice" in text and "Двойной круговой турнир" in text
    assert "На каждый тур — 2 дня" in text
    assert await press(fake_api, alice, signup, op(signup, "l")) == (
        "Вы открыли турнир: его можно отменить, но не покинуть.")
    assert await press(fake_api, bob, signup, op(signup, "l")) == "Вас нет в списке."
    assert await press(fake_api, bob, signup, op(signup, "x")) == (
        "Это может сделать только тот, кто открыл турнир, или админ.")
    assert await press(fake_api, alice, signup, op(signup, "x")) is None
    await fake_api.wait_for(lambda: "Турнир отменён" in text_of(signup), TIMEOUT, "cancelled")
    assert not signup.buttons()
    none = await command(fake_api, bob, chat, "tournament", "cancel")
    assert text_of(none) == "Здесь нет турнира. Отправьте /tournament, чтобы его открыть."
    assert refused_calls(fake_api) == []
