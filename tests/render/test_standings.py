"""The standings pictures: sizes and modes, hostile names, the asker's row framed, the head to
head panel only when asked for."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.i18n import translator
from render import palette as P
from render.standings import (
    Board,
    Figures,
    PlayerCard,
    Row,
    W,
    board_height,
    card_height,
    compose_board,
    leaderboard,
    player_card,
    row_box,
    versus_box,
)
from rules.hands import Category

HOSTILE = (
    "Александра Константиновна Преображенская-Старшая " * 4,  # long Cyrillic
    "🦔🍄🦔",  # emoji only: nothing drawable
    "\u202eevil\u202c <b>&amp;</b>\x00\n\t",  # bidi override, markup, controls
    "Zalgo Z̷̢̛a̵l̶g̸o̴",  # combining marks
    "",
    "李小龍 محمد",
)
F = Figures(played=7, wins=4, losses=2, draws=1, net=-13, best=Category.STRAIGHT_FLUSH,
            top_bonus=50, streak=-2)
EN, RU = translator("en"), translator("ru")


def png(data: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(data))
    im.load()
    return im


def board(n: int, you: int | None = None, extra: bool = False, names: tuple[str, ...] = (
        "Alice",)) -> Board:
    rows = tuple(Row(i + 1, names[i % len(names)], F, i == you) for i in range(n))
    return Board("Friends ♠", rows, Row(42, "Me", Figures(), True) if extra else None, 99)


@pytest.mark.parametrize(("rows", "extra"), [(0, False), (1, False), (10, False), (10, True)])
def test_the_leaderboard_grows_with_its_rows(rows: int, extra: bool) -> None:
    b = board(rows, extra=extra)
    im = png(leaderboard(b, labels=EN, fmt="png"))
    assert im.mode == "RGB" and im.size == (W, board_height(b))
    jpeg = leaderboard(b, labels=EN)
    assert jpeg[:2] == b"\xff\xd8" and len(jpeg) < 200_000


def test_hostile_names_and_titles_render_in_both_languages() -> None:
    for lang in ("en", "ru", "xx"):
        b = Board(HOSTILE[2], tuple(Row(i + 1, n, F) for i, n in enumerate(HOSTILE)),
                  Row(1000, HOSTILE[0], F, True), 1)
        words = translator(lang)
        assert png(leaderboard(b, labels=words, fmt="png")).size == (W, board_height(b))
        for name in HOSTILE:
            card = PlayerCard(name, F, name, 1000, 1000, name, F)
            assert png(player_card(card, labels=words, fmt="png")).size == (W, card_height(card))


def test_the_askers_row_is_framed_in_gold() -> None:
    b = board(5, you=3, extra=False)
    im = compose_board(b, EN)
    for i in range(5):
        x0, y0, *_ = row_box(b, i)
        edge = im.getpixel((x0 + 40, y0 + 1))
        assert (edge == P.GOLD) == (i == 3), i


def test_the_askers_row_below_the_top_comes_after_a_gap() -> None:
    b = board(10, extra=True)
    last, extra = row_box(b, 9), row_box(b, 10)
    assert extra[1] - last[3] > 20
    im = compose_board(b, EN)
    assert im.getpixel((extra[0] + 40, extra[1] + 1)) == P.GOLD
    assert extra[3] < im.height


def test_the_same_rows_give_the_same_bytes() -> None:
    b = board(4, you=1, names=("Алиса", "Bob"))
    assert leaderboard(b, labels=RU) == leaderboard(b, labels=RU)
    assert leaderboard(b, labels=RU) != leaderboard(b, labels=EN)


def test_the_head_to_head_panel_only_with_an_opponent() -> None:
    alone = PlayerCard("Bob", F)
    versus = PlayerCard("Bob", F, "Friends", 2, 5, "Alice", Figures(played=2, wins=2, net=9))
    assert card_height(versus) > card_height(alone)
    im = png(player_card(versus, fmt="png", labels=EN))
    x0, y0, *_ = versus_box(versus)
    assert im.getpixel((x0 + 40, y0 + 1)) == P.GOLD
    assert png(player_card(alone, fmt="png", labels=EN)).size == (W, card_height(alone))


def test_win_rate_rounds_half_up_and_survives_no_duels() -> None:
    assert Figures().win_rate == 0
    assert Figures(played=3, wins=2).win_rate == 67
    assert Figures(played=8, wins=1).win_rate == 13  # 12.5
    assert Figures(played=6, wins=6).win_rate == 100
