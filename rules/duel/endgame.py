"""The endgame, searched whole: from bullet 2 of round 2 on, for `hard`, the review and the hint
(all through `rules.duel.judge`).

From there the rest of the duel is at most two bullets: bullet 2 (the opponent's hand and
stake, the dealer's answer, a showdown at 2 v 2) and the bonus duel that ends the round (the
opponent picks one of the two hands left, the dealer gets the other). `Endgame(view, me,
samples, rng, worth).values(bets)` values each of `me`'s legal bets with **both** players
choosing best for their own chance to win the duel (the worths of the two players add up to
1), each choice made on what is public when it is made: the hands left, the stacks and the
bets of the bullet (the bonus duel's pick is made on the stacks after bullet 2, not on the ten
cards bullet 2 turned over: a subset of what is public then). Chance is `samples` joint
completions of the hidden cards (`rules.duel.odds.sample_strengths`, drawn in chunks of
`CHUNK`); `worth[m]` is what the end of the duel is worth to `me` finishing with m chips.

The samples enter only through counts: for each way of splitting the hands left into bullet
2's pair and the bonus duel's pair, how often each (bullet 2's showdown result, the bonus
duel's result, its winner's category) came up. The tree is searched on those counts, so its
cost does not grow with the samples, and the values are the ones a search sample by sample
would give on the same samples (tests/rules/duel/test_endgame.py checks it against one).
Pure: from the public view and the random source only.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

import numpy as np
import numpy.typing as npt

from rules.duel import stakes
from rules.duel.actions import Bet
from rules.duel.odds import Rng, as_generator, categories_of, sample_strengths, table_of
from rules.duel.view import HandState, Phase, PublicView
from rules.hands import Category

__all__ = ["CHUNK", "END_CHIP", "Endgame", "in_endgame", "worth_of"]

Floats = npt.NDArray[np.float64]
CHUNK = 50_000  # joint completions drawn at once (memory: ~40 bytes an unseen card each)
# A chip's worth at the end, only to order moves of exactly equal chances (a duel already
# decided): differences of chances are multiples of 0.5 / samples, far above it.
END_CHIP = 1e-9
_MULTIPLIER = tuple(Category(c).multiplier for c in range(10))

# counts[e2, eb, cat]: e2 the showdown of bullet 2's pair (0 second better, 1 tie, 2 first
# better), eb the same for the bonus duel's pair, cat the category of the bonus duel's winner
# (0 on a tie); for a bonus duel alone, counts[1, eb, cat].
Counts = npt.NDArray[np.int64]


def in_endgame(view: PublicView) -> bool:
    """The rest of the duel is this search's: a bullet from bullet 2 of the last regular round
    on (a tiebreak deal is not: its level finish is another tiebreak)."""
    return (view.phase is Phase.BULLET and view.round == view.rounds
            and view.bullet_in_round >= 2)


def worth_of(view: PublicView, me: int) -> Floats:
    """What the end of the duel is worth to `me` by `me`'s stack then (0 .. both stacks):
    1 ahead, 0 behind, a level finish half (a draw: the tiebreak that may follow is offered,
    and either player may decline it), plus `END_CHIP` a chip."""
    total = sum(view.stacks)
    mine = np.arange(total + 1)
    out: Floats = np.where(2 * mine > total, 1.0, np.where(2 * mine < total, 0.0, 0.5))
    return out + END_CHIP * (mine - view.start_stack)


class Endgame:
    """The rest of the duel from bullet 2 of round 2 on, values for `me` (see the module)."""

    def __init__(self, view: PublicView, me: int, samples: int, rng: Rng,
                 worth: Floats) -> None:
        if not in_endgame(view):
            raise ValueError("the endgame starts at bullet 2 of the last round")
        table = table_of(view)
        self.view, self.me, self.worth = view, me, worth
        self.positions = table.positions
        self.total = sum(view.stacks)
        self.opp, self.dealer = view.opponent, view.dealer
        self.sign = 1 if me == self.opp else -1  # `me`'s gain per chip the opponent gains
        h = len(self.positions)
        self.counts: dict[tuple[int, int], Counts] = {}  # bullet 2's pair (i < j) -> counts
        gen = as_generator(rng)
        done = 0
        while done < samples:
            size = min(CHUNK, samples - done)
            self._count(sample_strengths(table, size, gen).astype(np.int64), h)
            done += size

    def _count(self, s: npt.NDArray[np.int64], h: int) -> None:
        cats = categories_of(s).astype(np.int64)
        hands = range(h)
        pairs = list(combinations(hands, 2)) if h > 2 else [(-1, -1)]
        for i, j in pairs:
            k, m = [x for x in hands if x not in (i, j)]
            e2 = 1 if i < 0 else np.sign(s[:, i] - s[:, j]) + 1
            eb = np.sign(s[:, k] - s[:, m]) + 1
            cat = np.where(eb == 2, cats[:, k], np.where(eb == 0, cats[:, m], 0))
            code = (e2 * 3 + eb) * 10 + cat
            counts = np.bincount(code, minlength=90).reshape(3, 3, 10)
            if (i, j) in self.counts:
                self.counts[i, j] += counts
            else:
                self.counts[i, j] = counts

    # --- the bonus duel ---------------------------------------------------------------------

    def _bonus_pick(self, mine: int, counts: Counts, pick_first: bool | None) -> float:
        """`me`'s mean worth after the bonus duel on `counts` ([eb, cat], the pair's first
        hand against its second) from `me`'s stack `mine`: the opponent takes the first
        hand (`pick_first`), the second, or (None) the better of the two for it."""
        if pick_first is None:
            first = self._bonus_pick(mine, counts, True)
            second = self._bonus_pick(mine, counts, False)
            return max(first, second) if self.me == self.opp else min(first, second)
        o = mine if self.me == self.opp else self.total - mine
        d = self.total - o
        stake = min(2, o, d)
        n = value = 0.0
        for eb in (0, 1, 2):
            for cat in range(10):
                c = int(counts[eb, cat])
                if not c:
                    continue
                win = (eb - 1) if pick_first else (1 - eb)  # for the opponent
                loser = (d if win > 0 else o) - stake
                gain = win * (stake + min(_MULTIPLIER[cat], loser)) if win else 0
                value += c * float(self.worth[mine + self.sign * gain])
                n += c
        return value / n

    def _after_bullet(self, mine: int, counts: Counts) -> float:
        """`me`'s mean worth once bullet 2 left `me` at `mine` on the samples of `counts`: a
        bust ends the duel, else the bonus duel, its pick the opponent's best."""
        if mine <= 0 or mine >= self.total:
            return float(self.worth[max(0, min(self.total, mine))])
        return self._bonus_pick(mine, counts, None)

    # --- bullet 2 ----------------------------------------------------------------------------

    def _pair(self, i: int, j: int) -> tuple[Counts, int]:
        """Bullet 2's counts with the opponent's hand i first (e2: 2 when i is better), and
        how many samples."""
        if i < j:
            counts = self.counts[i, j]
        else:
            counts = self.counts[j, i][::-1]
        return counts, int(counts.sum())

    def _bullet(self, i: int, c: int, j: int, d: int) -> float:
        """`me`'s mean worth after the opponent's c chips on hand i and the dealer's d on j."""
        counts, n = self._pair(i, j)
        mine = self.view.stacks[self.me]
        if c == d == 2:
            value = 0.0
            for e2 in (0, 1, 2):
                part = counts[e2]
                size = int(part.sum())
                if size:
                    value += size * self._after_bullet(mine + self.sign * 2 * (e2 - 1), part)
            return value / n
        moved = 0 if c == d else (1 if c > d else -1)
        return self._after_bullet(mine + self.sign * moved, counts.sum(axis=0))

    def _answer(self, i: int, c: int) -> float:
        """`me`'s worth after `me`'s c chips on hand i as the opponent: the dealer's best
        answer, the worst for `me`."""
        hands = [j for j in range(len(self.positions)) if j != i]
        chips = stakes.allowed_chips(self.view.stacks[self.dealer], False)
        return min(self._bullet(i, c, j, d) for j in hands for d in chips)

    def values(self, bets: Sequence[Bet]) -> list[float]:
        """The worth to `me` of each of `me`'s legal bets now."""
        index = {pos: k for k, pos in enumerate(self.positions)}
        chosen = [h for h in self.view.hands if h.state is HandState.CHOSEN]
        out: list[float] = []
        for bet in bets:
            k = index[bet.position]
            if self.view.bonus_duel:  # hands 0 and 1 left: did the opponent take hand 0?
                taken = index[chosen[0].position] if chosen else k
                out.append(self._bonus_pick(self.view.stacks[self.me], self.counts[-1, -1][1],
                                            taken == 0))
            elif chosen:  # `me` is the dealer, answering bullet 2
                i, c = index[chosen[0].position], chosen[0].chips
                out.append(self._bullet(i, c, k, bet.chips))
            else:
                out.append(self._answer(k, bet.chips))
        return out
