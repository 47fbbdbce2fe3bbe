"""Where the duel's pictures put things: every box of the table, the reveal and the result, in
pixels (the canvas, a card's size and the panels are render.canvas's).

The tests sample these boxes (a chip, a winner mark, a cell of the cards-out grid), so the
drawing code and the tests share one source of truth for positions.
"""

from __future__ import annotations

from render.canvas import BACK_DX, BACK_DY, CARD_H, CARD_W, MARGIN, Box, W
from rules.cards import Card, Rank, Suit

# --- header: two player panels and the revolver between them ---------------------------------
HEADER_H = 150
CYLINDER = 98  # the revolver sprite is CYLINDER x CYLINDER
CYLINDER_XY = ((W - CYLINDER) // 2, 14)
ROUND_LABEL_Y = 118

# --- the table: the row of six hands --------------------------------------------------------
TABLE_H = 772
STRIP = 36  # how much of each card a turned-over hand shows above the next
COL_W = (W - 2 * MARGIN) // 6
HANDS_Y = HEADER_H + 14
NUMBER_H = 28
CARDS_Y = HANDS_Y + NUMBER_H
CASCADE_H = 4 * STRIP + CARD_H
NAME_Y = CARDS_Y + CASCADE_H + 6
CHIPS_Y = NAME_Y + 32
CHIPS_H = 58
FOOTER_Y = CHIPS_Y + CHIPS_H + 14

# --- the cards-out grid (13 ranks x 4 suits) ------------------------------------------------
CELL_W, CELL_H = 38, 26
GRID_RANKS = tuple(Rank(r) for r in range(14, 1, -1))  # A K Q ... 2
GRID_SUITS = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)
GRID_X = MARGIN + 14 + CELL_W + 4  # after the column of suit symbols
GRID_Y = FOOTER_Y + 36
STATUS_X = GRID_X + 13 * CELL_W + 36


def column(pos: int) -> Box:
    """The column of hand `pos` (0..5) in the table's row."""
    x = MARGIN + pos * COL_W
    return (x, HANDS_Y, x + COL_W, CHIPS_Y + CHIPS_H)


def stack_box(pos: int) -> Box:
    """Where a hand still in play (face-up card and four backs) is drawn."""
    w, h = CARD_W + 4 * BACK_DX, CARD_H + 4 * BACK_DY
    x = column(pos)[0] + (COL_W - w) // 2
    return (x, CARDS_Y, x + w, CARDS_Y + h)


def cascade_box(pos: int) -> Box:
    """Where a turned-over hand (five cards, one above the other) is drawn."""
    x = column(pos)[0] + (COL_W - CARD_W) // 2
    return (x, CARDS_Y, x + CARD_W, CARDS_Y + CASCADE_H)


def chips_box(pos: int) -> Box:
    x = column(pos)[0]
    return (x + 8, CHIPS_Y, x + COL_W - 8, CHIPS_Y + CHIPS_H)


def name_box(pos: int) -> Box:
    x = column(pos)[0]
    return (x + 4, NAME_Y, x + COL_W - 4, NAME_Y + 28)


def winner_box(pos: int) -> Box:
    """The winner's badge on a turned-over hand (top right of its cards)."""
    _, y, r, _ = cascade_box(pos)
    return (r - 30, y - 16, r + 14, y + 28)


def cell_box(card: Card) -> Box:
    """The cell of `card` in the cards-out grid."""
    col = GRID_RANKS.index(card.rank)
    row = GRID_SUITS.index(card.suit)
    x, y = GRID_X + col * CELL_W, GRID_Y + row * CELL_H
    return (x, y, x + CELL_W - 3, y + CELL_H - 3)


# --- the reveal: two hands side by side -----------------------------------------------------
REVEAL_H = 680
BIG_W, BIG_H = 150, 210
BIG_STEP = 92
REVEAL_CARDS_Y = HEADER_H + 84


def reveal_hand_box(player: int) -> Box:
    w = 4 * BIG_STEP + BIG_W
    half = W // 2
    x = (half - w) // 2 + player * half
    return (x, REVEAL_CARDS_Y, x + w, REVEAL_CARDS_Y + BIG_H)


# --- the result: a banner and a chart -------------------------------------------------------
RESULT_H = 640
CHART: Box = (MARGIN + 70, HEADER_H + 120, W - MARGIN - 120, RESULT_H - 70)
