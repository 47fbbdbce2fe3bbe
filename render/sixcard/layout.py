"""Where six-card poker's table puts things, in pixels: row 0 is the dealer's lane, rows 1..3
the boxes (the canvas, a card's size and the player's panel are render.canvas's).

The picture is as tall as the game has boxes (`height(len(view.boxes))`); the tests sample
these boxes. It is 1000 px wide, not the duel's 1200, so that on a phone (a photo about 400
points wide) no word a player reads is under 26 px, i.e. 10 px or more, with the cards as large
as the duel's; three boxes still make a picture no taller than it is wide.
"""

from __future__ import annotations

from render import canvas as C
from render import palette as P
from render.canvas import Box

RGB = tuple[int, int, int]
Edge = tuple[RGB, int]  # a frame's colour and width

W = 1000
HEADER_H = 142
PANEL: Box = (C.MARGIN, 16, C.MARGIN + 360, 134)  # the player's name, balance, chips in play
LANE_X0, LANE_X1 = C.MARGIN + 4, W - C.MARGIN - 4
LANE_H = 204  # the cards (and the pad of a new card's rim) clear the frame at the bottom
LANE_GAP = 8
BOTTOM = 18
TITLE_X = LANE_X0 + 16
CARDS_X = 240
STEP = 50  # a card's visible strip: its index and a part of its middle
SIXTH_GAP = 10  # a bought sixth card sits apart
CARD_TOP = 30  # cards start this far below the lane's top; tags go above them
DROP_W, DROP_H = 80, 112
DROP_X = CARDS_X + 5 * STEP + SIXTH_GAP + C.CARD_W + 10
OUT_X0 = DROP_X + DROP_W + 10
OUT_X1 = LANE_X1 - 10
STATUS_X = PANEL[2] + 24
CHIP_ROWS = (84, 144)  # the ANTE's and the BET's chip, below the lane's top
CHIP_H = 44  # a chip's row: the chip scaled to fit, its amount beside it
TEXT = 26  # the smallest text a lane or the header draws (10 px on a phone)

LIT: RGB = P.PLAYER[0]  # the player's colour: their panel token and the box they decide
LANE_FILL: RGB = P.PANEL
GREY_MIX = 0.45  # how far a dropped card fades into the lane
FAN_PAD = 4  # room around a fan for the rim of a new card
PLAIN: Edge = (P.PANEL_EDGE, 2)  # a lane's frame when nothing marks it


def height(boxes: int) -> int:
    """The picture's height for a game of `boxes` boxes (before the deal: as for one)."""
    n = max(1, boxes)
    return HEADER_H + (n + 1) * LANE_H + n * LANE_GAP + BOTTOM


def lane_box(row: int) -> Box:
    """Row 0: the dealer's lane; row b + 1: box b's."""
    y = HEADER_H + row * (LANE_H + LANE_GAP)
    return (LANE_X0, y, LANE_X1, y + LANE_H)


def card_box(row: int, k: int, w: int = C.CARD_W, h: int = C.CARD_H) -> Box:
    """Card `k` (0..5, in dealt order) of a lane."""
    _, y, _, _ = lane_box(row)
    x = CARDS_X + k * STEP + (SIXTH_GAP if k == 5 else 0)
    return (x, y + CARD_TOP, x + w, y + CARD_TOP + h)


def dropped_box(row: int) -> Box:
    """The greyed card a replace dropped."""
    _, y, _, _ = lane_box(row)
    top = y + CARD_TOP + (C.CARD_H - DROP_H) // 2
    return (DROP_X, top, DROP_X + DROP_W, top + DROP_H)


def chip_box(row: int, which: int) -> Box:
    """The ANTE's (0) or the BET's (1) chip and amount in a box's title column."""
    _, y, _, _ = lane_box(row)
    top = y + CHIP_ROWS[which]
    return (TITLE_X, top, CARDS_X - 10, top + CHIP_H)


def outcome_box(row: int) -> Box:
    """The column with the hand's name and, when settled, the outcome and the net."""
    _, y0, _, y1 = lane_box(row)
    return (OUT_X0, y0 + 8, OUT_X1, y1 - 8)
