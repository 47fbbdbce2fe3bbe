"""A database with every kind of row, for the `db copy` tests: `fill(db)` writes them, `dump(db)`
reads every table back (rows sorted, values with their Python types) to compare two databases.

The rows cover each table of the schema (`ROWS`; a test checks that no table is missing) with
what a copy must keep: 64-bit Telegram ids (negative supergroup ids too), fractional times,
JSON text with non-ASCII characters, NULLs, a live and a finished duel, a pending and an accepted
challenge, a live and a finished six-card game, a tournament with its players and matches.
"""

from __future__ import annotations

import json
from typing import Any

from bot.storage.db import Database

CHAT = -1001234567890123  # a supergroup's id: negative, past 32 bits
ALICE = 2**62 + 7  # a user id past 32 bits
BOB = 5_123_456_789
NOW = 1_764_633_600
SECRET = "webhook-secret-7f3a9c"  # bot_meta's webhook secret: copied, never printed
STATE = json.dumps({"round": 2, "stacks": [7, 5], "note": "«пуля» ♠"}, ensure_ascii=False)

ROWS: dict[str, list[dict[str, Any]]] = {
    "chats": [
        {"id": CHAT, "type": "supergroup", "title": "Салун", "is_forum": 1, "active": 1,
         "updated_at": NOW},
        {"id": ALICE, "type": "private", "title": None, "is_forum": 0, "active": 0,
         "updated_at": NOW - 1},
    ],
    "chat_settings": [{"chat_id": CHAT, "settings": json.dumps({"lang": "ru", "timer": 90})}],
    "users": [
        {"id": ALICE, "first_name": "Alice", "last_name": None, "username": "alice",
         "language_code": "en", "is_bot": 0, "updated_at": NOW},
        {"id": BOB, "first_name": "Боб", "last_name": "B", "username": None,
         "language_code": None, "is_bot": 0, "updated_at": NOW},
    ],
    "duels": [
        {"id": 41, "chat_id": CHAT, "thread_id": None, "player0_id": ALICE, "player1_id": BOB,
         "state": STATE, "version": 12, "status": "live", "message_id": 9_000_000_001,
         "shown_version": 11, "created_at": NOW - 600, "updated_at": NOW, "header_rounds": 2,
         "ai_level": None},
        {"id": 7, "chat_id": CHAT, "thread_id": 3, "player0_id": BOB, "player1_id": ALICE,
         "state": "{}", "version": 30, "status": "finished", "message_id": None,
         "shown_version": None, "created_at": NOW - 9000, "updated_at": NOW - 8000,
         "header_rounds": 3, "ai_level": "hard", "inline_message_id": None},
        {"id": 8, "chat_id": -(2**53) - 1, "thread_id": None, "player0_id": ALICE,
         "player1_id": BOB, "state": STATE, "version": 2, "status": "live", "message_id": None,
         "shown_version": 2, "created_at": NOW - 60, "updated_at": NOW - 50, "header_rounds": 0,
         "ai_level": None, "inline_message_id": "AgAAAFcXAgCkqLcVb3HtBQ-_x"},
    ],
    "duel_pairs": [{"id": 1, "low_id": ALICE, "high_id": BOB}],
    "inline_challenges": [
        {"inline_message_id": "AgAAAFcXAgCkqLcVb3HtBQ-_x", "challenger_id": ALICE, "stack": 50,
         "status": "accepted", "duel_id": 8, "created_at": NOW - 70},
        {"inline_message_id": "BQAAAB-open", "challenger_id": BOB, "stack": 30,
         "status": "pending", "duel_id": None, "created_at": NOW - 5},
    ],
    "deals": [
        {"duel_id": 41, "round": 1, "commitment": "ab" * 32, "salt": "cd" * 16},
        {"duel_id": 41, "round": 2, "commitment": "ef" * 32, "salt": None},
        {"duel_id": 7, "round": 1, "commitment": "01" * 32, "salt": "23" * 16},
    ],
    "duel_messages": [
        {"chat_id": CHAT, "message_id": 100, "duel_id": 41, "kind": "header"},
        {"chat_id": CHAT, "message_id": 101, "duel_id": 41, "kind": "live"},
        {"chat_id": CHAT, "message_id": 55, "duel_id": 7, "kind": "result"},
    ],
    "turn_timers": [
        {"duel_id": 41, "version": 12, "seconds": 90, "remind_at": NOW + 60.123456789,
         "deadline": NOW + 90.5, "reminded": 0, "timeouts0": 1, "timeouts1": 0},
        {"duel_id": 7, "version": 30, "seconds": 0, "remind_at": None, "deadline": None,
         "reminded": 1, "timeouts0": 0, "timeouts1": 2},
    ],
    "reviews": [{"duel_id": 7, "review": json.dumps({"moves": [0.25, -1.5]}),
                 "computed_at": NOW - 7000}],
    "results": [
        {"duel_id": 7, "chat_id": CHAT, "player0_id": BOB, "player1_id": ALICE, "stack0": 0,
         "stack1": 12, "start_stack": 6, "winner_id": ALICE, "reason": "normal",
         "best0": 2**40 + 1, "best1": None, "bonus0": 0, "bonus1": 1, "bullets": 4,
         "finished_at": NOW - 8000},
    ],
    "ratings": [
        {"chat_id": CHAT, "user_id": ALICE, "mu": 27.635389729201, "sigma": 8.0655828618,
         "duels": 1},
        {"chat_id": CHAT, "user_id": BOB, "mu": 22.364610270799, "sigma": 8.0655828618,
         "duels": 1},
    ],
    "standings": [  # the all-time line and the month's of the result above, and chat 0's
        {"chat_id": CHAT, "season": season, "user_id": ALICE, "played": 1, "wins": 1,
         "draws": 0, "losses": 0, "net": 6, "best": None, "top_bonus": 1, "streak": 1,
         "start_mu": 25.0, "start_sigma": 8.333333333333, "start_duels": 0,
         "mu": 27.635389729201, "sigma": 8.0655828618, "duels": 1, "shown": 1069,
         "fresh_mu": 27.635389729201, "fresh_sigma": 8.0655828618, "fresh_duels": 1,
         "fresh_shown": 1069} for season in ("all", "2025-12")
    ] + [
        {"chat_id": 0, "season": "all", "user_id": BOB, "played": 1, "wins": 0, "draws": 0,
         "losses": 1, "net": -6, "best": 2**40 + 1, "top_bonus": 0, "streak": -1,
         "start_mu": 25.0, "start_sigma": 8.333333333333, "start_duels": 0, "mu": 25.0,
         "sigma": 8.333333333333, "duels": 0, "shown": 1000, "fresh_mu": 25.0,
         "fresh_sigma": 8.333333333333, "fresh_duels": 0, "fresh_shown": 1000},
    ],
    "rivalries": [
        {"chat_id": CHAT, "user_id": BOB, "opponent_id": ALICE, "played": 1, "wins": 0,
         "draws": 0, "losses": 1, "net": -6, "best": 2**40 + 1, "top_bonus": 0, "streak": -1},
    ],
    "rating_points": [
        {"chat_id": CHAT, "user_id": ALICE, "finished_at": NOW - 8000, "duel_id": 7,
         "mu": 27.635389729201, "sigma": 8.0655828618, "duels": 1},
    ],
    "practice_tally": [
        {"chat_id": CHAT, "user_id": ALICE, "played": 3, "won": 1, "lost": 1},
    ],
    "challenges": [
        {"id": 5, "chat_id": CHAT, "thread_id": None, "challenger_id": BOB, "target_id": ALICE,
         "target_username": None, "stack": 6, "status": "accepted", "version": 2,
         "message_id": 99, "duel_id": 7, "created_at": NOW - 9100, "expires_at": NOW - 9000},
        {"id": 9, "chat_id": CHAT, "thread_id": 3, "challenger_id": ALICE, "target_id": None,
         "target_username": "bob", "stack": 8, "status": "pending", "version": 0,
         "message_id": None, "duel_id": None, "created_at": NOW, "expires_at": NOW + 300},
    ],
    "balances": [
        {"chat_id": CHAT, "user_id": ALICE, "balance": 1250, "version": 4, "rebuys": 1,
         "last_rebuy_at": NOW - 50, "games": 3, "net": -250, "created_at": NOW - 5000,
         "updated_at": NOW},
        {"chat_id": CHAT, "user_id": BOB, "balance": 0, "version": 0, "rebuys": 0,
         "last_rebuy_at": None, "games": 0, "net": 0, "created_at": NOW, "updated_at": NOW},
    ],
    "sixcard_games": [
        {"id": 3, "chat_id": CHAT, "thread_id": None, "user_id": ALICE, "state": STATE,
         "version": 2, "status": "live", "message_id": 700, "shown_version": 2,
         "created_at": NOW - 30, "updated_at": NOW, "net": None},
        {"id": 2, "chat_id": CHAT, "thread_id": None, "user_id": ALICE, "state": "{}",
         "version": 5, "status": "finished", "message_id": 650, "shown_version": 5,
         "created_at": NOW - 400, "updated_at": NOW - 300, "net": -100},
    ],
    "tournaments": [
        {"id": 4, "chat_id": CHAT, "thread_id": None, "opener_id": ALICE, "status": "running",
         "double": 1, "stack": 6, "round_seconds": 3600, "version": 3, "message_id": 800,
         "shown": 2, "created_at": NOW - 9500, "started_at": NOW - 9200, "finished_at": None},
    ],
    "tournament_players": [
        {"tournament_id": 4, "user_id": ALICE, "seat": 0},
        {"tournament_id": 4, "user_id": BOB, "seat": 1},
    ],
    "tournament_matches": [
        {"tournament_id": 4, "idx": 0, "round": 0, "player_a": BOB, "player_b": ALICE,
         "due_at": NOW + 3600, "ready_id": ALICE, "challenge_id": 5, "duel_id": 7,
         "walkover": None},
        {"tournament_id": 4, "idx": 1, "round": 1, "player_a": ALICE, "player_b": BOB,
         "due_at": NOW + 7200, "ready_id": None, "challenge_id": None, "duel_id": None,
         "walkover": "none"},
    ],
    "pending_deletes": [
        {"chat_id": CHAT, "message_id": 101},
        {"chat_id": ALICE, "message_id": 2**33},
    ],
    "bot_meta": [{"key": "webhook_secret", "value": SECRET}, {"key": "sync", "value": "3"}],
    "inbox": [  # a handled update (kept for duplicates), and one still in a worker's hands
        {"update_id": 2**40, "body": '{"update_id": 1099511627776}', "received_at": NOW + 0.5,
         "owner": None, "lease_until": None, "done_at": NOW + 1.25},
        {"update_id": 2**40 + 1, "body": '{"update_id": 1099511627777}',
         "received_at": NOW + 2.0, "owner": "host:42:abc", "lease_until": NOW + 12.0,
         "done_at": None},
    ],
    "flood_windows": [
        {"key": f"chat:{CHAT}", "calls": f"{NOW - 0.5:.3f} {NOW + 0.25:.3f}",
         "held_until": NOW + 30.5, "touched_at": NOW + 0.25},
    ],
    "due_jobs": [
        {"kind": "turn", "key": "41", "due_at": NOW + 150.25, "data": '{"version":12}',
         "generation": 2**61 + 3, "attempts": 0, "owner": None, "lease_until": None},
        {"kind": "sync", "key": "all", "due_at": NOW + 0.5, "data": "null",
         "generation": 17, "attempts": 2, "owner": "host/123/ab", "lease_until": NOW + 30.5},
    ],
    "leases": [{"name": "sixshooter:poller:123456", "holder": "host:42:0a1b2c3d",
                "until": NOW + 8.25}],
}

ORDER = ("chats", "chat_settings", "users", "duels", "duel_pairs", "inline_challenges", "deals",
         "duel_messages", "turn_timers",
         "reviews", "results", "ratings", "standings", "rivalries", "rating_points",
         "practice_tally", "challenges", "balances", "sixcard_games",
         "tournaments", "tournament_players", "tournament_matches", "pending_deletes",
         "bot_meta", "due_jobs", "flood_windows", "inbox", "leases")  # the tables referred to first


async def fill(db: Database) -> None:
    """Every row of `ROWS` into an empty, migrated database, in one transaction."""
    async with db.transaction():
        for table in ORDER:
            for row in ROWS[table]:
                names = ", ".join(f'"{c}"' for c in row)
                marks = ", ".join("?" for _ in row)
                await db.execute(f'INSERT INTO "{table}" ({names}) VALUES ({marks})',
                                 list(row.values()))


async def dump(db: Database) -> dict[str, list[tuple[tuple[str, type, Any], ...]]]:
    """Every table's rows, sorted, each value with its column and its Python type."""
    tables: dict[str, list[tuple[tuple[str, type, Any], ...]]] = {}
    for table in await db.tables():
        rows = await db.fetchall(f'SELECT * FROM "{table}"')
        tables[table] = sorted(  # a Row iterates over its values: its columns are keys()
            (tuple(sorted((c, type(r[c]), r[c]) for c in r.keys())) for r in rows),  # noqa: SIM118
            key=repr)
    return tables
