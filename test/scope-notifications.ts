/**
 * What PostgreSQL's content-scope triggers send (server/db/content-scopes.ts POSTGRES_TOUCH_BODY): a `pg` client of
 * its own LISTENs on CONTENT_SCOPES_CHANNEL, as each node's watcher does. Shared by the PostgreSQL trigger and
 * content-scope tests.
 *
 *   const heard = await listenForScopes(url);
 *   const sent = await heard.sentBy(() => services.reviewsData.insert(...));   // every scope the write's commit sent
 *   await heard.close();
 */
import pg from "pg";
import { CONTENT_SCOPES_CHANNEL } from "../server/db/content-scopes.ts";

/** Payload prefix of this helper's own markers (watchers' markers start with "\u0001sync:"; scopes never start with "\u0001"). */
const MARKER = "\u0001test-marker:";

export type ScopeNotifications = {
  /**
   * Run `write` (awaited), then wait until everything committed before it returned has been heard (a marker of this
   * listener's own, sent after it, comes back: notifications arrive in commit order). @returns a promise of every scope
   * notification heard meanwhile, in the order heard (watchers' and this helper's markers left out).
   */
  sentBy(write: () => unknown): Promise<string[]>;
  /** Wait until everything committed so far has been heard (the marker round trip). */
  sync(): Promise<void>;
  close(): Promise<void>;
};

/** Listen for content-scope notifications on the PostgreSQL database at `url`. @returns a promise, settled once listening. */
export async function listenForScopes(url: string): Promise<ScopeNotifications> {
  const client = new pg.Client({ connectionString: url, application_name: "chorus-test-scopes" });
  await client.connect();
  let heard: string[] = [];
  const markers = new Map<string, () => void>();
  let next = 0;
  client.on("notification", (n) => {
    if (n.channel !== CONTENT_SCOPES_CHANNEL || n.payload === undefined) return;
    if (n.payload.startsWith(MARKER)) markers.get(n.payload)?.();
    else if (!n.payload.startsWith("\u0001")) heard.push(n.payload);
  });
  await client.query(`LISTEN ${CONTENT_SCOPES_CHANNEL}`);
  const sync = async () => {
    const token = `${MARKER}${++next}`;
    const back = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("the marker notification did not come back within 10 s")), 10_000);
      markers.set(token, () => {
        clearTimeout(timer);
        resolve();
      });
    });
    await client.query("SELECT pg_notify($1, $2)", [CONTENT_SCOPES_CHANNEL, token]);
    await back;
    markers.delete(token);
  };
  return {
    async sentBy(write) {
      await sync();
      heard = [];
      await write();
      await sync();
      const sent = heard;
      heard = [];
      return sent;
    },
    sync,
    close: () => client.end(),
  };
}
