"""Write every picture the bot draws, so anyone can look at them:

    python -m render.preview OUTDIR [--fmt jpeg|png]

The duel's phases (render/duel/preview.py), six-card poker's moments
(render/sixcard/preview.py) and the standings: a chat's table with the asker's row below the
top, and player cards alone, with a rating chart and a head to head, with one yet to play,
and the asker's own. In the words of
the bot's catalogs (bot.i18n, asked for by the command line only: importing this module loads
nothing of bot/).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from render.duel import preview as duel
from render.sixcard import preview as sixcard
from render.standings import Board, Figures, PlayerCard, Row, leaderboard, player_card
from render.text import Labels
from rules.hands import Category

Shot = tuple[str, str, Callable[[], bytes]]  # file stem, what it shows, the picture
LabelsFor = Callable[[str], Labels]  # a language's words (bot.i18n.translator)

GOOD = Figures(played=12, wins=9, losses=3, draws=0, net=57, best=Category.FULL_HOUSE,
               top_bonus=7, streak=3)
BAD = Figures(played=7, wins=2, losses=4, draws=1, net=-13, best=Category.STRAIGHT_FLUSH,
              top_bonus=50, streak=-2)
EVEN = Figures(played=3, wins=1, losses=1, draws=1, net=0, streak=0)
BOARD = Board("Friends ♠", tuple(
    Row(i + 1, name, f, i == 2, rating, rating < 1000)
    for i, (name, f, rating) in enumerate((
        ("Алиса", GOOD, 1182), ("Bob", BAD, 1024), ("Carol", EVEN, 998), ("Dave 🦔", BAD, 963),
        ("Александра Константиновна Преображенская", GOOD, 941)))),
    Row(42, "Me", EVEN, True, 880, True), 99)
HISTORY = (1069, 1104, 1071, 1118, 1139, 1120, 1152, 1166, 1149, 1171, 1182, 1182)
CARDS = (
    ("st_card_alone", "a player's card across all chats", PlayerCard("Bob", BAD)),
    ("st_card_versus", "a player's card in a chat, its rating chart, the asker's head to head",
     PlayerCard("Алиса", GOOD, "Friends", 2, 5, EVEN, "1182", HISTORY)),
    ("st_card_no_duels_yet", "a head to head with no duel between them yet, a short chart",
     PlayerCard("Carol", EVEN, "Friends", 3, 5, Figures(), "998?", (963, 1001, 998))),
    ("st_card_own", "the asker's own card in a chat: the chart, no head to head",
     PlayerCard("Dave 🦔", BAD, "Friends", 4, 5, None, "963?", (963,))),
)


def standings_shots(fmt: str, labels_for: LabelsFor) -> list[Shot]:
    def board(labels: Labels) -> Callable[[], bytes]:
        return lambda: leaderboard(BOARD, labels=labels, fmt=fmt)

    def card(c: PlayerCard, labels: Labels) -> Callable[[], bytes]:
        return lambda: player_card(c, labels=labels, fmt=fmt)

    out: list[Shot] = []
    for lang in ("en", "ru"):
        labels = labels_for(lang)
        out.append((f"st_board_{lang}", f"a chat's standings, the asker below the top ({lang})",
                    board(labels)))
        out += [(f"{stem}_{lang}", f"{what} ({lang})", card(c, labels)) for stem, what, c in CARDS]
    return out


def every_shot(fmt: str, labels_for: LabelsFor) -> list[Shot]:
    """Every picture of the preview, in `fmt`, with the words of `labels_for(lang)`."""
    return [*duel.shots(fmt, labels_for), *sixcard.shots(fmt, labels_for),
            *standings_shots(fmt, labels_for)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m render.preview", description=__doc__)
    ap.add_argument("outdir", type=Path)
    ap.add_argument("--fmt", default="png", choices=("png", "jpeg"))
    args = ap.parse_args(argv)
    args.outdir.mkdir(parents=True, exist_ok=True)
    ext = "jpg" if args.fmt == "jpeg" else "png"
    from bot.i18n import translator  # the bot's catalogs: the words the pictures are shown with

    for stem, what, make in every_shot(args.fmt, translator):
        data = make()
        path = args.outdir / f"{stem}.{ext}"
        path.write_bytes(data)
        print(f"{path}  {len(data) // 1024:4d} KB  {what}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
