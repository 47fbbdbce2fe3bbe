"""Every phase renders at the expected size and mode, and the things that matter change the
pixels where they belong (sampled regions, not golden images)."""

from __future__ import annotations

import dataclasses
import io
from functools import cache

import pytest
from PIL import Image, ImageChops

import render
from bot.i18n import pick_language, translator
from render.duel import layout as L
from render.duel import preview
from rules.cards import Card
from rules.duel import Bet, DuelState, HandState, HandView, Phase, PublicView

EN, RU = translator("en"), translator("ru")
NAMES = ("Алиса", "Bob")
Box = tuple[int, int, int, int]


def png(data: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(data))
    im.load()
    return im


def table_png(view: PublicView, **kw: object) -> Image.Image:
    opts: dict[str, object] = {"names": NAMES, "labels": EN, "fmt": "png", **kw}
    return png(render.table(view, **opts))  # type: ignore[arg-type]


def diff_box(a: Image.Image, b: Image.Image) -> Box | None:
    return ImageChops.difference(a.convert("RGB"), b.convert("RGB")).getbbox()


def region_differs(a: Image.Image, b: Image.Image, box: Box) -> bool:
    return diff_box(a.crop(box), b.crop(box)) is not None


def inside(inner: Box, outer: Box) -> bool:
    return (inner[0] >= outer[0] and inner[1] >= outer[1] and inner[2] <= outer[2]
            and inner[3] <= outer[3])


def grow(box: Box, by: int) -> Box:
    return (box[0] - by, box[1] - by, box[2] + by, box[3] + by)


@cache
def scripted() -> tuple[tuple[str, str, bytes], ...]:
    return tuple((stem, what, make()) for stem, what, make in preview.shots("png", translator))


@cache
def bullet_two() -> PublicView:
    """Bullet 2 of round 1: two hands turned over, the opponent's chips on a third."""
    s = DuelState.new(50, 0)
    s.deal(preview.deck(preview.DEAL_1), b"t")
    for pos, chips in ((2, 1), (3, 1), (4, 1)):
        s.apply(Bet(pos, chips), s.players_to_act[0])
    return s.public_view()


# --- every phase ----------------------------------------------------------------------------


def test_every_phase_renders_at_its_size_and_mode() -> None:
    shots = scripted()
    assert len(shots) >= 20
    for stem, _, data in shots:
        im = png(data)
        assert im.mode == "RGB", stem
        if "reveal" in stem:
            assert im.size == (L.W, L.REVEAL_H), stem
        elif "result" in stem:
            assert im.width == L.W and im.height > L.SCORE_Y, stem
        else:
            assert im.size == (L.W, L.TABLE_H), stem
        assert im.width * im.height <= 1_600_000, stem


def test_jpeg_is_the_default_and_small() -> None:
    view = bullet_two()
    data = render.table(view, names=NAMES, labels=EN)
    im = png(data)
    assert im.format == "JPEG" and im.mode == "RGB" and im.size == (L.W, L.TABLE_H)
    assert len(data) <= 150 * 1024
    assert len(render.reveal(view, names=NAMES, labels=EN)) <= 150 * 1024


def test_same_inputs_same_bytes() -> None:
    view = bullet_two()
    for fmt in ("jpeg", "png"):
        assert (render.table(view, names=NAMES, labels=EN, fmt=fmt)
                == render.table(view, names=NAMES, labels=EN, fmt=fmt))
    assert (render.reveal(view, names=NAMES, labels=EN)
            == render.reveal(view, names=NAMES, labels=EN))


def test_a_fresh_duel_before_any_deal_renders() -> None:
    view = DuelState.new(50, 1).public_view()
    assert view.phase is Phase.DEAL and not view.hands
    assert table_png(view).size == (L.W, L.TABLE_H)
    with pytest.raises(ValueError, match="nothing to reveal"):
        render.reveal(view, names=NAMES, labels=EN)


def test_unknown_format_is_refused() -> None:
    with pytest.raises(ValueError, match="format"):
        render.table(bullet_two(), names=NAMES, fmt="gif", labels=EN)


# --- things change pixels where they belong -------------------------------------------------


def _with_hand(view: PublicView, hand: HandView) -> PublicView:
    hands = tuple(hand if h.position == hand.position else h for h in view.hands)
    return dataclasses.replace(view, hands=hands)


def test_chips_show_on_their_hand_and_one_differs_from_two() -> None:
    view = bullet_two()
    chosen = next(h for h in view.hands if h.state is HandState.CHOSEN)
    pos = chosen.position
    bare = _with_hand(view, HandView(pos, chosen.face_up, HandState.AVAILABLE))
    one = _with_hand(view, dataclasses.replace(chosen, chips=1))
    two = _with_hand(view, dataclasses.replace(chosen, chips=2))
    a, b, c = table_png(bare), table_png(one), table_png(two)
    assert region_differs(a, b, L.chips_box(pos))
    assert region_differs(b, c, L.chips_box(pos))
    changed = diff_box(a, b)
    assert changed is not None and inside(changed, grow(L.column(pos), 8))
    changed = diff_box(b, c)
    assert changed is not None and inside(changed, L.chips_box(pos))


def test_the_winner_mark_is_on_the_winning_hand() -> None:
    view = bullet_two()
    hand = next(h for h in view.hands if h.state is HandState.REVEALED)
    pos = hand.position
    lost = table_png(_with_hand(view, dataclasses.replace(hand, won=False)))
    won = table_png(_with_hand(view, dataclasses.replace(hand, won=True)))
    assert region_differs(lost, won, L.winner_box(pos))
    changed = diff_box(lost, won)
    assert changed is not None and inside(changed, grow(L.column(pos), 16))


def test_the_cards_out_grid_marks_each_card_in_its_cell() -> None:
    view = bullet_two()
    card = Card.parse("2h")
    assert card not in view.cards_out and card not in {h.face_up for h in view.hands}
    before = table_png(view)
    after = table_png(dataclasses.replace(view, cards_out=(*view.cards_out, card)))
    assert region_differs(before, after, L.cell_box(card))
    for other in (Card.parse("2d"), Card.parse("3h"), Card.parse("Ah")):
        assert not region_differs(before, after, L.cell_box(other))
    no_grid = table_png(view, show_cards_out=False)
    assert no_grid.height < before.height  # without the grid the picture is shorter


def test_a_turned_over_hand_shows_its_name() -> None:
    view = bullet_two()
    hand = next(h for h in view.hands if h.state is HandState.REVEALED)
    en = table_png(view, labels=EN)
    ru = table_png(view, labels=RU)
    assert region_differs(en, ru, L.name_box(hand.position))


def test_whose_turn_lights_their_panel() -> None:
    view = bullet_two()
    actor = view.to_act[0]
    other = 1 - actor
    a = table_png(view)
    b = table_png(dataclasses.replace(view, to_act=(other,)))
    assert region_differs(a, b, L.PANELS[actor]) and region_differs(a, b, L.PANELS[other])


# --- names and languages --------------------------------------------------------------------

AWKWARD = [
    "Александра Константиновна Преображенская-Старшая",
    "🤠🤠🤠",
    "",
    "W" * 300,
    "a\x00b\nc\td\u200b\u202e",
    "\ud800lone surrogate",
    "名前 と 🇷🇺 флаг",
    "e\u0301\u0301\u0301 combining",
]


@pytest.mark.parametrize("name", AWKWARD)
def test_awkward_names_stay_inside_their_panel(name: str) -> None:
    view = bullet_two()
    left, right = L.PANELS
    elsewhere: list[Box] = [
        (0, 0, left[0] - 1, L.HEADER_H),  # left of the left panel
        (left[2] + 1, 0, right[0] - 1, L.HEADER_H),  # the revolver between the panels
        (right[2] + 1, 0, L.W, L.HEADER_H),  # right of the right panel
        (0, L.HEADER_H, L.W, L.STATUS_Y),  # the row of hands and the folded bullet
        (0, L.FOOTER_Y, L.W, L.TABLE_H),  # the cards-out grid
    ]
    for lang in ("en", "ru"):
        base = table_png(view, names=("A", "B"), labels=translator(lang))
        odd = table_png(view, names=(name, name), labels=translator(lang))
        for box in elsewhere:
            assert not region_differs(base, odd, box), (lang, box)
    assert render.reveal(view, names=(name, name), labels=RU)
    assert render.result(view, names=(name, name), labels=EN)


def test_the_words_are_the_labels_given_an_unknown_language_gets_english() -> None:
    """render/ picks no language: it draws the words of the labels it is given (the bot's
    translator, which falls back to English for a language it lacks)."""
    view = bullet_two()

    def table(lang: str) -> bytes:
        return render.table(view, names=NAMES, labels=translator(lang))

    assert table("eo") == table("en")
    assert table(pick_language(None, "ru-RU")) == table("ru")
    assert table("ru") != table("en")
