"""The whole schema at version 13, written once for both engines: a new database is built from
it in one step, then takes the later steps (`steps`).

`$ROW_ID`, `$INT64`, `$FLOAT` stand for what the engines spell differently (`DIALECTS`):
Telegram ids, message ids, row ids and times are 64-bit, fractional times are floats; flags
are 0/1 INTEGERs and JSON is TEXT on both, so the repositories' SQL and the values it reads are
the same on both engines. Released: what it builds never changes (databases in the field were
built so); a change is a new step.
"""

from __future__ import annotations

V13_BASELINE = """
CREATE TABLE chats (
    id          $INT64  PRIMARY KEY,               -- Telegram chat id
    type        TEXT    NOT NULL,                  -- private, group, supergroup, channel
    title       TEXT,
    is_forum    INTEGER NOT NULL DEFAULT 0,
    active      INTEGER NOT NULL DEFAULT 1,        -- 0 once the bot was removed
    updated_at  $INT64  NOT NULL
);

CREATE TABLE chat_settings (
    chat_id     $INT64  PRIMARY KEY,               -- no foreign key: settings may come first
    settings    TEXT    NOT NULL                   -- JSON object, see ChatSettings
);

-- @username lookups are case-insensitive by lower(username), which both engines index;
-- Telegram usernames are ASCII.
CREATE TABLE users (
    id            $INT64  PRIMARY KEY,             -- Telegram user id
    first_name    TEXT    NOT NULL,
    last_name     TEXT,
    username      TEXT,                            -- without the @
    language_code TEXT,
    is_bot        INTEGER NOT NULL DEFAULT 0,
    updated_at    $INT64  NOT NULL
);
CREATE INDEX users_username ON users (lower(username));

-- A duel is saved as its JSON state with a version (compare-and-swap). header_rounds: how many
-- deals' commitments its header shows; ai_level: a practice duel against the bot (seat 1),
-- which writes no result.
CREATE TABLE duels (
    id             $ROW_ID,
    chat_id        $INT64  NOT NULL,
    thread_id      $INT64,                         -- forum topic, or NULL
    player0_id     $INT64  NOT NULL,
    player1_id     $INT64  NOT NULL CHECK (player1_id <> player0_id),
    state          TEXT    NOT NULL,               -- DuelState.to_json()
    version        INTEGER NOT NULL DEFAULT 0,     -- grows with every save (compare-and-swap)
    status         TEXT    NOT NULL DEFAULT 'live'
                   CHECK (status IN ('live', 'finished', 'abandoned')),
    message_id     $INT64,                         -- the Telegram message showing the duel
    shown_version  INTEGER,                        -- the version that message shows
    created_at     $INT64  NOT NULL,
    updated_at     $INT64  NOT NULL,
    header_rounds  INTEGER NOT NULL DEFAULT 0,
    ai_level       TEXT
);
CREATE INDEX duels_live_by_chat ON duels (chat_id) WHERE status = 'live';
CREATE INDEX duels_lagging ON duels (id)
    WHERE status <> 'abandoned' AND (shown_version IS NULL OR shown_version <> version);
CREATE INDEX duels_by_chat ON duels (chat_id, id);
CREATE INDEX duels_practice ON duels (chat_id, player0_id) WHERE ai_level IS NOT NULL;

-- One pending challenge per player per chat, enforced by the database itself.
CREATE TABLE challenges (
    id               $ROW_ID,
    chat_id          $INT64  NOT NULL,
    thread_id        $INT64,
    challenger_id    $INT64  NOT NULL,
    target_id        $INT64,                       -- NULL: open to anyone, or known by @name only
    target_username  TEXT,
    stack            INTEGER NOT NULL CHECK (stack > 0),
    status           TEXT    NOT NULL DEFAULT 'pending'
                     CHECK (status IN ('pending', 'accepted', 'declined', 'cancelled', 'expired')),
    version          INTEGER NOT NULL DEFAULT 0,
    message_id       $INT64,
    duel_id          $INT64  REFERENCES duels (id),
    created_at       $INT64  NOT NULL,
    expires_at       $INT64  NOT NULL
);
CREATE INDEX challenges_pending ON challenges (expires_at) WHERE status = 'pending';
CREATE INDEX challenges_by_challenger ON challenges (chat_id, challenger_id, status);
CREATE UNIQUE INDEX challenges_one_pending ON challenges (chat_id, challenger_id)
    WHERE status = 'pending';

CREATE TABLE results (
    duel_id      $INT64  PRIMARY KEY REFERENCES duels (id),
    chat_id      $INT64  NOT NULL,
    player0_id   $INT64  NOT NULL,
    player1_id   $INT64  NOT NULL,
    stack0       INTEGER NOT NULL,
    stack1       INTEGER NOT NULL,
    start_stack  INTEGER NOT NULL,
    winner_id    $INT64  CHECK (winner_id IS NULL OR winner_id IN (player0_id, player1_id)),
    reason       TEXT    NOT NULL CHECK (reason IN ('normal', 'surrender', 'timeout', 'tiebreak')),
    best0        $INT64,                           -- HandValue.strength of the best hand shown
    best1        $INT64,
    bonus0       INTEGER NOT NULL DEFAULT 0,       -- bonus chips won
    bonus1       INTEGER NOT NULL DEFAULT 0,
    bullets      INTEGER NOT NULL,
    finished_at  $INT64  NOT NULL
);
CREATE INDEX results_by_chat ON results (chat_id, finished_at);
CREATE INDEX results_by_player0 ON results (player0_id, finished_at);
CREATE INDEX results_by_player1 ON results (player1_id, finished_at);

-- Each live duel's deadline for the move at `version`, and each player's timeouts in a row.
CREATE TABLE turn_timers (
    duel_id    $INT64  PRIMARY KEY REFERENCES duels (id),
    version    INTEGER NOT NULL,                   -- the duel version the row is up to date with
    seconds    INTEGER NOT NULL DEFAULT 0,         -- the chat's turn timer when armed; 0: off
    remind_at  $FLOAT,                             -- unix seconds, fractional (time scale)
    deadline   $FLOAT,                             -- NULL: no timer on this move
    reminded   INTEGER NOT NULL DEFAULT 0,         -- the half-time reminder went out
    timeouts0  INTEGER NOT NULL DEFAULT 0,         -- timeouts in a row of player 0
    timeouts1  INTEGER NOT NULL DEFAULT 0          -- ... and of player 1
);

-- Six-card poker (bot/sixcard/): each player's casino balance per chat, and the games, each
-- saved like a duel. A game's stake leaves the balance in the transaction that creates the
-- game, every later fee or bet in the save that takes it, the settlement in the finishing save.
CREATE TABLE balances (
    chat_id        $INT64  NOT NULL,
    user_id        $INT64  NOT NULL,
    balance        INTEGER NOT NULL CHECK (balance >= 0),
    version        INTEGER NOT NULL DEFAULT 0,     -- grows with every change
    rebuys         INTEGER NOT NULL DEFAULT 0,     -- fresh balances taken at zero (/rebuy)
    last_rebuy_at  $INT64,
    games          INTEGER NOT NULL DEFAULT 0,     -- six-card games finished
    net            INTEGER NOT NULL DEFAULT 0,     -- their total net, in chips
    created_at     $INT64  NOT NULL,
    updated_at     $INT64  NOT NULL,
    PRIMARY KEY (chat_id, user_id)
);

CREATE TABLE sixcard_games (
    id             $ROW_ID,
    chat_id        $INT64  NOT NULL,
    thread_id      $INT64,                         -- forum topic, or NULL
    user_id        $INT64  NOT NULL,
    state          TEXT    NOT NULL,               -- SixCardGame.to_json()
    version        INTEGER NOT NULL DEFAULT 0,     -- grows with every save (compare-and-swap)
    status         TEXT    NOT NULL DEFAULT 'live'
                   CHECK (status IN ('live', 'finished', 'abandoned')),
    message_id     $INT64,                         -- the Telegram message showing the game
    shown_version  INTEGER,                        -- the version that message shows
    created_at     $INT64  NOT NULL,
    updated_at     $INT64  NOT NULL,
    net            INTEGER                         -- chips won (lost: negative) once finished
);
CREATE UNIQUE INDEX sixcard_one_live ON sixcard_games (chat_id, user_id) WHERE status = 'live';
CREATE INDEX sixcard_lagging ON sixcard_games (id)
    WHERE status <> 'abandoned' AND (shown_version IS NULL OR shown_version <> version);
CREATE INDEX sixcard_by_user ON sixcard_games (chat_id, user_id, id);

-- The bot's own settings that outlive a restart (the webhook's secret token).
CREATE TABLE bot_meta (
    key    TEXT PRIMARY KEY,
    value  TEXT NOT NULL
);

-- Each deal of a duel, so /verify finds a deal by its salt: written by the save that deals
-- (its commitment) and by the save that ends it (its salt). No chat_id: a chat's deals are
-- found through their duels, which a group's move to a supergroup re-homes.
CREATE TABLE deals (
    duel_id     $INT64  NOT NULL REFERENCES duels (id),
    round       INTEGER NOT NULL,                  -- 1, 2; 3, 4, ... for tiebreak deals
    commitment  TEXT    NOT NULL,                  -- published before play
    salt        TEXT,                              -- lowercase hex, once the deal is over
    PRIMARY KEY (duel_id, round)
);
CREATE INDEX deals_by_salt ON deals (salt) WHERE salt IS NOT NULL;

-- A duel's messages in its chat, so /verify answers a reply to any of them.
CREATE TABLE duel_messages (
    chat_id     $INT64  NOT NULL,
    message_id  $INT64  NOT NULL,
    duel_id     $INT64  NOT NULL REFERENCES duels (id),
    kind        TEXT    NOT NULL,                  -- header, live, reveal, result
    PRIMARY KEY (chat_id, message_id)
);
CREATE INDEX duel_messages_by_duel ON duel_messages (duel_id);

-- A finished duel's review (rules.duel.review's JSON), computed once in the background.
CREATE TABLE reviews (
    duel_id      $INT64  PRIMARY KEY REFERENCES duels (id),
    review       TEXT    NOT NULL,
    computed_at  $INT64  NOT NULL
);

-- Skill ratings (rules.rating): each player's in each chat, moved by every result in the
-- result's own transaction (bot.storage.ratings).
CREATE TABLE ratings (
    chat_id  $INT64  NOT NULL,
    user_id  $INT64  NOT NULL,
    mu       $FLOAT  NOT NULL,                     -- the skill's estimated mean
    sigma    $FLOAT  NOT NULL CHECK (sigma > 0),   -- its uncertainty
    duels    INTEGER NOT NULL CHECK (duels >= 0),  -- results it has been moved by
    PRIMARY KEY (chat_id, user_id)
);

-- Round-robin tournaments (bot.storage.tournaments): one in sign-up or running per chat topic,
-- its players in sign-up order, each pairing a match from the start, decided by the duel it
-- links (its result in results) or by a walkover once due_at passes; no table is kept.
CREATE TABLE tournaments (
    id             $ROW_ID,
    chat_id        $INT64  NOT NULL,
    thread_id      $INT64,                         -- forum topic, or NULL
    opener_id      $INT64  NOT NULL,
    status         TEXT    NOT NULL DEFAULT 'signup'
                   CHECK (status IN ('signup', 'running', 'finished', 'cancelled')),
    double         INTEGER NOT NULL DEFAULT 0,     -- 1: every pair plays twice
    stack          INTEGER NOT NULL CHECK (stack > 0),
    round_seconds  INTEGER NOT NULL CHECK (round_seconds > 0),  -- a round's time to play
    version        INTEGER NOT NULL DEFAULT 0,     -- grows with every change (compare-and-swap)
    message_id     $INT64,                         -- the sign-up message, then the latest table
    shown          INTEGER NOT NULL DEFAULT -1,    -- decided pairings the latest table shows
    created_at     $INT64  NOT NULL,
    started_at     $INT64,                         -- NULL until running
    finished_at    $INT64                          -- NULL until the end
);
CREATE UNIQUE INDEX tournaments_open_in_chat ON tournaments (chat_id, COALESCE(thread_id, 0))
    WHERE status IN ('signup', 'running');

CREATE TABLE tournament_players (
    tournament_id  $INT64  NOT NULL REFERENCES tournaments (id),
    user_id        $INT64  NOT NULL,
    seat           INTEGER NOT NULL,               -- sign-up order, 0: the opener
    PRIMARY KEY (tournament_id, user_id), UNIQUE (tournament_id, seat)
);

CREATE TABLE tournament_matches (
    tournament_id  $INT64  NOT NULL REFERENCES tournaments (id),
    idx            INTEGER NOT NULL,               -- Pairing.index; round: Pairing.round
    round          INTEGER NOT NULL,
    player_a       $INT64  NOT NULL,               -- named first (Pairing.a)
    player_b       $INT64  NOT NULL CHECK (player_b <> player_a),
    due_at         $INT64  NOT NULL,               -- walkover time if not played by then
    ready_id       $INT64,                         -- the first of the pair who asked to play
    challenge_id   $INT64  REFERENCES challenges (id),  -- the pending challenge between them
    duel_id        $INT64  REFERENCES duels (id),
    walkover       TEXT    CHECK (walkover IN ('a', 'b', 'none')),  -- 'none': both lose
    PRIMARY KEY (tournament_id, idx)
);
CREATE UNIQUE INDEX tournament_matches_duel ON tournament_matches (duel_id)
    WHERE duel_id IS NOT NULL;
CREATE INDEX tournament_matches_challenge ON tournament_matches (challenge_id)
    WHERE challenge_id IS NOT NULL;

-- The bot's old messages waiting to be deleted (bot.telegram.janitor), so a kill in between
-- deletes them after the restart instead of leaving them with their old buttons.
CREATE TABLE pending_deletes (
    chat_id     $INT64  NOT NULL,
    message_id  $INT64  NOT NULL,
    PRIMARY KEY (chat_id, message_id)
);
"""
