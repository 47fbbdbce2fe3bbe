"""rules.standing: the tally both the replay and the kept rows add results to, and the keys of
the windows a result counts in (bot.stats.seasons' own)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.stats import seasons
from rules.standing import ALL, DRAW, LOSS, WIN, Tally, keys, month_key, outcome, quarter_key


def test_a_tally_counts_results_net_the_best_hand_the_bonus_and_the_streak() -> None:
    t = Tally()
    t.add(12, 1, 300, WIN)
    t.add(5, 7, None, WIN)
    assert (t.played, t.wins, t.net, t.best, t.top_bonus, t.streak) == (2, 2, 17, 300, 7, 2)
    t.add(-9, 0, 200, LOSS)
    assert (t.losses, t.best, t.streak) == (1, 300, -1)
    t.add(-1, 0, 400, LOSS)
    assert (t.best, t.streak) == (400, -2)
    t.add(0, 0, None, DRAW)
    assert (t.played, t.draws, t.streak, t.net) == (5, 1, 0, 7)


def test_the_outcome_is_the_players_own() -> None:
    assert [outcome(1, 1), outcome(1, 2), outcome(None, 1)] == [WIN, LOSS, DRAW]


@given(st.integers(0, 2**33))
def test_the_keys_are_the_seasons_own(timestamp: int) -> None:
    month = seasons.season_of(timestamp, "month")
    quarter = seasons.season_of(timestamp, "quarter")
    assert (month_key(timestamp), quarter_key(timestamp)) == (month.key, quarter.key)
    assert keys(timestamp) == (ALL, month.key, quarter.key)
    assert month.holds(timestamp) and quarter.holds(timestamp)


def test_a_month_and_a_quarter_turn_over_at_midnight_utc() -> None:
    new_year = 1_767_225_600  # 2026-01-01 00:00 UTC
    assert keys(new_year - 1) == (ALL, "2025-12", "2025-Q4")
    assert keys(new_year) == (ALL, "2026-01", "2026-Q1")
