"""The fake's state plus its test-control and query API (plain Python, no HTTP here)."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import itertools
import math
import time
from collections import Counter, deque
from collections.abc import Awaitable, Callable, Iterable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, TypeVar

from .formatting import detect_entities
from .model import (
    BOT_ID,
    BOT_USERNAME,
    JSON,
    CallbackQueryRecord,
    FakeChat,
    FakeMessage,
    FakePhoto,
    FakeUser,
    InlineQueryRecord,
    RecordedRequest,
    bot_user_dict,
)

T = TypeVar("T")


async def until(predicate: Callable[[], T | None], timeout: float,
                change: Callable[[float], Awaitable[None]], failed: Callable[[], str]) -> T:
    """``predicate()``'s first truthy value, looked at again after each ``change(remaining)``;
    TimeoutError saying ``failed()`` once ``timeout`` seconds have gone."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        value = predicate()
        if value:
            return value
        remaining = deadline - loop.time()
        if remaining <= 0:
            raise TimeoutError(failed())
        await change(remaining)
# sequence number of the request being handled (each aiohttp request runs in its own task)
current_request: ContextVar[int | None] = ContextVar("current_request", default=None)
ChatRef = FakeChat | int
UserRef = FakeUser | int
InlineRef = FakeMessage | str
# InlineQuery.chat_type: where the user typed the query ("sender": their chat with the bot)
INLINE_CHAT_TYPES = ("sender", "private", "group", "supergroup", "channel")
MAX_INLINE_QUERY = 256  # InlineQuery.query: "up to 256 characters"

# Update types delivered when allowed_updates was never given (or given as []).
DEFAULT_ALLOWED_UPDATES = frozenset(
    {
        "message", "edited_message", "channel_post", "edited_channel_post",
        "business_connection", "business_message", "edited_business_message",
        "deleted_business_messages", "inline_query", "chosen_inline_result", "callback_query",
        "shipping_query", "pre_checkout_query", "purchased_paid_media", "poll", "poll_answer",
        "my_chat_member", "chat_join_request", "chat_boost", "removed_chat_boost",
    }
)  # fmt: skip
ADMIN_RIGHTS = (
    "can_be_edited", "is_anonymous", "can_manage_chat", "can_delete_messages",
    "can_manage_video_chats", "can_restrict_members", "can_promote_members", "can_change_info",
    "can_invite_users", "can_post_stories", "can_edit_stories", "can_delete_stories",
)  # fmt: skip


@dataclass
class Injection:
    """A scripted failure for the next ``count`` calls of a method ("*" = any method)."""

    kind: str  # "429" | "network"
    count: int
    retry_after: int = 1
    after_processing: bool = False  # network failure after the call took effect


@dataclass
class FloodLimits:
    """Opt-in automatic 429s, roughly Telegram's documented pacing for bots.

    Counts successful sends (and edits, with ``count_edits``) per chat, and over every chat
    for ``per_bot_per_second``, in sliding windows.
    """

    per_group_per_minute: int | None = 20
    per_chat_per_second: int | None = None
    count_edits: bool = True
    per_bot_per_second: int | None = None


def member_dict(user: JSON, status: str) -> JSON:
    """A ChatMember object for ``status``."""
    out: JSON = {"user": user, "status": status}
    if status == "creator":
        out["is_anonymous"] = False
    elif status == "administrator":
        out |= dict.fromkeys(ADMIN_RIGHTS, False)
        out |= {"can_manage_chat": True, "can_delete_messages": True}
    elif status == "kicked":
        out["until_date"] = 0
    elif status == "restricted":
        out |= {
            "is_member": True,
            "until_date": 0,
            **dict.fromkeys(
                (
                    "can_send_messages", "can_send_audios", "can_send_documents",
                    "can_send_photos", "can_send_videos", "can_send_video_notes",
                    "can_send_voice_notes", "can_send_polls", "can_send_other_messages",
                    "can_add_web_page_previews", "can_change_info", "can_invite_users",
                    "can_pin_messages", "can_manage_topics",
                ),
                False,
            ),
        }  # fmt: skip
    return out


class FakeState:
    """Users, chats, messages, the update queue, recorded requests and waiting helpers."""

    def __init__(
        self,
        *,
        strict_ampersand: bool = True,
        callback_answer_timeout: float = 15.0,
        privacy_mode: bool = True,
    ) -> None:
        self.strict_ampersand = strict_ampersand
        self.privacy_mode = privacy_mode
        self.callback_answer_timeout = callback_answer_timeout
        self.users: dict[int, FakeUser] = {}
        self.chats: dict[int, FakeChat] = {}
        self.requests: list[RecordedRequest] = []
        self.callback_queries: dict[str, CallbackQueryRecord] = {}
        self.commands: dict[tuple[str, str], list[JSON]] = {}  # (scope JSON, lang) -> commands
        self.warnings: list[str] = []  # things Telegram accepts silently but a test may care about
        self._messages: dict[tuple[int, int], FakeMessage] = {}
        self._files: dict[str, FakePhoto] = {}
        self._updates: list[JSON] = []
        self._all_updates: list[JSON] = []
        self._next_update_id = 100_000_001
        self._delivered_upto = 0
        self._allowed_updates: frozenset[str] = DEFAULT_ALLOWED_UPDATES
        self._injections: dict[str, list[Injection]] = {}
        self.closed_topics: set[tuple[int, int]] = set()  # (chat id, message_thread_id)
        self.photo_restricted: set[int] = set()  # chats whose members may not send photos
        self.migrated: dict[int, int] = {}  # an upgraded group's id -> its supergroup's id
        self.delays: dict[str, float] = {}  # method -> seconds its answer comes late
        self.flood_limits: FloodLimits | None = None
        self._chat_sends: dict[int, deque[float]] = {}
        self._bot_sends: deque[float] = deque()  # every chat's, for the per-bot limit
        self._waiters: list[asyncio.Future[None]] = []
        self._user_ids = itertools.count(1001)
        self._group_ids = itertools.count(4_000_000_001)
        self._supergroup_ids = itertools.count(1_000_000_001)
        self._query_ids = itertools.count(1)
        self._poll_generation = 0
        self._closing = False
        # inline mode, off as for a new bot: BotFather's /setinline and /setinlinefeedback
        self.inline_mode = False
        self.inline_feedback = False
        self.inline_placeholder: str | None = None
        self.inline_answer_timeout = 10.0  # answerInlineQuery later: "query is too old"
        self.inline_queries: dict[str, InlineQueryRecord] = {}
        self.chosen_inline_results: list[JSON] = []  # every choice, delivered or not
        self._inline_messages: dict[str, FakeMessage] = {}
        self._inline_ids = itertools.count(1)
        self._user_chat_ids = itertools.count(7_000_000_001)
        self.notifications: list[tuple[int, int]] = []  # (chat id, message id) that notified

    # ------------------------------------------------------------------ notification/waiting

    def _notify(self) -> None:
        waiters, self._waiters = self._waiters, []
        for fut in waiters:
            if not fut.done():
                fut.set_result(None)

    async def _wait_change(self, timeout: float) -> None:
        """Return after the next state change or after ``timeout`` seconds."""
        if timeout <= 0:
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.append(fut)
        try:
            await asyncio.wait({fut}, timeout=timeout)
        finally:
            if not fut.done():
                fut.cancel()
                if fut in self._waiters:
                    self._waiters.remove(fut)

    async def wait_for(
        self, predicate: Callable[[], T | None], timeout: float = 5.0, what: str = "condition"
    ) -> T:
        """Wait until ``predicate()`` returns something truthy (re-checked on every change).

        Returns that value. On timeout raises TimeoutError listing the latest requests.
        """
        def failed() -> str:
            recent = "\n  ".join(r.summary() for r in self.requests[-12:]) or "(none)"
            return (f"fake Telegram API: {what} not met within {timeout}s; latest requests:\n"
                    f"  {recent}")

        return await until(predicate, timeout, self._wait_change, failed)

    async def wait_for_request(
        self,
        method: str,
        where: Callable[[RecordedRequest], bool] | None = None,
        *,
        since: int = 0,
        timeout: float = 5.0,
        completed: bool = True,
    ) -> RecordedRequest:
        """The first request to ``method`` with seq > ``since`` matching ``where``."""

        def find() -> RecordedRequest | None:
            for r in self.requests:
                if r.seq <= since or r.method != method:
                    continue
                if completed and r.status == 0:
                    continue
                if where is None or where(r):
                    return r
            return None

        return await self.wait_for(find, timeout, f"a {method} request")

    async def wait_for_message(
        self,
        chat: ChatRef,
        where: Callable[[FakeMessage], Any] | None = None,
        *,
        from_bot: bool = True,
        after_message_id: int = 0,
        timeout: float = 5.0,
    ) -> FakeMessage:
        """The first live message in ``chat`` (id > after_message_id) whose current state
        matches ``where`` (edits are seen: the predicate is re-checked on each change)."""
        chat_obj = self._chat(chat)

        def find() -> FakeMessage | None:
            for m in self.messages(chat_obj):
                if m.message_id <= after_message_id or (from_bot and not m.from_bot):
                    continue
                if where is None or where(m):
                    return m
            return None

        return await self.wait_for(find, timeout, f"a message in chat {chat_obj.id}")

    async def wait_for_edit(
        self,
        message: FakeMessage,
        where: Callable[[FakeMessage], Any] | None = None,
        *,
        timeout: float = 5.0,
    ) -> FakeMessage:
        """Wait until ``message`` is edited again (relative to now) and then matches ``where``."""
        edits = len(message.history)

        def edited() -> FakeMessage | None:
            if len(message.history) > edits and (where is None or where(message)):
                return message
            return None

        return await self.wait_for(edited, timeout, f"an edit of message {message.message_id}")

    async def wait_for_answer(
        self, query: CallbackQueryRecord | str, timeout: float = 5.0
    ) -> CallbackQueryRecord:
        record = self.callback_queries[query if isinstance(query, str) else query.id]

        def answered() -> CallbackQueryRecord | None:
            return record if record.answered else None

        return await self.wait_for(answered, timeout, f"an answer to callback query {record.id}")

    async def wait_for_inline_answer(
        self, query: InlineQueryRecord | str, timeout: float = 5.0
    ) -> InlineQueryRecord:
        """The inline query once the bot answered it (answerInlineQuery accepted)."""
        record = self.inline_queries[query if isinstance(query, str) else query.id]

        def answered() -> InlineQueryRecord | None:
            return record if record.answered else None

        return await self.wait_for(answered, timeout, f"an answer to inline query {record.id}")

    async def wait_updates_fetched(self, timeout: float = 5.0) -> None:
        """Wait until getUpdates has handed out every queued update at least once."""
        await self.wait_for(
            lambda: all(u["update_id"] <= self._delivered_upto for u in self._updates),
            timeout,
            "updates fetched by the bot",
        )

    # ------------------------------------------------------------------ queries

    @property
    def last_seq(self) -> int:
        """Sequence number of the latest request; pass as ``since=`` to wait for newer ones."""
        return self.requests[-1].seq if self.requests else 0

    def calls(self, method: str | None = None) -> list[RecordedRequest]:
        return [r for r in self.requests if method is None or r.method == method]

    def failed_calls(self, *, include_conflicts: bool = False) -> list[RecordedRequest]:
        """Calls Telegram refused (4xx/5xx), e.g. to assert the bot made no invalid request.

        Dropped connections (injected) and cancelled long polls are not failures here.
        """
        return [
            r for r in self.requests if r.status >= 400 and (include_conflicts or r.status != 409)
        ]

    def call_counts(self) -> Counter[str]:
        return Counter(r.method for r in self.requests)

    def call_count(self, method: str) -> int:
        return sum(1 for r in self.requests if r.method == method)

    def message(self, chat: ChatRef, message_id: int) -> FakeMessage:
        return self._messages[(self._chat(chat).id, message_id)]

    def messages(self, chat: ChatRef, *, include_deleted: bool = False) -> list[FakeMessage]:
        chat_id = self._chat(chat).id
        found = [
            m
            for (cid, _), m in self._messages.items()
            if cid == chat_id and (include_deleted or not m.deleted)
        ]
        return sorted(found, key=lambda m: m.message_id)

    def bot_messages(self, chat: ChatRef, *, include_deleted: bool = False) -> list[FakeMessage]:
        return [m for m in self.messages(chat, include_deleted=include_deleted) if m.from_bot]

    def last_bot_message(self, chat: ChatRef) -> FakeMessage | None:
        found = self.bot_messages(chat)
        return found[-1] if found else None

    def inline_message(self, inline_message_id: str) -> FakeMessage:
        """The message sent from an inline query result, by its ``inline_message_id``
        (deleted ones too). Its text or caption, ``photo`` (``photo.file_id``, ``photo.url``),
        ``buttons()``, ``via_bot`` and ``edits`` are the current state."""
        return self._inline_messages[inline_message_id]

    def inline_messages(self, chat: ChatRef | None = None, *,
                        include_deleted: bool = False) -> list[FakeMessage]:
        """Messages sent via the bot (inline mode), oldest first; in ``chat`` only if given."""
        chat_id = None if chat is None else self._chat(chat).id
        return [m for m in self._inline_messages.values()
                if (chat_id is None or m.chat.id == chat_id) and (include_deleted or not m.deleted)]

    def notifications_for(self, message: FakeMessage) -> int:
        """How many notifications ``message`` caused: 1 when posted (0 if sent with
        disable_notification), and edits never add any."""
        return self.notifications.count((message.chat.id, message.message_id))

    def callback_answer(self, query: CallbackQueryRecord | str) -> JSON | None:
        """What the bot answered to a callback query (None: not answered yet)."""
        return self.callback_queries[query if isinstance(query, str) else query.id].answer

    @property
    def pending_updates(self) -> list[JSON]:
        """Updates not yet confirmed by a getUpdates offset."""
        return list(self._updates)

    @property
    def all_updates(self) -> list[JSON]:
        return list(self._all_updates)

    def my_commands(self, scope: JSON | None = None, language_code: str = "") -> list[JSON]:
        from .methods import scope_key  # local: methods imports this module

        return list(self.commands.get((scope_key(scope or {"type": "default"}), language_code), []))

    # ------------------------------------------------------------------ control: people, chats

    def _chat(self, chat: ChatRef) -> FakeChat:
        return chat if isinstance(chat, FakeChat) else self.chats[chat]

    def _user(self, user: UserRef) -> FakeUser:
        return user if isinstance(user, FakeUser) else self.users[user]

    def add_user(
        self,
        first_name: str = "Alice",
        *,
        id: int | None = None,
        last_name: str | None = None,
        username: str | None = None,
        language_code: str | None = "en",
        is_bot: bool = False,
    ) -> FakeUser:
        uid = id if id is not None else next(self._user_ids)
        if uid in self.users or uid == BOT_ID:
            raise ValueError(f"user id {uid} already exists")
        user = FakeUser(uid, first_name, last_name, username, language_code, is_bot)
        self.users[uid] = user
        return user

    def create_group(
        self,
        title: str = "Six-Shooter test group",
        *,
        members: Iterable[UserRef] = (),
        supergroup: bool = False,
        forum: bool = False,
        id: int | None = None,
        username: str | None = None,
        admins: Iterable[UserRef] = (),
        bot_is_admin: bool = False,
    ) -> FakeChat:
        """A group with the bot in it; the first member is its creator.

        ``forum`` makes a forum supergroup (use ``create_topic`` for its topics).
        """
        kind = "supergroup" if supergroup or forum else "group"
        if id is None:
            id = (
                -(1_000_000_000_000 + next(self._supergroup_ids))
                if kind == "supergroup"
                else -next(self._group_ids)
            )
        if id in self.chats:
            raise ValueError(f"chat id {id} already exists")
        chat = FakeChat(id=id, type=kind, title=title, username=username, is_forum=forum)
        chat.bot_status = "administrator" if bot_is_admin else "member"
        for n, member in enumerate(members):
            chat.members[self._user(member).id] = "creator" if n == 0 else "member"
        for admin in admins:
            chat.members[self._user(admin).id] = "administrator"
        self.chats[id] = chat
        self._notify()
        return chat

    def add_member(self, chat: ChatRef, user: UserRef, status: str = "member") -> None:
        self._chat(chat).members[self._user(user).id] = status
        self._notify()

    def private_chat(self, user: UserRef) -> FakeChat:
        """The user's private chat with the bot (opening it = the user pressed Start)."""
        u = self._user(user)
        u.started_bot = True
        chat = self.chats.get(u.id)
        if chat is None:
            chat = FakeChat(id=u.id, type="private", private_user=u)
            chat.members[u.id] = "member"
            self.chats[u.id] = chat
        return chat

    def block_bot(self, user: UserRef) -> None:
        """The user blocks the bot: sends to their private chat fail with 403."""
        self._user(user).blocked_bot = True
        self._notify()

    def create_topic(self, chat: ChatRef, name: str, *, icon_color: int = 7322096) -> int:
        """A forum topic; returns its message_thread_id (the id of its creation message)."""
        c = self._chat(chat)
        if not c.is_forum:
            raise ValueError("topics exist only in forum supergroups")
        creator = next((uid for uid, s in c.members.items() if s == "creator"), None)
        sender = self.users[creator].to_dict() if creator is not None else bot_user_dict()
        msg = self._store(
            FakeMessage(
                chat=c,
                message_id=c.take_message_id(),
                sender=sender,
                service={"forum_topic_created": {"name": name, "icon_color": icon_color}},
            )
        )
        msg.message_thread_id = msg.message_id
        msg.is_topic_message = True
        c.topics[msg.message_id] = name
        return msg.message_id

    def _service(self, chat: FakeChat, by: UserRef | None, service: JSON,
                 thread: int | None = None) -> FakeMessage:
        """A service message from ``by`` (default: the chat's creator), delivered to the bot
        (bots get service messages whatever their privacy mode)."""
        msg = self._store(
            FakeMessage(
                chat=chat,
                message_id=chat.take_message_id(),
                sender=self._actor(chat, by),
                service=service,
                message_thread_id=thread,
                is_topic_message=thread is not None,
                reply_to=self._messages.get((chat.id, thread)) if thread is not None else None,
            )
        )
        msg.update_id = self._queue("message", msg.to_dict())["update_id"]
        return msg

    def close_topic(self, chat: ChatRef, thread: int, by: UserRef | None = None) -> FakeMessage:
        """Close a forum topic: the bot's sends into it get 400 "TOPIC_CLOSED" (edits of its
        messages there still work) until ``reopen_topic``. Returns the service message."""
        c = self._chat(chat)
        if thread not in c.topics:
            raise ValueError(f"no topic {thread} in chat {c.id}")
        self.closed_topics.add((c.id, thread))
        return self._service(c, by, {"forum_topic_closed": {}}, thread)

    def reopen_topic(self, chat: ChatRef, thread: int, by: UserRef | None = None) -> FakeMessage:
        c = self._chat(chat)
        self.closed_topics.discard((c.id, thread))
        return self._service(c, by, {"forum_topic_reopened": {}}, thread)

    def restrict_photos(self, chat: ChatRef, restricted: bool = True) -> None:
        """The group's permissions forbid (or allow again) sending photos: a bot that is no
        admin gets 400 "not enough rights to send photos to the chat" for sendPhoto."""
        c = self._chat(chat)
        if restricted:
            self.photo_restricted.add(c.id)
        else:
            self.photo_restricted.discard(c.id)
        self._notify()

    def delay(self, method: str, seconds: float) -> None:
        """Answer every call of ``method`` ``seconds`` late (0: on time again). The call takes
        effect at once (a sent message exists); only the answer waits, as with a slow
        Telegram, so a client that gives up early never learns what it did."""
        if seconds > 0:
            self.delays[method] = seconds
        else:
            self.delays.pop(method, None)

    def upgrade_group(self, chat: ChatRef, by: UserRef | None = None, *,
                      announce: bool = True) -> FakeChat:
        """Telegram upgrades a group to a supergroup: a new chat (new id -100..., the same
        members and title, its own message ids from 1). With ``announce`` the old group gets
        the service message ``migrate_to_chat_id`` and the supergroup ``migrate_from_chat_id``,
        both delivered to the bot. From now on every call naming the old id answers 400 "group
        chat was upgraded to a supergroup chat" with ``parameters.migrate_to_chat_id``."""
        old = self._chat(chat)
        if old.type != "group" or old.id in self.migrated:
            raise ValueError("only a basic group can be upgraded, once")
        new = self.create_group(old.title or "", supergroup=True)
        new.members = dict(old.members)
        new.bot_status = old.bot_status
        self.migrated[old.id] = new.id
        if announce:
            self.announce_upgrade(old, by)
        self._notify()
        return new

    def announce_upgrade(self, chat: ChatRef, by: UserRef | None = None) -> None:
        """The two service messages of an upgrade (``upgrade_group(announce=False)`` first):
        ``migrate_to_chat_id`` in the old group, then ``migrate_from_chat_id`` in the new."""
        old = self._chat(chat)
        new = self.chats[self.migrated[old.id]]
        actor = self._actor(old, by)["id"]
        self._service(old, actor, {"migrate_to_chat_id": new.id})
        self._service(new, actor, {"migrate_from_chat_id": old.id})

    # ------------------------------------------------------------------ control: user actions

    def _store(self, msg: FakeMessage, *, notify_members: bool = True) -> FakeMessage:
        self._messages[(msg.chat.id, msg.message_id)] = msg
        if notify_members and not msg.service:
            self.notifications.append((msg.chat.id, msg.message_id))
        self._notify()
        return msg

    def _queue(self, kind: str, payload: JSON) -> JSON:
        update = {"update_id": self._next_update_id, kind: payload}
        self._next_update_id += 1
        self._updates.append(update)
        self._all_updates.append(update)
        self._notify()
        return update

    def send_message(
        self,
        user: UserRef,
        chat: ChatRef,
        text: str,
        *,
        reply_to: FakeMessage | int | None = None,
        message_thread_id: int | None = None,
        entities: list[JSON] | None = None,
    ) -> FakeMessage:
        """The user writes ``text`` in ``chat``; queues a ``message`` update if the bot sees it.

        Entities Telegram detects itself (bot commands incl. /cmd@Bot, @mentions, hashtags,
        URLs) are computed unless ``entities`` is given. With privacy mode (the default, as
        getMe's can_read_all_group_messages=false says) a bot that is no admin sees in groups
        only messages starting with a command not addressed to another bot and replies to its
        own messages (an @mention alone is not enough); ``msg.update_id`` is None for a
        message the bot does not get.
        """
        u, c = self._user(user), self._chat(chat)
        if c.type == "private":
            if c.private_user is None or c.private_user.id != u.id:
                raise ValueError("only the chat's user can write in a private chat")
            u.started_bot = True
        elif c.members.get(u.id) not in ("creator", "administrator", "member", "restricted"):
            raise ValueError(f"user {u.id} is not a member of chat {c.id}")
        reply: FakeMessage | None = None
        if reply_to is not None:
            reply = reply_to if isinstance(reply_to, FakeMessage) else self.message(c, reply_to)
        thread, is_topic = message_thread_id, False
        if c.is_forum:
            if thread is None and reply is not None:
                thread = reply.message_thread_id
            if thread is not None:
                if thread not in c.topics:
                    raise ValueError(f"no topic {thread} in chat {c.id}")
                is_topic = True
                if reply is None:
                    reply = self._messages[(c.id, thread)]
        msg = FakeMessage(
            chat=c,
            message_id=c.take_message_id(),
            sender=u.to_dict(),
            text=text,
            entities=entities if entities is not None else detect_entities(text),
            message_thread_id=thread,
            is_topic_message=is_topic,
            reply_to=reply,
        )
        self._store(msg)
        if self._bot_sees(msg):
            msg.update_id = self._queue("message", msg.to_dict())["update_id"]
        return msg

    def _bot_sees(self, msg: FakeMessage) -> bool:
        chat = msg.chat
        if chat.without_bot:
            return False
        if chat.type == "private":
            return not (chat.private_user is not None and chat.private_user.blocked_bot)
        if chat.bot_status not in ("member", "administrator"):
            return False
        if not self.privacy_mode or chat.bot_status == "administrator":
            return True
        if msg.via_bot is not None and msg.via_bot.get("id") == BOT_ID:
            return True  # privacy mode lets through "messages sent via this bot"
        text = msg.text or ""
        for e in msg.entities:
            if e["type"] == "bot_command" and e["offset"] == 0:
                command = text[: e["length"]]
                return "@" not in command or command.lower().endswith("@" + BOT_USERNAME.lower())
        return msg.reply_to is not None and msg.reply_to.from_bot

    def send_command(
        self,
        user: UserRef,
        chat: ChatRef,
        command: str,
        args: str = "",
        *,
        mention_bot: bool = False,
        **kwargs: Any,
    ) -> FakeMessage:
        """``/command[@SixShooterTestBot] args`` from the user (kwargs as for send_message)."""
        text = "/" + command.lstrip("/") + (f"@{BOT_USERNAME}" if mention_bot else "")
        if args:
            text += " " + args
        return self.send_message(user, chat, text, **kwargs)

    def press_button(
        self,
        user: UserRef,
        message: FakeMessage,
        data: str | None = None,
        *,
        text: str | None = None,
        force: bool = False,
    ) -> CallbackQueryRecord:
        """The user presses an inline button, chosen by callback ``data`` or by button ``text``.

        Only buttons on the message's current keyboard can be pressed; ``force=True`` sends
        ``data`` anyway (a forged or stale callback).
        """
        u = self._user(user)
        if message.deleted and not force:
            raise ValueError("the message was deleted; nothing to press")
        chat = message.chat
        present = ("creator", "administrator", "member", "restricted")
        if ((chat.type != "private" or chat.without_bot)
                and chat.members.get(u.id) not in present and not force):
            raise ValueError(f"user {u.id} is not in chat {chat.id} and cannot see the button")
        if text is not None:
            matches = [b for b in message.buttons() if b["text"] == text]
            if not matches or "callback_data" not in matches[0]:
                raise ValueError(f"no callback button {text!r}; buttons: {message.button_texts()}")
            data = matches[0]["callback_data"]
        if data is None:
            raise ValueError("give data or text")
        if not force and data not in message.callback_data():
            raise ValueError(
                f"no button with callback data {data!r} on message {message.message_id}; "
                f"current: {message.callback_data()}"
            )
        qid = str(4_300_000_000_000_000_000 + next(self._query_ids) * 7919)
        record = CallbackQueryRecord(qid, u, message, data, time.monotonic())
        self.callback_queries[qid] = record
        payload: JSON = {"id": qid, "from": u.to_dict()}
        if message.inline_message_id is not None:  # sent via the bot: no message, its id
            payload["inline_message_id"] = message.inline_message_id
        else:
            payload["message"] = message.to_dict()
        payload["chat_instance"] = str(abs(message.chat.id) * 31 + 5_000_000_000_000_000)
        payload["data"] = data
        self._queue("callback_query", payload)
        return record

    def _bot_status_change(self, chat: FakeChat, actor: JSON, new_status: str) -> None:
        old = chat.bot_status
        chat.bot_status = new_status
        bot = bot_user_dict()
        self._queue(
            "my_chat_member",
            {
                "chat": chat.to_dict(),
                "from": actor,
                "date": int(time.time()),
                "old_chat_member": member_dict(bot, old),
                "new_chat_member": member_dict(bot, new_status),
            },
        )

    def _actor(self, chat: FakeChat, by: UserRef | None) -> JSON:
        if by is not None:
            return self._user(by).to_dict()
        creator = next((uid for uid, s in chat.members.items() if s == "creator"), None)
        if creator is None:
            raise ValueError("say who acts: the chat has no creator")
        return self.users[creator].to_dict()

    def kick_bot(self, chat: ChatRef, by: UserRef | None = None) -> None:
        """Remove the bot from a group: queues my_chat_member; later calls there get 403."""
        c = self._chat(chat)
        self._bot_status_change(
            c, self._actor(c, by), "kicked" if c.type == "supergroup" else "left"
        )
        c.bot_status = "kicked"

    def add_bot(self, chat: ChatRef, by: UserRef | None = None, *, admin: bool = False) -> None:
        """(Re-)add the bot to a group; queues my_chat_member."""
        c = self._chat(chat)
        self._bot_status_change(c, self._actor(c, by), "administrator" if admin else "member")

    def delete_message(self, chat: ChatRef | FakeMessage, message_id: int | None = None) -> None:
        """Someone deletes a message: the bot's later edits of it fail."""
        msg = chat if isinstance(chat, FakeMessage) else self.message(chat, message_id or 0)
        msg.deleted = True
        self._notify()

    # ------------------------------------------------------------------ control: inline mode

    def set_inline_mode(self, enabled: bool = True, *, feedback: bool | None = None,
                        placeholder: str | None = None) -> None:
        """BotFather's /setinline (``placeholder``: the hint shown in the input field) and,
        when given, /setinlinefeedback (``feedback``: chosen_inline_result updates, all of
        them). getMe's supports_inline_queries follows ``enabled``."""
        self.inline_mode = enabled
        self.inline_placeholder = placeholder if enabled else None
        if feedback is not None:
            self.inline_feedback = feedback
        self._notify()

    def set_inline_feedback(self, enabled: bool = True) -> None:
        """BotFather's /setinlinefeedback: chosen_inline_result updates on (or off)."""
        self.inline_feedback = enabled
        self._notify()

    def user_chat(self, user: UserRef, other: UserRef) -> FakeChat:
        """A private chat between two users, without the bot: Telegram tells the bot nothing
        of it, except inline queries typed there (chat_type "private") and what they send."""
        u, o = self._user(user), self._user(other)
        for chat in self.chats.values():
            if chat.without_bot and chat.type == "private" and set(chat.members) == {u.id, o.id}:
                return chat
        chat = FakeChat(id=next(self._user_chat_ids), type="private",
                        title=f"{u.full_name} & {o.full_name}", without_bot=True,
                        members={u.id: "member", o.id: "member"}, bot_status="left")
        self.chats[chat.id] = chat
        self._notify()
        return chat

    def _inline_chat_type(self, user: FakeUser, chat: FakeChat) -> str:
        if chat.type == "private" and not chat.without_bot:
            if chat.private_user is None or chat.private_user.id != user.id:
                raise ValueError("only the chat's user can type in a private chat")
            return "sender"
        if chat.members.get(user.id) not in ("creator", "administrator", "member", "restricted"):
            raise ValueError(f"user {user.id} is not a member of chat {chat.id}")
        return chat.type

    def inline_query(
        self,
        user: UserRef,
        query: str = "",
        chat_type: str | None = None,
        *,
        chat: ChatRef | None = None,
        offset: str = "",
    ) -> InlineQueryRecord:
        """The user types ``@SixShooterTestBot query``: queues an ``inline_query`` update (id,
        from, query, offset, chat_type). ``chat`` (where it is typed) gives the chat_type
        unless ``chat_type`` is given ("sender", "private", "group", "supergroup"; default
        "sender"). A bot without inline mode (``set_inline_mode``) gets nothing: ValueError,
        as a client offers no inline mode for it."""
        u = self._user(user)
        if not self.inline_mode:
            raise ValueError("the bot has no inline mode (set_inline_mode(); BotFather /setinline)")
        if len(query) > MAX_INLINE_QUERY:
            raise ValueError(f"an inline query holds at most {MAX_INLINE_QUERY} characters")
        where = None if chat is None else self._chat(chat)
        if chat_type is None:
            chat_type = "sender" if where is None else self._inline_chat_type(u, where)
        elif where is not None and self._inline_chat_type(u, where) != chat_type:
            raise ValueError(f"chat {where.id} is no {chat_type!r} chat")
        if chat_type not in INLINE_CHAT_TYPES:
            raise ValueError(f"chat_type must be one of {INLINE_CHAT_TYPES}")
        qid = str(5_100_000_000_000_000_000 + next(self._query_ids) * 7919)
        record = InlineQueryRecord(qid, u, query, offset, chat_type, time.monotonic(), where)
        self.inline_queries[qid] = record
        self._queue("inline_query", {"id": qid, "from": u.to_dict(), "chat_type": chat_type,
                                     "query": query, "offset": offset})
        return record

    def _new_inline_message_id(self, chat: FakeChat) -> str:
        n = next(self._inline_ids)
        raw = n.to_bytes(4, "little") + hashlib.sha256(f"{chat.id}:{n}".encode()).digest()[:16]
        return base64.urlsafe_b64encode(b"\x02\x00\x00\x00" + raw).decode().rstrip("=")

    def choose_inline_result(
        self,
        user: UserRef,
        query: InlineQueryRecord | str,
        result_id: str,
        chat: ChatRef,
    ) -> FakeMessage:
        """The user picks a result of the bot's answer: the message is posted in ``chat``
        from the user "via @SixShooterTestBot" (``via_bot``), with a new opaque
        ``inline_message_id``. The bot gets it as a ``message`` update only where it is a
        member (a group, or the user's own chat with it), never in a chat of users
        (``user_chat``). With inline feedback on, a ``chosen_inline_result`` update follows
        (result_id, from, query; inline_message_id only if the result has a keyboard)."""
        u = self._user(user)
        record = self.inline_queries[query if isinstance(query, str) else query.id]
        if record.user.id != u.id:
            raise ValueError("only the user who typed the query sees its results")
        if not record.answered:
            raise ValueError(f"inline query {record.id} has no answer to choose from")
        result = record.result(result_id)
        c = self._chat(chat)
        self._inline_chat_type(u, c)
        photo = result.photo
        if result.photo_url is not None:  # Telegram fetches it now and keeps the file
            width, height = result.photo_size or (800, 600)
            photo = FakePhoto(b"", width, height, "JPEG", url=result.photo_url)
            for file_id in photo.file_ids():
                self._files[file_id] = photo
        msg = FakeMessage(
            chat=c,
            message_id=c.take_message_id(),
            sender=u.to_dict(),
            text=result.text,
            entities=list(result.entities),
            photo=photo if result.text is None else None,
            caption=result.caption if result.text is None else None,
            caption_entities=list(result.caption_entities) if result.text is None else [],
            reply_markup=result.reply_markup,
            via_bot=bot_user_dict(),
            inline_message_id=self._new_inline_message_id(c),
        )
        assert msg.inline_message_id is not None
        self._inline_messages[msg.inline_message_id] = msg
        self._store(msg)
        if self._bot_sees(msg):
            msg.update_id = self._queue("message", msg.to_dict())["update_id"]
        chosen: JSON = {"result_id": result.id, "from": u.to_dict()}
        if result.reply_markup is not None:
            chosen["inline_message_id"] = msg.inline_message_id
        chosen["query"] = record.query
        self.chosen_inline_results.append(chosen)
        if self.inline_feedback:
            self._queue("chosen_inline_result", chosen)
        return msg

    def delete_inline_message(self, message: InlineRef) -> None:
        """A member of its chat deletes a message sent via the bot: the bot's later edits of it
        fail (MESSAGE_ID_INVALID); the bot is not told."""
        msg = self.inline_message(message) if isinstance(message, str) else message
        if msg.inline_message_id is None:
            raise ValueError("not an inline message; use delete_message")
        msg.deleted = True
        self._notify()

    def inject_rate_limit(self, method: str = "*", count: int = 1, retry_after: int = 1) -> None:
        """The next ``count`` calls of ``method`` get 429 "Too Many Requests: retry after N"."""
        self._injections.setdefault(method, []).append(Injection("429", count, retry_after))

    def inject_network_failure(
        self, method: str = "*", count: int = 1, *, after_processing: bool = False
    ) -> None:
        """The next ``count`` calls of ``method`` have their connection closed without answer.

        ``after_processing=True`` closes it after the call took effect (the message exists,
        but the bot never learns so).
        """
        self._injections.setdefault(method, []).append(
            Injection("network", count, after_processing=after_processing)
        )

    def enable_flood_control(
        self,
        per_group_per_minute: int | None = 20,
        per_chat_per_second: int | None = None,
        *,
        count_edits: bool = True,
        per_bot_per_second: int | None = None,
    ) -> None:
        """Answer 429 (retry_after = seconds until the window frees) when the bot sends or
        edits faster than the limits in one chat, or (``per_bot_per_second``) over all chats.
        Off by default."""
        self.flood_limits = FloodLimits(per_group_per_minute, per_chat_per_second, count_edits,
                                        per_bot_per_second)
        self._chat_sends.clear()
        self._bot_sends.clear()

    def disable_flood_control(self) -> None:
        self.flood_limits = None

    def _flood_counted(self, method: str) -> bool:
        limits = self.flood_limits
        if limits is None:
            return False
        return (method.startswith("send") and method != "sendChatAction") or (
            limits.count_edits and method.startswith("editMessage")
        )

    def flood_retry_after(self, method: str, chat: FakeChat | None) -> int | None:
        """Seconds to wait if this call would exceed the flood limits, else None. ``chat``
        None: an edit of an inline message, counted against the bot's limit only."""
        limits = self.flood_limits
        if limits is None or not self._flood_counted(method):
            return None
        now = time.monotonic()
        sent = self._chat_sends.get(chat.id, deque()) if chat is not None else deque()
        windows: list[tuple[int, float]] = []
        if limits.per_chat_per_second and chat is not None:
            windows.append((limits.per_chat_per_second, 1.0))
        if limits.per_group_per_minute and chat is not None and chat.type != "private":
            windows.append((limits.per_group_per_minute, 60.0))
        wait = 0.0
        checks = [(sent, limit, span) for limit, span in windows]
        if limits.per_bot_per_second:
            checks.append((self._bot_sends, limits.per_bot_per_second, 1.0))
        for times, limit, span in checks:
            recent = [t for t in times if now - t < span]
            if len(recent) >= limit:
                wait = max(wait, recent[-limit] + span - now)
        return max(1, math.ceil(wait)) if wait > 0 else None

    def flood_record(self, method: str, chat: FakeChat | None) -> None:
        if self._flood_counted(method):
            if chat is not None:
                sent = self._chat_sends.setdefault(chat.id, deque())
                sent.append(time.monotonic())
                while sent and time.monotonic() - sent[0] > 60:
                    sent.popleft()
            self._bot_sends.append(time.monotonic())
            while self._bot_sends and time.monotonic() - self._bot_sends[0] > 1:
                self._bot_sends.popleft()

    def _take_injection(self, method: str) -> Injection | None:
        for key in (method, "*"):
            queue = self._injections.get(key, [])
            while queue:
                inj = queue[0]
                if inj.count <= 0:
                    queue.pop(0)
                    continue
                inj.count -= 1
                return inj
        return None
