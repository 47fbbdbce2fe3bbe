"""Standings pictures, pure: plain rows in, image bytes out, on the same felt as the table.

    render.standings.leaderboard(Board(...), labels=tr) -> bytes   # a chat's table of players
    render.standings.player_card(PlayerCard(...), labels=tr) -> bytes   # one player's figures

The rows are plain frozen dataclasses (`Figures`, `Row`, `Board`, `PlayerCard`) that bot/ fills
from its results; nothing here knows about Telegram or storage. Names and titles are untrusted:
they are cut by `text.name`. What the standings share with the tournament's table (the felt,
the title, the place medals, the net's colour) is render.board's.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from render import palette as P
from render import text
from render.board import (
    LABEL,
    RANK_W,
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
from rules.hands import Category

Box = tuple[int, int, int, int]
RGB = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Figures:
    """One player's record over a set of finished duels."""

    played: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    net: int = 0  # chips won minus chips lost
    best: Category | None = None  # the best hand ever shown
    top_bonus: int = 0  # the most bonus chips won in one duel
    streak: int = 0  # +n: won the last n duels; -n: lost the last n; 0: a draw last, or none

    @property
    def win_rate(self) -> int:
        """Wins as a whole percentage of duels played (draws count as played)."""
        return (200 * self.wins + self.played) // (2 * self.played) if self.played else 0


@dataclass(frozen=True, slots=True)
class Row:
    rank: int  # 1 is the top; players level on the ranking share a rank
    name: str
    figures: Figures
    you: bool = False  # the player who asked (drawn framed)
    rating: int | None = None  # the shown rating (the table's order); None: not rated
    provisional: bool = False  # a rating on few duels yet: drawn dim, with a "?"


@dataclass(frozen=True, slots=True)
class Board:
    title: str  # the chat's title ("" for none)
    rows: tuple[Row, ...]  # the top of the table
    you: Row | None = None  # the asker's row when it is below the top (drawn after a gap)
    duels: int = 0  # duels counted


@dataclass(frozen=True, slots=True)
class PlayerCard:
    name: str
    figures: Figures
    scope: str = ""  # the chat's title; "" for all chats
    rank: int | None = None  # place in the chat's standings
    players: int = 0  # players in those standings
    versus: Figures | None = None  # the asker's record against the card's player, from the
    # asker's side (their wins, their net: "you won 1"); None: no head to head (the asker's
    # own card, or all chats)
    rating: str = ""  # the shown rating, "1069?" while provisional ("" for all chats)
    history: tuple[int, ...] = ()  # the shown rating after each of the player's duels in the
    # chat, oldest first; () draws no chart


# --- layout (the width, the sides, the row and the sizes are render.board's) -----------------

TOP = 150  # the title block: heading, the chat, how the table is ordered
HEAD_Y = 150  # the column labels
ROWS_Y = 186
GAP_H = 34  # between the top rows and the asker's row
BOTTOM = 26

# (label key, x, anchor, width): x is the left edge for "l", the centre for "m". The win rate
# and the number of duels (W–L–D adds up to it) are left to the card and the text: the board
# has no room for a ninth column at this size.
COLUMNS: tuple[tuple[str, int, str, int], ...] = (
    ("pic.standings.col_rank", RANK_X, "m", RANK_W), ("pic.standings.col_player", 92, "l", 182),
    ("pic.standings.col_rating", 326, "m", 96), ("pic.standings.col_wld", 434, "m", 108),
    ("pic.standings.col_net", 538, "m", 84), ("pic.standings.col_best", 588, "l", 190),
    ("pic.standings.col_bonus", 822, "m", 78), ("pic.standings.col_streak", 922, "m", 88),
)


def board_height(board: Board) -> int:
    rows = len(board.rows) + (1 if board.you is not None else 0)
    gap = GAP_H if board.you is not None else 0
    return ROWS_Y + max(1, rows) * ROW_H + gap + BOTTOM


def row_box(board: Board, i: int) -> Box:
    """The band of the i-th row drawn (the asker's extra row is the last one)."""
    y = ROWS_Y + i * ROW_H + (GAP_H if i >= len(board.rows) else 0)
    return (SIDE, y + 3, W - SIDE, y + ROW_H - 3)


def streak_text(labels: Labels, streak: int) -> str:
    if streak > 0:
        return labels.text("pic.standings.streak_w", n=streak)
    if streak < 0:
        return labels.text("pic.standings.streak_l", n=-streak)
    return NONE


NONE = "—"  # a figure with no value yet (no hand shown, no streak); a real zero is "0"


def _streak_colour(n: int) -> RGB:
    return WIN if n > 0 else P.MINUS if n < 0 else P.DIM


def _best(labels: Labels, best: Category | None) -> str:
    return text.hand_name(labels, best) if best is not None else NONE


def _bonus_colour(n: int) -> RGB:
    return P.TEXT if n else P.DIM


def _cell(im: Image.Image, column: int, y: int, value: str, colour: RGB,
          sizes: tuple[int, ...] = (VALUE, 26, 24)) -> None:
    """A figure in its column, at the largest size that fits, vertically centred in the row."""
    _, x, anchor, w = COLUMNS[column]
    line, size = text.fit_shrink(value, sizes, w, "narrow")
    ty = y + (ROW_H - text.line_height(size, "narrow")) // 2
    text.draw(im, (x, ty), line, size, colour, anchor=anchor, face="narrow")


def _row(im: Image.Image, row: Row, box: Box, band: bool, labels: Labels) -> None:
    d = ImageDraw.Draw(im)
    if row.you:
        d.rounded_rectangle(box, 12, fill=P.PANEL, outline=P.GOLD, width=3)
    elif band:
        d.rounded_rectangle(box, 12, fill=P.PANEL)
    f = row.figures
    y = box[1] - 3
    draw_rank(im, row.rank, y)
    name = text.name(row.name, VALUE, COLUMNS[1][3]) or "?"
    ty = y + (ROW_H - text.line_height(VALUE)) // 2
    text.draw(im, (COLUMNS[1][1], ty), name, VALUE, P.TEXT)
    if row.rating is None:
        _cell(im, 2, y, NONE, P.DIM)
    else:
        _cell(im, 2, y, f"{row.rating}?" if row.provisional else str(row.rating),
              P.DIM if row.provisional else P.GOLD)
    _cell(im, 3, y, f"{f.wins}–{f.losses}–{f.draws}", P.TEXT)
    _cell(im, 4, y, text.signed(f.net), net_colour(f.net))
    _cell(im, 5, y, _best(labels, f.best), P.GOLD if f.best is not None else P.DIM)
    _cell(im, 6, y, str(f.top_bonus), _bonus_colour(f.top_bonus))
    _cell(im, 7, y, streak_text(labels, f.streak), _streak_colour(f.streak))


def compose_board(board: Board, labels: Labels) -> Image.Image:
    """A chat's standings as an RGB image (see `leaderboard` for the bytes)."""
    im = canvas(board_height(board))
    with text.mirrored(im):  # right to left: the rank at the right, the columns from there
        _board(im, board, labels)
    return im


def _board(im: Image.Image, board: Board, labels: Labels) -> None:
    count = labels.plural("pic.standings.duels_count", board.duels)
    draw_title(im, labels.text("pic.standings.title"),
           (board.title, labels.text("pic.standings.order")), count)
    for key, x, anchor, w in COLUMNS:
        line, size = text.fit_shrink(labels.text(key), (LABEL, 24), w + 8, "narrow")
        text.draw(im, (x, HEAD_Y), line, size, P.DIM, anchor=anchor, face="narrow")
    d = ImageDraw.Draw(im)
    d.line((SIDE, ROWS_Y - 4, W - SIDE, ROWS_Y - 4), fill=P.PANEL_EDGE, width=2)
    rows = list(board.rows) + ([board.you] if board.you is not None else [])
    for i, row in enumerate(rows):
        _row(im, row, row_box(board, i), i % 2 == 0, labels)
    if board.you is not None:
        y = ROWS_Y + len(board.rows) * ROW_H
        for k in range(3):
            cx = W // 2 - 16 + 16 * k
            d.ellipse((cx - 3, y + GAP_H // 2 - 3, cx + 3, y + GAP_H // 2 + 3), fill=P.DIM)


def leaderboard(board: Board, *, labels: Labels, fmt: str = "jpeg") -> bytes:
    """A chat's standings, in the order they are ranked (said under the title): rank, name,
    rating (dim with a "?" while provisional), wins–losses–draws, net chips, best hand,
    biggest bonus and current streak, the asker's row framed (after a gap if below the top)."""
    with text.writing(labels):
        return encode(compose_board(board, labels), fmt)


# --- one player's card ------------------------------------------------------------------------

TILE_Y = 176
TILE_H = 118
TILE_GAP = 14
VERSUS_H = 118


CHART_W = 380  # the rating chart, in the title block's right side: the card grows no taller
CHART_GAP = 20  # between the title's words and the chart


def card_height(card: PlayerCard) -> int:
    return TILE_Y + 2 * TILE_H + TILE_GAP + 28 + (VERSUS_H + 14 if card.versus else 0)


def chart_box() -> Box:
    """The rating chart's panel, right of the title, above the tiles."""
    return (W - SIDE - CHART_W, 16, W - SIDE, TILE_Y - 16)


def chart_points(history: tuple[int, ...], area: Box) -> list[tuple[int, int]]:
    """The history's points in `area` (x0, y0, x1, y1): oldest at the left, newest at the
    right, the lowest value at the bottom, the highest at the top (a flat history midway)."""
    x0, y0, x1, y1 = area
    lo, hi = min(history), max(history)
    n = len(history)

    def y(v: int) -> int:
        return (y0 + y1) // 2 if hi == lo else round(y1 - (v - lo) * (y1 - y0) / (hi - lo))

    if n == 1:
        return [(x1, y(history[0]))]
    return [(round(x0 + i * (x1 - x0) / (n - 1)), y(v)) for i, v in enumerate(history)]


def _chart(im: Image.Image, history: tuple[int, ...], labels: Labels) -> None:
    """The rating after each duel as a line, newest at the right (a gold dot), under the
    label and the lowest and highest value it reached."""
    box = chart_box()
    d = ImageDraw.Draw(im)
    d.rounded_rectangle(text.flip_box(box), 14, fill=P.PANEL, outline=P.PANEL_EDGE, width=2)
    x0, y0, x1, y1 = box[0] + 14, box[1] + 8, box[2] - 14, box[3] - 12
    lo, hi = min(history), max(history)
    span = f"{lo}–{hi}" if hi != lo else str(lo)
    right = text.draw(im, (x1, y0), span, LABEL, P.TEXT, anchor="r", face="narrow")
    cut, size = text.fit_shrink(labels.text("pic.standings.history"), (LABEL,),
                                right[0] - x0 - 12, "narrow")
    text.draw(im, (x0, y0), cut, size, P.DIM, face="narrow")
    area = (x0 + 6, y0 + text.line_height(LABEL, "narrow") + 12, x1 - 6, y1 - 4)
    points = [(text.flip_x(x), y) for x, y in chart_points(history, area)]  # right to left:
    # the newest at the left, where the reading ends
    if len(points) > 1:
        d.line(points, fill=P.GOLD, width=4, joint="curve")
    else:  # one duel yet: a dim level line leads to it
        d.line((text.flip_x(area[0]), points[0][1], text.flip_x(area[2]), points[0][1]),
               fill=P.PANEL_EDGE, width=3)
    lx, ly = points[-1]
    d.ellipse((lx - 6, ly - 6, lx + 6, ly + 6), fill=P.GOLD, outline=P.RAIL, width=2)


def tile_box(col: int, row: int, span: int = 1) -> Box:
    """Tile `col` (0..3) of row `row` (0, 1), `span` columns wide."""
    inner = W - 2 * SIDE
    w = (inner - 3 * TILE_GAP) // 4
    x = SIDE + col * (w + TILE_GAP)
    y = TILE_Y + row * (TILE_H + TILE_GAP)
    return (x, y, x + span * w + (span - 1) * TILE_GAP, y + TILE_H)


def _tile(im: Image.Image, box: Box, label: str, value: str, colour: RGB) -> None:
    ImageDraw.Draw(im).rounded_rectangle(text.flip_box(box), 14, fill=P.PANEL,
                                         outline=P.PANEL_EDGE, width=2)
    x0, y0, x1, _ = box
    cut, size = text.fit_shrink(label, (LABEL, 24), x1 - x0 - 28, "narrow")
    text.draw(im, (x0 + 14, y0 + 12), cut, size, P.DIM, face="narrow")
    line, size = text.fit_shrink(value, (44, 36, 30), x1 - x0 - 28, "narrow")
    text.draw(im, (x0 + 14, y0 + 52), line, size, colour, face="narrow")


def versus_box(card: PlayerCard) -> Box:
    y = TILE_Y + 2 * TILE_H + TILE_GAP + 14
    return (SIDE, y, W - SIDE, y + VERSUS_H)


def _versus(im: Image.Image, card: PlayerCard, labels: Labels) -> None:
    """The asker against the card's player, from the asker's side: "Head to head: you vs
    Alice", then "3 duels · you won 1, lost 1, drew 1, net +2"."""
    box = versus_box(card)
    ImageDraw.Draw(im).rounded_rectangle(text.flip_box(box), 14, fill=P.PANEL, outline=P.GOLD,
                                         width=2)
    them = text.name(card.name, 30, 300, "narrow") or "?"
    x0, x1 = box[0] + 16, box[2] - 16
    text.draw(im, (x0, box[1] + 12), labels.text("pic.standings.versus", name=them),
              LABEL, P.DIM, face="narrow", max_width=x1 - x0)
    v = card.versus or Figures()
    parts: tuple[tuple[str, RGB], ...]
    if v.played:
        parts = (
            (labels.plural("pic.standings.versus_duels", v.played), P.TEXT),
            (labels.text("pic.standings.versus_record", wins=v.wins, losses=v.losses,
                         draws=v.draws, net=text.signed(v.net)), net_colour(v.net)),
        )
    else:
        parts = ((labels.text("pic.standings.versus_none", name=them), P.DIM),)
    whole = "  ·  ".join(p for p, _ in parts)
    size = text.fit_shrink(whole, (34, 30, 28), x1 - x0, "narrow")[1]
    x = x0
    for i, (part, colour) in enumerate(parts):
        drawn = text.draw(im, (x, box[1] + 56), part, size, colour, face="narrow",
                          max_width=x1 - x)
        x = drawn[2] + 12
        if i < len(parts) - 1:
            x = text.draw(im, (x, box[1] + 56), "·", size, P.DIM)[2] + 12


def compose_card(card: PlayerCard, labels: Labels) -> Image.Image:
    """One player's figures as an RGB image (see `player_card` for the bytes)."""
    im = canvas(card_height(card))
    with text.mirrored(im):  # right to left: the title at the right, the chart at the left
        _card(im, card, labels)
    return im


def _card(im: Image.Image, card: PlayerCard, labels: Labels) -> None:
    f = card.figures
    scope = text.clean(card.scope) if card.scope else labels.text("pic.standings.all_chats")
    rank = labels.text("pic.standings.card_rank", rank=card.rank, players=card.players,
                       rating=card.rating or NONE) if card.rank is not None else ""
    chart = bool(card.history)
    draw_title(im, card.name or "?", (scope, rank), "",
           CHART_W + CHART_GAP if chart else 0)
    if chart:
        _chart(im, card.history, labels)
    tiles: tuple[tuple[int, int, int, str, str, RGB], ...] = (
        (0, 0, 1, "pic.standings.col_duels", str(f.played), P.TEXT),
        (1, 0, 1, "pic.standings.col_wld", f"{f.wins}–{f.losses}–{f.draws}", P.TEXT),
        (2, 0, 1, "pic.standings.win_rate", f"{f.win_rate}%", P.TEXT),
        (3, 0, 1, "pic.standings.net_chips", text.signed(f.net), net_colour(f.net)),
        (0, 1, 2, "pic.standings.col_best", _best(labels, f.best),
         P.GOLD if f.best is not None else P.DIM),
        (2, 1, 1, "pic.standings.top_bonus", str(f.top_bonus), _bonus_colour(f.top_bonus)),
        (3, 1, 1, "pic.standings.col_streak", streak_text(labels, f.streak),
         _streak_colour(f.streak)),
    )
    for col, row, span, key, value, colour in tiles:
        _tile(im, tile_box(col, row, span), labels.text(key), value, colour)
    if card.versus is not None:
        _versus(im, card, labels)


def player_card(card: PlayerCard, *, labels: Labels, fmt: str = "jpeg") -> bytes:
    """One player's figures in tiles, their place in the chat and what it is ranked by, their
    rating after each duel as a small chart if there is a history, and the asker's record
    against them if the asker is another player."""
    with text.writing(labels):
        return encode(compose_card(card, labels), fmt)
