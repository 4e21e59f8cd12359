-- No review waits forever (issue #33 item 8; docs/admin.md "Held reviews"): a review still pending
-- `publish_held_after_days` days after it was written is published by the held-review job
-- (server/admin/held-reviews.ts), unless the store turned this off explicitly (NULL). Default 14 days: a
-- store that holds low ratings and never moderates would otherwise show only good reviews, which the FTC
-- rule on review suppression (16 CFR 465.7) forbids.
ALTER TABLE stores ADD COLUMN publish_held_after_days INTEGER DEFAULT 14
  CHECK (publish_held_after_days IS NULL OR publish_held_after_days BETWEEN 1 AND 365);

-- Why a review was rejected (kept with the review, exported, shown in the admin); NULL unless rejected.
ALTER TABLE reviews ADD COLUMN rejection_reason TEXT
  CHECK (rejection_reason IS NULL OR rejection_reason IN ('spam', 'off-topic', 'personal-data', 'other'));
ALTER TABLE reviews ADD COLUMN rejection_note TEXT;    -- the merchant's words with reason 'other' (optional)
-- How the last moderation decision was taken when no person took it, e.g. 'Published automatically after 14 days'.
ALTER TABLE reviews ADD COLUMN moderation_note TEXT;
