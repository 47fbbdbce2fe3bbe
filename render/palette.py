"""The colours of every picture: a dark felt with its own frame reads the same on light and dark
chat themes."""

from __future__ import annotations

from enum import StrEnum

from rules.cards import Suit

RGB = tuple[int, int, int]

FELT: RGB = (22, 96, 64)
PANEL: RGB = (14, 70, 46)
PANEL_EDGE: RGB = (40, 124, 86)
RAIL: RGB = (62, 36, 22)
RAIL_LIGHT: RGB = (116, 74, 40)
TEXT: RGB = (244, 244, 236)
DIM: RGB = (168, 204, 184)
GOLD: RGB = (255, 206, 72)
PLUS: RGB = (255, 214, 96)
MINUS: RGB = (255, 150, 140)
PLAYER: tuple[RGB, RGB] = ((84, 176, 255), (255, 128, 84))
CARD: RGB = (251, 251, 247)
CARD_EDGE: RGB = (128, 128, 124)
RED: RGB = (206, 24, 40)
BLACK: RGB = (22, 22, 30)
BACK: RGB = (46, 50, 118)
BACK_LINE: RGB = (82, 90, 168)
OUT_CELL: RGB = (12, 62, 40)
OUT_TEXT: RGB = (66, 116, 90)


class Deck(StrEnum):
    """How a picture colours the suits, a chat's setting: the classic deck (♠ ♣ black, ♥ ♦ red)
    or the four-colour deck (♠ black, ♥ red, ♦ blue, ♣ green), where a flush of clubs never
    looks like one of spades. Every picture that shows a card takes it as `deck=`."""

    CLASSIC = "classic"
    FOUR = "four"


# The four-colour deck's blue and green, chosen to stay apart with deuteranopia and protanopia
# too (tests/render/test_colour_blind.py): a plain green (0, 140, 60) reads as the red hearts
# there (CIEDE2000 6 with deuteranopia), so clubs are a blue-green and diamonds a deep blue.
BLUE: RGB = (40, 40, 200)
GREEN: RGB = (0, 140, 130)
_ON_CARD: dict[Deck, tuple[RGB, RGB, RGB, RGB]] = {  # clubs, diamonds, hearts, spades
    Deck.CLASSIC: (BLACK, RED, RED, BLACK),
    Deck.FOUR: (GREEN, BLUE, RED, BLACK),
}


def suit_colour(suit: Suit, deck: Deck = Deck.CLASSIC) -> RGB:
    """The colour of `suit` on a card (white) in `deck`."""
    return _ON_CARD[deck][suit]
