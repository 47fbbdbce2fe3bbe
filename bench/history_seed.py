"""bench/history.py's seeding: a database with years of finished duels, written through the
bot's own repositories (not SQL of ours), so its rows are the bot's.

    python -c "import runpy; runpy.run_path('bench/history_seed.py', run_name='__main__')" \\
        --db PATH_OR_URL --duels N [--seed 1] [--batch 2000]

Run by bench/history.py as a subprocess with the PYTHONPATH (and working directory) of the
checkout whose code seeds (the oldest of the trees compared, so that every tree's bot can open
the result: a newer one migrates it at start). It imports only what both trees have: `Storage`
and its repositories, `bot.duel.service.duel_result` and `rules.duel`.

What it writes (the figures bench/history.py asks about are in MAIN, the group):
- N finished duels in MAIN among PLAYERS, random pairs, finished_at spread over two years up to
  now, in order; each its duel row (the state JSON of one of a few duels played once with
  `rules.duel`, reused: some surrendered, some lost on time, some drawn when a tiebreak was
  declined), its deals, its result and both players' ratings (`DuelRepo.save(..., result=...)`,
  as the bot's last move of a duel writes them), its message shown (no redraw at start) and
  its header and result messages noted;
- PRIVATE (the first of PLAYERS) with PER_CHAT duels in each of OTHER_CHATS more groups, each
  against a player of that group (the private /stats reads them all);
- SIDE_DUELS duels in SIDE, the group whose live duel bench/history.py taps in (its board is
  the warm-up request).
A few thousand duels a transaction. Prints one JSON line: seconds, duels, and the database's
size before and after the duels (the file's, or pg_database_size), for the bytes per duel.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import time
from pathlib import Path
from typing import Any

from bot.duel.service import duel_result
from bot.storage import DuelStatus, Storage, deals_of
from rules.cards import shuffled_deck
from rules.duel import DuelState
from rules.duel.actions import Action, Bet, Surrender, TiebreakAnswer
from rules.duel.view import Phase
from rules.fairness import new_salt

try:  # where a game is shown: a message id before issue 35, a ChatMessage since
    from bot.storage import ChatMessage

    def shown(chat: int, message_id: int) -> Any:
        return ChatMessage(chat, message_id)
except ImportError:
    def shown(chat: int, message_id: int) -> Any:
        return message_id

MAIN = -4242  # the group with the long past
SIDE = -4343  # the group whose live duel is tapped while /stats runs
OTHER = -500_000  # OTHER - i: the private player's other groups
PLAYERS = tuple(range(1001, 1013))  # 12 players in MAIN
NAMES = ("Ann", "Ben", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lou")
PRIVATE = PLAYERS[0]
OTHER_CHATS = 199  # and MAIN: 200 chats
PER_CHAT = 5
SIDE_PLAYERS = (9001, 9002)
SIDE_DUELS = 3
YEARS = 2
STATES = 40  # finished duels played once, their JSON reused
DRAWS = 3  # and these drawn


def username(user_id: int) -> str:
    return f"p{user_id}"


def _play(rng: random.Random, quit_at: int | None, reason: str, accept: bool) -> DuelState:
    state = DuelState.new(first_dealer=rng.randrange(2))
    moves = 0
    while not state.is_over:
        if state.needs_deal:
            state.deal(shuffled_deck(rng), new_salt(rng))
            continue
        player = state.players_to_act[0]
        action: Action
        if quit_at is not None and moves >= quit_at:
            action = Surrender(reason)
        elif state.public_view().phase is Phase.TIEBREAK_OFFER:
            action = TiebreakAnswer(accept)
        else:
            action = rng.choice([a for a in state.legal_actions(player) if isinstance(a, Bet)])
        state.apply(action, player)
        moves += 1
    return state


def finished_states(rng: random.Random) -> list[DuelState]:
    """Finished duels played with random moves: every third surrendered or lost on time part
    way, the rest played out (a tiebreak accepted); and DRAWS drawn (a tiebreak declined)."""
    out = [_play(rng, rng.randrange(2, 24) if i % 3 == 0 else None,
                 "surrender" if i % 2 else "timeout", True) for i in range(STATES)]
    for _ in range(5000):  # a level end is rare with random moves
        if sum(s.winner is None for s in out) >= DRAWS:
            break
        state = _play(rng, None, "", False)
        if state.winner is None:
            out.append(state)
    return out


async def size_of(where: str) -> int:
    if "://" not in where:
        return sum(p.stat().st_size for p in Path(where).parent.glob(Path(where).name + "*"))
    import asyncpg  # only for PostgreSQL

    conn = await asyncpg.connect(where)
    try:
        return int(await conn.fetchval("SELECT pg_database_size(current_database())"))
    finally:
        await conn.close()


async def seed(where: str, duels: int, rng_seed: int, batch: int) -> dict[str, float]:
    rng = random.Random(rng_seed)
    states = finished_states(rng)
    start = DuelState.new().to_json()
    now = int(time.time())
    storage = await Storage.open(where)
    try:  # the people and chats the bot would have met
        async with storage.transaction():
            for n, uid in enumerate(PLAYERS):
                await storage.users.upsert(uid, NAMES[n], None, username(uid), "en", now=now)
            for n, uid in enumerate(SIDE_PLAYERS):
                await storage.users.upsert(uid, f"Side {n}", None, username(uid), "en", now=now)
            await storage.chats.upsert(MAIN, "group", "The saloon", False, now=now)
            await storage.chats.upsert(SIDE, "group", "Side table", False, now=now)
            for i in range(OTHER_CHATS):
                await storage.users.upsert(2001 + i, f"Rival {i}", None, username(2001 + i),
                                           "en", now=now)
                await storage.chats.upsert(OTHER - i, "group", f"Room {i}", False, now=now)
    finally:
        await storage.close()
    before = await size_of(where)
    span = YEARS * 365 * 86400
    plan: list[tuple[int, int, tuple[int, int]]] = []  # (finished_at, chat, players)
    for _ in range(duels):
        pair = rng.sample(PLAYERS, 2)
        plan.append((now - rng.randrange(3600, span), MAIN, (pair[0], pair[1])))
    for i in range(OTHER_CHATS):
        for _ in range(PER_CHAT):
            pair = [PRIVATE, 2001 + i]
            rng.shuffle(pair)
            plan.append((now - rng.randrange(3600, span), OTHER - i, (pair[0], pair[1])))
    for k in range(SIDE_DUELS):
        plan.append((now - 7200 - k, SIDE, SIDE_PLAYERS))
    plan.sort()
    t0 = time.perf_counter()
    storage = await Storage.open(where)
    try:
        for lo in range(0, len(plan), batch):
            async with storage.transaction():
                for finished_at, chat, players in plan[lo:lo + batch]:
                    state = rng.choice(states)
                    created = finished_at - rng.randrange(120, 1800)
                    record = await storage.duels.create(chat, None, players, start, created)
                    result = duel_result(record, state, finished_at)
                    version = await storage.duels.save(
                        record.id, record.version, state.to_json(), DuelStatus.FINISHED,
                        now=finished_at, result=result, deals=deals_of(state.public_view()))
                    assert version is not None
                    message = 10 * record.id
                    await storage.duels.set_message(record.id, shown(chat, message + 1), version)
                    await storage.duels.note_message(chat, message, record.id, "header")
                    await storage.duels.note_message(chat, message + 2, record.id, "result")
    finally:
        await storage.close()
    seconds = time.perf_counter() - t0
    return {"seconds": seconds, "duels": len(plan), "before": before,
            "after": await size_of(where)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", required=True, help="a SQLite path or a PostgreSQL URL")
    parser.add_argument("--duels", type=int, required=True, help="finished duels in MAIN")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--batch", type=int, default=2000, help="duels a transaction")
    args = parser.parse_args()
    print(json.dumps(asyncio.run(seed(args.db, args.duels, args.seed, args.batch))), flush=True)


if __name__ == "__main__":
    main()
