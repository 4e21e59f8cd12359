-- Full-text search on PostgreSQL (issue #26 item 2): the equivalents of SQLite's FTS5 tables `review_search`
-- (migration 084) and `survey_responses_fts` (migration 030). FTS shape, for porters:
--
--   review_search (review_id text PRIMARY KEY REFERENCES reviews ON DELETE CASCADE, document tsvector NOT NULL)
--     One row per review, chorus_review_document(title, body), kept by the triggers below on every insert and
--     change of title or body (a deleted review's row goes with it); GIN index on document.
--     Match: `document @@ to_tsquery('chorus_english', ?)` with `tsqueryOf(match)` (server/db/text-search.ts),
--     which turns the FTS5 query of `reviewSearchMatch` into `('don' <-> 't') & 'fit':*` (the words of a phrase
--     `<->`, phrases `&`, a prefix word `:*`).
--     Highlights: ts_headline('chorus_english', chorus_search_text(text), query, 'HighlightAll=true,
--     StartSel="…", StopSel="…"'), put back into the text as typed by `restoreHighlights` (text-search.ts).
--   survey_responses_fts (response_seq bigint PRIMARY KEY REFERENCES survey_responses ON DELETE CASCADE,
--     document tsvector NOT NULL); GIN index on document.
--     Written by the surveys repo with the response: to_tsvector('chorus_simple', chorus_search_text(?)) of its
--     text answers; matched with `document @@ to_tsquery('chorus_simple', ?)` and `tsqueryOf(ftsQuery(text))`.
--   review_search_rebuild() refills review_search from reviews (FTS5's 'rebuild', e.g. after a bulk load).
--
--   Both are search indexes only, like SQLite's virtual tables: the content-scope triggers do not track them
--   (their rows change only with reviews / survey_responses, which are tracked).
--
-- Text search configurations: `chorus_english` = the default parser, `unaccent`, then the Snowball English
-- stemmer WITHOUT a stop-word list (FTS5's porter tokenizer has none: "the" and "don't" are words), so "fits"
-- finds "fit" and "cafe" finds "café"; `chorus_simple` = `unaccent` then lower-casing, no stemming (FTS5
-- unicode61 with remove_diacritics). Both read the text through chorus_search_text (words split as unicode61
-- splits them). Differences from FTS5: Snowball English stems a few words differently from Porter; unaccent
-- folds a few letters FTS5 keeps (ß -> ss, æ -> ae); digits such as ½ or ² separate words; a phrase may run
-- from the end of a title into the start of the body; a phrase's words are highlighted wherever they occur in
-- a matching review, not only where they form the phrase; a deleted review's words stay on disk until VACUUM
-- (never found again: FTS5's secure-delete removes them at once).
CREATE EXTENSION IF NOT EXISTS unaccent;

CREATE TEXT SEARCH DICTIONARY chorus_english_stem (TEMPLATE = snowball, Language = english);
CREATE TEXT SEARCH CONFIGURATION chorus_english (COPY = english);
ALTER TEXT SEARCH CONFIGURATION chorus_english
  ALTER MAPPING FOR asciiword, asciihword, hword_asciipart, word, hword, hword_part WITH unaccent, chorus_english_stem;
ALTER TEXT SEARCH CONFIGURATION chorus_english
  ALTER MAPPING FOR numword, numhword, hword_numpart WITH unaccent, simple;

CREATE TEXT SEARCH CONFIGURATION chorus_simple (COPY = simple);
ALTER TEXT SEARCH CONFIGURATION chorus_simple
  ALTER MAPPING FOR asciiword, asciihword, hword_asciipart, word, hword, hword_part, numword, numhword, hword_numpart WITH unaccent, simple;

-- The text as the search indexes read it: lower-cased and every character that is not a letter, a digit, a
-- combining diacritic or private-use a space (Unicode classes from ICU; ASCII white space kept), one code point
-- for one, so that words split where FTS5's unicode61 splits them: PostgreSQL's parser in the C locale takes
-- any non-ASCII character for a letter ("don’t", "—", "€5" or a no-break space would join words), and keeps
-- e-mail addresses, URLs and HTML tags whole. ts_headline() over this text gives the positions of the matched
-- words in the original, code point for code point (server/db/text-search.ts `restoreHighlights`).
CREATE FUNCTION chorus_search_text(value text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT lower(regexp_replace(value COLLATE "und-x-icu", '[^[:alnum:] \t\n\r\f\v\u0300-\u036F\uE000-\uF8FF]', ' ', 'g'))
$$;

CREATE TABLE review_search (
  review_id text PRIMARY KEY REFERENCES reviews(review_id) ON DELETE CASCADE,
  document  tsvector NOT NULL
);
CREATE INDEX review_search_document ON review_search USING gin (document);

-- The search document of a review's title and body.
CREATE FUNCTION chorus_review_document(title text, body text) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT to_tsvector('chorus_english'::regconfig, chorus_search_text(title)) || to_tsvector('chorus_english'::regconfig, chorus_search_text(body))
$$;

CREATE FUNCTION review_search_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO review_search (review_id, document) VALUES (NEW.review_id, chorus_review_document(NEW.title, NEW.body))
  ON CONFLICT (review_id) DO UPDATE SET document = excluded.document;
  RETURN NULL;
END
$$;
CREATE TRIGGER review_search_insert AFTER INSERT ON reviews FOR EACH ROW EXECUTE FUNCTION review_search_sync();
CREATE TRIGGER review_search_update AFTER UPDATE OF title, body ON reviews FOR EACH ROW
  WHEN (OLD.title IS DISTINCT FROM NEW.title OR OLD.body IS DISTINCT FROM NEW.body) EXECUTE FUNCTION review_search_sync();

-- Rebuild the whole review index (after a bulk load that dropped the triggers, like FTS5's 'rebuild').
CREATE FUNCTION review_search_rebuild() RETURNS void LANGUAGE sql AS $$
  DELETE FROM review_search;
  INSERT INTO review_search (review_id, document) SELECT review_id, chorus_review_document(title, body) FROM reviews;
$$;
SELECT review_search_rebuild();

CREATE TABLE survey_responses_fts (
  response_seq bigint PRIMARY KEY REFERENCES survey_responses(response_seq) ON DELETE CASCADE,
  document     tsvector NOT NULL
);
CREATE INDEX survey_responses_fts_document ON survey_responses_fts USING gin (document);
