"""The sync job's retries: a lag is tried at once, then after 20 s, 40 s, 80 s ... at most an
hour apart; a new version of the record is tried at once; a key that stops lagging is
forgotten (so if it lags again later, it is tried at once)."""

from __future__ import annotations

from itertools import pairwise

from bot.common.sync import SYNC_EVERY, SYNC_MOST, Retries


def _tries(retries: Retries, key: tuple[int, int], until: float, step: float = 1.0) -> list[float]:
    times, now = [], 0.0
    while now <= until:
        if retries.due([key], lambda k: k, now):
            times.append(now)
        now += step
    return times


def test_a_lag_that_persists_is_tried_less_and_less_often() -> None:
    times = _tries(Retries(SYNC_EVERY, SYNC_MOST), (7, 3), 4 * 3600, step=SYNC_EVERY)
    gaps = [b - a for a, b in pairwise(times)]
    assert times[0] == 0.0
    assert gaps[:5] == [20.0, 40.0, 80.0, 160.0, 320.0]
    assert max(gaps) == SYNC_MOST and gaps[-1] == SYNC_MOST
    assert len(times) < 20  # three a minute would be 720 in four hours


def test_a_new_version_is_tried_at_once_and_a_cured_lag_is_forgotten() -> None:
    retries = Retries(20.0, 3600.0)
    assert retries.due([(1, 5), (2, 9)], lambda k: k, 0.0) == [(1, 5), (2, 9)]
    assert retries.due([(1, 5), (2, 9)], lambda k: k, 10.0) == []
    assert retries.due([(1, 6), (2, 9)], lambda k: k, 11.0) == [(1, 6)]  # saved again
    assert retries.due([(1, 6)], lambda k: k, 12.0) == []  # record 2 no longer lags
    assert retries.waiting() == 1
    assert retries.due([(1, 6), (2, 9)], lambda k: k, 13.0) == [(2, 9)]  # lags anew: at once
