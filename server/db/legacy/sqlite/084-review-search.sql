-- Review search (issue #23 item 2, docs/api.md "Search and filters"): a full-text index over the title and
-- body of every review, for the storefront's `search` parameter. Porter stemming over unicode61 with
-- diacritics removed, so "fits" finds "fit" and "cafe" finds "café".
--
-- External content: the index keeps only tokens, the text stays in `reviews` (read back by highlight()),
-- keyed by the reviews' rowid (no VACUUM runs on this database, so rowids stay put). The triggers below keep
-- it in step with every insert, change of title or body, and delete (store deletion cascades and shopper
-- erasure included). `secure-delete` removes a deleted review's tokens from the index at once instead of
-- leaving them in older segments until a merge: an erased review leaves no word behind.
-- Virtual tables and their shadow tables are not tracked by the content-scope triggers (content-scopes.ts):
-- the index changes only with `reviews`, whose own triggers bump the scopes.
CREATE VIRTUAL TABLE review_search USING fts5 (
  title, body, content = 'reviews', content_rowid = 'rowid', tokenize = 'porter unicode61 remove_diacritics 2'
);
INSERT INTO review_search (review_search, rank) VALUES ('secure-delete', 1);
INSERT INTO review_search (review_search) VALUES ('rebuild');

CREATE TRIGGER review_search_insert AFTER INSERT ON reviews BEGIN
  INSERT INTO review_search (rowid, title, body) VALUES (NEW.rowid, NEW.title, NEW.body);
END;
CREATE TRIGGER review_search_update AFTER UPDATE OF title, body ON reviews
WHEN OLD.title IS NOT NEW.title OR OLD.body IS NOT NEW.body
BEGIN
  INSERT INTO review_search (review_search, rowid, title, body) VALUES ('delete', OLD.rowid, OLD.title, OLD.body);
  INSERT INTO review_search (rowid, title, body) VALUES (NEW.rowid, NEW.title, NEW.body);
END;
CREATE TRIGGER review_search_delete AFTER DELETE ON reviews BEGIN
  INSERT INTO review_search (review_search, rowid, title, body) VALUES ('delete', OLD.rowid, OLD.title, OLD.body);
END;

-- The verified buyers of a store, product or group (the `verified=true` filter): counted and read through
-- these indexes when they are few (reviews.repo.ts `listPublished`).
CREATE INDEX reviews_verified_buyers ON reviews (store_id, product_id) WHERE status = 'published' AND verified_status = 'verified-buyer';
CREATE INDEX reviews_group_verified_buyers ON reviews (store_id, group_id) WHERE status = 'published' AND verified_status = 'verified-buyer' AND group_id IS NOT NULL;
