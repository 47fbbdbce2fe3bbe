"""The schema, as numbered forward migrations.

`MIGRATIONS[i]` takes a SQLite database from schema version i to i + 1 (`PRAGMA user_version`);
PostgreSQL's steps are in `migrations_pg` (its first builds V13 at once; from V14 on, a step is
written for both engines, once where the SQL is portable).
Each runs in one transaction with its version bump. Only ever append: a released migration is
never edited, since databases in the field have already run it. A script must not contain
BEGIN/COMMIT, nor PRAGMAs that cannot run inside a transaction (foreign_keys, journal_mode).

Times are unix seconds (INTEGER), passed in by the caller. Telegram ids are 64-bit INTEGERs.
Booleans are 0/1. JSON is TEXT. V1 to V6 are in `migrations_early` (the file grew past one
module's length).
"""

from __future__ import annotations

from bot.storage.migrations_early import (
    V1,
    V2_TURN_TIMERS,
    V3_LOOKUPS,
    V4_CASINO,
    V5_HARDENING,
    V6_DEALS,
)

# A duel's messages in its chat (its header, each live table, a kept reveal, the result), so
# /verify answers a reply to any of them; and how many deals' commitments the header (the
# challenge's message, edited) shows, so each deal's commitment is added to it once. The
# messages known before: each accepted challenge's (the header) and each duel's latest.
V7_DUEL_MESSAGES = """
CREATE TABLE duel_messages (
    chat_id     INTEGER NOT NULL,
    message_id  INTEGER NOT NULL,
    duel_id     INTEGER NOT NULL REFERENCES duels (id),
    kind        TEXT    NOT NULL,                  -- header, live, reveal, result
    PRIMARY KEY (chat_id, message_id)
);
CREATE INDEX duel_messages_by_duel ON duel_messages (duel_id);
ALTER TABLE duels ADD COLUMN header_rounds INTEGER NOT NULL DEFAULT 0;

INSERT OR IGNORE INTO duel_messages (chat_id, message_id, duel_id, kind)
    SELECT chat_id, message_id, duel_id, 'header' FROM challenges
     WHERE duel_id IS NOT NULL AND message_id IS NOT NULL;
INSERT OR IGNORE INTO duel_messages (chat_id, message_id, duel_id, kind)
    SELECT chat_id, message_id, id, 'live' FROM duels WHERE message_id IS NOT NULL;
"""

# Practice duels against the bot (issue 12): the AI's level on the duel (the bot plays seat 1;
# NULL for a duel between people). A practice duel writes no result, so it never moves the
# chat's standings.
V8_PRACTICE = """
ALTER TABLE duels ADD COLUMN ai_level TEXT;
CREATE INDEX duels_practice ON duels (chat_id, player0_id) WHERE ai_level IS NOT NULL;
"""

# The review of a finished duel (issue 12: accuracy, luck, the worst mistake of each player),
# computed once in the background from its public log and kept (rules.duel.review's JSON).
V9_REVIEWS = """
CREATE TABLE reviews (
    duel_id      INTEGER PRIMARY KEY REFERENCES duels (id),
    review       TEXT    NOT NULL,
    computed_at  INTEGER NOT NULL
);
"""

# Skill ratings (issue 13: Weng-Lin, rules.rating): each player's in each chat, moved by every
# result in the result's own transaction (bot.storage.ratings). The ratings of the results
# stored before this migration are replayed from them, in order, by
# `bot.storage.ratings.backfill` at the first open after it (the maths is Python's); the
# bot_meta row asks for it and goes with it.
V10_RATINGS = """
CREATE TABLE ratings (
    chat_id  INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    mu       REAL    NOT NULL,                     -- the skill's estimated mean
    sigma    REAL    NOT NULL CHECK (sigma > 0),   -- its uncertainty
    duels    INTEGER NOT NULL CHECK (duels >= 0),  -- results it has been moved by
    PRIMARY KEY (chat_id, user_id)
);

INSERT INTO bot_meta (key, value) VALUES ('ratings_backfill', 'pending');
"""

# Round-robin tournaments (bot.storage.tournaments): one in sign-up or running per chat topic,
# its players in sign-up order, each pairing a match from the start, decided by the duel it
# links (its result in results) or by a walkover once due_at passes; no table is kept.
V11_TOURNAMENTS = """
CREATE TABLE tournaments (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    chat_id        INTEGER NOT NULL,
    thread_id      INTEGER,                        -- forum topic, or NULL
    opener_id      INTEGER NOT NULL,
    status         TEXT    NOT NULL DEFAULT 'signup'
                   CHECK (status IN ('signup', 'running', 'finished', 'cancelled')),
    double         INTEGER NOT NULL DEFAULT 0,     -- 1: every pair plays twice
    stack          INTEGER NOT NULL CHECK (stack > 0),
    round_seconds  INTEGER NOT NULL CHECK (round_seconds > 0),  -- a round's time to play
    version        INTEGER NOT NULL DEFAULT 0,     -- grows with every change (compare-and-swap)
    message_id     INTEGER,                        -- the sign-up message, then the latest table
    shown          INTEGER NOT NULL DEFAULT -1,    -- decided pairings the latest table shows
    created_at     INTEGER NOT NULL,
    started_at     INTEGER, finished_at INTEGER    -- NULL until running, until the end
);
CREATE UNIQUE INDEX tournaments_open_in_chat ON tournaments (chat_id, COALESCE(thread_id, 0))
    WHERE status IN ('signup', 'running');

CREATE TABLE tournament_players (
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (id),
    user_id        INTEGER NOT NULL,
    seat           INTEGER NOT NULL,               -- sign-up order, 0: the opener
    PRIMARY KEY (tournament_id, user_id), UNIQUE (tournament_id, seat)
);

CREATE TABLE tournament_matches (
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (id),
    idx            INTEGER NOT NULL,               -- Pairing.index; round: Pairing.round
    round          INTEGER NOT NULL,
    player_a       INTEGER NOT NULL,               -- named first (Pairing.a)
    player_b       INTEGER NOT NULL CHECK (player_b <> player_a),
    due_at         INTEGER NOT NULL,               -- walkover time if not played by then
    ready_id       INTEGER,                        -- the first of the pair who asked to play
    challenge_id   INTEGER REFERENCES challenges (id),  -- the pending challenge between them
    duel_id        INTEGER REFERENCES duels (id),
    walkover       TEXT    CHECK (walkover IN ('a', 'b', 'none')),  -- 'none': both lose
    PRIMARY KEY (tournament_id, idx)
);
CREATE UNIQUE INDEX tournament_matches_duel ON tournament_matches (duel_id)
    WHERE duel_id IS NOT NULL;
CREATE INDEX tournament_matches_challenge ON tournament_matches (challenge_id)
    WHERE challenge_id IS NOT NULL;
"""

# The bot's old messages waiting to be deleted (bot.telegram.janitor: a delete waits for room
# in the chat's flood budget, up to a minute), so a kill in between deletes them after the
# restart instead of leaving them with their old buttons.
V12_PENDING_DELETES = """
CREATE TABLE pending_deletes (
    chat_id     INTEGER NOT NULL,
    message_id  INTEGER NOT NULL,
    PRIMARY KEY (chat_id, message_id)
);
"""

# @username lookups case-insensitively by `lower(username)`, which both engines index (SQLite's
# COLLATE NOCASE has no PostgreSQL twin); Telegram usernames are ASCII, where the two agree.
V13_USERNAME_LOWER = """
DROP INDEX users_username;
CREATE INDEX users_username ON users (lower(username));
"""

# The hints a practice duel's player took (bot.duel.hints), named by its review. Portable: the
# same step for both engines (migrations_pg.PG_MIGRATIONS names it too).
V14_HINTS = "ALTER TABLE duels ADD COLUMN hints INTEGER NOT NULL DEFAULT 0;"

# Due rows (issue 19): whatever must happen later (a turn's reminder and deadline, a challenge's
# expiry, the bot's own move, a review, the sync of lagging messages, a tournament's tick, the
# season-end post) is a row that any live worker claims (bot.storage.jobs, bot.common.due).
# `generation` is new at every (re-)arming, so the finish of an older claim leaves a re-armed
# row alone; `owner` and `lease_until` say who runs it until when (a dead owner's lease runs
# out, and another worker takes the row). Times are REAL unix seconds.
V15_DUE_JOBS = """
CREATE TABLE due_jobs (
    kind         TEXT    NOT NULL,                 -- which handler runs it
    key          TEXT    NOT NULL,                 -- what it is about, within its kind
    due_at       REAL    NOT NULL,
    data         TEXT    NOT NULL DEFAULT '{}',    -- JSON, the handler's
    generation   INTEGER NOT NULL,                 -- new at every arming
    attempts     INTEGER NOT NULL DEFAULT 0,       -- failures in a row
    owner        TEXT,                             -- the worker running it, or NULL
    lease_until  REAL,                             -- its claim holds until then
    PRIMARY KEY (kind, key)
);
CREATE INDEX due_jobs_due ON due_jobs (due_at);
CREATE INDEX due_jobs_held ON due_jobs (lease_until) WHERE lease_until IS NOT NULL;
"""

# The flood budget every worker shares (bot.storage.flood, bot.telegram.flood.DatabaseWindow):
# one row per key (a chat, the bot), its calls counted within the window's span and the hold
# a 429 put on it. Portable: the same step for both engines (migrations_pg names it too).
V16_FLOOD = """
CREATE TABLE flood_windows (
    key         TEXT    PRIMARY KEY,               -- 'bot', 'chat:-100...'
    calls       TEXT    NOT NULL DEFAULT '',       -- unix times of the calls counted, oldest first
    held_until  DOUBLE PRECISION NOT NULL DEFAULT 0,  -- unix time a 429's hold ends
    touched_at  DOUBLE PRECISION NOT NULL          -- unix time of the last take (pruning)
);
"""

# Every update from Telegram, saved before it is acknowledged (before the polling offset moves
# past it, before a webhook's 200) and crossed off once handled (bot.telegram.intake): a kill
# in between leaves it to be handled after the restart, or by another worker once its lease
# runs out; a second delivery of one update_id finds its row and takes no effect.
V17_INBOX = """
CREATE TABLE inbox (
    update_id    INTEGER PRIMARY KEY,
    body         TEXT    NOT NULL,
    received_at  REAL    NOT NULL,
    owner        TEXT,
    lease_until  REAL,
    done_at      REAL
);
CREATE INDEX inbox_pending ON inbox (lease_until) WHERE done_at IS NULL;
CREATE INDEX inbox_done ON inbox (done_at) WHERE done_at IS NOT NULL;
"""

MIGRATIONS: tuple[str, ...] = (V1, V2_TURN_TIMERS, V3_LOOKUPS, V4_CASINO, V5_HARDENING,
                               V6_DEALS, V7_DUEL_MESSAGES, V8_PRACTICE, V9_REVIEWS,
                               V10_RATINGS, V11_TOURNAMENTS, V12_PENDING_DELETES,
                               V13_USERNAME_LOWER, V14_HINTS, V15_DUE_JOBS, V16_FLOOD,
                               V17_INBOX)
