-- Queues worked by several nodes (issue #26 item 3; owner PORT-C2). SQLite has the same columns from its
-- migration 086 (ai_jobs).
--
-- AI generation jobs are claimed with a lease, like mail (mail_outbox) and webhook deliveries: a job is worked
-- on by one worker loop, which renews its claim while it runs; a job whose lease ran out (its node died) is
-- queued again by another node's loop. See server/ai/worker.ts.
ALTER TABLE ai_jobs ADD COLUMN lease_until_ms bigint; -- while 'running': the claim holds until then (epoch ms)
ALTER TABLE ai_jobs ADD COLUMN claimed_by text;       -- while 'running': the worker loop holding it

-- The insertion order of AI content versions (SQLite's rowid): the newest of one scope generated in the same
-- millisecond is the one inserted last (ai.repo.ts orders by generated_ms DESC, version_seq DESC).
ALTER TABLE ai_content_versions ADD COLUMN version_seq bigint GENERATED ALWAYS AS IDENTITY;
