"""One kit for the boards: what the standings (render/standings.py) and the tournament's table
(render/tournament.py) share: their felt and width, the sides and the row height, the title
block, the place with its medal, and the colours of a net and a win.

Sized for a phone: Telegram shows a photo about 400 points wide, so the boards are 1000 px wide
and no text a player reads is under 26 px (10 px or more at 400 wide).
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from render import canvas as C
from render import palette as P
from render import sprites, text

RGB = tuple[int, int, int]

W = 1000
SIDE = C.MARGIN + 8  # the rows' and tiles' left and right edge, inside the rail
ROW_H = 54
LABEL = 26  # column labels, tile labels, the title's second and third lines
VALUE = 28  # a row's figures
RANK_X, RANK_W = 62, 48  # the place's column: its centre and width
MEDALS: tuple[RGB, RGB, RGB] = ((255, 206, 72), (206, 212, 220), (214, 140, 74))
WIN: RGB = (140, 230, 150)


def canvas(height: int) -> Image.Image:
    """The felt `W` px wide: the shared table's, cut to width with its right rail kept."""
    full = C.canvas(height)
    im = full.crop((0, 0, W, height))
    im.paste(full.crop((C.W - 60, 0, C.W, height)), (W - 60, 0))
    return im


def net_colour(n: int) -> RGB:
    """A net in chips: won, lost or even."""
    return P.PLUS if n > 0 else P.MINUS if n < 0 else P.TEXT


def draw_title(im: Image.Image, heading: str, lines: tuple[str, ...], right: str,
               keep: int = 0) -> None:
    """The star, the heading, up to two dim lines under it, and a figure on the right; `keep`
    px at the right left free for all of them (the card's rating chart). The heading and the
    first line may be a player's name or a chat's title: they are cut by `text.name`."""
    star = sprites.star(52)
    im.paste(star, (text.flip_x(SIDE + 12, star.width), 28), star)
    x = SIDE + 12 + star.width + 16
    right_w = text.width(right, LABEL) if right else 0
    room = W - SIDE - 12 - max(right_w + 24, keep) - x
    text.draw(im, (x, 20), text.name(heading, 40, room), 40, P.GOLD)
    y = 70
    for i, line in enumerate(lines):
        if line:
            if i == 0:
                line = text.name(line, LABEL, room, "narrow")
            text.draw(im, (x, y), line, LABEL, P.TEXT if i == 0 else P.DIM, face="narrow",
                      max_width=W - SIDE - 12 - keep - x if i else room)
            y += text.line_height(LABEL, "narrow") + 4
    if right:
        text.draw(im, (W - SIDE - 12, 32), right, LABEL, P.TEXT, anchor="r")


def draw_rank(im: Image.Image, rank: int, y: int) -> None:
    """The place of the row whose top is `y`: a medal for the first three (the layout's
    places: on a `text.mirrored` canvas, at the right)."""
    cx, cy = RANK_X, y + ROW_H // 2
    label = str(rank)
    if rank <= 3:
        d = ImageDraw.Draw(im)
        mx = text.flip_x(cx)
        d.ellipse((mx - 20, cy - 20, mx + 20, cy + 20), fill=MEDALS[rank - 1],
                  outline=P.RAIL, width=2)
        text.draw(im, (cx, cy - 16), label, 26, P.BLACK, anchor="m")
    else:
        line, size = text.fit_shrink(label, (VALUE, 24, 20), RANK_W, "narrow")
        text.draw(im, (cx, cy - text.line_height(size, "narrow") // 2), line, size, P.DIM,
                  anchor="m", face="narrow")
