"""A duel's press goes one way through (`bot.common.live`): its record read once per press,
and a press on an old copy of its live message moves nothing, is told so, and the copy goes
(an in-process press, its picture not drawn)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any, cast

import pytest
from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.ext import ContextTypes

from bot.duel import payloads
from bot.duel.present import LIVE
from bot.duel.service import start_duel
from bot.services import KEY, Services
from bot.storage import ChatMessage, DuelRecord, Storage
from bot.storage.challenges import AlreadyPending
from rules.duel import DuelState

T0 = 1_700_000_000
CHAT, ALICE, BOB = -9, 101, 202
STALE = "This button is out of date: use the latest message of the duel."


@dataclass
class FakeBot:
    answers: list[dict[str, Any]] = field(default_factory=list)
    defaults: None = None

    async def answer_callback_query(self, callback_query_id: str, **kw: Any) -> bool:
        self.answers.append(kw)
        return True


def _update(bot: FakeBot, user_id: int, message_id: int, data: str) -> Update:
    markup = InlineKeyboardMarkup([[InlineKeyboardButton("bet", callback_data=data)]])
    return Update.de_json({"update_id": 1, "callback_query": {
        "id": "q1", "from": {"id": user_id, "is_bot": False, "first_name": "U",
                             "language_code": "en"},
        "chat_instance": "ci", "data": data,
        "message": {"message_id": message_id, "date": 0, "text": "duel",
                    "chat": {"id": CHAT, "type": "group", "title": "g"},
                    "from": {"id": 1, "is_bot": True, "first_name": "Bot"},
                    "reply_markup": markup.to_dict()}}}, bot)  # type: ignore[arg-type]


@pytest.fixture
async def duel(store: Storage) -> DuelRecord:
    c = await store.challenges.create(CHAT, None, ALICE, BOB, None, 50, T0, T0 + 600)
    assert not isinstance(c, AlreadyPending)
    svc = Services(storage=store, rng=random.Random(1), clock=lambda: T0)
    record = await start_duel(svc, c, BOB)
    assert record is not None
    assert await store.duels.set_message(record.id, ChatMessage(CHAT, 5),
                                         record.version)  # message 5 is live
    fresh = await store.duels.get(record.id)
    assert fresh is not None
    return fresh


async def _press(store: Storage, monkeypatch: pytest.MonkeyPatch, record: DuelRecord,
                 message_id: int) -> tuple[FakeBot, Services, int]:
    """The actor's first legal move, pressed on `message_id`: the bot, the services and how
    many times the duel was read."""
    state = DuelState.from_json(record.state_json)
    seat = state.current_player if state.current_player is not None else min(
        state.players_to_act)
    data = f"d:{record.id}:{record.version}:{state.legal_actions(seat)[0]}"
    reads = 0
    get = store.duels.get

    async def counted(duel_id: int) -> DuelRecord | None:
        nonlocal reads
        reads += 1
        return await get(duel_id)

    async def not_drawn(*args: object, **kwargs: object) -> None:
        return None

    monkeypatch.setattr(store.duels, "get", counted)
    monkeypatch.setattr(LIVE, "present", not_drawn)
    bot = FakeBot()
    svc = Services(storage=store, rng=random.Random(2), clock=lambda: T0 + 1)
    context = cast(ContextTypes.DEFAULT_TYPE, SimpleNamespace(bot=bot, bot_data={KEY: svc}))
    on_duel = LIVE.handler(payloads.DuelPress).callback  # the duel's press handler
    await on_duel(_update(bot, record.players[seat], message_id, data), context)
    monkeypatch.undo()
    return bot, svc, reads


async def test_a_press_reads_its_duel_once(store: Storage, duel: DuelRecord,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    bot, _, reads = await _press(store, monkeypatch, duel, 5)
    saved = await store.duels.get(duel.id)
    assert saved is not None and saved.version == duel.version + 1  # applied
    assert reads == 1
    assert [a.get("text") for a in bot.answers] == [None]  # answered quietly


async def test_a_press_on_an_old_copy_moves_nothing_and_the_copy_goes(
        store: Storage, duel: DuelRecord, monkeypatch: pytest.MonkeyPatch) -> None:
    bot, svc, reads = await _press(store, monkeypatch, duel, 4)  # older than the live 5
    saved = await store.duels.get(duel.id)
    assert saved is not None and saved.version == duel.version  # nothing moved
    assert reads == 1 and [a.get("text") for a in bot.answers] == [STALE]
    assert svc.janitor.handled(CHAT, 4) and not svc.janitor.handled(CHAT, 5)
