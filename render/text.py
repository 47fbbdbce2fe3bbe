"""Text: the words (a `Labels` lookup), signed numbers, the shipped fonts, safe cleaning of
untrusted text, ellipsis truncation, cached masks.

The words come from the caller: every picture takes a `Labels` (the bot passes its Translator,
which reads them from the gettext catalogs, keys `pic.*` and `hand.*`), so render/ holds no
language and never picks one.

Only the fonts in `render/fonts/` are used (never the machine's), with Pillow's basic layout
engine, so the same text gives the same pixels wherever it runs. Text from users (player names)
goes through `clean`: control and zero-width characters are dropped, an emoji is kept whole and
drawn as a picture (render.emoji: "Dave 🦔", "👨‍👩‍👧 Family"), and a pictograph neither has keeps
its place as EMOJI_PLACE; no glyph can crash a render or draw a box. A name is cut by one rule,
`name`, in every picture.

Every `draw` can be recorded (`recording()`): the ink box of each text, the box it must stay in
and every cut, so a test can check that no text crosses its cell or another text.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Protocol

from PIL import Image, ImageDraw, ImageFont

from render import emoji
from rules.hands import Category

FONT_DIR = Path(__file__).with_name("fonts")
_FILES = {"bold": "DejaVuSans-Bold.ttf", "narrow": "DejaVuSansCondensed-Bold.ttf"}
ELLIPSIS = "…"
EMOJI_PLACE = "\u25cc"  # ◌, the dotted circle: where an emoji the fonts cannot draw stood
NBSP = "\u00a0"  # a space `wrap` never breaks at ("+2" stays with its name)

Font = ImageFont.FreeTypeFont
RGB = tuple[int, int, int]
Box = tuple[int, int, int, int]  # left, top, right, bottom
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


def _pictograph(ch: str) -> bool:
    """An emoji or other symbol the fonts lack (not a skin tone, a joiner or a selector)."""
    if 0x1F3FB <= ord(ch) <= 0x1F3FF:  # skin tone modifiers: part of the emoji before
        return False
    return unicodedata.category(ch) == "So" or ord(ch) >= 0x1F000


def clean(text: str, max_chars: int = 200) -> str:
    """`text` with only drawable characters, whitespace collapsed to single spaces."""
    out: list[str] = []
    for ch, is_emoji in _pieces(unicodedata.normalize("NFC", text[: max_chars * 4])):
        if is_emoji:  # kept whole, drawn as a picture
            out.append(ch)
        elif ch.isspace():
            if out and out[-1] != " ":
                out.append(" ")
        elif has_glyph(ch):
            out.append(ch)
        elif _pictograph(ch):
            out.append(EMOJI_PLACE)
        if len(out) >= max_chars:
            break
    return "".join(out).strip()


def _pieces(text: str) -> Iterator[tuple[str, bool]]:
    """`text` character by character, but each emoji it holds whole (render.emoji), each with
    whether it is one."""
    for piece, is_emoji in emoji.split(text, has_glyph):
        yield from ((piece, True),) if is_emoji else ((ch, False) for ch in piece)


# Widths are a few bytes each and asked for again and again (every wrap tries each line, every
# name is measured to fit): 32768 keep those of a few hundred tables at once, where 4096 (the
# duels' names and sentences at 400 duels) were pushed out before their next tap.
@lru_cache(maxsize=32768)
def width(text: str, size: int, face: str = "bold") -> int:
    if emoji.has(text, has_glyph):
        return _mixed_width(text, size, face)
    return round(font(size, face).getlength(text))


def fit(text: str, size: int, max_width: int, face: str = "bold") -> str:
    """`text` cut with an ellipsis so that it is at most `max_width` px wide (a cut is
    recorded: only a name may be cut, see `name`)."""
    out = _fit(text, size, max_width, face)
    if out != text:
        for r in _RECORDERS:
            r.cuts.append((text, out))
    return out


def name(raw: str, size: int, max_width: int, face: str = "bold") -> str:
    """THE rule for a player's name (or a chat's title) in every picture: cleaned, whole when
    it fits in `max_width` px at `size`; else cut after its last whole word that fits with an
    ellipsis when that keeps at least two thirds of the room, else after the last character
    that fits. Put it in a sentence before the sentence is fitted."""
    cut = _name(raw, size, max_width, face)
    for r in _RECORDERS:
        r.names.add(cut)
    return cut


@lru_cache(maxsize=8192)
def _name(raw: str, size: int, max_width: int, face: str) -> str:
    clean_ = clean(raw)
    if width(clean_, size, face) <= max_width:
        return clean_
    cut = _fit(clean_, size, max_width, face)
    head = cut[:-1]
    if " " in head.strip():
        words = head[: head.rstrip().rfind(" ")].rstrip() + ELLIPSIS
        if width(words, size, face) * 3 >= max_width * 2:
            cut = words
    return cut


def name_shrink(raw: str, sizes: tuple[int, ...], max_width: int, face: str = "bold"
                ) -> tuple[str, int]:
    """A name at the largest of `sizes` at which it fits whole; else cut by `name` at the
    smallest."""
    clean_ = clean(raw)
    for size in sizes:
        if width(clean_, size, face) <= max_width:
            return clean_, size
    return name(clean_, sizes[-1], max_width, face), sizes[-1]


@lru_cache(maxsize=2048)
def _fit(text: str, size: int, max_width: int, face: str = "bold") -> str:
    if width(text, size, face) <= max_width:
        return text
    stops = emoji.stops(text, has_glyph)  # never inside an emoji
    lo, hi = 0, len(stops) - 1
    while lo < hi:  # the longest prefix that still fits with the ellipsis
        mid = (lo + hi + 1) // 2
        if width(text[:stops[mid]].rstrip() + ELLIPSIS, size, face) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return text[:stops[lo]].rstrip() + ELLIPSIS if lo else ELLIPSIS


def fit_shrink(text: str, sizes: tuple[int, ...], max_width: int, face: str = "bold") -> tuple[
    str, int
]:
    """The largest of `sizes` at which `text` fits whole; else the smallest, cut to fit."""
    for size in sizes:
        if width(text, size, face) <= max_width:
            return text, size
    return fit(text, sizes[-1], max_width, face), sizes[-1]


def mask(text: str, size: int, face: str = "bold") -> Image.Image:
    """An "L" image of `text` (white on black), tight around the line box of the font."""
    f = font(size, face)
    ascent, descent = f.getmetrics()
    w = max(1, width(text, size, face))
    im = Image.new("L", (w + 2, ascent + descent))
    ImageDraw.Draw(im).text((1, 0), text, fill=255, font=f)
    return im


@lru_cache(maxsize=2048)
def _ink(text: str, size: int, face: str) -> tuple[int, int, Box | None, Image.Image]:
    """The size of `mask(text)`, the box in it that has ink and the mask cropped to that box
    (what `draw` pastes; only the cropped mask is kept)."""
    m = mask(text, size, face)
    ink = m.getbbox()
    return m.width, m.height, ink, (m.crop(ink) if ink is not None else m)


@lru_cache(maxsize=256)
def _laid(text: str, size: int, face: str, fill: RGB, bg: RGB) -> Image.Image:
    """The ink box of `text` in `fill` laid on the plain colour `bg` (RGB, pasted without a
    mask: a copy instead of a blend)."""
    inked = _ink(text, size, face)[3]
    im = Image.new("RGB", inked.size, bg)
    im.paste(fill, (0, 0, *inked.size), inked)
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
    cell: Box | None = None,
    bg: RGB | None = None,
) -> tuple[int, int, int, int]:
    """Paste `text` at `xy` ("l", "m" or "r": the left, middle or right of its line box's top)
    and return the box it covers. With `max_width`, the text is cut with an ellipsis first.
    `cell` is the box the text belongs in (recorded for the layout test). `bg` says the canvas
    under the text's ink is that plain colour: the text is then pasted already laid on it (no
    blending, the same pixels), which only a caller that knows what is under it may say."""
    if max_width is not None:
        text = fit(text, size, max_width, face)
    if not text:
        return (xy[0], xy[1], xy[0], xy[1])
    if emoji.has(text, has_glyph):
        return _draw_mixed(canvas, xy, text, size, fill, anchor, face, cell, bg)
    w, h, ink, inked = _ink(text, size, face)
    x, y = xy
    if anchor == "m":
        x -= w // 2
    elif anchor == "r":
        x -= w
    if ink is not None and bg is not None:
        canvas.paste(_laid(text, size, face, fill, bg), (x + ink[0], y + ink[1]))
    elif ink is not None:  # only the ink's box is blended: the same pixels, a third less work
        canvas.paste(fill, (x + ink[0], y + ink[1], x + ink[2], y + ink[3]), inked)
    if _RECORDERS and ink is not None:
        drawn = Drawn(id(canvas), canvas.size,
                      (x + ink[0], y + ink[1], x + ink[2], y + ink[3]), text, cell)
        for r in _RECORDERS:
            r.drawn.append(drawn)
    return (x, y, x + w, y + h)


def emoji_height(size: int) -> int:
    """How tall an emoji is drawn in text of `size` px: the em, centred on the line box."""
    return size


def _mixed_width(text: str, size: int, face: str) -> int:
    return sum(emoji.width(piece, emoji_height(size)) if is_emoji else width(piece, size, face)
               for piece, is_emoji in emoji.split(text, has_glyph))


def _draw_mixed(canvas: Image.Image, xy: tuple[int, int], text: str, size: int, fill: RGB,
                anchor: str, face: str, cell: Box | None, bg: RGB | None) -> Box:
    """`draw` for a text holding emoji: its text runs as `draw` pastes them, its emoji as
    pictures, recorded as one text (its ink box: all of theirs)."""
    w, h = width(text, size, face), line_height(size, face)
    x, y = xy
    x -= w // 2 if anchor == "m" else w if anchor == "r" else 0
    inks: list[Box] = []
    at = x
    for piece, is_emoji in emoji.split(text, has_glyph):
        if is_emoji:
            pic = emoji.picture(piece, emoji_height(size))
            top = y + (h - pic.height) // 2
            canvas.paste(pic, (at, top), pic)
            box = pic.getbbox()
            if box is not None:
                inks.append((at + box[0], top + box[1], at + box[2], top + box[3]))
            at += pic.width
            continue
        _, _, ink, inked = _ink(piece, size, face)
        if ink is not None and bg is not None:
            canvas.paste(_laid(piece, size, face, fill, bg), (at + ink[0], y + ink[1]))
        elif ink is not None:
            canvas.paste(fill, (at + ink[0], y + ink[1], at + ink[2], y + ink[3]), inked)
        if ink is not None:
            inks.append((at + ink[0], y + ink[1], at + ink[2], y + ink[3]))
        at += width(piece, size, face)
    if _RECORDERS and inks:
        union = (min(b[0] for b in inks), min(b[1] for b in inks), max(b[2] for b in inks),
                 max(b[3] for b in inks))
        drawn = Drawn(id(canvas), canvas.size, union, text, cell)
        for r in _RECORDERS:
            r.drawn.append(drawn)
    return (x, y, x + w, y + h)


@dataclass(frozen=True)
class Drawn:
    """One text a picture drew: on which image (`id`), its ink box, its words, its cell."""

    canvas: int
    size: tuple[int, int]
    ink: Box
    text: str
    cell: Box | None


@dataclass
class Record:
    """What was drawn while recording: the texts, every cut (whole, cut) and the names cut."""

    drawn: list[Drawn] = field(default_factory=list)
    cuts: list[tuple[str, str]] = field(default_factory=list)
    names: set[str] = field(default_factory=set)


_RECORDERS: list[Record] = []


@contextmanager
def recording() -> Iterator[Record]:
    """Record every text drawn and every cut made inside the `with` (for the layout test;
    nothing is recorded otherwise, and nothing costs more)."""
    r = Record()
    _RECORDERS.append(r)
    try:
        yield r
    finally:
        _RECORDERS.remove(r)


def line_height(size: int, face: str = "bold") -> int:
    ascent, descent = font(size, face).getmetrics()
    return int(ascent + descent)


_FIGURE = re.compile(r"^[(+\u2212±-]?\d[\d:)]*[.,;:]?$")  # "+2", "(2)", "1:1", "47."


def _words(text_: str, size: int, max_width: int, face: str) -> list[str]:
    """The pieces `wrap` may break between: words, a short figure ("+2", "(2)", "1:1") kept
    with the word before it, and a word too wide for a line split after its hyphens ("Роял-"
    "флеш")."""
    out: list[str] = []
    for word in text_.split(" "):
        if out and len(word) <= 6 and _FIGURE.match(word):
            out[-1] = f"{out[-1]} {word}"
        elif "-" in word[1:-1] and width(word, size, face) > max_width:
            parts = word.split("-")
            out += [p + "-" for p in parts[:-1]] + [parts[-1]]
        else:
            out.append(word)
    return out


@lru_cache(maxsize=1024)
def _break(text_: str, size: int, max_width: int, max_lines: int, face: str) -> tuple[str, ...]:
    """`text_` in at most `max_lines` lines, each filled with what fits (the last one gets the
    rest, fitting or not)."""
    lines: list[str] = []
    words = _words(text_, size, max_width, face)
    current = ""

    def join(a: str, b: str) -> str:
        return f"{a}{b}" if not a or (a.endswith("-") and not a.endswith(" -")) else f"{a} {b}"

    if max_lines <= 1:  # one line: it gets everything (a caller measures whether it fits)
        for word in words:
            current = join(current, word)
        return (current,)
    for i, word in enumerate(words):
        trial = join(current, word)
        if width(trial, size, face) <= max_width or not current:
            current = trial
            continue
        lines.append(current)
        current = word
        if len(lines) == max_lines - 1:
            for rest in words[i + 1:]:
                current = join(current, rest)
            break
    lines.append(current)
    return tuple(lines[:max_lines])


def wrap(text_: str, size: int, max_width: int, max_lines: int = 2, face: str = "bold") -> list[
    str
]:
    """`text_` broken into at most `max_lines` lines that fit `max_width` (the last one cut with
    an ellipsis if the text does not fit). A line never starts with a signed figure alone
    ("+2" stays with its name); a no-break space (NBSP) in a catalog's text keeps its two
    words on one line; a hyphenated word too wide for a line breaks after a hyphen."""
    return [fit(line, size, max_width, face)
            for line in _break(text_, size, max_width, max_lines, face)]


def wrap_shrink(text_: str, sizes: tuple[int, ...], max_width: int, max_lines: int,
                face: str = "bold") -> tuple[list[str], int]:
    """`text_` wrapped at the largest of `sizes` at which it fits whole in `max_lines` lines;
    else wrapped (and its last line cut) at the smallest."""
    for size in sizes:
        lines = _break(text_, size, max_width, max_lines, face)
        if all(width(line, size, face) <= max_width for line in lines):
            return list(lines), size
    return wrap(text_, sizes[-1], max_width, max_lines, face), sizes[-1]
