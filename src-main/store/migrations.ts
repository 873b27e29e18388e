/**
 * Numbered schema migrations. Entry i brings the database to `PRAGMA user_version` = i + 1.
 * Never edit a shipped step: append a new one, because user databases already ran the old ones.
 */
export const MIGRATIONS: readonly string[] = [
  // v1: initial schema
  `
  CREATE TABLE chat_sessions (
    id TEXT PRIMARY KEY,
    agent TEXT NOT NULL,
    title TEXT NOT NULL DEFAULT '',
    workspace_root TEXT NOT NULL,
    model_json TEXT,
    parent_id TEXT REFERENCES chat_sessions(id) ON DELETE CASCADE,
    parent_message_id TEXT,
    status TEXT NOT NULL DEFAULT 'idle',
    permissions_json TEXT NOT NULL DEFAULT '[]',
    metadata_json TEXT NOT NULL DEFAULT '{}',
    prompt_tokens INTEGER NOT NULL DEFAULT 0,
    completion_tokens INTEGER NOT NULL DEFAULT 0,
    reasoning_tokens INTEGER NOT NULL DEFAULT 0,
    cache_read_tokens INTEGER NOT NULL DEFAULT 0,
    cache_write_tokens INTEGER NOT NULL DEFAULT 0,
    total_tokens INTEGER NOT NULL DEFAULT 0,
    cost_usd REAL NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    archived_at INTEGER
  );
  CREATE INDEX chat_sessions_agent_updated ON chat_sessions(agent, updated_at);
  CREATE INDEX chat_sessions_workspace_updated ON chat_sessions(workspace_root, updated_at);
  CREATE INDEX chat_sessions_parent ON chat_sessions(parent_id);
  CREATE INDEX chat_sessions_archived ON chat_sessions(archived_at);

  CREATE TABLE chat_messages (
    id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES chat_sessions(id) ON DELETE CASCADE,
    role TEXT NOT NULL,
    metadata_json TEXT NOT NULL DEFAULT '{}',
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX chat_messages_session ON chat_messages(session_id, id);

  CREATE TABLE chat_parts (
    id TEXT PRIMARY KEY,
    message_id TEXT NOT NULL REFERENCES chat_messages(id) ON DELETE CASCADE,
    session_id TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    type TEXT NOT NULL,
    data_json TEXT NOT NULL DEFAULT '{}',
    tool_call_id TEXT,
    tool_state TEXT
  );
  CREATE INDEX chat_parts_session ON chat_parts(session_id);
  CREATE INDEX chat_parts_message_index ON chat_parts(message_id, "index");
  -- Also covers 'approval-requested' so the restart sweep (listOpenToolParts) never scans all parts.
  CREATE INDEX chat_parts_open_tools ON chat_parts(tool_state)
    WHERE tool_state IN ('input-streaming', 'input-available', 'approval-requested');

  -- No FK on session_id: opaque children have no session row.
  CREATE TABLE approvals (
    id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL,
    root_session_id TEXT NOT NULL,
    message_id TEXT,
    tool_call_id TEXT NOT NULL,
    tool_name TEXT NOT NULL,
    kind TEXT NOT NULL,
    agent_path_json TEXT NOT NULL DEFAULT '[]',
    arguments_json TEXT NOT NULL DEFAULT 'null',
    patterns_json TEXT NOT NULL DEFAULT '[]',
    always_patterns_json TEXT NOT NULL DEFAULT '[]',
    status TEXT NOT NULL DEFAULT 'pending',
    answer_json TEXT,
    created_at INTEGER NOT NULL,
    resolved_at INTEGER
  );
  CREATE INDEX approvals_root_status ON approvals(root_session_id, status);

  CREATE TABLE permission_rules (
    id TEXT PRIMARY KEY,
    scope TEXT NOT NULL,
    scope_key TEXT NOT NULL,
    tool TEXT NOT NULL,
    pattern TEXT NOT NULL,
    action TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX permission_rules_scope ON permission_rules(scope, scope_key);

  CREATE TABLE background_jobs (
    id TEXT PRIMARY KEY,
    parent_session_id TEXT NOT NULL,
    root_session_id TEXT NOT NULL,
    parent_message_id TEXT,
    tool_call_id TEXT NOT NULL,
    agent_type TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL DEFAULT 'running',
    created_at INTEGER NOT NULL,
    ended_at INTEGER
  );
  CREATE INDEX background_jobs_status ON background_jobs(status);

  CREATE TABLE prompt_queue (
    id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL,
    request_id TEXT UNIQUE,
    text TEXT NOT NULL,
    agent TEXT,
    status TEXT NOT NULL DEFAULT 'queued',
    created_at INTEGER NOT NULL
  );
  CREATE INDEX prompt_queue_session_status ON prompt_queue(session_id, status);

  CREATE TABLE event_log (
    stream_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    event_json TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (stream_id, seq)
  ) WITHOUT ROWID;
  `,
  // v2: totals that include subagents, retries in the queue, full-text search over message text
  `
  -- Usage of every descendant (inspectable or opaque), kept apart from the session's own so neither is counted twice.
  ALTER TABLE chat_sessions ADD COLUMN sub_prompt_tokens INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE chat_sessions ADD COLUMN sub_completion_tokens INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE chat_sessions ADD COLUMN sub_reasoning_tokens INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE chat_sessions ADD COLUMN sub_cache_read_tokens INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE chat_sessions ADD COLUMN sub_cache_write_tokens INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE chat_sessions ADD COLUMN sub_total_tokens INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE chat_sessions ADD COLUMN sub_cost_usd REAL NOT NULL DEFAULT 0;
  -- Tokens (own and subagents') spent on models without a known price: the cost is then a lower bound.
  ALTER TABLE chat_sessions ADD COLUMN unpriced_tokens INTEGER NOT NULL DEFAULT 0;

  -- 'prompt' adds the text as a new user message; 'retry' runs the last user message again.
  ALTER TABLE prompt_queue ADD COLUMN kind TEXT NOT NULL DEFAULT 'prompt';

  -- Full-text search over text parts. Streaming rewrites a growing part many times a second, so a write only marks
  -- the part (a trigger, one tiny row per part per flush); the indexer copies marked parts into the index when the
  -- host is idle and before every search, so a search always sees every part written.
  CREATE VIRTUAL TABLE message_search USING fts5(
    text, session_id UNINDEXED, message_id UNINDEXED, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3 4'
  );
  -- The index's rowid per part (an INTEGER PRIMARY KEY survives VACUUM; chat_parts' implicit rowid may not).
  CREATE TABLE message_search_rows (docid INTEGER PRIMARY KEY, part_id TEXT NOT NULL UNIQUE);
  CREATE TABLE message_search_pending (part_id TEXT PRIMARY KEY) WITHOUT ROWID;
  -- NOT EXISTS rather than OR IGNORE: inside a trigger fired by an upsert, the upsert's conflict handling wins.
  CREATE TRIGGER chat_parts_search_insert AFTER INSERT ON chat_parts WHEN new.type = 'text'
  BEGIN
    INSERT INTO message_search_pending (part_id) SELECT new.id
    WHERE NOT EXISTS (SELECT 1 FROM message_search_pending WHERE part_id = new.id);
  END;
  CREATE TRIGGER chat_parts_search_update AFTER UPDATE OF data_json ON chat_parts WHEN new.type = 'text'
  BEGIN
    INSERT INTO message_search_pending (part_id) SELECT new.id
    WHERE NOT EXISTS (SELECT 1 FROM message_search_pending WHERE part_id = new.id);
  END;
  CREATE TRIGGER chat_parts_search_delete AFTER DELETE ON chat_parts
  BEGIN
    DELETE FROM message_search WHERE rowid = (SELECT docid FROM message_search_rows WHERE part_id = old.id);
    DELETE FROM message_search_rows WHERE part_id = old.id;
    DELETE FROM message_search_pending WHERE part_id = old.id;
  END;
  INSERT INTO message_search_pending (part_id) SELECT id FROM chat_parts WHERE type = 'text';
  `,
  // v3: checkpoints of the workspace around each turn (undo, redo, the review of a run's changes)
  `
  CREATE TABLE turn_checkpoints (
    id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES chat_sessions(id) ON DELETE CASCADE,
    -- the person's message the turn worked on
    message_id TEXT,
    workspace_root TEXT NOT NULL,
    -- snapshot ids in the workspace's shadow store (kept there under refs/checkpoints/<session>/<id>/…)
    before_tree TEXT,
    -- null while the turn runs, or when the host died in it (filled in on the next start)
    after_tree TEXT,
    -- who wrote which file during the turn: [{ agentPath, sessionPath, files, shell }]
    writes_json TEXT NOT NULL DEFAULT '[]',
    state TEXT NOT NULL DEFAULT 'running',
    -- why the turn has no snapshot (git missing, the store unreadable): shown instead of its changes
    error TEXT,
    created_at INTEGER NOT NULL,
    ended_at INTEGER
  );
  CREATE INDEX turn_checkpoints_session ON turn_checkpoints(session_id, id);
  CREATE INDEX turn_checkpoints_running ON turn_checkpoints(state) WHERE state = 'running';
  `,
  // v4: what each workspace spent per day (the daily budget of budgets.dailyCostUsd), added to per model step
  `
  CREATE TABLE daily_spend (
    workspace_root TEXT NOT NULL,
    -- the host's local calendar date, YYYY-MM-DD
    day TEXT NOT NULL,
    tokens REAL NOT NULL DEFAULT 0,
    cost_usd REAL NOT NULL DEFAULT 0,
    PRIMARY KEY (workspace_root, day)
  );
  `,
  // v5: files sent with a prompt (pasted or dropped images, text files), kept with it until its turn starts
  `
  ALTER TABLE prompt_queue ADD COLUMN attachments_json TEXT;
  `,
]

export const SCHEMA_VERSION = MIGRATIONS.length
