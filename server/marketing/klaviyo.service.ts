/**
 * Klaviyo (docs/klaviyo.md): the store's connection (a private API key, write-only, sealed with the installation key:
 * platforms/secret-box.ts), the `marketing` section of `GET/PATCH /enterprise/settings`, the delivery log of the
 * admin, and the erasure hook (an erased shopper's jobs are deleted and Klaviyo's profile deletion is queued).
 * The jobs themselves are written by the triggers of migration 111 and sent by klaviyo-sender.ts.
 */
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { transaction, type Db } from "../db/database.ts";
import type { SecretBox } from "../platforms/secret-box.ts";
import { isoFromMs } from "../shared/iso-date.ts";
import type { KlaviyoJobRow, KlaviyoRepo } from "./klaviyo.repo.ts";

/** Klaviyo's private API keys: `pk_` and letters and digits. */
const PRIVATE_KEY = /^pk_[A-Za-z0-9]{8,200}$/;

/** GET /enterprise/settings `marketing`. */
export const marketingSettingsSchema = z
  .object({
    klaviyo: z.object({
      privateApiKeySet: z.boolean().meta({
        description:
          "Whether a Klaviyo private API key is set (the key itself is never shown). While it is, reviews, questions, loyalty and survey events and profile properties are sent to Klaviyo (docs/klaviyo.md).",
      }),
    }),
  })
  .meta({ id: "MarketingSettings", description: "E-mail marketing tools Chorus sends events to." });

/** PATCH /enterprise/settings `marketing`. */
export const marketingSettingsPatch = z
  .object({
    klaviyo: z
      .object({
        privateApiKey: z.string().trim().regex(PRIVATE_KEY, "privateApiKey must be a Klaviyo private API key (pk_ followed by letters and digits)").nullable().optional().meta({
          description: "A Klaviyo private API key (`pk_…`, with the scopes events:write, profiles:write and data-privacy:write), write-only; `null` disconnects Klaviyo (queued calls are dropped).",
        }),
      })
      .strict()
      .optional(),
  })
  .strict();

export type MarketingSettings = z.output<typeof marketingSettingsSchema>;
export type MarketingSettingsPatch = z.output<typeof marketingSettingsPatch>;

/** A job as the admin's delivery log shows it. */
export type KlaviyoLogEntry = {
  jobId: string;
  kind: KlaviyoJobRow["kind"];
  name: string;
  email: string;
  status: KlaviyoJobRow["status"];
  attempts: number;
  nextAttempt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  created: string;
  delivered: string | null;
};

/** Create the Klaviyo service. */
export function klaviyoService(deps: { db: Db; repo: KlaviyoRepo; box: SecretBox; now: () => number }) {
  const { repo } = deps;
  return {
    /** The `marketing` settings section of the store. */
    async settings(storeId: string): Promise<MarketingSettings> {
      return { klaviyo: { privateApiKeySet: (await repo.account(storeId)) !== undefined } };
    },

    /** The last four characters of the key, for the admin ("…abcd"), or null when not connected. */
    async keyHint(storeId: string): Promise<string | null> {
      return (await repo.account(storeId))?.key_hint ?? null;
    },

    /** Apply a `marketing` patch (parsed again here: the admin calls it too). @throws ZodError on a bad key. */
    async updateSettings(storeId: string, patch: MarketingSettingsPatch): Promise<void> {
      const key = marketingSettingsPatch.parse(patch).klaviyo?.privateApiKey;
      if (key === undefined) return;
      await transaction(deps.db, async () => {
        if (key === null) await repo.deleteAccount(storeId);
        else await repo.setAccount(storeId, deps.box.seal(key), key.slice(-4), deps.now());
      });
    },

    /** The delivery log: the store's jobs, newest first (at most `limit`, before the job `beforeSeq`). */
    async log(storeId: string, limit = 100, beforeSeq?: number): Promise<KlaviyoLogEntry[]> {
      return (await repo.list(storeId, beforeSeq, limit)).map((r) => ({
        jobId: r.job_id,
        kind: r.kind,
        name: r.name,
        email: r.email,
        status: r.status,
        attempts: r.attempts,
        nextAttempt: r.status === "queued" ? isoFromMs(r.next_attempt_ms) : null,
        lastStatusCode: r.last_status_code,
        lastError: r.last_error,
        created: isoFromMs(r.created_ms),
        delivered: r.delivered_ms === null ? null : isoFromMs(r.delivered_ms),
      }));
    },

    /**
     * The erasure hook (server/privacy, joins its transaction): delete every job about `email`, and when the store is
     * connected queue Klaviyo's profile deletion request for it (docs/klaviyo.md "Erasure"). @returns the jobs deleted.
     */
    async forgetEmail(storeId: string, email: string): Promise<number> {
      const deleted = await repo.forgetEmail(storeId, email);
      if (await repo.account(storeId)) {
        await repo.enqueue({ jobId: `kl_${randomUUID().replaceAll("-", "")}`, storeId, kind: "deletion", name: "Profile deletion", email }, deps.now());
      }
      return deleted;
    },
  };
}
export type KlaviyoService = ReturnType<typeof klaviyoService>;
