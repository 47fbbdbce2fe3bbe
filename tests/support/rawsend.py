"""For the tests' stand-in Bots: the calls `bot.telegram.send.raw` makes (`do_api_request`),
answered by the stand-in's own method of that name, as python-telegram-bot's Bot would."""

from __future__ import annotations

from typing import Any

from telegram import InputFile


class RawCalls:
    """Mixed into a stand-in Bot that has `send_photo(chat_id, photo, **kw)` (answering an
    object with a `message_id`): sendPhoto asked for raw is answered by it, as JSON."""

    async def do_api_request(self, endpoint: str, *, api_kwargs: dict[str, Any],
                             **timeouts: Any) -> Any:
        if endpoint != "sendPhoto":
            raise NotImplementedError(f"this stand-in Bot answers no raw {endpoint}")
        kw = dict(api_kwargs)
        chat_id, photo = kw.pop("chat_id"), kw.pop("photo")
        content = photo.input_file_content if isinstance(photo, InputFile) else photo
        sent = await self.send_photo(chat_id, content, **kw)  # type: ignore[attr-defined]
        return {"message_id": sent.message_id, "chat": {"id": chat_id}}
