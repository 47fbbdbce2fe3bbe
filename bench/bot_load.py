"""Many concurrent duels through the real bot process and the local fake Bot API.

    python bench/bot_load.py [--duels 200] [--seed 1] [--against OTHER_CHECKOUT]
                             [--db postgresql://postgres@127.0.0.1:5432/postgres] [--rounds 2]
                             [--workers N --db URL]

Starts the fake Telegram Bot API in this process and the `sixshooter` bot as a subprocess,
opens one duel per group in N groups, then plays every duel to its end at once, each player
tapping as soon as it is their turn (the bot's capacity), or after a thinking time (`--think`,
the latency a person sees at that load). Prints taps per second (wall clock and per CPU-second of
the bot process), the bot's latency per tap (from the getUpdates response that delivered the
press to the moment its answer and edit/send are done), and the bot's peak memory. Prints
figures; asserts nothing. (The fake server and the players share the other core: the figures
are a floor for the bot.) The bot runs with SIXSHOOTER_RATE_LIMIT=off: with Telegram's flood
limits on, it would pace itself to 30 sends a second and 20 a minute per group by design, and
the figure would measure the limiter, not the bot.

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
import os
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
from bench.load_report import (  # noqa: E402
    Figures,
    bot_counts,
    pct,
    per_tap_line,
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
    actor,
    duel_keyboard,
    live_duel_message,
    moves_on,
)
from tests.support.fakeapi import BOT_TOKEN  # noqa: E402
from tests.support.ops import free_port  # noqa: E402
from tests.support.workers import Workers  # noqa: E402

APOLOGY = "⚠️"  # a press's answer when its handling failed (bot.common.errors)
WAIT_PER_DUEL = 0.3  # seconds of --wait's default per duel (a tap waits its turn behind theirs)


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


async def _play(api: TimedFake, table: Table, rng: random.Random, figures: Figures,
                think: float, wait: float) -> int:
    taps = 0
    while True:
        if think:  # a person looks at the table before tapping
            await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
        m = live_duel_message(api, table.chat)
        if m is None:
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
        version, last = m.content_key(), api.newest(table.chat)
        new_message = moves_on(m, data)
        query = api.press_button(user, m, data)
        update_id = api.all_updates[-1]["update_id"]
        try:
            answer = await api.answer_to(table.chat, query, wait)
            figures.late += answer == "late"
            figures.unanswered += answer == "none"
            if query.text == APOLOGY:  # the move failed (a database too busy): tap again
                figures.failed += 1
                continue
            if new_message:  # a fresh live message (the turn passed), the pressed one deleted
                await api.wait_in(table.chat, lambda n=last: api.newer(table.chat, n), wait,
                                  "a new message")
            else:
                await api.wait_in(table.chat, lambda m=m, v=version: m.content_key() != v, wait,
                                  "the pressed message edited")
        except TimeoutError as e:  # what this chat saw, to tell a slow bot from a stuck duel
            if m.content_key() == version and live_duel_message(api, table.chat) is m:
                figures.failed += 1  # nothing moved (its apology lost to a quiet answer)
                print(f"[{figures.label}] a press moved nothing within {wait:g} s, tapped "
                      f"again: {str(e).splitlines()[0]}", flush=True)
                continue
            raise TimeoutError(f"{str(e).splitlines()[0]} after pressing {data!r} (a new "
                               f"message expected: {new_message}; "
                               f"{api.fate(update_id, query.id)}){api.trail(table.chat)}") from e
        done = time.perf_counter()
        delivered = api.delivered_at(update_id)
        figures.latencies.append(done - (done if delivered is None else delivered))
        taps += 1


def _lines(e: BaseException) -> str:
    """A failure's first lines (what timed out, and the chat's last requests)."""
    return "\n  ".join(str(e).splitlines()[:8])


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


async def run(duels: int, seed: int, think: float, command: list[str] | None,
              label: str, admin: str | None = None, wait: float | None = None,
              workers: int = 0, connections: int = 8, log_level: str = "WARNING") -> Figures:
    """One load run (on SQLite, or given `admin`, on a fresh PostgreSQL database; with
    `workers`, that many webhook workers on it); prints its figures and returns them."""
    engine = "postgresql" if admin else "sqlite"
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
            env["SIXSHOOTER_DB"] = url
        if workers:  # behind the fake's round-robin load balancer
            assert url is not None, "--workers runs on PostgreSQL: give --db"
            group = Workers(api, url, Path(tmp), workers, webhook=True, env=env,
                            connections=connections)
            bots = group.procs
            for bot in bots:
                bot.command = command or bot.command
            ports = _ops_ports(bots)
            await group.start()
        else:
            bots = [BotProcess(api, Path(tmp) / "load.db", Path(tmp) / "bot.log",
                               command=command, env=env)]
            ports = _ops_ports(bots)
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
        cpu0 = sum(_proc_stat(pid)[0] for pid in pids)
        rng = random.Random(seed)
        t1 = time.perf_counter()
        figures.taps = sum(await asyncio.gather(
            *(_play(api, t, random.Random(rng.random()), figures, think, wait)
              for t in tables)))
        wall = time.perf_counter() - t1
        stats = [_proc_stat(pid) for pid in pids]
        cpu1, peak = sum(c for c, _ in stats), max(m for _, m in stats)
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
        shutil.rmtree(tmp, ignore_errors=True)
    figures.bot_cpu, figures.peak_mb = cpu1 - cpu0, peak / 1024
    _print_run(figures, opened, wall)
    return figures


def _ops_ports(bots: list[BotProcess]) -> list[int]:
    """A free ops port (SIXSHOOTER_METRICS_PORT) for each process, to read its /metrics (an
    older tree without them ignores the variable: its counts are n/a)."""
    ports = [free_port() for _ in bots]
    for bot, port in zip(bots, ports, strict=True):
        bot.extra_env["SIXSHOOTER_METRICS_PORT"] = str(port)
    return ports


def _print_run(f: Figures, opened: float, wall: float) -> None:
    pace = f"each tap after {f.think:g} s on average" if f.think else "each tap at once"
    print(f"[{f.label}] duels: {f.duels} concurrent (opened in {opened:.1f} s), {pace}; "
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
          f"p50 {pct(f.latencies, .5):6.1f} ms  p95 {pct(f.latencies, .95):6.1f} ms  "
          f"p99 {pct(f.latencies, .99):6.1f} ms  "
          f"mean {statistics.fmean(f.latencies) * 1000:6.1f} ms"
          + (f"; {f.late} answers came too late (over 15 s: refused, as Telegram would)"
             if f.late else "")
          + (f"; {f.unanswered} presses had no answer within 15 s" if f.unanswered else "")
          + (f"; {f.failed} presses failed (answered {APOLOGY}, or moved nothing): tapped "
             "again" if f.failed else ""))
    print(f"[{f.label}] bot peak memory (VmHWM): {f.peak_mb:.1f} MB")
    print(per_tap_line(f), flush=True)


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
    engines: list[str | None] = [None] + ([args.db] if args.db else [])
    trees: list[tuple[str, Path | None]] = [("this tree", None)]
    if args.against is not None:
        trees.insert(0, ("against", Path(args.against).resolve()))
    counts = [int(n) for n in args.scale.split(",")] if args.scale else [args.duels]
    if len(engines) == 1 and len(trees) == 1 and len(counts) == 1:
        await run(counts[0], args.seed, args.think, _bot_command(None, args.profile),
                  "this tree", wait=args.wait, log_level=args.log_level)
        return
    runs: list[Figures] = []
    failed: list[str] = []
    for _ in range(args.rounds):  # alternate, so a drift of the machine's speed hits all
        for duels in counts:
            for admin in engines:
                for label, checkout in trees:
                    if admin and checkout is not None and not _has_postgres(checkout):
                        continue  # a checkout from before PostgreSQL: SQLite only
                    profile = (f"{args.profile}.{'postgresql' if admin else 'sqlite'}"
                               if args.profile and checkout is None else None)
                    try:
                        runs.append(await run(duels, args.seed, args.think,
                                              _bot_command(checkout, profile), label, admin,
                                              args.wait, log_level=args.log_level))
                    except TimeoutError as e:  # one run's failure, shown; the others go on
                        failed.append(f"[{label}, {'postgresql' if admin else 'sqlite'}, "
                                      f"{duels} duels] failed: {_lines(e)}")
                        print(failed[-1], flush=True)
    if args.against is not None and args.db and not _has_postgres(Path(args.against)):
        print(f"{args.against} has no PostgreSQL engine: it ran on SQLite only")
    table(runs)
    side_by_side(runs)
    scale(runs)
    for line in failed:
        print(line)


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
    parser.add_argument("--wait", type=float, metavar="SECONDS",
                        help=f"how long a player waits for the bot's move to show (default: "
                             f"{TIMEOUT:g} s or {WAIT_PER_DUEL:g} s per duel, the more: flat "
                             "out, each tap waits for every other duel's) before the run "
                             "fails")
    parser.add_argument("--log-level", default="WARNING",
                        help="the bot's SIXSHOOTER_LOG_LEVEL (its log is shown when a run fails)")
    parser.add_argument("--workers", type=int, default=0, metavar="N",
                        help="run 1..N webhook worker processes on the --db PostgreSQL, "
                             "the fake posting round-robin over them")
    parser.add_argument("--connections", type=int, default=8,
                        help="with --workers: updates posted at once (max_connections)")
    parser.add_argument("--rounds", type=int, default=2,
                        help="runs of each tree, engine and count with --against, --db or --scale")
    asyncio.run(main(parser.parse_args()))
