"""Write every picture the bot draws, so anyone can look at them:

    python -m render.preview OUTDIR [--fmt jpeg|png]

The duel's phases (render/duel/preview.py), six-card poker's moments
(render/sixcard/preview.py) and the standings: a chat's table with the asker's row below the
top, and player cards alone, with a rating chart and a head to head, with one yet to play,
and the asker's own; a round-robin tournament's table: 3 players under way, 12 with long,
Cyrillic and emoji names, a double round-robin, 5 finished with walkovers. In the words of
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
from render.tournament import Cell, Fixture, Standing, TournamentTable, tournament_table
from rules import tournament as rr
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


def tournament(names: tuple[str, ...], decided: int, *, double: bool = False,
               walkovers: dict[int, bool] | None = None, live: frozenset[int] = frozenset(),
               title: str = "Friends ♠") -> TournamentTable:
    """A tournament of `names` with its first `decided` pairings played (made-up results, the
    same every time) but `walkovers` (pairing index -> whether its first player showed up:
    else nobody did), `live` pairings under
    way, filled the way the bot fills it from rules.tournament."""
    players = list(range(len(names)))
    pairings = rr.schedule(players, double)
    results: dict[int, rr.Result] = {}
    for p in pairings[:decided]:
        if walkovers and p.index in walkovers:
            results[p.index] = rr.Walkover(p.a if walkovers[p.index] else None)
            continue
        h, x = (p.a * 3 + p.b * 5 + p.index) % 5, 10 + p.index * 7 % 40
        winner = p.a if h < 2 else None if h == 2 else p.b
        loser = p.b if winner == p.a else p.a
        chips = {p.a: 103, p.b: 97} if winner is None else {winner: 100 + x, loser: 100 - x}
        results[p.index] = rr.Played(winner, chips, 100)
    rows = rr.table(players, pairings, results)
    order = [r.player for r in rows]

    def mark(p: rr.Pairing, me: int) -> str:
        r = results[p.index]
        if isinstance(r, rr.Walkover):
            return "+" if r.present == me else "−"
        return "½" if r.winner is None else "1" if r.winner == me else "0"

    def cell(x: int, y: int) -> Cell:
        games = [p for p in pairings if p.has(x) and p.has(y)] if x != y else []
        return Cell(" ".join(mark(p, x) for p in games if p.index in results),
                    any(p.index in live for p in games))

    todo = [p for p in pairings if p.index not in results]
    finished = not todo
    return TournamentTable(
        title, tuple(Standing(r.place, names[r.player], r.played, r.wins, r.draws, r.losses,
                              r.points, r.net) for r in rows),
        tuple(tuple(cell(x, y) for y in order) for x in order),
        tuple(Fixture(names[p.a], names[p.b], p.round, p.index in live) for p in todo[:6]),
        todo[0].round if todo else rr.rounds(len(names), double) - 1,
        rr.rounds(len(names), double), len(results), len(pairings), finished,
        tuple(names[p] for p in rr.winners(rows)) if finished else (), double)


TOURNAMENTS = (
    ("tt_three", "a 3-player round-robin under way, its next duel being played",
     tournament(("Alice", "Bob", "Carol"), 1, live=frozenset({1}))),
    ("tt_twelve", "12 players under way: long, Cyrillic and emoji names, a walkover, two live",
     tournament(("Александра Константиновна Преображенская", "Bob", "Дмитрий", "Dave 🦔",
                 "Екатерина", "Maximilian von Habsburg-Lothringen", "Ольга", "Pat", "Sam",
                 "Тимофей", "Zoë", "Юлия"), 31, walkovers={4: True}, live=frozenset({31, 33}),
                title="Покерный клуб «Шесть пуль» 🎲 и друзья из соседнего чата")),
    ("tt_double", "a double round-robin of 4, two marks a cell",
     tournament(("Alice", "Борис", "Carol", "Дмитрий"), 8, double=True, live=frozenset({8}))),
    ("tt_final", "5 players finished, one walkover won and one nobody came to",
     tournament(("Alice", "Борис", "Carol", "Dave", "Екатерина"), 10,
                walkovers={3: True, 7: False}, title="")),
)


def tournament_shots(fmt: str, labels_for: LabelsFor) -> list[Shot]:
    def shot(t: TournamentTable, labels: Labels) -> Callable[[], bytes]:
        return lambda: tournament_table(t, labels=labels, fmt=fmt)

    return [(f"{stem}_{lang}", f"{what} ({lang})", shot(t, labels_for(lang)))
            for lang in ("en", "ru") for stem, what, t in TOURNAMENTS]


def every_shot(fmt: str, labels_for: LabelsFor) -> list[Shot]:
    """Every picture of the preview, in `fmt`, with the words of `labels_for(lang)`."""
    return [*duel.shots(fmt, labels_for), *sixcard.shots(fmt, labels_for),
            *standings_shots(fmt, labels_for), *tournament_shots(fmt, labels_for)]


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
