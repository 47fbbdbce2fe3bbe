"""How a bullet of the duel is settled (RULES.md), as a pure function of the two bets, the two
hands and the stacks (what may be bet is `rules.duel.stakes`').

Each player puts 1 chip (pass) or 2 (play) on a hand. 1 v 1: both take their chip back. 1 v 2:
the player who put 2 takes the 3 chips whatever the cards. 2 v 2: a showdown, the better hand
takes the pot; equal hands split it (suits never count). A bonus duel (the last bullet of a
round, and every tiebreak) has no pass: both put 2, or all they have with a single chip, the
stake is the smaller of the two, and a showdown's winner is also paid the bonus of the
winning hand's category, capped by what the loser has left.
"""

from __future__ import annotations

from rules.cards import Card
from rules.duel.view import BulletResult, Outcome
from rules.hands import evaluate


def settle(
    *, number: int, round_: int, dealer: int, bonus_duel: bool, positions: tuple[int, int],
    cards: tuple[tuple[Card, ...], tuple[Card, ...]], chips: tuple[int, int],
    stacks: tuple[int, int],
) -> BulletResult:
    """The finished bullet: each player's hand (`positions`, `cards`) and chips, indexed by
    player, settled against the `stacks` before it."""
    values = (evaluate(cards[0]), evaluate(cards[1]))
    if bonus_duel:
        stake = min(chips)
        stakes = (stake, stake)
    else:
        stakes = chips
    winner: int | None = None
    if stakes == (1, 1) and not bonus_duel:
        outcome, gain = Outcome.BOTH_PASS, 0
    elif stakes[0] != stakes[1]:
        outcome = Outcome.UNCONTESTED
        winner = 0 if stakes[0] > stakes[1] else 1
        gain = stakes[1 - winner]
    elif values[0] == values[1]:
        outcome, gain = Outcome.SPLIT, 0
    else:
        outcome = Outcome.SHOWDOWN
        winner = 0 if values[0] > values[1] else 1
        gain = stakes[1 - winner]
    after = list(stacks)
    bonus, bonus_category = 0, None
    if winner is not None:
        loser = 1 - winner
        after[winner] += gain
        after[loser] -= gain
        if bonus_duel and outcome is Outcome.SHOWDOWN:
            bonus_category = values[winner].category
            bonus = min(bonus_category.multiplier, after[loser])
            after[winner] += bonus
            after[loser] -= bonus
    won = gain + bonus
    deltas = (0, 0) if winner is None else ((won, -won) if winner == 0 else (-won, won))
    return BulletResult(
        number=number, round=round_, bonus_duel=bonus_duel, dealer=dealer, positions=positions,
        cards=cards, values=values, stakes=stakes, outcome=outcome, winner=winner, bonus=bonus,
        bonus_category=bonus_category, deltas=deltas, stacks_after=(after[0], after[1]),
    )
