"""Where the duel's pictures put things: every box of the table, the reveal and the result, in
pixels (a card's size and how a face-down stack is offset are render.canvas's).

The duel is drawn on its own, narrower canvas (W = 960, not the shared 1200): a Telegram photo
on a phone is about 400 points wide, so every word here is drawn at 26 px or more (11 px and
up once the phone scales it down), and the cards are larger on the screen than on a 1200 px
canvas.

The tests sample these boxes (a chip, a winner mark, a cell of the cards-out grid), so the
drawing code and the tests share one source of truth for positions.
"""

from __future__ import annotations

from render.canvas import BACK_DX, BACK_DY, CARD_H, CARD_W, Box
from rules.cards import Card, Rank, Suit

W = 960
MARGIN = 24

# --- header: two player panels, the revolver between them, the round and bullet under it -----
PANEL_W = 372
PANEL_TOP, PANEL_BOTTOM = 16, 128
PANELS: tuple[Box, Box] = ((MARGIN, PANEL_TOP, MARGIN + PANEL_W, PANEL_BOTTOM),
                           (W - MARGIN - PANEL_W, PANEL_TOP, W - MARGIN, PANEL_BOTTOM))
CYLINDER = 98  # the revolver sprite is CYLINDER x CYLINDER
CYLINDER_XY = ((W - CYLINDER) // 2, 18)
ROUND_LABEL_Y = PANEL_BOTTOM + 6
HEADER_H = ROUND_LABEL_Y + 40

# --- the table: the row of six hands --------------------------------------------------------
STRIP = 36  # how much of each card a turned-over hand shows above the next
COL_W = (W - 2 * MARGIN) // 6
HANDS_Y = HEADER_H + 4
NUMBER_H = 34
CARDS_Y = HANDS_Y + NUMBER_H
CASCADE_H = 4 * STRIP + CARD_H
NAME_Y = CARDS_Y + CASCADE_H + 6
NAME_LINE = 29
CHIPS_Y = NAME_Y + 2 * NAME_LINE + 2
CHIPS_H = 58
ROW_BOTTOM = CHIPS_Y + CHIPS_H

# on a fresh deal, who must choose, large, in the felt between the stacks and their chips
CTA: Box = (MARGIN + 20, CARDS_Y + CARD_H + 4 * BACK_DY + 16, W - MARGIN - 20, CHIPS_Y - 8)

# --- under the row: the last bullet of this deal, what happens now, the cards out ------------
FOLD_LINES = 3  # why the bullet was won, what it did, any bonus: wrapped, never cut
FOLD: Box = (MARGIN + 6, ROW_BOTTOM + 10, W - MARGIN - 6, ROW_BOTTOM + 10 + 120)
STATUS_Y = FOLD[3] + 10
STATUS_H = 116  # three lines
FOOTER_Y = STATUS_Y + STATUS_H  # the cards-out title and legend
CELL_W, CELL_H = 62, 40
GRID_RANKS = tuple(Rank(r) for r in range(14, 1, -1))  # A K Q ... 2
GRID_SUITS = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)
GRID_X = MARGIN + 14 + 44  # after the column of suit symbols
GRID_Y = FOOTER_Y + 42
TABLE_H = GRID_Y + 4 * CELL_H + 22


def column(pos: int) -> Box:
    """The column of hand `pos` (0..5) in the table's row."""
    x = MARGIN + pos * COL_W
    return (x, HANDS_Y, x + COL_W, ROW_BOTTOM)


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
    return (x + 4, CHIPS_Y, x + COL_W - 4, CHIPS_Y + CHIPS_H)


def name_box(pos: int) -> Box:
    """The hand's name under a turned-over hand: up to two lines."""
    x = column(pos)[0]
    return (x + 4, NAME_Y, x + COL_W - 4, NAME_Y + 2 * NAME_LINE)


def winner_box(pos: int) -> Box:
    """The winner's badge on a turned-over hand (top right of its cards)."""
    _, y, r, _ = cascade_box(pos)
    return (r - 30, y - 16, r + 14, y + 28)


def cell_box(card: Card) -> Box:
    """The cell of `card` in the cards-out grid."""
    col = GRID_RANKS.index(card.rank)
    row = GRID_SUITS.index(card.suit)
    x, y = GRID_X + col * CELL_W, GRID_Y + row * CELL_H
    return (x, y, x + CELL_W - 4, y + CELL_H - 4)


# --- the reveal: two hands side by side -----------------------------------------------------
BIG_W, BIG_H = 132, 185
BIG_STEP = 78
REVEAL_CARDS_Y = HEADER_H + 108  # the chips and stakes above, under a bonus duel's title
REVEAL_H = REVEAL_CARDS_Y + BIG_H + 290  # four lines of outcome under the hands


def reveal_hand_box(player: int) -> Box:
    w = 4 * BIG_STEP + BIG_W
    half = W // 2
    x = (half - w) // 2 + player * half
    return (x, REVEAL_CARDS_Y, x + w, REVEAL_CARDS_Y + BIG_H)


# --- the result: a banner, why it ended, a chart and the scorecard ----------------------------
BANNER_Y = HEADER_H + 4
CHART: Box = (MARGIN + 70, BANNER_Y + 170, W - MARGIN - 90, BANNER_Y + 370)
SCORE_Y = CHART[3] + 50  # the scorecard's first line
SCORE_LINE = 33  # one player's line of a bullet
SCORE_GAP = 10  # between two bullets
SCORE_ROUND = 36  # a round's title line


def result_height(bullets: int, deals: int) -> int:
    """The result picture's height for a scorecard of `bullets` rows over `deals` deals."""
    return SCORE_Y + 44 + deals * SCORE_ROUND + bullets * (2 * SCORE_LINE + SCORE_GAP) + 20
