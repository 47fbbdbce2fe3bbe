"""Text: the words (a `Labels` lookup), signed numbers, the shipped fonts, safe cleaning of
untrusted text, ellipsis truncation, cached masks.

The words come from the caller: every picture takes a `Labels` (the bot passes its Translator,
which reads them from the gettext catalogs, keys `pic.*` and `hand.*`), so render/ holds no
language and never picks one.

Only the fonts in `render/fonts/` are used (never the machine's), with Pillow's basic layout
engine, so the same text gives the same pixels wherever it runs. A line with Arabic script in it
(a right-to-left language's words, or a name) is shaped instead (Pillow's raqm: letters joined,
runs in bidi order), its Arabic-script runs in Vazirmatn and the rest in DejaVu, see `writing`
and `_runs`; without raqm such a line is drawn as before (unjoined), and the bot then gives a
right-to-left language's pictures English words (bot.i18n). Text from users (player names)
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
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Protocol

from PIL import Image, ImageDraw, ImageFont, features

from render import emoji
from rules.hands import Category

FONT_DIR = Path(__file__).with_name("fonts")
_FILES = {"bold": "DejaVuSans-Bold.ttf", "narrow": "DejaVuSansCondensed-Bold.ttf"}
ARABIC_FILE = "Vazirmatn-Bold.ttf"  # Arabic and Persian, for both faces (it has Latin too)
ARABIC_SCALE = 0.94  # its letters at this part of the size: Arabic reaches lower than Latin,
# and its words then sit in the same line boxes as DejaVu's at that size
WESTERN = "0123456789"
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
    bot.i18n.Translator is one. A Labels may also have `rtl` and `digits` (a Translator has):
    the picture is then written right to left, its numbers in those digits (`script_of`)."""

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
        str(FONT_DIR / _FILES[_base(face)]), size, layout_engine=ImageFont.Layout.BASIC
    )


@lru_cache(maxsize=32)
def arabic_font(size: int) -> Font:
    """The shipped Arabic-script font at `size` px, shaped by raqm (only asked for when
    `shaping()`)."""
    return ImageFont.truetype(str(FONT_DIR / ARABIC_FILE), round(size * ARABIC_SCALE),
                              layout_engine=ImageFont.Layout.RAQM)


def shaping() -> bool:
    """Pillow can shape text (its raqm layout, with FriBiDi): Arabic letters joined, runs in
    bidi order. Without it a line of Arabic script is drawn unjoined, left to right."""
    return bool(features.check("raqm"))


def font_for(s: str, size: int, face: str = "bold") -> Font:
    """The font a short label `s` is drawn with by ImageDraw itself (a sprite's letter):
    the Arabic-script font for Arabic script when it can be shaped, else the shipped face."""
    if shaping() and any(_arabic(ch) for ch in s):
        return arabic_font(size)
    return font(size, face)


# --- the script of a picture: direction and digits ------------------------------------------


@dataclass(frozen=True, slots=True)
class Script:
    """How a picture's lines are written: right to left or not, and the ten digits its
    numbers are drawn with (Persian pictures: ۰-۹)."""

    rtl: bool = False
    digits: str = WESTERN


LTR = Script()
_SCRIPT: ContextVar[Script] = ContextVar("render_script", default=LTR)


def script_of(labels: object) -> Script:
    """The script a picture's `labels` ask for: their `rtl` (the language is written right to
    left) and `digits` (its ten digits), both optional (bot.i18n.Translator has them; a Labels
    without them is left to right with Western digits). Right to left needs `shaping()`: without
    it the picture is drawn left to right (the bot gives such a language English words then)."""
    if not shaping():  # neither direction nor digits: a line is drawn as it is
        return LTR
    rtl = getattr(labels, "rtl", False) is True
    digits = getattr(labels, "digits", WESTERN)
    if not (isinstance(digits, str) and len(digits) == 10 and all(d.isdigit() for d in digits)):
        digits = WESTERN
    return Script(rtl, digits) if rtl or digits != WESTERN else LTR


@contextmanager
def writing(labels: object) -> Iterator[Script]:
    """Every text drawn or measured inside is written in the script of `labels` (see
    `script_of`): each picture composes inside one."""
    token = _SCRIPT.set(script_of(labels))
    try:
        yield _SCRIPT.get()
    finally:
        _SCRIPT.reset(token)


def rtl() -> bool:
    """The picture being composed is written right to left (its layout is mirrored)."""
    return _SCRIPT.get().rtl


def _face(face: str) -> str:
    """`face` with the current script in it: the key every cached measure and mask is kept
    under ("bold", or "bold|rtl|۰۱۲۳۴۵۶۷۸۹")."""
    s = _SCRIPT.get()
    if s is LTR or "|" in face:
        return face
    return f"{face}|{'rtl' if s.rtl else 'ltr'}|{s.digits}"


def _base(face: str) -> str:
    return face.split("|", 1)[0]


def _script(face: str) -> Script:
    parts = face.split("|")
    return Script(parts[1] == "rtl", parts[2]) if len(parts) == 3 else LTR


_ARABIC = ((0x0600, 0x06FF), (0x0750, 0x077F), (0x08A0, 0x08FF), (0xFB50, 0xFDFF),
           (0xFE70, 0xFEFF))
_SUITS = frozenset("♠♥♦♣♤♡♢♧")
_JOINERS = frozenset("\u200c\u200d")  # ZWNJ, ZWJ: how Persian writes a word's parts


def _arabic(ch: str) -> bool:
    o = ord(ch)
    return any(lo <= o <= hi for lo, hi in _ARABIC)


def _letters(word: str) -> bool:
    """A word with a letter of a left-to-right script in it ("R2D2") or a card ("10♠"): its
    digits are its own, kept Western."""
    return any(ch in _SUITS or (ch.isalpha() and not _arabic(ch)) for ch in word)


def shape_digits(s: str, digits: str) -> str:
    """`s` with its numbers in `digits` (the language's ten): every Western digit but those of a
    word with Latin (or Cyrillic...) letters in it or of a card, which keep theirs."""
    if digits == WESTERN or not any(ch.isdigit() for ch in s):
        return s
    table = str.maketrans(WESTERN, digits)
    return " ".join(w if _letters(w) else w.translate(table) for w in s.split(" "))


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
    if _arabic(ch) or ch in _JOINERS:  # drawn in the Arabic-script font, shaped
        return shaping() and (ch in _JOINERS or _has_arabic_glyph(ch))
    cat = unicodedata.category(ch)
    if cat[0] in "CZ" or cat in ("Mn", "Me"):  # control, format, surrogate, separators, marks
        return False
    try:
        return all(_glyph_key(ch, face) != _notdef(face) for face in _FILES)
    except (UnicodeError, ValueError, OSError):
        return False


@lru_cache(maxsize=1024)
def _has_arabic_glyph(ch: str) -> bool:
    f = arabic_font(24)
    return unicodedata.category(ch)[0] not in "C" and bytes(f.getmask(ch)) != bytes(
        f.getmask("\U0010fffd"))


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
def width(text: str, size: int, face: str = "bold") -> int:
    if emoji.has(text, has_glyph):
        return _mixed_width(text, size, face)
    return _width(text, size, _face(face))


@lru_cache(maxsize=32768)
def _width(text: str, size: int, face: str) -> int:
    script = _script(face)
    if not _complex(text, script):
        return round(font(size, face).getlength(text))
    return round(sum(_run_font(run, size, face).getlength(
        run.text, direction=run.direction if run.arabic else None)
        for run in _runs(text, script)))


def _complex(text: str, script: Script) -> bool:
    """A line that is shaped (when Pillow can): Arabic script in it, digits the language writes
    in its own, or numbers in a right-to-left picture (a line of Latin letters alone, a name,
    is drawn as it is)."""
    return (any(_arabic(ch) for ch in text) or shape_digits(text, script.digits) != text or (
        script.rtl and any(ch.isdigit() for ch in text))) and shaping()  # "9–3–0" reads from
    # the right too


@dataclass(frozen=True, slots=True)
class Run:
    """A piece of a shaped line, in visual order: its text (logical order), its font (the
    Arabic-script one or the face's) and the direction raqm lays it in."""

    text: str
    arabic: bool
    direction: str  # "rtl" or "ltr"


def _strong(ch: str) -> str:
    """"R" (right to left), "L" (left to right), "N" (a digit) or "" (neutral)."""
    if ch.isdigit() or unicodedata.category(ch) == "No":  # "2½" is one number
        return "N"
    bidi = unicodedata.bidirectional(ch)
    if bidi in ("R", "AL"):
        return "R"
    return "L" if bidi == "L" else ""


_SIGNS = frozenset("+-\u2212±")


def _levels(text: str, rtl: bool) -> list[int]:
    """The bidi levels of `text` in a line of that direction, by a small Unicode bidi (one
    level of embedding, no explicit marks): a number (its digits and the sign before them)
    after left-to-right letters goes with them, else it is a left-to-right island that counts
    as right to left for the neutrals around it; a neutral takes the direction of the strong
    characters on both sides, else the line's."""
    kinds = [_strong(ch) for ch in text]
    for i, ch in enumerate(text):  # a sign before a number belongs to it: "−13", "+۲۰"
        if ch in _SIGNS and i + 1 < len(text) and text[i + 1].isdigit():
            kinds[i] = "N"
    for i, ch in enumerate(text):  # and a terminator next to it: "75%", "#3"
        if not kinds[i] and unicodedata.bidirectional(ch) == "ET":
            j = i
            while j < len(text) and not kinds[j] and unicodedata.bidirectional(text[j]) == "ET":
                j += 1
            b = i
            while b > 0 and not kinds[b - 1] and unicodedata.bidirectional(text[b - 1]) == "ET":
                b -= 1
            if (j < len(text) and kinds[j] == "N") or (b > 0 and kinds[b - 1] == "N"):
                kinds[i] = "N"
    eff: list[str] = []  # what each character counts as for the neutrals: "R", "L" or ""
    last = "R" if rtl else "L"  # the last strong letter before (the line's edge first)
    for k in kinds:
        if k in ("R", "L"):
            last = k
        eff.append(last if k == "N" else k)
    levels: list[int] = []
    for i, k in enumerate(kinds):
        d = eff[i]
        if not d:
            edge = "R" if rtl else "L"
            before = next((e for e in reversed(eff[:i]) if e), edge)
            after = next((e for e in eff[i + 1:] if e), edge)
            d = before if before == after else edge
        if k == "N" and d == "R":
            levels.append(2)  # a number among right-to-left words, written left to right
        else:
            levels.append(1 if d == "R" else 2 if rtl else 0)
    return levels


@lru_cache(maxsize=4096)
def _runs(text: str, script: Script) -> tuple[Run, ...]:
    """`text` (its digits shaped) cut into runs in visual order (`_levels`, reordered as the
    Unicode bidi does), each cut again where the font changes: Arabic script (and the spaces
    and signs after it) in the Arabic-script font, the rest in the face's."""
    text = shape_digits(text, script.digits)
    kinds = {_strong(ch) for ch in text}
    # a right-to-left picture's line is right to left unless it has left-to-right letters and
    # no right-to-left ones (a Latin name alone, an English word a catalog lacks): numbers and
    # signs alone ("9–3–0", "998?") read from the right like the words around them
    levels = _levels(text, script.rtl and ("R" in kinds or "L" not in kinds))
    order = list(range(len(text)))
    for lev in range(max(levels, default=0), 0, -1):  # reverse every span at lev or above
        i = 0
        while i < len(order):
            if levels[order[i]] < lev:
                i += 1
                continue
            j = i
            while j < len(order) and levels[order[j]] >= lev:
                j += 1
            order[i:j] = order[i:j][::-1]
            i = j
    spans: list[tuple[int, int, int]] = []  # (first, last + 1, level), logical, visual order
    for k in order:
        lev = levels[k]
        if spans and spans[-1][2] == lev and (
                k == spans[-1][1] if lev % 2 == 0 else k == spans[-1][0] - 1):
            a, b, _ = spans[-1]
            spans[-1] = (a, k + 1, lev) if lev % 2 == 0 else (k, b, lev)
        else:
            spans.append((k, k + 1, lev))
    out: list[Run] = []
    for a, b, lev in spans:
        direction = "rtl" if lev % 2 else "ltr"
        runs: list[Run] = []
        for ch in text[a:b]:
            arabic = _arabic(ch) or ch in _JOINERS or (
                bool(runs) and runs[-1].arabic and not ch.isalnum()
                and (ch == " " or _has_arabic_glyph(ch)))
            if runs and runs[-1].arabic == arabic:
                runs[-1] = Run(runs[-1].text + ch, arabic, direction)
            else:
                runs.append(Run(ch, arabic, direction))
        if lev % 2:  # raqm lays an Arabic-script run right to left; the face's are laid here
            runs = [r if r.arabic else Run(r.text[::-1].translate(_MIRRORED), False, "ltr")
                    for r in reversed(runs)]
        out += runs
    return tuple(out)


_MIRRORED = str.maketrans("()[]{}<>«»‹›→←▶◀", ")(][}{><»«›‹←→◀▶")  # and arrows: "→50" reads
# "۵۰←", "▶ to act" "نوبت ◀"


def _run_font(run: Run, size: int, face: str) -> Font:
    return arabic_font(size) if run.arabic else font(size, face)


def fit(text: str, size: int, max_width: int, face: str = "bold") -> str:
    """`text` cut with an ellipsis so that it is at most `max_width` px wide (a cut is
    recorded: only a name may be cut, see `name`)."""
    face = _face(face)
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
    face = _face(face)
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
    face = _face(face)
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
    face = _face(face)
    for size in sizes:
        if width(text, size, face) <= max_width:
            return text, size
    return fit(text, sizes[-1], max_width, face), sizes[-1]


def mask(text: str, size: int, face: str = "bold") -> Image.Image:
    """An "L" image of `text` (white on black), tight around the line box of the font; a shaped
    line's has `_pad` px more above and below (Arabic script reaches further than the box)."""
    face = _face(face)
    f = font(size, face)
    ascent, descent = f.getmetrics()
    w = max(1, width(text, size, face))
    script = _script(face)
    if not _complex(text, script):
        im = Image.new("L", (w + 2, ascent + descent))
        ImageDraw.Draw(im).text((1, 0), text, fill=255, font=f)
        return im
    pad = _pad(size)
    im = Image.new("L", (w + 2, ascent + descent + 2 * pad))
    d = ImageDraw.Draw(im)
    x = 1.0
    for run in _runs(text, script):
        rf = _run_font(run, size, face)
        direction = run.direction if run.arabic else None  # DejaVu's basic layout takes none
        d.text((x, pad + ascent), run.text, fill=255, font=rf, anchor="ls", direction=direction)
        x += rf.getlength(run.text, direction=direction)
    return im


def _pad(size: int) -> int:
    return size // 2


@lru_cache(maxsize=2048)
def _ink(text: str, size: int, face: str) -> tuple[int, int, Box | None, Image.Image]:
    """The size of `mask(text)`'s line box, the box in it that has ink (above or below the line
    box for a shaped line that reaches out of it) and the mask cropped to that box (what `draw`
    pastes; only the cropped mask is kept)."""
    m = mask(text, size, face)
    h = line_height(size, face)
    pad = (m.height - h) // 2
    ink = m.getbbox()
    if ink is None:
        return m.width, h, None, m
    return (m.width, h, (ink[0], ink[1] - pad, ink[2], ink[3] - pad), m.crop(ink))


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
    blending, the same pixels), which only a caller that knows what is under it may say.
    On a canvas being `mirrored`, `xy`, the anchor and `cell` are read from the right edge (the
    returned box stays in those mirrored terms, so what the caller lays after it follows)."""
    face = _face(face)
    if max_width is not None:
        text = fit(text, size, max_width, face)
    if not text:
        return (xy[0], xy[1], xy[0], xy[1])
    if emoji.has(text, has_glyph):
        return _draw_mixed(canvas, xy, text, size, fill, anchor, face, cell, bg)
    w, h, ink, inked = _ink(text, size, face)
    x, y, box, cell = _placed(canvas, xy, w, h, anchor, cell)
    if ink is not None and bg is not None:
        canvas.paste(_laid(text, size, face, fill, bg), (x + ink[0], y + ink[1]))
    elif ink is not None:  # only the ink's box is blended: the same pixels, a third less work
        canvas.paste(fill, (x + ink[0], y + ink[1], x + ink[2], y + ink[3]), inked)
    if _RECORDERS and ink is not None:
        drawn = Drawn(id(canvas), canvas.size,
                      (x + ink[0], y + ink[1], x + ink[2], y + ink[3]), text, cell)
        for r in _RECORDERS:
            r.drawn.append(drawn)
    return box


_MIRROR: ContextVar[tuple[int, int] | None] = ContextVar("render_mirror", default=None)


@contextmanager
def mirrored(canvas: Image.Image) -> Iterator[bool]:
    """Inside, a picture written right to left (`rtl()`) is laid out mirrored on `canvas`: its
    code places things from the left as ever, and every text `draw` puts on `canvas` goes to
    the mirrored place, read from the right (the text itself is not mirrored); the picture
    places its own shapes through `flip_x`. Yields whether it mirrors (left to right: not)."""
    token = _MIRROR.set((id(canvas), canvas.width) if rtl() else None)
    try:
        yield rtl()
    finally:
        _MIRROR.reset(token)


def flip_x(x: int, w: int = 0) -> int:
    """Where a thing `w` px wide whose left edge the layout puts at `x` goes on the canvas being
    `mirrored`: its left edge from the right (`x` itself when not mirroring)."""
    m = _MIRROR.get()
    return x if m is None else m[1] - x - w


def flip_box(box: Box) -> Box:
    """A box the layout puts at `box`, where it goes on the canvas being `mirrored`."""
    x = flip_x(box[0], box[2] - box[0])
    return (x, box[1], x + box[2] - box[0], box[3])


def emoji_height(size: int) -> int:
    """How tall an emoji is drawn in text of `size` px: the em, centred on the line box."""
    return size


def _mixed_width(text: str, size: int, face: str) -> int:
    return sum(emoji.width(piece, emoji_height(size)) if is_emoji else width(piece, size, face)
               for piece, is_emoji in emoji.split(text, has_glyph))


def _placed(canvas: Image.Image, xy: tuple[int, int], w: int, h: int, anchor: str,
            cell: Box | None) -> tuple[int, int, Box, Box | None]:
    """Where a `w` x `h` text anchored at `xy` lands: its left and top on the canvas, its box
    in the caller's terms, and its cell; on a canvas being mirrored, the same box counted from
    the right edge."""
    x, y = xy
    x -= w // 2 if anchor == "m" else w if anchor == "r" else 0
    box = (x, y, x + w, y + h)
    m = _MIRROR.get()
    if m is not None and m[0] == id(canvas):
        x = m[1] - x - w
        if cell is not None:
            cell = (m[1] - cell[2], cell[1], m[1] - cell[0], cell[3])
    return x, y, box, cell


def _draw_mixed(canvas: Image.Image, xy: tuple[int, int], text: str, size: int, fill: RGB,
                anchor: str, face: str, cell: Box | None, bg: RGB | None) -> Box:
    """`draw` for a text holding emoji: its text runs as `draw` pastes them, its emoji as
    pictures, recorded as one text (its ink box: all of theirs)."""
    w, h = width(text, size, face), line_height(size, face)
    x, y, box, cell = _placed(canvas, xy, w, h, anchor, cell)
    inks: list[Box] = []
    at = x
    for piece, is_emoji in emoji.split(text, has_glyph):
        if is_emoji:
            pic = emoji.picture(piece, emoji_height(size))
            top = y + (h - pic.height) // 2
            canvas.paste(pic, (at, top), pic)
            bbox = pic.getbbox()
            if bbox is not None:
                inks.append((at + bbox[0], top + bbox[1], at + bbox[2], top + bbox[3]))
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
    return box  # in the layout's terms, as `draw` returns it


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
    face = _face(face)
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
    face = _face(face)
    return [fit(line, size, max_width, face)
            for line in _break(text_, size, max_width, max_lines, face)]


def wrap_shrink(text_: str, sizes: tuple[int, ...], max_width: int, max_lines: int,
                face: str = "bold") -> tuple[list[str], int]:
    """`text_` wrapped at the largest of `sizes` at which it fits whole in `max_lines` lines;
    else wrapped (and its last line cut) at the smallest."""
    face = _face(face)
    for size in sizes:
        lines = _break(text_, size, max_width, max_lines, face)
        if all(width(line, size, face) <= max_width for line in lines):
            return list(lines), size
    return wrap(text_, sizes[-1], max_width, max_lines, face), sizes[-1]
