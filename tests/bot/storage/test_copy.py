"""`bot.storage.copy`: a whole database into another, across engines, equal row for row.

`database` is a fresh target on each engine (tests/conftest.py); the sources are SQLite files.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.storage import Storage
from bot.storage import copy as db_copy
from bot.storage.copy import TargetNotEmpty, copy_database, copy_order
from tests.support import databases
from tests.support.full_database import ALICE, BOB, CHAT, NOW, ROWS, dump, fill


async def full_sqlite(path: Path) -> Storage:
    store = await Storage.open(path)
    await fill(store.db)
    return store


async def test_the_full_database_has_a_row_in_every_table(store: Storage) -> None:
    await fill(store.db)
    tables = await dump(store.db)
    assert sorted(tables) == sorted(ROWS)  # a new table must get rows in full_database
    assert all(len(tables[t]) == len(ROWS[t]) for t in ROWS)


async def test_tables_come_after_the_tables_they_refer_to(store: Storage) -> None:
    order = copy_order(store.db)
    position = {t: i for i, t in enumerate(await order)}
    for table, refers_to in [("challenges", "duels"), ("deals", "duels"),
                             ("tournament_matches", "challenges"),
                             ("tournament_matches", "tournaments"),
                             ("tournament_players", "tournaments"), ("results", "duels")]:
        assert position[refers_to] < position[table]
    assert sorted(position) == sorted(await store.db.tables())


async def test_sqlite_to_postgresql_to_sqlite_keeps_every_row(
    tmp_path: Path, postgres: str | None, monkeypatch: pytest.MonkeyPatch,
) -> None:
    if postgres is None:
        pytest.skip(databases.HOW)
    monkeypatch.setattr(db_copy, "READ_BATCH", 2)  # page through the tables of several rows
    monkeypatch.setattr(db_copy, "BATCH_PARAMETERS", 20)  # and several INSERTs per page
    original = await full_sqlite(tmp_path / "original.db")
    back = await Storage.open(tmp_path / "back.db")
    async with databases.fresh_schema(postgres) as url:
        middle = await Storage.open(url)
        try:
            there = await copy_database(original.db, middle.db)
            again = await copy_database(middle.db, back.db)
            assert await dump(middle.db) == await dump(original.db)
        finally:
            await middle.close()
    try:
        assert await dump(back.db) == await dump(original.db)
        for report in (there, again):
            assert report.ok and report.source_version == report.target_version > 0
            assert {t.table: t.target for t in report.tables} == {
                t: len(rows) for t, rows in ROWS.items()}
    finally:
        await original.close()
        await back.close()


async def test_a_copy_into_each_engine_is_equal_and_its_ids_go_on(
    tmp_path: Path, store: Storage,
) -> None:
    source = await full_sqlite(tmp_path / "source.db")
    try:
        report = await copy_database(source.db, store.db)
        assert report.ok and report.total == sum(len(r) for r in ROWS.values())
        assert await dump(store.db) == await dump(source.db)
    finally:
        await source.close()
    copied = max(r["id"] for r in ROWS["duels"])
    new = await store.db.insert(
        "INSERT INTO duels (chat_id, player0_id, player1_id, state, created_at, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?)", (CHAT, ALICE, BOB, "{}", NOW, NOW))
    assert new > copied
    assert await store.db.insert(  # a table whose highest id was not its last row
        "INSERT INTO sixcard_games (chat_id, user_id, state, created_at, updated_at)"
        " VALUES (?, ?, ?, ?, ?)", (CHAT, BOB, "{}", NOW, NOW)) > 3


async def test_a_target_with_rows_is_refused_and_left_as_it_was(
    tmp_path: Path, store: Storage,
) -> None:
    await store.db.execute("INSERT INTO bot_meta (key, value) VALUES ('mine', 'kept')")
    before = await dump(store.db)
    source = await full_sqlite(tmp_path / "source.db")
    try:
        with pytest.raises(TargetNotEmpty, match="--force"):
            await copy_database(source.db, store.db)
        assert await dump(store.db) == before
    finally:
        await source.close()


async def test_force_replaces_every_row_of_the_target(tmp_path: Path, store: Storage) -> None:
    await fill(store.db)
    await store.db.execute("INSERT INTO users (id, first_name, updated_at) VALUES (1, 'x', 0)")
    await store.db.execute("UPDATE balances SET balance = 1 WHERE user_id = ?", (ALICE,))
    source = await full_sqlite(tmp_path / "source.db")
    try:
        report = await copy_database(source.db, store.db, force=True)
        assert report.ok
        assert await dump(store.db) == await dump(source.db)
    finally:
        await source.close()


async def test_a_failed_copy_leaves_nothing_in_the_target(tmp_path: Path, store: Storage) -> None:
    source = await full_sqlite(tmp_path / "source.db")
    try:
        # A row the target's schema refuses, in the last table copied: the copy fails whole.
        await source.db.execute("PRAGMA foreign_keys = OFF")
        await source.db.execute(
            "INSERT INTO tournament_matches (tournament_id, idx, round, player_a, player_b,"
            " due_at) VALUES (999, 0, 0, 1, 2, 0)")
        with pytest.raises(db_copy.StorageError):
            await copy_database(source.db, store.db)
        assert all(not rows for rows in (await dump(store.db)).values())
    finally:
        await source.close()
