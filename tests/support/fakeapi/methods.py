"""The Bot API methods of the fake, with Telegram's checks and error texts.

Only the methods the bot calls (directly, in bot/, or through python-telegram-bot: getMe,
getUpdates, deleteWebhook and setWebhook at start) are implemented; any other Bot API method
is answered 400 "not implemented by the fake API" (and an unknown name 404, like Telegram).
"""

from __future__ import annotations

import asyncio
import io
import json
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import urlsplit

from PIL import Image, UnidentifiedImageError

from . import spec
from .core import DEFAULT_ALLOWED_UPDATES, FakeState, current_request, member_dict
from .formatting import (
    ParseError,
    detect_entities,
    format_text,
    sort_entities,
    strip_text,
    utf16_len,
)
from .model import (
    BOT_ID,
    JSON,
    ApiError,
    FakeChat,
    FakeMessage,
    FakePhoto,
    InlineResult,
    bot_user_dict,
)
from .spec import Upload

Params = dict[str, Any]
Uploads = dict[str, Upload]
Handler = Callable[[Params, Uploads], Awaitable[Any]]

NOT_MODIFIED = (
    "message is not modified: specified new message content and reply markup are exactly the "
    "same as a current content and reply markup of the message"
)
# TDLib's text (lower-cased by the Bot API server) for an inline message's new media uploaded
# with the edit: "When an inline message is edited, a new file can't be uploaded; use a
# previously uploaded file via its file_id or specify a URL" (editMessageMedia).
INLINE_UPLOAD = "invalid message content specified"
CONFLICT = (
    "Conflict: terminated by other getUpdates request; make sure that only one bot instance "
    "is running"
)
WEBHOOK_ACTIVE = (
    "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete "
    "the webhook first"
)
_WEBHOOK_PORTS = (80, 88, 443, 8443)
_SECRET_TOKEN = re.compile(r"^[A-Za-z0-9_-]*$")
MAX_WEBHOOK_CONNECTIONS = (1, 100)  # setWebhook.max_connections: "1-100. Defaults to 40"
_BUTTON_ACTIONS = (
    "url", "callback_data", "web_app", "login_url", "switch_inline_query",
    "switch_inline_query_current_chat", "switch_inline_query_chosen_chat", "copy_text",
    "callback_game", "pay",
)  # fmt: skip
_BUTTON_FIELDS = ("text", "icon_custom_emoji_id", "style", *_BUTTON_ACTIONS)
_BUTTON_URL = re.compile(r"^(?:https?://|tg://)[^\s]+$|^(?:[\w-]+\.)+[a-z]{2,}(?:/[^\s]*)?$", re.I)
_COMMAND_SCOPES = {
    "default": (),
    "all_private_chats": (),
    "all_group_chats": (),
    "all_chat_administrators": (),
    "chat": ("chat_id",),
    "chat_administrators": ("chat_id",),
    "chat_member": ("chat_id", "user_id"),
}


def scope_key(scope: JSON) -> str:
    return json.dumps(scope, sort_keys=True)


class FakeBotMethods(FakeState):
    """Implements the Bot API methods on top of the fake's state."""

    # setWebhook's parameters while a webhook is set. The updates then go by POST to the
    # targets given to `deliver_to` (delivery.py), if any; else a test posts them itself.
    # getUpdates answers 409 meanwhile, as Telegram does.
    webhook: JSON | None = None
    last_webhook_error: tuple[int, str] | None = None  # (unix time, message): getWebhookInfo

    def handlers(self) -> dict[str, Handler]:
        return {
            "getMe": self.get_me,
            "getUpdates": self.get_updates,
            "setWebhook": self.set_webhook,
            "deleteWebhook": self.delete_webhook,
            "getWebhookInfo": self.get_webhook_info,
            "setMyCommands": self.set_my_commands,
            "sendMessage": self.send_message_api,
            "sendPhoto": self.send_photo,
            "editMessageText": self.edit_message_text,
            "editMessageCaption": self.edit_message_caption,
            "editMessageMedia": self.edit_message_media,
            "editMessageReplyMarkup": self.edit_message_reply_markup,
            "deleteMessage": self.delete_message_api,
            "deleteMessages": self.delete_messages_api,
            "answerCallbackQuery": self.answer_callback_query,
            "getChatMember": self.get_chat_member,
            "answerInlineQuery": self.answer_inline_query,
        }

    # ------------------------------------------------------------------ shared checks

    def resolve_chat(self, chat_id: Any) -> FakeChat:
        if isinstance(chat_id, str):
            if not chat_id.startswith("@"):
                raise ApiError.bad_request("chat not found")
            name = chat_id[1:].lower()
            for chat in self.chats.values():
                if chat.username and chat.username.lower() == name:
                    return chat
            raise ApiError.bad_request("chat not found")
        found = self.chats.get(chat_id)
        if found is None or found.without_bot:
            if chat_id in self.users:
                raise ApiError.forbidden("bot can't initiate conversation with a user")
            raise ApiError.bad_request("chat not found")
        return found

    def check_access(self, chat: FakeChat) -> None:
        """Telegram's 403s: the bot must be in the chat (and not blocked in private). An
        upgraded group's old id answers with where the chat went."""
        if chat.id in self.migrated:
            raise ApiError(400, "Bad Request: group chat was upgraded to a supergroup chat",
                           {"migrate_to_chat_id": self.migrated[chat.id]})
        if chat.type == "private":
            user = chat.private_user
            if user is not None and user.blocked_bot:
                raise ApiError.forbidden("bot was blocked by the user")
            if user is not None and not user.started_bot:
                raise ApiError.forbidden("bot can't initiate conversation with a user")
            return
        if chat.bot_status == "kicked":
            raise ApiError.forbidden(f"bot was kicked from the {chat.kind_name}")
        if chat.bot_status == "left":
            raise ApiError.forbidden(f"bot is not a member of the {chat.kind_name}")

    def chat_for(self, params: Params) -> FakeChat:
        chat = self.resolve_chat(params["chat_id"])
        self.check_access(chat)
        return chat

    def resolve_user_dict(self, user_id: int) -> JSON | None:
        user = self.users.get(user_id)
        if user is None:
            self.warnings.append(f"mention of unknown user {user_id} dropped")
            return None
        return user.to_dict()

    def formatted(
        self,
        method: str,
        field: str,
        text: str,
        parse_mode: str | None,
        entities: Any,
        field_spec: JSON | None = None,
    ) -> tuple[str, list[JSON]]:
        """Parse, trim and length-check a text or caption as Telegram does."""
        try:
            if parse_mode:
                plain, ents = format_text(
                    text, parse_mode, self.resolve_user_dict, strict_ampersand=self.strict_ampersand
                )
            else:
                plain, ents = strip_text(text, self.check_entities(text, entities))
                ents = sort_entities(ents)
        except ParseError as exc:
            raise ApiError.bad_request(f"can't parse entities: {exc}") from None
        except NotImplementedError as exc:
            raise ApiError.bad_request(str(exc)) from None
        except ValueError:
            raise ApiError.bad_request("unsupported parse_mode") from None
        ents = merge_detected(plain, ents)
        limits = field_spec or spec.method_fields(method)[field]
        if field == "text":
            if not plain:
                raise ApiError.bad_request("message text is empty")
            if not spec.fits(limits, plain):
                raise ApiError.bad_request("message is too long")
        elif not spec.fits(limits, plain):
            raise ApiError.bad_request("message caption is too long")
        return plain, ents

    def check_entities(self, text: str, entities: Any) -> list[JSON]:
        if entities is None:
            return []
        if not isinstance(entities, list):
            raise ApiError.bad_request("can't parse entities JSON object")
        total = utf16_len(text)
        out: list[JSON] = []
        for e in entities:
            if not isinstance(e, dict) or e.get("type") not in spec.entity_types():
                raise ApiError.bad_request("can't parse MessageEntity: unsupported entity type")
            offset, length = e.get("offset"), e.get("length")
            if not isinstance(offset, int) or not isinstance(length, int) or offset < 0:
                raise ApiError.bad_request("can't parse MessageEntity: wrong offset or length")
            if length <= 0 or offset + length > total:
                continue  # Telegram drops entities outside the text
            if e["type"] == "text_link" and not e.get("url"):
                raise ApiError.bad_request("can't parse MessageEntity: url is empty")
            if e["type"] == "text_mention":
                user = e.get("user") or {}
                resolved = self.resolve_user_dict(int(user.get("id", 0)))
                if resolved is None:
                    continue
                e = {**e, "user": resolved}
            out.append(dict(e))
        return out

    def reply_markup(self, value: Any, *, inline_only: bool) -> JSON | None:
        """Validate a reply_markup; returns the inline keyboard as Telegram echoes it."""
        if value is None:
            return None
        if not isinstance(value, dict):
            raise ApiError.bad_request("can't parse reply keyboard markup JSON object")
        if "inline_keyboard" not in value:
            if inline_only:
                raise ApiError.bad_request("inline keyboard expected")
            self._check_reply_keyboard(value)
            return None
        rows = value["inline_keyboard"]
        if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
            raise ApiError.bad_request(
                'can\'t parse inline keyboard button: field "inline_keyboard" must be an Array '
                "of Arrays"
            )
        count = sum(len(r) for r in rows)
        if count > 100:
            raise ApiError.bad_request("reply markup is too long")
        data_spec = spec.type_field("InlineKeyboardButton", "callback_data")
        out_rows: list[list[JSON]] = []
        for row in rows:
            out_row: list[JSON] = []
            for button in row:
                if not isinstance(button, dict) or not isinstance(button.get("text"), str):
                    raise ApiError.bad_request(
                        'can\'t parse inline keyboard button: Field "text" must be of type String'
                    )
                if not button["text"].strip():
                    raise ApiError.bad_request("BUTTON_TEXT_INVALID")
                self._check_style(button.get("style"))
                actions = [a for a in _BUTTON_ACTIONS if button.get(a) is not None]
                if not actions:
                    raise ApiError.bad_request(
                        "can't parse inline keyboard button: Text buttons are unallowed in the "
                        "inline keyboard"
                    )
                if "callback_data" in actions:
                    data = button["callback_data"]
                    if not isinstance(data, str) or not spec.fits(data_spec, data):
                        raise ApiError.bad_request("BUTTON_DATA_INVALID")
                if "url" in actions and not _BUTTON_URL.match(str(button["url"])):
                    raise ApiError.bad_request("BUTTON_URL_INVALID")
                out_row.append({k: button[k] for k in _BUTTON_FIELDS if button.get(k) is not None})
            if out_row:
                out_rows.append(out_row)
        return {"inline_keyboard": out_rows}

    @staticmethod
    def _check_style(style: Any) -> None:
        """A button's style is one of the values the Bot API description names ("danger",
        "success", "primary"), with the server's message for any other. The real server also
        takes them in any case, and "default" or "" for none, which the description does not
        say: the fake refuses those, so the bot keeps to the documented words."""
        if style is None:
            return
        if not isinstance(style, str):
            raise ApiError.bad_request(
                'can\'t parse inline keyboard button: Field "style" must be of type String'
            )
        if style not in spec.type_field("InlineKeyboardButton", "style")["one_of"]:
            raise ApiError.bad_request(
                "can't parse inline keyboard button: invalid button style specified"
            )

    @staticmethod
    def _check_reply_keyboard(value: JSON) -> None:
        if "keyboard" in value:
            rows = value["keyboard"]
            if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
                raise ApiError.bad_request("can't parse reply keyboard markup JSON object")
            for row in rows:
                for b in row:
                    text = b if isinstance(b, str) else b.get("text") if isinstance(b, dict) else 0
                    if not isinstance(text, str) or not text:
                        raise ApiError.bad_request("can't parse keyboard button: text is empty")
        elif not value.get("remove_keyboard") and not value.get("force_reply"):
            raise ApiError.bad_request("can't parse reply keyboard markup JSON object")

    def thread_for(self, chat: FakeChat, params: Params) -> tuple[int | None, bool]:
        thread = params.get("message_thread_id")
        if thread is None:
            return None, False
        if chat.is_forum:
            if thread not in chat.topics:
                raise ApiError.bad_request("message thread not found")
            if (chat.id, thread) in self.closed_topics:
                raise ApiError.bad_request("TOPIC_CLOSED")
            return thread, True
        if chat.type != "private" and (chat.id, thread) not in self._messages:
            raise ApiError.bad_request("message thread not found")
        return thread, False

    def reply_for(self, chat: FakeChat, params: Params, thread: int | None) -> FakeMessage | None:
        rp = params.get("reply_parameters")
        legacy = params.get("reply_to_message_id")  # pre-7.0 clients; Telegram still takes it
        if rp is None and legacy is not None and str(legacy).lstrip("-").isdigit():
            rp = {"message_id": int(legacy)}
        if isinstance(rp, dict) and "message_id" in rp:
            target_chat = self.resolve_chat(rp["chat_id"]) if "chat_id" in rp else chat
            msg = self._messages.get((target_chat.id, int(rp["message_id"])))
            if msg is None or msg.deleted:
                if rp.get("allow_sending_without_reply"):
                    return None
                raise ApiError.bad_request("message to be replied not found")
            return msg
        if thread is not None and chat.is_forum:
            return self._messages.get((chat.id, thread))  # Telegram's implicit topic reply
        return None

    async def load_photo(self, value: Any, uploads: Uploads, *, inline: bool = False) -> FakePhoto:
        """The photo a request names: an upload, a known file_id, or (``inline``: the new
        media of an inline message, which can't be an upload) a URL, taken as is."""
        if isinstance(value, str) and value.startswith("attach://"):
            part = uploads.get(value[len("attach://") :])
            if part is None:
                raise ApiError.bad_request("wrong file identifier/HTTP URL specified")
            value = part
        if inline and isinstance(value, Upload):
            raise ApiError.bad_request(INLINE_UPLOAD)
        if isinstance(value, str):
            if value.startswith(("http://", "https://")):
                if not inline:
                    raise ApiError.bad_request("failed to get HTTP URL content")
                photo = FakePhoto(b"", 800, 600, "JPEG", url=value)
                for file_id in photo.file_ids():
                    self._files[file_id] = photo
                return photo
            known = self._files.get(value)
            if known is None:
                raise ApiError.bad_request("wrong file identifier/HTTP URL specified")
            return known
        if not isinstance(value, Upload):
            raise ApiError.bad_request("there is no photo in the request")
        rules = spec.photo_rules()
        if len(value.data) > rules["max_bytes"]:
            raise ApiError.bad_request("file is too big")
        if not value.data:
            raise ApiError.bad_request("file must be non-empty")
        try:
            width, height, fmt = await asyncio.to_thread(_decode_image, value.data)
        except (UnidentifiedImageError, OSError, ValueError, SyntaxError):
            raise ApiError.bad_request("IMAGE_PROCESS_FAILED") from None
        too_big = width + height > rules["max_width_plus_height"]
        if too_big or max(width, height) > rules["max_aspect_ratio"] * min(width, height):
            raise ApiError.bad_request("PHOTO_INVALID_DIMENSIONS")
        photo = FakePhoto(value.data, width, height, fmt)
        for file_id in photo.file_ids():
            self._files[file_id] = photo
        return photo

    def new_bot_message(self, chat: FakeChat, params: Params, **content: Any) -> FakeMessage:
        thread, is_topic = self.thread_for(chat, params)
        reply = self.reply_for(chat, params, thread)
        msg = FakeMessage(
            chat=chat,
            message_id=chat.take_message_id(),
            sender=bot_user_dict(),
            message_thread_id=thread,
            is_topic_message=is_topic,
            reply_to=reply,
            sent_by_request=current_request.get(),
            **content,
        )
        return self._store(msg, notify_members=not params.get("disable_notification"))

    def target_message(self, params: Params) -> FakeMessage:
        """The message an edit names: by inline_message_id (a message sent via the bot; its
        chat is not checked, the bot need not be there) or by chat_id and message_id."""
        if params.get("inline_message_id"):
            msg = self._inline_messages.get(str(params["inline_message_id"]))
            if msg is None:
                raise ApiError.bad_request("invalid inline message identifier specified")
            if msg.deleted:
                raise ApiError.bad_request("MESSAGE_ID_INVALID")
            return msg
        if "chat_id" not in params:
            raise ApiError.bad_request("chat_id is empty")
        if "message_id" not in params:
            raise ApiError.bad_request("message identifier is not specified")
        chat = self.chat_for(params)
        msg = self._messages.get((chat.id, params["message_id"]))
        if msg is None or msg.deleted or msg.service:
            raise ApiError.bad_request("message to edit not found")
        if not msg.from_bot:
            raise ApiError.bad_request("message can't be edited")
        return msg

    def apply_edit(self, msg: FakeMessage, **changes: Any) -> JSON | bool:
        """Edit ``msg``; the edited Message, or True for an inline message (as Telegram)."""
        before = msg.content_key()
        snapshot = msg.to_dict()
        old = {k: getattr(msg, k) for k in changes}
        for key, value in changes.items():
            setattr(msg, key, value)
        if msg.content_key() == before:
            for key, value in old.items():
                setattr(msg, key, value)
            raise ApiError.bad_request(NOT_MODIFIED)
        msg.history.append(snapshot)
        msg.edit_date = int(time.time())
        self._notify()
        return True if msg.is_inline else msg.to_dict()

    # ------------------------------------------------------------------ methods

    async def get_me(self, params: Params, uploads: Uploads) -> JSON:
        return bot_user_dict(full=True) | {"supports_inline_queries": self.inline_mode}

    async def get_updates(self, params: Params, uploads: Uploads) -> list[JSON]:
        if self.webhook is not None:
            raise ApiError(409, WEBHOOK_ACTIVE)
        offset = params.get("offset")
        limit = min(max(int(params.get("limit", 100)), 1), 100)
        timeout = max(float(params.get("timeout", 0)), 0.0)
        if "allowed_updates" in params:
            allowed = params["allowed_updates"] or []
            if not isinstance(allowed, list):
                raise ApiError.bad_request("can't parse allowed_updates JSON object")
            self._allowed_updates = frozenset(allowed) or DEFAULT_ALLOWED_UPDATES
        if offset is not None:
            if offset < 0:
                self._updates = self._updates[offset:]
            else:
                self._updates = [u for u in self._updates if u["update_id"] >= offset]
        self._poll_generation += 1
        generation = self._poll_generation
        self._notify()  # an older poll still waiting is terminated with 409
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            kept = [u for u in self._updates if self._update_kind(u) in self._allowed_updates]
            if len(kept) != len(self._updates):
                self._updates = kept  # updates of unwanted types are never delivered
            batch = self._updates[:limit]
            if batch or self._closing or loop.time() >= deadline:
                if batch:
                    self._delivered_upto = max(self._delivered_upto, batch[-1]["update_id"])
                    self._notify()
                return batch
            if generation != self._poll_generation:
                raise ApiError(409, CONFLICT)
            await self._wait_change(deadline - loop.time())

    @staticmethod
    def _update_kind(update: JSON) -> str:
        return next(k for k in update if k != "update_id")

    async def set_webhook(self, params: Params, uploads: Uploads) -> bool:
        url = params["url"]
        if url == "":
            return await self.delete_webhook(params, uploads)
        try:
            parts = urlsplit(url)
            port = parts.port or 443
        except ValueError:
            raise ApiError.bad_request("bad webhook: Failed to parse webhook URL") from None
        if parts.scheme != "https" or not parts.hostname:
            raise ApiError.bad_request("bad webhook: An HTTPS URL must be provided for webhook")
        if port not in _WEBHOOK_PORTS:
            raise ApiError.bad_request(
                "bad webhook: Webhook can be set up only on ports 80, 88, 443 or 8443"
            )
        secret = params.get("secret_token") or None
        if secret is not None:
            if not _SECRET_TOKEN.match(secret):
                raise ApiError.bad_request("secret token contains unallowed characters")
            if not spec.fits(spec.method_fields("setWebhook")["secret_token"], secret):
                raise ApiError.bad_request("secret token is too long")
        low, high = MAX_WEBHOOK_CONNECTIONS
        connections = params.get("max_connections", 40)
        if not low <= connections <= high:
            raise ApiError.bad_request("bad webhook: max_connections must be between 1 and 100")
        allowed = params.get("allowed_updates")
        if allowed is not None:
            if not isinstance(allowed, list):
                raise ApiError.bad_request("can't parse allowed_updates JSON object")
            self._allowed_updates = frozenset(allowed) or DEFAULT_ALLOWED_UPDATES
        if params.get("drop_pending_updates"):
            self._updates.clear()
        self.webhook = {
            "url": url,
            "secret_token": secret,
            "max_connections": connections,
            "allowed_updates": sorted(self._allowed_updates),
        }
        self._notify()
        return True

    async def delete_webhook(self, params: Params, uploads: Uploads) -> bool:
        if params.get("drop_pending_updates"):
            self._updates.clear()
        self.webhook = None
        self._notify()
        return True

    async def get_webhook_info(self, params: Params, uploads: Uploads) -> JSON:
        """WebhookInfo: url empty while the bot uses getUpdates; pending_update_count counts
        the updates not yet acknowledged (by an offset, or a webhook's 2XY answer)."""
        pending = [u for u in self._updates if self._update_kind(u) in self._allowed_updates]
        info: JSON = {"url": "", "has_custom_certificate": False,
                      "pending_update_count": len(pending)}
        if self.webhook is not None:
            info |= {"url": self.webhook["url"],
                     "max_connections": self.webhook["max_connections"],
                     "allowed_updates": self.webhook["allowed_updates"]}
            if self.last_webhook_error is not None:
                info |= {"last_error_date": self.last_webhook_error[0],
                         "last_error_message": self.last_webhook_error[1]}
        return info

    def _command_scope(self, params: Params) -> str:
        scope = params.get("scope") or {"type": "default"}
        if not isinstance(scope, dict) or scope.get("type") not in _COMMAND_SCOPES:
            raise ApiError.bad_request("unsupported bot command scope type")
        for key in _COMMAND_SCOPES[scope["type"]]:
            if key not in scope:
                raise ApiError.bad_request(f"{key} is empty")
        if "chat_id" in scope:
            self.resolve_chat(scope["chat_id"])
        _lang(params)
        return scope_key({k: scope[k] for k in ("type", *_COMMAND_SCOPES[scope["type"]])})

    async def set_my_commands(self, params: Params, uploads: Uploads) -> bool:
        commands = params["commands"]
        field = spec.method_fields("setMyCommands")["commands"]
        if not isinstance(commands, list):
            raise ApiError.bad_request("can't parse commands JSON object")
        if len(commands) > field["max_items"]:
            raise ApiError.bad_request("too many commands specified")
        name_spec = spec.type_field("BotCommand", "command")
        desc_spec = spec.type_field("BotCommand", "description")
        stored: list[JSON] = []
        for c in commands:
            if not isinstance(c, dict):
                raise ApiError.bad_request("can't parse BotCommand JSON object")
            name, desc = c.get("command"), c.get("description")
            if (
                not isinstance(name, str)
                or not spec.fits(name_spec, name)
                or not re.fullmatch(name_spec["pattern"], name)
            ):
                raise ApiError.bad_request("BOT_COMMAND_INVALID")
            if not isinstance(desc, str) or not spec.fits(desc_spec, desc.strip()):
                raise ApiError.bad_request("BOT_COMMAND_DESCRIPTION_INVALID")
            stored.append({"command": name, "description": desc})
        key = (self._command_scope(params), params.get("language_code", ""))
        self.commands[key] = stored
        return True

    async def send_message_api(self, params: Params, uploads: Uploads) -> JSON:
        chat = self.chat_for(params)
        text, entities = self.formatted(
            "sendMessage", "text", params["text"], params.get("parse_mode"), params.get("entities")
        )
        markup = self.reply_markup(params.get("reply_markup"), inline_only=False)
        msg = self.new_bot_message(chat, params, text=text, entities=entities, reply_markup=markup)
        return msg.to_dict()

    async def send_photo(self, params: Params, uploads: Uploads) -> JSON:
        chat = self.chat_for(params)
        if chat.id in self.photo_restricted and chat.bot_status != "administrator":
            raise ApiError.bad_request("not enough rights to send photos to the chat")
        caption, entities = self.formatted(
            "sendPhoto",
            "caption",
            params.get("caption", ""),
            params.get("parse_mode"),
            params.get("caption_entities"),
        )
        markup = self.reply_markup(params.get("reply_markup"), inline_only=False)
        self.thread_for(chat, params)
        photo = await self.load_photo(params["photo"], uploads)
        msg = self.new_bot_message(
            chat,
            params,
            photo=photo,
            caption=caption or None,
            caption_entities=entities,
            reply_markup=markup,
        )
        return msg.to_dict()

    async def edit_message_text(self, params: Params, uploads: Uploads) -> JSON | bool:
        if "text" not in params:
            raise ApiError.bad_request("text is empty")
        msg = self.target_message(params)
        if msg.has_media:
            raise ApiError.bad_request("there is no text in the message to edit")
        text, entities = self.formatted(
            "editMessageText",
            "text",
            params["text"],
            params.get("parse_mode"),
            params.get("entities"),
        )
        markup = self.reply_markup(params.get("reply_markup"), inline_only=True)
        return self.apply_edit(msg, text=text, entities=entities, reply_markup=markup)

    async def edit_message_caption(self, params: Params, uploads: Uploads) -> JSON | bool:
        msg = self.target_message(params)
        if not msg.has_media:
            raise ApiError.bad_request("there is no caption in the message to edit")
        caption, entities = self.formatted(
            "editMessageCaption",
            "caption",
            params.get("caption", ""),
            params.get("parse_mode"),
            params.get("caption_entities"),
        )
        markup = self.reply_markup(params.get("reply_markup"), inline_only=True)
        return self.apply_edit(
            msg, caption=caption or None, caption_entities=entities, reply_markup=markup
        )

    async def edit_message_media(self, params: Params, uploads: Uploads) -> JSON | bool:
        media = params["media"]
        if not isinstance(media, dict) or not media.get("type"):
            raise ApiError.bad_request("can't parse InputMedia JSON object")
        if media["type"] != "photo":
            raise ApiError.bad_request(f"fake API supports only photo media, got {media['type']}")
        if "media" not in media:
            raise ApiError.bad_request("there is no media in the request")
        msg = self.target_message(params)
        # "... or to replace a text or a rich message with a media" (the API's description):
        # a text message becomes a photo, its text and entities gone.
        extra: dict[str, Any] = {} if msg.has_media else {"text": None, "entities": []}
        caption, entities = self.formatted(
            "editMessageMedia",
            "caption",
            media.get("caption", ""),
            media.get("parse_mode"),
            media.get("caption_entities"),
            field_spec=spec.type_field("InputMediaPhoto", "caption"),
        )
        markup = self.reply_markup(params.get("reply_markup"), inline_only=True)
        photo = await self.load_photo(media["media"], uploads, inline=msg.is_inline)
        return self.apply_edit(
            msg,
            photo=photo,
            caption=caption or None,
            caption_entities=entities,
            reply_markup=markup,
            **extra,
        )

    async def edit_message_reply_markup(self, params: Params, uploads: Uploads) -> JSON | bool:
        msg = self.target_message(params)
        markup = self.reply_markup(params.get("reply_markup"), inline_only=True)
        return self.apply_edit(msg, reply_markup=markup)

    async def delete_message_api(self, params: Params, uploads: Uploads) -> bool:
        chat = self.chat_for(params)
        msg = self._messages.get((chat.id, params["message_id"]))
        if msg is None or msg.deleted:
            raise ApiError.bad_request("message to delete not found")
        if not msg.from_bot and chat.type != "private" and chat.bot_status != "administrator":
            raise ApiError.bad_request("message can't be deleted")
        if time.time() - msg.date > 48 * 3600:
            raise ApiError.bad_request("message can't be deleted for everyone")
        msg.deleted = True
        self._notify()
        return True

    async def delete_messages_api(self, params: Params, uploads: Uploads) -> bool:
        """deleteMessages: 1-100 ids; those not found (or already deleted) are skipped, as
        Telegram does; one that may not be deleted refuses the call."""
        chat = self.chat_for(params)
        ids = params["message_ids"]
        if not isinstance(ids, list) or not 1 <= len(ids) <= 100:
            raise ApiError.bad_request("message_ids must hold 1-100 message identifiers")
        found = [m for i in ids if (m := self._messages.get((chat.id, i))) is not None
                 and not m.deleted]
        for msg in found:
            if not msg.from_bot and chat.type != "private" and chat.bot_status != "administrator":
                raise ApiError.bad_request("message can't be deleted")
            if time.time() - msg.date > 48 * 3600:
                raise ApiError.bad_request("message can't be deleted for everyone")
        for msg in found:
            msg.deleted = True
        self._notify()
        return True

    async def answer_callback_query(self, params: Params, uploads: Uploads) -> bool:
        query = self.callback_queries.get(params["callback_query_id"])
        too_old = (
            query is None
            or query.answered
            or time.monotonic() - query.created > self.callback_answer_timeout
        )
        if query is None or too_old:
            raise ApiError.bad_request(
                "query is too old and response timeout expired or query ID is invalid"
            )
        text = params.get("text")
        if text is not None and not spec.fits(
            spec.method_fields("answerCallbackQuery")["text"], text
        ):
            raise ApiError.bad_request("MESSAGE_TOO_LONG")
        url = params.get("url")
        if url and not re.match(r"^(https?://)?t\.me/", url):
            raise ApiError.bad_request("URL_INVALID")
        query.answered = True
        query.answered_at = time.monotonic()
        query.answer = {
            k: params[k] for k in ("text", "show_alert", "url", "cache_time") if k in params
        }
        self._notify()
        return True

    async def answer_inline_query(self, params: Params, uploads: Uploads) -> bool:
        """answerInlineQuery: the results are checked against their InlineQueryResult* type
        (required fields, id 1-64 bytes and unique, at most 50, texts and keyboards as for
        sent messages) and kept for ``choose_inline_result``. Fields the type does not have
        are ignored, as Telegram does; each is noted in ``warnings``."""
        query = self.inline_queries.get(params["inline_query_id"])
        if (query is None or query.answered
                or time.monotonic() - query.created > self.inline_answer_timeout):
            raise ApiError.bad_request(
                "query is too old and response timeout expired or query ID is invalid"
            )
        results = params["results"]
        if not isinstance(results, list):
            raise ApiError.bad_request("can't parse inline query results JSON object")
        if len(results) > spec.limits()["inline_max_results"]:
            raise ApiError.bad_request("RESULTS_TOO_MUCH")
        parsed: list[InlineResult] = []
        for n, raw in enumerate(results):
            result = self._inline_result(raw, n)
            if any(r.id == result.id for r in parsed):
                raise ApiError.bad_request("RESULT_ID_DUPLICATE")
            parsed.append(result)
        next_offset = params.get("next_offset", "")
        if not spec.fits(spec.method_fields("answerInlineQuery")["next_offset"], next_offset):
            raise ApiError.bad_request("NEXT_OFFSET_INVALID")
        button = params.get("button")
        if button is not None:
            self._inline_results_button(button)
        query.answered = True
        query.answered_at = time.monotonic()
        query.results = parsed
        query.answer = {k: params[k] for k in ("cache_time", "is_personal", "next_offset", "button")
                        if k in params}
        self._notify()
        return True

    def _inline_result(self, raw: Any, n: int) -> InlineResult:
        if not isinstance(raw, dict):
            raise ApiError.bad_request("can't parse inline query result: expected an Object")
        tag = raw["type"].lower() if isinstance(raw.get("type"), str) else ""
        known = spec.inline_result_types()
        if tag not in known.values():
            raise ApiError.bad_request(
                f'can\'t parse inline query result: type "{tag}" is unsupported for the inline '
                "query result"
            )
        if tag == "article":
            type_name = "InlineQueryResultArticle"
        elif tag == "photo":  # by URL or by file_id: two types, one tag
            type_name = ("InlineQueryResultCachedPhoto" if "photo_file_id" in raw
                         and "photo_url" not in raw else "InlineQueryResultPhoto")
        else:
            raise ApiError.bad_request(
                f"fake API supports only article and photo inline query results, got {tag}"
            )
        fields = spec.type_fields(type_name)
        for name, field in fields.items():
            if field["required"] and raw.get(name) is None:
                raise ApiError.bad_request(
                    f'can\'t parse inline query result: Can\'t find field "{name}"'
                )
        for name in raw:
            if name not in fields:
                self.warnings.append(
                    f'answerInlineQuery: result {n} ({type_name}) has no field "{name}"; '
                    "Telegram ignores it"
                )
        result_id = raw["id"]
        if not isinstance(result_id, str):
            raise ApiError.bad_request(
                'can\'t parse inline query result: Field "id" must be of type String'
            )
        if not spec.fits(fields["id"], result_id):
            raise ApiError.bad_request("RESULT_ID_INVALID")
        markup = self.reply_markup(raw.get("reply_markup"), inline_only=True)
        out = InlineResult(id=result_id, type=type_name, raw=dict(raw), reply_markup=markup)
        content = raw.get("input_message_content")
        if content is not None:
            out.text, out.entities = self._inline_text(content)
        if type_name == "InlineQueryResultPhoto":
            url = raw["photo_url"]
            if not isinstance(url, str) or not url.startswith(("http://", "https://")):
                raise ApiError.bad_request("WEBDOCUMENT_URL_INVALID")
            out.photo_url = url
            width, height = raw.get("photo_width"), raw.get("photo_height")
            if isinstance(width, int) and isinstance(height, int) and width > 0 and height > 0:
                out.photo_size = (width, height)
        elif type_name == "InlineQueryResultCachedPhoto":
            photo = self._files.get(str(raw["photo_file_id"]))
            if photo is None:
                raise ApiError.bad_request("wrong file identifier/HTTP URL specified")
            out.photo = photo
        if type_name != "InlineQueryResultArticle":
            caption, entities = self.formatted(
                "answerInlineQuery", "caption", str(raw.get("caption", "")),
                raw.get("parse_mode"), raw.get("caption_entities"),
                field_spec=fields["caption"],
            )
            out.caption, out.caption_entities = caption or None, entities
        return out

    def _inline_text(self, content: Any) -> tuple[str, list[JSON]]:
        """An InputTextMessageContent's text and entities (the only content the fake sends)."""
        if not isinstance(content, dict):
            raise ApiError.bad_request("can't parse input message content: expected an Object")
        fields = spec.type_fields("InputTextMessageContent")
        if "message_text" not in content:
            if any(k in content for k in ("latitude", "phone_number", "payload", "currency")):
                raise ApiError.bad_request("fake API supports only InputTextMessageContent")
            raise ApiError.bad_request(
                'can\'t parse inline query result: Can\'t find field "message_text"'
            )
        for name in content:
            if name not in fields:
                self.warnings.append(
                    f'answerInlineQuery: InputTextMessageContent has no field "{name}"; '
                    "Telegram ignores it"
                )
        return self.formatted(
            "answerInlineQuery", "text", str(content["message_text"]),
            content.get("parse_mode"), content.get("entities"),
            field_spec=fields["message_text"],
        )

    def _inline_results_button(self, button: Any) -> None:
        fields = spec.type_fields("InlineQueryResultsButton")
        if not isinstance(button, dict) or not isinstance(button.get("text"), str):
            raise ApiError.bad_request(
                'can\'t parse inline query results button: Can\'t find field "text"'
            )
        actions = [k for k in ("web_app", "start_parameter") if button.get(k) is not None]
        if len(actions) != 1:
            raise ApiError.bad_request(
                "can't parse inline query results button: exactly one of web_app and "
                "start_parameter must be specified"
            )
        start = button.get("start_parameter")
        if start is not None and (
            not isinstance(start, str)
            or not spec.fits(fields["start_parameter"], start)
            or not re.fullmatch(r"[A-Za-z0-9_-]+", start)
        ):
            raise ApiError.bad_request("START_PARAM_INVALID")

    def _member_status(self, chat: FakeChat, user_id: int) -> JSON:
        if user_id == BOT_ID:
            return member_dict(bot_user_dict(), chat.bot_status)
        user = self.users.get(user_id)
        if user is None:
            raise ApiError.bad_request("PARTICIPANT_ID_INVALID")
        return member_dict(user.to_dict(), chat.members.get(user_id, "left"))

    async def get_chat_member(self, params: Params, uploads: Uploads) -> JSON:
        chat = self.chat_for(params)
        return self._member_status(chat, params["user_id"])


_OPAQUE = frozenset({"code", "pre", "text_link", "text_mention", "custom_emoji"})


def merge_detected(text: str, entities: list[JSON]) -> list[JSON]:
    """Add the URLs, @mentions, #hashtags and /commands Telegram finds in sent text by itself,
    except inside code, links and mentions given explicitly."""
    opaque = [(e["offset"], e["offset"] + e["length"]) for e in entities if e["type"] in _OPAQUE]
    found = [
        d
        for d in detect_entities(text)
        if not any(d["offset"] < end and start < d["offset"] + d["length"] for start, end in opaque)
    ]
    return sort_entities(entities + found) if found else entities


def _lang(params: Params) -> str:
    lang = str(params.get("language_code", ""))
    if lang and not re.fullmatch(r"[a-z]{2}", lang):
        raise ApiError.bad_request("invalid language code specified")
    return lang


def _decode_image(data: bytes) -> tuple[int, int, str]:
    with Image.open(io.BytesIO(data)) as img:
        img.load()
        return img.width, img.height, str(img.format)
