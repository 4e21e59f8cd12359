/**
 * The demo store: created on an empty database at start-up from the real shared data
 * (DEMO_DATA_DIR), never from invented reviews. Each area adds a seeder to DEMO_SEEDERS; every
 * seeder is idempotent and runs once (recorded in app_settings), so an interrupted start resumes.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { importReviewsCsv } from "../import/reviews-csv.ts";
import { adminDemoSeeder } from "../admin/admin.demo.ts";
import { loyaltyDemoSeeder } from "../loyalty/loyalty.demo.ts";
import { demoSurveysSeeder } from "../surveys/surveys.demo.ts";
import { seedDemoMedia } from "../media/demo-media.ts";
import { importAmazonQa } from "../questions/amazon-qa.ts";
import { platformDemoSeeder } from "../platforms/platforms.demo.ts";
import { reviewRequestsDemoSeeder } from "../review-requests/review-requests.demo.ts";
import { one, run, sql } from "../db/database.ts";
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
  async run({ services, config, log }) {
    const local = join(config.DEMO_DATA_DIR, DEMO_REVIEWS_FILE);
    const file = existsSync(local) ? local : SHIPPED_REVIEWS_FILE;
    log(`Importing real reviews from ${file} ...`);
    const report = await importReviewsCsv(
      { db: services.db, stores: services.stores, reviews: services.reviewsData },
      { storeId: DEMO_STORE_ID, file, onProgress: (p) => log(`  ${p.rowsRead} rows read, ${p.inserted} imported`), progressEvery: 5000 },
    );
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
    const report = await importAmazonQa({ db: services.db, stores: services.stores, questions: services.questionsData }, { storeId: DEMO_STORE_ID, file, groupId: "appliances", groupName: "Appliances" });
    log(`Imported ${report.questionsInserted} real questions with answers (${report.products} appliance products, ${report.badLines.length} unparseable lines skipped: ${report.badLines.map((b) => b.line).join(", ")}) in ${report.ms} ms.`);
  },
};

/** Seeders in order. Later areas (media, Q&A, surveys, loyalty, admin, AI) append theirs. */
export const DEMO_SEEDERS: DemoSeeder[] = [reviewsSeeder, reviewMediaSeeder, questionsSeeder, loyaltyDemoSeeder(DEMO_STORE_ID)];
DEMO_SEEDERS.push(adminDemoSeeder(DEMO_STORE_ID));

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

/** The PostgreSQL advisory lock held while a node seeds the demo store (an arbitrary constant: "demo" in ASCII). */
export const DEMO_SEEDING_LOCK_KEY = 0x64656d6f;

/**
 * Create the demo store on an empty database and run every seeder (of `seeders`, default all) not yet done.
 * On PostgreSQL several nodes may start at once on one database: one seeds at a time (a session advisory lock,
 * DEMO_SEEDING_LOCK_KEY, held by one pool connection of its own for the seeding only), so a node starting meanwhile
 * waits, then finds every seeder done. On SQLite there is one server process.
 */
export async function ensureDemoStore(ctx: DemoContext, seeders: readonly DemoSeeder[] = DEMO_SEEDERS): Promise<void> {
  const { services } = ctx;
  const db = services.db;
  // A session lock on one client taken from the pool: the seeders' own queries use the other connections.
  const lock = db.pool ? await db.pool.connect() : null;
  try {
    await lock?.query("SELECT pg_advisory_lock($1)", [DEMO_SEEDING_LOCK_KEY]);
  } catch (error) {
    lock?.release(true);
    throw error;
  }
  try {
    await services.stores.create({ storeId: DEMO_STORE_ID, name: "Chorus Demo Boutique", platform: DEMO_PLATFORM, aiAutoPublish: true });
    for (const seeder of seeders) {
      const flag = `demo_seeded:${seeder.name}`;
      if (await one(db, sql`SELECT 1 AS done FROM app_settings WHERE key = ${flag}`)) continue;
      // A seeder whose data was not there is not done: a later start with the file imports it.
      if ((await seeder.run(ctx)) === false) continue;
      await run(db, sql`INSERT INTO app_settings (key, value) VALUES (${flag}, ${new Date().toISOString()}) ON CONFLICT (key) DO UPDATE SET value = excluded.value`);
    }
  } finally {
    if (lock) {
      // Unlock, or (the connection failed) drop the client: its session, and so its lock, ends with it.
      const unlocked = await lock.query("SELECT pg_advisory_unlock($1)", [DEMO_SEEDING_LOCK_KEY]).then(() => true, () => false);
      lock.release(!unlocked);
    }
  }
}
