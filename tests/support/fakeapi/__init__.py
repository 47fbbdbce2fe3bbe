"""A fake Telegram Bot API server for end-to-end tests of the bot.

Typical e2e test (fixtures from ``tests/e2e/conftest.py``)::

    async def test_duel(fake_api, launch_bot):
        alice, bob = fake_api.add_user("Alice"), fake_api.add_user("Bob", language_code="ru")
        group = fake_api.create_group("Friends", members=[alice, bob])
        await launch_bot()                                  # the real bot, long-polling
        fake_api.send_command(alice, group, "duel", mention_bot=True)
        offer = await fake_api.wait_for_message(group, lambda m: m.buttons())
        query = fake_api.press_button(bob, offer, text="Accept")
        await fake_api.wait_for_answer(query)
        table = await fake_api.wait_for_message(group, lambda m: m.photo is not None)

Inline mode (off by default, as for a new bot)::

    fake_api.set_inline_mode(feedback=True)             # BotFather /setinline, /setinlinefeedback
    query = fake_api.inline_query(alice, "duel", chat=fake_api.user_chat(alice, bob))
    await fake_api.wait_for_inline_answer(query)        # the bot's answerInlineQuery
    sent = fake_api.choose_inline_result(alice, query, "a1", fake_api.user_chat(alice, bob))
    fake_api.press_button(bob, sent, "accept")          # callback_query with inline_message_id
    await fake_api.wait_for_edit(sent)                  # editMessage* by inline_message_id

Modules: ``server`` (HTTP, failure injection), ``methods`` (the Bot API methods the bot
calls, and their checks), ``core`` (state, control and query API, waiting), ``delivery``
(webhook POSTs through a round-robin load balancer: ``deliver_to``), ``formatting`` (HTML
parsing like tdlib: the bot sends HTML only), ``model`` (users, chats, messages, records), ``spec``
(limits from ``api_limits.json`` beside it, made by ``extract_limits``).
"""

from .core import DEFAULT_ALLOWED_UPDATES, Injection
from .delivery import SECRET_HEADER, Delivery
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
    InlineQueryRecord,
    InlineResult,
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
    "SECRET_HEADER",
    "ApiError",
    "CallbackQueryRecord",
    "Delivery",
    "FakeChat",
    "FakeMessage",
    "FakePhoto",
    "FakeTelegramAPI",
    "FakeUser",
    "Injection",
    "InlineQueryRecord",
    "InlineResult",
    "ParseError",
    "RecordedRequest",
    "detect_entities",
    "format_text",
    "parse_html",
    "utf16_len",
]
