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
from bot.stats.handlers import stats
from bot.storage import DuelResult, ResultReason, Storage
from bot.telegram.drawing import Drawer

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


class FakeBot:
    defaults = None

    def __init__(self) -> None:
        self.photos: list[bytes] = []

    async def send_photo(self, chat_id: int, photo: bytes, **kw: Any) -> SimpleNamespace:
        self.photos.append(photo)
        return SimpleNamespace(message_id=len(self.photos))

    async def send_message(self, chat_id: int, text: str, **kw: Any) -> SimpleNamespace:
        return SimpleNamespace(message_id=99)


@pytest.fixture
async def svc(tmp_path: Path) -> AsyncIterator[Services]:
    storage = await Storage.open(tmp_path / "s.db")
    services = Services(storage=storage, drawer=RecordingDrawer())
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
