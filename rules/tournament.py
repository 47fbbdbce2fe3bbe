"""A round-robin tournament of a group, pure: who plays whom, and the table.

    schedule(players, double=False)  -> the pairings, round by round (circle method)
    table(players, pairings, results) -> the standings, best first
    is_complete(pairings, results)    -> every pairing decided
    still_to_play(pairings, results)  -> the undecided pairings, in the order to play them
    current_round(pairings, results)  -> the earliest round with a pairing still to decide
    winners(rows)                     -> who tops the finished table

Players are opaque ints (Telegram user ids for the bot). A pairing is decided by a played duel
(`Played`: who won, the chips each ended with) or by a walkover (`Walkover`: who showed up,
maybe nobody) when a pair never plays before its round's deadline.

Points are counted in halves so they stay ints: a win is 2 (shown "1"), a draw 1 ("½"), a
loss or a forfeit 0; a walkover win is a win with no chips. The table's order: points, then
the points of the games between the players level on points (their mini-table), then wins,
then net chips, then the sign-up order (an earlier seat first). Players level on everything
but the seat share a place (`Row.place`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = [
    "DRAW", "LOSS", "MAX_PLAYERS", "MIN_PLAYERS", "WIN", "Pairing", "Played", "Result", "Row",
    "TournamentError", "Walkover", "current_round", "is_complete", "rounds", "schedule",
    "still_to_play", "table", "winners",
]

MIN_PLAYERS = 3
MAX_PLAYERS = 12
WIN, DRAW, LOSS = 2, 1, 0  # half-points


class TournamentError(ValueError):
    """A field of players the rules do not allow (too few, too many, or someone twice)."""


@dataclass(frozen=True, slots=True)
class Pairing:
    index: int  # the pairing's place in the schedule, 0-based
    round: int  # 0-based; every player plays at most once a round
    a: int
    b: int

    def has(self, player: int) -> bool:
        return player in (self.a, self.b)

    def other(self, player: int) -> int:
        if player == self.a:
            return self.b
        if player == self.b:
            return self.a
        raise ValueError(f"{player} is not in pairing {self.index}")


@dataclass(frozen=True, slots=True)
class Played:
    """A duel the pair played: its winner (None: a draw) and the chips each ended with."""

    winner: int | None
    chips: Mapping[int, int]  # player -> final stack
    start: int  # the stack each began with

    def net(self, player: int) -> int:
        return self.chips[player] - self.start


@dataclass(frozen=True, slots=True)
class Walkover:
    """The pair never played by the deadline: `present` (who asked to play) wins; None: nobody
    asked, both get a loss."""

    present: int | None


Result = Played | Walkover


@dataclass(frozen=True, slots=True)
class Row:
    place: int  # 1 is the top; players level on every criterion share it
    player: int
    played: int  # pairings decided (walkovers included)
    wins: int
    draws: int
    losses: int
    points: int  # half-points: WIN a win, DRAW a draw
    net: int  # chips won minus lost in played duels


def _check(players: Sequence[int]) -> None:
    if len(set(players)) != len(players):
        raise TournamentError("a player is in the field twice")
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise TournamentError(f"a round-robin takes {MIN_PLAYERS} to {MAX_PLAYERS} players")


def rounds(n: int, double: bool = False) -> int:
    """How many rounds `n` players take: n - 1 (n even) or n (odd, one sits out each round),
    twice that for a double round-robin."""
    single = n - 1 if n % 2 == 0 else n
    return 2 * single if double else single


def schedule(players: Sequence[int], double: bool = False) -> tuple[Pairing, ...]:
    """Every pair once (twice, the second time with sides swapped, if `double`), by the circle
    method: in each round every player plays at most once, so a round can be played at the
    same time. Deterministic: the same field in the same order gives the same schedule."""
    _check(players)
    seats: list[int | None] = list(players)
    if len(seats) % 2:
        seats.insert(0, None)  # the bye, in the seat that stays: whoever meets it sits out
    n = len(seats)
    single: list[tuple[int, int, int]] = []
    for r in range(n - 1):
        for k in range(n // 2):
            x, y = seats[k], seats[n - 1 - k]
            if x is not None and y is not None:
                # Sides ("a" is named first): the staying seat's game alternates by round,
                # every other board by its place, which the others move through; so each
                # player is "a" in half their games (one more or less for an even field).
                first = r % 2 == 0 if k == 0 else k % 2 == 1
                single.append((r, x, y) if first else (r, y, x))
        seats = [seats[0], seats[-1], *seats[1:-1]]  # rotate all but the first seat
    out = [Pairing(i, r, a, b) for i, (r, a, b) in enumerate(single)]
    if double:
        half = n - 1
        out += [Pairing(len(single) + i, r + half, b, a) for i, (r, a, b) in enumerate(single)]
    return tuple(out)


def is_complete(pairings: Sequence[Pairing], results: Mapping[int, Result]) -> bool:
    return all(p.index in results for p in pairings)


def still_to_play(pairings: Sequence[Pairing],
                  results: Mapping[int, Result]) -> tuple[Pairing, ...]:
    """The pairings not decided yet, in the order to play them: earliest round first."""
    return tuple(sorted((p for p in pairings if p.index not in results),
                        key=lambda p: (p.round, p.index)))


def current_round(pairings: Sequence[Pairing], results: Mapping[int, Result]) -> int:
    """The earliest round with a pairing still to decide (the last round once all are
    decided; 0 with no pairings)."""
    todo = still_to_play(pairings, results)
    if todo:
        return todo[0].round
    return max((p.round for p in pairings), default=0)


def _score(p: Pairing, result: Result, player: int) -> tuple[int, int, int]:
    """(half-points, net chips, outcome: +1 win, 0 draw, -1 loss) of `player` in `p`."""
    if isinstance(result, Walkover):
        return (WIN, 0, 1) if result.present == player else (LOSS, 0, -1)
    if result.winner is None:
        return DRAW, result.net(player), 0
    if result.winner == player:
        return WIN, result.net(player), 1
    return LOSS, result.net(player), -1


def table(players: Sequence[int], pairings: Sequence[Pairing],
          results: Mapping[int, Result]) -> tuple[Row, ...]:
    """The standings after `results` (pairing index -> result), best first."""
    _check(players)
    seat = {p: i for i, p in enumerate(players)}
    tally = {p: [0, 0, 0, 0, 0, 0] for p in players}  # played, wins, draws, losses, pts, net
    for pairing in pairings:
        result = results.get(pairing.index)
        if result is None:
            continue
        for player in (pairing.a, pairing.b):
            pts, net, outcome = _score(pairing, result, player)
            t = tally[player]
            t[0] += 1
            t[1 + (1 - outcome)] += 1  # wins, draws, losses
            t[4] += pts
            t[5] += net

    def mini(player: int) -> int:
        """Points in the games among the players level with `player` on points."""
        level = {q for q in players if tally[q][4] == tally[player][4]}
        total = 0
        for pairing in pairings:
            result = results.get(pairing.index)
            if result is not None and pairing.has(player) and pairing.other(player) in level:
                total += _score(pairing, result, player)[0]
        return total

    def key(player: int) -> tuple[int, int, int, int]:
        t = tally[player]
        return -t[4], -mini(player), -t[1], -t[5]

    order = sorted(players, key=lambda p: (key(p), seat[p]))
    rows: list[Row] = []
    for i, player in enumerate(order):
        place = rows[-1].place if rows and key(order[i - 1]) == key(player) else i + 1
        t = tally[player]
        rows.append(Row(place, player, t[0], t[1], t[2], t[3], t[4], t[5]))
    return tuple(rows)


def winners(rows: Sequence[Row]) -> tuple[int, ...]:
    """The players in first place (more than one only if level on every criterion)."""
    return tuple(r.player for r in rows if r.place == 1)
