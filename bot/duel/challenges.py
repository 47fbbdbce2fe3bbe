"""Challenges: `/duel` makes one, a button or the clock settles it exactly once."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass

from telegram import Bot, Message, User

from bot.common.handlers import display_name
from bot.common.refusal import Refusal, Refused
from bot.duel.present import LIVE, present
from bot.duel.service import start_duel
from bot.i18n import Translator, mention_html
from bot.services import Services
from bot.storage import ChallengeRecord, ChallengeStatus, DuelRecord
from bot.telegram import send
from rules.duel import MAX_STACK, MIN_STACK

log = logging.getLogger(__name__)


class BadDuelCommand(Refused):
    """`/duel` arguments that do not parse; its refusal is the reply."""

    def __init__(self, key: str) -> None:
        super().__init__(Refusal(key))


# Telegram's usernames are 5-32 characters of [A-Za-z0-9_]; collectible usernames (bought on
# Fragment) can be 4 characters long, so 4-32 are accepted.
USERNAME = re.compile(r"[A-Za-z0-9_]{4,32}")
# A stack is written with the ASCII digits only: str.isdigit() and int() also take other
# scripts' digits (Arabic-Indic, full-width) and isdigit() passes superscripts and circled
# digits that int() then refuses.
STACK = re.compile(r"[0-9]+")


@dataclass(frozen=True, slots=True)
class DuelRequest:
    target_id: int | None
    target_username: str | None
    target_is_bot: bool
    stack: int | None
    target: User | None = None  # the challenged user, when the update says who it is


def parse_stack(arg: str) -> int:
    """A stack in range written with the digits 0-9 (leading zeros allowed); else
    BadDuelCommand saying how to write it."""
    if STACK.fullmatch(arg) is None:
        raise BadDuelCommand("error.stack_digits")
    digits = arg.lstrip("0")
    # A number longer than the largest stack is out of range (and int() is never asked to
    # convert thousands of digits).
    if len(digits) > len(str(MAX_STACK)) or not MIN_STACK <= int(digits or "0") <= MAX_STACK:
        raise BadDuelCommand("error.stack_range")
    return int(digits)


def meant_as_number(arg: str) -> bool:
    """An argument written as a number, in any script or with a sign (`-5`, `4.5`, `²`,
    `٥٠`, `五十`), rather than a word that happens to hold a digit (`bob2`)."""
    return any(ch.isnumeric() for ch in arg) and not any(
        ch.isalpha() and not ch.isnumeric() for ch in arg)


def parse_username(arg: str) -> str:
    """The name of a `@username` argument; BadDuelCommand if Telegram would not allow it."""
    name = arg[1:]
    if USERNAME.fullmatch(name) is None:
        raise BadDuelCommand("error.bad_username")
    return name


def parse_duel_command(message: Message, args: list[str]) -> DuelRequest:
    """Who is challenged (a reply, @username, a text mention, or nobody: an open challenge)
    and with what stack. BadDuelCommand (its refusal the reply) for anything
    else: at most one @username and one stack, each well formed."""
    target: User | None = None
    username: str | None = None
    stack: int | None = None
    # The words of a text mention (a user without a username, picked from the list) are
    # the mention, whatever they look like.
    mentioned = {word for e in message.entities if e.user is not None
                 for word in (message.parse_entity(e) or "").split()}
    for arg in args:
        if arg in mentioned:
            continue
        if arg.startswith("@"):
            if username is not None:
                raise BadDuelCommand("error.bad_args")
            username = parse_username(arg)
        elif STACK.fullmatch(arg) is not None or meant_as_number(arg):
            if stack is not None:
                raise BadDuelCommand("error.bad_args")
            stack = parse_stack(arg)
        else:
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
                           status: ChallengeStatus = ChallengeStatus.PENDING,
                           by: User | None = None) -> str:
    """The challenge's text; `by`: who settled it (the decliner is named by their name)."""
    challenger = display_name(await svc.storage.users.get(c.challenger_id))
    if by is not None and status is ChallengeStatus.DECLINED:
        return challenge_text(tr, c, challenger, mention_html(by.id, by.full_name), status)
    target = None
    if c.target_id is not None:
        target = display_name(await svc.storage.users.get(c.target_id))
    return challenge_text(tr, c, challenger, target_label(c, target), status)


OWN_CHALLENGE = Refusal("toast.own_challenge")
NOT_FOR_YOU = Refusal("toast.not_for_you")
DECLINE_OPEN = Refusal("toast.decline_open")
DECLINE_OWN = Refusal("toast.decline_own")


def may_accept(c: ChallengeRecord, user: User) -> Refusal | None:
    """None if `user` may accept, else why not."""
    if user.id == c.challenger_id:
        return OWN_CHALLENGE
    if user.is_bot:
        return NOT_FOR_YOU
    if c.target_id is not None and user.id != c.target_id:
        return NOT_FOR_YOU
    if c.target_username and (user.username or "").lower() != c.target_username.lower():
        return NOT_FOR_YOU
    return None


def may_decline(c: ChallengeRecord, user: User) -> Refusal | None:
    """None if `user` may decline: only the challenged player, so an open challenge cannot be
    declined at all (its author withdraws it, or it expires). Else why not."""
    if c.target_id is None and not c.target_username:
        return DECLINE_OPEN
    if user.id == c.challenger_id:
        return DECLINE_OWN
    return may_accept(c, user)


async def settle(svc: Services, bot: Bot, tr: Translator, c: ChallengeRecord,
                 status: ChallengeStatus, by: User | None = None) -> bool:
    """Decline (`by` the decliner), withdraw or expire a pending challenge; False if it was
    settled already."""
    if status is ChallengeStatus.DECLINED and by is None:
        raise ValueError("a declined challenge says who declined it")
    settled = await svc.storage.challenges.transition(c.id, c.version, status)
    if settled is None:
        return False
    log.info("challenge %d in chat %d: %s", c.id, c.chat_id, status.value)
    if settled.message_id is not None:
        text = await render_challenge(svc, tr, c, status, by)
        await send.edit_text(bot, c.chat_id, settled.message_id, text, None)
    return True


async def accept(svc: Services, bot: Bot, tr: Translator, c: ChallengeRecord,
                 user: User) -> DuelRecord | None:
    """Start the duel (saved first), then show it: the challenge's message becomes the
    duel's header (`bot.duel.present`) and the first bullet is sent."""
    record = await start_duel(svc, c, user.id)
    if record is None:
        return None
    async with LIVE.lock(svc, record.id):  # the sync job must not send it a second time
        await present(svc, bot, record)
    return record
