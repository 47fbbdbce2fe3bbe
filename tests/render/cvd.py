"""Colour-vision deficiency for the picture tests: how a picture looks with deuteranopia or
protanopia (Machado, Oliveira and Fernandes 2009, severity 1.0, applied in linear sRGB) and how
far apart two colours are (CIEDE2000, in CIELAB under D65).

    python -m tests.render.cvd OUTDIR    # a table and a result picture, four-colour deck,
                                         # as seen with each: OUTDIR/<picture>-<kind>.png
"""

from __future__ import annotations

import io
import math
import sys
from pathlib import Path

import numpy as np
from PIL import Image

RGB = tuple[int, int, int]

MACHADO = {  # linear RGB -> linear RGB as seen, severity 1.0
    "deuteranopia": np.array([[0.367322, 0.860646, -0.227968],
                              [0.280085, 0.672501, 0.047413],
                              [-0.011820, 0.042940, 0.968881]]),
    "protanopia": np.array([[0.152286, 1.052583, -0.204868],
                            [0.114503, 0.786281, 0.099216],
                            [-0.003882, -0.048116, 1.051998]]),
}
KINDS = tuple(MACHADO)


def _linear(srgb: np.ndarray) -> np.ndarray:
    c = srgb / 255.0
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def _encoded(linear: np.ndarray) -> np.ndarray:
    c = np.clip(linear, 0.0, 1.0)
    return np.where(c <= 0.0031308, c * 12.92, 1.055 * c ** (1 / 2.4) - 0.055) * 255.0


def simulate_array(pixels: np.ndarray, kind: str) -> np.ndarray:
    """`pixels` (..., 3) sRGB 0..255 as seen with `kind` (float, 0..255)."""
    return _encoded(_linear(pixels.astype(np.float64)) @ MACHADO[kind].T)


def simulate(colour: RGB, kind: str) -> RGB:
    r, g, b = simulate_array(np.array(colour, dtype=np.float64), kind)
    return (round(float(r)), round(float(g)), round(float(b)))


def simulate_image(im: Image.Image, kind: str) -> Image.Image:
    out = simulate_array(np.asarray(im.convert("RGB")), kind)
    return Image.fromarray(np.round(out).astype(np.uint8), "RGB")


def lab(colour: RGB) -> tuple[float, float, float]:
    """`colour` (sRGB) in CIELAB, D65."""
    r, g, b = _linear(np.array(colour, dtype=np.float64))
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = f(float(x)), f(float(y)), f(float(z))
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e(c1: RGB, c2: RGB) -> float:
    """CIEDE2000 between two sRGB colours (about 2: just noticeable side by side; small
    symbols on a phone want tens)."""
    return delta_e_lab(lab(c1), lab(c2))


def delta_e_lab(lab1: tuple[float, float, float], lab2: tuple[float, float, float]) -> float:
    """CIEDE2000 between two CIELAB colours (Sharma, Wu and Dalal 2005)."""
    L1, a1, b1 = lab1
    L2, a2, b2 = lab2
    C1, C2 = math.hypot(a1, b1), math.hypot(a2, b2)
    Cm = (C1 + C2) / 2
    G = 0.5 * (1 - math.sqrt(Cm ** 7 / (Cm ** 7 + 25 ** 7)))
    a1p, a2p = a1 * (1 + G), a2 * (1 + G)
    C1p, C2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360
    h2p = math.degrees(math.atan2(b2, a2p)) % 360
    dLp, dCp = L2 - L1, C2p - C1p
    if C1p * C2p == 0:
        dhp = 0.0
    elif abs(h2p - h1p) <= 180:
        dhp = h2p - h1p
    else:
        dhp = h2p - h1p - 360 if h2p > h1p else h2p - h1p + 360
    dHp = 2 * math.sqrt(C1p * C2p) * math.sin(math.radians(dhp / 2))
    Lm, Cmp = (L1 + L2) / 2, (C1p + C2p) / 2
    if C1p * C2p == 0:
        hm = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hm = (h1p + h2p) / 2
    else:
        hm = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    T = (1 - 0.17 * math.cos(math.radians(hm - 30)) + 0.24 * math.cos(math.radians(2 * hm))
         + 0.32 * math.cos(math.radians(3 * hm + 6)) - 0.20 * math.cos(math.radians(4 * hm - 63)))
    dtheta = 30 * math.exp(-(((hm - 275) / 25) ** 2))
    Rc = 2 * math.sqrt(Cmp ** 7 / (Cmp ** 7 + 25 ** 7))
    Sl = 1 + 0.015 * (Lm - 50) ** 2 / math.sqrt(20 + (Lm - 50) ** 2)
    Sc, Sh = 1 + 0.045 * Cmp, 1 + 0.015 * Cmp * T
    Rt = -math.sin(math.radians(2 * dtheta)) * Rc
    return math.sqrt((dLp / Sl) ** 2 + (dCp / Sc) ** 2 + (dHp / Sh) ** 2
                     + Rt * (dCp / Sc) * (dHp / Sh))


def _pictures() -> dict[str, Image.Image]:
    from bot.i18n import translator
    from render.duel import preview as dp

    wanted = {"32_four_colour_table": "table", "32_four_colour_result": "result",
              "32_four_colour_reveal": "reveal"}
    out = {}
    for stem, _, make in dp.shots("png", lambda _lang: translator("en")):
        if stem in wanted and wanted[stem] not in out:
            out[wanted[stem]] = Image.open(io.BytesIO(make())).convert("RGB")
    return out


def main(outdir: str) -> None:
    path = Path(outdir)
    path.mkdir(parents=True, exist_ok=True)
    for name, im in _pictures().items():
        small = im.resize((400, round(im.height * 400 / im.width)), Image.Resampling.LANCZOS)
        small.save(path / f"{name}-normal.png")
        for kind in KINDS:
            simulate_image(small, kind).save(path / f"{name}-{kind}.png")
    print(f"written to {path}")


if __name__ == "__main__":
    main(*sys.argv[1:])
