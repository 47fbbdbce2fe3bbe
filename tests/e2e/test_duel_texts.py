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
from tests.support.fakeapi import FakeTelegramAPI


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
    checked = 0
    for m in fake_api.bot_messages(chat):
        text = text_of(m)
        assert "&amp;amp;" not in text and "&lt;" not in text and "&#" not in text, text
        entities = m.caption_entities if m.caption is not None else m.entities
        for e in entities:
            if e["type"] == "text_mention":
                # The mention shows the whole name, exactly, linked to the right user.
                start, end = 2 * e["offset"], 2 * (e["offset"] + e["length"])
                shown = text.encode("utf-16-le")[start:end].decode("utf-16-le")
                assert shown == names[e["user"]["id"]], (shown, text)
                checked += 1
    assert checked >= 8
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
    assert "ставит 1 фишку на руку" in text_of(m)
    assert all("Пас 1" in t or "Игра 2" in t for t in m.button_texts()), m.button_texts()
    two = next(d for d in duel_keyboard(m) if d.endswith("2"))
    assert await tap(fake_api, actor_user(table, m), m, two) is None  # the bullet ends
    assert "(1 фишка)" in text_of(m) and "(2 фишки)" in text_of(m)
    assert "играет против паса и выигрывает 1 фишку." in text_of(m)
    assert not refused_calls(fake_api)
