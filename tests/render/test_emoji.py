"""Emoji in names are drawn as colour pictures (render.emoji), measured and cut as one piece."""

from __future__ import annotations

import zipfile

import numpy as np
import pytest
from PIL import Image

from render import emoji, text

NAMES = ("Ana 🔥", "🦊 Fox", "Bob 👍🏽", "👨\u200d👩\u200d👧 Family")
FELT = (22, 96, 64)


def test_a_name_splits_into_text_and_whole_emoji() -> None:
    runs = [emoji.split(text.clean(n), text.has_glyph) for n in NAMES]
    assert runs == [
        (("Ana ", False), ("🔥", True)),
        (("🦊", True), (" Fox", False)),
        (("Bob ", False), ("👍🏽", True)),
        (("👨\u200d👩\u200d👧", True), (" Family", False)),
    ]
    assert emoji.split("Алиса ♥ Bob", text.has_glyph) == (("Алиса ♥ Bob", False),)  # fonts'
    assert emoji.split("❤\ufe0f 1\ufe0f\u20e3", text.has_glyph) == (
        ("❤\ufe0f", True), (" ", False), ("1\ufe0f\u20e3", True))  # asked for as emoji


def test_a_skin_tone_is_kept_or_dropped_where_the_archive_has_no_such_sequence() -> None:
    assert emoji.key("👍🏽") == "👍🏽"
    assert emoji.key("👩🏽\u200d💻") == "👩\u200d💻"  # a ZWJ sequence with a tone: without it
    thumbs, toned = emoji.picture("👍", 40), emoji.picture("👍🏽", 40)
    assert thumbs.tobytes() != toned.tobytes()
    assert emoji.key("\U0001fbc5") is None


def _drawn(name: str, size: int = 30) -> tuple[Image.Image, text.Record, tuple[int, ...]]:
    im = Image.new("RGB", (500, 80), FELT)
    with text.recording() as record:
        box = text.draw(im, (10, 10), text.clean(name), size, (244, 244, 236), bg=FELT)
    return im, record, box


@pytest.mark.parametrize("name", NAMES)
def test_an_emoji_is_drawn_as_its_picture_inside_the_names_line(name: str) -> None:
    size = 30
    im, record, box = _drawn(name, size)
    [drawn] = record.drawn  # one text for the layout test, not one a run
    assert drawn.text == text.clean(name)
    x0, y0, x1, y1 = drawn.ink
    assert box == (10, 10, 10 + text.width(drawn.text, size), 10 + text.line_height(size))
    assert box[0] <= x0 and box[1] <= y0 and x1 <= box[2] + 2 and y1 <= box[3]
    at = 10
    for piece, is_emoji in emoji.split(drawn.text, text.has_glyph):
        if is_emoji:
            pic = emoji.picture(piece, text.emoji_height(size))
            top = 10 + (text.line_height(size) - pic.height) // 2
            want = Image.new("RGB", pic.size, FELT)
            want.paste(pic, (0, 0), pic)
            got = im.crop((at, top, at + pic.width, top + pic.height))
            assert got.tobytes() == want.tobytes(), piece
            at += pic.width
        else:
            at += text.width(piece, size)
    assert at == box[2]


def test_an_emoji_is_wider_than_the_place_it_replaced_and_counted_in_the_width() -> None:
    for size in (20, 24, 30):
        assert text.width("Ana 🔥", size) == text.width("Ana ", size) + emoji.width(
            "🔥", text.emoji_height(size))
        assert emoji.picture("🔥", text.emoji_height(size)).height == size


def test_a_name_is_never_cut_inside_an_emoji() -> None:
    family = "👨\u200d👩\u200d👧"
    for room in range(30, 200, 7):
        cut = text.name(family * 5 + " Family", 24, room)
        body = cut.removesuffix(text.ELLIPSIS)
        assert all(piece == family for piece, is_emoji in emoji.split(body, text.has_glyph)
                   if is_emoji)
        assert body.count("\u200d") == 2 * body.count("👧")
        assert text.width(cut, 24) <= room


def test_the_archive_is_small_and_whole() -> None:
    assert emoji.ARCHIVE.stat().st_size < 2_000_000
    with zipfile.ZipFile(emoji.ARCHIVE) as z:
        lines = z.read("index.txt").decode().splitlines()[1:]
        rows = [n for n in z.namelist() if n.startswith("row-")]
    assert len(lines) > 2500
    assert len(rows) == -(-len(lines) // 64)
    last = emoji.picture(emoji.key(chr(0x1F525)) or "", 40)
    assert last.size[1] == 40


def test_a_fire_is_drawn_orange_not_as_a_dotted_circle() -> None:
    im, _, _ = _drawn("Ana 🔥")
    px = np.asarray(im).astype(int)
    orange = (px[..., 0] > 200) & (px[..., 1] > 60) & (px[..., 1] < 190) & (px[..., 2] < 90)
    assert orange.sum() > 40
    placed, _, _ = _drawn("Ana " + text.EMOJI_PLACE)
    assert placed.tobytes() != im.tobytes()
