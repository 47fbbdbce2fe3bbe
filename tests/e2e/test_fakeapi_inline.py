"""Tests of the fake Telegram Bot API's inline mode: inline queries and their answers, messages
sent via the bot, their buttons, edits, deletion and flood accounting."""

from __future__ import annotations

import io
import json
import re
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
import telegram
from PIL import Image
from telegram import (
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InlineQueryResultCachedPhoto,
    InlineQueryResultPhoto,
    InlineQueryResultsButton,
    InputMediaPhoto,
    InputTextMessageContent,
    Update,
)
from telegram.constants import ParseMode

from tests.support.botprocess import fake_bot
from tests.support.fakeapi import (
    BOT_ID,
    BOT_USERNAME,
    FakeChat,
    FakeTelegramAPI,
    FakeUser,
    InlineQueryRecord,
)

KEYS = InlineKeyboardMarkup([[InlineKeyboardButton("Draw", callback_data="draw")]])
ARTICLE = {
    "type": "article",
    "id": "a1",
    "title": "Challenge",
    "input_message_content": {"message_text": "<b>Duel?</b>", "parse_mode": "HTML"},
    "reply_markup": {"inline_keyboard": [[{"text": "Accept", "callback_data": "accept"}]]},
}


def png(color: str = "red") -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (64, 48), color).save(buf, "PNG")
    return buf.getvalue()


@pytest.fixture
async def bot(fake_api: FakeTelegramAPI) -> AsyncIterator[telegram.Bot]:
    async with fake_bot(fake_api) as client:
        yield client


@pytest.fixture
def people(fake_api: FakeTelegramAPI) -> tuple[FakeUser, FakeUser]:
    return fake_api.add_user("Alice", username="alice"), fake_api.add_user("Bob")


@pytest.fixture
def group(fake_api: FakeTelegramAPI, people: tuple[FakeUser, FakeUser]) -> FakeChat:
    return fake_api.create_group("Duelists", members=people)


async def call(api: FakeTelegramAPI, method: str, /, files: dict[str, bytes] | None = None,
               **params: Any) -> tuple[int, dict[str, Any]]:
    """A raw Bot API call (JSON body, or multipart with ``files``): (HTTP status, answer)."""
    url = f"{api.base_url}{api.token}/{method}"
    async with httpx.AsyncClient() as client:
        if files:
            form = {k: v if isinstance(v, str) else json.dumps(v) for k, v in params.items()}
            response = await client.post(url, data=form, files=files)
        else:
            response = await client.post(url, json=params)
    answer: dict[str, Any] = response.json()
    return response.status_code, answer


async def refused(api: FakeTelegramAPI, method: str, expected: str, /, **params: Any) -> None:
    """``method`` answers 400 with exactly Telegram's text ``expected``."""
    status, answer = await call(api, method, **params)
    assert (status, answer["description"]) == (400, f"Bad Request: {expected}"), answer


def last_update(api: FakeTelegramAPI, kind: str) -> dict[str, Any]:
    found = [u[kind] for u in api.all_updates if kind in u]
    assert found, f"no {kind} update"
    update: dict[str, Any] = found[-1]
    return update


async def answered(api: FakeTelegramAPI, bot: telegram.Bot, user: FakeUser,
                   results: list[dict[str, Any]] | None = None) -> InlineQueryRecord:
    query = api.inline_query(user, "duel")
    status, answer = await call(api, "answerInlineQuery", inline_query_id=query.id,
                                results=results or [ARTICLE])
    assert status == 200, answer
    return query


async def test_inline_queries_need_inline_mode_and_come_as_updates(
    bot: telegram.Bot, fake_api: FakeTelegramAPI, group: FakeChat,
    people: tuple[FakeUser, FakeUser],
) -> None:
    alice, bob = people
    assert (await bot.get_me()).supports_inline_queries is False
    with pytest.raises(ValueError, match="no inline mode"):
        fake_api.inline_query(alice, "duel")
    assert fake_api.all_updates == []
    fake_api.set_inline_mode(placeholder="Challenge someone")
    assert (await bot.get_me()).supports_inline_queries is True
    query = fake_api.inline_query(alice, "duel bob")
    update = last_update(fake_api, "inline_query")
    assert update == {"id": query.id, "from": alice.to_dict(), "chat_type": "sender",
                      "query": "duel bob", "offset": ""}
    assert fake_api.inline_query(alice, chat=group).chat_type == "group"
    assert fake_api.inline_query(bob, chat=fake_api.user_chat(alice, bob)).chat_type == "private"
    assert fake_api.inline_query(alice, chat=fake_api.private_chat(alice)).chat_type == "sender"
    fake_api.inline_query(alice, "more", "supergroup", offset="10")
    assert last_update(fake_api, "inline_query")["offset"] == "10"
    with pytest.raises(ValueError, match="not a member"):
        fake_api.inline_query(alice, chat=fake_api.user_chat(bob, fake_api.add_user("Carol")))
    with pytest.raises(ValueError, match="at most 256"):
        fake_api.inline_query(alice, "x" * 257)
    parsed = await bot.get_updates()
    assert [u.inline_query.query for u in parsed if u.inline_query] == [
        "duel bob", "", "", "", "more"]


async def test_answer_inline_query_keeps_the_checked_results(
    bot: telegram.Bot, fake_api: FakeTelegramAPI, group: FakeChat,
    people: tuple[FakeUser, FakeUser],
) -> None:
    fake_api.set_inline_mode()
    sent = await bot.send_photo(group.id, png())
    query = fake_api.inline_query(people[0], "duel")
    assert await bot.answer_inline_query(
        query.id,
        [
            InlineQueryResultArticle("a1", "Challenge", InputTextMessageContent(
                "<b>Duel?</b>", parse_mode=ParseMode.HTML), reply_markup=KEYS),
            InlineQueryResultPhoto("p1", "https://example.org/t.jpg", "https://example.org/s.jpg",
                                   photo_width=640, photo_height=480, caption="Table"),
            InlineQueryResultCachedPhoto("c1", sent.photo[-1].file_id, caption="<i>Cards</i>",
                                         parse_mode=ParseMode.HTML),
        ],
        cache_time=0,
        is_personal=True,
        button=InlineQueryResultsButton("Set up", start_parameter="setup"),
    )
    record = await fake_api.wait_for_inline_answer(query)
    assert [(r.id, r.type) for r in record.results] == [
        ("a1", "InlineQueryResultArticle"), ("p1", "InlineQueryResultPhoto"),
        ("c1", "InlineQueryResultCachedPhoto")]
    article, photo, cached = record.results
    assert (article.text, article.entities) == ("Duel?", [
        {"type": "bold", "offset": 0, "length": 5}])
    assert article.reply_markup == KEYS.to_dict() and article.title == "Challenge"
    assert (photo.photo_url, photo.photo_size, photo.caption) == (
        "https://example.org/t.jpg", (640, 480), "Table")
    assert cached.photo is not None and cached.photo.file_id == sent.photo[-1].file_id
    assert (cached.caption, cached.caption_entities[0]["type"]) == ("Cards", "italic")
    assert (record.get("cache_time"), record.get("is_personal")) == (0, True)
    assert record.get("button") == {"text": "Set up", "start_parameter": "setup"}
    assert fake_api.warnings == []


@pytest.mark.parametrize(
    ("results", "text"),
    [
        ([{**ARTICLE, "type": "poem"}],
         'can\'t parse inline query result: type "poem" is unsupported for the inline query '
         "result"),
        ([{k: v for k, v in ARTICLE.items() if k != "type"}],
         'can\'t parse inline query result: type "" is unsupported for the inline query result'),
        ([{k: v for k, v in ARTICLE.items() if k != "id"}],
         'can\'t parse inline query result: Can\'t find field "id"'),
        ([{k: v for k, v in ARTICLE.items() if k != "input_message_content"}],
         'can\'t parse inline query result: Can\'t find field "input_message_content"'),
        ([{**ARTICLE, "input_message_content": {"text": "hi"}}],
         'can\'t parse inline query result: Can\'t find field "message_text"'),
        ([{**ARTICLE, "input_message_content": {"message_text": ""}}], "message text is empty"),
        ([{**ARTICLE, "input_message_content": {"message_text": "x" * 4097}}],
         "message is too long"),
        ([ARTICLE, {**ARTICLE, "title": "again"}], "RESULT_ID_DUPLICATE"),
        ([{**ARTICLE, "id": "é" * 33}], "RESULT_ID_INVALID"),  # 66 bytes
        ([{**ARTICLE, "id": 7}], 'can\'t parse inline query result: Field "id" must be of type '
                                 "String"),
        ([{**ARTICLE, "id": str(n)} for n in range(51)], "RESULTS_TOO_MUCH"),
        ([{"type": "photo", "id": "c", "photo_file_id": "AgACAgIAAxkBAAInope"}],
         "wrong file identifier/HTTP URL specified"),
        ([{"type": "photo", "id": "p", "photo_url": "ftp://x/y.jpg", "thumbnail_url": "t"}],
         "WEBDOCUMENT_URL_INVALID"),
        ([{"type": "photo", "id": "p", "photo_url": "https://x/y.jpg"}],
         'can\'t parse inline query result: Can\'t find field "thumbnail_url"'),
        ([{**ARTICLE, "reply_markup": {"inline_keyboard": [[{"text": "plain"}]]}}],
         "can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard"),
        ([{"type": "gif", "id": "g", "gif_url": "https://x/y.gif", "thumbnail_url": "t"}],
         "fake API supports only article and photo inline query results, got gif"),
        ("not a list", "can't parse results JSON object"),
    ],
)
async def test_answer_inline_query_refuses_what_telegram_refuses(
    fake_api: FakeTelegramAPI, people: tuple[FakeUser, FakeUser], results: Any, text: str
) -> None:
    fake_api.set_inline_mode()
    query = fake_api.inline_query(people[0], "duel")
    await refused(fake_api, "answerInlineQuery", text, inline_query_id=query.id, results=results)
    assert not query.answered


async def test_answer_inline_query_button_offset_and_query_age(
    fake_api: FakeTelegramAPI, people: tuple[FakeUser, FakeUser]
) -> None:
    fake_api.set_inline_mode()
    too_old = "query is too old and response timeout expired or query ID is invalid"
    query = fake_api.inline_query(people[0], "duel")
    for button, text in [
        ({"text": "Go", "start_parameter": "a b"}, "START_PARAM_INVALID"),
        ({"text": "Go", "start_parameter": "x" * 65}, "START_PARAM_INVALID"),
        ({"text": "Go"}, "can't parse inline query results button: exactly one of web_app and "
                         "start_parameter must be specified"),
        ({"start_parameter": "go"},
         'can\'t parse inline query results button: Can\'t find field "text"'),
    ]:
        await refused(fake_api, "answerInlineQuery", text, inline_query_id=query.id,
                      results=[ARTICLE], button=button)
    await refused(fake_api, "answerInlineQuery", "NEXT_OFFSET_INVALID", inline_query_id=query.id,
                  results=[ARTICLE], next_offset="9" * 65)
    # a field the type lacks is ignored, as Telegram does, and noted for the test
    status, _ = await call(fake_api, "answerInlineQuery", inline_query_id=query.id,
                           results=[{**ARTICLE, "colour": "red"}], next_offset="9" * 64)
    assert status == 200 and query.get("next_offset") == "9" * 64
    assert fake_api.warnings == [
        'answerInlineQuery: result 0 (InlineQueryResultArticle) has no field "colour"; '
        "Telegram ignores it"]
    await refused(fake_api, "answerInlineQuery", too_old, inline_query_id=query.id,
                  results=[ARTICLE])  # answered already
    await refused(fake_api, "answerInlineQuery", too_old, inline_query_id="123",
                  results=[ARTICLE])
    late = fake_api.inline_query(people[0], "late")
    fake_api.inline_answer_timeout = 0
    await refused(fake_api, "answerInlineQuery", too_old, inline_query_id=late.id,
                  results=[ARTICLE])


async def test_a_chosen_result_is_posted_via_the_bot(
    bot: telegram.Bot, fake_api: FakeTelegramAPI, group: FakeChat,
    people: tuple[FakeUser, FakeUser],
) -> None:
    alice, bob = people
    fake_api.set_inline_mode()
    query = await answered(fake_api, bot, alice, [
        ARTICLE, {**ARTICLE, "id": "bare", "reply_markup": None}])
    with pytest.raises(ValueError, match="only the user who typed"):
        fake_api.choose_inline_result(bob, query, "a1", group)
    private = fake_api.user_chat(alice, bob)
    msg = fake_api.choose_inline_result(alice, query, "a1", private)
    assert msg.inline_message_id and re.fullmatch(r"[A-Za-z0-9_-]{20,}", msg.inline_message_id)
    assert fake_api.inline_message(msg.inline_message_id) is msg
    assert (msg.text, msg.sender["id"], msg.from_bot) == ("Duel?", alice.id, False)
    assert msg.via_bot == {"id": BOT_ID, "is_bot": True, "first_name": "Six-Shooter",
                           "username": BOT_USERNAME}
    assert msg.to_dict()["via_bot"]["id"] == BOT_ID and msg.button_texts() == ["Accept"]
    assert fake_api.inline_messages(private) == [msg] and fake_api.notifications_for(msg) == 1
    assert fake_api.all_updates[-1].get("inline_query")  # no message, no chosen result
    with pytest.raises(telegram.error.BadRequest, match="Chat not found"):
        await bot.send_message(private.id, "the bot is not in a chat of users")
    fake_api.set_inline_feedback()
    fake_api.choose_inline_result(alice, query, "a1", private)
    second = last_update(fake_api, "chosen_inline_result")
    assert second == {"result_id": "a1", "from": alice.to_dict(),
                      "inline_message_id": fake_api.inline_messages()[-1].inline_message_id,
                      "query": "duel"}
    fake_api.choose_inline_result(alice, query, "bare", private)
    assert "inline_message_id" not in last_update(fake_api, "chosen_inline_result")
    assert not any("message" in u for u in fake_api.all_updates)
    # in a group the bot is in, privacy mode lets "messages sent via this bot" through
    in_group = fake_api.choose_inline_result(alice, query, "a1", group)
    assert last_update(fake_api, "message")["via_bot"]["id"] == BOT_ID
    assert in_group.update_id is not None and fake_api.inline_messages(group) == [in_group]
    in_own_chat = fake_api.choose_inline_result(alice, query, "a1", fake_api.private_chat(alice))
    assert in_own_chat.update_id == fake_api.all_updates[-2]["update_id"]  # then chosen result
    parsed = [Update.de_json(u, bot) for u in fake_api.all_updates]
    via = [u.message.via_bot for u in parsed if u.message]
    assert [v.username for v in via if v] == [BOT_USERNAME, BOT_USERNAME]
    chosen = [u.chosen_inline_result for u in parsed if u.chosen_inline_result]
    assert [c.result_id for c in chosen] == ["a1", "bare", "a1", "a1"]


async def test_buttons_of_inline_messages_send_no_message(
    bot: telegram.Bot, fake_api: FakeTelegramAPI, people: tuple[FakeUser, FakeUser]
) -> None:
    alice, bob = people
    fake_api.set_inline_mode()
    query = await answered(fake_api, bot, alice)
    private = fake_api.user_chat(alice, bob)
    msg = fake_api.choose_inline_result(alice, query, "a1", private)
    press = fake_api.press_button(bob, msg, "accept")
    update = last_update(fake_api, "callback_query")
    assert "message" not in update
    assert update == {"id": press.id, "from": bob.to_dict(),
                      "inline_message_id": msg.inline_message_id,
                      "chat_instance": update["chat_instance"], "data": "accept"}
    assert update["chat_instance"]
    parsed = Update.de_json(fake_api.all_updates[-1], bot).callback_query
    assert parsed is not None and parsed.message is None
    assert parsed.inline_message_id == msg.inline_message_id
    assert await bot.answer_callback_query(press.id, "Accepted")
    assert (await fake_api.wait_for_answer(press)).text == "Accepted"
    with pytest.raises(ValueError, match="not in chat"):
        fake_api.press_button(fake_api.add_user("Carol"), msg, "accept")


async def test_inline_messages_are_edited_by_id_and_edits_answer_true(
    bot: telegram.Bot, fake_api: FakeTelegramAPI, group: FakeChat,
    people: tuple[FakeUser, FakeUser],
) -> None:
    alice, bob = people
    fake_api.set_inline_mode()
    sent = await bot.send_photo(group.id, png("blue"))
    query = await answered(fake_api, bot, alice, [
        ARTICLE,
        {"type": "photo", "id": "p1", "photo_url": "https://example.org/t.jpg",
         "thumbnail_url": "https://example.org/s.jpg", "caption": "Table",
         "reply_markup": ARTICLE["reply_markup"]},
    ])
    text = fake_api.choose_inline_result(alice, query, "a1", fake_api.user_chat(alice, bob))
    photo = fake_api.choose_inline_result(alice, query, "p1", fake_api.user_chat(alice, bob))
    assert photo.photo is not None and photo.photo.url == "https://example.org/t.jpg"
    tid, pid = text.inline_message_id, photo.inline_message_id
    assert await bot.edit_message_text("Bob <i>accepted</i>", inline_message_id=tid,
                                       parse_mode=ParseMode.HTML) is True
    assert (text.text, text.entities[0]["type"]) == ("Bob accepted", "italic")
    assert await bot.edit_message_reply_markup(inline_message_id=tid, reply_markup=KEYS) is True
    assert text.callback_data() == ["draw"]
    assert await bot.edit_message_caption(inline_message_id=pid, caption="Round 2") is True
    assert await bot.edit_message_media(
        InputMediaPhoto(sent.photo[-1].file_id, caption="Round 3"), inline_message_id=pid) is True
    assert photo.photo.file_unique_id == sent.photo[-1].file_unique_id
    status, answer = await call(fake_api, "editMessageMedia", inline_message_id=pid, media={
        "type": "photo", "media": "https://example.org/round4.jpg", "caption": "Round 4"})
    assert (status, answer["result"]) == (200, True)
    assert (photo.photo.url, photo.caption) == ("https://example.org/round4.jpg", "Round 4")
    assert [e.get("caption") for e in photo.edits] == ["Table", "Round 2", "Round 3"]
    assert len(text.edits) == 2 and text.edit_date is not None
    assert fake_api.notifications_for(text) == fake_api.notifications_for(photo) == 1
    quiet = await bot.send_message(group.id, "shh", disable_notification=True)
    assert fake_api.notifications_for(fake_api.message(group, quiet.message_id)) == 0
    # refusals
    with pytest.raises(telegram.error.BadRequest, match="Invalid message content specified"):
        await bot.edit_message_media(InputMediaPhoto(png("green")), inline_message_id=pid)
    status, answer = await call(
        fake_api, "editMessageMedia", files={"pic": png("green")}, inline_message_id=pid,
        media={"type": "photo", "media": "attach://pic"})
    assert answer["description"] == "Bad Request: invalid message content specified"
    await refused(fake_api, "editMessageMedia", "wrong file identifier/HTTP URL specified",
                  inline_message_id=pid, media={"type": "photo", "media": "AgACAgIAAxkBnope"})
    await refused(fake_api, "editMessageText", "there is no text in the message to edit",
                  inline_message_id=pid, text="x")
    await refused(fake_api, "editMessageCaption", "there is no caption in the message to edit",
                  inline_message_id=tid, caption="x")
    with pytest.raises(telegram.error.BadRequest, match="not modified"):
        await bot.edit_message_text("Bob <i>accepted</i>", inline_message_id=tid,
                                    parse_mode=ParseMode.HTML, reply_markup=KEYS)
    await refused(fake_api, "editMessageText", "invalid inline message identifier specified",
                  inline_message_id="AgAAAnope", text="x")
    # the bot cannot reach it by chat and message id: it is the user's message
    status, answer = await call(fake_api, "deleteMessage", inline_message_id=tid)
    assert (status, answer["description"]) == (400, "Bad Request: chat_id is empty")
    assert len(photo.edits) == 3 and fake_api.failed_calls()


async def test_a_deleted_inline_message_cannot_be_edited(
    bot: telegram.Bot, fake_api: FakeTelegramAPI, people: tuple[FakeUser, FakeUser]
) -> None:
    alice, bob = people
    fake_api.set_inline_mode()
    query = await answered(fake_api, bot, alice)
    msg = fake_api.choose_inline_result(alice, query, "a1", fake_api.user_chat(alice, bob))
    assert msg.inline_message_id is not None
    fake_api.delete_inline_message(msg.inline_message_id)
    assert msg.deleted and fake_api.inline_messages() == []
    assert fake_api.inline_messages(include_deleted=True) == [msg]
    for method, params in [
        ("editMessageText", {"text": "gone?"}),
        ("editMessageCaption", {"caption": "gone?"}),
        ("editMessageReplyMarkup", {"reply_markup": KEYS.to_dict()}),
        ("editMessageMedia", {"media": {"type": "photo", "media": "https://example.org/x.jpg"}}),
    ]:
        await refused(fake_api, method, "MESSAGE_ID_INVALID",
                      inline_message_id=msg.inline_message_id, **params)
    with pytest.raises(ValueError, match="not an inline message"):
        fake_api.delete_inline_message(fake_api.send_message(alice, fake_api.private_chat(alice),
                                                             "hi"))


async def test_inline_edits_count_against_the_bots_budget_not_the_chats(
    bot: telegram.Bot, fake_api: FakeTelegramAPI, group: FakeChat,
    people: tuple[FakeUser, FakeUser],
) -> None:
    fake_api.set_inline_mode()
    query = await answered(fake_api, bot, people[0])
    msg = fake_api.choose_inline_result(people[0], query, "a1", group)
    fake_api.enable_flood_control(per_group_per_minute=1, per_bot_per_second=3)
    for n in range(2):  # two edits of a message in the group: the group's budget is untouched
        assert await bot.edit_message_text(f"edit {n}", inline_message_id=msg.inline_message_id)
    await bot.send_message(group.id, "the group's one message a minute")  # bot: 3 this second
    with pytest.raises(telegram.error.RetryAfter):
        await bot.edit_message_text("edit 2", inline_message_id=msg.inline_message_id)
    assert msg.text == "edit 1" and fake_api.calls("editMessageText")[-1].status == 429


async def test_inline_mode_over_the_http_control_endpoint(fake_api: FakeTelegramAPI) -> None:
    async with httpx.AsyncClient(base_url=fake_api.test_url) as client:
        async def control(action: str, **body: Any) -> Any:
            answer = (await client.post(f"/{action}", json=body)).json()
            assert answer["ok"], answer
            return answer["result"]

        alice = (await control("add_user", first_name="Alice"))["id"]
        bob = (await control("add_user", first_name="Bob"))["id"]
        await control("set_inline_mode", feedback=True)
        chat = (await control("user_chat", user_id=alice, other_id=bob))["id"]
        query_id = await control("inline_query", user_id=alice, query="duel")
        assert await control("inline_answer", query_id=query_id) is None
        status, _ = await call(fake_api, "answerInlineQuery", inline_query_id=query_id,
                               results=[ARTICLE], cache_time=5)
        assert status == 200
        assert await control("inline_answer", query_id=query_id) == {
            "cache_time": 5, "results": [ARTICLE]}
        sent = await control("choose_inline_result", user_id=alice, query_id=query_id,
                             result_id="a1", chat_id=chat)
        assert sent["via_bot"]["id"] == BOT_ID and sent["text"] == "Duel?"
        press = await control("press_inline_button", user_id=bob,
                              inline_message_id=sent["inline_message_id"], data="accept")
        assert last_update(fake_api, "callback_query")["id"] == press
        await control("delete_inline_message", inline_message_id=sent["inline_message_id"])
        gone = await control("inline_message", inline_message_id=sent["inline_message_id"])
        assert gone["deleted"] is True
