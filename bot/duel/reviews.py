"""The review of a finished duel (issue 12): each player's accuracy, luck and worst mistake
(`rules.duel.review`, from the public log only), shown by the result's Review button.

It is computed lazily (issue 21): on the first press of the button, never before (most results
are never reviewed, and a review is about half a second of CPU). That press is answered at once
("being prepared") and arms the due row `review` (key the duel's id, armed sooner-only, its
data where to post: the chat, its topic, the result's message, the asker's language); its
handler computes the review in the search process (`bot.offload`), keeps it (once: the first
kept stays) and posts it in reply to the result, so nobody has to press again. A press while
the row waits or runs gets the same answer and arms nothing new (the row due now stays as it
is): one computation, one post. A press once it is kept shows it at once. The due row
(bot.common.due) makes it survive a kill and run on any one worker."""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass
from typing import Any

from telegram import Bot, CallbackQuery, Message

from bot.common import due
from bot.common.errors import answer_quietly
from bot.common.handlers import chat_language, display_name, toast
from bot.i18n import Html, Translator
from bot.services import Services, services
from bot.storage import DuelRecord
from bot.telegram import App, send
from rules.duel import Bet
from rules.duel.reviewed import PlayerReview, Review
from rules.duel.searches import review

log = logging.getLogger(__name__)

KEY = "sixshooter.reviews"  # the Reviewer in bot_data
REVIEW = "review"  # the due rows' kind


@dataclass(frozen=True, slots=True)
class Asked:
    """Where a review asked for is posted: in reply to the result, in the asker's language (a
    chat's fixed language wins)."""

    chat_id: int
    thread_id: int | None
    reply_to: int | None
    language: str | None

    def data(self) -> dict[str, Any]:
        return {"chat": self.chat_id, "thread": self.thread_id, "reply_to": self.reply_to,
                "lang": self.language}

    @classmethod
    def of(cls, data: Any) -> Asked | None:
        """From a due row's data; None for a row armed before reviews were lazy (nobody
        asked for it: it is computed when someone does)."""
        if not isinstance(data, dict) or "chat" not in data:
            return None
        return cls(int(data["chat"]), data.get("thread"), data.get("reply_to"), data.get("lang"))


class Reviewer:
    def __init__(self, svc: Services, scheduler: due.Scheduler | None) -> None:
        self.svc, self.scheduler = svc, scheduler
        self._running: set[int] = set()

    async def on_press(self, bot: Bot, query: CallbackQuery, tr: Translator,
                       record: DuelRecord) -> None:
        """The Review button: the kept review at once, else "being prepared" and its post
        armed (once: a row armed already stays as it is)."""
        if record.status.value != "finished":  # abandoned: no review will ever come
            await toast(query, tr.t("toast.invalid"))
            return
        kept = await self.svc.storage.duels.review_of(record.id)
        message = query.message
        reply_to = message.message_id if isinstance(message, Message) else None
        chat, thread = record.chat_id, record.thread_id
        if record.inline:  # a duel anywhere: the review goes to the asker's private chat
            chat, thread, reply_to = query.from_user.id, None, None
            known = await self.svc.storage.chats.get(chat)
            if known is None or not known.active or known.type != "private":
                await toast(query, tr.t("inline.review_private", bot=bot.username or ""))
                return
        if kept is not None:
            await answer_quietly(query)
            await self.post(bot, tr, record, Review.from_json(kept),
                            Asked(chat, thread, reply_to, None))
            return
        await toast(query, tr.t("review.pending"))
        if self.scheduler is not None:
            asked = Asked(chat, thread, reply_to, query.from_user.language_code)
            await self.scheduler.later(REVIEW, str(record.id), 0.0, asked.data(),
                                       sooner_only=True)

    async def compute(self, duel_id: int) -> Review | None:
        """Compute and keep the duel's review, unless kept already; the review (None: no such
        finished duel, or being computed here already)."""
        duels = self.svc.storage.duels
        kept = await duels.review_of(duel_id)
        if kept is not None:
            return Review.from_json(kept)
        record = await duels.get(duel_id)
        if record is None or record.status.value != "finished" or duel_id in self._running:
            return None
        self._running.add(duel_id)
        try:
            state = duels.state(record)
            # Seeded by the duel: computed again, the same review.
            done = await self.svc.offload.run(review, state, random.Random(duel_id))
            await duels.keep_review(duel_id, done.to_json(), now=self.svc.clock())
            log.info("duel %d: reviewed", duel_id)
            kept = await duels.review_of(duel_id)  # the first kept, if another was quicker
            return done if kept is None else Review.from_json(kept)
        finally:
            self._running.discard(duel_id)

    async def compute_and_post(self, bot: Bot, duel_id: int, asked: Asked) -> bool:
        """The due row's work: the review kept, and posted where it was asked for."""
        done = await self.compute(duel_id)
        record = await self.svc.storage.duels.get(duel_id)
        if done is None or record is None:
            return False
        tr = await chat_language(self.svc, asked.chat_id, asked.language)
        await self.post(bot, tr, record, done, asked)
        return True

    async def post(self, bot: Bot, tr: Translator, record: DuelRecord, done: Review,
                   asked: Asked) -> None:
        known = await self.svc.storage.users.get_many(record.players)
        users = [known[uid] for uid in record.players]
        names = (display_name(users[0]), display_name(users[1]))
        text = review_text(tr, names, done, record.hints if record.practice else None)
        await send.send_text(bot, asked.chat_id, asked.thread_id, text, reply_to=asked.reply_to)


def _bet(tr: Translator, bet: Bet) -> Html:
    return tr.tn("review.bet", bet.chips, hand=bet.position + 1)


def _player(tr: Translator, name: str, r: PlayerReview) -> list[Html]:
    luck = f"{r.luck * 100:+.0f}".replace("-", "−")  # a real minus sign
    lines = [tr.t("review.player", name=name, accuracy=f"{r.accuracy:.0f}", luck=luck)]
    if r.worst is not None and r.worst.loss >= 0.005:
        lines.append(tr.t("review.worst", bullet=r.worst.bullet, chosen=_bet(tr, r.worst.chosen),
                          best=_bet(tr, r.worst.best), loss=f"{r.worst.loss * 100:.0f}"))
    else:
        lines.append(tr.t("review.no_mistake"))
    return lines


def review_text(tr: Translator, names: tuple[str, str], done: Review,
                hints: int | None = None) -> Html:
    """The review's text; `hints`: a practice duel's hints taken (`bot.duel.hints`)."""
    lines = [tr.t("review.title")]
    for p in (0, 1):
        lines += _player(tr, names[p], done.players[p])
    if hints is not None:
        lines.append(tr.t("review.hints", count=hints))
    lines.append(tr.t("review.legend"))
    return Html("\n".join(lines))


async def on_due(app: App, key: str, data: Any) -> None:
    reviewer = reviewer_of(app.bot_data)
    if reviewer is None:
        raise LookupError("the reviewer is not installed")
    asked = Asked.of(data)
    if asked is not None:
        await reviewer.compute_and_post(app.bot, int(key), asked)


def install(app: App) -> Reviewer:
    svc = services(app.bot_data)
    reviewer = Reviewer(svc, due.of(app))
    app.bot_data[KEY] = reviewer
    return reviewer


def reviewer_of(bot_data: dict[str, Any]) -> Reviewer | None:
    found = bot_data.get(KEY)
    return found if isinstance(found, Reviewer) else None
