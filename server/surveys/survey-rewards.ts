/**
 * Survey rewards and customer profiles (issue #36 items 4-5; docs/surveys.md "Rewards" and "Customer profiles").
 *
 * Rewards. A channel survey's coupon reward whose value is a discount (`10%`, `5` or `£5` in the shop's currency,
 * `free shipping`: `platformCouponOf`) gets a single-use code per survey response, created on the shop platform the
 * way loyalty rewards are (server/loyalty/platform-rewards.ts `createCoupon`: Shopify Admin API, the
 * `loyalty_reward.created` webhook, the demo platform). Any other value is a code the merchant made and is copied
 * onto each response as it is.
 * 1. In the response's own transaction, `reserve` writes a `pending` reward row with its code (primary key: the
 *    response, so once per response; unique per channel survey and e-mail address: one reward per address) and
 *    claims it for LEASE_MS.
 * 2. After the commit, `createNow` calls the platform (outside any transaction). Created → `pending → created` by a
 *    conditional UPDATE (`changes` checked) and the code copied onto the response's reward; the shopper sees it at once.
 * 3. Not created → the response is kept, the row stays pending with its next attempt; the persisted job (`runDue`,
 *    clock-movable) claims due rows by a conditional UPDATE of their lease (exactly one node tries a row at a time),
 *    asks the platform again (idempotent by code) and, when created, marks it and enqueues the code's mail in the same
 *    commit (outbox `dedupeKey` per response: mailed once). After GIVE_UP_MS the row is `failed`.
 *
 * Profiles. A profile answer with a known e-mail address (the customer's, else the e-mail answer) fills that
 * customer's profile field (`customer_profile_answers`, one row per profile question ID, the newest answer wins); a
 * date of birth also sets the loyalty customer's birthday of that address (docs/loyalty.md "Birthdays") when it has
 * none, or when it was set over a year ago (the birthday's once-a-year rule).
 */
import type { AnsweredQuestion, Reward } from "../contract/surveys.ts";
import { transaction, type Db } from "../db/database.ts";
import type { LifecycleRepo } from "../loyalty/lifecycle.repo.ts";
import { BIRTHDAY_CHANGE_MS } from "../loyalty/lifecycle.ts";
import type { LoyaltyRepo } from "../loyalty/loyalty.repo.ts";
import { newRewardCode, type PlatformRewards } from "../loyalty/platform-rewards.ts";
import type { OutgoingMail } from "../mail/mail.service.ts";
import { renderMail } from "../mail/render.ts";
import type { StoresRepo } from "../stores/stores.repo.ts";
import type { ProfileAnswerRow, SurveyRewardRow, SurveyRewardsRepo } from "./survey-rewards.repo.ts";

/** How long a node holds a reward it is creating (ms): longer than any platform call (10 s Shopify, 15 s webhook). */
export const LEASE_MS = 60_000;
/** Waits between attempts (ms): 1 min, 5 min, 30 min, then every 2 h. */
export const RETRY_DELAYS_MS = [60_000, 300_000, 1_800_000, 7_200_000] as const;
/** A reward not created after this long (ms, 3 days) is given up (`failed`; the merchant sees the error). */
export const GIVE_UP_MS = 3 * 86_400_000;
/** Time between two passes of the retry job (ms). */
export const RUN_EVERY_MS = 30_000;

/** The platform discount a channel survey's reward value describes, or null when the value is a code the merchant made. */
export function platformCouponOf(value: string): { type: SurveyRewardRow["discount_type"]; value: number } | null {
  const v = value.trim();
  if (/^free[\s-]?shipping$/i.test(v)) return { type: "free-shipping", value: 0 };
  const percent = /^(\d{1,3}(?:\.\d{1,2})?)\s*%(?:\s*off)?$/i.exec(v);
  if (percent) {
    const n = Number(percent[1]);
    return n > 0 && n <= 100 ? { type: "percentage-coupon", value: n } : null;
  }
  const amount = /^(?:[£$€¥]\s*)?(\d{1,6}(?:\.\d{1,2})?)(?:\s*(?:off))?$/i.exec(v);
  if (amount && Number(amount[1]) > 0) return { type: "fixed-amount-coupon", value: Number(amount[1]) };
  return null;
}

/** The e-mail address a response is about: the customer's, else the e-mail answer's; lower-cased. */
export function emailOf(customerEmail: string | null, answers: AnsweredQuestion[]): string | null {
  const answered = answers.find((a) => a.type === "email");
  const email = customerEmail ?? (answered?.type === "email" ? answered.answer : null);
  return email ? email.trim().toLowerCase() : null;
}

export type SurveyRewardsDeps = {
  db: Db;
  repo: SurveyRewardsRepo;
  platformRewards: Pick<PlatformRewards, "createCoupon">;
  loyalty: Pick<LoyaltyRepo, "getCustomerByEmail" | "lockCustomer">;
  lifecycle: Pick<LifecycleRepo, "birthday" | "setBirthday">;
  stores: Pick<StoresRepo, "get">;
  enqueueMail: (message: OutgoingMail) => Promise<unknown>;
  now?: () => number;
  log?: (line: string) => void;
};

/** Create the survey rewards and profiles service (`services.surveyRewards`). */
export function surveyRewards(deps: SurveyRewardsDeps) {
  const { db, repo } = deps;
  const now = deps.now ?? Date.now;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;

  /** Ask the platform for `row`'s coupon; record the outcome. `mail`: enqueue the code's mail when created (the job). */
  async function attempt(row: SurveyRewardRow, options: { retry: boolean; mail: boolean }): Promise<boolean> {
    const outcome = await deps.platformRewards
      .createCoupon(
        row.store_id,
        {
          code: row.code,
          title: `${row.description} (${row.code})`,
          type: row.discount_type,
          value: row.discount_value,
          platformCustomerId: null,
          minimumOrderAmount: null,
          startsAt: new Date(row.created_ms).toISOString(),
          endsAt: null,
          description: row.description,
          email: row.email_key,
          surveyResponseId: row.survey_response_id,
        },
        { retry: options.retry },
      )
      .catch((error: unknown) => ({ ok: false as const, message: error instanceof Error ? error.message : String(error) }));
    const t = now();
    if (!outcome.ok) {
      deps.log?.(`survey reward ${row.code} of store ${row.store_id} not created: ${outcome.message}`);
      const delay = RETRY_DELAYS_MS[Math.min(row.attempts, RETRY_DELAYS_MS.length - 1)];
      await transaction(db, () => repo.attemptFailed(row.store_id, row.survey_response_id, outcome.message, t - row.created_ms > GIVE_UP_MS ? null : t + delay, t));
      return false;
    }
    const storeName = options.mail && row.email_key ? ((await deps.stores.get(row.store_id))?.name ?? "") : "";
    return transaction(db, async () => {
      // Exactly-once across nodes: only the caller whose conditional UPDATE moved the row pending → created mails the code.
      const changed = await repo.markCreated(row.store_id, row.survey_response_id, outcome.platform, outcome.discountId, t);
      if (changed && options.mail && row.email_key) {
        const { html, text } = renderMail({
          storeName,
          preheader: `Your code: ${row.code}`,
          heading: "Your reward for answering our survey",
          paragraphs: [`Thank you for answering our survey. Here is your reward: ${row.description}.`, `Your code: ${row.code}`, "Enter it at checkout. It can be used once."],
          footer: `You get this e-mail because you answered a survey of ${storeName}.`,
        });
        await deps.enqueueMail({
          storeId: row.store_id,
          kind: "survey-reward",
          to: row.email_key,
          subject: `Your code from ${storeName}: ${row.code}`,
          html,
          text,
          dedupeKey: `survey-reward:${row.survey_response_id}`,
        });
      }
      return changed;
    });
  }

  const service = {
    /**
     * In the response's transaction: write the pending reward of a new response whose channel survey's reward is a
     * platform coupon. @returns false when `email` already has a reward of this channel survey (the response then
     * carries no reward: one reward per address).
     */
    async reserve(r: {
      storeId: string;
      surveyResponseId: string;
      channelSurveyId: string;
      email: string | null;
      description: string;
      coupon: { type: SurveyRewardRow["discount_type"]; value: number };
      createdMs: number;
    }): Promise<boolean> {
      const reserved = await repo.insertPending(
        {
          survey_response_id: r.surveyResponseId,
          store_id: r.storeId,
          channel_survey_id: r.channelSurveyId,
          email_key: r.email,
          code: newRewardCode(),
          discount_type: r.coupon.type,
          discount_value: r.coupon.value,
          description: r.description,
          created_ms: r.createdMs,
        },
        now() + LEASE_MS,
      );
      if (!reserved) await repo.dropResponseReward(r.storeId, r.surveyResponseId);
      return reserved;
    },

    /** After the response's commit: try to create its reserved reward at once. @returns whether it exists now. */
    async createNow(storeId: string, surveyResponseId: string): Promise<boolean> {
      const row = await repo.get(storeId, surveyResponseId);
      if (!row || row.state !== "pending") return row?.state === "created";
      return attempt(row, { retry: false, mail: false });
    },

    /** The state of a response's platform reward (undefined: none, e.g. a code the merchant made). */
    async stateOf(storeId: string, surveyResponseId: string): Promise<SurveyRewardRow["state"] | undefined> {
      return (await repo.get(storeId, surveyResponseId))?.state;
    },

    /**
     * In the response's transaction: fill the customer's profile fields from the profile answers, and a date of birth
     * into the loyalty customer's birthday (see the module comment). Nothing without an e-mail address.
     */
    async recordProfile(storeId: string, surveyResponseId: string, email: string | null, answers: AnsweredQuestion[], createdMs: number): Promise<void> {
      if (!email) return;
      for (const a of answers) {
        if (a.type !== "profile") continue;
        await repo.upsertProfileAnswer({
          store_id: storeId,
          email_key: email,
          profile_question_id: a.profileQuestionId,
          question_text: a.text,
          answer_json: JSON.stringify(a.answer),
          survey_response_id: surveyResponseId,
          updated_ms: createdMs,
        });
        if (a.answer.type !== "date-components") continue;
        const customer = await deps.loyalty.getCustomerByEmail(storeId, email);
        if (!customer) continue;
        // Row lock on the customer: the once-a-year check and the write are one step (as PATCH /loyalty/customer).
        await deps.loyalty.lockCustomer(storeId, customer.loyalty_customer_id);
        const wanted = `${String(a.answer.value.month).padStart(2, "0")}-${String(a.answer.value.day).padStart(2, "0")}`;
        const current = await deps.lifecycle.birthday(storeId, customer.loyalty_customer_id);
        if (current?.birthday === wanted) continue;
        if (current?.birthday && current.birthday_set_ms !== null && createdMs < current.birthday_set_ms + BIRTHDAY_CHANGE_MS) continue;
        await deps.lifecycle.setBirthday(storeId, customer.loyalty_customer_id, wanted, createdMs);
      }
    },

    /** A customer's profile fields, each with the survey response it came from (admin). */
    async profile(
      storeId: string,
      email: string,
    ): Promise<
      Array<{
        profileQuestionId: string;
        question: string;
        answer: Extract<AnsweredQuestion, { type: "profile" }>["answer"];
        surveyResponseId: string;
        surveyName: string;
        channel: string;
        answeredMs: number;
      }>
    > {
      return (await repo.profileOf(storeId, email.trim().toLowerCase())).map((r: ProfileAnswerRow) => ({
        profileQuestionId: r.profile_question_id,
        question: r.question_text,
        answer: JSON.parse(r.answer_json) as Extract<AnsweredQuestion, { type: "profile" }>["answer"],
        surveyResponseId: r.survey_response_id,
        surveyName: r.survey_name ?? "",
        channel: r.channel ?? "",
        answeredMs: r.response_created_ms ?? r.updated_ms,
      }));
    },

    /** The store's customers with a profile: e-mail, number of fields, last answer (ms), newest first (admin). */
    async profiles(storeId: string, limit = 50): Promise<Array<{ email: string; fields: number; updatedMs: number }>> {
      return (await repo.profileEmails(storeId, limit)).map((r) => ({ email: r.email_key, fields: Number(r.fields), updatedMs: Number(r.updated_ms) }));
    },

    /** One pass of the retry job at `nowMs`: claim due pending rewards, ask the platform, mail created codes. @returns counts. */
    async runDue(nowMs = now()): Promise<{ created: number; pending: number }> {
      const report = { created: 0, pending: 0 };
      for (const row of await repo.due(nowMs, 50)) {
        if (!(await transaction(db, () => repo.claim(row.store_id, row.survey_response_id, nowMs, nowMs + LEASE_MS)))) continue; // another node has it
        try {
          report[(await attempt(row, { retry: true, mail: true })) ? "created" : "pending"]++;
        } catch (error) {
          report.pending++;
          deps.log?.(`survey reward ${row.code}: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      return report;
    },

    /** Start the retry loop (server/http/main.ts). */
    start(): void {
      if (timer) return;
      timer = setInterval(() => {
        running ??= service
          .runDue()
          .catch((error: unknown) => deps.log?.(`survey rewards: ${String(error)}`))
          .finally(() => (running = null));
      }, RUN_EVERY_MS);
      timer.unref();
    },
    /** Stop the loop and wait for a pass under way. */
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
  };
  return service;
}
export type SurveyRewards = ReturnType<typeof surveyRewards>;
/** A reward as the shopper sees it after submitting: the code, or that it comes by e-mail. */
export type SubmittedReward = { reward?: Reward; rewardPending?: true };
