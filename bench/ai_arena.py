"""The AI levels against each other on the real rules (prints figures, asserts nothing).

    python bench/ai_arena.py                       # every pairing of random, easy, normal, hard
    python bench/ai_arena.py --pairs easy:random,hard:normal --duels 5000 --hard-duels 2000
    python bench/ai_arena.py --round-net 40000     # measure rules.duel.ai.ROUND_NET

Duel k of a pairing is seeded by k alone (the same deals for every pairing); seats alternate
(the first level is player k % 2) and the first dealer is drawn by lot from the same seed.
Deals come from `rules.cards.shuffled_deck(rng)` and `rules.fairness.new_salt(rng)`; tiebreak
offers are accepted by both (at most `--tiebreaks` of them, then the duel counts as a draw).
Figures are for the first level of a pairing: mean net chips per duel and the win rate
(draws count half), each with a 95% interval (normal approximation). Pairings with `hard`
play `--hard-duels` duels (fewer by default: a hard decision takes tens of ms); the output
says so. Duels run on `--jobs` processes; each decision is single-threaded.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from math import sqrt
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.cards import shuffled_deck
from rules.duel import DuelState, choose_first_dealer
from rules.duel.ai import LEVELS, Level, choose
from rules.duel.selfplay import play_out
from rules.fairness import new_salt

ALL_PAIRS = [(a, b) for i, a in enumerate(LEVELS) for b in LEVELS[:i]]  # stronger first


def play(seed: int, levels: tuple[Level, Level], max_tiebreaks: int = 5,
         stack: int = 50) -> tuple[int, int]:
    """One duel between levels[0] (player 0) and levels[1] (player 1): (net chips of
    player 0, winner: 0, 1 or -1 for a draw)."""
    deal_rng = random.Random(seed)
    ai_rng = random.Random(seed ^ 0x5EED)
    state = DuelState.new(stack, choose_first_dealer(deal_rng))
    play_out(state, deal_rng, lambda view, p: choose(view, p, levels[p], ai_rng),
             max_tiebreaks=max_tiebreaks)
    net = state.returns[0]
    winner = state.winner if state.winner is not None else -1
    return net, winner


def _chunk(args: tuple[tuple[Level, Level], int, int, int]) -> tuple[list[int], list[float]]:
    (a, b), start, stop, cap = args
    nets: list[int] = []
    scores: list[float] = []
    for k in range(start, stop):
        first = k % 2  # the seat of level a
        levels: tuple[Level, Level] = (a, b) if first == 0 else (b, a)
        net, winner = play(k, levels, cap)
        nets.append(net if first == 0 else -net)
        scores.append(0.5 if winner == -1 else float(winner == first))
    return nets, scores


def _mean_ci(xs: list[float]) -> tuple[float, float]:
    n = len(xs)
    m = sum(xs) / n
    var = sum((x - m) ** 2 for x in xs) / max(1, n - 1)
    return m, 1.959964 * sqrt(var / n)


def run_pair(pair: tuple[Level, Level], duels: int, jobs: int, cap: int) -> dict[str, float]:
    step = max(50, duels // (jobs * 8))
    tasks = [(pair, s, min(duels, s + step), cap) for s in range(0, duels, step)]
    nets: list[float] = []
    scores: list[float] = []
    t0 = time.perf_counter()
    with ProcessPoolExecutor(jobs) as pool:
        for n, s in pool.map(_chunk, tasks):
            nets += n
            scores += s
    elapsed = time.perf_counter() - t0
    m, h = _mean_ci(nets)
    w, wh = _mean_ci(scores)
    wins = sum(1 for s in scores if s == 1.0) / len(scores)
    draws = sum(1 for s in scores if s == 0.5) / len(scores)
    return {"net": m, "net_ci": h, "score": w, "score_ci": wh, "wins": wins, "draws": draws,
            "seconds": elapsed, "duels": len(nets)}


def round_net(rounds: int) -> None:
    """The distribution of a round's net chips for its opponent, normal vs normal, from two
    50-chip stacks (round 1 of seeded duels), printed as ROUND_NET."""
    counts: Counter[int] = Counter()
    for k in range(rounds):
        deal_rng, ai_rng = random.Random(10**6 + k), random.Random(k)
        state = DuelState.new(50, 0)
        state.deal(shuffled_deck(deal_rng), new_salt(deal_rng))
        while state.players_to_act:
            player = state.players_to_act[0]
            state.apply(choose(state.public_view(), player, "normal", ai_rng), player)
        counts[state.stacks[1] - 50] += 1  # player 1 is round 1's opponent
    folded: Counter[int] = Counter()
    for net, c in counts.items():
        folded[max(-30, min(30, net))] += c
    print("ROUND_NET: dict[int, float] = {")
    items = [f"{net}: {c / rounds:.5f}" for net, c in sorted(folded.items())]
    for i in range(0, len(items), 7):
        print("    " + ", ".join(items[i : i + 7]) + ",")
    print("}")
    mean = sum(n * c for n, c in counts.items()) / rounds
    print(f"# {rounds} rounds, mean {mean:+.3f} chips for the round's opponent")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--duels", type=int, default=20_000)
    ap.add_argument("--hard-duels", type=int, default=2_000)
    ap.add_argument("--pairs", default="", help="comma-separated a:b pairings (default all)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--tiebreaks", type=int, default=5)
    ap.add_argument("--round-net", type=int, default=0, metavar="ROUNDS")
    args = ap.parse_args()
    if args.round_net:
        round_net(args.round_net)
        return
    pairs: list[tuple[Level, Level]] = ALL_PAIRS
    if args.pairs:
        pairs = []
        for p in args.pairs.split(","):
            a, b = p.split(":")
            assert a in LEVELS and b in LEVELS, p
            pairs.append((a, b))  # type: ignore[arg-type]
    print(f"{'pairing':<16} {'duels':>6} {'net chips/duel (95%)':>22} {'score (95%)':>18} "
          f"{'wins':>6} {'draws':>6} {'time':>7}")
    for pair in pairs:
        duels = args.hard_duels if "hard" in pair else args.duels
        r = run_pair(pair, duels, args.jobs, args.tiebreaks)
        note = f"  (hard: {duels} duels, not {args.duels}, for time)" \
            if "hard" in pair and duels < args.duels else ""
        print(f"{pair[0] + ' v ' + pair[1]:<16} {r['duels']:>6} "
              f"{r['net']:>+10.2f} ± {r['net_ci']:<9.2f} {r['score']:>9.1%} ± {r['score_ci']:<6.1%}"
              f" {r['wins']:>6.1%} {r['draws']:>6.1%} {r['seconds']:>6.0f}s{note}", flush=True)
    print("score = wins + draws/2 for the first level; draws are duels level after "
          f"{args.tiebreaks} accepted tiebreaks; seats alternate; jobs={args.jobs}")


if __name__ == "__main__":
    main()
