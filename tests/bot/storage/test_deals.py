"""Deals by salt (table deals, migration V6): written with the saves that deal and end a deal,
found by an indexed query; a V5 database gets the deals of its saved duels once."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.storage import MIGRATIONS, Deal, DuelStatus, Storage, deals_of, open_database
from bot.storage.db import numbered
from rules.duel import DuelState, TiebreakAnswer
from tests.rules.duel.helpers import bets, deck_with

CHAT, ELSEWHERE = -42, -43
T0 = 1_700_000_000
SALTS = [bytes([n]) * 16 for n in range(1, 5)]
LEVEL = deck_with("2c 4s 6h 9c Jh", "2d 4c 6s 9d Js", "3c 5s 7h Tc Qh", "3d 5c 7s Td Qs",
                  "4h 8c Th Kc 2h", "4d 8d Ts Kd 2s")  # every bullet a split: a tiebreak


def level_round(state: DuelState) -> None:
    state.deal(LEVEL, SALTS[state.round])
    bets(state, (0, 1), (1, 1), (2, 1), (3, 1), (4, 2), (5, 2))


def at_tiebreak_offer() -> DuelState:
    state = DuelState.new(50, first_dealer=0)
    level_round(state)
    level_round(state)
    return state


def tiebreak_played() -> DuelState:
    """Two level rounds, the tiebreak accepted by both, dealt and its one bullet played."""
    state = at_tiebreak_offer()
    state.apply(TiebreakAnswer(True), 1)
    state.apply(TiebreakAnswer(True), 0)
    state.deal(LEVEL, SALTS[3])
    bets(state, (0, 2), (1, 2))  # a tiebreak bullet: no passing, 2 chips each
    return state



def test_the_deals_of_a_view_carry_a_salt_only_once_over() -> None:
    state = DuelState.new(50, first_dealer=0)
    state.deal(LEVEL, SALTS[0])
    assert deals_of(state.public_view()) == (Deal(1, state.commitment or ""),)
    bets(state, (0, 1), (1, 1), (2, 1), (3, 1), (4, 2), (5, 2))
    (first,) = deals_of(state.public_view())
    assert (first.round, first.salt) == (1, SALTS[0].hex())
    played = tiebreak_played()
    assert [(d.round, d.salt) for d in deals_of(played.public_view())] == [
        (1, SALTS[0].hex()), (2, SALTS[1].hex()), (3, SALTS[3].hex())]


async def test_a_deal_is_found_by_its_salt_once_it_is_over(store: Storage) -> None:
    state = DuelState.new(50, first_dealer=0)
    state.deal(LEVEL, SALTS[0])
    duel = await store.duels.create(CHAT, None, (1, 2), state.to_json(), T0,
                                    deals=deals_of(state.public_view()))
    assert await store.duels.with_salt(CHAT, SALTS[0].hex()) is None  # in play: no salt
    bets(state, (0, 1), (1, 1), (2, 1), (3, 1), (4, 2), (5, 2))
    state.deal(LEVEL, SALTS[1])
    assert await store.duels.save(duel.id, 0, state.to_json(), now=T0 + 1,
                                  deals=deals_of(state.public_view())) == 1
    found = await store.duels.with_salt(CHAT, SALTS[0].hex())
    assert found is not None and (found.id, found.version) == (duel.id, 1)
    assert await store.duels.with_salt(CHAT, SALTS[1].hex()) is None  # round 2 in play
    assert await store.duels.with_salt(ELSEWHERE, SALTS[0].hex()) is None
    assert await store.duels.with_salt(CHAT, "00" * 16) is None


async def test_a_save_that_loses_the_race_writes_no_deal(store: Storage) -> None:
    state = DuelState.new(50, first_dealer=0)
    level_round(state)
    duel = await store.duels.create(CHAT, None, (1, 2), "{}", T0)
    assert await store.duels.save(duel.id, 5, state.to_json(), now=T0,
                                  deals=deals_of(state.public_view())) is None
    assert await store.duels.with_salt(CHAT, SALTS[0].hex()) is None


async def test_a_tiebreak_deal_is_found_by_its_salt(store: Storage) -> None:
    offer = at_tiebreak_offer()
    duel = await store.duels.create(CHAT, None, (1, 2), offer.to_json(), T0,
                                    deals=deals_of(offer.public_view()))
    played = tiebreak_played()
    status = DuelStatus.FINISHED if played.is_over else DuelStatus.LIVE
    assert await store.duels.save(duel.id, 0, played.to_json(), status, now=T0 + 1,
                                  deals=deals_of(played.public_view())) == 1
    for salt in (SALTS[0], SALTS[1], SALTS[3]):
        found = await store.duels.with_salt(CHAT, salt.hex())
        assert found is not None and found.id == duel.id


async def test_a_v5_database_gets_the_deals_of_its_saved_duels(tmp_path: Path) -> None:
    path = tmp_path / "v5.db"
    old = await open_database(path, migrations=numbered(MIGRATIONS[:5]))
    states = {"tiebreak": tiebreak_played(), "offer": at_tiebreak_offer()}
    for n, state in enumerate(states.values()):
        await old.insert(
            "INSERT INTO duels (chat_id, player0_id, player1_id, state, created_at, updated_at)"
            " VALUES (?, 1, 2, ?, ?, ?)", (CHAT, state.to_json(), T0 + n, T0 + n))
    await old.insert("INSERT INTO duels (chat_id, player0_id, player1_id, state, created_at,"
                     " updated_at) VALUES (?, 1, 2, 'not a state', 0, 0)", (ELSEWHERE,))
    await old.close()

    store = await Storage.open(path)
    try:
        assert await store.db.schema_version() == len(MIGRATIONS)
        rows = await store.db.fetchall(
            "SELECT duel_id, round, commitment, salt FROM deals ORDER BY duel_id, round")
        expected = [(duel_id, d.round, d.commitment, d.salt)
                    for duel_id, state in enumerate(states.values(), start=1)
                    for d in deals_of(state.public_view())]
        assert [tuple(r) for r in rows] == expected
        found = await store.duels.with_salt(CHAT, SALTS[3].hex())  # the tiebreak deal's
        assert found is not None and found.id == 1
        assert await store.meta.get("deals_backfill") is None  # asked once, done
        await store.db.execute("DELETE FROM deals")
    finally:
        await store.close()
    again = await Storage.open(path)  # not run twice
    try:
        assert await again.db.fetchall("SELECT * FROM deals") == []
    finally:
        await again.close()


async def test_the_salt_lookup_uses_the_index(tmp_path: Path) -> None:
    store = await Storage.open(tmp_path / "s.db")  # SQLite's plan (PostgreSQL's has its own)
    plan = await store.db.fetchall(
        "EXPLAIN QUERY PLAN SELECT duels.* FROM deals JOIN duels ON duels.id = deals.duel_id"
        " WHERE deals.salt = ? AND duels.chat_id = ? ORDER BY duels.id DESC LIMIT 1",
        ("ab", CHAT))
    await store.close()
    assert any("deals_by_salt" in str(tuple(r)) for r in plan), [tuple(r) for r in plan]


def test_the_deals_table_rejects_a_second_row_for_a_round(tmp_path: Path) -> None:
    raw = sqlite3.connect(":memory:")
    for script in MIGRATIONS:
        raw.executescript(script)
    raw.execute("INSERT INTO duels (chat_id, player0_id, player1_id, state, created_at,"
                " updated_at) VALUES (1, 1, 2, '{}', 0, 0)")
    raw.execute("INSERT INTO deals VALUES (1, 1, 'c', NULL)")
    with pytest.raises(sqlite3.IntegrityError):
        raw.execute("INSERT INTO deals VALUES (1, 1, 'd', NULL)")
    raw.close()
