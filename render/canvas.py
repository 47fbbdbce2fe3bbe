"""The canvas every picture is drawn on: its width and margins, the felt with its rail, the size
of a card and how a face-down stack is offset, and the player panels' boxes at the top."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from render import palette as P

Box = tuple[int, int, int, int]  # left, top, right, bottom

W = 1200
MARGIN = 24
RAIL_W = 10

CARD_W, CARD_H = 118, 165
BACK_DX, BACK_DY = 7, 5  # each back of a face-down stack, up and to the right of the one before

# the player panels: the duel's two, six-card poker's player (the left one)
PANEL_W = 420
PANELS: tuple[Box, Box] = ((MARGIN, 16, MARGIN + PANEL_W, 134),
                           (W - MARGIN - PANEL_W, 16, W - MARGIN, 134))


@lru_cache(maxsize=4)
def _felt(height: int) -> Image.Image:
    im = Image.new("RGB", (W, height), P.RAIL)
    d = ImageDraw.Draw(im)
    r = RAIL_W
    d.rounded_rectangle((r // 2, r // 2, W - 1 - r // 2, height - 1 - r // 2), 30,
                        outline=P.RAIL_LIGHT, width=2)
    d.rounded_rectangle((r, r, W - 1 - r, height - 1 - r), 26, fill=P.FELT)
    return im


def canvas(height: int) -> Image.Image:
    """A fresh felt table `height` px tall (a copy of a cached one)."""
    return _felt(height).copy()
