"""The six-card poker table at any moment of a game, drawn from its public view only.

    render.sixcard(view, name="Алиса", labels=translator("ru")) -> bytes

A header with the player (name, balance, chips on the table or the game's net) and what happens
now; under it the dealer's lane and one per box (render/sixcard/lanes.py). Nothing here
receives a hidden card: a box not shown yet and the dealer's hole cards are backs because the
view holds no card for them.
"""

from __future__ import annotations

from PIL import Image, ImageDraw, ImageOps

from render import palette as P
from render import sprites, text
from render.encode import TALL, encode
from render.sixcard import lanes
from render.sixcard import sprites as six_sprites
from render.sixcard.layout import HEADER_H, LANE_X1, LIT, PANEL, PLAIN, STATUS_X, TEXT, W, lane_box
from render.text import Labels
from rules.sixcard.view import BET, BUY_FEE, GAME_FEE, REPLACE_FEE, BoxState, SixCardView, SixPhase

Line = lanes.Line


def _on_table(view: SixCardView) -> int:
    return sum(b.ante + b.bet for b in view.boxes
               if b.settlement is None and b.state is not BoxState.FOLDED)


def _panel(im: Image.Image, view: SixCardView, name: str, labels: Labels) -> None:
    x0, y0, x1, _ = PANEL
    over = view.is_over
    chip = sprites.chip(0, 0, P.PANEL)
    im.paste(chip, (text.flip_x(x0 + 12, chip.width), y0 + 10))
    line, size = text.name_shrink(name, (30, 26, 22), x1 - x0 - 86)
    text.draw(im, (x0 + 70, y0 + 12 + (30 - size) // 2), line, size, P.TEXT)
    box = text.draw(im, (x0 + 70, y0 + 56), str(view.balance), 38, P.TEXT)
    if over:
        if view.net:
            text.draw(im, (box[2] + 10, y0 + 66), text.signed(view.net, change=True), 28,
                      lanes.net_colour(view.net))
    elif view.boxes:
        text.draw(im, (x1 - 14, y0 + 66), labels.text("pic.sixcard.on_table", n=_on_table(view)),
                  TEXT, P.DIM, anchor="r", face="narrow", max_width=x1 - box[2] - 26)


def status_lines(view: SixCardView, labels: Labels) -> list[Line]:
    """What happens now, in words: (text, size, colour) lines."""
    out: list[Line] = []
    box = view.boxes[view.to_act] if view.to_act is not None and view.boxes else None
    if not view.boxes:
        pass  # the empty table says so
    elif view.phase is SixPhase.DECIDING and box is not None:
        out.append((labels.text("pic.sixcard.move", n=box.box + 1), 28, LIT))
        legal = set(view.legal)
        opts = [labels.text("pic.sixcard.opt_fold")] if "f" in legal else []
        if "p" in legal:
            opts.append(labels.text("pic.sixcard.opt_play", n=BET * box.ante))
        if "b" in legal:
            opts.append(labels.text("pic.sixcard.opt_buy", n=BUY_FEE * box.ante))
        if any(c.startswith("r") for c in legal):
            opts.append(labels.text("pic.sixcard.opt_replace", n=REPLACE_FEE * box.ante))
        if legal == {"f"}:
            out.append((labels.text("pic.sixcard.fold_only"), TEXT, P.MINUS))
        else:
            out.append((" · ".join(opts), TEXT, P.TEXT))
    elif view.phase is SixPhase.DEALER_GAME and box is not None:
        out.append((labels.text("pic.sixcard.dealer_none"), 28, P.GOLD))
        fee = GAME_FEE * box.ante
        if "g" in view.legal:
            out.append((labels.text("pic.sixcard.offer", n=box.box + 1, fee=fee), TEXT, LIT))
            out.append((labels.text("pic.sixcard.offer_rule"), TEXT, P.DIM))
        else:  # the balance cannot pay it: no question, the box is settled as no game
            out.append((labels.text("pic.sixcard.offer_none", n=box.box + 1, fee=fee), TEXT, LIT))
            out.append((labels.text("pic.sixcard.no_game_rule"), TEXT, P.DIM))
    elif view.is_over:
        out.append((labels.text("pic.sixcard.over"), 30, P.GOLD))
        out.append((labels.text("pic.sixcard.net", net=text.signed(view.net, change=True)), 30,
                    lanes.net_colour(view.net)))
    return out


def _status(im: Image.Image, view: SixCardView, labels: Labels) -> None:
    """The game's name, then what happens now; when they do not fit together, what happens
    now alone (lines that still do not fit are left out)."""
    x, x1 = STATUS_X, LANE_X1 - 8
    wrapped = [(part, size, colour) for line, size, colour in status_lines(view, labels)
               for part in text.wrap(line, size, x1 - x, 2, "narrow")]
    title = (labels.text("pic.sixcard.title"), TEXT, P.DIM)
    need = sum(text.line_height(size, "narrow") + 2 for _, size, _ in wrapped)
    room = HEADER_H - 4 - 14
    lines = [title, *wrapped] if need + text.line_height(TEXT, "narrow") + 4 <= room else wrapped
    y = 14
    for part, size, colour in lines:
        if y + text.line_height(size, "narrow") > HEADER_H - 4:
            return
        text.draw(im, (x, y), part, size, colour, face="narrow", max_width=x1 - x)
        y += text.line_height(size, "narrow") + 2


# --- the picture -------------------------------------------------------------------------------


def compose(view: SixCardView, name: str, labels: Labels, deck: P.Deck = P.Deck.CLASSIC
            ) -> Image.Image:
    """The table picture as an RGB image (see `sixcard` for the bytes)."""
    name = text.clean(str(name)) or labels.text("pic.sixcard.you")
    edges = (PLAIN, *(lanes.edge(view, b) for b in view.boxes)) if view.boxes else (PLAIN, PLAIN)
    panel = (P.GOLD, 4) if view.is_over and view.net > 0 else PLAIN
    im = six_sprites.base(edges, panel).copy()
    if text.rtl():  # right to left: the panel at the right, each lane's cards from the right
        im = ImageOps.mirror(im)  # (unmirrored), its words at the left; the frames alone are
    with text.mirrored(im):  # mirrored: nothing on them reads
        _compose(im, view, name, labels, deck)
    return im


def _compose(im: Image.Image, view: SixCardView, name: str, labels: Labels,
             deck: P.Deck) -> None:
    d = ImageDraw.Draw(im)
    _panel(im, view, name, labels)
    _status(im, view, labels)
    lanes.dealer_lane(im, d, view, labels, deck)
    for box in view.boxes:
        lanes.box_lane(im, d, view, box, labels, deck)
    if not view.boxes:
        _, y0, _, y1 = lane_box(1)
        text.draw(im, (W // 2, (y0 + y1) // 2 - 20), labels.text("pic.shuffling"), 34,
                  P.DIM, anchor="m")


def sixcard(view: SixCardView, *, name: str, labels: Labels, deck: P.Deck = P.Deck.CLASSIC,
            fmt: str = "jpeg") -> bytes:
    """The six-card poker table at this moment of the game, as JPEG (default) or PNG bytes."""
    with text.writing(labels):  # right to left, Persian digits: what labels say
        return encode(compose(view, name, labels, deck), fmt, TALL)
