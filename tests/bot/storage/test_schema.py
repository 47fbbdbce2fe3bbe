"""The schema (`bot.storage.schema`): a new database is built from the V13 baseline on both
engines, a SQLite file made before V13 goes on through SQLite's released migrations, and both
ways give one schema; PostgreSQL has SQLite's tables, columns and indexes; a database made by
the bot before the schema was written once opens, migrated, and plays on.

`made_at_v17/` holds two such databases, made by main at 9a812d6 (schema version 17): a script
on that commit's repositories and services (`Storage`, `bot.duel.service`,
`bot.sixcard.service`, `bot.tournament.service`; seeded random numbers, a fixed clock) played a
duel to its end in CHAT (its result, its players' ratings), left a duel there three moves in
(its message one version behind) and one just dealt in OTHER, played a six-card game to its end
and left another one move in, and started a tournament in OTHER with one pairing asked.
`sqlite.sql` is `sqlite3 FILE .dump` with the file's `PRAGMA user_version` added;
`postgresql.sql` is `pg_dump --inserts --no-owner --no-privileges` of the same play on
PostgreSQL, without its `SET` lines and its `public.` prefixes, to load into any schema.
"""

from __future__ import annotations

import random
import re
import sqlite3
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.storage import MIGRATIONS, Database, DuelStatus, Storage, TournamentStatus, deals_of
from bot.storage.db import numbered
from bot.storage.engines import open_database
from bot.storage.postgres import without_pooler
from bot.storage.schema import DIALECTS, LATEST, POSTGRES_STEPS, SQLITE_NEW, render
from bot.storage.schema.steps import STEPS
from rules.cards import shuffled_deck
from rules.duel import DuelState
from rules.fairness import new_salt
from rules.sixcard import SixCardGame
from tests.support import databases

MADE_AT_V17 = Path(__file__).parent / "made_at_v17"
CHAT, OTHER = -1001234567890123, -100777  # the chats of the databases made at V17
ALICE, BOB, CAROL, DAVE = 2**40 + 1, 5_123_456_789, 303, 404
T1 = 1_800_100_000  # after everything in them


# --- the steps -------------------------------------------------------------------------------


def test_the_versions_are_those_the_databases_in_the_field_have() -> None:
    assert LATEST == len(MIGRATIONS) == 21
    assert [v for v, _ in SQLITE_NEW] == [v for v, _ in POSTGRES_STEPS] == list(range(13, 22))
    assert [v for v, _ in STEPS] == list(range(14, LATEST + 1))
    assert "$" not in "".join(s for _, s in (*SQLITE_NEW, *POSTGRES_STEPS))


def test_both_dialects_spell_every_word() -> None:
    assert DIALECTS["sqlite"].keys() == DIALECTS["postgresql"].keys()
    assert render("x $INT64, y $FLOAT", "postgresql") == "x BIGINT, y DOUBLE PRECISION"


# --- SQLite: a new file, one from V1, one made before ------------------------------------------


def _normal(sql: str | None) -> str | None:
    """A CREATE statement without its comments and layout (SQLite keeps the text as written,
    and ALTER TABLE ... ADD COLUMN appends to it)."""
    if sql is None:
        return None
    words = " ".join(re.sub(r"--[^\n]*", "", sql).split())
    return re.sub(r"\s*([(),])\s*", r"\1", words)


def sqlite_schema(path: Path) -> tuple[int, dict[str, tuple[str, str, str | None]]]:
    """The file's version, and each table's and index's statement, normalized, by name."""
    with sqlite3.connect(path) as raw:
        version = int(raw.execute("PRAGMA user_version").fetchone()[0])
        rows = raw.execute("SELECT type, name, tbl_name, sql FROM sqlite_master").fetchall()
    raw.close()
    return version, {name: (kind, table, _normal(sql)) for kind, name, table, sql in rows}


async def test_a_new_file_a_file_from_v1_and_one_made_before_have_one_schema(
    tmp_path: Path,
) -> None:
    new = tmp_path / "new.db"
    await (await Storage.open(new)).close()
    from_v1 = tmp_path / "v1.db"
    await (await open_database(from_v1, migrations=numbered(MIGRATIONS[:1]))).close()
    await (await Storage.open(from_v1)).close()  # V2 to V13 released, then the later steps
    made = tmp_path / "made.db"
    with sqlite3.connect(made) as raw:
        raw.executescript((MADE_AT_V17 / "sqlite.sql").read_text(encoding="utf-8"))
    raw.close()
    await (await Storage.open(made)).close()  # then the steps after V17
    schema = sqlite_schema(new)
    assert schema[0] == LATEST
    assert len(schema[1]) > 50  # every table, index and autoindex
    assert sqlite_schema(from_v1) == schema
    assert sqlite_schema(made) == schema


async def test_a_file_at_any_older_version_upgrades_to_that_schema(tmp_path: Path) -> None:
    new = tmp_path / "new.db"
    await (await Storage.open(new)).close()
    for version in range(2, LATEST):
        old = tmp_path / f"v{version}.db"
        await (await open_database(old, migrations=numbered(MIGRATIONS[:version]))).close()
        await (await Storage.open(old)).close()
        assert sqlite_schema(old) == sqlite_schema(new), version


async def test_an_empty_file_is_built_from_the_baseline(tmp_path: Path) -> None:
    store = await Storage.open(tmp_path / "s.db")
    try:  # the released V6 and V10 left a backfill's request in bot_meta: not the baseline
        assert await store.db.fetchall("SELECT * FROM bot_meta") == []
    finally:
        await store.close()


# --- PostgreSQL ----------------------------------------------------------------------------


async def names(db: Database) -> dict[str, Any]:
    """What both engines must name alike: each table's columns in order and its primary key,
    the foreign keys, the indexes made by name (and whether each is unique)."""
    tables = await db.tables()
    columns: dict[str, list[str]] = {}
    keys: dict[str, list[str]] = {}
    if db.engine == "sqlite":
        for t in tables:
            info = await db.fetchall("SELECT name, pk FROM pragma_table_info(?) ORDER BY cid", (t,))
            columns[t] = [str(r[0]) for r in info]
            keys[t] = [str(r[0]) for r in sorted((r for r in info if r[1]), key=lambda r: r[1])]
        foreign = {(t, str(r[0]), str(r[1])) for t in tables for r in await db.fetchall(
            'SELECT "from", "table" FROM pragma_foreign_key_list(?)', (t,))}
        indexes = {(str(r[0]), str(r[1]), bool(r[2])) for t in tables for r in await db.fetchall(
            "SELECT name, ?, \"unique\" FROM pragma_index_list(?) WHERE origin = 'c'", (t, t))}
        return {"columns": columns, "keys": keys, "foreign": foreign, "indexes": indexes}
    for t in tables:
        info = await db.fetchall(
            "SELECT column_name FROM information_schema.columns WHERE table_schema ="
            " current_schema() AND table_name = ? ORDER BY ordinal_position", (t,))
        columns[t] = [str(r[0]) for r in info]
        key = await db.fetchall(
            "SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid"
            " AND a.attnum = ANY (i.indkey) WHERE i.indrelid = CAST(? AS text)::regclass"
            " AND i.indisprimary ORDER BY array_position(i.indkey::int2[], a.attnum)", (t,))
        keys[t] = [str(r[0]) for r in key]
    foreign = {(str(r[0]), str(r[1]), str(r[2])) for r in await db.fetchall(
        "SELECT c.conrelid::regclass::text, a.attname, c.confrelid::regclass::text"
        " FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid"
        " AND a.attnum = c.conkey[1] WHERE c.contype = 'f'"
        " AND c.connamespace = current_schema()::regnamespace")}
    indexes = {(str(r[0]), str(r[1]), bool(r[2])) for r in await db.fetchall(
        "SELECT x.relname, t.relname, i.indisunique FROM pg_index i"
        " JOIN pg_class x ON x.oid = i.indexrelid JOIN pg_class t ON t.oid = i.indrelid"
        " WHERE t.relnamespace = current_schema()::regnamespace AND t.relname <> 'schema_version'"
        " AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)")}
    return {"columns": columns, "keys": keys, "foreign": foreign, "indexes": indexes}


async def test_postgresql_names_the_tables_columns_and_indexes_of_sqlite(
    tmp_path: Path, postgres: str | None,
) -> None:
    if postgres is None:
        pytest.skip(databases.HOW)
    lite = await Storage.open(tmp_path / "s.db")
    try:
        expected = await names(lite.db)
    finally:
        await lite.close()
    async with databases.fresh_schema(postgres) as url:
        pg = await Storage.open(url)
        try:
            assert await pg.db.schema_version() == LATEST
            assert await names(pg.db) == expected
        finally:
            await pg.close()


async def pg_schema(db: Database) -> dict[str, Any]:
    """Everything PostgreSQL says of the schema: columns with their types, defaults, nulls and
    identities; constraints; indexes; whether each relation is logged."""
    schema = str((await db.fetchall("SELECT current_schema()"))[0][0])
    queries = {
        "columns": "SELECT table_name, column_name, ordinal_position, data_type, column_default,"
                   " is_nullable, is_identity FROM information_schema.columns"
                   " WHERE table_schema = current_schema()",
        "constraints": "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid)"
                       " FROM pg_constraint WHERE connamespace = current_schema()::regnamespace",
        "indexes": "SELECT tablename, indexname, indexdef FROM pg_indexes"
                   " WHERE schemaname = current_schema()",
        "relations": "SELECT relname, relkind, relpersistence FROM pg_class"
                     " WHERE relnamespace = current_schema()::regnamespace",
    }
    return {what: sorted(tuple(str(v).replace(f"{schema}.", "") for v in r)
                         for r in await db.fetchall(sql))
            for what, sql in queries.items()}


async def test_a_postgresql_database_made_before_has_the_schema_of_a_new_one(
    postgres: str | None,
) -> None:
    if postgres is None:
        pytest.skip(databases.HOW)
    async with databases.fresh_schema(postgres) as url:
        new = await Storage.open(url)
        try:
            expected = await pg_schema(new.db)
        finally:
            await new.close()
    async with databases.fresh_schema(postgres) as url:
        await load_made_at_v17(url)
        made = await Storage.open(url)
        try:
            assert await pg_schema(made.db) == expected
        finally:
            await made.close()


# --- a database made before, upgraded in place, plays on ---------------------------------------


async def load_made_at_v17(where: str) -> None:
    """The engine's database made at V17 into the empty database at `where`."""
    if where.startswith("postgresql"):
        conn = await asyncpg.connect(without_pooler(where)[0])
        try:
            await conn.execute((MADE_AT_V17 / "postgresql.sql").read_text(encoding="utf-8"))
        finally:
            await conn.close()
        return
    with sqlite3.connect(where) as raw:
        raw.executescript((MADE_AT_V17 / "sqlite.sql").read_text(encoding="utf-8"))
    raw.close()


async def test_a_database_made_before_opens_migrated_and_plays_on(database: str) -> None:
    await load_made_at_v17(database)
    store = await Storage.open(database)
    try:
        assert await store.db.schema_version() == LATEST
        await _the_live_duel_takes_a_move(store)
        await _the_live_sixcard_game_takes_a_move(store)
        ratings = await store.ratings.for_chat(CHAT)  # the finished duel's
        assert sorted(ratings) == [CAROL, DAVE]
        assert [r.duels for r in ratings.values()] == [1, 1]
        assert ratings[DAVE].mu + ratings[CAROL].mu == pytest.approx(50)
        finished = await store.duels.get(1)
        assert finished is not None and finished.status is DuelStatus.FINISHED
        assert DuelState.from_json(finished.state_json).is_over
        t = await store.tournaments.current(OTHER, None)
        assert t is not None and t.status is TournamentStatus.RUNNING
        assert await store.tournaments.players(t.id) == [ALICE, CAROL, DAVE]
        matches = await store.tournaments.matches(t.id)
        asked = [m for m in matches if m.challenge_id is not None]
        assert len(matches) == 3 and [(m.ready_id, m.challenge_id) for m in asked] == [(DAVE, 4)]
        assert await store.tournaments.walkover(t.id, asked[0].idx, "a")
        # new rows get new ids, after the ones made before (PostgreSQL: the sequences)
        duel = await store.duels.create(OTHER, None, (ALICE, DAVE), DuelState.new(6).to_json(), T1)
        assert duel.id == 4
    finally:
        await store.close()


async def _the_live_duel_takes_a_move(store: Storage) -> None:
    record = await store.duels.live_for_user_in_chat(CHAT, ALICE)
    assert record is not None and record.version == 3 and record.shown_version == 2
    assert [d.id for d in await store.duels.lagging()] == [1, record.id, 3]  # none shown
    state = DuelState.from_json(record.state_json)
    seat = state.players_to_act[0]
    state.apply(state.legal_actions(seat)[0], seat)
    if state.needs_deal:
        rng = random.Random(35)
        state.deal(shuffled_deck(rng), new_salt(rng))
    assert not state.is_over
    saved = await store.duels.save(record.id, record.version, state.to_json(), now=T1,
                                   deals=deals_of(state.public_view()))
    assert saved == record.version + 1
    # compare-and-swap: a second save from the same version finds the duel moved on
    assert await store.duels.save(record.id, record.version, "{}", now=T1) is None
    again = await store.duels.get(record.id)
    assert again is not None and DuelState.from_json(again.state_json) == state


async def _the_live_sixcard_game_takes_a_move(store: Storage) -> None:
    record = await store.sixcard.live_game(CHAT, ALICE)
    balance = await store.balances.get_balance(CHAT, ALICE)
    assert record is not None and record.version == 1 and balance is not None
    state = SixCardGame.from_json(record.state_json)
    before = state.balance
    state.apply(state.legal_actions()[0])
    moved = state.balance - before
    saved = await store.sixcard.save_game(
        record, record.version, state.to_json(), moved=moved,
        finished_net=state.money.net if state.is_over else None, now=T1)
    assert saved == record.version + 1
    after = await store.balances.get_balance(CHAT, ALICE)
    assert after is not None and after.balance == balance.balance + moved
    bob = await store.balances.get_balance(CHAT, BOB)  # his game finished before
    assert bob is not None and (bob.games, bob.balance) == (1, 1000 + bob.net)
