"""/settings: the message, its buttons, and who may change what (handlers driven with real
Update objects and a fake bot)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any, cast

import pytest
from telegram import InlineKeyboardMarkup, Update
from telegram.ext import ContextTypes

from bot.i18n import translator
from bot.services import KEY, Services
from bot.settings.handlers import changed, on_settings, settings_command
from bot.settings.keyboards import STACK_CHOICES, TIMER_CHOICES, settings_keyboard, settings_text
from bot.settings.payloads import PAYLOADS, Setting, SettingsPress
from bot.storage import ChatSettings, Storage
from bot.storage.chats import TURN_TIMER_DEFAULT
from bot.telegram import callbacks

GROUP = -100555
ADMIN, MEMBER = 11, 22


@dataclass
class FakeBot:
    statuses: dict[int, str] = field(default_factory=dict)
    answers: list[dict[str, Any]] = field(default_factory=list)
    sent: list[dict[str, Any]] = field(default_factory=list)
    edited: list[dict[str, Any]] = field(default_factory=list)
    dropped: int = 0
    defaults: None = None

    async def get_chat_member(self, chat_id: int, user_id: int, **kw: Any) -> SimpleNamespace:
        return SimpleNamespace(status=self.statuses.get(user_id, "member"))

    async def answer_callback_query(self, callback_query_id: str, **kw: Any) -> bool:
        self.answers.append(kw)
        return True

    async def send_message(self, chat_id: int, text: str, **kw: Any) -> SimpleNamespace:
        self.sent.append({"chat_id": chat_id, "text": text, **kw})
        return SimpleNamespace(message_id=99)

    async def edit_message_text(self, text: str, **kw: Any) -> bool:
        self.edited.append({"text": text, **kw})
        return True

    async def edit_message_reply_markup(self, **kw: Any) -> bool:
        self.dropped += 1
        return True


@pytest.fixture
async def svc(store: Storage) -> AsyncIterator[Services]:
    storage = store
    yield Services(storage=storage)
    await storage.close()


def _chat(chat_id: int) -> dict[str, Any]:
    if chat_id > 0:
        return {"id": chat_id, "type": "private", "first_name": "Pat"}
    return {"id": chat_id, "type": "group", "title": "Saloon"}


def _user(user_id: int, lang: str = "en") -> dict[str, Any]:
    return {"id": user_id, "is_bot": False, "first_name": f"U{user_id}", "language_code": lang}


def press_update(bot: FakeBot, user_id: int, chat_id: int, data: str,
                 markup: InlineKeyboardMarkup | None = None) -> Update:
    message: dict[str, Any] = {"message_id": 5, "date": 0, "chat": _chat(chat_id),
                               "text": "settings",
                               "from": {"id": 1, "is_bot": True, "first_name": "Bot"}}
    if markup is not None:  # the buttons the pressed message shows
        message["reply_markup"] = markup.to_dict()
    return Update.de_json({"update_id": 1, "callback_query": {
        "id": "q1", "from": _user(user_id), "chat_instance": "ci", "data": data,
        "message": message}}, bot)  # type: ignore[arg-type]


def command_update(bot: FakeBot, user_id: int, chat_id: int) -> Update:
    return Update.de_json({"update_id": 2, "message": {
        "message_id": 7, "date": 0, "chat": _chat(chat_id), "from": _user(user_id),
        "text": "/settings", "entities": [{"type": "bot_command", "offset": 0, "length": 9}],
    }}, bot)  # type: ignore[arg-type]


def context(bot: FakeBot, svc: Services) -> ContextTypes.DEFAULT_TYPE:
    return cast(ContextTypes.DEFAULT_TYPE, SimpleNamespace(bot=bot, bot_data={KEY: svc}))


async def tap(bot: FakeBot, svc: Services, user_id: int, chat_id: int, press: SettingsPress,
              markup: InlineKeyboardMarkup | None = None) -> str | None:
    await on_settings(press_update(bot, user_id, chat_id, callbacks.encode(press), markup),
                      context(bot, svc))
    answer = bot.answers[-1]
    text = answer.get("text")
    return text if isinstance(text, str) else None


def callback_data(markup: InlineKeyboardMarkup) -> list[str]:
    return [str(b.callback_data) for row in markup.inline_keyboard for b in row]


# --- handlers -------------------------------------------------------------------------------


async def test_an_admin_changes_a_setting_and_it_is_saved(svc: Services) -> None:
    bot = FakeBot(statuses={ADMIN: "administrator"})
    toast = await tap(bot, svc, ADMIN, GROUP, SettingsPress(Setting.TIMER, 60))
    assert toast == "Saved."
    assert (await svc.storage.chats.get_settings(GROUP)).turn_timer == 60
    [edit] = bot.edited
    assert "⏱ Turn timer: 1 min" in edit["text"]
    assert "s:t:60" in callback_data(edit["reply_markup"])
    ticked = [b.text for row in edit["reply_markup"].inline_keyboard for b in row
              if b.text.startswith("✅")]
    assert "✅ 1 min" in ticked


async def test_re_selecting_the_current_value_makes_no_edit(svc: Services) -> None:
    """Telegram refuses an edit to the same text and buttons ("message is not modified"):
    the current value again, on a message that shows it, is answered and left alone."""
    bot = FakeBot(statuses={ADMIN: "administrator"})
    await tap(bot, svc, ADMIN, GROUP, SettingsPress(Setting.TIMER, 60))
    [edit] = bot.edited
    shown = edit["reply_markup"]
    for press in (SettingsPress(Setting.TIMER, 60), SettingsPress(Setting.LANGUAGE, "auto"),
                  SettingsPress(Setting.STACK, ChatSettings().default_stack),
                  SettingsPress(Setting.CARDS_OUT, ChatSettings().show_cards_out)):
        assert await tap(bot, svc, ADMIN, GROUP, press, shown) == "Saved."
    assert bot.edited == [edit]  # no second edit
    assert (await svc.storage.chats.get_settings(GROUP)).turn_timer == 60
    # A new value on the same message is shown.
    await tap(bot, svc, ADMIN, GROUP, SettingsPress(Setting.TIMER, 120), shown)
    assert len(bot.edited) == 2 and "⏱ Turn timer: 2 min" in bot.edited[-1]["text"]


async def test_re_selecting_on_a_message_that_shows_something_else_redraws_it(
        svc: Services) -> None:
    """The value is saved already, but the pressed message shows older buttons (another
    admin changed it from another /settings message, or the language changed): it is
    brought up to date."""
    bot = FakeBot(statuses={ADMIN: "administrator"})
    old = settings_keyboard(translator("en"), ChatSettings(), private=False)
    await svc.storage.chats.set_settings(GROUP, ChatSettings(turn_timer=60))
    await tap(bot, svc, ADMIN, GROUP, SettingsPress(Setting.TIMER, 60), old)
    [edit] = bot.edited
    assert "⏱ Turn timer: 1 min" in edit["text"]
    ru = settings_keyboard(translator("ru"), ChatSettings(turn_timer=60), private=False)
    await tap(bot, svc, ADMIN, GROUP, SettingsPress(Setting.TIMER, 60), ru)  # now in English
    assert len(bot.edited) == 2


async def test_the_owner_counts_as_an_admin(svc: Services) -> None:
    bot = FakeBot(statuses={ADMIN: "creator"})
    await tap(bot, svc, ADMIN, GROUP, SettingsPress(Setting.STACK, 100))
    await tap(bot, svc, ADMIN, GROUP, SettingsPress(Setting.CARDS_OUT, False))
    assert await svc.storage.chats.get_settings(GROUP) == ChatSettings(default_stack=100,
                                                                       show_cards_out=False)


async def test_a_non_admins_tap_gets_a_toast_and_changes_nothing(svc: Services) -> None:
    bot = FakeBot(statuses={ADMIN: "administrator"})
    toast = await tap(bot, svc, MEMBER, GROUP, SettingsPress(Setting.TIMER, 0))
    assert toast == "Only the chat's admins can change the settings."
    assert await svc.storage.chats.get_settings(GROUP) == ChatSettings()
    assert bot.edited == [] and bot.dropped == 0
    await tap(bot, svc, MEMBER, GROUP, SettingsPress(Setting.CLOSE))
    assert bot.dropped == 0


async def test_in_a_private_chat_anyone_may_change_the_language(svc: Services) -> None:
    bot = FakeBot()
    toast = await tap(bot, svc, MEMBER, MEMBER, SettingsPress(Setting.LANGUAGE, "ru"))
    assert toast == "Сохранено."  # answered in the language just chosen
    assert (await svc.storage.chats.get_settings(MEMBER)).language == "ru"
    assert "Язык" in bot.edited[-1]["text"]
    await tap(bot, svc, MEMBER, MEMBER, SettingsPress(Setting.LANGUAGE, "auto"))
    assert (await svc.storage.chats.get_settings(MEMBER)).language is None


async def test_done_takes_the_buttons_off(svc: Services) -> None:
    bot = FakeBot(statuses={ADMIN: "administrator"})
    assert await tap(bot, svc, ADMIN, GROUP, SettingsPress(Setting.CLOSE)) is None
    assert bot.dropped == 1


async def test_a_value_the_settings_refuse_is_refused(svc: Services) -> None:
    bot = FakeBot(statuses={ADMIN: "administrator"})
    toast = await tap(bot, svc, ADMIN, GROUP, SettingsPress(Setting.TIMER, 5))  # forged
    assert toast == translator("en").t("toast.invalid")
    assert await svc.storage.chats.get_settings(GROUP) == ChatSettings()


async def test_anyone_may_open_the_settings(svc: Services) -> None:
    bot = FakeBot()
    await settings_command(command_update(bot, MEMBER, GROUP), context(bot, svc))
    [sent] = bot.sent
    assert "Chat settings" in sent["text"] and "5 min" in sent["text"]
    assert len(callback_data(sent["reply_markup"])) > 10


# --- the message ----------------------------------------------------------------------------


def test_every_button_decodes_to_a_settings_press_and_the_current_one_is_ticked() -> None:
    tr = translator("ru")
    settings = ChatSettings(language="ru", turn_timer=600, default_stack=20,
                            show_cards_out=False)
    markup = settings_keyboard(tr, settings, private=False)
    presses = [callbacks.decode(d, PAYLOADS) for d in callback_data(markup)]
    assert all(isinstance(p, SettingsPress) for p in presses)
    ticked = {b.text for row in markup.inline_keyboard for b in row if b.text.startswith("✅")}
    assert ticked == {"✅ Русский", "✅ 10 мин", "✅ 20", "✅ Скрыть", "✅ Сворачивать",
                      "✅ Месяц", "✅ Продолжать", "✅ 2 цвета"}
    timers = [p.value for p in presses if isinstance(p, SettingsPress)
              and p.setting is Setting.TIMER]
    stacks = [p.value for p in presses if isinstance(p, SettingsPress)
              and p.setting is Setting.STACK]
    assert tuple(timers) == TIMER_CHOICES and tuple(stacks) == STACK_CHOICES
    for p in presses:
        assert isinstance(p, SettingsPress)
        if p.setting is not Setting.CLOSE:
            changed(settings, p)  # every offered value is a valid setting


def test_a_private_chat_offers_only_the_language_and_the_nudges() -> None:
    tr = translator("en")
    markup = settings_keyboard(tr, ChatSettings(), private=True)
    kinds = {cast(SettingsPress, callbacks.decode(d, PAYLOADS)).setting
             for d in callback_data(markup)}
    assert kinds == {Setting.LANGUAGE, Setting.NUDGES, Setting.CLOSE}
    text = settings_text(tr, ChatSettings(), private=True)
    assert "Turn timer" not in text and "Chat settings" not in text
    assert "Settings for our private chat" in text
    assert "Language: auto (your Telegram language)" in text
    assert "Your turn in a duel anywhere: a private message" in text
    off = settings_text(tr, ChatSettings(nudges=False), private=True)
    assert "Your turn in a duel anywhere: off" in off


def test_the_text_shows_every_setting() -> None:
    text = settings_text(translator("en"), ChatSettings(turn_timer=0, default_stack=30),
                         private=False)
    assert "Chat settings" in text
    assert "Language: auto (the challenger's language)" in text and "Turn timer: off" in text
    assert "30 chips" in text and "shown" in text


def test_turn_timer_settings_allow_off_and_keep_a_minimum() -> None:
    assert ChatSettings().turn_timer == TURN_TIMER_DEFAULT == 300
    assert ChatSettings(turn_timer=0).turn_timer == 0
    for bad in (1, 29, False):
        with pytest.raises(ValueError):
            ChatSettings(turn_timer=bad)
    assert ChatSettings.from_json('{"turn_timer": 10}') == ChatSettings()


async def test_an_admin_chooses_the_standings_season(svc: Services) -> None:
    bot = FakeBot(statuses={ADMIN: "administrator"})
    assert (await svc.storage.chats.get_settings(GROUP)).season == "month"  # the default
    await tap(bot, svc, ADMIN, GROUP, SettingsPress(Setting.SEASON, "quarter"))
    assert await svc.storage.chats.get_settings(GROUP) == ChatSettings(season="quarter")
    [edit] = bot.edited
    assert "🏆 Standings seasons: quarters (UTC)" in edit["text"]
    await tap(bot, svc, ADMIN, GROUP, SettingsPress(Setting.SEASON, "none"))
    assert (await svc.storage.chats.get_settings(GROUP)).season == "none"


def test_the_season_row_offers_none_month_and_quarter() -> None:
    markup = settings_keyboard(translator("ru"), ChatSettings(season="none"), private=False)
    presses = [cast(SettingsPress, callbacks.decode(d, PAYLOADS)) for d in callback_data(markup)]
    assert [p.value for p in presses if p.setting is Setting.SEASON] == [
        "none", "month", "quarter"]
    ticked = {b.text for row in markup.inline_keyboard for b in row if b.text.startswith("✅")}
    assert "✅ Без сезонов" in ticked
    assert "🏆 Сезоны рейтинга: нет (за всё время)" in settings_text(
        translator("ru"), ChatSettings(season="none"), private=False)


async def test_an_admin_makes_a_new_season_reset_the_ratings(svc: Services) -> None:
    bot = FakeBot(statuses={ADMIN: "administrator"})
    assert (await svc.storage.chats.get_settings(GROUP)).season_reset is False  # the default
    assert await tap(bot, svc, ADMIN, GROUP, SettingsPress(Setting.SEASON_RESET, True)) == (
        "Saved.")
    assert await svc.storage.chats.get_settings(GROUP) == ChatSettings(season_reset=True)
    [edit] = bot.edited
    assert "🔄 Ratings in a new season: reset, everyone starts level" in edit["text"]
    ticked = [b.text for row in edit["reply_markup"].inline_keyboard for b in row
              if b.text.startswith("✅")]
    assert "✅ Reset" in ticked and "✅ Carry on" not in ticked
    await tap(bot, svc, ADMIN, GROUP, SettingsPress(Setting.SEASON_RESET, False))
    assert (await svc.storage.chats.get_settings(GROUP)).season_reset is False
    assert "🔄 Ratings in a new season: carry on from the season before" in bot.edited[-1][
        "text"]


async def test_a_member_cannot_reset_the_seasons_ratings(svc: Services) -> None:
    bot = FakeBot(statuses={ADMIN: "administrator"})
    await tap(bot, svc, MEMBER, GROUP, SettingsPress(Setting.SEASON_RESET, True))
    assert await svc.storage.chats.get_settings(GROUP) == ChatSettings()


def test_changed_sets_season_reset_and_nothing_else() -> None:
    before = ChatSettings(season="quarter", keep_reveals=True)
    after = changed(before, SettingsPress(Setting.SEASON_RESET, True))
    assert after == ChatSettings(season="quarter", keep_reveals=True, season_reset=True)
    assert changed(after, SettingsPress(Setting.SEASON_RESET, False)) == before


def test_season_reset_is_a_bool_and_old_settings_read_as_carry_on() -> None:
    assert ChatSettings().season_reset is False
    for bad in (1, 0, "true", None):
        with pytest.raises(ValueError):
            ChatSettings(season_reset=bad)  # type: ignore[arg-type]
    old = '{"keep_reveals": true, "season": "quarter"}'  # written before the setting existed
    assert ChatSettings.from_json(old) == ChatSettings(keep_reveals=True, season="quarter")
    assert ChatSettings.from_json('{"season_reset": 1}') == ChatSettings()  # invalid: default
    settings = ChatSettings(season_reset=True)
    assert ChatSettings.from_json(settings.to_json()) == settings


def test_the_season_reset_row_is_offered_only_with_seasons() -> None:
    ru = translator("ru")
    markup = settings_keyboard(ru, ChatSettings(season_reset=True), private=False)
    presses = [cast(SettingsPress, callbacks.decode(d, PAYLOADS)) for d in callback_data(markup)]
    assert [p.value for p in presses if p.setting is Setting.SEASON_RESET] == [False, True]
    rows = [[b.text for b in row] for row in markup.inline_keyboard]
    assert ["Продолжать", "✅ С нуля"] in rows
    text = settings_text(ru, ChatSettings(season_reset=True), private=False)
    assert "🔄 Рейтинг в новом сезоне: с нуля, у всех равный старт" in text
    assert "🔄 Рейтинг в новом сезоне: продолжается с прошлого сезона" in settings_text(
        ru, ChatSettings(), private=False)
    off = ChatSettings(season="none", season_reset=True)
    offered = {cast(SettingsPress, callbacks.decode(d, PAYLOADS)).setting
               for d in callback_data(settings_keyboard(ru, off, private=False))}
    assert Setting.SEASON in offered and Setting.SEASON_RESET not in offered
    assert "Рейтинг в новом сезоне" not in settings_text(ru, off, private=False)


async def test_an_admin_turns_the_four_colour_deck_on_and_off(svc: Services) -> None:
    bot = FakeBot(statuses={ADMIN: "administrator"})
    assert (await svc.storage.chats.get_settings(GROUP)).four_colour_deck is False  # default
    assert await tap(bot, svc, ADMIN, GROUP, SettingsPress(Setting.DECK, True)) == "Saved."
    assert await svc.storage.chats.get_settings(GROUP) == ChatSettings(four_colour_deck=True)
    [edit] = bot.edited
    assert "🎨 Suit colours: four (♠ black, ♥ red, ♦ blue, ♣ green)" in edit["text"]
    ticked = [b.text for row in edit["reply_markup"].inline_keyboard for b in row
              if b.text.startswith("✅")]
    assert "✅ 4 colours" in ticked and "✅ 2 colours" not in ticked
    await tap(bot, svc, ADMIN, GROUP, SettingsPress(Setting.DECK, False))
    assert (await svc.storage.chats.get_settings(GROUP)).four_colour_deck is False
    assert "🎨 Suit colours: two (♠ ♣ black, ♥ ♦ red)" in bot.edited[-1]["text"]


async def test_a_member_cannot_change_the_deck(svc: Services) -> None:
    bot = FakeBot(statuses={ADMIN: "administrator"})
    await tap(bot, svc, MEMBER, GROUP, SettingsPress(Setting.DECK, True))
    assert await svc.storage.chats.get_settings(GROUP) == ChatSettings()


def test_the_deck_is_a_bool_stored_in_the_settings_json_and_old_settings_read_as_two() -> None:
    assert changed(ChatSettings(), SettingsPress(Setting.DECK, True)) == ChatSettings(
        four_colour_deck=True)
    for bad in (1, "four", None):
        with pytest.raises(ValueError):
            ChatSettings(four_colour_deck=bad)  # type: ignore[arg-type]
    assert ChatSettings.from_json('{"season": "quarter"}').four_colour_deck is False
    assert ChatSettings.from_json('{"four_colour_deck": "yes"}') == ChatSettings()
    on = ChatSettings(four_colour_deck=True)
    assert ChatSettings.from_json(on.to_json()) == on
    assert callbacks.encode(SettingsPress(Setting.DECK, True)) == "s:d:1"
    assert callbacks.decode("s:d:0", PAYLOADS) == SettingsPress(Setting.DECK, False)


@pytest.mark.parametrize("lang", ["en", "ru", "uk", "de", "es", "pt_BR"])
def test_the_deck_row_and_line_are_in_every_language(lang: str) -> None:
    tr = translator(lang)
    markup = settings_keyboard(tr, ChatSettings(four_colour_deck=True), private=False)
    row = next(r for r in markup.inline_keyboard
               if any(str(b.callback_data).startswith("s:d:") for b in r))
    assert [b.callback_data for b in row] == ["s:d:0", "s:d:1"]
    assert row[1].text.startswith("✅ 4") and row[0].text.startswith("2")
    text = settings_text(tr, ChatSettings(four_colour_deck=True), private=False)
    assert "🎨" in text and "♦" in text and "settings." not in text
    private = settings_keyboard(tr, ChatSettings(), private=True)
    assert not any(str(d).startswith("s:d:") for d in callback_data(private))
