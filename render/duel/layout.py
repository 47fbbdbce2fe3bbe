"""Where the duel's pictures put things: every box of the table, the reveal and the result, in
pixels, and the size of the duel's cards, chips and badges.

The duel is drawn on its own, narrow canvas (W = 720, not the shared 1200 px): a Telegram photo
on a phone is about 400 points wide, so a wider canvas only buys pixels the phone throws away,
and every pixel costs (libjpeg's time and a photo's bytes go with the pixels). Issue 21 drew it
from the 960 px canvas before it, every size scaled by 0.75 and font sizes rounded up, so the
texts are as large on the phone as they were: the words at 20 px or more (11 px and up once the
phone scales them down), the chart's axis, the dealer's word and a few marks smaller, as they
were. Half a pixel smaller than scaled, so that they fit as before: the status lines (22 for
22.5) and the last fallback sizes of a text too long for its box (a long Spanish stake 16, a
long "to act" tag and the folded bullet's strip 19).

The tests sample these boxes (a chip, a winner mark, a cell of the cards-out grid), so the
drawing code and the tests share one source of truth for positions.
"""

from __future__ import annotations

from render.canvas import Box
from rules.cards import Card, Rank, Suit

W = 720
MARGIN = 18
RAIL_W = 8

# the duel's sprites (the shared ones are drawn at their design size and scaled down to these)
CARD_W, CARD_H = 88, 124
BACK_DX, BACK_DY = 5, 4  # each back of a face-down stack, up and to the right of the one before
CHIP = 35  # a chip's diameter (a stack of two is a quarter taller)
BUTTON = 30  # the dealer's button
STAR = 30  # the winner's badge on a turned-over hand (36 on a reveal and the result's banner)

# --- header: two player panels, the revolver between them, the round and bullet under it -----
PANEL_W = 279
PANEL_TOP, PANEL_BOTTOM = 12, 96
PANELS: tuple[Box, Box] = ((MARGIN, PANEL_TOP, MARGIN + PANEL_W, PANEL_BOTTOM),
                           (W - MARGIN - PANEL_W, PANEL_TOP, W - MARGIN, PANEL_BOTTOM))
CYLINDER = 74  # the revolver sprite is CYLINDER x CYLINDER
CYLINDER_XY = ((W - CYLINDER) // 2, 14)
ROUND_LABEL_Y = PANEL_BOTTOM + 5
HEADER_H = ROUND_LABEL_Y + 30

# --- the table: the row of six hands --------------------------------------------------------
STRIP = 27  # how much of each card a turned-over hand shows above the next
COL_W = (W - 2 * MARGIN) // 6
HANDS_Y = HEADER_H + 3
NUMBER_H = 26
CARDS_Y = HANDS_Y + NUMBER_H
CASCADE_H = 4 * STRIP + CARD_H
NAME_Y = CARDS_Y + CASCADE_H + 5
NAME_LINE = 22
CHIPS_Y = NAME_Y + 2 * NAME_LINE + 2
CHIPS_H = 44
ROW_BOTTOM = CHIPS_Y + CHIPS_H

# on a fresh deal, who must choose, large, in the felt between the stacks and their chips
CTA: Box = (MARGIN + 15, CARDS_Y + CARD_H + 4 * BACK_DY + 12, W - MARGIN - 15, CHIPS_Y - 6)

# --- under the row: the last bullet of this deal, what happens now, the cards out ------------
FOLD_LINES = 3  # why the bullet was won, what it did, any bonus: wrapped, never cut
FOLD: Box = (MARGIN + 5, ROW_BOTTOM + 8, W - MARGIN - 5, ROW_BOTTOM + 8 + 90)
STATUS_Y = FOLD[3] + 8
STATUS_H = 87  # three lines
FOOTER_Y = STATUS_Y + STATUS_H  # the cards-out title and legend
CELL_W, CELL_H = 46, 30
CELL_GAP = 3  # between two cells
GRID_RANKS = tuple(Rank(r) for r in range(14, 1, -1))  # A K Q ... 2
GRID_SUITS = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)
GRID_X = MARGIN + 11 + 33  # after the column of suit symbols
GRID_Y = FOOTER_Y + 32
TABLE_H = GRID_Y + 4 * CELL_H + 17


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
    return (x + 3, CHIPS_Y, x + COL_W - 3, CHIPS_Y + CHIPS_H)


def name_box(pos: int) -> Box:
    """The hand's name under a turned-over hand: up to two lines."""
    x = column(pos)[0]
    return (x + 2, NAME_Y, x + COL_W - 2, NAME_Y + 2 * NAME_LINE)


def winner_box(pos: int) -> Box:
    """The winner's badge on a turned-over hand (top right of its cards)."""
    _, y, r, _ = cascade_box(pos)
    return (r - 22, y - 12, r + 10, y + 21)


def cell_box(card: Card) -> Box:
    """The cell of `card` in the cards-out grid."""
    col = GRID_RANKS.index(card.rank)
    row = GRID_SUITS.index(card.suit)
    x, y = GRID_X + col * CELL_W, GRID_Y + row * CELL_H
    return (x, y, x + CELL_W - CELL_GAP, y + CELL_H - CELL_GAP)


# --- the reveal: two hands side by side -----------------------------------------------------
BIG_W, BIG_H = 99, 139
BIG_STEP = 58
REVEAL_CARDS_Y = HEADER_H + 81  # the chips and stakes above, under a bonus duel's title
REVEAL_H = REVEAL_CARDS_Y + BIG_H + 218  # four lines of outcome under the hands


def reveal_hand_box(player: int) -> Box:
    w = 4 * BIG_STEP + BIG_W
    half = W // 2
    x = (half - w) // 2 + player * half
    return (x, REVEAL_CARDS_Y, x + w, REVEAL_CARDS_Y + BIG_H)


# --- the result: a banner, why it ended, a chart and the scorecard ----------------------------
BANNER_Y = HEADER_H + 3
CHART: Box = (MARGIN + 52, BANNER_Y + 128, W - MARGIN - 68, BANNER_Y + 278)
SCORE_Y = CHART[3] + 38  # the scorecard's first line
SCORE_LINE = 25  # one player's line of a bullet
SCORE_GAP = 8  # between two bullets
SCORE_ROUND = 27  # a round's title line


def result_height(bullets: int, deals: int) -> int:
    """The result picture's height for a scorecard of `bullets` rows over `deals` deals."""
    return SCORE_Y + 33 + deals * SCORE_ROUND + bullets * (2 * SCORE_LINE + SCORE_GAP) + 15
