"""Six-card poker's own sprites, drawn once and cached: the felt with its lanes framed, a hand's
cards fanned out on a lane, and a card a replace took out (see render.sprites)."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw, ImageOps

from render import canvas as C
from render import palette as P
from render import sprites
from render.sixcard.layout import (
    DROP_H,
    DROP_W,
    FAN_PAD,
    GREY_MIX,
    LANE_FILL,
    PANEL,
    Edge,
    W,
    card_box,
    height,
    lane_box,
)
from rules.cards import Card


def felt(height: int) -> Image.Image:
    """The shared felt `W` px wide: cut to width, its right rail kept."""
    full = C.canvas(height)
    im = full.crop((0, 0, W, height))
    im.paste(full.crop((C.W - 60, 0, C.W, height)), (W - 60, 0))
    return im


@lru_cache(maxsize=4)
def chip(which: int, height: int) -> Image.Image:
    """The ANTE's (0) or the BET's (1) chip, `height` px tall, on the lane (RGB)."""
    sprite = sprites.chip(which, 0, LANE_FILL)
    w = round(sprite.width * height / sprite.height)
    return sprite.resize((w, height), Image.Resampling.LANCZOS)


@lru_cache(maxsize=4)  # 3 MB each for three boxes: the frames of the latest pictures
def base(lanes: tuple[Edge, ...], panel: Edge) -> Image.Image:
    """The felt with the player's panel and the lanes (the dealer's first) framed, nothing in
    them yet: what every picture of a game with these frames starts from (copy it)."""
    im = felt(height(len(lanes) - 1))
    d = ImageDraw.Draw(im)
    d.rounded_rectangle(PANEL, 16, fill=P.PANEL, outline=panel[0], width=panel[1])
    for row, (edge, width) in enumerate(lanes):
        d.rounded_rectangle(lane_box(row), 16, fill=LANE_FILL, outline=edge, width=width)
    return im


@lru_cache(maxsize=32)
def greyed(card: Card, deck: P.Deck = P.Deck.CLASSIC) -> Image.Image:
    """`card` as a card taken out: small, grey, faded into the lane, struck through (RGB)."""
    # scaled from the cached face (not sprites.face at this size: its cache holds the duel's)
    face = sprites.face(card, deck=deck).resize((DROP_W, DROP_H), Image.Resampling.LANCZOS)
    grey = ImageOps.grayscale(face.convert("RGB")).convert("RGB")
    lane = Image.new("RGB", face.size, LANE_FILL)
    out = lane.copy()
    out.paste(Image.blend(grey, lane, GREY_MIX), (0, 0), face)
    d = ImageDraw.Draw(out)
    d.line((10, DROP_H - 12, DROP_W - 10, 12), fill=P.MINUS, width=5)
    return out


@lru_cache(maxsize=32)  # 0.3 MB each at most: the hands of the few games being played
def fan(cards: tuple[Card, ...], new: int | None = None, deck: P.Deck = P.Deck.CLASSIC
        ) -> Image.Image:
    """Cards face up as a lane shows them, left to right from card_box(row, 0), laid on the
    lane's colour with FAN_PAD px around (RGB: pasted without a mask); `new` rimmed in gold."""
    ox, oy, _, bottom = card_box(0, 0)
    right = card_box(0, len(cards) - 1)[2]
    im = Image.new("RGB", (right - ox + 2 * FAN_PAD, bottom - oy + 2 * FAN_PAD), LANE_FILL)
    d = ImageDraw.Draw(im)
    for k, card in enumerate(cards):
        x0, y0, x1, y1 = card_box(0, k)
        x0, y0, x1, y1 = x0 - ox + FAN_PAD, y0 - oy + FAN_PAD, x1 - ox + FAN_PAD, y1 - oy + FAN_PAD
        sprite = sprites.face(card, deck=deck)
        im.paste(sprite, (x0, y0), sprite)
        if k == new:
            d.rounded_rectangle((x0 - 3, y0 - 3, x1 + 2, y1 + 2), 12, outline=P.GOLD, width=4)
    return im
