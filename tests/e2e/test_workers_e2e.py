"""Several bot processes on one PostgreSQL database give the result of one (issue 19).

* Three webhook workers behind the fake's round-robin load balancer (a failed delivery retried
  on the next worker): 20 duels in 5 groups played to the end, one worker killed -9 in the
  middle and restarted. Every press answered once, every acknowledged move kept and none
  applied twice, no message sent twice; a duel left to its short turn timer sees each reminder
  and each timeout once.
* The same three with the bot's own pacing on: each group's sends, edits and deletes stay
  within 20 in any minute across the workers (Telegram's limit is the token's, not a process's).
* A polling pair: the leader killed -9 mid-duel, the standby takes over within 15 s, the duel
  ends normally with nothing handled twice or lost.
* A /settings change through one worker holds for the next update another worker handles.

PostgreSQL only (skipped without `SIXSHOOTER_TEST_POSTGRES`). The figures are printed (-s).
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass, field

from bot.telegram.chatter import REPEAT_WITHIN
from tests.support import audit, stored
from tests.support.driver import (
    TIMEOUT,
    Table,
    actor_user,
    duel_id_of,
    duel_keyboard,
    live_duel_message,
    newest_id,
    open_duel,
    refused_calls,
    tap,
    tiebreak_answer,
    version_of,
)
from tests.support.fakeapi import FakeMessage, FakeTelegramAPI
from tests.support.workers import LaunchWorkers, Workers

GROUPS, DUELS_PER_GROUP = 5, 4
SCALE = 0.05  # turn timers 20 times faster: the 60 s setting lasts 3 s
MACHINE_SPEED = {"SIXSHOOTER_RATE_LIMIT": "off", "SIXSHOOTER_TIME_SCALE": str(SCALE)}
TAKE_OVER = 15.0  # seconds a standby may take to poll after the leader's death
HOLD = 6.0  # seconds a group goes on pressing once its budget is used
TIMED_OUT = 45.0  # seconds a duel nobody plays takes to end on its timers (3 s turns)
# What a kill may legitimately leave: a delete of a message already gone; a press whose
# worker died after answering it, taken over and answered again (Telegram refuses the second
# answer; the first reached the user: `audit.unanswered` checks every press had one), and its
# edits made again ("message is not modified").
ALLOWED = ("message to delete not found", "query is too old", "message is not modified")


def tables(api: FakeTelegramAPI, n: int) -> list[Table]:
    out = []
    for i in range(n):
        a = api.add_user(f"Ann{i}", username=f"ann{i}")  # the group's creator: its admin
        b = api.add_user(f"Ben{i}", username=f"ben{i}", language_code="ru" if i % 2 else "en")
        out.append(Table(api, api.create_group(f"Group {i}", members=[a, b]), (a, b)))
    return out


_LAST_SETTINGS: dict[tuple[int, int], float] = {}  # (fake, chat) -> its admin's last /settings


async def set_setting(api: FakeTelegramAPI, table: Table, data: str) -> None:
    """The group's admin opens /settings and presses `data` (e.g. s:t:60), no sooner than
    REPEAT_WITHIN after their last /settings in that group: a repeat would get no panel."""
    key = (id(api), table.chat.id)
    last = _LAST_SETTINGS.get(key)
    if last is not None:
        await asyncio.sleep(max(0.0, last + REPEAT_WITHIN + 0.2 - time.monotonic()))
    _LAST_SETTINGS[key] = time.monotonic()
    sent = api.send_command(table.players[0], table.chat, "settings")
    panel = await api.wait_for_message(table.chat, lambda m: data in m.callback_data(),
                                       after_message_id=sent.message_id, timeout=TIMEOUT)
    answer = await api.wait_for_answer(api.press_button(table.players[0], panel, data),
                                       timeout=TIMEOUT)
    assert answer.text in ("Saved.", "Сохранено."), answer.text


@dataclass
class Tally:
    taps: dict[int, int] = field(default_factory=dict)  # duel id -> presses accepted
    total: int = 0
    stale: list[str] = field(default_factory=list)  # presses refused as stale (see play_on)


async def play_out(api: FakeTelegramAPI, table: Table, rng: random.Random,
                   tally: Tally) -> int:
    """One duel opened and played to its end (declining tiebreaks); returns its id."""
    first = await open_duel(api, table)
    duel = duel_id_of(first)
    await play_on(api, table, rng, tally, duel)
    return duel


async def play_on(api: FakeTelegramAPI, table: Table, rng: random.Random, tally: Tally,
                  duel: int) -> None:
    """Play the chat's live duel to its end. A press refused as stale is not a move: a worker
    killed between sending a table and recording it leaves that table behind, not the duel's
    (its buttons are refused as stale), and the live one is sent anew; the player presses
    that. The test bounds such refusals by the kills (one per chat busy on the killed worker)."""
    tally.taps.setdefault(duel, 0)
    while (m := live_duel_message(api, table.chat)) is not None:
        answer = tiebreak_answer(table, m)
        user, data = answer or (actor_user(table, m), rng.choice(duel_keyboard(m)))
        toast = await tap(api, user, m, data)
        if toast is not None:
            tally.stale.append(f"duel {duel}: {toast}")

            def anew(left_behind: FakeMessage = m) -> bool:
                return live_duel_message(api, table.chat) is not left_behind

            await api.wait_for(anew, TIMEOUT, f"duel {duel}: its live table anew")
            continue
        tally.taps[duel] += 1
        tally.total += 1
        assert tally.taps[duel] < 40, f"duel {duel} does not end"


def first_lines(api: FakeTelegramAPI, table: Table, word: str, after: int) -> list[FakeMessage]:
    return [m for m in api.bot_messages(table.chat, include_deleted=True)
            if m.message_id > after and word in (m.content_text or "").split("\n")[0]]


async def left_to_the_clock(api: FakeTelegramAPI, table: Table) -> tuple[int, int, int]:
    """A duel with a 3 s turn timer that nobody plays: each turn is reminded once at half time
    and times out once (a pass for the player), the second timeout in a row losing the duel.
    Returns (its id, reminders, timeouts), each reminder and timeout checked to be of a turn
    of its own (the version its buttons carry)."""
    await set_setting(api, table, "s:t:60")
    first = await open_duel(api, table)
    await api.wait_for_message(table.chat, lambda m: "wins the duel" in (m.caption or ""),
                               after_message_id=first.message_id, timeout=TIMED_OUT)
    reminders = first_lines(api, table, "your move", first.message_id)
    timeouts = first_lines(api, table, "ran out of time", first.message_id)
    turns = [version_of(m) for m in reminders]
    assert len(set(turns)) == len(turns), f"a turn reminded twice: {turns}"
    passed = [version_of(m) for m in timeouts[:-1]]  # the last is the result: no buttons
    assert passed == [v + 1 for v in turns[:-1]], f"timeouts {passed} after reminders {turns}"
    return duel_id_of(first), len(reminders), len(timeouts)


async def kill_in_the_middle(workers: Workers, tally: Tally, at: int, victim: int) -> float:
    """Once `at` presses are accepted, kill -9 one worker and start it again; returns when."""
    while tally.total < at:
        await asyncio.sleep(0.05)
    killed = time.monotonic()
    await workers.kill(victim)
    await asyncio.sleep(0.5)  # the load balancer meets a refused connection meanwhile
    await workers.start_one(victim)
    return killed


async def test_three_webhook_workers_play_twenty_duels_through_a_kill(
        fake_api: FakeTelegramAPI, launch_workers: LaunchWorkers,
        postgres_database: str) -> None:
    workers = await launch_workers(postgres_database, 3, env=MACHINE_SPEED)
    groups = tables(fake_api, GROUPS)
    rng, tally = random.Random(19), Tally()
    t0 = time.monotonic()

    async def group(i: int, table: Table) -> list[int]:
        await set_setting(fake_api, table, "s:t:0")  # machine speed: no timer in the way
        played = [await play_out(fake_api, table, random.Random(rng.random()), tally)
                  for _ in range(DUELS_PER_GROUP - (i == 0))]
        print(f"[workers] group {i}: {len(played)} duels played in "
              f"{time.monotonic() - t0:.1f} s")
        if i == 0:  # its last duel is left to the clock
            timed = await left_to_the_clock(fake_api, table)
            played.append(timed[0])
            clock.append(timed)
        return played

    clock: list[tuple[int, int, int]] = []
    kill = asyncio.ensure_future(kill_in_the_middle(workers, tally, at=60, victim=1))
    duels = [d for ds in await asyncio.gather(*(group(i, t) for i, t in enumerate(groups)))
             for d in ds]
    await kill
    wall = time.monotonic() - t0

    assert len(set(duels)) == GROUPS * DUELS_PER_GROUP
    storage = await workers.storage()
    for duel in tally.taps:
        record = await stored.settled(storage, duel)
        assert record.status == "finished", f"duel {duel} is still live"
        assert stored.actions(record) == tally.taps[duel], (
            f"duel {duel}: {tally.taps[duel]} presses accepted, {stored.actions(record)} "
            "actions saved (one lost, or one applied twice)")
    timed, reminders, timeouts = clock[0]
    assert reminders == timeouts == 3, (reminders, timeouts)  # A, B, then A twice in a row
    assert (await stored.duel(storage, timed)).status == "finished"
    assert audit.unanswered(fake_api) == []
    # A kill between a send and its record makes the bot send the live table again (it cannot
    # know the first reached Telegram): at most once per chat busy on the killed worker, and
    # only a live table, never a result, a challenge or a reply.
    resent = audit.sent_twice(fake_api)
    assert len(resent) <= GROUPS * workers.kills, resent
    assert all(", buttons d:" in x for x in resent), resent
    assert refused_calls(fake_api, allow=ALLOWED) == []
    assert len(tally.stale) <= GROUPS * workers.kills, tally.stale
    assert workers.kills == 1 and sum(not d.ok for d in fake_api.deliveries) >= 1
    refused_secret = [d.summary() for d in fake_api.deliveries if d.status == 403]
    assert not refused_secret, f"workers disagree on the generated secret: {refused_secret[:3]}"

    rates = audit.group_rates(fake_api)
    print(f"\n[workers] 3 webhook workers, {len(duels)} duels in {GROUPS} groups in {wall:.1f} s: "
          f"{tally.total} moves, {workers.kills} kill -9 (restarted), "
          f"{sum(not d.ok for d in fake_api.deliveries)} failed deliveries retried, "
          f"each to one result; timers fired: {reminders} reminders, {timeouts} timeouts, "
          f"each once; {len(resent)} live table(s) sent again after the kill, "
          f"{len(tally.stale)} press(es) on a table left behind refused as stale; max per-group "
          f"calls in a minute (pacing off): {max(rates.values())}")


async def test_three_workers_keep_each_groups_budget_together(
        fake_api: FakeTelegramAPI, launch_workers: LaunchWorkers,
        postgres_database: str) -> None:
    fake_api.enable_flood_control(per_group_per_minute=audit.GROUP_PER_MINUTE)
    await launch_workers(postgres_database, 3, env={"SIXSHOOTER_TIME_SCALE": "10"})
    groups = tables(fake_api, 2)
    since = fake_api.last_seq
    rng, taps = random.Random(7), [0]
    end = asyncio.get_running_loop().time() + 25.0

    async def hurry(table: Table) -> None:
        """Press as soon as there is a live message, whatever the pace, until the group has
        used its whole budget and HOLD seconds more (a worker with a budget of its own would
        send meanwhile), or for 25 s at most."""
        await open_duel(fake_api, table)
        loop = asyncio.get_running_loop()
        deadline = end
        while loop.time() < deadline:
            m = live_duel_message(fake_api, table.chat)
            if m is None:
                return
            answer = tiebreak_answer(table, m)
            user, data = answer or (actor_user(table, m), rng.choice(duel_keyboard(m)))
            last = newest_id(fake_api, table.chat)
            query = fake_api.press_button(user, m, data)
            await fake_api.wait_for_answer(query, timeout=TIMEOUT)
            taps[0] += 1
            used = audit.group_rates(fake_api, since).get(table.chat.id, 0)
            if used >= audit.GROUP_PER_MINUTE and deadline == end:
                deadline = min(end, loop.time() + HOLD)
            try:
                await fake_api.wait_for_message(table.chat, lambda x: bool(duel_keyboard(x)),
                                                after_message_id=last,
                                                timeout=max(0.1, deadline - loop.time()))
            except TimeoutError:
                return

    await asyncio.gather(*(hurry(t) for t in groups))
    rates = audit.group_rates(fake_api, since)
    flood = [r for r in fake_api.requests if r.status == 429]
    print(f"\n[workers] pacing on, 3 workers, 2 groups pressed flat out until each used its "
          f"budget and {HOLD:g} s more: {taps[0]} "
          f"presses, max per-group sends+edits+deletes in any minute: {rates}, 429s: "
          f"{len(flood)}")
    assert max(rates.values()) <= audit.GROUP_PER_MINUTE, rates
    assert not flood, [r.summary() for r in flood]
    assert min(rates.values()) >= audit.GROUP_PER_MINUTE * 3 // 4  # the demand filled it
    assert audit.unanswered(fake_api) == []


async def test_a_standby_takes_over_when_the_leader_dies(
        fake_api: FakeTelegramAPI, launch_workers: LaunchWorkers,
        postgres_database: str) -> None:
    workers = await launch_workers(postgres_database, 2, webhook=False, env=MACHINE_SPEED)
    await asyncio.sleep(2.0)  # long enough for a second poller to show itself
    polled = workers.pollers()
    leaders = set(polled) - {None}
    assert len(leaders) == 1, f"getUpdates by workers {polled}: exactly one must poll"
    leader = leaders.pop()
    assert leader is not None
    [table] = tables(fake_api, 1)
    await set_setting(fake_api, table, "s:t:0")
    first = await open_duel(fake_api, table)
    duel, rng, taps = duel_id_of(first), random.Random(3), 0
    for _ in range(4):
        m = live_duel_message(fake_api, table.chat)
        assert m is not None
        assert await tap(fake_api, actor_user(table, m), m, rng.choice(duel_keyboard(m))) is None
        taps += 1
    m = live_duel_message(fake_api, table.chat)
    assert m is not None
    query = fake_api.press_button(actor_user(table, m), m, rng.choice(duel_keyboard(m)))
    await fake_api.wait_for_answer(query, timeout=TIMEOUT)
    since = fake_api.last_seq
    killed = time.monotonic()
    await workers.kill(leader)  # right after the press: its table may not be drawn yet
    taps += 1
    standby, _ = await workers.wait_poller(since=since, timeout=TAKE_OVER + 5)
    took = time.monotonic() - killed
    assert standby != leader
    assert took < TAKE_OVER, f"the standby took {took:.1f} s to poll"
    storage = await workers.storage()
    await stored.settled(storage, duel)
    tally = Tally()
    await play_on(fake_api, table, rng, tally, duel)
    taps += tally.taps[duel]
    assert len(tally.stale) <= 2, tally.stale
    record = await stored.settled(storage, duel)
    assert record.status == "finished" and stored.actions(record) == taps
    assert audit.unanswered(fake_api) == []
    resent = audit.sent_twice(fake_api)
    assert len(resent) <= 1 and all(", buttons d:" in x for x in resent), resent
    assert refused_calls(fake_api, allow=ALLOWED) == []
    assert set(workers.pollers(since)) - {None} == {standby}
    print(f"\n[workers] polling pair: the leader killed -9 mid-duel, the standby polled "
          f"{took:.1f} s later; the duel ended after {taps} moves, each applied once")


async def test_a_settings_change_on_one_worker_holds_on_the_others(
        fake_api: FakeTelegramAPI, launch_workers: LaunchWorkers,
        postgres_database: str) -> None:
    # A configured secret: the generated one is the twenty-duel test's concern.
    secret = {"SIXSHOOTER_WEBHOOK_SECRET": "the-same-secret_on-every-worker"}
    workers = await launch_workers(postgres_database, 3, env=MACHINE_SPEED | secret,
                                   connections=1)
    [table] = tables(fake_api, 1)
    members = [fake_api.add_user(f"Member{i}") for i in range(12)]  # a member's repeat: dropped
    for member in members:
        fake_api.add_member(table.chat, member)

    async def rules() -> tuple[str, str]:
        """/rules from the next member: (the reply's text, the worker that handled it)."""
        sent = fake_api.send_command(members.pop(), table.chat, "rules")
        reply = await fake_api.wait_for_message(
            table.chat, lambda m: m.reply_to is not None
            and m.reply_to.message_id == sent.message_id,
            after_message_id=sent.message_id, timeout=TIMEOUT)
        return reply.text or "", await handled_by(fake_api, sent.update_id)

    before: list[tuple[str, str]] = []
    while {w for _, w in before} != set(workers.targets):  # each worker reads the settings
        assert len(before) < 6, [d.summary() for d in fake_api.deliveries]
        before.append(await rules())
    assert all("the same stack" in text for text, _ in before), before[0][0][:200]
    for language, phrase in (("ru", "одинаковый стек"), ("en", "the same stack")):
        await set_setting(fake_api, table, f"s:l:{language}")
        changed_on = await handled_by(fake_api, fake_api.all_updates[-1]["update_id"])
        after = [await rules() for _ in range(3)]
        assert {w for _, w in after} - {changed_on}, "no other worker was asked"
        for text, worker in after:
            assert phrase in text, f"{worker} did not see the change made on {changed_on}"


async def handled_by(api: FakeTelegramAPI, update_id: int | None) -> str:
    """The worker whose answer acknowledged the update (its delivery's target)."""
    await api.wait_for(lambda: any(d.update_id == update_id and d.ok for d in api.deliveries),
                       TIMEOUT, f"update {update_id} acknowledged")
    ok = [d.target for d in api.deliveries if d.update_id == update_id and d.ok]
    assert len(ok) == 1, f"update {update_id} acknowledged {len(ok)} times"
    return ok[0]
