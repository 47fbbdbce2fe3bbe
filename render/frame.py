"""What every picture shares: the felt with its rail, the two player panels, the revolver and
the round label, the cleaning of names, and the encoding to bytes."""

from __future__ import annotations

import io
from functools import lru_cache

from PIL import Image, ImageDraw

from render import layout as L
from render import sprites, text
from render.text import Labels
from rules.duel.view import Phase, PublicView

FORMATS = ("jpeg", "png")
JPEG_QUALITY = 80  # with 4:2:0 chroma: ranks stay crisp, a busy table stays under 150 KB


@lru_cache(maxsize=4)
def _felt(height: int) -> Image.Image:
    im = Image.new("RGB", (L.W, height), L.RAIL)
    d = ImageDraw.Draw(im)
    r = L.RAIL_W
    d.rounded_rectangle((r // 2, r // 2, L.W - 1 - r // 2, height - 1 - r // 2), 30,
                        outline=L.RAIL_LIGHT, width=2)
    d.rounded_rectangle((r, r, L.W - 1 - r, height - 1 - r), 26, fill=L.FELT)
    return im


def canvas(height: int) -> Image.Image:
    """A fresh felt table `height` px tall (a copy of a cached one)."""
    return _felt(height).copy()


def names_of(names: tuple[str, str] | list[str], labels: Labels) -> tuple[str, str]:
    """Player names made safe to draw: undrawable characters dropped, empty ones replaced."""
    out: list[str] = []
    for i in range(2):
        raw = names[i] if i < len(names) else ""
        name = text.clean(str(raw))
        out.append(name or labels.text("pic.duel.player", n=i + 1))
    return (out[0], out[1])


def short(name: str, size: int, max_width: int = 220) -> str:
    """A name cut to fit inside a sentence."""
    return text.fit(name, size, max_width)


def panels(im: Image.Image, view: PublicView, names: tuple[str, str], labels: Labels, *,
           stacks: tuple[int, int] | None = None, dealer: int | None = None,
           to_act: tuple[int, ...] = (), crown: int | None = None) -> None:
    """Both players: token, name, stack (and its change since the start), the dealer button
    and, for whoever must act, a lit frame and a "to act" tag; `crown` gets a gold frame."""
    d = ImageDraw.Draw(im)
    stacks = stacks if stacks is not None else view.stacks
    dealer = view.dealer if dealer is None else dealer
    letter = labels.text("pic.dealer_letter")
    for p in (0, 1):
        x0, y0, x1, y1 = L.PANELS[p]
        lit = p in to_act
        edge = L.GOLD if p == crown else L.PLAYER[p] if lit else L.PANEL_EDGE
        d.rounded_rectangle((x0, y0, x1, y1), 16, fill=L.PANEL, outline=edge,
                            width=4 if lit or p == crown else 2)
        im.paste(sprites.chip(p, 0, L.PANEL), (x0 + 12, y0 + 10))
        right = x1 - 16
        if p == dealer:
            btn = sprites.dealer_button(letter)
            bx = x1 - 14 - btn.width
            im.paste(btn, (bx, y0 + 10))
            text.draw(im, (bx + btn.width // 2, y0 + 52), labels.text("pic.dealer"), 16, L.DIM,
                      anchor="m")
            right = bx - 10
        text.draw(im, (x0 + 70, y0 + 12), names[p], 30, L.TEXT, max_width=right - x0 - 70)
        stack = stacks[p]
        box = text.draw(im, (x0 + 70, y0 + 56), str(stack), 38, L.TEXT)
        delta = stack - view.start_stack
        if delta:
            text.draw(im, (box[2] + 10, y0 + 70), text.signed(delta), 22,
                      L.PLUS if delta > 0 else L.MINUS)
        if lit:
            tag = "▶ " + labels.text("pic.duel.to_act")
            text.draw(im, (x1 - 16, y0 + 80), tag, 20, L.PLAYER[p], anchor="r")


def revolver(im: Image.Image, view: PublicView, labels: Labels, *, bullet: int | None = None,
             round_: int | None = None, live: bool = True) -> None:
    """The cylinder (spent, lit and loaded chambers) and the round and bullet under it.
    `live=False` draws a finished bullet `bullet` as spent (for a reveal)."""
    bullet = view.bullet if bullet is None else bullet
    round_ = view.round if round_ is None else round_
    if live and view.phase is Phase.BULLET:
        spent, current = bullet - 1, bullet
    else:
        spent, current = (bullet if not live else len(view.results)), None
    spent = max(0, min(6, spent))
    current = current if current is not None and current <= 6 else None
    im.paste(sprites.cylinder(spent, current), L.CYLINDER_XY)
    if bullet < 1:
        return
    if bullet > view.max_bullets or round_ > 2:
        caption = labels.text("pic.duel.tiebreak_bullet", bullet=bullet)
    else:
        caption = labels.text("pic.duel.round_bullet", round=round_, bullet=bullet)
    text.draw(im, (L.W // 2, L.ROUND_LABEL_Y), caption, 22, L.TEXT, anchor="m",
              max_width=L.W - 2 * (L.MARGIN + L.PANEL_W) - 16)
    if bullet > 6:  # a tiebreak bullet: its number on the cylinder's axis
        cx, cy = L.W // 2, L.CYLINDER_XY[1] + L.CYLINDER // 2
        ImageDraw.Draw(im).ellipse((cx - 15, cy - 15, cx + 15, cy + 15), fill=(36, 38, 44),
                                   outline=L.GOLD, width=2)
        text.draw(im, (cx, cy - 12), str(bullet), 19, L.GOLD, anchor="m")


def encode(im: Image.Image, fmt: str) -> bytes:
    """JPEG or PNG bytes; both are deterministic (no timestamps, no metadata)."""
    buf = io.BytesIO()
    f = fmt.lower()
    if f in ("jpeg", "jpg"):
        im.save(buf, "JPEG", quality=JPEG_QUALITY, subsampling=2)
    elif f == "png":
        im.save(buf, "PNG", compress_level=6)
    else:
        raise ValueError(f"unknown picture format {fmt!r}: use one of {FORMATS}")
    return buf.getvalue()
