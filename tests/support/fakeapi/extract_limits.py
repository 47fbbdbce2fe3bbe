"""One-off extractor: Bot API description data -> tests/support/fakeapi/api_limits.json.

The fake server must not read the shared Bot API description at test time (tests run from a
clean clone), so the few facts it checks are extracted once and committed. Re-run after a Bot
API update::

    python -m tests.support.fakeapi.extract_limits /path/to/telegram-bot-api/api.min.json

Everything the fake enforces about sizes and field types comes from the file written here:
field types (to decode form-encoded values), required flags, "N-M characters/bytes" ranges,
"At most N" list sizes, "Must be one of" values (a button's style), the photo size/dimension
rules, the MessageEntity type names and the "type" tag of every InlineQueryResult kind (inline
mode).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

# Methods the fake implements (those the bot calls); only their fields are extracted.
METHODS = (
    "getMe",
    "getUpdates",
    "setWebhook",
    "deleteWebhook",
    "getWebhookInfo",
    "setMyCommands",
    "sendMessage",
    "sendPhoto",
    "editMessageText",
    "editMessageCaption",
    "editMessageMedia",
    "editMessageReplyMarkup",
    "deleteMessage",
    "deleteMessages",
    "answerCallbackQuery",
    "getChatMember",
    "answerInlineQuery",
)
TYPES = (
    "BotCommand",
    "InlineKeyboardButton",
    "InputMediaPhoto",
    "MessageEntity",
    "InlineQueryResultArticle",
    "InlineQueryResultPhoto",
    "InlineQueryResultCachedPhoto",
    "InputTextMessageContent",
    "InlineQueryResultsButton",
)
_MUST_BE = re.compile(r"must be (\w+)")

_RANGE = re.compile(r"\b(\d+)-(\d+) (characters|bytes)( after entit(?:y|ies) parsing)?", re.I)
_CANT_EXCEED = re.compile(r"can't exceed (\d+) (characters|bytes)")
_AT_MOST = re.compile(r"At most (\d+) \w+ can be specified")
_BETWEEN = re.compile(r"Values between (\d+)-(\d+) are accepted")
_ONE_OF = re.compile(r"[Mm]ust be one of ([^.]*)")  # "danger" (red), "success" (green) or ...


def _field(desc: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"types": desc["types"], "required": desc["required"]}
    text = desc["description"]
    if m := _RANGE.search(text):
        out["min"], out["max"] = int(m.group(1)), int(m.group(2))
        out["unit"] = m.group(3).lower()
        out["after_entities_parsing"] = bool(m.group(4))
    elif m := _CANT_EXCEED.search(text):
        out["min"], out["max"], out["unit"] = 0, int(m.group(1)), m.group(2)
        out["after_entities_parsing"] = False
    elif m := _BETWEEN.search(text):
        out["min"], out["max"], out["unit"] = int(m.group(1)), int(m.group(2)), "value"
    if m := _AT_MOST.search(text):
        out["max_items"] = int(m.group(1))
    if (m := _ONE_OF.search(text)) and (values := re.findall(r'"([^"]+)"', m.group(1))):
        out["one_of"] = values
    if "only lowercase English letters, digits and underscores" in text:
        out["pattern"] = "^[a-z0-9_]+$"
    if "Required if" in text or "required if" in text:
        out["conditionally_required"] = True
    return out


def _photo_rules(description: str) -> dict[str, int]:
    mb = re.search(r"at most (\d+) MB", description)
    total = re.search(r"must not exceed (\d+) in total", description)
    ratio = re.search(r"ratio must be at most (\d+)", description)
    if not (mb and total and ratio):
        raise SystemExit("sendPhoto.photo description changed; update the extractor")
    return {
        "max_bytes": int(mb.group(1)) * 1024 * 1024,
        "max_width_plus_height": int(total.group(1)),
        "max_aspect_ratio": int(ratio.group(1)),
    }


def extract(api: dict[str, Any]) -> dict[str, Any]:
    methods = {
        name: {f["name"]: _field(f) for f in api["methods"][name].get("fields", [])}
        for name in METHODS
    }
    types = {name: {f["name"]: _field(f) for f in api["types"][name]["fields"]} for name in TYPES}
    photo_desc = next(
        f["description"] for f in api["methods"]["sendPhoto"]["fields"] if f["name"] == "photo"
    )
    entity_desc = next(
        f["description"] for f in api["types"]["MessageEntity"]["fields"] if f["name"] == "type"
    )
    # every InlineQueryResult* type -> its "type" tag ("must be article"); Photo and CachedPhoto
    # share "photo" and differ by their required fields
    inline_results: dict[str, str] = {}
    for name in api["types"]["InlineQueryResult"]["subtypes"]:
        tag = next(f["description"] for f in api["types"][name]["fields"] if f["name"] == "type")
        if not (m := _MUST_BE.search(tag)):
            raise SystemExit(f"{name}.type description changed; update the extractor")
        inline_results[name] = m.group(1)
    answer_desc = " ".join(api["methods"]["answerInlineQuery"]["description"])
    if not (most := re.search(r"No more than (\d+) results per query", answer_desc)):
        raise SystemExit("answerInlineQuery description changed; update the extractor")
    return {
        "_comment": "Generated by tests/support/fakeapi/extract_limits.py; do not edit by hand.",
        "version": api["version"],
        "all_methods": sorted(api["methods"]),
        "methods": methods,
        "types": types,
        "photo": _photo_rules(photo_desc),
        "entity_types": re.findall(r'"([a-z_]+)" \(', entity_desc),
        "inline_result_types": inline_results,
        "inline_max_results": int(most.group(1)),
    }


def main(argv: list[str]) -> None:
    if len(argv) != 2:
        raise SystemExit(f"usage: {argv[0]} path/to/api.min.json")
    api = json.loads(Path(argv[1]).read_text(encoding="utf-8"))
    out = Path(__file__).resolve().parent / "api_limits.json"
    out.write_text(json.dumps(extract(api), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {out}")


if __name__ == "__main__":
    main(sys.argv)
