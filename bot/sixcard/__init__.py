"""Six-card poker against the dealer in Telegram: the casino balance, the game's life in
storage (`service`), its message (`present`, `captions`, `keyboards`), the command's
arguments (`args`) and its handlers (`handlers`). The rules are `rules.sixcard`'s; nothing
here decides a hand."""

from __future__ import annotations

from bot.common import chats, live
from bot.sixcard import present, service

live.plug(present.LIVE)
chats.closes(chats.ChatGames("six-card", forget=service.forget_chat,
                             make_room=service.make_room, show_moved=present.show_moved))
