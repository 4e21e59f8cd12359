-- Sample data (issue 21 item 5): a survey whose responses were generated (the demo's post-purchase attribution
-- survey: no public dataset of such answers exists) is marked, and the admin says so beside every view of it,
-- so generated answers are never presented as real shoppers' words.
ALTER TABLE surveys ADD COLUMN sample_data INTEGER NOT NULL DEFAULT 0 CHECK (sample_data IN (0, 1));
-- The demo store's attribution survey of earlier starts holds generated responses.
UPDATE surveys SET sample_data = 1 WHERE survey_id = '8e7d6c5b-4a39-4281-b7a6-9f8e7d6c5b4a';
