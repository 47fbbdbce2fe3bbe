"""Seasons: months and quarters in UTC, their boundaries, the one before, their names."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.settings.payloads import SEASON_CHOICES
from bot.stats.seasons import KINDS, Season, following, label, previous, season_of
from bot.storage.chats import SEASON_DEFAULT, SEASON_KINDS


def ts(*args: int) -> int:
    return int(datetime(*args, tzinfo=UTC).timestamp())  # type: ignore[misc]


def test_kinds() -> None:
    assert KINDS == ("none", "month", "quarter")


def test_last_second_of_a_month_and_the_first_of_the_next() -> None:
    nov = season_of(ts(2026, 11, 30, 23, 59, 59), "month")
    dec = season_of(ts(2026, 12, 1), "month")
    assert nov == Season("month", 2026, 11) and dec == Season("month", 2026, 12)
    assert nov.end == dec.start == ts(2026, 12, 1)
    assert nov.holds(ts(2026, 12, 1) - 1) and not nov.holds(ts(2026, 12, 1))


def test_new_year() -> None:
    last = ts(2027, 1, 1) - 1
    assert season_of(last, "month") == Season("month", 2026, 12)
    assert season_of(last + 1, "month") == Season("month", 2027, 1)
    assert season_of(last, "quarter") == Season("quarter", 2026, 4)
    assert season_of(last + 1, "quarter") == Season("quarter", 2027, 1)
    assert previous(Season("month", 2027, 1)) == Season("month", 2026, 12)
    assert previous(Season("quarter", 2027, 1)) == Season("quarter", 2026, 4)
    assert following(Season("month", 2026, 12)) == Season("month", 2027, 1)
    assert Season("month", 2026, 12).end == ts(2027, 1, 1)


def test_leap_february() -> None:
    feb = season_of(ts(2028, 2, 29, 23, 59, 59), "month")
    assert feb == Season("month", 2028, 2)
    assert feb.end - feb.start == 29 * 86400
    assert Season("month", 2027, 2).end - Season("month", 2027, 2).start == 28 * 86400
    assert season_of(ts(2028, 3, 1), "month") == Season("month", 2028, 3)


def test_quarters() -> None:
    q1 = season_of(ts(2026, 3, 31, 23, 59, 59), "quarter")
    assert q1 == Season("quarter", 2026, 1)
    assert (q1.start, q1.end) == (ts(2026, 1, 1), ts(2026, 4, 1))
    assert season_of(ts(2026, 4, 1), "quarter") == Season("quarter", 2026, 2)
    assert season_of(ts(2026, 9, 30, 23, 59, 59), "quarter").number == 3
    assert previous(Season("quarter", 2026, 3)) == Season("quarter", 2026, 2)


def test_utc_not_local() -> None:
    # 23:30 UTC on 31 December is already January east of Greenwich; the season is UTC's.
    assert season_of(ts(2026, 12, 31, 23, 30), "month") == Season("month", 2026, 12)


def test_labels() -> None:
    dec = Season("month", 2026, 12)
    assert label(dec, "en") == "December 2026"
    assert label(dec, "ru") == "декабрь 2026"
    assert label(dec, "ru", line_start=True) == "Декабрь 2026"
    assert label(Season("month", 2026, 5), "ru") == "май 2026"
    assert label(Season("quarter", 2026, 4), "en") == "Q4 2026"
    assert label(Season("quarter", 2026, 4), "ru") == "4-й квартал 2026"
    assert dec.key == "2026-12" and Season("quarter", 2026, 4).key == "2026-Q4"


def test_refusals() -> None:
    with pytest.raises(ValueError):
        season_of(0, "none")
    with pytest.raises(ValueError):
        Season("month", 2026, 13)
    with pytest.raises(ValueError):
        Season("quarter", 2026, 5)


def test_the_chat_setting_knows_the_same_kinds() -> None:
    assert SEASON_KINDS == SEASON_CHOICES == KINDS and SEASON_DEFAULT == "month"
