"""Tournaments (tables of migration V11, bot.storage.tournaments): one open per chat topic,
sign-up, the schedule written at the start, each match decided by its duel or a walkover,
compare-and-swap on the version, and the mapping of a stored result to the rules'."""

from __future__ import annotations

import pytest

from bot.storage import (
    ChallengeRecord,
    ChallengeStatus,
    DuelResult,
    DuelStatus,
    MatchRecord,
    ResultReason,
    Rollback,
    Storage,
    TournamentRecord,
    TournamentStatus,
)
from rules.tournament import MAX_PLAYERS, Played, Walkover, schedule

CHAT, OTHER, NEW = -42, -43, -1_001_000_000_042
TOPIC = 7
ALICE, BOB, CAROL, DAVE = 101, 202, 303, 404
T0 = 1_700_000_000
DAY = 86_400



async def opened(store: Storage, *players: int, chat: int = CHAT,
                 thread: int | None = None) -> TournamentRecord:
    t = await store.tournaments.open(chat, thread, ALICE, 50, False, DAY, T0)
    assert t is not None
    for p in players:
        assert await store.tournaments.join(t.id, p)
    got = await store.tournaments.get(t.id)
    assert got is not None
    return got


async def started(store: Storage, *players: int, chat: int = CHAT) -> TournamentRecord:
    t = await opened(store, *players, chat=chat)
    pairings = schedule(await store.tournaments.players(t.id))
    running = await store.tournaments.start(
        t.id, t.version, pairings, [T0 + (p.round + 1) * DAY for p in pairings], T0 + 10)
    assert running is not None
    return running


async def match(store: Storage, t: TournamentRecord, idx: int) -> MatchRecord:
    return (await store.tournaments.matches(t.id))[idx]


async def challenge(store: Storage, m: MatchRecord, by: int, chat: int = CHAT) -> int:
    target = m.player_b if by == m.player_a else m.player_a
    c = await store.challenges.create(chat, None, by, target, None, 50, T0, T0 + 600)
    assert isinstance(c, ChallengeRecord)
    return c.id


async def duel_of(store: Storage, m: MatchRecord, seats: tuple[int, int],
                  chat: int = CHAT) -> int:
    """The match played: a challenge asked, accepted, its duel created and linked, in one
    transaction like the bot's."""
    cid = await challenge(store, m, seats[0], chat)
    assert await store.tournaments.ask(m.tournament_id, m.idx, seats[0], cid)
    async with store.db.transaction():
        duel = await store.duels.create(chat, None, seats, "v0", T0 + 20)
        assert await store.challenges.transition(cid, 0, ChallengeStatus.ACCEPTED, duel.id)
        assert await store.tournaments.link_duel(cid, duel.id)
    return duel.id


async def finish_duel(store: Storage, duel_id: int, seats: tuple[int, int],
                      stacks: tuple[int, int], winner: int | None) -> None:
    r = DuelResult(duel_id=duel_id, chat_id=CHAT, players=seats, final_stacks=stacks,
                   start_stack=50, winner_id=winner, reason=ResultReason.NORMAL,
                   best_hands=(None, None), bonus_chips=(0, 0), bullets=6, finished_at=T0 + 99)
    assert await store.duels.save(duel_id, 0, "end", DuelStatus.FINISHED, now=T0 + 99,
                                  result=r) == 1


# --- opening and sign-up ----------------------------------------------------------------------


async def test_open_seats_the_opener_and_holds_the_topic(store: Storage) -> None:
    t = await store.tournaments.open(CHAT, None, ALICE, 50, True, DAY, T0)
    assert t is not None and t.is_open
    assert t == TournamentRecord(t.id, CHAT, None, ALICE, TournamentStatus.SIGNUP, True, 50,
                                 DAY, 0, None, -1, T0, None, None)
    assert await store.tournaments.get(t.id) == t
    assert await store.tournaments.current(CHAT, None) == t
    assert await store.tournaments.players(t.id) == [ALICE]
    assert await store.tournaments.open(CHAT, None, BOB, 50, False, DAY, T0) is None
    in_topic = await store.tournaments.open(CHAT, TOPIC, BOB, 50, False, DAY, T0)
    elsewhere = await store.tournaments.open(OTHER, None, BOB, 50, False, DAY, T0)
    assert in_topic is not None and elsewhere is not None
    assert await store.tournaments.current(CHAT, TOPIC) == in_topic
    assert await store.tournaments.open(CHAT, TOPIC, CAROL, 50, False, DAY, T0) is None
    assert [x.id for x in await store.tournaments.in_chat(CHAT)] == [t.id, in_topic.id]
    assert await store.tournaments.get(999) is None
    assert await store.tournaments.current(-1, None) is None


async def test_a_cancelled_tournament_frees_the_topic(store: Storage) -> None:
    t = await opened(store)
    assert not await store.tournaments.cancel(t.id, t.version + 1)  # stale
    assert await store.tournaments.cancel(t.id, t.version)
    assert not await store.tournaments.cancel(t.id, t.version + 1)  # not open any more
    gone = await store.tournaments.get(t.id)
    assert gone is not None and gone.status is TournamentStatus.CANCELLED and not gone.is_open
    assert await store.tournaments.current(CHAT, None) is None
    assert await store.tournaments.open(CHAT, None, BOB, 50, False, DAY, T0) is not None


async def test_join_in_seat_order_once_each_up_to_the_maximum(store: Storage) -> None:
    t = await opened(store)
    assert await store.tournaments.join(t.id, BOB)
    assert not await store.tournaments.join(t.id, BOB)
    assert not await store.tournaments.join(t.id, ALICE)
    for user in range(1, MAX_PLAYERS - 1):  # 10 more: 12 in all
        assert await store.tournaments.join(t.id, user)
    assert not await store.tournaments.join(t.id, 13)
    players = await store.tournaments.players(t.id)
    assert players == [ALICE, BOB, *range(1, MAX_PLAYERS - 1)]
    after = await store.tournaments.get(t.id)
    assert after is not None and after.version == MAX_PLAYERS - 1  # one per join
    assert not await store.tournaments.join(999, BOB)


async def test_leave_during_signup_but_not_the_opener(store: Storage) -> None:
    t = await opened(store, BOB, CAROL)
    assert not await store.tournaments.leave(t.id, ALICE)
    assert not await store.tournaments.leave(t.id, DAVE)
    assert await store.tournaments.leave(t.id, BOB)
    assert not await store.tournaments.leave(t.id, BOB)
    assert await store.tournaments.join(t.id, BOB)  # back, at the end
    assert await store.tournaments.players(t.id) == [ALICE, CAROL, BOB]
    after = await store.tournaments.get(t.id)
    assert after is not None and after.version == t.version + 2


# --- the start --------------------------------------------------------------------------------


async def test_start_writes_the_schedule_once(store: Storage) -> None:
    t = await opened(store, BOB, CAROL, DAVE)
    pairings = schedule([ALICE, BOB, CAROL, DAVE])
    due = [T0 + (p.round + 1) * DAY for p in pairings]
    assert await store.tournaments.start(t.id, t.version - 1, pairings, due, T0 + 5) is None
    assert await store.tournaments.matches(t.id) == []
    running = await store.tournaments.start(t.id, t.version, pairings, due, T0 + 5)
    assert running is not None and running.status is TournamentStatus.RUNNING
    assert (running.started_at, running.version) == (T0 + 5, t.version + 1)
    assert await store.tournaments.running() == [running]
    ms = await store.tournaments.matches(t.id)
    assert [m.pairing for m in ms] == list(pairings)
    assert [m.due_at for m in ms] == due
    assert all(m.result() is None and not m.duel_live and m.ready_id is None for m in ms)
    assert await store.tournaments.start(t.id, running.version, pairings, due, T0 + 6) is None
    assert not await store.tournaments.join(t.id, 5)
    assert not await store.tournaments.leave(t.id, BOB)


async def test_start_refuses_pairings_of_another_field(store: Storage) -> None:
    t = await opened(store, BOB, CAROL)
    wrong = schedule([ALICE, BOB, DAVE])
    with pytest.raises(ValueError):
        await store.tournaments.start(t.id, t.version, wrong, [T0] * len(wrong), T0)
    with pytest.raises(ValueError):
        await store.tournaments.start(t.id, t.version, schedule([ALICE, BOB, CAROL]), [T0], T0)
    assert await store.tournaments.get(t.id) == t  # nothing of it written
    assert await store.tournaments.matches(t.id) == []


async def test_finish_only_a_running_tournament_at_its_version(store: Storage) -> None:
    signup = await opened(store, BOB, CAROL, chat=OTHER)
    assert await store.tournaments.finish(signup.id, signup.version, T0) is None
    t = await started(store, BOB, CAROL)
    assert await store.tournaments.finish(t.id, t.version + 1, T0 + 50) is None
    done = await store.tournaments.finish(t.id, t.version, T0 + 50)
    assert done is not None and done.status is TournamentStatus.FINISHED
    assert (done.finished_at, done.version) == (T0 + 50, t.version + 1)
    assert await store.tournaments.current(CHAT, None) is None
    assert await store.tournaments.running() == []
    assert not await store.tournaments.cancel(t.id, done.version)


# --- matches ----------------------------------------------------------------------------------


async def test_ask_remembers_the_first_to_ask_and_one_challenge_at_a_time(
        store: Storage) -> None:
    t = await started(store, BOB, CAROL)
    m = await match(store, t, 0)
    c1 = await challenge(store, m, m.player_b)
    assert not await store.tournaments.ask(t.id, m.idx, DAVE, c1)  # not of the pair
    assert await store.tournaments.ask(t.id, m.idx, m.player_b, c1)
    asked = await match(store, t, 0)
    assert (asked.ready_id, asked.challenge_id) == (m.player_b, c1)
    assert await store.tournaments.match_of_challenge(c1) == asked
    c2 = await challenge(store, m, m.player_a)
    assert not await store.tournaments.ask(t.id, m.idx, m.player_a, c2)  # c1 still pending
    assert await store.tournaments.clear_challenge(t.id, m.idx)
    assert not await store.tournaments.clear_challenge(t.id, m.idx)
    cleared = await match(store, t, 0)
    assert (cleared.ready_id, cleared.challenge_id) == (m.player_b, None)
    assert await store.tournaments.match_of_challenge(c1) is None
    assert await store.tournaments.ask(t.id, m.idx, m.player_a, c2)
    again = await match(store, t, 0)
    assert (again.ready_id, again.challenge_id) == (m.player_b, c2)  # the first one stays
    now = await store.tournaments.get(t.id)
    assert now is not None and now.version == t.version + 3  # ask, clear, ask


async def test_a_linked_duel_decides_the_match_and_refuses_a_walkover(store: Storage) -> None:
    t = await started(store, BOB, CAROL)
    m = await match(store, t, 0)
    seats = (m.player_a, m.player_b)
    duel_id = await duel_of(store, m, seats)
    linked = await store.tournaments.match_of_duel(duel_id)
    assert linked is not None and linked.idx == m.idx and linked.duel_live
    assert linked.result() is None  # still being played
    assert not await store.tournaments.walkover(t.id, m.idx, "a")
    assert not await store.tournaments.link_duel(linked.challenge_id or 0, duel_id + 1)
    assert not await store.tournaments.ask(t.id, m.idx, m.player_a, 1)
    assert not await store.tournaments.clear_challenge(t.id, m.idx)
    await finish_duel(store, duel_id, seats, (80, 20), m.player_a)
    done = await store.tournaments.match_of_duel(duel_id)
    assert done is not None and not done.duel_live
    assert done.result() == Played(m.player_a, {m.player_a: 80, m.player_b: 20}, 50)


async def test_a_result_in_the_other_seat_order_maps_to_a_and_b(store: Storage) -> None:
    t = await started(store, BOB, CAROL)
    m = await match(store, t, 1)
    seats = (m.player_b, m.player_a)  # b challenged and sits in seat 0
    duel_id = await duel_of(store, m, seats)
    await finish_duel(store, duel_id, seats, (35, 65), m.player_a)
    done = await match(store, t, 1)
    assert (done.stack_a, done.stack_b, done.winner_id) == (65, 35, m.player_a)
    assert done.result() == Played(m.player_a, {m.player_a: 65, m.player_b: 35}, 50)
    assert done.ready_id == m.player_b


async def test_a_draw(store: Storage) -> None:
    t = await started(store, BOB, CAROL)
    m = await match(store, t, 2)
    duel_id = await duel_of(store, m, (m.player_b, m.player_a))
    await finish_duel(store, duel_id, (m.player_b, m.player_a), (48, 52), None)
    assert (await match(store, t, 2)).result() == Played(None, {m.player_a: 52,
                                                               m.player_b: 48}, 50)


async def test_link_duel_inside_a_transaction_rolls_back_with_it(store: Storage) -> None:
    t = await started(store, BOB, CAROL)
    m = await match(store, t, 0)
    cid = await challenge(store, m, m.player_a)
    assert await store.tournaments.ask(t.id, m.idx, m.player_a, cid)
    before = await store.tournaments.get(t.id)
    with pytest.raises(Rollback):
        async with store.db.transaction():
            duel = await store.duels.create(CHAT, None, (m.player_a, m.player_b), "v0", T0)
            assert await store.tournaments.link_duel(cid, duel.id)
            assert (await match(store, t, 0)).duel_id == duel.id  # seen inside
            raise Rollback
    assert (await match(store, t, 0)).duel_id is None
    assert await store.tournaments.get(t.id) == before
    assert not await store.tournaments.link_duel(cid + 100, 1)  # no match of that challenge


async def test_walkovers_each_side_and_once(store: Storage) -> None:
    t = await started(store, BOB, CAROL)
    ms = await store.tournaments.matches(t.id)
    with pytest.raises(ValueError):
        await store.tournaments.walkover(t.id, 0, "x")
    for m, side in zip(ms, ("a", "b", "none"), strict=True):
        assert await store.tournaments.walkover(t.id, m.idx, side)
        assert not await store.tournaments.walkover(t.id, m.idx, "a")
    a, b, none = await store.tournaments.matches(t.id)
    assert a.result() == Walkover(a.player_a)
    assert b.result() == Walkover(b.player_b)
    assert none.result() == Walkover(None)
    cid = await challenge(store, a, a.player_a)
    assert not await store.tournaments.ask(t.id, a.idx, a.player_a, cid)
    after = await store.tournaments.get(t.id)
    assert after is not None and after.version == t.version + 3


async def test_no_match_changes_once_the_tournament_is_not_running(store: Storage) -> None:
    t = await started(store, BOB, CAROL)
    m = await match(store, t, 0)
    cid = await challenge(store, m, m.player_a)
    assert await store.tournaments.ask(t.id, m.idx, m.player_a, cid)
    assert await store.tournaments.cancel(t.id, t.version + 1)
    assert not await store.tournaments.walkover(t.id, 1, "a")
    assert not await store.tournaments.clear_challenge(t.id, m.idx)
    duel = await store.duels.create(CHAT, None, (m.player_a, m.player_b), "v0", T0)
    assert not await store.tournaments.link_duel(cid, duel.id)


# --- messages and chats -----------------------------------------------------------------------


async def test_set_message(store: Storage) -> None:
    t = await opened(store)
    await store.tournaments.set_message(t.id, 555, 3)
    after = await store.tournaments.get(t.id)
    assert after is not None and (after.message_id, after.shown, after.version) == (555, 3, 0)


async def test_forget_chat_cancels_its_open_tournaments(store: Storage) -> None:
    signup = await opened(store, BOB)
    running = await started(store, BOB, CAROL, chat=OTHER)
    topic = await store.tournaments.open(CHAT, TOPIC, BOB, 50, False, DAY, T0)
    assert topic is not None
    assert await store.tournaments.forget_chat(CHAT) == 2
    assert await store.tournaments.forget_chat(CHAT) == 0
    assert all(x.status is TournamentStatus.CANCELLED
               for x in await store.tournaments.in_chat(CHAT))
    assert await store.tournaments.running() == [running]
    assert signup.id != running.id


async def test_migrate_chat_moves_tournaments_to_the_supergroup(store: Storage) -> None:
    t = await started(store, BOB, CAROL)
    m = await match(store, t, 0)
    cid = await challenge(store, m, m.player_a)
    assert await store.tournaments.ask(t.id, m.idx, m.player_a, cid)
    await store.tournaments.set_message(t.id, 77, 0)
    new_topic = await store.tournaments.open(NEW, TOPIC, DAVE, 50, False, DAY, T0)
    assert new_topic is not None
    assert await store.tournaments.migrate_chat(CHAT, NEW) == 1
    moved = await store.tournaments.get(t.id)
    assert moved is not None and moved.status is TournamentStatus.RUNNING
    assert (moved.chat_id, moved.message_id, moved.shown) == (NEW, None, -1)
    assert moved.version > t.version
    assert await store.tournaments.current(NEW, None) == moved
    after = await match(store, moved, 0)
    assert (after.challenge_id, after.ready_id) == (None, m.player_a)
    assert await store.tournaments.migrate_chat(CHAT, NEW) == 0  # idempotent
    with pytest.raises(ValueError):
        await store.tournaments.migrate_chat(NEW, NEW)


async def test_migrate_chat_cancels_one_whose_topic_is_taken_there(store: Storage) -> None:
    old = await opened(store)
    there = await store.tournaments.open(NEW, None, DAVE, 50, False, DAY, T0)
    assert there is not None
    assert await store.tournaments.migrate_chat(CHAT, NEW) == 1
    moved = await store.tournaments.get(old.id)
    assert moved is not None and moved.chat_id == NEW
    assert moved.status is TournamentStatus.CANCELLED
    assert await store.tournaments.current(NEW, None) == there
