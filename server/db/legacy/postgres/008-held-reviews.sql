-- No review waits forever (issue #33 item 8): the same columns as SQLite migration 087-held-reviews.sql.
ALTER TABLE stores ADD COLUMN publish_held_after_days bigint DEFAULT 14
  CHECK (publish_held_after_days IS NULL OR publish_held_after_days BETWEEN 1 AND 365);

ALTER TABLE reviews ADD COLUMN rejection_reason text
  CHECK (rejection_reason IS NULL OR rejection_reason IN ('spam', 'off-topic', 'personal-data', 'other'));
ALTER TABLE reviews ADD COLUMN rejection_note text;
ALTER TABLE reviews ADD COLUMN moderation_note text;
