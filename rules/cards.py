"""Cards and the deck: immutable values that parse and print round-trip.

`Card.parse("As")` and `str(card) == "As"`; `card.display` is the form people read (`A♠`).
Chance enters only through an injected random source: `shuffled_deck(rng)`.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import IntEnum


class CardParseError(ValueError):
    """A text that is not a card (or not a list of cards)."""


class Rank(IntEnum):
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def char(self) -> str:
        return _RANK_CHARS[self - 2]

    @property
    def label(self) -> str:
        """How the rank is printed on a card face: '10' rather than 'T'."""
        return "10" if self is Rank.TEN else self.char

    @classmethod
    def parse(cls, text: str) -> Rank:
        t = text.strip().upper()
        if t == "10":
            return cls.TEN
        if len(t) == 1 and t in _RANK_CHARS:
            return cls(_RANK_CHARS.index(t) + 2)
        raise CardParseError(f"not a rank: {text!r} (use 2-9, T or 10, J, Q, K, A)")


class Suit(IntEnum):
    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def char(self) -> str:
        return "cdhs"[self]

    @property
    def symbol(self) -> str:
        return "♣♦♥♠"[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.DIAMONDS, Suit.HEARTS)

    @classmethod
    def parse(cls, text: str) -> Suit:
        t = text.strip()
        if len(t) == 1:
            if t.lower() in "cdhs":
                return cls("cdhs".index(t.lower()))
            if t in "♣♦♥♠":
                return cls("♣♦♥♠".index(t))
            if t in "♧♢♡♤":
                return cls("♧♢♡♤".index(t))
        raise CardParseError(f"not a suit: {text!r} (use c, d, h, s or ♣ ♦ ♥ ♠)")


_RANK_CHARS = "23456789TJQKA"
_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One playing card. Ordered by rank, then suit (the order is for sorting only:
    suits never break ties between hands)."""

    rank: Rank
    suit: Suit
    # Precomputed keys for the hand evaluator (not part of equality or ordering).
    index: int = field(init=False, compare=False, repr=False)
    prime: int = field(init=False, compare=False, repr=False)
    rank_bit: int = field(init=False, compare=False, repr=False)
    suit_nibble: int = field(init=False, compare=False, repr=False)
    code: str = field(init=False, compare=False, repr=False)  # "As": what str() prints

    def __post_init__(self) -> None:
        if not isinstance(self.rank, Rank) or not isinstance(self.suit, Suit):
            raise TypeError("Card needs a Rank and a Suit")
        object.__setattr__(self, "index", (self.rank - 2) * 4 + self.suit)
        object.__setattr__(self, "prime", _PRIMES[self.rank - 2])
        object.__setattr__(self, "rank_bit", 1 << (self.rank - 2))
        object.__setattr__(self, "suit_nibble", 1 << (4 * self.suit))
        object.__setattr__(self, "code", f"{self.rank.char}{self.suit.char}")

    @classmethod
    def parse(cls, text: str) -> Card:
        """`"As"`, `"Td"`, `"10d"`, `"A♠"` -> Card. Raises CardParseError otherwise."""
        t = text.strip()
        if len(t) < 2:
            raise CardParseError(f"not a card: {text!r} (examples: As, Td, 10d, A♠)")
        return CARDS[(Rank.parse(t[:-1]) - 2) * 4 + Suit.parse(t[-1])]

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card with `card.index == index` (0..51)."""
        if not 0 <= index < 52:
            raise CardParseError(f"card index out of range: {index}")
        return CARDS[index]

    @property
    def display(self) -> str:
        """The form people read: `A♠`, `10♦`."""
        return f"{self.rank.label}{self.suit.symbol}"

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Card.from_index, (self.index,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self


# The 52 cards, in index order (2c 2d 2h 2s 3c ... As); every Card in play is one of these.
CARDS: tuple[Card, ...] = tuple(Card(Rank(r), Suit(s)) for r in range(2, 15) for s in range(4))
DECK: tuple[Card, ...] = CARDS
_BY_CODE: dict[str, Card] = {str(c): c for c in CARDS}


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """`"As Kd 7h"` or `"AsKd7h"` or `["As", "Kd"]` -> cards."""
    if isinstance(text, str):
        parts = text.replace(",", " ").split()
        if len(parts) == 1 and len(parts[0]) > 3:
            s = parts[0]
            parts = [s[i : i + 2] for i in range(0, len(s), 2)]
        # Canonical codes ("As") by lookup, the rest through the full parser.
        return tuple(_BY_CODE.get(p) or Card.parse(p) for p in parts)
    return tuple(Card.parse(p) for p in text)


def format_cards(cards: Sequence[Card], sep: str = " ") -> str:
    return sep.join(str(c) for c in cards)


def shuffled_deck(rng: random.Random | None = None) -> tuple[Card, ...]:
    """A shuffled copy of the 52-card deck. `rng` defaults to `secrets.SystemRandom()`
    (unpredictable, for real play); tests pass a seeded `random.Random`."""
    source = rng if rng is not None else secrets.SystemRandom()
    cards = list(CARDS)
    source.shuffle(cards)
    return tuple(cards)
