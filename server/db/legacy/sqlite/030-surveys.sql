-- Surveys (docs/surveys.md, Survey response fields): survey definitions, their channel surveys and questions, and
-- survey responses. Times are integer ms (UTC). Every table carries store_id so each query names the store.

CREATE TABLE surveys (
  survey_id  TEXT PRIMARY KEY,                 -- uuid
  store_id   TEXT NOT NULL REFERENCES stores(store_id) ON DELETE CASCADE,
  name       TEXT NOT NULL,
  created_ms INTEGER NOT NULL
);
CREATE INDEX surveys_store_keyset ON surveys (store_id, created_ms, survey_id);

CREATE TABLE survey_questions (
  question_id               TEXT PRIMARY KEY,  -- uuid: the answered question's `id`
  survey_id                 TEXT NOT NULL REFERENCES surveys(survey_id) ON DELETE CASCADE,
  store_id                  TEXT NOT NULL,
  position                  INTEGER NOT NULL,
  text                      TEXT NOT NULL,
  type                      TEXT NOT NULL CHECK (type IN ('text', 'single-select', 'multi-select', 'five-point', 'star', 'nps', 'profile', 'email')),
  options_json              TEXT,              -- JSON array of choices (select and single/multi-value profile questions)
  allow_custom_answer       INTEGER NOT NULL DEFAULT 0,
  custom_answer_option_text TEXT,
  profile_question_id       TEXT,
  profile_answer_type       TEXT CHECK (profile_answer_type IN ('date-components', 'location', 'multi-value', 'single-value')),
  CHECK ((type = 'profile') = (profile_answer_type IS NOT NULL AND profile_question_id IS NOT NULL))
);
CREATE INDEX survey_questions_survey ON survey_questions (survey_id, position);

CREATE TABLE channel_surveys (
  channel_survey_id  TEXT PRIMARY KEY,         -- uuid
  survey_id          TEXT NOT NULL REFERENCES surveys(survey_id) ON DELETE CASCADE,
  store_id           TEXT NOT NULL,
  channel            TEXT NOT NULL CHECK (channel IN ('on-site', 'post-checkout', 'post-review', 'shareable-link')),
  description        TEXT,
  reward_type        TEXT CHECK (reward_type IN ('coupon')),
  reward_description TEXT,
  reward_value       TEXT,
  CHECK ((reward_type IS NULL) = (reward_description IS NULL) AND (reward_type IS NULL) = (reward_value IS NULL))
);
CREATE INDEX channel_surveys_survey ON channel_surveys (survey_id);

CREATE TABLE survey_responses (
  response_seq           INTEGER PRIMARY KEY,  -- stable rowid: the full-text index row of this response
  survey_response_id     TEXT NOT NULL UNIQUE, -- uuid
  store_id               TEXT NOT NULL REFERENCES stores(store_id) ON DELETE CASCADE,
  survey_id              TEXT NOT NULL REFERENCES surveys(survey_id) ON DELETE CASCADE,
  channel_survey_id      TEXT NOT NULL REFERENCES channel_surveys(channel_survey_id) ON DELETE CASCADE,
  answered_questions_json TEXT NOT NULL,       -- JSON array, exactly the answered questions as validated
  customer_id            TEXT,
  customer_email         TEXT,
  email_marketing_opt_in INTEGER,              -- NULL = not stated
  is_archived            INTEGER NOT NULL DEFAULT 0,
  remote_order_id        TEXT,
  reward_type            TEXT,                 -- the reward given with this response (copied at submission)
  reward_description     TEXT,
  reward_value           TEXT,
  nps_score              INTEGER,              -- copies of the NPS answer, for admin filters
  nps_category           TEXT CHECK (nps_category IN ('promoter', 'passive', 'detractor')),
  created_ms             INTEGER NOT NULL,
  idempotency_key        TEXT,                 -- storefront Idempotency-Key header
  request_hash           TEXT                  -- sha256 of the submission, to spot a key reused for another body
);
-- Keyset paging of the enterprise listing (both orders scan this index): never OFFSET.
CREATE INDEX survey_responses_keyset ON survey_responses (store_id, survey_id, created_ms, survey_response_id);
CREATE INDEX survey_responses_store_date ON survey_responses (store_id, created_ms, survey_response_id);
CREATE UNIQUE INDEX survey_responses_idempotency ON survey_responses (store_id, channel_survey_id, idempotency_key) WHERE idempotency_key IS NOT NULL;

-- Full-text search over the text answers (and custom answers) of each response, for the admin.
-- Its rowid is survey_responses.response_seq.
CREATE VIRTUAL TABLE survey_responses_fts USING fts5 (body, tokenize = 'unicode61 remove_diacritics 2');
CREATE TRIGGER survey_responses_fts_delete AFTER DELETE ON survey_responses BEGIN
  DELETE FROM survey_responses_fts WHERE rowid = old.response_seq;
END;
