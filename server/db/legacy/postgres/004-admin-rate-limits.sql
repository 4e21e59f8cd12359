-- Admin form limits shared by every node (issue #26 item 3): sign-ups per client address, password reset
-- requests per address and per e-mail, team invitations per store (server/admin/window-limiter.ts). One row
-- per limiter key and fixed window, in the shape rate-limiter-flexible's RateLimiterPostgres reads and writes:
-- `key` = '<limiter>.<configuration>:<key>', `points` consumed in the window, `expire` = end of the window
-- (epoch ms). PostgreSQL only: on SQLite (one process) the counts live in memory.
CREATE TABLE admin_rate_limits (
  key    text PRIMARY KEY,
  points bigint NOT NULL DEFAULT 0,
  expire bigint
);
-- The library deletes rows expired an hour ago every 5 minutes (DELETE ... WHERE expire < $1).
CREATE INDEX admin_rate_limits_expire ON admin_rate_limits (expire);
