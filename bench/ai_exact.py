"""How close `hard` plays to perfect where the rest of the duel is small (prints figures,
asserts nothing).

    python bench/ai_exact.py [--positions 2000] [--error 0.002] [--max-samples 320000] [--jobs 1]

Positions: every decision with more than one legal bet from bullet 2 of round 2 on (the rest
of the duel is at most two bullets), met in seeded self-play duels (normal v normal and easy v
normal, alternately). For each, the **reference** searches the rest of the duel whole: both
players choose best for their chance to win the duel (a draw, a level finish, counts half; no
chip counts), each choice made on what is public when it is made (the hands left, the stacks
and the bets of the bullet), chance the joint completions of the hidden cards, sampled
(`rules.duel.odds.sample_strengths`, the same samples for every move). One limit, said
plainly: the bonus duel's pick after a bullet 2 is made on the stacks, not on the ten cards
that bullet turned over (a subset of what is public then: the reference's players may play a
shade worse than perfect there); a bullet-3 position itself is exact up to sampling.
Samples double from 20,000 until the 95% error of `hard`'s loss (and of the gap between the
two best moves, when `hard` took the best) is under `--error` (0.2 points), or the cap.

Prints how often `hard` (`rules.duel.ai`, its own random source) takes the reference's best
move, the mean loss over all positions and over the misses, the worst loss, and how many
positions met the error bound. Beside the strict figure, a tie-aware one: how many positions
have a best move less than `NEAR` (0.1 points) better than the second (there the reference's
own sampling, whose 95% error is up to 0.2 points, often decides which is "best"), and how
often `hard`'s move is within `NEAR` of the best. Run on one core: numpy's threads are pinned
to one.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

from rules.duel import Action, Bet, DuelState, Phase, PublicView, choose_first_dealer
from rules.duel.ai import Level, choose, legal_moves
from rules.duel.rollout import Floats, GreedyPolicy, Rollout
from rules.duel.selfplay import play_out

T = TypeVar("T")
Z95 = 1.959964
NEAR = 0.001  # 0.1 points of P(win): the tie-aware report's margin
PAIRS: tuple[tuple[Level, Level], ...] = (("normal", "normal"), ("easy", "normal"))


class Reference(Rollout):
    """The rest of the duel with both players choosing best for P(win), a draw half."""

    def __init__(self, view: PublicView, me: int, samples: int, rng: np.random.Generator) -> None:
        super().__init__(view, me, samples, rng)
        total = sum(view.stacks)
        mine = np.arange(total + 1)
        self.util = np.where(2 * mine > total, 1.0, np.where(2 * mine < total, 0.0, 0.5))

    def choice(self, player: int, options: Sequence[Callable[[], Floats]],
               moves: Sequence[T], predict: Callable[[GreedyPolicy], T]) -> Floats:
        values = [f() for f in options]
        pick = max if player == self.me else min
        return pick(values, key=lambda v: float(v.mean()))


def reference(view: PublicView, player: int, bets: list[Bet], hard: Bet, error: float,
              cap: int, seed: int) -> tuple[list[float], float, int]:
    """Each bet's reference P(win), the 95% error of hard's loss (or of the best gap), and
    the samples used."""
    n = 20_000
    while True:
        arrays = Reference(view, player, n, np.random.default_rng(seed)).value_arrays(bets)
        means = [float(a.mean()) for a in arrays]
        order = sorted(range(len(bets)), key=lambda k: -means[k])
        best, h = order[0], bets.index(hard)
        other = order[1] if h == best else h
        diff = arrays[best] - arrays[other]
        err = Z95 * float(diff.std()) / n ** 0.5
        if err < error or n >= cap:
            return means, err, n
        n *= 2


def positions(count: int) -> list[tuple[PublicView, int]]:
    """Decisions from bullet 2 of round 2 on, met in seeded self-play duels."""
    out: list[tuple[PublicView, int]] = []
    k = 0
    while len(out) < count:
        pair = PAIRS[k % len(PAIRS)]
        deal_rng, ai_rng = random.Random(k), random.Random(-k - 1)
        k += 1

        def watch(_: DuelState, view: PublicView, player: int) -> None:
            late = view.round == 2 and view.bullet_in_round >= 2
            if late and view.phase is Phase.BULLET and len(legal_moves(view, player)) > 1:
                out.append((view, player))

        def move(view: PublicView, p: int, rng: random.Random = ai_rng,
                 lv: tuple[Level, Level] = pair) -> Action:
            return choose(view, p, lv[p], rng)

        play_out(DuelState.new(50, choose_first_dealer(deal_rng)), deal_rng, move,
                 max_tiebreaks=0, watch=watch)
    del out[count:]
    return out


Judged = tuple[str, float, float, int, float]  # kind, hard's loss, its 95% error, samples,
# and the gap between the reference's two best moves


def judge_position(task: tuple[int, PublicView, int, float, int]) -> Judged:
    """hard's move at one position against the reference."""
    k, view, player, error, cap = task
    bets = [a for a in legal_moves(view, player) if isinstance(a, Bet)]
    hard = choose(view, player, "hard", random.Random(k))
    assert isinstance(hard, Bet)
    means, err, n = reference(view, player, bets, hard, error, cap, k)
    kind = ("bonus duel" if view.bonus_duel else
            "bullet 2, dealer" if player == view.dealer else "bullet 2, first to act")
    top = sorted(means, reverse=True)
    return kind, max(0.0, top[0] - means[bets.index(hard)]), err, n, top[0] - top[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=2000)
    ap.add_argument("--error", type=float, default=0.002)
    ap.add_argument("--max-samples", type=int, default=320_000)
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args()
    t0 = time.perf_counter()
    found = positions(args.positions)
    tasks = [(k, view, player, args.error, args.max_samples)
             for k, (view, player) in enumerate(found)]
    judged: list[Judged] = []
    with multiprocessing.Pool(args.jobs) as pool:
        for one in pool.imap(judge_position, tasks, chunksize=4):
            judged.append(one)
            if len(judged) % 200 == 0:
                print(f"  {len(judged)} positions judged", file=sys.stderr, flush=True)
    kinds = {"bullet 2, first to act": 0, "bullet 2, dealer": 0, "bonus duel": 0}
    missed = dict.fromkeys(kinds, 0)
    losses = [j[1] for j in judged]
    errs = [j[2] for j in judged]
    samples = [j[3] for j in judged]
    hits = sum(loss <= 0.0 for loss in losses)
    noise = sum(loss <= err for _, loss, err, _, _ in judged)
    bound = sum(err < args.error for err in errs)
    near_ties = sum(gap < NEAR for *_, gap in judged)
    tied = sum(gap == 0.0 for *_, gap in judged)
    near = sum(loss < NEAR for loss in losses)
    for kind, loss, *_ in judged:
        kinds[kind] += 1
        missed[kind] += loss > 0.0
    misses = [x for x in losses if x > 0]
    print(f"{len(found)} positions from bullet 2 of round 2 on, seeded self-play "
          f"({', '.join(f'{a} v {b}' for a, b in PAIRS)}), {time.perf_counter() - t0:.0f} s:")
    print(f"    hard takes the reference's best move: {hits}/{len(found)} "
          f"= {100 * hits / len(found):.1f}%  (goal >= 95%); within the reference's "
          f"95% error of it: {noise}/{len(found)} = {100 * noise / len(found):.1f}%")
    print(f"    tie-aware: {near_ties} positions have a best move less than "
          f"{100 * NEAR:.1f} points better than the second ({tied} exactly tied); hard is "
          f"within {100 * NEAR:.1f} points of the best in {near}/{len(found)} "
          f"= {100 * near / len(found):.1f}%")
    print(f"    mean loss in chance to win the duel: {100 * statistics.mean(losses):.3f} points "
          "a position (goal < 0.5)")
    if misses:
        print(f"    when it misses: mean loss {100 * statistics.mean(misses):.3f} points, "
              f"worst {100 * max(misses):.2f} points")
    for kind, total in kinds.items():
        print(f"    {kind}: {total} positions, {missed[kind]} missed")
    print(f"    reference 95% error of the loss: median {100 * statistics.median(errs):.3f}, "
          f"max {100 * max(errs):.3f} points; under {100 * args.error:.1f} points: "
          f"{bound}/{len(found)}; samples median {int(statistics.median(samples))}, "
          f"max {max(samples)}")


if __name__ == "__main__":
    main()
