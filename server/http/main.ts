/**
 * `npm start` / `npm run serve`: migrate, create the demo store's credentials on an empty database, serve on PORT,
 * then import the demo data in the background (server/demo/demo.ts `startDemoImport`: progress on the console, in
 * `/healthz` and on the demo pages).
 * SIGTERM/SIGINT stop accepting connections, let in-flight requests finish, stop the AI worker thread
 * after its current job, then close the database.
 */
import type { ServerBuild } from "@remix-run/node";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { loadConfig, loopbackRequestsAllowed, PROJECT_ROOT, databaseLabel } from "../config.ts";
import { DEMO_STORE_ID, ensureDemoStore, prepareDemoStore, startDemoImport, type DemoImport } from "../demo/demo.ts";
import { createServices } from "../services.ts";
import { startAiWorkerThread, type AiWorkerThread } from "../ai/worker-host.ts";
import { createHttpServer } from "./app.ts";
import { createLogger, flushLogs } from "./logging.ts";
import { startMediaSweeper } from "../media/media-retention.ts";
import { startWorkerPool } from "./read-workers.ts";
import { originOf } from "./public-origin.ts";
import { startReviewRequestScheduler } from "../review-requests/scheduler.ts";
import { startLoyaltyLifecycleJob } from "../loyalty/lifecycle-job.ts";
import { startHeldReviewPublisher } from "../admin/held-reviews.ts";
import { startupBannerLines } from "./startup-banner.ts";

const log = (line: string) => process.stdout.write(`${line}\n`);
/** `smtp://host:port` of SMTP_URL, without its user and password (for the log). */
const smtpServer = (url: string) => {
  const u = new URL(url);
  return `${u.protocol}//${u.host}`;
};

async function main(): Promise<void> {
  const config = loadConfig();
  const buildFile = join(PROJECT_ROOT, "build/server/index.js");
  if (!existsSync(buildFile)) throw new Error("No build found: run `npm run build` first (npm start does it for you).");
  const services = await createServices({
    databasePath: config.DATABASE_PATH,
    mediaPath: config.MEDIA_PATH,
    log,
    mail: { smtpUrl: config.SMTP_URL, from: config.MAIL_FROM },
    allowLoopbackRequests: loopbackRequestsAllowed(config),
    webhooks: { publicUrl: config.PUBLIC_URL ?? `http://localhost:${config.PORT}`, leaseMs: config.WEBHOOK_LEASE_MS },
    rewards: { demoStoreId: config.CHORUS_DEMO === "1" ? DEMO_STORE_ID : undefined }, // the demo store's built-in demo platform
  });
  log(`Database: ${databaseLabel(config.DATABASE_PATH)}`); // a PostgreSQL URL without its credentials
  services.submissionLimiter.configure({
    perIp: { max: config.SUBMISSIONS_PER_IP_PER_HOUR, windowMs: 3_600_000 },
    perEmail: { max: config.SUBMISSIONS_PER_EMAIL_PER_HOUR, windowMs: 3_600_000 },
  });
  services.surveyLimiter.configure({ max: config.SURVEY_RESPONSES_PER_IP_PER_HOUR, windowMs: 3_600_000 });
  services.referralLimiter.configure({ max: config.REFERRAL_SENDERS_PER_IP_PER_HOUR, windowMs: 3_600_000 });
  services.voteLimits.configure({ perAddress: { max: config.VOTES_PER_IP_PER_HOUR, windowMs: 3_600_000 } });
  services.signup.configure({ open: config.SIGNUP === "open", perAddress: { max: config.SIGNUPS_PER_IP_PER_HOUR, windowMs: 3_600_000 } });
  // Credentials shown once (first start) are kept for the banner, the last lines of the start-up output.
  const notices: string[] = [];
  const demoContext = { services, config, log, notice: (line: string) => notices.push(line) };
  if (config.CHORUS_DEMO === "1" && config.DEMO_IMPORT === "before-listen") await ensureDemoStore(demoContext);
  else if (config.CHORUS_DEMO === "1") await prepareDemoStore(demoContext);
  let demoImport: DemoImport | null = null;
  let aiThread: AiWorkerThread | null = null;
  const build = (await import(pathToFileURL(buildFile).href)) as ServerBuild;
  // One pool of worker threads (read-workers.ts, piscina): READ_WORKERS threads compute cache misses of public
  // storefront reads on other cores, and one more runs the AI queue loop.
  const aiInPool = services.aiConfig.worker && !services.aiConfig.workerInline;
  const pool =
    config.READ_WORKERS > 0 || aiInPool
      ? startWorkerPool({ readThreads: config.READ_WORKERS, aiThread: aiInPool, databasePath: config.DATABASE_PATH, mediaPath: config.MEDIA_PATH, buildUrl: pathToFileURL(buildFile), log })
      : null;
  const readWorkers = pool?.readWorkers;
  const logger = createLogger(config.LOG_LEVEL);
  const server = createHttpServer({
    services,
    build,
    root: PROJECT_ROOT,
    cache: config.RESPONSE_CACHE === "1",
    cacheBytes: config.RESPONSE_CACHE_MB * 1024 * 1024,
    trustedProxies: config.TRUSTED_PROXIES,
    readWorkers,
    publicUrl: config.PUBLIC_URL,
    logger,
    cachePurgeUrls: config.CACHE_PURGE_URLS,
  });
  server.on("error", (error: NodeJS.ErrnoException) => {
    // One clear line for the common start-up failures instead of a stack trace.
    if (error.code === "EADDRINUSE") console.error(`Port ${config.PORT} is already in use: stop the other server or set PORT to a free port.`);
    else if (error.code === "EACCES") console.error(`Not allowed to listen on port ${config.PORT}: choose a port above 1023 or run with the needed rights.`);
    else console.error(`The server could not start: ${error.message}`);
    process.exit(1);
  });
  // Media retention: rejected items' files go a week after rejection, orphans and stale uploads too (server/media/media-retention.ts).
  const mediaSweeper = startMediaSweeper({ db: services.db, mediaRows: services.mediaRows, mediaPath: services.mediaPath, log });
  // Outgoing mail: the outbox's send job (server/mail/sender.ts); without SMTP_URL mail is kept, not sent.
  services.mailSender.start();
  // The outbox keeps a message's content for MAIL_KEEP_DAYS (docs/mail.md "Retention"): pruned a minute after the
  // start (its log line never lands among the start-up banner's) and hourly.
  const pruneMail = () => {
    services.mail.pruneContent(config.MAIL_KEEP_DAYS).then(
      (pruned) => pruned > 0 && log(`Mail: removed the content of ${pruned} messages older than ${config.MAIL_KEEP_DAYS} days from the outbox`),
      (error: unknown) => log(`Mail: pruning the outbox failed, next try in an hour: ${error instanceof Error ? error.message : String(error)}`),
    );
  };
  const firstMailPrune = setTimeout(pruneMail, 60_000);
  firstMailPrune.unref();
  const mailPruner = setInterval(pruneMail, 3_600_000);
  mailPruner.unref();
  log(services.mailSender.enabled ? `Mail: sending through ${smtpServer(config.SMTP_URL!)} as ${config.MAIL_FROM}` : "Mail: SMTP_URL not set, mail is kept in the outbox (/admin/outbox)");
  // An HTTP cache in front (docs/deployment.md): purged by content scope on every change (server/http/cache-purge.ts).
  if (config.CACHE_PURGE_URLS.length) {
    const shown = config.CACHE_PURGE_URLS.map((u) => Object.assign(new URL(u), { username: "", password: "" }).href);
    log(`Cache purge: answers carry xkey tags; changes are purged from ${shown.join(", ")}`);
  }
  // Outgoing webhooks: the delivery queue of the event outbox (server/webhooks/delivery.ts).
  services.webhookDelivery.start();
  // Loyalty rewards: the reconciler of rewards left pending by a crash or a platform timeout (server/loyalty/platform-rewards.ts).
  services.platformRewards.start();
  // Klaviyo: the send job of its outbox (server/marketing/klaviyo-sender.ts).
  services.klaviyoSender.start();
  services.referrals.start();
  // Survey rewards: the retry job of coupons the platform could not create at once (server/surveys/survey-rewards.ts).
  services.surveyRewards.start();
  if (loopbackRequestsAllowed(config)) {
    const name = config.ALLOW_LOOPBACK_REQUESTS === "1" ? "ALLOW_LOOPBACK_REQUESTS=1" : "ALLOW_INSECURE_WEBHOOKS=1 (the older name of ALLOW_LOOPBACK_REQUESTS)";
    log(`Outgoing requests: ${name}, webhooks, import media and platform calls may reach loopback addresses, webhooks over http:// too (never in production)`);
  }
  // Review requests: the persisted schedule (server/review-requests/scheduler.ts), a run every minute on the wall
  // clock; links in the e-mails use PUBLIC_URL (else this server's local address).
  const reviewRequestScheduler = startReviewRequestScheduler({
    service: services.reviewRequests,
    origin: config.PUBLIC_URL ? originOf(config.PUBLIC_URL) : `http://localhost:${config.PORT}`,
    log,
  });
  // Held reviews: a review still pending after the store's publishHeldAfterDays (default 14) is published
  // (server/admin/held-reviews.ts), at start and every 10 minutes; each review once, with one node or several.
  const heldReviewPublisher = startHeldReviewPublisher({ service: services.moderation, log });
  // Loyalty lifecycle: birthdays, expiry reminders and expiries, pending order points (server/loyalty/lifecycle-job.ts).
  const loyaltyLifecycleJob = startLoyaltyLifecycleJob({ service: services.loyaltyLifecycle, log });
  server.listen(config.PORT, config.HOST, () => {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : config.PORT;
    const listening = `http://localhost:${port}`;
    const base = config.PUBLIC_URL?.replace(/\/+$/, "") ?? listening;
    // AI generation runs on the pool's spare thread once the server answers (server/ai/worker-host.ts):
    // its NLP never runs on this event loop, and a crash of its thread restarts the loop, never this server.
    // With the demo, after its import: the summaries need the reviews, and the import's write transactions would
    // keep the worker's first writes waiting on SQLite's lock.
    const startAi = () => {
      if (stopping) return;
      if (services.aiConfig.workerInline) services.aiWorker.start().catch((error: unknown) => log(`AI worker could not start: ${error instanceof Error ? error.message : String(error)}`));
      else if (aiInPool) aiThread = startAiWorkerThread({ pool: pool!.piscina, databasePath: config.DATABASE_PATH, mediaPath: config.MEDIA_PATH, log });
    };
    if (config.CHORUS_DEMO !== "1" || config.DEMO_IMPORT === "before-listen") startAi();
    printBanner(listening, base)
      .catch((error: unknown) => console.error(`The start-up banner could not be read: ${error instanceof Error ? error.message : String(error)}`))
      // The demo data after the banner: the server answers meanwhile, the pages and /healthz say how far it is.
      .finally(() => {
        if (config.CHORUS_DEMO !== "1" || config.DEMO_IMPORT === "before-listen" || stopping) return;
        demoImport = startDemoImport(demoContext);
        void demoImport.finished.then(startAi);
      });
  });

  /** The start-up banner (the demo store's pages when it exists), printed once the server listens. */
  async function printBanner(listening: string, base: string): Promise<void> {
    const demoStore = config.CHORUS_DEMO === "1" ? await services.stores.get(DEMO_STORE_ID) : undefined;
    const questionsProduct = demoStore ? (await services.questions.productsWithMostQuestions(DEMO_STORE_ID, 1))[0] : undefined;
    const banner = startupBannerLines({
      listening,
      base,
      notices,
      demo: demoStore
        ? {
            storeId: DEMO_STORE_ID,
            questionsProductKey: questionsProduct ? `${demoStore.platform}-${questionsProduct.productId}` : undefined,
            apiKeyHint: config.DEMO_API_KEY ? "DEMO_API_KEY" : "the key printed when the demo store was created",
          }
        : null,
    });
    for (const line of banner) log(line);
  }

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: finishing in-flight requests ...`);
    demoImport?.stop();
    const workerStopped = aiThread?.stop() ?? services.aiWorker.stop();
    mediaSweeper.stop();
    reviewRequestScheduler.stop();
    heldReviewPublisher.stop();
    loyaltyLifecycleJob.stop();
    const mailStopped = services.mailSender.stop();
    clearTimeout(firstMailPrune);
    clearInterval(mailPruner);
    const webhooksStopped = services.webhookDelivery.stop();
    const klaviyoStopped = services.klaviyoSender.stop();
    const finish = async () => {
      await workerStopped;
      await mailStopped;
      await webhooksStopped;
      await klaviyoStopped;
      await demoImport?.finished; // its current seeder ends first, so the database is not closed under it
      await pool?.close();
      await services.close();
      log("Stopped.");
      flushLogs(logger);
      process.exit(0);
    };
    server.close(() => void finish());
    // Connections that finish their in-flight request become idle keep-alive connections: close
    // those as they appear, so close() completes as soon as the last response is sent.
    server.closeIdleConnections();
    setInterval(() => server.closeIdleConnections(), 50).unref();
    setTimeout(() => process.exit(1), 10_000).unref();
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
