"""The result of a duel: the winner (or a draw), the final stacks, and a small chart of both
stacks after every bullet, rounds marked."""

from __future__ import annotations

from PIL import Image, ImageDraw

from render import canvas as C
from render import palette as P
from render import sprites, text
from render.duel import frame
from render.duel import layout as L
from render.encode import encode
from render.text import Labels
from rules.duel.view import PublicView

SS = 2  # the chart's lines are drawn at twice the size and scaled down (smooth edges)
GRID: tuple[int, int, int] = (40, 118, 82)


def _nice_step(span: int) -> int:
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if span / step <= 6:
            return step
    return max(1, span // 6)


def chart(im: Image.Image, view: PublicView, labels: Labels) -> None:
    """Both stacks at the start and after every bullet, in the players' colours."""
    history = view.stack_history
    x0, y0, x1, y1 = L.CHART
    values = [v for pair in history for v in pair]
    lo, hi = min(values), max(values)
    pad = max(3, (hi - lo) // 8)
    lo, hi = max(0, min(lo, view.start_stack) - pad), max(hi, view.start_stack) + pad
    step = _nice_step(hi - lo)
    lo, hi = lo // step * step, -(-hi // step) * step
    n = max(1, len(history) - 1)

    def px(i: int) -> float:
        return x0 + (x1 - x0) * i / n

    def py(v: int) -> float:
        return y1 - (y1 - y0) * (v - lo) / max(1, hi - lo)

    d = ImageDraw.Draw(im)
    text.draw(im, (C.MARGIN + 20, y0 - 52), labels.text("pic.duel.chart_title"), 22, P.TEXT)
    for v in range(lo, hi + 1, step):
        y = int(py(v))
        d.line((x0, y, x1, y), fill=GRID if v != view.start_stack else P.PANEL_EDGE,
               width=1 if v != view.start_stack else 2)
        text.draw(im, (x0 - 10, y - 11), str(v), 17, P.DIM, anchor="r")
    for i in range(len(history)):
        label = labels.text("pic.duel.start") if i == 0 else str(i)
        text.draw(im, (int(px(i)), y1 + 8), label, 16, P.DIM, anchor="m")
    for r in view.results[1:]:  # a line where a new deal began
        prev = view.results[view.results.index(r) - 1]
        if r.round != prev.round:
            x = int(px(r.number - 1))
            for dash in range(y0, y1, 12):
                d.line((x, dash, x, dash + 6), fill=P.DIM, width=1)
    rounds: dict[int, int] = {}
    for r in view.results:
        rounds.setdefault(r.round, r.number)
    for rnd, first in rounds.items():
        key = (labels.text("pic.duel.round_n", n=rnd) if not view.is_tiebreak_round(rnd)
               else labels.text("pic.duel.tiebreak"))
        text.draw(im, (int(px(first - 1)) + 6, y0 - 24), key, 16, P.DIM)
    layer = Image.new("RGBA", ((x1 - x0 + 40) * SS, (y1 - y0 + 40) * SS), (0, 0, 0, 0))
    ld = ImageDraw.Draw(layer)
    ox, oy = x0 - 20, y0 - 20
    for p in (0, 1):
        pts = [((px(i) - ox) * SS, (py(h[p]) - oy) * SS) for i, h in enumerate(history)]
        if len(pts) > 1:
            ld.line(pts, fill=(*P.PLAYER[p], 255), width=5 * SS, joint="curve")
        for cx, cy in pts:
            ld.ellipse((cx - 6 * SS, cy - 6 * SS, cx + 6 * SS, cy + 6 * SS),
                       fill=(*P.PLAYER[p], 255),
                       outline=(255, 255, 255, 255), width=SS * 2)
    small = layer.reduce(SS)
    im.paste(small, (ox, oy), small)
    ends = sorted((history[-1][p], p) for p in (0, 1))
    ys = [py(v) for v, _ in ends]
    if abs(ys[0] - ys[1]) < 26:  # keep the two end labels apart
        mid = (ys[0] + ys[1]) / 2
        ys = [mid + 13, mid - 13]
    for (v, p), ly in zip(ends, ys, strict=True):
        text.draw(im, (x1 + 18, int(ly) - 13), str(v), 24, P.PLAYER[p])


def compose(view: PublicView, names: tuple[str, str], labels: Labels) -> Image.Image:
    """The end of the duel as an RGB image (see `render.result` for the bytes)."""
    names = frame.names_of(names, labels)
    im = C.canvas(L.RESULT_H)
    frame.panels(im, view, names, labels, dealer=-1, crown=view.winner)
    frame.revolver(im, view, labels, live=False,
                   bullet=view.last_result.number if view.last_result else 0)
    y = L.HEADER_H + 10
    if view.winner is None:
        banner, colour = labels.text("pic.duel.over_draw"), P.TEXT
    else:
        banner = labels.text("pic.duel.over_win", name=frame.short(names[view.winner], 40, 560))
        colour = P.PLAYER[view.winner]
    line, size = text.fit_shrink(banner, (40, 34, 28), C.W - 2 * C.MARGIN - 140)
    w = text.width(line, size)
    badge = sprites.star(48)
    x = (C.W - w - (badge.width + 14 if view.winner is not None else 0)) // 2
    if view.winner is not None:
        im.paste(badge, (x, y + 2), badge)
        x += badge.width + 14
    text.draw(im, (x, y), line, size, colour)
    for p in (0, 1):
        if view.stacks[p] == 0:
            msg = labels.text("pic.duel.out_of_chips", name=frame.short(names[p], 22))
            text.draw(im, (C.W // 2, y + 52), msg, 22, P.MINUS, anchor="m")
    chart(im, view, labels)
    return im


def result(view: PublicView, *, names: tuple[str, str], labels: Labels,
           fmt: str = "jpeg") -> bytes:
    """The end of the duel: winner or draw, final stacks, the stacks over the bullets."""
    return encode(compose(view, names, labels), fmt)
