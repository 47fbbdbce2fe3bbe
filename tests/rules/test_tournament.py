"""The round-robin of a group (rules.tournament): the schedule's properties for every field
size, the table's order and tiebreaks, and the issue's acceptance case (5 players, one
walkover), its table worked out by hand."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.tournament import (
    DRAW,
    LOSS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    WIN,
    Pairing,
    Played,
    Result,
    Row,
    TournamentError,
    Walkover,
    is_complete,
    rounds,
    schedule,
    table,
    winners,
)

fields = st.lists(st.integers(min_value=1, max_value=10**12), min_size=MIN_PLAYERS,
                  max_size=MAX_PLAYERS, unique=True)


def pair(p: Pairing) -> frozenset[int]:
    return frozenset((p.a, p.b))


# --- the schedule ---------------------------------------------------------------------------


@given(fields, st.booleans())
def test_every_pair_plays_once_or_twice_and_nobody_twice_in_a_round(
        players: list[int], double: bool) -> None:
    pairings = schedule(players, double)
    times = 2 if double else 1
    n = len(players)
    assert [p.index for p in pairings] == list(range(len(pairings)))
    assert len(pairings) == times * n * (n - 1) // 2
    counts = Counter(pair(p) for p in pairings)
    assert all(len(k) == 2 and k <= set(players) for k in counts)
    assert set(counts.values()) == {times}
    assert len(counts) == n * (n - 1) // 2
    by_round: dict[int, list[int]] = {}
    for p in pairings:
        by_round.setdefault(p.round, []).extend((p.a, p.b))
    assert all(len(seen) == len(set(seen)) for seen in by_round.values())
    assert sorted(by_round) == list(range(rounds(n, double)))
    assert [p.round for p in pairings] == sorted(p.round for p in pairings)  # round by round
    games = Counter(x for p in pairings for x in (p.a, p.b))
    assert set(games.values()) == {times * (n - 1)}


@given(fields, st.booleans())
def test_the_schedule_is_deterministic(players: list[int], double: bool) -> None:
    assert schedule(players, double) == schedule(list(players), double)


@given(fields)
def test_the_double_second_half_is_the_first_with_sides_swapped(players: list[int]) -> None:
    single = schedule(players)
    double = schedule(players, double=True)
    half = rounds(len(players))
    assert double[:len(single)] == single
    second = double[len(single):]
    assert len(second) == len(single)
    for first, again in zip(single, second, strict=True):
        assert (again.a, again.b) == (first.b, first.a)
        assert again.round == first.round + half
        assert again.index == first.index + len(single)


@given(fields, st.booleans())
def test_each_player_is_named_first_in_half_their_games(players: list[int],
                                                        double: bool) -> None:
    """Within one for an even field (each plays an odd number of games), exactly otherwise."""
    pairings = schedule(players, double)
    a, b = Counter(p.a for p in pairings), Counter(p.b for p in pairings)
    even_games = double or len(players) % 2 == 1
    assert all(abs(a[x] - b[x]) == (0 if even_games else 1) for x in players)


def test_rounds() -> None:
    assert [rounds(n) for n in (3, 4, 5, 6, 12)] == [3, 3, 5, 5, 11]
    assert rounds(5, double=True) == 10 and rounds(4, double=True) == 6


@pytest.mark.parametrize("players", [[1, 2], list(range(1, MAX_PLAYERS + 2)), [1, 2, 2]])
def test_a_field_the_rules_refuse(players: list[int]) -> None:
    with pytest.raises(TournamentError):
        schedule(players)
    with pytest.raises(TournamentError):
        table(players, (), {})


def test_pairing_other_and_has() -> None:
    p = Pairing(0, 0, 1, 2)
    assert p.other(1) == 2 and p.other(2) == 1 and p.has(1) and not p.has(3)
    with pytest.raises(ValueError):
        p.other(3)


# --- the table ------------------------------------------------------------------------------


def decide(players: list[int], outcomes: Mapping[frozenset[int], Result]) -> dict[int, Result]:
    """Results by pairing index of the single round-robin of `players`, from results by pair
    (so a test never depends on the schedule's order)."""
    return {p.index: outcomes[pair(p)] for p in schedule(players) if pair(p) in outcomes}


def won(winner: int, loser: int, margin: int, start: int = 50) -> Played:
    return Played(winner, {winner: start + margin, loser: start - margin}, start)


def drew(x: int, y: int, start: int = 50) -> Played:
    return Played(None, {x: start, y: start}, start)


def standings(players: list[int], outcomes: Mapping[frozenset[int], Result]) -> tuple[Row, ...]:
    return table(players, schedule(players), decide(players, outcomes))


A, B, C, D, E = 10, 20, 30, 40, 50


def test_points_order_the_table_and_nothing_decided_is_all_level() -> None:
    players = [A, B, C]
    rows = standings(players, {frozenset((A, B)): won(B, A, 5),
                               frozenset((B, C)): won(B, C, 5),
                               frozenset((A, C)): won(C, A, 5)})
    assert [(r.player, r.place, r.points) for r in rows] == [(B, 1, 4), (C, 2, 2), (A, 3, 0)]
    empty = standings(players, {})
    assert [(r.player, r.place, r.played) for r in empty] == [(A, 1, 0), (B, 1, 0), (C, 1, 0)]


def test_the_mini_table_comes_before_wins_and_net() -> None:
    """A and B are level on 4 points; A has more wins and far more chips, but B beat A."""
    players = [A, B, C, D]
    rows = standings(players, {
        frozenset((A, B)): won(B, A, 1),
        frozenset((A, C)): won(A, C, 40),
        frozenset((A, D)): won(A, D, 40),
        frozenset((B, C)): drew(B, C),
        frozenset((B, D)): drew(B, D),
        frozenset((C, D)): won(D, C, 5),
    })
    # B: W A, D C, D D = 4 (1 win, +1); A: L B, W C, W D = 4 (2 wins, +79);
    # D: L A, D B, W C = 3; C: L A, D B, L D = 1.
    assert [(r.player, r.place, r.points, r.wins, r.net) for r in rows] == [
        (B, 1, 4, 1, 1), (A, 2, 4, 2, 79), (D, 3, 3, 1, -35), (C, 4, 1, 0, -45)]


def test_wins_come_before_net() -> None:
    """A and B level on 3 points and drew each other; A won a game, B drew all three."""
    players = [A, B, C, D]
    rows = standings(players, {
        frozenset((A, B)): drew(A, B),
        frozenset((A, C)): won(A, C, 5),
        frozenset((A, D)): won(D, A, 30),
        frozenset((B, C)): drew(B, C),
        frozenset((B, D)): drew(B, D),
        frozenset((C, D)): won(D, C, 1),
    })
    # D: W A, D B, W C = 5; A: D B, W C, L D = 3 (1 win, -25); B: 3 draws = 3 (0 wins, 0);
    # C: L A, D B, L D = 1.
    assert [(r.player, r.place, r.points, r.wins, r.draws, r.losses, r.net) for r in rows] == [
        (D, 1, 5, 2, 1, 0, 31), (A, 2, 3, 1, 1, 1, -25), (B, 3, 3, 0, 3, 0, 0),
        (C, 4, 1, 0, 1, 2, -6)]


def test_net_then_seat_order_and_a_shared_place() -> None:
    """A cycle, each won once: net decides; B and C are level on everything and share first
    place, B (the earlier seat) listed first."""
    players = [A, B, C]
    rows = standings(players, {frozenset((A, B)): won(A, B, 10),
                               frozenset((B, C)): won(B, C, 20),
                               frozenset((A, C)): won(C, A, 30)})
    # A: +10 - 30 = -20; B: -10 + 20 = +10; C: -20 + 30 = +10.
    assert [(r.player, r.place, r.points, r.net) for r in rows] == [
        (B, 1, 2, 10), (C, 1, 2, 10), (A, 3, 2, -20)]
    assert winners(rows) == (B, C)
    swapped = standings([A, C, B], {frozenset((A, B)): won(A, B, 10),
                                    frozenset((B, C)): won(B, C, 20),
                                    frozenset((A, C)): won(C, A, 30)})
    assert [r.player for r in swapped] == [C, B, A]


def test_a_draw_is_a_half_point_each_and_counts_its_chips() -> None:
    rows = standings([A, B, C], {frozenset((A, B)): Played(None, {A: 53, B: 47}, 50)})
    by = {r.player: r for r in rows}
    assert (by[A].points, by[A].draws, by[A].played, by[A].net) == (DRAW, 1, 1, 3)
    assert (by[B].points, by[B].draws, by[B].played, by[B].net) == (DRAW, 1, 1, -3)
    assert by[C].played == 0 and DRAW == 1 and WIN == 2 and LOSS == 0


def test_walkovers() -> None:
    rows = standings([A, B, C], {frozenset((A, B)): Walkover(None),
                                 frozenset((A, C)): Walkover(C)})
    by = {r.player: r for r in rows}
    assert (by[A].played, by[A].wins, by[A].losses, by[A].points, by[A].net) == (2, 0, 2, 0, 0)
    assert (by[B].played, by[B].wins, by[B].losses, by[B].points, by[B].net) == (1, 0, 1, 0, 0)
    assert (by[C].played, by[C].wins, by[C].losses, by[C].points, by[C].net) == (1, 1, 0, 2, 0)
    # A and B level on every criterion (their walkover gave neither a point): A's seat first
    assert [(r.player, r.place) for r in rows] == [(C, 1), (A, 2), (B, 2)]


def test_is_complete() -> None:
    pairings = schedule([A, B, C])
    results: dict[int, Result] = {p.index: Walkover(p.a) for p in pairings[:-1]}
    assert not is_complete(pairings, results)
    results[pairings[-1].index] = Walkover(None)
    assert is_complete(pairings, results)


# --- the acceptance test ------------------------------------------------------------


def test_a_tournament_of_5_players_with_one_walkover() -> None:
    """Five players, ten pairings, one decided by walkover (E never came, A did). Each duel
    starts at 50 chips. The table below is worked out by hand from these results:

        A-B  A won 70-30    A +20  B -20      B-D  B won 65-35    B +15  D -15
        A-C  A won 60-40    A +10  C -10      B-E  B won 90-10    B +40  E -40
        A-D  D won 80-20    D +30  A -30      C-D  C won 75-25    C +25  D -25
        A-E  walkover to A  (no chips)        C-E  C won 60-40    C +10  E -10
        B-C  drawn 50-50    (no chips)        D-E  D won 55-45    D  +5  E  -5

        A  W B, W C, L D, W E   3-0-1   6 half-points (3)    net 20+10-30+0     =   0
        B  L A, D C, W D, W E   2-1-1   5 (2½)               net -20+0+15+40    = +35
        C  L A, D B, W D, W E   2-1-1   5 (2½)               net -10+0+25+10    = +25
        D  W A, L B, L C, W E   2-0-2   4 (2)                net 30-15-25+5     =  -5
        E  L A, L B, L C, L D   0-0-4   0                    net 0-40-10-5      = -55

    B and C are level on points; their game was a draw (mini-table 1-1), they have 2 wins
    each, so net chips decide: B +35 above C +25. Everyone plays 4, the points sum to 20 (two
    per pairing) and the nets to 0.
    """
    players = [A, B, C, D, E]
    pairings = schedule(players)
    assert len(pairings) == 10 and rounds(5) == 5
    by_pair: dict[frozenset[int], Result] = {
        frozenset((A, B)): Played(A, {A: 70, B: 30}, 50),
        frozenset((A, C)): Played(A, {A: 60, C: 40}, 50),
        frozenset((A, D)): Played(D, {A: 20, D: 80}, 50),
        frozenset((A, E)): Walkover(present=A),
        frozenset((B, C)): Played(None, {B: 50, C: 50}, 50),
        frozenset((B, D)): Played(B, {B: 65, D: 35}, 50),
        frozenset((B, E)): Played(B, {B: 90, E: 10}, 50),
        frozenset((C, D)): Played(C, {C: 75, D: 25}, 50),
        frozenset((C, E)): Played(C, {C: 60, E: 40}, 50),
        frozenset((D, E)): Played(D, {D: 55, E: 45}, 50),
    }
    results = {p.index: by_pair[pair(p)] for p in pairings}
    assert len(results) == 10 and is_complete(pairings, results)
    assert not is_complete(pairings, {i: r for i, r in results.items() if i != 0})

    rows = table(players, pairings, results)
    assert rows == (
        Row(place=1, player=A, played=4, wins=3, draws=0, losses=1, points=6, net=0),
        Row(place=2, player=B, played=4, wins=2, draws=1, losses=1, points=5, net=35),
        Row(place=3, player=C, played=4, wins=2, draws=1, losses=1, points=5, net=25),
        Row(place=4, player=D, played=4, wins=2, draws=0, losses=2, points=4, net=-5),
        Row(place=5, player=E, played=4, wins=0, draws=0, losses=4, points=0, net=-55),
    )
    assert sum(r.points for r in rows) == 2 * len(pairings)
    assert sum(r.net for r in rows) == 0
    assert winners(rows) == (A,)

    # Before the walkover: A, a game short, has 4 like D, who beat A (their mini-table).
    partial = table(players, pairings,
                    {i: r for i, r in results.items() if not isinstance(r, Walkover)})
    assert [(r.place, r.player, r.played, r.points) for r in partial] == [
        (1, B, 4, 5), (2, C, 4, 5), (3, D, 4, 4), (4, A, 3, 4), (5, E, 3, 0)]


def test_still_to_play_and_the_current_round() -> None:
    from rules.tournament import current_round, still_to_play

    pairings = schedule([1, 2, 3, 4])
    assert current_round(pairings, {}) == 0
    assert [p.index for p in still_to_play(pairings, {})] == sorted(
        (p.index for p in pairings), key=lambda i: (pairings[i].round, i))
    round0 = [p for p in pairings if p.round == 0]
    done: dict[int, Result] = {p.index: Walkover(None) for p in round0}
    assert current_round(pairings, done) == 1
    assert all(p.round >= 1 for p in still_to_play(pairings, done))
    everything: dict[int, Result] = {p.index: Walkover(None) for p in pairings}
    assert still_to_play(pairings, everything) == ()
    assert current_round(pairings, everything) == max(p.round for p in pairings)
    assert current_round((), {}) == 0
