-- AI reviews summary and keyword topics (docs/ai.md, Answers; docs/ai.md, Availability and publish flow)
-- and review translation (docs/ai.md, Translation). Times are integer ms since the epoch (UTC).

-- One row per analysed review: which engine version analysed it and when (re-analysed when either changes).
CREATE TABLE ai_review_analysis (
  review_id      TEXT PRIMARY KEY REFERENCES reviews(review_id) ON DELETE CASCADE,
  store_id       TEXT NOT NULL,
  engine_version TEXT NOT NULL,
  analysed_ms    INTEGER NOT NULL
);

-- Keyword identifications: keyword K was identified in review R (one row per pair), so a keyword's
-- `occurrences` is an exact, verifiable count and list reviews can filter by keyword.
-- polarity: 1 praise, -1 complaint, 0 neutral (sentence sentiment, then rating).
CREATE TABLE ai_review_keywords (
  store_id  TEXT NOT NULL,
  keyword   TEXT NOT NULL,
  review_id TEXT NOT NULL REFERENCES reviews(review_id) ON DELETE CASCADE,
  topic     TEXT NOT NULL,
  polarity  INTEGER NOT NULL DEFAULT 0 CHECK (polarity IN (-1, 0, 1)),
  PRIMARY KEY (store_id, keyword, review_id)
) WITHOUT ROWID;
CREATE INDEX ai_review_keywords_review ON ai_review_keywords (review_id);

-- Every generation is a version (dateGenerated); published_ms is set on approval or at once with auto-publish.
-- scope_type product|group; keywords_json is the reviewsKeywords.keywordTopics array; claims_json keeps
-- every claim of the summary with its supporting review IDs.
CREATE TABLE ai_content_versions (
  version_id   TEXT PRIMARY KEY,
  store_id     TEXT NOT NULL REFERENCES stores(store_id) ON DELETE CASCADE,
  scope_type   TEXT NOT NULL CHECK (scope_type IN ('product', 'group')),
  scope_id     TEXT NOT NULL,
  engine       TEXT NOT NULL,
  summary_body TEXT,
  claims_json  TEXT NOT NULL DEFAULT '[]',
  keywords_json TEXT,
  contributing_review_count INTEGER NOT NULL,
  generated_ms INTEGER NOT NULL,
  published_ms INTEGER
);
CREATE INDEX ai_content_versions_scope ON ai_content_versions (store_id, scope_type, scope_id, generated_ms);
CREATE INDEX ai_content_versions_published ON ai_content_versions (store_id, scope_type, scope_id, published_ms) WHERE published_ms IS NOT NULL;

-- Published review count at the last generation of a scope: the regeneration trigger compares against it.
CREATE TABLE ai_scope_state (
  store_id   TEXT NOT NULL,
  scope_type TEXT NOT NULL,
  scope_id   TEXT NOT NULL,
  last_review_count  INTEGER NOT NULL,
  last_generated_ms  INTEGER NOT NULL,
  PRIMARY KEY (store_id, scope_type, scope_id)
) WITHOUT ROWID;

-- The persisted generation queue (survives restarts; a job left 'running' by a crash is re-queued on start).
CREATE TABLE ai_jobs (
  job_id      INTEGER PRIMARY KEY AUTOINCREMENT,
  store_id    TEXT NOT NULL REFERENCES stores(store_id) ON DELETE CASCADE,
  scope_type  TEXT NOT NULL CHECK (scope_type IN ('product', 'group')),
  scope_id    TEXT NOT NULL,
  reason      TEXT NOT NULL,
  status      TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done', 'failed')),
  attempts    INTEGER NOT NULL DEFAULT 0,
  run_after_ms INTEGER NOT NULL,
  created_ms  INTEGER NOT NULL,
  finished_ms INTEGER,
  error       TEXT
);
CREATE UNIQUE INDEX ai_jobs_one_queued ON ai_jobs (store_id, scope_type, scope_id) WHERE status = 'queued';
CREATE INDEX ai_jobs_next ON ai_jobs (status, run_after_ms, job_id);

-- Translations of a review's title and body per internal locale key (e.g. 'de-formal', 'pt-pt').
CREATE TABLE review_translations (
  review_id  TEXT NOT NULL REFERENCES reviews(review_id) ON DELETE CASCADE,
  store_id   TEXT NOT NULL,
  locale_key TEXT NOT NULL,
  title      TEXT NOT NULL,
  body       TEXT NOT NULL,
  provider   TEXT NOT NULL,
  created_ms INTEGER NOT NULL,
  PRIMARY KEY (review_id, locale_key)
) WITHOUT ROWID;
