"""Text: the words (a `Labels` lookup), signed numbers, the shipped fonts, safe cleaning of
untrusted text, ellipsis truncation, cached masks.

The words come from the caller: every picture takes a `Labels` (the bot passes its Translator,
which reads them from the gettext catalogs, keys `pic.*` and `hand.*`), so render/ holds no
language and never picks one.

Only the fonts in `render/fonts/` are used (never the machine's), with Pillow's basic layout
engine, so the same text gives the same pixels wherever it runs. Text from users (player names)
goes through `clean`: characters the font lacks (most emoji), control and zero-width characters
are dropped, so no glyph can crash a render or draw a box.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from pathlib import Path
from typing import Protocol

from PIL import Image, ImageDraw, ImageFont

from rules.hands import Category

FONT_DIR = Path(__file__).with_name("fonts")
_FILES = {"bold": "DejaVuSans-Bold.ttf", "narrow": "DejaVuSansCondensed-Bold.ttf"}
ELLIPSIS = "…"

Font = ImageFont.FreeTypeFont
RGB = tuple[int, int, int]
MINUS = "\u2212"  # a true minus sign: as wide as the plus, unlike the hyphen


class Labels(Protocol):
    """The words of a picture by key, as plain text (nothing escaped): `text("pic.dealer")`,
    `plural("pic.duel.showdown", 4, w="Bob")` (the form for `n`, also passed as `{n}`).
    bot.i18n.Translator is one."""

    def text(self, key: str, /, **values: object) -> str: ...

    def plural(self, key: str, n: int, /, **values: object) -> str: ...


def hand_name(labels: Labels, category: Category) -> str:
    """The name of a hand's category ("Full house", "Фулл-хаус"): the catalogs' `hand.*`."""
    return labels.text(f"hand.{category.name.lower()}")


def signed(n: int, *, change: bool = False) -> str:
    """`n` with its sign: +150, −30. Zero is "0" for a total over many games (a net in the
    standings or the balance) and "±0" for a `change`, what one bullet, box or game did (a
    split, a push). The one definition for pictures and captions alike."""
    if n > 0:
        return f"+{n}"
    if n < 0:
        return f"{MINUS}{-n}"
    return "±0" if change else "0"


@lru_cache(maxsize=64)
def font(size: int, face: str = "bold") -> Font:
    """The shipped font `face` ("bold" or "narrow") at `size` px."""
    return ImageFont.truetype(
        str(FONT_DIR / _FILES[face]), size, layout_engine=ImageFont.Layout.BASIC
    )


@lru_cache(maxsize=2)
def _notdef(face: str) -> bytes:
    # A private-use code point the fonts have no glyph for: its mask is the "missing" box.
    return _glyph_key("\U0010fffd", face)


def _glyph_key(ch: str, face: str) -> bytes:
    mask = font(24, face).getmask(ch)
    return f"{mask.size}".encode() + bytes(mask)


@lru_cache(maxsize=4096)
def has_glyph(ch: str) -> bool:
    """Both shipped fonts can draw `ch` (a single code point)."""
    if ch == " ":
        return True
    cat = unicodedata.category(ch)
    if cat[0] in "CZ" or cat in ("Mn", "Me"):  # control, format, surrogate, separators, marks
        return False
    try:
        return all(_glyph_key(ch, face) != _notdef(face) for face in _FILES)
    except (UnicodeError, ValueError, OSError):
        return False


def clean(text: str, max_chars: int = 200) -> str:
    """`text` with only drawable characters, whitespace collapsed to single spaces."""
    out: list[str] = []
    for ch in unicodedata.normalize("NFC", text[: max_chars * 4]):
        if ch.isspace():
            if out and out[-1] != " ":
                out.append(" ")
        elif has_glyph(ch):
            out.append(ch)
        if len(out) >= max_chars:
            break
    return "".join(out).strip()


@lru_cache(maxsize=4096)
def width(text: str, size: int, face: str = "bold") -> int:
    return round(font(size, face).getlength(text))


@lru_cache(maxsize=2048)
def fit(text: str, size: int, max_width: int, face: str = "bold") -> str:
    """`text` cut with an ellipsis so that it is at most `max_width` px wide."""
    if width(text, size, face) <= max_width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:  # the longest prefix that still fits with the ellipsis
        mid = (lo + hi + 1) // 2
        if width(text[:mid].rstrip() + ELLIPSIS, size, face) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + ELLIPSIS if lo else ELLIPSIS


def fit_shrink(text: str, sizes: tuple[int, ...], max_width: int, face: str = "bold") -> tuple[
    str, int
]:
    """The largest of `sizes` at which `text` fits whole; else the smallest, cut to fit."""
    for size in sizes:
        if width(text, size, face) <= max_width:
            return text, size
    return fit(text, sizes[-1], max_width, face), sizes[-1]


@lru_cache(maxsize=2048)
def mask(text: str, size: int, face: str = "bold") -> Image.Image:
    """An "L" image of `text` (white on black), tight around the line box of the font."""
    f = font(size, face)
    ascent, descent = f.getmetrics()
    w = max(1, width(text, size, face))
    im = Image.new("L", (w + 2, ascent + descent))
    ImageDraw.Draw(im).text((1, 0), text, fill=255, font=f)
    return im


def draw(
    canvas: Image.Image,
    xy: tuple[int, int],
    text: str,
    size: int,
    fill: RGB,
    *,
    anchor: str = "l",
    face: str = "bold",
    max_width: int | None = None,
) -> tuple[int, int, int, int]:
    """Paste `text` at `xy` ("l", "m" or "r": the left, middle or right of its line box's top)
    and return the box it covers. With `max_width`, the text is cut with an ellipsis first."""
    if max_width is not None:
        text = fit(text, size, max_width, face)
    if not text:
        return (xy[0], xy[1], xy[0], xy[1])
    m = mask(text, size, face)
    x, y = xy
    if anchor == "m":
        x -= m.width // 2
    elif anchor == "r":
        x -= m.width
    canvas.paste(fill, (x, y, x + m.width, y + m.height), m)
    return (x, y, x + m.width, y + m.height)


def line_height(size: int, face: str = "bold") -> int:
    ascent, descent = font(size, face).getmetrics()
    return int(ascent + descent)


def wrap(text_: str, size: int, max_width: int, max_lines: int = 2, face: str = "bold") -> list[
    str
]:
    """`text_` broken into at most `max_lines` lines that fit `max_width` (the last one cut with
    an ellipsis if the text does not fit)."""
    lines: list[str] = []
    words = text_.split(" ")
    current = ""
    for i, word in enumerate(words):
        trial = f"{current} {word}" if current else word
        if width(trial, size, face) <= max_width or not current:
            current = trial
            continue
        lines.append(current)
        current = word
        if len(lines) == max_lines - 1:
            current = " ".join(words[i:])
            break
    lines.append(current)
    return [fit(line, size, max_width, face) for line in lines[:max_lines]]
