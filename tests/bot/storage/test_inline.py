"""Duels between friends anywhere (bot.storage.inline): a pair's chat, an inline challenge
settled once, a duel shown on an inline message, on every engine."""

from __future__ import annotations

import pytest

from bot.storage import ChallengeStatus, Storage
from bot.storage.db import UniqueViolation
from bot.storage.games import ChatMessage, InlineMessage
from bot.storage.inline import KEEP, PAIRS, InlineRepo, is_pair_chat

ALICE, BOB, CAROL = 2**40 + 1, 5_123_456_789, 303
T0 = 1_800_000_000
MESSAGE = "AgAAAFcXAgCkqLcVb3HtBQ-_x"


async def test_a_pair_has_one_chat_whichever_way_round_and_no_group_has_such_an_id(
        store: Storage) -> None:
    inline = store.of(InlineRepo)
    ab = await inline.pair_chat(ALICE, BOB)
    assert await inline.pair_chat(BOB, ALICE) == ab
    ac = await inline.pair_chat(CAROL, ALICE)
    assert ac != ab and is_pair_chat(ab) and is_pair_chat(ac)
    assert not is_pair_chat(-1001234567890123) and not is_pair_chat(-(2**52))
    assert ab <= PAIRS and ac > -(2**63)
    assert await inline.players_of(ab) == (min(ALICE, BOB), max(ALICE, BOB))
    assert await inline.players_of(-100123) is None
    with pytest.raises(ValueError):
        await inline.pair_chat(ALICE, ALICE)


async def test_an_inline_challenge_is_written_once_and_settled_once(store: Storage) -> None:
    inline = store.of(InlineRepo)
    posted = await inline.post(MESSAGE, ALICE, 50, now=T0)
    again = await inline.post(MESSAGE, BOB, 30, now=T0 + 1)  # a second word of it: the first
    assert posted == again and (posted.challenger_id, posted.stack) == (ALICE, 50)
    assert posted.status is ChallengeStatus.PENDING
    assert await inline.settle(MESSAGE, ChallengeStatus.DECLINED)
    assert not await inline.settle(MESSAGE, ChallengeStatus.ACCEPTED)  # settled already
    found = await inline.challenge(MESSAGE)
    assert found is not None and found.status is ChallengeStatus.DECLINED
    assert await inline.challenge("nothing") is None


async def test_a_duel_on_an_inline_message_is_shown_there_and_only_one_duel_is(
        store: Storage) -> None:
    chat = await store.of(InlineRepo).pair_chat(ALICE, BOB)
    duel = await store.duels.create(chat, None, (ALICE, BOB), "{}", T0,
                                    inline_message_id=MESSAGE)
    assert duel.inline and duel.shown_on == InlineMessage(MESSAGE)
    assert await store.duels.on_inline(MESSAGE) == duel
    assert [d.id for d in await store.duels.lagging()] == [duel.id]  # not shown yet
    assert await store.duels.set_message(duel.id, InlineMessage(MESSAGE), 0)
    assert not await store.duels.set_message(duel.id, InlineMessage("another"), 0)
    shown = await store.duels.get(duel.id)
    assert shown is not None and shown.shown_version == 0 and shown.message_id is None
    assert await store.duels.lagging() == []
    with pytest.raises(UniqueViolation):
        await store.duels.create(chat, None, (ALICE, BOB), "{}", T0, inline_message_id=MESSAGE)
    group = await store.duels.create(-100123, None, (ALICE, BOB), "{}", T0)
    assert not group.inline and group.shown_on is None
    assert await store.duels.set_message(group.id, ChatMessage(-100123, 5), 0)


async def test_challenges_that_never_became_duels_are_forgotten_after_two_days(
        store: Storage) -> None:
    inline = store.of(InlineRepo)
    await inline.post("old-open", ALICE, 50, now=T0)
    await inline.post("old-declined", ALICE, 50, now=T0)
    await inline.settle("old-declined", ChallengeStatus.DECLINED)
    await inline.post(MESSAGE, ALICE, 50, now=T0)
    chat = await inline.pair_chat(ALICE, BOB)
    duel = await store.duels.create(chat, None, (ALICE, BOB), "{}", T0, inline_message_id=MESSAGE)
    assert await inline.settle(MESSAGE, ChallengeStatus.ACCEPTED, duel.id)
    await inline.post("new", BOB, 30, now=T0 + KEEP + 1)  # a new one prunes the old ones
    assert await inline.challenge("old-open") is None
    assert await inline.challenge("old-declined") is None
    assert await inline.challenge(MESSAGE) is not None  # its duel's: kept with it
    assert await inline.challenge("new") is not None
