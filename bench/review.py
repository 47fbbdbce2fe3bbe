"""How long the post-duel review takes, and what it says (prints figures, asserts nothing).

    python bench/review.py [--duels 40] [--samples N] [--levels easy,hard] [--calibrate 0]
                           [--pool]

- the review time of each of N seeded duels between two AI levels (easy v hard by default),
  median, p95 and max, on one core (numpy's threads are pinned to one);
- the mean accuracy of each side, and one example review (the first duel);
- with --calibrate K: for K seeded duels of each level against `hard`, that level's mean loss
  per decision and mean accuracy (what `ACCURACY_K` was chosen from);
- with --pool: the same reviews through the bot's search pool (`bot.offload`, one spawned
  niced process) and in a thread of this process, alternating: the first use's delay (spawn
  and imports), the first review in a fresh process (its tables built), each review's time
  both ways, and the pool process's resident memory after start and after the reviews.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import random
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.duel import DuelState, choose_first_dealer
from rules.duel.ai import LEVELS, Level, choose
from rules.duel.review import ACCURACY_K, REVIEW_SAMPLES, PlayerReview, Review, review
from rules.duel.selfplay import play_out


def play(seed: int, levels: tuple[Level, Level]) -> DuelState:
    deal_rng, ai_rng = random.Random(seed), random.Random(-seed - 1)
    state = DuelState.new(50, choose_first_dealer(deal_rng))
    return play_out(state, deal_rng, lambda view, p: choose(view, p, levels[p], ai_rng))


def _s(xs: list[float]) -> str:
    xs = sorted(xs)
    p95 = xs[min(len(xs) - 1, int(0.95 * len(xs)))]
    return (f"median {statistics.median(xs):6.3f} s  p95 {p95:6.3f} s  max {xs[-1]:6.3f} s  "
            f"(n={len(xs)})")


def describe(state: DuelState, result: Review, levels: tuple[Level, Level]) -> str:
    lines = [f"stacks {tuple(state.stacks)}, winner {state.winner}, {state.end_reason}, "
             f"{len(state.results)} bullets"]
    for p, pr in enumerate(result.players):
        worst = "none"
        if pr.worst is not None:
            w = pr.worst
            worst = (f"bullet {w.bullet}: #{w.chosen.position + 1} with {w.chosen.chips} "
                     f"instead of #{w.best.position + 1} with {w.best.chips}, "
                     f"{-100 * w.loss:+.1f}% to win")
        lines.append(f"  player {p} ({levels[p]}): accuracy {pr.accuracy:5.1f}, "
                     f"luck {100 * pr.luck:+5.1f}%, {pr.decisions} decisions, worst: {worst}")
    return "\n".join(lines)


def _mean_loss(pr: PlayerReview) -> float:
    return -math.log(pr.accuracy / 100) / ACCURACY_K


def _rss(pid: int) -> str:
    status = Path(f"/proc/{pid}/status").read_text().splitlines()
    kb = {line.split(":")[0]: int(line.split()[1]) for line in status
          if line.startswith(("VmRSS", "VmHWM"))}
    return f"resident {kb['VmRSS'] / 1024:.1f} MB (peak {kb['VmHWM'] / 1024:.1f} MB)"


async def _pool(states: list[DuelState], samples: int) -> None:
    from bot.offload import Offload

    pool = Offload()
    try:
        t0 = time.perf_counter()
        [pid] = [await pool.run(os.getpid)]
        print(f"search pool: first use (spawn, imports, a trivial call) "
              f"{time.perf_counter() - t0:.3f} s; the process {_rss(pid)}, "
              f"nice {os.getpriority(os.PRIO_PROCESS, pid)} (this one {os.nice(0)})")
        t0 = time.perf_counter()
        await pool.run(review, states[0], random.Random(0), samples=samples)
        print(f"    first review in the fresh process (its tables built): "
              f"{time.perf_counter() - t0:.3f} s")
        loop = asyncio.get_running_loop()
        in_pool: list[float] = []
        in_thread: list[float] = []
        for seed, state in enumerate(states):
            t0 = time.perf_counter()
            a = await pool.run(review, state, random.Random(seed), samples=samples)
            in_pool.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            b = await loop.run_in_executor(
                None, lambda s=state, k=seed: review(s, random.Random(k), samples=samples))
            in_thread.append(time.perf_counter() - t0)
            assert a == b, seed  # the same review either way
        print("    in the pool:   " + _s(in_pool))
        print("    in a thread:   " + _s(in_thread))
        print(f"    the pool process after {len(states)} reviews: {_rss(pid)}; "
              f"this process {_rss(os.getpid())}")
    finally:
        await pool.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--duels", type=int, default=40)
    ap.add_argument("--samples", type=int, default=REVIEW_SAMPLES)
    ap.add_argument("--levels", default="easy,hard")
    ap.add_argument("--calibrate", type=int, default=0)
    ap.add_argument("--pool", action="store_true",
                    help="also time the reviews in the bot's search pool against a thread")
    args = ap.parse_args()
    a, b = args.levels.split(",")
    assert a in LEVELS and b in LEVELS, args.levels
    levels: tuple[Level, Level] = (a, b)  # type: ignore[assignment]

    review(play(10**6, levels), random.Random(0), samples=args.samples)  # warm the tables up
    times: list[float] = []
    results: list[tuple[DuelState, Review]] = []
    for seed in range(args.duels):
        state = play(seed, levels)
        t0 = time.perf_counter()
        result = review(state, random.Random(seed), samples=args.samples)
        times.append(time.perf_counter() - t0)
        results.append((state, result))
    print(f"review of a whole duel, {levels[0]} v {levels[1]}, {args.samples} joint samples "
          "a position:")
    print("    " + _s(times))
    for p in (0, 1):
        accs = [r.players[p].accuracy for _, r in results if r.players[p].decisions]
        lucks = [r.players[p].luck for _, r in results]
        print(f"    player {p} ({levels[p]}): mean accuracy {statistics.mean(accs):5.1f}, "
              f"mean |luck| {100 * statistics.mean(abs(x) for x in lucks):4.1f}%")
    print("example (seed 0):")
    print(describe(*results[0], levels))
    if args.pool:
        asyncio.run(_pool([state for state, _ in results], args.samples))

    if args.calibrate:
        print(f"calibration: {args.calibrate} seeded duels of each level v hard "
              f"(accuracy = 100 exp(-{ACCURACY_K:g} mean loss)):")
        for level in LEVELS:
            pair: tuple[Level, Level] = (level, "hard")
            loss = decisions = 0.0
            accs = []
            for seed in range(args.calibrate):
                pr = review(play(seed, pair), random.Random(seed), samples=args.samples).players[0]
                if pr.decisions:
                    loss += _mean_loss(pr) * pr.decisions
                    decisions += pr.decisions
                    accs.append(pr.accuracy)
            print(f"    {level:>6}: mean loss {loss / decisions:.4f} P(win) a decision, "
                  f"mean accuracy {statistics.mean(accs):5.1f}")


if __name__ == "__main__":
    main()
