/**
 * An HTTP cache in front of Chorus (Varnish with vmod_xkey: deploy/varnish/chorus.vcl, docs/deployment.md),
 * kept right by content scopes (decision 0007, server/db/content-scopes.ts):
 *
 * - `surrogateKeys(scopes)`: the `xkey` header of a cacheable storefront answer, its content scopes as
 *   tags, plus `*` (every scoped answer depends on the `*` scope), or for an answer that names no scopes
 *   `*` and `chorus:any-commit` (stale after any commit).
 * - `startCachePurger`: a loop that every 200 ms takes the scopes changed since the last round (by this
 *   process, the CLI or any other process or node on the same database) and sends their tags to each cache as
 *   `PURGE /` with `xkey-purge: <tag> <tag> ...` (CACHE_PURGE_URLS), and once more a second later (an answer
 *   fetched before the commit but stored after the first purge). SQLite: it polls `content_scope_versions`;
 *   PostgreSQL: it listens for the triggers' notifications (server/db/content-scopes.ts `scopeListener`) and
 *   purges everything after a (re)connection, since changes made meanwhile were not heard.
 *
 * Tags: a scope with its characters outside `A-Z a-z 0-9 : - _ . ! ~ * ' ( )` percent-encoded (UTF-8),
 * so a tag never holds the separators of vmod_xkey (spaces, commas) nor bytes a header may not carry;
 * `product:<store>:<product>` stays readable. The purger sends the same encoding.
 */
import { dialect, type Db } from "../db/database.ts";
import { ANY_SCOPE, contentScopeLog, scopeListener } from "../db/content-scopes.ts";

/** The tag of answers that name no content scopes: any commit makes them stale, so every purge includes it. */
export const ANY_COMMIT_TAG = "chorus:any-commit";

/** The xkey tag of a content scope (see the module comment). */
export function scopeTag(scope: string): string {
  return encodeURIComponent(scope).replaceAll("%3A", ":");
}

/**
 * The `xkey` header value of a cacheable answer that read `scopes` (null: it named none): tags separated
 * by single spaces, `*` always among them.
 */
export function surrogateKeys(scopes: readonly string[] | null): string {
  if (scopes === null) return `${ANY_SCOPE} ${ANY_COMMIT_TAG}`;
  const tags = new Set(scopes.map(scopeTag));
  tags.add(ANY_SCOPE);
  return [...tags].join(" ");
}

/** Whether `error` of fetch says an open connection was closed under the request (reset, closed by the peer). */
function connectionLost(error: unknown): boolean {
  const code = error instanceof Error && error.cause instanceof Error ? (error.cause as NodeJS.ErrnoException).code : undefined;
  return code === "ECONNRESET" || code === "EPIPE" || code === "UND_ERR_SOCKET";
}

/** Most characters of one `xkey-purge` header; more tags go in the next request (Varnish's header limit is 8 KB). */
const MAX_HEADER_CHARS = 4_000;
/** Past this many tags waiting for one cache, they are replaced by one purge of everything (`*` and ANY_COMMIT_TAG). */
const MAX_PENDING_TAGS = 10_000;
/** Rows read per poll; more are read by the next poll. */
const ROWS_PER_POLL = 5_000;

export type CachePurgerOptions = {
  /** The database whose changes are followed (the server's own handle will do). */
  db: Db;
  /** CACHE_PURGE_URLS: the caches, e.g. `http://10.0.0.5:6081/`; user info (`http://chorus:SECRET@host/`) is sent as Basic auth. */
  urls: readonly string[];
  /** Where failures (and recoveries) are reported, one line each. */
  log: (line: string) => void;
  /** Poll period in ms (default 200). */
  intervalMs?: number;
  /** Per-request timeout in ms (default 2,000). */
  timeoutMs?: number;
  /** Retry delays in ms after a failure: doubling from `intervalMs` up to this (default 10,000). */
  maxBackoffMs?: number;
  /**
   * Each change's tags are purged a second time this many ms later (default 1,000; 0: never). A cache
   * fetch that read the data before the commit but is stored after the first purge would otherwise be
   * served until its max-age; the second purge bounds that to about this delay.
   */
  repeatAfterMs?: number;
};

export type CachePurger = {
  /** Tags waiting to be sent, over all caches. */
  readonly pending: number;
  /** Purge requests sent and answered 2xx, over all caches. */
  readonly purges: number;
  /**
   * Read the log now and send every tag waiting (this change's and earlier ones') to each cache; resolves
   * once each cache answered them 2xx. For callers that must know a commit reached the caches (tests that
   * write and then read through the front, a CLI before it exits) instead of waiting out the poll period.
   * The repeat purge a second later still happens. @throws when a cache fails (its tags stay waiting and
   * are retried by the loop as usual) or the purger is stopped.
   */
  flush(): Promise<void>;
  /** Stop polling and abort requests in flight. */
  stop(): Promise<void>;
};

type Target = {
  url: string;
  /** For logs: the URL without its user info. */
  name: string;
  authorization?: string;
  pending: Set<string>;
  inFlight: Promise<void> | null;
  failures: number;
  retryAtMs: number;
};

function target(raw: string): Target {
  const url = new URL(raw);
  const authorization = url.username || url.password ? `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString("base64")}` : undefined;
  url.username = "";
  url.password = "";
  // At start-up every tag may be stale (changes made while this process was not running): purge all once.
  return { url: url.href, name: url.href, authorization, pending: new Set([ANY_SCOPE, ANY_COMMIT_TAG]), inFlight: null, failures: 0, retryAtMs: 0 };
}

/**
 * Start purging `options.urls` on every committed change (see the module comment). Never blocks a
 * request: the poll is one indexed query, requests are asynchronous, a cache that fails is retried with
 * backoff (its tags kept, merged with new ones) and logged, the others are not held up. At start it
 * purges everything once. @throws on a URL that is not http(s).
 */
export function startCachePurger(options: CachePurgerOptions): CachePurger {
  const { db, log } = options;
  const intervalMs = options.intervalMs ?? 200;
  const timeoutMs = options.timeoutMs ?? 2_000;
  const maxBackoffMs = options.maxBackoffMs ?? 10_000;
  const repeatAfterMs = options.repeatAfterMs ?? 1_000;
  /** Tags of past changes to purge again, oldest first: `[due (epoch ms), tags]`. */
  const repeats: [number, string[]][] = [];
  const targets = options.urls.map(target);
  for (const t of targets) if (!/^https?:$/.test(new URL(t.url).protocol)) throw new Error(`Cache purge URL must be http(s): ${t.name}`);
  const changes = changeFeed(db);
  const controller = new AbortController();
  let purges = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;

  /** Scopes committed since the last poll, as tags (plus ANY_COMMIT_TAG when anything changed). */
  async function changedTags(): Promise<string[]> {
    const scopes = await changes.take();
    const now = Date.now();
    const due: string[] = [];
    while (repeats.length > 0 && repeats[0]![0] <= now) due.push(...repeats.shift()![1]);
    if (scopes.length === 0) return due;
    const tags = [...scopes.map(scopeTag), ANY_COMMIT_TAG];
    if (repeatAfterMs > 0) repeats.push([now + repeatAfterMs, tags]);
    return [...due, ...tags];
  }

  /** The next batch of `t`'s tags that fits one header (removed from pending). */
  function takeBatch(t: Target): string[] {
    const batch: string[] = [];
    let chars = 0;
    for (const tag of t.pending) {
      if (batch.length > 0 && chars + tag.length + 1 > MAX_HEADER_CHARS) break;
      batch.push(tag);
      chars += tag.length + 1;
    }
    for (const tag of batch) t.pending.delete(tag);
    return batch;
  }

  async function send(t: Target): Promise<void> {
    while (t.pending.size > 0 && !stopped) {
      const batch = takeBatch(t);
      try {
        const purge = () =>
          fetch(t.url, {
            method: "PURGE",
            headers: { "xkey-purge": batch.join(" "), ...(t.authorization ? { authorization: t.authorization } : {}) },
            signal: AbortSignal.any([controller.signal, AbortSignal.timeout(timeoutMs)]),
          });
        // A kept-alive connection the cache closed while idle (Varnish's timeout_idle, 5 s, passes while this
        // process is busy) fails the request sent on it before any answer: PURGE is idempotent, send it once
        // more on a new connection at once.
        const res = await purge().catch((error: unknown) => (connectionLost(error) && !stopped ? purge() : Promise.reject(error)));
        await res.arrayBuffer();
        if (!res.ok) throw new Error(`answered ${res.status} ${res.statusText}`);
        purges++;
        if (t.failures > 0) log(`Cache purge: ${t.name} answers again after ${t.failures} failed attempts`);
        t.failures = 0;
      } catch (error) {
        for (const tag of batch) t.pending.add(tag);
        if (stopped) return;
        t.failures++;
        const delay = Math.min(maxBackoffMs, intervalMs * 2 ** Math.min(t.failures - 1, 16));
        t.retryAtMs = Date.now() + delay;
        const reason = error instanceof Error ? (error.cause instanceof Error ? `${error.message}: ${error.cause.message}` : error.message) : String(error);
        log(`Cache purge: ${t.name} failed (attempt ${t.failures}, ${t.pending.size} tags waiting, next try in ${delay} ms): ${reason}`);
        return;
      }
    }
  }

  /** Add `tags` to each cache's pending tags. */
  function enqueue(tags: readonly string[]): void {
    for (const t of targets) {
      for (const tag of tags) t.pending.add(tag);
      if (t.pending.size > MAX_PENDING_TAGS) t.pending = new Set([ANY_SCOPE, ANY_COMMIT_TAG]);
    }
  }

  /** Start sending `t`'s pending tags unless a request is in flight. */
  function startSending(t: Target): void {
    if (!t.inFlight && t.pending.size > 0) t.inFlight = send(t).finally(() => (t.inFlight = null));
  }

  async function tick(): Promise<void> {
    timer = null;
    if (stopped) return;
    let tags: string[];
    try {
      tags = await changedTags();
    } catch (error) {
      if (stopped) return; // the server is shutting down
      log(`Cache purge: reading the changed content scopes failed: ${error instanceof Error ? error.message : String(error)}`);
      tags = [];
    }
    if (stopped) return;
    enqueue(tags);
    const now = Date.now();
    for (const t of targets) if (now >= t.retryAtMs) startSending(t);
    schedule();
  }

  async function flush(): Promise<void> {
    if (stopped) throw new Error("Cache purge: the purger is stopped");
    await changes.sync();
    enqueue(await changedTags());
    for (const t of targets) {
      // A request in flight sends the tags added meanwhile too (its loop runs until none wait); one more
      // round for tags it had already passed by, and a failure answers with its cause.
      for (let round = 0; t.pending.size > 0 || t.inFlight; round++) {
        if (round > 2 || stopped) throw new Error(`Cache purge: ${t.name} did not take ${t.pending.size} tags (${t.failures} failed attempts)`);
        startSending(t);
        await t.inFlight;
      }
    }
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(() => void tick(), intervalMs);
    timer.unref();
  }

  void tick();
  return {
    get pending() {
      return targets.reduce((n, t) => n + t.pending.size, 0);
    },
    get purges() {
      return purges;
    },
    flush,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      controller.abort();
      await Promise.all(targets.map((t) => t.inFlight ?? Promise.resolve()));
      await changes.close();
    },
  };
}

/** Where a purger learns which scopes changed: `take()` those changed since the last call. */
type ChangeFeed = {
  /** The scopes changed since the last call (repeats possible). */
  take(): Promise<string[]>;
  /** Resolves once every commit made before the call can be taken. @throws when that cannot be made sure (PostgreSQL: not listening). */
  sync(): Promise<void>;
  close(): Promise<void>;
};

/**
 * SQLite: the rows of `content_scope_versions` after the last one read (ROWS_PER_POLL at a time), starting from
 * the newest at start-up. PostgreSQL: the scopes the triggers announce, heard by a listener of its own; after
 * every reconnection `*` (changes may have been missed), and `sync()` sends a marker and waits to hear it.
 */
function changeFeed(db: Db): ChangeFeed {
  if (dialect(db) !== "postgres") {
    const log = contentScopeLog(db);
    let seq: number | undefined;
    const started = log.seq().then((s) => {
      seq = s;
    });
    return {
      async take() {
        await started;
        const rows = await log.since(seq!, ROWS_PER_POLL);
        if (rows.length > 0) seq = rows[rows.length - 1]!.version;
        return rows.map((r) => r.scope);
      },
      sync: () => started,
      close: () => Promise.resolve(),
    };
  }
  let heard = new Set<string>();
  let listening = false;
  let connectedBefore = false;
  const listener = scopeListener(db.location, {
    onScope: (scope) => heard.add(scope),
    onListening(on) {
      listening = on;
      // After a reconnection, changes made meanwhile were not heard: purge everything. The first connection needs
      // no such purge: every target starts with one (`target`).
      if (on && connectedBefore) heard.add(ANY_SCOPE);
      if (on) connectedBefore = true;
    },
  });
  return {
    take() {
      const scopes = [...heard];
      heard = new Set();
      return Promise.resolve(scopes);
    },
    async sync() {
      await listener.ready;
      if (!listening) throw new Error("Cache purge: not listening for changes on PostgreSQL");
      if (!(await listener.roundTrip(db, 2_000))) throw new Error("Cache purge: a marker notification did not come back within 2 s");
    },
    close: () => listener.close(),
  };
}
