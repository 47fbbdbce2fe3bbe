"""State kept by the fake Bot API server: users, chats, messages, photos, requests, queries."""

from __future__ import annotations

import copy
import hashlib
import itertools
import time
from dataclasses import dataclass, field
from typing import Any

JSON = dict[str, Any]

BOT_TOKEN = "123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11"
BOT_ID = 123456
BOT_USERNAME = "SixShooterTestBot"
BOT_FIRST_NAME = "Six-Shooter"

_ids = itertools.count(1)


class ApiError(Exception):
    """A Bot API error response: HTTP status ``code`` and Telegram's ``description``."""

    def __init__(self, code: int, description: str, parameters: JSON | None = None) -> None:
        super().__init__(f"{code} {description}")
        self.code = code
        self.description = description
        self.parameters = parameters

    @classmethod
    def bad_request(cls, detail: str) -> ApiError:
        return cls(400, f"Bad Request: {detail}")

    @classmethod
    def forbidden(cls, detail: str) -> ApiError:
        return cls(403, f"Forbidden: {detail}")

    def payload(self) -> JSON:
        out: JSON = {"ok": False, "error_code": self.code, "description": self.description}
        if self.parameters:
            out["parameters"] = self.parameters
        return out


@dataclass
class FakeUser:
    id: int
    first_name: str
    last_name: str | None = None
    username: str | None = None
    language_code: str | None = None
    is_bot: bool = False
    started_bot: bool = False  # has an open private chat with the bot
    blocked_bot: bool = False

    def to_dict(self) -> JSON:
        out: JSON = {"id": self.id, "is_bot": self.is_bot, "first_name": self.first_name}
        for key in ("last_name", "username", "language_code"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        return out

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}" if self.last_name else self.first_name


def bot_user_dict(full: bool = False) -> JSON:
    out: JSON = {
        "id": BOT_ID,
        "is_bot": True,
        "first_name": BOT_FIRST_NAME,
        "username": BOT_USERNAME,
    }
    if full:  # the getMe flavour
        out |= {
            "can_join_groups": True,
            "can_read_all_group_messages": False,
            "supports_inline_queries": False,
            "can_connect_to_business": False,
            "has_main_web_app": False,
        }
    return out


# statuses a member can have; "creator" and "administrator" can delete others' messages
MEMBER_STATUSES = ("creator", "administrator", "member", "restricted", "left", "kicked")


@dataclass
class FakeChat:
    id: int
    type: str  # private | group | supergroup
    title: str | None = None
    username: str | None = None
    is_forum: bool = False
    private_user: FakeUser | None = None  # the user of a private chat with the bot
    without_bot: bool = False  # a chat of users only (the bot sees it only via inline mode)
    members: dict[int, str] = field(default_factory=dict)  # user id -> status
    bot_status: str = "member"  # member | administrator | left | kicked
    topics: dict[int, str] = field(default_factory=dict)  # message_thread_id -> name
    next_message_id: int = 1

    def to_dict(self) -> JSON:
        out: JSON = {"id": self.id, "type": self.type}
        if self.type == "private" and self.private_user is not None:
            user = self.private_user.to_dict()
            out |= {k: user[k] for k in ("first_name", "last_name", "username") if k in user}
        else:
            out["title"] = self.title
        if self.username:
            out["username"] = self.username
        if self.is_forum:
            out["is_forum"] = True
        return out

    @property
    def kind_name(self) -> str:
        """How Telegram names the chat kind in 403 texts."""
        return {"group": "group chat", "supergroup": "supergroup chat"}.get(self.type, "chat")

    def take_message_id(self) -> int:
        mid = self.next_message_id
        self.next_message_id += 1
        return mid


@dataclass
class FakePhoto:
    """An uploaded picture; its PhotoSize list mimics Telegram's thumbnails."""

    data: bytes
    width: int
    height: int
    format: str
    file_unique_id: str = ""
    file_id: str = ""
    url: str | None = None  # named by URL (inline results and inline edits): no bytes here

    def __post_init__(self) -> None:
        n = next(_ids)
        digest = hashlib.sha256(self.data).hexdigest()
        self.file_unique_id = self.file_unique_id or f"AQAD{n:06d}{digest[:6]}"
        self.file_id = self.file_id or f"AgACAgIAAxkBAAI{n:06d}{digest[:20]}"

    @property
    def size(self) -> int:
        return len(self.data)

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.data).hexdigest()

    def sizes(self) -> list[JSON]:
        out: list[JSON] = []
        longest = max(self.width, self.height)
        area = self.width * self.height
        for suffix, limit in (("s", 90), ("m", 320), ("x", 800), ("y", 1280), ("w", 2560)):
            if longest <= limit:
                break
            scale = limit / longest
            w, h = max(1, round(self.width * scale)), max(1, round(self.height * scale))
            out.append(self._size(suffix, w, h, max(1, self.size * w * h // area)))
        if longest <= 2560:
            out.append(self._size("", self.width, self.height, self.size))
        return out

    def _size(self, suffix: str, width: int, height: int, size: int) -> JSON:
        return {
            "file_id": self.file_id + suffix,
            "file_unique_id": self.file_unique_id + suffix,
            "width": width,
            "height": height,
            "file_size": size,
        }

    def file_ids(self) -> list[str]:
        return [s["file_id"] for s in self.sizes()]


@dataclass
class FakeMessage:
    """A message as the fake keeps it; ``to_dict`` renders Telegram's Message object."""

    chat: FakeChat
    message_id: int
    sender: JSON  # User dict
    date: int = field(default_factory=lambda: int(time.time()))
    text: str | None = None
    entities: list[JSON] = field(default_factory=list)
    caption: str | None = None
    caption_entities: list[JSON] = field(default_factory=list)
    photo: FakePhoto | None = None
    reply_markup: JSON | None = None  # inline keyboard only, as Telegram echoes it
    message_thread_id: int | None = None
    is_topic_message: bool = False
    reply_to: FakeMessage | None = None
    edit_date: int | None = None
    deleted: bool = False
    service: JSON = field(default_factory=dict)  # e.g. forum_topic_created, new_chat_members
    history: list[JSON] = field(default_factory=list)  # earlier versions (to_dict snapshots)
    sent_by_request: int | None = None  # sequence number of the creating request
    update_id: int | None = None  # of the message update the bot got (user messages)
    via_bot: JSON | None = None  # User dict of the bot, for a message sent "via @bot" (inline)
    inline_message_id: str | None = None  # set for a message sent from an inline query result

    @property
    def is_inline(self) -> bool:
        return self.inline_message_id is not None

    @property
    def edits(self) -> list[JSON]:
        """The earlier versions, one per edit (oldest first): ``to_dict`` snapshots."""
        return list(self.history)

    @property
    def chat_id(self) -> int:
        return self.chat.id

    @property
    def from_bot(self) -> bool:
        return self.sender.get("id") == BOT_ID

    @property
    def has_media(self) -> bool:
        return self.photo is not None

    @property
    def content_text(self) -> str | None:
        """Text or caption, whichever this message has."""
        return self.caption if self.has_media else self.text

    def buttons(self) -> list[JSON]:
        if not self.reply_markup:
            return []
        return [b for row in self.reply_markup.get("inline_keyboard", []) for b in row]

    def callback_data(self) -> list[str]:
        return [b["callback_data"] for b in self.buttons() if "callback_data" in b]

    def button_texts(self) -> list[str]:
        return [b["text"] for b in self.buttons()]

    def content_key(self) -> tuple[Any, ...]:
        """What 'message is not modified' compares."""
        return (
            self.text,
            self.entities,
            self.caption,
            self.caption_entities,
            self.photo.file_unique_id if self.photo else None,
            self.reply_markup,
        )

    def to_dict(self, *, with_reply: bool = True) -> JSON:
        out: JSON = {
            "message_id": self.message_id,
            "from": copy.deepcopy(self.sender),
            "chat": self.chat.to_dict(),
            "date": self.date,
        }
        if self.message_thread_id is not None:
            out["message_thread_id"] = self.message_thread_id
        if self.is_topic_message:
            out["is_topic_message"] = True
        if with_reply and self.reply_to is not None:
            out["reply_to_message"] = self.reply_to.to_dict(with_reply=False)
        if self.edit_date is not None:
            out["edit_date"] = self.edit_date
        if self.text is not None:
            out["text"] = self.text
            if self.entities:
                out["entities"] = copy.deepcopy(self.entities)
        if self.photo is not None:
            out["photo"] = self.photo.sizes()
            if self.caption:
                out["caption"] = self.caption
                if self.caption_entities:
                    out["caption_entities"] = copy.deepcopy(self.caption_entities)
        if self.reply_markup is not None:
            out["reply_markup"] = copy.deepcopy(self.reply_markup)
        if self.via_bot is not None:
            out["via_bot"] = copy.deepcopy(self.via_bot)
        out |= copy.deepcopy(self.service)
        return out


@dataclass
class RecordedRequest:
    """One Bot API call as received, with the answer the fake gave."""

    seq: int
    method: str
    params: JSON  # decoded and type-coerced; uploaded files appear as {"file": name, ...}
    files: dict[str, JSON]  # multipart file parts: name -> filename/content_type/size
    time: float
    status: int = 0
    response: JSON = field(default_factory=dict)
    unknown_params: list[str] = field(default_factory=list)
    peer: tuple[str, int] | None = None  # the client's address and port: which process called

    @property
    def ok(self) -> bool:
        return self.status == 200

    @property
    def result(self) -> Any:
        return self.response.get("result")

    @property
    def description(self) -> str | None:
        return self.response.get("description")

    def summary(self) -> str:
        brief = {k: v for k, v in self.params.items() if k not in ("reply_markup",)}
        text = repr(brief)
        if len(text) > 160:
            text = text[:157] + "..."
        if self.status == 0:
            outcome = "(in progress)"
        else:
            outcome = "ok" if self.ok else f"{self.status} {self.description}"
        return f"#{self.seq} {self.method} {text} -> {outcome}"


@dataclass
class CallbackQueryRecord:
    id: str
    user: FakeUser
    message: FakeMessage
    data: str
    created: float
    answered: bool = False
    answer: JSON | None = None  # text, show_alert, url, cache_time as sent
    answered_at: float | None = None

    @property
    def text(self) -> str | None:
        return None if self.answer is None else self.answer.get("text")

    @property
    def show_alert(self) -> bool:
        return bool(self.answer and self.answer.get("show_alert"))

    def get(self, key: str, default: Any = None) -> Any:
        """Dict-style access to the answer's fields (text, show_alert, url, cache_time)."""
        return default if self.answer is None else self.answer.get(key, default)


@dataclass
class InlineResult:
    """One result of an answered inline query, as the fake parsed it: what choosing it posts."""

    id: str
    type: str  # the InlineQueryResult* type name, e.g. "InlineQueryResultArticle"
    raw: JSON  # as the bot sent it
    text: str | None = None
    entities: list[JSON] = field(default_factory=list)
    photo_url: str | None = None
    photo: FakePhoto | None = None  # a cached photo (photo_file_id)
    photo_size: tuple[int, int] | None = None  # photo_width, photo_height when given
    caption: str | None = None
    caption_entities: list[JSON] = field(default_factory=list)
    reply_markup: JSON | None = None

    @property
    def title(self) -> str | None:
        title = self.raw.get("title")
        return title if isinstance(title, str) else None


@dataclass
class InlineQueryRecord:
    """An inline query a user typed ("@bot query"), and the bot's answer to it."""

    id: str
    user: FakeUser
    query: str
    offset: str
    chat_type: str | None
    created: float
    chat: FakeChat | None = None  # where the user typed it, when the test said so
    answered: bool = False
    answer: JSON | None = None  # cache_time, is_personal, next_offset, button as sent
    results: list[InlineResult] = field(default_factory=list)
    answered_at: float | None = None

    def result(self, result_id: str) -> InlineResult:
        for r in self.results:
            if r.id == result_id:
                return r
        raise KeyError(f"no result {result_id!r}; results: {[r.id for r in self.results]}")

    def get(self, key: str, default: Any = None) -> Any:
        """Dict-style access to the answer's fields (cache_time, is_personal, button...)."""
        return default if self.answer is None else self.answer.get(key, default)
