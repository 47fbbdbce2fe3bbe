"""What every picture of a duel shares: its felt (the duel's own width, render.duel.layout.W),
the two player panels, the revolver with the round and bullet under it, and the cleaning of the
players' names."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from render import palette as P
from render import sprites, text
from render.duel import layout as L
from render.duel import sprites as duel_sprites
from render.text import Labels
from rules.duel.view import Phase, PublicView


def _felt(height: int) -> Image.Image:
    """The whole felt table, drawn (not cached: 2.4 MB a height; `_rail` keeps its edges)."""
    im = Image.new("RGB", (L.W, height), P.RAIL)
    d = ImageDraw.Draw(im)
    r = L.RAIL_W
    d.rounded_rectangle((r // 2, r // 2, L.W - 1 - r // 2, height - 1 - r // 2), 22,
                        outline=P.RAIL_LIGHT, width=2)
    d.rounded_rectangle((r, r, L.W - 1 - r, height - 1 - r), 20, fill=P.FELT)
    return im


# the rows and columns of the felt that are not plain felt: the rail and the rounded corners
_EDGE = L.RAIL_W + 20 + 1


@lru_cache(maxsize=16)
def _rail(height: int) -> tuple[Image.Image, Image.Image, Image.Image, Image.Image]:
    """The felt's edges (top, bottom, left, right): all of `_felt` that is not plain felt."""
    im, e, r = _felt(height), _EDGE, L.RAIL_W
    return (im.crop((0, 0, L.W, e)), im.crop((0, height - e, L.W, height)),
            im.crop((0, e, r, height - e)), im.crop((L.W - r, e, L.W, height - e)))


def canvas(height: int) -> Image.Image:
    """A fresh felt table of the duel's width, `height` px tall: the pixels of `_felt`, laid
    as a plain fill and its four edges (half the time of copying the whole cached table)."""
    top, bottom, left, right = _rail(height)
    im = Image.new("RGB", (L.W, height), P.FELT)
    im.paste(top, (0, 0))
    im.paste(bottom, (0, height - _EDGE))
    im.paste(left, (0, _EDGE))
    im.paste(right, (L.W - L.RAIL_W, _EDGE))
    return im


def names_of(names: tuple[str, str] | list[str], labels: Labels) -> tuple[str, str]:
    """Player names made safe to draw: undrawable characters dropped, empty ones replaced."""
    out: list[str] = []
    for i in range(2):
        raw = names[i] if i < len(names) else ""
        name = text.clean(str(raw))
        out.append(name or labels.text("pic.duel.player", n=i + 1))
    return (out[0], out[1])


def panels(im: Image.Image, view: PublicView, names: tuple[str, str], labels: Labels, *,
           stacks: tuple[int, int] | None = None, dealer: int | None = None,
           to_act: tuple[int, ...] = (), crown: int | None = None) -> None:
    """Both players: token, name, stack, the dealer button with its word under it and, for
    whoever must act, a lit frame and a "to act" tag left of the dealer's column; `crown` gets
    a gold frame. A stack has no signed figure beside it: on every picture a signed figure is
    what one bullet did (the strip says "this bullet"), never a total since the start."""
    stacks = stacks if stacks is not None else view.stacks
    dealer = view.dealer if dealer is None else dealer
    letter = labels.text("pic.dealer_letter")
    for p in (0, 1):
        x0, y0, x1, y1 = L.PANELS[p]
        lit = p in to_act
        edge = P.GOLD if p == crown else P.PLAYER[p] if lit else P.PANEL_EDGE
        sprites.lay_plate(im, text.flip_box((x0, y0, x1, y1)), 12, P.PANEL, edge,
                          3 if lit or p == crown else 2)
        chip = sprites.chip(p, 0, P.PANEL, L.CHIP)
        im.paste(chip, (text.flip_x(x0 + 9, chip.width), y0 + 8))
        right = x1 - 14
        if p == dealer:
            btn = sprites.dealer_button(letter, P.PANEL, L.BUTTON)
            word = labels.text("pic.dealer")
            col = max(btn.width, text.width(word, 17, "narrow"))
            cx = x1 - 11 - col // 2
            im.paste(btn, (text.flip_x(cx - btn.width // 2, btn.width), y0 + 8))
            text.draw(im, (cx, y0 + 38), word, 17, P.DIM, anchor="m", face="narrow",
                      cell=(x1 - 11 - col, y0 + 37, x1 - 9, y1 - 3))
            right = x1 - 11 - col - 9
        text.draw(im, (x0 + 51, y0 + 6), text.name(names[p], 24, right - x0 - 51), 24, P.TEXT,
                  bg=P.PANEL)
        box = text.draw(im, (x0 + 51, y0 + 38), str(stacks[p]), 33, P.TEXT, bg=P.PANEL)
        if lit:
            tag = "▶ " + labels.text("pic.duel.to_act")
            tag, size = text.fit_shrink(tag, (23, 20, 19), right - box[2] - 12)
            text.draw(im, (right, y0 + 53 + (23 - size) // 2), tag, size, P.PLAYER[p],
                      anchor="r", cell=(box[2] + 6, y0 + 38, right + 1, y1 - 3))


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
    cylinder = duel_sprites.cylinder(spent, current)
    im.paste(cylinder, (text.flip_x(L.CYLINDER_XY[0], cylinder.width), L.CYLINDER_XY[1]))
    if bullet < 1:
        return
    if bullet > view.max_bullets or view.is_tiebreak_round(round_):
        caption = labels.text("pic.duel.tiebreak_bullet", bullet=bullet)
    else:
        caption = labels.text("pic.duel.round_bullet", round=round_, bullet=bullet)
    text.draw(im, (L.W // 2, L.ROUND_LABEL_Y), caption, 23, P.TEXT, anchor="m",
              max_width=L.W - 2 * L.MARGIN - 12, bg=P.FELT)
    if bullet > view.max_bullets:  # a tiebreak bullet: its number on the cylinder's axis
        cx, cy = L.W // 2, L.CYLINDER_XY[1] + L.CYLINDER // 2
        ImageDraw.Draw(im).ellipse((cx - 11, cy - 11, cx + 11, cy + 11), fill=(36, 38, 44),
                                   outline=P.GOLD, width=2)
        text.draw(im, (cx, cy - 9), str(bullet), 15, P.GOLD, anchor="m")
