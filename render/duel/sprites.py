"""The duel's own sprites: a turned-over hand, the revolver's cylinder, and the cards-out grid
with its cells and legend swatches, drawn once and cached (see render.sprites). Each is drawn
at its design size (that of the 960 px canvas it was first drawn for) and scaled down to the
duel's (render.duel.layout)."""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from render import palette as P
from render.duel import layout as L
from render.sprites import RGB, SS, blank, centred, down, face, flat
from rules.cards import CARDS, Card

UP, UP_RIM = (255, 220, 120), (196, 132, 0)  # a face-up card's cell in the grid
CYLINDER, CELL, SWATCH = 98, (58, 36), (30, 22)  # design sizes
SWATCH_SIZE = (23, 17)  # a legend's swatch, drawn


@lru_cache(maxsize=48)
def cascade(cards: tuple[Card, ...], deck: P.Deck = P.Deck.CLASSIC) -> Image.Image:
    """A turned-over hand on the felt: its cards one above the other, each showing its index
    strip, the last one whole (RGB; pasted without a mask). Made of `layer`s, five plain
    pastes: a bot with many duels at once turns over more hands than this cache holds."""
    x0, y0, x1, y1 = L.cascade_box(0)
    im = Image.new("RGB", (x1 - x0, y1 - y0), P.FELT)
    last = len(cards) - 1
    for i, card in enumerate(cards):
        im.paste(layer(card, "first" if i == 0 else "last" if i == last else "middle", deck),
                 (0, i * L.STRIP))
    return im


@lru_cache(maxsize=160)
def layer(card: Card, part: str, deck: P.Deck = P.Deck.CLASSIC) -> Image.Image:
    """One card of a cascade laid on what is under it (RGB): "first", its index strip over
    the felt; "middle", its strip over the edge of the card above (its top corners show that
    card's edge, a blank card's: no index reaches it); "last", whole, its top corners over the
    card above, its bottom corners over the felt."""
    sprite = face(card, L.CARD_W, L.CARD_H, deck)
    w, h = sprite.size
    im = Image.new("RGB", (w, h), P.FELT)
    if part != "first":
        under = blank(w, h).crop((0, L.STRIP, w, h))
        im.paste(under, (0, 0), under)
    im.paste(sprite, (0, 0), sprite)
    return im if part == "last" else im.crop((0, 0, w, L.STRIP))


@lru_cache(maxsize=64)
def cylinder(spent: int, current: int | None, bg: RGB = P.FELT) -> Image.Image:
    """The revolver's cylinder, six chambers for the six bullets of a duel, the first at the
    top and on clockwise: the first `spent` are empty, `current` (1..6) is lit, the rest
    loaded; the bonus-duel chambers (3 and 6) have a gold rim."""
    W = CYLINDER * SS
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
        rim = P.GOLD if number in (3, 6) else (40, 42, 48)
        if number <= spent:
            d.ellipse(box, fill=(24, 24, 28), outline=rim, width=SS * 2)
        else:
            lit = number == current
            d.ellipse(box, fill=(236, 92, 70) if lit else (200, 160, 70), outline=rim,
                      width=SS * 3 if lit else SS * 2)
            p = hole * 0.42
            d.ellipse((px - p, py - p, px + p, py + p), fill=(250, 220, 150) if lit else
                      (150, 112, 40))
    return flat(down(im, (L.CYLINDER, L.CYLINDER)), bg)


@lru_cache(maxsize=2)
def grid(deck: P.Deck = P.Deck.CLASSIC) -> Image.Image:
    """The cards-out grid with every card unseen (RGB on the felt); a table pastes the cells
    that differ over it."""
    x0, y0 = L.GRID_X, L.GRID_Y
    im = Image.new("RGB", (13 * L.CELL_W, 4 * L.CELL_H), P.FELT)
    for card in CARDS:
        bx, by, _, _ = L.cell_box(card)
        im.paste(cell(card, "unseen", deck), (bx - x0, by - y0))
    return im


@lru_cache(maxsize=256)
def cell(card: Card, state: str, deck: P.Deck = P.Deck.CLASSIC) -> Image.Image:
    """A cell of the cards-out grid: "unseen" (white), "up" (white, gold rim: a face-up card
    of a hand still in play) or "out" (dark, struck through). RGB on the felt."""
    w, h = CELL
    W, H = w * SS, h * SS
    im = Image.new("RGB", (W, H), P.FELT)
    d = ImageDraw.Draw(im)
    if state == "out":
        d.rounded_rectangle((0, 0, W - 1, H - 1), 4 * SS, fill=P.OUT_CELL)
        centred(d, W / 2, H / 2, card.rank.label, 26 * SS, P.OUT_TEXT, "narrow")
        d.line((4 * SS, H - 5 * SS, W - 4 * SS, 5 * SS), fill=P.OUT_TEXT, width=SS * 2)
    else:  # face up: a gold cell with a dark gold rim, seen at a glance on a phone
        d.rounded_rectangle((0, 0, W - 1, H - 1), 4 * SS, fill=UP if state == "up" else P.CARD,
                            outline=UP_RIM if state == "up" else P.CARD,
                            width=SS * 4 if state == "up" else 1)
        centred(d, W / 2, H / 2, card.rank.label, 28 * SS, P.suit_colour(card.suit, deck),
                "narrow")
    return down(im, (L.CELL_W - L.CELL_GAP, L.CELL_H - L.CELL_GAP))


@lru_cache(maxsize=4)
def swatch(state: str) -> Image.Image:
    """A small sample of a cards-out cell style, for the grid's legend."""
    w, h = SWATCH
    im = Image.new("RGB", (w * SS, h * SS), P.FELT)
    d = ImageDraw.Draw(im)
    box = (0, 0, w * SS - 1, h * SS - 1)
    if state == "out":
        d.rounded_rectangle(box, 3 * SS, fill=P.OUT_CELL)
        d.line((3 * SS, h * SS - 4 * SS, w * SS - 3 * SS, 4 * SS), fill=P.OUT_TEXT, width=SS * 2)
    else:
        d.rounded_rectangle(box, 3 * SS, fill=UP if state == "up" else P.CARD,
                            outline=UP_RIM if state == "up" else P.CARD,
                            width=SS * 4 if state == "up" else 1)
    return down(im, SWATCH_SIZE)
