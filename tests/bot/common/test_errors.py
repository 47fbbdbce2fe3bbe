"""The error handler: a failed command gets one short apology in the sender's language, a
failed press a "⚠️" toast, and the handler itself never raises."""

from __future__ import annotations

import datetime as dt
from typing import Any

from telegram import Chat, Message, MessageEntity, Update, User
from telegram.error import NetworkError

from bot.common.errors import on_error
from bot.i18n import translator
from bot.storage import StorageError

GROUP = Chat(-100123, Chat.SUPERGROUP)


class FakeBot:
    def __init__(self, fail: BaseException | None = None) -> None:
        self.sent: list[dict[str, Any]] = []
        self.fail = fail

    async def send_message(self, chat_id: int, text: str, **kwargs: Any) -> None:
        if self.fail is not None:
            raise self.fail
        self.sent.append({"chat_id": chat_id, "text": text, **kwargs})


class FakeContext:
    def __init__(self, error: BaseException, bot: FakeBot) -> None:
        self.error = error
        self.bot = bot
        self.bot_data: dict[str, Any] = {}


class FakeQuery:
    def __init__(self, fail: bool = False) -> None:
        self.answers: list[str | None] = []
        self.fail = fail

    async def answer(self, text: str | None = None, **kwargs: Any) -> bool:
        if self.fail:
            raise NetworkError("down")
        self.answers.append(text)
        return True


def command_update(text: str = "/duel 40", lang: str | None = "en", update_id: int = 7,
                   thread: int | None = None) -> Update:
    user = User(101, "Alice", False, language_code=lang)
    entities = (MessageEntity(MessageEntity.BOT_COMMAND, 0, len(text.split()[0])),) if (
        text.startswith("/")) else ()
    message = Message(55, dt.datetime(2025, 1, 1, tzinfo=dt.UTC), GROUP, from_user=user,
                      text=text, entities=entities, message_thread_id=thread,
                      is_topic_message=thread is not None)
    return Update(update_id, message=message)


async def test_a_failed_command_gets_one_apology_in_the_senders_language() -> None:
    for lang, expected in (("en", "en"), ("ru-RU", "ru"), (None, "en")):
        bot = FakeBot()
        context = FakeContext(StorageError("database is locked"), bot)
        update = command_update(lang=lang, thread=9)
        await on_error(update, context)  # type: ignore[arg-type]
        await on_error(update, context)  # a second failing handler of the same update
        assert len(bot.sent) == 1
        sent = bot.sent[0]
        assert sent["text"] == translator(expected).t("error.apology")
        assert (sent["chat_id"], sent["reply_to_message_id"], sent["message_thread_id"]) == (
            GROUP.id, 55, 9)


async def test_a_plain_message_gets_no_apology() -> None:
    bot = FakeBot()
    await on_error(command_update("hello there"), FakeContext(StorageError("x"), bot))  # type: ignore[arg-type]
    assert bot.sent == []


async def test_a_failed_press_gets_a_warning_toast() -> None:
    query = FakeQuery()
    update = Update(8, callback_query=query)  # type: ignore[arg-type]
    await on_error(update, FakeContext(RuntimeError("boom"), FakeBot()))  # type: ignore[arg-type]
    assert query.answers == ["⚠️"]


async def test_the_error_handler_never_raises() -> None:
    for bot_error in (RuntimeError("send failed"), NetworkError("no network"),
                      StorageError("locked")):
        context = FakeContext(RuntimeError("boom"), FakeBot(fail=bot_error))
        await on_error(command_update(update_id=9), context)  # type: ignore[arg-type]
    failing_press = Update(10, callback_query=FakeQuery(fail=True))  # type: ignore[arg-type]
    await on_error(failing_press, FakeContext(RuntimeError("boom"), FakeBot()))  # type: ignore[arg-type]
    await on_error(object(), FakeContext(RuntimeError("boom"), FakeBot()))  # type: ignore[arg-type]
    await on_error(None, FakeContext(RuntimeError("boom"), FakeBot()))  # type: ignore[arg-type]

    class Broken(FakeContext):
        @property
        def bot_data(self) -> dict[str, Any]:  # type: ignore[override]
            raise KeyError("no bot data")

        @bot_data.setter
        def bot_data(self, value: dict[str, Any]) -> None:
            pass

    await on_error(command_update(update_id=11), Broken(RuntimeError("x"), FakeBot()))  # type: ignore[arg-type]
