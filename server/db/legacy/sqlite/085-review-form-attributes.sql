-- Product attributes the review form asks (issue #23 item 2, server/widget-settings): per store, a JSON
-- array of at most 6 attributes, each a scale (`{ kind: "scale", title, minLabel, midLabel, maxLabel,
-- required }`, answered 1 to 5) or a choice (`{ kind: "choice", title, options, required }`), validated by
-- server/contract/widget-settings.ts before it is written. '[]': the form asks none.
ALTER TABLE widget_settings ADD COLUMN review_form_attributes_json TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(review_form_attributes_json) AND json_type(review_form_attributes_json) = 'array');
