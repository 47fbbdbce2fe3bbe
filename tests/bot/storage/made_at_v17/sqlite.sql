PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE chats (
    id          INTEGER PRIMARY KEY,               -- Telegram chat id
    type        TEXT    NOT NULL,                  -- private, group, supergroup, channel
    title       TEXT,
    is_forum    INTEGER NOT NULL DEFAULT 0,
    active      INTEGER NOT NULL DEFAULT 1,        -- 0 once the bot was removed
    updated_at  INTEGER NOT NULL
);
INSERT INTO chats VALUES(-1001234567890123,'supergroup','Салун',0,1,1800000000);
INSERT INTO chats VALUES(-100777,'supergroup','Салун',0,1,1800000000);
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
INSERT INTO users VALUES(303,'Carol',NULL,'Carol_C',NULL,0,1800000000);
INSERT INTO users VALUES(404,'Dave',NULL,NULL,NULL,0,1800000000);
INSERT INTO users VALUES(5123456789,'Боб',NULL,NULL,NULL,0,1800000000);
INSERT INTO users VALUES(1099511627777,'Alice',NULL,'alice',NULL,0,1800000000);
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
, header_rounds INTEGER NOT NULL DEFAULT 0, ai_level TEXT, hints INTEGER NOT NULL DEFAULT 0);
INSERT INTO duels VALUES(1,-1001234567890123,NULL,303,404,'{"v":2,"start_stack":6,"first_dealer":1,"log":[["deal","7d5h9c4sTd4h2cQcAh6cKh6d4cJsKdAsTs6sAdKc5c7h8c2d9d9h7c3s9s6hJcQhQsJh5sKs8h8s3d2h5dTcAcJd7s3hTh3c2sQd8d4d","0fe7c41ae8a35ff3dc7add6d117fb195"],["act",0,"b41"],["act",1,"b22"],["act",0,"b11"],["act",1,"b52"],["act",0,"b32"],["deal","Td8dQdQc5c9h7d6d4c2d7h2c3h3s8cAd8hKcAh9cKs2hAsJh5hAc4hTc6c4d6h3dQh4s5s6s7sKhJd9d7c8sThQs9s5dJs2sJc3cKdTs","8debf51a39b986251d91362997aee086"],["act",1,"b11"],["act",0,"b31"],["act",1,"b51"],["act",0,"b21"],["act",1,"b02"]]}',10,'finished',NULL,NULL,1800000002,1800000012,0,NULL,0);
INSERT INTO duels VALUES(2,-1001234567890123,NULL,1099511627777,5123456789,'{"v":2,"start_stack":6,"first_dealer":0,"log":[["deal","Qc7c8s4sAh2cAdKdTdQsJs7d6cTs5d8h4cTh5hAs2h5s8d5cTc7sKh4dJh3hKs9s3s4hJd9d2d7h8c6h9cJcQd6sAc2s3cQhKc9h6d3d","bf1b4ee39454b34b10bbe9fda543dbce"],["act",1,"b52"],["act",0,"b41"],["act",1,"b21"]]}',3,'live',5001,2,1800000014,1800000017,0,NULL,0);
INSERT INTO duels VALUES(3,-100777,NULL,5123456789,303,'{"v":2,"start_stack":6,"first_dealer":0,"log":[["deal","6s3s7hTs8c8sAdQh6d5dAcKd7dKsJh3cKh9cKc4h9h3d5hAs2h3h2d5cQd5sQcAhTdQs8d9d2sTc4c7cJcJs7sTh8h4d2c6h6c4sJd9s","6ec380377b230af4ac8d96260d86c497"]]}',0,'live',NULL,NULL,1800000019,1800000019,0,NULL,0);
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
INSERT INTO challenges VALUES(1,-1001234567890123,NULL,303,404,NULL,6,'accepted',1,NULL,1,1800000001,1800000601);
INSERT INTO challenges VALUES(2,-1001234567890123,NULL,1099511627777,5123456789,NULL,6,'accepted',1,NULL,2,1800000013,1800000613);
INSERT INTO challenges VALUES(3,-100777,NULL,5123456789,303,NULL,6,'accepted',1,NULL,3,1800000018,1800000618);
INSERT INTO challenges VALUES(4,-100777,NULL,404,1099511627777,NULL,6,'pending',0,NULL,NULL,1800000028,1800000628);
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
INSERT INTO results VALUES(1,-1001234567890123,303,404,4,8,6,404,'normal',4114,3789,1,1,6,1800000012);
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
INSERT INTO balances VALUES(-1001234567890123,5123456789,960,4,0,NULL,1,-40,1800000020,1800000023);
INSERT INTO balances VALUES(-1001234567890123,1099511627777,970,1,0,NULL,0,0,1800000024,1800000024);
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
INSERT INTO sixcard_games VALUES(1,-1001234567890123,NULL,5123456789,'{"v":1,"antes":[10],"balance":1000,"log":["deal 5cTs6h9cTc8s3cQc5hQdKsTh8d2s5sJdAdKcQs4s8h4cJh2h7cAcJs8c2c6d7hQh7sJc5d2dTd4hKd6c7d3h4d3d6sKhAs9d9sAh3s9h 0858e6061590ef6bc8ec3447eba62598","b","r3","f"]}',3,'finished',NULL,NULL,1800000020,1800000023,-40);
INSERT INTO sixcard_games VALUES(2,-1001234567890123,NULL,1099511627777,'{"v":1,"antes":[10,20],"balance":1000,"log":["deal 3s9d4c8sTc3cAhTd4d6h6d6s2d4sQsJs8cKd4hTsQh5sQc9sJd2sJc8h2h7c8dAcTh2cKs5d7dAdAsQd3h5h3d7sKh9c7hJhKc5c6c9h 6109fc35a9712529a70fcad3287a5c7d","f"]}',1,'live',NULL,NULL,1800000024,1800000025,NULL);
CREATE TABLE bot_meta (
    key    TEXT PRIMARY KEY,
    value  TEXT NOT NULL
);
CREATE TABLE deals (
    duel_id     INTEGER NOT NULL REFERENCES duels (id),
    round       INTEGER NOT NULL,                  -- 1, 2; 3, 4, ... for tiebreak deals
    commitment  TEXT    NOT NULL,                  -- published before play
    salt        TEXT,                              -- lowercase hex, once the deal is over
    PRIMARY KEY (duel_id, round)
);
INSERT INTO deals VALUES(1,1,'b3bf5bdd4baade70b1bfe91722cf34b46854bf1476851ebeca649ba47244083d','0fe7c41ae8a35ff3dc7add6d117fb195');
INSERT INTO deals VALUES(1,2,'7d6b9427b192214012d5264460516450d2a330230203b82a942c45b6e2a45631','8debf51a39b986251d91362997aee086');
INSERT INTO deals VALUES(2,1,'962c5396a9c79b877edcbcd8d71a17882903ba81c3f6e5622e5d09a339362068',NULL);
INSERT INTO deals VALUES(3,1,'919f958e3efdc12680f164da336a869afaeb6bdb96f7b44abfd1ecee4d3d685d',NULL);
CREATE TABLE duel_messages (
    chat_id     INTEGER NOT NULL,
    message_id  INTEGER NOT NULL,
    duel_id     INTEGER NOT NULL REFERENCES duels (id),
    kind        TEXT    NOT NULL,                  -- header, live, reveal, result
    PRIMARY KEY (chat_id, message_id)
);
CREATE TABLE reviews (
    duel_id      INTEGER PRIMARY KEY REFERENCES duels (id),
    review       TEXT    NOT NULL,
    computed_at  INTEGER NOT NULL
);
CREATE TABLE ratings (
    chat_id  INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    mu       REAL    NOT NULL,                     -- the skill's estimated mean
    sigma    REAL    NOT NULL CHECK (sigma > 0),   -- its uncertainty
    duels    INTEGER NOT NULL CHECK (duels >= 0),  -- results it has been moved by
    PRIMARY KEY (chat_id, user_id)
);
INSERT INTO ratings VALUES(-1001234567890123,303,22.364610506859502691,8.06590141354367951,1);
INSERT INTO ratings VALUES(-1001234567890123,404,27.635389493140497308,8.06590141354367951,1);
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
INSERT INTO tournaments VALUES(1,-100777,NULL,1099511627777,'running',0,6,86400,4,NULL,-1,1800000026,1800000027,NULL);
CREATE TABLE tournament_players (
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (id),
    user_id        INTEGER NOT NULL,
    seat           INTEGER NOT NULL,               -- sign-up order, 0: the opener
    PRIMARY KEY (tournament_id, user_id), UNIQUE (tournament_id, seat)
);
INSERT INTO tournament_players VALUES(1,1099511627777,0);
INSERT INTO tournament_players VALUES(1,303,1);
INSERT INTO tournament_players VALUES(1,404,2);
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
INSERT INTO tournament_matches VALUES(1,0,0,1099511627777,303,1800086427,NULL,NULL,NULL,NULL);
INSERT INTO tournament_matches VALUES(1,1,1,404,1099511627777,1800172827,404,4,NULL,NULL);
INSERT INTO tournament_matches VALUES(1,2,2,303,404,1800259227,NULL,NULL,NULL,NULL);
CREATE TABLE pending_deletes (
    chat_id     INTEGER NOT NULL,
    message_id  INTEGER NOT NULL,
    PRIMARY KEY (chat_id, message_id)
);
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
CREATE TABLE flood_windows (
    key         TEXT    PRIMARY KEY,               -- 'bot', 'chat:-100...'
    calls       TEXT    NOT NULL DEFAULT '',       -- unix times of the calls counted, oldest first
    held_until  DOUBLE PRECISION NOT NULL DEFAULT 0,  -- unix time a 429's hold ends
    touched_at  DOUBLE PRECISION NOT NULL          -- unix time of the last take (pruning)
);
CREATE TABLE inbox (
    update_id    INTEGER PRIMARY KEY,
    body         TEXT    NOT NULL,
    received_at  REAL    NOT NULL,
    owner        TEXT,
    lease_until  REAL,
    done_at      REAL
);
DELETE FROM sqlite_sequence;
INSERT INTO sqlite_sequence VALUES('challenges',4);
INSERT INTO sqlite_sequence VALUES('duels',3);
INSERT INTO sqlite_sequence VALUES('sixcard_games',2);
INSERT INTO sqlite_sequence VALUES('tournaments',1);
CREATE INDEX duels_live_by_chat ON duels (chat_id) WHERE status = 'live';
CREATE INDEX duels_lagging ON duels (id)
    WHERE status <> 'abandoned' AND (shown_version IS NULL OR shown_version <> version);
CREATE INDEX challenges_pending ON challenges (expires_at) WHERE status = 'pending';
CREATE INDEX challenges_by_challenger ON challenges (chat_id, challenger_id, status);
CREATE INDEX results_by_chat ON results (chat_id, finished_at);
CREATE INDEX results_by_player0 ON results (player0_id, finished_at);
CREATE INDEX results_by_player1 ON results (player1_id, finished_at);
CREATE INDEX duels_by_chat ON duels (chat_id, id);
CREATE UNIQUE INDEX sixcard_one_live ON sixcard_games (chat_id, user_id) WHERE status = 'live';
CREATE INDEX sixcard_lagging ON sixcard_games (id)
    WHERE status <> 'abandoned' AND (shown_version IS NULL OR shown_version <> version);
CREATE INDEX sixcard_by_user ON sixcard_games (chat_id, user_id, id);
CREATE UNIQUE INDEX challenges_one_pending ON challenges (chat_id, challenger_id)
    WHERE status = 'pending';
CREATE INDEX deals_by_salt ON deals (salt) WHERE salt IS NOT NULL;
CREATE INDEX duel_messages_by_duel ON duel_messages (duel_id);
CREATE INDEX duels_practice ON duels (chat_id, player0_id) WHERE ai_level IS NOT NULL;
CREATE UNIQUE INDEX tournaments_open_in_chat ON tournaments (chat_id, COALESCE(thread_id, 0))
    WHERE status IN ('signup', 'running');
CREATE UNIQUE INDEX tournament_matches_duel ON tournament_matches (duel_id)
    WHERE duel_id IS NOT NULL;
CREATE INDEX tournament_matches_challenge ON tournament_matches (challenge_id)
    WHERE challenge_id IS NOT NULL;
CREATE INDEX users_username ON users (lower(username));
CREATE INDEX due_jobs_due ON due_jobs (due_at);
CREATE INDEX due_jobs_held ON due_jobs (lease_until) WHERE lease_until IS NOT NULL;
CREATE INDEX inbox_pending ON inbox (lease_until) WHERE done_at IS NULL;
CREATE INDEX inbox_done ON inbox (done_at) WHERE done_at IS NOT NULL;
COMMIT;
PRAGMA user_version = 17;
