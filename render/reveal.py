"""The reveal of a bullet: both chosen hands turned over side by side (player 0 on the left,
as on the panels), each with its stake, its value and the chips it won or lost; the winner
framed in gold; the outcome in words (and the bonus with its reason in a bonus duel)."""

from __future__ import annotations

from PIL import Image, ImageDraw

from render import frame, labels, sprites, text
from render import layout as L
from render.table import arrange, stake_label
from rules.view import BulletResult, Outcome, PublicView

RGBT = tuple[int, int, int]


def outcome_lines(result: BulletResult, names: tuple[str, str], lang: str) -> list[
    tuple[str, int, RGBT]
]:
    """The outcome of `result` in words: (text, size, colour) lines."""
    who = [frame.short(n, 26, 240) for n in names]
    out: list[tuple[str, int, RGBT]] = []
    w = result.winner
    if result.outcome is Outcome.BOTH_PASS:
        out.append((labels.label(lang, "both_pass"), 26, L.TEXT))
    elif result.outcome is Outcome.SPLIT:
        out.append((labels.label(lang, "split_pot"), 26, L.TEXT))
        if result.bonus_duel:
            out.append((labels.label(lang, "bonus_none"), 24, L.DIM))
    elif w is not None:
        l_ = 1 - w
        taken = result.stakes[0] + result.stakes[1]
        key = "uncontested" if result.outcome is Outcome.UNCONTESTED else "showdown"
        out.append((labels.label(lang, key, w=who[w], l=who[l_], n=taken), 26, L.TEXT))
        if result.bonus_duel and result.bonus_category is not None:
            cat = result.bonus_category
            key = "bonus" if result.bonus >= cat.multiplier else "bonus_capped"
            if cat.multiplier == 0:
                key = "bonus_zero"
            out.append((labels.label(lang, key, cat=labels.category(lang, cat),
                                     mult=cat.multiplier, l=who[l_], n=result.bonus), 26, L.GOLD))
    for p in (0, 1):
        if result.stacks_after[p] == 0:
            out.append((labels.label(lang, "out_of_chips", name=who[p]), 24, L.MINUS))
    return out


def _side(im: Image.Image, d: ImageDraw.ImageDraw, result: BulletResult, p: int,
          lang: str) -> None:
    x0, y0, x1, y1 = L.reveal_hand_box(p)
    mid = (x0 + x1) // 2
    won = result.winner == p
    stake = result.stakes[p]
    chip = sprites.chip(p, stake)
    number = labels.label(lang, "hand_no", n=result.positions[p] + 1)
    caption = f"{number} · {stake_label(lang, stake, result.bonus_duel)}"
    cw = chip.width + 10 + text.width(caption, 24)
    im.paste(chip, (mid - cw // 2, y0 - 66))
    text.draw(im, (mid - cw // 2 + chip.width + 10, y0 - 52), caption, 24, L.PLAYER[p])
    if won:
        d.rounded_rectangle((x0 - 8, y0 - 8, x1 + 8, y1 + 8), 16, outline=L.GOLD, width=6)
    for i, card in enumerate(arrange(result.cards[p])):
        sprite = sprites.face(card, L.BIG_W, L.BIG_H)
        im.paste(sprite, (x0 + i * L.BIG_STEP, y0), sprite)
    if won:
        badge = sprites.star(48)
        im.paste(badge, (x1 - 30, y0 - 24), badge)
    cat = labels.category(lang, result.values[p].category)
    y = y1 + 16
    text.draw(im, (mid, y), cat, 32, L.GOLD if won else L.TEXT, anchor="m",
              max_width=x1 - x0)
    delta = result.deltas[p]
    sign = "+" if delta > 0 else "−" if delta < 0 else "±"
    colour = L.PLUS if delta > 0 else L.MINUS if delta < 0 else L.DIM
    tag = f"{sign}{abs(delta)}"
    if won:
        tag = f"{labels.label(lang, 'winner')}  {tag}"
    elif result.outcome is Outcome.SPLIT:
        tag = f"{labels.label(lang, 'split')}  {tag}"
    text.draw(im, (mid, y + 46), tag, 30, colour, anchor="m", max_width=x1 - x0)


def compose(view: PublicView, result: BulletResult | None, names: tuple[str, str],
            lang: str = "en") -> Image.Image:
    """The reveal of `result` (default: the view's last finished bullet) as an RGB image."""
    result = result if result is not None else view.last_result
    if result is None:
        raise ValueError("no bullet has been turned over yet: there is nothing to reveal")
    names = frame.names_of(names, lang)
    im = frame.canvas(L.REVEAL_H)
    frame.panels(im, view, names, lang, stacks=result.stacks_after, dealer=result.dealer)
    frame.revolver(im, view, lang, bullet=result.number, round_=result.round, live=False)
    if result.bonus_duel:
        text.draw(im, (L.W // 2, L.HEADER_H + 4), labels.label(lang, "bonus_duel"), 26, L.GOLD,
                  anchor="m")
    d = ImageDraw.Draw(im)
    for p in (0, 1):
        _side(im, d, result, p, lang)
    y = L.reveal_hand_box(0)[3] + 112
    for line, size, colour in outcome_lines(result, names, lang):  # three lines at most
        text.draw(im, (L.W // 2, y), line, size, colour, anchor="m",
                  max_width=L.W - 2 * L.MARGIN - 40)
        y += text.line_height(size) + 4
    return im


def reveal(view: PublicView, result: BulletResult | None = None, *, names: tuple[str, str],
           lang: str = "en", fmt: str = "jpeg") -> bytes:
    """A finished bullet turned over, as JPEG (default) or PNG bytes."""
    return frame.encode(compose(view, result, names, lang), fmt)
