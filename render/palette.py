"""The colours of every picture: a dark felt with its own frame reads the same on light and dark
chat themes."""

from __future__ import annotations

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


def suit_colour(suit: Suit) -> RGB:
    return RED if suit.is_red else BLACK
