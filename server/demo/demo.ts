/**
 * The demo store: created on an empty database at start-up from the real shared data
 * (DEMO_DATA_DIR), never from invented reviews. Each area adds a seeder to DEMO_SEEDERS; every
 * seeder is idempotent and runs once (recorded in app_settings), so an interrupted start resumes.
 *
 * `npm start` (README "Quick start") runs the quick seeders that make the credentials (BEFORE_LISTEN) before the
 * server listens (`prepareDemoStore`), and the import of the data in the background once it answers
 * (`startDemoImport`), with its progress on the console, in `/healthz` and on the demo pages.
 */
import { parse } from "csv-parse";
import { createReadStream, existsSync } from "node:fs";
import { createGunzip } from "node:zlib";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { importReviewsCsv } from "../import/reviews-csv.ts";
import { adminDemoSeeder } from "../admin/admin.demo.ts";
import { loyaltyDemoSeeder } from "../loyalty/loyalty.demo.ts";
import { seedDemoMedia } from "../media/demo-media.ts";
import { importAmazonQa } from "../questions/amazon-qa.ts";
import { platformDemoSeeder } from "../platforms/platforms.demo.ts";
import { reviewRequestsDemoSeeder } from "../review-requests/review-requests.demo.ts";
import { demoApiKeySeeder, demoSurveysSeeder } from "../surveys/surveys.demo.ts";
import type { Db } from "../db/database.ts";
import { markSeederDone, readImportProgress, seederDone, writeImportProgress } from "./demo.repo.ts";
import type { DemoContext, DemoSeeder } from "./seeder.ts";

export const DEMO_STORE_ID = "7d1f4e2a-5b3c-4d6e-8f90-a1b2c3d4e5f6";
export const DEMO_PLATFORM = "shopify";
export const DEMO_REVIEWS_FILE = "womens_clothing_ecommerce_reviews.csv";

/**
 * The copy of the clothing reviews shipped with Chorus (CC0, public domain: Kaggle, nicapotato), gzip
 * compressed; used when DEMO_DATA_DIR has none, so a first start shows the full review demo anywhere.
 */
export const SHIPPED_REVIEWS_FILE = fileURLToPath(new URL(`./data/${DEMO_REVIEWS_FILE}.gz`, import.meta.url));

/** Demo reviews: the real clothing reviews file (DEMO_DATA_DIR's copy, else the shipped one), published. */
const reviewsSeeder: DemoSeeder = {
  name: "reviews",
  async run({ services, config, log, progress }) {
    const local = join(config.DEMO_DATA_DIR, DEMO_REVIEWS_FILE);
    const file = existsSync(local) ? local : SHIPPED_REVIEWS_FILE;
    const total = await countCsvRows(file);
    log(`Importing ${total.toLocaleString("en")} real reviews from ${file} ...`);
    progress?.({ done: 0, total });
    const report = await importReviewsCsv(
      { db: services.db, stores: services.stores, reviews: services.reviewsData },
      { storeId: DEMO_STORE_ID, file, onProgress: (p) => progress?.({ done: p.rowsRead, total }), progressEvery: 5000 },
    );
    progress?.({ done: total, total });
    log(`Imported ${report.inserted} reviews (${report.products} products, ${report.groups} groups, ${report.badRows.length} bad rows skipped) in ${report.ms} ms.`);
  },
};

/** Demo review media: generated swatch images on real reviews of the top products (issue 3 item 6). */
const reviewMediaSeeder: DemoSeeder = {
  name: "review-media",
  async run({ services, log }) {
    const started = performance.now();
    const n = await seedDemoMedia(services, DEMO_STORE_ID);
    log(`Attached ${n} generated swatch images to real reviews in ${Math.round(performance.now() - started)} ms.`);
  },
};

/** Demo questions: the real Amazon appliance Q&A, on appliance products in the "appliances" group (issue 3 item 6). */
const questionsSeeder: DemoSeeder = {
  name: "questions",
  async run({ services, config, log }) {
    const file = join(config.DEMO_DATA_DIR, "amazon_qa_appliances.json");
    if (!existsSync(file)) {
      log(`Demo Q&A file not found at ${file}: questions skipped (they are imported on a later start once the file is there).`);
      return false;
    }
    const report = await importAmazonQa(
      { db: services.db, stores: services.stores, questions: services.questionsData },
      { storeId: DEMO_STORE_ID, file, groupId: "appliances", groupName: "Appliances" },
    );
    log(
      `Imported ${report.questionsInserted} real questions with answers (${report.products} appliance products, ${report.badLines.length} unparseable lines skipped: ${report.badLines.map((b) => b.line).join(", ")}) in ${report.ms} ms.`,
    );
  },
};

/** The records of a CSV file (gzip when it ends in .gz), the header not counted: the import's total, read first (about a second). */
async function countCsvRows(file: string): Promise<number> {
  const input = createReadStream(file);
  const parser = (/\.gz$/i.test(file) ? input.pipe(createGunzip()) : input).pipe(parse({ bom: true, relax_column_count: true, skip_empty_lines: true, from_line: 2 }));
  let rows = 0;
  for await (const _record of parser) rows++;
  return rows;
}

/** Seeders in order. Later areas (media, Q&A, surveys, loyalty, admin, AI) append theirs. */
export const DEMO_SEEDERS: DemoSeeder[] = [adminDemoSeeder(DEMO_STORE_ID), demoApiKeySeeder(DEMO_STORE_ID), reviewsSeeder, reviewMediaSeeder, questionsSeeder, loyaltyDemoSeeder(DEMO_STORE_ID)];
/** The seeders run before the server listens: quick, and they make the credentials the start-up banner shows once. */
export const BEFORE_LISTEN: ReadonlySet<string> = new Set(["admin-user", "api-key"]);

/**
 * AI content: queue generation of summaries and keywords for every demo product with enough published
 * reviews (most reviewed first); the background worker (started after listen) runs the queue, and the
 * demo store's AI auto-publish is on, so they are served as soon as each is generated.
 */
const aiSeeder: DemoSeeder = {
  name: "ai-content",
  async run({ services, log }) {
    const min = Math.min(services.aiConfig.minReviews, services.aiConfig.keywordsMinReviews);
    const products = (await services.stores.topProducts(DEMO_STORE_ID, 100_000)).filter((p) => p.reviewCount >= min);
    for (const p of products) await services.ai.enqueue(DEMO_STORE_ID, { type: "product", id: p.productId }, "demo");
    log(`Queued AI summaries and keywords for ${products.length} demo products with ${min}+ published reviews.`);
  },
};
DEMO_SEEDERS.push(demoSurveysSeeder(DEMO_STORE_ID));
DEMO_SEEDERS.push(platformDemoSeeder(DEMO_STORE_ID, DEMO_REVIEWS_FILE));
DEMO_SEEDERS.push(reviewRequestsDemoSeeder(DEMO_STORE_ID, DEMO_REVIEWS_FILE));
DEMO_SEEDERS.push(aiSeeder);

/** The PostgreSQL advisory lock held while a node imports the demo data (an arbitrary constant: "demo" in ASCII). */
export const DEMO_SEEDING_LOCK_KEY = 0x64656d6f;
/** The PostgreSQL advisory lock held while a node runs the BEFORE_LISTEN seeders ("demp"): never held for long. */
export const DEMO_PREPARE_LOCK_KEY = 0x64656d70;

/**
 * Run `work` holding the PostgreSQL session advisory lock `key` on a pool client of its own (the work's queries use
 * the other connections): `wait` blocks until the lock is free; without it, `work` does not run when another node
 * holds the lock, and the result is false. SQLite: no lock (one server process), `work` runs.
 */
async function withDemoLock(db: Db, key: number, wait: boolean, work: () => Promise<void>): Promise<boolean> {
  const lock = db.pool ? await db.pool.connect() : null;
  try {
    if (lock && wait) await lock.query("SELECT pg_advisory_lock($1)", [key]);
    else if (lock && !(await lock.query<{ got: boolean }>("SELECT pg_try_advisory_lock($1) AS got", [key])).rows[0].got) {
      lock.release();
      return false;
    }
  } catch (error) {
    lock?.release(true);
    throw error;
  }
  try {
    await work();
    return true;
  } finally {
    if (lock) {
      // Unlock, or (the connection failed) drop the client: its session, and so its lock, ends with it.
      const unlocked = await lock.query("SELECT pg_advisory_unlock($1)", [key]).then(
        () => true,
        () => false,
      );
      lock.release(!unlocked);
    }
  }
}

/** Create the demo store (idempotent) and run `seeders` not yet done, in order; a seeder that returns false is not marked done. */
async function runSeeders(ctx: DemoContext, seeders: readonly DemoSeeder[]): Promise<void> {
  const db = ctx.services.db;
  await ctx.services.stores.create({ storeId: DEMO_STORE_ID, name: "Chorus Demo Boutique", platform: DEMO_PLATFORM, aiAutoPublish: true });
  for (const seeder of seeders) {
    if (ctx.stopped?.()) return;
    if (await seederDone(db, seeder.name)) continue;
    // A seeder whose data was not there is not done: a later start with the file imports it.
    if ((await seeder.run(ctx)) === false) continue;
    await markSeederDone(db, seeder.name);
  }
}

const beforeListen = (s: DemoSeeder) => BEFORE_LISTEN.has(s.name);

/**
 * The quick part, before the server listens: the demo store and the BEFORE_LISTEN seeders of `seeders` (the admin
 * user and the API key, whose shown-once notices the banner prints). On PostgreSQL under DEMO_PREPARE_LOCK_KEY
 * (blocking; each seeder is a check then a create, made exactly-once by the lock), never behind a running import.
 */
export async function prepareDemoStore(ctx: DemoContext, seeders: readonly DemoSeeder[] = DEMO_SEEDERS): Promise<void> {
  await withDemoLock(ctx.services.db, DEMO_PREPARE_LOCK_KEY, true, () => runSeeders(ctx, seeders.filter(beforeListen)));
}

/**
 * Create the demo store on an empty database and run every seeder (of `seeders`, default all) not yet done, and wait
 * for it (CLIs and tests; `npm start` uses prepareDemoStore then startDemoImport). On PostgreSQL several nodes may
 * start at once on one database: one seeds at a time (session advisory locks, held by a pool client of their own), so
 * a node starting meanwhile waits, then finds every seeder done. On SQLite there is one server process.
 */
export async function ensureDemoStore(ctx: DemoContext, seeders: readonly DemoSeeder[] = DEMO_SEEDERS): Promise<void> {
  await prepareDemoStore(ctx, seeders);
  await withDemoLock(ctx.services.db, DEMO_SEEDING_LOCK_KEY, true, () =>
    runSeeders(
      ctx,
      seeders.filter((s) => !beforeListen(s)),
    ),
  );
}

/** A running demo import: `finished` settles when it is done here (imported, or seen done on another node) or stopped. */
export type DemoImport = { finished: Promise<void>; stop(): void };

/**
 * The import of the demo data after the server listens (README "Quick start"): every seeder of `seeders` but the
 * BEFORE_LISTEN ones, in the background, with the progress in `services.demoImport` (read by `/healthz` and the demo
 * pages), in the database (`demo_import_progress`, for the other nodes) and on the console (`log`: a line per 5,000
 * review rows, then the seeders' own lines).
 *
 * Only one process imports: on PostgreSQL the node that takes DEMO_SEEDING_LOCK_KEY (pg_try_advisory_lock); another
 * node reports the progress it reads from the database every `pollMs` (default 1,000 ms) and tries the lock again, and
 * once it gets it finds every seeder done. `stop()` ends the wait, or the import after its current seeder (a later
 * start resumes: each seeder is idempotent, the reviews keyed by their source row). A failed attempt is logged and
 * tried again after 5 s, up to 5 times (the seeders resume); `finished` never rejects.
 */
export function startDemoImport(ctx: DemoContext, seeders: readonly DemoSeeder[] = DEMO_SEEDERS, options: { pollMs?: number } = {}): DemoImport {
  const { services, log } = ctx;
  const db = services.db;
  const status = services.demoImport;
  const pending = seeders.filter((s) => !beforeListen(s));
  let stopped = false;
  let wake: (() => void) | null = null;
  const started = performance.now();
  const attempt = async () => {
    const known = await readImportProgress(db);
    status.set({ importing: true, ...known });
    // Progress writes one after another, never inside the import's transactions (onProgress runs after each commit).
    let writes = Promise.resolve();
    let lastLogged = -1;
    const progress = (p: { done: number; total: number }) => {
      // Called between the import's batches (after a commit): throwing ends the import there, cleanly.
      if (stopped) throw new Error("stopped");
      status.set({ importing: true, ...p });
      writes = writes.then(() => writeImportProgress(db, p)).catch(() => {});
      if (p.done === 0 || p.done === p.total || p.done - lastLogged >= 5000) {
        lastLogged = p.done;
        log(`Demo import: ${p.done.toLocaleString("en")} of ${p.total.toLocaleString("en")} reviews`);
      }
    };
    const work = async () => {
      await runSeeders({ ...ctx, progress, stopped: () => stopped }, pending);
      await writes;
    };
    for (;;) {
      if (stopped) return;
      if (await withDemoLock(db, DEMO_SEEDING_LOCK_KEY, false, work)) break;
      // Another node imports: show what it wrote, and try again shortly.
      const seen = await readImportProgress(db);
      if (seen) status.set({ importing: true, ...seen });
      await pause(options.pollMs ?? 1_000);
    }
    if (stopped) return;
    const final = await readImportProgress(db);
    status.set({ importing: false, ...final });
    log(`Demo import: done in ${Math.round((performance.now() - started) / 1000)} s`);
  };
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      wake = resolve;
      setTimeout(resolve, ms).unref();
    });
  // A failed attempt (e.g. SQLite busy past its retries while other writers run) is tried again: the seeders resume.
  const finished = (async () => {
    for (let tries = 1; ; tries++) {
      try {
        await attempt();
        return;
      } catch (error) {
        if (stopped) return;
        const message = error instanceof Error ? error.message : String(error);
        if (tries >= 5) {
          log(`Demo import failed (it resumes on the next start): ${message}`);
          return;
        }
        log(`Demo import: ${message}; trying again in 5 s`);
        await pause(5_000);
      }
    }
  })();
  return {
    finished,
    stop() {
      stopped = true;
      wake?.();
    },
  };
}
