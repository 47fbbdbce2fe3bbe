"""A group upgraded to a supergroup keeps its duels, standings, settings and casino balances.

Telegram gives the supergroup a new chat id and says so twice (the old group's
`migrate_to_chat_id`, the supergroup's `migrate_from_chat_id`); a send to the old id fails
with 400 "group chat was upgraded to a supergroup chat" and the new id. Either signal moves the
chat; the others then find nothing left to move.
"""

from __future__ import annotations

import random
import re

from bot.storage import ChatSettings, DuelStatus, Storage
from tests.support import stored
from tests.support.botprocess import LaunchBot
from tests.support.driver import (
    TIMEOUT,
    Table,
    actor,
    command,
    duel_id_of,
    duel_keyboard,
    open_duel,
    player,
    press,
    reply_to,
    tap,
    text_of,
    version_of,
)
from tests.support.fakeapi import FakeChat, FakeMessage, FakeTelegramAPI, FakeUser
from tests.support.sixcard import Hand, Player

QUICK = {"SIXSHOOTER_RATE_LIMIT": "off"}
LINE = re.compile(r"^\d+\. (\w+) (\d+\??) · [+−]?\d+ · (\d+) duels? · (\d+)–(\d+)–(\d+)", re.M)


async def rows_of(storage: Storage, chat_id: int, people: list[FakeUser]) -> dict[str, int]:
    """What the chat holds: how many duels, challenges, results, ratings, casino balances and
    six-card games of these people, whether it is a known chat, and whether it has settings of
    its own (anything but the defaults)."""
    repo = stored.balances(storage)
    balances = [await repo.get_balance(chat_id, u.id) for u in people]
    return {
        "duels": len(await stored.duels(storage, chat_id)),
        "challenges": len(await stored.challenges(storage, chat_id)),
        "results": len(await storage.results.for_chat(chat_id)),
        "ratings": len(await storage.ratings.for_chat(chat_id)),
        "balances": sum(b is not None for b in balances),
        "sixcard_games": sum([len(await stored.games(storage, chat_id, u.id)) for u in people]),
        "chat_settings": int(await stored.settings(storage, chat_id) != ChatSettings()),
        "chats": int(await storage.chats.get(chat_id) is not None),
    }


def live_of(api: FakeTelegramAPI, chat: FakeChat, duel_id: int) -> list[FakeMessage]:
    return [m for m in api.bot_messages(chat)
            if any(d.startswith(f"d:{duel_id}:") for d in duel_keyboard(m))]


async def a_group_with_a_past(api: FakeTelegramAPI, storage: Storage) -> tuple[
        FakeChat, list[FakeUser], FakeMessage, int]:
    """A group with a finished duel (Alice beat Bob by surrender), Carol and Dave's duel live
    one move in, its starting stack set to 100 by Alice (the creator), and Alice's six-card
    balance after one folded hand. Returns the chat, its people, the live duel's message and
    Alice's balance."""
    people = [api.add_user(n, username=n.lower()) for n in ("Alice", "Bob", "Carol", "Dave")]
    alice, bob, carol, dave = people
    chat = api.create_group("Old friends", members=people)
    await open_duel(api, Table(api, chat, (alice, bob)))
    api.send_command(bob, chat, "surrender")
    await api.wait_for_message(chat, lambda m: "surrendered" in text_of(m), timeout=TIMEOUT)
    shown = await command(api, alice, chat, "settings")
    assert await press(api, alice, shown, next(
        b["callback_data"] for b in shown.buttons() if b["text"] == "100")) == "Saved."
    table = Table(api, chat, (carol, dave))
    live = await open_duel(api, table)
    assert "Carol: 100" in text_of(live)
    assert await tap(api, player(table, actor(live)), live, duel_keyboard(live)[0]) is None
    [live] = live_of(api, chat, duel_id_of(live))  # the move passed the turn: a fresh one
    hand = Hand("", [("f",)], False)
    await Player(api, alice, chat).play(hand)
    await stored.settled(storage, duel_id_of(live))
    return chat, people, live, hand.balance


async def test_an_upgraded_group_keeps_its_history_settings_balances_and_live_duel(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    bot = await launch_bot(env=QUICK)
    storage = await bot.storage()
    group, people, live, balance = await a_group_with_a_past(fake_api, storage)
    alice, _bob, carol, dave = people
    duel_id = duel_id_of(live)
    before = await rows_of(storage, group.id, people)
    assert before["results"] == 1 and before["balances"] == 1 and before["chat_settings"] == 1
    assert before["ratings"] == 2  # Alice's and Bob's, moved by that result

    supergroup = fake_api.upgrade_group(group)  # both service messages reach the bot

    # The live duel is shown again in the supergroup, where it goes on.
    again = await fake_api.wait_for_message(supergroup, lambda m: bool(duel_keyboard(m)),
                                            timeout=TIMEOUT)
    assert duel_id_of(again) == duel_id and version_of(again) == 1
    table = Table(fake_api, supergroup, (carol, dave))
    assert await tap(fake_api, player(table, actor(again)), again,
                     duel_keyboard(again)[0]) is None
    row = await stored.settled(storage, duel_id)
    assert (row.chat_id, row.version, row.status) == (supergroup.id, 2, DuelStatus.LIVE)
    assert row.message_id in {m.message_id for m in live_of(fake_api, supergroup, duel_id)}
    # Every row is under the new id, and the old id has none left.
    await fake_api.wait_updates_fetched(timeout=TIMEOUT)
    after = await stored.until(lambda: rows_of(storage, supergroup.id, people),
                               lambda r: bool(r["chats"]), "the chat moved")
    assert {k: v for k, v in after.items() if k != "challenges"} == {
        k: v for k, v in before.items() if k != "challenges"}
    assert after["challenges"] == before["challenges"] == 2
    assert not any((await rows_of(storage, group.id, people)).values())
    moved = await storage.chats.get(supergroup.id)
    assert moved is not None and moved.type == "supergroup"
    # The standings are the group's: Alice won the surrendered duel against Bob.
    board = await reply_to(fake_api, alice, supergroup, "stats")
    lines = {name: figures for name, *figures in LINE.findall(text_of(board))}
    assert lines == {"Alice": ["1069?", "1", "1", "0", "0"],
                     "Bob": ["963?", "1", "0", "1", "0"]}, text_of(board)
    history = await reply_to(fake_api, alice, supergroup, "history")
    assert "Bob surrendered" in text_of(history)
    # The settings and Alice's casino balance came along.
    settings = await command(fake_api, alice, supergroup, "settings")
    assert "Starting stack: 100 chips" in text_of(settings)
    shown = await reply_to(fake_api, alice, supergroup, "balance")
    assert f"{balance} chips" in text_of(shown)
    # The old group's messages were never touched after the move.
    assert not [r for r in fake_api.failed_calls()], [r.summary() for r in
                                                      fake_api.failed_calls()]


async def test_a_send_refused_as_upgraded_moves_the_chat_and_shows_the_duel_there(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    """No service message reached the bot (say, it was down): the first send to the old id
    answers ChatMigrated, the chat moves then, and the duel is shown in the supergroup."""
    bot = await launch_bot(env=QUICK)
    storage = await bot.storage()
    group, people, live, balance = await a_group_with_a_past(fake_api, storage)
    _alice, _bob, carol, dave = people
    duel_id = duel_id_of(live)
    supergroup = fake_api.upgrade_group(group, announce=False)
    table = Table(fake_api, group, (carol, dave))
    # A press in the old group (its client still shows it): saved, then the edit is refused.
    assert await press(fake_api, player(table, actor(live)), live,
                       random.Random(1).choice(duel_keyboard(live))) is None
    shown = await fake_api.wait_for_message(supergroup, lambda m: bool(duel_keyboard(m)),
                                            timeout=TIMEOUT)
    assert duel_id_of(shown) == duel_id and version_of(shown) == 2
    row = await stored.settled(storage, duel_id)
    assert (row.chat_id, row.message_id) == (supergroup.id, shown.message_id)
    assert (await rows_of(storage, supergroup.id, people))["results"] == 1
    assert not any((await rows_of(storage, group.id, people)).values())
    assert [r.description for r in fake_api.failed_calls()] == [
        "Bad Request: group chat was upgraded to a supergroup chat"]
    # Telegram's service messages come late: nothing is moved twice, the duel plays on.
    fake_api.announce_upgrade(group)
    await fake_api.wait_updates_fetched(timeout=TIMEOUT)
    moved = Table(fake_api, supergroup, (carol, dave))
    assert await tap(fake_api, player(moved, actor(shown)), shown,
                     duel_keyboard(shown)[0]) is None
    assert (await stored.settled(storage, duel_id)).version == 3
    assert (await rows_of(storage, supergroup.id, people))["balances"] == 1
    assert f"{balance} chips" in text_of(await reply_to(fake_api, people[0], supergroup,
                                                        "balance"))
    assert not any((await rows_of(storage, group.id, people)).values())
    assert "Traceback" not in bot.log()
