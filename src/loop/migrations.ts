// The loop database's schema, one entry per version (PRAGMA user_version counts how many ran). Never edit
// a shipped entry; add the next one.
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE tasks (
    id TEXT PRIMARY KEY,
    title TEXT NOT NULL,
    description TEXT,
    status TEXT NOT NULL DEFAULT 'pending'
      CHECK (status IN ('pending', 'in_progress', 'blocked', 'completed', 'cancelled')),
    blocked_reason TEXT,
    notes TEXT,
    assigned_agent TEXT,
    metadata TEXT NOT NULL DEFAULT '{}',
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );

  -- A loop's live state: the one row every transition reads and writes under the write lock.
  CREATE TABLE loops (
    id TEXT PRIMARY KEY,
    task_id TEXT NOT NULL REFERENCES tasks(id),
    status TEXT NOT NULL CHECK (status IN ('active', 'completed', 'blocked', 'escalated', 'cancelled')),
    config TEXT NOT NULL,
    iteration INTEGER NOT NULL DEFAULT 1,
    consecutive_failures INTEGER NOT NULL DEFAULT 0,
    stop_blocks INTEGER NOT NULL DEFAULT 0,
    session_id TEXT,
    agent_id TEXT,
    agent_type TEXT,
    end_reason TEXT,
    started_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    ended_at TEXT
  );
  CREATE UNIQUE INDEX one_live_loop_per_task ON loops(task_id) WHERE status = 'active';
  CREATE INDEX loops_by_session ON loops(session_id, status);

  -- A checkpoint carries the iteration fields of the moment it was taken.
  CREATE TABLE checkpoints (
    id TEXT PRIMARY KEY,
    task_id TEXT NOT NULL REFERENCES tasks(id),
    loop_id TEXT REFERENCES loops(id),
    sequence INTEGER NOT NULL,
    trigger TEXT NOT NULL,
    -- 'loop' for the loop's own checkpoints (start, each iteration, the end); 'agent' for checkpoint_create.
    origin TEXT NOT NULL DEFAULT 'agent' CHECK (origin IN ('loop', 'agent')),
    task_status TEXT NOT NULL,
    task_notes TEXT,
    task_metadata TEXT,
    blocked_reason TEXT,
    assigned_agent TEXT,
    execution_phase TEXT,
    execution_step TEXT,
    agent_context TEXT,
    draft_content TEXT,
    draft_type TEXT,
    subtask_states TEXT,
    created_at TEXT NOT NULL,
    expires_at TEXT,
    iteration_config TEXT,
    iteration_number INTEGER NOT NULL DEFAULT 0,
    completion_promises TEXT NOT NULL DEFAULT '[]',
    validation_state TEXT,
    UNIQUE (task_id, sequence)
  );
  CREATE INDEX idx_checkpoints_iteration ON checkpoints(task_id, iteration_number DESC);

  -- The iteration history, one row per iteration of a loop.
  CREATE TABLE iterations (
    loop_id TEXT NOT NULL REFERENCES loops(id),
    iteration INTEGER NOT NULL,
    checkpoint_id TEXT,
    started_at TEXT NOT NULL,
    validated_at TEXT,
    validated_by TEXT,
    passed INTEGER,
    score REAL,
    signal TEXT,
    report TEXT,
    promise TEXT,
    notes TEXT,
    PRIMARY KEY (loop_id, iteration)
  );

  CREATE TABLE work_products (
    id TEXT PRIMARY KEY,
    task_id TEXT NOT NULL REFERENCES tasks(id),
    type TEXT NOT NULL,
    title TEXT NOT NULL,
    content TEXT NOT NULL,
    created_at TEXT NOT NULL
  );

  CREATE TABLE activity (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    at TEXT NOT NULL,
    task_id TEXT,
    loop_id TEXT,
    kind TEXT NOT NULL,
    detail TEXT
  );
  CREATE INDEX activity_by_task ON activity(task_id, seq);
  `,
  // Who set a loop's rules ('agent' or 'person'), and who let its command rules run where no OS sandbox
  // can hold them. A loop from before this was recorded counts as the agent's: the careful side.
  `
  ALTER TABLE loops ADD COLUMN rules_set_by TEXT;
  ALTER TABLE loops ADD COLUMN rules_approved_by TEXT;
  ALTER TABLE loops ADD COLUMN rules_approved_at TEXT;
  `,
];
