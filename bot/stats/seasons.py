"""Seasons of a chat's standings, pure: calendar months or quarters, in **UTC** (not the
chat's time zone: Telegram does not tell a chat's zone, so every chat's season turns over at
midnight UTC on the 1st).

    season_of(timestamp, kind)  -> the Season ("month" or "quarter") holding that second
    previous(season)            -> the season before it
    label(season, language)     -> "December 2026" / "декабрь 2026"; "Q4 2026" / "4-й квартал 2026"

A chat's setting `season` is one of KINDS: "none" (all time only, no seasons), "month"
(the default) or "quarter". A season runs from `start` (included) to `end` (excluded), Unix
seconds. The names are the catalogs' (`season.month.<1-12>`, `season.quarter`); a month is
written as it sits inside a sentence (Russian: nominative, lower case), and
`label(..., line_start=True)` capitalises one that opens a line.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Literal

from bot.i18n import translator

KINDS = ("none", "month", "quarter")
DEFAULT = "month"

SeasonKind = Literal["month", "quarter"]

@dataclass(frozen=True, slots=True, order=True)
class Season:
    """A month (number 1..12) or a quarter (number 1..4) of a year, in UTC."""

    kind: SeasonKind
    year: int
    number: int

    def __post_init__(self) -> None:
        if self.kind not in ("month", "quarter"):
            raise ValueError(f"a season is a month or a quarter, not {self.kind!r}")
        last = 12 if self.kind == "month" else 4
        if not 1 <= self.number <= last:
            raise ValueError(f"a {self.kind}'s number is 1..{last}")
        if not 1970 <= self.year <= 9999:
            raise ValueError("a season's year is 1970..9999")

    @property
    def first_month(self) -> int:
        return self.number if self.kind == "month" else 3 * self.number - 2

    @property
    def start(self) -> int:
        """Its first second (midnight UTC on the 1st), Unix time."""
        return _epoch(self.year, self.first_month)

    @property
    def end(self) -> int:
        """The first second after it: the next season's start."""
        return following(self).start

    def holds(self, timestamp: int) -> bool:
        return self.start <= timestamp < self.end

    @property
    def key(self) -> str:
        """A stable text id: "2026-12" for a month, "2026-Q4" for a quarter."""
        return (f"{self.year}-{self.number:02d}" if self.kind == "month"
                else f"{self.year}-Q{self.number}")


def _epoch(year: int, month: int) -> int:
    return int(datetime(year, month, 1, tzinfo=UTC).timestamp())


def season_of(timestamp: int, kind: str) -> Season:
    """The season of `kind` ("month" or "quarter") that holds `timestamp` (Unix seconds, UTC).
    ValueError for "none" or anything else: with no seasons there is none to be in."""
    if kind not in ("month", "quarter"):
        raise ValueError(f"no season of kind {kind!r}")
    when = datetime.fromtimestamp(timestamp, UTC)
    if kind == "month":
        return Season("month", when.year, when.month)
    return Season("quarter", when.year, (when.month - 1) // 3 + 1)


def previous(season: Season) -> Season:
    """The season just before `season`, of the same kind (December before January)."""
    if season.number > 1:
        return Season(season.kind, season.year, season.number - 1)
    return Season(season.kind, season.year - 1, 12 if season.kind == "month" else 4)


def following(season: Season) -> Season:
    """The season just after `season`, of the same kind."""
    last = 12 if season.kind == "month" else 4
    if season.number < last:
        return Season(season.kind, season.year, season.number + 1)
    return Season(season.kind, season.year + 1, 1)


def label(season: Season, language: str, *, line_start: bool = False) -> str:
    """The season's name in `language`: "December 2026", "Q4 2026"; «декабрь 2026»,
    «4-й квартал 2026» (as inside a sentence; capitalised with `line_start`)."""
    tr = translator(language)
    text = (tr.text(f"season.month.{season.number}", year=season.year)
            if season.kind == "month" else
            tr.text("season.quarter", number=season.number, year=season.year))
    return text[:1].upper() + text[1:] if line_start else text
