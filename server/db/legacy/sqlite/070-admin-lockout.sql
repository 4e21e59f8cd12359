-- Admin sign-in throttling (issue 19, findings 2 and 3; OWASP Authentication Cheat Sheet, "Login
-- Throttling"): one counter per client address + e-mail and one per client address, in place of one row
-- per failure. An attempt is counted before its password is verified, in the same IMMEDIATE transaction
-- that checks the limit, so concurrent attempts cannot all pass the check; a correct password takes its
-- own count back. The table keeps its name, so the content-scope triggers map it to `admin` as before.
-- Rows of the old design are per failure and short-lived (15 minutes): they are dropped, not converted.

DROP TABLE admin_login_failures;

CREATE TABLE admin_login_failures (
  ip         TEXT NOT NULL,                     -- the client address, an IPv6 address as its /64 ('unknown' when none)
  email      TEXT NOT NULL,                     -- lower-cased and trimmed; '' = the counter of the whole address
  failures   INTEGER NOT NULL CHECK (failures >= 0), -- attempts not (yet) proven right
  last_ms    INTEGER NOT NULL,                  -- when the latest of them was counted
  PRIMARY KEY (ip, email)
) WITHOUT ROWID;
CREATE INDEX admin_login_failures_time ON admin_login_failures (last_ms);
