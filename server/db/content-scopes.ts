/**
 * Content scopes: which part of the data a commit changed, so the response cache drops only the answers
 * that read it (decision 0007). A scope is a string:
 *
 * - `store:<store>`: the store's settings and review groups; every cached answer of the store reads them.
 * - `product:<store>:<product>`: a product, its reviews, their media, votes, translations and AI analysis,
 *   its questions and answers, its review aggregate and its AI content.
 * - `group:<store>:<group>`: the same for a review group (group listings, aggregate, AI content).
 * - `reviews:<store>`: any review content of the store (store-wide listings, media and aggregate).
 * - `widgets:<store>`: the store's widget settings (texts, colours, which widgets show).
 * - `loyalty:<store>`, `surveys:<store>`, `orders:<store>`, `api_keys:<store>`, `webhooks:<store>`, `admin`: data no public
 *   storefront read depends on except the loyalty program reads (`loyalty:`).
 * - `*`: anything else. Every table this module does not map bumps it, and every scoped answer depends
 *   on it, so a table added later invalidates everything until it is mapped (safe by default).
 *
 * Triggers on every table (installed by `installContentScopeTriggers` at start-up, generated from
 * TABLE_SCOPES and the schema's table list) record each changed scope:
 *
 * - SQLite: the next number of one sequence (`content_seq`), in `content_scope_versions` (migration 060).
 *   Writes serialise in SQLite, so numbers grow in commit order. A cached answer records the sequence number
 *   it was computed after and the scopes it read; it is fresh while none of those scopes (nor `*`) has a newer
 *   number.
 * - PostgreSQL: the same TABLE_SCOPES expressions become one plpgsql function and row trigger per table and
 *   event, which send each scope as a notification (POSTGRES_TOUCH_BODY), delivered to every node at commit in
 *   commit order. Nothing is written, so writers share no row. Each node's watcher numbers what it hears.
 */
import pg from "pg";
import type Database from "better-sqlite3";
import { all, dialect, exec, sql, transaction, value, values, type Db } from "./query.ts";

/**
 * The scope of changes to tables without a mapping; every scoped answer depends on it. Defined here, where
 * the triggers write it, so that server/db imports nothing above it (server/shared/content-scopes.ts names
 * the other scopes).
 */
export const ANY_SCOPE = "*";

/** SQL expressions (over row alias `r`: NEW or OLD) giving the scopes a row change touches; NULLs are skipped. */
type ScopeExpressions = (r: string) => string[];

/** The SQL twins of `contentScope` (server/shared/content-scopes.ts). */
const sqlScope = {
  store: (r: string) => `'store:' || ${r}.store_id`,
  product: (r: string) => `'product:' || ${r}.store_id || ':' || ${r}.product_id`,
  group: (r: string) => `'group:' || ${r}.store_id || ':' || ${r}.group_id`, // NULL for a product without a group
  storeReviews: (r: string) => `'reviews:' || ${r}.store_id`,
  /** A row with scope_type / scope_id columns (aggregates, AI content and jobs). */
  byScopeColumns: (r: string) =>
    `CASE ${r}.scope_type WHEN 'product' THEN 'product:' || ${r}.store_id || ':' || ${r}.scope_id WHEN 'group' THEN 'group:' || ${r}.store_id || ':' || ${r}.scope_id ELSE 'reviews:' || ${r}.store_id END`,
};
const perStore =
  (name: string): ScopeExpressions =>
  (r) => [`'${name}:' || ${r}.store_id`];
const reviewContent: ScopeExpressions = (r) => [sqlScope.product(r), sqlScope.group(r), sqlScope.storeReviews(r)];
/** Rows that belong to a review: the scopes of that review (looked up; a review deleted first bumped them itself). */
const ofReview: ScopeExpressions = (r) => reviewContent("x").map((e) => `(SELECT ${e} FROM reviews x WHERE x.review_id = ${r}.review_id)`);
const ofQuestion: ScopeExpressions = (r) => [sqlScope.product("q"), sqlScope.group("q")].map((e) => `(SELECT ${e} FROM questions q WHERE q.question_id = ${r}.question_id)`);
const everything: ScopeExpressions = () => [`'${ANY_SCOPE}'`];

/**
 * The scopes each table's changes touch. Tables not listed (and not skipped, see below) touch `*`.
 * Review groups and stores touch `store:`: a group's settings decide whose AI content its products show.
 */
export const TABLE_SCOPES: Record<string, ScopeExpressions> = {
  app_settings: everything, // installation secrets: cursor signatures of every answer
  schema_migrations: everything,
  stores: (r) => [sqlScope.store(r)],
  review_groups: (r) => [sqlScope.store(r)],
  products: reviewContent, // listings name their products
  reviews: reviewContent,
  review_media: reviewContent,
  review_aggregates: (r) => [sqlScope.byScopeColumns(r)],
  review_votes: ofReview,
  review_translations: ofReview,
  ai_review_analysis: ofReview,
  ai_review_keywords: ofReview,
  ai_content_versions: (r) => [sqlScope.byScopeColumns(r)],
  ai_scope_state: (r) => [sqlScope.byScopeColumns(r)],
  ai_jobs: (r) => [sqlScope.byScopeColumns(r)],
  questions: (r) => [sqlScope.product(r), sqlScope.group(r)],
  answers: ofQuestion,
  qa_votes: ofQuestion, // helpful votes on questions and answers (migration 083)
  orders: perStore("orders"),
  order_headers: perStore("orders"),
  platform_connections: perStore("platform"),
  platform_webhooks: perStore("platform"),
  api_keys: perStore("api_keys"),
  surveys: perStore("surveys"),
  survey_questions: perStore("surveys"),
  channel_surveys: perStore("surveys"),
  survey_responses: perStore("surveys"),
  survey_rewards: perStore("surveys"),
  customer_profile_answers: perStore("surveys"),
  loyalty_programs: perStore("loyalty"),
  loyalty_vip_tiers: perStore("loyalty"),
  loyalty_customers: perStore("loyalty"),
  loyalty_earning_rules: perStore("loyalty"),
  loyalty_redemption_rules: perStore("loyalty"),
  loyalty_transactions: perStore("loyalty"),
  loyalty_pending_points: perStore("loyalty"),
  loyalty_refunds: perStore("loyalty"),
  loyalty_rewards: perStore("loyalty"),
  referral_programs: perStore("loyalty"), // referrals (server/loyalty/referrals.ts)
  referral_senders: perStore("loyalty"),
  referral_friends: perStore("loyalty"),
  referral_rewards: perStore("loyalty"),
  widget_settings: perStore("widgets"),
  widget_texts: perStore("widgets"),
  merchant_users: () => ["'admin'"],
  store_memberships: () => ["'admin'"],
  admin_sessions: () => ["'admin'"],
  admin_login_failures: () => ["'admin'"],
  admin_invites: () => ["'admin'"], // team invitations and password reset links (server/admin, migration 074)
  admin_password_resets: () => ["'admin'"],
  review_request_settings: perStore("review_requests"), // review requests (server/review-requests): admin and hosted pages only, never cached
  review_requests: perStore("review_requests"),
  review_request_products: perStore("review_requests"),
  review_request_tokens: perStore("review_requests"),
  review_request_unsubscribes: perStore("review_requests"),
  mail_outbox: () => ["'mail'"], // outgoing mail (server/mail): no storefront answer reads it
  privacy_requests: perStore("privacy"), // audit of shopper data requests (server/privacy): admin only
  // Outgoing webhooks (server/webhooks): no storefront answer reads them.
  webhook_subscriptions: perStore("webhooks"),
  webhook_subscription_events: perStore("webhooks"),
  webhook_events: perStore("webhooks"),
  webhook_deliveries: perStore("webhooks"),
  webhook_attempts: perStore("webhooks"),
  product_identifiers: perStore("feeds"), // Google Product Reviews feed (server/feeds): streamed, never cached
  feed_tokens: perStore("feeds"),
  store_reviews: perStore("feeds"), // store reviews (server/store-reviews): only the merchant review feed reads them, never cached
  klaviyo_accounts: perStore("marketing"), // Klaviyo (server/marketing): admin only, never cached
  klaviyo_outbox: perStore("marketing"),
  widget_page_checks: perStore("admin"), // the latest "check my page" per store (server/admin/overview.service.ts): admin only
};

/** This module's own tables: not tracked. */
const OWN_TABLES = new Set(["content_seq", "content_scope_versions"]);
/**
 * PostgreSQL tables that are not tracked: the full-text search tables standing in for SQLite's virtual tables
 * (postgres/003-search.sql; they change only with the table they index, which is tracked), and the rate-limit
 * counters shared by nodes (postgres/004, 006; written on every limited request, read by no answer; in memory
 * on SQLite, where they commit nothing), and the review aggregate changes a long transaction applies at its
 * commit (postgres/002; the aggregate rows they are summed into are tracked).
 */
const POSTGRES_UNTRACKED = new Set(["review_search", "survey_responses_fts", "admin_rate_limits", "rate_limit_hits", "review_aggregate_changes"]);
/** The channel the PostgreSQL triggers notify at commit. */
export const CONTENT_SCOPES_CHANNEL = "chorus_content_scopes";
const EVENTS = [
  ["INSERT", ["NEW"]],
  ["UPDATE", ["OLD", "NEW"]],
  ["DELETE", ["OLD"]],
] as const;

/**
 * The tables whose changes are tracked: every table but SQLite's own, this module's, and virtual tables
 * with their shadow tables (full-text indexes change only with the table they index, which is tracked);
 * on PostgreSQL every table of the current schema but this module's and POSTGRES_UNTRACKED.
 */
export async function trackedTables(db: Db): Promise<string[]> {
  if (dialect(db) === "postgres") {
    const names = await values<string>(db, sql`SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename`);
    return names.filter((name) => !OWN_TABLES.has(name) && !POSTGRES_UNTRACKED.has(name));
  }
  const tables = await all<{ name: string; sql: string | null }>(db, sql`SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name`);
  const virtual = tables.filter((t) => /^CREATE VIRTUAL TABLE/i.test(t.sql ?? "")).map((t) => t.name);
  return tables.map((t) => t.name).filter((name) => !name.startsWith("sqlite_") && !OWN_TABLES.has(name) && !virtual.some((v) => name === v || name.startsWith(`${v}_`)));
}

/** The CREATE TRIGGER statements the schema should have, by trigger name. */
async function wantedTriggers(db: Db): Promise<Map<string, string>> {
  const wanted = new Map<string, string>();
  for (const table of await trackedTables(db)) {
    const scopes = TABLE_SCOPES[table] ?? everything;
    for (const [event, rows] of EVENTS) {
      const name = `content_scope_${table}_${event.toLowerCase()}`;
      const selects = rows
        .flatMap((r) => scopes(r))
        .map((e) => `SELECT ${e} AS scope`)
        .join(" UNION ALL ");
      wanted.set(
        name,
        `CREATE TRIGGER "${name}" AFTER ${event} ON "${table}" FOR EACH ROW BEGIN ` +
          "UPDATE content_seq SET n = n + 1 WHERE id = 1; " +
          "INSERT INTO content_scope_versions (scope, version) " +
          `SELECT scope, (SELECT n FROM content_seq WHERE id = 1) FROM (${selects}) WHERE scope IS NOT NULL ` +
          "ON CONFLICT (scope) DO UPDATE SET version = excluded.version; END",
      );
    }
  }
  return wanted;
}

/**
 * Create, replace or drop the content-scope triggers so that every tracked table has exactly the wanted
 * ones (run at start-up after the migrations; a no-op, without taking the write lock, when they match).
 * @throws on a database error (the change is rolled back).
 */
export async function installContentScopeTriggers(db: Db): Promise<void> {
  if (dialect(db) === "postgres") return installPostgresTriggers(db);
  const existing = async () =>
    new Map((await all<{ name: string; sql: string }>(db, sql`SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'content!_scope!_%' ESCAPE '!'`)).map((t) => [t.name, t.sql]));
  const differs = (wanted: Map<string, string>, have: Map<string, string>) => wanted.size !== have.size || [...wanted].some(([name, text]) => have.get(name) !== text);
  if (!differs(await wantedTriggers(db), await existing())) return;
  // IMMEDIATE: a second process starting at the same time waits, then finds the triggers in place.
  await transaction(db, async () => {
    const wanted = await wantedTriggers(db);
    const have = await existing();
    for (const [name, text] of have) if (wanted.get(name) !== text) await exec(db, `DROP TRIGGER "${name}"`);
    for (const [name, text] of wanted) if (have.get(name) !== text) await exec(db, text);
  });
}

/**
 * Most scope notifications one PostgreSQL transaction asks for (counted per changed row and scope, repeats
 * included: PostgreSQL itself sends a repeated payload once); past it, one `*` (everything) stands for the rest.
 * A 2,000-row import batch asks for about 6,000; a transaction of hundreds of thousands of changes gets `*`.
 */
export const MAX_SCOPE_NOTIFICATIONS = 50_000;

/**
 * PostgreSQL: the function every content-scope trigger calls with the scopes its row change touches (NULLs
 * skipped). It writes nothing: each scope is sent as a notification on CONTENT_SCOPES_CHANNEL, which PostgreSQL
 * delivers to every listener at commit (in commit order; identical payloads of one transaction once; none for a
 * rolled-back transaction or savepoint). No row is shared by writers, so writers of every node run side by side
 * (a shared counter row would make each wait for the previous commit). A transaction that sends more than
 * MAX_SCOPE_NOTIFICATIONS (a bulk import) sends `*` instead of the rest: every cached answer goes stale once.
 */
const POSTGRES_TOUCH_BODY = `
DECLARE
  sent integer := COALESCE(NULLIF(current_setting('chorus.content_scope_sent', true), '')::integer, 0);
  s text;
BEGIN
  IF sent > ${MAX_SCOPE_NOTIFICATIONS} THEN RETURN; END IF;
  FOR s IN SELECT DISTINCT u.scope FROM unnest(scopes) AS u (scope) WHERE u.scope IS NOT NULL LOOP
    sent := sent + 1;
    IF sent > ${MAX_SCOPE_NOTIFICATIONS} THEN
      PERFORM pg_notify('${CONTENT_SCOPES_CHANNEL}', '${ANY_SCOPE}');
      EXIT;
    END IF;
    PERFORM pg_notify('${CONTENT_SCOPES_CHANNEL}', s);
  END LOOP;
  PERFORM set_config('chorus.content_scope_sent', sent::text, true);
END
`;

/** The PostgreSQL trigger functions the schema should have, by name (trigger and function share it): table, event and plpgsql body. */
async function wantedPostgresTriggers(db: Db): Promise<Map<string, { table: string; event: string; body: string }>> {
  const wanted = new Map<string, { table: string; event: string; body: string }>();
  for (const table of await trackedTables(db)) {
    const scopes = TABLE_SCOPES[table] ?? everything;
    for (const [event, rows] of EVENTS) {
      const name = `content_scope_${table}_${event.toLowerCase()}`;
      const body = `\nBEGIN\n  PERFORM content_scope_touch(ARRAY[${rows.flatMap((r) => scopes(r)).join(", ")}]::text[]);\n  RETURN NULL;\nEND\n`;
      wanted.set(name, { table, event, body });
    }
  }
  return wanted;
}

/** installContentScopeTriggers on PostgreSQL: the same rule, functions compared by their source text. */
async function installPostgresTriggers(db: Db): Promise<void> {
  const existing = async () =>
    new Map(
      (
        await all<{ name: string; table: string; body: string }>(
          db,
          sql`
      SELECT t.tgname AS name, c.relname AS "table", p.prosrc AS body
         FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_proc p ON p.oid = t.tgfoid
        WHERE NOT t.tgisinternal AND c.relnamespace = current_schema()::regnamespace AND t.tgname LIKE 'content!_scope!_%' ESCAPE '!'`,
        )
      ).map((t) => [t.name, t]),
    );
  const touch = () => value<string>(db, sql`SELECT prosrc FROM pg_proc WHERE proname = 'content_scope_touch' AND pronamespace = current_schema()::regnamespace`);
  const same = (a: { table: string; body: string } | undefined, b: { table: string; body: string } | undefined) => a !== undefined && b !== undefined && a.table === b.table && a.body === b.body;
  const differs = (wanted: Map<string, { table: string; body: string }>, have: Map<string, { table: string; body: string }>) =>
    wanted.size !== have.size || [...wanted].some(([name, w]) => !same(w, have.get(name)));
  if ((await touch()) === POSTGRES_TOUCH_BODY && !differs(await wantedPostgresTriggers(db), await existing())) return;
  // Run while the migration lock is held (server/db/migrate.ts), so a second node starting at once waits, then finds them in place.
  await transaction(db, async () => {
    if ((await touch()) !== POSTGRES_TOUCH_BODY) {
      await exec(db, `CREATE OR REPLACE FUNCTION content_scope_touch(scopes text[]) RETURNS void LANGUAGE plpgsql AS $content_scope$${POSTGRES_TOUCH_BODY}$content_scope$`);
    }
    const wanted = await wantedPostgresTriggers(db);
    const have = await existing();
    for (const [name, t] of have) {
      if (same(wanted.get(name), t)) continue;
      await exec(db, `DROP TRIGGER "${name}" ON "${t.table}"; DROP FUNCTION IF EXISTS "${name}"()`);
    }
    for (const [name, w] of wanted) {
      if (same(w, have.get(name))) continue;
      await exec(
        db,
        `CREATE OR REPLACE FUNCTION "${name}"() RETURNS trigger LANGUAGE plpgsql AS $content_scope$${w.body}$content_scope$;\n` +
          `CREATE OR REPLACE TRIGGER "${name}" AFTER ${w.event} ON "${w.table}" FOR EACH ROW EXECUTE FUNCTION "${name}"()`,
      );
    }
  });
}

/**
 * Reads SQLite's log of changed scopes (`content_scope_versions`, `content_seq`) on `conn`: `seq()` the sequence
 * number of the latest change, `since(seq, limit)` the scopes changed after `seq` with their numbers, in commit
 * order, at most `limit` (default all). Used by the response cache's watcher and the cache purger. SQLite only:
 * PostgreSQL sends changes as notifications (`scopeListener`).
 */
export function contentScopeLog(conn: Db | Database.Database) {
  type Change = { scope: string; version: number };
  if (!("kysely" in conn)) {
    // A raw better-sqlite3 connection (the SQLite watcher's own read-only one): local file reads, synchronous.
    const latest = conn.prepare("SELECT n FROM content_seq WHERE id = 1").pluck();
    const changedSince = conn.prepare<[number, number], Change>("SELECT scope, version FROM content_scope_versions WHERE version > ? ORDER BY version LIMIT ?");
    return {
      seq: (): Promise<number> => Promise.resolve(latest.get() as number),
      since: (seq: number, limit = -1): Promise<Change[]> => Promise.resolve(changedSince.all(seq, limit)),
    };
  }
  if (dialect(conn) === "postgres") throw new Error("contentScopeLog is SQLite's; on PostgreSQL use scopeListener");
  return {
    seq: async (): Promise<number> => (await value<number>(conn, sql`SELECT n FROM content_seq WHERE id = 1`)) ?? 0,
    since: (seq: number, limit?: number): Promise<Change[]> =>
      all<Change>(
        conn,
        limit === undefined
          ? sql`SELECT scope, version FROM content_scope_versions WHERE version > ${seq} ORDER BY version`
          : sql`SELECT scope, version FROM content_scope_versions WHERE version > ${seq} ORDER BY version LIMIT ${limit}`,
      ),
  };
}

/** When a cached answer was computed: the commit counter and the content sequence number it had seen. */
export type ContentStamp = { dataVersion: number; seq: number };

/** Options of `contentScopeWatcher`. */
export type ContentScopeWatcherOptions = {
  /** PostgreSQL: longest wait (ms) for this node's own commits to come back as notifications before everything counts as changed (default 1,000). */
  syncTimeoutMs?: number;
};

/**
 * Follows committed changes for the response cache.
 *
 * SQLite: `current()` checks `PRAGMA data_version` on `watcher` (a second, read-only connection, so it counts
 * commits by this process's main connection too), and only after a commit reads the scopes changed since;
 * without a watcher (`:memory:`) it reads them on `db` every call.
 *
 * PostgreSQL (`watcher` null): a `pg` client of its own LISTENs on CONTENT_SCOPES_CHANNEL; each scope
 * notification (every node's and CLI's commits, in commit order) gets the next number of a local counter. After
 * this node committed something (`db.commits` changed), `current()` first sends a marker notification of its own
 * and waits until it comes back: every commit before it has then been heard, so a node reads its own writes.
 * While not listening (starting, connection lost) nothing is fresh; on (re)connecting everything computed
 * before counts as changed (`*`).
 *
 * It remembers the last change of each scope it has seen change, at most `maxScopes` of them (default
 * 100,000, a few MB): past that it forgets them all and treats every answer computed before as stale (one
 * cache flush). `close()` stops the listener.
 */
export async function contentScopeWatcher(db: Db, watcher: Database.Database | null, maxScopes = 100_000, options: ContentScopeWatcherOptions = {}) {
  const postgres = dialect(db) === "postgres";
  const versions = new Map<string, number>();
  /** Answers computed before this number are stale (the map was cleared at it). */
  let floor = 0;
  let seq = 0;

  function note(scope: string, version: number): void {
    versions.set(scope, version);
    if (version > seq) seq = version;
    if (versions.size > maxScopes) {
      versions.clear();
      floor = seq;
    }
  }

  let current: () => Promise<ContentStamp>;
  let close: () => Promise<void> = () => Promise.resolve();
  if (!postgres) {
    const log = contentScopeLog(watcher ?? db);
    seq = await log.seq();
    if (watcher) {
      // The watcher's own read-only connection: local file reads, done synchronously, so no caller sees the new data
      // version before the scopes changed up to it are noted.
      const dataVersion = watcher.prepare("PRAGMA data_version").pluck();
      const changedSince = watcher.prepare<[number], { scope: string; version: number }>("SELECT scope, version FROM content_scope_versions WHERE version > ? ORDER BY version");
      let seenDataVersion = -1;
      current = () => {
        const dv = dataVersion.get() as number;
        if (dv !== seenDataVersion) {
          for (const row of changedSince.all(seq)) note(row.scope, row.version);
          seenDataVersion = dv;
        }
        return Promise.resolve({ dataVersion: dv, seq });
      };
    } else {
      // `:memory:`: the log read on the connection itself, one read at a time (a caller waits for the one under way).
      let reading: Promise<void> = Promise.resolve();
      current = async () => {
        reading = reading
          .catch(() => undefined)
          .then(async () => {
            for (const row of await log.since(seq)) note(row.scope, row.version);
          });
        await reading;
        return { dataVersion: seq, seq };
      };
    }
  } else {
    const syncTimeoutMs = options.syncTimeoutMs ?? 1_000;
    let listening = false;
    const everything = () => note(ANY_SCOPE, seq + 1);
    const listener = scopeListener(db.location, {
      onScope: (scope) => note(scope, seq + 1),
      onListening(on) {
        listening = on;
        everything();
      },
    });
    /** This node's commits (db.commits) known heard: every one counted before the last marker heard was sent. */
    let heardCommits = db.commits;
    let sync: Promise<void> | null = null;
    /** A marker round trip: every commit counted before it was sent has been heard then (else everything counts as changed). */
    const roundTrip = async (): Promise<void> => {
      const upTo = db.commits; // counted once committed: their notifications are queued before the marker
      if (!(await listener.roundTrip(db, syncTimeoutMs))) everything();
      heardCommits = Math.max(heardCommits, upTo);
    };
    current = async () => {
      await listener.ready;
      const commits = db.commits;
      // A round trip already under way may have sent its marker before this caller's commit: then wait for another.
      while (heardCommits < commits) {
        sync ??= roundTrip().finally(() => (sync = null));
        await sync;
      }
      if (!listening) everything();
      return { dataVersion: seq, seq };
    };
    close = () => listener.close();
  }

  return {
    /** The stamp of data committed so far (call before computing an answer, and before `isFresh`). */
    current,

    /**
     * Whether an answer computed after `stamp` that read `scopes` is still current, as of the last
     * `current()`: no scope it read (nor `*`) changed since. `scopes` null: it may have read anything, so
     * any commit since (`dataVersion`) makes it stale.
     */
    isFresh(stamp: ContentStamp, scopes: readonly string[] | null, now: ContentStamp): boolean {
      if (scopes === null) return stamp.dataVersion === now.dataVersion;
      if (stamp.seq < floor || (versions.get(ANY_SCOPE) ?? 0) > stamp.seq) return false;
      for (const scope of scopes) if ((versions.get(scope) ?? 0) > stamp.seq) return false;
      return true;
    },

    /** How many scopes' last changes are remembered (at most `maxScopes`). */
    get trackedScopes(): number {
      return versions.size;
    },

    /** Stop listening for commits (PostgreSQL; nothing to do on SQLite). */
    close,
  };
}

/** Payload prefix of the listeners' own marker notifications (scopes never start with it; no listener passes one on as a scope). */
const SYNC_MARKER = "\u0001sync:";

/** A running `scopeListener`. */
export type ScopeListener = {
  /** Settles when the first LISTEN succeeded or failed (then it keeps retrying in the background). */
  readonly ready: Promise<void>;
  /**
   * Send a marker notification of this listener's over `db`'s pool (outside any transaction of the caller) and wait
   * until it is heard: every commit before it has been heard then (notifications arrive in commit order).
   * @returns false when it is not heard within `timeoutMs` or cannot be sent.
   */
  roundTrip(db: Db, timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
};

/**
 * Calls `handlers.onScope(scope)` for every content scope that commits change on the PostgreSQL database at
 * `url` (the triggers' notifications on CONTENT_SCOPES_CHANNEL, in commit order), from a `pg` client of its own.
 * `onListening(true)` once listening (and after every reconnect: changes made while away were missed, so
 * callers treat everything as changed), `onListening(false)` when the connection is lost. Reconnects 1 s,
 * doubling up to 10 s apart. Its socket does not keep the process alive.
 */
export function scopeListener(url: string, handlers: { onScope(scope: string): void; onListening(listening: boolean): void }): ScopeListener {
  let client: pg.Client | null = null;
  let closed = false;
  let delayMs = 1_000;
  let timer: NodeJS.Timeout | null = null;
  let settle: () => void = () => {};
  const ready = new Promise<void>((resolve) => (settle = resolve));
  const markerPrefix = `${SYNC_MARKER}${process.pid}:${Math.random().toString(36).slice(2)}:`;
  let markers = 0;
  const waiting = new Map<string, () => void>();

  function retry(c: pg.Client): void {
    settle();
    if (closed || client !== c) return;
    client = null;
    handlers.onListening(false);
    c.end().catch(() => undefined);
    timer = setTimeout(connect, delayMs);
    timer.unref();
    delayMs = Math.min(delayMs * 2, 10_000);
  }

  function connect(): void {
    timer = null;
    if (closed) return;
    const c = new pg.Client({ connectionString: url, application_name: "chorus-content-scopes" });
    client = c;
    c.on("notification", (n) => {
      if (n.channel !== CONTENT_SCOPES_CHANNEL || !n.payload) return;
      // Markers (this listener's or any other's) are not scopes.
      if (n.payload.startsWith(SYNC_MARKER)) waiting.get(n.payload)?.();
      else handlers.onScope(n.payload);
    });
    c.on("error", () => retry(c));
    c.on("end", () => retry(c));
    c.connect()
      .then(() => {
        (c as unknown as { connection?: { stream?: { unref?: () => void } } }).connection?.stream?.unref?.();
        return c.query(`LISTEN ${CONTENT_SCOPES_CHANNEL}`);
      })
      .then(() => {
        delayMs = 1_000;
        handlers.onListening(true);
        settle();
      })
      .catch(() => retry(c));
  }

  connect();
  return {
    ready,
    async roundTrip(db, timeoutMs) {
      const marker = `${markerPrefix}${++markers}`;
      let wait: NodeJS.Timeout | undefined;
      const heard = new Promise<boolean>((resolve) => {
        waiting.set(marker, () => resolve(true));
        wait = setTimeout(() => resolve(false), timeoutMs);
      });
      try {
        await db.pool!.query("SELECT pg_notify($1, $2)", [CONTENT_SCOPES_CHANNEL, marker]);
        return await heard;
      } catch {
        return false;
      } finally {
        clearTimeout(wait);
        waiting.delete(marker);
      }
    },
    async close() {
      closed = true;
      settle();
      if (timer) clearTimeout(timer);
      const c = client;
      client = null;
      await c?.end().catch(() => undefined);
    },
  };
}
export type ContentScopeWatcher = Awaited<ReturnType<typeof contentScopeWatcher>>;
