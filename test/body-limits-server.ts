/**
 * Child process of test/body-limits.test.ts: a real Chorus server (startTestServer: the production
 * createHttpServer over the Remix build, a temp SQLite file, no read workers, no request logs) in a
 * process of its own, so the test can sample this process's RSS while it streams bodies at it.
 *
 * Seeds one store with real reviews, an enterprise API key, a loyalty program and an enrolled customer,
 * an NPS survey and an admin user; prints one JSON line `{ port, storeId, ... }` on stdout, then serves
 * until SIGTERM (or its stdin closes, i.e. the test process died).
 */
import { seedRealReviews, TEST_STORE_ID } from "./fixtures.ts";
import { startTestServer } from "./server.ts";
import { sql, value } from "../server/db/database.ts";
import { demoProgram } from "../server/loyalty/loyalty.demo.ts";
import { signPlatformToken } from "../server/loyalty/tokens.ts";
import { DEMO_CHANNEL_IDS, NPS_SURVEY } from "../server/surveys/surveys.demo.ts";

const PLATFORM_SECRET = "body-limits-platform-secret-0123456789abcdef";
export const ADMIN_EMAIL = "owner@body-limits.test";
export const ADMIN_PASSWORD = "body limits owner password";

const t = await startTestServer();
// Rate limits are not what this test is about: every refused upload should meet its body limit.
t.services.submissionLimiter.configure({ perIp: { max: 1_000_000, windowMs: 3_600_000 }, perEmail: { max: 1_000_000, windowMs: 3_600_000 } });
const rows = await seedRealReviews(t.services, { productIds: ["1078"] });
const reviewId = (await value<string>(t.services.db, sql`SELECT review_id FROM reviews WHERE store_id = ${TEST_STORE_ID} LIMIT 1`))!;
const apiKey = (await t.services.apiKeys.create(TEST_STORE_ID, "body limits")).key;
await t.services.loyalty.setupProgram(TEST_STORE_ID, demoProgram(PLATFORM_SECRET));
const login = await t.services.loyalty.login(TEST_STORE_ID, await signPlatformToken(PLATFORM_SECRET, { platformCustomerId: "body-limits-shopper", email: "shopper@body-limits.test" }));
await t.services.surveys.createSurvey(TEST_STORE_ID, NPS_SURVEY);
await t.services.admin.createUser({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD, storeIds: [TEST_STORE_ID] });

process.stdout.write(
  `${JSON.stringify({
    port: Number(new URL(t.baseUrl).port),
    storeId: TEST_STORE_ID,
    productId: rows[0].productId,
    reviewId,
    apiKey,
    customerToken: login.customerToken,
    channelSurveyId: DEMO_CHANNEL_IDS.npsCheckout,
    adminEmail: ADMIN_EMAIL,
    adminPassword: ADMIN_PASSWORD,
  })}\n`,
);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await t.close();
  process.exit(0);
};
process.on("SIGTERM", () => void stop());
process.stdin.on("end", () => void stop());
process.stdin.resume();
