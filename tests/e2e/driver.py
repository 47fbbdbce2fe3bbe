"""Playing the bot as people do, through the fake Bot API: challenge, accept, tap, read."""

from __future__ import annotations

import random
from dataclasses import dataclass

from .fakeapi import FakeTelegramAPI
from .fakeapi.model import FakeChat, FakeMessage, FakeUser

TIMEOUT = 20.0


@dataclass
class Table:
    api: FakeTelegramAPI
    chat: FakeChat
    players: tuple[FakeUser, FakeUser]
    thread: int | None = None


def duel_keyboard(m: FakeMessage) -> list[str]:
    return [d for d in m.callback_data() if d.startswith("d:")]


def live_duel_message(api: FakeTelegramAPI, chat: FakeChat) -> FakeMessage | None:
    """The newest bot message carrying duel buttons."""
    for m in reversed(api.bot_messages(chat)):
        if duel_keyboard(m):
            return m
    return None


def mentioned_ids(m: FakeMessage) -> list[int]:
    entities = m.caption_entities if m.caption is not None else m.entities
    return [e["user"]["id"] for e in entities if e.get("type") == "text_mention"]


def actor(m: FakeMessage) -> int:
    """Whose move a live bullet message asks for: the last mention in its caption (the turn
    line comes after the stacks and the bets)."""
    ids = mentioned_ids(m)
    assert ids, f"no mention in {m.caption!r}"
    return ids[-1]


async def open_duel(api: FakeTelegramAPI, table: Table, args: str = "") -> FakeMessage:
    """Player 0 answers player 1's message with /duel; player 1 accepts. Returns the first
    bullet's message."""
    a, b = table.players
    hello = api.send_message(b, table.chat, "hi there", message_thread_id=table.thread)
    before = api.bot_messages(table.chat)
    last = before[-1].message_id if before else 0
    api.send_command(a, table.chat, "duel", args, reply_to=hello,
                     message_thread_id=table.thread)
    challenge = await api.wait_for_message(table.chat, lambda m: any(
        d.startswith("c:") for d in m.callback_data()), after_message_id=last, timeout=TIMEOUT)
    accept = next(d for d in challenge.callback_data() if d.endswith(":a"))
    query = api.press_button(b, challenge, accept)
    await api.wait_for_answer(query, timeout=TIMEOUT)
    return await api.wait_for_message(table.chat, lambda m: bool(duel_keyboard(m)),
                                      after_message_id=challenge.message_id, timeout=TIMEOUT)


async def tap(api: FakeTelegramAPI, user: FakeUser, m: FakeMessage, data: str,
              *, force: bool = False) -> str | None:
    """Press a button and wait for the bot's answer; returns the toast text (None if silent).
    When the press is accepted, also waits for the message to move on."""
    version = m.content_key()
    count = len(api.bot_messages(m.chat))
    query = api.press_button(user, m, data, force=force)
    answered = await api.wait_for_answer(query, timeout=TIMEOUT)
    if answered.text:
        return answered.text
    if data.startswith("d:") and moves_on(m, data):
        await api.wait_for(lambda: len(api.bot_messages(m.chat)) > count, TIMEOUT,
                           "the next message")
    elif data.startswith("d:"):
        await api.wait_for(lambda: m.content_key() != version, TIMEOUT, "an edit")
    return None


def moves_on(m: FakeMessage, data: str) -> bool:
    """Does this (accepted) press end the message's moment, so a new message follows?"""
    if data.endswith(":tn"):
        return True
    if data.endswith(":ty"):
        return bool(mentioned_ids(m))  # the other player agreed already
    return _ends_bullet(m)


def _hands_on_offer(m: FakeMessage) -> int:
    return len({d.rsplit(":", 1)[1][1] for d in duel_keyboard(m) if d.rsplit(":", 1)[1][0] == "b"})


def _ends_bullet(m: FakeMessage) -> bool:
    """An odd number of hands to choose from means one is taken: the dealer's tap ends it."""
    n = _hands_on_offer(m)
    return n > 0 and n % 2 == 1


async def play_bullet_move(api: FakeTelegramAPI, table: Table, rng: random.Random) -> bool:
    """Make one move in the live bullet as the player to act; False when no duel is live."""
    m = live_duel_message(api, table.chat)
    if m is None:
        return False
    who = actor(m)
    user = next(p for p in table.players if p.id == who)
    data = rng.choice(duel_keyboard(m))
    toast = await tap(api, user, m, data)
    assert toast is None, f"a legal tap was refused: {toast}"
    return True


async def play_to_the_end(api: FakeTelegramAPI, table: Table, rng: random.Random,
                          *, accept_tiebreak: bool = False, limit: int = 60) -> FakeMessage:
    """Play random legal moves until the duel ends; returns the result message."""
    for _ in range(limit):
        m = live_duel_message(api, table.chat)
        if m is None:
            break
        if any(d.endswith((":ty", ":tn")) for d in duel_keyboard(m)):
            answered = set(mentioned_ids(m))
            for p in table.players:
                if p.id in answered:
                    continue
                choice = next(d for d in duel_keyboard(m)
                              if d.endswith(":ty" if accept_tiebreak else ":tn"))
                await tap(api, p, m, choice)
                if not accept_tiebreak:
                    break
            continue
        await play_bullet_move(api, table, rng)
    last = api.bot_messages(table.chat)[-1]
    assert not duel_keyboard(last), "the duel did not end"
    return last
