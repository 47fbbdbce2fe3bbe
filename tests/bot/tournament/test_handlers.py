"""Who may start or cancel a tournament: its opener, or one of the chat's admins as Telegram
says (asked at each tap); anyone else, or anyone when Telegram cannot say, may not."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

from telegram import Bot
from telegram.error import NetworkError

from bot.storage.tournaments import TournamentRecord, TournamentStatus
from bot.tournament.handlers import may_run

OPENER, ADMIN, OWNER, MEMBER = 1, 2, 3, 4


class FakeBot:
    def __init__(self, *, down: bool = False) -> None:
        self.down = down
        self.asked: list[int] = []

    async def get_chat_member(self, chat_id: int, user_id: int, **kw: Any) -> SimpleNamespace:
        self.asked.append(user_id)
        if self.down:
            raise NetworkError("timed out")
        status = {ADMIN: "administrator", OWNER: "creator"}.get(user_id, "member")
        return SimpleNamespace(status=status)


def record() -> TournamentRecord:
    return TournamentRecord(
        id=1, chat_id=-100, thread_id=None, opener_id=OPENER, status=TournamentStatus.SIGNUP,
        double=False, stack=50, round_seconds=86400, version=0, message_id=None, shown=-1,
        created_at=0, started_at=None, finished_at=None)


async def test_the_opener_and_the_admins_may_run_it() -> None:
    bot = FakeBot()
    t = record()
    assert await may_run(cast(Bot, bot), t, OPENER)
    assert bot.asked == []  # the opener is not asked about
    assert await may_run(cast(Bot, bot), t, ADMIN)
    assert await may_run(cast(Bot, bot), t, OWNER)
    assert not await may_run(cast(Bot, bot), t, MEMBER)
    assert not await may_run(cast(Bot, FakeBot(down=True)), t, ADMIN)  # Telegram cannot say
