"""bot.telegram.send: each failure scoped to what failed.

Only "the bot is out of the chat" forgets a chat; a refused send (rights, a closed or deleted
topic) is a failure for now; an upgraded group is a move. A send that may have reached Telegram
(read or write timeout, a dropped answer) is never made again; one that surely did not (no
connection, no free connection in the pool) is; edits are idempotent and always retried.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import aiohttp
import pytest
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, Message, ReplyParameters
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Forbidden,
    NetworkError,
    RetryAfter,
    TelegramError,
    TimedOut,
)

from bot.telegram import send
from bot.telegram.http import NotSent

CHAT = -100777


def timed_out(cause: BaseException) -> TimedOut:
    """What the request class raises for a timeout (`raise TimedOut from err`)."""
    error = TimedOut()
    error.__cause__ = cause
    return error


def network(cause: BaseException) -> NetworkError:
    """What it raises for any other transport error (`raise NetworkError(...) from err`)."""
    error = NetworkError(f"{type(cause).__name__}: {cause}")
    error.__cause__ = cause
    return error


class StubBot:
    """Answers each call with the next scripted outcome (an exception to raise, or a value)."""

    def __init__(self, *outcomes: object) -> None:
        self.outcomes = list(outcomes)
        self.calls: list[str] = []
        self.raw: list[dict[str, Any]] = []  # what each raw call (send.raw) asked for

    def _next(self, method: str) -> Any:
        self.calls.append(method)
        outcome = self.outcomes.pop(0) if self.outcomes else "ok"
        if isinstance(outcome, BaseException):
            raise outcome
        return outcome

    async def do_api_request(self, endpoint: str, *, api_kwargs: dict[str, Any]) -> Any:
        self.raw.append(api_kwargs)
        return self._next(endpoint)

    async def send_message(self, *args: object, **kwargs: object) -> Any:
        return self._next("sendMessage")

    async def edit_message_media(self, *args: object, **kwargs: object) -> Any:
        return self._next("editMessageMedia")

    async def edit_message_caption(self, *args: object, **kwargs: object) -> Any:
        return self._next("editMessageCaption")

    async def edit_message_reply_markup(self, *args: object, **kwargs: object) -> Any:
        return self._next("editMessageReplyMarkup")

    async def delete_message(self, *args: object, **kwargs: object) -> Any:
        return self._next("deleteMessage")


SENT = cast(Message, object())
PHOTO = {"message_id": 41, "chat": {"id": CHAT}, "photo": [], "date": 0}  # a sendPhoto's JSON


@pytest.fixture(autouse=True)
def no_waiting(monkeypatch: pytest.MonkeyPatch) -> None:
    async def instant(_: float) -> None:
        return None

    monkeypatch.setattr(send.asyncio, "sleep", instant)


async def send_photo(bot: StubBot) -> int | None:
    return await send.send_photo(cast(Bot, bot), CHAT, None, b"png", "caption", None)


async def send_text(bot: StubBot) -> Message | None:
    return await send.send_text(cast(Bot, bot), CHAT, 7, "text")


async def edit_photo(bot: StubBot) -> send.Edit:
    return await send.edit_photo(cast(Bot, bot), CHAT, 5, b"png", "caption", None)


# --- sends: never blindly made again --------------------------------------------------------


MAY_HAVE_ARRIVED = [
    timed_out(aiohttp.SocketTimeoutError("slow answer")),
    timed_out(TimeoutError("slow upload")),
    network(aiohttp.ServerDisconnectedError("Server disconnected")),
    network(aiohttp.ClientOSError(104, "connection reset")),
    NetworkError("Bad Gateway"),  # Telegram's front answered 502: the send may have happened
]


@pytest.mark.parametrize("error", MAY_HAVE_ARRIVED, ids=lambda e: type(e.__cause__).__name__)
@pytest.mark.parametrize("sending", [send_photo, send_text], ids=["photo", "text"])
async def test_a_send_that_may_have_arrived_is_made_once_and_reported_failed(
        error: NetworkError, sending: Callable[[StubBot], Any]) -> None:
    bot = StubBot(error, SENT)
    assert await sending(bot) is None
    assert len(bot.calls) == 1


SURELY_NOT_SENT = [
    timed_out(NotSent("no connection in time")),
    network(NotSent("connection refused")),
    timed_out(NotSent("all connections busy")),
]


@pytest.mark.parametrize("error", SURELY_NOT_SENT, ids=lambda e: str(e.__cause__))
async def test_a_send_that_surely_never_left_is_made_again(error: NetworkError) -> None:
    bot = StubBot(error, PHOTO)
    assert await send_photo(bot) == 41
    assert bot.calls == ["sendPhoto", "sendPhoto"]


async def test_a_send_that_never_leaves_gives_up_after_a_few_tries() -> None:
    bot = StubBot(*(network(NotSent("down")) for _ in range(send.NETWORK_TRIES + 2)))
    assert await send_photo(bot) is None
    assert len(bot.calls) == send.NETWORK_TRIES


async def test_a_flood_refusal_did_nothing_so_the_send_is_made_again() -> None:
    bot = StubBot(RetryAfter(1), PHOTO)
    assert await send_photo(bot) == 41
    assert len(bot.calls) == 2


async def test_a_photo_is_sent_with_its_caption_buttons_place_and_reply_and_gives_its_id(
) -> None:
    bot, markup = StubBot(PHOTO), InlineKeyboardMarkup([[InlineKeyboardButton("Go", "d:1")]])
    assert await send.send_photo(cast(Bot, bot), CHAT, 7, b"jpeg", "<b>Hi</b>", markup,
                                 reply_to=3) == 41
    (asked,) = bot.raw
    assert asked["photo"].input_file_content == b"jpeg"
    assert (asked["chat_id"], asked["caption"], asked["parse_mode"], asked["reply_markup"],
            asked["message_thread_id"]) == (CHAT, "<b>Hi</b>", "HTML", markup, 7)
    assert asked["reply_parameters"] == ReplyParameters(3, allow_sending_without_reply=True)


async def test_a_photo_with_no_buttons_place_or_reply_asks_for_none() -> None:
    bot = StubBot(PHOTO)
    await send_photo(bot)
    assert not {"reply_markup", "message_thread_id", "reply_parameters"} & set(bot.raw[0])


async def test_only_the_calls_read_raw_may_be_asked_for_raw() -> None:
    with pytest.raises(ValueError, match="sendMessage"):
        await send.raw(cast(Bot, StubBot()), "sendMessage", {"chat_id": CHAT})


# --- edits: idempotent, retried ---------------------------------------------------------------


@pytest.mark.parametrize("error", MAY_HAVE_ARRIVED[:3], ids=lambda e: type(e.__cause__).__name__)
async def test_an_edit_is_made_again_after_any_network_failure(error: NetworkError) -> None:
    bot = StubBot(error, "edited")
    assert await edit_photo(bot) is send.Edit.DONE
    assert bot.calls == ["editMessageMedia", "editMessageMedia"]


async def test_an_edit_that_keeps_failing_is_failed_not_gone() -> None:
    slow = aiohttp.SocketTimeoutError("slow")
    bot = StubBot(*(timed_out(slow) for _ in range(send.NETWORK_TRIES)))
    assert await edit_photo(bot) is send.Edit.FAILED
    assert len(bot.calls) == send.NETWORK_TRIES


# --- who is gone, what is refused, what moved -------------------------------------------------


BOT_OUT = [
    Forbidden("Forbidden: bot was kicked from the group chat"),
    Forbidden("Forbidden: bot was kicked from the supergroup chat"),
    Forbidden("Forbidden: bot is not a member of the supergroup chat"),
    Forbidden("Forbidden: bot was blocked by the user"),
    Forbidden("Forbidden: user is deactivated"),
    Forbidden("Forbidden: the group chat was deleted"),
    BadRequest("Bad Request: chat not found"),
]


@pytest.mark.parametrize("error", BOT_OUT, ids=lambda e: e.message)
async def test_only_the_bot_being_out_of_the_chat_is_chat_gone(error: TelegramError) -> None:
    for call in (send_photo, send_text, edit_photo):
        with pytest.raises(send.ChatGone) as gone:
            await call(StubBot(error))
        assert gone.value.chat_id == CHAT


REFUSED = [
    BadRequest("Bad Request: not enough rights to send photos to the chat"),
    BadRequest("Bad Request: not enough rights to send text messages to the chat"),
    BadRequest("Bad Request: have no rights to send a message"),
    BadRequest("Bad Request: TOPIC_CLOSED"),
    BadRequest("Bad Request: TOPIC_DELETED"),
    BadRequest("Bad Request: message thread not found"),
    BadRequest("Bad Request: CHAT_WRITE_FORBIDDEN"),
    Forbidden("Forbidden: bot can't send messages to bots"),
]


@pytest.mark.parametrize("error", REFUSED, ids=lambda e: e.message)
async def test_a_refused_send_is_a_failure_for_now_not_the_chat_gone(error: TelegramError) -> None:
    bot = StubBot(error, SENT)
    assert await send_photo(bot) is None
    assert len(bot.calls) == 1  # not hammered now: the sync job tries again later
    assert await send_text(StubBot(error)) is None


@pytest.mark.parametrize("error", REFUSED[:3], ids=lambda e: e.message)
async def test_a_refused_edit_is_failed(error: TelegramError) -> None:
    assert await edit_photo(StubBot(error)) is send.Edit.FAILED


async def test_an_upgraded_group_is_a_move_to_its_new_id() -> None:
    for call in (send_photo, send_text, edit_photo):
        with pytest.raises(send.ChatMoved) as moved:
            await call(StubBot(ChatMigrated(-1009876543210)))
        assert (moved.value.chat_id, moved.value.new_chat_id) == (CHAT, -1009876543210)


async def test_other_bad_requests_are_the_callers_to_judge() -> None:
    with pytest.raises(BadRequest, match="parse entities"):
        await send_text(StubBot(BadRequest("Bad Request: can't parse entities: oops")))
    assert await edit_photo(StubBot(BadRequest("Bad Request: message to edit not found"))) is (
        send.Edit.GONE)
    assert await edit_photo(StubBot(BadRequest("Bad Request: message is not modified"))) is (
        send.Edit.DONE)


async def test_delete_reports_done_gone_or_failed() -> None:
    assert await send.delete(cast(Bot, StubBot(True)), CHAT, 3) is send.Edit.DONE
    gone = StubBot(BadRequest("Bad Request: message to delete not found"))
    assert await send.delete(cast(Bot, gone), CHAT, 3) is send.Edit.GONE
    old = StubBot(BadRequest("Bad Request: message can't be deleted for everyone"))
    assert await send.delete(cast(Bot, old), CHAT, 3) is send.Edit.FAILED
