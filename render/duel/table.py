"""The table at any moment of a duel, drawn from its public view only.

The row of six hands (in play: face-up card over four backs; chosen: framed in the colour of
the player whose chips are on it; turned over: all five cards, the hand's name and, for the
winner, a gold star), both players, the revolver, the cards out of play as a 13 x 4 grid, and a
line on what happens now.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from render import canvas as C
from render import palette as P
from render import sprites, text
from render.duel import frame
from render.duel import layout as L
from render.duel import sprites as duel_sprites
from render.encode import encode
from render.text import Labels
from rules.cards import Card
from rules.duel.view import BulletResult, HandState, HandView, Phase, PublicView

NAME_SIZES = (22, 20, 18, 16)


def arrange(cards: tuple[Card, ...]) -> tuple[Card, ...]:
    """Five cards in reading order: bigger groups first, then higher ranks (a full house reads
    K K K 4 4); the ace of a 5-high straight goes last."""
    counts: dict[int, int] = {}
    for c in cards:
        counts[c.rank] = counts.get(c.rank, 0) + 1
    ordered = sorted(cards, key=lambda c: (-counts[c.rank], -c.rank, -c.suit))
    ranks = [int(c.rank) for c in ordered]
    if ranks == [14, 5, 4, 3, 2]:
        ordered = ordered[1:] + ordered[:1]
    return tuple(ordered)


def _result_for(view: PublicView, hand: HandView) -> BulletResult | None:
    for r in reversed(view.results):
        if r.round == view.round and hand.position in r.positions:
            return r
    return None


def stake_label(labels: Labels, chips: int, bonus_duel: bool) -> str:
    if bonus_duel:
        return labels.text("pic.duel.stake")
    return labels.text("pic.duel.play" if chips >= 2 else "pic.duel.pass")


def _chips(im: Image.Image, pos: int, owner: int, chips: int, caption: str) -> None:
    x0, y0, x1, _ = L.chips_box(pos)
    sprite = sprites.chip(owner, chips)
    im.paste(sprite, (x0 + 4, y0))
    text.draw(im, (x0 + sprite.width + 12, y0 + 14), caption, 20, P.PLAYER[owner],
              face="narrow", max_width=x1 - x0 - sprite.width - 14)


def _hand(im: Image.Image, d: ImageDraw.ImageDraw, view: PublicView, hand: HandView,
          labels: Labels) -> None:
    pos = hand.position
    cx0 = L.column(pos)[0]
    text.draw(im, (cx0 + 10, L.HANDS_Y), labels.text("pic.duel.hand_no", n=pos + 1), 18, P.DIM)
    if hand.state is not HandState.REVEALED or hand.cards is None:
        box = L.stack_box(pos)
        im.paste(sprites.stack(hand.face_up), box[:2])
        if hand.state is HandState.CHOSEN and hand.owner is not None:
            x0, y0, x1, y1 = box
            d.rounded_rectangle((x0 - 7, y0 - 7, x1 + 7, y1 + 7), 14,
                                outline=P.PLAYER[hand.owner], width=4)
            _chips(im, pos, hand.owner, hand.chips, stake_label(labels, hand.chips,
                                                                view.bonus_duel))
        return
    x0, y0, x1, y1 = L.cascade_box(pos)
    if hand.won:
        d.rounded_rectangle((x0 - 6, y0 - 6, x1 + 6, y1 + 6), 14, outline=P.GOLD, width=5)
    im.paste(duel_sprites.cascade(arrange(hand.cards)), (x0, y0))
    if hand.won:
        badge = sprites.star()
        wx0, wy0, _, _ = L.winner_box(pos)
        im.paste(badge, (wx0, wy0), badge)
    if hand.value is not None:
        name = text.hand_name(labels, hand.value.category)
        nx0, ny0, nx1, _ = L.name_box(pos)
        line, size = text.fit_shrink(name, NAME_SIZES, nx1 - nx0, "narrow")
        text.draw(im, ((nx0 + nx1) // 2, ny0), line, size, P.GOLD if hand.won else P.TEXT,
                  anchor="m", face="narrow")
    if hand.owner is not None and hand.chips:
        r = _result_for(view, hand)
        _chips(im, pos, hand.owner, hand.chips,
               stake_label(labels, hand.chips, r.bonus_duel if r else False))


def cards_out(im: Image.Image, view: PublicView, labels: Labels) -> None:
    """The 52 cards as a grid, ranks across and suits down: out of play (dark, struck), face up
    on a hand still in play (gold rim), or not seen yet (white)."""
    out = set(view.cards_out)
    up = {h.face_up for h in view.hands if h.state is not HandState.REVEALED}
    x, y = C.MARGIN + 14, L.FOOTER_Y + 4
    text.draw(im, (x, y), labels.text("pic.duel.cards_out", n=len(out)), 20, P.TEXT)
    lx = L.GRID_X + 13 * L.CELL_W - 4
    legend = (("out", "pic.duel.legend_out"), ("up", "pic.duel.legend_up"),
              ("unseen", "pic.duel.legend_unseen"))
    for state, key in legend:
        box = text.draw(im, (lx, y + 3), labels.text(key), 16, P.DIM, anchor="r")
        sample = duel_sprites.swatch(state)
        lx = box[0] - 6 - sample.width
        im.paste(sample, (lx, y + 6))
        lx -= 16
    for row, suit in enumerate(L.GRID_SUITS):
        cy = L.GRID_Y + row * L.CELL_H
        text.draw(im, (x + L.CELL_W // 2, cy - 3), suit.symbol, 22,
                  (255, 120, 120) if suit.is_red else P.TEXT, anchor="m")
    im.paste(duel_sprites.grid(), (L.GRID_X, L.GRID_Y))
    for card in sorted(out | up):
        im.paste(duel_sprites.cell(card, "out" if card in out else "up"), L.cell_box(card)[:2])


def status(im: Image.Image, view: PublicView, names: tuple[str, str], labels: Labels,
           x: int, y: int, max_width: int) -> None:
    """What is happening now, in at most four short lines."""
    lines: list[tuple[str, int, tuple[int, int, int]]] = []
    who = [frame.short(n, 22, 200) for n in names]
    if not view.hands:
        pass  # the row itself says so
    elif view.phase is Phase.DEAL:
        lines.append((labels.text("pic.shuffling"), 22, P.TEXT))
    elif view.phase is Phase.BULLET and view.to_act:
        p = view.to_act[0]
        free = sum(1 for h in view.hands if h.state is HandState.AVAILABLE)
        key = "pic.duel.choose"
        if view.bonus_duel:
            key = "pic.duel.choose_last" if free == 1 else "pic.duel.choose_bonus"
        if view.bonus_duel:
            lines.append((labels.text("pic.duel.bonus_duel"), 28, P.GOLD))
            lines.append((labels.text("pic.duel.bonus_rule"), 20, P.DIM))
        lines.append((labels.text(key, name=who[p]), 22, P.PLAYER[p]))
    elif view.phase is Phase.TIEBREAK_OFFER:
        lines.append((labels.text("pic.duel.offer"), 24, P.GOLD))
        for p in (0, 1):
            a = view.tiebreak_answers[p]
            key = ("pic.duel.answer_wait" if a is None else "pic.duel.answer_yes" if a
                   else "pic.duel.answer_no")
            lines.append((labels.text(key, name=who[p]), 22, P.PLAYER[p]))
    elif view.phase is Phase.OVER:
        if view.winner is None:
            lines.append((labels.text("pic.duel.over_draw"), 26, P.GOLD))
        else:
            lines.append((labels.text("pic.duel.over_win", name=who[view.winner]), 26, P.GOLD))
    for line, size, colour in lines:
        for part in text.wrap(line, size, max_width, 2):
            text.draw(im, (x, y), part, size, colour)
            y += text.line_height(size) + 2
        y += 6


def compose(view: PublicView, names: tuple[str, str], labels: Labels,
            show_cards_out: bool = True) -> Image.Image:
    """The table picture as an RGB image (see `render.table` for the bytes)."""
    names = frame.names_of(names, labels)
    im = C.canvas(L.TABLE_H)
    live = view.phase in (Phase.BULLET, Phase.TIEBREAK_OFFER)
    frame.panels(im, view, names, labels, to_act=view.to_act if live else ())
    frame.revolver(im, view, labels)
    d = ImageDraw.Draw(im)
    for hand in view.hands:
        _hand(im, d, view, hand, labels)
    if not view.hands:  # before the first deal: say so where the hands will be
        text.draw(im, (C.W // 2, (L.HANDS_Y + L.FOOTER_Y) // 2 - 20),
                  labels.text("pic.shuffling"), 34, P.DIM, anchor="m")
    if show_cards_out:
        cards_out(im, view, labels)
        sx = L.STATUS_X
    else:
        sx = C.MARGIN + 14
    status(im, view, names, labels, sx, L.FOOTER_Y + 4, C.W - C.MARGIN - 16 - sx)
    return im


def table(view: PublicView, *, names: tuple[str, str], labels: Labels,
          show_cards_out: bool = True, fmt: str = "jpeg") -> bytes:
    """The table at this moment of the duel, as JPEG (default) or PNG bytes."""
    return encode(compose(view, names, labels, show_cards_out), fmt)
