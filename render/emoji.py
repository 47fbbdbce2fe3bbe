"""Colour emoji in a name: "Ana 🔥" drawn with its fire, not a ◌.

The emoji come from `fonts/emoji.zip` (made by tools/emoji_atlas.py from Noto Color Emoji,
SIL Open Font License 1.1): each emoji once, 40 px tall, in rows of 64, and an index of their
code points (without U+FE0F, the emoji-style selector) and widths. Pillow cannot draw the font
itself but at 109 px and its sequences only with raqm; these are plain pictures, the same
pixels wherever the bot runs.

`split` cuts a text into runs of text and emoji: an emoji starts at a character the shipped
text fonts cannot draw, or one followed by U+FE0F ("❤️", "1️⃣"), and takes the longest sequence
the index knows (a family "👨‍👩‍👧", a flag, a skin tone "👍🏽"). A ZWJ sequence with a skin tone
is not shipped: it is drawn without its tone. render.text measures and draws the runs.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from PIL import Image

ARCHIVE = Path(__file__).with_name("fonts") / "emoji.zip"
VS16 = "\ufe0f"
TONES = frozenset(chr(c) for c in range(0x1F3FB, 0x1F400))

Runs = tuple[tuple[str, bool], ...]  # (piece, is an emoji)


class _Index:
    """The archive's index: each sequence's cell and width, the cells' size."""

    def __init__(self, text: str) -> None:
        head, *lines = text.splitlines()
        size, _, rest = head.removeprefix("# cell ").partition(",")
        w, h = size.split("x")
        self.cell_w, self.cell_h = int(w), int(h)
        self.columns = int(rest.split()[0])
        self.cells: dict[str, tuple[int, int]] = {}
        for n, line in enumerate(lines):
            cps, width = line.split(";")
            self.cells["".join(chr(int(cp, 16)) for cp in cps.split())] = (n, int(width))
        self.longest = max(len(k) for k in self.cells)


@lru_cache(maxsize=1)
def _index() -> _Index:
    with zipfile.ZipFile(ARCHIVE) as z:
        return _Index(z.read("index.txt").decode())


@lru_cache(maxsize=16)
def _row(n: int) -> Image.Image:
    """Row `n` as stored: 256 colours (a tenth of a megabyte; the emoji drawn are cached)."""
    with zipfile.ZipFile(ARCHIVE) as z:
        im = Image.open(io.BytesIO(z.read(f"row-{n:02d}.png")))
        im.load()
        return im


def key(sequence: str) -> str | None:
    """The index's name for `sequence` (its selectors dropped; a ZWJ sequence's tones too when
    it is not shipped with them), or None: not an emoji the archive has."""
    cells = _index().cells
    bare = sequence.replace(VS16, "")
    if bare in cells:
        return bare
    toneless = "".join(ch for ch in bare if ch not in TONES)
    return toneless if toneless != bare and toneless in cells else None


def _starts(text: str, i: int, drawable: Callable[[str], bool]) -> bool:
    return not drawable(text[i]) or text[i + 1: i + 2] == VS16


@lru_cache(maxsize=4096)
def split(text: str, drawable: Callable[[str], bool]) -> Runs:
    """`text` as runs of plain text and of single emoji sequences (see the module); a text
    with no emoji is one run. `drawable(ch)`: the text fonts draw `ch`."""
    if not text or max(text) < "\u2000":  # every emoji, and U+FE0F, is past U+2000
        return ((text, False),)
    return _split(text, drawable)


def _split(text: str, drawable: Callable[[str], bool]) -> Runs:
    runs: list[tuple[str, bool]] = []
    plain = ""
    i, longest = 0, _index().longest
    while i < len(text):
        found = 0
        if _starts(text, i, drawable):
            for j in range(min(len(text), i + longest + 4), i, -1):
                if key(text[i:j]) is not None:
                    found = j
                    break
        if found:
            while found < len(text) and text[found] == VS16:
                found += 1
            if plain:
                runs.append((plain, False))
                plain = ""
            runs.append((text[i:found], True))
            i = found
        else:
            plain += text[i]
            i += 1
    if plain or not runs:
        runs.append((plain, False))
    return tuple(runs)


def has(text: str, drawable: Callable[[str], bool]) -> bool:
    """Does `text` hold an emoji to draw as a picture?"""
    if not text or max(text) < "\u2000":  # most texts: no look-up at all
        return False
    return any(is_emoji for _, is_emoji in split(text, drawable))


def stops(text: str, drawable: Callable[[str], bool]) -> list[int]:
    """Where `text` may be cut (the lengths of its prefixes): anywhere but inside an emoji."""
    out = [0]
    for piece, is_emoji in split(text, drawable):
        start = out[-1]
        out += [start + len(piece)] if is_emoji else [start + k for k in range(1, len(piece) + 1)]
    return out


def width(sequence: str, height: int) -> int:
    """The width of `sequence` drawn `height` px tall."""
    name = key(sequence)
    assert name is not None, sequence
    index = _index()
    return round(index.cells[name][1] * height / index.cell_h)


@lru_cache(maxsize=512)
def picture(sequence: str, height: int) -> Image.Image:
    """`sequence` as an RGBA picture `height` px tall (its width: `width`)."""
    name = key(sequence)
    assert name is not None, sequence
    index = _index()
    n, w = index.cells[name]
    row, col = divmod(n, index.columns)
    cell = _row(row).crop((col * index.cell_w, 0, col * index.cell_w + w, index.cell_h)
                          ).convert("RGBA")
    return cell.resize((width(sequence, height), height), Image.Resampling.LANCZOS)
