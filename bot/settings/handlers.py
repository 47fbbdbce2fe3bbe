"""/settings: the chat's language, turn timer, default stack, cards-out grid, reveals, the
standings' season, whether a new season resets the ratings and the deck's colours.

Anyone may open the settings message; in a group only the chat's admins (asked of Telegram
with getChatMember at each tap) may change them, and anyone else's tap gets a toast and changes
nothing. In a private chat the chat is the user's own. Saved at once (ChatRepo.update_settings):
a new duel reads them when it starts, a turn timer when the next move is armed. A tap on the
value already chosen, on a message that already shows it, is answered without an edit.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from telegram import Bot, Chat, InlineKeyboardMarkup, Message, Update
from telegram.constants import ChatType
from telegram.ext import ContextTypes

from bot.common.errors import answer_quietly
from bot.common.handlers import asked, chat_language, is_admin, pressed, toast
from bot.settings.keyboards import settings_keyboard, settings_text
from bot.settings.payloads import Setting, SettingsPress
from bot.storage import ChatSettings
from bot.telegram import send

log = logging.getLogger(__name__)

async def may_change(bot: Bot, chat: Chat, user_id: int) -> bool:
    """Anyone in a private chat; a chat's owner or administrators in a group."""
    return chat.type == ChatType.PRIVATE or await is_admin(bot, chat.id, user_id)


def changed(settings: ChatSettings, press: SettingsPress) -> ChatSettings:
    """The settings with the press applied; ValueError for a value ChatSettings refuses."""
    setting, value = press.setting, press.value
    if setting is Setting.LANGUAGE and isinstance(value, str):
        return replace(settings, language=None if value == "auto" else value)
    if setting is Setting.SEASON and isinstance(value, str):
        return replace(settings, season=value)
    if setting is Setting.CARDS_OUT and isinstance(value, bool):
        return replace(settings, show_cards_out=value)
    if setting is Setting.REVEALS and isinstance(value, bool):
        return replace(settings, keep_reveals=value)
    if setting is Setting.SEASON_RESET and isinstance(value, bool):
        return replace(settings, season_reset=value)
    if setting is Setting.NUDGES and isinstance(value, bool):
        return replace(settings, nudges=value)
    if setting is Setting.DECK and isinstance(value, bool):
        return replace(settings, four_colour_deck=value)
    if isinstance(value, int) and not isinstance(value, bool):
        if setting is Setting.TIMER:
            return replace(settings, turn_timer=value)
        if setting is Setting.STACK:
            return replace(settings, default_stack=value)
    raise ValueError(f"not a setting to change: {press!r}")


async def settings_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    a = await asked(update, context)
    if a is None:
        return
    message, chat, svc, tr = a.message, a.chat, a.svc, a.tr
    settings = await svc.storage.chats.get_settings(chat.id)
    private = chat.type == ChatType.PRIVATE
    thread = message.message_thread_id if message.is_topic_message else None
    await send.send_text(context.bot, chat.id, thread, settings_text(tr, settings, private=private),
                       settings_keyboard(tr, settings, private=private))


async def on_settings(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    p = await pressed(update, context, SettingsPress)
    if p is None:
        return
    query, user, svc, tr, press = p.query, p.user, p.svc, p.tr, p.payload
    message = query.message
    if message is None:
        await toast(query, tr.t("toast.invalid"))
        return
    chat = message.chat
    if not await may_change(context.bot, chat, user.id):
        await toast(query, tr.t("settings.admins_only"))
        return
    if press.setting is Setting.CLOSE:
        await answer_quietly(query)
        await send.drop_keyboard(context.bot, chat.id, message.message_id)
        return
    try:  # under the chat's lock: a change on another worker meanwhile is kept too
        settings, new = await svc.storage.chats.update_settings(
            chat.id, lambda now: changed(now, press))
    except ValueError:
        await toast(query, tr.t("toast.invalid"))
        return
    if new != settings:
        log.info("chat %d: settings changed by user %d: %s", chat.id, user.id, new.to_json())
    tr = await chat_language(svc, chat.id, user.language_code)  # the language may have changed
    await toast(query, tr.t("settings.saved"))
    private = chat.type == ChatType.PRIVATE
    markup = settings_keyboard(tr, new, private=private)
    shows = isinstance(message, Message) and _shows(message.reply_markup, markup)
    if new == settings and shows:
        return  # the current value again: an edit to the same would be refused ("not modified")
    await send.edit_text(context.bot, chat.id, message.message_id,
                       settings_text(tr, new, private=private), markup)


def _buttons(markup: InlineKeyboardMarkup | None) -> list[list[tuple[str, object]]]:
    rows = markup.inline_keyboard if markup is not None else ()
    return [[(b.text, b.callback_data) for b in row] for row in rows]


def _shows(shown: InlineKeyboardMarkup | None, markup: InlineKeyboardMarkup) -> bool:
    """Does the pressed message's keyboard already read as `markup` (every value ticked as
    saved, in the language it is in)? Then its text says the same."""
    return shown is not None and _buttons(shown) == _buttons(markup)
