"""The season-end post: once per chat per season, the final table, the champion and the
biggest climb; nothing for a season nobody played in, a chat with seasons off or one left."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any, cast

import pytest
from telegram import Bot

from bot.services import Services
from bot.stats import standings
from bot.stats.season_end import post_ended
from bot.storage import DuelResult, ResultReason, Storage
from bot.storage.chats import ChatSettings
from bot.telegram.drawing import Drawer
from rules import rating
from tests.support.rawsend import RawCalls

ALICE, BOB, CAROL, CHAT = 1, 2, 3, -100
NOV = int(datetime(2026, 11, 10, tzinfo=UTC).timestamp())
DEC = int(datetime(2026, 12, 1, 0, 0, 30, tzinfo=UTC).timestamp())  # December has begun


class FakeBot(RawCalls):
    defaults = None

    def __init__(self) -> None:
        self.captions: list[str] = []
        self.texts: list[str] = []

    async def send_photo(self, chat_id: int, photo: bytes, **kw: Any) -> SimpleNamespace:
        self.captions.append(kw.get("caption", ""))
        return SimpleNamespace(message_id=len(self.captions))

    async def send_message(self, chat_id: int, text: str, **kw: Any) -> SimpleNamespace:
        self.texts.append(text)
        return SimpleNamespace(message_id=99)


async def duel(storage: Storage, p0: int, p1: int, winner: int, at: int,
               chat: int = CHAT) -> None:
    record = await storage.duels.create(chat, None, (p0, p1), "{}", at)
    s0 = 60 if winner == p0 else 40
    await storage.results.record(DuelResult(
        duel_id=record.id, chat_id=chat, players=(p0, p1), final_stacks=(s0, 100 - s0),
        start_stack=50, winner_id=winner, reason=ResultReason.NORMAL,
        best_hands=(None, None), bonus_chips=(0, 0), bullets=6, finished_at=at))


@pytest.fixture
async def svc(store: Storage) -> AsyncIterator[Services]:
    storage = store
    services = Services(storage=storage, drawer=Drawer())
    await storage.chats.upsert(CHAT, "group", "Saloon", False, now=NOV)
    for uid, name in ((ALICE, "Alice"), (BOB, "Bob"), (CAROL, "Carol")):
        await storage.users.upsert(uid, name, now=NOV)
    await duel(storage, ALICE, BOB, ALICE, NOV - 30 * 86400)  # October: before the season
    for n in range(3):
        await duel(storage, CAROL, ALICE, CAROL, NOV + n)
    await duel(storage, BOB, ALICE, BOB, NOV + 5)
    yield services
    services.drawer.shutdown()
    await storage.close()


async def test_the_ended_season_is_posted_once_with_champion_and_climb(svc: Services) -> None:
    bot = FakeBot()
    assert await post_ended(cast(Bot, bot), svc, DEC) == 1
    [caption] = bot.captions
    assert "Season over: November 2026" in caption
    assert "Champion: <b>Carol</b>" in caption
    results = await svc.storage.results.for_chat(CHAT)
    nov = standings.season_ranking(results, NOV - 86400, DEC)
    assert nov[0].user_id == CAROL
    climbs = standings.climbs(results, NOV - 86400, DEC)
    assert max(climbs, key=lambda u: climbs[u]) == CAROL
    assert f"Biggest climb: <b>Carol</b>, +{climbs[CAROL]} rating" in caption
    # once: the next look, or one after a restart (the mark is stored), posts nothing
    assert await post_ended(cast(Bot, bot), svc, DEC + 3600) == 0
    assert len(bot.captions) == 1


async def test_each_ended_season_once_and_nothing_with_seasons_off(svc: Services) -> None:
    bot = FakeBot()
    # In November, the season that ended is October (one duel: Alice's win); November runs.
    assert await post_ended(cast(Bot, bot), svc, NOV + 86400) == 1
    assert "Season over: October 2026" in bot.captions[0]
    assert "Champion: <b>Alice</b>" in bot.captions[0]
    assert await post_ended(cast(Bot, bot), svc, NOV + 2 * 86400) == 0
    await svc.storage.chats.set_settings(CHAT, ChatSettings(season="none"))
    assert await post_ended(cast(Bot, bot), svc, DEC) == 0
    assert len(bot.captions) == 1


async def test_a_season_nobody_played_is_not_posted(svc: Services) -> None:
    bot = FakeBot()
    jan = int(datetime(2027, 1, 2, tzinfo=UTC).timestamp())  # December had no duels
    assert await post_ended(cast(Bot, bot), svc, jan) == 0 and not bot.captions


async def test_russian_post(svc: Services) -> None:
    bot = FakeBot()
    await svc.storage.chats.set_settings(CHAT, ChatSettings(language="ru"))
    await post_ended(cast(Bot, bot), svc, DEC)
    [caption] = bot.captions
    assert "Итоги сезона: ноябрь 2026</b> (по UTC)" in caption
    assert "Чемпион сезона: <b>Carol</b>" in caption and "Самый большой рост рейтинга" in caption


async def test_a_chat_the_bot_left_gets_no_post(svc: Services) -> None:
    bot = FakeBot()
    await svc.storage.chats.mark_left(CHAT, now=DEC)
    assert await post_ended(cast(Bot, bot), svc, DEC) == 0 and not bot.captions


async def test_with_reset_the_post_ranks_the_season_from_level_ratings(svc: Services) -> None:
    """November with the reset on: October (Alice beat Bob) counts for nothing; everyone came
    in as a newcomer, and the climb is measured from a newcomer's rating."""
    await svc.storage.chats.set_settings(CHAT, ChatSettings(season_reset=True))
    bot = FakeBot()
    assert await post_ended(cast(Bot, bot), svc, DEC) == 1
    # By hand: Carol beats Alice three times, then Bob beats Alice, all from newcomers.
    carol, alice = rating.initial(), rating.initial()
    for _ in range(3):
        carol, alice = rating.after_duel(carol, alice, 0)
    bob, alice = rating.after_duel(rating.initial(), alice, 0)
    results = await svc.storage.results.for_chat(CHAT)
    nov = standings.season_ranking(results, NOV - 86400, DEC, reset=True)
    assert [(s.user_id, s.rating) for s in nov] == [(CAROL, carol), (BOB, bob), (ALICE, alice)]
    words = "\n".join([*bot.captions, *bot.texts])
    assert f"Champion: <b>Carol</b>, rating {rating.label(carol)}" in words
    climb = rating.shown(carol) - 1000
    assert f"Biggest climb: <b>Carol</b>, +{climb} rating" in words
    carried_on = standings.climbs(results, NOV - 86400, DEC)
    assert standings.climbs(results, NOV - 86400, DEC, reset=True) == {
        CAROL: climb, BOB: rating.shown(bob) - 1000, ALICE: rating.shown(alice) - 1000}
    assert carried_on[CAROL] != climb  # going on, Carol beat an Alice who came in a winner
    assert "A new season has begun, with every rating reset" in words
    assert "going on from these ratings" not in words


async def test_without_reset_the_post_says_the_ratings_carry_on(svc: Services) -> None:
    bot = FakeBot()
    await post_ended(cast(Bot, bot), svc, DEC)
    words = "\n".join([*bot.captions, *bot.texts])
    assert "going on from these ratings" in words and "reset" not in words


async def test_russian_post_with_reset(svc: Services) -> None:
    bot = FakeBot()
    await svc.storage.chats.set_settings(CHAT, ChatSettings(language="ru", season_reset=True))
    await post_ended(cast(Bot, bot), svc, DEC)
    words = "\n".join([*bot.captions, *bot.texts])
    assert "Начался новый сезон, рейтинги обнулены — у всех равный старт." in words
