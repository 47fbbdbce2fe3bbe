"""The schema's first migrations, V1 to V6, released: never edited (see `migrations`)."""

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
