"""Render figures: time to render and encode one picture, its size in bytes, peak memory.

    python bench/render.py [--duels N] [--fmt jpeg|png] [--passes 3]

Plays N seeded duels with random legal moves, keeps the public view after every move, and
renders each one (the first pass warms the sprite caches, as a running bot's would be).
"time" is the wall clock of the whole picture (compose + encode); "cpu" splits it into the
process's CPU time composing and encoding (the stages to weigh, and steadier than the wall clock
on a busy machine). Each picture is timed in `--passes` passes (3) and its least time kept, as
timeit does: on a shared machine a slower pass measures the neighbours, not the picture (one
pass gave table medians from 2.0 to 3.5 ms for the same code in one afternoon). Targets
(issue 21): table <= 2.5 ms and <= 110 KB median, result <= 6 ms and <= 150 KB. Prints
figures only; nothing here is a test.

The duel's pictures are drawn 720 px wide (render/duel/layout.py; 960 until issue 21, which
took the table from 4.1 ms and 124 KB to about 2.45 ms and 82 KB here) and encoded with
render.encode.DUEL (its note has the JPEG settings measured); six-card's with TALL. The C
allocator is set as the bot sets it (bot.ops.memory): a picture's cost depends on it.
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import render
from bot.i18n import translator
from bot.ops.memory import tame_malloc
from render.duel import result as duel_result
from render.duel import reveal as duel_reveal
from render.duel import table as duel_table
from render.encode import DUEL, TALL, Jpeg, encode
from render.sixcard import table as six_table
from rules.cards import shuffled_deck
from rules.duel import DuelState, PublicView
from rules.sixcard import SixCardGame, SixCardView

NAMES = ("Алиса Селезнёва", "Bob 🤠 the Builder")
EN, RU = translator("en"), translator("ru")  # the pictures' words, as the bot passes them


def views(duels: int) -> list[PublicView]:
    out: list[PublicView] = []
    for seed in range(duels):
        rng = random.Random(seed)
        state = DuelState.new(50, seed % 2)
        while not state.is_over:
            if state.needs_deal:
                state.deal(shuffled_deck(rng), rng.randbytes(16))
            else:
                player = state.players_to_act[0]
                state.apply(rng.choice(state.legal_actions(player)), player)
            out.append(state.public_view())
    return out


def six_views(games: int) -> list[SixCardView]:
    """Six-card poker: seeded games of 1-3 boxes, random legal moves, a view after each."""
    out: list[SixCardView] = []
    for seed in range(games):
        rng = random.Random(seed)
        game = SixCardGame.new([rng.randint(1, 100) for _ in range(seed % 3 + 1)], 10_000)
        game.deal(shuffled_deck(rng), rng.randbytes(16))
        out.append(game.public_view())
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
            out.append(game.public_view())
    return out


Job = tuple[Callable[[], Image.Image], Jpeg]  # compose, then encode with these settings


def measure(label: str, jobs: list[Job], fmt: str, passes: int) -> None:
    for compose, jpeg in jobs[: min(len(jobs), 40)]:  # warm the caches
        encode(compose(), fmt, jpeg)
    n = len(jobs)
    times, composing, encoding = [float("inf")] * n, [float("inf")] * n, [float("inf")] * n
    sizes: list[int] = [0] * n
    for _ in range(passes):  # each picture's least time over the passes (as timeit's)
        for i, (compose, jpeg) in enumerate(jobs):
            t0, c0 = time.perf_counter(), time.process_time()
            im = compose()
            c1 = time.process_time()
            data = encode(im, fmt, jpeg)
            c2, t1 = time.process_time(), time.perf_counter()
            times[i] = min(times[i], t1 - t0)
            composing[i] = min(composing[i], c1 - c0)
            encoding[i] = min(encoding[i], c2 - c1)
            sizes[i] = len(data)
    times.sort()
    p90 = times[int(len(times) * 0.9)]
    ms = 1000
    print(
        f"{label:<8} n={len(jobs):<4} time median {statistics.median(times) * ms:6.2f} ms"
        f"  p90 {p90 * ms:6.2f} ms  cpu compose {statistics.median(composing) * ms:5.2f}"
        f" + encode {statistics.median(encoding) * ms:5.2f} ms"
        f"   bytes median {statistics.median(sizes) / 1024:6.1f} KB"
        f"  max {max(sizes) / 1024:6.1f} KB"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--duels", type=int, default=12)
    ap.add_argument("--fmt", default="jpeg", choices=("jpeg", "png"))
    ap.add_argument("--passes", type=int, default=3,
                    help="timed passes over every picture; each picture's least time is kept")
    args = ap.parse_args()
    tame_malloc()  # as the bot runs (bot/__main__.py)
    all_views = views(args.duels)
    tables: list[Job] = [
        (lambda v=v, i=i: duel_table.compose(v, NAMES, RU if i % 2 else EN), DUEL)
        for i, v in enumerate(all_views) if v.hands
    ]
    reveals: list[Job] = [
        (lambda v=v, r=r: duel_reveal.compose(v, r, NAMES, EN), DUEL)
        for v in all_views[:: max(1, len(all_views) // 60)] for r in v.results[-1:]
    ]
    results: list[Job] = [
        (lambda v=v: duel_result.compose(v, NAMES, EN), DUEL)
        for v in all_views if v.is_over
    ]
    # the jobs are render.table / reveal / result / sixcard, split at the encoder
    first = next(i for i, v in enumerate(all_views) if v.hands)
    assert encode(tables[0][0](), args.fmt, DUEL) == render.table(
        all_views[first], names=NAMES, labels=RU if first % 2 else EN, fmt=args.fmt)
    print(f"Render figures ({args.fmt}, {len(all_views)} views from {args.duels} duels)")
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    measure("table", tables, args.fmt, args.passes)
    measure("reveal", reveals, args.fmt, args.passes)
    measure("result", results, args.fmt, args.passes)
    sixes: list[Job] = [
        (lambda v=v, i=i: six_table.compose(v, NAMES[0], RU if i % 2 else EN), TALL)
        for i, v in enumerate(six_views(4 * args.duels))
    ]
    measure("sixcard", sixes, args.fmt, args.passes)
    tracemalloc.start()  # a second pass, traced (tracing slows the timed one down)
    for compose, jpeg in tables + reveals + results:
        encode(compose(), args.fmt, jpeg)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory: {rss:.1f} MB resident for the whole process ({rss - rss_before:+.1f} MB "
          f"once rendering began: sprite caches and pictures), {peak / 1024 / 1024:.1f} MB "
          "peak Python heap (tracemalloc; Pillow's pixel buffers are outside it)")
    print("targets (issue 21): table <= 2.5 ms and <= 110 KB median, result <= 6 ms and <= 150 KB")


if __name__ == "__main__":
    main()
