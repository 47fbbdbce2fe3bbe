"""The season-end post: when a chat's season (bot.stats.seasons, UTC) is over, the bot posts
its final table once, with the champion (the season's first) and the biggest climb (who moved
their shown rating up the most over it). With the chat's setting season_reset, the season's
ratings were replayed from its own duels (everyone a newcomer at its start), the climb is
measured from a newcomer's rating, and the post says the new season starts afresh.

A job (one due row, kind `season.end`: bot.common.due, so one worker of several looks at a
time; each run arms the next first) looks every `EVERY` seconds (and a minute after start) at
the chats with a result in the last `LOOKBACK` seconds; for each with seasons on, the season
before the current one is posted unless bot_meta already marks it
(`season_posted:<chat>:<season key>`). The mark is taken before the post, by a write that only
one worker can make (`MetaRepo.claim`): a crash in between loses that post rather than
doubling it, and two runs at once post it once. A season nobody played in is marked and not
posted; a chat the bot has left is skipped.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from functools import partial

from telegram import Bot

from bot.common import due
from bot.common.handlers import chat_language, names_of
from bot.i18n import Html, Translator
from bot.services import Services, services
from bot.stats import seasons, standings
from bot.stats.text import board_line, split_caption
from bot.storage import SeasonLine
from bot.telegram import App, send
from render import standings as pictures
from rules import rating

log = logging.getLogger(__name__)

EVERY = 3600  # seconds between looks
LOOKBACK = 200 * 86400  # a quarter and then some: the chats whose last season may be unposted


def mark(chat_id: int, season: seasons.Season) -> str:
    return f"season_posted:{chat_id}:{season.key}"


async def post_ended(bot: Bot, svc: Services, now: int) -> int:
    """Post every ended season not yet posted; how many were posted."""
    posted = 0
    for chat_id in await svc.storage.results.chats_since(now - LOOKBACK):
        settings = await svc.storage.chats.get_settings(chat_id)
        kind = settings.season
        chat = await svc.storage.chats.get(chat_id)
        if kind == "none" or chat is None or not chat.active:
            continue
        season = seasons.previous(seasons.season_of(now, kind))
        if not await svc.storage.meta.claim(mark(chat_id, season), str(now)):
            continue  # posted already (or being posted by another run)
        lines = await svc.storage.standings.season(chat_id, season.key)
        if not lines:
            continue
        tr = await chat_language(svc, chat_id, None)
        await _post(bot, svc, tr, chat_id, chat.title or "", season, lines,
                    reset=settings.season_reset)
        posted += 1
    return posted


def season_table(kept: Sequence[SeasonLine], *,
                 reset: bool) -> tuple[list[standings.Standing], dict[int, int]]:
    """A season's ranking and each player's climb from its kept lines (every player's: bounded
    by the players, not the duels), as bot.stats.standings' season_ranking and climbs replay
    them: ranked by the rating reached (with `reset`, the season's own), the climb from the
    one each came in with (with `reset`, a newcomer's)."""
    ranked = standings.ranked((k.user_id, standings.figures_of(k.line.tally),
                               k.line.fresh if reset else k.line.reached) for k in kept)
    climbs = {k.user_id: rating.shown(k.line.fresh if reset else k.line.reached)
              - rating.shown(rating.initial() if reset else k.line.start) for k in kept}
    return ranked, climbs


async def _post(bot: Bot, svc: Services, tr: Translator, chat_id: int, title: str,
                season: seasons.Season, kept: list[SeasonLine], *, reset: bool) -> None:
    ranked, climbs = season_table(kept, reset=reset)
    top, _ = standings.top_and_you(ranked, 0)
    climber = max(ranked, key=lambda s: (climbs[s.user_id], -s.rank))
    names = await names_of(svc, {s.user_id for s in (*top, climber)})
    named = seasons.label(season, tr.lang)
    counted = sum(k.line.tally.played for k in kept) // 2
    champion = ranked[0]
    lines = [tr.t("stats.season_champion", name=names[champion.user_id],
                  rating=rating.label(champion.rating))]
    if climbs[climber.user_id] > 0:
        lines.append(tr.t("stats.season_climb", name=names[climber.user_id],
                          delta=f"+{climbs[climber.user_id]}"))
    rows = [board_line(tr, s, names[s.user_id]) for s in top]
    board = pictures.Board(f"{title} · {named}" if title else named, tuple(
        pictures.Row(s.rank, names[s.user_id], s.figures, False, rating.shown(s.rating),
                     rating.provisional(s.rating)) for s in top), None, counted)
    photo = await svc.drawer.draw(partial(pictures.leaderboard, board, labels=tr))
    first, then = split_caption(tr.t("stats.season_over", season=named),
                                [*lines, Html(""), *rows,
                                 tr.t("stats.season_next_reset" if reset
                                      else "stats.season_next")])
    sent = await send.send_photo(bot, chat_id, None, photo, first, None)
    if then is not None:
        await send.send_text(bot, chat_id, None, then,
                             reply_to=sent)
    log.info("chat %d: season %s posted", chat_id, season.key)


SEASON_END = "season.end"  # the due row's kind (one row, key "all")


async def on_due(app: App, key: str, data: object) -> None:
    await due.of(app).later(SEASON_END, key, EVERY)  # the next look, whatever this one does
    svc = services(app.bot_data)
    await post_ended(app.bot, svc, svc.clock())


async def arm(app: App) -> None:
    """The job that posts the seasons that ended (a row due sooner is kept)."""
    await due.of(app).later(SEASON_END, "all", 60, sooner_only=True)
