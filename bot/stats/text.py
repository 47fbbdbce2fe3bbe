"""The words of /stats and /history, from the catalogs: the same figures as the pictures, for
search and for readers who do not see images. HTML, names escaped (never mentions: a table of
ten players must not ping ten people)."""

from __future__ import annotations

import html
import re
import time
from collections.abc import Mapping, Sequence

from bot.html import clean_name
from bot.i18n import Html, Translator
from bot.stats.standings import Standing
from bot.storage import DuelResult, ResultReason
from render.standings import Figures
from render.text import signed
from rules import rating

NAME_CHARS = 32  # names are cut in texts, so ten lines stay short
CAPTION_LIMIT = 1024  # Telegram's limit for a photo caption, in UTF-16 code units


def short_name(name: str) -> str:
    return clean_name(name, NAME_CHARS) or "?"


def _best(tr: Translator, f: Figures) -> str:
    return tr.t(f"hand_lc.{f.best.name.lower()}") if f.best is not None else tr.t("stats.none")


def _streak(tr: Translator, f: Figures) -> str:
    if f.streak > 0:
        return tr.t("stats.streak_win", n=f.streak)
    if f.streak < 0:
        return tr.t("stats.streak_loss", n=-f.streak)
    return tr.t("stats.none")


def _figures(tr: Translator, f: Figures) -> dict[str, object]:
    return {"net": signed(f.net), "wins": f.wins, "losses": f.losses, "draws": f.draws,
            "rate": f.win_rate, "best": _best(tr, f), "bonus": f.top_bonus,
            "streak": _streak(tr, f)}


def board_line(tr: Translator, s: Standing, name: str) -> Html:
    """One player's line: rank, name, rating ("1069?" while provisional), then the figures."""
    return tr.tn("stats.line", s.figures.played, rank=s.rank, name=short_name(name),
                 rating=rating.label(s.rating), **_figures(tr, s.figures))


def board_text(tr: Translator, duels: int, top: Sequence[Standing], you: Standing | None,
               names: Mapping[int, str], scope: Html | None = None) -> tuple[Html, list[Html]]:
    """The leaderboard's heading (which season or all time, `scope`, when the chat has
    seasons; with what it is ranked by: bot.stats.standings.ranking's order) and its lines
    (the asker's own last, after an empty line, when below the top)."""
    lines = [board_line(tr, s, names.get(s.user_id, "?")) for s in top]
    if you is not None:
        lines += [Html(""), board_line(tr, you, names.get(you.user_id, "?"))]
    heading = [tr.tn("stats.board_title", duels), *([scope] if scope else []),
               tr.t("stats.order")]
    return Html("\n".join(heading)), lines


def card_text(tr: Translator, name: str, f: Figures, *, in_chat: bool,
              rank: int | None = None, players: int = 0, versus: Figures | None = None,
              rated: str = "") -> Html:
    """One player's figures, their place in the chat (by rating, `rated`: "1069?" while
    provisional; the ranking's first key), and the asker's record against them, `versus`,
    from the asker's side: "You vs Alice: 3 duels · you won 1, …" (None: the asker's own
    card, no head to head). Names stay as given (Russian ones in the nominative, and no verb
    agrees with them)."""
    key = "stats.card_title" if in_chat else "stats.card_title_all"
    lines = [tr.t(key, name=short_name(name)),
             tr.tn("stats.card", f.played, **_figures(tr, f))]
    if rank is not None:
        lines.append(tr.t("stats.card_rank", rank=rank, players=players, rating=rated))
    if versus is not None:
        if versus.played:
            lines.append(tr.tn("stats.versus", versus.played, name=short_name(name),
                               wins=versus.wins, losses=versus.losses, draws=versus.draws,
                               net=signed(versus.net)))
        else:
            lines.append(tr.t("stats.versus_none", name=short_name(name)))
    return Html("\n".join(lines))


def caption_length(text: str) -> int:
    """What Telegram counts against a caption's limit: the text without its HTML tags, in
    UTF-16 code units."""
    plain = html.unescape(re.sub(r"<[^>]*>", "", text))
    return len(plain.encode("utf-16-le")) // 2


def fits_caption(text: str) -> bool:
    return caption_length(text) <= CAPTION_LIMIT


def split_caption(heading: Html, lines: Sequence[Html] = ()) -> tuple[Html, Html | None]:
    """A picture's caption, and the message to follow it: the whole text as the caption when
    it fits; else the heading alone, and the whole text after the picture."""
    full = Html("\n".join([heading, *lines]))
    return (full, None) if fits_caption(full) else (heading, full)


# --- /history --------------------------------------------------------------------------------


def date(ts: int) -> str:
    return time.strftime("%Y-%m-%d", time.gmtime(ts))


def _outcome(tr: Translator, r: DuelResult, names: Mapping[int, str]) -> Html:
    if r.winner_id is None:
        return tr.t("history.draw")
    winner = short_name(names.get(r.winner_id, "?"))
    loser = short_name(names.get(r.loser_id or 0, "?"))
    key = {ResultReason.SURRENDER: "history.won_surrender", ResultReason.TIMEOUT:
           "history.won_timeout", ResultReason.TIEBREAK: "history.won_tiebreak"}.get(
        r.reason, "history.won")
    return tr.t(key, name=winner, loser=loser) if key != "history.won" else tr.t(key, name=winner)


def history_line(tr: Translator, r: DuelResult, names: Mapping[int, str]) -> Html:
    p0, p1 = (short_name(names.get(p, "?")) for p in r.players)
    return tr.t("history.line", date=date(r.finished_at), p0=p0, s0=r.final_stacks[0], p1=p1,
                s1=r.final_stacks[1], result=_outcome(tr, r, names))


def history_text(tr: Translator, results: Sequence[DuelResult], names: Mapping[int, str],
                 *, in_chat: bool = True) -> Html:
    """Newest first, one line each: date, players and final stacks, who won and how."""
    if not results:
        return tr.t("history.empty" if in_chat else "history.empty_private")
    title = tr.t("history.title" if in_chat else "history.title_private")
    return Html("\n".join([title, *(history_line(tr, r, names) for r in results)]))
