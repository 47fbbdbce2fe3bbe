"""What decided between two hand values: their category, their main ranks, or a kicker.

Pure and without language: the bot says it in words (its catalogs), this only says which.

- `main_ranks(value)`: the ranks that name the hand ("a pair of queens": (12,); "two pair,
  kings and fives": (13, 5); "full house, kings full of fives": (13, 5); a straight or a
  straight flush: its top card, 5 for the wheel A-2-3-4-5; a flush or high card: its top card;
  a royal flush: none). The rest of `value.ranks` are its kickers.
- `decided_by(a, b)`: `Decider.CATEGORY` (a pair beats high card), `Decider.RANK` (the same
  category, a main rank differs: a pair of queens beats a pair of twos), `Decider.KICKER` (the
  same category and main ranks, a kicker differs) or `Decider.EQUAL` (a split).
"""

from __future__ import annotations

from enum import Enum

from rules.hands import Category, HandValue

__all__ = ["Decider", "decided_by", "main_ranks"]


class Decider(Enum):
    CATEGORY = "category"
    RANK = "rank"
    KICKER = "kicker"
    EQUAL = "equal"


# How many of a value's ranks name it, by category; the others are its kickers.
_MAIN = {
    Category.HIGH_CARD: 1,
    Category.ONE_PAIR: 1,
    Category.TWO_PAIR: 2,
    Category.THREE_OF_A_KIND: 1,
    Category.STRAIGHT: 1,
    Category.FLUSH: 1,
    Category.FULL_HOUSE: 2,
    Category.FOUR_OF_A_KIND: 1,
    Category.STRAIGHT_FLUSH: 1,
    Category.ROYAL_FLUSH: 0,
}


def main_ranks(value: HandValue) -> tuple[int, ...]:
    """The ranks that name the hand, highest role first (see the module's docstring)."""
    return value.ranks[:_MAIN[value.category]]


def decided_by(a: HandValue, b: HandValue) -> Decider:
    """What makes the better of `a` and `b` better (symmetric: the order does not matter)."""
    if a == b:
        return Decider.EQUAL
    if a.category is not b.category:
        return Decider.CATEGORY
    if main_ranks(a) != main_ranks(b):
        return Decider.RANK
    return Decider.KICKER
