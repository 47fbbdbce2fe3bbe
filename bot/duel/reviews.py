"""The review of a finished duel (issue 12): each player's accuracy, luck and worst mistake
(`rules.duel.review`, from the public log only). It is computed once, in the background (a
worker thread, after the duel's result is shown: never delaying a tap), kept in storage, and
shown by the result's Review button. The work is a due row (kind `review`, key the duel's id:
bot.common.due), so any worker does it and a restart keeps it; done twice, the review is kept
once (the first). At start, the duels finished in the last days without a review get theirs."""

from __future__ import annotations

import asyncio
import logging
import random
from typing import Any

from bot.common import due
from bot.i18n import Html, Translator
from bot.services import Services, services
from bot.storage import DuelRecord
from bot.telegram import App
from rules.duel import Bet, DuelState
from rules.duel.review import PlayerReview, Review, review

log = logging.getLogger(__name__)

KEY = "sixshooter.reviews"  # the Reviewer in bot_data
DELAY = 0.5  # seconds after the result is shown
CATCH_UP = 3 * 24 * 3600  # after a restart: duels finished this recently get their review
REVIEW = "review"  # the due rows' kind


class Reviewer:
    def __init__(self, svc: Services, scheduler: due.Scheduler | None) -> None:
        self.svc, self.scheduler = svc, scheduler
        self._running: set[int] = set()

    async def on_presented(self, record: DuelRecord) -> None:
        """A duel just shown finished: review it soon (once)."""
        if record.status.value == "finished" and self.scheduler is not None:
            await self.scheduler.later(REVIEW, str(record.id), DELAY, sooner_only=True)

    async def compute(self, duel_id: int) -> Review | None:
        """Compute and keep the duel's review, unless kept already; the review."""
        duels = self.svc.storage.duels
        kept = await duels.review_of(duel_id)
        if kept is not None:
            return Review.from_json(kept)
        record = await duels.get(duel_id)
        if record is None or record.status.value != "finished" or duel_id in self._running:
            return None
        self._running.add(duel_id)
        try:
            state = DuelState.from_json(record.state_json)
            # Seeded by the duel: computed again, the same review.
            done = await asyncio.get_running_loop().run_in_executor(
                None, review, state, random.Random(duel_id))
            await duels.keep_review(duel_id, done.to_json(), now=self.svc.clock())
            log.info("duel %d: reviewed", duel_id)
            return done
        finally:
            self._running.discard(duel_id)

    async def resume(self) -> int:
        since = self.svc.clock() - CATCH_UP
        pending = await self.svc.storage.duels.unreviewed(since)
        if self.scheduler is not None:
            for n, duel_id in enumerate(pending):
                await self.scheduler.later(REVIEW, str(duel_id), DELAY * (n + 2),
                                           sooner_only=True)
        return len(pending)


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


async def _on_due(app: App, key: str, data: Any) -> None:
    reviewer = reviewer_of(app.bot_data)
    if reviewer is None:
        raise LookupError("the reviewer is not installed")
    await reviewer.compute(int(key))


due.register(REVIEW, _on_due)


def install(app: App) -> Reviewer:
    svc = services(app.bot_data)
    reviewer = Reviewer(svc, due.of(app))
    svc.on_presented.append(reviewer.on_presented)
    app.bot_data[KEY] = reviewer
    return reviewer



def reviewer_of(bot_data: dict[str, Any]) -> Reviewer | None:
    found = bot_data.get(KEY)
    return found if isinstance(found, Reviewer) else None
