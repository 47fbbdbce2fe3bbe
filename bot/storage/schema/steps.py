"""The steps after the V13 baseline, each written once for both engines (`$INT64`, `$FLOAT`... in
`DIALECTS`). Only ever append one, with the next number: a released step is never edited, since
databases in the field have already run it. A step must not contain BEGIN/COMMIT, nor PRAGMAs
that cannot run inside a transaction (foreign_keys, journal_mode).
"""

from __future__ import annotations

# The hints a practice duel's player took (bot.duel.hints), named by its review.
V14_HINTS = "ALTER TABLE duels ADD COLUMN hints INTEGER NOT NULL DEFAULT 0;"

# Due rows (issue 19): whatever must happen later (a turn's reminder and deadline, a challenge's
# expiry, the bot's own move, a review, the sync of lagging messages, a tournament's tick, the
# season-end post) is a row that any live worker claims (bot.storage.jobs, bot.common.due).
# `generation` is new at every (re-)arming (any 63-bit number), so the finish of an older claim
# leaves a re-armed row alone; `owner` and `lease_until` say who runs it until when (a dead
# owner's lease runs out, and another worker takes the row). Times are fractional unix seconds.
V15_DUE_JOBS = """
CREATE TABLE due_jobs (
    kind         TEXT    NOT NULL,                 -- which handler runs it
    key          TEXT    NOT NULL,                 -- what it is about, within its kind
    due_at       $FLOAT    NOT NULL,
    data         TEXT    NOT NULL DEFAULT '{}',    -- JSON, the handler's
    generation   $INT64 NOT NULL,                 -- new at every arming
    attempts     INTEGER NOT NULL DEFAULT 0,       -- failures in a row
    owner        TEXT,                             -- the worker running it, or NULL
    lease_until  $FLOAT,                             -- its claim holds until then
    PRIMARY KEY (kind, key)
);
CREATE INDEX due_jobs_due ON due_jobs (due_at);
CREATE INDEX due_jobs_held ON due_jobs (lease_until) WHERE lease_until IS NOT NULL;
"""

# The flood budget every worker shares (bot.storage.flood, bot.telegram.flood.DatabaseWindow):
# one row per key (a chat, the bot), its calls counted within the window's span and the hold
# a 429 put on it. Unlogged where the engine has it (PostgreSQL): a minute's worth of counts is
# worth no WAL, so a take's commit does not wait for the disk (bench/flood_window.py on a 2-core
# machine: 6.3 ms a take logged, 1.1 ms unlogged; three workers at once 3.7 ms and 0.6 ms of
# wall time per take). A server crash empties it, which only forgets the last minute's counts.
V16_FLOOD = """
CREATE $UNLOGGED_TABLE flood_windows (
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
    update_id    $INT64 PRIMARY KEY,
    body         TEXT    NOT NULL,
    received_at  $FLOAT    NOT NULL,
    owner        TEXT,
    lease_until  $FLOAT,
    done_at      $FLOAT
);
CREATE INDEX inbox_pending ON inbox (lease_until) WHERE done_at IS NULL;
CREATE INDEX inbox_done ON inbox (done_at) WHERE done_at IS NOT NULL;
"""

# What the bot looks up now and then (at start-up, every few seconds, at every deal) found
# through indexes of the few rows it is about, not by reading a past that grows without bound
# (issue 36; tests/bot/storage/test_query_plans.py asks both engines' plans): a duel's
# challenge (its header), the settled challenges to prune (bot.storage.challenges), the
# updates not handled yet in the order they came (the inbox keeps a day of handled ones), and
# the running tournaments (the tick's look).
V18_BOUNDED = """
CREATE INDEX challenges_by_duel ON challenges (duel_id) WHERE duel_id IS NOT NULL;
CREATE INDEX challenges_settled ON challenges (expires_at)
    WHERE status IN ('declined', 'cancelled', 'expired');
CREATE INDEX inbox_waiting ON inbox (update_id) WHERE done_at IS NULL;
CREATE INDEX tournaments_running ON tournaments (id) WHERE status = 'running';
"""

# The standings kept as results are saved (issue 36, bot.storage.standings), so /stats reads
# the rows it shows, not the chat's past: per chat, season ('all', a month '2026-12', a quarter
# '2026-Q4') and player, the figures and the ratings (the chat's continuous one at the window's
# start and as reached, and the window's own from a newcomer's: season_reset); chat 0 is a
# player's over every chat. Each pair's record against each other, and each player's rating
# after each duel (the card's chart); each player's practice duels against the bot, counted
# (bot.storage.practice). The bot_meta row asks the first open to fill them from
# the results stored before (in batches, resumable: bot.storage.standings.backfill).
V19_STANDINGS = """
CREATE TABLE standings (
    chat_id      $INT64 NOT NULL,                  -- 0: every chat of the player
    season       TEXT    NOT NULL,                 -- 'all', '2026-12' or '2026-Q4'
    user_id      $INT64 NOT NULL,
    played       INTEGER NOT NULL,
    wins         INTEGER NOT NULL,
    draws        INTEGER NOT NULL,
    losses       INTEGER NOT NULL,
    net          $INT64 NOT NULL,                  -- chips won minus lost
    best         $INT64,                           -- HandValue.strength of the best hand shown
    top_bonus    INTEGER NOT NULL,
    streak       INTEGER NOT NULL,                 -- > 0 wins in a row, < 0 losses
    start_mu     $FLOAT NOT NULL,                  -- the chat's rating before the window
    start_sigma  $FLOAT NOT NULL,
    start_duels  INTEGER NOT NULL,
    mu           $FLOAT NOT NULL,                  -- and the one reached in it
    sigma        $FLOAT NOT NULL,
    duels        INTEGER NOT NULL,
    shown        INTEGER NOT NULL,                 -- rules.rating.shown of the reached one
    fresh_mu     $FLOAT NOT NULL,                  -- the window's own, from a newcomer's
    fresh_sigma  $FLOAT NOT NULL,
    fresh_duels  INTEGER NOT NULL,
    fresh_shown  INTEGER NOT NULL,
    PRIMARY KEY (chat_id, season, user_id)
);
CREATE INDEX standings_board ON standings
    (chat_id, season, shown DESC, net DESC, wins DESC, losses, user_id);
CREATE INDEX standings_board_fresh ON standings
    (chat_id, season, fresh_shown DESC, net DESC, wins DESC, losses, user_id);
CREATE TABLE rivalries (
    chat_id      $INT64 NOT NULL,
    user_id      $INT64 NOT NULL,                  -- whose figures
    opponent_id  $INT64 NOT NULL,                  -- in the duels against whom
    played       INTEGER NOT NULL,
    wins         INTEGER NOT NULL,
    draws        INTEGER NOT NULL,
    losses       INTEGER NOT NULL,
    net          $INT64 NOT NULL,
    best         $INT64,
    top_bonus    INTEGER NOT NULL,
    streak       INTEGER NOT NULL,
    PRIMARY KEY (chat_id, user_id, opponent_id)
);
CREATE TABLE rating_points (
    chat_id      $INT64 NOT NULL,
    user_id      $INT64 NOT NULL,
    finished_at  $INT64 NOT NULL,
    duel_id      $INT64 NOT NULL,
    mu           $FLOAT NOT NULL,                  -- the rating after that duel, replayed
    sigma        $FLOAT NOT NULL,
    duels        INTEGER NOT NULL,
    PRIMARY KEY (chat_id, user_id, finished_at, duel_id)
);
CREATE TABLE practice_tally (
    chat_id      $INT64 NOT NULL,
    user_id      $INT64 NOT NULL,                  -- the player (seat 0) against the bot
    played       INTEGER NOT NULL,
    won          INTEGER NOT NULL,
    lost         INTEGER NOT NULL,                 -- the rest were drawn
    PRIMARY KEY (chat_id, user_id)
);
INSERT INTO bot_meta (key, value) VALUES ('standings_backfill', '');
"""

# Who holds a role among the processes sharing the database (bot.storage.locks: the poller),
# until when (unix seconds by the database's clock): a lease its holder renews, which another
# takes once it lapses. A row, not a session's advisory lock, so that it holds through a
# transaction pooler (issue 37). SQLite has it too, unused (one process: the file lock).
V20_LEASES = """
CREATE TABLE leases (
    name    TEXT PRIMARY KEY,                      -- the role: 'sixshooter:poller:<bot id>'
    holder  TEXT NOT NULL,                         -- host:pid:random of the holding process
    until   $FLOAT NOT NULL                        -- it lapses then, unless renewed
);
"""

# Duels between two friends anywhere, through inline mode (issue 38). A duel shown on an
# inline message (known by its id alone, no chat) is played in the "chat" of its two players,
# one per pair wherever they play (`duel_pairs`: bot.storage.inline.pair_chat), so their
# standings, head-to-head and ratings are theirs and no group's; the challenge posted in any
# chat waits in `inline_challenges` until a press settles it, once.
V21_INLINE = """
ALTER TABLE duels ADD COLUMN inline_message_id TEXT;
CREATE UNIQUE INDEX duels_by_inline_message ON duels (inline_message_id)
    WHERE inline_message_id IS NOT NULL;
CREATE TABLE duel_pairs (
    id       $ROW_ID,
    low_id   $INT64 NOT NULL,                      -- the two players' user ids, ordered
    high_id  $INT64 NOT NULL,
    UNIQUE (low_id, high_id)
);
CREATE TABLE inline_challenges (
    inline_message_id  TEXT PRIMARY KEY,
    challenger_id      $INT64  NOT NULL,
    stack              INTEGER NOT NULL CHECK (stack > 0),
    status             TEXT    NOT NULL DEFAULT 'pending' CHECK (status IN
                       ('pending', 'accepted', 'declined', 'cancelled', 'expired')),
    duel_id            $INT64  REFERENCES duels (id),
    created_at         $INT64  NOT NULL
);
CREATE INDEX inline_challenges_unplayed ON inline_challenges (created_at) WHERE duel_id IS NULL;
"""

# (version, script): the baseline is V13.
STEPS: tuple[tuple[int, str], ...] = ((14, V14_HINTS), (15, V15_DUE_JOBS), (16, V16_FLOOD),
                                      (17, V17_INBOX), (18, V18_BOUNDED), (19, V19_STANDINGS),
                                      (20, V20_LEASES), (21, V21_INLINE))
