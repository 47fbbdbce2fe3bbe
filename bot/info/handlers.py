"""/start, /help and /rules: what the bot is and how the games are played."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.constants import ChatType
from telegram.ext import ContextTypes

from bot.common.handlers import asked, reply, user_translator
from bot.i18n import Translator
from bot.services import services
from bot.telegram import send


async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    a = await asked(update, context)
    if a is None:
        return
    chat, svc, tr = a.chat, a.svc, a.tr
    if chat.type == ChatType.PRIVATE:
        markup = add_to_group(tr, svc.bot_username)
        await send.send_text(context.bot, chat.id, None, tr.t("start.private"), markup)
        return
    await reply(context, update, tr.t("help.group"))


async def help_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await start(update, context)


async def rules(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    tr = await user_translator(services(context.bot_data), update)
    topic = (context.args or [""])[0].lower()
    key = "rules.sixcard" if topic in ("sixcard", "six", "6") else "rules.duel"
    await reply(context, update, tr.t(key))


def add_to_group(tr: Translator, bot_username: str) -> InlineKeyboardMarkup | None:
    if not bot_username:
        return None
    url = f"https://t.me/{bot_username}?startgroup=true"
    return InlineKeyboardMarkup([[InlineKeyboardButton(tr.t("button.add_to_group"), url=url)]])
