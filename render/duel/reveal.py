"""The reveal of a bullet: both chosen hands turned over side by side (player 0 on the left,
as on the panels), each with its stake, its value and the chips it won or lost; the winner
framed in gold; the outcome in words (and the bonus with its reason in a bonus duel)."""

from __future__ import annotations

from PIL import Image, ImageDraw

from render import palette as P
from render import sprites, text
from render.duel import frame
from render.duel import layout as L
from render.duel.table import arrange
from render.duel.words import stake_label
from render.encode import DUEL, encode
from render.text import Labels
from rules.duel.view import BulletResult, Outcome, PublicView

RGBT = tuple[int, int, int]


def outcome_lines(result: BulletResult, names: tuple[str, str], labels: Labels) -> list[
    tuple[str, int, RGBT]
]:
    """The outcome of `result` in words: (text, size, colour) lines."""
    who = [text.name(n, 21, 165) for n in names]
    out: list[tuple[str, int, RGBT]] = []
    w = result.winner
    if result.outcome is Outcome.BOTH_PASS:
        out.append((labels.text("pic.duel.both_pass"), 21, P.TEXT))
    elif result.outcome is Outcome.SPLIT:
        out.append((labels.text("pic.duel.split_pot"), 21, P.TEXT))
        if result.bonus_duel:
            out.append((labels.text("pic.duel.bonus_none"), 21, P.DIM))
    elif w is not None:
        l_ = 1 - w
        taken = result.stakes[0] + result.stakes[1]
        key = ("pic.duel.uncontested" if result.outcome is Outcome.UNCONTESTED
               else "pic.duel.showdown")
        out.append((labels.plural(key, taken, w=who[w], l=who[l_]), 21, P.TEXT))
        if result.bonus_duel and result.bonus_category is not None:
            cat = result.bonus_category
            key = "pic.duel.bonus" if result.bonus >= cat.multiplier else "pic.duel.bonus_capped"
            if cat.multiplier == 0:
                key = "pic.duel.bonus_zero"
            out.append((labels.text(key, cat=text.hand_name(labels, cat),
                                     mult=cat.multiplier, l=who[l_], n=result.bonus), 21, P.GOLD))
    for p in (0, 1):
        if result.stacks_after[p] == 0:
            out.append((labels.text("pic.duel.out_of_chips", name=who[p]), 21, P.MINUS))
    return out


def _side(im: Image.Image, d: ImageDraw.ImageDraw, result: BulletResult, p: int,
          labels: Labels, deck: P.Deck) -> None:
    x0, y0, x1, y1 = L.reveal_hand_box(p)
    mid = (x0 + x1) // 2
    won = result.winner == p
    stake = result.stakes[p]
    chip = sprites.chip(p, stake, P.FELT, L.CHIP)
    number = labels.text("pic.duel.hand_no", n=result.positions[p] + 1)
    caption = f"{number} · {stake_label(labels, stake, result.bonus_duel)}"
    cw = chip.width + 8 + text.width(caption, 23)
    im.paste(chip, (text.flip_x(mid - cw // 2, chip.width), y0 - 53))
    text.draw(im, (mid - cw // 2 + chip.width + 8, y0 - 43), caption, 23, P.PLAYER[p], bg=P.FELT)
    if won:
        d.rounded_rectangle(text.flip_box((x0 - 6, y0 - 6, x1 + 6, y1 + 6)), 12, outline=P.GOLD,
                            width=5)
    left = text.flip_box((x0, y0, x1, y1))[0]  # the hand's place; its cards unmirrored
    for i, card in enumerate(arrange(result.cards[p])):
        sprite = sprites.face(card, L.BIG_W, L.BIG_H, deck)
        im.paste(sprite, (left + i * L.BIG_STEP, y0), sprite)
    if won:
        badge = sprites.star(36)
        im.paste(badge, (text.flip_x(x1 - 22, badge.width), y0 - 18), badge)
    cat = text.hand_name(labels, result.values[p].category)
    y = y1 + 12
    text.draw(im, (mid, y), cat, 24, P.GOLD if won else P.TEXT, anchor="m",
              max_width=x1 - x0, bg=P.FELT)
    delta = result.deltas[p]
    colour = P.PLUS if delta > 0 else P.MINUS if delta < 0 else P.DIM
    tag = text.signed(delta, change=True)
    if won:
        tag = f"{labels.text('pic.duel.winner')}  {tag}"
    elif result.outcome is Outcome.SPLIT:
        tag = f"{labels.text('pic.duel.split')}  {tag}"
    text.draw(im, (mid, y + 32), tag, 23, colour, anchor="m", max_width=x1 - x0, bg=P.FELT)


def compose(view: PublicView, result: BulletResult | None, names: tuple[str, str],
            labels: Labels, deck: P.Deck = P.Deck.CLASSIC) -> Image.Image:
    """The reveal of `result` (default: the view's last finished bullet) as an RGB image."""
    result = result if result is not None else view.last_result
    if result is None:
        raise ValueError("no bullet has been turned over yet: there is nothing to reveal")
    names = frame.names_of(names, labels)
    im = frame.canvas(L.REVEAL_H)
    with text.mirrored(im):  # right to left: player 1 at the right
        _compose(im, view, result, names, labels, deck)
    return im


def _compose(im: Image.Image, view: PublicView, result: BulletResult,
             names: tuple[str, str], labels: Labels, deck: P.Deck) -> None:
    frame.panels(im, view, names, labels, stacks=result.stacks_after, dealer=result.dealer)
    frame.revolver(im, view, labels, bullet=result.number, round_=result.round, live=False)
    if result.bonus_duel:
        text.draw(im, (L.W // 2, L.HEADER_H - 2), labels.text("pic.duel.bonus_duel"), 23, P.GOLD,
                  anchor="m", bg=P.FELT)
    d = ImageDraw.Draw(im)
    for p in (0, 1):
        _side(im, d, result, p, labels, deck)
    y = L.reveal_hand_box(0)[3] + 78
    budget = 4  # lines: each outcome wraps, none is cut
    for line, size, colour in outcome_lines(result, names, labels):
        for part in text.wrap(line, size, L.W - 2 * L.MARGIN - 30, max(1, budget)):
            text.draw(im, (L.W // 2, y), part, size, colour, anchor="m", bg=P.FELT)
            y += text.line_height(size) + 3
            budget -= 1


def reveal(view: PublicView, result: BulletResult | None = None, *, names: tuple[str, str],
           labels: Labels, deck: P.Deck = P.Deck.CLASSIC, fmt: str = "jpeg") -> bytes:
    """A finished bullet turned over, as JPEG (default) or PNG bytes, the cards in `deck`'s
    colours."""
    with text.writing(labels):  # right to left, Persian digits: what labels say
        return encode(compose(view, result, names, labels, deck), fmt, DUEL)
