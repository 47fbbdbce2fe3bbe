"""Challenges: `/duel` makes one, a button or the clock settles it exactly once."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from telegram import Bot, Message, User

from bot import tg
from bot.game import start_duel
from bot.i18n import Translator, mention_html
from bot.present import display_name, present, table_for
from bot.services import Services
from bot.storage import ChallengeRecord, ChallengeStatus, DuelRecord
from rules.duel import MAX_STACK, MIN_STACK, DuelState

log = logging.getLogger(__name__)


class BadDuelCommand(ValueError):
    """`/duel` arguments that do not parse; the value is the catalog key of the reply."""


@dataclass(frozen=True, slots=True)
class DuelRequest:
    target_id: int | None
    target_username: str | None
    target_is_bot: bool
    stack: int | None
    target: User | None = None  # the challenged user, when the update says who it is


def parse_duel_command(message: Message, args: list[str]) -> DuelRequest:
    """Who is challenged (a reply, @username, a text mention, or nobody: an open challenge)
    and with what stack."""
    target: User | None = None
    username: str | None = None
    stack: int | None = None
    for arg in args:
        if arg.startswith("@") and len(arg) > 1 and username is None:
            username = arg[1:]
        elif arg.lstrip("-").isdigit() and stack is None:
            stack = int(arg)
            if not MIN_STACK <= stack <= MAX_STACK:
                raise BadDuelCommand("error.stack_range")
        elif not any(e.user and arg in (message.parse_entity(e) or "").split() for e in
                     message.entities):
            raise BadDuelCommand("error.bad_args")
    for entity in message.entities:
        if entity.type == "text_mention" and entity.user is not None:
            target = entity.user
    reply = message.reply_to_message
    topic_root = message.is_topic_message and reply is not None and (
        reply.message_id == message.message_thread_id)
    if target is None and username is None and reply is not None and not topic_root:
        target = reply.from_user
    if target is None:
        return DuelRequest(None, username, False, stack)
    return DuelRequest(target.id, None, target.is_bot, stack, target)


def challenge_text(tr: Translator, c: ChallengeRecord, challenger: str, target: str | None,
                   status: ChallengeStatus = ChallengeStatus.PENDING) -> str:
    who = mention_html(c.challenger_id, challenger)
    if status is ChallengeStatus.PENDING:
        if target is None:
            return tr.tn("challenge.open", c.stack, challenger=who)
        return tr.tn("challenge.targeted", c.stack, challenger=who, target=target)
    return tr.t(f"challenge.{status.value}", challenger=who, target=target or "")


def target_label(c: ChallengeRecord, name: str | None) -> str | None:
    if c.target_id is not None:
        return mention_html(c.target_id, name or "?")
    if c.target_username:
        return "@" + c.target_username
    return None


async def render_challenge(svc: Services, tr: Translator, c: ChallengeRecord,
                           status: ChallengeStatus = ChallengeStatus.PENDING) -> str:
    challenger = display_name(await svc.storage.users.get(c.challenger_id))
    target = None
    if c.target_id is not None:
        target = display_name(await svc.storage.users.get(c.target_id))
    return challenge_text(tr, c, challenger, target_label(c, target), status)


def may_accept(c: ChallengeRecord, user: User) -> str | None:
    """None if `user` may accept, else the toast key saying why not."""
    if user.id == c.challenger_id:
        return "toast.own_challenge"
    if user.is_bot:
        return "toast.not_for_you"
    if c.target_id is not None and user.id != c.target_id:
        return "toast.not_for_you"
    if c.target_username and (user.username or "").lower() != c.target_username.lower():
        return "toast.not_for_you"
    return None


async def settle(svc: Services, bot: Bot, tr: Translator, c: ChallengeRecord,
                 status: ChallengeStatus) -> bool:
    """Decline, withdraw or expire a pending challenge; False if it was settled already."""
    if not await svc.storage.challenges.transition(c.id, c.version, status):
        return False
    log.info("challenge %d in chat %d: %s", c.id, c.chat_id, status.value)
    if c.message_id is not None:
        text = await render_challenge(svc, tr, c, status)
        await tg.edit_text(bot, c.chat_id, c.message_id, text, None)
    return True


async def accept(svc: Services, bot: Bot, tr: Translator, c: ChallengeRecord,
                 user: User) -> DuelRecord | None:
    """Start the duel (saved first), then say so and show its first bullet."""
    record = await start_duel(svc, c, user.id)
    if record is None:
        return None
    state = DuelState.from_json(record.state_json)
    t = await table_for(svc, record)
    if c.message_id is not None:
        dealer = t.seats[state.dealer].mention
        text = tr.t("challenge.accepted", p0=t.seats[0].mention, p1=t.seats[1].mention,
                    dealer=dealer)
        await tg.edit_text(bot, c.chat_id, c.message_id, text, None)
    async with svc.lock(f"duel:{record.id}"):  # the sync job must not send it a second time
        await present(svc, bot, record)
    return record
