"""What people read in a duel, through the real `sixshooter` process: hostile names escaped and
intact in every mention, and Russian texts with their plural forms.
"""

from __future__ import annotations

import random

from tests.support.botprocess import LaunchBot
from tests.support.driver import (
    TIMEOUT,
    Table,
    actor,
    actor_user,
    command,
    duel_keyboard,
    live_duel,
    move,
    new_table,
    open_duel,
    other,
    press,
    refused_calls,
    reply_to,
    tap,
    text_of,
)
from tests.support.fakeapi import FakeMessage, FakeTelegramAPI

DELETE_WAIT = 75.0


async def deleted(api: FakeTelegramAPI, *messages: FakeMessage) -> None:
    """Wait until the bot has deleted these messages (a delete may wait a little for room in
    the chat's flood budget; it must come)."""
    await api.wait_for(lambda: all(m.deleted for m in messages), DELETE_WAIT,
                       "the replaced messages deleted")


async def test_hostile_names_are_escaped_and_intact(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    await launch_bot()
    evil = fake_api.add_user("<b>Bo&amp;b</b>", last_name="_*O'Hara*_ \"🤠\" <i", username="evil")
    odd = fake_api.add_user("A&B <script>alert(1)</script>", last_name="👩‍🚀 *_~`|",
                            username="odd_one")
    chat = fake_api.create_group(members=[evil, odd])
    table = Table(fake_api, chat, (evil, odd))
    names = {u.id: u.full_name for u in (evil, odd)}
    first = await open_duel(fake_api, table)
    await move(fake_api, table, random.Random(2))
    fake_api.send_command(evil, chat, "surrender")
    await fake_api.wait_for_message(chat, lambda x: "surrendered" in text_of(x),
                                    after_message_id=first.message_id, timeout=TIMEOUT)
    # Every version of every message the bot sent (the challenge before it became the
    # duel's header, live messages since deleted, the result).
    versions = [(m, version) for m in fake_api.bot_messages(chat, include_deleted=True)
                for version in [*m.history, m.to_dict()]]
    checked: set[int] = set()
    for m, version in versions:
        text = str(version.get("caption") or version.get("text") or "")
        assert "&amp;amp;" not in text and "&lt;" not in text and "&#" not in text, text
        entities = version.get("caption_entities") or version.get("entities") or []
        for e in entities:
            if e["type"] == "text_mention":
                # The mention shows the whole name, exactly, linked to the right user.
                start, end = 2 * e["offset"], 2 * (e["offset"] + e["length"])
                shown = text.encode("utf-16-le")[start:end].decode("utf-16-le")
                assert shown == names[e["user"]["id"]], (shown, text)
                checked.add(m.message_id)
    # The header, both live messages (the first since deleted) and the result mention people.
    result = fake_api.bot_messages(chat)[-1]
    await deleted(fake_api, first)
    assert {first.message_id, result.message_id} <= checked
    assert len(checked) >= 4, checked
    assert not refused_calls(fake_api)


async def test_russian_players_get_russian_texts_with_plural_forms(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    await launch_bot()
    table, _ = new_table(fake_api, lang="ru")
    alice, bob = table.players
    chat = table.chat
    hello = fake_api.send_message(bob, chat, "привет")
    for stack, words in ((21, "по 21 фишке"), (22, "по 22 фишки"), (25, "по 25 фишек")):
        offer = await command(fake_api, alice, chat, "duel", str(stack), reply_to=hello)
        assert (f"Вызов на дуэль Six-Shooter: Alice → Bob, у каждого {words}. Bob, принимаете?"
                in text_of(offer))
        assert text_of(await reply_to(fake_api, alice, chat, "cancel")) == "Ваш вызов отозван."
        assert text_of(offer) == "↩️ Вызов отозван: Alice."
    assert "Размер стека" in text_of(await reply_to(fake_api, alice, chat, "duel", "5"))
    m = await open_duel(fake_api, table, "31")
    assert "Раунд 1 · пуля 1 из 6" in text_of(m) and "Alice: 31" in text_of(m)
    assert "ваш ход" in text_of(m)
    waiting = other(table, actor(m))
    assert await press(fake_api, waiting, m, duel_keyboard(m)[0]) == "Сейчас не ваш ход."
    one = next(d for d in duel_keyboard(m) if d.endswith("1"))
    assert await tap(fake_api, actor_user(table, m), m, one) is None
    # The turn passed: the dealer's move is a fresh message (its picture shows the bet).
    dealer = live_duel(fake_api, chat)
    assert dealer is not m
    await deleted(fake_api, m)
    assert "(сдаёт), ваш ход" in text_of(dealer) and len(text_of(dealer).splitlines()) <= 4
    assert all("Пас 1" in t or "Игра 2" in t for t in dealer.button_texts()), (
        dealer.button_texts())
    assert any(t.startswith("№") for t in dealer.button_texts()), dealer.button_texts()
    two = next(d for d in duel_keyboard(dealer) if d.endswith("2"))
    assert await tap(fake_api, actor_user(table, dealer), dealer, two) is None  # bullet ends
    # The next bullet's message folds in the one just finished.
    nxt = live_duel(fake_api, chat)
    await deleted(fake_api, dealer)
    assert "Раунд 1 · пуля 2 из 6" in text_of(nxt)
    assert "Пуля 1: " in text_of(nxt) and "(1 фишка)" not in text_of(nxt)
    assert "играет против паса и выигрывает 1 фишку." in text_of(nxt)
    assert not refused_calls(fake_api)
