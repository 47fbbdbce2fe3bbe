"""Many concurrent duels through the real bot process and the local fake Bot API.

    python bench/bot_load.py [--duels 200] [--seed 1] [--against OTHER_CHECKOUT]
                             [--db postgresql://postgres@127.0.0.1:5432/postgres] [--rounds 2]
                             [--workers N --db URL] [--reviews SHARE]

Starts the fake Telegram Bot API in this process and the `sixshooter` bot as a subprocess,
opens one duel per group in N groups, then plays every duel to its end at once, each player
tapping as soon as it is their turn (the bot's capacity), or after a thinking time (`--think`,
the latency a person sees at that load). Prints taps per second (wall clock and per CPU-second of
the bot process), the bot's latency per tap (from the getUpdates response that delivered the
press to the moment its answer and edit/send are done), and the bot's peak memory. Prints
figures; asserts nothing. (The fake server and the players share the other core: the figures
are a floor for the bot.) The bot runs with SIXSHOOTER_RATE_LIMIT=off: with Telegram's flood
limits on, it would pace itself to 30 sends a second and 20 a minute per group by design, and
the figure would measure the limiter, not the bot. The bot's child processes (its search pool,
bot.offload) are separate processes: their CPU and memory are printed apart. With `--reviews
SHARE` that share of the finished duels has its Review pressed (a review is computed on the
first press since issue 21, for every finished duel before), and the CPU is read once all the
reviews asked for are kept.

With `--db URL` (a PostgreSQL server's admin URL: a user who may create databases) each round
runs the bot on SQLite and then on PostgreSQL, in a database created for that run and dropped
after it, and prints a table of both: the bot's taps per CPU-second, PostgreSQL's apart (its
backends serving that database; see bench/pg_usage.py), latency, the bot's peak memory, and
the server's transactions and rows written per tap. SQLite runs inside the bot's process, so
the bot's CPU on SQLite includes the engine's; on PostgreSQL the engine's is the server's.
With `--against CHECKOUT` every run is made for both trees (a checkout without PostgreSQL
runs on SQLite only).

With `--workers N` (and `--db`) the bot runs as 1, 2, ... N worker processes on one PostgreSQL
database in webhook mode, the fake posting the updates round-robin over them as a load balancer
would (`--connections` at once, Telegram's max_connections); it prints, for each count, the taps
per CPU-second of all the workers together (what coordination costs: the goal is that two
workers keep at least 0.9x one worker's), taps per second and the latency per tap (from the
update's first POST to its answer and drawing). This 2-core machine runs the fake, PostgreSQL
and the workers on the same cores, so wall-clock scaling cannot show here.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.pg_usage import ServerUsage  # noqa: E402
from bot.storage import Storage  # noqa: E402
from tests.support.botprocess import BotProcess  # noqa: E402
from tests.support.databases import drop_database, fresh_database  # noqa: E402
from tests.support.driver import (  # noqa: E402
    TIMEOUT,
    Table,
    actor,
    duel_keyboard,
    live_duel_message,
    moves_on,
    newest_id,
    open_duel,
)
from tests.support.fakeapi import BOT_TOKEN, FakeTelegramAPI  # noqa: E402
from tests.support.workers import Workers  # noqa: E402


class TimedFake(FakeTelegramAPI):
    """The fake, noting when each update left in a getUpdates response (or, webhook, in the
    first POST that carried it)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.delivered: dict[int, float] = {}
        self._posts_seen = 0

    def delivered_at(self, update_id: int) -> float | None:
        posts = self._delivery.deliveries
        for d in posts[self._posts_seen:]:  # the perf_counter moment of the first POST
            self.delivered.setdefault(d.update_id, time.perf_counter() - (time.time() - d.started))
        self._posts_seen = len(posts)
        return self.delivered.get(update_id)

    async def get_updates(self, params: Any, uploads: Any) -> list[Any]:
        batch = await super().get_updates(params, uploads)
        now = time.perf_counter()
        for update in batch:
            self.delivered.setdefault(update["update_id"], now)
        return batch


def _proc_stat(pid: int) -> tuple[float, int]:
    """(CPU seconds used, peak resident KiB) of a process."""
    ticks = os.sysconf("SC_CLK_TCK")
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / ticks
    peak = 0
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            peak = int(line.split()[1])
    return cpu, peak


def _children(pid: int) -> list[int]:
    """The direct children of a process (the bot's search pool: bot.offload), live now."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        found += [int(c) for c in task.read_text().split()]
    return found


def _children_cpu(pids: list[int]) -> dict[int, tuple[float, int]]:
    """(CPU seconds, peak resident KiB) of each live child of `pids`."""
    out: dict[int, tuple[float, int]] = {}
    for pid in pids:
        for child in _children(pid):
            with contextlib.suppress(OSError):  # ended meanwhile
                out[child] = _proc_stat(child)
    return out


async def _ask_review(api: TimedFake, table: Table, wait: float) -> int | None:
    """Press the Review button of the chat's result (the answer awaited, not the review); the
    duel's id."""
    for m in reversed(api.bot_messages(table.chat)):
        data = next((d for d in m.callback_data() if d.startswith("r:") and d.endswith(":v")),
                    None)
        if data is not None:
            await api.wait_for_answer(api.press_button(table.players[0], m, data), timeout=wait)
            return int(data.split(":")[1])
    return None


async def _play(api: TimedFake, table: Table, rng: random.Random,
                latencies: list[float], think: float, wait: float,
                reviews: float = 0.0, asked: list[int] | None = None) -> int:
    taps = 0
    while True:
        if think:  # a person looks at the table before tapping
            await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
        m = live_duel_message(api, table.chat)
        if m is None:
            if asked is not None and rng.random() < reviews:
                duel_id = await _ask_review(api, table, wait)
                if duel_id is not None:
                    asked.append(duel_id)
            return taps
        buttons = duel_keyboard(m)
        if any(d.endswith((":ty", ":tn")) for d in buttons):
            decline = next(d for d in buttons if d.endswith(":tn"))
            user = table.players[0]
            data = decline
        else:
            who = actor(m)
            user = next(p for p in table.players if p.id == who)
            data = rng.choice(buttons)
        version, last = m.content_key(), newest_id(api, table.chat)
        new_message = moves_on(m, data)
        query = api.press_button(user, m, data)
        update_id = api.all_updates[-1]["update_id"]
        try:
            await api.wait_for_answer(query, timeout=wait)
            if new_message:  # a fresh live message (the turn passed), the pressed one deleted
                await api.wait_for_message(table.chat, after_message_id=last, timeout=wait)
            else:
                await api.wait_for(lambda m=m, v=version: m.content_key() != v, wait)
        except TimeoutError as e:  # what this chat saw, to tell a slow bot from a stuck duel
            seen = [r.summary() for r in api.requests if r.params.get("chat_id") == table.chat.id]
            raise TimeoutError(f"{str(e).splitlines()[0]}, after pressing {data!r} (a new "
                               f"message expected: {new_message}); that chat's last requests:"
                               "\n  " + "\n  ".join(seen[-6:])) from e
        done = time.perf_counter()
        delivered = api.delivered_at(update_id)
        latencies.append(done - (done if delivered is None else delivered))
        taps += 1


async def _reviewed(db: str, duel_ids: list[int], wait: float) -> None:
    """Wait until every one of these duels has its review kept."""
    store = await Storage.open(db)
    try:
        async with asyncio.timeout(wait + 10.0 * len(duel_ids)):  # (a tree that reviews all)
            for duel_id in duel_ids:
                while await store.duels.review_of(duel_id) is None:
                    await asyncio.sleep(0.05)
    except TimeoutError as e:
        raise TimeoutError(f"reviews asked for not kept in time ({duel_ids})") from e
    finally:
        await store.close()


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def _bot_command(checkout: Path | None, profile: str | None) -> list[str] | None:
    """How to start the bot: this tree's installed script, under cProfile, or the bot of
    another checkout (an older commit, to compare in one run)."""
    if checkout is not None:
        boot = (f"import sys; sys.path.insert(0, {str(checkout)!r}); "
                "from bot.__main__ import main; sys.exit(main())")
        return [sys.executable, "-c", boot]
    if profile:  # the bot under cProfile, written when it stops
        return [sys.executable, "-m", "cProfile", "-o", profile, "-m", "bot"]
    return None


def _has_postgres(checkout: Path) -> bool:
    return (checkout / "bot" / "storage" / "postgres.py").exists()


@dataclass
class Figures:
    """One run's figures."""

    label: str
    engine: str
    workers: int = 0  # webhook worker processes (0: the one polling bot)
    taps: int = 0
    bot_cpu: float = 0.0
    children_cpu: float = 0.0  # the bot's child processes (its search pool), apart
    children_mb: float = 0.0  # their largest peak resident memory
    pg_cpu: float | None = None  # the database's backends (PostgreSQL only)
    latencies: list[float] = field(default_factory=list)
    peak_mb: float = 0.0
    pg: ServerUsage | None = None

    @property
    def per_cpu(self) -> float:
        return self.taps / max(self.bot_cpu, 1e-9)

    @property
    def per_pg_cpu(self) -> float | None:
        return None if self.pg_cpu is None else self.taps / max(self.pg_cpu, 1e-9)

    @property
    def per_total_cpu(self) -> float:
        return self.taps / max(self.bot_cpu + (self.pg_cpu or 0.0), 1e-9)


async def run(duels: int, seed: int, think: float, command: list[str] | None,
              label: str, admin: str | None = None, wait: float = TIMEOUT,
              workers: int = 0, connections: int = 8, reviews: float = 0.0) -> Figures:
    """One load run (on SQLite, or given `admin`, on a fresh PostgreSQL database; with
    `workers`, that many webhook workers on it); prints its figures and returns them. With
    `reviews`, that share of the finished duels has its Review pressed, and the run's CPU is
    read once every review asked for is kept (whichever way the tree computes them)."""
    engine = "postgresql" if admin else "sqlite"
    label = f"{label}, {engine}" + (f", {workers} worker{'s' * (workers > 1)}" if workers else "")
    figures = Figures(label, engine, workers)
    api = TimedFake(token=BOT_TOKEN)
    await api.start()
    url: str | None = None
    bots: list[BotProcess] = []
    tmp = tempfile.mkdtemp(prefix="bot_load-")
    try:
        url = await fresh_database(admin) if admin else None
        env = {"SIXSHOOTER_LOG_LEVEL": "WARNING", "SIXSHOOTER_RATE_LIMIT": "off"}
        if url:
            env["SIXSHOOTER_DB"] = url
        if workers:  # behind the fake's round-robin load balancer
            assert url is not None, "--workers runs on PostgreSQL: give --db"
            group = Workers(api, url, Path(tmp), workers, webhook=True, env=env,
                            connections=connections)
            bots = group.procs
            for bot in bots:
                bot.command = command or bot.command
            await group.start()
        else:
            bots = [BotProcess(api, Path(tmp) / "load.db", Path(tmp) / "bot.log",
                               command=command, env=env)]
            await bots[0].start()
        pids = [bot.pid for bot in bots if bot.pid is not None]
        tables = []
        for i in range(duels):
            a = api.add_user(f"Ann {i}", language_code="en")
            b = api.add_user(f"Ben {i}", language_code="ru" if i % 2 else "en")
            tables.append(Table(api, api.create_group(f"Group {i}", members=[a, b]),
                                (a, b)))
        t0 = time.perf_counter()
        await asyncio.gather(*(open_duel(api, t) for t in tables))
        opened = time.perf_counter() - t0
        if admin and url:
            figures.pg = ServerUsage(admin, url.rsplit("/", 1)[1])
            await figures.pg.start()
        cpu0 = sum(_proc_stat(pid)[0] for pid in pids)
        children0 = _children_cpu(pids)
        rng = random.Random(seed)
        t1 = time.perf_counter()
        asked: list[int] = []
        figures.taps = sum(await asyncio.gather(
            *(_play(api, t, random.Random(rng.random()), figures.latencies, think, wait,
                    reviews, asked) for t in tables)))
        wall = time.perf_counter() - t1
        if asked:
            await _reviewed(url or str(Path(tmp) / "load.db"), asked, wait)
            print(f"[{label}] {len(asked)} reviews asked for, all kept "
                  f"{time.perf_counter() - t1 - wall:.1f} s after the last tap", flush=True)
        stats = [_proc_stat(pid) for pid in pids]
        children1 = _children_cpu(pids)
        figures.children_cpu = sum(c - children0.get(k, (0.0, 0))[0]
                                   for k, (c, _) in children1.items())
        figures.children_mb = max((m for _, m in children1.values()), default=0) / 1024
        cpu1, peak = sum(c for c, _ in stats), max(m for _, m in stats)
        if figures.pg:
            await figures.pg.stop_cpu()
            figures.pg_cpu = figures.pg.backend_cpu
        calls = api.call_counts()
        for bot in bots:
            await bot.stop()
        if figures.pg:
            await figures.pg.stop_counters()
    except TimeoutError:
        for bot in bots:  # what the bot said (WARNING and above) before it fell behind
            print(f"[{label}] {bot.log_path.name}, last lines:\n{bot.log()[-3000:]}",
                  flush=True)
        raise
    finally:
        for bot in bots:
            await bot.kill()  # gone already, unless the run failed
        if figures.pg is not None:
            await figures.pg.close()
        if admin and url:
            await drop_database(admin, url)  # WITH (FORCE): even if the bot hangs on
        await api.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    figures.bot_cpu, figures.peak_mb = cpu1 - cpu0, peak / 1024
    _print_run(figures, duels, think, opened, wall, calls)
    return figures


def _print_run(f: Figures, duels: int, think: float, opened: float, wall: float,
               calls: dict[str, int]) -> None:
    pace = f"each tap after {think:g} s on average" if think else "each tap at once"
    print(f"[{f.label}] duels: {duels} concurrent (opened in {opened:.1f} s), {pace}; "
          f"taps: {f.taps}")
    print(f"[{f.label}] throughput: {f.taps / wall:7.1f} taps/s wall clock, "
          f"{f.per_cpu:7.1f} taps per CPU-second of the bot "
          f"({f.bot_cpu:.1f} s CPU over {wall:.1f} s)")
    if f.pg is not None and f.per_pg_cpu is not None:
        c, taps = f.pg.counters, max(f.taps, 1)
        written = sum(c.get(k, 0) for k in ("tup_inserted", "tup_updated", "tup_deleted"))
        print(f"[{f.label}] PostgreSQL: {f.per_pg_cpu:7.1f} taps per CPU-second of its "
              f"{f.pg.backends} backends ({f.pg.backend_cpu:.1f} s CPU; the server's shared "
              f"processes {f.pg.shared_cpu:.1f} s more, all databases); per tap "
              f"{(c.get('xact_commit', 0) + c.get('xact_rollback', 0)) / taps:.1f} "
              f"transactions, {written / taps:.1f} rows written, "
              f"{c.get('tup_fetched', 0) / taps:.1f} rows fetched")
    print(f"[{f.label}] latency per tap (delivered -> answered and drawn): "
          f"p50 {_pct(f.latencies, .5):6.1f} ms  p95 {_pct(f.latencies, .95):6.1f} ms  "
          f"p99 {_pct(f.latencies, .99):6.1f} ms  "
          f"mean {statistics.fmean(f.latencies) * 1000:6.1f} ms")
    print(f"[{f.label}] bot peak memory (VmHWM): {f.peak_mb:.1f} MB")
    print(f"[{f.label}] the bot's child processes (its search pool): {f.children_cpu:.1f} s "
          f"CPU, peak {f.children_mb:.1f} MB (not in the figures above)")
    print(f"[{f.label}] Bot API calls: " + ", ".join(
        f"{k} {v}" for k, v in sorted(calls.items()) if k != "getUpdates"), flush=True)


def _table(runs: list[Figures]) -> None:
    """Medians per tree and engine, each run's taps per CPU-second beside (the noise)."""
    groups: dict[str, list[Figures]] = {}
    for f in runs:
        groups.setdefault(f.label, []).append(f)
    print(f"\n{'':24} {'taps/CPU-s bot':>15} {'(each run)':>16} {'taps/CPU-s PG':>14} "
          f"{'bot+PG':>7} {'p50 ms':>8} {'p99 ms':>8} {'peak MB':>8}")
    for label, fs in groups.items():
        pg = [x for f in fs if (x := f.per_pg_cpu) is not None]
        each = " ".join(f"{f.per_cpu:.1f}" for f in fs)
        print(f"{label:24} {statistics.median(f.per_cpu for f in fs):15.1f} {each:>16} "
              f"{statistics.median(pg) if pg else float('nan'):14.1f} "
              f"{statistics.median(f.per_total_cpu for f in fs):7.1f} "
              f"{statistics.median(_pct(f.latencies, .5) for f in fs):8.0f} "
              f"{statistics.median(_pct(f.latencies, .99) for f in fs):8.0f} "
              f"{max(f.peak_mb for f in fs):8.1f}")

    def median(label: str) -> float | None:
        fs = groups.get(label)
        return statistics.median(f.per_cpu for f in fs) if fs else None

    for tree in ("this tree", "against"):
        sq, pg_ = median(f"{tree}, sqlite"), median(f"{tree}, postgresql")
        if sq and pg_:
            print(f"{tree}: PostgreSQL / SQLite, taps per CPU-second of the bot: "
                  f"{pg_ / sq:.2f}x (goal: at least 0.8x)")
    for engine in ("sqlite", "postgresql"):
        a, b = median(f"this tree, {engine}"), median(f"against, {engine}")
        if a and b:
            print(f"{engine}: this tree / against, taps per CPU-second of the bot: {a / b:.2f}x")


async def main_workers(args: argparse.Namespace) -> None:
    """1, 2, ... N webhook workers on PostgreSQL, alternating over the rounds."""
    if not args.db:
        raise SystemExit("--workers runs the workers on PostgreSQL: give --db URL too")
    runs: list[Figures] = []
    for _ in range(args.rounds):
        for n in range(1, args.workers + 1):
            try:
                runs.append(await run(args.duels, args.seed, args.think, None, "this tree",
                                      args.db, args.wait, workers=n,
                                      connections=args.connections))
            except TimeoutError as e:
                print(f"[{n} workers] failed: {str(e).splitlines()[0]}", flush=True)
    _table(runs)
    by_count: dict[int, list[float]] = {}
    for f in runs:
        by_count.setdefault(f.workers, []).append(f.per_cpu)
    one = statistics.median(by_count[1]) if by_count.get(1) else None
    for n, values in sorted(by_count.items()):
        if one and n > 1:
            print(f"{n} workers / 1 worker, taps per CPU-second of all the workers together: "
                  f"{statistics.median(values) / one:.2f}x (goal: at least 0.9x)")


async def main(args: argparse.Namespace) -> None:
    if args.workers:
        await main_workers(args)
        return
    engines: list[str | None] = [None] + ([args.db] if args.db else [])
    trees: list[tuple[str, Path | None]] = [("this tree", None)]
    if args.against is not None:
        trees.insert(0, ("against", Path(args.against).resolve()))
    if len(engines) == 1 and len(trees) == 1:
        await run(args.duels, args.seed, args.think, _bot_command(None, args.profile),
                  "this tree", wait=args.wait, reviews=args.reviews)
        return
    runs: list[Figures] = []
    for _ in range(args.rounds):  # alternate, so a drift of the machine's speed hits all
        for admin in engines:
            for label, checkout in trees:
                if admin and checkout is not None and not _has_postgres(checkout):
                    continue  # a checkout from before PostgreSQL: SQLite only
                profile = (f"{args.profile}.{'postgresql' if admin else 'sqlite'}"
                           if args.profile and checkout is None else None)
                try:
                    runs.append(await run(args.duels, args.seed, args.think,
                                          _bot_command(checkout, profile), label, admin,
                                          args.wait, reviews=args.reviews))
                except TimeoutError as e:  # one run's failure, shown; the others go on
                    print(f"[{label}, {'postgresql' if admin else 'sqlite'}] failed: "
                          f"{str(e).splitlines()[0]}", flush=True)
    if args.against is not None and args.db and not _has_postgres(Path(args.against)):
        print(f"{args.against} has no PostgreSQL engine: it ran on SQLite only")
    _table(runs)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duels", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--think", type=float, default=0.0, metavar="SECONDS",
                        help="mean thinking time before each tap (0: flat out, the capacity)")
    parser.add_argument("--profile", metavar="FILE",
                        help="run the bot under cProfile (with --db: FILE.sqlite and "
                             "FILE.postgresql, of the last round)")
    parser.add_argument("--against", metavar="CHECKOUT",
                        help="also run the bot of another checkout (e.g. `git worktree add "
                             "/tmp/base HEAD~5`), alternating, and print the ratio")
    parser.add_argument("--db", metavar="URL",
                        help="also run on PostgreSQL: a server's admin URL (a user who may "
                             "create databases), e.g. postgresql://postgres@127.0.0.1:5432/"
                             "postgres; each run makes its own database and drops it")
    parser.add_argument("--wait", type=float, default=TIMEOUT, metavar="SECONDS",
                        help="how long a player waits for the bot's answer before the run "
                             "fails")
    parser.add_argument("--workers", type=int, default=0, metavar="N",
                        help="run 1..N webhook worker processes on the --db PostgreSQL, "
                             "the fake posting round-robin over them")
    parser.add_argument("--connections", type=int, default=8,
                        help="with --workers: updates posted at once (max_connections)")
    parser.add_argument("--reviews", type=float, default=0.0, metavar="SHARE",
                        help="press Review on this share of the finished duels (0..1); the "
                             "CPU is read once they are all kept")
    parser.add_argument("--rounds", type=int, default=2,
                        help="runs of each tree and engine with --against or --db")
    asyncio.run(main(parser.parse_args()))
