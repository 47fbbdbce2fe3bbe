"""Telegram text formatting as the Bot API server does it, for HTML: the one parse mode the
bot uses (bot/telegram/send.py sends every text and caption with parse_mode=HTML).

The parser follows tdlib's ``parse_html`` closely enough to reproduce its acceptance rules and
error texts (the part after "Bad Request: can't parse entities: "). Offsets and lengths of
entities are in UTF-16 code units, as in the Bot API. ``ParseError`` carries the tdlib error
detail. MarkdownV2 and legacy Markdown are not implemented (``format_text`` raises
``NotImplementedError`` for them).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

Entity = dict[str, Any]
# Resolves a tg://user?id=N mention to a User dict (None: the user is unknown to the bot).
UserResolver = Callable[[int], dict[str, Any] | None]

HTML_TAGS = frozenset(
    {
        "a", "b", "strong", "i", "em", "s", "strike", "del", "u", "ins", "tg-spoiler",
        "tg-emoji", "span", "pre", "code", "blockquote",
    }
)  # fmt: skip
_HTML_ENTITY_TYPES = {
    "b": "bold",
    "strong": "bold",
    "i": "italic",
    "em": "italic",
    "s": "strikethrough",
    "strike": "strikethrough",
    "del": "strikethrough",
    "u": "underline",
    "ins": "underline",
    "tg-spoiler": "spoiler",
    "span": "spoiler",
    "code": "code",
}
_NAMED_ENTITIES = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}
_SPACE = " \t\r\n\v\f\0"
_USER_LINK = re.compile(r"^tg://user\?id=(\d{1,15})$")
_URL_LIKE = re.compile(
    r"^(?:(?:https?|tg|ton)://[^\s]+|(?:[\w-]+\.)+[a-z]{2,}(?:[/:?#][^\s]*)?)$", re.IGNORECASE
)
_CUSTOM_EMOJI_URL = re.compile(r"^tg://emoji\?id=(\d{1,20})$")


class ParseError(Exception):
    """Text formatting rejected; ``str(exc)`` is tdlib's detail text."""


def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


@dataclass
class _Open:
    tag: str
    argument: str
    utf16_offset: int
    result_pos: int
    byte_offset: int
    expandable: bool = False


@dataclass
class _Builder:
    """Accumulates plain text and tracks its UTF-16 length."""

    parts: list[str] = field(default_factory=list)
    utf16: int = 0
    size: int = 0

    def add(self, text: str) -> None:
        self.parts.append(text)
        self.utf16 += utf16_len(text)
        self.size += len(text)

    def text(self) -> str:
        return "".join(self.parts)


def _decode_html_entity(text: str, i: int) -> tuple[str, int] | None:
    """At text[i] == '&': the decoded character and the index after ';', or None."""
    end = text.find(";", i + 1, i + 12)
    if end == -1:
        return None
    name = text[i + 1 : end]
    if name in _NAMED_ENTITIES:
        return _NAMED_ENTITIES[name], end + 1
    code: int | None = None
    if re.fullmatch(r"#[0-9]{1,8}", name):
        code = int(name[1:])
    elif re.fullmatch(r"#[xX][0-9a-fA-F]{1,7}", name):
        code = int(name[2:], 16)
    if code is None or code == 0 or code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
        return None
    return chr(code), end + 1


def _link_entity(url: str, offset: int, length: int, resolve_user: UserResolver) -> Entity | None:
    """The entity for <a href=url> / [text](url); None when Telegram would drop it silently."""
    if m := _USER_LINK.match(url):
        user = resolve_user(int(m.group(1)))
        if user is None:
            return None
        return {"type": "text_mention", "offset": offset, "length": length, "user": user}
    if not _URL_LIKE.match(url):
        return None
    return {"type": "text_link", "offset": offset, "length": length, "url": url}


def parse_html(
    text: str, resolve_user: UserResolver, *, strict_ampersand: bool = True
) -> tuple[str, list[Entity]]:
    """Parse Telegram-HTML. ``strict_ampersand``: reject '&' that starts no entity.

    Real Telegram (tdlib) keeps such an '&' as a literal character; the strict default makes
    unescaped user input (names with '&' and, more dangerously, '<') visible in tests.
    """
    out = _Builder()
    entities: list[Entity] = []
    stack: list[_Open] = []
    n = len(text)
    i = 0

    def byte_off(pos: int) -> int:
        return len(text[:pos].encode("utf-8"))

    while i < n:
        c = text[i]
        if c == "&":
            decoded = _decode_html_entity(text, i)
            if decoded is not None:
                out.add(decoded[0])
                i = decoded[1]
                continue
            if strict_ampersand:
                raise ParseError(
                    f"Character '&' at byte offset {byte_off(i)} starts no HTML entity "
                    "(fake API strict mode: escape it as &amp;)"
                )
        if c != "<":
            out.add(c)
            i += 1
            continue
        begin = i
        if i + 1 < n and text[i + 1] == "/":
            if not stack:
                raise ParseError(f"Unexpected end tag at byte offset {byte_off(begin)}")
            j = i + 2
            while j < n and text[j] not in _SPACE and text[j] != ">":
                j += 1
            end_name = text[i + 2 : j].lower()
            while j < n and text[j] in _SPACE:
                j += 1
            if j >= n or text[j] != ">":
                raise ParseError(f"Unclosed end tag at byte offset {byte_off(begin)}")
            top = stack[-1]
            if end_name and end_name != top.tag:
                raise ParseError(
                    f'Unmatched end tag at byte offset {byte_off(begin)}, expected "</{top.tag}>",'
                    f' found "</{end_name}>"'
                )
            i = j + 1
            stack.pop()
            _close_html(top, out, entities, resolve_user)
            continue
        j = i + 1
        while j < n and text[j] not in _SPACE and text[j] != ">":
            j += 1
        if j >= n:
            raise ParseError(f"Unclosed start tag at byte offset {byte_off(begin)}")
        tag = text[i + 1 : j].lower()
        if tag not in HTML_TAGS:
            raise ParseError(f'Unsupported start tag "{tag}" at byte offset {byte_off(begin)}')
        argument = ""
        expandable = False
        while True:
            while j < n and text[j] in _SPACE:
                j += 1
            if j >= n:
                raise ParseError(f"Unclosed start tag at byte offset {byte_off(begin)}")
            if text[j] == ">":
                break
            a = j
            while j < n and text[j] not in _SPACE and text[j] not in "=>/\"'":
                j += 1
            attr = text[a:j].lower()
            if not attr:
                raise ParseError(
                    f'Empty attribute name in the tag "{tag}" at byte offset {byte_off(begin)}'
                )
            while j < n and text[j] in _SPACE:
                j += 1
            if j >= n or text[j] != "=":
                if tag == "blockquote" and attr == "expandable":
                    expandable = True
                    continue
                raise ParseError(
                    f'Expected equal sign in declaration of an attribute of the tag "{tag}" at '
                    f"byte offset {byte_off(begin)}"
                )
            j += 1
            while j < n and text[j] in _SPACE:
                j += 1
            if j >= n:
                raise ParseError(f"Unclosed start tag at byte offset {byte_off(begin)}")
            if text[j] in "\"'":
                quote = text[j]
                j += 1
                value_parts: list[str] = []
                while j < n and text[j] != quote:
                    if text[j] == "&" and (decoded := _decode_html_entity(text, j)) is not None:
                        value_parts.append(decoded[0])
                        j = decoded[1]
                        continue
                    value_parts.append(text[j])
                    j += 1
                if j >= n:
                    raise ParseError(f"Unclosed start tag at byte offset {byte_off(begin)}")
                j += 1
                value = "".join(value_parts)
            else:
                v = j
                while j < n and (text[j].isalnum() or text[j] in ".-_"):
                    j += 1
                if v == j:
                    raise ParseError(f"Unexpected end of name token at byte offset {byte_off(j)}")
                value = text[v:j].lower()
            if tag == "a" and attr == "href":
                argument = value
            elif tag == "code" and attr == "class" and value.startswith("language-"):
                argument = value[len("language-") :]
            elif tag == "span" and attr == "class" and value.startswith("tg-"):
                argument = value[len("tg-") :]
            elif tag == "tg-emoji" and attr == "emoji-id":
                argument = value
        if tag == "span" and argument != "spoiler":
            raise ParseError(
                f'Tag "span" must have class "tg-spoiler" at byte offset {byte_off(begin)}'
            )
        stack.append(_Open(tag, argument, out.utf16, out.size, byte_off(begin), expandable))
        i = j + 1
    if stack:
        raise ParseError(f'Can\'t find end tag corresponding to start tag "{stack[-1].tag}"')
    for e in entities:
        if e["type"] == "code":
            e.pop("language", None)  # a language is kept only by <pre><code class=...>
    return out.text(), entities


def _close_html(
    top: _Open, out: _Builder, entities: list[Entity], resolve_user: UserResolver
) -> None:
    length = out.utf16 - top.utf16_offset
    if length <= 0:
        return
    offset = top.utf16_offset
    tag = top.tag
    if tag in _HTML_ENTITY_TYPES:
        entity: Entity = {"type": _HTML_ENTITY_TYPES[tag], "offset": offset, "length": length}
        if tag == "code" and top.argument:
            entity["language"] = top.argument  # becomes pre+language when wrapped in <pre>
        entities.append(entity)
    elif tag == "a":
        url = top.argument or out.text()[top.result_pos :]
        link = _link_entity(url, offset, length, resolve_user)
        if link is not None:
            entities.append(link)
    elif tag == "pre":
        last = entities[-1] if entities else None
        if (
            last is not None
            and last["type"] == "code"
            and last["offset"] == offset
            and last["length"] == length
        ):
            last["type"] = "pre"
            last.setdefault("language", "")
            if not last["language"]:
                del last["language"]
        else:
            entities.append({"type": "pre", "offset": offset, "length": length})
    elif tag == "tg-emoji":
        if not re.fullmatch(r"\d{1,20}", top.argument):
            raise ParseError("Invalid custom emoji identifier specified")
        entities.append(
            {
                "type": "custom_emoji",
                "offset": offset,
                "length": length,
                "custom_emoji_id": top.argument,
            }
        )
    elif tag == "blockquote":
        kind = "expandable_blockquote" if top.expandable else "blockquote"
        entities.append({"type": kind, "offset": offset, "length": length})


def strip_text(text: str, entities: list[Entity]) -> tuple[str, list[Entity]]:
    """Trim surrounding whitespace like Telegram, never cutting into an entity."""
    first_entity = min((e["offset"] for e in entities), default=None)
    last_entity_end = max((e["offset"] + e["length"] for e in entities), default=None)
    left = len(text) - len(text.lstrip(_SPACE))
    right_keep = len(text.rstrip(_SPACE))
    if first_entity is not None:
        # convert the UTF-16 limits into code-point indexes
        prefix_utf16 = 0
        for idx, ch in enumerate(text):
            if prefix_utf16 >= first_entity:
                left = min(left, idx)
                break
            prefix_utf16 += utf16_len(ch)
        assert last_entity_end is not None
        pos_utf16 = 0
        for idx, ch in enumerate(text):
            pos_utf16 += utf16_len(ch)
            if pos_utf16 >= last_entity_end:
                right_keep = max(right_keep, idx + 1)
                break
    if left >= right_keep or not text.strip(_SPACE):
        return "", []  # whitespace only, even inside entities, is empty
    shift = utf16_len(text[:left])
    stripped = text[left:right_keep]
    total = utf16_len(stripped)
    fixed: list[Entity] = []
    for e in entities:
        start = max(0, e["offset"] - shift)
        end = min(total, e["offset"] + e["length"] - shift)
        if end > start:
            fixed.append({**e, "offset": start, "length": end - start})
    return stripped, fixed


def sort_entities(entities: list[Entity]) -> list[Entity]:
    return sorted(entities, key=lambda e: (e["offset"], -e["length"], e["type"]))


_BOT_COMMAND = re.compile(r"(?<![\w/])/[A-Za-z0-9_]{1,64}(?:@[A-Za-z0-9_]{3,32})?(?![\w/])")
_MENTION = re.compile(r"(?<![\w@])@[A-Za-z][A-Za-z0-9_]{3,31}(?![\w@])")
_HASHTAG = re.compile(r"(?<![\w#])#\w*[^\W\d_]\w*")
_URL = re.compile(r"(?<![\w/])https?://[^\s<>\"]+[^\s<>\".,;:!?)\]]")


def detect_entities(text: str) -> list[Entity]:
    """Entities Telegram finds by itself in plain text: bot commands, mentions, hashtags, URLs."""
    found: list[Entity] = []
    for kind, pattern in (
        ("bot_command", _BOT_COMMAND),
        ("mention", _MENTION),
        ("hashtag", _HASHTAG),
        ("url", _URL),
    ):
        for m in pattern.finditer(text):
            found.append(
                {
                    "type": kind,
                    "offset": utf16_len(text[: m.start()]),
                    "length": utf16_len(m.group()),
                }
            )
    return sort_entities(found)


def format_text(
    text: str,
    parse_mode: str | None,
    resolve_user: UserResolver,
    *,
    strict_ampersand: bool = True,
) -> tuple[str, list[Entity]]:
    """Text and entities after parsing ``parse_mode`` and trimming. Raises ParseError,
    ValueError (the parse mode is unknown to Telegram) or NotImplementedError (Telegram knows
    it, the fake does not: MarkdownV2, Markdown).
    """
    mode = (parse_mode or "").lower()
    entities: list[Entity]
    if mode in ("", "none"):
        plain, entities = text, []
    elif mode == "html":
        plain, entities = parse_html(text, resolve_user, strict_ampersand=strict_ampersand)
    elif mode in ("markdownv2", "markdown"):
        raise NotImplementedError(f"parse_mode {parse_mode} is not implemented by the fake API")
    else:
        raise ValueError(parse_mode)
    plain, entities = strip_text(plain, entities)
    return plain, sort_entities(entities)
