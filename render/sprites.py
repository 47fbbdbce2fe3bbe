"""Sprites every picture shares: card faces and backs, a face-down stack, chips, the dealer
button and the winner's star, drawn once and cached.

Shapes are drawn at SS times the size and scaled down, which gives smooth edges without
per-picture cost; a sprite asked for smaller than its design size (the duel's narrower canvas)
is drawn at the design size and scaled down further: the same drawing, smaller.
`flat(sprite, bg)` is a sprite already laid on a plain colour: pasting it needs no mask, which
keeps composing a picture cheap.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from render import canvas as C
from render import palette as P
from render import text
from rules.cards import Card, Rank

SS = 3  # supersampling factor for shapes
RGB = tuple[int, int, int]


def down(im: Image.Image, size: tuple[int, int]) -> Image.Image:
    """A supersampled drawing scaled down to `size`."""
    return im.resize(size, Image.Resampling.LANCZOS)


def centred(d: ImageDraw.ImageDraw, cx: float, cy: float, s: str, size: int, fill: RGB,
            face: str = "bold") -> None:
    """`s` centred on (cx, cy) in the shipped font."""
    d.text((cx, cy), s, fill=fill, font=text.font_for(s, size, face), anchor="mm")


def _card(w: int, h: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A blank card, supersampled: its rounded white face and edge, on a clear ground."""
    W, H = w * SS, h * SS
    im = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    d.rounded_rectangle((0, 0, W - 1, H - 1), int(W * 0.09), fill=(*P.CARD, 255),
                        outline=P.CARD_EDGE, width=max(2, SS * 3 // 2))
    return im, d


@lru_cache(maxsize=2)
def blank(w: int, h: int) -> Image.Image:
    """A card with nothing on it (RGBA): what a card's corners lie over where cards overlap."""
    return down(_card(w, h)[0], (w, h))


@lru_cache(maxsize=312)  # 52 cards at the duel's, its reveal's and six-card's sizes, and more
def face(card: Card, w: int = C.CARD_W, h: int = C.CARD_H, deck: P.Deck = P.Deck.CLASSIC
         ) -> Image.Image:
    """The face of `card` in `deck`'s colours: an index (rank and suit on one line, legible in
    a cascade) at the top left and upside down at the bottom right, and a large suit in the
    middle."""
    im, d = _card(w, h)
    W, H = im.size
    colour = P.suit_colour(card.suit, deck)
    index = card.rank.label + card.suit.symbol
    isize = int(h * 0.19) * SS
    pad = int(W * 0.07)
    d.text((pad, int(H * 0.02)), index, fill=colour, font=text.font(isize, "narrow"))
    corner = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    ImageDraw.Draw(corner).text((pad, int(H * 0.02)), index, fill=colour,
                                font=text.font(int(isize * 0.8), "narrow"))
    im.alpha_composite(corner.rotate(180))
    cx, cy = W / 2, H * 0.56
    if card.rank in (Rank.JACK, Rank.QUEEN, Rank.KING):
        fw, fh = W * 0.30, H * 0.25
        d.rounded_rectangle((cx - fw, cy - fh, cx + fw, cy + fh), SS * 4, outline=colour,
                            width=SS * 2)
        centred(d, cx, cy - fh * 0.32, card.rank.label, int(h * 0.30) * SS, colour)
        centred(d, cx, cy + fh * 0.52, card.suit.symbol, int(h * 0.18) * SS, colour)
    else:
        centred(d, cx, cy, card.suit.symbol, int(h * 0.46) * SS, colour)
    return down(im, (w, h))


@lru_cache(maxsize=4)
def back(w: int = C.CARD_W, h: int = C.CARD_H) -> Image.Image:
    W, H = w * SS, h * SS
    im = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    r = int(W * 0.09)
    d.rounded_rectangle((0, 0, W - 1, H - 1), r, fill=(*P.CARD, 255), outline=P.CARD_EDGE,
                        width=max(2, SS * 3 // 2))
    inset = int(W * 0.08)
    box = (inset, inset, W - 1 - inset, H - 1 - inset)
    d.rounded_rectangle(box, r // 2, fill=P.BACK)
    lattice = Image.new("L", (W, H), 0)
    ld = ImageDraw.Draw(lattice)
    step = round(14 * w / C.CARD_W) * SS  # the same lattice on a smaller card
    for k in range(-H, W + H, step):
        ld.line((k, 0, k + H, H), fill=255, width=SS * 2)
        ld.line((k, H, k + H, 0), fill=255, width=SS * 2)
    clip = Image.new("L", (W, H), 0)
    ImageDraw.Draw(clip).rounded_rectangle(box, r // 2, fill=255)
    lattice.paste(0, (0, 0), Image.eval(clip, lambda v: 255 - v))
    im.paste(P.BACK_LINE, (0, 0), lattice)
    return down(im, (w, h))


def flat(sprite: Image.Image, bg: RGB) -> Image.Image:
    """`sprite` laid on the plain colour `bg` (RGB, pasted without a mask)."""
    out = Image.new("RGB", sprite.size, bg)
    out.paste(sprite, (0, 0), sprite)
    return out


@lru_cache(maxsize=128)
def stack(up: Card | None, backs: int = 4, bg: RGB = P.FELT, w: int = C.CARD_W,
          h: int = C.CARD_H, dx: int = C.BACK_DX, dy: int = C.BACK_DY,
          deck: P.Deck = P.Deck.CLASSIC) -> Image.Image:
    """Cards face down, as every game shows them: `backs` backs stacked up and to the right
    behind the face-up card `up`, the front card at the bottom left; with `up=None` the front
    card is a back too (`backs` cards in all). Laid on `bg` (RGB): a duel's hand in play, the
    dealer's hole cards, a six-card box not shown yet. Cards `w` x `h`, each back `dx`, `dy`
    from the one before; the face-up card in `deck`'s colours."""
    n = backs if up is not None else backs - 1
    im = Image.new("RGBA", (w + n * dx, h + n * dy), (0, 0, 0, 0))
    b = back(w, h)
    for k in range(n, 0, -1):
        im.alpha_composite(b, (k * dx, (n - k) * dy))
    im.alpha_composite(face(up, w, h, deck) if up is not None else b, (0, n * dy))
    return flat(im, bg)


CHIP = 46  # a chip's design diameter


@lru_cache(maxsize=32)
def chip(player: int, n: int, bg: RGB = P.FELT, size: int = CHIP) -> Image.Image:
    """`n` chips (1 or 2, stacked) in the colour of `player`, the count on the top one (RGB);
    `n=0` is one chip with no count (the player's token on their panel). `size` px across."""
    d_ = CHIP
    lift = 12
    W, H = d_ * SS, (d_ + lift) * SS
    im = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    colour = P.PLAYER[player]
    dark = (int(colour[0] * 0.55), int(colour[1] * 0.55), int(colour[2] * 0.55))
    for k in range(max(1, min(n, 2))):
        top = (lift * SS if n > 1 else lift * SS // 2) - k * lift * SS
        box = (SS, top + SS, W - SS, top + d_ * SS - SS)
        d.ellipse((box[0], box[1] + 3 * SS, box[2], box[3] + 3 * SS), fill=(*dark, 255))
        d.ellipse(box, fill=(*colour, 255), outline=(*dark, 255), width=SS * 2)
        cx, cy = W / 2, (box[1] + box[3]) / 2
        rad = (box[2] - box[0]) / 2
        for a in range(6):
            t = math.radians(a * 60 + 15)
            px, py = cx + math.cos(t) * rad * 0.84, cy + math.sin(t) * rad * 0.84
            d.ellipse((px - 4 * SS, py - 4 * SS, px + 4 * SS, py + 4 * SS), fill=(255, 255, 255))
        d.ellipse((cx - rad * 0.56, cy - rad * 0.56, cx + rad * 0.56, cy + rad * 0.56),
                  fill=(255, 255, 255, 255))
        if n and k == min(n, 2) - 1:
            centred(d, cx, cy + SS, str(n), 22 * SS, dark)
    return flat(down(im, (size, round(size * (d_ + lift) / d_))), bg)


@lru_cache(maxsize=4)
def dealer_button(letter: str, bg: RGB = P.PANEL, size: int = 40) -> Image.Image:
    """The dealer's button with its `letter`, `size` px across."""
    d_ = 40
    W = d_ * SS
    im = Image.new("RGBA", (W, W), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    d.ellipse((SS, SS, W - SS, W - SS), fill=(250, 250, 240), outline=(150, 150, 140),
              width=SS * 2)
    centred(d, W / 2, W / 2 + SS, letter, 24 * SS, P.BLACK)
    return flat(down(im, (size, size)), bg)


@lru_cache(maxsize=4)
def star(size: int = 40, bg: RGB | None = None) -> Image.Image:
    """The winner's badge: a gold star in a dark disc (RGBA unless `bg` is given)."""
    W = size * SS
    im = Image.new("RGBA", (W, W), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    d.ellipse((0, 0, W - 1, W - 1), fill=(60, 40, 0, 255), outline=P.GOLD, width=SS * 2)
    c = W / 2
    pts = []
    for k in range(10):
        rad = W * (0.40 if k % 2 == 0 else 0.17)
        t = math.radians(-90 + k * 36)
        pts.append((c + math.cos(t) * rad, c + math.sin(t) * rad))
    d.polygon(pts, fill=P.GOLD)
    out = down(im, (size, size))
    return flat(out, bg) if bg is not None else out


@lru_cache(maxsize=32)
def plate(w: int, h: int, radius: int, fill: RGB, outline: RGB | None = None, width: int = 1,
          bg: RGB = P.FELT) -> Image.Image:
    """A rounded box `w` x `h` px (a panel, the fold's strip, a scorecard row) laid on `bg`
    (RGB): pasting it at a box's top left gives the pixels of drawing
    `rounded_rectangle(box, radius, fill, outline, width)` on that plain colour, at a copy's
    cost instead of a drawing's."""
    im = Image.new("RGB", (w, h), bg)
    ImageDraw.Draw(im).rounded_rectangle((0, 0, w - 1, h - 1), radius, fill=fill, outline=outline,
                                         width=width)
    return im


def lay_plate(im: Image.Image, box: tuple[int, int, int, int], radius: int, fill: RGB,
              outline: RGB | None = None, width: int = 1, bg: RGB = P.FELT) -> None:
    """`plate` pasted over `box` (left, top, right, bottom, inclusive as ImageDraw's)."""
    x0, y0, x1, y1 = box
    im.paste(plate(x1 - x0 + 1, y1 - y0 + 1, radius, fill, outline, width, bg), (x0, y0))

