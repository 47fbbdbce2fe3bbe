"""How long the post-duel review takes, and what it says (prints figures, asserts nothing).

    python bench/review.py [--duels 40] [--samples N] [--levels easy,hard] [--calibrate 0]

- the review time of each of N seeded duels between two AI levels (easy v hard by default),
  median, p95 and max, on one core (numpy's threads are pinned to one);
- the mean accuracy of each side, and one example review (the first duel);
- with --calibrate K: for K seeded duels of each level against `hard`, that level's mean loss
  per decision and mean accuracy (what `ACCURACY_K` was chosen from).
"""

from __future__ import annotations

import argparse
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--duels", type=int, default=40)
    ap.add_argument("--samples", type=int, default=REVIEW_SAMPLES)
    ap.add_argument("--levels", default="easy,hard")
    ap.add_argument("--calibrate", type=int, default=0)
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
