"""What the games' pictures share: one signed-number format, hand names from the catalogs, one
face-down stack, one encoder."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image, ImageChops

import render
from bot.i18n import translator
from render import encode, sprites, text
from render import palette as P
from render.duel import layout as duel_layout
from render.duel import preview as duel_preview
from render.sixcard import preview as six_preview
from render.sixcard.layout import LANE_FILL, card_box
from rules.cards import Card
from rules.duel import DuelState, HandState
from rules.hands import Category

EN = translator("en")


class Recording:
    """Labels that answer with the key and remember what was asked."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, int | None, dict[str, object]]] = []

    def text(self, key: str, /, **values: object) -> str:
        self.asked.append((key, None, values))
        return key

    def plural(self, key: str, n: int, /, **values: object) -> str:
        self.asked.append((key, n, values))
        return key


def png(data: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(data))
    im.load()
    return im.convert("RGB")


def test_signed_numbers_have_a_true_minus_and_a_zero_for_totals_or_changes() -> None:
    assert [text.signed(n) for n in (150, -30, 0)] == ["+150", "\u221230", "0"]
    assert [text.signed(n, change=True) for n in (1, -1, 0)] == ["+1", "\u22121", "±0"]


def test_hand_names_come_from_the_labels() -> None:
    labels = Recording()
    assert text.hand_name(labels, Category.FULL_HOUSE) == "hand.full_house"
    assert text.hand_name(EN, Category.THREE_OF_A_KIND) == "Three of a kind"
    assert text.hand_name(EN, Category.FULL_HOUSE) == "Full house"
    assert text.hand_name(translator("ru"), Category.THREE_OF_A_KIND) == "Тройка"
    assert text.hand_name(translator("ru"), Category.FLUSH) == "Флеш"


def test_every_picture_takes_its_words_from_the_labels_only() -> None:
    """Drawn with labels that answer with their keys, every picture still renders and asks
    only for pic.* and hand.* keys: no word is built into render/."""
    labels = Recording()
    for _, _, make in duel_preview.shots("jpeg", lambda _: labels):
        make()
    for _, _, make in six_preview.shots("jpeg", lambda _: labels):
        make()
    keys = {key for key, _, _ in labels.asked}
    assert keys and all(k.startswith(("pic.", "hand.")) for k in keys), keys
    plurals = {key for key, n, _ in labels.asked if n is not None}
    assert plurals == {"pic.duel.showdown", "pic.duel.uncontested"}


def test_one_face_down_stack_for_both_games() -> None:
    """The duel's hand in play and the six-card dealer's hole cards are the same sprite, laid
    on each game's colour."""
    s = DuelState.new(50, first_dealer=0)
    s.deal(duel_preview.deck(duel_preview.DEAL_1), b"shared")
    view = s.public_view()
    duel = png(render.table(view, names=("A", "B"), labels=EN, fmt="png"))
    hand = next(h for h in view.hands if h.state is HandState.AVAILABLE)
    box = duel_layout.stack_box(hand.position)
    at_duel_size = sprites.stack(hand.face_up, 4, P.FELT, duel_layout.CARD_W, duel_layout.CARD_H,
                                 duel_layout.BACK_DX, duel_layout.BACK_DY)
    assert ImageChops.difference(duel.crop(box), at_duel_size).getbbox() is None
    scenes = {stem: (v, name) for stem, _, v, _, name in six_preview.scenes()}
    six_view, name = scenes["s01_fresh_one_box"]
    assert six_view.dealer_up is not None
    six = png(render.sixcard(six_view, name=name, labels=EN, fmt="png"))
    stack = sprites.stack(six_view.dealer_up, six_view.dealer_backs, LANE_FILL)
    x0, _, _, y1 = card_box(0, 0)
    at = (x0, y1 - stack.height, x0 + stack.width, y1)
    assert ImageChops.difference(six.crop(at), stack).getbbox() is None


def test_a_stack_not_shown_is_all_backs() -> None:
    up = sprites.stack(Card.parse("Qc"), 4, LANE_FILL)
    hidden = sprites.stack(None, 5, LANE_FILL)
    assert up.size == hidden.size  # five cards either way
    assert ImageChops.difference(up, hidden).getbbox() is not None


# --- the one encoder ---------------------------------------------------------------------------


def noise(w: int, h: int, seed: int = 1) -> Image.Image:
    rng = random.Random(seed)
    return Image.frombytes("RGB", (w, h), rng.randbytes(w * h * 3))


def test_the_encoder_is_deterministic_and_refuses_unknown_formats() -> None:
    im = noise(200, 100)
    for fmt in ("jpeg", "jpg", "png", "PNG"):
        assert encode.encode(im, fmt) == encode.encode(im, fmt)
    assert png(encode.encode(im, "png")).tobytes() == im.tobytes()  # lossless
    with pytest.raises(ValueError, match="format"):
        encode.encode(im, "gif")


def test_a_jpeg_has_the_chroma_subsampling_of_its_settings() -> None:
    from PIL import JpegImagePlugin

    im = noise(64, 64)
    for sampling in (0, 1, 2):  # 4:4:4, 4:2:2, 4:2:0
        data = encode.encode(im, "jpeg", encode.Jpeg((60,), subsampling=sampling))
        assert JpegImagePlugin.get_sampling(Image.open(io.BytesIO(data))) == sampling
    view = DuelState.new(50, first_dealer=0)
    view.deal(duel_preview.deck(duel_preview.DEAL_1), b"chroma")
    table = render.table(view.public_view(), names=("A", "B"), labels=EN)
    assert JpegImagePlugin.get_sampling(Image.open(io.BytesIO(table))) == encode.DUEL.subsampling


def test_a_jpeg_over_its_budget_is_made_again_at_the_next_quality() -> None:
    im = noise(600, 400)  # noise does not compress: well over a small budget
    first, second = encode.TALL.qualities
    tight = encode.Jpeg((first, second), optimize=True, max_bytes=10_000)
    loose = encode.Jpeg((first, second), optimize=True, max_bytes=None)
    at_first = encode.encode(im, "jpeg", encode.Jpeg((first,), optimize=True))
    at_second = encode.encode(im, "jpeg", encode.Jpeg((second,), optimize=True))
    assert encode.encode(im, "jpeg", loose) == at_first
    assert encode.encode(im, "jpeg", tight) == at_second  # the last quality, whatever its size
    assert len(at_second) < len(at_first)


def test_a_text_allowed_one_line_is_kept_whole_or_shrunk_never_losing_words() -> None:
    """wrap_shrink with one line: a text too wide at the first size is tried smaller; the line
    it returns always holds every word (it once returned the first line's worth, silently)."""
    from render import text

    said = "Bob: choose a hand — Pass (1) or Play (2)"
    lines, size = text.wrap_shrink(said, (40, 36, 34), text.width(said, 34), 1)
    assert lines == [said] and size == 34


# --- text laid on its background --------------------------------------------------------------

@pytest.mark.parametrize("anchor", ["l", "m", "r"])
def test_a_text_laid_on_its_plain_background_is_the_same_pixels_as_one_blended_on_it(
        anchor: str) -> None:
    """`bg` only saves work: on a plain background of that colour it changes no pixel, and the
    box it returns and the ink it records are the same."""
    words = ["Bob 🤠 the Builder", "№3", "Пуля 2: пара троек — +2", "→57", "10♦"]
    for bg in (P.FELT, P.PANEL):
        for face in ("bold", "narrow"):
            for size in (22, 30, 44):
                for s in words:
                    s = text.clean(s)
                    blended, laid = Image.new("RGB", (600, 80), bg), Image.new("RGB", (600, 80), bg)
                    with text.recording() as r1:
                        box1 = text.draw(blended, (300, 10), s, size, P.GOLD, anchor=anchor,
                                         face=face)
                    with text.recording() as r2:
                        box2 = text.draw(laid, (300, 10), s, size, P.GOLD, anchor=anchor,
                                         face=face, bg=bg)
                    assert box1 == box2
                    assert [d.ink for d in r1.drawn] == [d.ink for d in r2.drawn]
                    assert ImageChops.difference(blended, laid).getbbox() is None, (s, size)
                    assert blended.getbbox() is not None  # something was drawn


def test_a_text_is_drawn_only_where_its_ink_is() -> None:
    """The text's paste covers its ink box, not its whole line box: what is around the ink (a
    frame edge, another drawing) stays as it was."""
    im = Image.new("RGB", (400, 80), P.RAIL)
    box = text.draw(im, (10, 10), "Hand 1", 28, P.TEXT, bg=P.FELT)
    ink = text.mask("Hand 1", 28).getbbox()
    assert ink is not None and ink[1] > 0  # the line box has room above the ink
    top_strip = im.crop((box[0], box[1], box[2], box[1] + ink[1]))
    assert top_strip.getcolors() == [(top_strip.width * top_strip.height, P.RAIL)]
