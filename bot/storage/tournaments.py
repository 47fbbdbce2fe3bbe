"""Round-robin tournaments of a group (migration V11); the rules are `rules.tournament`'s.

A tournament opens in `signup` (one in sign-up or running per chat topic: the unique index
decides a race), goes `running` when `start` writes its schedule as matches, and ends
`finished` or `cancelled`. Its `version` grows with every change of it, its players or its
matches: `start`, `cancel` and `finish` from an older view are refused (the caller reloads).
A match is decided by its duel (`link_duel`, in the duel's creating transaction) or by a
walkover; `MatchRecord.result()` feeds `rules.tournament.table`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from bot.storage.db import Database, Row, UniqueViolation
from rules.tournament import MAX_PLAYERS, Pairing, Played, Result, Walkover

_OPEN = "('signup', 'running')"
_RUNNING = (" AND EXISTS (SELECT 1 FROM tournaments AS t WHERE t.status = 'running'"
            " AND t.id = tournament_matches.tournament_id)")
SIDES = ("a", "b", "none")  # MatchRecord.walkover: who was there ('none': nobody, both lose)


class TournamentStatus(StrEnum):
    SIGNUP = "signup"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True)
class TournamentRecord:
    id: int
    chat_id: int
    thread_id: int | None
    opener_id: int
    status: TournamentStatus
    double: bool  # every pair plays twice, sides swapped the second time
    stack: int  # each duel's starting stack
    round_seconds: int  # each round's time before its unplayed pairings are walkovers
    version: int
    message_id: int | None  # the sign-up message, then the latest table
    shown: int  # decided pairings the latest table shows (-1: none shown yet)
    created_at: int
    started_at: int | None
    finished_at: int | None

    @property
    def is_open(self) -> bool:
        """In sign-up or running (it holds its chat's topic)."""
        return self.status in (TournamentStatus.SIGNUP, TournamentStatus.RUNNING)


@dataclass(frozen=True, slots=True)
class MatchRecord:
    tournament_id: int
    idx: int
    round: int
    player_a: int
    player_b: int
    due_at: int  # a walkover if not played by then
    ready_id: int | None  # the first of the pair who asked to play
    challenge_id: int | None  # the pending challenge between them, if any
    duel_id: int | None
    walkover: str | None  # 'a', 'b' or 'none' (see SIDES)
    winner_id: int | None  # the linked duel's result (None also for a draw)
    stack_a: int | None  # player_a's final stack; None: no result yet
    stack_b: int | None
    start_stack: int | None
    duel_live: bool  # the linked duel is being played

    @property
    def pairing(self) -> Pairing:
        return Pairing(self.idx, self.round, self.player_a, self.player_b)

    def result(self) -> Result | None:
        """The pairing's result for `rules.tournament.table`, or None while undecided."""
        if self.walkover is not None:
            present = {"a": self.player_a, "b": self.player_b}.get(self.walkover)
            return Walkover(present)
        if self.stack_a is None or self.stack_b is None or self.start_stack is None:
            return None
        return Played(self.winner_id, {self.player_a: self.stack_a, self.player_b: self.stack_b},
                      self.start_stack)


def _tournament(row: Row) -> TournamentRecord:
    cols = dict(row)
    return TournamentRecord(**cols | {"status": TournamentStatus(cols["status"]),
                                      "double": bool(cols["double"])})


def _match(row: Row) -> MatchRecord:
    cols = dict(row)
    return MatchRecord(**cols | {"duel_live": bool(cols["duel_live"])})


# A match with its duel's status and result, the stacks in a/b order (not the duel's seats).
_MATCHES = (
    "SELECT m.*, CASE WHEN d.status = 'live' THEN 1 ELSE 0 END AS duel_live, r.winner_id,"
    " r.start_stack,"
    " CASE WHEN r.player0_id = m.player_a THEN r.stack0 ELSE r.stack1 END AS stack_a,"
    " CASE WHEN r.player0_id = m.player_a THEN r.stack1 ELSE r.stack0 END AS stack_b"
    " FROM tournament_matches AS m LEFT JOIN duels AS d ON d.id = m.duel_id"
    " LEFT JOIN results AS r ON r.duel_id = m.duel_id"
)


def _signup(tournament_id: int) -> str:
    """The lock of a tournament's seats: a join counts and numbers them (two at once on two
    workers would take one seat), the start schedules who is seated."""
    return f"tournament:{tournament_id:d}"


class TournamentRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def _touch(self, sql: str, *params: object, lock: str | None = None) -> bool:
        """One statement on a tournament's players or matches, growing its version if it
        changed a row (under `lock`, if given)."""
        async with self.db.transaction(lock):
            rows = await self.db.fetchall(f"{sql} RETURNING tournament_id", params)
            if rows:
                await self.db.execute("UPDATE tournaments SET version = version + 1"
                                      " WHERE id = ?", (rows[0]["tournament_id"],))
        return bool(rows)

    async def open(self, chat_id: int, thread_id: int | None, opener_id: int, stack: int,
                   double: bool, round_seconds: int, now: int) -> TournamentRecord | None:
        """A new tournament in sign-up, the opener in seat 0; None: the topic has one open."""
        async with self.db.transaction():
            try:
                async with self.db.transaction():  # a savepoint (see UniqueViolation)
                    tid = await self.db.insert(
                        "INSERT INTO tournaments (chat_id, thread_id, opener_id, double, stack,"
                        " round_seconds, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (chat_id, thread_id, opener_id, int(double), stack, round_seconds, now))
            except UniqueViolation:
                return None
            await self.db.execute(
                "INSERT INTO tournament_players (tournament_id, user_id, seat) VALUES (?, ?, 0)",
                (tid, opener_id))
            return await self.get(tid)

    async def _find(self, where: str, *params: object) -> list[TournamentRecord]:
        sql = f"SELECT * FROM tournaments WHERE {where} ORDER BY id"
        return [_tournament(r) for r in await self.db.fetchall(sql, params)]

    async def get(self, tournament_id: int) -> TournamentRecord | None:
        return next(iter(await self._find("id = ?", tournament_id)), None)

    async def current(self, chat_id: int, thread_id: int | None) -> TournamentRecord | None:
        """The chat topic's tournament in sign-up or running, if any."""
        found = await self._find(f"chat_id = ? AND COALESCE(thread_id, 0) = ? AND status IN"
                                 f" {_OPEN}", chat_id, thread_id or 0)
        return next(iter(found), None)

    async def running(self) -> list[TournamentRecord]:
        """Every running tournament, oldest first (to restore the walkover timers)."""
        return await self._find("status = 'running'")

    async def in_chat(self, chat_id: int) -> list[TournamentRecord]:
        """Every tournament of a chat, whatever its status, oldest first."""
        return await self._find("chat_id = ?", chat_id)

    async def players(self, tournament_id: int) -> list[int]:
        """The players in seat (sign-up) order."""
        sql = "SELECT user_id FROM tournament_players WHERE tournament_id = ? ORDER BY seat"
        return [int(r["user_id"]) for r in await self.db.fetchall(sql, (tournament_id,))]

    async def join(self, tournament_id: int, user_id: int) -> bool:
        """Seat `user_id` last; False if not in sign-up, full (MAX_PLAYERS) or seated."""
        return await self._touch(
            "INSERT INTO tournament_players (tournament_id, user_id, seat)"
            " SELECT t.id, ?, COALESCE(MAX(p.seat), -1) + 1 FROM tournaments AS t"
            " LEFT JOIN tournament_players AS p ON p.tournament_id = t.id"
            " WHERE t.id = ? AND t.status = 'signup' GROUP BY t.id"
            " HAVING COUNT(p.user_id) < ?"
            " AND COALESCE(SUM(CASE WHEN p.user_id = ? THEN 1 ELSE 0 END), 0) = 0",
            user_id, tournament_id, MAX_PLAYERS, user_id, lock=_signup(tournament_id))

    async def leave(self, tournament_id: int, user_id: int) -> bool:
        """Unseat `user_id` in sign-up; False if not seated, or the opener (who cancels)."""
        return await self._touch(
            "DELETE FROM tournament_players WHERE tournament_id = ? AND user_id = ?"
            " AND EXISTS (SELECT 1 FROM tournaments WHERE id = ? AND status = 'signup'"
            " AND opener_id <> ?)", tournament_id, user_id, tournament_id, user_id,
            lock=_signup(tournament_id))

    async def start(self, tournament_id: int, version: int, pairings: Sequence[Pairing],
                    due: Sequence[int], now: int) -> TournamentRecord | None:
        """Sign-up → running if still at `version` (else None), writing each pairing as a
        match due at `due[i]`. The pairings must be the seated players' (ValueError)."""
        if len(due) != len(pairings):
            raise ValueError("one due time per pairing")
        async with self.db.transaction(_signup(tournament_id)):  # no join slips in meanwhile
            if not await self._move(tournament_id, version, "signup", "running", now):
                return None
            seated = set(await self.players(tournament_id))
            if {x for p in pairings for x in (p.a, p.b)} != seated:
                raise ValueError("the pairings are not the seated players' schedule")
            for p, at in zip(pairings, due, strict=True):
                await self.db.execute(
                    "INSERT INTO tournament_matches (tournament_id, idx, round, player_a,"
                    " player_b, due_at) VALUES (?, ?, ?, ?, ?, ?)",
                    (tournament_id, p.index, p.round, p.a, p.b, at))
            return await self.get(tournament_id)

    async def _cancel(self, where: str, *params: object) -> int:
        return await self.db.execute("UPDATE tournaments SET status = 'cancelled', version ="
                                     f" version + 1 WHERE status IN {_OPEN} AND {where}", params)

    async def cancel(self, tournament_id: int, version: int) -> bool:
        """Sign-up or running → cancelled, if still at `version`."""
        return await self._cancel("id = ? AND version = ?", tournament_id, version) == 1

    async def finish(self, tournament_id: int, version: int,
                     now: int) -> TournamentRecord | None:
        """Running → finished, if still at `version`; None otherwise."""
        async with self.db.transaction():
            moved = await self._move(tournament_id, version, "running", "finished", now)
            return await self.get(tournament_id) if moved else None

    async def _move(self, tid: int, version: int, was: str, status: str, now: int) -> bool:
        at = {"running": "started_at", "finished": "finished_at"}[status]
        return await self.db.execute(
            f"UPDATE tournaments SET status = ?, {at} = ?, version = version + 1"
            " WHERE id = ? AND version = ? AND status = ?", (status, now, tid, version, was)) == 1

    async def _matches(self, where: str, key: int) -> list[MatchRecord]:
        rows = await self.db.fetchall(
            f"{_MATCHES} WHERE m.{where} = ? ORDER BY m.tournament_id, m.idx", (key,))
        return [_match(r) for r in rows]

    async def matches(self, tournament_id: int) -> list[MatchRecord]:
        """The tournament's matches, by index (empty before it starts)."""
        return await self._matches("tournament_id", tournament_id)

    async def match_of_challenge(self, challenge_id: int) -> MatchRecord | None:
        return next(iter(await self._matches("challenge_id", challenge_id)), None)

    async def match_of_duel(self, duel_id: int) -> MatchRecord | None:
        return next(iter(await self._matches("duel_id", duel_id)), None)

    async def ask(self, tournament_id: int, idx: int, user_id: int, challenge_id: int) -> bool:
        """`user_id` of the pair challenged the other (`challenge_id`; `ready_id` if first).
        False if the match has a challenge pending, a duel or a walkover."""
        return await self._touch(
            "UPDATE tournament_matches SET ready_id = COALESCE(ready_id, ?), challenge_id = ?"
            " WHERE tournament_id = ? AND idx = ? AND ? IN (player_a, player_b)"
            " AND challenge_id IS NULL AND duel_id IS NULL AND walkover IS NULL" + _RUNNING,
            user_id, challenge_id, tournament_id, idx, user_id)

    async def link_duel(self, challenge_id: int, duel_id: int) -> bool:
        """The duel the match's challenge started (False: no such match, or it has a duel or a
        walkover). Call it in the transaction that creates the duel: it joins it."""
        return await self._touch(
            "UPDATE tournament_matches SET duel_id = ? WHERE challenge_id = ?"
            " AND duel_id IS NULL AND walkover IS NULL" + _RUNNING, duel_id, challenge_id)

    async def clear_challenge(self, tournament_id: int, idx: int) -> bool:
        """The match's challenge ended without a duel (expired, declined); `ready_id` stays."""
        return await self._touch(
            "UPDATE tournament_matches SET challenge_id = NULL WHERE tournament_id = ?"
            " AND idx = ? AND challenge_id IS NOT NULL AND duel_id IS NULL" + _RUNNING,
            tournament_id, idx)

    async def walkover(self, tournament_id: int, idx: int, side: str) -> bool:
        """An unplayed match's walkover (`side`: see SIDES); False if it has a duel or one."""
        if side not in SIDES:
            raise ValueError(f"a walkover side is one of {SIDES}")
        return await self._touch(
            "UPDATE tournament_matches SET walkover = ? WHERE tournament_id = ? AND idx = ?"
            " AND duel_id IS NULL AND walkover IS NULL" + _RUNNING, side, tournament_id, idx)

    async def set_message(self, tournament_id: int, message_id: int, shown: int) -> None:
        """The message showing the tournament, and how many decided pairings it shows."""
        await self.db.execute(
            "UPDATE tournaments SET message_id = ?, shown = ? WHERE id = ?",
            (message_id, shown, tournament_id))

    async def forget_chat(self, chat_id: int) -> int:
        """Cancel the chat's tournaments in sign-up or running (the bot left); how many."""
        return await self._cancel("chat_id = ?", chat_id)

    async def migrate_chat(self, old_id: int, new_id: int) -> int:
        """The group became a supergroup: its tournaments move to `new_id` (one transaction),
        forgetting their message and challenges (left in the read-only group); an open one
        whose topic has one open there already is cancelled. Returns how many moved."""
        if old_id == new_id:
            raise ValueError("a chat cannot move onto itself")
        async with self.db.transaction():
            await self._cancel(
                f"chat_id = ? AND EXISTS (SELECT 1 FROM tournaments AS n WHERE n.chat_id = ?"
                f" AND n.status IN {_OPEN}"
                " AND COALESCE(n.thread_id, 0) = COALESCE(tournaments.thread_id, 0))",
                old_id, new_id)
            await self.db.execute(
                "UPDATE tournament_matches SET challenge_id = NULL WHERE duel_id IS NULL"
                " AND tournament_id IN (SELECT id FROM tournaments WHERE chat_id = ?)",
                (old_id,))
            return await self.db.execute(
                "UPDATE tournaments SET chat_id = ?, message_id = NULL, shown = -1,"
                " version = version + 1 WHERE chat_id = ?", (new_id, old_id))
