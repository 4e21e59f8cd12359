/**
 * The composition root: opens the database and builds every data module and service once.
 * The HTTP server passes the result to Remix as load context (`context.services`), so state
 * (the connection, caches, queues) lives in exactly one place; routes never open databases.
 */
import Database from "better-sqlite3";
import { randomBytes } from "node:crypto";
import { adminRepo } from "./admin/admin.repo.ts";
import { adminService } from "./admin/admin.service.ts";
import { accountsRepo } from "./admin/accounts.repo.ts";
import { passwordResetService } from "./admin/password-reset.service.ts";
import { signupService } from "./admin/signup.service.ts";
import { teamService } from "./admin/team.service.ts";
import { moderationRepo } from "./admin/moderation.repo.ts";
import { overviewRepo } from "./admin/overview.repo.ts";
import { overviewService } from "./admin/overview.service.ts";
import { moderationService } from "./admin/moderation.service.ts";
import { qaModerationRepo } from "./admin/qa-moderation.repo.ts";
import { qaModerationService } from "./admin/qa-moderation.service.ts";
import { apiKeys } from "./auth/api-keys.ts";
import { dialect, one, openDatabase, run, sql, type Db } from "./db/database.ts";
import { contentScopeWatcher } from "./db/content-scopes.ts";
import { reviewsRepo } from "./reviews/reviews.repo.ts";
import { reviewsService } from "./reviews/reviews.service.ts";
import { storesRepo } from "./stores/stores.repo.ts";
import { regionsService } from "./surveys/regions.ts";
import { aiRepo } from "./ai/ai.repo.ts";
import { aiService } from "./ai/ai.service.ts";
import { loadAiConfig, type AiConfig } from "./ai/config.ts";
import { createKeywordEngine } from "./ai/keywords.ts";
import { aiWorker } from "./ai/worker.ts";
import { createTranslationProvider } from "./translation/providers.ts";
import { translationService } from "./translation/translation.service.ts";
import { loyaltyRepo } from "./loyalty/loyalty.repo.ts";
import { lifecycleRepo } from "./loyalty/lifecycle.repo.ts";
import { loyaltyLifecycle } from "./loyalty/lifecycle.ts";
import { loyaltyEnterprise } from "./loyalty/enterprise.ts";
import { loyaltyService } from "./loyalty/loyalty.service.ts";
import { platformRewards } from "./loyalty/platform-rewards.ts";
import { platformRewardsRepo } from "./loyalty/platform-rewards.repo.ts";
import { referrals as referralsService } from "./loyalty/referrals.ts";
import { referralsRepo } from "./loyalty/referrals.repo.ts";
import { reviewsUploadService } from "./import/reviews-upload.ts";
import { customerTokens } from "./loyalty/tokens.ts";
import { surveysRepo } from "./surveys/surveys.repo.ts";
import { surveysService } from "./surveys/surveys.service.ts";
import { surveyBuilderRepo } from "./surveys/survey-builder.repo.ts";
import { surveyBuilderService } from "./surveys/survey-builder.service.ts";
import { surveyRewards } from "./surveys/survey-rewards.ts";
import { surveyRewardsRepo } from "./surveys/survey-rewards.repo.ts";
import { mediaRepo } from "./media/media.repo.ts";
import { mediaStore } from "./media/media.service.ts";
import { ordersRepo } from "./orders/orders.repo.ts";
import { ordersService } from "./orders/orders.service.ts";
import { platformsRepo } from "./platforms/platforms.repo.ts";
import { platformsService } from "./platforms/platforms.service.ts";
import { secretBox } from "./platforms/secret-box.ts";
import { feedsRepo } from "./feeds/feeds.repo.ts";
import { feedsService } from "./feeds/feeds.service.ts";
import { shopUrlOf, storeReviewsRepo } from "./store-reviews/store-reviews.repo.ts";
import { storeReviewsService } from "./store-reviews/store-reviews.service.ts";
import { settingsService } from "./settings/settings.service.ts";
import { privacyRepo } from "./privacy/privacy.repo.ts";
import { privacyService } from "./privacy/privacy.service.ts";
import { questionsRepo } from "./questions/questions.repo.ts";
import { questionsService } from "./questions/questions.service.ts";
import {
  addressLimiter,
  DEFAULT_REFERRAL_SENDER_LIMIT,
  DEFAULT_SUBMISSION_LIMITS,
  DEFAULT_SURVEY_RESPONSE_LIMIT,
  memoryWindowCounter,
  sharedWindowCounter,
  submissionLimiter,
  voteLimits,
} from "./reviews/submission-limits.ts";
import { submissionsService } from "./reviews/submissions.service.ts";
import { votesRepo } from "./reviews/votes.repo.ts";
import { votesService } from "./reviews/votes.service.ts";
import { widgetSettingsRepo } from "./widget-settings/widget-settings.repo.ts";
import { widgetSettingsService } from "./widget-settings/widget-settings.service.ts";
import { DEFAULT_MAIL_FROM } from "./mail/address.ts";
import { mailRepo } from "./mail/mail.repo.ts";
import { mailService } from "./mail/mail.service.ts";
import { renderMail } from "./mail/render.ts";
import { mailSender } from "./mail/sender.ts";
import { createWebhooks } from "./webhooks/webhooks.ts";
import { createKlaviyo } from "./marketing/klaviyo.ts";
import { exportsRepo } from "./exports/exports.repo.ts";
import { exportsService } from "./exports/exports.service.ts";
import { reviewRequestsRepo } from "./review-requests/review-requests.repo.ts";
import { reviewRequestsService } from "./review-requests/review-requests.service.ts";
import { demoImportStatus } from "./demo/demo-status.ts";

export type ServicesOptions = {
  /** SQLite file path (or `:memory:`), or a PostgreSQL URL. */
  databasePath: string;
  /**
   * Read-only services (the read worker threads, server/http/read-workers.ts): the database is opened read-only
   * (SQLite) or with a small pool (PostgreSQL), not migrated, and the installation secrets must exist already
   * (the server's own services made them). Default false.
   */
  readonly?: boolean;
  /** Directory for uploaded and generated media files. */
  mediaPath?: string;
  /** AI and translation settings over the environment's (server/ai/config.ts). */
  ai?: Partial<AiConfig>;
  /** Log lines of background work (AI worker, translation fallbacks). Default: silent. */
  log?: (line: string) => void;
  /**
   * Outgoing mail (server/mail, docs/mail.md): `smtpUrl` (SMTP_URL; absent: messages are kept, not sent),
   * `from` (MAIL_FROM), `now` the clock of the outbox and its sender (epoch ms; tests move it).
   */
  mail?: { smtpUrl?: string | null; from?: string; now?: () => number };
  /** The clock of the loyalty lifecycle (birthdays, expiry, pending points: server/loyalty/lifecycle.ts; epoch ms; tests move it). */
  loyalty?: { now?: () => number };
  /**
   * Whether outgoing requests made for merchants (import media, webhooks, platform APIs) may reach loopback
   * addresses (ALLOW_LOOPBACK_REQUESTS=1, server/shared/outgoing-request.ts; default false).
   */
  allowLoopbackRequests?: boolean;
  /**
   * Outgoing webhooks (server/webhooks, docs/webhooks.md): `allowInsecure` is the older name of
   * `allowLoopbackRequests` (either turns it on), `now` the clock of the queue (epoch ms; tests move it),
   * `publicUrl` the origin of absolute media URLs in event bodies (PUBLIC_URL), `leaseMs` how long a delivery claim
   * holds (WEBHOOK_LEASE_MS).
   */
  webhooks?: { allowInsecure?: boolean; now?: () => number; publicUrl?: string; leaseMs?: number };
  /**
   * Loyalty rewards (server/loyalty/platform-rewards.ts): `now`, the clock of reward times and reward webhook
   * signatures (epoch ms; tests move it; default the webhooks' clock);
   * `shopifyTimeoutMs`, the longest Admin API call (default 10 s); `demoStoreId`, the store that uses the built-in
   * demo platform while it has no shop domain (server/http/main.ts: the demo store when CHORUS_DEMO=1).
   */
  rewards?: { now?: () => number; shopifyTimeoutMs?: number; demoStoreId?: string };
  /** Klaviyo (server/marketing, docs/klaviyo.md): `now`, the clock of its outbox and send job (epoch ms; default the webhooks' clock). */
  klaviyo?: { now?: () => number };
};

/**
 * Read a named installation secret from `app_settings`, creating a random 256-bit one on first use.
 * Secrets live in the database, never in the repository.
 * @returns a promise of the secret. Exactly-once: the first writer's value wins by the primary key
 * (`ON CONFLICT (key) DO NOTHING`), and every node reads that one.
 */
export async function installationSecret(db: Db, name: string, options: { readonly?: boolean } = {}): Promise<string> {
  if (options.readonly) {
    const row = await one<{ value: string }>(db, sql`SELECT value FROM app_settings WHERE key = ${name}`);
    if (!row) throw new Error(`The installation secret ${name} does not exist yet (read-only services are built after the server's own)`);
    return row.value;
  }
  await run(db, sql`INSERT INTO app_settings (key, value) VALUES (${name}, ${randomBytes(32).toString("base64url")}) ON CONFLICT (key) DO NOTHING`);
  return (await one<{ value: string }>(db, sql`SELECT value FROM app_settings WHERE key = ${name}`))!.value;
}

/** PostgreSQL connections of read-only services (one read worker thread computes one read at a time). */
const READ_ONLY_POOL_SIZE = 2;

/** Build all services over the database at `options.databasePath` (migrating it). @returns a promise of the services. */
export async function createServices(options: ServicesOptions) {
  const db = await openDatabase(options.databasePath, options.readonly ? { readonly: true, poolSize: READ_ONLY_POOL_SIZE } : {});
  try {
    return await buildServices(db, options);
  } catch (error) {
    await db.close();
    throw error;
  }
}

async function buildServices(db: Db, options: ServicesOptions) {
  const allowLoopbackRequests = options.allowLoopbackRequests === true || options.webhooks?.allowInsecure === true;
  const secretOptions = { readonly: options.readonly };
  const secret = await installationSecret(db, "cursor_secret", secretOptions);
  const loyaltyTokenSecret = await installationSecret(db, "loyalty_customer_token_secret", secretOptions);
  const platformSecretKey = await installationSecret(db, "platform_secret_key", secretOptions);
  const webhookSecretKey = await installationSecret(db, "webhook_secret_key", secretOptions);
  const stores = storesRepo(db);
  const reviewsData = reviewsRepo(db);
  const aiConfig: AiConfig = { ...loadAiConfig(), ...options.ai };
  const aiData = aiRepo(db);
  const translation = translationService({ db, repo: aiData, provider: createTranslationProvider(aiConfig.translation), log: options.log });
  const reviews = reviewsService({ reviews: reviewsData, stores, secret, translate: translation.translate });
  const ai = aiService({ db, repo: aiData, stores, reviews, engine: createKeywordEngine(), config: aiConfig, log: options.log });
  const worker = aiWorker({ repo: aiData, ai, log: options.log }, { sweepIntervalMs: aiConfig.sweepIntervalMs });
  const keys = apiKeys(db);
  const loyaltyData = loyaltyRepo(db);
  const loyaltyLifecycleData = lifecycleRepo(db);
  const loyalty = loyaltyService({ db, repo: loyaltyData, stores, tokens: customerTokens(loyaltyTokenSecret), secret });
  const adminData = adminRepo(db);
  const admin = adminService({ db, admin: adminData, stores });
  const moderation = moderationService({ db, moderation: moderationRepo(db), secret });
  const surveysData = surveysRepo(db);
  // Survey rewards and profiles (issue #36 items 4-5, server/surveys/survey-rewards.ts), built below with the platform path.
  const later: { surveyRewards?: ReturnType<typeof surveyRewards> } = {};
  const surveys = surveysService({ db, surveys: surveysData, stores, secret, rewards: () => later.surveyRewards });
  const surveyBuilder = surveyBuilderService({ db, surveys: surveysData, builder: surveyBuilderRepo(db) });
  // Shopper writes (issue 3): media store, orders, votes, questions, submission limits.
  const mediaPath = options.mediaPath ?? "data/media";
  const media = mediaStore(mediaPath);
  const orders = ordersRepo(db);
  const mediaRows = mediaRepo(db);
  const questionsData = questionsRepo(db);
  // Storefront write limits: in memory on SQLite (one process), in rate_limit_hits on PostgreSQL (shared by every node).
  const windows = (name: string, idleMs?: number) => (dialect(db) === "postgres" ? sharedWindowCounter(db, name) : memoryWindowCounter(idleMs));
  const limiter = submissionLimiter(DEFAULT_SUBMISSION_LIMITS, windows("submissions"));
  const visitorSecret = await installationSecret(db, "visitor_secret", secretOptions);
  const voteLimit = voteLimits();
  const votesData = votesRepo(db, voteLimit.current);
  const widgetSettings = widgetSettingsService({ db, repo: widgetSettingsRepo(db), stores });
  const submissions = submissionsService({
    db,
    reviews: reviewsData,
    reviewsService: reviews,
    stores,
    media,
    mediaRows,
    limiter,
    orders,
    formAttributes: widgetSettings.formAttributes,
  });
  // Shop-platform connection (issue #22): webhooks → orders, products, loyalty points (server/platforms).
  const feedsData = feedsRepo(db);
  const platforms = platformsService({
    db,
    repo: platformsRepo(db),
    orders,
    loyalty: loyaltyData,
    lifecycle: loyaltyLifecycleData,
    box: secretBox(platformSecretKey),
    identifiers: feedsData,
    allowLoopback: allowLoopbackRequests,
    storePlatform: async (storeId) => (await stores.get(storeId))?.platform,
    log: (message, error) => options.log?.(`${message}: ${String(error)}`),
    // Referral rewards follow the friend's order (server/loyalty/referrals.ts; built below, called only later).
    referrals: { orderChanged: (storeId, order) => referralProgram.orderChanged(storeId, order), orderReversed: (storeId, orderId, label) => referralProgram.orderReversed(storeId, orderId, label) },
  });
  // Google Shopping feeds (issue #38): the Product Reviews feed and product identifiers (server/feeds).
  // Store reviews for Google seller ratings (server/store-reviews): the merchant review feed reads the published ones.
  const storeReviewsData = storeReviewsRepo(db);
  const storeReviews = storeReviewsService({ repo: storeReviewsData, stores, limiter });
  const shopUrl = async (storeId: string) => {
    const url = await shopUrlOf(db, storeId);
    return url && /^https?:\/\//.test(url) && URL.canParse(url) ? url : null;
  };
  const feeds = feedsService({ db, repo: feedsData, stores, box: secretBox(platformSecretKey), storeReviews: storeReviewsData, shopUrl });

  // Klaviyo (issue #38 item 3): events and profile properties through a persisted outbox (server/marketing).
  // The referrals feature plugs in here: `referralLink: (storeId, email) => …` puts the shopper's link on their profile.
  const klaviyo = createKlaviyo({
    db,
    box: secretBox(platformSecretKey),
    allowLoopback: allowLoopbackRequests,
    now: options.klaviyo?.now ?? options.webhooks?.now ?? Date.now,
    log: options.log,
  });
  const questions = questionsService({ questions: questionsData, reviewsService: reviews, stores, limiter });
  // Shopper data rights (issue #24 item 1): export and erasure of one address's data (server/privacy).
  const privacy = privacyService({
    db,
    repo: privacyRepo(db),
    stores,
    mediaPath,
    ai,
    forgetMail: (storeId, email) => mail.forgetRecipient(storeId, email),
    forgetWebhookEvents: (storeId, email) => webhooks.service.forgetEmail(storeId, email),
    forgetKlaviyo: (storeId, email) => klaviyo.service.forgetEmail(storeId, email),
    // Shopify data requests are passed on to the store's members by e-mail.
    notifyTeam: async (storeId, m) => {
      const store = await stores.get(storeId);
      if (!store) return 0;
      const { html, text } = renderMail({ storeName: store.name, heading: m.heading, paragraphs: m.paragraphs, action: m.action });
      const members = await accountDeps.accounts.members(storeId);
      for (const member of members) await mail.enqueue({ storeId, kind: "privacy-request", to: member.email, subject: m.subject, html, text });
      return members.length;
    },
  });
  // Outgoing mail (issue #21 item 1): the outbox and its send job (started by server/http/main.ts).
  const mailNow = options.mail?.now ?? Date.now;
  const mailData = mailRepo(db);
  const sender = mailSender({ db, repo: mailData, smtpUrl: options.mail?.smtpUrl ?? null, from: options.mail?.from ?? DEFAULT_MAIL_FROM, now: mailNow, log: options.log });
  const mail = mailService({ db, repo: mailData, sending: sender.enabled, now: mailNow, secret, onEnqueued: () => sender.wake() });
  // Loyalty lifecycle (issue #35 items 3-4) and the enterprise loyalty API (item 7).
  const loyaltyLifecycleService = loyaltyLifecycle({ db, repo: loyaltyData, life: loyaltyLifecycleData, stores, mail, now: options.loyalty?.now ?? Date.now });
  const loyaltyEnterpriseService = loyaltyEnterprise({ db, repo: loyaltyData, rewardsRepo: platformRewardsRepo(db), lifecycle: loyaltyLifecycleService, ledger: loyalty, secret });
  // Accounts (issue #21 item 2): sign-up and operators, a store's team and invitations, password reset.
  const accountDeps = { db, admin: adminData, adminService: admin, accounts: accountsRepo(db), stores };
  // Review requests (issue #22 item 2): settings, the persisted schedule, hosted review links (server/review-requests).
  const reviewRequests = reviewRequestsService({
    db,
    repo: reviewRequestsRepo(db),
    stores,
    mail,
    submissions,
    storeReviews,
    orderNumber: async (storeId, orderId) => (await orders.getOrder(storeId, orderId))?.order_name,
  });

  // Outgoing webhooks (issue #24 item 2): subscriptions, and the queue the outbox triggers feed (started by server/http/main.ts).
  const webhooks = createWebhooks({
    db,
    secretKey: webhookSecretKey,
    now: options.webhooks?.now ?? Date.now,
    leaseMs: options.webhooks?.leaseMs,
    log: options.log,
    enqueueMail: (message) => mail.enqueue(message),
    allowLoopback: allowLoopbackRequests,
    stores,
    reviewsData,
    reviews,
    surveysData,
    loyaltyData,
    publicOrigin: () => options.webhooks?.publicUrl ?? "http://localhost:3000",
  });

  // Rewards created on the shop platform before their code is shown (issue #35 item 1, server/loyalty/platform-rewards.ts).
  const rewards = platformRewards({
    db,
    repo: platformRewardsRepo(db),
    loyalty: loyaltyData,
    platforms: platformsRepo(db),
    platformBox: secretBox(platformSecretKey),
    webhookBox: secretBox(webhookSecretKey),
    isDemoStore: (storeId) => storeId === options.rewards?.demoStoreId,
    shopifyApiUrl: () => process.env.SHOPIFY_ADMIN_API_URL || undefined,
    allowLoopback: allowLoopbackRequests,
    now: options.rewards?.now ?? options.webhooks?.now,
    shopifyTimeoutMs: options.rewards?.shopifyTimeoutMs,
    log: options.log,
  });
  const surveyRewardsJob = surveyRewards({
    db,
    repo: surveyRewardsRepo(db),
    platformRewards: rewards,
    loyalty: loyaltyData,
    lifecycle: loyaltyLifecycleData,
    stores,
    enqueueMail: (message) => mail.enqueue(message),
    now: options.rewards?.now,
    log: options.log,
  });
  later.surveyRewards = surveyRewardsJob;

  // Referrals (issue #35 item 2, server/loyalty/referrals.ts): links, friend discounts on the platform, sender rewards.
  const referralProgram = referralsService({ db, repo: referralsRepo(db), loyalty: loyaltyData, stores, mail, rewards, now: options.rewards?.now ?? options.webhooks?.now, log: options.log });

  // Content scopes for the response cache (server/db/content-scopes.ts): PRAGMA data_version on a second
  // connection changes after every commit by any other connection, i.e. by this process's main connection
  // and by CLIs alike; after one, the watcher reads which scopes changed.
  // On PostgreSQL the watcher listens for the triggers' notifications (server/db/content-scopes.ts); no second SQLite connection.
  const watcher = options.databasePath === ":memory:" || dialect(db) === "postgres" ? null : new Database(options.databasePath, { readonly: true });
  const contentScopes = await contentScopeWatcher(db, watcher);

  return {
    db,
    secret,
    /** Outgoing requests may reach loopback addresses (ALLOW_LOOPBACK_REQUESTS=1; server/shared/outgoing-request.ts). */
    allowLoopbackRequests,
    /** Shopper data export and erasure (issue #24 item 1). */
    privacy,
    databasePath: options.databasePath,
    mediaPath,
    stores,
    reviewsData,
    reviews,
    /** Reviews CSV uploaded in the admin (server/import/reviews-upload.ts). */
    reviewImport: reviewsUploadService({ db, stores, reviews: reviewsData }),
    apiKeys: keys,
    aiConfig,
    aiData,
    ai,
    aiWorker: worker,
    translation,
    loyaltyData,
    loyalty,
    /** Birthdays, expiry, pending points and settings (server/loyalty/lifecycle.ts): `runDue(nowMs)` is its job. */
    loyaltyLifecycle: loyaltyLifecycleService,
    /** The enterprise loyalty API's customer operations (server/loyalty/enterprise.ts). */
    loyaltyEnterprise: loyaltyEnterpriseService,
    /** Merchant admin sign-in, sessions, CSRF tokens, memberships (server/admin). */
    admin,
    /** Review moderation queue, publish/reject, replies (server/admin). */
    moderation,
    surveysData,
    surveys,
    /** A country's ISO 3166-2 regions for the survey's location question (server/surveys/regions.ts). */
    regions: regionsService({ stores }),
    /** The admin survey builder: questions, order, channel surveys, option counts (docs/surveys.md "The survey builder"). */
    surveyBuilder,
    media,
    mediaRows,
    /** Order lines (the data module; routes use `orders`). */
    ordersData: orders,
    /** Order import (server/orders/orders.service.ts). */
    orders: ordersService({ repo: orders, secret }),
    /** Shop-platform connection and its webhooks (server/platforms, docs/platforms.md). */
    platforms,
    /** GET/PATCH /enterprise/settings: the composed settings sections (server/settings/settings.service.ts). */
    settings: settingsService({ db, platforms, reviewRequests, widgetSettings, stores, feeds, klaviyo: klaviyo.service, referrals: referralProgram }),
    /** Google Shopping feeds: the Product Reviews feed, its token, product identifiers (server/feeds, docs/google-shopping.md). */
    feeds,
    /** Store reviews (Google seller ratings): submission and moderation (server/store-reviews, docs/google-shopping.md). */
    storeReviews,
    questionsData,
    questions,
    /** Q&A moderation queue and bulk publish/reject of questions (server/admin). */
    qaModeration: qaModerationService({ db, repo: qaModerationRepo(db), secret }),
    submissions,
    submissionLimiter: limiter,
    /** Storefront survey responses per client address (issue #19 finding 9; `SURVEY_RESPONSES_PER_IP_PER_HOUR`, docs/writes.md). */
    /** Referral program, links, friend discounts and sender rewards (server/loyalty/referrals.ts): `runDue(nowMs)` creates pending sender coupons. */
    referrals: referralProgram,
    /** New referral links per client address (`REFERRAL_SENDERS_PER_IP_PER_HOUR`, docs/writes.md). */
    referralLimiter: addressLimiter("referral links", DEFAULT_REFERRAL_SENDER_LIMIT, windows("referral-senders", DEFAULT_REFERRAL_SENDER_LIMIT.windowMs)),
    surveyLimiter: addressLimiter("survey responses", DEFAULT_SURVEY_RESPONSE_LIMIT, windows("survey-responses", DEFAULT_SURVEY_RESPONSE_LIMIT.windowMs)),
    /** Helpful votes with their per-address limits (issue #19 finding 5, docs/writes.md). */
    votes: votesService({ stores, votes: votesData, visitorSecret }),
    /** The per-address vote limits (`VOTES_PER_IP_PER_HOUR`); read at each vote. */
    voteLimits: voteLimit,
    visitorSecret,
    /** Widget texts per language, colours and which widgets show (server/widget-settings; settings section `widgets`). */
    widgetSettings,
    /** What committed data changed, for the response cache's freshness rule (server/db/content-scopes.ts). */
    contentScopes,
    /** Outgoing mail: `mail.enqueue(OutgoingMail)` (server/mail/mail.service.ts), the admin outbox reads. */
    mail,
    /** The send job of the outbox (server/mail/sender.ts): `start()`/`stop()`, `runOnce()` for tests. */
    mailSender: sender,
    /** Outgoing webhook subscriptions, delivery log and replays (server/webhooks/webhooks.service.ts). */
    webhooks: webhooks.service,
    /** The webhook delivery queue (server/webhooks/delivery.ts): `start()`/`stop()`, `runDue(nowMs)` for tests. */
    webhookDelivery: webhooks.delivery,
    /** Klaviyo: the private API key, the delivery log, the erasure hook (server/marketing/klaviyo.service.ts). */
    klaviyo: klaviyo.service,
    /** Klaviyo's send job (server/marketing/klaviyo-sender.ts): `runDue(nowMs)`, started by server/http/main.ts. */
    klaviyoSender: klaviyo.sender,
    /** Streamed CSV exports: reviews, questions, loyalty customers and transactions, orders (server/exports). */
    exports: exportsService({ repo: exportsRepo(db), stores }),
    /** Store sign-up (`SIGNUP`), new stores from the admin, instance operators (server/admin/signup.service.ts). */
    signup: signupService(accountDeps),
    /** A store's members, roles and e-mail invitations (server/admin/team.service.ts). */
    team: teamService({ ...accountDeps, mail }),
    /** Password reset by e-mail (server/admin/password-reset.service.ts). */
    passwordResets: passwordResetService({ ...accountDeps, mail }),
    /** Review requests: settings (`get`/`update`), `orderFulfilled`/`orderCancelled`, the schedule (`runDue`), hosted review and unsubscribe links (server/review-requests). */
    reviewRequests,
    /** The admin home: getting-started checklist, "check my page", the 30-day dashboard (server/admin/overview.service.ts). */
    overview: overviewService({
      repo: overviewRepo(db),
      allowLoopback: allowLoopbackRequests,
      reviewRequestsOn: async (storeId) => (await reviewRequests.get(storeId)).enabled,
      funnel: (storeId, days, nowMs) => reviewRequests.funnel(storeId, days, nowMs),
    }),
    /** Loyalty rewards created on the shop platform: `redeem`, `target`, `runDue(nowMs)` (the reconciler), `start()`/`stop()` (server/loyalty/platform-rewards.ts). */
    platformRewards: rewards,
    /** Survey rewards created on the shop platform and customer profiles: `runDue(nowMs)` (the retry job), `start()`/`stop()`, `profile(storeId, email)` (server/surveys/survey-rewards.ts). */
    surveyRewards: surveyRewardsJob,
    /** The demo import's progress as this process knows it (server/demo/demo-status.ts): `/healthz` and the demo pages read it. */
    demoImport: demoImportStatus(),
    /** Stop the background jobs, the content-scope watcher, and close the database. */
    async close(): Promise<void> {
      await Promise.allSettled([worker.stop(), sender.stop(), webhooks.delivery.stop(), rewards.stop(), referralProgram.stop(), surveyRewardsJob.stop()]);
      watcher?.close();
      await contentScopes.close();
      await db.close();
    },
  };
}
export type Services = Awaited<ReturnType<typeof createServices>>;
