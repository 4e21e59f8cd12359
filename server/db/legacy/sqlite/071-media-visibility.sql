-- Review media visibility follows its review (issue 19, finding 4; docs/writes.md "Media visibility").
--
-- A media row's status is its review's status: pending with a pending review, published with a
-- published one, rejected with a rejected one. The trigger below keeps it so for every way a
-- review's status changes (admin moderation, reviewsData.setStatus, CLIs), inside the same statement
-- and therefore the same transaction. `item_rejected` marks one item the merchant rejected on its own:
-- it stays rejected whatever its review does. `rejected_ms` is when the item stopped being public by a
-- rejection: the retention sweep (server/media/media-retention.ts) deletes rows and files rejected for
-- longer than the grace period.

ALTER TABLE review_media ADD COLUMN item_rejected INTEGER NOT NULL DEFAULT 0 CHECK (item_rejected IN (0, 1));
ALTER TABLE review_media ADD COLUMN rejected_ms INTEGER;

-- Existing rows were stored 'published' whatever their review's status: align them now.
UPDATE review_media SET status = (SELECT r.status FROM reviews r WHERE r.review_id = review_media.review_id)
WHERE status <> (SELECT r.status FROM reviews r WHERE r.review_id = review_media.review_id);
UPDATE review_media SET rejected_ms = (SELECT coalesce(r.updated_ms, r.created_ms) FROM reviews r WHERE r.review_id = review_media.review_id)
WHERE status = 'rejected' AND rejected_ms IS NULL;

CREATE TRIGGER review_media_follow_review AFTER UPDATE OF status ON reviews WHEN OLD.status IS NOT NEW.status
BEGIN
  UPDATE review_media
  SET status = CASE WHEN item_rejected = 1 THEN 'rejected' ELSE NEW.status END,
      rejected_ms = CASE
        WHEN item_rejected = 1 THEN rejected_ms
        WHEN NEW.status <> 'rejected' THEN NULL
        -- the rejection's time: the review's new updated_ms when the writer set one, else the clock
        WHEN NEW.updated_ms IS NOT OLD.updated_ms AND NEW.updated_ms IS NOT NULL THEN NEW.updated_ms
        ELSE CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)
      END
  WHERE store_id = NEW.store_id AND review_id = NEW.review_id;
END;

CREATE INDEX review_media_rejected ON review_media (rejected_ms) WHERE status = 'rejected';
