"""A group upgraded to a supergroup: every row of the chat moves to the new id in one
transaction (bot.storage.chat_move.move_chat), rows already under the new id are kept or merged,
the old group's message ids are forgotten, and a second signal moves nothing."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from bot import duel, sixcard, tournament
from bot.common.chats import migrate_chat
from bot.services import Services
from bot.sixcard.service import games, start_game
from bot.storage import (
    ChallengeStatus,
    ChatMessage,
    ChatSettings,
    DuelResult,
    DuelStatus,
    GameStatus,
    ResultReason,
    Storage,
    StorageError,
)
from bot.storage.sixcard import SixCardRecord, SixCardRepo
from bot.storage.timers import TimerRecord, TimerRepo

T0 = 1_700_000_000
OLD, NEW, ELSEWHERE = -4_000_000_123, -1_001_000_000_456, -4_000_000_999
ALICE, BOB, CAROL = 101, 202, 303
TABLES = {"chats": "id", "chat_settings": "chat_id", "duels": "chat_id",
          "challenges": "chat_id", "results": "chat_id", "balances": "chat_id",
          "sixcard_games": "chat_id", "ratings": "chat_id"}
SETTINGS = ChatSettings(language="ru", turn_timer=600, default_stack=100, show_cards_out=False)


async def rows(store: Storage, table: str, chat: int) -> list[dict[str, Any]]:
    found = await store.db.fetchall(f"SELECT * FROM {table} WHERE {TABLES[table]} = ?", (chat,))
    return sorted((dict(r) for r in found), key=lambda d: json.dumps(d, sort_keys=True))


async def everything(store: Storage, chat: int) -> dict[str, list[dict[str, Any]]]:
    return {table: await rows(store, table, chat) for table in TABLES}


async def balance_row(store: Storage, chat: int, user: int, balance: int, *, games: int,
                      net: int, rebuys: int, version: int, last_rebuy: int | None,
                      created: int) -> None:
    await store.db.execute(
        "INSERT INTO balances (chat_id, user_id, balance, version, rebuys, last_rebuy_at, games,"
        " net, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (chat, user, balance, version, rebuys, last_rebuy, games, net, created, created))


async def game_row(store: Storage, chat: int, user: int, status: str, message_id: int,
                   version: int, shown: int) -> int:
    return await store.db.insert(
        "INSERT INTO sixcard_games (chat_id, user_id, state, version, status, message_id,"
        " shown_version, created_at, updated_at) VALUES (?, ?, '{}', ?, ?, ?, ?, ?, ?)",
        (chat, user, version, status, message_id, shown, T0, T0))


async def a_group_with_history(store: Storage) -> dict[str, int]:
    """The old group as the bot knows it, and what the supergroup already has."""
    await store.chats.upsert(OLD, "group", "Friends", False, now=T0)
    await store.chats.upsert(NEW, "supergroup", "Friends (new)", False, now=T0 + 50)
    await store.chats.upsert(ELSEWHERE, "group", "Elsewhere", False, now=T0)
    await store.chats.set_settings(OLD, SETTINGS)
    duels = store.duels
    finished = await duels.create(OLD, None, (ALICE, BOB), "{}", T0)
    result = DuelResult(
        duel_id=finished.id, chat_id=OLD, players=(ALICE, BOB), final_stacks=(80, 20),
        start_stack=50, winner_id=ALICE, reason=ResultReason.NORMAL, best_hands=(5000, 40),
        bonus_chips=(3, 0), bullets=6, finished_at=T0 + 10)
    assert await duels.save(finished.id, 0, "{}", DuelStatus.FINISHED, now=T0 + 10,
                            result=result) == 1
    await duels.set_message(finished.id, ChatMessage(OLD, 31), 1)
    live = await duels.create(OLD, None, (ALICE, CAROL), "{}", T0 + 20)
    assert await duels.save(live.id, 0, "{}", now=T0 + 21) == 1
    await duels.set_message(live.id, ChatMessage(OLD, 42), 1)
    other = await duels.create(ELSEWHERE, None, (BOB, CAROL), "{}", T0)
    await duels.set_message(other.id, ChatMessage(ELSEWHERE, 5), 0)
    await TimerRepo(store.db).put(TimerRecord(live.id, 1, 300, T0 + 150.0, T0 + 300.0, False,
                                              (1, 0)))
    pending = await store.challenges.create(OLD, None, BOB, None, None, 50, T0, T0 + 600)
    await store.challenges.set_message(pending.id, 7)
    accepted = await store.challenges.create(OLD, None, ALICE, BOB, None, 50, T0, T0 + 600)
    assert await store.challenges.transition(accepted.id, 0, ChallengeStatus.ACCEPTED,
                                             duel_id=finished.id)
    await balance_row(store, OLD, ALICE, 1200, games=3, net=200, rebuys=1, version=9,
                      last_rebuy=T0 + 5, created=T0)
    await balance_row(store, NEW, ALICE, 990, games=1, net=-10, rebuys=0, version=2,
                      last_rebuy=None, created=T0 + 60)
    await balance_row(store, OLD, BOB, 800, games=2, net=-200, rebuys=0, version=4,
                      last_rebuy=None, created=T0)
    live_game = await game_row(store, OLD, BOB, "live", 9, 3, 3)
    done_game = await game_row(store, OLD, ALICE, "finished", 11, 5, 5)
    return {"finished": finished.id, "live": live.id, "other": other.id,
            "pending": pending.id, "accepted": accepted.id, "live_game": live_game,
            "done_game": done_game}


async def test_every_row_moves_in_one_go_with_the_new_ids_rows_kept_or_merged(
        store: Storage) -> None:
    ids = await a_group_with_history(store)
    elsewhere_before = await everything(store, ELSEWHERE)

    moved = await store.move_chat(OLD, NEW, now=T0 + 100)

    assert moved.moved and moved.live_of("duel") == (ids["live"],)
    assert moved.live_of("sixcard") == (ids["live_game"],)
    assert (moved.expired_challenges, moved.merged_balances) == (1, 1)
    assert all(not found for found in (await everything(store, OLD)).values())
    assert await everything(store, ELSEWHERE) == elsewhere_before
    # The supergroup's own chat row (the newer) is kept.
    [chat] = await rows(store, "chats", NEW)
    assert (chat["type"], chat["title"], chat["active"]) == ("supergroup", "Friends (new)", 1)
    assert await store.chats.get_settings(NEW) == SETTINGS
    # Duels and standings: all there; no old message id survives; the live one is unshown.
    duels = {d["id"]: d for d in await rows(store, "duels", NEW)}
    assert set(duels) == {ids["finished"], ids["live"]}
    assert all(d["message_id"] is None for d in duels.values())
    live = duels[ids["live"]]
    assert (live["status"], live["version"], live["shown_version"]) == ("live", 1, None)
    assert duels[ids["finished"]]["shown_version"] == 1  # nothing to show again
    assert [r.duel_id for r in await store.results.for_chat(NEW)] == [ids["finished"]]
    timer = await TimerRepo(store.db).get(ids["live"])
    assert timer is not None and timer.timeouts == (1, 0) and timer.deadline == T0 + 300.0
    # Challenges: the pending one expired (its message is in the read-only old group).
    challenges = {c["id"]: c for c in await rows(store, "challenges", NEW)}
    assert challenges[ids["pending"]]["status"] == "expired"
    assert challenges[ids["pending"]]["version"] == 1
    assert challenges[ids["accepted"]]["status"] == "accepted"
    assert all(c["message_id"] is None for c in challenges.values())
    # Balances: Alice had one on both sides (merged by summing), Bob only in the group.
    balances = {b["user_id"]: b for b in await rows(store, "balances", NEW)}
    alice, bob = balances[ALICE], balances[BOB]
    assert (alice["balance"], alice["games"], alice["net"], alice["rebuys"]) == (
        1200 + 990, 3 + 1, 200 - 10, 1)
    assert alice["last_rebuy_at"] == T0 + 5 and alice["created_at"] == T0
    assert alice["version"] > 9 and alice["updated_at"] == T0 + 100
    assert (bob["balance"], bob["games"], bob["net"], bob["version"]) == (800, 2, -200, 4)
    # Six-card games: the live one will be shown again; the finished one keeps its status.
    games = {g["id"]: g for g in await rows(store, "sixcard_games", NEW)}
    assert (games[ids["live_game"]]["status"], games[ids["live_game"]]["shown_version"]) == (
        "live", None)
    assert games[ids["done_game"]]["shown_version"] == 5
    assert all(g["message_id"] is None for g in games.values())
    # The lagging queries the sync job uses now find the live games in the new chat.
    assert [d.id for d in await store.duels.lagging()] == [ids["live"]]
    assert [g.id for g in await SixCardRepo(store.db).lagging()] == [ids["live_game"]]


async def test_a_second_signal_moves_nothing(store: Storage) -> None:
    await a_group_with_history(store)
    await store.move_chat(OLD, NEW, now=T0 + 100)
    after_first = await everything(store, NEW)
    # The old group's own service message comes second: its update re-records the old chat.
    await store.chats.upsert(OLD, "group", "Friends", False, now=T0 + 101)
    again = await store.move_chat(OLD, NEW, now=T0 + 102)
    assert not again.moved and again.live_of("duel") == () and again.live_of("sixcard") == ()
    assert await everything(store, NEW) == after_first
    assert all(not found for found in (await everything(store, OLD)).values())


async def test_settings_made_in_the_supergroup_first_win(store: Storage) -> None:
    await store.chats.set_settings(OLD, SETTINGS)
    newer = ChatSettings(language="en", default_stack=30)
    await store.chats.set_settings(NEW, newer)
    await store.move_chat(OLD, NEW, now=T0)
    store.chats.forget_cached(OLD, NEW)
    assert await store.chats.get_settings(NEW) == newer
    assert not await rows(store, "chat_settings", OLD)


async def test_a_failure_half_way_moves_nothing(store: Storage,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    await a_group_with_history(store)
    before_old, before_new = await everything(store, OLD), await everything(store, NEW)
    execute = store.db.execute

    async def failing(sql: str, params: Any = ()) -> int:
        if sql.startswith("UPDATE sixcard_games SET chat_id"):  # the very last statement
            raise StorageError("disk I/O error")
        return await execute(sql, params)

    monkeypatch.setattr(store.db, "execute", failing)
    with pytest.raises(StorageError):
        await store.move_chat(OLD, NEW, now=T0 + 100)
    monkeypatch.undo()
    assert await everything(store, OLD) == before_old
    assert await everything(store, NEW) == before_new


async def test_a_chat_cannot_move_onto_itself(store: Storage) -> None:
    with pytest.raises(ValueError):
        await store.move_chat(OLD, OLD, now=T0)


# --- the bot's side: memory dropped, a second live six-card game closed -----------------------


async def test_migrate_chat_drops_the_memory_of_both_ids_and_keeps_one_live_game_each(
        store: Storage) -> None:
    svc = Services(storage=store, rng=random.Random(3), clock=lambda: T0,
                   chat_games=[duel.CHAT_GAMES, sixcard.CHAT_GAMES, tournament.CHAT_GAMES])
    await store.chats.set_settings(OLD, SETTINGS)
    assert await store.chats.get_settings(NEW) == ChatSettings()  # remembered: the default
    await store.chats.remember(OLD, "group", "Friends", False, now=T0)
    await store.chats.remember(NEW, "supergroup", "Friends", False, now=T0)
    in_group = await start_game(svc, OLD, None, ALICE, (10,))
    in_supergroup = await start_game(svc, NEW, None, ALICE, (25,))
    bobs = await start_game(svc, OLD, None, BOB, (10,))
    assert isinstance(in_group, SixCardRecord) and isinstance(in_supergroup, SixCardRecord)
    assert isinstance(bobs, SixCardRecord)

    moved = await migrate_chat(svc, OLD, NEW)

    assert await store.chats.get_settings(NEW) == SETTINGS
    repo = games(svc)
    closed = await repo.get(in_group.id)
    assert closed is not None and closed.status is GameStatus.ABANDONED
    assert closed.chat_id == NEW
    assert moved.live_of("sixcard") == (bobs.id,)
    live = {g.user_id: g.id for g in await repo.live_in_chat(NEW)}
    assert live == {ALICE: in_supergroup.id, BOB: bobs.id}
    # Alice's group stake came back before her two balances were merged: 1000 + 1000 - 25.
    alice = await svc.storage.balances.get_balance(NEW, ALICE)
    assert alice is not None and alice.balance == 2 * 1000 - 25
    assert await migrate_chat(svc, OLD, NEW) == type(moved)(
        OLD, NEW, 0, {"duel": (), "sixcard": ()}, 0, 0)
