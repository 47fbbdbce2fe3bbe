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

# Who holds a role among the processes sharing the database (bot.storage.locks: the poller),
# until when (unix seconds by the database's clock): a lease its holder renews, which another
# takes once it lapses. A row, not a session's advisory lock, so that it holds through a
# transaction pooler (issue 37). SQLite has it too, unused (one process: the file lock).
V19_LEASES = """
CREATE TABLE leases (
    name    TEXT PRIMARY KEY,                      -- the role: 'sixshooter:poller:<bot id>'
    holder  TEXT NOT NULL,                         -- host:pid:random of the holding process
    until   $FLOAT NOT NULL                        -- it lapses then, unless renewed
);
"""

# (version, script): the baseline is V13.
STEPS: tuple[tuple[int, str], ...] = ((14, V14_HINTS), (15, V15_DUE_JOBS), (16, V16_FLOOD),
                                      (17, V17_INBOX), (18, V18_BOUNDED), (19, V19_LEASES))
