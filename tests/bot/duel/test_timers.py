"""Turn timers with a fake clock, a fake bot and a recording scheduler: alarms are fired by
calling TurnTimers.fire directly, so nothing waits for real time (their due rows:
test_timer_rows)."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any, cast

import pytest
from telegram import Bot

from bot.common import due
from bot.duel.present import present
from bot.duel.service import Applied, act
from bot.duel.timers import TURN, Alarm, AlarmKind, DueAlarms, TurnTimers
from bot.i18n import duration, translator
from bot.services import Services
from bot.storage import ChatSettings, DuelRecord, DuelStatus, ResultReason, Storage
from bot.telegram import App
from rules.duel import Action, Bet, DuelState, Phase
from tests.rules.duel.helpers import SALT, bets, deck_with
from tests.support.rawsend import RawCalls

T0 = 1_700_000_000
ALICE, BOB = 101, 202  # player 0 deals the first round; player 1 (Bob) acts first
CHAT = -100777
# Face-up cards: K, 4, Q, 2, 9, A.
DECK = deck_with("Ks 7c 8d 9h Jd", "4h 5c 6d 8s Tc", "Qd 2h 3s 7d 9s", "2s 3h 4d 6c 8c",
                 "9c Th Jc Qs 5h", "Ah 6h 7s Td 4s")
# Every bullet splits when both pass or show the same high cards (hands 4 and 5 in a bonus duel).
LEVEL = deck_with("Ks 7c 8d 9h Jd", "4h 5c 6d 8s Tc", "Qd 2h 3s 7d 9s", "2s 3h 4d 6c 8c",
                  "2c 4s 6h 9c Jh", "2d 4c 6s 9d Js")


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> int:
        return self.now


@dataclass
class FakeBot(RawCalls):
    """Records what the bot would say; every call succeeds."""

    texts: list[dict[str, Any]] = field(default_factory=list)
    photos: list[dict[str, Any]] = field(default_factory=list)
    edits: int = 0
    next_id: int = 1

    def _message(self) -> SimpleNamespace:
        self.next_id += 1
        return SimpleNamespace(message_id=self.next_id)

    async def send_message(self, chat_id: int, text: str, **kw: Any) -> SimpleNamespace:
        self.texts.append({"chat_id": chat_id, "text": text, **kw})
        return self._message()

    async def send_photo(self, chat_id: int, photo: bytes, **kw: Any) -> SimpleNamespace:
        self.photos.append({"chat_id": chat_id, **kw})
        return self._message()

    async def edit_message_media(self, *a: Any, **kw: Any) -> bool:
        self.edits += 1
        return True

    edit_message_caption = edit_message_media
    edit_message_reply_markup = edit_message_media
    edit_message_text = edit_message_media

    async def delete_message(self, *a: Any, **kw: Any) -> bool:
        return True

    @property
    def notes(self) -> list[str]:
        """What the clock said: a reminder or a timeout notice comes first in a freshly sent
        live message (its caption's first line), so it notifies."""
        captions = [str(p.get("caption", "")) for p in self.photos]
        return [c for c in captions if c.startswith(("⏰", "⌛"))] + [
            str(t["text"]) for t in self.texts]


class Alarms:
    """The Scheduler protocol, recording alarms instead of running them."""

    def __init__(self) -> None:
        self.pending: dict[int, list[tuple[Alarm, float]]] = {}

    async def arm(self, duel_id: int, alarms: Sequence[tuple[Alarm, float]]) -> None:
        assert all(a.duel_id == duel_id for a, _ in alarms)
        self.pending[duel_id] = list(alarms)

    async def clear(self, duel_id: int) -> None:
        self.pending.pop(duel_id, None)

    def of(self, duel_id: int) -> dict[AlarmKind, tuple[Alarm, float]]:
        return {a.kind: (a, d) for a, d in self.pending.get(duel_id, [])}


@dataclass
class Rig:
    svc: Services
    clock: Clock
    bot: FakeBot
    alarms: Alarms
    timers: TurnTimers

    async def duel(self, state: DuelState) -> DuelRecord:
        record = await self.svc.storage.duels.create(CHAT, None, (ALICE, BOB), state.to_json(),
                                                     self.clock.now)
        await present(self.svc, cast(Bot, self.bot), record)
        return record

    async def record(self, duel_id: int) -> DuelRecord:
        record = await self.svc.storage.duels.get(duel_id)
        assert record is not None
        return record

    async def state(self, duel_id: int) -> DuelState:
        return DuelState.from_json((await self.record(duel_id)).state_json)

    async def move(self, duel_id: int, user: int, action: Action) -> None:
        """A player's own tap: act, then present (which re-arms the timer)."""
        outcome = await act(self.svc, duel_id, None, user, action)
        assert isinstance(outcome, Applied), outcome
        await present(self.svc, cast(Bot, self.bot), outcome.record)

    def alarm(self, duel_id: int, kind: AlarmKind) -> Alarm:
        return self.alarms.of(duel_id)[kind][0]

    async def run_out(self, duel_id: int, kind: AlarmKind = AlarmKind.EXPIRE) -> bool:
        """Let the clock reach the alarm and fire it."""
        alarm, delay = self.alarms.of(duel_id)[kind]
        self.clock.now += int(delay)
        return await self.timers.fire(alarm)


@pytest.fixture
async def rig(store: Storage) -> AsyncIterator[Rig]:
    storage = store
    clock = Clock()
    for uid, name in ((ALICE, "Alice"), (BOB, "Bob")):
        await storage.users.upsert(uid, name, None, name.lower(), "en", now=T0)
    svc = Services(storage=storage, rng=random.Random(7), clock=clock)
    bot, alarms = FakeBot(), Alarms()
    timers = TurnTimers(svc, cast(Bot, bot), alarms, scale=1.0)
    svc.on_presented.append(timers.on_presented)
    yield Rig(svc, clock, bot, alarms, timers)
    await storage.close()


def dealt(deck: Any = DECK) -> DuelState:
    state = DuelState.new(50, first_dealer=0)
    state.deal(deck, SALT)
    return state


def mentions(text: str, user_id: int) -> bool:
    return f'href="tg://user?id={user_id}"' in text


# --- the reminder ---------------------------------------------------------------------------


async def test_a_new_duel_is_armed_with_the_default_five_minutes(rig: Rig) -> None:
    record = await rig.duel(dealt())
    armed = rig.alarms.of(record.id)
    assert armed[AlarmKind.REMIND][1] == 150 and armed[AlarmKind.EXPIRE][1] == 300
    assert {a.version for a, _ in armed.values()} == {record.version}


async def test_the_reminder_at_half_time_mentions_the_player_to_act_once(rig: Rig) -> None:
    record = await rig.duel(dealt())
    assert await rig.run_out(record.id, AlarmKind.REMIND)
    [reminder] = rig.bot.notes
    assert mentions(reminder, BOB) and not mentions(reminder, ALICE)
    assert "2 min 30 s left" in reminder
    assert AlarmKind.REMIND not in rig.alarms.of(record.id)  # re-armed without it
    assert not await rig.timers.fire(Alarm(record.id, record.version, AlarmKind.REMIND))
    assert len(rig.bot.notes) == 1
    assert (await rig.state(record.id)).players_to_act == (1,)  # nothing was played


# --- the clock's move -----------------------------------------------------------------------


async def test_at_expiry_the_clock_passes_on_the_lowest_face_up_card(rig: Rig) -> None:
    record = await rig.duel(dealt())
    assert await rig.run_out(record.id)
    state = await rig.state(record.id)
    assert state.choices == [(1, 3, 1)]  # Bob: 1 chip on hand #4, the 2♠
    notice = rig.bot.notes[-1]
    assert mentions(notice, BOB) and "hand #4" in notice and "passed" in notice
    # Alice (the dealer) is next, with a fresh five minutes for version 1.
    armed = rig.alarms.of(record.id)
    assert armed[AlarmKind.EXPIRE] == (Alarm(record.id, 1, AlarmKind.EXPIRE), 300)
    assert await rig.run_out(record.id)
    assert (await rig.state(record.id)).results[0].positions == (1, 3)  # Alice: the 4♥


async def test_in_a_bonus_duel_the_clock_plays_the_higher_face_up_card(rig: Rig) -> None:
    state = dealt()
    bets(state, (3, 1), (1, 1), (2, 1), (0, 1))  # bullets 1 and 2 pass; left: 9♣ and A♥
    record = await rig.duel(state)
    assert (await rig.state(record.id)).bonus_duel
    assert await rig.run_out(record.id)
    # Bob's hand is the A♥ (#6); Alice's, the last one, is placed by the rules.
    assert (await rig.state(record.id)).results[-1].positions[1] == 5
    assert "hand #6" in rig.bot.notes[-1]


async def test_two_timeouts_in_a_row_forfeit_the_duel(rig: Rig) -> None:
    record = await rig.duel(dealt())
    assert await rig.run_out(record.id)  # Bob's first timeout
    await rig.move(record.id, ALICE, Bet(0, 2))  # Alice plays; bullet 2, Bob first again
    assert await rig.run_out(record.id)  # Bob's second timeout in a row
    final = await rig.record(record.id)
    assert final.status is DuelStatus.FINISHED
    state = DuelState.from_json(final.state_json)
    assert state.winner == 0 and state.end_reason == "timeout"
    result = await rig.svc.storage.results.get(record.id)
    assert result is not None and result.winner_id == ALICE
    assert result.reason is ResultReason.TIMEOUT
    assert "twice in a row" in rig.bot.notes[-1]
    assert rig.alarms.of(record.id) == {}  # no timer on a finished duel
    assert await rig.timers.repo.get(record.id) is None


async def test_a_players_own_move_resets_their_count(rig: Rig) -> None:
    record = await rig.duel(dealt())
    assert await rig.run_out(record.id)  # Bob: timeout 1
    await rig.move(record.id, ALICE, Bet(0, 1))
    await rig.move(record.id, BOB, Bet(2, 1))  # Bob plays himself: his count is clear
    row = await rig.timers.repo.get(record.id)
    assert row is not None and row.timeouts == (0, 0)
    await rig.move(record.id, ALICE, Bet(1, 1))
    assert await rig.run_out(record.id)  # the bonus duel: a move, not a forfeit
    state = await rig.state(record.id)
    assert not state.is_over and state.results[-1].positions[1] == 5


async def test_the_other_players_timeouts_do_not_add_up(rig: Rig) -> None:
    record = await rig.duel(dealt())
    assert await rig.run_out(record.id)  # Bob
    assert await rig.run_out(record.id)  # Alice
    row = await rig.timers.repo.get(record.id)
    assert row is not None and row.timeouts == (1, 1)
    assert not (await rig.state(record.id)).is_over


async def test_a_tiebreak_offer_left_unanswered_counts_as_declining(rig: Rig) -> None:
    state = dealt(LEVEL)
    bets(state, (0, 1), (1, 1), (2, 1), (3, 1), (4, 2), (5, 2))
    state.deal(LEVEL, SALT)
    bets(state, (0, 1), (1, 1), (2, 1), (3, 1), (4, 2), (5, 2))
    assert state.phase is Phase.TIEBREAK_OFFER
    record = await rig.duel(state)
    assert await rig.run_out(record.id, AlarmKind.REMIND)
    reminder = rig.bot.notes[-1]
    assert mentions(reminder, ALICE) and mentions(reminder, BOB) and "tiebreak" in reminder
    assert await rig.run_out(record.id)
    final = DuelState.from_json((await rig.record(record.id)).state_json)
    assert final.is_over and final.winner is None and final.end_reason == "declined"
    assert "declining" in rig.bot.notes[-1]


# --- never for a move already made, never when off ------------------------------------------


async def test_a_timer_never_fires_for_a_move_already_made(rig: Rig) -> None:
    record = await rig.duel(dealt())
    old_remind = rig.alarm(record.id, AlarmKind.REMIND)
    old_expire = rig.alarm(record.id, AlarmKind.EXPIRE)
    await rig.move(record.id, BOB, Bet(5, 2))
    rig.clock.now += 1000
    assert not await rig.timers.fire(old_remind)
    assert not await rig.timers.fire(old_expire)
    state = await rig.state(record.id)
    assert state.choices == [(1, 5, 2)] and state.players_to_act == (0,)
    assert rig.bot.notes == []
    row = await rig.timers.repo.get(record.id)
    assert row is not None and row.timeouts == (0, 0)


async def test_an_alarm_that_comes_early_waits(rig: Rig) -> None:
    record = await rig.duel(dealt())
    expire = rig.alarm(record.id, AlarmKind.EXPIRE)
    rig.clock.now += 100
    assert not await rig.timers.fire(expire)
    assert rig.alarms.of(record.id)[AlarmKind.EXPIRE] == (expire, 200)
    assert (await rig.record(record.id)).version == record.version


async def test_timer_off_arms_nothing(rig: Rig) -> None:
    await rig.svc.storage.chats.set_settings(CHAT, ChatSettings(turn_timer=0))
    record = await rig.duel(dealt())
    assert rig.alarms.of(record.id) == {}
    rig.clock.now += 10 * 3600
    assert not await rig.timers.fire(Alarm(record.id, record.version, AlarmKind.EXPIRE))
    assert not await rig.timers.fire(Alarm(record.id, record.version, AlarmKind.REMIND))
    assert (await rig.record(record.id)).version == record.version
    assert rig.bot.notes == []


async def test_a_new_timer_setting_applies_from_the_next_move(rig: Rig) -> None:
    record = await rig.duel(dealt())
    await rig.svc.storage.chats.set_settings(CHAT, ChatSettings(turn_timer=60))
    assert rig.alarms.of(record.id)[AlarmKind.EXPIRE][1] == 300  # this move keeps its time
    await rig.move(record.id, BOB, Bet(5, 1))
    assert rig.alarms.of(record.id)[AlarmKind.EXPIRE][1] == 60


# --- restart --------------------------------------------------------------------------------


async def test_restore_after_a_restart_keeps_the_deadline_and_skips_a_sent_reminder(
        rig: Rig) -> None:
    record = await rig.duel(dealt())
    assert await rig.run_out(record.id, AlarmKind.REMIND)  # at T0 + 150
    rig.clock.now += 30  # the bot is down for a while
    alarms = Alarms()  # a fresh job queue
    again = TurnTimers(rig.svc, cast(Bot, rig.bot), alarms, scale=1.0)
    assert await again.restore() == 1
    assert alarms.of(record.id) == {AlarmKind.EXPIRE: (Alarm(record.id, 0, AlarmKind.EXPIRE),
                                                       120)}
    rig.clock.now += 120
    assert await again.fire(alarms.of(record.id)[AlarmKind.EXPIRE][0])
    assert not await again.fire(Alarm(record.id, 0, AlarmKind.EXPIRE))  # once
    assert (await rig.state(record.id)).choices == [(1, 3, 1)]
    assert len([t for t in rig.bot.notes if "left" in t]) == 1


async def test_restore_after_the_deadline_passed_expires_at_once(rig: Rig) -> None:
    record = await rig.duel(dealt())
    rig.clock.now += 3600
    alarms = Alarms()
    again = TurnTimers(rig.svc, cast(Bot, rig.bot), alarms, scale=1.0)
    await again.restore()
    armed = alarms.of(record.id)
    assert set(armed) == {AlarmKind.EXPIRE} and armed[AlarmKind.EXPIRE][1] <= 0


async def test_time_scale_shortens_the_timer(rig: Rig) -> None:
    rig.timers.scale = 0.01
    record = await rig.duel(dealt())
    armed = rig.alarms.of(record.id)
    assert armed[AlarmKind.REMIND][1] == pytest.approx(1.5)
    assert armed[AlarmKind.EXPIRE][1] == pytest.approx(3.0)


@pytest.mark.parametrize(("seconds", "en", "ru"), [
    (30, "30 s", "30 с"), (60, "1 min", "1 мин"), (150, "2 min 30 s", "2 мин 30 с"),
    (0, "0 s", "0 с"),
])
def test_duration_words(seconds: int, en: str, ru: str) -> None:
    assert duration(translator("en"), seconds) == en
    assert duration(translator("ru"), seconds) == ru


# --- fired twice, or stale (several workers) -------------------------------------------------


async def test_a_reminder_fired_twice_is_sent_once_and_still_arms_the_deadline(
        rig: Rig) -> None:
    record = await rig.duel(dealt())
    remind = rig.alarm(record.id, AlarmKind.REMIND)
    assert await rig.run_out(record.id, AlarmKind.REMIND)
    rig.alarms.pending.clear()  # e.g. the first firing died before it armed the deadline
    assert not await rig.timers.fire(remind)
    assert len(rig.bot.notes) == 1
    assert rig.alarms.of(record.id) == {
        AlarmKind.EXPIRE: (Alarm(record.id, record.version, AlarmKind.EXPIRE), 150)}


async def test_a_stale_alarm_re_arms_the_current_move(rig: Rig) -> None:
    record = await rig.duel(dealt())
    old = rig.alarm(record.id, AlarmKind.EXPIRE)
    await rig.move(record.id, BOB, Bet(5, 1))
    rig.alarms.pending.clear()  # another worker armed the old move last
    rig.clock.now += 300
    assert not await rig.timers.fire(old)
    assert (await rig.record(record.id)).version == record.version + 1  # nothing played
    armed = rig.alarms.of(record.id)
    assert {a.version for a, _ in armed.values()} == {record.version + 1}


async def test_the_next_alarm_is_the_duels_due_row(store: Storage) -> None:
    scheduler = due.Scheduler(cast(App, object()), store.jobs, can=store.can,
                              clock=lambda: float(T0))
    alarms = DueAlarms(scheduler)
    remind, expire = Alarm(5, 3, AlarmKind.REMIND), Alarm(5, 3, AlarmKind.EXPIRE)
    await alarms.arm(5, [(remind, 150.0), (expire, 300.0)])
    row = await store.jobs.get(TURN, "5")
    assert row is not None and row.due_at == T0 + 150
    assert row.data == {"version": 3, "alarm": "remind"}
    await alarms.arm(5, [(expire, 150.0)])  # reminded: the deadline next, in the same row
    row = await store.jobs.get(TURN, "5")
    assert row is not None and row.data["alarm"] == "expire" and row.due_at == T0 + 150
    await alarms.clear(5)
    assert await store.jobs.get(TURN, "5") is None
