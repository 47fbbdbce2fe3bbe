"""The six-card poker picture: every moment renders at its size and mode, small enough, the same
bytes for the same view; no hidden card can change it; and what matters (chips, the dealer's
reveal, a settlement, the box being decided) changes the pixels where it belongs. Sampled
regions, not golden images."""

from __future__ import annotations

import dataclasses
import io
import random
from functools import cache
from typing import cast

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops, ImageStat

import render
import rules.sixcard as rules_six
from bot.i18n import translator
from render import palette as P
from render.encode import MAX_BYTES
from render.sixcard import preview
from render.sixcard import table as six_table
from render.sixcard.layout import (
    LANE_FILL,
    LANE_X0,
    LIT,
    PANEL,
    W,
    card_box,
    chip_box,
    dropped_box,
    height,
    lane_box,
    outcome_box,
)
from render.sixcard.table import status_lines
from rules.cards import Card, shuffled_deck
from rules.hands import Category, evaluate
from rules.sixcard import (
    Accounting,
    BoxOutcome,
    BoxSettlement,
    BoxState,
    SixBoxView,
    SixCardGame,
    SixCardView,
    SixPhase,
    parse_action,
)

EN, RU = translator("en"), translator("ru")
NAME = "Алиса"
Box = tuple[int, int, int, int]


def png(data: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(data))
    im.load()
    return im


def draw(view: SixCardView, name: str = NAME, lang: str = "en") -> Image.Image:
    return png(render.sixcard(view, name=name, labels=translator(lang), fmt="png"))


def blank(im: Image.Image, boxes: list[Box]) -> Image.Image:
    """`im` with `boxes` painted black: what is left must not change."""
    out = im.convert("RGB")
    for box in boxes:
        out.paste((0, 0, 0), box)
    return out


def same(a: Image.Image, b: Image.Image) -> bool:
    return ImageChops.difference(a.convert("RGB"), b.convert("RGB")).getbbox() is None


def region_differs(a: Image.Image, b: Image.Image, box: Box) -> bool:
    return not same(a.crop(box), b.crop(box))


def plain(im: Image.Image, box: Box) -> bool:
    """The region is one flat colour (nothing drawn there)."""
    bands = cast("tuple[tuple[int, int], ...]", im.convert("RGB").crop(box).getextrema())
    return all(lo == hi for lo, hi in bands)


def grow(box: Box, by: int) -> Box:
    return (box[0] - by, box[1] - by, box[2] + by, box[3] + by)


def mid_left(row: int) -> tuple[int, int]:
    """A pixel on the left edge of a lane's frame."""
    x0, y0, _, y1 = lane_box(row)
    return (x0 + 1, (y0 + y1) // 2)


@cache
def scenes() -> dict[str, tuple[SixCardView, str, str]]:
    return {stem: (v, lang, name) for stem, _, v, lang, name in preview.scenes()}


def scene(stem: str) -> SixCardView:
    return scenes()[stem][0]


def with_box(view: SixCardView, box: SixBoxView) -> SixCardView:
    boxes = tuple(box if b.box == box.box else b for b in view.boxes)
    return dataclasses.replace(view, boxes=boxes)


# --- every moment -------------------------------------------------------------------------


def test_the_preview_covers_every_moment_and_every_outcome() -> None:
    views = [v for v, _, _ in scenes().values()]
    assert {len(v.boxes) for v in views} >= {1, 2, 3}
    assert {v.phase for v in views} == {SixPhase.DECIDING, SixPhase.DEALER_GAME, SixPhase.OVER}
    outcomes = {b.settlement.outcome for v in views for b in v.boxes if b.settlement}
    assert outcomes == set(BoxOutcome)
    assert any(b.bought for v in views for b in v.boxes)
    assert any(b.replaced for v in views for b in v.boxes)
    assert any(b.blind and b.state is BoxState.HIDDEN for v in views for b in v.boxes)
    assert any(v.dealer_replacement and v.dealer_qualifies for v in views)
    assert any(v.dealer_replacement and not v.dealer_qualifies for v in views)


def test_every_moment_renders_at_its_size_and_mode() -> None:
    for stem, what, make in preview.shots("png", translator):
        view = scene(stem)
        im = png(make())
        assert im.mode == "RGB", stem
        assert im.size == (W, height(len(view.boxes))), (stem, what)


def test_three_boxes_are_no_taller_than_wide_and_fit_a_phone() -> None:
    """A phone shows a photo about 400 points wide: the table is at most 1200 px wide and
    about 1.6 megapixels, and three boxes make it no taller than it is wide."""
    for stem, what, make in preview.shots("png", translator):
        im = png(make())
        assert im.width <= 1200 and im.width * im.height <= 1_600_000, (stem, what)
        if len(scene(stem).boxes) == 3:
            assert im.width >= im.height, (stem, what)


def test_before_the_deal_it_renders_as_tall_as_one_box() -> None:
    view = SixCardGame.new((10, 20, 30), 1000).public_view()
    assert view.phase is SixPhase.DEAL and not view.boxes
    assert draw(view).size == (W, height(1)) == (W, height(0))


def test_jpeg_is_the_default_and_small() -> None:
    for stem, (view, lang, name) in scenes().items():
        data = render.sixcard(view, name=name, labels=translator(lang))
        im = png(data)
        assert im.format == "JPEG" and im.mode == "RGB", stem
        assert len(data) <= MAX_BYTES, (stem, len(data))


def test_busy_random_games_stay_under_the_size_cap() -> None:
    """Three boxes, every buy and replace taken: the busiest tables there are."""
    for seed in range(6):
        rng = random.Random(seed)
        g = SixCardGame.new((7, 50, 99), 100_000)
        g.deal(shuffled_deck(rng))
        while not g.is_over:
            acts = g.legal_actions()
            busy = [a for a in acts if str(a) in "bg"] or [a for a in acts if str(a)[0] == "r"]
            g.apply(rng.choice(busy or [a for a in acts if str(a) == "p"] or acts))
        assert len(render.sixcard(g.public_view(), name=NAME, labels=RU)) <= MAX_BYTES


def test_same_view_same_bytes() -> None:
    view = scene("s10_dealer_replaced_misses")
    for fmt in ("jpeg", "png"):
        assert (render.sixcard(view, name=NAME, fmt=fmt, labels=EN)
                == render.sixcard(dataclasses.replace(view), name=NAME, fmt=fmt, labels=EN))


def test_unknown_format_is_refused() -> None:
    with pytest.raises(ValueError, match="format"):
        render.sixcard(scene("s01_fresh_one_box"), name=NAME, fmt="gif", labels=EN)


def test_an_unknown_language_falls_back_to_english() -> None:
    view = scene("s07_three_settled")
    def picture(lang: str) -> bytes:
        return render.sixcard(view, name=NAME, labels=translator(lang))

    assert picture("xx") == picture("en")
    assert picture("ru") != picture("en")


def test_the_fees_quoted_are_the_rules_fees() -> None:
    assert (six_table.BUY_FEE, six_table.REPLACE_FEE, six_table.GAME_FEE, six_table.BET) == (
        rules_six.BUY_FEE, rules_six.REPLACE_FEE, rules_six.GAME_FEE, rules_six.BET)


# --- no hidden card can change a picture ---------------------------------------------------


def random_game(seed: int, steps: int) -> tuple[tuple[int, ...], int, tuple[Card, ...],
                                                   list[str]]:
    rng = random.Random(seed)
    antes = tuple(rng.randint(1, 100) for _ in range(rng.randint(1, 3)))
    need = SixCardGame.cover(antes)  # every box's ANTE and BET
    balance = rng.choice((need, need + rng.randint(0, 3 * max(antes)), 1000, 100_000))
    deck = shuffled_deck(rng)
    g = SixCardGame.new(antes, balance)
    g.deal(deck, b"salt")
    actions: list[str] = []
    for _ in range(steps):
        if g.is_over:
            break
        action = rng.choice(g.legal_actions())
        actions.append(str(action))
        g.apply(action)
    return antes, balance, deck, actions


def replay(antes: tuple[int, ...], balance: int, deck: tuple[Card, ...],
           actions: list[str]) -> SixCardGame:
    g = SixCardGame.new(antes, balance)
    g.deal(deck, b"salt")
    for code in actions:
        g.apply(parse_action(code))
    return g


def visible(view: SixCardView) -> set[Card]:
    seen: set[Card] = set()
    for b in view.boxes:
        seen |= set(b.cards or ()) | set(b.discards)
    seen |= set(view.dealer_cards or ()) | set(view.dealer_first_cards or ())
    if view.dealer_up is not None:
        seen.add(view.dealer_up)
    if view.dealer_replacement is not None:
        seen |= {view.dealer_replacement.dropped, view.dealer_replacement.drawn}
    return seen


def public_part(view: SixCardView) -> SixCardView:
    """The view less the deal's commitment (a hash of the deck) and, once over, the proof (the
    deck itself): pictures draw neither."""
    return dataclasses.replace(view, commitment=None, proof=None)


def pictures(view: SixCardView) -> list[bytes]:
    return [render.sixcard(view, name=NAME, labels=RU),
            render.sixcard(view, name="Bob", labels=EN, fmt="png")]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 12), pick=st.randoms())
def test_hidden_cards_never_change_a_picture(seed: int, steps: int, pick: random.Random) -> None:
    antes, balance, deck, actions = random_game(seed, steps)
    a = replay(antes, balance, deck, actions)
    view_a = a.public_view()
    hidden_at = [i for i, c in enumerate(deck) if c not in visible(view_a)]
    assert len(hidden_at) >= 2
    # Prefer a card already dealt face down (a hole card, a box not shown yet), when there is one.
    dealt = [i for i in hidden_at if i < a.drawn]
    i = pick.choice(dealt or hidden_at)
    j = pick.choice([k for k in hidden_at if k != i])
    swapped = list(deck)
    swapped[i], swapped[j] = swapped[j], swapped[i]
    b = replay(antes, balance, tuple(swapped), actions)
    view_b = b.public_view()
    assert public_part(view_a) == public_part(view_b)
    assert pictures(view_a) == pictures(view_b)


def test_hidden_cards_really_differ_in_a_crafted_case() -> None:
    """The property is not vacuous: the dealer's hole cards and box 2 do differ, the pictures
    do not."""
    deck = preview.deck(preview.THREE_BOXES[1])
    swapped = list(deck)
    swapped[5], swapped[15] = swapped[15], swapped[5]  # box 2's first card, a dealer hole card
    swapped[16], swapped[40] = swapped[40], swapped[16]  # a hole card, an undealt card
    a = replay((10, 5, 20), 1000, deck, [])
    b = replay((10, 5, 20), 1000, tuple(swapped), [])
    assert a.dealer != b.dealer and a.boxes[1].cards != b.boxes[1].cards
    assert a.dealer[-1] == b.dealer[-1]
    assert pictures(a.public_view()) == pictures(b.public_view())


# --- things change the pixels where they belong -------------------------------------------


def test_chips_show_in_their_box_and_only_there() -> None:
    view = scene("s01_fresh_one_box")
    box = view.boxes[0]
    assert box.bet == 0
    before = draw(view)
    played = draw(with_box(view, dataclasses.replace(box, bet=20)))
    assert plain(before, chip_box(1, 1)) and not plain(played, chip_box(1, 1))
    # the header's "on the table" figure changes too; nothing else does
    assert same(blank(before, [chip_box(1, 1), PANEL]),
                blank(played, [chip_box(1, 1), PANEL]))
    bigger = draw(with_box(view, dataclasses.replace(box, ante=100)))
    assert region_differs(before, bigger, chip_box(1, 0))
    header = (0, 0, W, lane_box(0)[1])  # the panel, and the fees the status quotes
    assert same(blank(before, [chip_box(1, 0), header]), blank(bigger, [chip_box(1, 0), header]))


def test_the_dealers_reveal_shows_five_cards_and_whether_it_qualifies() -> None:
    hidden = scene("s03_replaced")
    shown = scene("s04_reveal_qualifies")
    assert hidden.dealer_cards is None and shown.dealer_qualifies
    a, b = draw(hidden), draw(shown)
    last = card_box(0, 4)
    assert plain(a, last) and not plain(b, last)  # face down: a stack, nothing out there
    assert region_differs(a, b, card_box(0, 0))
    no_game = draw(dataclasses.replace(shown, dealer_qualifies=False))
    assert region_differs(b, no_game, outcome_box(0))
    assert same(blank(b, [outcome_box(0)]), blank(no_game, [outcome_box(0)]))


def test_the_dealers_replace_greys_the_dropped_card_and_rims_the_new_one() -> None:
    view = scene("s11_dealer_replaced_qualifies")
    rep = view.dealer_replacement
    assert rep is not None
    im = draw(view).convert("RGB")
    assert not plain(im, dropped_box(0))
    x0, y0, _, y1 = card_box(0, rep.index)
    assert im.getpixel((x0 - 2, (y0 + y1) // 2)) == P.GOLD
    offer = draw(scene("s08_no_game_offer"))
    assert plain(offer, dropped_box(0))


def test_a_bought_card_and_a_replaced_card_are_marked() -> None:
    fresh, bought, replaced = (draw(scene(s)) for s in
                               ("s01_fresh_one_box", "s02_bought", "s03_replaced"))
    sixth = card_box(1, 5)
    tag = (sixth[0], sixth[1] - 24, sixth[2], sixth[1] - 2)  # above the card, inside the frame
    assert region_differs(fresh, bought, sixth)
    assert plain(fresh, tag) and not plain(bought, tag)
    assert plain(bought, dropped_box(1)) and not plain(replaced, dropped_box(1))
    # the dropped card is grey: no saturated colour inside its box (its strike is the only red)
    x0, y0, _, _ = dropped_box(1)
    core = replaced.convert("RGB").crop((x0 + 4, y0 + 4, x0 + 30, y0 + 40))
    r, g, b = ImageStat.Stat(core).mean
    assert max(r, g, b) - min(r, g, b) < 40


def test_a_settlement_marks_its_own_box() -> None:
    view = scene("s07_three_settled")
    won = view.boxes[0]
    assert won.settlement is not None and won.settlement.outcome is BoxOutcome.WON
    s = won.settlement
    lost = BoxSettlement(s.box, BoxOutcome.LOST, s.value, s.dealer_value, False, s.ante, s.bet,
                         Accounting(s.ante + s.bet, 0, 0, 0))
    a = draw(view)
    b = draw(with_box(view, dataclasses.replace(won, settlement=lost)))
    assert region_differs(a, b, outcome_box(1))
    # Boxes 2 and 3 change only in their running balance ("→ balance"), which follows box 1's
    # net; nothing else outside box 1's lane moves.
    assert region_differs(a, b, outcome_box(2)) and region_differs(a, b, outcome_box(3))
    outside = [grow(lane_box(1), 1), outcome_box(2), outcome_box(3)]
    assert same(blank(a, outside), blank(b, outside))
    assert a.convert("RGB").getpixel(mid_left(1)) == P.GOLD
    assert b.convert("RGB").getpixel(mid_left(1)) != P.GOLD


def test_the_box_being_decided_is_lit_and_a_blind_box_is_face_down() -> None:
    view = scene("s05_three_boxes")
    assert view.to_act == 0
    im = draw(view).convert("RGB")
    assert im.getpixel(mid_left(1)) == LIT
    assert im.getpixel(mid_left(2)) != LIT and im.getpixel(mid_left(3)) != LIT
    for row in (2, 3):  # box 2 not shown yet, the blind box 3: backs, blue
        x0, y0, x1, y1 = card_box(row, 0)
        r, g, b = ImageStat.Stat(im.crop((x0 + 20, y0 + 30, x1 - 20, y1 - 30))).mean
        assert b > r + 40 and b > g + 40
    nxt = draw(scene("s06_three_boxes_box2")).convert("RGB")
    assert nxt.getpixel(mid_left(2)) == LIT and nxt.getpixel(mid_left(1)) != LIT


def test_the_lanes_sit_on_the_felt() -> None:
    im = draw(scene("s07_three_settled")).convert("RGB")
    for row in range(4):
        x0, _, _, y1 = lane_box(row)
        assert im.getpixel((x0 + 8, y1 - 8)) == LANE_FILL
    assert im.getpixel((LANE_X0 + 300, lane_box(1)[1] - 4)) == P.FELT


def test_the_status_says_what_can_be_done_now() -> None:
    view = scene("s06_three_boxes_box2")
    words = " ".join(line for line, _, _ in status_lines(view, EN))
    assert "Fold" in words and "Play (bet 10)" in words and "Buy" not in words
    broke = dataclasses.replace(view, legal=("f",))
    words = " ".join(line for line, _, _ in status_lines(broke, EN))
    assert "fold only" in words
    offer = " ".join(line for line, _, _ in status_lines(scene("s08_no_game_offer"), EN))
    assert "for 10" in offer


def test_no_offer_is_asked_when_the_balance_cannot_pay_the_dealers_game() -> None:
    view = scene("s14_no_game_unaffordable")
    assert view.legal == ("n",)
    for labels, asked in ((EN, "buy the dealer a game"), (RU, "купить дилеру игру")):
        words = " ".join(line for line, _, _ in status_lines(view, labels))
        assert asked not in words.lower() and "?" not in words
    words = " ".join(line for line, _, _ in status_lines(view, EN))
    assert "cannot pay the dealer's game (10)" in words and "ante is paid 1:1" in words
    # The box's own column does not ask either ("No game: ante 1:1", not "Buy the dealer a
    # game?").
    asked = draw(dataclasses.replace(view, legal=("g", "n")))
    plain_view = draw(view)
    assert region_differs(asked, plain_view, outcome_box(1))


@pytest.mark.parametrize("name", [
    preview.LONG, "🦔🍄🦔", "", "\u200b\u202e evil", "W" * 300, "Ж" * 80,
])
def test_awkward_names_stay_inside_the_panel(name: str) -> None:
    view = scene("s07_three_settled")
    a, b = draw(view, name="A"), draw(view, name=name)
    assert same(blank(a, [PANEL]), blank(b, [PANEL]))


def test_hand_names_follow_the_cards() -> None:
    """The picture names the hand from the view's value (the best five of six after a buy)."""
    view = scene("s04_reveal_qualifies")
    box = view.boxes[0]
    assert box.cards is not None and box.value == evaluate(box.cards)
    assert box.value is not None and box.value.category is Category.FULL_HOUSE
