-- AI generation jobs are claimed with a lease, like mail (mail_outbox) and webhook deliveries (issue #26 item 3):
-- a job is worked on by one worker loop, which renews its claim while it runs; a job whose lease ran out (its
-- loop or node died) is queued again by another loop. See server/ai/worker.ts.
ALTER TABLE ai_jobs ADD COLUMN lease_until_ms INTEGER; -- while 'running': the claim holds until then (epoch ms)
ALTER TABLE ai_jobs ADD COLUMN claimed_by TEXT;        -- while 'running': the worker loop holding it
