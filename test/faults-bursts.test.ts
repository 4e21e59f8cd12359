/**
 * Fault tests (issue 8): SIGKILL the server in the middle of a survey-submission burst and of a
 * redemption burst, restart, and prove that every acknowledged write is there, nothing is half-written,
 * every loyalty balance equals its ledger sum, and the restarted server serves again.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../server/config.ts";
import { demoProgram } from "../server/loyalty/loyalty.demo.ts";
import { signPlatformToken } from "../server/loyalty/tokens.ts";
import { createServices } from "../server/services.ts";
import { DEMO_NPS_FILE, NPS_SURVEY, npsResponses, readNpsRows } from "../server/surveys/surveys.demo.ts";
import { DATA_DIR, TEST_STORE_ID } from "./fixtures.ts";
import { STALE_MS } from "../server/loyalty/platform-rewards.ts";
import { rewardPlatformFor } from "./shopify-admin-stand-in.ts";
import { freePort } from "./ports.ts";

const dir = mkdtempSync(join(tmpdir(), "chorus-bursts-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const SECRET = "faults-platform-secret-0123456789";

async function startServer(databasePath: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["server/http/main.ts"], {
    cwd: PROJECT_ROOT,
    stdio: "ignore",
    env: { ...process.env, DATABASE_PATH: databasePath, PORT: String(port), HOST: "127.0.0.1", CHORUS_DEMO: "0", CHORUS_AI_WORKER: "0", SURVEY_RESPONSES_PER_IP_PER_HOUR: "1000000" },
  });
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/v1/stores/${TEST_STORE_ID}/review_aggregate`)).ok) return child;
    } catch {
      /* starting */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill("SIGKILL");
  throw new Error("server did not start");
}

const killed = (child: ChildProcess) =>
  new Promise((resolve) => {
    child.once("exit", resolve);
    child.kill("SIGKILL");
  });
const port = () => freePort(4000, 4499);

describe("SIGKILL during a survey-submission burst", () => {
  it("keeps every acknowledged response, whole, and serves again after restart", async () => {
    const databasePath = join(dir, "surveys.sqlite");
    const setup = await createServices({ databasePath });
    await setup.stores.create({ storeId: TEST_STORE_ID, name: "Faults", platform: "shopify" });
    await setup.surveys.createSurvey(TEST_STORE_ID, NPS_SURVEY);
    await setup.close();
    // Real NPS answers from the shared file, as shoppers would submit them.
    const bodies = npsResponses(readNpsRows(join(DATA_DIR, DEMO_NPS_FILE))).slice(0, 400);

    const p = await port();
    const server = await startServer(databasePath, p);
    const acknowledged: string[] = [];
    let failures = 0;
    const send = async (b: (typeof bodies)[number]) => {
      try {
        const res = await fetch(`http://127.0.0.1:${p}/v1/stores/${TEST_STORE_ID}/surveys/${b.channelSurveyId}/responses`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ answeredQuestions: b.answeredQuestions }),
        });
        if (res.status === 201) acknowledged.push(((await res.json()) as { surveyResponse: { surveyResponseId: string } }).surveyResponse.surveyResponseId);
        else expect(res.status).toBeLessThan(500);
      } catch {
        failures++; // connection cut by the kill: not acknowledged
      }
    };
    const burst = Promise.all(bodies.map((b, i) => new Promise((r) => setTimeout(r, i * 2)).then(() => send(b))));
    while (acknowledged.length < 50) await new Promise((r) => setTimeout(r, 5));
    await killed(server);
    await burst;
    expect(failures).toBeGreaterThan(0); // the kill really interrupted the burst

    const after = await createServices({ databasePath });
    try {
      for (const id of acknowledged) {
        const row = await after.surveysData.getResponse(TEST_STORE_ID, id);
        expect(row, id).toBeDefined();
        expect(Array.isArray(JSON.parse(row!.answered_questions_json))).toBe(true);
      }
    } finally {
      await after.close();
    }
    const again = await startServer(databasePath, p);
    try {
      const res = await fetch(`http://127.0.0.1:${p}/v1/stores/${TEST_STORE_ID}/surveys/${bodies[0].channelSurveyId}/responses`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ answeredQuestions: bodies[0].answeredQuestions }),
      });
      expect(res.status).toBe(201);
    } finally {
      await killed(again);
    }
  }, 120_000);
});

describe("SIGKILL during a redemption burst", () => {
  it("leaves every balance equal to its ledger sum and keeps every acknowledged redemption", async () => {
    const databasePath = join(dir, `loyalty-${crypto.randomUUID()}.sqlite`); // a retry (CI) starts on a new file
    const setup = await createServices({ databasePath });
    await setup.stores.create({ storeId: TEST_STORE_ID, name: "Faults", platform: "shopify" });
    await setup.loyalty.setupProgram(TEST_STORE_ID, demoProgram(SECRET));
    // Rewards are created on a stand-in Shopify first (the node inherits SHOPIFY_ADMIN_API_URL from this process).
    const shopify = await rewardPlatformFor(setup, TEST_STORE_ID);
    const version = (await setup.loyalty.legalPolicies(TEST_STORE_ID)).version;
    for (let c = 0; c < 20; c++) {
      const id = crypto.randomUUID();
      await setup.loyaltyData.insertCustomer({ loyaltyCustomerId: id, storeId: TEST_STORE_ID, platformCustomerId: `shopper-${c}`, email: `shopper-${c}@example.com` });
      await setup.loyalty.activate(TEST_STORE_ID, id, { enrollmentChannel: "faults", legalPoliciesVersionAccepted: version }, null);
      await setup.loyalty.earnForOrder(TEST_STORE_ID, { customer: { platformCustomerId: `shopper-${c}` }, orderId: `order-${c}`, amount: 5000 });
    }
    const cheapest = (await setup.loyaltyData.redemptionRules(TEST_STORE_ID)).sort((a, b) => a.points_cost - b.points_cost)[0];
    await setup.close();

    const p = await port();
    const base = `http://127.0.0.1:${p}/v1/stores/${TEST_STORE_ID}`;
    const server = await startServer(databasePath, p);
    const tokens: string[] = [];
    for (let c = 0; c < 20; c++) {
      const platform = await signPlatformToken(SECRET, { platformCustomerId: `shopper-${c}`, email: `shopper-${c}@example.com` });
      const res = await fetch(`${base}/loyalty/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ customerAccessToken: platform }) });
      tokens.push(((await res.json()) as { customerToken: string }).customerToken);
    }
    const acknowledged: string[] = [];
    const redeem = async (token: string) => {
      try {
        const res = await fetch(`${base}/loyalty/customer/redemptions`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
          body: JSON.stringify({ redemptionRuleId: cheapest.redemption_rule_id }),
        });
        if (res.status === 201) acknowledged.push(((await res.json()) as { redemption: { transactionId: string } }).redemption.transactionId);
        else expect(res.status).toBeLessThan(500);
      } catch {
        /* cut by the kill */
      }
    };
    const burst = Promise.all(Array.from({ length: 400 }, (_, i) => new Promise((r) => setTimeout(r, i)).then(() => redeem(tokens[i % tokens.length]))));
    while (acknowledged.length < 30) await new Promise((r) => setTimeout(r, 5));
    await killed(server);
    await burst;

    const after = await createServices({ databasePath });
    try {
      expect(await after.loyaltyData.ledgerMismatches(TEST_STORE_ID)).toEqual([]);
      for (const id of acknowledged) expect(await after.loyaltyData.getTransaction(TEST_STORE_ID, id), id).toBeDefined();
      // Rewards the kill left between "discount created" and "points taken" are reconciled by code: afterwards every
      // discount on the platform has its points taken, and no points were taken without a discount.
      // The reconciler takes up to 50 stale rewards a pass (its loop runs every RECONCILE_EVERY_MS), and a loaded
      // machine can leave more than 50 in flight at the kill: passes until one finds nothing left to settle.
      for (let pass = 0; pass < 20; pass++) {
        const report = await after.platformRewards.runDue(Date.now() + STALE_MS + 1);
        if (report.confirmed + report.failed + report.pending === 0) break;
      }
      const rewards = await after.platformRewards.list(TEST_STORE_ID, { limit: 1000 });
      expect(rewards.filter((r) => r.state === "pending")).toEqual([]);
      expect(
        rewards
          .filter((r) => r.state === "confirmed")
          .map((r) => r.code)
          .sort(),
      ).toEqual([...shopify.discounts.keys()].sort());
      for (const r of rewards.filter((x) => x.state === "confirmed")) expect(await after.loyaltyData.getTransaction(TEST_STORE_ID, r.transaction_id!), r.code).toMatchObject({ coupon_code: r.code });
      expect(await after.loyaltyData.ledgerMismatches(TEST_STORE_ID)).toEqual([]);
    } finally {
      await after.close();
      await shopify.close();
      delete process.env.SHOPIFY_ADMIN_API_URL;
    }
  }, 120_000);
});
