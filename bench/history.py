"""What a group's past costs /stats: the real bot on a database with years of finished duels.

    python bench/history.py [--sizes 1000,10000,100000] [--rounds 2] [--repeat 3]
                            [--against CHECKOUT] [--db postgresql://...] [--startup N]

For each size N, seeds a database once (bench/history_seed.py, through the bot's repositories:
N finished duels in one group among 12 players over two years, each with its deals, result and
ratings as the bot writes them; one of the players also has duels in 199 more groups), then for
each run copies it (SQLite: the file; PostgreSQL: CREATE DATABASE ... TEMPLATE), starts the
real `sixshooter` bot on the copy against the fake Bot API in this process
(SIXSHOOTER_RATE_LIMIT=off, as bench/bot_load.py) and times, `--repeat` times each, from the
command sent to the bot's answer arriving at the fake: `/stats` in the group (the season's
board), `/stats @player` (another player's card: head-to-head and rating chart), `/stats` in
private of the player with duels in 200 groups, `/history` in the group; the bot process's CPU
for each (/proc/PID/stat, in clock ticks of 10 ms; on PostgreSQL its backends' for the database
after a +); a press in another group's live duel sent while a `/stats` is under way (half the
board's median time after it: its answer's latency, beside a press alone: is it held up?); the
bot's start-up (process start to its first getUpdates: a tree newer than the seeding code
migrates the copy then); the bytes a finished duel takes in the database (the growth of the
file, or of pg_database_size, over the seeded duels). A tournament table reads no results
today: it is not measured (n/a).

`--against CHECKOUT` runs the bot of another checkout too, alternating with this tree's, and
seeds with that checkout's code (taken for the older schema: this tree's bot migrates it at
start; `--seed-with CHECKOUT` says otherwise). `--db URL` (a PostgreSQL admin URL, a user who
may create databases) adds PostgreSQL runs beside SQLite; the bench creates and drops its
databases. Each request is another member's (the bot drops a member's repeat within
seconds); the private one carries an ignored word for that. `--startup N` only times the
start-up, on N duels (a million takes a while to seed: the time is printed), twice: on the
fresh copy (a tree newer than the seeding code migrates it then) and again on the same copy,
once migrated. Prints a table
per size and engine, this tree beside the other, and each size against the smallest; asserts
nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.load_fake import TimedFake  # noqa: E402
from bench.load_procs import bot_command, has_postgres, proc_stat  # noqa: E402
from bench.pg_usage import process_cpu  # noqa: E402
from tests.support.botprocess import BotProcess  # noqa: E402
from tests.support.databases import drop_database, with_database  # noqa: E402
from tests.support.driver import Table, actor, duel_keyboard, live_duel_message  # noqa: E402
from tests.support.fakeapi import BOT_TOKEN  # noqa: E402
from tests.support.fakeapi.model import FakeChat, FakeMessage, FakeUser  # noqa: E402

SEED = ROOT / "bench" / "history_seed.py"
# the seeding's people and chats (bench/history_seed.py; copied: it runs with another tree's
# code, this process with this tree's)
MAIN, SIDE, PRIVATE = -4242, -4343, 1001
PLAYERS = tuple(range(1001, 1013))
NAMES = ("Ann", "Ben", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lou")
SIDE_PLAYERS = (9001, 9002)
KINDS = ("board", "card", "private", "history")
ROWS = (*KINDS, "tournament", "press during /stats", "press alone")
NA = "n/a"


@dataclass
class Seeded:
    """One size's seeded database on one engine."""

    engine: str
    size: int
    where: str  # the SQLite file, or the PostgreSQL database's URL (a template)
    seconds: float
    duels: int
    bytes_per_duel: float


@dataclass
class Run:
    """One run's figures: per request kind, the seconds and the bot's CPU seconds of each."""

    tree: str
    engine: str
    size: int
    startup: float = 0.0
    again: float | None = None  # the start-up on the same copy once it is migrated
    times: dict[str, list[float]] = field(default_factory=dict)
    cpu: dict[str, list[float]] = field(default_factory=dict)
    server: dict[str, list[float]] = field(default_factory=dict)  # PostgreSQL's backends' CPU

    def note(self, kind: str, seconds: float, cpu: float | None = None,
             server: float | None = None) -> None:
        self.times.setdefault(kind, []).append(seconds)
        if cpu is not None:
            self.cpu.setdefault(kind, []).append(cpu)
        if server is not None:
            self.server.setdefault(kind, []).append(server)


# --- seeding -------------------------------------------------------------------------------


async def _admin(admin: str, sql: str) -> None:
    import asyncpg  # only with --db

    conn = await asyncpg.connect(admin, timeout=10)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


async def seed(engine: str, size: int, checkout: Path, admin: str | None, tmp: Path,
               timeout: float) -> Seeded:
    """The size's database, seeded by `checkout`'s code in a subprocess."""
    if engine == "sqlite":
        where = str(tmp / f"seeded-{size}.db")
    else:
        assert admin is not None
        name = f"history_seed_{uuid.uuid4().hex[:10]}"
        await _admin(admin, f'CREATE DATABASE "{name}"')
        where = with_database(admin, name)
    boot = f"import runpy; runpy.run_path({str(SEED)!r}, run_name='__main__')"
    env = dict(os.environ, PYTHONPATH=str(checkout))
    t0 = time.perf_counter()
    proc: asyncio.subprocess.Process | None = None
    try:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-c", boot, "--db", where, "--duels", str(size), cwd=checkout,
            env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        out, err = await asyncio.wait_for(proc.communicate(), timeout)
        if proc.returncode:
            raise RuntimeError(f"seeding {size} on {engine} failed:\n{err.decode()[-3000:]}")
    except BaseException:  # timed out, failed or interrupted: nothing left behind
        if proc is not None and proc.returncode is None:
            proc.kill()
            await proc.wait()
        await discard(where, admin)
        raise
    figures = json.loads(out.decode().strip().splitlines()[-1])
    print(f"[seed] {size:,} duels in the group ({figures['duels']:,} in all) on {engine}, by "
          f"{checkout}: {figures['seconds']:.1f} s writing the duels "
          f"({time.perf_counter() - t0:.1f} s in all)", flush=True)
    return Seeded(engine, size, where, figures["seconds"], figures["duels"],
                  (figures["after"] - figures["before"]) / figures["duels"])


async def copy_of(seeded: Seeded, admin: str | None, tmp: Path) -> str:
    if seeded.engine == "sqlite":
        target = tmp / f"run-{uuid.uuid4().hex[:8]}.db"
        for part in Path(seeded.where).parent.glob(Path(seeded.where).name + "*"):
            shutil.copy(part, tmp / (target.name + part.name[len(Path(seeded.where).name):]))
        return str(target)
    assert admin is not None
    name = f"history_run_{uuid.uuid4().hex[:10]}"
    template = seeded.where.rsplit("/", 1)[1]
    await _admin(admin, f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
    return with_database(admin, name)


async def discard(where: str, admin: str | None) -> None:
    if "://" in where:
        assert admin is not None
        await drop_database(admin, where)
    else:
        for part in Path(where).parent.glob(Path(where).name + "*"):
            part.unlink(missing_ok=True)


# --- one run -------------------------------------------------------------------------------


class Backends:
    """The CPU seconds of the PostgreSQL backends serving one database (they run on this
    machine: /proc, as bench/pg_usage.py), to add the server's share of a request."""

    def __init__(self, admin: str, url: str) -> None:
        self.admin, self.name = admin, url.rsplit("/", 1)[1]
        self.conn: Any = None

    async def cpu(self) -> float:
        import asyncpg  # only with --db

        if self.conn is None:
            self.conn = await asyncpg.connect(self.admin, timeout=10)
        pids = await self.conn.fetch("SELECT pid FROM pg_stat_activity WHERE datname = $1",
                                     self.name)
        return sum(process_cpu(r["pid"]) or 0.0 for r in pids)

    async def close(self) -> None:
        if self.conn is not None:
            await self.conn.close()


class Session:
    """The fake's people and chats matching the seeded ones, and the requests timed."""

    def __init__(self, api: TimedFake, pid: int, timeout: float,
                 backends: Backends | None) -> None:
        self.api, self.pid, self.timeout, self.backends = api, pid, timeout, backends
        self.boards: list[float] = []  # the board's times so far (when to press during one)
        self.users = {uid: api.add_user(NAMES[n], id=uid, username=f"p{uid}")
                      for n, uid in enumerate(PLAYERS)}
        self.main = api.create_group("The saloon", id=MAIN, members=self.users.values())
        self.private = api.private_chat(self.users[PRIVATE])
        side = [api.add_user(f"Side {n}", id=uid, username=f"p{uid}")
                for n, uid in enumerate(SIDE_PLAYERS)]
        self.side_players = (side[0], side[1])
        self.side = api.create_group("Side table", id=SIDE, members=side)
        self.tables = self.asks = 0
        self.table: Table | None = None

    async def ask(self, user: FakeUser, chat: FakeChat, command: str,
                  args: str = "") -> tuple[float, float, float | None]:
        """Send a command; (seconds to the bot's first message in reply, the bot's CPU
        seconds meanwhile, PostgreSQL's backends' or None)."""
        api = self.api
        last = api.newest(chat)
        server0 = await self.backends.cpu() if self.backends else 0.0
        cpu0 = proc_stat(self.pid)[0]
        t0 = time.perf_counter()
        sent = api.send_command(user, chat, command, args)
        await api.wait_in(chat, lambda: self.answered(chat, last, sent), self.timeout,
                          f"the answer to /{command} {args}")
        seconds = time.perf_counter() - t0
        cpu = proc_stat(self.pid)[0] - cpu0
        server = await self.backends.cpu() - server0 if self.backends else None
        return seconds, cpu, server

    def answered(self, chat: FakeChat, last: int, sent: FakeMessage) -> bool | None:
        """The bot's message in reply to `sent` has arrived (None: not yet)."""
        return any(m.message_id > last and m.from_bot and m.reply_to is sent
                   for m in self.api.messages(chat)) or None

    def asker(self) -> FakeUser:
        """The next of the group's players: the bot drops a member's repeat of a command
        within seconds (bot.telegram.chatter), so each ask is another member's."""
        self.asks += 1
        return self.users[PLAYERS[self.asks % len(PLAYERS)]]

    async def request(self, kind: str) -> tuple[float, float, float | None]:
        asker = self.asker()
        if kind == "board":
            figures = await self.ask(asker, self.main, "stats")
            self.boards.append(figures[0])
            return figures
        if kind == "card":  # the next player's card, with the asker's head-to-head
            return await self.ask(asker, self.main, "stats",
                                  f"@p{PLAYERS[(self.asks + 1) % len(PLAYERS)]}")
        if kind == "private":  # one player: a word after it (ignored) makes it no repeat
            return await self.ask(self.users[PRIVATE], self.private, "stats", str(self.asks))
        return await self.ask(asker, self.main, "history")

    async def live_table(self) -> Table:
        """A live duel in a side group (a new group once one has ended)."""
        if self.table is not None and live_duel_message(self.api, self.table.chat) is not None:
            return self.table
        self.tables += 1
        chat = self.side if self.tables == 1 else self.api.create_group(
            f"Side table {self.tables}", members=self.side_players)
        self.table = Table(self.api, chat, self.side_players)
        await self.api.open(self.table, asyncio.Semaphore(1))
        return self.table

    async def press(self, rng: random.Random,
                    before: Callable[[], Awaitable[None]] | None = None) -> float:
        """A press in the side group's live duel (after `before`, e.g. a /stats sent): the
        seconds to its answer; then waits for its move to show."""
        api = self.api
        table = await self.live_table()
        m = live_duel_message(api, table.chat)
        assert m is not None
        buttons = duel_keyboard(m)
        tiebreak = [d for d in buttons if d.endswith(":tn")]
        who = table.players[0].id if tiebreak else actor(m)
        user = next(p for p in table.players if p.id == who)
        version, last = m.content_key(), api.newest(table.chat)
        if before is not None:
            await before()
        t0 = time.perf_counter()
        query = api.press_button(user, m, tiebreak[0] if tiebreak else rng.choice(buttons))
        await api.answer_to(table.chat, query, self.timeout)
        seconds = time.perf_counter() - t0
        with contextlib.suppress(TimeoutError):  # its move shown, before the next press
            await api.wait_in(table.chat, lambda: m.content_key() != version
                              or api.newer(table.chat, last) or None, 5.0, "the move shown")
        return seconds

    async def press_during_board(self, rng: random.Random) -> float:
        """A press sent while a /stats in the group is under way (half the board's median
        time after it): its answer's seconds."""
        api, last = self.api, self.api.newest(self.main)
        sent: list[FakeMessage] = []

        async def board() -> None:
            sent.append(api.send_command(self.asker(), self.main, "stats"))
            await asyncio.sleep(statistics.median(self.boards) / 2 if self.boards else 0.0)

        seconds = await self.press(rng, board)
        await api.wait_in(self.main, lambda: self.answered(self.main, last, sent[0]),
                          self.timeout, "the board")
        return seconds


async def run(seeded: Seeded, tree: str, checkout: Path | None, admin: str | None, tmp: Path,
              repeat: int, timeout: float, startup_only: bool, seed: int) -> Run:
    figures = Run(tree, seeded.engine, seeded.size)
    where = await copy_of(seeded, admin, tmp)
    api = TimedFake(token=BOT_TOKEN)
    await api.start()
    env = {"SIXSHOOTER_LOG_LEVEL": "WARNING", "SIXSHOOTER_RATE_LIMIT": "off"}
    bot = BotProcess(api, where, tmp / f"bot-{tree.replace(' ', '_')}.log",
                     command=bot_command(checkout, None), env=env)
    try:
        t0 = time.perf_counter()
        await bot.start(timeout=timeout)
        figures.startup = time.perf_counter() - t0
        if not startup_only:
            assert bot.pid is not None
            backends = Backends(admin, where) if admin else None
            session = Session(api, bot.pid, timeout, backends)
            await session.ask(session.side_players[0], session.side, "stats")  # warm-up
            rng = random.Random(seed)
            for _ in range(repeat):
                for kind in KINDS:
                    await asyncio.sleep(0.2)  # the last request's tail done
                    figures.note(kind, *await session.request(kind))
                await asyncio.sleep(0.2)
                figures.note("press alone", await session.press(rng))
                await asyncio.sleep(0.2)
                figures.note("press during /stats", await session.press_during_board(rng))
            if backends:
                await backends.close()
        await bot.stop()
        if startup_only:  # again on the same copy: its migration, if any, is done
            t0 = time.perf_counter()
            await bot.start(timeout=timeout)
            figures.again = time.perf_counter() - t0
            await bot.stop()
    except (TimeoutError, AssertionError):
        print(f"[{tree}, {seeded.engine}, {seeded.size:,}] failed; the bot's last lines:\n"
              f"{bot.log()[-3000:]}\nthe fake's last requests:\n  "
              + "\n  ".join(r.summary() for r in api.requests[-12:]), flush=True)
        raise
    finally:
        await bot.kill()
        await api.stop()
        await discard(where, admin)
    again = "" if figures.again is None else f" (again: {figures.again * 1e3:.0f} ms)"
    print(f"[{tree}, {seeded.engine}, {seeded.size:,}] start-up {figures.startup * 1e3:.0f} ms"
          f"{again}; " + "; ".join(f"{k} {statistics.median(v) * 1e3:.0f} ms"
                      for k, v in figures.times.items()), flush=True)
    return figures


# --- tables --------------------------------------------------------------------------------


def _merged(runs: list[Run], what: str) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {}
    for r in runs:
        for kind, values in getattr(r, what).items():
            out.setdefault(kind, []).extend(values)
    return out


def _ms(values: list[float] | None) -> str:
    if not values:
        return NA
    return f"{statistics.median(values) * 1e3:.0f} / {max(values) * 1e3:.0f}"


def _cpu(runs: list[Run], kind: str) -> str:
    """The bot's median CPU ms, and PostgreSQL's backends' after a +."""
    bot, server = _merged(runs, "cpu").get(kind), _merged(runs, "server").get(kind)
    if not bot:
        return NA
    return f"{statistics.median(bot) * 1e3:.0f}" + (
        f"+{statistics.median(server) * 1e3:.0f}" if server else "")


def _median(values: list[float] | None) -> float | None:
    return statistics.median(values) if values else None


def print_table(seeded: Seeded, runs: list[Run], trees: list[str]) -> None:
    print(f"\n== {seeded.size:,} finished duels in the group, {seeded.engine}: seeded in "
          f"{seeded.seconds:.1f} s ({seeded.duels:,} duels in all), "
          f"{seeded.bytes_per_duel:,.0f} bytes per finished duel ==")
    by_tree = {t: [r for r in runs if r.tree == t] for t in trees}
    head = f"{'':22}" + "".join(f"{t + ' ms med/max':>22}{'CPU ms':>11}" for t in trees)
    print(head + ("   this/against" if len(trees) == 2 else ""))
    for kind in ROWS if any(r.times for r in runs) else ():  # none: --startup
        line = f"{kind:22}"
        medians = []
        for t in trees:
            times = _merged(by_tree[t], "times").get(kind)
            line += f"{_ms(times):>22}{_cpu(by_tree[t], kind):>11}"
            medians.append(_median(times))
        if len(trees) == 2 and medians[0] and medians[1]:
            line += f"   {medians[1] / medians[0]:.2f}x"
        print(line)
    line = f"{'start-up':22}"
    for t in trees:
        line += f"{_ms([r.startup for r in by_tree[t]]):>22}{'':11}"
    print(line)
    if any(r.again is not None for r in runs):
        line = f"{'start-up again':22}"
        for t in trees:
            again = [r.again for r in by_tree[t] if r.again is not None]
            line += f"{_ms(again):>22}{'':11}"
        print(line)


def print_scale(tables: list[tuple[Seeded, list[Run]]], trees: list[str]) -> None:
    """Each size's medians against the smallest size's, per engine and tree."""
    engines = sorted({s.engine for s, _ in tables}, key=lambda e: e != "sqlite")
    print("\n== each size against the smallest (median ms, and the ratio) ==")
    for engine in engines:
        rows = [(s, runs) for s, runs in tables if s.engine == engine]
        if len(rows) < 2:
            continue
        for t in trees:
            print(f"{engine}, {t}:")
            print(f"  {'':22}" + "".join(f"{s.size:>18,}" for s, _ in rows))
            for kind in (*KINDS, "press during /stats", "start-up"):
                cells = []
                base: float | None = None
                for _, runs in rows:
                    mine = [r for r in runs if r.tree == t]
                    values = ([r.startup for r in mine] if kind == "start-up"
                              else _merged(mine, "times").get(kind))
                    m = _median(values)
                    base = m if base is None else base
                    cells.append(NA if m is None or not base else
                                 f"{m * 1e3:.0f} ({m / base:.2f}x)")
                print(f"  {kind:22}" + "".join(f"{c:>18}" for c in cells))


# --- main ----------------------------------------------------------------------------------


async def main(args: argparse.Namespace) -> None:
    against = Path(args.against).resolve() if args.against else None
    if against is not None and not (against / "bot").is_dir():
        raise SystemExit(f"--against {args.against}: no checkout of the bot there")
    trees: list[tuple[str, Path | None]] = [("this tree", None)]
    if against is not None:
        trees.insert(0, ("against", against))
    # the oldest tree's code seeds: every bot can open its rows (a newer one migrates them)
    seeder = Path(args.seed_with).resolve() if args.seed_with else against or ROOT
    engines = ["sqlite"] + (["postgresql"] if args.db else [])
    sizes = [args.startup] if args.startup else [int(n) for n in args.sizes.split(",")]
    tmp = Path(tempfile.mkdtemp(prefix="history-"))
    tables: list[tuple[Seeded, list[Run]]] = []
    try:
        for size in sizes:
            for engine in engines:
                admin = args.db if engine == "postgresql" else None
                seeded = await seed(engine, size, seeder, admin, tmp, args.seed_timeout)
                runs: list[Run] = []
                try:
                    for n in range(args.rounds):  # alternate: a drift hits both trees
                        for label, checkout in trees:
                            if admin and checkout is not None and not has_postgres(checkout):
                                continue
                            try:
                                runs.append(await run(seeded, label, checkout, admin, tmp,
                                                      args.repeat, args.timeout,
                                                      bool(args.startup), args.seed + n))
                            except (TimeoutError, AssertionError, RuntimeError) as e:
                                print(f"[{label}, {engine}, {size:,}] failed: "
                                      f"{str(e).splitlines()[0] if str(e) else repr(e)}",
                                      flush=True)
                finally:
                    await discard(seeded.where, admin)
                tables.append((seeded, runs))
                print_table(seeded, runs, [t for t, _ in trees])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("\n\n#### all sizes (times: median / max over the runs' requests; CPU: median) ####")
    for seeded, runs in tables:
        print_table(seeded, runs, [t for t, _ in trees])
    if not args.startup:
        print_scale(tables, [t for t, _ in trees])
    print("\ntournament: its table reads the tournament's matches, not the chat's results, "
          "today: not measured (n/a)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,10000,100000", metavar="N,N,...",
                        help="finished duels in the group, one database per size")
    parser.add_argument("--rounds", type=int, default=2,
                        help="runs per tree, size and engine (a bot started on a fresh copy)")
    parser.add_argument("--repeat", type=int, default=3, help="each request, per run")
    parser.add_argument("--against", metavar="CHECKOUT",
                        help="also run another checkout's bot, alternating; it seeds (the older "
                             "schema)")
    parser.add_argument("--seed-with", metavar="CHECKOUT",
                        help="the checkout whose code seeds (default: --against's, else this "
                             "tree's): the one with the oldest schema")
    parser.add_argument("--db", metavar="URL",
                        help="also run on PostgreSQL: a server's admin URL, e.g. "
                             "postgresql://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--startup", type=int, metavar="N",
                        help="only the start-up's time, on N finished duels (instead of --sizes)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=300.0, metavar="SECONDS",
                        help="the longest wait for the bot's start or an answer")
    parser.add_argument("--seed-timeout", type=float, default=3600.0, metavar="SECONDS",
                        help="the longest a size's seeding may take")
    asyncio.run(main(parser.parse_args()))
