"""Hand evaluator figures: this project against treys and phevaluator, on the same hands.

    python bench/hands.py [--hands N] [--rounds R] [--seed S]

Builds one seeded set of N random 6-card deals (the 5-card hands are their first five cards)
and times, side by side on exactly those cards: single 5-card calls per second, best-of-6
calls per second, and this project's numpy batch path (the same hands tiled to 2 M rows).
The hands are timed in chunks of 5,000, each chunk R times with the evaluators interleaved,
and the best time of each chunk counts (the machine is shared: the best is the least
disturbed); the batch figures are the best of R whole runs. Also prints the import time and
table memory of `rules.hands`, measured in fresh interpreters. Prints figures only; nothing
here is a test. treys and phevaluator are the `bench` extra: a missing one is reported and
skipped.
"""

from __future__ import annotations

import argparse
import importlib
import os
import platform
import random
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from rules.cards import CARDS  # noqa: E402
from rules.hand_batch import evaluate6_batch, evaluate_batch  # noqa: E402
from rules.hands import evaluate  # noqa: E402

BATCH_ROWS = 2_000_000


def optional(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def fresh(code: str, runs: int = 3) -> list[str]:
    """Run `code` in `runs` fresh interpreters; each prints one line. The lines, in order."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return [
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       check=True, env=env, cwd=ROOT).stdout.strip()
        for _ in range(runs)
    ]


IMPORT_TIME = """
import time, rules.cards
t = time.perf_counter()
import rules.hands
print(time.perf_counter() - t)
"""
IMPORT_MEMORY = """
import tracemalloc, rules.cards
tracemalloc.start()
import rules.hands
print(tracemalloc.get_traced_memory()[0])
"""
NUMPY_IMPORT = """
import time
t = time.perf_counter()
import numpy
print(time.perf_counter() - t)
"""
BATCH_BUILD = """
import time, rules.hands, numpy
from rules import hand_batch as hb
t = time.perf_counter(); t5 = hb.tables5(); b5 = time.perf_counter() - t
t = time.perf_counter(); t6 = hb.tables6(); b6 = time.perf_counter() - t
print(b5, t5.nbytes, b6, t6.nbytes)
"""


def per_second(runs: dict[str, Callable[[Sequence[Any]], object]], hands: dict[str, list[Any]],
               rounds: int, chunk: int = 5_000) -> dict[str, float]:
    """Calls per second of each run over its hands: the hands are cut in chunks, each chunk is
    timed `rounds` times (runs interleaved), and the best times of the chunks are added up."""
    n = len(next(iter(hands.values())))
    starts = range(0, n, chunk)
    best = {name: [float("inf")] * len(starts) for name in runs}
    for _ in range(rounds):
        for j, start in enumerate(starts):
            for name, run in runs.items():
                part = hands[name][start : start + chunk]
                t = time.perf_counter()
                run(part)
                best[name][j] = min(best[name][j], time.perf_counter() - t)
    return {name: n / sum(times) for name, times in best.items()}


def loop(f: Callable[[Any], object]) -> Callable[[Sequence[Any]], object]:
    def run(hands: Sequence[Any]) -> None:
        for h in hands:
            f(h)
    return run


def loop_star(f: Callable[..., object]) -> Callable[[Sequence[Sequence[int]]], object]:
    def run(hands: Sequence[Sequence[int]]) -> None:
        for h in hands:
            f(*h)
    return run


def best_of(runs: dict[str, Callable[[], object]], n: int, rounds: int) -> dict[str, float]:
    """Items per second of each run (each does n), best of interleaved rounds."""
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(rounds):
        for name, run in runs.items():
            t = time.perf_counter()
            run()
            best[name] = min(best[name], time.perf_counter() - t)
    return {name: n / s for name, s in best.items()}


def row(label: str, figures: dict[str, float], unit: str, ref: str | None = "treys") -> None:
    parts = []
    for name, x in figures.items():
        vs = f" ({x / figures[ref]:4.1f}x treys)" if ref in figures and name != ref else ""
        parts.append(f"{name} {x / 1e6:7.3f}{vs}")
    print(f"{label:<24}{unit}:  " + " | ".join(parts))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    treys = optional("treys")
    phe = optional("phevaluator")

    print(f"Python {platform.python_version()}, numpy {np.__version__}, {os.cpu_count()} cpus, "
          f"{platform.machine()}; treys {'yes' if treys else 'MISSING'}, "
          f"phevaluator {'yes' if phe else 'MISSING'}")
    rng = random.Random(args.seed)
    deals = [rng.sample(range(52), 6) for _ in range(args.hands)]
    ours6 = [tuple(CARDS[i] for i in d) for d in deals]
    ours5 = [h[:5] for h in ours6]
    print(f"{args.hands:,} seeded 6-card deals (seed {args.seed}); 5-card hands are their "
          f"first five; best of {args.rounds} rounds\n")

    runs5: dict[str, Callable[[Sequence[Any]], object]] = {"this project": loop(evaluate)}
    runs6: dict[str, Callable[[Sequence[Any]], object]] = {"this project": loop(evaluate)}
    hands5: dict[str, list[Any]] = {"this project": ours5}
    hands6: dict[str, list[Any]] = {"this project": ours6}
    if treys is not None:
        evaluator = treys.Evaluator()
        as_treys = [treys.Card.new(str(c)) for c in CARDS]
        hands6["treys"] = [[as_treys[i] for i in d] for d in deals]
        hands5["treys"] = [h[:5] for h in hands6["treys"]]
        runs5["treys"] = runs6["treys"] = loop(lambda h: evaluator.evaluate([], h))
    if phe is not None:  # phevaluator's card id is rank * 4 + suit (c d h s): our Card.index
        hands5["phevaluator"] = [d[:5] for d in deals]
        hands6["phevaluator"] = deals
        runs5["phevaluator"] = runs6["phevaluator"] = loop_star(phe.evaluate_cards)
    row("single 5-card calls", per_second(runs5, hands5, args.rounds), "M/s")
    row("best-of-6 calls", per_second(runs6, hands6, args.rounds), "M/s")

    tiles = -(-BATCH_ROWS // args.hands)
    cards6 = np.tile(np.array(deals, np.uint8), (tiles, 1))[:BATCH_ROWS]
    cards5 = np.ascontiguousarray(cards6[:, :5])
    cards5_i64 = cards5.astype(np.int64)
    evaluate_batch(cards5[:10])  # build the tables outside the timing
    evaluate6_batch(cards6[:10])
    batch = best_of({
        "5 cards uint8": lambda: evaluate_batch(cards5),
        "5 cards int64": lambda: evaluate_batch(cards5_i64),
        "6 cards uint8": lambda: evaluate6_batch(cards6),
    }, len(cards5), args.rounds)
    row(f"numpy batch ({len(cards5) / 1e6:g} M rows)", batch, "M hands/s", ref=None)
    same5 = evaluate_batch(cards5[: args.hands]).tolist() == [evaluate(h).strength for h in ours5]
    same6 = evaluate6_batch(cards6[: args.hands]).tolist() == [
        evaluate(h).strength for h in ours6]
    print(f"{'':<24}batch == single calls on the {args.hands:,} hands: 5 cards {same5}, "
          f"6 cards {same6}")

    print()
    imports = sorted(float(x) for x in fresh(IMPORT_TIME))
    memory = int(fresh(IMPORT_MEMORY, 1)[0])
    numpy_import = sorted(float(x) for x in fresh(NUMPY_IMPORT))
    print(f"import rules.hands: {imports[1] * 1e3:.0f} ms (median of 3 fresh interpreters; "
          f"min {imports[0] * 1e3:.0f}), tables and the 7,462 values {memory / 1e6:.1f} MB "
          f"(tracemalloc); numpy is not imported by it (numpy alone: "
          f"{numpy_import[1] * 1e3:.0f} ms)")
    b5, n5, b6, n6 = (float(x) for x in fresh(BATCH_BUILD, 1)[0].split())
    print(f"batch tables, built on first use: 5 cards {b5 * 1e3:.0f} ms, {n5 / 1e6:.2f} MB; "
          f"6 cards {b6 * 1e3:.0f} ms, {n6 / 1e6:.2f} MB")


if __name__ == "__main__":
    main()
