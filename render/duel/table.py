"""The table at any moment of a duel, drawn from its public view only.

The row of six hands (in play: face-up card over four backs; chosen: framed in the colour of
the player whose chips are on it; turned over: all five cards, the hand's name and, for the
winner, a gold star), both players, the revolver, the last bullet of this deal folded in (its
two hands framed, a strip saying what happened: the bot no longer sends a reveal of its own),
a line on what happens now, and the cards out of play as a 13 x 4 grid.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from render import palette as P
from render import sprites, text
from render.duel import frame
from render.duel import layout as L
from render.duel import sprites as duel_sprites
from render.duel.words import stake_label, summary
from render.encode import DUEL, encode
from render.text import Labels
from rules.cards import Card
from rules.duel.view import BulletResult, HandState, HandView, Phase, PublicView

NAME_SIZE = 20
# what happens now (30 px on the 960 px canvas: 22, not 23, keeps its longest line, a bonus
# duel's "choose" with a long name, on one line as it was)
SAYS = 22


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


def _chips(im: Image.Image, pos: int, owner: int, chips: int, caption: str) -> None:
    x0, y0, x1, _ = L.chips_box(pos)
    sprite = sprites.chip(owner, chips, P.FELT, L.CHIP)
    im.paste(sprite, (text.flip_x(x0 + 2, sprite.width), y0))
    line, size = text.fit_shrink(caption, (21, 18, 17, 16), x1 - x0 - sprite.width - 6, "narrow")
    text.draw(im, (x0 + sprite.width + 6, y0 + 8 + (21 - size) // 2), line, size,
              P.PLAYER[owner], face="narrow", bg=P.FELT)


def _hand(im: Image.Image, d: ImageDraw.ImageDraw, view: PublicView, hand: HandView,
          labels: Labels, deck: P.Deck) -> None:
    pos = hand.position
    cx0 = L.column(pos)[0]
    text.draw(im, (cx0 + 6, L.HANDS_Y), labels.text("pic.duel.hand_no", n=pos + 1), 21, P.DIM,
              bg=P.FELT)
    if hand.state is not HandState.REVEALED or hand.cards is None:
        box = L.stack_box(pos)
        stack = sprites.stack(hand.face_up, 4, P.FELT, L.CARD_W, L.CARD_H, L.BACK_DX,
                              L.BACK_DY, deck)  # the stack itself unmirrored, backs up and right
        im.paste(stack, (text.flip_box(box)[0], box[1]))
        if hand.state is HandState.CHOSEN and hand.owner is not None:
            x0, y0, x1, y1 = box
            d.rounded_rectangle(text.flip_box((x0 - 5, y0 - 5, x1 + 5, y1 + 5)), 11,
                                outline=P.PLAYER[hand.owner], width=3)
            _chips(im, pos, hand.owner, hand.chips, stake_label(labels, hand.chips,
                                                                view.bonus_duel))
        return
    x0, y0, x1, y1 = L.cascade_box(pos)
    if hand.won:  # inside its own column, on the felt: laid as a plate, not drawn
        sprites.lay_plate(im, text.flip_box((x0 - 5, y0 - 5, x1 + 5, y1 + 5)), 11, P.FELT,
                          P.GOLD, 4)
    cascade = duel_sprites.cascade(arrange(hand.cards), deck)  # the cards unmirrored
    im.paste(cascade, (text.flip_x(x0, cascade.width), y0))
    if hand.won:
        badge = sprites.star(L.STAR)
        wx0, wy0, _, _ = L.winner_box(pos)
        im.paste(badge, (text.flip_x(wx0, badge.width), wy0), badge)
    if hand.value is not None:
        name = text.hand_name(labels, hand.value.category)
        nx0, ny0, nx1, _ = L.name_box(pos)
        for i, line in enumerate(text.wrap(name, NAME_SIZE, nx1 - nx0, 2, "narrow")):
            text.draw(im, ((nx0 + nx1) // 2, ny0 + i * L.NAME_LINE), line, NAME_SIZE,
                      P.GOLD if hand.won else P.TEXT, anchor="m", face="narrow", bg=P.FELT)
    if hand.owner is not None and hand.chips:
        r = _result_for(view, hand)
        _chips(im, pos, hand.owner, hand.chips,
               stake_label(labels, hand.chips, r.bonus_duel if r else False))


def cards_out(im: Image.Image, view: PublicView, labels: Labels,
              deck: P.Deck = P.Deck.CLASSIC) -> None:
    """The 52 cards as a grid, ranks across and suits down: out of play (dark, struck), face up
    on a hand still in play (gold rim), or not seen yet (white)."""
    out = set(view.cards_out)
    up = {h.face_up for h in view.hands if h.state is not HandState.REVEALED}
    x, y = L.MARGIN + 11, L.FOOTER_Y
    text.draw(im, (x, y), labels.text("pic.duel.cards_out", n=len(out)), 21, P.TEXT, bg=P.FELT)
    lx = L.GRID_X + 13 * L.CELL_W - L.CELL_GAP
    legend = (("out", "pic.duel.legend_out"), ("up", "pic.duel.legend_up"),
              ("unseen", "pic.duel.legend_unseen"))
    for state, key in legend:
        box = text.draw(im, (lx, y + 2), labels.text(key), 20, P.DIM, anchor="r",
                        face="narrow", bg=P.FELT)
        sample = duel_sprites.swatch(state)
        lx = box[0] - 5 - sample.width
        im.paste(sample, (text.flip_x(lx, sample.width), y + 6))
        lx -= 14
    for row, suit in enumerate(L.GRID_SUITS):
        cy = L.GRID_Y + row * L.CELL_H
        if deck is P.Deck.CLASSIC:  # light red and white on the felt
            text.draw(im, (x + 14, cy - 1), suit.symbol, 23,
                      (255, 120, 120) if suit.is_red else P.TEXT, anchor="m", bg=P.FELT)
        else:  # four colours stay apart on a card's white, not as light tints on the felt
            sprites.lay_plate(im, text.flip_box((x + 1, cy, x + 27, cy + L.CELL_H - L.CELL_GAP
                                                 - 1)), 4, P.CARD)
            text.draw(im, (x + 14, cy - 1), suit.symbol, 23, P.suit_colour(suit, deck),
                      anchor="m", bg=P.CARD)
    grid = duel_sprites.grid(deck)  # the grid itself unmirrored (A to 2), beside its suits
    dx = text.flip_x(L.GRID_X, grid.width) - L.GRID_X
    im.paste(grid, (L.GRID_X + dx, L.GRID_Y))
    for card in sorted(out | up):
        x, y = L.cell_box(card)[:2]
        im.paste(duel_sprites.cell(card, "out" if card in out else "up", deck), (x + dx, y))


def last_bullet(view: PublicView) -> BulletResult | None:
    """The bullet just finished: the last one of the deal on the table, or on a fresh deal
    the last bullet of the deal before (its hands are gone: only its strip is drawn)."""
    r = view.last_result
    if r is None or not view.hands:
        return None
    return r if r.round == view.round or r.number == view.bullet - 1 else None


def fold(im: Image.Image, result: BulletResult, names: tuple[str, str], labels: Labels,
         framed: bool = True) -> None:
    """The last bullet folded into the table: its two hands framed in their players' colours
    (when they are on this table: `framed`), and the strip under the row saying what
    happened."""
    for p in (0, 1) if framed else ():  # on the felt before the hands: laid as plates
        x0, y0, x1, y1 = L.column(result.positions[p])
        sprites.lay_plate(im, text.flip_box((x0 + 1, y0 - 2, x1 - 1, y1 + 3)), 11, P.FELT,
                          P.PLAYER[p], 3)
    x0, y0, x1, y1 = L.FOLD
    winner = result.winner
    sprites.lay_plate(im, text.flip_box(L.FOLD), 11, P.PANEL,
                      P.GOLD if winner is not None else P.PANEL_EDGE, 2)
    who = (text.name(names[0], 21, 150), text.name(names[1], 21, 150))
    lines, size = text.wrap_shrink(summary(result, who, labels), (21, 20, 19), x1 - x0 - 24,
                                   L.FOLD_LINES)
    step = text.line_height(size) + 3
    y = (y0 + y1) // 2 - step * len(lines) // 2 + 2
    for line in lines:
        text.draw(im, ((x0 + x1) // 2, y), line, size, P.TEXT, anchor="m", cell=L.FOLD,
                  bg=P.PANEL)
        y += step


def call_to_action(im: Image.Image, view: PublicView, names: tuple[str, str],
                   labels: Labels) -> bool:
    """On a fresh deal (nothing turned over, no bullet folded in), who must choose, large, in
    the felt under the hands (`L.CTA`) instead of in the status lines; False otherwise."""
    if view.phase is not Phase.BULLET or not view.to_act or view.bonus_duel:
        return False
    if last_bullet(view) is not None or any(h.state is HandState.REVEALED for h in view.hands):
        return False
    p = view.to_act[0]
    x0, y0, x1, y1 = L.CTA
    said = labels.text("pic.duel.choose", name=text.name(names[p], 30, 270))
    one = text.width(said, 26) <= x1 - x0  # one line if it fits at 26 px or more, else two
    lines, size = text.wrap_shrink(said, (30, 27, 26) if one else (30, 27, 24), x1 - x0,
                                   1 if one else 2)
    step = text.line_height(size) + 5
    y = (y0 + y1) // 2 - step * len(lines) // 2
    for line in lines:
        text.draw(im, ((x0 + x1) // 2, y), line, size, P.PLAYER[p], anchor="m", cell=L.CTA,
                  bg=P.FELT)
        y += step
    return True


def status(im: Image.Image, view: PublicView, names: tuple[str, str], labels: Labels,
           x: int, y: int, max_width: int) -> None:
    """What is happening now, in at most three lines."""
    lines: list[tuple[str, int, tuple[int, int, int]]] = []
    who = [text.name(n, SAYS, 195) for n in names]
    if not view.hands:
        pass  # the row itself says so
    elif view.phase is Phase.DEAL:
        lines.append((labels.text("pic.shuffling"), SAYS, P.TEXT))
    elif view.phase is Phase.BULLET and view.to_act:
        p = view.to_act[0]
        free = sum(1 for h in view.hands if h.state is HandState.AVAILABLE)
        key = "pic.duel.choose"
        if view.bonus_duel:
            key = "pic.duel.choose_last" if free == 1 else "pic.duel.choose_bonus"
            lines.append((f"{labels.text('pic.duel.bonus_duel')}: "
                          f"{labels.text('pic.duel.bonus_rule')}", 21, P.GOLD))
        lines.append((labels.text(key, name=who[p]), SAYS, P.PLAYER[p]))
    elif view.phase is Phase.TIEBREAK_OFFER:  # never the draw: the duel goes on or ends
        after = len(view.results)
        key = "pic.duel.offer_level" if after <= view.max_bullets else "pic.duel.offer_again"
        parts = text.wrap(labels.text(key, n=after), 23, max_width, 2)
        for part in parts:
            text.draw(im, (x, y), part, 23, P.GOLD)
            y += text.line_height(23) + 2
        half = max_width // 2
        for p in (0, 1):  # both answers on one line, each in its player's colour
            a = view.tiebreak_answers[p]
            key = ("pic.duel.answer_deciding" if a is None else "pic.duel.answer_wants" if a
                   else "pic.duel.answer_no")
            said = labels.text(key, name=names[p])
            if text.width(said, 21) > half - 9:  # the name cut to what the answer leaves
                room = half - 9 - text.width(said, 21) + text.width(names[p], 21)
                said = labels.text(key, name=text.name(names[p], 21, max(45, room)))
            text.draw(im, (x + p * half, y), said, 21, P.PLAYER[p], max_width=half - 9)
        return
    elif view.phase is Phase.OVER:
        if view.winner is None:
            lines.append((labels.text("pic.duel.over_draw"), SAYS, P.GOLD))
        else:
            lines.append((labels.text("pic.duel.over_win", name=who[view.winner]), SAYS, P.GOLD))
    # At most three lines; when they do not all fit, the first (the rule) gives lines up
    # before the last (who must act, what to do), which keeps every word it has.
    need = [len(text.wrap(line, size, max_width, 3)) for line, size, _ in lines]
    while sum(need) > 3 and any(n > 1 for n in need):
        need[next(i for i, n in enumerate(need) if n > 1)] -= 1
    for (line, size, colour), n in zip(lines, need, strict=True):
        for part in text.wrap(line, size, max_width, n):
            text.draw(im, (x, y), part, size, colour, bg=P.FELT)
            y += text.line_height(size) + 2


def compose(view: PublicView, names: tuple[str, str], labels: Labels,
            show_cards_out: bool = True, deck: P.Deck = P.Deck.CLASSIC) -> Image.Image:
    """The table picture as an RGB image (see `render.table` for the bytes)."""
    names = frame.names_of(names, labels)
    im = frame.canvas(L.TABLE_H if show_cards_out else L.FOOTER_Y + 6)
    with text.mirrored(im):  # right to left: player 1 and hand 1 at the right
        _compose(im, view, names, labels, show_cards_out, deck)
    return im


def _compose(im: Image.Image, view: PublicView, names: tuple[str, str], labels: Labels,
             show_cards_out: bool, deck: P.Deck) -> None:
    live = view.phase in (Phase.BULLET, Phase.TIEBREAK_OFFER)
    frame.panels(im, view, names, labels, to_act=view.to_act if live else ())
    frame.revolver(im, view, labels)
    d = ImageDraw.Draw(im)
    last = last_bullet(view)
    if last is not None:
        fold(im, last, names, labels, framed=last.round == view.round)
    for hand in view.hands:
        _hand(im, d, view, hand, labels, deck)
    if not view.hands:  # before the first deal: say so where the hands will be
        text.draw(im, (L.W // 2, (L.HANDS_Y + L.ROW_BOTTOM) // 2 - 15),
                  labels.text("pic.shuffling"), 27, P.DIM, anchor="m")
    if not call_to_action(im, view, names, labels):
        status(im, view, names, labels, L.MARGIN + 11, L.STATUS_Y, L.W - 2 * L.MARGIN - 21)
    if show_cards_out:
        cards_out(im, view, labels, deck)


def table(view: PublicView, *, names: tuple[str, str], labels: Labels,
          show_cards_out: bool = True, deck: P.Deck = P.Deck.CLASSIC,
          fmt: str = "jpeg") -> bytes:
    """The table at this moment of the duel, as JPEG (default) or PNG bytes: the last bullet of
    this deal folded in; without `show_cards_out`, shorter, without the cards-out grid; the
    cards in `deck`'s colours."""
    with text.writing(labels):  # right to left, Persian digits: what labels say
        return encode(compose(view, names, labels, show_cards_out, deck), fmt, DUEL)
