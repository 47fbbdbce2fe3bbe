"""Pictures in a language written right to left (issue 39): Arabic script shaped (letters
joined) and laid in bidi order with Latin names and numbers inside, Persian digits, the
standings and the scorecard mirrored, every text fitting, and English pictures where Pillow
cannot shape (without raqm)."""

from __future__ import annotations

import io
import logging

import pytest
from babel.messages.catalog import Catalog
from PIL import Image, ImageChops, features

from bot import i18n
from render import palette as P
from render import preview, text
from render.duel import preview as duel_preview
from render.sixcard import preview as six_preview
from render.standings import leaderboard
from tests.render.rtl_labels import Words
from tests.render.test_fit import LONGEST, problems

# Pillow's raqm needs the system's FriBiDi (Debian: libfribidi0; the Dockerfile installs it)
needs_raqm = pytest.mark.skipif(not features.check("raqm"), reason="Pillow without raqm")


def ink_columns(im: Image.Image) -> Image.Image:
    box = im.getbbox()
    assert box is not None
    return im.crop(box)


@needs_raqm
def test_arabic_letters_are_joined_not_isolated() -> None:
    with text.writing(Words("fa")):
        one = text.width("ب", 30)
        joined = text.width("ببب", 30)  # initial, medial and final forms: narrower
        word = ink_columns(text.mask("نوبت", 30))
    assert joined < 3 * one - 10
    # outside `writing` (an English picture, an Arabic name) it is shaped too
    assert ink_columns(text.mask("نوبت", 30)).size == word.size
    # the word's isolated letters side by side (what the basic layout draws) are wider
    isolated = sum(text.arabic_font(30).getmask(ch).size[0] for ch in "نوبت")
    assert isolated > word.width + 8


@needs_raqm
def test_a_latin_name_inside_a_persian_line_is_at_its_reading_place() -> None:
    alice = ink_columns(text.mask("Alice", 30))
    with text.writing(Words("fa")):
        first = ink_columns(text.mask("Alice دوئل را برد", 30))  # Alice first: at the right
        last = ink_columns(text.mask("دوئل Alice", 30))  # Alice last: at the left
    h = alice.height
    right = first.crop((first.width - alice.width, 0, first.width, first.height))
    left = last.crop((0, 0, alice.width, last.height))
    for part in (right, left):
        top = part.getbbox()
        assert top is not None
        found = part.crop((0, top[1], alice.width, top[1] + h))
        assert ImageChops.difference(found, alice).getbbox() is None
    # and in an English picture, Alice first is at the left
    english = ink_columns(text.mask("Alice wins دوئل", 30))
    top = english.getbbox()
    assert top is not None
    assert ImageChops.difference(english.crop((0, 0, alice.width, h)), alice).getbbox() is None


@needs_raqm
def test_persian_pictures_draw_persian_digits_arabic_ones_western() -> None:
    assert Words("fa").digits == "۰۱۲۳۴۵۶۷۸۹" and Words("ar").digits == "0123456789"
    with text.writing(Words("fa")):
        persian = text.mask("+57", 30)
        assert text.shape_digits("R2D2 10♠ 57 −13", "۰۱۲۳۴۵۶۷۸۹") == "R2D2 10♠ ۵۷ −۱۳"
    with text.writing(Words("ar")):
        western = text.mask("+57", 30)
    plain = text.mask("+57", 30)
    assert ImageChops.difference(western.crop(western.getbbox()),
                                 plain.crop(plain.getbbox())).getbbox() is None
    drawn = text.mask("+۵۷", 30)
    assert ImageChops.difference(ink_columns(persian), ink_columns(drawn)).getbbox() is None


@needs_raqm
def test_numbers_keep_their_signs_in_a_right_to_left_line() -> None:
    fa = text.Script(True, "۰۱۲۳۴۵۶۷۸۹")
    runs = text._runs("بازی +20", fa)
    assert "".join(r.text for r in runs).replace(" ", "") == "+۲۰بازی"
    assert "".join(r.text for r in text._runs("75%", fa)) == "۷۵%"
    # W–L–D reads from the right like its header: the wins at the right
    assert "".join(r.text for r in text._runs("9–3–0", text.Script(True))) == "0–3–9"


def board(lang: str) -> list[text.Drawn]:
    with text.recording() as record:
        leaderboard(preview.BOARD, labels=Words(lang) if lang != "en" else i18n.translator("en"),
                    fmt="png")
    return record.drawn


@needs_raqm
@pytest.mark.parametrize("lang", ["fa", "ar"])
def test_the_standings_are_mirrored(lang: str) -> None:
    width = 1000
    rtl = board(lang)
    ltr = board("en")

    def at(drawn: list[text.Drawn], words: str) -> int:
        return next(d.ink[0] for d in drawn if d.text == words)

    assert at(ltr, "Bob") < width // 3 < 2 * width // 3 < at(rtl, "Bob")  # names: at the right
    assert at(ltr, "#") < width // 8 and at(rtl, "#") > width - width // 8  # the rank: right
    rtl_player = next(d for d in rtl if d.text == Words(lang).text("pic.standings.col_player"))
    assert rtl_player.ink[2] > at(rtl, "Bob")  # a right-aligned label over its right-aligned names


@needs_raqm
@pytest.mark.parametrize("lang", ["fa", "ar"])
def test_every_text_of_the_rtl_pictures_fits(lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(duel_preview, "NAMES", LONGEST)
    words = Words(lang)
    found: list[str] = []
    for stem, _, make in preview.every_shot("png", lambda _lang: words):
        if stem.endswith("_ru"):
            continue
        with text.recording() as record:
            Image.open(io.BytesIO(make())).load()
        found += [f"{stem}: {p}" for p in problems(record)]
    assert not found, "\n".join(found[:60]) + f"\n({len(found)} in all)"


def a_persian_translator() -> i18n.Translator:
    catalog = Catalog(locale="fa", domain="messages")
    catalog.add("pic.duel.pass", "پاس")
    catalog.add("duel.caption", "نوبت شما")
    return i18n.Translator("fa", catalog, i18n.translator("en"))


def test_without_raqm_the_pictures_of_a_rtl_language_are_english(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    tr = a_persian_translator()
    if features.check("raqm"):
        assert tr.rtl and tr.digits == "۰۱۲۳۴۵۶۷۸۹" and tr.text("pic.duel.pass") == "پاس"
        with text.writing(tr) as script:
            assert script == text.Script(True, "۰۱۲۳۴۵۶۷۸۹")
    real = features.check
    monkeypatch.setattr(features, "check", lambda f: False if f == "raqm" else real(f))
    monkeypatch.setattr(i18n, "_warned", [])
    assert not tr.rtl and tr.digits == "0123456789"
    assert tr.text("pic.duel.pass") == "Pass"  # the picture's words: English
    assert tr.t("duel.caption") == "نوبت شما"  # the caption stays in the language
    with text.writing(tr) as script:
        assert script == text.LTR
        # and a render given rtl labels anyway draws left to right, unshaped: as before
        assert text.script_of(Words("fa")) == text.LTR
    with text.recording() as record:  # the standings in English, left to right
        leaderboard(preview.BOARD, labels=tr, fmt="png")
    assert not any(text._arabic(ch) for d in record.drawn for ch in d.text)
    assert next(d for d in record.drawn if d.text == "#").ink[0] < 100
    with caplog.at_level(logging.WARNING, logger="bot.i18n"):
        assert i18n.warn_unshaped(("en", "fa"))
        assert not i18n.warn_unshaped(("en", "fa"))  # once
    assert sum("raqm" in r.getMessage() for r in caplog.records) == 1
    monkeypatch.setattr(i18n, "_warned", [])
    assert not i18n.warn_unshaped(("en", "ru"))  # no right-to-left language: nothing to say


def test_labels_without_a_direction_are_left_to_right() -> None:
    assert text.script_of(i18n.translator("ru")) == text.LTR
    assert text.script_of(object()) == text.LTR
    assert frozenset({"ar", "fa"}) == i18n.RTL


def drawn_in(stem: str, labels: object) -> list[text.Drawn]:
    make = next(m for s, _, m in preview.every_shot("png", lambda _lang: labels) if s == stem)
    with text.recording() as record:
        make()
    return record.drawn


def ink_x(drawn: list[text.Drawn], words: str) -> int:
    return next((d.ink[0] + d.ink[2]) // 2 for d in drawn if d.text == words)


@needs_raqm
@pytest.mark.parametrize("lang", ["fa", "ar"])
def test_the_duel_reads_from_the_right(lang: str) -> None:
    w = 720
    ltr, rtl = drawn_in("04_table_turned_over", i18n.translator("en")), drawn_in(
        "04_table_turned_over", Words(lang))
    assert ink_x(ltr, "#1") < ink_x(ltr, "#6") and ink_x(rtl, "#6") < ink_x(rtl, "#1")
    assert ink_x(rtl, "#1") > w * 3 // 4  # hand 1 at the right
    name = duel_preview.NAMES[0]  # player 1's panel at the right
    assert ink_x(ltr, name) < w // 2 < ink_x(rtl, name)


@needs_raqm
def test_the_tournament_and_six_card_poker_read_from_the_right() -> None:
    en, fa = i18n.translator("en"), Words("fa")
    ltr, rtl = drawn_in("tt_three_en", en), drawn_in("tt_three_en", fa)
    assert ink_x(ltr, "Alice") < 300 and ink_x(rtl, "Alice") > 700  # on 1000 px
    name = six_preview.NAME  # the player's panel
    ltr, rtl = drawn_in("s07_three_settled", en), drawn_in("s07_three_settled", fa)
    assert ink_x(ltr, name) < 500 < ink_x(rtl, name)


@needs_raqm
def test_a_card_is_drawn_the_same_in_every_language() -> None:
    from render.duel import result
    from rules.cards import Card, Rank, Suit

    card = Card(Rank.TEN, Suit.SPADES)
    result._mini.cache_clear()
    with text.writing(Words("fa")):  # the first to draw it fills the cache for every picture
        persian = result._mini(card, P.Deck.CLASSIC).tobytes()
    result._mini.cache_clear()
    assert result._mini(card, P.Deck.CLASSIC).tobytes() == persian  # "10♠", not "♠10", "۱۰♠"
    result._mini.cache_clear()
