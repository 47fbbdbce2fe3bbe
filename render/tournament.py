"""A round-robin tournament's table, pure: plain rows in, image bytes out, on the standings' felt.

    render.tournament.tournament_table(TournamentTable(...), labels=tr) -> bytes

bot/ fills the frozen dataclasses with plain values (names resolved, points in halves as
rules.tournament counts them); names and the chat's title are untrusted: `text.clean`, then cut.
1000 px wide, no word under 26 px: the star and "Tournament", the chat, "Round 2 of 5 · 4 of 10
played" (at the end "Final table" and the winner's banner); a row per player, best first: place
(medals 1–3), name, the cross-table (a column per opponent numbered 1..n in the rows' order:
what the row's player scored against the column's, 1 ½ 0, + / − a walkover; the diagonal dark;
a duel being played framed in green), W–L–D when there is room, points ("3½"), net chips; a
legend under a walkover; the next pairs, two a line.
The cross-table is drawn when its cells fit at 26 px leaving `MIN_NAME` px for the names: always
for a single round-robin (to 12 players), to 8 players for a double one (two marks a cell, each
in its half); a double round-robin of 9 or more shows W–L–D in its place.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from render import palette as P
from render import sprites, text
from render.board import (
    LABEL,
    RANK_X,
    ROW_H,
    SIDE,
    VALUE,
    WIN,
    W,
    canvas,
    draw_rank,
    draw_title,
    net_colour,
)
from render.encode import encode
from render.text import Labels

Box = tuple[int, int, int, int]
RGB = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's row of the table."""
    place: int  # 1 is the top; players level on every criterion share it
    name: str
    played: int
    wins: int
    draws: int
    losses: int
    points: int  # half-points: 2 a win, 1 a draw
    net: int  # chips won minus lost in played duels
    you: bool = False  # drawn framed in gold (the bot's group pictures leave it off)


@dataclass(frozen=True, slots=True)
class Cell:
    """What the row's player scored against the column's: "1", "½", "0", "+" (a walkover won),
    "−" (a walkover lost), "" (not yet); a double round-robin's two marks: "1 ½"."""
    text: str = ""
    live: bool = False  # their duel is being played now: the cell framed in green


@dataclass(frozen=True, slots=True)
class Fixture:
    """A pair still to play."""
    a: str
    b: str
    round: int  # 0-based
    live: bool = False  # their duel is being played now


@dataclass(frozen=True, slots=True)
class TournamentTable:
    title: str  # the chat's title ("" for none)
    standings: tuple[Standing, ...]  # best first
    cross: tuple[tuple[Cell, ...], ...]  # in the standings' order, rows and columns
    fixtures: tuple[Fixture, ...] = ()  # the next pairs (the first `MAX_FIXTURES` drawn)
    round: int = 0  # the current round, 0-based
    rounds: int = 1
    decided: int = 0  # pairings decided
    total: int = 0  # pairings in all
    finished: bool = False
    winners: tuple[str, ...] = ()  # when finished: first place (more than one if level)
    double: bool = False


# --- layout ----------------------------------------------------------------------------------

TOP, TOP_SHORT = 150, 116  # the title block, with the chat's title and without
BANNER_H, HEAD_H, LEGEND_H = 78, 38, 42  # the winner's banner, column labels, walkover legend
NEXT_H, FIX_H, BOTTOM = 50, 52, 26  # the next pairs' heading, a line of them; under it all
MAX_FIXTURES = 6
MIN_NAME = 190  # the narrowest name column the cross-table may leave
NAME_ROOM = 260  # a name column wide enough: the cross-table's columns widen with what is left
GAP = 12  # between columns
PLACE_X, NAME_X = RANK_X, 92  # the place's centre (render.board's), the name's left edge
NET_W, PTS_W, WLD_W = 92, 72, 108
CELL_W = ((38, 56), (56, 76))  # a cross-table column, narrowest and widest: one mark, two
WALKOVER, MARK_SIZES = ("+", "−"), (30, 28, 26)
MARK_COLOURS = {"1": WIN, "+": WIN, "0": P.MINUS, "−": P.MINUS, "-": P.MINUS}
LIVE = "●"  # before a pair being played, in green


@dataclass(frozen=True, slots=True)
class Columns:
    """Where the columns go: x centres but `cross` (the cross-table's left edge, 0: none) and
    `name_w`; `wld` 0: no W–L–D; `mark`: the marks' size ("½" fits its share of a cell)."""
    name_w: int
    cross: int
    cell_w: int
    wld: int
    pts: int
    net: int
    mark: int = MARK_SIZES[-1]
    legend: bool = False  # the walkovers' legend under the cross-table


def columns(t: TournamentTable) -> Columns:
    """The cross-table and W–L–D if both leave `MIN_NAME` px for the names, else the
    cross-table alone, else W–L–D alone; cross-table columns as wide as `NAME_ROOM` allows."""
    n = max(1, len(t.standings))
    net = W - SIDE - 8 - NET_W // 2
    pts = net - NET_W // 2 - GAP - PTS_W // 2
    right = pts - PTS_W // 2 - GAP  # what is left of the points
    wld = right - WLD_W // 2
    narrow, wide = CELL_W[t.double]
    for with_wld in (True, False):
        end = right - (WLD_W + GAP if with_wld else 0)  # the cross-table's right edge
        room = end - GAP - NAME_X  # for the names and the cross-table
        cell_w = max(narrow, min(wide, (room - NAME_ROOM) // n))
        if room - n * cell_w >= MIN_NAME:
            slot = (cell_w - 6) // (2 if t.double else 1)
            mark = next((z for z in MARK_SIZES if text.width("½", z, "narrow") <= slot), 26)
            legend = any(m in WALKOVER for r in t.cross for c in r for m in c.text.split())
            return Columns(room - n * cell_w, end - n * cell_w, cell_w,
                           wld if with_wld else 0, pts, net, mark, legend)
    return Columns(wld - WLD_W // 2 - GAP - NAME_X, 0, narrow, wld, pts, net)


def table_top(t: TournamentTable) -> int:
    """The y of the column labels: under the title and the winner's banner, if any."""
    top = TOP if text.clean(t.title) else TOP_SHORT
    return top + (BANNER_H if t.finished and t.winners else 0)


def row_box(t: TournamentTable, i: int) -> Box:
    y = table_top(t) + HEAD_H + i * ROW_H
    return (SIDE, y + 3, W - SIDE, y + ROW_H - 3)


def cell_box(t: TournamentTable, i: int, j: int) -> Box:
    """The cross-table's cell of row `i`, column `j` (when `columns(t).cross`)."""
    c, y = columns(t), row_box(t, i)[1] - 3
    x = c.cross + j * c.cell_w
    return (x + 3, y + 8, x + c.cell_w - 3, y + ROW_H - 8)


def next_top(t: TournamentTable) -> int:
    """The y of the next pairs' heading (after the walkover legend, if any)."""
    legend = LEGEND_H if columns(t).legend else 0
    return table_top(t) + HEAD_H + max(1, len(t.standings)) * ROW_H + legend + 6


def table_height(t: TournamentTable) -> int:
    fixtures = () if t.finished else t.fixtures[:MAX_FIXTURES]  # none once finished
    return next_top(t) + (NEXT_H + (len(fixtures) + 1) // 2 * FIX_H if fixtures else 0) + BOTTOM


def points_text(half: int) -> str:
    """Half-points as shown: 7 -> "3½", 1 -> "½", 4 -> "2"."""
    whole, odd = divmod(half, 2)
    return (str(whole) if whole or not odd else "") + ("½" if odd else "")


def _centred(im: Image.Image, x: int, y: int, value: str, colour: RGB, w: int) -> None:
    """A figure centred on `x`, at the largest size that fits `w`, in the row at `y`."""
    line, size = text.fit_shrink(value, (VALUE, 26), w, "narrow")
    ty = y + (ROW_H - text.line_height(size, "narrow")) // 2
    text.draw(im, (x, ty), line, size, colour, anchor="m", face="narrow")


def _banner(im: Image.Image, t: TournamentTable, labels: Labels) -> None:
    y = table_top(t) - BANNER_H
    box = (SIDE, y - 4, W - SIDE, y + BANNER_H - 14)
    ImageDraw.Draw(im).rounded_rectangle(box, 14, fill=P.PANEL, outline=P.GOLD, width=3)
    cy, x = (box[1] + box[3]) // 2, box[0] + 76
    star = sprites.star(44, P.PANEL)
    im.paste(star, (text.flip_x(box[0] + 16, star.width), cy - 22))
    line = labels.plural("pic.tournament.winner", len(t.winners),
                         names=", ".join(text.clean(n) or "?" for n in t.winners))
    cut, size = text.fit_shrink(line, (36, 32, 28), box[2] - 16 - x)
    text.draw(im, (x, cy - text.line_height(size) // 2), cut, size, P.GOLD)


def _head(im: Image.Image, t: TournamentTable, c: Columns, labels: Labels) -> None:
    y = table_top(t)
    heads = [("pic.standings.col_rank", PLACE_X, 48), ("pic.standings.col_wld", c.wld, WLD_W),
             ("pic.tournament.col_points", c.pts, PTS_W + GAP),
             ("pic.standings.col_net", c.net, NET_W + 8)]
    for key, x, w in heads if c.wld else heads[:1] + heads[2:]:
        line, size = text.fit_shrink(labels.text(key), (LABEL, 24), w, "narrow")
        text.draw(im, (x, y + 4), line, size, P.DIM, anchor="m", face="narrow")
    text.draw(im, (NAME_X, y + 4), labels.text("pic.standings.col_player"), LABEL, P.DIM,
              face="narrow", max_width=c.name_w)
    for j in range(len(t.standings) if c.cross else 0):
        text.draw(im, (c.cross + j * c.cell_w + c.cell_w // 2, y + 4), str(j + 1), LABEL,
                  P.DIM, anchor="m", face="narrow")
    ImageDraw.Draw(im).line((SIDE, y + HEAD_H - 4, W - SIDE, y + HEAD_H - 4),
                            fill=P.PANEL_EDGE, width=2)


def _row(im: Image.Image, t: TournamentTable, c: Columns, i: int) -> None:
    s, box, y = t.standings[i], row_box(t, i), row_box(t, i)[1] - 3
    if s.you or i % 2 == 0:  # bands, or the asker's row framed in gold
        ImageDraw.Draw(im).rounded_rectangle(box, 12, fill=P.PANEL,
                                             outline=P.GOLD if s.you else None, width=3)
    draw_rank(im, s.place, y)
    name, size = text.name_shrink(s.name or "?", (VALUE, 26), c.name_w)
    text.draw(im, (NAME_X, y + (ROW_H - text.line_height(size)) // 2), name, size, P.TEXT)
    if c.cross:
        row = t.cross[i] if i < len(t.cross) else ()
        for j in range(len(t.standings)):
            _cell(im, cell_box(t, i, j), row[j] if j < len(row) else Cell(), i == j, c.mark)
    if c.wld:
        _centred(im, c.wld, y, f"{s.wins}–{s.losses}–{s.draws}", P.TEXT, WLD_W)
    _centred(im, c.pts, y, points_text(s.points), P.GOLD, PTS_W)
    _centred(im, c.net, y, text.signed(s.net), net_colour(s.net), NET_W)


def _cell(im: Image.Image, box: Box, cell: Cell, diagonal: bool, size: int) -> None:
    """One cross-table cell: dark on the diagonal; its marks (at most two), each centred in
    its share; a green frame for a duel under way; a dim dot when nothing is decided yet."""
    d, (x0, y0, x1, y1) = ImageDraw.Draw(im), box
    cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
    if diagonal or cell.live:
        d.rounded_rectangle(text.flip_box(box), 6, fill=P.OUT_CELL if diagonal else None,
                            outline=None if diagonal else WIN, width=2)
    marks = [] if diagonal else text.clean(cell.text, 12).split()[:2]
    ty = cy - text.line_height(size, "narrow") // 2
    for k, mark in enumerate(marks):
        slot = (x1 - x0) // len(marks)
        text.draw(im, (x0 + k * slot + slot // 2, ty), mark, size,
                  MARK_COLOURS.get(mark, P.TEXT), anchor="m", face="narrow", max_width=slot)
    if not marks and not diagonal:
        r, cx = 6 if cell.live else 3, text.flip_x(cx)
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=WIN if cell.live else P.PANEL_EDGE)


def _next(im: Image.Image, t: TournamentTable, labels: Labels) -> None:
    """The next pairs, two a line, under their heading ("● playing now" at its right if one
    is), each with its round; a pair being played framed in green behind a green dot. A long
    name is cut to what the other leaves, or both to half."""
    fixtures, y = t.fixtures[:MAX_FIXTURES], next_top(t)
    x1, size, face, dash = W - SIDE - 12, VALUE, "narrow", " — "
    live = labels.text("pic.tournament.live") if any(f.live for f in fixtures) else ""
    right = text.draw(im, (x1, y + 8), live, LABEL, P.DIM, anchor="r", face=face)[0]
    if live:
        right = text.draw(im, (right - 8, y + 8), LIVE, LABEL, WIN, anchor="r", face=face)[0]
    text.draw(im, (SIDE + 12, y + 8), labels.text("pic.tournament.next"), LABEL, P.DIM,
              face=face, max_width=right - SIDE - 40)
    col_w = (W - 2 * SIDE - GAP) // 2
    for k, f in enumerate(fixtures):
        bx, by = SIDE + (k % 2) * (col_w + GAP), y + NEXT_H + (k // 2) * FIX_H
        box = (bx, by, bx + col_w, by + FIX_H - 8)
        ImageDraw.Draw(im).rounded_rectangle(text.flip_box(box), 12, fill=P.PANEL, width=2,
                                             outline=WIN if f.live else P.PANEL_EDGE)
        ty = (box[1] + box[3]) // 2 - text.line_height(LABEL, face) // 2
        rnd = labels.text("pic.tournament.fixture_round", n=f.round + 1)
        room = text.draw(im, (box[2] - 14, ty), rnd, LABEL, P.DIM, anchor="r", face=face)[0]
        x = box[0] + 14
        if f.live:
            x = text.draw(im, (x, ty), LIVE, LABEL, WIN, face=face)[2] + 8
        room -= x + 24 + text.width(dash, size, face)
        a, b = text.clean(f.a) or "?", text.clean(f.b) or "?"
        a = text.name(a, size, max(room // 2, room - text.width(b, size, face)), face)
        b = text.name(b, size, room - text.width(a, size, face), face)
        ty = (box[1] + box[3]) // 2 - text.line_height(size, face) // 2
        for part, colour in ((a, P.TEXT), (dash, P.DIM), (b, P.TEXT)):
            x = text.draw(im, (x, ty), part, size, colour, face=face)[2]


def compose(t: TournamentTable, labels: Labels) -> Image.Image:
    """The tournament's table as an RGB image (see `tournament_table` for the bytes)."""
    im = canvas(table_height(t))
    with text.mirrored(im):  # right to left: the place and names at the right, player 1's
        _compose(im, t, labels)  # column of the cross-table too
    return im


def _compose(im: Image.Image, t: TournamentTable, labels: Labels) -> None:
    status = [labels.text("pic.tournament.double")] if t.double else []
    status += [labels.text("pic.tournament.final")] if t.finished else [
        labels.text("pic.tournament.round", n=min(t.round + 1, t.rounds), rounds=t.rounds),
        labels.text("pic.tournament.played", done=t.decided, total=t.total)]
    draw_title(im, labels.text("pic.tournament.title"), (t.title, " · ".join(status)),
           labels.plural("pic.tournament.players", len(t.standings)))
    if t.finished and t.winners:
        _banner(im, t, labels)
    c = columns(t)
    _head(im, t, c, labels)
    for i in range(len(t.standings)):
        _row(im, t, c, i)
    if c.legend:
        y = table_top(t) + HEAD_H + max(1, len(t.standings)) * ROW_H + 8
        text.draw(im, (SIDE + 12, y), labels.text("pic.tournament.walkover"), LABEL, P.DIM,
                  face="narrow", max_width=W - 2 * SIDE - 24)
    if t.fixtures and not t.finished:
        _next(im, t, labels)


def tournament_table(t: TournamentTable, *, labels: Labels, fmt: str = "jpeg") -> bytes:
    """A round-robin's table now, or its final table with the winner (see the module)."""
    with text.writing(labels):  # right to left, Persian digits: what labels say
        return encode(compose(t, labels), fmt)
