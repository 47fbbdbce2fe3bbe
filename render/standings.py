"""Standings pictures, pure: plain rows in, image bytes out, on the same felt as the table.

    render.standings.leaderboard(Board(...), labels=tr) -> bytes   # a chat's table of players
    render.standings.player_card(PlayerCard(...), labels=tr) -> bytes   # one player's figures

The rows are plain frozen dataclasses (`Figures`, `Row`, `Board`, `PlayerCard`) that bot/ fills
from its results; nothing here knows about Telegram or storage. Names and titles are untrusted:
they go through `text.clean` (undrawable characters dropped) and are cut to fit.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from render import canvas as C
from render import palette as P
from render import sprites, text
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
    opponent: str | None = None  # head to head against this player (the asker), if any
    versus: Figures | None = None  # the card's player's record against `opponent`


# --- layout ----------------------------------------------------------------------------------

TOP = 120  # the title block
HEAD_Y = 124  # the column labels
ROWS_Y = 156
ROW_H = 56
GAP_H = 34  # between the top rows and the asker's row
BOTTOM = 28
MEDALS: tuple[RGB, RGB, RGB] = ((255, 206, 72), (206, 212, 220), (214, 140, 74))
WIN: RGB = (140, 230, 150)

# (label key, x, anchor, width): x is the left edge for "l", the centre for "m"
COLUMNS: tuple[tuple[str, int, str, int], ...] = (
    ("pic.standings.col_rank", 66, "m", 60), ("pic.standings.col_player", 104, "l", 300),
    ("pic.standings.col_duels", 452, "m", 90), ("pic.standings.col_wld", 560, "m", 120),
    ("pic.standings.col_rate", 662, "m", 90), ("pic.standings.col_net", 768, "m", 100),
    ("pic.standings.col_best", 826, "l", 190), ("pic.standings.col_bonus", 1062, "m", 84),
    ("pic.standings.col_streak", 1140, "m", 68),
)


def board_height(board: Board) -> int:
    rows = len(board.rows) + (1 if board.you is not None else 0)
    gap = GAP_H if board.you is not None else 0
    return ROWS_Y + max(1, rows) * ROW_H + gap + BOTTOM


def row_box(board: Board, i: int) -> Box:
    """The band of the i-th row drawn (the asker's extra row is the last one)."""
    y = ROWS_Y + i * ROW_H + (GAP_H if i >= len(board.rows) else 0)
    return (C.MARGIN + 8, y + 3, C.W - C.MARGIN - 8, y + ROW_H - 3)


def streak_text(labels: Labels, streak: int) -> str:
    if streak > 0:
        return labels.text("pic.standings.streak_w", n=streak)
    if streak < 0:
        return labels.text("pic.standings.streak_l", n=-streak)
    return "—"


def _net_colour(n: int) -> RGB:
    return P.PLUS if n > 0 else P.MINUS if n < 0 else P.TEXT


def _streak_colour(n: int) -> RGB:
    return WIN if n > 0 else P.MINUS if n < 0 else P.DIM


def _best(labels: Labels, best: Category | None) -> str:
    return text.hand_name(labels, best) if best is not None else "—"


def _title(im: Image.Image, heading: str, sub: str, right: str) -> None:
    star = sprites.star(52)
    im.paste(star, (C.MARGIN + 20, 28), star)
    x = C.MARGIN + 20 + star.width + 16
    right_w = text.width(right, 24) if right else 0
    room = C.W - C.MARGIN - 24 - right_w - 24 - x
    text.draw(im, (x, 22), heading, 40, P.GOLD, max_width=room)
    if sub:
        text.draw(im, (x, 72), sub, 24, P.DIM, max_width=room)
    if right:
        text.draw(im, (C.W - C.MARGIN - 24, 36), right, 24, P.TEXT, anchor="r")


def _rank(im: Image.Image, rank: int, y: int) -> None:
    cx, cy = COLUMNS[0][1], y + ROW_H // 2
    label = str(rank)
    if rank <= 3:
        d = ImageDraw.Draw(im)
        d.ellipse((cx - 19, cy - 19, cx + 19, cy + 19), fill=MEDALS[rank - 1],
                  outline=P.RAIL, width=2)
        text.draw(im, (cx, cy - 15), label, 24, P.BLACK, anchor="m")
    else:
        line, size = text.fit_shrink(label, (24, 20, 16), COLUMNS[0][3])
        text.draw(im, (cx, cy - text.line_height(size) // 2), line, size, P.DIM, anchor="m")


def _row(im: Image.Image, row: Row, box: Box, band: bool, labels: Labels) -> None:
    d = ImageDraw.Draw(im)
    if row.you:
        d.rounded_rectangle(box, 12, fill=P.PANEL, outline=P.GOLD, width=3)
    elif band:
        d.rounded_rectangle(box, 12, fill=P.PANEL)
    f = row.figures
    y = box[1] - 3
    ty = y + (ROW_H - text.line_height(26)) // 2
    _rank(im, row.rank, y)
    name = text.clean(row.name) or "?"
    text.draw(im, (COLUMNS[1][1], ty), name, 26, P.TEXT, max_width=COLUMNS[1][3])
    cells: tuple[tuple[str, RGB], ...] = (
        (str(f.played), P.TEXT), (f"{f.wins}–{f.losses}–{f.draws}", P.TEXT),
        (f"{f.win_rate}%", P.TEXT), (text.signed(f.net), _net_colour(f.net)),
    )
    for (_, x, anchor, w), (value, colour) in zip(COLUMNS[2:6], cells, strict=True):
        text.draw(im, (x, ty), value, 26, colour, anchor=anchor, max_width=w, face="narrow")
    by = y + (ROW_H - text.line_height(22)) // 2
    text.draw(im, (COLUMNS[6][1], by), _best(labels, f.best), 22,
              P.GOLD if f.best is not None else P.DIM, max_width=COLUMNS[6][3], face="narrow")
    text.draw(im, (COLUMNS[7][1], ty), str(f.top_bonus) if f.top_bonus else "—", 26,
              P.TEXT if f.top_bonus else P.DIM, anchor="m", max_width=COLUMNS[7][3], face="narrow")
    text.draw(im, (COLUMNS[8][1], ty), streak_text(labels, f.streak), 26,
              _streak_colour(f.streak), anchor="m", max_width=COLUMNS[8][3], face="narrow")


def compose_board(board: Board, labels: Labels) -> Image.Image:
    """A chat's standings as an RGB image (see `leaderboard` for the bytes)."""
    im = C.canvas(board_height(board))
    count = labels.text("pic.standings.duels_count", n=board.duels)
    _title(im, labels.text("pic.standings.title"), text.clean(board.title), count)
    for key, x, anchor, w in COLUMNS:
        text.draw(im, (x, HEAD_Y), labels.text(key), 18, P.DIM, anchor=anchor,
                  face="narrow", max_width=w)
    d = ImageDraw.Draw(im)
    d.line((C.MARGIN + 8, ROWS_Y - 4, C.W - C.MARGIN - 8, ROWS_Y - 4), fill=P.PANEL_EDGE,
           width=2)
    rows = list(board.rows) + ([board.you] if board.you is not None else [])
    for i, row in enumerate(rows):
        _row(im, row, row_box(board, i), i % 2 == 0, labels)
    if board.you is not None:
        y = ROWS_Y + len(board.rows) * ROW_H
        for k in range(3):
            cx = C.W // 2 - 16 + 16 * k
            d.ellipse((cx - 3, y + GAP_H // 2 - 3, cx + 3, y + GAP_H // 2 + 3), fill=P.DIM)
    return im


def leaderboard(board: Board, *, labels: Labels, fmt: str = "jpeg") -> bytes:
    """A chat's standings: rank, name, duels, wins–losses–draws, win rate, net chips, best hand,
    biggest bonus and current streak, the asker's row framed (after a gap if below the top)."""
    return encode(compose_board(board, labels), fmt)


# --- one player's card ------------------------------------------------------------------------

TILE_Y = 150
TILE_H = 118
TILE_GAP = 16
VERSUS_H = 112


def card_height(card: PlayerCard) -> int:
    return TILE_Y + 2 * TILE_H + TILE_GAP + 30 + (VERSUS_H + 16 if card.opponent else 0)


def tile_box(col: int, row: int, span: int = 1) -> Box:
    """Tile `col` (0..3) of row `row` (0, 1), `span` columns wide."""
    inner = C.W - 2 * (C.MARGIN + 16)
    w = (inner - 3 * TILE_GAP) // 4
    x = C.MARGIN + 16 + col * (w + TILE_GAP)
    y = TILE_Y + row * (TILE_H + TILE_GAP)
    return (x, y, x + span * w + (span - 1) * TILE_GAP, y + TILE_H)


def _tile(im: Image.Image, box: Box, label: str, value: str, colour: RGB) -> None:
    ImageDraw.Draw(im).rounded_rectangle(box, 14, fill=P.PANEL, outline=P.PANEL_EDGE, width=2)
    x0, y0, x1, _ = box
    text.draw(im, (x0 + 18, y0 + 14), label, 20, P.DIM, max_width=x1 - x0 - 36)
    line, size = text.fit_shrink(value, (44, 36, 30), x1 - x0 - 36, "narrow")
    text.draw(im, (x0 + 18, y0 + 50), line, size, colour, face="narrow")


def versus_box(card: PlayerCard) -> Box:
    y = TILE_Y + 2 * TILE_H + TILE_GAP + 16
    return (C.MARGIN + 16, y, C.W - C.MARGIN - 16, y + VERSUS_H)


def compose_card(card: PlayerCard, labels: Labels) -> Image.Image:
    """One player's figures as an RGB image (see `player_card` for the bytes)."""
    im = C.canvas(card_height(card))
    f = card.figures
    scope = text.clean(card.scope) if card.scope else labels.text("pic.standings.all_chats")
    rank = labels.text("pic.standings.card_rank", rank=card.rank, players=card.players) if (
        card.rank is not None) else ""
    _title(im, text.clean(card.name) or "?", scope, rank)
    tiles: tuple[tuple[int, int, int, str, str, RGB], ...] = (
        (0, 0, 1, "pic.standings.col_duels", str(f.played), P.TEXT),
        (1, 0, 1, "pic.standings.col_wld", f"{f.wins}–{f.losses}–{f.draws}", P.TEXT),
        (2, 0, 1, "pic.standings.win_rate", f"{f.win_rate}%", P.TEXT),
        (3, 0, 1, "pic.standings.net_chips", text.signed(f.net), _net_colour(f.net)),
        (0, 1, 2, "pic.standings.col_best", _best(labels, f.best),
         P.GOLD if f.best is not None else P.DIM),
        (2, 1, 1, "pic.standings.top_bonus", str(f.top_bonus), P.TEXT),
        (3, 1, 1, "pic.standings.col_streak", streak_text(labels, f.streak),
         _streak_colour(f.streak)),
    )
    for col, row, span, key, value, colour in tiles:
        _tile(im, tile_box(col, row, span), labels.text(key), value, colour)
    if card.opponent is not None:
        box = versus_box(card)
        ImageDraw.Draw(im).rounded_rectangle(box, 14, fill=P.PANEL, outline=P.GOLD, width=2)
        who = text.fit(text.clean(card.opponent) or "?", 22, 700)
        text.draw(im, (box[0] + 18, box[1] + 14), labels.text("pic.standings.versus", name=who), 22,
                  P.DIM, max_width=box[2] - box[0] - 36)
        v = card.versus or Figures()
        parts: tuple[tuple[str, RGB], ...]
        if v.played:
            parts = (
                (labels.text("pic.standings.versus_duels", n=v.played), P.TEXT),
                (f"{v.wins}–{v.losses}–{v.draws}", P.TEXT),
                (text.signed(v.net), _net_colour(v.net)),
            )
        else:
            parts = ((labels.text("pic.standings.versus_none"), P.DIM),)
        x = box[0] + 18
        for i, (part, colour) in enumerate(parts):
            drawn = text.draw(im, (x, box[1] + 52), part, 36, colour, face="narrow",
                              max_width=box[2] - 18 - x)
            x = drawn[2] + 12
            if i < len(parts) - 1:
                x = text.draw(im, (x, box[1] + 52), "·", 36, P.DIM)[2] + 12
    return im


def player_card(card: PlayerCard, *, labels: Labels, fmt: str = "jpeg") -> bytes:
    """One player's figures in tiles, and their record against the asker if there is one."""
    return encode(compose_card(card, labels), fmt)
