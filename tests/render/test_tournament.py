"""The tournament table picture: sizes that grow with the field, the cross-table's cells where
they belong (or W–L–D instead when they cannot fit), the winner's banner only at the end,
hostile names, and words only from the catalogs."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from PIL import Image

from bot.i18n import LANGUAGES, translator
from render import palette as P
from render.board import WIN, W
from render.preview import tournament
from render.tournament import (
    MIN_NAME,
    PTS_W,
    Cell,
    Fixture,
    Standing,
    TournamentTable,
    cell_box,
    columns,
    compose,
    next_top,
    points_text,
    row_box,
    table_height,
    table_top,
    tournament_table,
)
from tests.render.labels import Recording

EN, RU = translator("en"), translator("ru")
HOSTILE = (
    "Александра Константиновна Преображенская-Старшая " * 4,
    "🦔🍄🦔",
    "\u202eevil\u202c <b>&amp;</b>\x00\n\t",
    "Zalgo Z̷̢̛a̵l̶g̸o̴",
    "",
    "李小龍 محمد",
    "W" * 80,
)


def names(n: int) -> tuple[str, ...]:
    return tuple(f"Player {i + 1}" for i in range(n))


def png(data: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(data))
    im.load()
    return im


@pytest.mark.parametrize("n", [3, 5, 8, 12])
@pytest.mark.parametrize("finished", [False, True])
def test_a_decodable_picture_1000_wide(n: int, finished: bool) -> None:
    total = n * (n - 1) // 2
    t = tournament(names(n), total if finished else total // 2, walkovers={0: True},
                   live=frozenset() if finished else frozenset({total // 2}))
    assert t.finished == finished
    for lang in ("en", "ru"):
        im = png(tournament_table(t, labels=translator(lang), fmt="png"))
        assert im.mode == "RGB" and im.size == (W, table_height(t))
    jpeg = tournament_table(t, labels=EN)
    assert jpeg[:2] == b"\xff\xd8" and len(jpeg) < 400_000
    assert png(jpeg).size == (W, table_height(t))


def test_the_height_grows_with_the_players() -> None:
    heights = [table_height(tournament(names(n), 2)) for n in range(3, 13)]
    assert heights == sorted(heights) and len(set(heights)) == len(heights)
    assert heights[-1] <= 1400  # 12 players and 6 next pairs still fit a phone's photo


def test_every_word_comes_from_both_catalogs() -> None:
    shown = (
        tournament(names(3), 1, live=frozenset({1})),
        tournament(names(5), 10, walkovers={3: True, 7: False}),
        tournament(names(4), 3, double=True),
        tournament(names(10), 7, double=True),
    )
    words = Recording()
    for t in shown:
        compose(t, words)
    used = set(words.keys)
    assert {"pic.tournament.title", "pic.tournament.winner", "pic.tournament.next",
            "pic.tournament.walkover", "pic.tournament.double", "pic.tournament.live"} <= used
    for lang in LANGUAGES:
        assert used <= translator(lang).keys, (lang, sorted(used - translator(lang).keys))


def test_the_words_in_russian() -> None:
    assert RU.plural("pic.tournament.players", 3) == "3 игрока"
    assert RU.plural("pic.tournament.players", 5) == "5 игроков"
    assert RU.plural("pic.tournament.players", 11) == "11 игроков"
    assert RU.text("pic.tournament.round", n=2, rounds=5) == "Тур 2 из 5"  # not «Раунд»
    assert RU.text("pic.tournament.played", done=4, total=10) == "Сыграно 4 из 10"
    assert RU.plural("pic.tournament.winner", 1, names="Алиса") == "Победитель: Алиса"
    assert RU.plural("pic.tournament.winner", 2, names="Алиса, Bob") == (
        "Победители: Алиса, Bob")
    assert EN.plural("pic.tournament.winner", 2, names="A, B") == "Winners: A, B"


@pytest.mark.parametrize(("half", "shown"), [(0, "0"), (1, "½"), (2, "1"), (7, "3½"),
                                              (22, "11")])
def test_points_are_shown_in_halves(half: int, shown: str) -> None:
    assert points_text(half) == shown


@pytest.mark.parametrize(("n", "double", "cross"), [
    (3, False, True), (8, False, True), (12, False, True),
    (3, True, True), (8, True, True), (9, True, False), (12, True, False),
])
def test_the_cross_table_fits_or_gives_way_to_w_l_d(n: int, double: bool, cross: bool) -> None:
    t = tournament(names(n), 0, double=double)
    c = columns(t)
    assert bool(c.cross) == cross
    assert c.name_w >= MIN_NAME
    if cross:
        assert c.cross + n * c.cell_w <= (c.wld - 54 if c.wld else c.pts - PTS_W // 2)
    else:
        assert c.wld


def test_the_diagonal_is_dark_and_a_live_duel_framed_in_green() -> None:
    t = tournament(names(4), 1, live=frozenset({1}))
    im = compose(t, EN)
    for i in range(4):
        x0, y0, x1, y1 = cell_box(t, i, i)
        assert im.getpixel(((x0 + x1) // 2, (y0 + y1) // 2)) == P.OUT_CELL
    live = [(i, j) for i, row in enumerate(t.cross) for j, cell in enumerate(row) if cell.live]
    assert len(live) == 2
    for i, j in live:
        x0, y0, x1, _ = cell_box(t, i, j)
        assert im.getpixel(((x0 + x1) // 2, y0)) == WIN
    assert row_box(t, 3)[3] < next_top(t) < im.height


def test_the_end_shows_the_winner_and_no_next_pairs() -> None:
    going = tournament(names(5), 9)
    done = tournament(names(5), 10)
    assert going.fixtures and not done.fixtures and done.winners
    assert table_top(done) > table_top(going)  # the banner
    assert table_height(replace(done, fixtures=going.fixtures)) == table_height(done)
    banner = compose(done, EN).crop((0, table_top(going), W, table_top(done)))
    gold = sum(1 for px in banner.get_flattened_data() if px == P.GOLD)
    assert gold > 2000  # its frame and the winner's name


def test_hostile_names_and_odd_tables_do_not_crash() -> None:
    n = len(HOSTILE)
    rows = tuple(Standing(1, name, 3, 1, 1, 1, 3, -5) for name in HOSTILE)
    cross = tuple(tuple(Cell(text, i == 2) for text in ("1", "½ ½ 0", "", "?", "+ −", "xyz",
                                                          "🦔"))
                  for i in range(n - 2))  # short: rows missing
    fixtures = tuple(Fixture(a, b, 0, k % 2 == 0) for k, (a, b) in
                     enumerate(zip(HOSTILE, reversed(HOSTILE), strict=True)))
    odd = (
        TournamentTable(HOSTILE[2], rows, cross, fixtures, 3, 7, 9, 21, False, (), True),
        TournamentTable(HOSTILE[0], rows, cross, fixtures, 7, 7, 21, 21, True, HOSTILE),
        TournamentTable("", (), (), (), 0, 0, 0, 0),
        TournamentTable("x", rows[:3], (), (), 0, 3, 0, 3, True, ()),
    )
    for lang in ("en", "ru", "xx"):
        for t in odd:
            assert png(tournament_table(t, labels=translator(lang), fmt="png")).size == (
                W, table_height(t))


def test_the_same_table_gives_the_same_bytes() -> None:
    t = tournament(names(6), 7, walkovers={2: True}, live=frozenset({8}))
    assert tournament_table(t, labels=RU) == tournament_table(t, labels=RU)
    assert tournament_table(t, labels=RU) != tournament_table(t, labels=EN)
