"""The tournament's life in storage and its posts, with a fake clock and a fake bot: the
command's arguments; start (too few, the schedule's deadlines); a pairing's play (not yours,
asked already, the answer to the other's challenge); walkovers when a round's time is over
(the asker wins, nobody asked: both lose, a duel under way is left alone); the table posted
when it falls behind its results, and the final table once, with the winner."""

from __future__ import annotations

from collections.abc import AsyncIterator
from types import SimpleNamespace
from typing import Any, cast

import pytest
from telegram import Bot

from bot import duel, sixcard, tournament
from bot.common.refusal import Refusal
from bot.common.sync import Retries
from bot.services import Services
from bot.storage import DuelResult, DuelStatus, ResultReason, Storage
from bot.storage.tournaments import TournamentStatus
from bot.telegram.drawing import Drawer
from bot.tournament import jobs
from bot.tournament.service import (
    DAY,
    Answer,
    Asked,
    BadTournamentCommand,
    Request,
    load,
    parse_command,
    play,
    start,
    walkovers,
)
from rules.tournament import Played, Walkover
from tests.support.rawsend import RawCalls

ALICE, BOB, CAROL, CHAT = 1, 2, 3, -100
T0 = 1_800_000_000


class FakeBot(RawCalls):
    defaults = None

    def __init__(self) -> None:
        self.captions: list[str] = []

    async def send_photo(self, chat_id: int, photo: bytes, **kw: Any) -> SimpleNamespace:
        self.captions.append(kw.get("caption", ""))
        return SimpleNamespace(message_id=100 + len(self.captions))

    async def send_message(self, chat_id: int, text: str, **kw: Any) -> SimpleNamespace:
        return SimpleNamespace(message_id=99)

    async def delete_message(self, chat_id: int, message_id: int, **kw: Any) -> bool:
        return True


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> int:
        return self.now


@pytest.fixture
async def svc(store: Storage) -> AsyncIterator[Services]:
    storage = store
    services = Services(storage=storage, drawer=Drawer(), clock=Clock(),  # the app's games
                        chat_games=[duel.CHAT_GAMES, sixcard.CHAT_GAMES, tournament.CHAT_GAMES])
    await storage.chats.upsert(CHAT, "group", "Saloon", False, now=T0)
    for uid, name in ((ALICE, "Alice"), (BOB, "Bob"), (CAROL, "Carol")):
        await storage.users.upsert(uid, name, now=T0)
    yield services
    services.drawer.shutdown()
    await storage.close()


def test_the_command() -> None:
    assert parse_command([]) == Request()
    assert parse_command(["double", "12h"]) == Request(False, True, 12 * 3600)
    assert parse_command(["2D"]) == Request(False, False, 2 * DAY)
    assert parse_command(["cancel"]) == Request(cancel=True)
    for bad in (["double", "double"], ["1d", "2d"], ["forever"], ["0h"], ["8d"], ["cancel", "2d"]):
        with pytest.raises(BadTournamentCommand):
            parse_command(bad)


async def _started(svc: Services, players: tuple[int, ...] = (ALICE, BOB, CAROL)) -> int:
    repo = svc.storage.tournaments
    t = await repo.open(CHAT, None, players[0], 50, False, DAY, svc.clock())
    assert t is not None
    for p in players[1:]:
        assert await repo.join(t.id, p)
    field = await load(svc, t.id)
    assert field is not None
    started = await start(svc, field)
    assert not isinstance(started, Refusal)
    return t.id


async def _finish_duel(svc: Services, challenge_id: int, acceptor: int, winner: int | None) -> int:
    """What the duel's code does: the duel created from the pairing's challenge (linked in
    the same transaction), then its result."""
    storage = svc.storage
    c = await storage.challenges.get(challenge_id)
    assert c is not None
    async with storage.db.transaction():
        record = await storage.duels.create(CHAT, None, (c.challenger_id, acceptor), "{}",
                                            svc.clock())
        assert await storage.tournaments.link_duel(c.id, record.id)
    s0 = 50 if winner is None else 58 if winner == c.challenger_id else 42
    result = DuelResult(
        duel_id=record.id, chat_id=CHAT, players=(c.challenger_id, acceptor),
        final_stacks=(s0, 100 - s0), start_stack=50, winner_id=winner,
        reason=ResultReason.NORMAL, best_hands=(None, None), bonus_chips=(0, 0), bullets=6,
        finished_at=svc.clock())
    saved = await storage.duels.save(record.id, record.version, "{}", DuelStatus.FINISHED,
                                     now=svc.clock(), result=result)
    assert saved is not None
    return record.id


async def test_start_needs_three_and_sets_each_rounds_deadline(svc: Services) -> None:
    repo = svc.storage.tournaments
    t = await repo.open(CHAT, None, ALICE, 50, False, DAY, svc.clock())
    assert t is not None and await repo.join(t.id, BOB)
    field = await load(svc, t.id)
    assert field is not None
    assert await start(svc, field) == Refusal("tournament.toast_too_few")
    assert await repo.join(t.id, CAROL)
    field = await load(svc, t.id)
    assert field is not None
    started = await start(svc, field)
    assert not isinstance(started, Refusal) and started.status is TournamentStatus.RUNNING
    field = await load(svc, t.id)
    assert field is not None and len(field.matches) == 3
    assert sorted(m.due_at - T0 for m in field.matches) == [DAY, 2 * DAY, 3 * DAY]


async def test_play_asks_then_the_other_answers(svc: Services) -> None:
    tid = await _started(svc)
    field = await load(svc, tid)
    assert field is not None
    m = field.matches[0]
    outsider = ({ALICE, BOB, CAROL} - {m.player_a, m.player_b}).pop()
    assert await play(svc, field, m.idx, outsider) == Refusal("tournament.toast_not_yours")
    asked = await play(svc, field, m.idx, m.player_a)
    assert isinstance(asked, Asked)
    field = await load(svc, tid)
    assert field is not None
    assert await play(svc, field, m.idx, m.player_a) == Refusal("tournament.toast_waiting")
    answer = await play(svc, field, m.idx, m.player_b)
    assert answer == Answer(asked.challenge_id)


async def test_walkovers_and_the_end(svc: Services) -> None:
    clock = cast(Clock, svc.clock)
    bot = FakeBot()
    tid = await _started(svc)
    field = await load(svc, tid)
    assert field is not None
    first, second, third = sorted(field.matches, key=lambda m: m.round)
    # Round 1 is played (a win for its asker); round 2's pair: one asks, never played;
    # round 3's pair: nobody asks.
    asked = await play(svc, field, first.idx, first.player_b)
    assert isinstance(asked, Asked)
    await _finish_duel(svc, asked.challenge_id, first.player_a, first.player_b)
    field = await load(svc, tid)
    assert field is not None
    asked2 = await play(svc, field, second.idx, second.player_a)
    assert isinstance(asked2, Asked)

    clock.now = T0 + DAY + 1  # only round 1 is due, and it is decided: no walkover
    field = await load(svc, tid)
    assert field is not None and await walkovers(svc, field) == []
    await jobs.tick(svc, cast(Bot, bot))
    assert len(bot.captions) == 1 and "1 of 3 played" in bot.captions[0]
    await jobs.tick(svc, cast(Bot, bot))  # nothing new: no post
    assert len(bot.captions) == 1

    clock.now = T0 + 3 * DAY + 1  # rounds 2 and 3 are over unplayed
    await jobs.tick(svc, cast(Bot, bot))
    field = await load(svc, tid)
    assert field is not None and field.record.status is TournamentStatus.FINISHED
    results = field.results
    assert isinstance(results[first.idx], Played)
    assert results[second.idx] == Walkover(second.player_a)
    assert results[third.idx] == Walkover(None)
    final = bot.captions[-1]
    assert len(bot.captions) == 2 and "the final table" in final
    assert "not played in time, a walkover win for" in final
    assert "neither asked to play in time, both lose" in final
    points = dict.fromkeys((ALICE, BOB, CAROL), 0)
    points[first.player_b] += 2  # the duel's winner
    points[second.player_a] += 2  # the walkover's
    rows = field.table()
    assert {r.player: r.points for r in rows} == points
    assert rows[0].points == max(points.values())
    assert {r.player: r.wins for r in rows} == {p: v // 2 for p, v in points.items()}
    await jobs.tick(svc, cast(Bot, bot))  # over: posted once
    assert len(bot.captions) == 2


async def test_a_duel_under_way_at_the_deadline_is_left_to_finish(svc: Services) -> None:
    clock = cast(Clock, svc.clock)
    tid = await _started(svc)
    field = await load(svc, tid)
    assert field is not None
    m = min(field.matches, key=lambda x: x.round)
    asked = await play(svc, field, m.idx, m.player_a)
    assert isinstance(asked, Asked)
    c = await svc.storage.challenges.get(asked.challenge_id)
    assert c is not None
    async with svc.storage.db.transaction():
        record = await svc.storage.duels.create(CHAT, None, (m.player_a, m.player_b), "{}",
                                                svc.clock())
        await svc.storage.tournaments.link_duel(c.id, record.id)
    clock.now = T0 + DAY + 1
    field = await load(svc, tid)
    assert field is not None
    assert await walkovers(svc, field) == []
    again = await load(svc, tid)
    assert again is not None and again.match(m.idx) is not None
    assert again.results == {}


async def test_a_group_becoming_a_supergroup_takes_its_tournament(svc: Services) -> None:
    """The table was shown in the old group: after the move it is posted in the new one
    (its `shown` is reset), with nothing decided lost."""
    from bot.storage.chat_move import move_chat

    bot = FakeBot()
    tid = await _started(svc)
    await jobs.tick(svc, cast(Bot, bot))
    assert len(bot.captions) == 1
    await move_chat(svc.storage.db, CHAT, -1009, now=T0)
    field = await load(svc, tid)
    assert field is not None and field.record.chat_id == -1009
    assert field.record.status is TournamentStatus.RUNNING and len(field.matches) == 3
    await jobs.tick(svc, cast(Bot, bot))
    assert len(bot.captions) == 2 and "0 of 3 played" in bot.captions[1]


class RefusingBot(FakeBot):
    """Telegram refuses the chat's photos (the bot lost the right) until `refusing` is off;
    a chat in `gone` has thrown the bot out."""

    def __init__(self, gone: tuple[int, ...] = ()) -> None:
        super().__init__()
        self.refusing, self.gone, self.tries = True, gone, 0

    async def send_photo(self, chat_id: int, photo: bytes, **kw: Any) -> SimpleNamespace:
        from telegram.error import BadRequest, Forbidden

        self.tries += 1
        if chat_id in self.gone:
            raise Forbidden("Forbidden: bot was kicked from the group chat")
        if self.refusing:
            raise BadRequest("Bad Request: not enough rights to send photos to the chat")
        return await super().send_photo(chat_id, photo, **kw)


async def _decide_all(svc: Services, tid: int) -> None:
    field = await load(svc, tid)
    assert field is not None
    for m in field.matches:
        asked = await play(svc, field, m.idx, m.player_a)
        assert isinstance(asked, Asked)
        await _finish_duel(svc, asked.challenge_id, m.player_b, m.player_a)
        field = await load(svc, tid)
        assert field is not None


async def test_the_final_table_is_posted_before_the_end_and_retried_less_and_less(
        svc: Services) -> None:
    """A refused final table leaves the tournament running (nothing is lost); the tick
    tries again at once, then a minute later, two, four...; once Telegram takes it, the
    tournament is over, and nothing more is sent."""
    clock = cast(Clock, svc.clock)
    bot = RefusingBot()
    tid = await _started(svc)
    await _decide_all(svc, tid)
    retries = Retries(jobs.TICK, 3600)
    await jobs.tick(svc, cast(Bot, bot), retries)
    field = await load(svc, tid)
    assert field is not None and field.record.status is TournamentStatus.RUNNING
    assert bot.tries == 1
    for step in (30, 59):  # not before a minute has passed
        clock.now = T0 + step
        await jobs.tick(svc, cast(Bot, bot), retries)
    assert bot.tries == 1
    clock.now = T0 + 60
    await jobs.tick(svc, cast(Bot, bot), retries)
    clock.now = T0 + 120  # the next wait is two minutes
    await jobs.tick(svc, cast(Bot, bot), retries)
    assert bot.tries == 2
    bot.refusing = False
    clock.now = T0 + 180
    await jobs.tick(svc, cast(Bot, bot), retries)
    assert bot.tries == 3 and len(bot.captions) == 1 and "the final table" in bot.captions[0]
    field = await load(svc, tid)
    assert field is not None and field.record.status is TournamentStatus.FINISHED
    clock.now = T0 + 10_000
    await jobs.tick(svc, cast(Bot, bot), retries)
    assert bot.tries == 3


async def test_a_chat_that_threw_the_bot_out_stops_no_other_tournament(
        svc: Services) -> None:
    other = -200
    await svc.storage.chats.upsert(other, "group", "Other", False, now=T0)
    gone = await _started(svc)
    repo = svc.storage.tournaments
    t = await repo.open(other, None, ALICE, 50, False, DAY, svc.clock())
    assert t is not None and await repo.join(t.id, BOB) and await repo.join(t.id, CAROL)
    field = await load(svc, t.id)
    assert field is not None and not isinstance(await start(svc, field), Refusal)
    bot = RefusingBot(gone=(CHAT,))
    bot.refusing = False
    await jobs.tick(svc, cast(Bot, bot))
    assert len(bot.captions) == 1  # the other chat's table
    left = await repo.get(gone)
    assert left is not None and left.status is TournamentStatus.CANCELLED


async def test_a_result_pings_only_the_players_it_freed(svc: Services) -> None:
    """The first table mentions every next pair; after a result, only the next pairings of
    its two players mention them (a new message pings whoever it mentions); the others are
    named in bold, so nobody is pinged at every result of other people's duels."""
    from bot.tournament import present

    dave = 4
    await svc.storage.users.upsert(dave, "Dave", now=T0)
    names = {ALICE: "Alice", BOB: "Bob", CAROL: "Carol", dave: "Dave"}
    bot = FakeBot()
    tid = await _started(svc, tuple(names))
    field = await load(svc, tid)
    assert field is not None
    assert await present.post_table(svc, cast(Bot, bot), field, notify=None)
    assert all(f"tg://user?id={p}" in bot.captions[-1] for p in names)
    m = min(field.matches, key=lambda x: (x.round, x.idx))
    asked = await play(svc, field, m.idx, m.player_a)
    assert isinstance(asked, Asked)
    await _finish_duel(svc, asked.challenge_id, m.player_b, m.player_a)
    freed = {m.player_a, m.player_b}
    await jobs.refresh(svc, cast(Bot, bot), tid, freed=frozenset(freed))
    lines = bot.captions[-1].splitlines()
    field = await load(svc, tid)
    assert field is not None
    kinds = set()
    for f in field.upcoming():
        [line] = [x for x in lines if x.startswith("⚔️") and names[f.player_a] in x
                  and names[f.player_b] in x]
        pinged = bool({f.player_a, f.player_b} & freed)
        kinds.add(pinged)
        for p in (f.player_a, f.player_b):
            assert (f"tg://user?id={p}" in line) is pinged, line
            assert (f"<b>{names[p]}</b>" in line) is not pinged, line
    assert kinds == {True, False}  # both kinds of line were checked
