-- Shopper erasure leaves no words in the survey answers' full-text index (docs/privacy.md "What stays on disk").
-- FTS5 keeps a deleted row's tokens in older index segments until a merge; with `secure-delete` a delete removes
-- them at once (as `review_search` does since migration 084). `optimize` merges the segments, dropping the
-- tokens of responses deleted before this migration.
INSERT INTO survey_responses_fts (survey_responses_fts, rank) VALUES ('secure-delete', 1);
INSERT INTO survey_responses_fts (survey_responses_fts) VALUES ('optimize');
