"""What the bot runs at start-up, every few seconds (the sync of lagging messages, the due rows'
claim, the inbox's sweep, the janitor) and at its prunes reads the few rows it is about
through an index, on both engines, however much finished history the tables hold (issue 36).

Each statement is the one a repository call runs, recorded as it runs (so the test follows the
code, not a copy of its SQL), then its plan asked. SQLite's EXPLAIN QUERY PLAN must not SCAN a
large table (`LARGE`: the history, and the inbox's day of handled updates) except through a
partial index of the few rows in play (`BOUNDED`). PostgreSQL's EXPLAIN neither, asked with
sequential scans priced out (`enable_seqscan = off`), so that it answers whether an index *can*
serve the query: a plan over seeded history and ANALYZE would hang on row counts and estimates
(the planner prices `shown_version <> version` at a third of the rows, whatever the table
holds), not on the schema and the query, and seeding enough to be sure is slow. SQLite needs
neither: the bot never ANALYZEs, and without statistics its plan on an empty file is its plan
on a full one.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import pytest

from bot.storage import (
    ChallengeRecord,
    ChallengeStatus,
    DuelStatus,
    Incoming,
    Storage,
    TimerRecord,
)
from bot.storage import deals as deal_rows
from bot.storage import ratings as rating_rows
from bot.storage.flood import FloodRecord
from bot.storage.inline import InlineRepo

T0 = 1_700_000_000
ALICE, BOB = 101, 202
CHAT = -100123

# Tables that grow with the past (history), or with a day of traffic (the inbox).
LARGE = frozenset({"duels", "sixcard_games", "results", "challenges", "duel_messages", "deals",
                   "reviews", "ratings", "tournaments", "tournament_matches",
                   "tournament_players", "inbox", "inline_challenges", "duel_pairs"})
# Partial indexes of the rows in play only (live, lagging, pending, settled in the last day,
# not handled yet, running): reading one whole reads no history.
BOUNDED = frozenset({"duels_live_by_chat", "duels_lagging", "sixcard_one_live",
                     "sixcard_lagging", "challenges_pending", "challenges_one_pending",
                     "challenges_settled", "inbox_pending", "inbox_waiting",
                     "tournaments_running", "tournaments_open_in_chat",
                     "inline_challenges_unplayed"})

Call = Callable[[], Awaitable[object]]


class Recorder:
    """The statements the repositories run through `db`, each with its parameters, once."""

    def __init__(self, store: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
        self.seen: dict[str, tuple[Any, ...]] = {}
        self.on = True
        for name in ("execute", "insert", "fetchone", "fetchall"):
            monkeypatch.setattr(store.db, name, self._wrap(getattr(store.db, name)))

    def _wrap(self, method: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        async def recorded(sql: str, params: Any = ()) -> Any:
            if self.on:
                self.seen.setdefault(" ".join(sql.split()), tuple(params))
            return await method(sql, params)
        return recorded

    async def run(self, call: Call) -> list[str]:
        """The statements `call` runs (new ones only)."""
        before = set(self.seen)
        await call()
        return [s for s in self.seen if s not in before]


async def played(store: Storage) -> int:
    """A finished duel and a live one, a pending challenge, a settled one: rows for the calls."""
    done = await store.duels.create(CHAT, None, (ALICE, BOB), "{}", T0)
    await store.duels.save(done.id, 0, "{}", DuelStatus.FINISHED, now=T0 + 1)
    live = await store.duels.create(CHAT, None, (ALICE, 303), "{}", T0 + 2)
    await store.duels.note_message(CHAT, 9, done.id, "result")
    assert isinstance(await store.challenges.create(CHAT, None, BOB, None, None, 40, T0,
                                                    T0 + 300), ChallengeRecord)
    return live.id


def scenario(store: Storage, live: int) -> dict[str, list[Call]]:
    """Every repository call of the paths in question, by path."""
    s, now = store, float(T0 + 10)
    jobs, inbox = s.jobs, s.inbox

    async def claimed_and_run() -> None:
        await jobs.schedule("x", "1", now - 1)
        for job in await jobs.claim("me", now, 30.0, 8):
            await jobs.renew(job, now + 60)
            await jobs.retry(job, now + 1)
        await jobs.schedule("x", "2", now - 1)
        for job in await jobs.claim("me", now + 5, 30.0, 8):
            await jobs.release(job)
        for job in await jobs.claim("me", now + 5, 30.0, 8):
            await jobs.finish(job)

    async def challenge_settled() -> None:
        c = await s.challenges.create(CHAT, None, ALICE, BOB, None, 40, T0 + 5, T0 + 305)
        assert isinstance(c, ChallengeRecord)
        await s.challenges.set_message(c.id, 77)
        await s.challenges.get(c.id)
        await s.challenges.transition(c.id, 0, ChallengeStatus.DECLINED)
        await s.challenges.pending_by_challenger(CHAT, ALICE)
        await s.challenges.of_duel(live)
        await s.challenges.prune(before=T0)

    async def flood(decide: bool) -> None:
        keys = ["bot", f"chat:{CHAT}"]
        await s.flood.read(keys[:1])
        await s.flood.read(keys)
        await s.flood.change(keys, lambda records: (
            [FloodRecord(k, (now,)) for k in records] if decide else [], None), now=now)
        await s.flood.hold(keys[1], now + 30, now=now)
        await s.flood.prune(now - 3600)

    async def timers() -> None:
        await s.timers.put(TimerRecord(live, 0, 60, now + 30, now + 60, False, (0, 0)))
        await s.timers.get(live)
        await s.timers.mark_reminded(live, 0)
        await s.timers.prune()
        await s.timers.delete(live)

    async def inline_duel() -> None:
        inline = s.of(InlineRepo)
        await inline.pair_chat(ALICE, BOB)
        await inline.post("AgAAAFcX", ALICE, 40, now=now)  # and the prune of unplayed ones
        await inline.challenge("AgAAAFcX")
        await inline.settle("AgAAAFcX", ChallengeStatus.DECLINED)
        await inline.players_of(-(2**53) - 1)
        await s.duels.on_inline("AgAAAFcX")
        await s.duels.messages_of(live, "nudge")
        await s.duels.forget_message(ALICE, 9)

    return {
        "start-up": [
            lambda: deal_rows.backfill(s.db), lambda: rating_rows.backfill(s.db),
            inbox.owners, lambda: inbox.release("dead"), inbox.last_id,
            lambda: inbox.take_stale("me", before=float("inf"), lease_until=now + 10),
            jobs.release_all, jobs.owners, lambda: jobs.release_owner("dead"),
            s.duels.lagging, s.sixcard.lagging, s.duels.all_live, s.sixcard.all_live,
            lambda: s.challenges.expire_unsent(T0), s.challenges.list_pending,
            lambda: jobs.schedule("challenge.expire", "1", now + 300, sooner_only=True),
            s.timers.prune, s.deletes.pending, s.tournaments.running, s.live_games,
        ],
        "an update's first read": [lambda: s.read_first(ALICE, CHAT)],
        "sync of lagging messages": [
            s.duels.lagging, s.sixcard.lagging,
            lambda: s.duels.get(live), lambda: s.duels.mark_shown(live, 0),
        ],
        "due rows": [
            claimed_and_run, jobs.next_due, lambda: jobs.counts(now),
            lambda: jobs.cancel("x", "1"), lambda: jobs.get("x", "1"),
        ],
        "inbox sweep": [
            lambda: inbox.save([Incoming(5, "{}"), Incoming(6, "{}")], owner="me", now=now,
                               lease_until=now + 10),
            lambda: inbox.done(5, now=now), lambda: inbox.renew("me", lease_until=now + 20),
            lambda: inbox.take_stale("me", before=now, lease_until=now + 10),
            lambda: inbox.prune(now=now), inbox.pending,
        ],
        "janitor": [
            lambda: s.deletes.add([(CHAT, 1), (CHAT, 2)]), lambda: s.deletes.pending_in(CHAT),
            lambda: s.deletes.drop([(CHAT, 1), (CHAT, 2)]), s.deletes.pending,
        ],
        "turn timers": [timers],
        "challenges": [challenge_settled],
        "inline duels": [inline_duel],
        "flood windows": [lambda: flood(True), lambda: flood(False)],
    }


def nodes(plan: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield plan
    for child in plan.get("Plans", ()):
        yield from nodes(child)


async def sqlite_reads_history(store: Storage, sql: str, params: tuple[Any, ...]) -> list[str]:
    rows = await store.db.fetchall("EXPLAIN QUERY PLAN " + sql, params)
    bad = []
    for detail in (str(r["detail"]) for r in rows):
        m = re.match(r"SCAN (\w+)(?: USING (?:COVERING )?INDEX (\w+))?", detail)
        if m and m[1] in LARGE and m[2] not in BOUNDED:
            bad.append(detail)
    return bad


async def postgres_reads_history(store: Storage, sql: str, params: tuple[Any, ...],
                                 tables: dict[str, str]) -> list[str]:
    async with store.db.transaction():  # the setting and the EXPLAIN on one connection
        await store.db.execute("SET LOCAL enable_seqscan = off")
        row = await store.db.fetchone("EXPLAIN (FORMAT JSON) " + sql, params)
    assert row is not None
    found = row[0] if not isinstance(row[0], str) else json.loads(row[0])
    bad = []
    for node in nodes(found[0]["Plan"]):
        kind = node["Node Type"]
        if kind == "Seq Scan" and node.get("Relation Name") in LARGE:
            bad.append(f"{kind} on {node['Relation Name']}")
        index = node.get("Index Name")
        if (index is not None and tables.get(index) in LARGE and index not in BOUNDED
                and "Index Cond" not in node):
            bad.append(f"{kind} of all {index}")
    return bad


async def test_the_paths_that_run_often_read_no_history(
        store: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    live = await played(store)
    recorder = Recorder(store, monkeypatch)
    statements: dict[str, list[str]] = {}
    for path, calls in scenario(store, live).items():
        for call in calls:
            for sql in await recorder.run(call):
                statements.setdefault(sql, []).append(path)
    recorder.on = False
    assert len(statements) > 50  # the calls ran their statements
    tables: dict[str, str] = {}
    if store.engine == "postgresql":
        tables = {str(r["indexname"]): str(r["tablename"]) for r in await store.db.fetchall(
            "SELECT indexname, tablename FROM pg_indexes WHERE schemaname = current_schema()")}
    assert not BOUNDED - set(tables or BOUNDED)  # every index named here exists
    scans = {}
    for sql, paths in statements.items():
        params = recorder.seen[sql]
        bad = (await sqlite_reads_history(store, sql, params) if store.engine == "sqlite"
               else await postgres_reads_history(store, sql, params, tables))
        if bad:
            scans[sql] = (sorted(set(paths)), bad)
    assert scans == {}


async def test_a_large_table_read_whole_is_caught(store: Storage) -> None:
    """The checks themselves: a query ordered by the key reads every finished duel."""
    sql, params = "SELECT * FROM duels WHERE status = 'live' ORDER BY id", ()
    if store.engine == "sqlite":
        assert await sqlite_reads_history(store, sql, params) == ["SCAN duels"]
        assert await sqlite_reads_history(store, sql.replace(" ORDER BY id", ""), params) == []
    else:
        tables = {"duels_pkey": "duels", "duels_live_by_chat": "duels"}
        assert await postgres_reads_history(
            store, "SELECT * FROM duels ORDER BY id", params, tables) != []
        assert await postgres_reads_history(store, sql, params, tables) == []
