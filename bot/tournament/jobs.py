"""A tournament's timed work, all derived from the database so a restart loses nothing: a
finished duel of a pairing posts the table again (a listener on the duel's presentation),
and a job every `TICK` seconds decides the walkovers of rounds whose time is over, posts a
table that fell behind its results (a crash between a result and its post), and ends a
tournament whose every pairing is decided, with the final table.

Both are due rows (bot.common.due), so any worker runs them: `tournament.refresh` (key the
tournament and the duel, a second after the result) and one `tournament.tick` row that arms
its next before it looks. Fired twice, each does its work once: a walkover is a conditional
write, a table is posted only while it shows fewer results than there are, and a tournament
finishes by compare-and-swap."""

from __future__ import annotations

import logging
from typing import Any

from telegram import Bot

from bot.common import chats, due
from bot.common.sync import SYNC_MOST, Retries
from bot.config import Config
from bot.services import Services, services
from bot.storage import DuelRecord
from bot.storage.tournaments import TournamentStatus
from bot.telegram import App, send
from bot.tournament import present
from bot.tournament.service import Walkover, finish, load, walkovers

log = logging.getLogger(__name__)

TICK = 60.0  # seconds between looks at the running tournaments (times the time scale)
AFTER_RESULT = 1.0  # seconds after a duel's result is shown before the table follows it
SCALE = "sixshooter.tournament_scale"  # bot_data: the time scale of rounds (tests speed it)
RETRIES = "sixshooter.tournament_retries"  # bot_data: this process's backoff of refused tables
REFRESH, TICK_KIND = "tournament.refresh", "tournament.tick"  # the due rows' kinds


def scale_of(bot_data: dict[str, Any]) -> float:
    found = bot_data.get(SCALE, 1.0)
    return float(found) if isinstance(found, (int, float)) else 1.0


async def refresh(svc: Services, bot: Bot, tournament_id: int,
                  decided: list[Walkover] | None = None,
                  freed: frozenset[int] = frozenset()) -> None:
    """Bring a running tournament's messages up to its results: once every pairing is
    decided, the final table, and only once it is sent the tournament is over (a failed
    send is tried again by the tick: posted at least once); else the table whenever it
    shows fewer decided pairings than there are, the next pairings of the players just
    `freed` (by a result; a walkover's players too) mentioning them."""
    freed = freed | {p for w in decided or [] for p in (w.match.player_a, w.match.player_b)}
    async with svc.lock(f"tournament:{tournament_id}"):
        field = await load(svc, tournament_id)
        if field is None or field.record.status is not TournamentStatus.RUNNING:
            return
        if field.complete:
            if (await present.post_table(svc, bot, field, decided, final=True)
                    and await finish(svc, field) is not None):
                log.info("tournament %d finished", tournament_id)
            return
        if decided or field.decided != field.record.shown:
            await present.post_table(svc, bot, field, decided, notify=freed)


async def refresh_safely(svc: Services, bot: Bot, tournament_id: int,
                         decided: list[Walkover] | None = None,
                         freed: frozenset[int] = frozenset()) -> None:
    """`refresh`, with what Telegram said about the chat handled here, so one chat's trouble
    stops no other tournament: the bot is out of it (its games close), or it became a
    supergroup (its rows move there, and the next tick posts the table in it)."""
    try:
        await refresh(svc, bot, tournament_id, decided, freed)
    except send.ChatGone as gone:
        await chats.forget_chat(svc, gone.chat_id)
    except send.ChatMoved as moved:
        await chats.migrate_chat(svc, moved.chat_id, moved.new_chat_id)


async def tick(svc: Services, bot: Bot, retries: Retries | None = None) -> None:
    """Walkovers that are due in every running tournament, and any table behind its results
    (with `retries`, the job's: a table Telegram keeps refusing is tried less and less
    often, from a minute to an hour apart)."""
    retries = retries or Retries(TICK, SYNC_MOST)
    behind = []
    for t in await svc.storage.tournaments.running():
        async with svc.lock(f"tournament:{t.id}"):
            field = await load(svc, t.id)
            done = await walkovers(svc, field) if field is not None else []
        if done:
            await refresh_safely(svc, bot, t.id, done)
        elif field is not None and (field.complete or field.decided != t.shown):
            behind.append((t.id, field.decided))
    for tournament_id, _ in retries.due(behind, lambda k: k, svc.clock()):
        await refresh_safely(svc, bot, tournament_id)


def _tick_every(app: App) -> float:
    return max(1.0, TICK * scale_of(app.bot_data))


async def on_tick(app: App, key: str, data: Any) -> None:
    every = _tick_every(app)
    await due.of(app).later(TICK_KIND, key, every)  # the next look, whatever this one does
    retries = app.bot_data.setdefault(RETRIES, Retries(every, SYNC_MOST))
    await tick(services(app.bot_data), app.bot, retries)


async def on_refresh(app: App, key: str, data: Any) -> None:
    await refresh_safely(services(app.bot_data), app.bot, int(data["tournament"]),
                         freed=frozenset(int(p) for p in data["freed"]))


async def install(app: App, config: Config) -> None:
    """The listener on finished duels and the tick (its first look soon after start, unless
    its row is due sooner)."""
    svc = services(app.bot_data)
    app.bot_data[SCALE] = config.time_scale
    scheduler = due.of(app)

    async def on_presented(record: DuelRecord) -> None:
        if record.status.value != "finished" or record.practice:
            return
        match = await svc.storage.tournaments.match_of_duel(record.id)
        if match is not None:
            await scheduler.later(REFRESH, f"{match.tournament_id}:{record.id}", AFTER_RESULT,
                                  {"tournament": match.tournament_id,
                                   "freed": [match.player_a, match.player_b]},
                                  sooner_only=True)

    svc.on_presented.append(on_presented)
    await scheduler.later(TICK_KIND, "all", 2.0, sooner_only=True)
