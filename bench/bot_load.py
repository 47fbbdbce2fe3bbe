"""Many concurrent duels through the real bot process and the local fake Bot API.

    python bench/bot_load.py [--duels 200 | --scale 10,100,400] [--think 2] [--rounds 2]
                             [--against OTHER_CHECKOUT] [--db postgresql://...] [--wait S]
                             [--workers N --db URL] [--db URL --pooler]

Starts the fake Telegram Bot API in this process and the `sixshooter` bot as a subprocess,
opens one duel per group in N groups, then plays every duel to its end at once, each player
tapping as soon as it is their turn (the bot's capacity), or after a thinking time (`--think`,
the latency a person sees at that load). Prints taps per second (wall clock and per CPU-second of
the bot process), the bot's latency per tap (p50/p95/p99, from the getUpdates response that
delivered the press to the moment its answer and edit/send are done), the bot's peak memory,
and what a tap costs: Bot API calls by method (counted by the fake), database statements and
transactions and pictures drawn (the bot's own /metrics, on a free SIXSHOOTER_METRICS_PORT,
read just before and after the play phase; n/a for a tree without them). Prints figures;
asserts nothing. The bot runs with SIXSHOOTER_RATE_LIMIT=off: with Telegram's flood limits on,
it would pace itself to 30 sends a second and 20 a minute per group by design, and the figure
would measure the limiter, not the bot. A press is answered as Telegram would take it (late
answers, after 15 s, are refused: counted as late; none within 15 s: counted as none); a
press the bot apologised for (⚠️) or that moved nothing within --wait is tapped again (fail).

`--scale 10,100,400` runs each count (over --rounds, with --against and --db as below) and
prints each count against the smallest: taps per CPU-second and its ratio (issue 21: 400
within 15 % of 10) and MB per live duel.

With `--db URL` (a PostgreSQL server's admin URL: a user who may create databases) each round
runs the bot on SQLite and then on PostgreSQL, in a database created for that run and dropped
after it: PostgreSQL's CPU apart (its backends serving that database; see bench/pg_usage.py)
and the server's transactions and rows written per tap. SQLite runs inside the bot's process,
so the bot's CPU on SQLite includes the engine's; on PostgreSQL the engine's is the server's.
With `--against CHECKOUT` every run is made for both trees, alternating (a checkout without
PostgreSQL runs on SQLite only), and a table sets them side by side with this / against.

With `--pooler` (and `--db`) each round also runs the bot on PostgreSQL through a PgBouncer in
transaction mode that the bench starts (tests/support/pgbouncer.py: Debian's `pgbouncer`, run as
user postgres when the bench runs as root), its URL marked `?pooler=transaction`, and prints its
taps per CPU-second of the bot against the direct connection's (the goal: within 10 %).

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
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.load_fake import OPENING, TimedFake  # noqa: E402
from bench.load_players import play  # noqa: E402
from bench.load_procs import (  # noqa: E402
    bot_command,
    children_stat,
    has_postgres,
    ops_ports,
    proc_stat,
)
from bench.load_report import (  # noqa: E402
    Figures,
    bot_counts,
    print_run,
    scale,
    scrape,
    side_by_side,
    table,
)
from bench.pg_usage import ServerUsage  # noqa: E402
from tests.support.botprocess import BotProcess  # noqa: E402
from tests.support.databases import drop_database, fresh_database  # noqa: E402
from tests.support.driver import (  # noqa: E402
    TIMEOUT,
    Table,
)
from tests.support.fakeapi import BOT_TOKEN  # noqa: E402
from tests.support.pgbouncer import PgBouncer  # noqa: E402
from tests.support.workers import Workers  # noqa: E402

KEEP_LOGS: Path | None = None  # --keep-logs DIR
WAIT_PER_DUEL = 0.3  # seconds of --wait's default per duel (a tap waits its turn behind theirs)


def _lines(e: BaseException) -> str:
    """A failure's first lines (what timed out, and the chat's last requests)."""
    return "\n  ".join(str(e).splitlines()[:8])


async def run(duels: int, seed: int, think: float, command: list[str] | None,
              label: str, admin: str | None = None, wait: float | None = None,
              workers: int = 0, connections: int = 8, log_level: str = "WARNING",
              pooler: PgBouncer | None = None) -> Figures:
    """One load run (on SQLite, or given `admin`, on a fresh PostgreSQL database, through
    `pooler` if given; with `workers`, that many webhook workers on it); prints its figures
    and returns them."""
    engine = "pgbouncer" if pooler and admin else "postgresql" if admin else "sqlite"
    wait = max(TIMEOUT, WAIT_PER_DUEL * duels) if wait is None else wait
    label = f"{label}, {engine}" + (f", {workers} worker{'s' * (workers > 1)}" if workers else "")
    figures = Figures(label, engine, workers, duels, think)
    api = TimedFake(token=BOT_TOKEN)
    await api.start()
    url: str | None = None
    bots: list[BotProcess] = []
    tmp = tempfile.mkdtemp(prefix="bot_load-")
    try:
        url = await fresh_database(admin) if admin else None
        env = {"SIXSHOOTER_LOG_LEVEL": log_level, "SIXSHOOTER_RATE_LIMIT": "off"}
        if url:
            env["SIXSHOOTER_DB"] = pooler.url(url) if pooler else url
        if workers:  # behind the fake's round-robin load balancer
            assert url is not None, "--workers runs on PostgreSQL: give --db"
            group = Workers(api, url, Path(tmp), workers, webhook=True, env=env,
                            connections=connections)
            bots = group.procs
            for bot in bots:
                bot.command = command or bot.command
            ports = ops_ports(bots)
            await group.start()
        else:
            bots = [BotProcess(api, Path(tmp) / "load.db", Path(tmp) / "bot.log",
                               command=command, env=env)]
            ports = ops_ports(bots)
            await bots[0].start()
        pids = [bot.pid for bot in bots if bot.pid is not None]
        tables = []
        for i in range(duels):
            a = api.add_user(f"Ann {i}", language_code="en")
            b = api.add_user(f"Ben {i}", language_code="ru" if i % 2 else "en")
            tables.append(Table(api, api.create_group(f"Group {i}", members=[a, b]),
                                (a, b)))
        t0 = time.perf_counter()
        room = asyncio.Semaphore(OPENING)
        await asyncio.gather(*(api.open(t, room) for t in tables))
        opened = time.perf_counter() - t0
        if admin and url:
            figures.pg = ServerUsage(admin, url.rsplit("/", 1)[1])
            await figures.pg.start()
        before, calls = await scrape(ports), api.call_counts()  # the play phase's alone
        cpu0, children0 = sum(proc_stat(pid)[0] for pid in pids), children_stat(pids)
        rng = random.Random(seed)
        t1, own0 = time.perf_counter(), time.process_time()
        figures.taps = sum(await asyncio.gather(
            *(play(api, t, random.Random(rng.random()), figures, think, wait)
              for t in tables)))
        wall, figures.bench_cpu = time.perf_counter() - t1, time.process_time() - own0
        stats = [proc_stat(pid) for pid in pids]
        cpu1, peak = sum(c for c, _ in stats), max(m for _, m in stats)
        children = children_stat(pids)  # the search pool's CPU in the play phase, apart
        figures.children_cpu = sum(c - children0.get(pid, (0.0, 0))[0]
                                   for pid, (c, _) in children.items())
        figures.children_mb = max((m for _, m in children.values()), default=0) / 1024
        if figures.pg:
            await figures.pg.stop_cpu()
            figures.pg_cpu = figures.pg.backend_cpu
        figures.counts = bot_counts(before, await scrape(ports))
        figures.calls = api.call_counts() - calls
        del figures.calls["getUpdates"]  # one per batch of updates, not per tap
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
        if KEEP_LOGS is not None:  # --keep-logs: each bot's log, named after its run
            KEEP_LOGS.mkdir(parents=True, exist_ok=True)
            for bot in bots:
                name = f"{label}, {duels} duels, {bot.log_path.stem}".replace(", ", "-")
                shutil.copy(bot.log_path, KEEP_LOGS / f"{name.replace(' ', '_')}.log")
        shutil.rmtree(tmp, ignore_errors=True)
    figures.bot_cpu, figures.peak_mb = cpu1 - cpu0, peak / 1024
    print_run(figures, opened, wall)
    return figures


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
                                      connections=args.connections, log_level=args.log_level))
            except TimeoutError as e:
                print(f"[{n} workers] failed: {_lines(e)}", flush=True)
    table(runs)
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
    if args.pooler and not args.db:
        raise SystemExit("--pooler puts a PgBouncer in front of the --db server: give --db URL")
    pooler = PgBouncer(args.db).start() if args.pooler else None
    try:
        await _main(args, pooler)
    finally:
        if pooler is not None:
            pooler.stop()


async def _main(args: argparse.Namespace, pooler: PgBouncer | None) -> None:
    engines: list[tuple[str | None, PgBouncer | None]] = [(None, None)] + (
        [(args.db, None)] if args.db else []) + ([(args.db, pooler)] if pooler else [])
    trees: list[tuple[str, Path | None]] = [("this tree", None)]
    if args.against is not None:
        trees.insert(0, ("against", Path(args.against).resolve()))
    counts = [int(n) for n in args.scale.split(",")] if args.scale else [args.duels]
    if len(engines) == 1 and len(trees) == 1 and len(counts) == 1:
        await run(counts[0], args.seed, args.think, bot_command(None, args.profile),
                  "this tree", wait=args.wait, log_level=args.log_level)
        return
    runs: list[Figures] = []
    failed: list[str] = []
    for _ in range(args.rounds):  # alternate, so a drift of the machine's speed hits all
        for duels in counts:
            for admin, via in engines:
                for label, checkout in trees:
                    if admin and checkout is not None and not has_postgres(checkout):
                        continue  # a checkout from before PostgreSQL: SQLite only
                    kind = "pgbouncer" if via else "postgresql" if admin else "sqlite"
                    profile = (f"{args.profile}.{kind}"
                               if args.profile and checkout is None else None)
                    try:
                        runs.append(await run(duels, args.seed, args.think,
                                              bot_command(checkout, profile), label, admin,
                                              args.wait, log_level=args.log_level,
                                              pooler=via))
                    except TimeoutError as e:  # one run's failure, shown; the others go on
                        failed.append(f"[{label}, {kind}, "
                                      f"{duels} duels] failed: {_lines(e)}")
                        print(failed[-1], flush=True)
    if args.against is not None and args.db and not has_postgres(Path(args.against)):
        print(f"{args.against} has no PostgreSQL engine: it ran on SQLite only")
    table(runs)
    if pooler is not None:
        _pooled(runs)
    side_by_side(runs)
    scale(runs)
    for line in failed:
        print(line)


def _pooled(runs: list[Figures]) -> None:
    """Through the pooler against directly: the medians of taps per CPU-second of the bot."""
    for tree in sorted({f.tree for f in runs}):
        for duels in sorted({f.duels for f in runs}):
            direct, pooled = (statistics.median(each) if (each := [
                f.per_cpu for f in runs if (f.tree, f.duels, f.engine) == (tree, duels, kind)
            ]) else None for kind in ("postgresql", "pgbouncer"))
            if direct and pooled:
                print(f"{tree}, {duels} duels: through PgBouncer / directly, taps per CPU-second "
                      f"of the bot: {pooled / direct:.2f}x (goal: within 10 %)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duels", type=int, default=200)
    parser.add_argument("--scale", metavar="N,N,...",
                        help="run each of these duel counts (instead of --duels) and print "
                             "each against the smallest")
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
    parser.add_argument("--pooler", action="store_true",
                        help="with --db: also run through a PgBouncer in transaction mode "
                             "(Debian's pgbouncer) in front of that server")
    parser.add_argument("--wait", type=float, metavar="SECONDS",
                        help=f"how long a player waits for the bot's move to show (default: "
                             f"{TIMEOUT:g} s or {WAIT_PER_DUEL:g} s per duel, the more: flat "
                             "out, each tap waits for every other duel's); then a press that "
                             "moved nothing is tapped again, anything else fails the run")
    parser.add_argument("--log-level", default="WARNING",
                        help="the bot's SIXSHOOTER_LOG_LEVEL (its log is shown when a run fails)")
    parser.add_argument("--keep-logs", metavar="DIR", type=Path,
                        help="copy each run's bot log here (see --log-level)")
    parser.add_argument("--workers", type=int, default=0, metavar="N",
                        help="run 1..N webhook worker processes on the --db PostgreSQL, "
                             "the fake posting round-robin over them")
    parser.add_argument("--connections", type=int, default=8,
                        help="with --workers: updates posted at once (max_connections)")
    parser.add_argument("--rounds", type=int, default=2,
                        help="runs of each tree, engine and count with --against, --db or --scale")
    arguments = parser.parse_args()
    KEEP_LOGS = arguments.keep_logs
    asyncio.run(main(arguments))
