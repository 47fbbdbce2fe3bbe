"""The bot's own turns in a practice duel: after every present (`Services.on_presented`), if
the bot is to act, its move is made after a short, natural pause, through the same
compare-and-swap path as a person's tap (`service.act` with the version it was shown), so a
restart, a timer or a stale job behaves exactly as for a person: fired twice, the second is
refused. The move is a due row (kind `practice.move`, key the duel's id: bot.common.due), so any
worker makes it; it is `rules.duel.ai.choose` from the public view, in the search process
(`bot.offload`: a hard decision takes a few hundred milliseconds). At start, `resume` arms
every practice duel waiting for the bot whose move is not armed yet.
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass
from typing import Any

from telegram import Bot

from bot.common import due
from bot.common.refusal import Refusal
from bot.duel.practice import BOT_SEAT
from bot.duel.present import LIVE, present
from bot.duel.service import act
from bot.services import Services, services
from bot.storage import DuelRecord
from bot.telegram import App
from rules.duel.levels import parse_level
from rules.duel.searches import choose

log = logging.getLogger(__name__)

PAUSE = (1.0, 2.0)  # seconds the bot "thinks" before its move (at least one is a move's draw)
MOVE = "practice.move"  # the due rows' kind
KEY = "sixshooter.ai_turns"  # the BotTurns in bot_data


@dataclass(frozen=True, slots=True)
class Turn:
    duel_id: int
    version: int


class BotTurns:
    def __init__(self, svc: Services, bot: Bot, scheduler: due.Scheduler | None,
                 pause: tuple[float, float] = PAUSE) -> None:
        self.svc, self.bot, self.scheduler, self.pause = svc, bot, scheduler, pause

    async def on_presented(self, record: DuelRecord, *, sooner_only: bool = False) -> None:
        """Arm the bot's move if it is the bot's turn in this practice duel."""
        if not record.practice or not record.is_live or self.scheduler is None:
            return
        state = self.svc.storage.duels.state(record)
        if BOT_SEAT not in state.players_to_act:
            return
        delay = random.uniform(*self.pause)
        await self.scheduler.later(MOVE, str(record.id), delay, {"version": record.version},
                                   sooner_only=sooner_only)

    async def move(self, turn: Turn) -> bool:
        """Make the bot's move for this version of the duel; False when it is stale."""
        svc = self.svc
        async with LIVE.lock(svc, turn.duel_id):
            record = await svc.storage.duels.get(turn.duel_id)
            if record is None or not record.is_live or record.ai_level is None:
                return False
            if record.version != turn.version:  # stale: arm the current move's (if the bot's)
                await self.on_presented(record)
                return False
            state = svc.storage.duels.state(record)
            if BOT_SEAT not in state.players_to_act:
                return False
            level = parse_level(record.ai_level)
            seed = svc.rng.random()
            action = await svc.offload.run(choose, state.public_view(), BOT_SEAT, level,
                                           random.Random(seed))
            outcome = await act(svc, record.id, turn.version, record.players[BOT_SEAT], action)
            if isinstance(outcome, Refusal):
                log.info("practice duel %d v%d: the bot's move %s refused: %s", record.id,
                         turn.version, action, outcome)
                return False
            await present(svc, self.bot, outcome.record)
            return True

    async def resume(self) -> int:
        """After a start: arm the bot's move in every practice duel waiting for it."""
        armed = 0
        for record in await self.svc.storage.duels.all_live():
            if record.practice:
                await self.on_presented(record, sooner_only=True)
                armed += 1
        return armed


async def on_due(app: App, key: str, data: Any) -> None:
    """The bot's move's due row (kind `MOVE`, registered by bot.duel)."""
    turns = app.bot_data.get(KEY)
    if not isinstance(turns, BotTurns):
        raise LookupError("the bot's turns are not installed")
    await turns.move(Turn(int(key), int(data["version"])))


def install(app: App) -> BotTurns:
    svc = services(app.bot_data)
    turns = BotTurns(svc, app.bot, due.of(app))
    svc.on_presented.append(turns.on_presented)
    app.bot_data[KEY] = turns
    return turns
