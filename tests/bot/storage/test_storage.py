from __future__ import annotations

import asyncio
import sqlite3
import threading
from pathlib import Path

import pytest

from bot.storage import (
    MIGRATIONS,
    ChallengeRecord,
    ChallengeStatus,
    ChatMessage,
    ChatSettings,
    DuelResult,
    DuelStatus,
    ResultReason,
    Rollback,
    Storage,
    StorageError,
    open_database,
)
from bot.storage.challenges import UNSENT_GRACE, AlreadyPending
from bot.storage.db import numbered

T0 = 1_700_000_000
ALICE, BOB, CAROL = 101, 202, 303
CHAT = -100123


def result_for(duel_id: int, winner: int | None = ALICE) -> DuelResult:
    return DuelResult(
        duel_id=duel_id, chat_id=CHAT, players=(ALICE, BOB), final_stacks=(70, 30),
        start_stack=50, winner_id=winner, reason=ResultReason.NORMAL, best_hands=(5000, None),
        bonus_chips=(7, 0), bullets=6, finished_at=T0 + 600,
    )


# --- the database ------------------------------------------------------------------------------


async def test_migrations_create_the_schema_and_set_user_version(store: Storage) -> None:
    assert await store.db.schema_version() == len(MIGRATIONS)
    tables = set(await store.db.tables())
    assert {"chats", "chat_settings", "users", "challenges", "duels", "results"} <= tables


async def test_wal_and_foreign_keys_are_on(store: Storage) -> None:
    if store.engine == "sqlite":
        assert (await store.db.fetchone("PRAGMA journal_mode"))[0] == "wal"  # type: ignore[index]
        assert (await store.db.fetchone("PRAGMA foreign_keys"))[0] == 1  # type: ignore[index]
        assert (await store.db.fetchone("PRAGMA busy_timeout"))[0] == 5000  # type: ignore[index]
        assert (await store.db.fetchone("PRAGMA synchronous"))[0] == 1  # type: ignore[index]
    else:  # a lock is waited for at most the busy timeout, as on SQLite (through a pooler:
        # in a transaction; outside one the role's setting, README)
        async with store.db.transaction():
            assert (await store.db.fetchone("SHOW lock_timeout"))[0] == "5s"  # type: ignore[index]
        if "pooler=" not in store.db.path:
            assert (await store.db.fetchone("SHOW lock_timeout"))[0] == "5s"  # type: ignore[index]
    with pytest.raises(StorageError, match=r"(?i)foreign key"):
        await store.results.record(result_for(duel_id=999))


async def test_reopening_is_idempotent_and_keeps_data(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    first = await Storage.open(path)
    duel = await first.duels.create(CHAT, 7, (ALICE, BOB), '{"a": 1}', T0)
    await first.users.upsert(ALICE, "Alice", username="alice", now=T0)
    await first.chats.set_settings(CHAT, ChatSettings(language="ru"))
    await first.close()
    for _ in range(2):
        again = await Storage.open(path)
        assert await again.db.schema_version() == len(MIGRATIONS)
        assert await again.duels.get(duel.id) == duel
        assert (await again.users.find_by_username("ALICE")) is not None
        assert (await again.chats.get_settings(CHAT)).language == "ru"
        await again.close()


async def test_migrations_run_in_order_and_only_once(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    v1 = ("CREATE TABLE a (x INTEGER);",)
    db = await open_database(path, migrations=numbered(v1))
    assert await db.schema_version() == 1
    await db.close()
    v2 = (*v1, "CREATE TABLE b (y INTEGER); INSERT INTO a VALUES (1);")
    db = await open_database(path, migrations=numbered(v2))
    assert await db.schema_version() == 2
    await db.close()
    db = await open_database(path, migrations=numbered(v2))  # nothing runs twice
    assert [tuple(r) for r in await db.fetchall("SELECT x FROM a")] == [(1,)]
    await db.close()


async def test_a_failing_migration_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    bad = ("CREATE TABLE a (x INTEGER);", "CREATE TABLE b (y INTEGER); THIS IS NOT SQL;")
    with pytest.raises(StorageError):
        await open_database(path, migrations=numbered(bad))
    db = await open_database(path, migrations=numbered(bad[:1]))
    assert await db.schema_version() == 1
    assert await db.fetchone("SELECT name FROM sqlite_master WHERE name = 'b'") is None
    await db.close()


async def test_a_newer_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    with sqlite3.connect(path) as raw:
        raw.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    with pytest.raises(StorageError, match="newer than this bot knows"):
        await open_database(path)


async def test_a_missing_directory_is_a_storage_error(tmp_path: Path) -> None:
    with pytest.raises(StorageError, match="cannot open"):
        await open_database(tmp_path / "missing" / "s.db")


async def test_a_failed_open_leaves_no_connection_thread_behind(tmp_path: Path) -> None:
    """aiosqlite stops the thread of a connection that failed to open without waiting for
    it; a thread still running when the event loop closes reports to the closed loop (an
    unhandled exception in a thread). The open is tried in a thread that is waited for."""
    before = set(threading.enumerate())
    with pytest.raises(StorageError, match="cannot open"):
        await open_database(tmp_path / "missing" / "s.db")
    left = [t.name for t in threading.enumerate()
            if t not in before and t.is_alive() and "_connection_worker_thread" in t.name]
    assert not left


async def test_a_file_that_is_not_a_database_is_a_storage_error(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_bytes(b"this is not a database, just some text that is long enough " * 20)
    with pytest.raises(StorageError, match="not a database"):
        await open_database(path)


async def test_transaction_commits_or_rolls_back_everything(store: Storage) -> None:
    with pytest.raises(RuntimeError):
        async with store.db.transaction():
            await store.users.upsert(ALICE, "Alice", now=T0)
            raise RuntimeError("boom")
    assert await store.users.get(ALICE) is None
    with pytest.raises(Rollback):
        async with store.db.transaction():
            await store.users.upsert(BOB, "Bob", now=T0)
            raise Rollback
    assert await store.users.get(BOB) is None
    async with store.db.transaction():
        await store.users.upsert(CAROL, "Carol", now=T0)  # a nested transaction: a savepoint
    assert await store.users.get(CAROL) is not None


async def test_a_nested_transaction_undoes_only_itself(store: Storage) -> None:
    async with store.db.transaction():
        await store.users.upsert(ALICE, "Alice", now=T0)
        with pytest.raises(Rollback):
            async with store.db.transaction():
                await store.users.upsert(BOB, "Bob", now=T0)
                raise Rollback
        async with store.db.transaction():
            await store.users.upsert(CAROL, "Carol", now=T0)
    assert await store.users.get(ALICE) is not None
    assert await store.users.get(BOB) is None
    assert await store.users.get(CAROL) is not None
    with pytest.raises(RuntimeError):
        async with store.db.transaction():
            async with store.db.transaction():
                await store.users.upsert(BOB, "Bob", now=T0)
            raise RuntimeError("the outer block fails after the nested one succeeded")
    assert await store.users.get(BOB) is None


async def test_statements_together_are_a_transaction_and_one_needs_none(store: Storage) -> None:
    async with store.db.together(1):
        assert not store.db.in_transaction  # one statement: atomic as it is
        await store.users.upsert(ALICE, "Alice", now=T0)
    with pytest.raises(RuntimeError):
        async with store.db.together(2):
            assert store.db.in_transaction
            await store.users.upsert(BOB, "Bob", now=T0)
            raise RuntimeError("the second statement failed")
    assert await store.users.get(ALICE) is not None
    assert await store.users.get(BOB) is None


async def test_others_never_see_an_uncommitted_transaction(store: Storage) -> None:
    inside = asyncio.Event()

    async def writer() -> None:
        with pytest.raises(Rollback):
            async with store.db.transaction():
                await store.users.upsert(ALICE, "Alice", now=T0)
                inside.set()
                await asyncio.sleep(0.05)
                raise Rollback

    async def reader() -> None:
        await inside.wait()
        assert await store.users.get(ALICE) is None  # reads what is committed: nothing

    await asyncio.gather(writer(), reader())


async def test_a_cancelled_transaction_is_rolled_back(store: Storage) -> None:
    inside = asyncio.Event()

    async def slow() -> None:
        async with store.db.transaction():
            await store.users.upsert(ALICE, "Alice", now=T0)
            inside.set()
            await asyncio.sleep(10)

    task = asyncio.create_task(slow())
    await inside.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await store.users.get(ALICE) is None
    async with store.db.transaction():
        await store.users.upsert(BOB, "Bob", now=T0)
    assert await store.users.get(BOB) is not None


# --- chats and users ---------------------------------------------------------------------------


async def test_chats_upsert_leave_and_come_back(store: Storage) -> None:
    chat = await store.chats.upsert(CHAT, "supergroup", "Saloon", True, now=T0)
    assert await store.chats.get(CHAT) == chat
    assert await store.chats.mark_left(CHAT, now=T0 + 1)
    left = await store.chats.get(CHAT)
    assert left is not None and not left.active
    assert await store.chats.mark_active(CHAT, now=T0 + 2)
    await store.chats.upsert(CHAT, "supergroup", "Saloon 2", True, now=T0 + 3)
    back = await store.chats.get(CHAT)
    assert back is not None and back.active and back.title == "Saloon 2"
    assert not await store.chats.mark_left(42, now=T0)
    assert await store.chats.get(42) is None


async def test_chat_settings_default_and_round_trip(store: Storage) -> None:
    assert await store.chats.get_settings(CHAT) == ChatSettings()
    settings = ChatSettings(language="en", turn_timer=60, default_stack=40, show_cards_out=False)
    await store.chats.set_settings(CHAT, settings)
    assert await store.chats.get_settings(CHAT) == settings


def test_chat_settings_are_validated_and_read_tolerantly() -> None:
    with pytest.raises(ValueError):
        ChatSettings(language="eo")
    with pytest.raises(ValueError):
        ChatSettings(default_stack=0)
    with pytest.raises(ValueError):
        ChatSettings(turn_timer=True)
    with pytest.raises(ValueError):
        ChatSettings(season="year")
    assert ChatSettings.from_json('{"season": "week"}') == ChatSettings()  # the default, month
    assert ChatSettings.from_json('{"season": "quarter"}') == ChatSettings(season="quarter")
    assert ChatSettings.from_json("not json") == ChatSettings()
    assert ChatSettings.from_json("[1]") == ChatSettings()
    loaded = ChatSettings.from_json('{"language": "xx", "turn_timer": 90, "future": 1}')
    assert loaded == ChatSettings(turn_timer=90)


async def test_users_upsert_get_and_find_by_username(store: Storage) -> None:
    alice = await store.users.upsert(ALICE, "Alice", "Liddell", "@Alice_L", "ru", now=T0)
    assert alice.username == "Alice_L" and alice.full_name == "Alice Liddell"
    assert await store.users.get(ALICE) == alice
    assert await store.users.find_by_username("alice_l") == alice
    assert await store.users.find_by_username("@ALICE_L") == alice
    assert await store.users.find_by_username("bob") is None
    assert await store.users.find_by_username("@") is None
    # Bob takes the username Alice gave up: it now finds Bob only.
    await store.users.upsert(BOB, "Bob", username="alice_l", now=T0 + 5)
    found = await store.users.find_by_username("Alice_L")
    assert found is not None and found.id == BOB
    stale = await store.users.get(ALICE)
    assert stale is not None and stale.username is None


# --- challenges --------------------------------------------------------------------------------


async def create_challenge(store: Storage, challenger: int = ALICE, target: int | None = BOB,
                           *, now: int = T0, ttl: int = 300) -> ChallengeRecord:
    created = await store.challenges.create(CHAT, None, challenger, target, None, 50, now,
                                            now + ttl)
    assert isinstance(created, ChallengeRecord), created
    return created


async def new_challenge(store: Storage, target: int | None = BOB) -> int:
    return (await create_challenge(store, target=target)).id


async def test_challenge_lifecycle(store: Storage) -> None:
    created = await store.challenges.create(CHAT, 9, ALICE, None, "@bob", 40, T0, T0 + 300)
    assert isinstance(created, ChallengeRecord)
    assert created.status is ChallengeStatus.PENDING and created.version == 0
    assert created.target_username == "bob"
    assert await store.challenges.get(created.id) == created
    assert await store.challenges.set_message(created.id, 555)
    assert [c.id for c in await store.challenges.pending_by_challenger(CHAT, ALICE)] == [created.id]
    assert await store.challenges.pending_by_challenger(CHAT, BOB) == []
    assert await store.challenges.transition(created.id, 0, ChallengeStatus.DECLINED)
    settled = await store.challenges.get(created.id)
    assert settled is not None
    assert (settled.status, settled.version, settled.message_id) == ("declined", 1, 555)
    assert not await store.challenges.transition(created.id, 1, ChallengeStatus.EXPIRED)
    assert await store.challenges.list_pending() == []


async def test_a_chats_challenges_whatever_their_status_oldest_first(store: Storage) -> None:
    declined = await create_challenge(store, ALICE)
    assert await store.challenges.transition(declined.id, 0, ChallengeStatus.DECLINED)
    pending = await create_challenge(store, CAROL, None)
    elsewhere = await store.challenges.create(CHAT - 1, None, BOB, None, None, 50, T0, T0 + 300)
    assert isinstance(elsewhere, ChallengeRecord)
    listed = await store.challenges.in_chat(CHAT)
    assert [(c.id, c.status) for c in listed] == [
        (declined.id, ChallengeStatus.DECLINED), (pending.id, ChallengeStatus.PENDING)]
    assert await store.challenges.in_chat(CHAT - 1) == [elsewhere]
    assert await store.challenges.in_chat(CHAT + 1) == []


async def test_only_one_challenge_transition_wins_a_race(store: Storage) -> None:
    challenge_id = await new_challenge(store)
    outcomes = await asyncio.gather(*(
        store.challenges.transition(challenge_id, 0, status)
        for status in (ChallengeStatus.DECLINED, ChallengeStatus.CANCELLED,
                       ChallengeStatus.EXPIRED, ChallengeStatus.DECLINED)
    ))
    assert sum(o is not None for o in outcomes) == 1


async def test_a_settlement_reports_the_message_it_must_edit_and_set_message_the_rest(
        store: Storage) -> None:
    # Recorded first: the settlement edits the message. Settled first: the sender must.
    first = await new_challenge(store)
    assert await store.challenges.set_message(first, 77)
    settled = await store.challenges.transition(first, 0, ChallengeStatus.CANCELLED)
    assert settled is not None and settled.message_id == 77
    second = await new_challenge(store)
    settled = await store.challenges.transition(second, 0, ChallengeStatus.CANCELLED)
    assert settled is not None and settled.message_id is None
    assert not await store.challenges.set_message(second, 78)


async def test_accepting_creates_the_duel_atomically(store: Storage) -> None:
    challenge_id = await new_challenge(store)

    async def accept() -> int | None:
        try:
            async with store.db.transaction():
                duel = await store.duels.create(CHAT, None, (ALICE, BOB), "{}", T0)
                if not await store.challenges.transition(
                    challenge_id, 0, ChallengeStatus.ACCEPTED, duel.id
                ):
                    raise Rollback
        except Rollback:
            return None
        return duel.id

    winners = [d for d in await asyncio.gather(accept(), accept(), accept()) if d is not None]
    assert len(winners) == 1
    assert [d.id for d in await store.duels.all_live()] == winners
    challenge = await store.challenges.get(challenge_id)
    assert challenge is not None and challenge.duel_id == winners[0]


async def test_pending_challenges_are_listed_by_expiry_and_expire_with_the_chat(
    store: Storage,
) -> None:
    late = await create_challenge(store, ALICE, BOB, ttl=900)
    soon = await create_challenge(store, CAROL, None, ttl=60)
    assert [c.id for c in await store.challenges.list_pending()] == [soon.id, late.id]
    assert await store.challenges.expire_chat(CHAT) == 2
    assert await store.challenges.list_pending() == []


async def test_one_pending_challenge_per_player_per_chat_even_when_created_at_once(
    store: Storage,
) -> None:
    outcomes = await asyncio.gather(*(
        store.challenges.create(CHAT, None, ALICE, None, None, 50 + i, T0, T0 + 300)
        for i in range(5)))
    made = [o for o in outcomes if isinstance(o, ChallengeRecord)]
    refused = [o for o in outcomes if isinstance(o, AlreadyPending)]
    assert len(made) == 1 and len(refused) == 4
    assert all(r.existing == made[0] for r in refused)
    assert [c.id for c in await store.challenges.pending_by_challenger(CHAT, ALICE)] == [
        made[0].id]
    # Someone else, or the same player in another chat, may still challenge.
    assert isinstance(await store.challenges.create(CHAT, None, BOB, None, None, 50, T0,
                                                    T0 + 300), ChallengeRecord)
    assert isinstance(await store.challenges.create(-5, None, ALICE, None, None, 50, T0,
                                                    T0 + 300), ChallengeRecord)
    # Once settled, a new one may be made.
    assert await store.challenges.transition(made[0].id, 0, ChallengeStatus.CANCELLED)
    await create_challenge(store, ALICE, None)


async def test_the_unique_index_refusing_a_second_pending_challenge_is_already_pending(
    store: Storage, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Should the check ever miss (another writer of the file), the index refuses the row and
    `create` says so instead of raising."""
    first = await create_challenge(store, ALICE, None)

    async def nothing_pending(chat_id: int, challenger_id: int) -> list[ChallengeRecord]:
        return []

    monkeypatch.setattr(store.challenges, "pending_by_challenger", nothing_pending)
    assert await store.challenges.create(CHAT, None, ALICE, BOB, None, 50, T0, T0 + 300) == (
        AlreadyPending(None))
    monkeypatch.undo()
    assert [c.id for c in await store.challenges.pending_by_challenger(CHAT, ALICE)] == [
        first.id]


async def test_a_challenge_that_could_not_be_sent_is_undone(store: Storage) -> None:
    c = await create_challenge(store, ALICE, None)
    assert await store.challenges.discard_unsent(c.id)
    assert await store.challenges.get(c.id) is None
    assert not await store.challenges.discard_unsent(c.id)
    shown = await create_challenge(store, ALICE, None)
    await store.challenges.set_message(shown.id, 77)
    assert not await store.challenges.discard_unsent(shown.id)  # it has a message: kept
    assert (await store.challenges.get(shown.id)) is not None


async def test_a_challenge_never_sent_stops_blocking_its_player(store: Storage) -> None:
    """A crash between the insert and the send leaves a pending challenge without message."""
    stuck = await create_challenge(store, ALICE, None, now=T0)
    refused = await store.challenges.create(CHAT, None, ALICE, None, None, 50,
                                            T0 + UNSENT_GRACE - 1, T0 + 900)
    assert refused == AlreadyPending(stuck)  # its message may still be on its way
    again = await create_challenge(store, ALICE, None, now=T0 + UNSENT_GRACE)
    gone = await store.challenges.get(stuck.id)
    assert gone is not None and (gone.status, gone.version) == (ChallengeStatus.EXPIRED, 1)
    assert [c.id for c in await store.challenges.pending_by_challenger(CHAT, ALICE)] == [
        again.id]
    # At start-up: every challenge left without a message long enough is expired.
    shown = await create_challenge(store, BOB, None, now=T0)
    await store.challenges.set_message(shown.id, 5)
    unsent = await create_challenge(store, CAROL, None, now=T0)
    assert await store.challenges.expire_unsent(T0 + UNSENT_GRACE) == 2  # Carol's and again
    assert [c.id for c in await store.challenges.list_pending()] == [shown.id]
    expired = await store.challenges.get(unsent.id)
    assert expired is not None and expired.status is ChallengeStatus.EXPIRED


async def test_transition_arguments_are_checked(store: Storage) -> None:
    challenge_id = await new_challenge(store)
    with pytest.raises(ValueError):
        await store.challenges.transition(challenge_id, 0, ChallengeStatus.PENDING)
    with pytest.raises(ValueError):
        await store.challenges.transition(challenge_id, 0, ChallengeStatus.DECLINED, duel_id=3)
    challenge = await store.challenges.get(challenge_id)
    assert challenge is not None and challenge.is_pending


# --- duels and results -------------------------------------------------------------------------


async def test_duel_create_get_and_live_queries(store: Storage) -> None:
    duel = await store.duels.create(CHAT, 7, (ALICE, BOB), '{"s": 0}', T0)
    assert (duel.version, duel.status, duel.message_id) == (0, DuelStatus.LIVE, None)
    assert duel.player_index(BOB) == 1 and duel.player_index(CAROL) is None
    other = await store.duels.create(-5, None, (CAROL, BOB), "{}", T0)
    assert await store.duels.get(duel.id) == duel
    assert await store.duels.live_for_user_in_chat(CHAT, BOB) == duel
    assert await store.duels.live_for_user_in_chat(CHAT, CAROL) is None
    assert await store.duels.live_in_chat(CHAT) == [duel]
    assert [d.id for d in await store.duels.all_live()] == [duel.id, other.id]
    with pytest.raises(ValueError):
        await store.duels.create(CHAT, None, (ALICE, ALICE), "{}", T0)


async def test_save_is_a_compare_and_swap(store: Storage) -> None:
    duel = await store.duels.create(CHAT, None, (ALICE, BOB), "v0", T0)
    assert await store.duels.save(duel.id, 0, "v1", now=T0 + 1) == 1
    assert await store.duels.save(duel.id, 0, "stale", now=T0 + 2) is None
    saved = await store.duels.get(duel.id)
    assert saved is not None
    assert (saved.state_json, saved.version, saved.updated_at) == ("v1", 1, T0 + 1)


async def test_concurrent_saves_with_the_same_version_exactly_one_wins(store: Storage) -> None:
    duel = await store.duels.create(CHAT, None, (ALICE, BOB), "v0", T0)
    outcomes = await asyncio.gather(*(
        store.duels.save(duel.id, 0, f"tap {i}", now=T0 + 1) for i in range(5)
    ))
    winners = [i for i, v in enumerate(outcomes) if v is not None]
    assert len(winners) == 1 and outcomes[winners[0]] == 1
    saved = await store.duels.get(duel.id)
    assert saved is not None and saved.state_json == f"tap {winners[0]}" and saved.version == 1


async def test_finishing_save_writes_the_result_atomically(store: Storage) -> None:
    duel = await store.duels.create(CHAT, None, (ALICE, BOB), "v0", T0)
    result = result_for(duel.id)
    outcomes = await asyncio.gather(
        store.duels.save(duel.id, 0, "end", DuelStatus.FINISHED, now=T0 + 9, result=result),
        store.duels.save(duel.id, 0, "other", DuelStatus.FINISHED, now=T0 + 9, result=result),
    )
    assert sorted(outcomes, key=str) == [1, None]
    assert await store.results.for_chat(CHAT) == [result]
    assert await store.results.get(duel.id) == result
    finished = await store.duels.get(duel.id)
    assert finished is not None and finished.status is DuelStatus.FINISHED
    assert await store.duels.all_live() == []
    assert await store.duels.save(duel.id, 1, "after the end", now=T0 + 10) is None


async def test_a_failing_result_leaves_the_duel_live(store: Storage) -> None:
    duel = await store.duels.create(CHAT, None, (ALICE, BOB), "v0", T0)
    await store.duels.save(duel.id, 0, "v1", now=T0 + 1)
    with pytest.raises(ValueError):  # a result for another duel
        await store.duels.save(
            duel.id, 1, "end", DuelStatus.FINISHED, now=T0, result=result_for(duel.id + 1)
        )
    with pytest.raises(ValueError):  # a result but the duel stays live
        await store.duels.save(duel.id, 1, "end", now=T0, result=result_for(duel.id))
    duplicate = result_for(duel.id)
    await store.results.record(duplicate)  # a row already exists, so the insert will fail
    with pytest.raises(StorageError, match=r"(?i)unique"):
        await store.duels.save(duel.id, 1, "end", DuelStatus.FINISHED, now=T0, result=duplicate)
    still = await store.duels.get(duel.id)
    assert still is not None
    assert (still.status, still.version, still.state_json) == (DuelStatus.LIVE, 1, "v1")


def test_results_are_validated() -> None:
    with pytest.raises(ValueError):
        result_for(1, winner=CAROL)
    assert result_for(1).loser_id == BOB
    assert result_for(1, winner=None).loser_id is None


async def test_set_message_records_the_shown_version_and_never_goes_back(store: Storage) -> None:
    duel = await store.duels.create(CHAT, None, (ALICE, BOB), "v0", T0)
    assert (await store.duels.get(duel.id)).needs_redraw  # type: ignore[union-attr]
    assert await store.duels.set_message(duel.id, ChatMessage(CHAT, 900), 0)
    await store.duels.save(duel.id, 0, "v1", now=T0)
    assert await store.duels.set_message(duel.id, ChatMessage(CHAT, 901), 1)
    assert not await store.duels.set_message(duel.id, ChatMessage(CHAT, 900), 0)
    assert not await store.duels.set_message(duel.id, ChatMessage(-7, 902), 1)  # not its chat
    shown = await store.duels.get(duel.id)
    assert shown is not None and (shown.message_id, shown.shown_version) == (901, 1)
    assert not shown.needs_redraw
    assert await store.duels.lagging() == []
    await store.duels.save(duel.id, 1, "end", DuelStatus.FINISHED, now=T0)
    assert [d.id for d in await store.duels.lagging()] == [duel.id]  # the end is not shown yet
    assert shown.shown_on == ChatMessage(CHAT, 901)
    await store.duels.set_message(duel.id, ChatMessage(CHAT, 901), 2)
    assert await store.duels.lagging() == []


async def test_abandon_chat_stops_its_live_duels(store: Storage) -> None:
    here = await store.duels.create(CHAT, None, (ALICE, BOB), "v0", T0)
    elsewhere = await store.duels.create(-7, None, (ALICE, BOB), "v0", T0)
    assert await store.duels.abandon_chat(CHAT, now=T0 + 1) == [here.id]
    gone = await store.duels.get(here.id)
    assert gone is not None and gone.status is DuelStatus.ABANDONED and gone.version == 1
    assert await store.duels.save(here.id, 0, "late tap", now=T0 + 2) is None
    assert [d.id for d in await store.duels.all_live()] == [elsewhere.id]
    assert await store.duels.abandon_chat(CHAT, now=T0 + 3) == []
    assert [d.id for d in await store.duels.lagging()] == [elsewhere.id]


async def test_settings_and_users_read_from_memory_match_the_database(tmp_path: Path) -> None:
    """The in-memory copies follow every write, and forget writes that were rolled back."""
    first = await Storage.open(tmp_path / "cache.db")
    await first.chats.set_settings(1, ChatSettings(language="ru"))
    await first.users.upsert(ALICE, "Alice", username="al", now=1)
    assert (await first.chats.get_settings(1)).language == "ru"
    with pytest.raises(Rollback):
        async with first.db.transaction():
            await first.chats.set_settings(1, ChatSettings(language="en"))
            await first.users.upsert(ALICE, "Alicia", username="al", now=2)
            raise Rollback
    assert (await first.chats.get_settings(1)).language == "ru"
    user = await first.users.get(ALICE)
    assert user is not None and user.first_name == "Alice"
    await first.users.upsert(BOB, "Bob", username="AL", now=3)  # the username moves to Bob
    again = await first.users.get(ALICE)
    assert again is not None and again.username is None
    await first.close()
    second = await Storage.open(tmp_path / "cache.db")
    assert (await second.chats.get_settings(1)).language == "ru"
    assert (await second.users.get(ALICE)) == again
    await second.close()


async def test_a_postgresql_server_that_does_not_answer_is_one_line_without_the_password() -> None:
    with pytest.raises(StorageError, match="cannot open the database") as e:
        await open_database("postgresql://bot:hunter2-secret@127.0.0.1:9/six", busy_timeout=2)
    assert "hunter2" not in str(e.value) and "\n" not in str(e.value)
    assert "postgresql://bot:***@127.0.0.1:9/six" in str(e.value)
