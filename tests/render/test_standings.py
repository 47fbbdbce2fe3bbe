"""The standings pictures: sizes and modes, hostile names, the asker's row framed, the head to
head panel only when asked for, the rating chart only with a history."""

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
    chart_box,
    chart_points,
    compose_board,
    compose_card,
    leaderboard,
    player_card,
    row_box,
    versus_box,
)
from rules.hands import Category
from tests.render.labels import Recording

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
            card = PlayerCard(name, F, name, 1000, 1000, F, "1069?", (1069, 963, 1200))
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


def test_the_head_to_head_panel_only_on_another_players_card() -> None:
    alone = PlayerCard("Bob", F)
    versus = PlayerCard("Bob", F, "Friends", 2, 5, Figures(played=2, wins=2, net=9))
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


@pytest.mark.parametrize("history", [(1069,), (1069, 1128, 1127), tuple(range(900, 1400, 2))])
def test_a_card_with_a_history_draws_the_chart_in_its_title_block(
        history: tuple[int, ...]) -> None:
    """The chart sits right of the title: the card is no taller, its words stay 1000 px wide
    (under 1200 px and 1.6 MP), and the line's newest point is a gold dot."""
    plain = PlayerCard("Alice", F, "Friends", 1, 3, Figures(played=2, wins=1, losses=1),
                       "1127?")
    charted = PlayerCard("Alice", F, "Friends", 1, 3, Figures(played=2, wins=1, losses=1),
                         "1127?", history)
    words = Recording()
    im = compose_card(charted, words)
    assert "pic.standings.history" in words.keys
    assert im.size == (W, card_height(plain)) == compose_card(plain, EN).size
    assert im.width <= 1200 and im.width * im.height <= 1_600_000
    bare = compose_card(plain, EN)
    x0, y0, x1, y1 = chart_box()
    assert bare.crop((x0, y0, x1, y1)).tobytes() != im.crop((x0, y0, x1, y1)).tobytes()
    below = (0, y1 + 1, W, im.height)  # the tiles and the head to head: untouched
    assert bare.crop(below).tobytes() == im.crop(below).tobytes()
    assert im.getpixel((x0 + 40, y0 + 1)) == P.PANEL_EDGE
    def colours(picture: Image.Image) -> set[object]:
        return {c for _, c in picture.crop((x0, y0 + 40, x1, y1)).getcolors(1 << 20) or ()}

    assert P.GOLD in colours(im) and P.GOLD not in colours(bare)  # the line and its dot
    assert png(player_card(charted, labels=EN, fmt="png")).size == im.size
    words_only = Recording()
    compose_card(plain, words_only)
    assert "pic.standings.history" not in words_only.keys


def test_the_charts_points_run_oldest_to_newest_lowest_to_highest() -> None:
    area = (100, 50, 400, 150)
    assert chart_points((1000, 1100, 1050), area) == [(100, 150), (250, 50), (400, 100)]
    assert chart_points((1000, 1000), area) == [(100, 100), (400, 100)]
    assert chart_points((963,), area) == [(400, 100)]
