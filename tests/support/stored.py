"""What the bot stored, read through the bot's own repositories (``bot.storage``).

The e2e tests run the bot as a subprocess on its SQLite file; the test process opens the same
file with ``await bot.storage()`` (a ``Storage`` on it; in WAL mode, reading beside the running
bot, or after it was killed, is fine) and reads typed records, never raw SQL on the schema::

    storage = await bot.storage()
    duel = await stored.settled(storage, duel_id)      # a DuelRecord, shown at its version
    assert [c.status for c in await stored.challenges(storage, chat.id)] == ["declined"]

Games are read with the rules' own types (``DuelState``, ``SixCardGame``), not by parsing
their saved form.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TypeVar

from bot.storage import ChallengeRecord, ChatSettings, DuelRecord, Storage
from bot.storage.balances import BalanceRecord, BalanceRepo
from bot.storage.sixcard import SixCardRecord, SixCardRepo
from rules.duel import DuelState
from rules.fairness import deck_text
from rules.sixcard import SixCardGame

from .driver import TIMEOUT

T = TypeVar("T")
MANY = 10_000  # more than any test makes, for the repositories' "latest N" reads


async def until(read: Callable[[], Awaitable[T]], ok: Callable[[T], object], what: str,
                timeout: float = TIMEOUT) -> T:
    """Call ``read`` (a repository read) every 20 ms until ``ok`` holds for what it returned,
    and return that. The fake is not told about the bot's writes: they are polled for."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not ok(value := await read()):
        if loop.time() > deadline:
            raise TimeoutError(f"{what}: not within {timeout}s (last read: {value!r})")
        await asyncio.sleep(0.02)
    return value


# --- duels ------------------------------------------------------------------------------------


async def duel(storage: Storage, duel_id: int) -> DuelRecord:
    found = await storage.duels.get(duel_id)
    assert found is not None, f"no duel {duel_id} in the database"
    return found


async def settled(storage: Storage, duel_id: int, timeout: float = TIMEOUT) -> DuelRecord:
    """Wait until the bot recorded that the duel's message shows its saved version (the bot
    is done with the last tap, its database included)."""
    return await until(lambda: duel(storage, duel_id), lambda d: d.shown_version == d.version,
                       f"duel {duel_id} shown at its saved version", timeout)


async def inbox_empty(storage: Storage, timeout: float = TIMEOUT) -> int:
    """Wait until every update the bot saved is crossed off (handled, or settled)."""
    async def pending() -> int:
        return await storage.inbox.pending()

    return await until(pending, lambda n: n == 0, "every saved update crossed off", timeout)


async def duels(storage: Storage, chat_id: int) -> list[DuelRecord]:
    """Every duel of the chat, whatever its status, oldest first."""
    return list(reversed(await storage.duels.recent_in_chat(chat_id, MANY)))


def state(record: DuelRecord) -> DuelState:
    return DuelState.from_json(record.state_json)


def deals(record: DuelRecord) -> list[tuple[str, str]]:
    """(deck order as ``"AsKd..."``, salt hex) of every deal of the duel, the one in play
    included: the secrets that must reach nobody before the deal is over."""
    s = state(record)
    out = [(deck_text(p.deck), p.salt) for p in s.proofs]
    if s.deck and not (s.proofs and s.proofs[-1].round == s.round):
        out.append((deck_text(s.deck), s.salt.hex()))
    return out


def dealt_decks(records: list[DuelRecord]) -> list[str]:
    """Every deck order these duels dealt (two characters a card)."""
    return [deck for r in records for deck, _ in deals(r)]


def actions(record: DuelRecord) -> int:
    """How many players' actions the saved state holds (each applied exactly once)."""
    return state(record).version  # one version per action


# --- challenges, chats --------------------------------------------------------------------------


async def challenges(storage: Storage, chat_id: int) -> list[ChallengeRecord]:
    """Every challenge of the chat, whatever its status, oldest first."""
    return await storage.challenges.in_chat(chat_id)


async def challenge(storage: Storage, challenge_id: int) -> ChallengeRecord:
    found = await storage.challenges.get(challenge_id)
    assert found is not None, f"no challenge {challenge_id} in the database"
    return found


async def settings(storage: Storage, chat_id: int) -> ChatSettings:
    """The chat's settings as stored now (the repository keeps what it read in memory, which
    in this process would go stale: the bot is the one writing)."""
    storage.chats.forget_cached(chat_id)
    return await storage.chats.get_settings(chat_id)


# --- the casino -------------------------------------------------------------------------------


def balances(storage: Storage) -> BalanceRepo:
    return BalanceRepo(storage.db)  # as the bot makes it (Storage.over)


async def balance(storage: Storage, chat_id: int, user_id: int) -> BalanceRecord:
    found = await balances(storage).get_balance(chat_id, user_id)
    assert found is not None, f"no balance of user {user_id} in chat {chat_id}"
    return found


async def games(storage: Storage, chat_id: int, user_id: int) -> list[SixCardRecord]:
    """The player's six-card games in the chat, oldest first."""
    return list(reversed(await SixCardRepo(storage.db).games_of(chat_id, user_id, MANY)))


def game_deck(record: SixCardRecord) -> str:
    """The six-card game's deck order (``"AsKd..."``): a secret until the game is over."""
    return deck_text(SixCardGame.from_json(record.state_json).deck)
