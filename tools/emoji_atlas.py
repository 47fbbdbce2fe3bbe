"""Build render/fonts/emoji.zip, the colour emoji a picture draws in a name, from Noto Color
Emoji (Debian: fonts-noto-color-emoji; SIL Open Font License 1.1).

    pip install fonttools && python tools/emoji_atlas.py [NotoColorEmoji.ttf]

The font is a 10.5 MB CBDT bitmap font (one 136 x 128 PNG a glyph, drawn by Pillow only at
109 px and only with raqm for its sequences). What the pictures need is each emoji once, at
the size a name is drawn: each glyph scaled to CELL px tall, laid in rows of COLUMNS, each row
a PNG with its own 256 colours (1.5 MB in all, where lossless WebP took 9.5 MB), and an index:
its code points and width, one line a cell in order. render/emoji.py reads the zip; the font
itself is not shipped and fontTools is needed only here, not at run time.

Left out to keep it small: a ZWJ sequence with a skin tone (2460 of the font's 5416, e.g.
👩🏽‍💻), which render/emoji.py draws as the same sequence without its tone (👩‍💻); a single
emoji with a tone (👍🏽) is kept.
"""

from __future__ import annotations

import io
import sys
import zipfile
from pathlib import Path

from fontTools.ttLib import TTFont  # type: ignore[import-untyped]
from PIL import Image

FONT = "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"
OUT = Path(__file__).resolve().parent.parent / "render" / "fonts"
CELL = 40  # px tall: the largest name (40 px type) scaled down, never up, on every picture
COLUMNS = 64
VS16 = 0xFE0F


def sequences(font: TTFont) -> dict[tuple[int, ...], str]:
    """Every emoji the font draws, as its code points (without U+FE0F) -> its glyph: the
    characters of its cmap that are pictures, and its ligatures (keycaps, flags, skin tones,
    ZWJ sequences) of GSUB's first lookup."""
    cmap = font.getBestCmap()
    glyph_of = {v: k for k, v in cmap.items()}
    strike = font["CBDT"].strikeData[0]
    out: dict[tuple[int, ...], str] = {}
    for cp, glyph in cmap.items():
        if glyph in strike and cp > 0x7F and cp not in (0x200D, VS16, 0x20E3) and not (
                0xE0000 <= cp <= 0xE007F):
            out[(cp,)] = glyph
    lookup = font["GSUB"].table.LookupList.Lookup[0]
    for first, ligatures in lookup.SubTable[0].ligatures.items():
        for lig in ligatures:
            names = [first, *lig.Component]
            if lig.LigGlyph in strike and all(n in glyph_of for n in names):
                cps = tuple(glyph_of[n] for n in names if glyph_of[n] != VS16)
                out[cps] = lig.LigGlyph
    return {cps: g for cps, g in sorted(out.items())
            if not (0x200D in cps and any(0x1F3FB <= cp <= 0x1F3FF for cp in cps))}


def main(path: str = FONT) -> None:
    font = TTFont(path)
    strike = font["CBDT"].strikeData[0]
    seqs = sequences(font)
    cells: list[Image.Image] = []
    for glyph in seqs.values():
        g = strike[glyph]
        g.decompile()
        im = Image.open(io.BytesIO(g.imageData)).convert("RGBA")
        cells.append(im.resize((round(im.width * CELL / im.height), CELL),
                               Image.Resampling.LANCZOS))
    cw = max(c.width for c in cells)
    lines = [f"# cell {cw}x{CELL}, {COLUMNS} a row (row-NN.png); code points;width"]
    with zipfile.ZipFile(OUT / "emoji.zip", "w", zipfile.ZIP_STORED) as z:
        for r in range(0, len(cells), COLUMNS):
            row = Image.new("RGBA", (COLUMNS * cw, CELL), (0, 0, 0, 0))
            for i, cell in enumerate(cells[r:r + COLUMNS]):
                row.paste(cell, (i * cw, 0))
            out = io.BytesIO()
            row.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE).save(
                out, "PNG", optimize=True)
            z.writestr(zipfile.ZipInfo(f"row-{r // COLUMNS:02d}.png"), out.getvalue())
        lines += [f"{' '.join(f'{cp:X}' for cp in cps)};{cell.width}"
                  for cps, cell in zip(seqs, cells, strict=True)]
        z.writestr(zipfile.ZipInfo("index.txt"), "\n".join(lines) + "\n")
    print(f"{len(cells)} emoji, {(OUT / 'emoji.zip').stat().st_size} bytes")


if __name__ == "__main__":
    main(*sys.argv[1:])
