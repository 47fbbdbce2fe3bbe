"""A tournament's messages: the sign-up (edited as players join), and the table (a picture,
`render.tournament`, sent anew whenever a pairing is decided, the one before it deleted) whose
caption mentions the players of the next pairings (a new message notifies them) and whose
buttons start a pairing's duel; at the end, the final table with the winner."""

from __future__ import annotations

import logging
from functools import partial

from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup

from bot.common.handlers import chat_language, names_of
from bot.i18n import Html, Translator, html_escape, mention_html
from bot.services import Services
from bot.stats.text import split_caption
from bot.storage.tournaments import MatchRecord, TournamentRecord, TournamentStatus
from bot.telegram import send, styles
from bot.tournament import payloads
from bot.tournament.service import DAY, Field, Walkover
from render import tournament as pictures
from rules import tournament
from rules.tournament import Played

log = logging.getLogger(__name__)

Notify = frozenset[int] | None  # whose next pairings mention them; None: everyone's


async def language(svc: Services, t: TournamentRecord) -> Translator:
    """A tournament speaks the chat's language (its setting), else its opener's."""
    opener = await svc.storage.users.get(t.opener_id)
    return await chat_language(svc, t.chat_id, opener.language_code if opener else None)


def period(tr: Translator, seconds: int) -> Html:
    if seconds % DAY == 0:
        return tr.tn("tournament.days", seconds // DAY)
    return tr.tn("tournament.hours", seconds // 3600)


def points(half: int) -> str:
    """Half-points as players read them: 3, ½, 2½."""
    whole, half_left = divmod(half, 2)
    if not half_left:
        return str(whole)
    return f"{whole}½" if whole else "½"


# --- the sign-up ---------------------------------------------------------------------------


def signup_text(tr: Translator, field: Field, names: dict[int, str]) -> Html:
    t = field.record
    opener = mention_html(t.opener_id, names.get(t.opener_id, "?"))
    lines = [tr.tn("tournament.signup_double" if t.double else "tournament.signup", t.stack,
                   opener=opener),
             tr.t("tournament.signup_round", period=period(tr, t.round_seconds))]
    players = ", ".join(html_escape(names.get(p, "?")) for p in field.players)
    lines.append(tr.tn("tournament.signup_players", len(field.players),
                       max=tournament.MAX_PLAYERS, names=Html(players)))
    if t.status is TournamentStatus.SIGNUP:
        lines.append(tr.t("tournament.signup_hint", opener=opener, least=tournament.MIN_PLAYERS,
                          most=tournament.MAX_PLAYERS))
    elif t.status is TournamentStatus.CANCELLED:
        lines.append(tr.t("tournament.cancelled"))
    else:
        lines.append(tr.tn("tournament.started", len(field.matches)))
    return Html("\n".join(lines))


def signup_keyboard(tr: Translator, tournament_id: int) -> InlineKeyboardMarkup:
    def button(op: payloads.TournamentOp) -> InlineKeyboardButton:
        return styles.button(tr.t(f"tournament.button_{op.name.lower()}"),
                             payloads.TournamentPress(tournament_id, op))

    ops = payloads.TournamentOp
    return InlineKeyboardMarkup([[button(ops.JOIN), button(ops.LEAVE)],
                                 [button(ops.START), button(ops.CANCEL)]])


# --- the table -----------------------------------------------------------------------------


def _mark(result: tournament.Result, player: int) -> str:
    if isinstance(result, Played):
        if result.winner is None:
            return "½"
        return "1" if result.winner == player else "0"
    return "+" if result.present == player else "−"


def picture(field: Field, names: dict[int, str], title: str,
            final: bool = False) -> pictures.TournamentTable:
    rows = field.table()
    results = field.results
    order = [r.player for r in rows]
    cross = []
    for p in order:
        cells = []
        for q in order:
            marks = [_mark(results[m.idx], p) for m in field.matches
                     if {m.player_a, m.player_b} == {p, q} and m.idx in results]
            cells.append(pictures.Cell(" ".join(marks)))
        cross.append(tuple(cells))
    finished = final or field.record.status is TournamentStatus.FINISHED
    fixtures = () if finished else tuple(
        pictures.Fixture(names[m.player_a], names[m.player_b], m.round, m.duel_live)
        for m in field.upcoming())
    return pictures.TournamentTable(
        title=title,
        standings=tuple(pictures.Standing(r.place, names[r.player], r.played, r.wins, r.draws,
                                          r.losses, r.points, r.net) for r in rows),
        cross=tuple(cross), fixtures=fixtures, round=field.round, rounds=field.rounds,
        decided=field.decided, total=len(field.matches), finished=finished,
        winners=tuple(names[p] for p in tournament.winners(rows)) if finished else (),
        double=field.record.double)


def _walkover_line(tr: Translator, w: Walkover, names: dict[int, str]) -> Html:
    a, b = w.match.player_a, w.match.player_b
    if w.side == "none":
        return tr.t("tournament.walkover_none", a=names[a], b=names[b])
    winner, loser = (a, b) if w.side == "a" else (b, a)
    return tr.t("tournament.walkover", winner=names[winner], loser=names[loser])


def _fixture_line(tr: Translator, m: MatchRecord, names: dict[int, str],
                  notify: Notify) -> Html:
    a, b = m.player_a, m.player_b
    if m.duel_live:
        return tr.t("tournament.fixture_live", a=names[a], b=names[b])
    if notify is None or {a, b} & notify:  # a new message with their mention pings them
        return tr.t("tournament.fixture", a=mention_html(a, names[a]),
                    b=mention_html(b, names[b]), round=m.round + 1)
    return tr.t("tournament.fixture", a=Html(f"<b>{html_escape(names[a])}</b>"),
                b=Html(f"<b>{html_escape(names[b])}</b>"), round=m.round + 1)


def caption(tr: Translator, field: Field, names: dict[int, str], walkovers: list[Walkover],
            final: bool = False, notify: Notify = None) -> tuple[Html, list[Html]]:
    """The table's heading, and the lines under it: walkovers just decided, then the
    next pairings or the winner. A next pairing's players are mentioned (notified) if
    either is in `notify` (None: everyone's, the first table), else named in bold."""
    lines = [_walkover_line(tr, w, names) for w in walkovers]
    if final or field.record.status is TournamentStatus.FINISHED:
        rows = field.table()
        top = tournament.winners(rows)
        best = next(r for r in rows if r.place == 1)
        if len(top) == 1:
            lines.append(tr.t("tournament.winner", name=names[top[0]], points=points(best.points)))
        else:
            lines.append(tr.t("tournament.winners", names=", ".join(names[p] for p in top),
                              points=points(best.points)))
        return tr.t("tournament.final_heading"), lines
    heading = tr.t("tournament.heading", round=field.round + 1, rounds=field.rounds,
                   decided=field.decided, total=len(field.matches))
    upcoming = field.upcoming()
    if upcoming:
        lines.append(tr.t("tournament.next"))
        lines += [_fixture_line(tr, m, names, notify) for m in upcoming]
        lines.append(tr.t("tournament.tap_hint"))
    return heading, lines


def table_keyboard(field: Field, names: dict[int, str]) -> InlineKeyboardMarkup | None:
    rows = []
    for m in field.upcoming():
        if m.duel_live:
            continue
        press = payloads.TournamentPress(field.record.id, payloads.TournamentOp.MATCH, m.idx)
        rows.append([styles.button(f"⚔️ {names[m.player_a]} — {names[m.player_b]}", press)])
    return InlineKeyboardMarkup(rows) if rows else None


async def post_table(svc: Services, bot: Bot, field: Field,
                     walkovers: list[Walkover] | None = None, *, final: bool = False,
                     notify: Notify = frozenset()) -> bool:
    """Send the table as it is now (a new message), delete the one it replaces, and record
    it; False if Telegram took none of it. `final`: the final table and the winner (every
    pairing decided). `notify`: whose next pairings mention them (see `caption`): the
    players a result or a walkover just freed, so nobody is pinged at every result."""
    t = field.record
    tr = await language(svc, t)
    names = await names_of(svc, field.players)
    chat = await svc.storage.chats.get(t.chat_id)
    view = picture(field, names, chat.title or "" if chat is not None else "", final)
    photo = await svc.drawer.draw(partial(pictures.tournament_table, view, labels=tr))
    heading, lines = caption(tr, field, names, walkovers or [], final, notify)
    first, then = split_caption(heading, lines)
    over = final or t.status is TournamentStatus.FINISHED
    markup = None if over else table_keyboard(field, names)
    sent = await send.send_photo(bot, t.chat_id, t.thread_id, photo, first, markup)
    if then is not None:  # too long for a caption (many walkovers at once)
        await send.send_text(bot, t.chat_id, t.thread_id, then,
                             reply_to=sent)
    if sent is None:
        return False
    if t.shown >= 0 and t.message_id is not None and t.message_id != sent:
        # the table before (not the sign-up: it stays, saying the tournament started)
        svc.janitor.delete_later(bot, t.chat_id, t.message_id)
    await svc.storage.tournaments.set_message(t.id, sent, field.decided)
    log.info("tournament %d: table posted (%d of %d decided)", t.id, field.decided,
             len(field.matches))
    return True


async def edit_signup(svc: Services, bot: Bot, field: Field) -> None:
    t = field.record
    if t.message_id is None:
        return
    tr = await language(svc, t)
    names = await names_of(svc, [*field.players, t.opener_id])
    markup = signup_keyboard(tr, t.id) if t.status is TournamentStatus.SIGNUP else None
    await send.edit_text(bot, t.chat_id, t.message_id, signup_text(tr, field, names), markup)
