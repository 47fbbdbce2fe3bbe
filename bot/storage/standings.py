"""The standings kept as results are saved (tables standings, rivalries, rating_points:
migration V19), so a board, a card or a season's post reads the rows it shows, never the
chat's past.

    await keep(db, result, stored)          # in insert_result: the result's transaction
    await StandingsRepo(db).board(chat_id, "2026-12", asker=user_id)
    await rebuild_chat(db, chat_id)         # a group moved to a supergroup (chat_move)
    await backfill(db)                      # at open, once after V19: in batches, resumable

A row per chat, window and player: the window is all time ("all") and the result's month and
quarter (rules.standing.keys), all three moved by every result, so a chat that switches its
seasons (month, quarter, none) or season_reset reads exact rows at once. Chat 0 holds each
player's record over every chat (the private /stats). The figures move as the replay
(bot.stats.standings) adds them (rules.standing.Tally); the ratings as bot.stats.standings
replays them: the chat's continuous one (`start`: before the window, `reached`: after its last
duel; all time: the stored rating, bot.storage.ratings, which a supergroup's merge may have
chosen), and the window's own from a newcomer's (`fresh`, season_reset). The replayed rating
after each duel is a rating point (the card's chart; its last is where the next duel starts).

Rows move in the order results are saved, under the chat's lock, which is (finished_at,
duel_id) order, as the replay takes them; chat 0's rows are moved by results of different chats
(different locks) and so are written as increments, never read back and rewritten.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.storage.db import Database, Row
from bot.storage.practice import backfill_practice
from bot.storage.result_record import COLUMNS, DuelResult, result_of
from rules import rating
from rules.rating import Game, Rating
from rules.standing import ALL, Tally, keys, outcome

log = logging.getLogger(__name__)

BACKFILL = "standings_backfill"  # the bot_meta key V19 leaves: its value is the cursor
TOP = 10  # rows of a board
# The card's chart is 380 px wide (render.standings.CHART_W) and drawn with a 4 px line: a
# hundred points are one every ~4 px, as many as it can tell apart; older ones scroll out.
CHART_POINTS = 100
BATCH = 5000  # results a backfill transaction replays (a chat with more: on its own)
USERS = 500  # players a backfill transaction totals over every chat
EVERY_CHAT = 0  # the chat id of a player's rows over every chat
_FIRST = -(2**63)  # below every id

_FIGURES = ("played", "wins", "draws", "losses", "net", "best", "top_bonus", "streak")
_RATINGS = ("start_mu", "start_sigma", "start_duels", "mu", "sigma", "duels", "shown",
            "fresh_mu", "fresh_sigma", "fresh_duels", "fresh_shown")
_LINE = ("chat_id", "season", "user_id", *_FIGURES, *_RATINGS)
_RIVAL = ("chat_id", "user_id", "opponent_id", *_FIGURES)
_POINT = ("chat_id", "user_id", "finished_at", "duel_id", "mu", "sigma", "duels")


@dataclass(slots=True)
class Line:
    """A player's record in one window of a chat, with their ratings."""

    tally: Tally
    start: Rating  # the chat's rating before the window's first duel
    reached: Rating  # after its last (all time: the stored one)
    fresh: Rating  # the window's own, from a newcomer's

    @classmethod
    def from_row(cls, row: Row) -> Line:
        return cls(_tally(row), Rating(row["start_mu"], row["start_sigma"], row["start_duels"]),
                   Rating(row["mu"], row["sigma"], row["duels"]),
                   Rating(row["fresh_mu"], row["fresh_sigma"], row["fresh_duels"]))


def _tally(row: Row) -> Tally:
    return Tally(played=row["played"], wins=row["wins"], losses=row["losses"],
                 draws=row["draws"], net=row["net"], best=row["best"],
                 top_bonus=row["top_bonus"], streak=row["streak"])


def _figures(t: Tally) -> tuple[object, ...]:
    return (t.played, t.wins, t.draws, t.losses, t.net, t.best, t.top_bonus, t.streak)


def _line_row(chat_id: int, season: str, user_id: int, line: Line) -> tuple[object, ...]:
    s, r, f = line.start, line.reached, line.fresh
    return (chat_id, season, user_id, *_figures(line.tally), s.mu, s.sigma, s.duels, r.mu,
            r.sigma, r.duels, rating.shown(r), f.mu, f.sigma, f.duels, rating.shown(f))


def _adds(r: DuelResult) -> Iterable[tuple[int, int, tuple[int, int, int | None, int]]]:
    """(player, opponent, what the result adds to the player's tally) for both players."""
    for me, user_id in enumerate(r.players):
        yield user_id, r.players[1 - me], (r.final_stacks[me] - r.start_stack,
                                           r.bonus_chips[me], r.best_hands[me],
                                           outcome(r.winner_id, user_id))


class Ledger:
    """The rows some results of one or more chats move: given (read) or new, moved in memory
    one result at a time, in order, by the replay's own pure code, then written."""

    def __init__(self) -> None:
        self.lines: dict[tuple[int, str, int], Line] = {}
        self.rivals: dict[tuple[int, int, int], Tally] = {}
        self.track: dict[tuple[int, int], Rating] = {}  # the replayed rating now
        self.points: list[tuple[object, ...]] = []

    def add(self, r: DuelResult) -> None:
        c, (a, b) = r.chat_id, r.players
        before = [self.track.get((c, p)) or rating.initial() for p in r.players]
        winner = Game(c, r.players, r.winner_id).winner()
        after = rating.after_duel(before[0], before[1], winner)
        for key in keys(r.finished_at):
            la, lb = (self.lines.setdefault((c, key, p), Line(Tally(), s, s, rating.initial()))
                      for p, s in zip(r.players, before, strict=True))
            if key != ALL:
                la.fresh, lb.fresh = rating.after_duel(la.fresh, lb.fresh, winner)
            la.reached, lb.reached = after
            for line, (_, _, add) in zip((la, lb), _adds(r), strict=True):
                line.tally.add(*add)
        for user_id, opponent, add in _adds(r):
            self.rivals.setdefault((c, user_id, opponent), Tally()).add(*add)
        self.track[c, a], self.track[c, b] = after
        self.points += [(c, p, r.finished_at, r.duel_id, x.mu, x.sigma, x.duels)
                        for p, x in zip(r.players, after, strict=True)]

    def stored(self, chat_id: int, user_id: int, r: Rating) -> None:
        """All time ranks by the stored rating (bot.storage.ratings): `r` is the player's."""
        line = self.lines.get((chat_id, ALL, user_id))
        if line is not None:
            line.reached = r

    async def write(self, db: Database) -> None:
        await _upsert(db, "standings", _LINE, 3,
                      [_line_row(*k, line) for k, line in sorted(self.lines.items())])
        await _upsert(db, "rivalries", _RIVAL, 3,
                      [(*k, *_figures(t)) for k, t in sorted(self.rivals.items())])
        await _upsert(db, "rating_points", _POINT, 4, self.points)


async def _upsert(db: Database, table: str, columns: Sequence[str], key: int,
                  rows: Sequence[Sequence[object]]) -> None:
    """Rows written (replacing those with the same first `key` columns), several a statement."""
    chunk = max(1, 30000 // len(columns) // 2)  # well within both engines' parameter limits
    one = "(" + ", ".join("?" * len(columns)) + ")"
    sql = (f"INSERT INTO {table} ({', '.join(columns)}) VALUES {{}}"
           f" ON CONFLICT ({', '.join(columns[:key])}) DO UPDATE SET "
           + ", ".join(f"{c} = excluded.{c}" for c in columns[key:]))
    for i in range(0, len(rows), chunk):
        part = rows[i:i + chunk]
        await db.execute(sql.format(", ".join([one] * len(part))),
                         tuple(v for row in part for v in row))


# --- the save of a result --------------------------------------------------------------------

def _in(values: Sequence[object]) -> str:
    return "(" + ", ".join("?" * len(values)) + ")"


async def _ledger_for(db: Database, r: DuelResult) -> Ledger:
    """The chat's rows `r` moves: its players' lines of its windows, their records against
    each other, the last rating point of each."""
    c, players, windows = r.chat_id, list(r.players), keys(r.finished_at)
    ledger = Ledger()
    for row in await db.fetchall(
            f"SELECT * FROM standings WHERE chat_id = ? AND season IN {_in(windows)}"
            f" AND user_id IN {_in(players)}", (c, *windows, *players)):
        ledger.lines[c, row["season"], row["user_id"]] = Line.from_row(row)
    for row in await db.fetchall(
            f"SELECT * FROM rivalries WHERE chat_id = ? AND user_id IN {_in(players)}"
            f" AND opponent_id IN {_in(players)}", (c, *players, *players)):
        ledger.rivals[c, row["user_id"], row["opponent_id"]] = _tally(row)
    last = ("SELECT * FROM (SELECT user_id, mu, sigma, duels FROM rating_points"
            " WHERE chat_id = ? AND user_id = ? ORDER BY finished_at DESC, duel_id DESC"
            " LIMIT 1) AS p{}")
    for row in await db.fetchall(f"{last.format(0)} UNION ALL {last.format(1)}",
                                 (c, players[0], c, players[1])):
        ledger.track[c, row["user_id"]] = Rating(row["mu"], row["sigma"], row["duels"])
    return ledger


# A player's record over every chat, moved by an increment (results of different chats may be
# saved at once: each adds to the row as it is when it commits). As rules.standing.Tally.add.
_EVERY_CHAT_ADD = (
    f"INSERT INTO standings ({', '.join(_LINE)}) VALUES {{}}"
    " ON CONFLICT (chat_id, season, user_id) DO UPDATE SET"
    " played = standings.played + 1, wins = standings.wins + excluded.wins,"
    " draws = standings.draws + excluded.draws, losses = standings.losses + excluded.losses,"
    " net = standings.net + excluded.net,"
    " best = CASE WHEN standings.best IS NULL OR excluded.best > standings.best"
    "   THEN excluded.best ELSE standings.best END,"
    " top_bonus = CASE WHEN excluded.top_bonus > standings.top_bonus"
    "   THEN excluded.top_bonus ELSE standings.top_bonus END,"
    " streak = CASE WHEN excluded.streak = 0 THEN 0"
    "   WHEN excluded.streak > 0 THEN CASE WHEN standings.streak > 0"
    "     THEN standings.streak + 1 ELSE 1 END"
    "   WHEN standings.streak < 0 THEN standings.streak - 1 ELSE -1 END")


def _every_chat_line(tally: Tally) -> Line:
    new = rating.initial()
    return Line(tally, new, new, new)


async def keep(db: Database, r: DuelResult, stored: tuple[Rating, Rating]) -> None:
    """Move the rows by result `r`, just saved (in its transaction, under the chat's lock);
    `stored` are both players' stored ratings after it (bot.storage.ratings.rate)."""
    ledger = await _ledger_for(db, r)
    ledger.add(r)
    for user_id, r_stored in zip(r.players, stored, strict=True):
        ledger.stored(r.chat_id, user_id, r_stored)
    await ledger.write(db)
    rows = []
    for user_id, _, add in sorted(_adds(r)):  # by user id: two saves lock rows in one order
        one = Tally()
        one.add(*add)
        rows.append(_line_row(EVERY_CHAT, ALL, user_id, _every_chat_line(one)))
    await db.execute(_EVERY_CHAT_ADD.format(", ".join([_in(_LINE)] * len(rows))),
                     tuple(v for row in rows for v in row))


# --- rebuilt from the results ----------------------------------------------------------------

async def _replay_chats(db: Database, results: Sequence[DuelResult]) -> None:
    """Write the rows of whole chats from their results (in order, chat by chat), their
    stored ratings for all time."""
    if not results:
        return
    ledger = Ledger()
    for r in results:
        ledger.add(r)
    chats = sorted({r.chat_id for r in results})
    for row in await db.fetchall(
            "SELECT chat_id, user_id, mu, sigma, duels FROM ratings"
            " WHERE chat_id >= ? AND chat_id <= ?", (chats[0], chats[-1])):
        ledger.stored(row["chat_id"], row["user_id"],
                      Rating(row["mu"], row["sigma"], row["duels"]))
    await ledger.write(db)


async def rebuild_chat(db: Database, chat_id: int) -> None:
    """The chat's rows dropped and written again from its results (a supergroup move brings
    another chat's results into it), in the caller's transaction; bounded by its history."""
    for table in ("standings", "rivalries", "rating_points"):
        await db.execute(f"DELETE FROM {table} WHERE chat_id = ?", (chat_id,))
    rows = await db.fetchall(f"SELECT {COLUMNS} FROM results WHERE chat_id = ?"
                             " ORDER BY finished_at, duel_id", (chat_id,))
    await _replay_chats(db, [result_of(row) for row in rows])


async def _chats_after(db: Database, after: int) -> tuple[int, int]:
    """The next chats after id `after`, about BATCH results (a bigger chat alone), written;
    (results replayed, the last chat's id), (0, after) when there are none."""
    sql = f"SELECT {COLUMNS} FROM results WHERE chat_id > ? ORDER BY chat_id, finished_at, duel_id"
    rows = await db.fetchall(f"{sql} LIMIT ?", (after, BATCH))
    if not rows:
        return 0, after
    if len(rows) == BATCH:  # the last chat may go on: it waits for the next batch
        first, last = rows[0]["chat_id"], rows[-1]["chat_id"]
        rows = ([row for row in rows if row["chat_id"] != last] if first != last else
                await db.fetchall(f"SELECT {COLUMNS} FROM results WHERE chat_id = ?"
                                  " ORDER BY finished_at, duel_id", (first,)))
    await _replay_chats(db, [result_of(row) for row in rows])
    return len(rows), rows[-1]["chat_id"]


async def _players_after(db: Database, after: int) -> tuple[int, int]:
    """The next USERS players after id `after` totalled over every chat (chat 0), written;
    (players, the last one's id), (0, after) when there are none."""
    seats = []
    for seat in ("player0_id", "player1_id"):
        found = await db.fetchall(f"SELECT DISTINCT {seat} AS u FROM results WHERE {seat} > ?"
                                  f" ORDER BY {seat} LIMIT ?", (after, USERS))
        seats.append([int(row["u"]) for row in found])
    cut = min([s[-1] for s in seats if len(s) == USERS], default=None)
    users = sorted({u for s in seats for u in s if cut is None or u <= cut})
    if not users:
        return 0, after
    rows = await db.fetchall(
        f"SELECT {COLUMNS} FROM results WHERE player0_id > ? AND player0_id <= ? UNION"
        f" SELECT {COLUMNS} FROM results WHERE player1_id > ? AND player1_id <= ?",
        (after, users[-1], after, users[-1]))
    tallies: dict[int, Tally] = {}
    for r in sorted((result_of(row) for row in rows), key=lambda r: (r.finished_at, r.duel_id)):
        for user_id, _, add in _adds(r):
            if after < user_id <= users[-1]:
                tallies.setdefault(user_id, Tally()).add(*add)
    await _upsert(db, "standings", _LINE, 3, [
        _line_row(EVERY_CHAT, ALL, u, _every_chat_line(t)) for u, t in sorted(tallies.items())])
    return len(users), users[-1]


async def backfill(db: Database) -> int:
    """Once, after migration V19: the rows of the results stored before it, a batch a
    transaction (whole chats, about BATCH results; then USERS players over every chat; then
    the practice duels, bot.storage.practice), the
    cursor in bot_meta moved in the same transaction: a bot stopped halfway goes on from there,
    and workers starting together take turns under the lock, each batch done once. Returns the
    results replayed by this call."""
    replayed = 0
    while True:
        async with db.transaction(lock=BACKFILL):
            row = await db.fetchone("SELECT value FROM bot_meta WHERE key = ?", (BACKFILL,))
            if row is None:
                break
            phase, _, at = str(row["value"]).partition(":")
            cursor = int(at) if at else _FIRST
            value: str | None
            if phase in ("", "chats"):
                n, cursor = await _chats_after(db, cursor)
                replayed += n
                value = f"chats:{cursor}" if n else "players:"
            elif phase == "players":
                n, cursor = await _players_after(db, cursor)
                value = f"players:{cursor}" if n else "practice:"
            else:
                n, cursor = await backfill_practice(db, cursor)
                value = f"practice:{cursor}" if n else None
            if value is None:
                await db.execute("DELETE FROM bot_meta WHERE key = ?", (BACKFILL,))
            else:
                await db.execute("UPDATE bot_meta SET value = ? WHERE key = ?",
                                 (value, BACKFILL))
    if replayed:
        log.info("database %s: standings kept from %d result(s)", db.path, replayed)
    return replayed


# --- reads -----------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Placed:
    """A player's line of a board: their rank (players level share one), their record and
    the rating it is ranked by."""

    rank: int
    user_id: int
    tally: Tally
    rating: Rating


@dataclass(frozen=True, slots=True)
class BoardPage:
    top: tuple[Placed, ...]  # the first TOP, best first
    you: Placed | None  # the asker's, when not among them
    players: int  # in the window
    duels: int  # counted in it


@dataclass(frozen=True, slots=True)
class SeasonLine:
    user_id: int
    line: Line


def _rated(row: Row, fresh: bool) -> Rating:
    return (Rating(row["fresh_mu"], row["fresh_sigma"], row["fresh_duels"]) if fresh
            else Rating(row["mu"], row["sigma"], row["duels"]))


def _order(fresh: bool) -> tuple[str, str]:
    """The board's order (rules.rating.shown, net chips, wins, fewer losses, user id: as
    bot.stats.standings.ranking) on its index, and the condition of a row ahead of a
    given one."""
    shown = "fresh_shown" if fresh else "shown"
    return (f"{shown} DESC, net DESC, wins DESC, losses, user_id",
            f"({shown} > ? OR ({shown} = ? AND (net > ? OR (net = ? AND (wins > ?"
            " OR (wins = ? AND losses < ?))))))")


def _level(row: Row, fresh: bool) -> tuple[int, int, int, int]:
    return (row["fresh_shown" if fresh else "shown"], row["net"], row["wins"], row["losses"])


class StandingsRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def _rank(self, chat_id: int, season: str, row: Row, fresh: bool) -> int:
        s, n, w, lost = _level(row, fresh)
        ahead = await self.db.fetchone(
            f"SELECT COUNT(*) AS n FROM standings WHERE chat_id = ? AND season = ?"
            f" AND {_order(fresh)[1]}", (chat_id, season, s, s, n, n, w, w, lost))
        return 1 + int(ahead["n"]) if ahead else 1

    async def board(self, chat_id: int, season: str, *, fresh: bool = False, asker: int = 0,
                    top: int = TOP) -> BoardPage:
        """The window's first `top` players and the asker's line (`season`: "all" or a
        month's or quarter's key; `fresh`: ranked by the window's own ratings)."""
        rows = await self.db.fetchall(
            f"SELECT * FROM standings WHERE chat_id = ? AND season = ?"
            f" ORDER BY {_order(fresh)[0]} LIMIT ?", (chat_id, season, top))
        placed: list[Placed] = []
        for i, row in enumerate(rows):
            level = i > 0 and _level(rows[i - 1], fresh) == _level(row, fresh)
            placed.append(Placed(placed[-1].rank if level else i + 1, row["user_id"],
                                 _tally(row), _rated(row, fresh)))
        you = None
        if not any(p.user_id == asker for p in placed):
            you = await self.placed(chat_id, season, asker, fresh=fresh)
        count = await self.db.fetchone(
            "SELECT COUNT(*) AS players, SUM(played) AS played FROM standings"
            " WHERE chat_id = ? AND season = ?", (chat_id, season))
        players = int(count["players"]) if count else 0
        played = int(count["played"] or 0) if count else 0
        return BoardPage(tuple(placed), you, players, played // 2)

    async def placed(self, chat_id: int, season: str, user_id: int, *,
                     fresh: bool = False) -> Placed | None:
        """`user_id`'s line in the window, with their rank; None if they played none."""
        row = await self.db.fetchone(
            "SELECT * FROM standings WHERE chat_id = ? AND season = ? AND user_id = ?",
            (chat_id, season, user_id))
        if row is None:
            return None
        return Placed(await self._rank(chat_id, season, row, fresh), user_id, _tally(row),
                      _rated(row, fresh))

    async def players(self, chat_id: int, season: str) -> int:
        """How many players the window has."""
        row = await self.db.fetchone(
            "SELECT COUNT(*) AS n FROM standings WHERE chat_id = ? AND season = ?",
            (chat_id, season))
        return int(row["n"]) if row else 0

    async def any_duel(self, chat_id: int) -> bool:
        """Whether the chat has a finished duel."""
        return await self.db.fetchone(
            "SELECT 1 FROM standings WHERE chat_id = ? AND season = ? LIMIT 1",
            (chat_id, ALL)) is not None

    async def everywhere(self, user_id: int) -> Tally | None:
        """`user_id`'s record over every chat; None before their first duel."""
        row = await self.db.fetchone(
            "SELECT * FROM standings WHERE chat_id = ? AND season = ? AND user_id = ?",
            (EVERY_CHAT, ALL, user_id))
        return _tally(row) if row else None

    async def season(self, chat_id: int, season: str) -> list[SeasonLine]:
        """Every player's line of the window (bounded by its players, not its duels)."""
        rows = await self.db.fetchall(
            "SELECT * FROM standings WHERE chat_id = ? AND season = ? ORDER BY user_id",
            (chat_id, season))
        return [SeasonLine(row["user_id"], Line.from_row(row)) for row in rows]

    async def rivalry(self, chat_id: int, user_id: int, opponent_id: int) -> Tally:
        """`user_id`'s record in the chat's duels between them and `opponent_id`."""
        row = await self.db.fetchone(
            "SELECT * FROM rivalries WHERE chat_id = ? AND user_id = ? AND opponent_id = ?",
            (chat_id, user_id, opponent_id))
        return _tally(row) if row else Tally()

    async def chart(self, chat_id: int, user_id: int,
                    points: int = CHART_POINTS) -> tuple[Rating, ...]:
        """`user_id`'s rating after each of their last `points` duels in the chat, oldest
        first."""
        rows = await self.db.fetchall(
            "SELECT mu, sigma, duels FROM rating_points WHERE chat_id = ? AND user_id = ?"
            " ORDER BY finished_at DESC, duel_id DESC LIMIT ?", (chat_id, user_id, points))
        return tuple(Rating(r["mu"], r["sigma"], r["duels"]) for r in reversed(rows))

