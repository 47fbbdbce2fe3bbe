"""A failover mid-duel, on servers of the test's own (`tests/support/clusters.py`): a primary
and its synchronous standby. The bot plays a duel on the primary; the primary crashes (an
immediate stop), the standby is promoted a moment later, and the duel plays on, on the new
primary: every press answered (the apology is an answer), every move acknowledged before the
crash still there, the first move after the crash within `FIRST_MOVE` seconds, the poller
leading again (its lock taken anew, or its lease held on the new primary), the duel ending
with one result, and the URL's password in no log line.

Each way of reaching the primary of the moment is a `Route`: the multi-host URL (libpq's
form, `target_session_attrs=read-write`), and a PgBouncer in transaction mode in front of the
primary (`?pooler=transaction`: the poller holds a lease row), its `moved` pointing it at the
new primary after the promotion.
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass

import asyncpg
import pytest

from bot.storage import DuelStatus
from tests.support import pgbouncer, stored
from tests.support.botprocess import BotProcess, LaunchBot
from tests.support.clusters import USER, Pair, replicated_pair
from tests.support.driver import (
    APOLOGY,
    Table,
    actor_user,
    duel_id_of,
    duel_keyboard,
    finish,
    live_duel,
    move,
    new_table,
    open_duel,
    refused_calls,
    tap_refusable,
)
from tests.support.fakeapi import FakeTelegramAPI
from tests.support.pgbouncer import PgBouncer

FIRST_MOVE = 15.0  # seconds from the crash to the first move the new primary takes
PROMOTE_AFTER = 1.0  # seconds the primary is gone before the standby is promoted
BEFORE = 3  # moves played (and acknowledged) before the crash
LEADS = "polling Telegram: this process leads"  # the poller's log line when it takes the lead
PASSWORD = "pw-failover-never-logged-7a2b"  # the servers trust local users: any password works


class Route:
    """How the bot reaches the primary of the moment (one per test: `close` ends it)."""

    name = "multi-host URL"
    lead = "the poller's lead taken again"  # what `led_again` waits for, as printed

    def url(self, pair: Pair) -> str:
        """Both servers in one URL; asyncpg finds the one that takes writes."""
        return pair.url("postgres", password=PASSWORD, attrs="read-write")

    async def moved(self, pair: Pair) -> None:
        """The standby was promoted: nothing to point anywhere, the URL lists it."""

    async def led_again(self, bot: BotProcess, pair: Pair, before: int) -> float:
        """When the poller leads on the new primary (called at the loss): the bot's log
        shows a lead taken after the `before` it had (the advisory lock went with the
        crashed primary's connection)."""
        loop = asyncio.get_running_loop()
        while bot.log().count(LEADS) <= before:
            await asyncio.sleep(0.05)
        return loop.time()

    def close(self) -> None:
        pass


class Pooled(Route):
    """A PgBouncer in transaction mode in front of the primary, moved to the new one as an
    operator's failover would (its config rewritten, RELOAD and RECONNECT)."""

    name = "PgBouncer"
    lead = "the poller's lease held on the new primary"

    def __init__(self) -> None:
        if pgbouncer.binary() is None:  # before the servers are built
            pytest.skip(pgbouncer.HOW)
        self.bouncer: PgBouncer | None = None

    def url(self, pair: Pair) -> str:
        self.bouncer = PgBouncer(pair.direct(pair.primary)).start()
        return (f"postgresql://{USER}:{PASSWORD}@127.0.0.1:{self.bouncer.port}/postgres"
                "?pooler=transaction")

    async def moved(self, pair: Pair) -> None:
        assert self.bouncer is not None
        await self.bouncer.retarget(pair.standby.port)

    async def led_again(self, bot: BotProcess, pair: Pair, before: int) -> float:
        """The lease row outlives the crash (the standby has every acknowledged renewal):
        its holder either renews it on the new primary or, if a renewal fell in the outage,
        gives it up and takes it again. Either way the row's end moves past the one the
        standby had at the loss: then the poller leads there."""
        loop = asyncio.get_running_loop()
        at_loss: float | None = None
        while True:
            conn = await asyncpg.connect(pair.direct(pair.standby))
            try:
                until = await conn.fetchval(
                    "SELECT max(until) FROM leases WHERE name LIKE 'sixshooter:poller:%'")
            finally:
                await conn.close()
            if at_loss is None:
                assert until is not None, "no poller's lease on the standby"
                at_loss = until
            elif until is not None and until > at_loss:
                return loop.time()
            await asyncio.sleep(0.05)

    def close(self) -> None:
        if self.bouncer is not None:
            self.bouncer.stop()


ROUTES: list[type[Route]] = [Route, Pooled]
# How the primary is lost: it crashes (its connections cut, the poller's lock with them), or
# it stays up and takes no writes any more, as one demoted in place (its connections kept:
# the bot's must be dropped when a write is refused, or the pool keeps them).
LOSSES = ("crash", "read-only")


@dataclass
class Failover:
    first_move: float  # seconds from the loss to the first move taken
    refused: int  # presses answered with the apology meanwhile
    takeover: float | None  # seconds from the loss to the poller's new lead (a crash)


async def fail_over(api: FakeTelegramAPI, bot: BotProcess, pair: Pair, route: Route,
                    loss: str, table: Table, rng: random.Random) -> Failover:
    """Lose the primary (`loss`), promote the standby `PROMOTE_AFTER` s later, and press the
    live duel's buttons from the loss on until a press is taken."""
    loop = asyncio.get_running_loop()
    leads = bot.log().count(LEADS)
    await (pair.crash_primary() if loss == "crash" else pair.read_only_primary())
    crash = loop.time()
    lead = asyncio.create_task(route.led_again(bot, pair, leads))

    async def press_until_taken() -> tuple[float, int]:
        refused = 0
        while True:
            live = live_duel(api, table.chat)
            answer = await tap_refusable(api, actor_user(table, live), live,
                                         rng.choice(duel_keyboard(live)), bot.log)
            if answer is None:
                return loop.time() - crash, refused
            assert answer == APOLOGY, f"a press after the crash was answered {answer!r}"
            refused += 1
            assert loop.time() - crash < FIRST_MOVE, f"no move taken {FIRST_MOVE} s after"
            await asyncio.sleep(0.2)

    presses = asyncio.create_task(press_until_taken())
    try:
        await asyncio.sleep(PROMOTE_AFTER)
        await pair.promote()
        await route.moved(pair)
        first_move, refused = await presses
        if loss != "crash":  # its lock's connection lives on: no new election
            return Failover(first_move, refused, None)
        async with asyncio.timeout(FIRST_MOVE):
            taken = await lead
    finally:
        for task in (presses, lead):
            task.cancel()
    return Failover(first_move, refused, taken - crash)


@pytest.mark.parametrize("loss", LOSSES)
@pytest.mark.parametrize("kind", ROUTES, ids=[r.name for r in ROUTES])
async def test_a_duel_goes_on_after_the_primary_is_lost_and_the_standby_promoted(
        kind: type[Route], loss: str, fake_api: FakeTelegramAPI, launch_bot: LaunchBot,
        record_property: pytest.RecordProperty) -> None:
    route = kind()
    async with replicated_pair() as pair:
        try:
            await _play_through_a_failover(route, loss, pair, fake_api, launch_bot,
                                           record_property)
        except BaseException:
            print(pair.logs())  # the servers' side, in the failed test's report
            raise
        finally:
            route.close()


async def _play_through_a_failover(route: Route, loss: str, pair: Pair, api: FakeTelegramAPI,
                                   launch_bot: LaunchBot,
                                   record_property: pytest.RecordProperty) -> None:
    # At DEBUG, with a password in the URL: no log line may carry it, the failover's included.
    bot = await launch_bot(db_path=route.url(pair), env={"SIXSHOOTER_LOG_LEVEL": "DEBUG",
                                                         "SIXSHOOTER_RATE_LIMIT": "off"})
    assert bot.log().count(LEADS) == 1
    table, _ = new_table(api)
    duel_id = duel_id_of(await open_duel(api, table))
    rng = random.Random(37)
    for _ in range(BEFORE):
        await move(api, table, rng)  # each acknowledged: the standby has it (synchronous)

    figures = await fail_over(api, bot, pair, route, loss, table, rng)
    lead = ("" if figures.takeover is None else
            f", {route.lead} {figures.takeover:.2f} s after it")
    print(f"failover ({loss}) through the {route.name}: first move {figures.first_move:.2f} s "
          f"after the loss, {figures.refused} presses refused meanwhile{lead}")
    for name, value in vars(figures).items():
        record_property(name, value)
    assert figures.first_move < FIRST_MOVE
    storage = await bot.storage()  # on the new primary, through the same URL
    # The moves acknowledged before the crash are there, the one after it on top of them.
    assert (await stored.duel(storage, duel_id)).version == BEFORE + 1

    taps = BEFORE + 1 + await finish(api, table, rng)
    row = await stored.settled(storage, duel_id)
    # Every acknowledged move is there, each once: none lost to the crash, none applied twice.
    assert (row.version, row.status, row.shown_version) == (taps, DuelStatus.FINISHED, taps)
    assert stored.actions(row) == taps
    assert len(await storage.results.for_chat(table.chat.id)) == 1
    assert bot.running, "the bot died with its primary"
    assert PASSWORD not in bot.log() and "***@127.0.0.1" in bot.log()
    if loss == "read-only":  # the refused write dropped the pool's connections to it
        assert "read-only transaction: dropping its connections" in bot.log()
    assert not refused_calls(api, allow=("message is not modified",))
    await bot.kill()
    await bot.close_storage()
