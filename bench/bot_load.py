"""Many concurrent duels through the real bot process and the local fake Bot API.

    python bench/bot_load.py [--duels 200] [--seed 1] [--against OTHER_CHECKOUT]

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
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.botprocess import BotProcess  # noqa: E402
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


class TimedFake(FakeTelegramAPI):
    """The fake, noting when each update left in a getUpdates response."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.delivered: dict[int, float] = {}

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


async def _play(api: TimedFake, table: Table, rng: random.Random,
                latencies: list[float], think: float) -> int:
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
        version, last = m.content_key(), newest_id(api, table.chat)
        new_message = moves_on(m, data)
        query = api.press_button(user, m, data)
        update_id = api.all_updates[-1]["update_id"]
        await api.wait_for_answer(query, timeout=TIMEOUT)
        if new_message:  # a fresh live message (the turn passed), the pressed one deleted
            await api.wait_for_message(table.chat, after_message_id=last, timeout=TIMEOUT)
        else:
            await api.wait_for(lambda m=m, v=version: m.content_key() != v, TIMEOUT)
        done = time.perf_counter()
        latencies.append(done - api.delivered.get(update_id, done))
        taps += 1


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


async def run(duels: int, seed: int, think: float, command: list[str] | None,
              label: str) -> float:
    """One load run; prints its figures and returns taps per CPU-second of the bot."""
    api = TimedFake(token=BOT_TOKEN)
    await api.start()
    with tempfile.TemporaryDirectory() as tmp:
        bot = BotProcess(api, Path(tmp) / "load.db", Path(tmp) / "bot.log", command=command,
                         env={"SIXSHOOTER_LOG_LEVEL": "WARNING",
                                              "SIXSHOOTER_RATE_LIMIT": "off"})
        await bot.start()
        assert bot.pid is not None
        tables = []
        for i in range(duels):
            a = api.add_user(f"Ann {i}", language_code="en")
            b = api.add_user(f"Ben {i}", language_code="ru" if i % 2 else "en")
            tables.append(Table(api, api.create_group(f"Group {i}", members=[a, b]), (a, b)))
        t0 = time.perf_counter()
        await asyncio.gather(*(open_duel(api, t) for t in tables))
        opened = time.perf_counter() - t0
        cpu0, _ = _proc_stat(bot.pid)
        latencies: list[float] = []
        rng = random.Random(seed)
        t1 = time.perf_counter()
        taps = sum(await asyncio.gather(
            *(_play(api, t, random.Random(rng.random()), latencies, think) for t in tables)))
        wall = time.perf_counter() - t1
        cpu1, peak = _proc_stat(bot.pid)
        calls = api.call_counts()
        await bot.stop()
    await api.stop()
    per_cpu = taps / max(cpu1 - cpu0, 1e-9)
    pace = f"each tap after {think:g} s on average" if think else "each tap at once"
    print(f"[{label}] duels: {duels} concurrent (opened in {opened:.1f} s), {pace}; "
          f"taps: {taps}")
    print(f"[{label}] throughput: {taps / wall:7.1f} taps/s wall clock, "
          f"{per_cpu:7.1f} taps per CPU-second of the bot "
          f"({cpu1 - cpu0:.1f} s CPU over {wall:.1f} s)")
    print(f"[{label}] latency per tap (delivered -> answered and drawn): "
          f"p50 {_pct(latencies, .5):6.1f} ms  p95 {_pct(latencies, .95):6.1f} ms  "
          f"p99 {_pct(latencies, .99):6.1f} ms  mean {statistics.fmean(latencies) * 1000:6.1f} ms")
    print(f"[{label}] bot peak memory (VmHWM): {peak / 1024:.1f} MB")
    print(f"[{label}] Bot API calls: " + ", ".join(
        f"{k} {v}" for k, v in sorted(calls.items()) if k != "getUpdates"))
    return per_cpu


async def main(args: argparse.Namespace) -> None:
    this = _bot_command(None, args.profile)
    if args.against is None:
        await run(args.duels, args.seed, args.think, this, "this tree")
        return
    other = _bot_command(Path(args.against).resolve(), None)
    figures: dict[str, list[float]] = {"this tree": [], "against": []}
    for _ in range(args.rounds):  # alternate, so a drift of the machine's speed hits both
        figures["against"].append(await run(args.duels, args.seed, args.think, other,
                                            "against"))
        figures["this tree"].append(await run(args.duels, args.seed, args.think, this,
                                              "this tree"))
    a, b = (statistics.median(figures[k]) for k in ("this tree", "against"))
    print(f"taps per CPU-second, median of {args.rounds}: this tree {a:.1f}, "
          f"{args.against} {b:.1f}: {a / b:.2f}x")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duels", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--think", type=float, default=0.0, metavar="SECONDS",
                        help="mean thinking time before each tap (0: flat out, the capacity)")
    parser.add_argument("--profile", metavar="FILE", help="run the bot under cProfile")
    parser.add_argument("--against", metavar="CHECKOUT",
                        help="also run the bot of another checkout (e.g. `git worktree add "
                             "/tmp/base HEAD~5`), alternating, and print the ratio")
    parser.add_argument("--rounds", type=int, default=2, help="runs of each with --against")
    asyncio.run(main(parser.parse_args()))
