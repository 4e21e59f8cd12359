-- Storefront write limits shared by every node (issue #26 item 3): review and question submissions per client
-- address and per e-mail, survey responses per client address (server/reviews/submission-limits.ts
-- `sharedWindowCounter`). One row per limiter key with the times of its counted hits in the sliding window;
-- each hit is counted or refused by one atomic INSERT ... ON CONFLICT DO UPDATE on the row.
-- PostgreSQL only: on SQLite (one process) the windows live in memory. Helpful-vote limits need no table:
-- votes.repo.ts counts review_votes / qa_votes rows inside the vote's transaction.
CREATE TABLE rate_limit_hits (
  limit_key  text PRIMARY KEY,     -- '<limiter>:<key>', e.g. 'submissions:ip:203.0.113.7', 'survey-responses:2001:db8:1:2::/64'
  hits_ms    bigint[] NOT NULL,    -- epoch ms of the counted hits still in the window (at most the limit's max), oldest first
  counted    bigint NOT NULL,      -- 1 when the key's last hit was counted, 0 when it was refused
  expires_ms bigint NOT NULL       -- when the newest hit leaves its window: the row may be deleted after
);
CREATE INDEX rate_limit_hits_expires ON rate_limit_hits (expires_ms);
