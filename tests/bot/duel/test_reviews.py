"""The review's words: each player's accuracy and luck (a real minus sign), the worst move
with the better one and what it cost, and a move costing under half a percent not called a
mistake; in English and Russian (names in the nominative).

Computed lazily (issue 21), through the due row and a counting runner on both engines: nothing
before the first press, which answers "being prepared" at once and gets the review posted in
reply to the result, in the asker's language; presses meanwhile compute and post nothing more;
a press once it is kept shows it."""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any, ParamSpec, TypeVar, cast

import pytest
from telegram import Bot, CallbackQuery, Chat, Message

from bot.common import due
from bot.duel import reviews
from bot.duel.reviews import review_text
from bot.i18n import Texts, translator
from bot.offload import Offload
from bot.services import KEY, Services
from bot.storage import DuelRecord, DuelStatus, Storage
from bot.telegram import App
from rules.duel import MIN_STACK, Bet, DuelState, choose_first_dealer, searches
from rules.duel.ai import choose
from rules.duel.reviewed import Mistake, PlayerReview, Review
from rules.duel.selfplay import play_out

P = ParamSpec("P")
T = TypeVar("T")


def plain(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html)


REVIEW = Review((
    PlayerReview(5, 87.2, -0.51, Mistake(4, Bet(4, 2), Bet(1, 1), 0.18)),
    PlayerReview(5, 99.4, 0.51, Mistake(2, Bet(0, 2), Bet(3, 2), 0.004)),
))


def test_the_review_says_accuracy_luck_and_the_worst_move() -> None:
    texts = Texts.load(strict=True)
    en = plain(review_text(texts["en"], ("Alice", "Bob"), REVIEW)).splitlines()
    assert en[1] == "Alice: accuracy 87% · luck −51%"
    assert en[2].strip() == ("worst move: bullet 4, #5 with 2 chips instead of #2 with 1 chip "
                             "(−18% to win the duel)")
    assert en[3] == "Bob: accuracy 99% · luck +51%"
    assert en[4].strip() == "no move cost a chance to win"  # 0.4%: not called a mistake
    ru = plain(review_text(texts["ru"], ("Анна", "Дмитрий"), REVIEW)).splitlines()
    assert ru[1] == "Анна: точность 87% · удача −51%"
    assert ru[2].strip() == ("худший ход: пуля 4, №5 (2 фишки) вместо №2 (1 фишка) "
                             "(−18% к шансу выиграть дуэль)")
    assert Review.from_json(REVIEW.to_json()) == REVIEW


# --- lazy: computed on the first press, posted by its due row -----------------------------

T0 = 1_700_000_000
CHAT, ALICE, BOB, CAROL = -100555, 101, 202, 303
RESULT_MESSAGE = 55


class Searches(Offload):
    """The injectable runner: in-process, counting each search; the review's search is a
    canned result (its own test is tests/rules/duel/test_review.py), and it waits for `go`
    so a test can press while it is being computed."""

    def __init__(self) -> None:
        super().__init__(0)
        self.calls: list[str] = []
        self.started, self.go = asyncio.Event(), asyncio.Event()

    async def run(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        self.calls.append(getattr(fn, "__name__", "?"))
        self.started.set()
        await self.go.wait()
        if fn is searches.review:
            return cast(T, REVIEW)
        return await super().run(fn, *args, **kwargs)


@dataclass
class FakeBot:
    texts: list[dict[str, Any]] = field(default_factory=list)

    async def send_message(self, chat_id: int, text: str, **kw: Any) -> SimpleNamespace:
        self.texts.append({"chat_id": chat_id, "text": plain(text), **kw})
        return SimpleNamespace(message_id=1000 + len(self.texts))


@dataclass
class Query:
    """A press of the result's Review button: its answers recorded."""

    message: Message
    from_user: SimpleNamespace
    answers: list[str | None] = field(default_factory=list)

    async def answer(self, text: str | None = None) -> bool:
        self.answers.append(text)
        return True


@dataclass
class Bench:
    svc: Services
    bot: FakeBot
    scheduler: due.Scheduler
    reviewer: reviews.Reviewer
    searches: Searches
    record: DuelRecord

    async def press(self, language: str = "en") -> Query:
        chat = Chat(CHAT, "supergroup")
        query = Query(Message(RESULT_MESSAGE, datetime.now(UTC), chat),
                      SimpleNamespace(language_code=language))
        await self.reviewer.on_press(cast(Bot, self.bot), cast(CallbackQuery, query),
                                     translator(language), self.record)
        return query


@pytest.fixture
async def bench(store: Storage) -> AsyncIterator[Bench]:
    searches = Searches()
    svc = Services(storage=store, clock=lambda: T0, offload=searches)
    bot = FakeBot()
    app = cast(App, SimpleNamespace(bot=bot, bot_data={KEY: svc}))
    scheduler = due.install(app, store.jobs, store.can)
    due.register(app, reviews.REVIEW, reviews.on_due)  # as bot.duel.register does
    reviewer = reviews.install(app)
    for uid, name in ((ALICE, "Alice"), (BOB, "Bob")):
        await store.users.upsert(uid, name, now=T0)
    deals, moves = random.Random(3), random.Random(4)
    state = play_out(DuelState.new(MIN_STACK, choose_first_dealer(deals)), deals,
                     lambda view, p: choose(view, p, "random", moves))
    created = await store.duels.create(CHAT, None, (ALICE, BOB), "{}", T0)
    await store.duels.save(created.id, 0, state.to_json(), DuelStatus.FINISHED, now=T0 + 1)
    record = await store.duels.get(created.id)
    assert record is not None
    yield Bench(svc, bot, scheduler, reviewer, searches, record)
    await scheduler.stop(grace=0.1)


async def posted(b: Bench, count: int) -> None:
    async with asyncio.timeout(20):
        while len(b.bot.texts) < count:
            await asyncio.sleep(0.01)
    await b.scheduler.idle()


async def test_nothing_is_reviewed_before_the_first_press_which_posts_it_once(
        bench: Bench) -> None:
    b = bench
    assert b.svc.on_presented == []  # a result shown computes nothing
    assert await b.svc.storage.jobs.get(reviews.REVIEW, str(b.record.id)) is None
    query = await b.press()
    assert query.answers == ["Preparing the review: it will be posted here in a few seconds."]
    row = await b.svc.storage.jobs.get(reviews.REVIEW, str(b.record.id))
    assert row is not None and row.data == {
        "chat": CHAT, "thread": None, "reply_to": RESULT_MESSAGE, "lang": "en"}
    b.searches.go.set()
    await b.scheduler.start()
    await posted(b, 1)
    [post] = b.bot.texts
    assert post["chat_id"] == CHAT and post["reply_to_message_id"] == RESULT_MESSAGE
    lines = post["text"].splitlines()
    assert lines[0].startswith("🔎 Review") and lines[1] == "Alice: accuracy 87% · luck −51%"
    assert b.searches.calls == ["review"]
    assert Review.from_json(await b.svc.storage.duels.review_of(b.record.id) or "") == REVIEW
    assert await b.svc.storage.jobs.get(reviews.REVIEW, str(b.record.id)) is None


async def test_presses_while_it_is_computed_compute_and_post_it_once_then_show_it(
        bench: Bench) -> None:
    b = bench
    first = await b.press("ru")  # the asker's language: the post's
    await b.press()  # before the row runs
    await b.scheduler.start()
    await asyncio.wait_for(b.searches.started.wait(), 20)
    during = await b.press()  # while it is computed
    assert during.answers == ["Preparing the review: it will be posted here in a few seconds."]
    assert first.answers == ["Готовим разбор: он появится здесь через несколько секунд."]
    b.searches.go.set()
    await posted(b, 1)
    await asyncio.sleep(0.1)
    assert len(b.bot.texts) == 1 and b.searches.calls == ["review"]
    assert b.bot.texts[0]["text"].startswith("🔎 Разбор")
    after = await b.press()  # kept: shown at once, nothing computed, nothing armed
    assert after.answers == [None] and len(b.bot.texts) == 2
    assert b.bot.texts[1]["text"].startswith("🔎 Review")
    assert b.bot.texts[1]["reply_to_message_id"] == RESULT_MESSAGE
    assert b.searches.calls == ["review"]
    assert await b.svc.storage.jobs.get(reviews.REVIEW, str(b.record.id)) is None


async def test_a_row_armed_before_reviews_were_lazy_computes_nothing(bench: Bench) -> None:
    b = bench
    await b.scheduler.later(reviews.REVIEW, str(b.record.id), 0.0)  # no data: nobody asked
    b.searches.go.set()
    await b.scheduler.start()
    async with asyncio.timeout(20):
        while await b.svc.storage.jobs.get(reviews.REVIEW, str(b.record.id)) is not None:
            await asyncio.sleep(0.01)
    await b.scheduler.idle()
    assert b.searches.calls == [] and b.bot.texts == []
    assert await b.svc.storage.duels.review_of(b.record.id) is None


async def test_a_duel_closed_without_counting_has_no_review_to_wait_for(bench: Bench) -> None:
    b = bench
    b.record = replace(b.record, status=DuelStatus.ABANDONED)
    query = await b.press()
    assert query.answers == [translator("en").t("toast.invalid")]
    assert await b.svc.storage.jobs.get(reviews.REVIEW, str(b.record.id)) is None
