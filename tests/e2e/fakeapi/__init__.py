"""A fake Telegram Bot API server for end-to-end tests of the bot (see ``server.py``)."""

from .core import DEFAULT_ALLOWED_UPDATES, Injection
from .formatting import ParseError, detect_entities, format_text, parse_html, utf16_len
from .methods import NOT_MODIFIED
from .model import (
    BOT_FIRST_NAME,
    BOT_ID,
    BOT_TOKEN,
    BOT_USERNAME,
    ApiError,
    CallbackQueryRecord,
    FakeChat,
    FakeMessage,
    FakePhoto,
    FakeUser,
    RecordedRequest,
)
from .server import FakeTelegramAPI

__all__ = [
    "BOT_FIRST_NAME",
    "BOT_ID",
    "BOT_TOKEN",
    "BOT_USERNAME",
    "DEFAULT_ALLOWED_UPDATES",
    "NOT_MODIFIED",
    "ApiError",
    "CallbackQueryRecord",
    "FakeChat",
    "FakeMessage",
    "FakePhoto",
    "FakeTelegramAPI",
    "FakeUser",
    "Injection",
    "ParseError",
    "RecordedRequest",
    "detect_entities",
    "format_text",
    "parse_html",
    "utf16_len",
]
