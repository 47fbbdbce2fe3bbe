"""Sprites: card faces and backs, chips, the dealer button, the revolver, drawn once and cached.

Shapes are drawn at SS times the size and scaled down, which gives smooth edges without
per-picture cost. `flat(sprite, bg)` is a sprite already laid on a plain colour: pasting it needs
no mask, which keeps composing a table cheap.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from render import layout as L
from render import text
from rules.cards import CARDS, Card, Rank

SS = 3  # supersampling factor for shapes
RGB = tuple[int, int, int]


def _down(im: Image.Image, size: tuple[int, int]) -> Image.Image:
    return im.resize(size, Image.Resampling.LANCZOS)


def _centred(d: ImageDraw.ImageDraw, cx: float, cy: float, s: str, size: int, fill: RGB,
             face: str = "bold") -> None:
    d.text((cx, cy), s, fill=fill, font=text.font(size, face), anchor="mm")


@lru_cache(maxsize=160)
def face(card: Card, w: int = L.CARD_W, h: int = L.CARD_H) -> Image.Image:
    """The face of `card`: an index (rank and suit on one line, legible in a cascade) at the
    top left and upside down at the bottom right, and a large suit in the middle."""
    W, H = w * SS, h * SS
    im = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    r = int(W * 0.09)
    d.rounded_rectangle((0, 0, W - 1, H - 1), r, fill=(*L.CARD, 255), outline=L.CARD_EDGE,
                        width=max(2, SS * 3 // 2))
    colour = L.suit_colour(card.suit)
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
        _centred(d, cx, cy - fh * 0.32, card.rank.label, int(h * 0.30) * SS, colour)
        _centred(d, cx, cy + fh * 0.52, card.suit.symbol, int(h * 0.18) * SS, colour)
    else:
        _centred(d, cx, cy, card.suit.symbol, int(h * 0.46) * SS, colour)
    return _down(im, (w, h))


@lru_cache(maxsize=4)
def back(w: int = L.CARD_W, h: int = L.CARD_H) -> Image.Image:
    W, H = w * SS, h * SS
    im = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    r = int(W * 0.09)
    d.rounded_rectangle((0, 0, W - 1, H - 1), r, fill=(*L.CARD, 255), outline=L.CARD_EDGE,
                        width=max(2, SS * 3 // 2))
    inset = int(W * 0.08)
    box = (inset, inset, W - 1 - inset, H - 1 - inset)
    d.rounded_rectangle(box, r // 2, fill=L.BACK)
    lattice = Image.new("L", (W, H), 0)
    ld = ImageDraw.Draw(lattice)
    step = 14 * SS
    for k in range(-H, W + H, step):
        ld.line((k, 0, k + H, H), fill=255, width=SS * 2)
        ld.line((k, H, k + H, 0), fill=255, width=SS * 2)
    clip = Image.new("L", (W, H), 0)
    ImageDraw.Draw(clip).rounded_rectangle(box, r // 2, fill=255)
    lattice.paste(0, (0, 0), Image.eval(clip, lambda v: 255 - v))
    im.paste(L.BACK_LINE, (0, 0), lattice)
    return _down(im, (w, h))


def flat(sprite: Image.Image, bg: RGB) -> Image.Image:
    """`sprite` laid on the plain colour `bg` (RGB, pasted without a mask)."""
    out = Image.new("RGB", sprite.size, bg)
    out.paste(sprite, (0, 0), sprite)
    return out


@lru_cache(maxsize=64)
def stack(card: Card) -> Image.Image:
    """A hand still in play on the felt: four backs behind its face-up card (RGB)."""
    x0, y0, x1, y1 = L.stack_box(0)
    im = Image.new("RGBA", (x1 - x0, y1 - y0), (0, 0, 0, 0))
    b = back()
    for k in range(4, 0, -1):
        im.alpha_composite(b, (k * L.BACK_DX, (4 - k) * L.BACK_DY))
    im.alpha_composite(face(card), (0, 4 * L.BACK_DY))
    return flat(im, L.FELT)


@lru_cache(maxsize=48)
def cascade(cards: tuple[Card, ...]) -> Image.Image:
    """A turned-over hand on the felt: its cards one above the other, each showing its index
    strip, the last one whole (RGB; pasted without a mask)."""
    x0, y0, x1, y1 = L.cascade_box(0)
    im = Image.new("RGB", (x1 - x0, y1 - y0), L.FELT)
    for i, card in enumerate(cards):
        sprite = face(card)
        im.paste(sprite, (0, i * L.STRIP), sprite)
    return im


@lru_cache(maxsize=16)
def chip(player: int, n: int, bg: RGB = L.FELT) -> Image.Image:
    """`n` chips (1 or 2, stacked) in the colour of `player`, the count on the top one (RGB);
    `n=0` is one chip with no count (the player's token on their panel)."""
    d_ = 46
    lift = 12
    W, H = d_ * SS, (d_ + lift) * SS
    im = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    colour = L.PLAYER[player]
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
            _centred(d, cx, cy + SS, str(n), 22 * SS, dark)
    return flat(_down(im, (d_, d_ + lift)), bg)


@lru_cache(maxsize=4)
def dealer_button(letter: str, bg: RGB = L.PANEL) -> Image.Image:
    d_ = 40
    W = d_ * SS
    im = Image.new("RGBA", (W, W), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    d.ellipse((SS, SS, W - SS, W - SS), fill=(250, 250, 240), outline=(150, 150, 140),
              width=SS * 2)
    _centred(d, W / 2, W / 2 + SS, letter, 24 * SS, L.BLACK)
    return flat(_down(im, (d_, d_)), bg)


@lru_cache(maxsize=4)
def star(size: int = 40, bg: RGB | None = None) -> Image.Image:
    """The winner's badge: a gold star in a dark disc (RGBA unless `bg` is given)."""
    W = size * SS
    im = Image.new("RGBA", (W, W), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    d.ellipse((0, 0, W - 1, W - 1), fill=(60, 40, 0, 255), outline=L.GOLD, width=SS * 2)
    c = W / 2
    pts = []
    for k in range(10):
        rad = W * (0.40 if k % 2 == 0 else 0.17)
        t = math.radians(-90 + k * 36)
        pts.append((c + math.cos(t) * rad, c + math.sin(t) * rad))
    d.polygon(pts, fill=L.GOLD)
    out = _down(im, (size, size))
    return flat(out, bg) if bg is not None else out


@lru_cache(maxsize=64)
def cylinder(spent: int, current: int | None, bg: RGB = L.FELT) -> Image.Image:
    """The revolver's cylinder, six chambers for the six bullets of a duel, the first at the
    top and on clockwise: the first `spent` are empty, `current` (1..6) is lit, the rest
    loaded; the bonus-duel chambers (3 and 6) have a gold rim."""
    size = L.CYLINDER
    W = size * SS
    im = Image.new("RGBA", (W, W), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    c = W / 2
    d.ellipse((2 * SS, 2 * SS, W - 2 * SS, W - 2 * SS), fill=(92, 98, 106), outline=(40, 42, 48),
              width=SS * 3)
    for k in range(6):  # the flutes between chambers
        t = math.radians(-60 + k * 60)
        px, py = c + math.cos(t) * W * 0.47, c + math.sin(t) * W * 0.47
        d.ellipse((px - 7 * SS, py - 7 * SS, px + 7 * SS, py + 7 * SS), fill=(*bg, 255))
    d.ellipse((c - 8 * SS, c - 8 * SS, c + 8 * SS, c + 8 * SS), fill=(50, 52, 58))
    rad = W * 0.29
    hole = 14 * SS
    for k in range(6):
        t = math.radians(-90 + k * 60)
        px, py = c + math.cos(t) * rad, c + math.sin(t) * rad
        box = (px - hole, py - hole, px + hole, py + hole)
        number = k + 1
        rim = L.GOLD if number in (3, 6) else (40, 42, 48)
        if number <= spent:
            d.ellipse(box, fill=(24, 24, 28), outline=rim, width=SS * 2)
        else:
            lit = number == current
            d.ellipse(box, fill=(236, 92, 70) if lit else (200, 160, 70), outline=rim,
                      width=SS * 3 if lit else SS * 2)
            p = hole * 0.42
            d.ellipse((px - p, py - p, px + p, py + p), fill=(250, 220, 150) if lit else
                      (150, 112, 40))
    return flat(_down(im, (size, size)), bg)


@lru_cache(maxsize=1)
def grid() -> Image.Image:
    """The cards-out grid with every card unseen (RGB on the felt); a table pastes the cells
    that differ over it."""
    x0, y0 = L.GRID_X, L.GRID_Y
    im = Image.new("RGB", (13 * L.CELL_W, 4 * L.CELL_H), L.FELT)
    for card in CARDS:
        bx, by, _, _ = L.cell_box(card)
        im.paste(cell(card, "unseen"), (bx - x0, by - y0))
    return im


@lru_cache(maxsize=256)
def cell(card: Card, state: str) -> Image.Image:
    """A cell of the cards-out grid: "unseen" (white), "up" (white, gold rim: a face-up card
    of a hand still in play) or "out" (dark, struck through). RGB on the felt."""
    w, h = L.CELL_W - 3, L.CELL_H - 3
    W, H = w * SS, h * SS
    im = Image.new("RGB", (W, H), L.FELT)
    d = ImageDraw.Draw(im)
    if state == "out":
        d.rounded_rectangle((0, 0, W - 1, H - 1), 4 * SS, fill=L.OUT_CELL)
        _centred(d, W / 2, H / 2, card.rank.label, 16 * SS, L.OUT_TEXT, "narrow")
        d.line((4 * SS, H - 5 * SS, W - 4 * SS, 5 * SS), fill=L.OUT_TEXT, width=SS * 2)
    else:
        d.rounded_rectangle((0, 0, W - 1, H - 1), 4 * SS, fill=L.CARD,
                            outline=L.GOLD if state == "up" else L.CARD,
                            width=SS * 3 if state == "up" else 1)
        _centred(d, W / 2, H / 2, card.rank.label, 17 * SS, L.suit_colour(card.suit), "narrow")
    return _down(im, (w, h))


@lru_cache(maxsize=4)
def swatch(state: str) -> Image.Image:
    """A small sample of a cards-out cell style, for the grid's legend."""
    w, h = 22, 16
    im = Image.new("RGB", (w * SS, h * SS), L.FELT)
    d = ImageDraw.Draw(im)
    box = (0, 0, w * SS - 1, h * SS - 1)
    if state == "out":
        d.rounded_rectangle(box, 3 * SS, fill=L.OUT_CELL)
        d.line((3 * SS, h * SS - 4 * SS, w * SS - 3 * SS, 4 * SS), fill=L.OUT_TEXT, width=SS * 2)
    else:
        d.rounded_rectangle(box, 3 * SS, fill=L.CARD, outline=L.GOLD if state == "up" else L.CARD,
                            width=SS * 3 if state == "up" else 1)
    return _down(im, (w, h))
