"""Telegram's flood limit per group against a whole duel, through the real bot process.

    python bench/flood.py [--duels 3] [--think 0] [--seed 1]

Telegram lets a bot make about 20 calls a minute in one group (edits and deletes count). This
plays `--duels` duels one after another in one group, each player tapping as soon as it is
their turn (`--think` seconds later on average, for a person), first with the bot's rate
limiter on (as it runs for real), then off; and prints what one duel asks of Telegram in the
group (calls by method), how long each duel took with and without the limiter, and so how long
the limiter held the duel back in all. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.botprocess import BotProcess  # noqa: E402
from tests.support.driver import (  # noqa: E402
    TIMEOUT,
    Table,
    actor,
    duel_keyboard,
    live_duel_message,
    newest_id,
    tap,
)
from tests.support.fakeapi import BOT_TOKEN, FakeTelegramAPI  # noqa: E402

GROUP_PER_MINUTE = 20
Duel = tuple[float, Counter[str], int]  # wall seconds, calls in the group, taps


async def _duel(api: FakeTelegramAPI, table: Table, rng: random.Random,
                think: float) -> Duel:
    """Challenge, accept and play one duel to its end (declining a tiebreak): its wall time,
    the bot's calls in the group by method, and the taps."""
    a, b = table.players
    since = api.last_seq
    t0 = time.perf_counter()
    last = newest_id(api, table.chat)
    api.send_command(a, table.chat, "duel", f"@{b.username}")
    challenge = await api.wait_for_message(table.chat, lambda m: any(
        d.startswith("c:") for d in m.callback_data()), after_message_id=last, timeout=TIMEOUT)
    accept = next(d for d in challenge.callback_data() if d.endswith(":a"))
    await api.wait_for_answer(api.press_button(b, challenge, accept), timeout=TIMEOUT * 6)
    await api.wait_for_message(table.chat, lambda m: bool(duel_keyboard(m)),
                               after_message_id=challenge.message_id, timeout=TIMEOUT * 6)
    taps = 0
    while (m := live_duel_message(api, table.chat)) is not None:
        if think:
            await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
        keys = duel_keyboard(m)
        no = [d for d in keys if d.endswith(":tn")]
        user = a if no else next(p for p in table.players if p.id == actor(m))
        await tap(api, user, m, no[0] if no else rng.choice(keys))
        taps += 1
    wall = time.perf_counter() - t0
    calls = Counter(r.method for r in api.requests if r.seq > since
                    and r.params.get("chat_id") == table.chat.id)
    return wall, calls, taps


async def run(duels: int, think: float, seed: int, limiter: bool) -> list[Duel]:
    api = FakeTelegramAPI(token=BOT_TOKEN)
    await api.start()
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        env = {"SIXSHOOTER_LOG_LEVEL": "WARNING"}
        if not limiter:
            env["SIXSHOOTER_RATE_LIMIT"] = "off"
        bot = BotProcess(api, Path(tmp) / "flood.db", Path(tmp) / "bot.log", env=env)
        await bot.start()
        a = api.add_user("Ann", username="ann_duels", language_code="en")
        b = api.add_user("Ben", username="ben_duels", language_code="en")
        table = Table(api, api.create_group("Flood", members=[a, b]), (a, b))
        rng = random.Random(seed)
        since = api.last_seq
        for _ in range(duels):
            out.append(await _duel(api, table, rng, think))
        # The old messages are deleted when the group's budget has room: wait for the last.
        await api.wait_for(lambda: len(api.bot_messages(table.chat)) <= 2 * duels, 90.0,
                           "the old messages to be deleted")
        everything = Counter(r.method for r in api.requests if r.seq > since
                             and r.params.get("chat_id") == table.chat.id)
        out.append((0.0, everything, 0))  # the whole run's calls, cleanup included
        await bot.stop()
    await api.stop()
    return out


async def main(args: argparse.Namespace) -> None:
    on = await run(args.duels, args.think, args.seed, True)
    off = await run(args.duels, args.think, args.seed, False)
    pace = f"each tap {args.think:g} s after the last on average" if args.think else (
        "each tap at once")
    print(f"{args.duels} duels in one group, one after another, {pace}")
    totals = {"on": on.pop(), "off": off.pop()}
    for label, runs in (("limiter on ", on), ("limiter off", off)):
        for n, (wall, calls, taps) in enumerate(runs, 1):
            chat = sum(calls.values())
            print(f"  [{label}] duel {n}: {taps} taps, {chat} calls in the group "
                  f"({', '.join(f'{k} {v}' for k, v in sorted(calls.items()))}), {wall:5.1f} s")
    for label, (_, calls, _) in totals.items():
        methods = ", ".join(f"{k} {v}" for k, v in sorted(calls.items()))
        print(f"  [limiter {label}] all {args.duels} duels, old messages deleted: "
              f"{sum(calls.values())} calls ({methods})")
    per_duel = sum(totals["on"][1].values()) / args.duels
    held = sum(w for w, _, _ in on) - sum(w for w, _, _ in off)
    print(f"calls per duel in the group: {per_duel:.1f} (Telegram allows {GROUP_PER_MINUTE} a "
          "minute; the limiter lets 20 go at once, then one every 3 s)")
    print(f"the fastest a duel can go under the limiter, from a quiet group: "
          f"{max(0.0, (per_duel - GROUP_PER_MINUTE) * 60 / GROUP_PER_MINUTE):.0f} s of waiting")
    print(f"time the limiter held the {args.duels} duels back in all: {held:5.1f} s "
          f"({held / args.duels:.1f} s a duel)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duels", type=int, default=3)
    parser.add_argument("--think", type=float, default=0.0, metavar="SECONDS")
    parser.add_argument("--seed", type=int, default=1)
    asyncio.run(main(parser.parse_args()))
