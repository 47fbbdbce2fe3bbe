"""/stats and /history: read the standings kept as results are saved (bot.storage's
StandingsRepo: the top, the asker's line, a card's row, its chart's last points; never the
chat's past), word (bot.stats.text) and draw (render.standings, in the drawing thread), send.

A group's board shows the current season (the chat's setting: a month by default, in UTC;
bot.stats.seasons) with buttons for the last season and all time (b:..., answered with a new
board in reply to the pressed one, for whoever pressed); with seasons off it is all time and
has no buttons. A season's ratings carry on from the earlier ones, or start from a newcomer's
when the chat's setting season_reset is on (its order line says which)."""

from __future__ import annotations

from functools import partial

from telegram import InlineKeyboardMarkup, Message, Update, User
from telegram.constants import ChatType
from telegram.ext import ContextTypes

from bot.common.errors import answer_quietly
from bot.common.handlers import asked, names_of, pressed, reply, toast
from bot.common.refusal import Refusal
from bot.i18n import Html, Translator
from bot.services import Services
from bot.stats import seasons, standings
from bot.stats.payloads import BoardPress, BoardScope
from bot.stats.text import board_text, card_text, history_text, split_caption
from bot.storage import Placed
from bot.telegram import send, styles
from render import standings as pictures
from rules import rating
from rules.standing import ALL

HISTORY = 10  # duels /history lists


async def _send(context: ContextTypes.DEFAULT_TYPE, update: Update, photo: bytes,
                caption: Html, rest: list[Html] | None = None,
                markup: InlineKeyboardMarkup | None = None) -> None:
    """The picture with its words as the caption; words too long for a caption follow as a
    message of their own (the picture then carries only the heading)."""
    message, chat = update.effective_message, update.effective_chat
    if message is None or chat is None:
        return
    thread = message.message_thread_id if message.is_topic_message else None
    first, then = split_caption(caption, rest or [])
    sent = await send.send_photo(context.bot, chat.id, thread, photo, first, markup,
                                 reply_to=message.message_id)
    if then is not None:
        await send.send_text(context.bot, chat.id, thread, then,
                           reply_to=message.message_id if sent is None else sent)


def _reply_target(message: Message) -> User | None:
    """Whose message /stats answers (not the topic's root, which every topic message
    answers implicitly)."""
    replied = message.reply_to_message
    if replied is None or (message.is_topic_message
                           and replied.message_id == message.message_thread_id):
        return None
    return replied.from_user


async def _known(svc: Services, user: User) -> int | Refusal:
    """A user named by the update: their id (their name recorded if they are new to us, since
    privacy mode may hide their own messages), or the refusal for a bot."""
    if user.is_bot:
        return Refusal("error.bot")
    if await svc.storage.users.get(user.id) is None:
        await svc.storage.users.upsert(user.id, user.first_name, user.last_name, user.username,
                                       user.language_code, user.is_bot, now=svc.clock())
    return user.id


async def _target(svc: Services, message: Message,
                  args: list[str]) -> int | Refusal | None:
    """The player /stats asks about: a user id; the refusal to answer with instead; or None
    for the leaderboard."""
    for entity in message.entities:
        if entity.type == "text_mention" and entity.user is not None:
            return await _known(svc, entity.user)
    username = next((a for a in args if a.startswith("@") and len(a) > 1), None)
    if username is not None:
        if username[1:].lower() == svc.bot_username.lower():
            return Refusal("error.bot")
        known = await svc.storage.users.find_by_username(username)
        if known is None:
            return Refusal.of("stats.unknown_user", username=username)
        return Refusal("error.bot") if known.is_bot else known.id
    user = _reply_target(message)
    if user is None or (user.is_bot and user.username == svc.bot_username):
        return None  # nobody named, or an answer to the bot's own message: the table
    return await _known(svc, user)


async def stats(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    a = await asked(update, context)
    if a is None:
        return
    message, chat, user, svc, tr = a.message, a.chat, a.user, a.svc, a.tr
    if chat.type == ChatType.PRIVATE:
        await _private_card(context, update, svc, tr, user.id)
        return
    target = await _target(svc, message, list(context.args or []))
    if isinstance(target, Refusal):
        await reply(context, update, target.text(tr))
        return
    if target is None:
        await _board(context, update, svc, tr, chat.id, user.id, chat.title or "")
    else:
        await _card(context, update, svc, tr, chat.id, target, user.id, chat.title or "")


async def _vs_bot(svc: Services, tr: Translator, chat_id: int, asker: int) -> list[Html]:
    """The asker's practice duels against the bot here (they are not in the standings)."""
    t = await svc.storage.practice.tally(chat_id, asker)
    if not t.played:
        return []
    return [tr.tn("stats.vs_bot", t.played, won=t.won, lost=t.lost,
                  drawn=t.played - t.won - t.lost)]


def _scope_keyboard(tr: Translator, shown: BoardScope) -> InlineKeyboardMarkup:
    """Buttons for the scopes other than the one shown: this season, the last, all time."""
    keys = {BoardScope.SEASON: "stats.button_season", BoardScope.LAST: "stats.button_last",
            BoardScope.ALL: "stats.button_all"}
    return InlineKeyboardMarkup([[
        styles.button(tr.t(key), BoardPress(scope))
        for scope, key in keys.items() if scope is not shown]])


def _standing(p: Placed) -> standings.Standing:
    return standings.Standing(p.rank, p.user_id, standings.figures_of(p.tally), p.rating)


async def _board(context: ContextTypes.DEFAULT_TYPE, update: Update, svc: Services,
                 tr: Translator, chat_id: int, asker: int, title: str,
                 scope: BoardScope = BoardScope.SEASON) -> None:
    """The chat's board for `scope`: the current season by default, all time when the
    chat has seasons off (then without buttons)."""
    vs_bot = await _vs_bot(svc, tr, chat_id, asker)
    settings = await svc.storage.chats.get_settings(chat_id)
    kind, reset = settings.season, settings.season_reset
    markup = None if kind == "none" else _scope_keyboard(tr, scope)
    every = markup is None or scope is BoardScope.ALL
    page = await svc.storage.standings.board(chat_id, ALL, asker=asker) if every else None
    if (page is not None and not page.players) or (
            page is None and not await svc.storage.standings.any_duel(chat_id)):
        await reply(context, update, "\n".join([tr.t("stats.empty"), *vs_bot]))
        return
    if page is not None:
        scope_line = tr.t("stats.scope_all") if markup else None
    else:
        season = seasons.season_of(svc.clock(), kind)
        season = seasons.previous(season) if scope is BoardScope.LAST else season
        named = seasons.label(season, tr.lang)
        page = await svc.storage.standings.board(chat_id, season.key, fresh=reset, asker=asker)
        last = scope is BoardScope.LAST
        if not page.players:
            key = "stats.season_empty_last" if last else "stats.season_empty"
            message, chat = update.effective_message, update.effective_chat
            if message is not None and chat is not None:
                thread = message.message_thread_id if message.is_topic_message else None
                await send.send_text(context.bot, chat.id, thread, "\n".join(
                    [tr.t(key, season=named), *vs_bot]), markup, reply_to=message.message_id)
            return
        scope_line = tr.t(("stats.scope_last" if last else "stats.scope_season")
                          + ("_reset" if reset else ""), season=named)
        title = f"{title} · {named}" if title else named
    counted = page.duels
    top = [_standing(p) for p in page.top]
    you = _standing(page.you) if page.you is not None else None
    names = await names_of(svc, (s.user_id for s in [*top, *([you] if you else [])]))
    heading, lines = board_text(tr, counted, top, you, names, scope_line)

    def row(s: standings.Standing) -> pictures.Row:
        return pictures.Row(s.rank, names[s.user_id], s.figures, s.user_id == asker,
                            rating.shown(s.rating), rating.provisional(s.rating))

    board = pictures.Board(title, tuple(row(s) for s in top),
                           row(you) if you is not None else None, counted)
    photo = await svc.drawer.draw(partial(pictures.leaderboard, board, labels=tr))
    await _send(context, update, photo, heading, [*lines, *vs_bot, tr.t("stats.legend")],
                markup)


async def on_board(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A board's scope button: that board, for whoever pressed, in reply to the pressed one."""
    p = await pressed(update, context, BoardPress)
    if p is None:
        return
    message = p.query.message
    if message is None or message.chat.type == ChatType.PRIVATE:
        await toast(p.query, p.tr.t("toast.invalid"))
        return
    await answer_quietly(p.query)
    chat = message.chat
    await _board(context, update, p.svc, p.tr, chat.id, p.user.id, chat.title or "",
                 p.payload.scope)


async def _card(context: ContextTypes.DEFAULT_TYPE, update: Update, svc: Services,
                tr: Translator, chat_id: int, target: int, asker: int, title: str) -> None:
    names = await names_of(svc, (target,))
    kept = svc.storage.standings
    mine = await kept.placed(chat_id, ALL, target)
    if mine is None:
        key = "stats.no_duels_you" if target == asker else "stats.no_duels_player"
        await reply(context, update, tr.t(key, name=names[target]))
        return
    figures = standings.figures_of(mine.tally)
    players = await kept.players(chat_id, ALL)
    # another player's card: the asker's record against them, from the asker's side
    versus = (standings.figures_of(await kept.rivalry(chat_id, asker, target))
              if asker != target else None)
    rated = rating.label(mine.rating)
    text = card_text(tr, names[target], figures, in_chat=True, rank=mine.rank,
                     players=players, versus=versus, rated=rated)
    chart = tuple(rating.shown(r) for r in await kept.chart(chat_id, target))
    card = pictures.PlayerCard(names[target], figures, title, mine.rank, players, versus,
                               rated, chart)
    photo = await svc.drawer.draw(partial(pictures.player_card, card, labels=tr))
    await _send(context, update, photo, text)


async def _private_card(context: ContextTypes.DEFAULT_TYPE, update: Update, svc: Services,
                        tr: Translator, user_id: int) -> None:
    tally = await svc.storage.standings.everywhere(user_id)
    if tally is None:
        await reply(context, update, tr.t("stats.empty_private"))
        return
    name = (await names_of(svc, (user_id,)))[user_id]
    figures = standings.figures_of(tally)
    text = card_text(tr, name, figures, in_chat=False)
    card = pictures.PlayerCard(name, figures)
    photo = await svc.drawer.draw(partial(pictures.player_card, card, labels=tr))
    await _send(context, update, photo, text)


async def history(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    a = await asked(update, context)
    if a is None:
        return
    chat, user, svc, tr = a.chat, a.user, a.svc, a.tr
    in_chat = chat.type != ChatType.PRIVATE
    repo = svc.storage.results
    results = await (repo.recent(chat.id, HISTORY) if in_chat
                     else repo.recent_for_player(user.id, HISTORY))
    names = await names_of(svc, (p for r in results for p in r.players))
    await reply(context, update, history_text(tr, results, names, in_chat=in_chat))


async def show_board(context: ContextTypes.DEFAULT_TYPE, update: Update, svc: Services,
                     tr: Translator, chat_id: int, asker: int) -> None:
    """The chat's board, as /stats shows it, in reply to the update's message (a duel
    result's Standings button)."""
    chat = await svc.storage.chats.get(chat_id)
    await _board(context, update, svc, tr, chat_id, asker, (chat.title if chat else None) or "")
