"""The standings kept as results are saved (bot.storage.standings) tell the same numbers as the
replay (bot.stats.standings), which defines them: random histories written through the
repositories (draws, surrenders, timeouts, tiebreaks, months and quarters, two chats, a group
moved to a supergroup midway, sometimes after the supergroup had duels of its own), then every
board (all time, every month and quarter, season_reset on and off), card (figures, rank,
players, head to head, the chart's last points), private card and season-end table compared,
on both engines (PostgreSQL when SIXSHOOTER_TEST_POSTGRES names a server)."""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.stats import seasons, standings
from bot.stats.season_end import season_table
from bot.storage import DuelResult, DuelStatus, ResultReason, Storage
from bot.storage import standings as kept_rows
from bot.storage.standings import Placed
from rules import rating
from rules.standing import ALL
from tests.support import databases

OLD, NEW, OTHER = -42, -1_001_000_000_042, -77
T0 = 1_767_000_000  # late December 2025 (UTC): months and quarters turn over soon
DAY = 86_400
TOP = 2  # a short board, so the asker's own line below it is exercised
POINTS = 5  # a short chart, so its cut is exercised
EXAMPLES = {"sqlite": 150, "postgresql": 25}


@dataclass(frozen=True)
class Duel:
    players: tuple[int, int]
    end: str  # "win0", "win1", "draw"
    reason: ResultReason
    s0: int  # player 0's final stack (of 2 * 50)
    best: tuple[int | None, int | None]
    bonus: tuple[int, int]
    gap: int  # seconds after the previous duel
    chat: int  # OLD (NEW once moved) or OTHER, or NEW before the move


@st.composite
def duels(draw: st.DrawFn) -> Duel:
    people = draw(st.integers(2, 6))
    a, b = draw(st.lists(st.integers(1, people), min_size=2, max_size=2, unique=True))
    end = draw(st.sampled_from(["win0", "win1", "draw"]))
    reason = (ResultReason.NORMAL if end == "draw" else
              draw(st.sampled_from(list(ResultReason))))
    hand = st.one_of(st.none(), st.integers(0, 7461))
    return Duel((a, b), end, reason, draw(st.integers(0, 100)),
                (draw(hand), draw(hand)), (draw(st.integers(0, 9)), draw(st.integers(0, 9))),
                draw(st.sampled_from([0, 60, 3600, DAY, 9 * DAY, 40 * DAY])),
                draw(st.sampled_from([OLD, OLD, OLD, OTHER, NEW])))


@dataclass(frozen=True)
class History:
    duels: list[Duel]
    move_at: int | None  # the group becomes a supergroup before this duel


@st.composite
def histories(draw: st.DrawFn) -> History:
    n = draw(st.integers(0, 40))
    played = draw(st.lists(duels(), min_size=n, max_size=n))
    move = draw(st.one_of(st.none(), st.integers(0, len(played))))
    return History(played, move)


def _placed(s: standings.Standing) -> tuple[object, ...]:
    return (s.rank, s.user_id, s.figures, s.rating)


def _kept(p: Placed | None) -> tuple[object, ...] | None:
    return None if p is None else (p.rank, p.user_id, standings.figures_of(p.tally), p.rating)


async def _play(store: Storage, history: History) -> None:
    moved, now = False, T0
    for i, d in enumerate(history.duels):
        if i == history.move_at:
            await store.move_chat(OLD, NEW, now=now)
            moved = True
        chat = NEW if d.chat == OLD and moved else d.chat
        now += d.gap
        record = await store.duels.create(chat, None, d.players, "v0", now)
        winner = {"win0": d.players[0], "win1": d.players[1], "draw": None}[d.end]
        result = DuelResult(duel_id=record.id, chat_id=chat, players=d.players,
                            final_stacks=(d.s0, 100 - d.s0), start_stack=50, winner_id=winner,
                            reason=d.reason, best_hands=d.best, bonus_chips=d.bonus,
                            bullets=6, finished_at=now)
        assert await store.duels.save(record.id, 0, "end", DuelStatus.FINISHED, now=now,
                                      result=result) == 1
    if history.move_at == len(history.duels):
        await store.move_chat(OLD, NEW, now=now)


async def _check_window(store: Storage, chat: int, key: str, expected: list[standings.Standing],
                        counted: int, *, fresh: bool) -> None:
    kept = store.standings
    players = {s.user_id for s in expected}
    for asker in sorted(players | {999}):
        page = await kept.board(chat, key, fresh=fresh, asker=asker, top=TOP)
        top, you = standings.top_and_you(expected, asker, TOP)
        assert [_kept(p) for p in page.top] == [_placed(s) for s in top]
        assert _kept(page.you) == (None if you is None else _placed(you))
        assert (page.players, page.duels) == (len(expected), counted)


async def _check(store: Storage) -> int:
    """Every kept answer against the replay; how many were compared."""
    kept, compared = store.standings, 0
    for chat in (OLD, NEW, OTHER):
        results = await store.results.for_chat(chat)
        assert await kept.any_duel(chat) == bool(results)
        everyone = standings.ranking(results, await store.ratings.for_chat(chat))
        await _check_window(store, chat, ALL, everyone, len(results), fresh=False)
        players = sorted(s.user_id for s in everyone)
        assert await kept.players(chat, ALL) == len(players)
        for s in everyone:  # the card
            assert _kept(await kept.placed(chat, ALL, s.user_id)) == _placed(s)
            chart = await kept.chart(chat, s.user_id, POINTS)
            history = standings.rating_history(results, s.user_id)
            assert tuple(rating.shown(r) for r in chart) == history[-POINTS:]
            assert len(await kept.chart(chat, s.user_id)) == min(len(history), 100)
            for other in players:
                assert (standings.figures_of(await kept.rivalry(chat, s.user_id, other))
                        == standings.head_to_head(results, s.user_id, other))
            compared += 1
        windows = {seasons.season_of(r.finished_at, kind) for r in results
                   for kind in ("month", "quarter")}
        for season in sorted(windows):
            counted = sum(1 for r in results if season.holds(r.finished_at))
            for reset in (False, True):
                expected = standings.season_ranking(results, season.start, season.end,
                                                    reset=reset)
                await _check_window(store, chat, season.key, expected, counted, fresh=reset)
                ranked, climbs = season_table(await kept.season(chat, season.key), reset=reset)
                assert ranked == expected
                assert climbs == standings.climbs(results, season.start, season.end,
                                                  reset=reset)
                compared += 1
    for user in range(1, 7):  # the private card
        mine = await store.results.for_player(user)
        tally = await kept.everywhere(user)
        assert (standings.figures_of(tally) if tally else None) == (
            standings.figures_for(mine, user) if mine else None)
    return compared


@asynccontextmanager
async def _fresh(engine: str, postgres: str | None) -> AsyncIterator[Storage]:
    if engine == "sqlite":
        shm = Path("/dev/shm")
        with tempfile.TemporaryDirectory(dir=shm if shm.is_dir() else None) as where:
            store = await Storage.open(Path(where) / "s.db")
            try:
                yield store
            finally:
                await store.close()
        return
    assert postgres is not None
    async with databases.fresh_schema(postgres) as url:
        store = await Storage.open(url)
        try:
            yield store
        finally:
            await store.close()


KEPT = ("standings", "rivalries", "rating_points")


async def _rows(store: Storage) -> dict[str, list[tuple[object, ...]]]:
    return {t: sorted(tuple(r[c] for c in r.keys()) for r in  # noqa: SIM118
                      await store.db.fetchall(f"SELECT * FROM {t}")) for t in KEPT}


async def _backfilled(store: Storage) -> dict[str, list[tuple[object, ...]]]:
    """The kept rows dropped and filled again from the results, as an older database's are
    at its first open after V19: in batches of a few results and players."""
    for table in KEPT:
        await store.db.execute(f"DELETE FROM {table}")
    await store.meta.set(kept_rows.BACKFILL, "")
    batch, users = kept_rows.BATCH, kept_rows.USERS
    kept_rows.BATCH, kept_rows.USERS = 7, 2
    try:
        await kept_rows.backfill(store.db)
    finally:
        kept_rows.BATCH, kept_rows.USERS = batch, users
    assert await store.meta.get(kept_rows.BACKFILL) is None
    return await _rows(store)


async def _example(engine: str, postgres: str | None, history: History) -> int:
    async with _fresh(engine, postgres) as store:
        await _play(store, history)
        compared = await _check(store)
        kept = await _rows(store)
        assert await _backfilled(store) == kept
        return compared


@pytest.mark.parametrize("engine", databases.ENGINES)
def test_the_kept_standings_are_the_replays(engine: str, postgres: str | None) -> None:
    if engine == "postgresql" and postgres is None:
        pytest.skip(databases.HOW)

    @settings(max_examples=EXAMPLES[engine], deadline=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(histories())
    def check(history: History) -> None:
        runs.append((len(history.duels), asyncio.run(_example(engine, postgres, history))))

    runs: list[tuple[int, int]] = []
    check()
    assert len(runs) >= EXAMPLES[engine]  # as many histories as asked for, all played out
    assert sum(compared for _, compared in runs) > 10 * EXAMPLES[engine]
    print(f"{engine}: {len(runs)} examples, {sum(n for n, _ in runs)} results,"
          f" {sum(c for _, c in runs)} cards and season tables compared")
