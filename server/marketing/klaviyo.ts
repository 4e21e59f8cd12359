/**
 * Composition of the Klaviyo connection (docs/klaviyo.md) for server/services.ts: the data module, the service
 * (settings, delivery log, erasure hook) and the send job over one clock and the installation key's secret box.
 */
import type { Db } from "../db/database.ts";
import type { SecretBox } from "../platforms/secret-box.ts";
import { klaviyoSender } from "./klaviyo-sender.ts";
import { klaviyoRepo } from "./klaviyo.repo.ts";
import { klaviyoService } from "./klaviyo.service.ts";

export type KlaviyoDeps = {
  db: Db;
  /** Seals the private API keys (the installation's platform secret box). */
  box: SecretBox;
  /** ALLOW_LOOPBACK_REQUESTS=1: a loopback stand-in (KLAVIYO_API_URL) is reachable. */
  allowLoopback: boolean;
  /** The clock, epoch ms. */
  now: () => number;
  log?: (line: string) => void;
  /**
   * The shopper's referral link, or null: the hook of the referrals feature (docs/klaviyo.md "Profile properties");
   * absent, no referral link is sent.
   */
  referralLink?: (storeId: string, email: string) => Promise<string | null>;
};

/** Build the Klaviyo service and its send job. KLAVIYO_API_URL is read at call time (a stand-in in tests). */
export function createKlaviyo(deps: KlaviyoDeps) {
  const repo = klaviyoRepo(deps.db);
  const service = klaviyoService({ db: deps.db, repo, box: deps.box, now: deps.now });
  const sender = klaviyoSender({
    db: deps.db,
    repo,
    box: deps.box,
    allowLoopback: deps.allowLoopback,
    now: deps.now,
    log: deps.log,
    referralLink: deps.referralLink,
    apiUrl: () => process.env.KLAVIYO_API_URL || undefined,
  });
  return { service, sender, repo };
}
