/**
 * Environment configuration, validated with zod (a bad value stops start-up with a clear message).
 * Names are fixed by the developers' guide: PORT, DATABASE_PATH, MEDIA_PATH, DEMO_DATA_DIR,
 * DEMO_API_KEY, DEMO_PLATFORM_SECRET, DEMO_ADMIN_PASSWORD.
 */
import { availableParallelism } from "node:os";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { compileProxyTrust } from "./shared/proxy-trust.ts";
import { DEFAULT_MAIL_FROM, parseMailFrom } from "./mail/address.ts";

/** The project root (the folder holding package.json). */
export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  DATABASE_PATH: z.string().min(1).default(resolve(PROJECT_ROOT, "data/chorus.sqlite")),
  /**
   * PostgreSQL instead of the SQLite file (issue #26, docs/deployment.md): `postgres://user:password@host:port/db`.
   * When set, it is the database every process opens (DATABASE_PATH is then ignored).
   */
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/\S+$/i, "DATABASE_URL must be a postgres:// URL")
    .optional(),
  MEDIA_PATH: z.string().min(1).default(resolve(PROJECT_ROOT, "data/media")),
  DEMO_DATA_DIR: z.string().min(1).default(resolve(PROJECT_ROOT, "../shared/data")),
  DEMO_API_KEY: z.string().min(16, "DEMO_API_KEY must be at least 16 characters").optional(),
  DEMO_PLATFORM_SECRET: z.string().min(16, "DEMO_PLATFORM_SECRET must be at least 16 characters").optional(),
  DEMO_ADMIN_PASSWORD: z.string().min(8, "DEMO_ADMIN_PASSWORD must be at least 8 characters").optional(),
  /** Set to 0 to turn off the in-memory response cache for public storefront GETs (benchmarks compare both). */
  RESPONSE_CACHE: z.enum(["0", "1"]).default("1"),
  /** Most memory the response cache holds for answer bodies and their compressed copies, in MiB (docs/performance.md). */
  RESPONSE_CACHE_MB: z.coerce.number().int().min(1).max(65_536).default(256),
  /** Threads computing response-cache misses of public storefront reads (server/http/read-workers.ts); default one per core beyond the first, at most 4. */
  READ_WORKERS: z.coerce
    .number()
    .int()
    .min(0)
    .max(64)
    .default(Math.min(Math.max(availableParallelism() - 1, 0), 4)),
  /** Review/question submissions allowed per client IP and per e-mail per hour (docs/writes.md). */
  SUBMISSIONS_PER_IP_PER_HOUR: z.coerce.number().int().min(1).default(20),
  SUBMISSIONS_PER_EMAIL_PER_HOUR: z.coerce.number().int().min(1).default(5),
  /** Storefront survey responses stored per client address per hour (docs/writes.md). */
  SURVEY_RESPONSES_PER_IP_PER_HOUR: z.coerce.number().int().min(1).default(20),
  /** Referral links asked for (`POST /referral_senders`) per client address per hour (docs/loyalty.md "Referrals"). */
  REFERRAL_SENDERS_PER_IP_PER_HOUR: z.coerce.number().int().min(1).default(20),
  /** New helpful votes counted per client address per hour in a store (docs/writes.md). */
  VOTES_PER_IP_PER_HOUR: z.coerce.number().int().min(1).default(30),
  /** Reverse proxies whose X-Forwarded-For is believed for client addresses (server/http/client-address.ts); empty = none. */
  TRUSTED_PROXIES: z
    .string()
    .default("")
    .refine((spec) => {
      try {
        compileProxyTrust(spec);
        return true;
      } catch {
        return false;
      }
    }, "TRUSTED_PROXIES must list IP addresses, CIDR ranges or loopback/linklocal/uniquelocal, separated by commas"),
  /** The origin of absolute URLs in answers (media), e.g. `https://reviews.example.com`; default `http://localhost:PORT` (server/http/public-origin.ts). */
  PUBLIC_URL: z.url({ protocol: /^https?$/, error: "PUBLIC_URL must be an http(s) URL, e.g. https://reviews.example.com" }).optional(),
  /** Request and error log level (pino): trace, debug, info, warn, error, fatal or silent. */
  LOG_LEVEL: z.enum(["trace", "debug", "info", "warn", "error", "fatal", "silent"]).default("info"),
  /** Outgoing mail server, `smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://...:465`; unset: mail is kept in the outbox, not sent (docs/mail.md). */
  SMTP_URL: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.url({ protocol: /^smtps?$/, error: "SMTP_URL must be an smtp:// or smtps:// URL, e.g. smtp://user:pass@mail.example.com:587" }).optional(),
  ),
  /** The From of every message, `Name <address>` or `address` (docs/mail.md). */
  MAIL_FROM: z
    .string()
    .default(DEFAULT_MAIL_FROM)
    .refine((v) => parseMailFrom(v) !== null, "MAIL_FROM must be one address, e.g. Chorus <no-reply@reviews.example.com>"),
  /** Days the outbox keeps a message's content (HTML, text) after it was created; then only its list entry stays (docs/mail.md). */
  MAIL_KEEP_DAYS: z.coerce.number().int().min(1, "MAIL_KEEP_DAYS must be a whole number of days, at least 1").max(36_500).default(90),
  /** `open`: anyone can sign up a store at /admin/signup; `closed` (default): only operators create stores (docs/admin.md). */
  SIGNUP: z.enum(["open", "closed"], { error: "SIGNUP must be open or closed" }).default("closed"),
  /** Store sign-ups (and new stores by non-operators) per client address per hour (docs/admin.md). */
  SIGNUPS_PER_IP_PER_HOUR: z.coerce.number().int().min(1).default(5),
  /**
   * `1`: outgoing requests made for merchants (import media, webhooks, platform APIs) may reach loopback
   * addresses, over http or https (tests and local development only; server/shared/outgoing-request.ts,
   * docs/webhooks.md, docs/import.md). Never private or other non-public addresses.
   */
  ALLOW_LOOPBACK_REQUESTS: z.enum(["0", "1"], { error: "ALLOW_LOOPBACK_REQUESTS must be 0 or 1" }).default("0"),
  /**
   * How long a node's claim on a webhook delivery holds (ms) before another node may send it again, when the node died
   * while sending (server/webhooks/delivery.ts, docs/webhooks.md). Longer than an attempt can last (15 s).
   */
  WEBHOOK_LEASE_MS: z.coerce
    .number({ error: "WEBHOOK_LEASE_MS must be a number of milliseconds" })
    .int("WEBHOOK_LEASE_MS must be a whole number of milliseconds")
    .min(20_000, "WEBHOOK_LEASE_MS must be at least 20000 (longer than a delivery attempt, 15 s)")
    .max(3_600_000, "WEBHOOK_LEASE_MS must be at most 3600000 (an hour)")
    .default(60_000),
  /** The older name of ALLOW_LOOPBACK_REQUESTS: either set to `1` turns the switch on (`loopbackRequestsAllowed`). */
  ALLOW_INSECURE_WEBHOOKS: z.enum(["0", "1"], { error: "ALLOW_INSECURE_WEBHOOKS must be 0 or 1" }).default("0"),
  /** Shopify Admin GraphQL endpoint for writing snippet metafields; default `https://{shop}/admin/api/{version}/graphql.json` (docs/snippets.md). */
  SHOPIFY_ADMIN_API_URL: z.preprocess((v) => (v === "" ? undefined : v), z.url({ protocol: /^https?$/, error: "SHOPIFY_ADMIN_API_URL must be an http(s) URL" }).optional()),
  /** Klaviyo's API origin; default `https://a.klaviyo.com` (docs/klaviyo.md; a stand-in in tests). Read at call time. */
  KLAVIYO_API_URL: z.preprocess((v) => (v === "" ? undefined : v), z.url({ protocol: /^https?$/, error: "KLAVIYO_API_URL must be an http(s) URL" }).optional()),
  /**
   * HTTP caches in front to purge on every change (Varnish with deploy/varnish/chorus.vcl), comma-separated
   * http(s) URLs, e.g. `http://10.0.0.5:6081/`; a shared secret as user info `http://chorus:SECRET@host:6081/`.
   * Set: storefront answers carry `xkey` tags (docs/deployment.md). Empty (default): none.
   */
  CACHE_PURGE_URLS: z
    .string()
    .default("")
    .transform((v) =>
      v
        .split(",")
        .map((u) => u.trim())
        .filter(Boolean),
    )
    .refine((urls) => urls.every((u) => URL.canParse(u) && /^https?:$/.test(new URL(u).protocol)), "CACHE_PURGE_URLS must list http(s) URLs separated by commas, e.g. http://10.0.0.5:6081/"),
  /** Set to 0 to skip creating the demo store on an empty database. */
  CHORUS_DEMO: z.enum(["0", "1"]).default("1"),
  /**
   * When the demo data is imported: `background` (after the server listens, with its progress in /healthz and on the
   * demo pages) or `before-listen` (the server answers once the demo store is complete: test and benchmark servers).
   */
  DEMO_IMPORT: z.enum(["background", "before-listen"]).default("background"),
});
export type Config = z.output<typeof schema>;

/** Whether outgoing requests may reach loopback addresses: ALLOW_LOOPBACK_REQUESTS=1 or its alias ALLOW_INSECURE_WEBHOOKS=1. */
export const loopbackRequestsAllowed = (config: Pick<Config, "ALLOW_LOOPBACK_REQUESTS" | "ALLOW_INSECURE_WEBHOOKS">): boolean =>
  config.ALLOW_LOOPBACK_REQUESTS === "1" || config.ALLOW_INSECURE_WEBHOOKS === "1";

/** The database location for messages: the SQLite file, or the PostgreSQL URL without its credentials. */
export function databaseLabel(location: string): string {
  return location.replace(/\/\/[^@/]*@/, "//");
}

/** Read and validate configuration from `env`. @throws Error listing every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const result = schema.safeParse(env);
  if (!result.success) {
    throw new Error(`Bad configuration: ${result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  }
  const c = result.data;
  // DATABASE_PATH is the location every module opens: the SQLite file, or the PostgreSQL URL when one is given.
  return { ...c, DATABASE_PATH: c.DATABASE_URL ?? resolve(c.DATABASE_PATH), MEDIA_PATH: resolve(c.MEDIA_PATH), DEMO_DATA_DIR: resolve(c.DEMO_DATA_DIR) };
}
