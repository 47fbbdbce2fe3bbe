"""What a player may put on a hand (RULES.md): a bet is 1 chip (pass) or 2 (play), never more
than the stack; a bonus duel has no pass: 2 chips, or all-in with a single chip. Functions of a
stack alone, so the state machine (`rules.duel.state`) and the searches (`ai`, `search`,
`endgame`) apply the same rule.
"""

from __future__ import annotations

from rules.duel.actions import IllegalBet


def allowed_chips(stack: int, bonus_duel: bool) -> list[int]:
    """The chips a player holding `stack` may put on a hand."""
    if bonus_duel:
        return [min(2, stack)]
    return [1, 2] if stack >= 2 else [1]


def check_chips(chips: int, stack: int, bonus_duel: bool) -> None:
    """Raise the IllegalBet naming why `chips` may not be bet from `stack`, or return None."""
    if bonus_duel:
        if chips != min(2, stack):
            if chips == 1 and stack >= 2:
                raise IllegalBet("no passing in a bonus duel: both players put 2 chips")
            raise IllegalBet(f"in a bonus duel the stake is {min(2, stack)}")
        return
    if chips not in (1, 2):
        raise IllegalBet("a bet is 1 chip (pass) or 2 chips (play)")
    if chips > stack:
        raise IllegalBet(f"a bet of {chips} is more than the stack of {stack}")
