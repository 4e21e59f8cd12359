-- Widget settings per store (issue #21 item 4, server/widget-settings): colours and which widgets show
-- (one row per store; no row = the defaults), and the merchant's texts per language over the English
-- defaults of server/contract/widget-strings.ts (one row per changed text).
CREATE TABLE widget_settings (
  store_id        TEXT PRIMARY KEY REFERENCES stores(store_id) ON DELETE CASCADE,
  accent_color    TEXT CHECK (accent_color IS NULL OR accent_color GLOB '#[0-9a-f][0-9a-f][0-9a-f]*'),
  star_color      TEXT CHECK (star_color IS NULL OR star_color GLOB '#[0-9a-f][0-9a-f][0-9a-f]*'),
  show_reviews    INTEGER NOT NULL DEFAULT 1 CHECK (show_reviews IN (0, 1)),
  show_star_rating INTEGER NOT NULL DEFAULT 1 CHECK (show_star_rating IN (0, 1)),
  show_media      INTEGER NOT NULL DEFAULT 1 CHECK (show_media IN (0, 1)),
  show_questions  INTEGER NOT NULL DEFAULT 1 CHECK (show_questions IN (0, 1)),
  show_summary    INTEGER NOT NULL DEFAULT 1 CHECK (show_summary IN (0, 1)),
  show_keywords   INTEGER NOT NULL DEFAULT 1 CHECK (show_keywords IN (0, 1)),
  show_loyalty    INTEGER NOT NULL DEFAULT 1 CHECK (show_loyalty IN (0, 1)),
  updated_ms      INTEGER NOT NULL
);

CREATE TABLE widget_texts (
  store_id   TEXT NOT NULL REFERENCES stores(store_id) ON DELETE CASCADE,
  locale     TEXT NOT NULL,            -- lower-case language tag: en, de, pt-br
  text_id    TEXT NOT NULL,            -- e.g. reviews.writeReview
  value      TEXT NOT NULL,
  updated_ms INTEGER NOT NULL,
  PRIMARY KEY (store_id, locale, text_id)
) WITHOUT ROWID;
