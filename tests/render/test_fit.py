"""Every word fits (issue 20, "Layout that fits"): every picture of the preview, in every
language the bot ships, with the longest names, drawn while render.text records each text's
ink box, its cell and every cut. A text may not leave its picture (inside the rail) or its
cell, may not touch another text, and only a name may be cut (by render.text.name, which
cuts at a word when it can): a category, a label or a sentence that does not fit takes its
catalog's short form, wraps or makes its column grow."""

from __future__ import annotations

import pytest

from bot.i18n import LANGUAGES, translator
from render import canvas as C
from render import preview, text
from render.duel import preview as duel_preview
from render.sixcard import preview as six_preview

LONGEST = ("Александра Константиновна Преображенская-Старшая 🌸",
           "Maximilian von Habsburg-Lothringen 🦔")
Box = tuple[int, int, int, int]


def overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def inside(a: Box, b: Box) -> bool:
    return a[0] >= b[0] and a[1] >= b[1] and a[2] <= b[2] and a[3] <= b[3]


def problems(record: text.Record) -> list[str]:
    out = [f"cut: {whole!r} -> {cut!r}" for whole, cut in record.cuts]
    by_canvas: dict[int, list[text.Drawn]] = {}
    for d in record.drawn:
        by_canvas.setdefault(d.canvas, []).append(d)
    for drawn in by_canvas.values():
        w, h = drawn[0].size
        rail = C.RAIL_W if w >= 400 else 0  # a picture, not a sprite
        frame = (rail, rail, w - rail, h - rail)
        for i, d in enumerate(drawn):
            if not inside(d.ink, frame):
                out.append(f"off the picture: {d.text!r} {d.ink}")
            if d.cell is not None and not inside(d.ink, d.cell):
                out.append(f"out of its cell: {d.text!r} {d.ink} not in {d.cell}")
            out += [f"touch: {d.text!r} {d.ink} and {e.text!r} {e.ink}"
                    for e in drawn[i + 1:] if overlap(d.ink, e.ink)]
    return out


def shots(lang: str, monkeypatch: pytest.MonkeyPatch) -> list[preview.Shot]:
    monkeypatch.setattr(duel_preview, "NAMES", LONGEST)
    monkeypatch.setattr(six_preview, "NAME", LONGEST[0])
    labels = translator(lang)
    return preview.every_shot("png", lambda _lang: labels)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_text_of_every_picture_fits(lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    found: list[str] = []
    for stem, _, make in shots(lang, monkeypatch):
        with text.recording() as record:
            make()
        found += [f"{stem}: {p}" for p in problems(record)]
    assert not found, "\n".join(found[:60]) + f"\n({len(found)} in all)"


def test_the_check_sees_a_cut_a_touch_and_a_text_off_its_cell() -> None:
    from PIL import Image

    im = Image.new("RGB", (600, 200))
    with text.recording() as record:
        text.draw(im, (20, 20), "Dealer", 30, (255, 255, 255))
        text.draw(im, (60, 30), "to act", 30, (255, 255, 255))
        text.draw(im, (20, 120), "Three of a kind", 30, (255, 255, 255), max_width=80)
        text.draw(im, (300, 20), "wide", 30, (255, 255, 255), cell=(300, 20, 320, 60))
    found = problems(record)
    assert any(p.startswith("touch: 'Dealer'") for p in found)
    assert any(p.startswith("cut: 'Three of a kind'") for p in found)
    assert any(p.startswith("out of its cell: 'wide'") for p in found)


def test_a_name_is_cut_by_one_rule_at_a_word_and_keeps_its_emoji() -> None:
    assert text.name("Dave 🦔", 30, 500) == "Dave 🦔"
    assert text.name("🦔🍄🦔", 30, 500) == "🦔🍄🦔"
    assert text.name("a \U0001fbc5", 30, 500) == "a " + text.EMOJI_PLACE  # no font has it
    family = "👨\u200d👩\u200d👧"
    cut = text.name(family * 4, 30, text.width(family * 2 + text.ELLIPSIS, 30) + 9)
    assert cut == family * 2 + text.ELLIPSIS  # never inside a sequence
    long = "Александра Константиновна Преображенская"
    room = text.width("Александра Константиновна" + text.ELLIPSIS, 30) + 40
    assert text.name(long, 30, room) == "Александра Константиновна" + text.ELLIPSIS  # a word
    assert text.name(long, 30, 500) == text.fit(long, 30, 500)  # a short first word: mid-word
    one_word = text.name("Преображенская-Старшая-Младшая", 30, 200)
    assert one_word.endswith(text.ELLIPSIS) and text.width(one_word, 30) <= 200


@pytest.mark.parametrize("names", [("Ana 🔥", "🦊 Fox"), ("Bob 👍🏽", "👨\u200d👩\u200d👧 Family")])
def test_names_with_emoji_fit_every_picture(names: tuple[str, str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(duel_preview, "NAMES", names)
    monkeypatch.setattr(six_preview, "NAME", names[1])
    labels = translator("en")
    found: list[str] = []
    for stem, _, make in preview.every_shot("png", lambda _lang: labels):
        with text.recording() as record:
            make()
        found += [f"{stem}: {p}" for p in problems(record)]
        assert any(any(e for _, e in text.emoji.split(d.text, text.has_glyph))
                   for d in record.drawn) or not stem[:2].isdigit(), stem  # drawn, not ◌
    assert not found, "\n".join(found[:60]) + f"\n({len(found)} in all)"
