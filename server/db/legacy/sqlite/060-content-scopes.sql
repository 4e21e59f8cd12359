-- Content scopes for the response cache (decision 0007, server/db/content-scopes.ts): the sequence number
-- of the last committed change of each scope ("product:<store>:<product>", "store:<store>", "*", ...).
-- Kept by triggers that server/db/content-scopes.ts installs on every table at start-up (they depend on
-- the list of tables, so they are generated, not written here).

-- One row: the last sequence number handed out. Every row a trigger touches takes the next one.
CREATE TABLE content_seq (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  n  INTEGER NOT NULL
);
INSERT INTO content_seq (id, n) VALUES (1, 0);

CREATE TABLE content_scope_versions (
  scope   TEXT PRIMARY KEY,
  version INTEGER NOT NULL            -- content_seq.n when the scope last changed
) WITHOUT ROWID;
CREATE INDEX content_scope_versions_version ON content_scope_versions (version);
