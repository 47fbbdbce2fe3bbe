"""SQLite's migrations V1 to V13, as they were released: a file made before V13 is upgraded
through them (`bot.storage.schema`); a new one is built from the V13 baseline at once.

Frozen: databases in the field have run these scripts, so their text is never edited, not even
a comment inside a script (SQLite keeps a table's CREATE text as it was written). Times are unix
seconds (INTEGER), Telegram ids 64-bit INTEGERs, booleans 0/1, JSON TEXT.
"""

from __future__ import annotations

V1 = """
CREATE TABLE chats (
    id          INTEGER PRIMARY KEY,               -- Telegram chat id
    type        TEXT    NOT NULL,                  -- private, group, supergroup, channel
    title       TEXT,
    is_forum    INTEGER NOT NULL DEFAULT 0,
    active      INTEGER NOT NULL DEFAULT 1,        -- 0 once the bot was removed
    updated_at  INTEGER NOT NULL
);

CREATE TABLE chat_settings (
    chat_id     INTEGER PRIMARY KEY,               -- no foreign key: settings may come first
    settings    TEXT    NOT NULL                   -- JSON object, see ChatSettings
);

CREATE TABLE users (
    id            INTEGER PRIMARY KEY,             -- Telegram user id
    first_name    TEXT    NOT NULL,
    last_name     TEXT,
    username      TEXT,                            -- without the @
    language_code TEXT,
    is_bot        INTEGER NOT NULL DEFAULT 0,
    updated_at    INTEGER NOT NULL
);
CREATE INDEX users_username ON users (username COLLATE NOCASE);

CREATE TABLE duels (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    chat_id        INTEGER NOT NULL,
    thread_id      INTEGER,                        -- forum topic, or NULL
    player0_id     INTEGER NOT NULL,
    player1_id     INTEGER NOT NULL CHECK (player1_id <> player0_id),
    state          TEXT    NOT NULL,               -- DuelState.to_json()
    version        INTEGER NOT NULL DEFAULT 0,     -- grows with every save (compare-and-swap)
    status         TEXT    NOT NULL DEFAULT 'live'
                   CHECK (status IN ('live', 'finished', 'abandoned')),
    message_id     INTEGER,                        -- the Telegram message showing the duel
    shown_version  INTEGER,                        -- the version that message shows
    created_at     INTEGER NOT NULL,
    updated_at     INTEGER NOT NULL
);
CREATE INDEX duels_live_by_chat ON duels (chat_id) WHERE status = 'live';
CREATE INDEX duels_lagging ON duels (id)
    WHERE status <> 'abandoned' AND (shown_version IS NULL OR shown_version <> version);

CREATE TABLE challenges (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    chat_id          INTEGER NOT NULL,
    thread_id        INTEGER,
    challenger_id    INTEGER NOT NULL,
    target_id        INTEGER,                      -- NULL: open to anyone, or known by @name only
    target_username  TEXT,
    stack            INTEGER NOT NULL CHECK (stack > 0),
    status           TEXT    NOT NULL DEFAULT 'pending'
                     CHECK (status IN ('pending', 'accepted', 'declined', 'cancelled', 'expired')),
    version          INTEGER NOT NULL DEFAULT 0,
    message_id       INTEGER,
    duel_id          INTEGER REFERENCES duels (id),
    created_at       INTEGER NOT NULL,
    expires_at       INTEGER NOT NULL
);
CREATE INDEX challenges_pending ON challenges (expires_at) WHERE status = 'pending';
CREATE INDEX challenges_by_challenger ON challenges (chat_id, challenger_id, status);

CREATE TABLE results (
    duel_id      INTEGER PRIMARY KEY REFERENCES duels (id),
    chat_id      INTEGER NOT NULL,
    player0_id   INTEGER NOT NULL,
    player1_id   INTEGER NOT NULL,
    stack0       INTEGER NOT NULL,
    stack1       INTEGER NOT NULL,
    start_stack  INTEGER NOT NULL,
    winner_id    INTEGER CHECK (winner_id IS NULL OR winner_id IN (player0_id, player1_id)),
    reason       TEXT    NOT NULL CHECK (reason IN ('normal', 'surrender', 'timeout', 'tiebreak')),
    best0        INTEGER,                          -- HandValue.strength of the best hand shown
    best1        INTEGER,
    bonus0       INTEGER NOT NULL DEFAULT 0,       -- bonus chips won
    bonus1       INTEGER NOT NULL DEFAULT 0,
    bullets      INTEGER NOT NULL,
    finished_at  INTEGER NOT NULL
);
CREATE INDEX results_by_chat ON results (chat_id, finished_at);
"""

# Turn timers (bot/timers.py): each live duel's deadline for the move at `version`, and each
# player's count of timeouts in a row, so timers survive a restart (the job queue does not).
V2_TURN_TIMERS = """
CREATE TABLE turn_timers (
    duel_id    INTEGER PRIMARY KEY REFERENCES duels (id),
    version    INTEGER NOT NULL,                   -- the duel version the row is up to date with
    seconds    INTEGER NOT NULL DEFAULT 0,         -- the chat's turn timer when armed; 0: off
    remind_at  REAL,                               -- unix seconds, fractional (time scale)
    deadline   REAL,                               -- NULL: no timer on this move
    reminded   INTEGER NOT NULL DEFAULT 0,         -- the half-time reminder went out
    timeouts0  INTEGER NOT NULL DEFAULT 0,         -- timeouts in a row of player 0
    timeouts1  INTEGER NOT NULL DEFAULT 0          -- ... and of player 1
);
"""

# Standings and history look a player's results up in every chat (/stats in private), and
# /verify finds the duel of a round by its salt among a chat's duels.
V3_LOOKUPS = """
CREATE INDEX results_by_player0 ON results (player0_id, finished_at);
CREATE INDEX results_by_player1 ON results (player1_id, finished_at);
CREATE INDEX duels_by_chat ON duels (chat_id, id);
"""

# Six-card poker against the dealer (bot/sixcard/): each player's casino balance per chat,
# separate from duel stacks, and the games, each saved like a duel (JSON log, compare-and-swap
# on `version`). The stake of a game leaves the balance in the transaction that creates the
# game, every later fee or bet in the transaction that saves it, and the settlement in the
# finishing save: while a game is live the balance is what the player holds off the table.
V4_CASINO = """
CREATE TABLE balances (
    chat_id        INTEGER NOT NULL,
    user_id        INTEGER NOT NULL,
    balance        INTEGER NOT NULL CHECK (balance >= 0),
    version        INTEGER NOT NULL DEFAULT 0,     -- grows with every change
    rebuys         INTEGER NOT NULL DEFAULT 0,     -- fresh balances taken at zero (/rebuy)
    last_rebuy_at  INTEGER,
    games          INTEGER NOT NULL DEFAULT 0,     -- six-card games finished
    net            INTEGER NOT NULL DEFAULT 0,     -- their total net, in chips
    created_at     INTEGER NOT NULL,
    updated_at     INTEGER NOT NULL,
    PRIMARY KEY (chat_id, user_id)
);

CREATE TABLE sixcard_games (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    chat_id        INTEGER NOT NULL,
    thread_id      INTEGER,                        -- forum topic, or NULL
    user_id        INTEGER NOT NULL,
    state          TEXT    NOT NULL,               -- SixCardGame.to_json()
    version        INTEGER NOT NULL DEFAULT 0,     -- grows with every save (compare-and-swap)
    status         TEXT    NOT NULL DEFAULT 'live'
                   CHECK (status IN ('live', 'finished', 'abandoned')),
    message_id     INTEGER,                        -- the Telegram message showing the game
    shown_version  INTEGER,                        -- the version that message shows
    created_at     INTEGER NOT NULL,
    updated_at     INTEGER NOT NULL,
    net            INTEGER                         -- chips won (lost: negative) once finished
);
CREATE UNIQUE INDEX sixcard_one_live ON sixcard_games (chat_id, user_id) WHERE status = 'live';
CREATE INDEX sixcard_lagging ON sixcard_games (id)
    WHERE status <> 'abandoned' AND (shown_version IS NULL OR shown_version <> version);
CREATE INDEX sixcard_by_user ON sixcard_games (chat_id, user_id, id);
"""

# Hardening: the bot's own settings that outlive a restart (the webhook's secret token), and
# "one pending challenge per player per chat" enforced by the database itself, so two /duel
# commands handled at once can never both insert one. Duplicates left by older versions are
# expired first (the newest of each player's pending challenges stays).
V5_HARDENING = """
CREATE TABLE bot_meta (
    key    TEXT PRIMARY KEY,
    value  TEXT NOT NULL
);

UPDATE challenges SET status = 'expired', version = version + 1
 WHERE status = 'pending' AND id NOT IN (
       SELECT MAX(id) FROM challenges WHERE status = 'pending' GROUP BY chat_id, challenger_id);
CREATE UNIQUE INDEX challenges_one_pending ON challenges (chat_id, challenger_id)
    WHERE status = 'pending';
"""

# Each deal of a duel, so /verify finds a deal by its salt with an indexed query instead of a
# search inside the duels' JSON. A row is written by the save that deals (its commitment,
# public at once) and its salt by the save that ends that deal (public from then on), both in
# that save's transaction. A table, not columns on duels: a duel deals two rounds and any
# number of tiebreaks. No chat_id: a chat's deals are found through their duels, which a
# group's move to a supergroup re-homes. The rows of the duels saved before this migration
# are written by `bot.storage.deals.backfill` (Python, at the first open after it: a
# commitment is a SHA-256, which SQLite cannot compute, and only the rules can tell a
# finished deal from one in play); the bot_meta row asks for it and goes with it.
V6_DEALS = """
CREATE TABLE deals (
    duel_id     INTEGER NOT NULL REFERENCES duels (id),
    round       INTEGER NOT NULL,                  -- 1, 2; 3, 4, ... for tiebreak deals
    commitment  TEXT    NOT NULL,                  -- published before play
    salt        TEXT,                              -- lowercase hex, once the deal is over
    PRIMARY KEY (duel_id, round)
);
CREATE INDEX deals_by_salt ON deals (salt) WHERE salt IS NOT NULL;

INSERT INTO bot_meta (key, value) VALUES ('deals_backfill', 'pending');
"""

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

BEFORE_V13: tuple[str, ...] = (V1, V2_TURN_TIMERS, V3_LOOKUPS, V4_CASINO, V5_HARDENING, V6_DEALS,
                               V7_DUEL_MESSAGES, V8_PRACTICE, V9_REVIEWS, V10_RATINGS,
                               V11_TOURNAMENTS, V12_PENDING_DELETES, V13_USERNAME_LOWER)
