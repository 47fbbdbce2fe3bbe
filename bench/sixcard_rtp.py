"""Six-card poker: the return to player of one simple fixed strategy, with the real rules.

    python bench/sixcard_rtp.py [--hands N] [--boxes B] [--ante A] [--seed S]

The strategy, on boxes 1 and 2 (box 3, with three boxes, plays blind): play any pair or
better and any ace-king high; otherwise buy a sixth card, then play a pair or better and fold
the rest; never replace. When the dealer has no game, buy it one for every playing box that
holds two pair or better. Every game goes through `SixCardGame` (deal, apply, settle), with a
balance large enough never to refuse anything.

Prints the return to player (everything returned and won / everything staked and paid in
fees) with a 95% confidence interval (the ratio estimator's normal approximation over games),
how often each of the player's final categories comes up and what it returns, and how the
boxes end. Prints figures only; nothing here is a test.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.i18n import translator  # noqa: E402
from render.text import hand_name  # noqa: E402
from rules.cards import Rank, shuffled_deck  # noqa: E402
from rules.hands import Category, HandValue  # noqa: E402
from rules.sixcard import (  # noqa: E402
    Bought,
    BoxOpened,
    BoxOutcome,
    BoxSettled,
    Buy,
    DealerGame,
    DealerReplaced,
    DealerRevealed,
    Fold,
    Play,
    SixAction,
    SixCardGame,
    SixEvent,
)

BALANCE = 10**9


def first_decision(value: HandValue) -> SixAction:
    if value.category >= Category.ONE_PAIR:
        return Play()
    if value.ranks[:2] == (Rank.ACE, Rank.KING):  # ace-king high
        return Play()
    return Buy()


def after_buy(value: HandValue) -> SixAction:
    return Play() if value.category >= Category.ONE_PAIR else Fold()


def play_game(game: SixCardGame, events: list[SixEvent]) -> list[SixEvent]:
    """Play one dealt game to the end with the strategy; all its events."""
    values: dict[int, HandValue] = {}
    latest = events
    while not game.is_over:
        for e in latest:
            if isinstance(e, BoxOpened | Bought):
                values[e.box] = e.value
        box = game.current
        assert box is not None
        action: SixAction
        if isinstance(latest[-1], BoxOpened) and latest[-1].box == box:
            action = first_decision(values[box])
        elif isinstance(latest[-1], Bought):
            action = after_buy(values[box])
        else:  # the dealer's game is on offer for this box
            action = DealerGame(values[box].category >= Category.TWO_PAIR)
        latest = game.apply(action)
        events += latest
    return events


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200_000, help="games to play")
    parser.add_argument("--boxes", type=int, default=1, choices=(1, 2, 3))
    parser.add_argument("--ante", type=int, default=10)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    antes = (args.ante,) * args.boxes

    paid_in: list[int] = []
    paid_out: list[int] = []
    categories: Counter[Category] = Counter()
    category_in: Counter[Category] = Counter()
    category_out: Counter[Category] = Counter()
    outcomes: Counter[BoxOutcome] = Counter()
    dealer_games = dealer_replaces = dealer_replaced_qualified = dealer_qualified = 0
    started = time.perf_counter()
    for _ in range(args.hands):
        game = SixCardGame.new(antes, BALANCE)
        events = play_game(game, game.deal(shuffled_deck(rng)))
        paid_in.append(game.money.paid_in)
        paid_out.append(game.money.paid_out)
        for e in events:
            if isinstance(e, BoxSettled):
                s = e.settlement
                categories[s.value.category] += 1
                category_in[s.value.category] += s.money.paid_in
                category_out[s.value.category] += s.money.paid_out
                outcomes[s.outcome] += 1
                dealer_games += s.bought_dealer_game
            elif isinstance(e, DealerRevealed):
                dealer_qualified += e.qualifies
            elif isinstance(e, DealerReplaced):
                dealer_replaces += 1
                dealer_replaced_qualified += e.qualifies
    elapsed = time.perf_counter() - started

    n, total_in, total_out = len(paid_in), sum(paid_in), sum(paid_out)
    rtp = total_out / total_in
    mean_in = total_in / n
    residuals = [o - rtp * i for i, o in zip(paid_in, paid_out, strict=True)]
    var = sum(r * r for r in residuals) / (n - 1)
    half = 1.96 * math.sqrt(var / n) / mean_in
    boxes = sum(categories.values())

    print(f"six-card poker, {n:,} games, {args.boxes} box(es), ante {args.ante}, "
          f"seed {args.seed}, {elapsed:.1f} s ({n / elapsed:,.0f} games/s)")
    print("strategy: play a pair+ or A-K high; else buy a sixth card, play a pair+, fold the "
          "rest; never replace; buy the dealer a game with two pair+")
    print(f"staked and fees: {total_in:,}  returned and won: {total_out:,}  "
          f"net to the player: {total_out - total_in:+,}")
    print(f"RTP {rtp:.2%}  95% CI [{rtp - half:.2%}, {rtp + half:.2%}]  "
          f"(house edge {1 - rtp:.2%} of everything put down)")
    replaced_share = dealer_replaced_qualified / max(dealer_replaces, 1)
    print(f"dealer qualifies on the deal: {dealer_qualified / n:.2%} of games; dealer games "
          f"bought on {dealer_games / boxes:.2%} of boxes; the dealer replaced a card "
          f"{dealer_replaces:,} times and then qualified {replaced_share:.1%} of them")
    print()
    print(f"{'final hand':<16}{'boxes':>9}{'share':>9}{'RTP':>9}")
    for category in sorted(categories, reverse=True):
        print(f"{hand_name(translator('en'), category):<16}{categories[category]:>9,}"
              f"{categories[category] / boxes:>9.3%}"
              f"{category_out[category] / category_in[category]:>9.1%}")
    print()
    print(f"{'box outcome':<16}{'boxes':>9}{'share':>9}")
    for outcome in BoxOutcome:
        print(f"{outcome.value:<16}{outcomes[outcome]:>9,}{outcomes[outcome] / boxes:>9.3%}")


if __name__ == "__main__":
    main()
