"""An AI duelist, from the public view only: `choose(view, player, level, rng) -> Action`.

Levels:
- `random`: a uniformly random legal move (a yardstick for the benchmarks).
- `easy`: the greedy baseline. The hand with the highest face-up card, always PLAY (2); as the
  dealer, a PASS (1) is answered with 2 on the weakest-looking hand (the lowest face-up card),
  anything else with 2 on the highest face-up card. Ties go to the leftmost hand.
- `normal`: maximises the bullet's expected chips from the odds (`rules.duel.odds`, sampled),
  pass and play included: the opponent assumes the dealer's best answer to each of its moves;
  the dealer knows the opponent's hand and bet. A bonus duel counts the bonus table
  (`rules.duel.search`, one bullet deep).
- `hard`: the judge (`rules.duel.judge`, the review's and the hint's too): each legal bet is
  played out to the end of the deal by rollouts (`rules.duel.rollout`) on `SAMPLES["hard"]`
  joint completions of the remaining hands (the same ones for every bet), and the bet with
  the best mean P(win the duel) is taken (after round 1, round 2 is the chance node
  `ROUND_NET`; chips as the tie-break). Inside a rollout the cards decide only
  outcomes: `hard`'s own later choices are the best on average over the samples that share
  what is public then (the hands left, the stacks), the other player's are a 50/50 mixture of
  the `easy` rule and the `normal` rule (on today's odds); stakes are capped as the rules cap
  them, a bust ends the duel. From bullet 2 of round 2 on the rest of the duel is small and
  the judge searches it whole (`rules.duel.endgame`, on `ENDGAME_SAMPLES` joint completions):
  both players best for their chance to win the duel, a level finish half.

Every level answers a tiebreak offer by accepting it. Pure: the move is a function of the view,
the player, the level and the random source (a `random.Random` or numpy `Generator`), never of
a hidden card; the same source gives the same move.
"""

from __future__ import annotations

import random

from rules.duel import stakes
from rules.duel.actions import Action, Bet, TiebreakAnswer
from rules.duel.judge import ENDGAME_SAMPLES, JUDGE_SAMPLES, best_index, judge
from rules.duel.levels import LEVELS, Level, parse_level
from rules.duel.odds import Rng
from rules.duel.search import CHIP_WEIGHT, ROUND_NET, TIEBREAK_EDGE, Search, leaf_after, odds_of
from rules.duel.view import HandState, Phase, PublicView

__all__ = [
    "CHIP_WEIGHT", "ENDGAME_SAMPLES", "LEVELS", "ROUND_NET", "SAMPLES", "TIEBREAK_EDGE",
    "Level", "choose", "leaf_after", "legal_moves", "parse_level",
]

SAMPLES = {"normal": 2000, "hard": JUDGE_SAMPLES}  # joint completions behind each decision


def legal_moves(view: PublicView, player: int) -> list[Action]:
    """What `player` may do now, as the rules say (`DuelState.legal_actions`), surrender aside."""
    if player not in view.to_act:
        return []
    if view.phase is Phase.TIEBREAK_OFFER:
        return [TiebreakAnswer(True), TiebreakAnswer(False)]
    if view.phase is not Phase.BULLET:
        return []
    chips = stakes.allowed_chips(view.stacks[player], view.bonus_duel)
    free = [h.position for h in view.hands if h.state is HandState.AVAILABLE]
    return [Bet(p, c) for p in free for c in chips]


def choose(view: PublicView, player: int, level: Level, rng: Rng) -> Action:
    """The move of `player` at `level`, from the public view and the random source only."""
    legal = legal_moves(view, player)
    if not legal:
        raise ValueError(f"player {player} has no move now")
    if view.phase is Phase.TIEBREAK_OFFER:
        return TiebreakAnswer(True)
    bets = [a for a in legal if isinstance(a, Bet)]
    if len(bets) == 1:
        return bets[0]
    if level == "random":
        if isinstance(rng, random.Random):
            return bets[rng.randrange(len(bets))]
        return bets[int(rng.integers(len(bets)))]
    if level == "easy":
        return _easy(view, player, bets)
    if level in ("normal", "hard"):
        return _search(view, player, bets, level, rng)
    raise ValueError(f"no AI level {level!r}")


# --- easy ----------------------------------------------------------------------------------


def _easy(view: PublicView, player: int, bets: list[Bet]) -> Bet:
    def rank(b: Bet) -> int:
        return int(view.hands[b.position].face_up.rank)

    most = max(b.chips for b in bets)
    chosen = [h for h in view.hands if h.state is HandState.CHOSEN]
    if player == view.dealer and chosen and chosen[0].chips == 1 and not view.bonus_duel:
        # a pass: PLAY on the weakest-looking hand takes the 3 chips whatever the cards
        return min((b for b in bets if b.chips == most), key=lambda b: (rank(b), b.position))
    return max((b for b in bets if b.chips == most), key=lambda b: (rank(b), -b.position))


def _search(view: PublicView, player: int, bets: list[Bet], level: Level, rng: Rng) -> Bet:
    if level == "hard":
        return bets[best_index(judge(view, player, bets, rng, samples=SAMPLES["hard"]))]
    before = view.stacks[player]
    search = Search(view, player, odds_of(view, SAMPLES["normal"], rng), 1,
                     lambda s, _over: float(s[player] - before))
    return search.decide(bets)
