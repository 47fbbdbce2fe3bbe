"""A tournament's life in storage: sign-up, start, a pairing's challenge, walkovers, the end.

The table is never stored: it is computed (`rules.tournament.table`) from the schedule's
matches and their duels' results, so a result written in the duel's own transaction is in the
table at once, and nothing can drift after a crash. Everything here changes storage only
(compare-and-swap on the tournament's version); `present` shows what changed.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass

from bot.common.refusal import Refusal, Refused
from bot.services import Services
from bot.storage import Rollback
from bot.storage.challenges import AlreadyPending
from bot.storage.tournaments import MatchRecord, TournamentRecord, TournamentStatus
from rules import tournament

log = logging.getLogger(__name__)

DAY = 86400
ROUND_DEFAULT = DAY  # each round's time to play, before walkovers
ROUND_MIN, ROUND_MAX = 3600, 7 * DAY
NEXT_SHOWN = 6  # pairings offered on the table at once (a button each)
PERIOD = re.compile(r"([1-9][0-9]{0,2})([hdчд])")  # 12h, 2d; 12ч, 2д


class BadTournamentCommand(Refused):
    def __init__(self, key: str) -> None:
        super().__init__(Refusal(key))


@dataclass(frozen=True, slots=True)
class Request:
    """What `/tournament ...` asks for: to open one (with its options), or to cancel."""

    cancel: bool = False
    double: bool = False
    round_seconds: int = ROUND_DEFAULT


def parse_command(args: list[str]) -> Request:
    """`/tournament [double] [12h|2d]` or `/tournament cancel`; BadTournamentCommand else."""
    words = [a.lower() for a in args]
    if words in (["cancel"], ["отмена"]):
        return Request(cancel=True)
    double, seconds = False, ROUND_DEFAULT
    seen: set[str] = set()
    for word in words:
        period = PERIOD.fullmatch(word)
        kind = "double" if word in ("double", "двойной") else "period" if period else ""
        if not kind or kind in seen:
            raise BadTournamentCommand("tournament.bad_args")
        seen.add(kind)
        if period is not None:
            unit = 3600 if period.group(2) in "hч" else DAY
            seconds = int(period.group(1)) * unit
            if not ROUND_MIN <= seconds <= ROUND_MAX:
                raise BadTournamentCommand("tournament.period_range")
        else:
            double = True
    return Request(False, double, seconds)


@dataclass(frozen=True, slots=True)
class Field:
    """A tournament with its players, its schedule and what is decided of it."""

    record: TournamentRecord
    players: tuple[int, ...]
    matches: tuple[MatchRecord, ...]

    @property
    def pairings(self) -> tuple[tournament.Pairing, ...]:
        return tuple(m.pairing for m in self.matches)

    @property
    def results(self) -> dict[int, tournament.Result]:
        return {m.idx: r for m in self.matches if (r := m.result()) is not None}

    def table(self) -> tuple[tournament.Row, ...]:
        return tournament.table(self.players, self.pairings, self.results)

    @property
    def decided(self) -> int:
        return len(self.results)

    @property
    def complete(self) -> bool:
        return bool(self.matches) and tournament.is_complete(self.pairings, self.results)

    @property
    def round(self) -> int:
        """The earliest round with a pairing still to decide (the last when all are)."""
        return tournament.current_round(self.pairings, self.results)

    @property
    def rounds(self) -> int:
        return tournament.rounds(len(self.players), self.record.double)

    def upcoming(self, limit: int = NEXT_SHOWN) -> list[MatchRecord]:
        """The pairings to play next (rules.tournament.still_to_play), as matches."""
        todo = tournament.still_to_play(self.pairings, self.results)[:limit]
        return [m for p in todo if (m := self.match(p.index)) is not None]

    def match(self, idx: int) -> MatchRecord | None:
        return next((m for m in self.matches if m.idx == idx), None)


async def load(svc: Services, tournament_id: int) -> Field | None:
    repo = svc.storage.tournaments
    record = await repo.get(tournament_id)
    if record is None:
        return None
    return Field(record, tuple(await repo.players(record.id)),
                 tuple(await repo.matches(record.id)))


async def start(svc: Services, field: Field, scale: float = 1.0) -> TournamentRecord | Refusal:
    """Sign-up over: schedule every pair (rules.tournament.schedule), each round due
    `round_seconds` after the one before (times `scale`: the tests' sped-up clock)."""
    t = field.record
    if t.status is not TournamentStatus.SIGNUP:
        return Refusal("tournament.toast_over")
    if len(field.players) < tournament.MIN_PLAYERS:
        return Refusal("tournament.toast_too_few")
    now = svc.clock()
    pairings = tournament.schedule(field.players, t.double)
    step = max(1, round(t.round_seconds * scale))
    due = [now + (p.round + 1) * step for p in pairings]
    started = await svc.storage.tournaments.start(t.id, t.version, pairings, due, now)
    if started is None:
        return Refusal("tournament.toast_stale")
    log.info("tournament %d in chat %d started: %d players, %d pairings", t.id, t.chat_id,
             len(field.players), len(pairings))
    return started


@dataclass(frozen=True, slots=True)
class Asked:
    """A pairing's press made a challenge to the other player (to post)."""

    challenge_id: int


@dataclass(frozen=True, slots=True)
class Answer:
    """The other player had asked first: this press accepts their challenge."""

    challenge_id: int


async def play(svc: Services, field: Field, idx: int, user_id: int,
               again: bool = True) -> Asked | Answer | Refusal:
    """A player of pairing `idx` asks to play it: a challenge to the other with the
    tournament's stack, or the answer to theirs. The challenge and the match's note of it are
    written together: when the other asked at the same moment (on another worker), theirs is
    the match's, this one is undone, and this press answers theirs (`again`: once)."""
    t, m = field.record, field.match(idx)
    if t.status is not TournamentStatus.RUNNING or m is None:
        return Refusal("tournament.toast_over")
    if user_id not in (m.player_a, m.player_b):
        return Refusal("tournament.toast_not_yours")
    if m.result() is not None:
        return Refusal("tournament.toast_decided")
    if m.duel_live:
        return Refusal("tournament.toast_live")
    other = m.player_b if user_id == m.player_a else m.player_a
    storage = svc.storage
    for player, key in ((user_id, "error.you_busy"), (other, "error.target_busy")):
        if await storage.duels.live_for_user_in_chat(t.chat_id, player) is not None:
            return Refusal(key)
    if m.challenge_id is not None:
        c = await storage.challenges.get(m.challenge_id)
        if c is not None and c.is_pending:
            if c.challenger_id == other:
                return Answer(c.id)
            return Refusal("tournament.toast_waiting")
    now = svc.clock()
    try:
        async with storage.transaction():
            created = await storage.challenges.create(
                chat_id=t.chat_id, thread_id=t.thread_id, challenger_id=user_id,
                target_id=other, target_username=None, stack=t.stack, created_at=now,
                expires_at=now + svc.challenge_ttl)
            if isinstance(created, AlreadyPending):
                return Refusal("error.pending_exists")
            if not await storage.tournaments.ask(t.id, idx, user_id, created.id):
                raise Rollback  # the match has a challenge, a duel or a walkover meanwhile
    except Rollback:
        fresh = await load(svc, t.id) if again else None
        return Refusal("tournament.toast_stale") if fresh is None else await play(
            svc, fresh, idx, user_id, again=False)
    log.info("tournament %d: pairing %d asked for by user %d (challenge %d)", t.id, idx,
             user_id, created.id)
    return Asked(created.id)


@dataclass(frozen=True, slots=True)
class Walkover:
    match: MatchRecord
    side: str  # "a", "b" or "none"


async def walkovers(svc: Services, field: Field) -> list[Walkover]:
    """Decide every pairing whose round is over unplayed: the player who asked to play wins;
    nobody asked, both lose. A duel under way is left to finish."""
    if field.record.status is not TournamentStatus.RUNNING:
        return []
    now, done = svc.clock(), []
    for m in field.matches:
        if m.result() is not None or m.duel_id is not None or m.due_at > now:
            continue
        side = "a" if m.ready_id == m.player_a else "b" if m.ready_id == m.player_b else "none"
        if await svc.storage.tournaments.walkover(field.record.id, m.idx, side):
            log.info("tournament %d: pairing %d decided by walkover (%s)", field.record.id,
                     m.idx, side)
            done.append(Walkover(m, side))
    return done


async def finish(svc: Services, field: Field) -> TournamentRecord | None:
    """Every pairing decided: the tournament is over (once; None if it was already)."""
    if not field.complete or field.record.status is not TournamentStatus.RUNNING:
        return None
    return await svc.storage.tournaments.finish(field.record.id, field.record.version,
                                                svc.clock())
