"""With finished duels piling up, the tables that are not history return to their size (issue
36): two days of duels played through the repositories, then two more, leave the inbox, the
due rows, the flood windows, the janitor's journal, the turn timers and the unaccepted
challenges as they were after the first two, while the history (duels, results, accepted
challenges: what /verify, /stats and the duels' headers read) doubled. Each is pruned as the
bot prunes it: the inbox by the intake's sweep, the flood windows by the shared window's
takes, settled challenges by the next challenge made, timers and due rows as their duel ends.
"""

from __future__ import annotations

from bot.storage import (
    ChallengeRecord,
    ChallengeStatus,
    ChatMessage,
    DuelResult,
    DuelStatus,
    Incoming,
    ResultReason,
    Storage,
    TimerRecord,
)
from bot.storage.challenges import KEEP_SETTLED
from bot.storage.inbox import KEEP_DONE
from bot.telegram.flood import DatabaseWindow
from rules.tournament import schedule

T0 = 1_700_000_000
EVERY = 7200  # seconds between two challenges
PHASE = 24  # challenges a phase: two days, every kind of ending six times
ALICE, BOB = 101, 202
CHATS = (-100123, -100124, -100125)
OTHERS = ("inbox", "due_jobs", "flood_windows", "pending_deletes", "turn_timers")
HISTORY = ("duels", "results", "deals", "duel_messages")


async def count(store: Storage, sql: str) -> int:
    row = await store.db.fetchone(sql)
    assert row is not None
    return int(row[0])


async def sizes(store: Storage) -> dict[str, int]:
    found = {t: await count(store, f"SELECT count(*) FROM {t}") for t in (*OTHERS, *HISTORY)}
    found["challenges unaccepted"] = await count(
        store, "SELECT count(*) FROM challenges WHERE status <> 'accepted'")
    found["challenges pending"] = await count(
        store, "SELECT count(*) FROM challenges WHERE status = 'pending'")
    found["challenges accepted"] = await count(
        store, "SELECT count(*) FROM challenges WHERE status = 'accepted'")
    return found


class Bot:
    """What the bot does to the rows, at times it is told."""

    def __init__(self, store: Storage) -> None:
        self.store, self.now = store, float(T0)
        self.window = DatabaseWindow(store.flood, clock=lambda: self.now)
        self.updates = 0

    async def update(self) -> None:
        """An update in, handled, and the intake's sweep (it prunes every few minutes)."""
        self.updates += 1
        inbox = self.store.inbox
        await inbox.save([Incoming(self.updates, "{}")], owner="w", now=self.now,
                         lease_until=self.now + 10)
        await self.window.take(f"chat:{CHATS[self.updates % 3]}", 20, 60.0)
        await inbox.done(self.updates, now=self.now)
        await inbox.prune(now=self.now)

    async def run_due(self) -> None:
        """The due rows that are due, run and crossed off (a challenge's expiry expires it)."""
        s = self.store
        for job in await s.jobs.claim("w", self.now, 30.0, 100):
            if job.kind == "challenge.expire":
                c = await s.challenges.get(int(job.key))
                if c is not None and c.is_pending:
                    await s.challenges.transition(c.id, c.version, ChallengeStatus.EXPIRED)
            assert await s.jobs.finish(job)

    async def duel(self, c: ChallengeRecord, i: int) -> None:
        """Accepted: a duel played to its end with its timer, its messages and its deletes."""
        s, t = self.store, int(self.now)
        async with s.transaction():
            duel = await s.duels.create(c.chat_id, None, (ALICE, BOB), "{}", t)
            assert await s.challenges.transition(c.id, 0, ChallengeStatus.ACCEPTED, duel.id)
        await s.timers.put(TimerRecord(duel.id, 0, 60, t + 30.0, t + 60.0, False, (0, 0)))
        await s.jobs.schedule("turn", str(duel.id), t + 30.0, {"version": 0})
        await s.deletes.add([(c.chat_id, 10 * i), (c.chat_id, 10 * i + 1)])
        await self.update()
        await s.deletes.drop([(c.chat_id, 10 * i), (c.chat_id, 10 * i + 1)])  # deleted
        result = DuelResult(duel.id, c.chat_id, (ALICE, BOB), (70, 30), 50, ALICE,
                            ResultReason.NORMAL, (5000, None), (0, 0), 6, t + 100)
        assert await s.duels.save(duel.id, 0, "{}", DuelStatus.FINISHED, now=t + 100,
                                  result=result) == 1
        await s.jobs.cancel("turn", str(duel.id))  # what arming a duel that is over does
        await s.timers.delete(duel.id)
        assert await s.duels.set_message(duel.id, ChatMessage(c.chat_id, 10 * i + 2), 1)
        await s.duels.note_message(c.chat_id, 10 * i + 2, duel.id, "result")

    async def play(self, first: int, n: int) -> None:
        s = self.store
        for i in range(first, first + n):
            self.now = float(T0 + i * EVERY)
            chat, t = CHATS[i % 3], int(self.now)
            c = await s.challenges.create(chat, None, ALICE, BOB, None, 40, t, t + 300)
            assert isinstance(c, ChallengeRecord)
            await s.challenges.set_message(c.id, 10 * i + 3)
            await s.jobs.schedule("challenge.expire", str(c.id), t + 300.0)
            await self.update()
            ending = i % 4
            if ending == 0:
                await self.duel(c, i)
            elif ending in (1, 2):
                status = ChallengeStatus.DECLINED if ending == 1 else ChallengeStatus.CANCELLED
                assert await s.challenges.transition(c.id, 0, status)
            self.now += 600  # its expiry (ending 3) and every other row due by then
            await self.run_due()
            await self.update()


async def test_only_history_grows_with_finished_duels(store: Storage) -> None:
    bot = Bot(store)
    await bot.play(0, PHASE)
    first = await sizes(store)
    assert first["duels"] == first["results"] == first["challenges accepted"] == PHASE // 4
    assert first["due_jobs"] == first["pending_deletes"] == first["turn_timers"] == 0
    assert first["challenges pending"] == 0
    await bot.play(PHASE, PHASE)
    second = await sizes(store)
    for table in HISTORY:
        assert second[table] == 2 * first[table], table
    assert second["challenges accepted"] == 2 * first["challenges accepted"]
    grown = {k: (first[k], second[k]) for k in (*OTHERS, "challenges unaccepted",
                                                 "challenges pending")
             if first[k] != second[k]}
    assert grown == {}
    # A day's worth: the updates of a day (at most three a challenge), and of unaccepted
    # challenges.
    assert 0 < first["inbox"] <= 3 * KEEP_DONE // EVERY + 1
    assert 0 < first["challenges unaccepted"] <= PHASE // 2


async def test_settled_challenges_go_a_day_after_their_expiry_unless_a_match_names_them(
        store: Storage) -> None:
    made = []
    for n, status in enumerate((ChallengeStatus.DECLINED, ChallengeStatus.CANCELLED,
                                ChallengeStatus.EXPIRED, None)):
        c = await store.challenges.create(CHATS[0], None, ALICE + n, BOB, None, 40, T0, T0 + 300)
        assert isinstance(c, ChallengeRecord)
        if status is not None:
            assert await store.challenges.transition(c.id, 0, status)
        made.append(c.id)
    async with store.transaction():  # an accepted one stays with its duel, whenever
        duel = await store.duels.create(CHATS[0], None, (ALICE, BOB), "{}", T0)
        accepted = await store.challenges.create(CHATS[0], None, 999, BOB, None, 40, T0,
                                                 T0 + 300)
        assert isinstance(accepted, ChallengeRecord)
        assert await store.challenges.transition(accepted.id, 0, ChallengeStatus.ACCEPTED,
                                                 duel.id)
    # A running tournament's match that still names its declined challenge keeps it.
    t = await store.tournaments.open(CHATS[1], None, ALICE, 50, False, 86_400, T0)
    assert t is not None
    for player in (BOB, 303):
        assert await store.tournaments.join(t.id, player)
    signed = await store.tournaments.get(t.id)
    assert signed is not None
    pairings = schedule(await store.tournaments.players(t.id))
    assert await store.tournaments.start(t.id, signed.version, pairings,
                                         [T0 + 86_400] * len(pairings), T0)
    first = (await store.tournaments.matches(t.id))[0]
    named = await store.challenges.create(CHATS[1], None, first.player_a, first.player_b,
                                          None, 50, T0, T0 + 300)
    assert isinstance(named, ChallengeRecord)
    assert await store.tournaments.ask(t.id, 0, first.player_a, named.id)
    assert await store.challenges.transition(named.id, 0, ChallengeStatus.DECLINED)
    assert await store.challenges.prune(before=T0 + 300) == 0  # not a day past yet
    assert await store.challenges.prune(before=T0 + 301 + KEEP_SETTLED) == 3
    assert [await store.challenges.get(i) is not None for i in made] == [
        False, False, False, True]  # the pending one stays (its expiry settles it)
    assert await store.challenges.get(named.id) is not None
    assert await store.challenges.get(accepted.id) is not None
    assert (await store.challenges.of_duel(duel.id)) == await store.challenges.get(accepted.id)
