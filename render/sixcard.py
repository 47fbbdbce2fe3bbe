"""The six-card poker table at any moment of a game, drawn from its public view only.

    render.sixcard(view, name="Алиса", lang="ru") -> bytes

A header with the player (name, balance, chips on the table or the game's net) and what happens
now; under it one lane for the dealer and one per box, all alike: a title column (the box, a
"blind" tag, its ANTE and BET chips, the fees it paid), the cards in dealt order, and a column
for the hand's name and, once settled, the box's outcome and net. Cards not shown are a stack
of backs as in the duel (the dealer's four behind its face-up card). A bought sixth card sits
apart, tagged; a replaced card is greyed and struck right of the hand. The dealer's drawn card
is rimmed in gold and tagged "new" (a box's is not: its view does not say which position the
replace took). The box being decided, or offered the dealer's game, has a lit frame; a box
that won, a gold one and a star.

The picture is as tall as the game has boxes (`height(len(view.boxes))`); the geometry below
is what the tests sample. Nothing here receives a hidden card: a box not shown yet and the
dealer's hole cards are backs because the view holds no card for them.
"""

from __future__ import annotations

import io
from functools import lru_cache

from PIL import Image, ImageDraw, ImageOps

from render import frame, sprites, text
from render import layout as L
from render.text import Labels
from rules.cards import Card
from rules.hands import evaluate
from rules.sixcard.view import (
    BET,
    BUY_FEE,
    GAME_FEE,
    REPLACE_FEE,
    BoxOutcome,
    BoxState,
    SixBoxView,
    SixCardView,
    SixPhase,
)

Box = tuple[int, int, int, int]
RGB = tuple[int, int, int]
Line = tuple[str, int, RGB]

# --- geometry: row 0 is the dealer's lane, rows 1..3 the boxes ------------------------------
HEADER_H = 146
LANE_X0, LANE_X1 = L.MARGIN + 4, L.W - L.MARGIN - 4
LANE_H = 206
LANE_GAP = 10
BOTTOM = 24
TITLE_X = LANE_X0 + 16
CARDS_X = 260
STEP = 80  # a card's visible strip: its index and a part of its middle
SIXTH_GAP = 14  # a bought sixth card sits apart
CARD_TOP = 32  # cards start this far below the lane's top; tags go above them
DROP_W, DROP_H = 92, 129
DROP_X = CARDS_X + 5 * STEP + SIXTH_GAP + L.CARD_W + 18
OUT_X0 = DROP_X + DROP_W + 18
OUT_X1 = LANE_X1 - 14
STATUS_X = L.PANELS[0][2] + 28
CHIP_ROWS = (74, 136)  # the ANTE's and the BET's chip, below the lane's top

LIT: RGB = L.PLAYER[0]  # the player's colour: their panel token and the box they decide
LANE_FILL: RGB = L.PANEL
GREY_MIX = 0.45  # how far a dropped card fades into the lane
JPEG_QUALITIES = (76, 66)  # with optimised Huffman tables (frame.encode: 80, without)
MAX_BYTES = 150 * 1024


def height(boxes: int) -> int:
    """The picture's height for a game of `boxes` boxes (before the deal: as for one)."""
    n = max(1, boxes)
    return HEADER_H + (n + 1) * LANE_H + n * LANE_GAP + BOTTOM


def lane_box(row: int) -> Box:
    """Row 0: the dealer's lane; row b + 1: box b's."""
    y = HEADER_H + row * (LANE_H + LANE_GAP)
    return (LANE_X0, y, LANE_X1, y + LANE_H)


def card_box(row: int, k: int, w: int = L.CARD_W, h: int = L.CARD_H) -> Box:
    """Card `k` (0..5, in dealt order) of a lane."""
    _, y, _, _ = lane_box(row)
    x = CARDS_X + k * STEP + (SIXTH_GAP if k == 5 else 0)
    return (x, y + CARD_TOP, x + w, y + CARD_TOP + h)


def dropped_box(row: int) -> Box:
    """The greyed card a replace dropped."""
    _, y, _, _ = lane_box(row)
    top = y + CARD_TOP + (L.CARD_H - DROP_H) // 2
    return (DROP_X, top, DROP_X + DROP_W, top + DROP_H)


def chip_box(row: int, which: int) -> Box:
    """The ANTE's (0) or the BET's (1) chip and amount in a box's title column."""
    _, y, _, _ = lane_box(row)
    top = y + CHIP_ROWS[which]
    return (TITLE_X, top, CARDS_X - 12, top + 58)


def outcome_box(row: int) -> Box:
    """The column with the hand's name and, when settled, the outcome and the net."""
    _, y0, _, y1 = lane_box(row)
    return (OUT_X0, y0 + 8, OUT_X1, y1 - 8)


# --- sprites of this picture -----------------------------------------------------------------


@lru_cache(maxsize=32)
def greyed(card: Card) -> Image.Image:
    """`card` as a card taken out: small, grey, faded into the lane, struck through (RGB)."""
    # scaled from the cached face (not sprites.face at this size: its cache holds the duel's)
    face = sprites.face(card).resize((DROP_W, DROP_H), Image.Resampling.LANCZOS)
    grey = ImageOps.grayscale(face.convert("RGB")).convert("RGB")
    lane = Image.new("RGB", face.size, LANE_FILL)
    out = lane.copy()
    out.paste(Image.blend(grey, lane, GREY_MIX), (0, 0), face)
    d = ImageDraw.Draw(out)
    d.line((10, DROP_H - 12, DROP_W - 10, 12), fill=L.MINUS, width=5)
    return out


def _tag(im: Image.Image, d: ImageDraw.ImageDraw, cx: int, y: int, caption: str,
         fill: RGB | None, ink: RGB, max_width: int) -> None:
    """A small pill with `caption`, centred on `cx`, its top at `y` (`fill=None`: outlined)."""
    size = 16
    caption = text.fit(caption, size, max_width - 14, "narrow")
    w = text.width(caption, size, "narrow") + 14
    box = (cx - w // 2, y, cx - w // 2 + w, y + 24)
    if fill is None:
        d.rounded_rectangle(box, 12, outline=ink, width=2)
    else:
        d.rounded_rectangle(box, 12, fill=fill)
    text.draw(im, (cx, y + 2), caption, size, ink, anchor="m", face="narrow")


def _net_colour(n: int) -> RGB:
    return L.PLUS if n > 0 else L.MINUS if n < 0 else L.DIM


# --- the lanes -------------------------------------------------------------------------------


Edge = tuple[RGB, int]  # a frame's colour and width
PLAIN: Edge = (L.PANEL_EDGE, 2)


@lru_cache(maxsize=4)  # 3.7 MB each for three boxes: the frames of the latest pictures
def base(lanes: tuple[Edge, ...], panel: Edge) -> Image.Image:
    """The felt with the player's panel and the lanes (the dealer's first) framed, nothing in
    them yet: what every picture of a game with these frames starts from (copy it)."""
    im = frame.canvas(height(len(lanes) - 1))
    d = ImageDraw.Draw(im)
    d.rounded_rectangle(L.PANELS[0], 16, fill=L.PANEL, outline=panel[0], width=panel[1])
    for row, (edge, width) in enumerate(lanes):
        d.rounded_rectangle(lane_box(row), 16, fill=LANE_FILL, outline=edge, width=width)
    return im


def _edge(view: SixCardView, box: SixBoxView) -> Edge:
    """A box's frame: gold when it won, lit while it is being decided or offered the dealer's
    game, plain otherwise."""
    if box.settlement is not None and box.settlement.outcome is BoxOutcome.WON:
        return (L.GOLD, 4)
    if _live(view, box):
        return (LIT, 4)
    return PLAIN


def _live(view: SixCardView, box: SixBoxView) -> bool:
    return box.box == view.to_act and view.phase in (SixPhase.DECIDING, SixPhase.DEALER_GAME)


FAN_PAD = 4  # room around a fan for the rim of a new card


@lru_cache(maxsize=32)  # 0.3 MB each at most: the hands of the few games being played
def fan(cards: tuple[Card, ...], new: int | None = None) -> Image.Image:
    """Cards face up as a lane shows them, left to right from card_box(row, 0), laid on the
    lane's colour with FAN_PAD px around (RGB: pasted without a mask); `new` rimmed in gold."""
    ox, oy, _, bottom = card_box(0, 0)
    right = card_box(0, len(cards) - 1)[2]
    im = Image.new("RGB", (right - ox + 2 * FAN_PAD, bottom - oy + 2 * FAN_PAD), LANE_FILL)
    d = ImageDraw.Draw(im)
    for k, card in enumerate(cards):
        x0, y0, x1, y1 = card_box(0, k)
        x0, y0, x1, y1 = x0 - ox + FAN_PAD, y0 - oy + FAN_PAD, x1 - ox + FAN_PAD, y1 - oy + FAN_PAD
        sprite = sprites.face(card)
        im.paste(sprite, (x0, y0), sprite)
        if k == new:
            d.rounded_rectangle((x0 - 3, y0 - 3, x1 + 2, y1 + 2), 12, outline=L.GOLD, width=4)
    return im


def _cards(im: Image.Image, d: ImageDraw.ImageDraw, row: int, cards: tuple[Card, ...], *,
           new: int | None = None, sixth: bool = False, labels: Labels) -> None:
    """A lane's cards face up, left to right; `new` is rimmed and tagged, a bought sixth card
    tagged."""
    x0, y0, _, _ = card_box(row, 0)
    im.paste(fan(cards, new), (x0 - FAN_PAD, y0 - FAN_PAD))
    for k in range(len(cards)):
        x0, y0, x1, _ = card_box(row, k)
        room = STEP if k < len(cards) - 1 else x1 - x0
        cx = x0 + room // 2
        if k == new:
            _tag(im, d, cx, y0 - 29, labels.text("pic.sixcard.new"), L.GOLD, L.BLACK, room)
        elif k == 5 and sixth:
            _tag(im, d, cx, y0 - 29, labels.text("pic.sixcard.sixth"), None, L.GOLD, room)


@lru_cache(maxsize=64)
def stack(backs: int, up: Card | None) -> Image.Image:
    """Cards face down, as in the duel: `backs` backs stacked up and to the right behind `up`
    (or behind nothing: a box not shown yet is five backs), on the lane's colour (RGB). The
    front card is at the bottom left."""
    n = backs if up is not None else backs - 1
    im = Image.new("RGB", (L.CARD_W + n * L.BACK_DX, L.CARD_H + n * L.BACK_DY), LANE_FILL)
    b = sprites.back()
    for k in range(n, 0, -1):
        im.paste(b, (k * L.BACK_DX, (n - k) * L.BACK_DY), b)
    front = sprites.face(up) if up is not None else b
    im.paste(front, (0, n * L.BACK_DY), front)
    return im


def _stack(im: Image.Image, row: int, backs: int, up: Card | None) -> None:
    """The stack's front card stands where a hand's first card does."""
    x0, y0, _, _ = card_box(row, 0)
    sprite = stack(backs, up)
    im.paste(sprite, (x0, y0 + L.CARD_H - sprite.height))


def _dropped(im: Image.Image, d: ImageDraw.ImageDraw, row: int, card: Card, labels: Labels) -> None:
    x0, y0, x1, _ = dropped_box(row)
    im.paste(greyed(card), (x0, y0))
    _tag(im, d, (x0 + x1) // 2, y0 - 29, labels.text("pic.sixcard.out"), None, L.MINUS,
         x1 - x0 + 16)


def _column(im: Image.Image, row: int, lines: list[Line], star: bool = False) -> None:
    """The right-hand column of a lane: big lines shrink to fit, small ones wrap (two lines at
    most), all cut with an ellipsis if they still do not fit."""
    x0, y, x1, _ = outcome_box(row)
    y += 6
    for line, size, colour in lines:
        room = x1 - x0
        if size >= 26:
            if star and size >= 30:
                room -= 52
            cut, sz = text.fit_shrink(line, (size, size - 4, size - 6), room, "narrow")
            parts = [cut]
        else:
            sz, parts = size, text.wrap(line, size, room, 2, "narrow")
        for part in parts:
            box = text.draw(im, (x0, y), part, sz, colour, face="narrow")
            y += text.line_height(sz, "narrow") + (2 if len(parts) > 1 else 6)
        if star and size >= 30:
            badge = sprites.star(40, LANE_FILL)
            im.paste(badge, (box[2] + 10, box[1] + 2))
        if len(parts) > 1:
            y += 4


def _dealer(im: Image.Image, d: ImageDraw.ImageDraw, view: SixCardView, labels: Labels) -> None:
    _, y, _, _ = lane_box(0)
    text.draw(im, (TITLE_X, y + 12), labels.text("pic.dealer"), 28, L.TEXT,
              max_width=CARDS_X - TITLE_X - 16)
    lines: list[Line] = []
    rep = view.dealer_replacement
    if view.dealer_cards is not None:
        _cards(im, d, 0, tuple(view.dealer_cards), new=rep.index if rep else None, labels=labels)
        if rep is not None:
            _dropped(im, d, 0, rep.dropped, labels)
        if view.dealer_value is not None:
            lines.append((text.hand_name(labels, view.dealer_value.category), 30, L.TEXT))
        if view.dealer_qualifies is not None:
            lines.append((labels.text("pic.sixcard.qualifies" if view.dealer_qualifies
                                       else "pic.sixcard.no_game"), 26,
                          L.PLUS if view.dealer_qualifies else L.MINUS))
        if rep is not None and view.dealer_first_cards is not None:
            first = evaluate(view.dealer_first_cards).category
            if view.dealer_value is None or first is not view.dealer_value.category:
                lines.append((labels.text("pic.sixcard.was", cat=text.hand_name(labels, first)),
                              20, L.DIM))
            lines.append((labels.text("pic.sixcard.chance", outs=rep.outs[rep.index],
                                       unseen=rep.unseen), 20, L.DIM))
    elif view.dealer_up is not None:
        _stack(im, 0, view.dealer_backs, view.dealer_up)
        lines.append((labels.text("pic.sixcard.dealer_hint"), 20, L.DIM))
    _column(im, 0, lines)


def _box_lines(view: SixCardView, box: SixBoxView, labels: Labels) -> tuple[list[Line], bool]:
    """The right-hand column of a box, and whether it won (a star)."""
    lines: list[Line] = []
    if box.value is not None:
        lines.append((text.hand_name(labels, box.value.category), 26, L.TEXT))
    s = box.settlement
    if s is not None:
        o = s.outcome
        if o is BoxOutcome.WON:
            word, colour = labels.text("pic.sixcard.won", mult=s.value.category.multiplier), L.GOLD
        elif o is BoxOutcome.LOST:
            word, colour = labels.text("pic.sixcard.lost"), L.MINUS
        elif o is BoxOutcome.PUSH:
            word, colour = labels.text("pic.sixcard.push"), L.TEXT
        elif o is BoxOutcome.NO_GAME:
            word, colour = labels.text("pic.sixcard.paid_no_game"), L.PLUS
        elif o is BoxOutcome.STAKES_RETURNED:
            word, colour = labels.text("pic.sixcard.stakes_back"), L.TEXT
        else:
            word, colour = labels.text("pic.sixcard.folded"), L.MINUS
        lines.append((word, 22, colour))
        lines.append((text.signed(s.net, change=True), 34, _net_colour(s.net)))
        if s.bought_dealer_game:
            lines.append((labels.text("pic.sixcard.game_bought"), 18, L.DIM))
        return lines, o is BoxOutcome.WON
    live = box.box == view.to_act
    if box.state is BoxState.HIDDEN:
        # box 2: shown after box 1
        key = "pic.sixcard.blind_wait" if box.blind else "pic.sixcard.hidden"
        lines.append((labels.text(key, n=box.box), 20, L.DIM))
    elif box.state is BoxState.DECIDING:
        lines.append((labels.text("pic.sixcard.deciding"), 22, LIT))
    elif box.state is BoxState.FOLDED:
        lines.append((labels.text("pic.sixcard.folded"), 22, L.MINUS))
        lines.append((text.signed(-(box.ante + box.fees), change=True), 34, L.MINUS))
    elif live and view.phase is SixPhase.DEALER_GAME:
        lines.append((labels.text("pic.sixcard.offer_box"), 22, LIT))
    else:
        lines.append((labels.text("pic.sixcard.playing"), 22, L.DIM))
        if box.dealer_game is not None:
            key = "pic.sixcard.game_bought" if box.dealer_game else "pic.sixcard.game_declined"
            lines.append((labels.text(key), 18, L.DIM))
    return lines, False


def _chip(im: Image.Image, row: int, which: int, amount: int, labels: Labels) -> None:
    x0, y0, x1, _ = chip_box(row, which)
    sprite = sprites.chip(which, 0, LANE_FILL)
    im.paste(sprite, (x0, y0))
    caption = labels.text("pic.sixcard.ante" if which == 0 else "pic.sixcard.bet", n=amount)
    text.draw(im, (x0 + sprite.width + 10, y0 + 16), caption, 22, L.TEXT, face="narrow",
              max_width=x1 - x0 - sprite.width - 10)


def _box(im: Image.Image, d: ImageDraw.ImageDraw, view: SixCardView, box: SixBoxView,
         labels: Labels) -> None:
    row = box.box + 1
    lines, won = _box_lines(view, box, labels)
    live = _live(view, box)
    _, y, _, _ = lane_box(row)
    title = text.draw(im, (TITLE_X, y + 12), labels.text("pic.sixcard.box", n=box.box + 1), 28,
                      LIT if live else L.TEXT, max_width=CARDS_X - 16 - TITLE_X)
    x = TITLE_X
    if box.blind:  # on the title's line if it fits there, else on the fees' line
        blind = labels.text("pic.sixcard.blind")
        w = text.width(blind, 16, "narrow") + 14
        if title[2] + 10 + w <= CARDS_X - 12:
            _tag(im, d, title[2] + 10 + w // 2, y + 19, blind, L.GOLD, L.BLACK, w)
        else:
            _tag(im, d, x + w // 2, y + 46, blind, L.GOLD, L.BLACK, CARDS_X - 16 - x)
            x += w + 10
    if box.fees:
        text.draw(im, (x, y + 48), labels.text("pic.sixcard.fees", n=box.fees), 18, L.DIM,
                  max_width=CARDS_X - 16 - x)
    _chip(im, row, 0, box.ante, labels)
    if box.bet:
        _chip(im, row, 1, box.bet, labels)
    if box.cards is None:
        _stack(im, row, 5, None)
    else:
        # The view keeps the six in place and the dropped card aside, but does not say which
        # position the drawn card took: the dropped card is what marks a replace.
        _cards(im, d, row, tuple(box.cards), sixth=box.bought, labels=labels)
        for card in box.discards[-1:]:
            _dropped(im, d, row, card, labels)
    _column(im, row, lines, star=won)


# --- the header --------------------------------------------------------------------------------


def _on_table(view: SixCardView) -> int:
    return sum(b.ante + b.bet for b in view.boxes
               if b.settlement is None and b.state is not BoxState.FOLDED)


def _panel(im: Image.Image, view: SixCardView, name: str, labels: Labels) -> None:
    x0, y0, x1, _ = L.PANELS[0]
    over = view.is_over
    im.paste(sprites.chip(0, 0, L.PANEL), (x0 + 12, y0 + 10))
    line, size = text.fit_shrink(name, (30, 26, 22), x1 - x0 - 86)
    text.draw(im, (x0 + 70, y0 + 12 + (30 - size) // 2), line, size, L.TEXT)
    box = text.draw(im, (x0 + 70, y0 + 56), str(view.balance), 38, L.TEXT)
    if over:
        if view.net:
            text.draw(im, (box[2] + 10, y0 + 70), text.signed(view.net, change=True), 22,
                      _net_colour(view.net))
    elif view.boxes:
        text.draw(im, (x1 - 16, y0 + 80), labels.text("pic.sixcard.on_table", n=_on_table(view)),
                  20, L.DIM, anchor="r", max_width=x1 - box[2] - 30)


def status_lines(view: SixCardView, labels: Labels) -> list[Line]:
    """What happens now, in words: (text, size, colour) lines."""
    out: list[Line] = []
    box = view.boxes[view.to_act] if view.to_act is not None and view.boxes else None
    if not view.boxes:
        pass  # the empty table says so
    elif view.phase is SixPhase.DECIDING and box is not None:
        out.append((labels.text("pic.sixcard.move", n=box.box + 1), 24, LIT))
        legal = set(view.legal)
        opts = [labels.text("pic.sixcard.opt_fold")] if "f" in legal else []
        if "p" in legal:
            opts.append(labels.text("pic.sixcard.opt_play", n=BET * box.ante))
        if "b" in legal:
            opts.append(labels.text("pic.sixcard.opt_buy", n=BUY_FEE * box.ante))
        if any(c.startswith("r") for c in legal):
            opts.append(labels.text("pic.sixcard.opt_replace", n=REPLACE_FEE * box.ante))
        if legal == {"f"}:
            out.append((labels.text("pic.sixcard.fold_only"), 20, L.MINUS))
        else:
            out.append((" · ".join(opts), 20, L.TEXT))
    elif view.phase is SixPhase.DEALER_GAME and box is not None:
        out.append((labels.text("pic.sixcard.dealer_none"), 24, L.GOLD))
        out.append((labels.text("pic.sixcard.offer", n=box.box + 1, fee=GAME_FEE * box.ante), 22,
                    LIT))
        out.append((labels.text("pic.sixcard.offer_rule"), 18, L.DIM))
    elif view.is_over:
        out.append((labels.text("pic.sixcard.over"), 26, L.GOLD))
        out.append((labels.text("pic.sixcard.net", net=text.signed(view.net, change=True)), 26,
                    _net_colour(view.net)))
    return out


def _status(im: Image.Image, view: SixCardView, labels: Labels) -> None:
    x, x1 = STATUS_X, LANE_X1 - 8
    text.draw(im, (x, 18), labels.text("pic.sixcard.title"), 22, L.DIM, max_width=x1 - x)
    y = 50
    for line, size, colour in status_lines(view, labels):
        for part in text.wrap(line, size, x1 - x, 2):
            if y + text.line_height(size) > HEADER_H - 4:
                return
            text.draw(im, (x, y), part, size, colour)
            y += text.line_height(size) + 2
        y += 4


# --- the picture -------------------------------------------------------------------------------


def compose(view: SixCardView, name: str, labels: Labels) -> Image.Image:
    """The table picture as an RGB image (see `render.sixcard` for the bytes)."""
    name = text.clean(str(name)) or labels.text("pic.sixcard.you")
    lanes = (PLAIN, *(_edge(view, b) for b in view.boxes)) if view.boxes else (PLAIN, PLAIN)
    panel = (L.GOLD, 4) if view.is_over and view.net > 0 else PLAIN
    im = base(lanes, panel).copy()
    d = ImageDraw.Draw(im)
    _panel(im, view, name, labels)
    _status(im, view, labels)
    _dealer(im, d, view, labels)
    for box in view.boxes:
        _box(im, d, view, box, labels)
    if not view.boxes:
        _, y0, _, y1 = lane_box(1)
        text.draw(im, (L.W // 2, (y0 + y1) // 2 - 20), labels.text("pic.shuffling"), 34,
                  L.DIM, anchor="m")
    return im


def encode_jpeg(im: Image.Image) -> bytes:
    """JPEG bytes as frame.encode makes them, a little smaller: optimised, progressive coding at
    JPEG_QUALITY, and in the rare picture still over MAX_BYTES (a settled three-box table
    shows up to 24 cards, 4 of them greyed) a lower quality. Deterministic, as the image is."""
    data = b""
    for quality in JPEG_QUALITIES:
        buf = io.BytesIO()
        im.save(buf, "JPEG", quality=quality, subsampling=2, optimize=True)
        data = buf.getvalue()
        if len(data) <= MAX_BYTES:
            break
    return data


def sixcard(view: SixCardView, *, name: str, labels: Labels, fmt: str = "jpeg") -> bytes:
    """The six-card poker table at this moment of the game, as JPEG (default) or PNG bytes."""
    im = compose(view, name, labels)
    if fmt.lower() in ("jpeg", "jpg"):
        return encode_jpeg(im)
    return frame.encode(im, fmt)
