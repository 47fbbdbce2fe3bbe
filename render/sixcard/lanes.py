"""The lanes of six-card poker's table, drawn from its public view only: the dealer's and one per
box, all alike. A title column (the box, a "blind" tag, its ANTE and BET chips, the fees it
paid), the cards in dealt order, and a column for the hand's name and, once settled, the box's
outcome, its net and the running balance after it. Cards not shown are a face-down stack as in
the duel (the dealer's four backs behind its face-up card). A bought sixth card sits apart,
tagged; a replaced card is greyed and struck right of the hand. The dealer's drawn card is
rimmed in gold and tagged "new" (a box's is not: its view does not say which position the
replace took). The box being decided, or offered the dealer's game, has a lit frame; a box that
won, a gold one and a star.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from render import canvas as C
from render import palette as P
from render import sprites, text
from render.sixcard import sprites as six_sprites
from render.sixcard.layout import (
    CARDS_X,
    FAN_PAD,
    LANE_FILL,
    LIT,
    PLAIN,
    STEP,
    TEXT,
    TITLE_X,
    Edge,
    card_box,
    chip_box,
    dropped_box,
    lane_box,
    outcome_box,
)
from render.text import Labels
from rules.cards import Card
from rules.hands import evaluate
from rules.sixcard.view import BoxOutcome, BoxState, SixBoxView, SixCardView, SixPhase

RGB = tuple[int, int, int]
Line = tuple[str, int, RGB]


def _tag(im: Image.Image, d: ImageDraw.ImageDraw, cx: int, y: int, caption: str,
         fill: RGB | None, ink: RGB, max_width: int) -> None:
    """A small pill with `caption`, centred on `cx`, its top at `y` (`fill=None`: outlined)."""
    size = 20
    caption = text.fit(caption, size, max_width - 12, "narrow")
    w = text.width(caption, size, "narrow") + 12
    box = (cx - w // 2, y, cx - w // 2 + w, y + 26)
    if fill is None:
        d.rounded_rectangle(text.flip_box(box), 12, outline=ink, width=2)
    else:
        d.rounded_rectangle(text.flip_box(box), 12, fill=fill)
    text.draw(im, (cx, y + 1), caption, size, ink, anchor="m", face="narrow")


def net_colour(n: int) -> RGB:
    return P.PLUS if n > 0 else P.MINUS if n < 0 else P.DIM


def edge(view: SixCardView, box: SixBoxView) -> Edge:
    """A box's frame: gold when it won, lit while it is being decided or offered the dealer's
    game, plain otherwise."""
    if box.settlement is not None and box.settlement.outcome is BoxOutcome.WON:
        return (P.GOLD, 4)
    if is_live(view, box):
        return (LIT, 4)
    return PLAIN


def is_live(view: SixCardView, box: SixBoxView) -> bool:
    return box.box == view.to_act and view.phase in (SixPhase.DECIDING, SixPhase.DEALER_GAME)


def _cards(im: Image.Image, d: ImageDraw.ImageDraw, row: int, cards: tuple[Card, ...], *,
           new: int | None = None, sixth: bool = False, labels: Labels, deck: P.Deck) -> None:
    """A lane's cards face up, left to right; `new` is rimmed and tagged, a bought sixth card
    tagged."""
    x0, y0, _, _ = card_box(row, 0)
    fan = six_sprites.fan(cards, new, deck)  # the fan itself unmirrored: its cards as dealt
    shift = text.flip_x(x0 - FAN_PAD, fan.width) - (x0 - FAN_PAD)  # where it moved, mirrored
    im.paste(fan, (x0 - FAN_PAD + shift, y0 - FAN_PAD))
    for k in range(len(cards)):
        x0, y0, x1, _ = card_box(row, k)
        room = STEP if k < len(cards) - 1 else x1 - x0
        cx = text.flip_x(x0 + shift + room // 2)  # over its card, wherever the fan went
        if k == new:
            _tag(im, d, cx, y0 - 28, labels.text("pic.sixcard.new"), P.GOLD, P.BLACK, room)
        elif k == 5 and sixth:
            _tag(im, d, cx, y0 - 28, labels.text("pic.sixcard.sixth"), None, P.GOLD, room)


def _stack(im: Image.Image, row: int, backs: int, up: Card | None, deck: P.Deck) -> None:
    """The stack's front card stands where a hand's first card does."""
    x0, y0, _, _ = card_box(row, 0)
    sprite = sprites.stack(up, backs, LANE_FILL, deck=deck)
    im.paste(sprite, (text.flip_x(x0, sprite.width), y0 + C.CARD_H - sprite.height))


def _dropped(im: Image.Image, d: ImageDraw.ImageDraw, row: int, card: Card, labels: Labels,
             deck: P.Deck) -> None:
    x0, y0, x1, _ = dropped_box(row)
    greyed = six_sprites.greyed(card, deck)
    im.paste(greyed, (text.flip_x(x0, greyed.width), y0))
    _tag(im, d, (x0 + x1) // 2, y0 - 28, labels.text("pic.sixcard.out"), None, P.MINUS,
         x1 - x0 + 16)


def _column(im: Image.Image, row: int, lines: list[Line], star: bool = False) -> None:
    """The right-hand column of a lane: lines above the smallest size shrink to fit, the
    smallest ones (and a larger one that does not fit even at the smallest size) wrap, three
    lines at most; a line that would run past the lane is left out."""
    x0, y, x1, bottom = outcome_box(row)
    y += 2
    for line, size, colour in lines:
        room = x1 - x0
        if star and size >= 34:
            room -= 48
        if size > TEXT and text.width(line, TEXT, "narrow") <= room:
            cut, sz = text.fit_shrink(line, (size, size - 2, size - 4, TEXT), room, "narrow")
            parts = [cut]
        elif size > TEXT:
            sz, parts = TEXT, text.wrap(line, TEXT, room, 3, "narrow")
        else:
            sz, parts = size, text.wrap(line, size, room, 3, "narrow")
        for part in parts:
            if y + text.line_height(sz, "narrow") > bottom + 6:
                return
            box = text.draw(im, (x0, y), part, sz, colour, face="narrow")
            y += text.line_height(sz, "narrow") + (0 if len(parts) > 1 else 2)
        if star and size >= 34:
            badge = sprites.star(38, LANE_FILL)
            im.paste(badge, (text.flip_x(box[2] + 8, badge.width), box[1] + 2))
        if len(parts) > 1:
            y += 2


def dealer_lane(im: Image.Image, d: ImageDraw.ImageDraw, view: SixCardView, labels: Labels,
                deck: P.Deck = P.Deck.CLASSIC) -> None:
    _, y, _, _ = lane_box(0)
    text.draw(im, (TITLE_X, y + 8), labels.text("pic.dealer"), 30, P.TEXT,
              max_width=CARDS_X - TITLE_X - 16)
    lines: list[Line] = []
    rep = view.dealer_replacement
    if view.dealer_cards is not None:
        _cards(im, d, 0, tuple(view.dealer_cards), new=rep.index if rep else None, labels=labels,
               deck=deck)
        if rep is not None:
            _dropped(im, d, 0, rep.dropped, labels, deck)
        if view.dealer_value is not None:
            lines.append((text.hand_name(labels, view.dealer_value.category), 30, P.TEXT))
        if view.dealer_qualifies is not None:
            lines.append((labels.text("pic.sixcard.qualifies" if view.dealer_qualifies
                                       else "pic.sixcard.no_game"), 28,
                          P.PLUS if view.dealer_qualifies else P.MINUS))
        if rep is not None and view.dealer_first_cards is not None:
            first = evaluate(view.dealer_first_cards).category
            if view.dealer_value is None or first is not view.dealer_value.category:
                lines.append((labels.text("pic.sixcard.was", cat=text.hand_name(labels, first)),
                              TEXT, P.DIM))
            lines.append((labels.text("pic.sixcard.chance", outs=rep.outs[rep.index],
                                       unseen=rep.unseen), TEXT, P.DIM))
    elif view.dealer_up is not None:
        _stack(im, 0, view.dealer_backs, view.dealer_up, deck)
        lines.append((labels.text("pic.sixcard.dealer_hint"), TEXT, P.DIM))
    _column(im, 0, lines)


def _box_lines(view: SixCardView, box: SixBoxView, labels: Labels) -> tuple[list[Line], bool]:
    """The right-hand column of a box, and whether it won (a star)."""
    lines: list[Line] = []
    if box.value is not None:
        lines.append((text.hand_name(labels, box.value.category), 30, P.TEXT))
    s = box.settlement
    if s is not None:
        o = s.outcome
        if o is BoxOutcome.WON:
            word, colour = labels.text("pic.sixcard.won", mult=s.value.category.multiplier), P.GOLD
        elif o is BoxOutcome.LOST:
            word, colour = labels.text("pic.sixcard.lost"), P.MINUS
        elif o is BoxOutcome.PUSH:
            word, colour = labels.text("pic.sixcard.push"), P.TEXT
        elif o is BoxOutcome.NO_GAME:
            word, colour = labels.text("pic.sixcard.paid_no_game"), P.PLUS
        elif o is BoxOutcome.STAKES_RETURNED:  # the fees paid are not returned: say so
            key = "pic.sixcard.stakes_back_fee" if s.net < 0 else "pic.sixcard.stakes_back"
            word, colour = labels.text(key), P.TEXT
        else:
            word, colour = labels.text("pic.sixcard.folded"), P.MINUS
        lines.append((word, 28, colour))
        lines.append((text.signed(s.net, change=True), 34, net_colour(s.net)))
        after = next((r.balance for r in view.running if r.box == box.box), None)
        if after is not None:
            lines.append((labels.text("pic.sixcard.after", n=after), 28, P.TEXT))
        if s.bought_dealer_game:
            lines.append((labels.text("pic.sixcard.game_bought"), TEXT, P.DIM))
        return lines, o is BoxOutcome.WON
    live = box.box == view.to_act
    if box.state is BoxState.HIDDEN:
        # box 2: shown after box 1
        key = "pic.sixcard.blind_wait" if box.blind else "pic.sixcard.hidden"
        lines.append((labels.text(key, n=box.box), TEXT, P.DIM))
    elif box.state is BoxState.DECIDING:
        lines.append((labels.text("pic.sixcard.deciding"), 28, LIT))
    elif box.state is BoxState.FOLDED:
        lines.append((labels.text("pic.sixcard.folded"), 28, P.MINUS))
        lines.append((text.signed(-(box.ante + box.fees), change=True), 34, P.MINUS))
    elif live and view.phase is SixPhase.DEALER_GAME:
        key = "pic.sixcard.offer_box" if "g" in view.legal else "pic.sixcard.paid_no_game"
        lines.append((labels.text(key), TEXT, LIT))
    else:
        lines.append((labels.text("pic.sixcard.playing"), 28, P.DIM))
        if box.dealer_game is not None:
            key = "pic.sixcard.game_bought" if box.dealer_game else "pic.sixcard.game_declined"
            lines.append((labels.text(key), TEXT, P.DIM))
    return lines, False


def _chip(im: Image.Image, row: int, which: int, amount: int, labels: Labels) -> None:
    x0, y0, x1, y1 = chip_box(row, which)
    sprite = six_sprites.chip(which, y1 - y0)
    im.paste(sprite, (text.flip_x(x0, sprite.width), y0))
    caption = labels.text("pic.sixcard.ante" if which == 0 else "pic.sixcard.bet", n=amount)
    room = x1 - x0 - sprite.width - 8
    line, size = text.fit_shrink(caption, (28, TEXT, 24), room, "narrow")
    ty = y0 + (y1 - y0 - text.line_height(size, "narrow")) // 2
    text.draw(im, (x0 + sprite.width + 8, ty), line, size, P.TEXT, face="narrow")


def box_lane(im: Image.Image, d: ImageDraw.ImageDraw, view: SixCardView, box: SixBoxView,
         labels: Labels, deck: P.Deck = P.Deck.CLASSIC) -> None:
    row = box.box + 1
    lines, won = _box_lines(view, box, labels)
    live = is_live(view, box)
    _, y, _, _ = lane_box(row)
    title = text.draw(im, (TITLE_X, y + 8), labels.text("pic.sixcard.box", n=box.box + 1), 30,
                      LIT if live else P.TEXT, max_width=CARDS_X - 16 - TITLE_X)
    x = TITLE_X
    if box.blind:  # on the title's line if it fits there, else on the fees' line
        blind = labels.text("pic.sixcard.blind")
        w = text.width(blind, 20, "narrow") + 12
        if title[2] + 10 + w <= CARDS_X - 12:
            _tag(im, d, title[2] + 10 + w // 2, y + 14, blind, P.GOLD, P.BLACK, w)
        else:
            _tag(im, d, x + w // 2, y + 48, blind, P.GOLD, P.BLACK, CARDS_X - 16 - x)
            x += w + 10
    if box.fees:
        line, size = text.fit_shrink(labels.text("pic.sixcard.fees", n=box.fees),
                                     (TEXT, 24), CARDS_X - 12 - x, "narrow")
        text.draw(im, (x, y + 46), line, size, P.DIM, face="narrow")
    _chip(im, row, 0, box.ante, labels)
    if box.bet:
        _chip(im, row, 1, box.bet, labels)
    if box.cards is None:
        _stack(im, row, 5, None, deck)
    else:
        # The view keeps the six in place and the dropped card aside, but does not say which
        # position the drawn card took: the dropped card is what marks a replace.
        _cards(im, d, row, tuple(box.cards), sixth=box.bought, labels=labels, deck=deck)
        for card in box.discards[-1:]:
            _dropped(im, d, row, card, labels, deck)
    _column(im, row, lines, star=won)
