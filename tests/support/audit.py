"""What the fake Bot API recorded, audited as a whole: every press answered once, no message
sent twice, each group's calls within Telegram's 20 a minute. Several bot processes share one
token, so these are checked over all their calls together (the fake sees them all)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable

from .fakeapi import FakeTelegramAPI, RecordedRequest

GROUP_PER_MINUTE = 20  # Telegram's limit per group: sends, edits and deletes together
WINDOW = 60.0
_SENDS = ("sendMessage", "sendPhoto")


def counted(r: RecordedRequest) -> bool:
    """A call that takes a place in its chat's flood budget (done: Telegram answered ok)."""
    m = r.method
    return r.ok and ((m.startswith("send") and m != "sendChatAction")
                     or m.startswith("editMessage") or m in ("deleteMessage", "deleteMessages"))


def max_per_window(times: Iterable[float], span: float = WINDOW) -> int:
    """The most of these moments within any `span` seconds (a sliding window)."""
    ordered, best, start = sorted(times), 0, 0
    for end, t in enumerate(ordered):
        while t - ordered[start] >= span:
            start += 1
        best = max(best, end - start + 1)
    return best


def group_rates(api: FakeTelegramAPI, since: int = 0) -> dict[int, int]:
    """Each group's most sends+edits+deletes in any 60 s (calls after request `since`)."""
    times: dict[int, list[float]] = {}
    for r in api.requests:
        chat_id = r.params.get("chat_id")
        if r.seq > since and counted(r) and isinstance(chat_id, int) and chat_id < 0:
            times.setdefault(chat_id, []).append(r.time)
    return {chat: max_per_window(ts) for chat, ts in times.items()}


def unanswered(api: FakeTelegramAPI) -> list[str]:
    """Presses the bot never answered, or answered more than once (a doubled update)."""
    answers = Counter(r.params.get("callback_query_id") for r in api.calls("answerCallbackQuery")
                      if r.ok)
    problems = [f"press {q.id} ({q.data}) never answered" for q in api.callback_queries.values()
                if not q.answered]
    problems += [f"press {qid} answered {n} times" for qid, n in answers.items() if n > 1]
    return problems


def sent_twice(api: FakeTelegramAPI) -> list[str]:
    """Messages the bot sent twice: the same text or caption with the same buttons, in the
    same chat (a replayed update, or a resend after a crash that did not know it was sent)."""
    sent = Counter(
        (r.params.get("chat_id"), r.params.get("text") or r.params.get("caption"),
         json.dumps(r.params.get("reply_markup"), sort_keys=True))
        for r in api.requests if r.ok and r.method in _SENDS)
    return [f"sent {n} times in chat {chat}: {str(text)[:80]!r}, buttons {_first_data(markup)}"
            for (chat, text, markup), n in sent.items() if n > 1]


def _first_data(markup: str) -> str | None:
    """The callback data of a keyboard's first button (e.g. d:7:3:b01), None without one."""
    loaded = json.loads(markup)
    if isinstance(loaded, str):  # as sent in a form field: JSON in JSON
        loaded = json.loads(loaded)
    rows = loaded.get("inline_keyboard", []) if isinstance(loaded, dict) else []
    return next((b["callback_data"] for row in rows for b in row if "callback_data" in b), None)

