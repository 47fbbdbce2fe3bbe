"""/stats draws its pictures (the player card, the leaderboard) in the drawing thread, like
every other picture, never on the event loop."""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest
from telegram import Update
from telegram.ext import ContextTypes

from bot.services import KEY, Services
from bot.stats.handlers import on_board, stats
from bot.storage import DuelResult, ResultReason, Storage
from bot.storage.chats import ChatSettings
from bot.telegram.drawing import Drawer
from tests.support.rawsend import RawCalls

T0 = 1_700_000_000
ALICE, BOB, CHAT = 1, 2, -100


class RecordingDrawer(Drawer):
    def __init__(self) -> None:
        super().__init__()
        self.threads: list[str] = []

    async def draw(self, picture: Callable[[], bytes]) -> bytes:
        def recorded() -> bytes:
            self.threads.append(threading.current_thread().name)
            return picture()
        return await super().draw(recorded)


class FakeBot(RawCalls):
    defaults = None

    def __init__(self) -> None:
        self.photos: list[bytes] = []
        self.captions: list[tuple[str, Any]] = []  # each photo's caption and buttons
        self.texts: list[tuple[str, Any]] = []

    async def send_photo(self, chat_id: int, photo: bytes, **kw: Any) -> SimpleNamespace:
        self.photos.append(photo)
        self.captions.append((kw.get("caption", ""), kw.get("reply_markup")))
        return SimpleNamespace(message_id=len(self.photos))

    async def send_message(self, chat_id: int, text: str, **kw: Any) -> SimpleNamespace:
        self.texts.append((text, kw.get("reply_markup")))
        return SimpleNamespace(message_id=99)

    async def answer_callback_query(self, *args: Any, **kw: Any) -> bool:
        return True


@pytest.fixture
async def svc(tmp_path: Path) -> AsyncIterator[Services]:
    storage = await Storage.open(tmp_path / "s.db")
    services = Services(storage=storage, drawer=RecordingDrawer(), clock=lambda: T0 + 10)
    for n in (1, 2):
        duel = await storage.duels.create(CHAT, None, (ALICE, BOB), "{}", T0)
        await storage.results.record(DuelResult(
            duel_id=duel.id, chat_id=CHAT, players=(ALICE, BOB), final_stacks=(60, 40),
            start_stack=50, winner_id=ALICE if n == 1 else BOB, reason=ResultReason.NORMAL,
            best_hands=(None, None), bonus_chips=(0, 0), bullets=6, finished_at=T0 + n))
    yield services
    services.drawer.shutdown()
    await storage.close()


def command(bot: FakeBot, chat: dict[str, Any]) -> Update:
    return Update.de_json({"update_id": 1, "message": {
        "message_id": 7, "date": 0, "chat": chat, "text": "/stats",
        "from": {"id": ALICE, "is_bot": False, "first_name": "Alice", "language_code": "en"},
        "entities": [{"type": "bot_command", "offset": 0, "length": 6}],
    }}, bot)  # type: ignore[arg-type]


@pytest.mark.parametrize("chat", [
    {"id": ALICE, "type": "private", "first_name": "Alice"},  # the player card
    {"id": CHAT, "type": "group", "title": "Saloon"},  # the leaderboard
], ids=["card", "board"])
async def test_stats_pictures_are_drawn_in_the_drawing_thread(
        svc: Services, chat: dict[str, Any]) -> None:
    bot = FakeBot()
    context = cast(ContextTypes.DEFAULT_TYPE, SimpleNamespace(bot=bot, bot_data={KEY: svc},
                                                              args=[]))
    await stats(command(bot, chat), context)
    drawer = cast(RecordingDrawer, svc.drawer)
    assert len(bot.photos) == 1 and bot.photos[0][:3] in (b"\x89PN", b"\xff\xd8\xff")
    assert len(drawer.threads) == 1 and drawer.threads[0].startswith("draw")


GROUP = {"id": CHAT, "type": "group", "title": "Saloon"}
NOV_2023 = T0 + 10  # the results are from 14 November 2023 (UTC)
DEC_2023 = T0 + 20 * 86400


def context_for(bot: FakeBot, svc: Services) -> ContextTypes.DEFAULT_TYPE:
    return cast(ContextTypes.DEFAULT_TYPE, SimpleNamespace(bot=bot, bot_data={KEY: svc},
                                                           args=[]))


def buttons(markup: Any) -> list[tuple[str, str]]:
    return [(b.text, b.callback_data) for row in markup.inline_keyboard for b in row]


def board_press(bot: FakeBot, data: str) -> Update:
    return Update.de_json({"update_id": 2, "callback_query": {
        "id": "q", "chat_instance": "c", "data": data,
        "from": {"id": BOB, "is_bot": False, "first_name": "Bob", "language_code": "en"},
        "message": {"message_id": 8, "date": 0, "chat": GROUP, "text": "board"},
    }}, bot)  # type: ignore[arg-type]


async def test_the_board_shows_the_current_season_with_buttons_for_the_others(
        svc: Services) -> None:
    bot = FakeBot()
    svc.clock = lambda: NOV_2023
    await stats(command(bot, GROUP), context_for(bot, svc))
    [(caption, markup)] = bot.captions
    assert "Standings</b> after 2 duels" in caption
    assert "Season: <b>November 2023</b> (UTC)" in caption
    assert buttons(markup) == [("Last season", "b:l"), ("All time", "b:a")]


async def test_a_new_season_is_empty_until_played_and_the_last_one_is_a_tap_away(
        svc: Services) -> None:
    bot = FakeBot()
    svc.clock = lambda: DEC_2023
    await stats(command(bot, GROUP), context_for(bot, svc))
    assert not bot.photos
    [(text, markup)] = bot.texts
    assert "No finished duels in December 2023 (UTC) yet" in text
    assert ("Last season", "b:l") in buttons(markup)
    await on_board(board_press(bot, "b:l"), context_for(bot, svc))
    [(caption, markup)] = bot.captions
    assert "Last season: <b>November 2023</b>" in caption and "after 2 duels" in caption
    assert buttons(markup) == [("This season", "b:n"), ("All time", "b:a")]
    await on_board(board_press(bot, "b:a"), context_for(bot, svc))
    caption, markup = bot.captions[-1]
    assert "📅 All time" in caption and ("This season", "b:n") in buttons(markup)


async def test_quarters_and_no_seasons(svc: Services) -> None:
    bot = FakeBot()
    svc.clock = lambda: NOV_2023
    await svc.storage.chats.set_settings(CHAT, ChatSettings(season="quarter"))
    await stats(command(bot, GROUP), context_for(bot, svc))
    assert "Season: <b>Q4 2023</b>" in bot.captions[-1][0]
    await svc.storage.chats.set_settings(CHAT, ChatSettings(season="none"))
    await stats(command(bot, GROUP), context_for(bot, svc))
    caption, markup = bot.captions[-1]
    assert markup is None and "Season" not in caption and "All time" not in caption


async def test_with_reset_the_seasons_board_says_so_and_ranks_from_level_ratings(
        svc: Services) -> None:
    """November's two duels (Alice, then Bob won), then a December one Alice wins: going on,
    she is at 3 duels; with the reset December is her first, a newcomer's win (1069?)."""
    duel = await svc.storage.duels.create(CHAT, None, (ALICE, BOB), "{}", DEC_2023)
    await svc.storage.results.record(DuelResult(
        duel_id=duel.id, chat_id=CHAT, players=(ALICE, BOB), final_stacks=(60, 40),
        start_stack=50, winner_id=ALICE, reason=ResultReason.NORMAL,
        best_hands=(None, None), bonus_chips=(0, 0), bullets=6, finished_at=DEC_2023))
    svc.clock = lambda: DEC_2023 + 10
    bot = FakeBot()
    await stats(command(bot, GROUP), context_for(bot, svc))
    caption = bot.captions[-1][0]
    assert "Ratings carry on from earlier seasons" in caption and "</b> 1069?" not in caption
    await svc.storage.chats.set_settings(CHAT, ChatSettings(season_reset=True))
    await stats(command(bot, GROUP), context_for(bot, svc))
    caption = bot.captions[-1][0]
    assert "Season: <b>December 2023</b> (UTC). Ratings started level this season" in caption
    assert "1. <b>?</b> 1069? · +10 · 1 duel" in caption  # Alice (no name stored)
    assert "2. <b>?</b> 963? · −10 · 1 duel" in caption
    await on_board(board_press(bot, "b:l"), context_for(bot, svc))  # November, reset too
    assert "Ratings started level and stand as at its end" in bot.captions[-1][0]
    await on_board(board_press(bot, "b:a"), context_for(bot, svc))  # all time: every duel
    caption = bot.captions[-1][0]
    assert "📅 All time" in caption and "</b> 1069?" not in caption
