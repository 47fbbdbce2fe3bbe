"""Turn timers: a reminder at half time, the safe move at the deadline (rules.duel.policy), and a
forfeit after two timeouts in a row.

The length is the chat's setting (ChatSettings.turn_timer; 0 = off), times the configured time
scale. What a timer needs is saved (bot.storage.timers): the deadline of the move at the duel's
current version and each player's timeouts in a row. Its next alarm is a due row (kind
`turn`, key the duel's id: bot.common.due), so any worker fires it, and it survives a restart;
`restore` still re-arms every live duel at start (idempotent: a deadline is kept).

- `arm` runs after every present() (Services.on_presented), so every saved change re-arms the
  timer, whoever made it: a tap, /surrender, a new duel, the clock's own move, a redraw after a
  crash. A row already armed for the current version keeps its deadline (a redraw or a restart
  does not give a player more time); otherwise the new move gets a fresh deadline, and every
  move made since the row was last brought up to date clears that player's count.
- An alarm carries the duel id and the version it was armed for. When it fires for a move
  already made it is simply stale (and re-arms the duel's current move, in case a worker armed
  the old one last); the clock's move goes through `service.act` with that version, so a move
  made at the same moment wins the compare-and-swap and the clock's is refused, and a reminder
  is marked sent before it is sent: fired twice, each happens once. After the reminder the
  deadline is armed.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol

from telegram import Bot

from bot.common import due
from bot.common.chats import forget_chat, migrate_chat
from bot.common.refusal import Refusal
from bot.duel.present import LIVE, present, repost
from bot.duel.service import act
from bot.duel.table import Table, table_for
from bot.i18n import Html, duration
from bot.services import Services
from bot.storage import DuelRecord
from bot.storage.timers import TimerRecord
from bot.telegram import App, send
from rules.duel import Bet, Phase
from rules.duel.policy import Kind, TimeoutMove, timeout_move

log = logging.getLogger(__name__)

KEY = "sixshooter.timers"
EARLY = 1.0  # an alarm this much before its deadline (the clock has whole seconds) is early


class AlarmKind(StrEnum):
    REMIND = "remind"
    EXPIRE = "expire"


@dataclass(frozen=True, slots=True)
class Alarm:
    duel_id: int
    version: int
    kind: AlarmKind


class Scheduler(Protocol):
    async def arm(self, duel_id: int, alarms: Sequence[tuple[Alarm, float]]) -> None:
        """The duel's alarms from now (each with its delay), replacing those armed before."""

    async def clear(self, duel_id: int) -> None: ...


TURN = "turn"  # the due rows' kind: one row per duel, its next alarm


class DueAlarms:
    """A duel's next alarm as its due row (the rest follow: the reminder arms the deadline)."""

    def __init__(self, scheduler: due.Scheduler) -> None:
        self.due = scheduler

    async def arm(self, duel_id: int, alarms: Sequence[tuple[Alarm, float]]) -> None:
        if not alarms:
            await self.clear(duel_id)
            return
        alarm, delay = min(alarms, key=lambda a: a[1])
        await self.due.later(TURN, str(duel_id), delay,
                             {"version": alarm.version, "alarm": alarm.kind.value})

    async def clear(self, duel_id: int) -> None:
        await self.due.cancel(TURN, str(duel_id))


async def on_alarm(app: App, key: str, data: Any) -> None:
    """A turn's due row (kind `TURN`, registered by bot.duel)."""
    timers = app.bot_data.get(KEY)
    if not isinstance(timers, TurnTimers):
        raise LookupError("the turn timers are not installed")
    await timers.fire(Alarm(int(key), int(data["version"]), AlarmKind(data["alarm"])))


class TurnTimers:
    def __init__(self, svc: Services, bot: Bot, scheduler: Scheduler, scale: float = 1.0) -> None:
        self.svc = svc
        self.bot = bot
        self.scheduler = scheduler
        self.scale = scale
        self.repo = svc.storage.timers

    async def on_presented(self, record: DuelRecord) -> None:
        await self.arm(record.id, record)  # as just saved or loaded: not read again

    # --- arming ------------------------------------------------------------------------

    async def arm(self, duel_id: int, record: DuelRecord | None = None) -> TimerRecord | None:
        """Follow the duel to its current move (see the module doc; `record`: the duel as
        just loaded or saved, else it is read); the row, or None when the duel is over. Call
        with the duel's lock held, or from present()."""
        if record is None:
            record = await self.svc.storage.duels.get(duel_id)
        if record is None or not record.is_live:
            await self.scheduler.clear(duel_id)
            await self.repo.delete(duel_id)
            return None
        row = await self.repo.get(duel_id)
        if row is not None and row.version > record.version:
            return row  # a newer move (another worker's) armed it already
        if row is None or row.version != record.version or not row.armed:
            row = await self._new_deadline(record, row)
        await self._schedule(row)
        return row

    async def _new_deadline(self, record: DuelRecord, row: TimerRecord | None) -> TimerRecord:
        counts = [0, 0]
        if row is not None:
            counts = list(row.timeouts)
            for player in self.svc.storage.duels.state(record).actors_since(row.version):
                counts[player] = 0  # a move of their own
        seconds = (await self.svc.storage.chats.get_settings(record.chat_id)).turn_timer
        remind_at = deadline = None
        if seconds:
            now, span = self.svc.clock(), seconds * self.scale
            remind_at, deadline = now + span / 2, now + span
        new = TimerRecord(record.id, record.version, seconds, remind_at, deadline, False,
                          (counts[0], counts[1]))
        await self.repo.put(new)
        return new

    async def _schedule(self, row: TimerRecord) -> None:
        if row.deadline is None:
            await self.scheduler.clear(row.duel_id)
            return
        now, alarms = self.svc.clock(), []
        if not row.reminded and row.remind_at is not None and now < row.deadline:
            alarms.append((Alarm(row.duel_id, row.version, AlarmKind.REMIND),
                           row.remind_at - now))
        alarms.append((Alarm(row.duel_id, row.version, AlarmKind.EXPIRE), row.deadline - now))
        await self.scheduler.arm(row.duel_id, alarms)

    async def restore(self) -> int:
        """After a start: every live duel's timer armed from the database. Returns how many
        duels have a timer running."""
        await self.repo.prune()
        running = 0
        for record in await self.svc.storage.duels.all_live():
            async with LIVE.lock(self.svc, record.id):
                row = await self.arm(record.id)
            running += row is not None and row.armed
        return running

    # --- firing ------------------------------------------------------------------------

    async def fire(self, alarm: Alarm) -> bool:
        """Run an alarm; False when it is stale (the move was made) and did nothing."""
        async with LIVE.lock(self.svc, alarm.duel_id):
            record = await self.svc.storage.duels.get(alarm.duel_id)
            row = await self.repo.get(alarm.duel_id)
            if record is not None and record.is_live and record.version != alarm.version:
                await self.arm(record.id)  # stale: the current move's alarm stands
                return False
            if (record is None or not record.is_live or row is None
                    or row.version != alarm.version or row.deadline is None):
                return False
            try:
                if alarm.kind is AlarmKind.REMIND:
                    try:
                        return await self._remind(record, row)
                    finally:  # sent now or before (fired twice): the deadline is next
                        fresh = await self.repo.get(record.id)
                        if fresh is not None and fresh.version == alarm.version:
                            await self._schedule(fresh)
                return await self._expire(alarm, record, row)
            except send.ChatGone:
                await forget_chat(self.svc, record.chat_id)
                await self.arm(record.id)
                return False
            except send.ChatMoved as e:  # a supergroup now: the sync job shows the duel there
                await migrate_chat(self.svc, e.chat_id, e.new_chat_id)
                return False

    async def _remind(self, record: DuelRecord, row: TimerRecord) -> bool:
        if not await self.repo.mark_reminded(record.id, record.version):
            return False  # sent already (at most once: marked before it is sent)
        state = self.svc.storage.duels.state(record)
        t = await table_for(self.svc, record)
        key = "timer.remind_offer" if state.phase is Phase.TIEBREAK_OFFER else "timer.remind"
        text = t.tr.t(key, mention=_mentions(t, state.players_to_act),
                      left=duration(t.tr, row.seconds - row.seconds // 2))
        await repost(self.svc, self.bot, record, text)  # a new message: a notification
        log.info("duel %d v%d: reminded player(s) %s", record.id, record.version,
                 state.players_to_act)
        return True

    async def _expire(self, alarm: Alarm, record: DuelRecord, row: TimerRecord) -> bool:
        assert row.deadline is not None
        early = row.deadline - self.svc.clock()
        if early >= EARLY:  # armed early (e.g. the clock stepped back): wait on
            await self.scheduler.arm(alarm.duel_id, [(alarm, early)])
            return False
        move = timeout_move(self.svc.storage.duels.state(record), row.timeouts)
        if move is None:
            return False
        user_id = record.players[move.player]
        async with self.svc.storage.transaction():  # the move and its count, or neither
            outcome = await act(self.svc, record.id, record.version, user_id, move.action)
            if not isinstance(outcome, Refusal):
                counts = list(row.timeouts)
                counts[move.player] += 1
                await self.repo.put(TimerRecord(record.id, outcome.record.version, row.seconds,
                                                None, None, False, (counts[0], counts[1])))
        if isinstance(outcome, Refusal):
            log.info("duel %d v%d: the clock's move was refused: %s", record.id, record.version,
                     outcome)
            return False
        log.info("duel %d v%d: player %d ran out of time: %s", record.id, record.version,
                 move.player, move.kind.value)
        t = await table_for(self.svc, outcome.record)
        await present(self.svc, self.bot, outcome.record, _notice(t, move))  # said first
        return True


def _mentions(t: Table, players: tuple[int, ...]) -> Html:
    return Html(", ".join(t.seats[p].mention for p in players))


def _notice(t: Table, move: TimeoutMove) -> Html:
    """What the clock did, said in the chat."""
    mention = _mentions(t, move.late)
    if isinstance(move.action, Bet):
        key = "timer.auto_bonus" if move.kind is Kind.BONUS else "timer.auto_pass"
        return t.tr.tn(key, move.action.chips, mention=mention, hand=move.action.position + 1)
    return t.tr.t(f"timer.{move.kind.value}", mention=mention)


def install(app: App, svc: Services,
            scale: float) -> TurnTimers:
    """Create the timers of a running bot and hook them to present()."""
    timers = TurnTimers(svc, app.bot, DueAlarms(due.of(app)), scale)
    app.bot_data[KEY] = timers
    svc.on_presented.append(timers.on_presented)
    return timers


async def restore(app: App) -> int:
    """Re-arm every live duel's timer (after a start); 0 if the timers are not installed."""
    timers = app.bot_data.get(KEY)
    return await timers.restore() if isinstance(timers, TurnTimers) else 0
