"""Render figures: time to render and encode one picture, its size in bytes, peak memory.

    python bench/render.py [--duels N] [--fmt jpeg|png]

Plays N seeded duels with random legal moves, keeps the public view after every move, and
renders each one (the first pass warms the sprite caches, as a running bot's would be).
Targets (the render issue): median table time <= 10 ms, bytes <= 150 KB. Prints figures only;
nothing here is a test.
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

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import render
from bot.i18n import translator
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


def measure(label: str, jobs: list[Callable[[], bytes]]) -> None:
    for job in jobs[: min(len(jobs), 40)]:  # warm the caches
        job()
    times: list[float] = []
    sizes: list[int] = []
    for job in jobs:
        t0 = time.perf_counter()
        data = job()
        times.append(time.perf_counter() - t0)
        sizes.append(len(data))
    times.sort()
    p90 = times[int(len(times) * 0.9)]
    print(
        f"{label:<14} n={len(jobs):<4} time median {statistics.median(times) * 1000:6.2f} ms"
        f"  p90 {p90 * 1000:6.2f} ms   bytes median {statistics.median(sizes) / 1024:6.1f} KB"
        f"  max {max(sizes) / 1024:6.1f} KB"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--duels", type=int, default=12)
    ap.add_argument("--fmt", default="jpeg", choices=("jpeg", "png"))
    args = ap.parse_args()
    all_views = views(args.duels)
    tables = [
        (lambda v=v, i=i: render.table(v, names=NAMES, labels=RU if i % 2 else EN,
                                       fmt=args.fmt))
        for i, v in enumerate(all_views) if v.hands
    ]
    reveals = [
        (lambda v=v, r=r: render.reveal(v, r, names=NAMES, labels=EN, fmt=args.fmt))
        for v in all_views[:: max(1, len(all_views) // 60)] for r in v.results[-1:]
    ]
    results = [
        (lambda v=v: render.result(v, names=NAMES, labels=EN, fmt=args.fmt))
        for v in all_views if v.is_over
    ]
    print(f"Render figures ({args.fmt}, {len(all_views)} views from {args.duels} duels)")
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    measure("table", tables)
    measure("reveal", reveals)
    measure("result", results)
    sixes = [(lambda v=v, i=i: render.sixcard(v, name=NAMES[0], labels=RU if i % 2 else EN,
                                             fmt=args.fmt))
             for i, v in enumerate(six_views(4 * args.duels))]
    measure("sixcard", sixes)
    tracemalloc.start()  # a second pass, traced (tracing slows the timed one down)
    for job in tables + reveals + results:
        job()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory: {rss:.1f} MB resident for the whole process ({rss - rss_before:+.1f} MB "
          f"once rendering began: sprite caches and pictures), {peak / 1024 / 1024:.1f} MB "
          "peak Python heap (tracemalloc; Pillow's pixel buffers are outside it)")
    print("targets: table median <= 10 ms, bytes <= 150 KB")


if __name__ == "__main__":
    main()
