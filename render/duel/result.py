"""The result of a duel: the winner (or a draw) and why the duel ended (six bullets, a tiebreak,
a bust, a surrender, a timeout, a declined tiebreak; a winner with fewer chips than the loser is
said to be one), the final stacks, a small chart of both stacks after every bullet, and the
scorecard: every bullet on two lines, both hands turned over, so nothing that happened is lost."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from render import palette as P
from render import sprites, text
from render.duel import frame
from render.duel import layout as L
from render.duel.table import arrange
from render.duel.words import cat_fit, stake_label
from render.encode import DUEL, encode
from render.text import Labels
from rules.cards import Card
from rules.duel.view import BulletResult, Outcome, PublicView

REASONS = ("bullets", "tiebreak", "bust", "surrender", "timeout", "declined")

SS = 2  # the chart's lines are drawn at twice the size and scaled down (smooth edges)
GRID: tuple[int, int, int] = (40, 118, 82)


def _nice_step(span: int) -> int:
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if span / step <= 6:
            return step
    return max(1, span // 6)


def chart(im: Image.Image, view: PublicView, labels: Labels) -> None:
    """Both stacks at the start and after every bullet, in the players' colours."""
    history = view.stack_history
    x0, y0, x1, y1 = L.CHART
    values = [v for pair in history for v in pair]
    lo, hi = min(values), max(values)
    pad = max(3, (hi - lo) // 8)
    lo, hi = max(0, min(lo, view.start_stack) - pad), max(hi, view.start_stack) + pad
    step = _nice_step(hi - lo)
    lo, hi = lo // step * step, -(-hi // step) * step
    n = max(1, len(history) - 1)

    def px(i: int) -> float:
        return x0 + (x1 - x0) * i / n

    def py(v: int) -> float:
        return y1 - (y1 - y0) * (v - lo) / max(1, hi - lo)

    d = ImageDraw.Draw(im)
    text.draw(im, (L.MARGIN + 12, y0 - 48), labels.text("pic.duel.chart_title"), 21, P.TEXT,
              bg=P.FELT)
    for v in range(lo, hi + 1, step):
        y = int(py(v))
        d.line((text.flip_x(x0), y, text.flip_x(x1), y),
               fill=GRID if v != view.start_stack else P.PANEL_EDGE,
               width=1 if v != view.start_stack else 2)
        text.draw(im, (x0 - 8, y - 10), str(v), 17, P.DIM, anchor="r", face="narrow", bg=P.FELT)
    for i in range(len(history)):
        label = labels.text("pic.duel.start") if i == 0 else str(i)
        text.draw(im, (int(px(i)), y1 + 5), label, 17, P.DIM, anchor="m", face="narrow", bg=P.FELT)
    for r in view.results[1:]:  # a line where a new deal began
        prev = view.results[view.results.index(r) - 1]
        if r.round != prev.round:
            x = text.flip_x(int(px(r.number - 1)))
            for dash in range(y0, y1, 9):
                d.line((x, dash, x, dash + 5), fill=P.DIM, width=1)
    rounds: dict[int, int] = {}
    for r in view.results:
        rounds.setdefault(r.round, r.number)
    for rnd, first in rounds.items():
        key = (labels.text("pic.duel.round_n", n=rnd) if not view.is_tiebreak_round(rnd)
               else labels.text("pic.duel.tiebreak"))
        text.draw(im, (int(px(first - 1)) + 5, y0 - 23), key, 17, P.DIM, face="narrow", bg=P.FELT)
    # Drawn straight in premultiplied RGBa: every pixel drawn is opaque and every other one is
    # clear, for which RGBa and RGBA are the same bytes, so `reduce` needs no conversion of the
    # large layer first (which was a third of the result's compose), only of the small one.
    layer = Image.new("RGBa", ((x1 - x0 + 30) * SS, (y1 - y0 + 30) * SS), (0, 0, 0, 0))
    ld = ImageDraw.Draw(layer)
    right = text.flip_x(0)  # mirrored: the canvas's width, where x is counted from; else 0
    ox, oy = min(text.flip_x(x0), text.flip_x(x1)) - 15, y0 - 15
    for p in (0, 1):  # right to left: the start at the right
        pts = [(((right - px(i) if right else px(i)) - ox) * SS, (py(h[p]) - oy) * SS)
               for i, h in enumerate(history)]
        if len(pts) > 1:
            ld.line(pts, fill=(*P.PLAYER[p], 255), width=4 * SS, joint="curve")
        for cx, cy in pts:
            ld.ellipse((cx - 4.5 * SS, cy - 4.5 * SS, cx + 4.5 * SS, cy + 4.5 * SS),
                       fill=(*P.PLAYER[p], 255),
                       outline=(255, 255, 255, 255), width=3)
    small = layer.reduce(SS).convert("RGBA")
    im.paste(small, (ox, oy), small)
    ends = sorted((history[-1][p], p) for p in (0, 1))
    ys = [py(v) for v, _ in ends]
    if abs(ys[0] - ys[1]) < 24:  # keep the two end labels apart
        mid = (ys[0] + ys[1]) / 2
        ys = [mid + 12, mid - 12]
    for (v, p), ly in zip(ends, ys, strict=True):
        text.draw(im, (x1 + 12, int(ly) - 12), str(v), 23, P.PLAYER[p], bg=P.FELT)


def why(view: PublicView, names: tuple[str, str], labels: Labels,
        reason: str | None) -> tuple[str, bool]:
    """Why the duel ended, in words, and whether the winner has fewer chips than the loser
    (a surrender or a timeout while ahead: the words say so)."""
    reason = reason or "bullets"
    w = view.winner
    if w is None:
        if reason == "declined":
            return labels.text("pic.duel.why_declined"), False
        return "", False
    loser = 1 - w
    behind = view.stacks[w] < view.stacks[loser]
    who = text.name(names[loser], 23, 225)
    if reason in ("surrender", "timeout"):
        key = f"pic.duel.why_{reason}" + ("_ahead" if behind else "")
        return labels.text(key, name=who), behind
    if reason == "bust":
        return labels.text("pic.duel.out_of_chips", name=who), behind
    if reason == "tiebreak":
        last = view.last_result
        return labels.text("pic.duel.why_tiebreak", n=last.number if last else 0), behind
    return labels.text("pic.duel.why_bullets", n=len(view.results)), behind


# The scorecard's columns (x from the left; right-aligned ones say so).
COL_NO, COL_NAME, COL_POS, COL_CARDS, COL_BET, COL_CAT = 21, 67, 141, 175, 343, 438
COL_NET_R, COL_STACK_R = 642, 699
COL_CAT_R = COL_NET_R - 49  # the category (and its bonus) end here: the net is right-aligned
NAME_GROW = 22  # how much wider the names' column may grow (the category's room shrinks)
CARD_CHIP_W, CARD_CHIP_H = 31, 23
SCORE_SIZE = 20


@lru_cache(maxsize=128)
def _mini(card: Card, deck: P.Deck) -> Image.Image:
    """A card as a small white tile with its rank and suit (the scorecard's cards)."""
    im = Image.new("RGB", (CARD_CHIP_W, CARD_CHIP_H), P.FELT)
    ImageDraw.Draw(im).rounded_rectangle((0, 0, CARD_CHIP_W - 1, CARD_CHIP_H - 1), 4,
                                          fill=P.CARD)
    label = f"{card.rank.label}{card.suit.symbol}"
    size = 18 if len(label) <= 2 else 16
    with text.writing(None):  # a card is the same in every language: "10♠", never "♠10"
        text.draw(im, (CARD_CHIP_W // 2, (CARD_CHIP_H - text.line_height(size, "narrow")) // 2
                       + 1), label, size, P.suit_colour(card.suit, deck), anchor="m",
                  face="narrow", bg=P.CARD)
    return im


def _score_line(im: Image.Image, r: BulletResult, p: int, names: tuple[str, str],
                labels: Labels, y: int, dx: int = 0, deck: P.Deck = P.Deck.CLASSIC) -> None:
    """One player's line of a bullet; `dx` px more for the names (the columns after them move
    right, the category's room shrinks)."""
    colour = P.PLAYER[p]
    x = COL_NAME
    if r.winner == p:  # the star between the bullet's number and the winner's name
        badge = sprites.star(20)
        im.paste(badge, (text.flip_x(COL_NAME - badge.width - 2, badge.width), y + 2), badge)
    text.draw(im, (x, y), names[p], SCORE_SIZE, colour, face="narrow", bg=P.PANEL)
    text.draw(im, (COL_POS + dx, y), labels.text("pic.duel.hand_no", n=r.positions[p] + 1),
              SCORE_SIZE, P.DIM, face="narrow", bg=P.PANEL)
    cards = arrange(r.cards[p])  # the hand's cards keep their order (and faces) when mirrored
    row = len(cards) * (CARD_CHIP_W + 2) - 2
    x_cards = text.flip_x(COL_CARDS + dx, row)
    for i, card in enumerate(cards):
        im.paste(_mini(card, deck), (x_cards + i * (CARD_CHIP_W + 2), y + 1))
    bet = f"{stake_label(labels, r.stakes[p], r.bonus_duel)} {r.stakes[p]}"
    bet, size = text.fit_shrink(bet, (SCORE_SIZE, 18, 17), COL_CAT - COL_BET - 5, "narrow")
    text.draw(im, (COL_BET + dx, y + (SCORE_SIZE - size) // 2), bet, size, colour, face="narrow",
              bg=P.PANEL)
    x_cat = COL_CAT + dx
    won = r.winner == p
    room = COL_CAT_R - x_cat
    tag = ""
    if won and r.bonus > 0 and r.bonus_category is not None:  # the bonus after the category,
        tag = labels.text("pic.duel.score_bonus", n=text.signed(r.bonus))  # or just its figure
        if text.width(f"{cat_fit(labels, r.values[p].category, SCORE_SIZE, room)} {tag}",
                      SCORE_SIZE, "narrow") > room:
            tag = text.signed(r.bonus)
    # the tag goes 5 px after the category's drawn box, 2 px wider than its text (the mask's
    # margin): a category that fills its room puts the tag's ink edge to edge with the net's,
    # and mirrored (the glyphs' bearings are not) 1 px onto it, so a mirrored picture counts
    # the margin too (a left-to-right one keeps its pixels)
    tag_w = text.width(tag, SCORE_SIZE, "narrow") + 5 + (2 if text.rtl() else 0) if tag else 0
    cat = cat_fit(labels, r.values[p].category, SCORE_SIZE, room - tag_w)
    cell = (x_cat - 2, y - 3, COL_CAT_R + 2, y + L.SCORE_LINE)
    box = text.draw(im, (x_cat, y), cat, SCORE_SIZE, P.GOLD if won else P.TEXT, face="narrow",
                    max_width=room - tag_w, cell=cell, bg=P.PANEL)
    if tag:
        text.draw(im, (box[2] + 5, y), tag, SCORE_SIZE, P.GOLD, face="narrow", cell=cell,
                  bg=P.PANEL)
    d = r.deltas[p]
    text.draw(im, (COL_NET_R, y), text.signed(d, change=True), SCORE_SIZE + 1,
              P.PLUS if d > 0 else P.MINUS if d < 0 else P.DIM, anchor="r", bg=P.PANEL)
    text.draw(im, (COL_STACK_R, y), f"→{r.stacks_after[p]}", SCORE_SIZE, P.TEXT, anchor="r",
              face="narrow", bg=P.PANEL)


def scorecard(im: Image.Image, view: PublicView, names: tuple[str, str], labels: Labels,
              y: int, deck: P.Deck = P.Deck.CLASSIC) -> int:
    """Every bullet of the duel, one block of two lines (one per player: hand, its five cards,
    the bet, the category and any bonus, the net, the stack after), under a title per deal.
    Returns the number of bullet rows drawn."""
    d = ImageDraw.Draw(im)
    # the names' column grows by up to NAME_GROW px for a name that needs it
    need = max(text.width(text.clean(n), SCORE_SIZE, "narrow") for n in names)
    dx = max(0, min(NAME_GROW, need - (COL_POS - 5 - COL_NAME)))
    room = COL_POS - 5 - COL_NAME + dx
    who = (text.name(names[0], SCORE_SIZE, room, "narrow"),
           text.name(names[1], SCORE_SIZE, room, "narrow"))
    rows = 0
    deal: int | None = None
    for r in view.results:
        if r.round != deal:
            deal = r.round
            title = (labels.text("pic.duel.tiebreak") if view.is_tiebreak_round(deal)
                     else labels.text("pic.duel.round_n", n=deal))
            box = text.draw(im, (COL_NO, y + 2), title, 20, P.GOLD if
                            view.is_tiebreak_round(deal) else P.DIM, bg=P.FELT)
            d.line((text.flip_x(box[2] + 9), y + 14, text.flip_x(L.W - L.MARGIN - 9), y + 14),
                   fill=P.PANEL_EDGE, width=2)
            y += L.SCORE_ROUND
        top = y
        sprites.lay_plate(im, (L.MARGIN + 3, top - 2, L.W - L.MARGIN - 3,
                               top + 2 * L.SCORE_LINE + 1), 8, P.PANEL)
        text.draw(im, (COL_NO + 12, top + 2), str(r.number), 24,
                  P.GOLD if r.bonus_duel else P.TEXT, anchor="m", bg=P.PANEL)
        if r.outcome is Outcome.SPLIT:  # under the bullet's number, at a size that fits
            mark, size = text.fit_shrink(labels.text("pic.duel.split"), (15, 14, 12),
                                         COL_NAME - COL_NO - 3, "narrow")
            text.draw(im, (COL_NO + 20, top + L.SCORE_LINE + 5), mark, size, P.DIM, anchor="m",
                      face="narrow", cell=(COL_NO - 5, top, COL_NAME, top + 2 * L.SCORE_LINE),
                      bg=P.PANEL)
        for p in (0, 1):
            _score_line(im, r, p, who, labels, top + p * L.SCORE_LINE, dx, deck)
        y += 2 * L.SCORE_LINE + L.SCORE_GAP
        rows += 1
    return rows


def compose(view: PublicView, names: tuple[str, str], labels: Labels,
            reason: str | None = None, deck: P.Deck = P.Deck.CLASSIC) -> Image.Image:
    """The end of the duel as an RGB image (see `render.result` for the bytes)."""
    names = frame.names_of(names, labels)
    deals = len({r.round for r in view.results})
    im = frame.canvas(L.result_height(len(view.results), deals))
    with text.mirrored(im):  # right to left: player 1 at the right, the chart and the
        _compose(im, view, names, labels, reason, deck)  # scorecard read from the right, the
    return im  # cards unmirrored


def _compose(im: Image.Image, view: PublicView, names: tuple[str, str], labels: Labels,
             reason: str | None, deck: P.Deck) -> None:
    frame.panels(im, view, names, labels, dealer=-1, crown=view.winner)
    frame.revolver(im, view, labels, live=False,
                   bullet=view.last_result.number if view.last_result else 0)
    y = L.BANNER_Y
    if view.winner is None:
        banner, colour = labels.text("pic.duel.over_draw"), P.TEXT
    else:
        banner = labels.text("pic.duel.over_win", name=text.name(names[view.winner], 33, 360))
        colour = P.PLAYER[view.winner]
    line, size = text.fit_shrink(banner, (33, 29, 24), L.W - 2 * L.MARGIN - 68)
    w = text.width(line, size)
    badge = sprites.star(36)
    x = (L.W - w - (badge.width + 11 if view.winner is not None else 0)) // 2
    if view.winner is not None:
        im.paste(badge, (text.flip_x(x, badge.width), y + 2), badge)
        x += badge.width + 11
    text.draw(im, (x, y), line, size, colour, bg=P.FELT)
    said, behind = why(view, names, labels, reason)
    for i, part in enumerate(text.wrap(said, 23, L.W - 2 * L.MARGIN - 30, 2)):
        text.draw(im, (L.W // 2, y + 44 + i * 27), part, 23, P.MINUS if behind else P.TEXT,
                  anchor="m", bg=P.FELT)
    if view.results:
        chart(im, view, labels)
    text.draw(im, (L.MARGIN + 12, L.SCORE_Y), labels.text("pic.duel.score_title"), 21,
              P.TEXT, bg=P.FELT)
    scorecard(im, view, names, labels, L.SCORE_Y + 33, deck)


def result(view: PublicView, *, names: tuple[str, str], labels: Labels,
           reason: str | None = None, deck: P.Deck = P.Deck.CLASSIC,
           fmt: str = "jpeg") -> bytes:
    """The end of the duel: winner or draw, why it ended (`reason`: DuelState.end_reason,
    one of REASONS; None reads as "bullets"), final stacks, the stacks over the bullets and the
    scorecard of every bullet, its cards in `deck`'s colours."""
    with text.writing(labels):  # right to left, Persian digits: what labels say
        return encode(compose(view, names, labels, reason, deck), fmt, DUEL)
