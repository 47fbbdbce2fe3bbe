"""HTML-safe text for Telegram messages (parse_mode=HTML), and mentions of users.

`Html` marks a string that is already HTML. Everything else is plain text and gets escaped on
its way into a message: `Translator.t()` escapes every plain `str` argument, so a user's name
can never inject markup, and `mention_html()` returns `Html` so it is inserted as a link.
A leaf below `bot.i18n` (which fills texts with it) and everything that sends them.
"""

from __future__ import annotations

import html
import unicodedata

MAX_NAME = 64
_ELLIPSIS = "…"
# Bidirectional controls would let a name reverse the rest of the message's line.
_BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)


class Html(str):
    """A string that is already valid Telegram HTML: inserted as is, never escaped again."""

    __slots__ = ()


def html_escape(text: str) -> Html:
    """Plain text -> Html: escapes <, >, & and both quotes. Html passes through unchanged."""
    if isinstance(text, Html):
        return text
    return Html(html.escape(text, quote=True))


def clean_name(name: str, limit: int = MAX_NAME) -> str:
    """A display name fit for one line: no control or bidi characters, whitespace collapsed,
    at most `limit` characters (a longer one ends with an ellipsis)."""
    kept = []
    for char in name:
        if char in _BIDI_CONTROLS:
            continue
        if unicodedata.category(char) in ("Cc", "Zl", "Zp"):
            char = " "
        kept.append(char)
    text = " ".join("".join(kept).split())
    if len(text) > limit:
        text = text[: limit - 1].rstrip() + _ELLIPSIS
    return text


def mention_html(user_id: int, name: str) -> Html:
    """A link that mentions the user, showing their (cleaned, escaped) name."""
    shown = clean_name(name) or f"#{user_id}"
    return Html(f'<a href="tg://user?id={int(user_id)}">{html_escape(shown)}</a>')
